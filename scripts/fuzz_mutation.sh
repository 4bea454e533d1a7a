#!/usr/bin/env bash
# Mutation smoke fuzzing of the tt-opt and tritium binaries, without
# cargo-fuzz (scripts/fuzz.sh runs the libFuzzer targets; this one needs
# only the debug build; `scripts/fuzz.sh --mutation` runs it). For SECONDS
# (default 60) it takes corpus IR files
# (test/fixtures/corpus/ir, test/fixtures/regressions), mutates them (deletes,
# duplicates or swaps lines, changes numbers, shapes, types and attribute
# values, truncates), and runs (a) `tt-opt` parse + verify + print, (b) the
# TTIR -> TTGIR pipeline, (c) `tritium compile` to PTX. Any exit code other
# than 0 or 1 (a crash by signal, an internal error, a timeout) is a finding:
# the input is kept under target/fuzz/findings/ and the script fails.
#   scripts/fuzz_mutation.sh [SECONDS] [SEED]
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_TOTAL=${1:-60}
SEED=${2:-$RANDOM}
cargo build -q -p tt-opt -p tritium || exit 1
exec python3 - "$SECONDS_TOTAL" "$SEED" <<'PY'
import glob, os, random, re, subprocess, sys, tempfile, time
total, seed = float(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
root = os.getcwd()
tt_opt, tritium = "target/debug/tt-opt", "target/debug/tritium"
inputs = sorted(glob.glob("test/fixtures/corpus/ir/*.mlir") + glob.glob("test/fixtures/regressions/*.mlir"))
texts = [open(p).read() for p in inputs]
findings = os.path.join("target/fuzz/findings")
os.makedirs(findings, exist_ok=True)
numbers = re.compile(r"\b\d+\b")
words = ["f32", "f16", "bf16", "i1", "i8", "i32", "i64", "f8E4M3FN", "f64", "!tt.ptr<f32>", "#blocked", "#blocked1",
         "#mma", "#shared", "0", "1", "-1", "3", "65536", "2147483648", "1024x1024", "?", ""]

def mutate(text):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(7)
        i = rng.randrange(len(lines))
        if kind == 0 and len(lines) > 2:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2:
            j = rng.randrange(len(lines)); lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3:
            found = list(numbers.finditer(lines[i]))
            if found:
                m = rng.choice(found)
                lines[i] = lines[i][:m.start()] + rng.choice(["0", "1", "2", "3", "7", "64", "4096", "1048576", "4294967296", "-1"]) + lines[i][m.end():]
        elif kind == 4:
            tokens = re.split(r"(\W)", lines[i])
            if tokens:
                k = rng.randrange(len(tokens)); tokens[k] = rng.choice(words); lines[i] = "".join(tokens)
        elif kind == 5:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        else:
            lines = lines[: rng.randrange(1, len(lines) + 1)]
    return "\n".join(lines)

def run(command, path):
    try:
        return subprocess.run(command + [path], capture_output=True, timeout=60,
                              env=dict(os.environ, RUST_BACKTRACE="0")).returncode
    except subprocess.TimeoutExpired:
        return "timeout"

targets = {
    "roundtrip": [tt_opt],
    "pipeline": [tt_opt, "--tritium-ttgir-pipeline=target=cuda:90 num-warps=4"],
    "compile": [tritium, "compile", "-o", tempfile.mkdtemp()],
}
counts = {name: 0 for name in targets}
bad = 0
start = time.time()
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "input.mlir")
    while time.time() - start < total:
        text = mutate(rng.choice(texts))
        with open(path, "w") as f:
            f.write(text)
        for name, command in targets.items():
            code = run(command, path)
            counts[name] += 1
            if code not in (0, 1):
                bad += 1
                keep = os.path.join(findings, f"{name}-{seed}-{counts[name]}.mlir")
                with open(keep, "w") as f:
                    f.write(text)
                print(f"FINDING ({name}, exit {code}): {keep}", flush=True)
print(f"seed {seed}, {time.time() - start:.0f} s: executions {counts}, findings {bad}")
sys.exit(1 if bad else 0)
PY
