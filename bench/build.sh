#!/usr/bin/env bash
# Builds what the GPU harness launches, under out/bench/:
#   tritium/<target>/<kernel>.{ptx,json}: Tritium's bundles, compiled from
#       upstream's TTGIR of each corpus kernel (test/fixtures/corpus);
#   tritium-ttir/<target>/<kernel>.{ptx,json}: the same kernels compiled from
#       upstream's TTIR by Tritium's whole pipeline (no software pipelining yet);
#   upstream/<target>/<kernel>.{ptx,json}: upstream Triton 3.6's PTX of the same
#       TTGIR, from the shared corpus or, for kernels it lacks, compiled here by
#       bench/upstream_ptx.py (needs pip triton==3.6.0; skipped without it).
# TMA kernels (test/fixtures/tma, sm_90 only) the same way; their json carries the
# tensordesc_meta the harness encodes each CUtensorMap from (upstream's, from
# test/fixtures/tma/upstream_meta.json, for upstream's PTX).
# The big-tile kernels (bench/large_tiles, TTIR only, sm_90) too: upstream compiles
# their TTIR (bench/upstream_ptx.py, which also writes its TTGIR), Tritium compiles
# that TTGIR (tritium/) and the TTIR (tritium-ttir/).
# Then: run bench/harness.py on the GPU machine (carry out/bench).
set -euo pipefail
cd "$(dirname "$0")/.."
# LIBDEVICE, for kernels that call libdevice (tutorial 07).
source scripts/cuda-tools.sh
# The libdevice Triton's wheel bundles, when triton imports: upstream's PTX links that one, and
# the plug-in passes it to Tritium too; nvcc's newer libdevice implements some functions
# differently (asinf through rsqrt instead of sqrt.approx), which a ratio would then measure.
bundled=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "lib", "libdevice.10.bc"))' 2>/dev/null || true)
if [ -n "$bundled" ] && [ -f "$bundled" ]; then export LIBDEVICE=$bundled; fi
# TRITIUM=path uses that binary (e.g. target/debug/tritium for a quick check)
# instead of a release build.
if [ -z "${TRITIUM:-}" ]; then
  cargo build --release -p tritium
  TRITIUM=target/release/tritium
fi
out=out/bench
rm -rf "$out" && mkdir -p "$out"
for target in cuda90 cuda80; do
  mkdir -p "$out/tritium/$target" "$out/tritium-ttir/$target" "$out/upstream/$target"
  while IFS=$'\t' read -r t kernel stage ir; do
    [[ "$t" == "$target" ]] || continue
    if [[ "$stage" == ttir ]]; then
      warps=$(sed -n 's/.*"num_warps": \([0-9]*\).*/\1/p' "test/fixtures/corpus/meta/$target/$kernel.json" | head -1)
      stages=$(sed -n 's/.*"num_stages": \([0-9]*\).*/\1/p' "test/fixtures/corpus/meta/$target/$kernel.json" | head -1)
      tmp=$(mktemp -d)
      if "$TRITIUM" compile "test/fixtures/corpus/ir/$ir.mlir" --target "cuda:${target#cuda}" \
           --num-warps "$warps" --num-stages "$stages" -o "$tmp" 2> "$out/tritium-ttir/$target/$kernel.log"; then
        for f in "$tmp"/*.ptx; do cp "$f" "$out/tritium-ttir/$target/$kernel.ptx"; done
        for f in "$tmp"/*.json; do cp "$f" "$out/tritium-ttir/$target/$kernel.json"; done
      fi
      rm -rf "$tmp"
    fi
    [[ "$stage" == ttgir ]] || continue
    tmp=$(mktemp -d)
    if "$TRITIUM" compile "test/fixtures/corpus/ir/$ir.mlir" -o "$tmp" 2> "$out/tritium/$target/$kernel.log"; then
      for f in "$tmp"/*.ptx; do cp "$f" "$out/tritium/$target/$kernel.ptx"; done
      for f in "$tmp"/*.json; do cp "$f" "$out/tritium/$target/$kernel.json"; done
      echo "built $target/$kernel"
    else
      echo "skipped $target/$kernel: $(grep -m1 error "$out/tritium/$target/$kernel.log")"
    fi
    rm -rf "$tmp"
    corpus=../shared/corpus/$target/$kernel
    if [ -f "$corpus/kernel.ptx" ]; then
      cp "$corpus/kernel.ptx" "$out/upstream/$target/$kernel.ptx"
      python3 -c "import json,sys; m=json.load(open('$corpus/meta.json')); json.dump(dict(name=m['name'], num_warps=m['num_warps'], shared=m['shared']), open('$out/upstream/$target/$kernel.json','w'))"
    elif python3 -c "import triton" 2>/dev/null; then
      # Not in the shared corpus: upstream compiles the same TTGIR here.
      python3 bench/upstream_ptx.py "test/fixtures/corpus/ir/$ir.mlir" "$target" "$out/upstream/$target/$kernel" \
        || echo "no upstream PTX for $target/$kernel"
    fi
  done < test/fixtures/corpus/manifest.tsv
done

for ttgir in test/fixtures/tma/*_sm90.ttgir; do
  kernel=$(basename "$ttgir" _sm90.ttgir)
  target=cuda90
  meta=test/fixtures/tma/upstream_meta.json
  warps=$(python3 -c "import json; print(json.load(open('$meta'))['$kernel']['num_warps'])")
  stages=$(python3 -c "import json; print(json.load(open('$meta'))['$kernel']['num_stages'])")
  for stage in ttgir ttir; do
    dir=$out/tritium; [[ $stage == ttir ]] && dir=$out/tritium-ttir
    tmp=$(mktemp -d)
    if "$TRITIUM" compile "test/fixtures/tma/${kernel}_sm90.$stage" --target cuda:90 --num-warps "$warps" \
         --num-stages "$stages" -o "$tmp" 2> "$dir/$target/$kernel.log"; then
      cp "$tmp"/*.ptx "$dir/$target/$kernel.ptx"; cp "$tmp"/*.json "$dir/$target/$kernel.json"
      echo "built $target/$kernel ($stage)"
    else
      echo "skipped $target/$kernel ($stage): $(grep -m1 error "$dir/$target/$kernel.log")"
    fi
    rm -rf "$tmp"
  done
  if python3 -c "import triton" 2>/dev/null; then
    cp "$ttgir" "$out/upstream/$target/$kernel.mlir"
    python3 bench/upstream_ptx.py "$out/upstream/$target/$kernel.mlir" "$target" "$out/upstream/$target/$kernel" \
      && python3 -c "import json; p='$out/upstream/$target/$kernel.json'; m=json.load(open(p)); m['tensordesc_meta']=json.load(open('$meta'))['$kernel']['tensordesc_meta']; json.dump(m, open(p, 'w'))" \
      || echo "no upstream PTX for $target/$kernel"
    rm -f "$out/upstream/$target/$kernel.mlir"
  fi
done

for ttir in bench/large_tiles/*.ttir; do
  kernel=$(basename "$ttir" .ttir)
  target=cuda90
  warps=$(python3 -c "import json; print(json.load(open('${ttir%.ttir}.json'))['num_warps'])")
  stages=$(python3 -c "import json; print(json.load(open('${ttir%.ttir}.json'))['num_stages'])")
  tmp=$(mktemp -d)
  if "$TRITIUM" compile "$ttir" --target cuda:90 --num-warps "$warps" --num-stages "$stages" -o "$tmp" \
       2> "$out/tritium-ttir/$target/$kernel.log"; then
    cp "$tmp"/*.ptx "$out/tritium-ttir/$target/$kernel.ptx"; cp "$tmp"/*.json "$out/tritium-ttir/$target/$kernel.json"
    echo "built $target/$kernel (ttir)"
  else
    echo "skipped $target/$kernel (ttir): $(grep -m1 error "$out/tritium-ttir/$target/$kernel.log")"
  fi
  rm -rf "$tmp"
  if python3 -c "import triton" 2>/dev/null \
       && python3 bench/upstream_ptx.py "$ttir" "$target" "$out/upstream/$target/$kernel"; then
    tmp=$(mktemp -d)
    if "$TRITIUM" compile "$out/upstream/$target/$kernel.ttgir" -o "$tmp" 2> "$out/tritium/$target/$kernel.log"; then
      cp "$tmp"/*.ptx "$out/tritium/$target/$kernel.ptx"; cp "$tmp"/*.json "$out/tritium/$target/$kernel.json"
      echo "built $target/$kernel"
    else
      echo "skipped $target/$kernel: $(grep -m1 error "$out/tritium/$target/$kernel.log")"
    fi
    rm -rf "$tmp"
  else
    echo "no upstream PTX for $target/$kernel"
  fi
done
