#!/usr/bin/env bash
# Device calls of session 10: tt.reduce's cross-warp step combines the partials with all of the
# CTA's threads (a shuffle butterfly over each output's slots, as upstream 3.6) instead of every
# thread combining all slots of its outputs; with a combiner that is not one commutative op only
# the lane of axis position 0 stores its warp's partial.
# PART=1: the whole harness on sm_90, then the reduction rows re-timed (RETIMES=N, default 2).
# PART=3: the issue's Hopper rows (persistent TMA, warp-specialized, fp8, TMA attention) re-timed
# RETIMES times (default 2), for the from-TTIR column as much as the same-TTGIR one.
# PART=4: upstream's Hopper tests through the plug-in (test_tensor_descriptor, test_warp_specialization,
# test_pipeliner, test_matmul, test_conversions).
# PART=2: test_core.py through the plug-in, then (LIBDEVICE_TESTS=1) test_libdevice.py and
# test_standard.py (math through libdevice, linked since 50a6c39 with LinkOnlyNeeded).
# Here:   PATH=.tools/venv/bin:$PATH bash bench/build.sh && tar -C out -cJf out/bench.tar.xz bench
#         bash bench/pack_wheel.sh          (out/py)
# There:  PART=1 bash bench/gpu_session10.sh   (carry out/py, out/bench.tar.xz; move
#         test/fixtures/corpus/ir aside for the call: the device tool carries 64 MiB)
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
nvidia-smi -L
REDUCTIONS='^(argmax_rows|softmax|tut02_softmax|tut05_ln|layernorm_f16|rmsnorm|cumsum_rows|tut03_matmul_64x256)'
if [ "${PART:-1}" = 1 ]; then
  harness_run harness90 470
  for i in $(seq 1 ${RETIMES:-2}); do
    harness_run retime$i 150 "$REDUCTIONS"
  done
  echo "===== harness sm90: rows not correct, or ratio above 1.05"
  awk -F'|' '/^\| /{ if ($9 ~ /no/ || $11 ~ /no/ || ($7+0) > 1.05) print }' $OUT/harness90.log | head -40
  grep -c "^| " $OUT/harness90.log; tail -8 $OUT/harness90.log
  echo "===== reduction rows, whole run then re-timings"
  grep -E "^\| (argmax_rows|softmax|tut02_softmax|tut05_ln|layernorm_f16|rmsnorm|cumsum_rows|tut03_matmul_64x256)" $OUT/harness90.log
  for i in $(seq 1 ${RETIMES:-2}); do echo "-- retime $i"; grep "^| [a-z]" $OUT/retime$i.log | grep -v "^| kernel"; done
elif [ "${PART}" = 4 ]; then
  for t in test_warp_specialization test_pipeliner test_conversions test_matmul test_tensor_descriptor; do
    CAUSES=20 PYTEST_TIMEOUT=200 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/$t.py $OUT/$t > $OUT/$t-summary.log 2>&1
    echo "== $t"; head -8 $OUT/$t-summary.log
  done
elif [ "${PART}" = 3 ]; then
  for i in $(seq 1 ${RETIMES:-2}); do
    echo "-- Hopper rows, timing $i ($(harness_run hopper$i 200 '^(ws_|persist_tma|persist_device|matmul_fp8_e4m3$|attn_fwd_tma)'))"; grep "^| [a-z]" $OUT/hopper$i.log | grep -v "^| kernel"
  done
else
  CAUSES=20 PYTEST_TIMEOUT=${PYTEST_TIMEOUT:-480} bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_core.py $OUT/core > $OUT/core-summary.log 2>&1
  echo "== test_core"; head -30 $OUT/core-summary.log
  if [ "${LIBDEVICE_TESTS:-0}" = 1 ]; then
    for t in test_libdevice test_standard; do
      CAUSES=20 PYTEST_TIMEOUT=120 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/$t.py $OUT/$t > $OUT/$t-summary.log 2>&1
      echo "== $t"; head -8 $OUT/$t-summary.log
    done
  fi
fi
