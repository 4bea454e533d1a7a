#!/usr/bin/env bash
# Upstream's tutorials 01-09 through the plug-in, as a user runs them (bench/tutorials.py:
# their correctness checks, each in a fresh process and cache, counting the kernels Tritium
# compiled), tutorial 03's autotuning timed both ways; then, optionally, harness rows timed on
# the idle GPU.
#
# Here:   bash bench/pack_wheel.sh   (out/py; the tutorials come from ../shared)
#         [bash bench/build.sh && tar -C out -cJf out/bench.tar.xz bench]   for HARNESS_FILTER
# There:  [HARNESS_FILTER=RE] bash bench/gpu_tutorials.sh    (carry out/py [, out/bench.tar.xz])
set -o pipefail
export PYTHONUNBUFFERED=1
source "$(dirname "$0")/device_prelude.sh"
TUTORIAL_TIMEOUT=${TUTORIAL_TIMEOUT:-150} timeout "${TUTORIALS_LIMIT:-480}" python3 bench/tutorials.py out/py/tutorials \
  > "$OUT/tutorials.log" 2>&1
echo "tutorials rc=$?"
grep -a "=====\|RESULT\|FAILED\|: ok\|WRONG\|rror" "$OUT/tutorials.log" | cut -c1-300 | head -80
if [ -n "${HARNESS_FILTER:-}" ]; then
  rm -rf out/bench && tar -C out -xJf out/bench.tar.xz
  mkdir -p "$OUT/harness"
  timeout "${HARNESS_LIMIT:-240}" python3 bench/harness.py --out "$OUT/harness" --filter "$HARNESS_FILTER" 2>&1 | tail -40
fi
