# Copied from the shared corpus (shared/corpus/kernels.py): the kernels upstream Triton compiled
# for the corpus, written for the project. The GPU harness runs them with upstream Triton.
"""Kernels from the seed documents (vector add, softmax, RMSNorm, LayerNorm,
matmul, flash attention), written for this corpus. Each entry of CASES gives
a kernel, its signature, constexprs, divisibility hints and compile options."""
import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, x + y, mask=m)


@triton.jit
def vector_add_2tiles(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, TILES: tl.constexpr):
    pid = tl.program_id(0)
    for i in range(TILES):
        offs = (pid * TILES + i) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=m, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, num / den, mask=m)


@triton.jit
def softmax_persistent(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(start, n_rows, step, num_stages=4):
        cols = tl.arange(0, BLOCK)
        m = cols < n_cols
        x = tl.load(in_ptr + row * in_stride + cols, mask=m, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=m)


@triton.jit
def rmsnorm(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=m, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def rmsnorm_looped(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        m = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=m, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def layernorm(x_ptr, w_ptr, b_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(m, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=m)
    b = tl.load(b_ptr + cols, mask=m)
    tl.store(y_ptr + row * stride + cols, (d * rstd * w + b).to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def matmul_naive(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    om = tl.program_id(0) * BM + tl.arange(0, BM)
    on = tl.program_id(1) * BN + tl.arange(0, BN)
    ok = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + om[:, None] * sam + (k + ok)[None, :] * sak,
                    mask=(om[:, None] < M) & ((k + ok)[None, :] < K), other=0.0)
        y = tl.load(b + (k + ok)[:, None] * sbk + on[None, :] * sbn,
                    mask=((k + ok)[:, None] < K) & (on[None, :] < N), other=0.0)
        acc += tl.dot(x, y)
    tl.store(c + om[:, None] * scm + on[None, :] * scn, acc.to(c.dtype.element_ty),
             mask=(om[:, None] < M) & (on[None, :] < N))


@triton.jit
def matmul_grouped(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
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


@triton.jit
def attn_fwd(Q, K, V, O, sm_scale, stride_z, stride_h, stride_s, H, N_CTX,
             HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = (off_hz // H) * stride_z + (off_hz % H) * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * stride_s + offs_d[None, :])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = (start_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        k = tl.load(K + base + (start_n + offs_n)[None, :] * stride_s + offs_d[:, None])
        qk = tl.dot(q, k)
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + base + (start_n + offs_n)[:, None] * stride_s + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * stride_s + offs_d[None, :], acc.to(O.dtype.element_ty))


def _sig(names, types):
    return dict(zip(names, types))

MM = ["a", "b", "c", "M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"]
MM_T = ["*fp16", "*fp16", "*fp16"] + ["i32"] * 9
MM_DIV = [0, 1, 2, 3, 4, 5, 6, 8, 10]
# Triton's JIT specializes integer arguments equal to 1; unit strides arrive as constants.
UNIT = {"sak": 1, "sbn": 1, "scn": 1}

CASES = [
    dict(name="vector_add", fn=vector_add, sig=_sig(["x_ptr", "y_ptr", "out_ptr", "n"], ["*fp32"] * 3 + ["i32"]),
         const={"BLOCK": 1024}, div=[0, 1, 2], opts=dict(num_warps=4)),
    dict(name="vector_add_2tiles", fn=vector_add_2tiles, sig=_sig(["x_ptr", "y_ptr", "out_ptr", "n"], ["*fp32"] * 3 + ["i32"]),
         const={"BLOCK": 1024, "TILES": 2}, div=[0, 1, 2], opts=dict(num_warps=4)),
    dict(name="softmax", fn=softmax, sig=_sig(["out_ptr", "in_ptr", "in_stride", "out_stride", "n_cols"], ["*fp32", "*fp32", "i32", "i32", "i32"]),
         const={"BLOCK": 1024}, div=[0, 1, 2, 3], opts=dict(num_warps=4)),
    dict(name="softmax_persistent", fn=softmax_persistent, sig=_sig(["out_ptr", "in_ptr", "in_stride", "out_stride", "n_rows", "n_cols"], ["*fp32", "*fp32", "i32", "i32", "i32", "i32"]),
         const={"BLOCK": 4096}, div=[0, 1, 2, 3], opts=dict(num_warps=8)),
    dict(name="rmsnorm_f16", fn=rmsnorm, sig=_sig(["x_ptr", "w_ptr", "y_ptr", "stride", "n_cols", "eps"], ["*fp16", "*fp16", "*fp16", "i32", "i32", "fp32"]),
         const={"BLOCK": 4096}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=8)),
    dict(name="rmsnorm_looped_bf16", fn=rmsnorm_looped, sig=_sig(["x_ptr", "w_ptr", "y_ptr", "stride", "n_cols", "eps"], ["*bf16", "*bf16", "*bf16", "i32", "i32", "fp32"]),
         const={"BLOCK": 1024}, div=[0, 1, 2, 3], opts=dict(num_warps=4)),
    dict(name="layernorm_f16", fn=layernorm, sig=_sig(["x_ptr", "w_ptr", "b_ptr", "y_ptr", "stride", "n_cols", "eps"], ["*fp16"] * 4 + ["i32", "i32", "fp32"]),
         const={"BLOCK": 2048}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=8)),
    dict(name="matmul_naive_f16", fn=matmul_naive, sig=_sig(MM, MM_T), const={"BM": 64, "BN": 64, "BK": 32, **UNIT},
         div=MM_DIV, opts=dict(num_warps=4, num_stages=1)),
    dict(name="matmul_grouped_f16", fn=matmul_grouped, sig=_sig(MM, MM_T), const={"BM": 128, "BN": 128, "BK": 64, "GROUP_M": 8, **UNIT},
         div=MM_DIV, opts=dict(num_warps=8, num_stages=3)),
    dict(name="attn_fwd_d64", fn=attn_fwd,
         sig=_sig(["Q", "K", "V", "O", "sm_scale", "stride_z", "stride_h", "stride_s", "H", "N_CTX"], ["*fp16"] * 4 + ["fp32"] + ["i32"] * 5),
         const={"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": False}, div=[0, 1, 2, 3, 5, 6, 7, 9], opts=dict(num_warps=4, num_stages=3)),
    dict(name="attn_fwd_causal_d128", fn=attn_fwd,
         sig=_sig(["Q", "K", "V", "O", "sm_scale", "stride_z", "stride_h", "stride_s", "H", "N_CTX"], ["*fp16"] * 4 + ["fp32"] + ["i32"] * 5),
         const={"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": True}, div=[0, 1, 2, 3, 5, 6, 7, 9], opts=dict(num_warps=8, num_stages=3)),
]


# Kernels that use what the corpus above does not (scans, argmax, atomics, 3-D grids and
# transposes, int8 and bf16 dots), and the matmul / flash-attention configurations of
# shared/reference/triton-3.6-h100.md. test/fixtures/corpus holds upstream's IR of these too
# (see test/fixtures/corpus/import.py).

@triton.jit
def cumsum_rows(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0)
    tl.store(y_ptr + row * stride + cols, tl.cumsum(x, axis=0), mask=m)


@triton.jit
def argmax_rows(x_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    tl.store(out_ptr + row, tl.argmax(x, axis=0))


@triton.jit
def atomic_add_hist(x_ptr, bin_ptr, hist_ptr, n, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    # Weighted histogram: hist[bin[i] % NBINS] += x[i].
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    b = tl.load(bin_ptr + offs, mask=m, other=0) % NBINS
    tl.atomic_add(hist_ptr + b, x, mask=m)


@triton.jit
def atomic_cas_counter(x_ptr, out_ptr, lock_ptr, count_ptr, n, BLOCK: tl.constexpr):
    # Each program sums its block, adds it to *out under a spin lock (atomic_cas), and counts
    # itself in *count.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    s = tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(out_ptr, tl.load(out_ptr) + s)
    tl.atomic_add(count_ptr, 1)
    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def transpose_3d(x_ptr, y_ptr, M, N, stride_xb, stride_xm, stride_yb, stride_yn,
                 BM: tl.constexpr, BN: tl.constexpr):
    # y[b, n, m] = x[b, m, n], one BMxBN tile per program, batch on grid axis 2.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2)
    om = pid_m * BM + tl.arange(0, BM)
    on = pid_n * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + batch * stride_xb + om[:, None] * stride_xm + on[None, :],
                mask=(om[:, None] < M) & (on[None, :] < N), other=0.0)
    tl.store(y_ptr + batch * stride_yb + on[:, None] * stride_yn + om[None, :], tl.trans(x),
             mask=(on[:, None] < N) & (om[None, :] < M))


@triton.jit
def matmul_i8(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    om = tl.program_id(0) * BM + tl.arange(0, BM)
    on = tl.program_id(1) * BN + tl.arange(0, BN)
    ok = tl.arange(0, BK)
    a_ptrs = a + (om % M)[:, None] * sam + ok[None, :] * sak
    b_ptrs = b + ok[:, None] * sbk + (on % N)[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(a_ptrs, mask=ok[None, :] < K - k * BK, other=0)
        y = tl.load(b_ptrs, mask=ok[:, None] < K - k * BK, other=0)
        acc = tl.dot(x, y, acc, out_dtype=tl.int32)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    tl.store(c + om[:, None] * scm + on[None, :] * scn, acc, mask=(om[:, None] < M) & (on[None, :] < N))


MM_I8_T = ["*i8", "*i8", "*i32"] + ["i32"] * 9
MM_BF16_T = ["*bf16", "*bf16", "*bf16"] + ["i32"] * 9
ATTN = ["Q", "K", "V", "O", "sm_scale", "stride_z", "stride_h", "stride_s", "H", "N_CTX"]
ATTN_T = ["*fp16"] * 4 + ["fp32"] + ["i32"] * 5
ATTN_DIV = [0, 1, 2, 3, 5, 6, 7, 9]
REF_MM = {"BM": 128, "BN": 256, "BK": 64, "GROUP_M": 8, **UNIT}

CASES += [
    dict(name="cumsum_rows", fn=cumsum_rows, sig=_sig(["x_ptr", "y_ptr", "stride", "n_cols"], ["*fp32", "*fp32", "i32", "i32"]),
         const={"BLOCK": 1024}, div=[0, 1, 2, 3], opts=dict(num_warps=4)),
    dict(name="argmax_rows", fn=argmax_rows, sig=_sig(["x_ptr", "out_ptr", "stride", "n_cols"], ["*fp32", "*i32", "i32", "i32"]),
         const={"BLOCK": 2048}, div=[0, 1, 2, 3], opts=dict(num_warps=8)),
    dict(name="atomic_add_hist", fn=atomic_add_hist, sig=_sig(["x_ptr", "bin_ptr", "hist_ptr", "n"], ["*fp32", "*i32", "*fp32", "i32"]),
         const={"NBINS": 64, "BLOCK": 1024}, div=[0, 1, 2, 3], opts=dict(num_warps=4)),
    dict(name="atomic_cas_counter", fn=atomic_cas_counter,
         sig=_sig(["x_ptr", "out_ptr", "lock_ptr", "count_ptr", "n"], ["*fp32", "*fp32", "*i32", "*i32", "i32"]),
         const={"BLOCK": 1024}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=4)),
    dict(name="transpose_3d", fn=transpose_3d,
         sig=_sig(["x_ptr", "y_ptr", "M", "N", "stride_xb", "stride_xm", "stride_yb", "stride_yn"], ["*fp16", "*fp16"] + ["i32"] * 6),
         const={"BM": 64, "BN": 64}, div=[0, 1, 2, 3, 4, 5, 6, 7], opts=dict(num_warps=4)),
    dict(name="matmul_i8", fn=matmul_i8, sig=_sig(MM, MM_I8_T), const={"BM": 128, "BN": 128, "BK": 64, **UNIT},
         div=MM_DIV, opts=dict(num_warps=8, num_stages=3)),
    dict(name="matmul_bf16", fn=matmul_grouped, sig=_sig(MM, MM_BF16_T), const={"BM": 128, "BN": 128, "BK": 64, "GROUP_M": 8, **UNIT},
         div=MM_DIV, opts=dict(num_warps=8, num_stages=3)),
    # The best configurations of the reference measurements (triton-3.6-h100.md).
    dict(name="matmul_ref_s4", fn=matmul_grouped, sig=_sig(MM, MM_T), const=dict(REF_MM), div=MM_DIV, opts=dict(num_warps=8, num_stages=4)),
    dict(name="matmul_ref_s3", fn=matmul_grouped, sig=_sig(MM, MM_T), const=dict(REF_MM), div=MM_DIV, opts=dict(num_warps=8, num_stages=3)),
    dict(name="attn_ref_d64", fn=attn_fwd, sig=_sig(ATTN, ATTN_T),
         const={"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": False}, div=ATTN_DIV, opts=dict(num_warps=8, num_stages=4)),
    dict(name="attn_ref_d64_causal", fn=attn_fwd, sig=_sig(ATTN, ATTN_T),
         const={"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": True}, div=ATTN_DIV, opts=dict(num_warps=8, num_stages=3)),
    dict(name="attn_ref_d128", fn=attn_fwd, sig=_sig(ATTN, ATTN_T),
         const={"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": False}, div=ATTN_DIV, opts=dict(num_warps=8, num_stages=4)),
    dict(name="attn_ref_d128_causal", fn=attn_fwd, sig=_sig(ATTN, ATTN_T),
         const={"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 64, "CAUSAL": True}, div=ATTN_DIV, opts=dict(num_warps=8, num_stages=3)),
]


@triton.jit
def matmul_tf32(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # fp32 inputs on the tensor cores: tf32 operands (10-bit mantissa), fp32 sums.
    om = tl.program_id(0) * BM + tl.arange(0, BM)
    on = tl.program_id(1) * BN + tl.arange(0, BN)
    ok = tl.arange(0, BK)
    a_ptrs = a + (om % M)[:, None] * sam + ok[None, :] * sak
    b_ptrs = b + ok[:, None] * sbk + (on % N)[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(a_ptrs, mask=ok[None, :] < K - k * BK, other=0.0)
        y = tl.load(b_ptrs, mask=ok[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc, input_precision="tf32")
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    tl.store(c + om[:, None] * scm + on[None, :] * scn, acc, mask=(om[:, None] < M) & (on[None, :] < N))


MM_TF32_T = ["*fp32", "*fp32", "*fp32"] + ["i32"] * 9

CASES += [
    dict(name="matmul_tf32", fn=matmul_tf32, sig=_sig(MM, MM_TF32_T), const={"BM": 128, "BN": 128, "BK": 32, **UNIT},
         div=MM_DIV, opts=dict(num_warps=8, num_stages=3)),
]


# fp8 (bench/fp8_kernels.py): copies, casts, bitcasts, matmuls and scaled dots; e4m3 needs sm_89+, so those
# kernels are SM90_ONLY (gen.py compiles them for cuda:90 only).
from fp8_kernels import (fp8_copy, fp8_cast, fp8_cast_rtz, fp8_bitcast, matmul_fp8, dot_scaled_tile,  # noqa: E402,F401
                         CASES as _FP8_CASES, SM90_ONLY as _FP8_SM90_ONLY)

CASES += _FP8_CASES
SM90_ONLY = list(_FP8_SM90_ONLY)
