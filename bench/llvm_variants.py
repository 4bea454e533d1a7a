#!/usr/bin/env python3
"""Experiment columns for the harness (`--variant noslsr`, `--variant tri49`): Tritium's own
optimised LLVM IR of each sm_90 kernel of out/bench/tritium (from upstream's TTGIR), put through
  noslsr: the LLVM Tritium links (Debian's llc 22.1.8, Tritium's NVPTX options) with the
          straight-line strength reduction pass disabled (its debug counter);
  tri49:  upstream Triton 3.6's bundled LLVM (22.0.0git, 49d5bb0: SLSR before its redesign,
          llvm-project #169614, relanded 2025-11-26), through triton's llvm.translate_to_asm.
Where Tritium's PTX times differently from these, the code generator is the cause, not the IR.

Usage (here, after bench/build.sh; needs pip triton==3.6.0): python3 bench/llvm_variants.py [KERNEL...]
writes out/bench/{noslsr,tri49}/cuda90/KERNEL.{ptx,json} (the json is Tritium's)."""
import glob, os, shutil, subprocess, sys, tempfile

from triton._C.libtriton import llvm, nvidia

import corpus_manifest
from upstream_ir_llc import llc_ptx, without_debug_target

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRITIUM = os.environ.get("TRITIUM", os.path.join(ROOT, "target", "release", "tritium"))
BUNDLE = os.path.join(ROOT, "out", "bench")


def write(variant, kernel, ptx):
    directory = os.path.join(BUNDLE, variant, "cuda90")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, kernel + ".ptx"), "w") as f:
        f.write(without_debug_target(ptx))
    shutil.copy(os.path.join(BUNDLE, "tritium", "cuda90", kernel + ".json"), directory)


def main(kernels):
    llvm.init_targets()
    nvidia.set_short_ptr()
    sources = corpus_manifest.sm90_ttgir_sources()
    kernels = kernels or sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(BUNDLE, "tritium", "cuda90", "*.ptx")))
    import triton
    env = dict(os.environ, LIBDEVICE=os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "lib", "libdevice.10.bc"))
    for kernel in kernels:
        if kernel not in sources:
            print(kernel, ": no TTGIR source"); continue
        with tempfile.TemporaryDirectory() as work:
            run = subprocess.run([TRITIUM, "compile", sources[kernel], "--emit-llvm", "-o", work], capture_output=True, text=True, env=env)
            llir = glob.glob(os.path.join(work, "*.ll"))
            if run.returncode or not llir:
                print(kernel, ": tritium failed:", run.stderr[-300:]); continue
            write("noslsr", kernel, llc_ptx(llir[0], "--debug-counter=slsr-counter=100000000"))
            with open(llir[0]) as f:
                # An attribute LLVM 49d5bb0 does not know yet (it only describes intrinsics).
                text = f.read().replace("nocreateundeforpoison ", "")
            write("tri49", kernel, llvm.translate_to_asm(text, "nvptx64-nvidia-cuda", "sm_90a", "+ptx87", ["nvptx-mad-wide-opt"], True, False))
        print(kernel, "ok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
