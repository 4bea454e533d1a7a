#!/usr/bin/env python3
"""Compile time, TTIR -> PTX, Tritium against upstream Triton 3.6 on the same
TTIR (the corpus kernels' TTIR as upstream wrote it). No GPU needed.

Upstream: triton.compile(<ttir file>, target) in this process with an empty
cache directory each time; its compilation listener gives the time of each
stage; counted are parsing the TTIR and the ttir, ttgir, llir and ptx stages
(not the cubin stage, which is ptxas, nor storing to the cache).
Tritium: wall time of `target/release/tritium compile <ttir>` as a process
(process start, MLIR context, parse, all passes, lowering, LLVM, PTX, files).
Median of --repeat runs each.

Usage: bench/build.sh (or cargo build --release -p tritium), then
    python3 bench/compile_time.py [--repeat 5] [--target cuda90]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus_ttir(target):
    with open(os.path.join(ROOT, "test/fixtures/corpus/manifest.tsv")) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 4 and fields[0] == target and fields[2] == "ttir":
                yield fields[1], os.path.join(ROOT, "test/fixtures/corpus/ir", fields[3] + ".mlir")


def upstream_ms(path, capability, meta):
    import triton
    from triton.backends.compiler import GPUTarget
    times = {}

    def listener(**kwargs):
        times["t"] = kwargs["times"]

    triton.knobs.compilation.listener = listener
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TRITON_CACHE_DIR"] = cache
        triton.knobs.cache.dir = cache
        # triton.compile takes the TTIR file itself (the suffix says what it is).
        with tempfile.TemporaryDirectory() as d:
            ttir = os.path.join(d, "kernel.ttir")
            with open(path) as f, open(ttir, "w") as g:
                g.write(f.read())
            triton.compile(ttir, target=GPUTarget("cuda", capability, 32),
                           options=dict(num_warps=meta["num_warps"], num_stages=meta["num_stages"],
                                        num_ctas=meta["num_ctas"]))
    t = times["t"]
    stages = dict(t.lowering_stages)
    counted = t.ir_initialization + sum(v for k, v in stages.items() if k != "cubin")
    return counted / 1000.0, {k: v / 1000.0 for k, v in stages.items()}


def tritium_ms(path, capability, meta):
    binary = os.path.join(ROOT, "target/release/tritium")
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run([binary, "compile", path, "--target", f"cuda:{capability}",
                        "--num-warps", str(meta["num_warps"]), "--num-stages", str(meta["num_stages"]),
                        "-o", out], check=True, capture_output=True)
        return (time.perf_counter() - start) * 1000.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--target", default="cuda90")
    args = parser.parse_args()
    capability = int(args.target.removeprefix("cuda"))
    print(f"| kernel ({args.target}) | Tritium ms | upstream ms (parse+ttir+ttgir+llir+ptx) | upstream ptxas (cubin stage) ms | speed-up |")
    print("|---|---:|---:|---:|---:|")
    rows = []
    for kernel, path in corpus_ttir(args.target):
        with open(os.path.join(ROOT, f"test/fixtures/corpus/meta/{args.target}/{kernel}.json")) as f:
            meta = json.load(f)
        ours = statistics.median(tritium_ms(path, capability, meta) for _ in range(args.repeat))
        samples = [upstream_ms(path, capability, meta) for _ in range(args.repeat)]
        theirs = statistics.median(s[0] for s in samples)
        cubin = statistics.median(s[1].get("cubin", 0.0) for s in samples)
        rows.append(dict(kernel=kernel, tritium_ms=ours, upstream_ms=theirs, upstream_cubin_ms=cubin))
        print(f"| {kernel} | {ours:.1f} | {theirs:.1f} | {cubin:.1f} | {theirs / ours:.2f}x |", flush=True)
    json.dump(rows, sys.stderr, indent=1)


if __name__ == "__main__":
    main()
