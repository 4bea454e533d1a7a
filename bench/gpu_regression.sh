#!/usr/bin/env bash
# One device call after a change to the lowering or to shared-memory synchronisation:
# upstream's test_core, test_tensor_descriptor and test_warp_specialization through the
# plug-in, while racecheck runs every non-attention harness case on cut-down shapes
# (Tritium's PTX, and upstream's for the warp-specialized ones) and the ConSan check runs.
#
# Here:   bash bench/build.sh && tar -C out -cJf out/bench.tar.xz bench
#         bash bench/pack_wheel.sh          (out/py)
#         bash bench/consan/prepare.sh      (out/consan)
# There:  bash bench/gpu_regression.sh [SECONDS]   (carry out/py, out/bench.tar.xz, out/consan)
# Also, beside them: ConSan switched on through Triton's own knob with the plug-in
# (bench/consan/plugin_check.py), and, when out/fuzz-gpu.tar.xz is carried (bench/fuzz_gpu.py
# prepare, packed with `tar -C out -cJf out/fuzz-gpu.tar.xz --exclude=kernel.ttir
# --exclude=kernel.ttgir fuzz-gpu`), the GPU half of the differential test of generated kernels.
# Writes $OUT/*-summary.log, $OUT/consan.log, $OUT/plugin-consan.log, $OUT/fuzz-gpu.log,
# $OUT/fuzz-results.json and $OUT/san-race.tar.gz.
set -o pipefail
export PYTHONUNBUFFERED=1
limit=${1:-400}
source "$(dirname "$0")/device_prelude.sh"
root=out/san/race
rm -rf "$root" && mkdir -p "$root"
race() { local name=$1 filter=$2 launchers=$3
  OUT=$root/$name timeout "$limit" bash bench/sanitize.sh --tools racecheck --targets cuda90 --filter "$filter" \
    --max-programs 2 --small --launchers "$launchers" > "$root/$name.txt" 2>&1
  echo "exit $?" >> "$root/$name.txt"; }
race plain 'vector|softmax|norm|cumsum|argmax|atomic|transpose|fp8_(cast|bitcast|copy)|dot_scaled' tritium,tritium_from_ttir &
race matmul 'matmul_(naive|grouped|bf16|ref|i8|tf32)' tritium,tritium_from_ttir &
race tma '^(tma_|device_desc|persist_)' tritium,tritium_from_ttir &
race ws '^ws_' tritium,tritium_from_ttir,triton_ptx &
timeout 120 python3 bench/consan/run.py out/consan > "$OUT/consan.log" 2>&1; echo "consan rc=$?" >> "$OUT/consan.log" &
(timeout 240 python3 bench/consan/plugin_check.py > "$OUT/plugin-consan.log" 2>&1; echo "plugin consan rc=$?" >> "$OUT/plugin-consan.log") &
if [ -f out/fuzz-gpu.tar.xz ]; then
  rm -rf out/fuzz-gpu && tar -C out -xJf out/fuzz-gpu.tar.xz
  (TRITIUM=0 timeout "$limit" python3 bench/fuzz_gpu.py run --out out/fuzz-gpu > "$OUT/fuzz-gpu.log" 2>&1
   echo "fuzz_gpu rc=$?" >> "$OUT/fuzz-gpu.log"; cp out/fuzz-gpu/results.json "$OUT/fuzz-results.json" 2>/dev/null) &
fi
for spec in test_core:200 test_tensor_descriptor:120 test_warp_specialization:60; do
  f=${spec%%:*}; t=${spec##*:}
  echo "===== $f"
  CAUSES=20 PYTEST_TIMEOUT=$t bash bench/upstream_tests.sh "$PWD/out/py/test" "unit/language/$f.py" "/tmp/$f" \
    > "$OUT/$f-summary.log" 2>&1
  head -25 "$OUT/$f-summary.log"
done
wait
echo "===== consan"; cat "$OUT/consan.log"
echo "===== consan through the plug-in"; cat "$OUT/plugin-consan.log"
if [ -f "$OUT/fuzz-gpu.log" ]; then
  echo "===== fuzz_gpu"; grep -v '"ttir": "ok", "ttgir": "ok"' "$OUT/fuzz-gpu.log" | tail -25
fi
echo "===== racecheck"
for f in "$root"/*.txt; do echo "== $f: $(tail -1 "$f")"; done
for d in "$root"/*/; do
  echo "== $d"
  grep -h "^| " "$d/sanitize.md" 2>/dev/null | grep -v "| 0 |" | head -20
  grep -h "@@@ END" "$d"/*.log 2>/dev/null | cut -c1-80 | sort | uniq -c
  grep -h "@@@" "$d"/*.log 2>/dev/null | tail -1 | grep CASE | sed 's/^/  unfinished: /'
done
tar -C out/san -czf "$OUT/san-race.tar.gz" race
