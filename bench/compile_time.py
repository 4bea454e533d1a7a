#!/usr/bin/env python3
"""Compile time, TTIR -> PTX, Tritium against upstream Triton 3.6 on the same
TTIR (the corpus kernels' TTIR as upstream wrote it). No GPU needed.

Upstream: triton.compile(<ttir file>, target) in this process with an empty
cache directory each time; its compilation listener gives the time of each
stage; counted are parsing the TTIR and the ttir, ttgir, llir and ptx stages
(not the cubin stage, which is ptxas, nor storing to the cache).
Tritium: wall time of `target/release/tritium compile <ttir>` as a process
(process start, MLIR context, parse, all passes, lowering, LLVM, PTX, files),
and, from its --timing report after two warm-up compiles in the same process
(as upstream's numbers are, in a Python process that has compiled before),
the in-process total and the TTIR -> TTGIR pass time (to compare with
upstream's ttir + ttgir stages). Median of --repeat runs each.

Usage: bench/build.sh (or cargo build --release -p tritium), then
    python3 bench/compile_time.py [--repeat 5] [--target cuda90] [--large-tiles]
--large-tiles times the kernels of bench/large_tiles/ (element-wise kernels over
512x512 fp32 tiles with 4 warps: 2,048 elements per thread) instead of the corpus.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

import corpus_manifest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRITIUM = os.path.join(ROOT, "target/release/tritium")


def not_yet_lowered():
    with open(os.path.join(ROOT, "test/fixtures/not-yet-lowered.tsv")) as f:
        return {l.split("\t")[0] for l in f if l.strip() and not l.startswith("#")}


def corpus_ttir(target):
    skip = not_yet_lowered()
    for t, kernel, stage, path in corpus_manifest.entries():
        if t == target and stage == "ttir" and kernel not in skip:
            yield kernel, path


def large_tile_ttir():
    """bench/large_tiles/*.ttir (made by bench/large_tiles/gen.py) with their launch options."""
    directory = os.path.join(ROOT, "bench/large_tiles")
    for name in sorted(n[:-5] for n in os.listdir(directory) if n.endswith(".ttir")):
        with open(os.path.join(directory, name + ".json")) as f:
            yield name, os.path.join(directory, name + ".ttir"), json.load(f)


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


def tritium_ms(path, capability, meta, warm_up=0):
    """(process wall ms, in-process total ms, TTIR -> TTGIR passes ms) of one compile."""
    binary = TRITIUM
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        done = subprocess.run([binary, "compile", path, "--target", f"cuda:{capability}",
                               "--num-warps", str(meta["num_warps"]), "--num-stages", str(meta["num_stages"]),
                               "--timing", "--warm-up", str(warm_up), "-o", out],
                              check=True, capture_output=True, text=True)
        wall = (time.perf_counter() - start) * 1000.0
    steps = {}
    for line in done.stderr.splitlines():
        value, _, name = line.strip().partition(" ms  ")
        if name:
            steps[name] = float(value)
    return wall, steps["total"], steps.get("TTIR -> TTGIR passes", 0.0)


def main():
    global TRITIUM
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--target", default="cuda90")
    parser.add_argument("--tritium", default=None, help="the tritium binary (default target/release/tritium)")
    parser.add_argument("--large-tiles", action="store_true",
                        help="the large-tile kernels of bench/large_tiles/ instead of the corpus (sm_90)")
    args = parser.parse_args()
    TRITIUM = args.tritium or TRITIUM
    capability = int(args.target.removeprefix("cuda"))
    print(f"| kernel ({args.target}) | Tritium process ms | Tritium in-process ms | upstream ms | speed-up (in-process) "
          f"| Tritium TTIR->TTGIR ms | upstream ttir+ttgir ms | upstream ptxas ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    if args.large_tiles:
        kernels = list(large_tile_ttir())
    else:
        kernels = []
        for kernel, path in corpus_ttir(args.target):
            with open(os.path.join(ROOT, f"test/fixtures/corpus/meta/{args.target}/{kernel}.json")) as f:
                kernels.append((kernel, path, json.load(f)))
    # Upstream's first compile in a process pays Triton's one-time start-up: leave it out.
    upstream_ms(kernels[0][1], capability, kernels[0][2])
    for kernel, path, meta in kernels:
        med = statistics.median
        cold = [tritium_ms(path, capability, meta) for _ in range(args.repeat)]
        warm = [tritium_ms(path, capability, meta, warm_up=2) for _ in range(args.repeat)]
        samples = [upstream_ms(path, capability, meta) for _ in range(args.repeat)]
        row = dict(kernel=kernel,
                   tritium_process_ms=med(c[0] for c in cold),
                   tritium_in_process_ms=med(w[1] for w in warm),
                   tritium_ttgir_passes_ms=med(w[2] for w in warm),
                   upstream_ms=med(s[0] for s in samples),
                   upstream_ttir_ttgir_ms=med(s[1].get("ttir", 0.0) + s[1].get("ttgir", 0.0) for s in samples),
                   upstream_cubin_ms=med(s[1].get("cubin", 0.0) for s in samples))
        rows.append(row)
        print(f"| {kernel} | {row['tritium_process_ms']:.1f} | {row['tritium_in_process_ms']:.1f} | {row['upstream_ms']:.1f} "
              f"| {row['upstream_ms'] / row['tritium_in_process_ms']:.2f}x | {row['tritium_ttgir_passes_ms']:.1f} "
              f"| {row['upstream_ttir_ttgir_ms']:.1f} | {row['upstream_cubin_ms']:.1f} |", flush=True)
    json.dump(rows, sys.stderr, indent=1)


if __name__ == "__main__":
    main()
