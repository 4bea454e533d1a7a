#!/usr/bin/env bash
# Device calls of session 9: membar follows partition captures and loop arguments to their
# buffers (one bar.sync less per k-iteration in warp-specialized consumers) and thread ids
# masked to the warps that run the code (ptxas then keeps a warp-specialized kernel's
# mbarrier inits uniform); then 32-bit `or disjoint` handed to NVPTX as `add nuw nsw` (LLVM 22's
# SLSR strength-reduces a tile's row offsets again; PTX of many kernels changes).
# PART=1: the whole harness on sm_90, the ws / large-tile / persistent rows re-timed (three
# times; RETIMES=N), test_warp_specialization.py through the plug-in; with TESTS=1 also
# test_tensor_descriptor.py, test_pipeliner.py and test_matmul.py through it. PART=2:
# the small fp8 / scaled-dot rows and tut03_matmul_64x256 re-timed three times, then
# test_core.py through the plug-in.
# Here:   PATH=.tools/venv/bin:$PATH bash bench/build.sh && tar -C out -cJf out/bench.tar.xz bench
#         bash bench/pack_wheel.sh          (out/py)
# There:  PART=1 bash bench/gpu_session9.sh   (carry out/py, out/bench.tar.xz; move
#         test/fixtures/corpus/ir aside for the call: the device tool carries 64 MiB)
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
nvidia-smi -L
if [ "${PART:-1}" = 1 ]; then
  harness_run harness90 480
  for i in $(seq 1 ${RETIMES:-3}); do
    harness_run retime$i 60 '^(ws_|fill_constant|masked_fill|persist_tma|tut09|tut03)'
  done
  CAUSES=20 PYTEST_TIMEOUT=90 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_warp_specialization.py $OUT/ws > $OUT/ws-summary.log 2>&1
  head -12 $OUT/ws-summary.log
  echo "===== harness sm90: rows not correct, or ratio above 1.05"
  awk -F'|' '/^\| /{ if ($9 ~ /no/ || $11 ~ /no/ || ($7+0) > 1.05) print }' $OUT/harness90.log | head -40
  grep -c "^| " $OUT/harness90.log; tail -12 $OUT/harness90.log
  echo "===== ws / large-tile / persistent rows, whole run then three re-timings"
  grep "^| ws_\|^| fill_constant\|^| persist_tma\|^| tut09\|^| attn_fwd_tma" $OUT/harness90.log
  for i in $(seq 1 ${RETIMES:-3}); do echo "-- retime $i"; grep "^| " $OUT/retime$i.log; done
  if [ "${TESTS:-0}" = 1 ]; then
    for t in test_tensor_descriptor test_pipeliner test_matmul; do
      CAUSES=20 PYTEST_TIMEOUT=150 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/$t.py $OUT/$t > $OUT/$t-summary.log 2>&1
      echo "== $t"; head -8 $OUT/$t-summary.log
    done
  fi
else
  for i in 1 2 3; do
    echo "-- small rows, timing $i ($(harness_run small$i 60 '^(fp8_|dot_scaled|tut03_matmul_64x256)'))"; grep "^| [a-z]" $OUT/small$i.log | grep -v "^| kernel"
  done
  CAUSES=20 PYTEST_TIMEOUT=300 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_core.py $OUT/core > $OUT/core-summary.log 2>&1
  echo "== test_core"; head -30 $OUT/core-summary.log
fi
