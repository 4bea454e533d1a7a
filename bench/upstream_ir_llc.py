#!/usr/bin/env python3
"""An experiment column for the harness (`--variant up22`): upstream Triton 3.6's own LLVM IR of a
corpus kernel, put through the LLVM Tritium links (Debian's llc 22, with the NVPTX options
Tritium's ptx.rs sets), so that upstream's IR and Tritium's code generator meet. Upstream's PTX
comes from its bundled LLVM (22.0.0git, 49d5bb0); where the two PTX files time differently, the
gap is the LLVM release, not Tritium's IR. (Session 12: tut03_matmul_64x256's up22 ran 0.996 of
upstream's time where Tritium's ran 1.071: its gap was Tritium's IR, the epilogue's conversion.)

Usage (here, no GPU): python3 bench/upstream_ir_llc.py KERNEL [KERNEL...]
writes out/bench/up22/cuda90/KERNEL.{ptx,json}: the json is upstream's bundle's with
"extra_null_args": 2 (upstream's ABI) and Tritium's tensordesc_meta (TMA kernels)."""
import json, os, subprocess, sys, tempfile

import triton
from triton.backends.compiler import GPUTarget

import corpus_manifest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLC = os.environ.get("LLC", "/usr/lib/llvm-22/bin/llc")


def without_debug_target(ptx):
    """`ptx` with `.target sm_90a` (debug info in the LLVM IR makes it `.target sm_90a, debug`, and
    ptxas then does not optimise; Tritium's ptx.rs drops it the same way)."""
    return ptx.replace(".target sm_90a, debug", ".target sm_90a")


def llc_ptx(llir, *options):
    """The PTX of the LLVM IR file `llir` from Debian's llc 22 with the NVPTX options Tritium's ptx.rs
    sets (and `options`), as text."""
    return subprocess.run([LLC, "-mtriple=nvptx64-nvidia-cuda", "-mcpu=sm_90a", "-mattr=+ptx87", "-O3",
                           "-nvptx-short-ptr", "-nvptx-mad-wide-opt", *options, llir, "-o", "-"],
                          capture_output=True, text=True, check=True).stdout


def main(kernels):
    out = os.path.join(ROOT, "out", "bench", "up22", "cuda90")
    os.makedirs(out, exist_ok=True)
    sources = corpus_manifest.sm90_ttgir_sources()
    for kernel in kernels:
        with tempfile.TemporaryDirectory() as work:
            os.environ["TRITON_CACHE_DIR"] = work
            source = os.path.join(work, "kernel.ttgir")
            if kernel not in sources:
                raise SystemExit(f"{kernel}: no sm_90 TTGIR (corpus_manifest.sm90_ttgir_sources)")
            with open(sources[kernel]) as f, open(source, "w") as g:
                g.write(f.read())
            compiled = triton.compile(source, target=GPUTarget("cuda", 90, 32))
            llir = os.path.join(work, "kernel.ll")
            with open(llir, "w") as f:
                f.write(compiled.asm["llir"])
            ptx = os.path.join(out, kernel + ".ptx")
            with open(ptx, "w") as f:
                f.write(without_debug_target(llc_ptx(llir)))
        bundle = os.path.join(ROOT, "out", "bench")
        with open(os.path.join(bundle, "upstream", "cuda90", kernel + ".json")) as f:
            meta = json.load(f)
        with open(os.path.join(bundle, "tritium", "cuda90", kernel + ".json")) as f:
            tritium_meta = json.load(f)
        meta["extra_null_args"] = 2
        if not meta.get("tensordesc_meta"):
            meta["tensordesc_meta"] = tritium_meta.get("tensordesc_meta", [])
        with open(os.path.join(out, kernel + ".json"), "w") as f:
            json.dump(meta, f)
        print(kernel, "->", ptx)


if __name__ == "__main__":
    main(sys.argv[1:])
