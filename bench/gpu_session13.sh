#!/usr/bin/env bash
# Device calls of session 13: issue 12's confirming runs on the final build of session 12 (42af757),
# then the sm_80 bundles before and after this session's mma.sync changes.
# PART=1: the whole harness in one run (what bench/gpu_session12.sh PART=3 does; kept there).
# PART=2: upstream's tests through the plug-in (wheel from bench/pack_wheel.sh): test_core,
#         test_tensor_descriptor, test_warp_specialization.
# PART=3: the same for test_matmul, test_pipeliner, test_conversions.
# PART=4: after ldmatrix/stmatrix for 8- and 32-bit elements in ttg.convert_layout (transfer.rs):
#         the harness rows whose PTX it changes (atomic_add_hist, dot_scaled_e2m1; the other
#         dot_scaled rows beside them), then test_core and test_conversions through the plug-in.
# PART=5: the whole harness with the sm_80 bundles (--target cuda80: Triton's ptxas assembles
#         their PTX for the H200's sm_90; mma.sync, ldmatrix, cp.async paths), last timed in session 7.
# PART=6: after mma.sync in upstream's order (K outermost: ops/dot.rs) and the matmul epilogue's
#         narrowed accumulator paired freely in the scratch (transfer.rs, convert/mod.rs): the
#         sm_80 harness again, then the two sm_90 rows whose PTX the order changes.
# Here:   PATH=.tools/venv/bin:$PATH bash bench/build.sh; bash bench/pack_wheel.sh;
#         tar -C out -cJf out/bench.tar.xz bench
# There:  PART=2 bash bench/gpu_session13.sh (carry out/py, out/bench.tar.xz; move
#         test/fixtures/corpus/ir aside for the call)
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
nvidia-smi -L
case "${PART:-1}" in
  1) PART=3 bash "$(dirname "$0")/gpu_session12.sh" ;;
  2) upstream_tests test_core:200 test_tensor_descriptor:150 test_warp_specialization:150 ;;
  3) upstream_tests test_matmul:150 test_pipeliner:100 test_conversions:100 ;;
  4) harness_run matrix32 150 '^(atomic_add_hist|dot_scaled_)'; summary matrix32
     upstream_tests test_core:200 test_conversions:100 ;;
  5) HARNESS_ARGS="--target cuda80" harness_run harness80 ${LIMIT:-520}; head -1 $OUT/harness80.log
     echo "===== rows not correct, or ratio above 1.00"
     summary harness80 | awk '/WRONG|error/ || / tritium=1\.(00[1-9]|0[1-9]|[1-9])/'
     grep -c '^{' $OUT/harness80.log ;;
  6) PART=5 LIMIT=${LIMIT:-400} bash "$0"
     harness_run mma90 90 '^(tut03_matmul_64x32x32_s5w2|batched_desc_matmul)'; summary mma90 ;;
esac
