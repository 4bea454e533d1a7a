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
# FUZZ_HEAP_CHECK=1 runs the targets with glibc's tcache off and freed memory
# filled with 0xa5 (GLIBC_TUNABLES), so that a read of freed memory fails
# where it happens and a write into a free chunk trips glibc's list checks at
# once, rather than as "malloc(): unaligned tcache chunk detected" inputs
# later (RELIABILITY.md, "Fuzzing"). What it costs in executions was not measured.
#
# cargo fuzz needs nightly rustc flags (-Zsanitizer, sanitizer coverage); with
# only a stable toolchain, RUSTC_BOOTSTRAP=1 lets stable accept them (done
# here). No address sanitizer: MLIR's C++ is not instrumented, and
# --sanitizer none gives the fastest executions; Rust panics (caught or not),
# signals and timeouts are the findings. The build is cargo fuzz's default:
# optimised, with debug assertions and overflow checks (-O would drop them).
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
(cd fuzz && nice -n 19 cargo fuzz build --sanitizer none) || exit 1

seeds=target/fuzz/seeds
rm -rf "$seeds" && mkdir -p "$seeds/roundtrip" "$seeds/pipeline" "$seeds/compile"
python3 - "$seeds" <<'PY'
import glob, json, os, shutil, sys
seeds = sys.argv[1]
# (a): every .mlir under test/ (lit tests, fixtures, the corpus and its pass-by-pass dumps).
for path in glob.glob("test/**/*.mlir", recursive=True):
    if os.path.getsize(path) < 200_000:
        os.symlink(os.path.abspath(path), os.path.join(seeds, "roundtrip", path.replace("/", "_")))
# (b), (c): whole kernels only (a full compile per seed): the corpus' TTIR and TTGIR, with the
# num_warps and num_stages upstream compiled them with, as the header the targets read.
for line in open("test/fixtures/corpus/manifest.tsv"):
    if line.startswith("#"):
        continue
    target, kernel, stage, ir = line.rstrip("\n").split("\t")
    if stage not in ("ttir", "ttgir"):
        continue
    meta = json.load(open(f"test/fixtures/corpus/meta/{target}/{kernel}.json"))
    header = f"// fuzz: target=cuda:{target[4:]} num-warps={meta['num_warps']} num-stages={meta['num_stages']}\n"
    text = header + open(f"test/fixtures/corpus/ir/{ir}.mlir").read()
    for name in ("compile",) + (("pipeline",) if stage == "ttir" else ()):
        open(os.path.join(seeds, name, f"{target}-{kernel}-{stage}.mlir"), "w").write(text)
for path in glob.glob("test/fixtures/regressions/*.mlir"):
    shutil.copy(path, os.path.join(seeds, "compile"))
# The generated kernels' upstream TTIR/TTGIR (at most 400 each: every seed costs a compile at the start).
generated = sorted(glob.glob("target/fuzz/generated/*.mlir"))
for path in [p for p in generated if ".ttir." in p][:400]:
    shutil.copy(path, os.path.join(seeds, "pipeline"))
for path in generated[:400]:
    shutil.copy(path, os.path.join(seeds, "compile"))
PY

tunables=${GLIBC_TUNABLES:-}
if [ "${FUZZ_HEAP_CHECK:-0}" = 1 ]; then
  tunables=glibc.malloc.tcache_count=0:glibc.malloc.perturb=165${tunables:+:$tunables}
fi

status=0
for target in ${TARGETS//,/ }; do
  mkdir -p "fuzz/corpus/$target" "target/fuzz/artifacts/$target"
  log=target/fuzz/$target.log
  GLIBC_TUNABLES=$tunables nice -n 19 "fuzz/target/x86_64-unknown-linux-gnu/release/$target" "fuzz/corpus/$target" "$seeds/$target" \
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
