#!/usr/bin/env bash
# One step of the Hopper warp specialization port against upstream's own
# intermediate IR (the dumps scripts/ws_reference.py makes):
#
#   scripts/ws_step_diff.sh STEP-FLAG IN OUT [OPTIONS] [-v] [-1] [-k KERNEL]...
#
# For each kernel folder of $REF (default /work/wsref/run0, else the
# committed copy test/fixtures/ws-reference) holding IN.mlir
# and OUT.mlir: runs `tt-opt --STEP-FLAG[=OPTIONS] KERNEL/IN.mlir`, prints the
# expected KERNEL/OUT.mlir through tt-opt too (parse + print: the same
# printer on both sides), diffs, and says "KERNEL: match" or
# "KERNEL: DIFF (n lines)" (or why it could not compare), then
# "N/M match (K skipped)" (M the kernels compared, K those lacking a file).
# An OUT that differs between runs of upstream (4-code-partition, 5-output:
# upstream is not deterministic there) counts as a match against any of the
# sibling run folders run0..run3 of $REF, or against KERNEL/OUT.variantN.mlir
# (the committed copy's form of them).
# OPTIONS is the pass's option string, e.g. "num-warp-groups=3" or
# "num-buffers=3 num-warp-groups=3". -v shows each diff (against $REF's
# run), -k limits to the kernels named. -1: the driver's first attempt
# (num-warp-groups 3): a kernel whose first attempt failed and was retried
# with 2 (ws_host_desc_matmul_m64) has its first attempt's dumps as
# NAME.attempt1.mlir; -1 takes IN.attempt1.mlir and OUT.attempt1.mlir where
# they exist. Exit status: 0 when all match.
# TT_OPT (default target/debug/tt-opt of this tree) picks the binary.
#
#   scripts/ws_step_diff.sh nvgpu-test-ws-task-partition 0-input 1-task-partition num-warp-groups=3
set -uo pipefail
cd "$(dirname "$0")/.."
if (($# < 3)); then
  sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
flag=$1 in=$2 out=$3
shift 3
options="" verbose=0 first=0 kernels=()
while (($#)); do
  case $1 in
    -v) verbose=1 ;;
    -1) first=1 ;;
    -k) kernels+=("$2"); shift ;;
    *) options=$1 ;;
  esac
  shift
done
ref=${REF:-/work/wsref/run0}
[[ -z ${REF:-} && ! -d $ref ]] && ref=test/fixtures/ws-reference
tt_opt=${TT_OPT:-target/debug/tt-opt}
[[ -x $tt_opt ]] || { echo "no $tt_opt (cargo build -p tt-opt)"; exit 2; }
pass="--$flag"
[[ -n $options ]] && pass="--$flag=$options"
# Upstream's dumps are not verified, and 4-code-partition does not verify
# (tt-opt prints an op that does not verify in generic form, on both sides).
lax=(--mlir-very-unsafe-disable-verifier-on-parsing --verify-each=false)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The sibling runs of $REF (run0..run3), $REF first.
runs=("$ref")
for r in "$(dirname "$ref")"/run{0,1,2,3}; do
  [[ -d $r && $(realpath "$r") != $(realpath "$ref") ]] && runs+=("$r")
done

matched=0 compared=0 skipped=0
for dir in "$ref"/*/; do
  kernel=$(basename "$dir")
  if ((${#kernels[@]})) && [[ ! " ${kernels[*]} " == *" $kernel "* ]]; then continue; fi
  kin=$in kout=$out
  if ((first)); then
    [[ -f $dir/$in.attempt1.mlir ]] && kin=$in.attempt1
    [[ -f $dir/$out.attempt1.mlir ]] && kout=$out.attempt1
  fi
  if [[ ! -f $dir/$kin.mlir || ! -f $dir/$kout.mlir ]]; then
    echo "$kernel: skipped (no $kin.mlir or $kout.mlir)"
    skipped=$((skipped + 1))
    continue
  fi
  compared=$((compared + 1))
  if ! "$tt_opt" "${lax[@]}" "$pass" "$dir/$kin.mlir" > "$tmp/actual" 2> "$tmp/error"; then
    echo "$kernel: FAILED ($(grep -m1 -i error "$tmp/error" | cut -c1-200))"
    continue
  fi
  best=""
  expected_files=()
  for run in "${runs[@]}"; do expected_files+=("$run/$kernel/$kout.mlir"); done
  expected_files+=("$dir"/"$kout".variant*.mlir)
  for file in "${expected_files[@]}"; do
    [[ -f $file ]] || continue
    if ! "$tt_opt" "${lax[@]}" "$file" > "$tmp/expected" 2> "$tmp/error"; then
      echo "$kernel: expected $file does not parse: $(head -c 200 "$tmp/error")"
      continue
    fi
    n=$(diff "$tmp/expected" "$tmp/actual" | grep -c '^[<>]')
    if [[ -z $best ]]; then
      best=$n
      diff -u "$tmp/expected" "$tmp/actual" > "$tmp/diff"
    fi
    if ((n == 0)); then best=0; break; fi
  done
  note=""
  [[ $kin != "$in" || $kout != "$out" ]] && note=" ($kin -> $kout)"
  if [[ -z $best ]]; then
    echo "$kernel: no expected output"
  elif ((best == 0)); then
    echo "$kernel: match$note"
    matched=$((matched + 1))
  else
    echo "$kernel: DIFF ($best lines)$note"
    ((verbose)) && cat "$tmp/diff"
  fi
done
echo "$matched/$compared match ($skipped skipped)"
((matched == compared))
