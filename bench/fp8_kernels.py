"""fp8 kernels, written for Tritium's corpus and GPU harness: an fp8 copy
(8-bit loads and stores), fp8 <-> f16/bf16/f32 casts with each rounding mode
upstream Triton 3.6 lowers on NVIDIA, fp8 matmuls (tutorial 03's kernel
with fp8 inputs, B stored K-major as the tutorial's `b.T` gives it, and B
stored N-major), and scaled dots (`tl.dot_scaled`, mxfp8 and mxfp4). e4m3 (`fp8e4nv`) needs sm_89+: upstream's frontend rejects it
for sm_80, so the sm_80 cases (SM80) use e5m2 only.

gen.py (shared/corpus) compiles them with upstream Triton like the other corpus
kernels; bench/kernels.py adds CASES to its own."""
import triton
import triton.language as tl


@triton.jit
def fp8_copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


@triton.jit
def fp8_cast(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # Upcasts, and downcasts with the default rounding (rtne).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x.to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def fp8_cast_rtz(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # Downcasts rounding toward zero.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x.to(y_ptr.dtype.element_ty, fp_downcast_rounding="rtz"), mask=m)


@triton.jit
def fp8_bitcast(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    # y = the bits of x (fp8) as uint8; z = those bits plus one, as fp8 again.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    bits = x.to(tl.uint8, bitcast=True)
    tl.store(y_ptr + offs, bits, mask=m)
    tl.store(z_ptr + offs, (bits + 1).to(z_ptr.dtype.element_ty, bitcast=True), mask=m)


@triton.jit
def matmul_fp8(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    # Tutorial 03's grouped matmul; fp8 operands, f32 accumulator, f16 output.
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    gsize = min(num_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % group) % gsize)
    pid_n = (pid % group) // gsize
    om = (pid_m * BM + tl.arange(0, BM)) % M
    on = (pid_n * BN + tl.arange(0, BN)) % N
    ok = tl.arange(0, BK)
    a_ptrs = a + om[:, None] * sam + ok[None, :] * sak
    b_ptrs = b + ok[:, None] * sbk + on[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(a_ptrs, mask=ok[None, :] < K - k * BK, other=0.0)
        y = tl.load(b_ptrs, mask=ok[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * scm + cn[None, :] * scn, acc.to(c.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


def _sig(names, types):
    return dict(zip(names, types))


ELEMENTWISE = ["x_ptr", "y_ptr", "n"]
MM = ["a", "b", "c", "M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"]
MM_DIV = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def _elementwise(name, fn, src, dst, block=1024, warps=4):
    return dict(name=name, fn=fn, sig=_sig(ELEMENTWISE, [src, dst, "i32"]), const={"BLOCK": block},
                div=[0, 1, 2], opts=dict(num_warps=warps))


def _matmul(name, fp8, b_k_major, blocks, warps, stages):
    # Unit strides arrive as constexprs (Triton specialises 1s): A row-major; B K-major (b.T of a
    # row-major [N, K] tensor, as tutorial 03 passes it) or N-major; C row-major.
    unit = {"sak": 1, "scn": 1, **({"sbk": 1} if b_k_major else {"sbn": 1})}
    bm, bn, bk = blocks
    sig = _sig(MM, [f"*{fp8}", f"*{fp8}", "*fp16"] + ["i32"] * 9)
    return dict(name=name, fn=matmul_fp8, sig=sig, const={"BM": bm, "BN": bn, "BK": bk, "GROUP_M": 8, **unit},
                div=[i for i, a in enumerate(MM) if a not in unit], opts=dict(num_warps=warps, num_stages=stages))


# (name suffix, triton type)
FP8 = [("e4m3", "fp8e4nv"), ("e5m2", "fp8e5")]
WIDE = [("f16", "fp16"), ("bf16", "bf16"), ("f32", "fp32")]


def _cases(fp8_types):
    cases = [_elementwise(f"fp8_copy_{s}", fp8_copy, f"*{t}", f"*{t}") for s, t in fp8_types]
    for s, t in fp8_types:
        for ws, wt in WIDE:
            cases.append(_elementwise(f"fp8_cast_{s}_to_{ws}", fp8_cast, f"*{t}", f"*{wt}"))
            cases.append(_elementwise(f"fp8_cast_{ws}_to_{s}", fp8_cast, f"*{wt}", f"*{t}"))
    cases += [dict(name=f"fp8_bitcast_{s}", fn=fp8_bitcast, sig=_sig(["x_ptr", "y_ptr", "z_ptr", "n"],
                   [f"*{t}", "*u8", f"*{t}", "i32"]), const={"BLOCK": 1024}, div=[0, 1, 2, 3],
                   opts=dict(num_warps=4)) for s, t in fp8_types]
    return cases


# e5m2 kernels compile for sm_80 and sm_90; e4m3 needs sm_89+ (gen.py compiles SM90_ONLY for cuda:90
# only). Upstream lowers rtz only for f32 -> e5m2 (through f16).
CASES = _cases(FP8[1:]) + [
    _elementwise("fp8_cast_f32_to_e5m2_rtz", fp8_cast_rtz, "*fp32", "*fp8e5"),
    # Tutorial 03's fp8 configuration (128x256x128, 8 warps, 3 stages), B K-major.
    _matmul("matmul_fp8_e5m2", "fp8e5", True, (128, 256, 128), 8, 3),
]
SM90_ONLY = _cases(FP8[:1]) + [
    _matmul("matmul_fp8_e4m3", "fp8e4nv", True, (128, 256, 128), 8, 3),
    _matmul("matmul_fp8_e4m3_bn", "fp8e4nv", False, (128, 128, 64), 4, 3),
]


@triton.jit
def dot_scaled_tile(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr,
                    BK: tl.constexpr, TYPE_A: tl.constexpr, TYPE_B: tl.constexpr, SCALE_A: tl.constexpr,
                    SCALE_B: tl.constexpr):
    # One BMxBN tile of C = (A * 2^scale_a) @ (B * 2^scale_b): A [BM, BK] and B [BK, BN] of TYPE_A/TYPE_B
    # (e2m1 packs two values per byte along K), e8m0 scales per 32 elements of K ([BM, BK/32] and
    # [BN, BK/32]), row-major; SCALE_A/SCALE_B False leave that operand unscaled.
    PACK_A: tl.constexpr = 2 if TYPE_A == "e2m1" else 1
    PACK_B: tl.constexpr = 2 if TYPE_B == "e2m1" else 1
    om = tl.arange(0, BM)
    on = tl.arange(0, BN)
    ka = tl.arange(0, BK // PACK_A)
    kb = tl.arange(0, BK // PACK_B)
    ks = tl.arange(0, BK // 32)
    a = tl.load(a_ptr + om[:, None] * (BK // PACK_A) + ka[None, :])
    b = tl.load(b_ptr + kb[:, None] * BN + on[None, :])
    a_scale = None
    b_scale = None
    if SCALE_A:
        a_scale = tl.load(a_scale_ptr + om[:, None] * (BK // 32) + ks[None, :])
    if SCALE_B:
        b_scale = tl.load(b_scale_ptr + on[:, None] * (BK // 32) + ks[None, :])
    c = tl.dot_scaled(a, a_scale, TYPE_A, b, b_scale, TYPE_B)
    tl.store(c_ptr + om[:, None] * BN + on[None, :], c)


def _scaled(name, type_a, type_b, a_ty, b_ty, scale_a=True, scale_b=True, blocks=(128, 128, 128), warps=4):
    bm, bn, bk = blocks
    sig = _sig(["a_ptr", "a_scale_ptr", "b_ptr", "b_scale_ptr", "c_ptr"], [a_ty, "*u8", b_ty, "*u8", "*fp32"])
    return dict(name=name, fn=dot_scaled_tile, sig=sig,
                const={"BM": bm, "BN": bn, "BK": bk, "TYPE_A": type_a, "TYPE_B": type_b, "SCALE_A": scale_a,
                       "SCALE_B": scale_b},
                div=[0, 1, 2, 3, 4], opts=dict(num_warps=warps))


# tl.dot_scaled (mxfp8, mxfp4): upstream decomposes them into dots of bf16 (f16 with an fp16 operand)
# on sm_80 and sm_90.
SCALED = [
    _scaled("dot_scaled_e5m2", "e5m2", "e5m2", "*fp8e5", "*fp8e5"),
    _scaled("dot_scaled_e2m1", "e2m1", "e2m1", "*u8", "*u8"),
    _scaled("dot_scaled_e2m1_bf16", "e2m1", "bf16", "*u8", "*bf16", scale_b=False),
]
# e4m3 needs sm_89+; an fp16 operand makes the compute type f16, whose e2m1 upcast upstream writes
# with sm_89's cvt (its sm_80 PTX fails ptxas). Only B scaled: the dot is transposed first.
SCALED_SM90_ONLY = [
    _scaled("dot_scaled_e4m3", "e4m3", "e4m3", "*fp8e4nv", "*fp8e4nv"),
    _scaled("dot_scaled_e4m3_e2m1", "e4m3", "e2m1", "*fp8e4nv", "*u8", blocks=(64, 128, 64)),
    _scaled("dot_scaled_fp16_e2m1", "fp16", "e2m1", "*fp16", "*u8", scale_a=False, warps=8),
]
CASES += SCALED
SM90_ONLY += SCALED_SM90_ONLY
