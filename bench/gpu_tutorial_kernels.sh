#!/usr/bin/env bash
# One device call: the harness on the tutorial kernels and the warp-specialized kernels (sm_90
# bundles; tutorials also from the sm_80 bundles), then upstream's test_warp_specialization and
# test_core through the plug-in, beside the workload cases with a wgmma A operand in registers.
#
# Here:   PATH=.tools/venv/bin:$PATH bash bench/build.sh && tar -C out -cJf out/bench.tar.xz bench
#         bash bench/pack_wheel.sh          (out/py)
# There:  bash bench/gpu_tutorial_kernels.sh   (carry out/py, out/bench.tar.xz)
# The working tree plus what is carried must stay under the device tool's 64 MiB: the corpus IR
# (test/fixtures/corpus/ir, ~46 MB) is not needed there and can be moved aside for the call.
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
nvidia-smi -L
mkdir -p $OUT/h90 $OUT/h80
timeout 170 python3 bench/harness.py --filter '^tut|^ws_' --out $OUT/h90 > $OUT/harness90.log 2>&1; echo "harness90 rc=$?"
timeout 60 python3 bench/harness.py --filter '^tut' --target cuda80 --out $OUT/h80 > $OUT/harness80.log 2>&1; echo "harness80 rc=$?"
(timeout 100 python3 bench/workloads/check.py run --which tritium --filter 'scaled_a|tf32x3|bf16x3' --timeout 100 > $OUT/workloads.log 2>&1; echo "workloads rc=$?" >> $OUT/workloads.log) &
CAUSES=20 PYTEST_TIMEOUT=70 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_warp_specialization.py $OUT/ws > $OUT/ws-summary.log 2>&1
head -20 $OUT/ws-summary.log
CAUSES=20 PYTEST_TIMEOUT=170 bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language/test_core.py $OUT/core > $OUT/core-summary.log 2>&1
head -30 $OUT/core-summary.log
wait
tail -5 $OUT/workloads.log
echo "===== harness sm90"; tail -60 $OUT/harness90.log
echo "===== harness sm80"; tail -30 $OUT/harness80.log
