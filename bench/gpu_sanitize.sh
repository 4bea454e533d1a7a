#!/usr/bin/env bash
# Every harness case under compute-sanitizer on the GPU machine, as several
# bench/sanitize.sh processes side by side (one GPU, 16 cores: the sanitizer's
# cost is mostly host-side), each in its own folder under out/san/<mode>/; the
# summary is printed and, with $OUT set, everything comes back as $OUT/san-<mode>.tar.gz.
#
# Here:   bash bench/build.sh && tar -C out -cJf out/bench.tar.xz bench
# There:  bash bench/gpu_sanitize.sh race [SECONDS]          (carry out/bench.tar.xz)
#         bash bench/gpu_sanitize.sh full [FILTER] [SECONDS]
#
# race: racecheck of every case, sm_90 and sm_80, with harness.case_list(small=True)
#   (--small: K, sequence lengths and a persistent program's rows cut down; racecheck costs
#   minutes per program of a 4096^3 matmul) and 2 programs per grid axis (hazards are
#   between the threads of one program); the cases in groups, one process each.
# full: memcheck, initcheck (full grids of the benchmark shapes, masked ones included) and
#   synccheck, sm_90 and sm_80, of the cases FILTER matches (default all: split it, the
#   full shapes of every case under three tools take longer than one device call).
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-race}
if [ "$mode" = full ]; then filter=${2:-.}; limit=${3:-540}; else limit=${2:-540}; fi
[ -d out/bench ] || tar -C out -xJf out/bench.tar.xz
root=out/san/$mode
rm -rf "$root" && mkdir -p "$root"
run() { local name=$1 tool=$2 targets=$3 filter=$4 programs=$5; shift 5
  OUT=$root/$name timeout "$limit" bash bench/sanitize.sh --tools "$tool" --targets "$targets" \
    --filter "$filter" --max-programs "$programs" "$@" > "$root/$name.txt" 2>&1
  echo "exit $?" >> "$root/$name.txt"; }
case $mode in
  race)
    groups=(
      'vector|softmax|norm|cumsum|argmax|atomic|transpose|fp8_(cast|bitcast|copy)|dot_scaled'
      'matmul_(naive|grouped|bf16|ref)'
      'matmul_(i8|tf32|fp8)'
      '^attn_(fwd|ref)_(d|causal)'
      '^attn_fwd_tma'
      '^(tma_|device_desc|persist_|ws_)'
    )
    for i in "${!groups[@]}"; do
      run "race90_$i" racecheck cuda90 "${groups[$i]}" 2 --small &
    done
    run race80_0 racecheck cuda80 '^(vector|softmax|norm|rmsnorm|layernorm|cumsum|argmax|atomic|transpose|fp8|dot)' 2 --small &
    run race80_1 racecheck cuda80 'matmul|attn' 2 --small &
    ;;
  full)
    for target in cuda90 cuda80; do
      run "mem_$target" memcheck "$target" "$filter" 0 &
      run "init_$target" initcheck "$target" "$filter" 0 &
      run "sync_$target" synccheck "$target" "$filter" 8 &
    done
    ;;
  *) echo "usage: bench/gpu_sanitize.sh race [SECONDS] | full [FILTER] [SECONDS]" >&2; exit 1 ;;
esac
wait
for f in "$root"/*.txt; do echo "== $f: $(tail -1 "$f")"; done
for d in "$root"/*/; do
  echo "== $d"
  tail -3 "$d/sanitize.md" 2>/dev/null
  grep -h -m5 -B2 -A8 "^========= \(Invalid\|Uninit\|Race\|Barrier\|Error\)" "$d"/*.log 2>/dev/null | head -40
  grep -h "@@@ END" "$d"/*.log 2>/dev/null | cut -c1-100 | sort | uniq -c
  # the last case started and not ended: where a timeout stopped the process
  grep -h "@@@" "$d"/*.log 2>/dev/null | tail -1 | grep "CASE" | sed 's/^/  unfinished: /'
done
if [ -n "${OUT:-}" ]; then tar -C out/san -czf "$OUT/san-$mode.tar.gz" "$mode"; fi
