#!/usr/bin/env bash
# One device call (session 8): upstream's warp-specialization algorithm and upstream's
# shared-memory offsets, on the GPU. PART=1: the whole harness on sm_90 (every kernel's
# shared memory is laid out anew; the ws_* rows go through the new nvgpu-warp-specialization
# from TTIR) and the tutorial rows on sm_80, then test_warp_specialization.py through the
# plug-in. PART=2: test_core.py and test_tensor_descriptor.py through the plug-in.
# Here:   PATH=.tools/venv/bin:$PATH bash bench/build.sh && tar -C out -cJf out/bench.tar.xz bench
#         bash bench/pack_wheel.sh          (out/py)
# There:  PART=1 bash bench/gpu_ws_upstream_algorithm.sh   (carry out/py, out/bench.tar.xz; move
#         test/fixtures/corpus/ir aside for the call: the device tool carries 64 MiB)
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
nvidia-smi -L
if [ "${PART:-1}" = 1 ]; then
  mkdir -p $OUT/h90 $OUT/h80
  timeout 330 python3 bench/harness.py --out $OUT/h90 > $OUT/harness90.log 2>&1; echo "harness90 rc=$?"
  timeout 60 python3 bench/harness.py --filter '^tut' --target cuda80 --out $OUT/h80 > $OUT/harness80.log 2>&1; echo "harness80 rc=$?"
  CAUSES=20 PYTEST_TIMEOUT=90 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_warp_specialization.py $OUT/ws > $OUT/ws-summary.log 2>&1
  head -20 $OUT/ws-summary.log
  echo "===== harness sm90: rows not correct, or ratio above 1.05"
  awk -F'|' '/^\| /{ if ($9 ~ /no/ || $11 ~ /no/ || ($7+0) > 1.05) print }' $OUT/harness90.log | head -40
  grep -c "^| " $OUT/harness90.log; tail -12 $OUT/harness90.log
  echo "===== ws rows"; grep "^| ws_\|^| tut09\|^| attn_fwd_tma" $OUT/harness90.log
  echo "===== harness sm80"; tail -8 $OUT/harness80.log
else
  CAUSES=20 PYTEST_TIMEOUT=250 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_core.py $OUT/core > $OUT/core-summary.log 2>&1
  head -30 $OUT/core-summary.log
  CAUSES=20 PYTEST_TIMEOUT=200 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_tensor_descriptor.py $OUT/td > $OUT/td-summary.log 2>&1
  head -20 $OUT/td-summary.log
fi
