#!/usr/bin/env python3
"""Large-tile kernels for bench/compile_time.py --large-tiles: element-wise
kernels over big fp32 tiles with 4 warps (a 512x512 tile is 2,048 elements per
thread), where compile time is dominated by straight-line code size.
Writes NAME.ttir and NAME.json (num_warps, num_stages, num_ctas) here, from
upstream Triton 3.6 (CPU only): python3 bench/large_tiles/gen.py"""
import json, os, re
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

HERE = os.path.dirname(os.path.abspath(__file__))


@triton.jit
def masked_fill(X, Y, M, N, value, BM: tl.constexpr, BN: tl.constexpr):
    # Replace NaNs of an M x N fp32 matrix by `value`, one BM x BN tile per program.
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    offsets = rows[:, None] * N + cols[None, :]
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + offsets, mask=inside, other=0.0)
    tl.store(Y + offsets, tl.where(x != x, value, x), mask=inside)


@triton.jit
def masked_axpy(X, Y, Z, M, N, a, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    offsets = rows[:, None] * N + cols[None, :]
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + offsets, mask=inside, other=0.0)
    y = tl.load(Y + offsets, mask=inside, other=0.0)
    tl.store(Z + offsets, a * x + y, mask=inside)


@triton.jit
def fill_constant(Y, M, N, value, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(Y + rows[:, None] * N + cols[None, :], tl.full((BM, BN), value, tl.float32), mask=inside)


CASES = [
    ("masked_fill_512x512", masked_fill, dict(BM=512, BN=512)),
    ("masked_fill_256x512", masked_fill, dict(BM=256, BN=512)),
    ("masked_fill_256x256", masked_fill, dict(BM=256, BN=256)),
    ("masked_axpy_512x512", masked_axpy, dict(BM=512, BN=512)),
    ("fill_constant_512x512", fill_constant, dict(BM=512, BN=512)),
]


def main():
    types = dict(X="*fp32", Y="*fp32", Z="*fp32", M="i32", N="i32", value="fp32", a="fp32")
    for name, fn, const in CASES:
        signature = {arg: ("constexpr" if arg in const else types[arg]) for arg in fn.arg_names}
        attrs = {(i,): [["tt.divisibility", 16]] for i, arg in enumerate(fn.arg_names) if arg in "XYZMN"}
        options = dict(num_warps=4, num_stages=3, num_ctas=1)
        kernel = triton.compile(ASTSource(fn=fn, signature=signature, constexprs=const, attrs=attrs),
                                target=GPUTarget("cuda", 90, 32), options=options)
        ttir = re.sub(r'loc\("[^"]*/([^"/]+)"', r'loc("\1"', kernel.asm["ttir"])
        with open(os.path.join(HERE, name + ".ttir"), "w") as f:
            f.write(ttir)
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            json.dump(options, f)
        print(name)


if __name__ == "__main__":
    main()
