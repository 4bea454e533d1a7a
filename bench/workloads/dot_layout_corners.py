"""Dot results used the way real kernels use them beyond a store (written for this project): scans
(tl.cumsum) and sorts of a dot result, tl.gather from it, split-K atomics of an accumulator,
fp8 stores of it, tl.dot with a loaded accumulator, dots in a loop whose trip count is i64,
conditional dots inside the loop (causal blocks), tl.advance inside an if, a data-dependent while
loop around a dot, an early return after a pipelined loop, bf16/fp16 reductions without casts,
and inline asm with 16-bit, 64-bit and f64 register constraints."""
import triton
import triton.language as tl


@triton.jit
def dot_then_scan_sort_gather(a_ptr, b_ptr, c_ptr, idx_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    acc = tl.dot(a, b)
    cs = tl.cumsum(acc, axis=1)
    srt = tl.sort(acc, 1)
    idx = tl.load(idx_ptr + rm[:, None] * N + rn[None, :]) % N
    g = tl.gather(acc, idx, axis=1)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], cs + srt + g)


@triton.jit
def splitk_atomic_fp8_store(a_ptr, b_ptr, c_ptr, c8_ptr, d_ptr, M, N, K, SPLIT_K: tl.constexpr,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m, pid_n, pid_k = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    acc = tl.load(d_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=0.0).to(tl.float32) * (pid_k == 0)
    K64 = K.to(tl.int64)
    for k in range(0, K64, BLOCK_K * SPLIT_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(k + rk)[None, :] < K, other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=(k + rk)[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc=acc)
    tl.atomic_add(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty), mask=mask, sem="relaxed")
    tl.store(c8_ptr + rm[:, None] * N + rn[None, :], acc.to(c8_ptr.dtype.element_ty), mask=mask & (pid_k == 0))


@triton.jit
def causal_conditional_dot(q_ptr, k_ptr, v_ptr, o_ptr, L, D: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rq = pid * BLOCK + tl.arange(0, BLOCK)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rq[:, None] * D + rd[None, :], mask=rq[:, None] < L, other=0.0)
    acc = tl.zeros((BLOCK, D), tl.float32)
    m_i = tl.full((BLOCK,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK,), tl.float32)
    p_k = tl.make_block_ptr(k_ptr, (D, L), (1, D), (0, 0), (D, BLOCK), (0, 1))
    p_v = tl.make_block_ptr(v_ptr, (L, D), (D, 1), (0, 0), (BLOCK, D), (1, 0))
    for start in range(0, (pid + 1) * BLOCK, BLOCK):
        k = tl.load(p_k, boundary_check=(1,))
        v = tl.load(p_v, boundary_check=(0,))
        s = tl.dot(q, k)
        if start + BLOCK > pid * BLOCK:
            rk = start + tl.arange(0, BLOCK)
            s = tl.where(rq[:, None] >= rk[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        if start % (2 * BLOCK) == 0:
            acc = tl.dot(p.to(v.dtype), v, acc)
        else:
            acc += tl.dot(p.to(v.dtype), v)
        m_i = m_new
        p_k = tl.advance(p_k, (0, BLOCK))
        if True:
            p_v = tl.advance(p_v, (BLOCK, 0))
    tl.store(o_ptr + rq[:, None] * D + rd[None, :], (acc / l_i[:, None]).to(o_ptr.dtype.element_ty),
             mask=rq[:, None] < L)


@triton.jit
def while_dot_early_return(a_ptr, b_ptr, c_ptr, cnt_ptr, K, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n_iter = tl.load(cnt_ptr + pid)
    if n_iter <= 0:
        return
    r = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), tl.float32)
    a = tl.load(a_ptr + r[:, None] * BLOCK + r[None, :])
    i = 0
    while i < n_iter:
        b = tl.load(b_ptr + i * BLOCK * BLOCK + r[:, None] * BLOCK + r[None, :])
        acc = tl.dot(a, b, acc)
        i += 1
    for k in tl.range(0, K, BLOCK, num_stages=4):
        b = tl.load(b_ptr + k * BLOCK + r[:, None] * BLOCK + r[None, :])
        acc = tl.dot(a, b, acc)
    if tl.max(tl.max(acc, 1), 0) > 1e30:
        return
    tl.store(c_ptr + pid * BLOCK * BLOCK + r[:, None] * BLOCK + r[None, :], acc.to(c_ptr.dtype.element_ty))


@triton.jit
def dot_bf16x_precisions(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr, PREC: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(k + rk)[None, :] < K, other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=(k + rk)[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def half_reductions(x_ptr, out_ptr, N: tl.constexpr, BLOCK_R: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = tl.arange(0, N)
    x = tl.load(x_ptr + r[:, None] * N + c[None, :])
    mx = tl.max(x, 1)
    mn = tl.min(x, 1)
    s = tl.sum(x, 1)
    am = tl.argmax(x, 1)
    y = x * x - x
    tl.store(out_ptr + r * 4, mx)
    tl.store(out_ptr + r * 4 + 1, mn)
    tl.store(out_ptr + r * 4 + 2, s.to(out_ptr.dtype.element_ty))
    tl.store(out_ptr + r * 4 + 3, am.to(out_ptr.dtype.element_ty) + tl.sum(y, 1).to(out_ptr.dtype.element_ty))


@triton.jit
def asm_register_widths(x_ptr, h_ptr, l_ptr, d_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    h = tl.inline_asm_elementwise("cvt.rn.f16.f32 $0, $1;", "=h,f", [x], dtype=tl.float16, is_pure=True, pack=1)
    l = tl.inline_asm_elementwise("cvt.rzi.s64.f32 $0, $1;", "=l,f", [x], dtype=tl.int64, is_pure=True, pack=1)
    d = tl.inline_asm_elementwise("cvt.f64.f32 $0, $1;", "=d,f", [x], dtype=tl.float64, is_pure=True, pack=1)
    b = tl.inline_asm_elementwise("mov.b16 $0, $1;", "=h,h", [h], dtype=tl.int16, is_pure=False, pack=1)
    tl.store(h_ptr + offs, h + b.to(tl.float16, bitcast=True), mask=m)
    tl.store(l_ptr + offs, l, mask=m)
    tl.store(d_ptr + offs, d, mask=m)


_H, _B, _F = "*fp16", "*bf16", "*fp32"

CASES = [
    dict(name="dot_then_scan_sort_gather", fn=dot_then_scan_sort_gather,
         sig={"a_ptr": _H, "b_ptr": _H, "c_ptr": _F, "idx_ptr": "*i32"}, const={"M": 64, "N": 64, "K": 32},
         div=[0, 1, 2, 3], opts=dict(num_warps=4)),
    dict(name="dot_then_scan_sort_gather_w8", fn=dot_then_scan_sort_gather,
         sig={"a_ptr": _B, "b_ptr": _B, "c_ptr": _F, "idx_ptr": "*i32"}, const={"M": 128, "N": 128, "K": 64},
         div=[0, 1, 2, 3], opts=dict(num_warps=8)),
    dict(name="splitk_atomic_fp8_store", fn=splitk_atomic_fp8_store,
         sig={"a_ptr": _B, "b_ptr": _B, "c_ptr": _F, "c8_ptr": "*fp8e5", "d_ptr": _F, "M": "i32", "N": "i32",
              "K": "i32"}, const={"SPLIT_K": 4, "BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64},
         div=[0, 1, 2, 3, 4, 5, 6, 7], opts=dict(num_warps=4, num_stages=3), targets=("cuda:90",)),
    dict(name="splitk_atomic_fp8_store_f16", fn=splitk_atomic_fp8_store,
         sig={"a_ptr": _H, "b_ptr": _H, "c_ptr": _H, "c8_ptr": "*fp8e5", "d_ptr": _H, "M": "i32", "N": "i32",
              "K": "i32"}, const={"SPLIT_K": 2, "BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32},
         div=[0, 1, 2, 3, 4, 5, 6, 7], opts=dict(num_warps=8, num_stages=4), targets=("cuda:90",)),
    dict(name="causal_conditional_dot", fn=causal_conditional_dot,
         sig={"q_ptr": _H, "k_ptr": _H, "v_ptr": _H, "o_ptr": _H, "L": "i32"}, const={"D": 64, "BLOCK": 64},
         div=[0, 1, 2, 3, 4], opts=dict(num_warps=4, num_stages=3)),
    dict(name="while_dot_early_return", fn=while_dot_early_return,
         sig={"a_ptr": _H, "b_ptr": _H, "c_ptr": _H, "cnt_ptr": "*i32", "K": "i32"}, const={"BLOCK": 64},
         div=[0, 1, 2, 3, 4], opts=dict(num_warps=4, num_stages=3)),
    dict(name="dot_bf16x3", fn=dot_bf16x_precisions,
         sig={"a_ptr": _F, "b_ptr": _F, "c_ptr": _F, "M": "i32", "N": "i32", "K": "i32"},
         const={"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "PREC": "bf16x3"}, div=[0, 1, 2, 3, 4, 5],
         opts=dict(num_warps=4, num_stages=3)),
    dict(name="dot_bf16x6", fn=dot_bf16x_precisions,
         sig={"a_ptr": _F, "b_ptr": _F, "c_ptr": _F, "M": "i32", "N": "i32", "K": "i32"},
         const={"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32, "PREC": "bf16x6"}, div=[0, 1, 2, 3, 4, 5],
         opts=dict(num_warps=8, num_stages=2)),
    dict(name="half_reductions_bf16", fn=half_reductions, sig={"x_ptr": _B, "out_ptr": _B},
         const={"N": 256, "BLOCK_R": 8}, div=[0, 1], opts=dict(num_warps=4)),
    dict(name="half_reductions_f16", fn=half_reductions, sig={"x_ptr": _H, "out_ptr": _H},
         const={"N": 64, "BLOCK_R": 32}, div=[0, 1], opts=dict(num_warps=2)),
    dict(name="asm_register_widths", fn=asm_register_widths,
         sig={"x_ptr": _F, "h_ptr": _H, "l_ptr": "*i64", "d_ptr": "*fp64", "n": "i32"}, const={"BLOCK": 256},
         div=[0, 1, 2, 3], opts=dict(num_warps=4)),
]
