#!/usr/bin/env bash
# The token lowering step (Tritium's flag nvgpu-test-ws-lower-token, upstream's
# doTokenLowering) against upstream's dumps: for each run folder of $WSREF
# (default /work/wsref: run0..run3, made by scripts/ws_reference.py) and each
# kernel, runs the flag on that run's 4-code-partition.mlir and compares with
# the same run's 5-output.mlir, both printed by tt-opt, after dropping from
# the latter the `tt.num_stages = 0` the driver puts on every loop after the
# step. num-consumer-groups: the partitions of the input (1 for
# ws_host_desc_matmul_m64, retried with 2 warp groups; the lowering does not
# use it). -v prints the diffs. Exit status 0 when all match.
set -uo pipefail
cd "$(dirname "$0")/.."
ref=${WSREF:-/work/wsref}
tt_opt=${TT_OPT:-target/debug/tt-opt}
verbose=0
[[ ${1:-} == -v ]] && verbose=1
lax=(--mlir-very-unsafe-disable-verifier-on-parsing --verify-each=false)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
matched=0 compared=0
for run in "$ref"/run*/; do
  for dir in "$run"*/; do
    kernel=$(basename "$dir")
    [[ -f $dir/4-code-partition.mlir && -f $dir/5-output.mlir ]] || continue
    compared=$((compared + 1))
    groups=$(grep -c '^    partition[0-9]*(' "$dir/4-code-partition.mlir")
    [[ -f $dir/1-task-partition.attempt1.mlir ]] && groups=$((groups - 1))
    sed 's/ {tt.num_stages = 0 : i32}//; s/, tt.num_stages = 0 : i32//; s/tt.num_stages = 0 : i32, //' \
      "$dir/5-output.mlir" > "$tmp/expected.mlir"
    "$tt_opt" "${lax[@]}" "$tmp/expected.mlir" > "$tmp/expected" 2> /dev/null
    if ! "$tt_opt" "${lax[@]}" "--nvgpu-test-ws-lower-token=num-consumer-groups=$groups" \
      "$dir/4-code-partition.mlir" > "$tmp/actual" 2> "$tmp/error"; then
      echo "$(basename "$run")/$kernel: FAILED ($(grep -m1 error "$tmp/error" | cut -c1-200))"
      continue
    fi
    n=$(diff "$tmp/expected" "$tmp/actual" | grep -c '^[<>]')
    if ((n == 0)); then
      matched=$((matched + 1))
      echo "$(basename "$run")/$kernel: match"
    else
      echo "$(basename "$run")/$kernel: DIFF ($n lines)"
      ((verbose)) && diff -u "$tmp/expected" "$tmp/actual"
    fi
  done
done
echo "$matched/$compared match"
((matched == compared))
