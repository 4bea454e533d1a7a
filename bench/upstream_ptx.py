#!/usr/bin/env python3
"""Upstream Triton 3.6's PTX of a TTGIR file (no GPU needed), for kernels
whose PTX the shared corpus does not hold.

Usage: python3 bench/upstream_ptx.py KERNEL.ttgir-as-.mlir TARGET(cuda90|cuda80) OUT_PREFIX
writes OUT_PREFIX.ptx and OUT_PREFIX.json ({name, num_warps, shared}).

A source named *.ttir is TTIR (bench/large_tiles): upstream's whole pipeline
runs, with num_warps/num_stages/num_ctas from the json beside it (NAME.json),
and OUT_PREFIX.ttgir gets upstream's TTGIR too."""
import json, os, shutil, sys, tempfile

import triton
from triton.backends.compiler import GPUTarget

source, target, prefix = sys.argv[1:4]
is_ttir = source.endswith(".ttir")
options = {}
if is_ttir and os.path.exists(source[:-len(".ttir")] + ".json"):
    with open(source[:-len(".ttir")] + ".json") as f:
        options = {k: v for k, v in json.load(f).items() if k in ("num_warps", "num_stages", "num_ctas")}
with tempfile.TemporaryDirectory() as d:
    os.environ["TRITON_CACHE_DIR"] = d
    # triton.compile reads the stage from the suffix
    path = os.path.join(d, "kernel.ttir" if is_ttir else "kernel.ttgir")
    shutil.copy(source, path)
    kernel = triton.compile(path, target=GPUTarget("cuda", int(target.removeprefix("cuda")), 32),
                            options=options or None)
with open(prefix + ".ptx", "w") as f:
    f.write(kernel.asm["ptx"])
if is_ttir:
    with open(prefix + ".ttgir", "w") as f:
        f.write(kernel.asm["ttgir"])
meta = kernel.metadata
with open(prefix + ".json", "w") as f:
    json.dump(dict(name=meta.name, num_warps=meta.num_warps, shared=meta.shared,
                   tensordesc_meta=getattr(meta, "tensordesc_meta", None) or [],
                   global_scratch_size=getattr(meta, "global_scratch_size", 0) or 0), f)
