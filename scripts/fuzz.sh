#!/usr/bin/env bash
# Runs Tritium's libFuzzer targets (fuzz/, cargo fuzz; RELIABILITY.md, "Fuzzing")
# one after the other, SECONDS (default 60) each, under `nice -n 19`:
#   roundtrip  (a) parse + verify + print round trip of tt/ttg/ttng text;
#   pipeline   (b) the TTIR -> TTGIR pipeline;
#   compile    (c) the whole compile to PTX, and ptxas on it.
# Seeds: (a) every IR file under test/; (b) and (c) the corpus kernels' TTIR
# (and TTGIR for c), the regression fixtures, and the generated kernels'
# upstream TTIR/TTGIR that scripts/fuzz_differential.py --keep-inputs wrote
# to target/fuzz/generated. Mutations use fuzz/mlir.dict (op names, layout
# and type syntax). Any crash, panic, timeout (60 s) or failed check is kept in
# target/fuzz/artifacts/<target>/ and makes the script fail; the executions of
# each run are appended to target/fuzz/stats.tsv.
#
#   scripts/fuzz.sh [SECONDS] [TARGETS]        TARGETS: comma list, default roundtrip,pipeline,compile
#   scripts/fuzz.sh --mutation [SECONDS] [SEED]   the older line-mutation smoke fuzzer (no cargo-fuzz)
#
# cargo fuzz needs nightly rustc flags (-Zsanitizer, sanitizer coverage); with
# only a stable toolchain, RUSTC_BOOTSTRAP=1 lets stable accept them (done
# here). No address sanitizer: MLIR's C++ is not instrumented, and
# --sanitizer none gives the fastest executions; Rust panics (caught or not),
# signals and timeouts are the findings.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--mutation" ]; then
  shift
  exec scripts/fuzz_mutation.sh "$@"
fi
SECONDS_EACH=${1:-60}
TARGETS=${2:-roundtrip,pipeline,compile}
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz > /dev/null || { echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2; exit 1; }
source scripts/cuda-tools.sh
export TRITIUM_FUZZ_PTXAS=${PTXAS:-}
(cd fuzz && nice -n 19 cargo fuzz build --sanitizer none -O) || exit 1

seeds=target/fuzz/seeds
rm -rf "$seeds" && mkdir -p "$seeds/roundtrip" "$seeds/pipeline" "$seeds/compile"
# (a): every .mlir under test/ (lit tests, fixtures, the corpus and its pass-by-pass dumps).
find test -name '*.mlir' -size -200k | while read -r f; do
  ln -sf "$PWD/$f" "$seeds/roundtrip/$(echo "$f" | tr '/' '_')"
done
# (b), (c): whole kernels only (a full compile per seed): the corpus' TTIR and TTGIR, with the
# num_warps and num_stages upstream compiled them with, as the header the targets read.
while IFS=$'\t' read -r target kernel stage ir; do
  [[ $stage == ttir || $stage == ttgir ]] || continue
  meta=test/fixtures/corpus/meta/$target/$kernel.json
  warps=$(sed -n 's/.*"num_warps": \([0-9]*\).*/\1/p' "$meta" | head -1)
  stages=$(sed -n 's/.*"num_stages": \([0-9]*\).*/\1/p' "$meta" | head -1)
  header="// fuzz: target=cuda:${target#cuda} num-warps=$warps num-stages=$stages"
  { echo "$header"; cat "test/fixtures/corpus/ir/$ir.mlir"; } > "$seeds/compile/$target-$kernel-$stage.mlir"
  [[ $stage == ttir ]] && cp "$seeds/compile/$target-$kernel-$stage.mlir" "$seeds/pipeline/"
done < <(grep -v '^#' test/fixtures/corpus/manifest.tsv)
cp test/fixtures/regressions/*.mlir "$seeds/compile/"
if [ -d target/fuzz/generated ]; then
  # At most 400 generated kernels (each seed costs a compile when the run starts).
  ls target/fuzz/generated | grep 'ttir' | head -400 | while read -r f; do cp "target/fuzz/generated/$f" "$seeds/pipeline/"; done
  ls target/fuzz/generated | head -400 | while read -r f; do cp "target/fuzz/generated/$f" "$seeds/compile/"; done
fi

status=0
for target in ${TARGETS//,/ }; do
  mkdir -p "fuzz/corpus/$target" "target/fuzz/artifacts/$target"
  log=target/fuzz/$target.log
  nice -n 19 "fuzz/target/x86_64-unknown-linux-gnu/release/$target" "fuzz/corpus/$target" "$seeds/$target" \
    -dict=fuzz/mlir.dict -max_total_time="$SECONDS_EACH" -timeout=60 -rss_limit_mb=4096 -max_len=262144 \
    -print_final_stats=1 -artifact_prefix="target/fuzz/artifacts/$target/" > "$log" 2>&1
  code=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  echo -e "$(date -u +%FT%TZ)\t$target\t${SECONDS_EACH}s\texecutions=${runs:-?}\texit=$code" | tee -a target/fuzz/stats.tsv
  if [ $code -ne 0 ]; then
    status=1
    echo "FINDING in $target (exit $code): $(ls -t target/fuzz/artifacts/$target | head -1); see $log" >&2
    grep -m3 -E "panicked|ERROR|SUMMARY" "$log" >&2
  fi
done
exit $status
