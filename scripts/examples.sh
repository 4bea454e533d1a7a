#!/usr/bin/env bash
# The main job, for now: every example kernel (the corpus kernels, as upstream
# Triton 3.6 wrote their TTIR and TTGIR for sm_90 and sm_80) goes through
# tt-opt, parsed, verified and printed back; the output must be exactly
# upstream's text. (Compiling them to PTX comes with the lowering.)
# Writes out/examples/<target>/<kernel>.{ttir,ttgir}.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release -p tt-opt
tt_opt=target/release/tt-opt
out=out/examples
ok=0; bad=0
while IFS=$'\t' read -r target kernel stage ir; do
  [[ "$target" == \#* ]] && continue
  [[ "$stage" == ttir || "$stage" == ttgir ]] || continue
  mkdir -p "$out/$target"
  dest="$out/$target/$kernel.$stage"
  if "$tt_opt" --mlir-print-debuginfo --mlir-use-nameloc-as-prefix \
       "test/fixtures/corpus/ir/$ir.mlir" -o "$dest" &&
     diff -q <(sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$dest") \
             <(sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "test/fixtures/corpus/ir/$ir.mlir") >/dev/null; then
    ok=$((ok + 1))
  else
    echo "examples: $target/$kernel.$stage differs from upstream's text" >&2
    bad=$((bad + 1))
  fi
done < test/fixtures/corpus/manifest.tsv
echo "examples: $ok kernels' TTIR/TTGIR round-tripped exactly through tt-opt into $out, $bad failed"
[ "$bad" -eq 0 ]
