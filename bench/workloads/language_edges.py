"""Language edges found while probing Tritium against upstream (written for this project), kept as
regression cases: inline asm mixing operand widths with fewer elements per thread than its pack
(the padding upstream applies), asm on dot results, tl.gather with an index narrower than its
source, 2-D flips and bool scans, 3-D dot results reduced along each axis and permuted, tensor
descriptors (3-D loads, atomic_add reductions, fp8 operands in a pipelined loop), pipelined loops
with loads under an if, volatile and .cg loads and a data-dependent pointer stride, scale vectors
in a dot loop, scalar loads/stores/atomics under masks and 0-d/1-element tensors, pointer <->
int casts and a pointer select, fp64/fp16/bf16/int8/int64/uint16 math, reductions/scans/sorts/
gathers/histograms/top-k on tiles smaller than a warp, dot_scaled over mxfp4/fp8 formats, a
tl.reduce whose combine function branches, loop attributes (unroll factor, disable_licm, num_stages=0),
and a noinline helper that prints, asserts, scans and does atomics, called twice."""
import triton
import triton.language as tl


@triton.jit
def asm_pack4_two(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x0F0F0F0F;", "=r,r", [x], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(y_ptr + offs, y)

@triton.jit
def gather_narrow(x_ptr, i_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    r = tl.arange(0, M)
    x = tl.load(x_ptr + r[:, None] * N + tl.arange(0, N)[None, :])
    idx = tl.load(i_ptr + r[:, None] * K + tl.arange(0, K)[None, :])
    g = tl.gather(x, idx, axis=1)
    tl.store(y_ptr + r[:, None] * K + tl.arange(0, K)[None, :], g)
    idx0 = tl.load(i_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :]) % M
    g0 = tl.gather(x, idx0, axis=0)
    tl.store(y_ptr + M * K + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :], g0)

@triton.jit
def flip2d_scan_bool(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    f = tl.flip(x, 0)
    s = tl.cumsum((x > 0).to(tl.int8), 1)
    cs = tl.cumsum(x, 0, reverse=True)
    tl.store(y_ptr + r[:, None] * N + c[None, :], f + s.to(tl.float32) + cs)

@triton.jit
def dot3d_reduce(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    b_ = tl.arange(0, B)
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + b_[:, None, None] * M * K + m[None, :, None] * K + k[None, None, :])
    bb = tl.load(b_ptr + b_[:, None, None] * K * N + k[None, :, None] * N + n[None, None, :])
    c = tl.dot(a, bb)
    s0 = tl.sum(c, 0)
    s1 = tl.max(c, 1)
    s2 = tl.sum(c, 2)
    t = tl.permute(c, (1, 0, 2))
    r = tl.reshape(t, (M, B * N))
    tl.store(c_ptr + m[:, None] * N + n[None, :], s0)
    tl.store(c_ptr + M * N + b_[:, None] * N + n[None, :], s1)
    tl.store(c_ptr + 2 * M * N + b_[:, None] * M + m[None, :], s2)
    tl.store(c_ptr + 4 * M * N + m[:, None] * (B * N) + tl.arange(0, B * N)[None, :], r)


@triton.jit
def desc_atomic_3d(a_desc, o_desc, x_ptr, B, T, D, BT: tl.constexpr, BD: tl.constexpr):
    pid = tl.program_id(0)
    b = tl.program_id(1)
    x = a_desc.load([b, pid * BT, 0])  # [1, BT, BD]
    y = x.reshape(BT, BD).to(tl.float32) * 2
    o_desc.atomic_add([pid * BT, 0], y)
    d = tl.make_tensor_descriptor(x_ptr, shape=[T, D], strides=[D, 1], block_shape=[BT, BD])
    z = d.load([pid * BT, 0])
    d.store([pid * BT, 0], z + 1)
    o_desc.store([pid * BT, 0], y + z.to(tl.float32))

@triton.jit
def desc_fp8_loop(a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, num_stages=4):
        a = a_desc.load([pid_m * BM, k])
        b = b_desc.load([pid_n * BN, k])
        acc = tl.dot(a, b.T, acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16))


@triton.jit
def cond_load_loop(a_ptr, b_ptr, c_ptr, K, half, stride, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    last = tl.zeros((BN,), tl.float16)
    for k in tl.range(0, K, BK, num_stages=4):
        a = tl.load(a_ptrs, cache_modifier=".cg")
        if k < half:
            b = tl.load(b_ptrs)
        else:
            b = tl.load(b_ptrs + BK * BN, volatile=True)
        acc = tl.dot(a, b, acc)
        last = tl.load(b_ptr + k + rn)
        a_ptrs += BK
        b_ptrs += stride * BK * BN * ((k // BK) % 2 + 1)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc + last[None, :].to(tl.float32))

@triton.jit
def scale_vec_loop(a_ptr, b_ptr, s_ptr, c_ptr, K, lo, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(lo, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(k + rk)[None, :] < K, other=1.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :]).to(tl.float16)
        s = tl.load(s_ptr + k // BK + rn * 0)
        acc += tl.dot(a, b) * s[None, :]
        kf = k.to(tl.float32)
        acc += kf * 0.0
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def scalar_corners(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    s = tl.load(x_ptr + pid, mask=pid < n, other=0.0)
    v = tl.broadcast_to(s, (BLOCK,))
    w = tl.where(pid % 2 == 0, s, -s)
    tl.store(y_ptr + pid, w, mask=pid < n)
    one = tl.arange(0, 1)
    t = tl.load(x_ptr + one)
    zz = tl.zeros((1,), tl.float32) + tl.sum(t)
    tl.store(y_ptr + n + one, zz)
    e = s[None]
    f = tl.reshape(e, (1, 1))
    tl.store(y_ptr + n + 1 + tl.arange(0, 1)[:, None], f)
    old = tl.atomic_add(z_ptr, 1, mask=s > 0)
    tl.store(y_ptr + 2 * n + tl.arange(0, BLOCK), v + old)

@triton.jit
def ptr_int_casts(x_ptr, y_ptr, tbl_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = x_ptr + offs
    addr = tl.cast(p, tl.int64)
    aligned = (addr % 16) == 0
    q = tl.where(aligned, p, y_ptr + offs)
    v = tl.load(q)
    raw = tl.load(tbl_ptr)
    r = raw.to(tl.pointer_type(tl.float32))
    tl.store(r + offs, v, mask=offs < n)
    lt = tl.cast(x_ptr + offs, tl.int64) < tl.cast(y_ptr + offs, tl.int64)
    tl.store(y_ptr + offs, lt.to(tl.float32))
    s_addr = tl.cast(x_ptr, tl.int64)
    tl.store(tbl_ptr + 1, s_addr)


@triton.jit
def math_zoo(d_ptr, h_ptr, b_ptr, i8_ptr, i64_ptr, u16_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    d = tl.load(d_ptr + o)
    h = tl.load(h_ptr + o)
    b = tl.load(b_ptr + o)
    i8 = tl.load(i8_ptr + o)
    i64 = tl.load(i64_ptr + o)
    u16 = tl.load(u16_ptr + o)
    d2 = tl.exp(d) + tl.log(tl.abs(d) + 1) + tl.sqrt(tl.abs(d)) + tl.rsqrt(tl.abs(d) + 1) + tl.sin(d) + tl.cos(d)
    d2 += tl.erf(d) + tl.floor(d) + tl.ceil(d) + tl.exp2(d) + tl.log2(tl.abs(d) + 1) + d % 3.0 + tl.fma(d, d, d)
    h2 = tl.abs(h) + h % 2.0 + tl.maximum(h, 0.0) + h * h - h / 3.0 + tl.where(h > 0, h, -h)
    b2 = tl.abs(b) + b % 2.0 + tl.minimum(b, 1.0) + b * b - b / 3.0 + tl.clamp(b, -1.0, 1.0)
    f = (h2.to(tl.float32) % 1.5) + tl.sigmoid(b2.to(tl.float32))
    i2 = tl.abs(i8) + i8 // 3 + i8 % 3 + (i8 >> 1) + (i8 << 2) + tl.minimum(i8, 5)
    j2 = i64 // 7 + i64 % 7 + tl.cdiv(i64, 5) + tl.abs(i64) + (i64 >> 3) + (i64 * 3)
    u2 = u16 // 3 + u16 % 5 + (u16 >> 2) + tl.maximum(u16, 7)
    tl.store(d_ptr + o, d2)
    tl.store(h_ptr + o, h2)
    tl.store(b_ptr + o, b2 + f.to(tl.bfloat16))
    tl.store(i8_ptr + o, i2)
    tl.store(i64_ptr + o, j2 + u2.to(tl.int64))


@triton.jit
def tiny_everything(x_ptr, i_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    idx = tl.load(i_ptr + r[:, None] * C + c[None, :]) % C
    s1 = tl.sum(x, 1)
    s0 = tl.max(x, 0)
    cs = tl.cumsum(x, 1)
    cs0 = tl.cumsum(x, 0)
    so = tl.sort(x, 1)
    g = tl.gather(x, idx, 1)
    h = tl.histogram(tl.reshape(idx, (R * C,)), 2)
    fl = tl.flip(x, 1)
    am = tl.argmax(x, 1)
    tk = tl.topk(x, 2, 1) if C > 2 else x
    out = cs + cs0 + so + g + fl + s1[:, None] + s0[None, :] + am[:, None].to(tl.float32)
    tl.store(y_ptr + r[:, None] * C + c[None, :], out)
    tl.store(y_ptr + R * C + tl.arange(0, 2), h.to(tl.float32))
    tl.store(y_ptr + R * C + 2 + r[:, None] * 2 + tl.arange(0, 2)[None, :], tk)


@triton.jit
def asm_mixed(x_ptr, q_ptr, y_ptr, s, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o)
    q = tl.load(q_ptr + o)
    y = tl.inline_asm_elementwise(
        "{ .reg .b32 t; and.b32 t, $4, 0xFF; cvt.rn.f32.u32 $0, t; add.f32 $0, $0, $5; "
        "mov.b32 $1, $6; mov.b32 $2, $7; mov.b32 $3, $8; }",
        "=f,=f,=f,=f,r,f,f,f,f", [q, x], dtype=tl.float32, is_pure=True, pack=4)
    tl.store(y_ptr + o, y)

@triton.jit
def asm_on_dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b).to(tl.float16)
    d = tl.inline_asm_elementwise("ex2.approx.f16x2 $0, $1;", "=r,r", [c], dtype=tl.float16, is_pure=True, pack=2)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], d)


@triton.jit
def ds(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
       AF: tl.constexpr, BF: tl.constexpr, ASCALE: tl.constexpr, FAST: tl.constexpr, RKP: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    AK: tl.constexpr = K // 2 if AF == "e2m1" else K
    BK: tl.constexpr = K // 2 if BF == "e2m1" else K
    a = tl.load(a_ptr + rm[:, None] * AK + tl.arange(0, AK)[None, :])
    if RKP:
        b = tl.load(b_ptr + tl.arange(0, BK)[:, None] * N + rn[None, :])
    else:
        b = tl.load(b_ptr + tl.arange(0, K)[:, None] * (N // 2) + tl.arange(0, N // 2)[None, :])
    bs = tl.load(bs_ptr + rn[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    if ASCALE:
        a_s = tl.load(as_ptr + rm[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    else:
        a_s = None
    c = tl.dot_scaled(a, a_s, AF, b, bs, BF, fast_math=FAST, rhs_k_pack=RKP)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def _comb_if(a, ia, b, ib):
    if a > b:
        r = a
        ir = ia
    else:
        r = b
        ir = ib
    return r, ir

@triton.jit
def _scan3(a1, b1, c1, a2, b2, c2):
    return a1 * a2, b1 * a2 + b2, tl.maximum(c1, c2)

@triton.jit
def combine_with_if(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    ids = tl.broadcast_to(c[None, :], (R, C))
    m, im = tl.reduce((x, ids), 1, _comb_if)
    s = x
    a, b, mx = tl.associative_scan((x, x * 2, x), 0, _scan3, reverse=True)
    tl.store(y_ptr + r, m + im.to(tl.float32))
    tl.store(y_ptr + R + r[:, None] * C + c[None, :], s + a + b + mx)



@triton.jit
def loop_attrs(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in tl.range(0, n, BLOCK, loop_unroll_factor=4, disable_licm=True):
        acc += tl.load(x_ptr + i + o, mask=i + o < n, other=0.0)
    for j in tl.range(0, n, BLOCK, num_stages=0):
        acc += tl.load(y_ptr + j + o, mask=j + o < n, other=0.0)
    for k in tl.range(n, 0, -BLOCK, loop_unroll_factor=1):
        acc *= 0.5
    tl.store(y_ptr + o, acc)


@triton.jit(noinline=True)
def _noinline_print_scan_atomic(p, q, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(p + o, mask=o < n, other=0.0)
    tl.device_print("x", x)
    tl.device_assert(n > 0, "n")
    s = tl.sum(x, 0)
    c = tl.cumsum(x, 0)
    tl.atomic_add(q + o, c, mask=o < n)
    tl.debug_barrier()
    return s


@triton.jit
def noinline_print_twice(p, q, n, BLOCK: tl.constexpr):
    a = _noinline_print_scan_atomic(p, q, n, BLOCK)
    b = _noinline_print_scan_atomic(q, p, n, BLOCK)
    tl.store(p + n, a + b)


def _case(name, fn, sig, const, opts=None, targets=("cuda:90", "cuda:80")):
    return dict(name=name, fn=fn, sig=sig, const=const, div=[], opts=opts or dict(num_warps=4), targets=targets)


_DS = {"a_ptr": "*u8", "as_ptr": "*u8", "b_ptr": "*u8", "bs_ptr": "*u8", "c_ptr": "*fp32"}
_MM = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "K": "i32", "half": "i32", "stride": "i32"}
_ASM = {"x_ptr": "*fp32", "q_ptr": "*i8", "y_ptr": "*fp32", "s": "fp32"}
_TINY = {"x_ptr": "*fp32", "i_ptr": "*i32", "y_ptr": "*fp32"}

CASES = [
    _case("edge_asm_pack4_two_per_thread", asm_pack4_two, {"x_ptr": "*i8", "y_ptr": "*i8"}, {"BLOCK": 256}),
    _case("edge_gather_narrow_index", gather_narrow, {"x_ptr": "*fp32", "i_ptr": "*i32", "y_ptr": "*fp32"},
          {"M": 32, "N": 64, "K": 8}),
    _case("edge_flip2d_scan_bool", flip2d_scan_bool, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"M": 16, "N": 64}),
    _case("edge_dot3d_reduce", dot3d_reduce, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32"},
          {"B": 2, "M": 16, "N": 32, "K": 16}),
    _case("edge_dot3d_reduce_w8", dot3d_reduce, {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32"},
          {"B": 4, "M": 64, "N": 64, "K": 32}, dict(num_warps=8)),
    _case("edge_desc_atomic_3d", desc_atomic_3d,
          {"a_desc": "tensordesc<bf16[1, 64, 64]>", "o_desc": "tensordesc<fp32[64, 64]>", "x_ptr": "*fp16", "B": "i32",
           "T": "i32", "D": "i32"}, {"BT": 64, "BD": 64}, targets=("cuda:90",)),
    _case("edge_desc_fp8_loop", desc_fp8_loop,
          {"a_desc": "tensordesc<fp8e4nv[128, 128]>", "b_desc": "tensordesc<fp8e4nv[128, 128]>", "c_ptr": "*bf16",
           "M": "i32", "N": "i32", "K": "i32"}, {"BM": 128, "BN": 128, "BK": 128}, dict(num_warps=8, num_stages=4),
          targets=("cuda:90",)),
    _case("edge_cond_load_loop", cond_load_loop, _MM, {"BM": 64, "BN": 64, "BK": 32}),
    _case("edge_cond_load_loop_w8", cond_load_loop, _MM, {"BM": 128, "BN": 128, "BK": 64},
          dict(num_warps=8, num_stages=3)),
    _case("edge_scale_vec_loop", scale_vec_loop,
          {"a_ptr": "*fp16", "b_ptr": "*i8", "s_ptr": "*fp32", "c_ptr": "*fp32", "K": "i32", "lo": "i32"},
          {"BM": 64, "BN": 128, "BK": 64}, dict(num_warps=4, num_stages=4)),
    _case("edge_scalar_corners", scalar_corners, {"x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*i32", "n": "i32"},
          {"BLOCK": 128}),
    _case("edge_ptr_int_casts", ptr_int_casts, {"x_ptr": "*fp32", "y_ptr": "*fp32", "tbl_ptr": "*i64", "n": "i32"},
          {"BLOCK": 128}),
    _case("edge_math_zoo", math_zoo, {"d_ptr": "*fp64", "h_ptr": "*fp16", "b_ptr": "*bf16", "i8_ptr": "*i8",
                                      "i64_ptr": "*i64", "u16_ptr": "*u16"}, {"BLOCK": 256}),
] + [
    _case(f"edge_tiny_{r}x{c}_w{w}", tiny_everything, _TINY, {"R": r, "C": c}, dict(num_warps=w))
    for (r, c, w) in [(2, 4, 4), (1, 8, 2), (4, 4, 8), (2, 2, 1)]
] + [
    _case("edge_asm_mixed_widths_padded", asm_mixed, _ASM, {"BLOCK": 128}),
    _case("edge_asm_mixed_widths", asm_mixed, _ASM, {"BLOCK": 1024}),
    _case("edge_asm_on_dot", asm_on_dot, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
          {"M": 64, "N": 64, "K": 32}),
    _case("edge_asm_on_dot16", asm_on_dot, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16"},
          {"M": 16, "N": 16, "K": 16}),
    _case("edge_dot_scaled_e4m3_e2m1", ds, dict(_DS, a_ptr="*fp8e4nv"),
          {"M": 64, "N": 64, "K": 128, "AF": "e4m3", "BF": "e2m1", "ASCALE": True, "FAST": False, "RKP": True},
          targets=("cuda:90",)),
    _case("edge_dot_scaled_bf16_e2m1_fast", ds, dict(_DS, a_ptr="*bf16"),
          {"M": 64, "N": 128, "K": 64, "AF": "bf16", "BF": "e2m1", "ASCALE": False, "FAST": True, "RKP": True}),
    _case("edge_dot_scaled_e2m1_e2m1", ds, _DS,
          {"M": 128, "N": 64, "K": 128, "AF": "e2m1", "BF": "e2m1", "ASCALE": True, "FAST": False, "RKP": True},
          dict(num_warps=8)),
    _case("edge_dot_scaled_e5m2_e4m3", ds, dict(_DS, a_ptr="*fp8e5", b_ptr="*fp8e4nv"),
          {"M": 64, "N": 64, "K": 64, "AF": "e5m2", "BF": "e4m3", "ASCALE": True, "FAST": False, "RKP": True},
          targets=("cuda:90",)),
    _case("edge_dot_scaled_fp16_e2m1_w2", ds, dict(_DS, a_ptr="*fp16"),
          {"M": 16, "N": 32, "K": 64, "AF": "fp16", "BF": "e2m1", "ASCALE": False, "FAST": False, "RKP": True},
          dict(num_warps=2), targets=("cuda:90",)),
    _case("edge_loop_attrs_unroll_licm", loop_attrs, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"}, {"BLOCK": 256}),
    _case("edge_noinline_print_scan_atomic_twice", noinline_print_twice, {"p": "*fp32", "q": "*fp32", "n": "i32"},
          {"BLOCK": 256}, dict(num_warps=4, debug=True)),
    _case("edge_reduce_combine_with_if", combine_with_if, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"R": 16, "C": 64}),
]
