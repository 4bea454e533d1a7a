"""@triton.jit kernels for the plug-in tests (Triton needs them in a file)."""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out + offsets, tl.load(x + offsets, mask=mask) + tl.load(y + offsets, mask=mask), mask=mask)


@triton.jit
def softmax_kernel(out, inp, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(inp + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out + row * stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


@triton.jit
def matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def tma_copy_kernel(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    tile = in_desc.load([tl.program_id(0) * BM, tl.program_id(1) * BN])
    out_desc.store([tl.program_id(0) * BM, tl.program_id(1) * BN], tile + 1.0)


@triton.jit
def device_desc_copy_kernel(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(x, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(y, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst.store([tl.program_id(0) * BM, 0], src.load([tl.program_id(0) * BM, 0]))


CASES = {
    "add": (add_kernel, {"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32"}, {"BLOCK": 1024}, {}),
    "softmax": (softmax_kernel, {"out": "*fp32", "inp": "*fp32", "stride": "i32", "n_cols": "i32"}, {"BLOCK": 1024},
                {"num_warps": 8}),
    "matmul": (matmul_kernel, {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32"},
               {"BM": 128, "BN": 128, "BK": 64}, {"num_warps": 8, "num_stages": 3}),
    "tma_copy": (tma_copy_kernel, {"in_desc": "tensordesc<fp16[64, 64]>", "out_desc": "tensordesc<fp16[64, 64]>"},
                 {"BM": 64, "BN": 64}, {}),
    "device_desc_copy": (device_desc_copy_kernel, {"x": "*fp16", "y": "*fp16", "M": "i32", "N": "i32"},
                         {"BM": 64, "BN": 64}, {}),
}


@triton.jit
def descriptor_copy_kernel(src, dst, BM: tl.constexpr, BN: tl.constexpr):
    # Host-side tensor descriptors: the launcher builds their CUtensorMaps.
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    dst.store([m, n], src.load([m, n]) * 2)


CASES["descriptor_copy"] = (descriptor_copy_kernel, {"src": "tensordesc<fp16[64, 128]>", "dst": "tensordesc<fp16[64, 128]>"},
                            {"BM": 64, "BN": 128}, {"num_warps": 4})


@triton.jit
def mul_add_kernel(data):
    pointers = data + tl.arange(0, 128)
    tl.store(pointers, tl.load(pointers) * 1.5 + 1.0)


@triton.jit
def exp2_kernel(data):
    pointers = data + tl.arange(0, 128)
    tl.store(pointers, tl.math.exp2(tl.load(pointers)))


CASES["mul_add"] = (mul_add_kernel, {"data": "*fp32"}, {}, {})
CASES["exp2"] = (exp2_kernel, {"data": "*fp32"}, {}, {})
