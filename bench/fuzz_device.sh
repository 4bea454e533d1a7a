#!/usr/bin/env bash
# The libFuzzer `compile` target (fuzz/, RELIABILITY.md "Fuzzing") on a many-core
# machine without Rust or MLIR: `pack` (here) puts the built target, the seeds, the
# dictionary and the shared libraries it was linked against (glibc, libstdc++ ...,
# run through their own loader, so the other machine's glibc version does not
# matter) into out/fuzz-device.tar.xz; `run` (there, carrying that file) runs JOBS
# independent fuzzing processes for SECONDS each on a shared corpus, with ptxas from
# the installed triton package, and prints the executions of each and their sum.
# Findings land in out/fuzz-device/artifacts (under $OUT on the device tool).
#   bench/fuzz_device.sh pack
#   bench/fuzz_device.sh run [SECONDS] [JOBS]
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
pack)
  binary=fuzz/target/x86_64-unknown-linux-gnu/release/compile
  [ -x "$binary" ] || { echo "build it first: scripts/fuzz.sh 1 compile" >&2; exit 1; }
  stage=$(mktemp -d)/fuzz-device
  mkdir -p "$stage/lib" "$stage/seeds" "$stage/corpus"
  # Without its debug information (~100 MB): the artifacts, not the stack traces, are what counts.
  strip -o "$stage/compile" "$binary"
  ldd "$binary" | awk '/=>/ {print $3} /ld-linux/ {print $1}' | while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  cp fuzz/mlir.dict "$stage/"
  cp -L target/fuzz/seeds/compile/* "$stage/seeds/"
  cp fuzz/corpus/compile/* "$stage/corpus/" 2>/dev/null
  tar -C "$(dirname "$stage")" -cJf out/fuzz-device.tar.xz fuzz-device
  ls -la out/fuzz-device.tar.xz
  ;;
run)
  seconds=${2:-300}
  jobs=${3:-$(nproc)}
  work=out/fuzz-device
  rm -rf "$work" && mkdir -p out && tar -C out -xJf out/fuzz-device.tar.xz
  ptxas=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas"))')
  [ -x "$ptxas" ] || ptxas=$(command -v ptxas)
  export TRITIUM_FUZZ_PTXAS=$ptxas
  mkdir -p "$work/artifacts" "$work/logs"
  loader=$(ls "$work"/lib/ld-linux*.so* | head -1)
  for j in $(seq 1 "$jobs"); do
    "$loader" --library-path "$work/lib" "$work/compile" "$work/corpus" "$work/seeds" -seed="$j" \
      -dict="$work/mlir.dict" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -max_len=262144 \
      -print_final_stats=1 -artifact_prefix="$work/artifacts/job$j-" > "$work/logs/job$j.log" 2>&1 &
  done
  wait
  total=0
  for log in "$work"/logs/job*.log; do
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    echo "$(basename "$log"): executions=${runs:-?} $(grep -m1 -E 'ERROR|panicked|deadly' "$log")"
    total=$((total + ${runs:-0}))
  done
  echo "ptxas: $ptxas"
  echo "total executions: $total in ${seconds}s x $jobs jobs; artifacts: $(ls "$work/artifacts" | wc -l)"
  ;;
*) sed -n 2,12p "$0"; exit 1 ;;
esac
