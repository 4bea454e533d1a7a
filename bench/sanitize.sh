#!/usr/bin/env bash
# compute-sanitizer over Tritium's corpus kernels (issue 13, item 4): every
# case of bench/harness.py (the corpus kernels it has inputs for, masked shapes
# included), from upstream's TTGIR and from TTIR, sm_90 and sm_80 bundles,
# under memcheck, racecheck, synccheck and initcheck; errors per kernel and tool.
#
#   here:    bench/build.sh                      (out/bench: the bundles; TRITIUM=target/debug/tritium to
#                                                 use a built binary instead of a release build)
#            bench/sanitize.sh --fetch            (out/tools/: the compute-sanitizer wheel, when the GPU
#                                                 machine has none; pip download, 9 MB)
#            bench/sanitize.sh --dry-run          (lists the launches, and the corpus kernels without inputs)
#   on the GPU machine (carry out/bench, out/tools):
#            bench/sanitize.sh [--tools memcheck,racecheck,synccheck,initcheck] [--filter RE]
#                              [--targets cuda90,cuda80] [--max-programs N] [--small]
#                              [--launchers tritium,tritium_from_ttir,triton_ptx]  (default: Tritium's two)
#
# One Python process per tool (bench/sanitize.py, launching every case once);
# compute-sanitizer's reports are attributed to the launch whose marker precedes
# them. racecheck and synccheck launch at most --max-programs (default 8)
# programs per grid axis: they check what happens inside a CTA and are ~1000x
# slower than a plain run. Output: $OUT/sanitize-<tool>.log (raw) and
# $OUT/sanitize.md (the table); exit 1 when any tool reported an error.
set -uo pipefail
cd "$(dirname "$0")/.."
tools=memcheck,racecheck,synccheck,initcheck
filter=.
targets=cuda90,cuda80
max_programs=8
dry_run=
small=()
launchers=tritium,tritium_from_ttir
while [ $# -gt 0 ]; do
  case "$1" in
    --tools) tools=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --max-programs) max_programs=$2; shift 2 ;;
    --small) small=(--small); shift ;;
    --launchers) launchers=$2; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    --fetch)
      mkdir -p out/tools && pip download nvidia-cuda-sanitizer-api-cu12 --no-deps -d out/tools; exit $? ;;
    *) echo "unknown option $1" >&2; exit 1 ;;
  esac
done

if [ -n "$dry_run" ]; then
  [ -d out/bench ] || echo "out/bench is missing: run bench/build.sh first" >&2
  exec python3 bench/sanitize.py --list --filter "$filter" --targets "$targets" "${small[@]}"
fi

# compute-sanitizer: on PATH, in a CUDA toolkit, or from the wheel --fetch put in out/tools.
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -z "$sanitizer" ]; then
  wheel=$(ls out/tools/nvidia_cuda_sanitizer_api_cu12-*.whl 2>/dev/null | head -1)
  if [ -n "$wheel" ]; then
    rm -rf /tmp/tritium-sanitizer && python3 -m zipfile -e "$wheel" /tmp/tritium-sanitizer
    sanitizer=$(find /tmp/tritium-sanitizer -name compute-sanitizer -type f | head -1)
    if [ -n "$sanitizer" ]; then
      chmod +x "$sanitizer"
      # The wheel keeps its libraries in ../lib (a toolkit keeps them beside the binary).
      export LD_LIBRARY_PATH=$(dirname "$sanitizer")/../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    fi
  fi
fi
if [ -z "$sanitizer" ] || [ ! -x "$sanitizer" ]; then
  echo "no compute-sanitizer (run bench/sanitize.sh --fetch here and carry out/tools)" >&2
  exit 1
fi

out=${OUT:-out/sanitize}; mkdir -p "$out"
status=0
for tool in ${tools//,/ }; do
  limit=0
  [[ $tool == racecheck || $tool == synccheck ]] && limit=$max_programs
  extra=()
  # Host API errors (the driver's own cuGetProcAddress probes, which return
  # INVALID_VALUE for symbols this driver lacks) are not the kernels' errors.
  extra=(--report-api-errors no)
  # --error-exitcode: a report makes the run fail; --print-limit keeps a faulty kernel's log short.
  PYTHONUNBUFFERED=1 "$sanitizer" --tool "$tool" --print-limit 20 --error-exitcode 3 "${extra[@]}" \
    python3 bench/sanitize.py --filter "$filter" --targets "$targets" --max-programs "$limit" "${small[@]}" \
    --launchers "$launchers" \
    > "$out/sanitize-$tool.log" 2>&1
  code=$?
  [ $code -eq 0 ] || status=1
  echo "$tool: exit $code ($out/sanitize-$tool.log)"
done

# Per launch and tool: the reports between its marker and the next one.
python3 - "$out" "$tools" <<'PY' | tee "$out/sanitize.md"
import collections, os, re, sys
out, tools = sys.argv[1], sys.argv[2].split(",")
report = re.compile(r"^========= (Invalid|Error|Race|Uninitialized|Barrier|Program hit|Warning|Out-of-range|Misaligned|Unspecified|Hazard)")
rows = collections.OrderedDict()
totals = {}
for tool in tools:
    path = os.path.join(out, f"sanitize-{tool}.log")
    if not os.path.exists(path):
        continue
    launch = "(before the first launch)"
    for line in open(path, errors="replace"):
        if line.startswith("@@@ CASE "):
            launch = line[len("@@@ CASE "):].strip()
            rows.setdefault(launch, {})
            rows[launch].setdefault(tool, 0)
        elif line.startswith("@@@ END") and "ok" not in line.split()[2:3]:
            rows.setdefault(launch, {})[tool + " result"] = line[len("@@@ END "):].strip()
        elif report.match(line) and "ERROR SUMMARY" not in line:
            rows.setdefault(launch, {})
            rows[launch][tool] = rows[launch].get(tool, 0) + 1
        m = re.match(r"^========= ERROR SUMMARY: (\d+) errors?$", line.rstrip())
        if m:
            totals[tool] = int(m.group(1))
print("| case | shape | launcher | target | " + " | ".join(tools) + " | notes |")
print("|---|---|---|---|" + "---:|" * len(tools) + "---|")
for launch, counts in rows.items():
    parts = [p.strip() for p in launch.split("|")] if "|" in launch else [launch, "", "", ""]
    notes = "; ".join(f"{k}: {v}" for k, v in counts.items() if k.endswith(" result"))
    print("| " + " | ".join(parts) + " | " + " | ".join(str(counts.get(t, "-")) for t in tools) + f" | {notes} |")
print()
for tool in tools:
    print(f"{tool}: ERROR SUMMARY {totals.get(tool, 'missing (did the run finish?)')}")
PY
exit $status
