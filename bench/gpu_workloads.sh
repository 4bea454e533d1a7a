#!/usr/bin/env bash
# The workload kernels (bench/workloads: LLM training and serving kernels written for the
# project) on the GPU through Triton's JIT, with Tritium as Triton's compiler (the plug-in) and
# with upstream alone, each checked against torch (bench/workloads/check.py run); then, when
# the upstream tests are carried (out/py/test), the named upstream test files through the plug-in.
#
# Here:   bash bench/pack_wheel.sh      (out/py)
# There:  [FILTER=RE] [TESTS="test_line_info test_reproducer"] bash bench/gpu_workloads.sh [SECONDS]
#         (carry out/py)
set -o pipefail
export PYTHONUNBUFFERED=1
limit=${1:-400}
source "$(dirname "$0")/device_prelude.sh"
timeout "$limit" python3 bench/workloads/check.py run --filter "${FILTER:-}" --timeout "$limit" 2>&1 | tee "$OUT/workloads.log" | grep -v '"result": "ok"'
for t in ${TESTS:-}; do
  echo "===== $t through the plug-in"
  CAUSES=10 PYTEST_TIMEOUT=120 JOBS=8 bash bench/upstream_tests.sh "$PWD/out/py/test" "unit/language/$t.py" "$OUT/$t" 2>&1 | head -20
done
