#!/usr/bin/env bash
# Runs upstream Triton 3.6's own language tests (test_core.py by default)
# with Tritium as Triton's compiler (TRITIUM=1, through the tritium.pth hook
# of the installed wheel), on a machine with an NVIDIA GPU, torch, triton 3.6
# and pytest-xdist; prints passed/failed/skipped and the top failure causes,
# grouped by Tritium's error message.
#   bench/upstream_tests.sh [TEST_ROOT] [TEST_FILE] [RESULTS_DIR]
# TEST_ROOT (upstream's python/test, which holds conftest.py) defaults to
# ../shared/upstream-tests/triton-3.6/python/test, TEST_FILE to
# unit/language/test_core.py (run the tests from there; never copy them into
# the repository). PYTEST_TIMEOUT (s) interrupts a run that takes too long. Install the
# wheel first: pip install target/wheels/tritium-*.whl (scripts/test_python.sh
# builds it). TRITIUM=0 bench/upstream_tests.sh runs the same with upstream alone.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tests="${1:-$here/../../shared/upstream-tests/triton-3.6/python/test}"
file="${2:-unit/language/test_core.py}"
results="${3:-${OUT:-/tmp}/upstream-tests}"
mkdir -p "$results"
export TRITIUM="${TRITIUM-1}"
export TRITON_CACHE_DIR="$(mktemp -d)"
python3 -c "import tritium; print('tritium', tritium.VERSION)" || exit 1
start=$(date +%s)
# rootdir and confcutdir at TEST_ROOT, so that its conftest.py (the device fixture) is loaded.
(cd "$tests" && timeout -s INT "${PYTEST_TIMEOUT:-3000}" python3 -m pytest -n "${JOBS:-16}" -q -p no:cacheprovider \
   --rootdir=. --confcutdir=. --timeout=300 --junitxml="$results/junit.xml" "$file" > "$results/pytest.log" 2>&1)
echo "pytest exit $? after $(( $(date +%s) - start )) s (TRITIUM=$TRITIUM); log: $results/pytest.log"
tail -3 "$results/pytest.log"
python3 - "$results/junit.xml" <<'PY'
import collections, re, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
counts = collections.Counter()
causes = collections.Counter()
examples = {}
for case in root.iter("testcase"):
    kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
    kind = kinds[0] if kinds else "passed"
    counts[kind] += 1
    if kind in ("failure", "error"):
        node = case.find(kind)
        text = (node.get("message") or "") + "\n" + (node.text or "")
        found = re.search(r"CompileError: (.*)", text) or re.search(r"error: (.*)", text) or re.search(r"^E\s+(.*)$", text, re.M)
        cause = found.group(1) if found else text.strip().splitlines()[0] if text.strip() else "?"
        cause = re.sub(r"^\S*:\d+:\d+: error: ", "", cause)   # the location
        cause = re.sub(r"error: ", "", cause)
        cause = re.sub(r"\d+", "N", cause)[:160]
        causes[cause] += 1
        examples.setdefault(cause, case.get("name"))
total = sum(counts.values())
print(f"tests {total}: passed {counts['passed']}, failed {counts['failure']}, errors {counts['error']}, skipped {counts['skipped']}")
print("top failure causes (count, cause, an example test):")
for cause, n in causes.most_common(int(__import__('os').environ.get('CAUSES', '40'))):
    print(f"{n:6d}  {cause}  [{examples[cause]}]")
print(f"({len(causes)} distinct causes)")
PY
