#!/usr/bin/env bash
# Upstream Triton 3.6's whole python/test/unit/language folder but the three big files that
# bench/gpu_regression.sh runs (test_core, test_tensor_descriptor, test_warp_specialization),
# through the plug-in (TRITIUM=1) and with upstream alone (TRITIUM=0), side by side in one call,
# then passed/failed/skipped per file for both. GPU machine with torch and triton 3.6.
#
# Here:   bash bench/pack_wheel.sh      (out/py: the wheel and upstream's tests from ../shared)
# There:  bash bench/gpu_language_suite.sh [SECONDS]   (carry out/py)
# Writes $OUT/lang-1/ and $OUT/lang-0/ (junit.xml, pytest.log) and their summaries.
set -o pipefail
export PYTHONUNBUFFERED=1
limit=${1:-400}
source "$(dirname "$0")/device_prelude.sh"
skip=""
for big in test_core test_tensor_descriptor test_warp_specialization; do
  skip="$skip --ignore=unit/language/$big.py"
done
for which in 1 0; do
  (TRITIUM=$which PYTEST_ADDOPTS="$skip" JOBS=${JOBS:-12} CAUSES=25 PYTEST_TIMEOUT=$limit \
     bash bench/upstream_tests.sh "$PWD/out/py/test" unit/language "$OUT/lang-$which" \
     > "$OUT/lang-$which-summary.log" 2>&1) &
done
wait
for which in 1 0; do echo "===== TRITIUM=$which"; head -40 "$OUT/lang-$which-summary.log"; done
python3 - "$OUT/lang-1/junit.xml" "$OUT/lang-0/junit.xml" <<'PY'
import collections, sys
import xml.etree.ElementTree as ET
def per_file(path):
    counts = collections.defaultdict(collections.Counter)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return counts
    for case in root.iter("testcase"):
        kinds = [c.tag for c in case if c.tag in ("failure", "error", "skipped")]
        parts = case.get("classname", "?").split(".")
        module = next((p for p in parts if p.startswith("test_")), parts[-1])
        counts[module][kinds[0] if kinds else "passed"] += 1
    return counts
tritium, upstream = per_file(sys.argv[1]), per_file(sys.argv[2])
print("| file | Tritium passed / failed+error / skipped | upstream passed / failed+error / skipped |")
print("|---|---:|---:|")
total = collections.Counter(), collections.Counter()
for module in sorted(set(tritium) | set(upstream)):
    cells = []
    for i, counts in enumerate((tritium[module], upstream[module])):
        bad = counts["failure"] + counts["error"]
        cells.append(f"{counts['passed']} / {bad} / {counts['skipped']}")
        total[i].update(counts)
    print(f"| {module} | {cells[0]} | {cells[1]} |")
print(f"| all | {total[0]['passed']} / {total[0]['failure'] + total[0]['error']} / {total[0]['skipped']} | "
      f"{total[1]['passed']} / {total[1]['failure'] + total[1]['error']} / {total[1]['skipped']} |")
PY
