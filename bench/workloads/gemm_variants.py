"""Specialised GEMMs of LLM training and serving: split-K with fp32 atomics, batched GEMM over
program_id(2), grouped GEMM reading its operands from a pointer table, punica-style LoRA shrink
(segments, early return for tokens without an adapter) and expand (per-token GEMV), fused
bias + GELU + residual epilogue, fp16 accumulation, tf32 / tf32x3, A scaled in registers before
the dot (tf32, tf32x3, fp8: wgmma with A in registers on sm_90), block-pointer GEMM, host and
device tensor-descriptor GEMMs (sm_90), persistent GEMMs (flatten, warp specialisation), the
DeepEP "masked" MoE GEMM and a small-M decode GEMM reduced with tl.sum."""
import triton
import triton.language as tl
from triton.language.extra import libdevice

# --- split-K ---------------------------------------------------------------------------------


@triton.jit
def splitk_gemm_atomic(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_left = K - k * BLOCK_K * SPLIT_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    if SPLIT_K == 1:
        tl.store(c_ptrs, acc, mask=mask)
    else:
        tl.atomic_add(c_ptrs, acc, mask=mask, sem="relaxed")


def _run_splitk(bm, bn, bk, split_k):
    def run(torch):
        M, N, K = 50, 136, 1000
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        c = torch.zeros(M, N, device="cuda", dtype=torch.float32)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), split_k)
        splitk_gemm_atomic[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0), BLOCK_M=bm, BLOCK_N=bn,
                                 BLOCK_K=bk, SPLIT_K=split_k)
        return [("c", c, a.float() @ b.float(), 5e-2, 1e-2)]
    return run


def _splitk_case(name, bm, bn, bk, split_k, warps, stages):
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
           "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=splitk_gemm_atomic, sig=sig,
                const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k), div=[0, 1, 2],
                opts=dict(num_warps=warps, num_stages=stages), run=_run_splitk(bm, bn, bk, split_k))


# --- batched GEMM with a fused bias + GELU + residual epilogue ---------------------------------


@triton.jit
def bmm_bias_gelu_residual(a_ptr, b_ptr, bias_ptr, res_ptr, c_ptr, M, N, K,
                           stride_ab, stride_am, stride_bb, stride_bk, stride_cb, stride_cm,
                           ACTIVATION: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2).to(tl.int64)
    a_ptr += batch * stride_ab
    b_ptr += batch * stride_bb
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + ks[None, :], mask=(offs_m[:, None] < M) & (ks[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + ks[:, None] * stride_bk + offs_n[None, :], mask=(ks[:, None] < K) & (offs_n[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc)
    acc += tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
    if ACTIVATION == "gelu":
        acc = 0.5 * acc * (1.0 + libdevice.erf(acc * 0.7071067811865476))
    elif ACTIVATION == "gelu_tanh":
        acc = 0.5 * acc * (1.0 + libdevice.tanh(0.7978845608028654 * (acc + 0.044715 * acc * acc * acc)))
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    c_offs = batch * stride_cb + offs_m[:, None] * stride_cm + offs_n[None, :]
    acc += tl.load(res_ptr + c_offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + c_offs, acc.to(c_ptr.dtype.element_ty), mask=mask)


def _run_bmm(activation, bm, bn, bk):
    def run(torch):
        B, M, N, K = 3, 70, 96, 200
        a = torch.randn(B, M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(B, K, N, device="cuda", dtype=torch.bfloat16) * 0.1
        bias = torch.randn(N, device="cuda", dtype=torch.bfloat16)
        res = torch.randn(B, M, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty_like(res)
        grid = (triton.cdiv(M, bm), triton.cdiv(N, bn), B)
        bmm_bias_gelu_residual[grid](a, b, bias, res, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                     c.stride(0), c.stride(1), ACTIVATION=activation, BLOCK_M=bm, BLOCK_N=bn,
                                     BLOCK_K=bk)
        h = torch.bmm(a.float(), b.float()) + bias.float()
        h = torch.nn.functional.gelu(h, approximate="tanh" if activation == "gelu_tanh" else "none")
        return [("c", c, h + res.float(), 5e-2, 2e-2)]
    return run


def _bmm_case(name, activation, bm, bn, bk, warps, stages):
    sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "bias_ptr": "*bf16", "res_ptr": "*bf16", "c_ptr": "*bf16",
           "M": "i32", "N": "i32", "K": "i32", "stride_ab": "i32", "stride_am": "i32", "stride_bb": "i32",
           "stride_bk": "i32", "stride_cb": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=bmm_bias_gelu_residual, sig=sig,
                const=dict(ACTIVATION=activation, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=[0, 1, 2, 3, 4, 6, 8, 10, 11, 12, 13], opts=dict(num_warps=warps, num_stages=stages),
                run=_run_bmm(activation, bm, bn, bk))


# --- grouped GEMM over a table of operand pointers -------------------------------------------


@triton.jit
def grouped_gemm_ptr_table(a_table, b_table, c_table, sizes_ptr, lds_ptr, group_count, NUM_SMS: tl.constexpr,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # A persistent walk over the tiles of every problem; each problem's base addresses come from
    # int64 tables and are turned back into typed pointers.
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_count):
        gm = tl.load(sizes_ptr + g * 3)
        gn = tl.load(sizes_ptr + g * 3 + 1)
        gk = tl.load(sizes_ptr + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_N)
        num_tiles = num_m_tiles * num_n_tiles
        while tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            lda = tl.load(lds_ptr + g * 3)
            ldb = tl.load(lds_ptr + g * 3 + 1)
            ldc = tl.load(lds_ptr + g * 3 + 2)
            a_ptr = tl.load(a_table + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(b_table + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(c_table + g).to(tl.pointer_type(tl.float16))
            tile_in_problem = tile_idx - last_problem_end
            tile_m = tile_in_problem // num_n_tiles
            tile_n = tile_in_problem % num_n_tiles
            offs_m = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_n = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
            offs_k = tl.arange(0, BLOCK_K)
            a_ptrs = a_ptr + offs_m[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_n[None, :]
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(gk, BLOCK_K)):
                k_left = gk - kk * BLOCK_K
                a = tl.load(a_ptrs, mask=(offs_m[:, None] < gm) & (offs_k[None, :] < k_left), other=0.0)
                b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < gn), other=0.0)
                acc += tl.dot(a, b)
                a_ptrs += BLOCK_K
                b_ptrs += BLOCK_K * ldb
            c_ptrs = c_ptr + offs_m[:, None] * ldc + offs_n[None, :]
            tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < gm) & (offs_n[None, :] < gn))
            tile_idx += NUM_SMS
        last_problem_end = last_problem_end + num_tiles


def _run_grouped(bm, bn, bk, num_sms):
    def run(torch):
        shapes = [(33, 64, 80), (128, 40, 64), (1, 200, 120), (70, 70, 16)]
        As = [torch.randn(m, k, device="cuda", dtype=torch.float16) for m, n, k in shapes]
        Bs = [torch.randn(k, n, device="cuda", dtype=torch.float16) for m, n, k in shapes]
        Cs = [torch.empty(m, n, device="cuda", dtype=torch.float16) for m, n, k in shapes]
        tab = lambda ts: torch.tensor([t.data_ptr() for t in ts], device="cuda", dtype=torch.int64)  # noqa: E731
        sizes = torch.tensor([list(s) for s in shapes], device="cuda", dtype=torch.int32)
        lds = torch.tensor([[a.stride(0), b.stride(0), c.stride(0)] for a, b, c in zip(As, Bs, Cs)], device="cuda",
                           dtype=torch.int32)
        grouped_gemm_ptr_table[(num_sms,)](tab(As), tab(Bs), tab(Cs), sizes, lds, len(shapes), NUM_SMS=num_sms,
                                           BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        return [(f"c{i}", c, a.float() @ b.float(), 5e-2, 1e-2) for i, (a, b, c) in enumerate(zip(As, Bs, Cs))]
    return run


def _grouped_case(name, bm, bn, bk, warps, stages):
    sig = {"a_table": "*i64", "b_table": "*i64", "c_table": "*i64", "sizes_ptr": "*i32", "lds_ptr": "*i32",
           "group_count": "i32"}
    return dict(name=name, fn=grouped_gemm_ptr_table, sig=sig,
                const=dict(NUM_SMS=8, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk), div=[0, 1, 2, 3, 4],
                opts=dict(num_warps=warps, num_stages=stages), run=_run_grouped(bm, bn, bk, 8))


# --- punica-style LoRA ------------------------------------------------------------------------


@triton.jit
def lora_shrink_sgmv(x_ptr, lora_a_ptr, y_ptr, seg_start_ptr, seg_len_ptr, lora_ids_ptr, scale, H, R,
                     stride_xm, stride_la_l, stride_la_r, stride_ym,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    # y[seg] (+)= scale * x[seg] @ A[lora]^T, one segment of tokens sharing an adapter per
    # program_id(2); segments without an adapter (-1) and tiles past the segment leave early.
    pid = tl.program_id(0)
    pid_sk = tl.program_id(1)
    seg = tl.program_id(2)
    lora = tl.load(lora_ids_ptr + seg)
    if lora == -1:
        return
    seg_len = tl.load(seg_len_ptr + seg)
    num_pid_n = tl.cdiv(R, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    if pid_m * BLOCK_M >= seg_len:
        return
    start = tl.load(seg_start_ptr + seg)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_sk * BLOCK_K + tl.arange(0, BLOCK_K)
    rows = tl.max_contiguous(tl.multiple_of(offs_m % seg_len, BLOCK_M), BLOCK_M)
    cols = tl.max_contiguous(tl.multiple_of(offs_n % R, BLOCK_N), BLOCK_N)
    x_ptrs = x_ptr + (start + rows)[:, None] * stride_xm + offs_k[None, :]
    a_ptrs = lora_a_ptr + lora * stride_la_l + cols[None, :] * stride_la_r + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(H, BLOCK_K * SPLIT_K)):
        k_left = H - k * BLOCK_K * SPLIT_K
        x = tl.load(x_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        w = tl.load(a_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        acc += tl.dot(x, w)
        x_ptrs += BLOCK_K * SPLIT_K
        a_ptrs += BLOCK_K * SPLIT_K
    acc *= scale
    y_ptrs = y_ptr + (start + offs_m)[:, None] * stride_ym + offs_n[None, :]
    mask = (offs_m[:, None] < seg_len) & (offs_n[None, :] < R)
    if SPLIT_K == 1:
        tl.store(y_ptrs, acc, mask=mask)
    else:
        tl.atomic_add(y_ptrs, acc, mask=mask)


def _lora_batch(torch):
    seg_len = [5, 0, 17, 3, 40]
    lora_ids = [2, 0, -1, 1, 0]
    starts = [sum(seg_len[:i]) for i in range(len(seg_len))]
    return (torch.tensor(starts, device="cuda", dtype=torch.int32),
            torch.tensor(seg_len, device="cuda", dtype=torch.int32),
            torch.tensor(lora_ids, device="cuda", dtype=torch.int32), sum(seg_len))


def _run_shrink(rank, bm, bn, bk, split_k):
    def run(torch):
        H, L = 1000, 3
        starts, lens, ids, T = _lora_batch(torch)
        x = torch.randn(T, H, device="cuda", dtype=torch.float16)
        lora_a = torch.randn(L, rank, H, device="cuda", dtype=torch.float16) * 0.05
        y = torch.zeros(T, rank, device="cuda", dtype=torch.float32)
        grid = (triton.cdiv(64, bm) * triton.cdiv(rank, bn), split_k, len(lens))
        lora_shrink_sgmv[grid](x, lora_a, y, starts, lens, ids, 0.5, H, rank, x.stride(0), lora_a.stride(0),
                               lora_a.stride(1), y.stride(0), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k)
        ref = torch.zeros_like(y)
        for s, n, i in zip(starts.tolist(), lens.tolist(), ids.tolist()):
            if i >= 0 and n:
                ref[s:s + n] = 0.5 * (x[s:s + n].float() @ lora_a[i].float().t())
        return [("y", y, ref, 2e-2, 1e-2)]
    return run


def _shrink_case(name, rank, bm, bn, bk, split_k, warps, stages):
    sig = {"x_ptr": "*fp16", "lora_a_ptr": "*fp16", "y_ptr": "*fp32", "seg_start_ptr": "*i32", "seg_len_ptr": "*i32",
           "lora_ids_ptr": "*i32", "scale": "fp32", "H": "i32", "R": "i32", "stride_xm": "i32",
           "stride_la_l": "i32", "stride_la_r": "i32", "stride_ym": "i32"}
    return dict(name=name, fn=lora_shrink_sgmv, sig=sig,
                const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k), div=[0, 1, 2, 3, 4, 5, 8, 12],
                opts=dict(num_warps=warps, num_stages=stages), run=_run_shrink(rank, bm, bn, bk, split_k))


@triton.jit
def lora_expand_bgmv(x_ptr, lora_b_ptr, y_ptr, token_lora_ptr, R, H_OUT, slice_offset,
                     stride_xm, stride_lb_l, stride_lb_h, stride_ym,
                     BLOCK_N: tl.constexpr, RANK: tl.constexpr, ADD_INPUTS: tl.constexpr):
    # Decode: one token per program, y[t, slice] (+)= B[lora] @ x[t], a GEMV over the rank.
    token = tl.program_id(0)
    pid_n = tl.program_id(1)
    lora = tl.load(token_lora_ptr + token)
    if lora < 0:
        return
    offs_r = tl.arange(0, RANK)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + token * stride_xm + offs_r, mask=offs_r < R, other=0.0).to(tl.float16)
    b_ptrs = lora_b_ptr + lora.to(tl.int64) * stride_lb_l + offs_n[:, None] * stride_lb_h + offs_r[None, :]
    b = tl.load(b_ptrs, mask=(offs_n[:, None] < H_OUT) & (offs_r[None, :] < R), other=0.0)
    acc = tl.sum(b.to(tl.float32) * x.to(tl.float32)[None, :], axis=1)
    y_ptrs = y_ptr + token * stride_ym + slice_offset + offs_n
    if ADD_INPUTS:
        acc += tl.load(y_ptrs, mask=offs_n < H_OUT, other=0.0).to(tl.float32)
    tl.store(y_ptrs, acc.to(tl.float16), mask=offs_n < H_OUT)


def _run_expand(rank, bn):
    def run(torch):
        T, H, L, off = 9, 700, 4, 64
        ids = torch.tensor([0, 3, -1, 1, 1, 2, -1, 0, 3], device="cuda", dtype=torch.int32)
        x = torch.randn(T, rank, device="cuda", dtype=torch.float32)
        lora_b = torch.randn(L, H, rank, device="cuda", dtype=torch.float16) * 0.1
        y = torch.randn(T, off + H, device="cuda", dtype=torch.float16)
        ref = y.float().clone()
        lora_expand_bgmv[(T, triton.cdiv(H, bn))](x, lora_b, y, ids, rank, H, off, x.stride(0), lora_b.stride(0),
                                                  lora_b.stride(1), y.stride(0), BLOCK_N=bn, RANK=rank,
                                                  ADD_INPUTS=True)
        for t, i in enumerate(ids.tolist()):
            if i >= 0:
                ref[t, off:] += lora_b[i].float() @ x[t].half().float()
        return [("y", y, ref, 3e-2, 1e-2)]
    return run


def _expand_case(name, rank, bn, warps):
    sig = {"x_ptr": "*fp32", "lora_b_ptr": "*fp16", "y_ptr": "*fp16", "token_lora_ptr": "*i32", "R": "i32",
           "H_OUT": "i32", "slice_offset": "i32", "stride_xm": "i32", "stride_lb_l": "i32", "stride_lb_h": "i32",
           "stride_ym": "i32"}
    return dict(name=name, fn=lora_expand_bgmv, sig=sig, const=dict(BLOCK_N=bn, RANK=rank, ADD_INPUTS=True),
                div=[0, 1, 2, 3, 4, 7, 9], opts=dict(num_warps=warps, num_stages=1), run=_run_expand(rank, bn))


# --- fp16 accumulation, tf32 / tf32x3, block pointers ---------------------------------------


@triton.jit
def gemm_precision(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                   INPUT_PRECISION: tl.constexpr, ACC_FP16: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc_ty = tl.float16 if ACC_FP16 else tl.float32
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=acc_ty)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        if ACC_FP16:
            acc = tl.dot(a, b, acc, out_dtype=tl.float16)
        else:
            acc = tl.dot(a, b, acc, input_precision=INPUT_PRECISION)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_precision(dtype_name, precision, acc_fp16, bm, bn, bk, tol):
    def run(torch):
        M, N, K = 90, 120, 150
        dt = getattr(torch, dtype_name)
        a = (torch.randn(M, K, device="cuda") * 0.3).to(dt)
        b = (torch.randn(K, N, device="cuda") * 0.3).to(dt)
        c = torch.empty(M, N, device="cuda", dtype=dt)
        grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))
        gemm_precision[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0), INPUT_PRECISION=precision,
                             ACC_FP16=acc_fp16, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        return [("c", c, a.double() @ b.double(), tol, tol)]
    return run


def _precision_case(name, ty, precision, acc_fp16, bm, bn, bk, warps, stages, tol):
    sig = {"a_ptr": ty, "b_ptr": ty, "c_ptr": ty, "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32",
           "stride_bk": "i32", "stride_cm": "i32"}
    dtype_name = {"*fp16": "float16", "*fp32": "float32"}[ty]
    return dict(name=name, fn=gemm_precision, sig=sig,
                const=dict(INPUT_PRECISION=precision, ACC_FP16=acc_fp16, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=[0, 1, 2], opts=dict(num_warps=warps, num_stages=stages),
                run=_run_precision(dtype_name, precision, acc_fp16, bm, bn, bk, tol))


@triton.jit
def gemm_scaled_a(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, scale,
                  INPUT_PRECISION: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    """C = (scale * A) @ B: A is scaled in registers before the dot, so on sm_90 the wgmma reads
    A from registers (a tf32 fragment of one k per 32-bit register for f32 A, an fp8 one of four
    k per register for fp8 A, rescaled in f32 and rounded back to A's type)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        a = (a.to(tl.float32) * scale).to(a_ptr.dtype.element_ty)
        acc = tl.dot(a, b, acc, input_precision=INPUT_PRECISION)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_scaled_a(dtype_name, precision, bm, bn, bk, tol):
    def run(torch):
        M, N, K = 90, 120, 150
        dt = getattr(torch, dtype_name)
        scale = 0.75
        a = (torch.randn(M, K, device="cuda") * 0.3).to(dt)
        b = (torch.randn(K, N, device="cuda") * 0.3).to(dt)
        c = torch.empty(M, N, device="cuda", dtype=torch.float32)
        grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))
        gemm_scaled_a[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0), scale,
                            INPUT_PRECISION=precision, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        # The reference rounds scale * A to A's type as the kernel does (exact for f32 and for
        # fp8, whose elements times 0.75 are rounded once, to the same value).
        a_scaled = (a.double() * scale).to(dt).double()
        return [("c", c, a_scaled @ b.double(), tol, tol)]
    return run


def _scaled_a_case(name, ty, precision, bm, bn, bk, warps, stages, tol, targets=("cuda:90", "cuda:80")):
    sig = {"a_ptr": ty, "b_ptr": ty, "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32",
           "stride_bk": "i32", "stride_cm": "i32", "scale": "fp32"}
    dtype_name = {"*fp32": "float32", "*fp8e4nv": "float8_e4m3fn", "*fp8e5": "float8_e5m2"}[ty]
    return dict(name=name, fn=gemm_scaled_a, sig=sig,
                const=dict(INPUT_PRECISION=precision, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=[0, 1, 2], opts=dict(num_warps=warps, num_stages=stages), targets=targets,
                run=_run_scaled_a(dtype_name, precision, bm, bn, bk, tol))


@triton.jit
def gemm_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(stride_am, stride_ak), offsets=(pid_m * BLOCK_M, 0),
                             block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_bp = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(stride_bk, stride_bn), offsets=(0, pid_n * BLOCK_N),
                             block_shape=(BLOCK_K, BLOCK_N), order=(0, 1))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(a, b)
        a_bp = tl.advance(a_bp, (0, BLOCK_K))
        b_bp = tl.advance(b_bp, (BLOCK_K, 0))
    c_bp = tl.make_block_ptr(c_ptr, shape=(M, N), strides=(stride_cm, stride_cn), offsets=(pid_m * BLOCK_M,
                             pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_bp, acc.to(tl.bfloat16), boundary_check=(0, 1))


def _run_block_ptr(bm, bn, bk):
    def run(torch):
        M, N, K = 100, 130, 176
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
        b = w.t()  # column-major B, as a Linear weight is
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))
        gemm_block_ptr[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                             c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        return [("c", c, a.float() @ b.float(), 1e-1, 2e-2)]
    return run


def _block_ptr_case(name, bm, bn, bk, warps, stages):
    sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*bf16", "M": "i32", "N": "i32", "K": "i32",
           "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=gemm_block_ptr, sig=sig,
                const=dict(stride_ak=1, stride_bk=1, stride_cn=1, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=[0, 1, 2, 5, 6, 9], opts=dict(num_warps=warps, num_stages=stages), run=_run_block_ptr(bm, bn, bk))


# --- tensor descriptors (TMA, sm_90) --------------------------------------------------------


@triton.jit
def gemm_host_tma(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, K, BLOCK_K):
        a = a_desc.load([off_m, k])
        b = b_desc.load([off_n, k])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([off_m, off_n], acc.to(tl.float16))


def _run_host_tma(bm, bn, bk):
    def run(torch):
        from triton.tools.tensor_descriptor import TensorDescriptor
        M, N, K = 200, 144, 328
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        w = torch.randn(N, K, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        a_d = TensorDescriptor.from_tensor(a, [bm, bk])
        w_d = TensorDescriptor.from_tensor(w, [bn, bk])
        c_d = TensorDescriptor.from_tensor(c, [bm, bn])
        gemm_host_tma[(triton.cdiv(M, bm), triton.cdiv(N, bn))](a_d, w_d, c_d, M, N, K, BLOCK_M=bm, BLOCK_N=bn,
                                                                BLOCK_K=bk)
        return [("c", c, a.float() @ w.float().t(), 5e-2, 1e-2)]
    return run


def _host_tma_case(name, bm, bn, bk, warps, stages):
    sig = {"a_desc": f"tensordesc<fp16[{bm}, {bk}]>", "b_desc": f"tensordesc<fp16[{bn}, {bk}]>",
           "c_desc": f"tensordesc<fp16[{bm}, {bn}]>", "M": "i32", "N": "i32", "K": "i32"}
    return dict(name=name, fn=gemm_host_tma, sig=sig, const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk), div=[],
                opts=dict(num_warps=warps, num_stages=stages), targets=("cuda:90",), run=_run_host_tma(bm, bn, bk))


def _set_scratch_allocator(torch):
    def alloc(size, alignment, stream):
        return torch.empty(size, device="cuda", dtype=torch.int8)
    triton.set_allocator(alloc)


@triton.jit
def persistent_gemm_device_tma(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                               BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr,
                               FLATTEN: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_SMS, flatten=FLATTEN, warp_specialize=WARP_SPECIALIZE):
        group = tile // (GROUP_M * num_pid_n)
        first_m = group * GROUP_M
        group_m = min(num_pid_m - first_m, GROUP_M)
        pid_m = first_m + (tile % group_m)
        pid_n = (tile % (GROUP_M * num_pid_n)) // group_m
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            a = a_desc.load([off_m, k * BLOCK_K])
            b = b_desc.load([off_n, k * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([off_m, off_n], acc.to(tl.bfloat16))


def _run_device_tma(bm, bn, bk, flatten, ws):
    def run(torch):
        _set_scratch_allocator(torch)
        M, N, K, sms = 300, 264, 200, 8
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        persistent_gemm_device_tma[(sms,)](a, w, c, M, N, K, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
                                           NUM_SMS=sms, FLATTEN=flatten, WARP_SPECIALIZE=ws)
        return [("c", c, a.float() @ w.float().t(), 1e-1, 2e-2)]
    return run


def _device_tma_case(name, bm, bn, bk, flatten, ws, warps, stages):
    sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*bf16", "M": "i32", "N": "i32", "K": "i32"}
    return dict(name=name, fn=persistent_gemm_device_tma, sig=sig,
                const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, NUM_SMS=8, FLATTEN=flatten,
                           WARP_SPECIALIZE=ws),
                div=[0, 1, 2], opts=dict(num_warps=warps, num_stages=stages), targets=("cuda:90",),
                run=_run_device_tma(bm, bn, bk, flatten, ws))


@triton.jit
def persistent_gemm_flat(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, NUM_SMS: tl.constexpr):
    # Pointer-based persistent GEMM: the tile and K loops are flattened into one pipelined loop.
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    offs_k = tl.arange(0, BLOCK_K)
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_SMS, flatten=True):
        pid_m = tile // num_pid_n
        pid_n = tile % num_pid_n
        offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_am = tl.where(offs_m < M, offs_m, 0)
        offs_bn = tl.where(offs_n < N, offs_n, 0)
        offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_M), BLOCK_M)
        offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_N), BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            ks = ki * BLOCK_K + offs_k
            a = tl.load(a_ptr + offs_am[:, None] * stride_am + ks[None, :], mask=ks[None, :] < K, other=0.0)
            b = tl.load(b_ptr + ks[:, None] * stride_bk + offs_bn[None, :], mask=ks[:, None] < K, other=0.0)
            acc = tl.dot(a, b, acc)
        c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
        tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_persistent_flat(bm, bn, bk):
    def run(torch):
        M, N, K, sms = 260, 200, 312, 6
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        persistent_gemm_flat[(sms,)](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0), BLOCK_M=bm,
                                     BLOCK_N=bn, BLOCK_K=bk, NUM_SMS=sms)
        return [("c", c, a.float() @ b.float(), 5e-2, 1e-2)]
    return run


def _persistent_flat_case(name, bm, bn, bk, warps, stages):
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
           "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=persistent_gemm_flat, sig=sig,
                const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, NUM_SMS=6), div=[0, 1, 2],
                opts=dict(num_warps=warps, num_stages=stages), run=_run_persistent_flat(bm, bn, bk))


# --- DeepEP "masked" MoE GEMM ---------------------------------------------------------------


@triton.jit
def moe_masked_gemm(x_ptr, w_ptr, out_ptr, masked_m_ptr, N, K, stride_xe, stride_xm, stride_we, stride_wn,
                    stride_oe, stride_om, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # x [E, max_m, K] holds masked_m[e] valid tokens per expert; tiles past them (and experts
    # without tokens) return before touching memory.
    expert = tl.program_id(1)
    m_valid = tl.load(masked_m_ptr + expert)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = tl.program_id(0) // num_pid_n
    pid_n = tl.program_id(0) % num_pid_n
    if pid_m * BLOCK_M >= m_valid:
        return
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    e64 = expert.to(tl.int64)
    x_ptrs = x_ptr + e64 * stride_xe + offs_m[:, None] * stride_xm + offs_k[None, :]
    w_ptrs = w_ptr + e64 * stride_we + offs_n[None, :] * stride_wn + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        x = tl.load(x_ptrs, mask=(offs_m[:, None] < m_valid) & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc)
        x_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    o_ptrs = out_ptr + e64 * stride_oe + offs_m[:, None] * stride_om + offs_n[None, :]
    tl.store(o_ptrs, acc.to(tl.bfloat16), mask=(offs_m[:, None] < m_valid) & (offs_n[None, :] < N))


def _run_moe_masked(bm, bn, bk):
    def run(torch):
        E, max_m, N, K = 4, 96, 160, 224
        masked = torch.tensor([0, 37, 96, 5], device="cuda", dtype=torch.int32)
        x = torch.randn(E, max_m, K, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(E, N, K, device="cuda", dtype=torch.bfloat16) * 0.1
        out = torch.zeros(E, max_m, N, device="cuda", dtype=torch.bfloat16)
        grid = (triton.cdiv(max_m, bm) * triton.cdiv(N, bn), E)
        moe_masked_gemm[grid](x, w, out, masked, N, K, x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                              out.stride(0), out.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        ref = torch.bmm(x.float(), w.float().transpose(1, 2))
        keep = torch.arange(max_m, device="cuda")[None, :, None] < masked[:, None, None]
        return [("out", out, torch.where(keep, ref, torch.zeros_like(ref)), 5e-2, 2e-2)]
    return run


def _moe_masked_case(name, bm, bn, bk, warps, stages):
    sig = {"x_ptr": "*bf16", "w_ptr": "*bf16", "out_ptr": "*bf16", "masked_m_ptr": "*i32", "N": "i32", "K": "i32",
           "stride_xe": "i32", "stride_xm": "i32", "stride_we": "i32", "stride_wn": "i32", "stride_oe": "i32",
           "stride_om": "i32"}
    return dict(name=name, fn=moe_masked_gemm, sig=sig, const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=list(range(12)), opts=dict(num_warps=warps, num_stages=stages), run=_run_moe_masked(bm, bn, bk))


# --- small-M decode GEMM with tl.sum ----------------------------------------------------------


@triton.jit
def decode_gemm_fma(x_ptr, w_ptr, y_ptr, M, N, K, stride_xm, stride_wk, stride_ym,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    # M = 1..16 tokens: an outer product reduced with tl.sum keeps every lane busy where a
    # tensor-core tile would be mostly padding; split-K partials meet through atomics.
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K * SPLIT_K):
        ks = k0 + offs_k
        x = tl.load(x_ptr + offs_m[:, None] * stride_xm + ks[None, :], mask=(offs_m[:, None] < M) & (ks[None, :] < K),
                    other=0.0)
        w = tl.load(w_ptr + ks[:, None] * stride_wk + offs_n[None, :], mask=(ks[:, None] < K) & (offs_n[None, :] < N),
                    other=0.0)
        acc += tl.sum(x.to(tl.float32)[:, :, None] * w.to(tl.float32)[None, :, :], axis=1)
    y_ptrs = y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :]
    tl.atomic_add(y_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_decode(m, bm, bn, bk, split_k):
    def run(torch):
        N, K = 333, 1536
        x = torch.randn(m, K, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        y = torch.zeros(m, N, device="cuda", dtype=torch.float32)
        decode_gemm_fma[(triton.cdiv(N, bn), split_k)](x, w, y, m, N, K, x.stride(0), w.stride(0), y.stride(0),
                                                       BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k)
        return [("y", y, x.float() @ w.float(), 5e-2, 1e-2)]
    return run


def _decode_case(name, m, bm, bn, bk, split_k, warps):
    sig = {"x_ptr": "*bf16", "w_ptr": "*bf16", "y_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
           "stride_xm": "i32", "stride_wk": "i32", "stride_ym": "i32"}
    return dict(name=name, fn=decode_gemm_fma, sig=sig,
                const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k), div=[0, 1, 2, 5, 6],
                opts=dict(num_warps=warps, num_stages=2), run=_run_decode(m, bm, bn, bk, split_k))



# --- split-K straight into a bf16 / fp16 output (16-bit atomics) ------------------------------


@triton.jit
def splitk_gemm_atomic_half(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                            SPLIT_K: tl.constexpr):
    # B is an nn.Linear weight [N, K]; the partial sums are added into C in its own dtype, as
    # fused decode kernels do to skip the fp32 workspace.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_per_split = tl.cdiv(K, SPLIT_K)
    k_start = pid_k * k_per_split
    k_end = tl.minimum(k_start + k_per_split, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(k_start, k_end, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < k_end), other=0.0)
        b = tl.load(b_ptr + offs_n[None, :] * stride_bn + ks[:, None],
                    mask=(ks[:, None] < k_end) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.atomic_add(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N),
                  sem="relaxed", scope="gpu")


def _run_splitk_half(dtype_name, bm, bn, bk, split_k):
    def run(torch):
        dt = getattr(torch, dtype_name)
        M, N, K = 7, 200, 1500
        a = torch.randn(M, K, device="cuda", dtype=dt)
        w = torch.randn(N, K, device="cuda", dtype=dt) * 0.05
        c = torch.zeros(M, N, device="cuda", dtype=dt)
        grid = (triton.cdiv(M, bm), triton.cdiv(N, bn), split_k)
        splitk_gemm_atomic_half[grid](a, w, c, M, N, K, a.stride(0), w.stride(0), c.stride(0), BLOCK_M=bm,
                                      BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k)
        return [("c", c, a.float() @ w.float().t(), 5e-2, 2e-2)]
    return run


def _splitk_half_case(name, ty, bm, bn, bk, split_k, warps, stages):
    sig = {"a_ptr": ty, "b_ptr": ty, "c_ptr": ty, "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32",
           "stride_bn": "i32", "stride_cm": "i32"}
    dtype_name = {"*fp16": "float16", "*bf16": "bfloat16"}[ty]
    return dict(name=name, fn=splitk_gemm_atomic_half, sig=sig,
                const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k), div=[0, 1, 2],
                opts=dict(num_warps=warps, num_stages=stages), run=_run_splitk_half(dtype_name, bm, bn, bk, split_k))


# --- many tiny GEMMs per program: 3-D tl.dot ---------------------------------------------------


@triton.jit
def batched_small_gemm_3d(a_ptr, b_ptr, c_ptr, BATCH, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                          BLOCK_B: tl.constexpr):
    # BLOCK_B independent [M, K] x [K, N] products (per-head projections, chunked scans) in one
    # 3-D dot; the batch tail is masked.
    pid = tl.program_id(0)
    offs_b = pid * BLOCK_B + tl.arange(0, BLOCK_B)
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, K)
    mask_b = (offs_b < BATCH)[:, None, None]
    a = tl.load(a_ptr + offs_b[:, None, None] * (M * K) + offs_m[None, :, None] * K + offs_k[None, None, :],
                mask=mask_b, other=0.0)
    b = tl.load(b_ptr + offs_b[:, None, None] * (K * N) + offs_k[None, :, None] * N + offs_n[None, None, :],
                mask=mask_b, other=0.0)
    c = tl.dot(a, b)
    tl.store(c_ptr + offs_b[:, None, None] * (M * N) + offs_m[None, :, None] * N + offs_n[None, None, :],
             c.to(tl.float16), mask=mask_b)


def _run_small_3d(m, n, k, block_b):
    def run(torch):
        B = 37
        a = torch.randn(B, m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(B, k, n, device="cuda", dtype=torch.float16)
        c = torch.empty(B, m, n, device="cuda", dtype=torch.float16)
        batched_small_gemm_3d[(triton.cdiv(B, block_b),)](a, b, c, B, M=m, N=n, K=k, BLOCK_B=block_b)
        return [("c", c, torch.bmm(a.float(), b.float()), 5e-2, 1e-2)]
    return run


def _small_3d_case(name, m, n, k, block_b, warps):
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "BATCH": "i32"}
    return dict(name=name, fn=batched_small_gemm_3d, sig=sig, const=dict(M=m, N=n, K=k, BLOCK_B=block_b),
                div=[0, 1, 2], opts=dict(num_warps=warps, num_stages=1), run=_run_small_3d(m, n, k, block_b))


# --- batched GEMM through 3-D device tensor descriptors (sm_90) --------------------------------


@triton.jit
def bmm_device_tma_3d(a_ptr, b_ptr, c_ptr, B, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[B, M, K], strides=[M * K, K, 1],
                                       block_shape=[1, BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[B, K, N], strides=[K * N, N, 1],
                                       block_shape=[1, BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[B, M, N], strides=[M * N, N, 1],
                                       block_shape=[1, BLOCK_M, BLOCK_N])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, K, BLOCK_K, num_stages=3):
        a = a_desc.load([batch, pid_m * BLOCK_M, k]).reshape(BLOCK_M, BLOCK_K)
        b = b_desc.load([batch, k, pid_n * BLOCK_N]).reshape(BLOCK_K, BLOCK_N)
        acc = tl.dot(a, b, acc)
    c_desc.store([batch, pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16).reshape(1, BLOCK_M, BLOCK_N))


def _run_bmm_tma(bm, bn, bk):
    def run(torch):
        _set_scratch_allocator(torch)
        B, M, N, K = 3, 100, 72, 136
        a = torch.randn(B, M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(B, K, N, device="cuda", dtype=torch.float16)
        c = torch.empty(B, M, N, device="cuda", dtype=torch.float16)
        bmm_device_tma_3d[(triton.cdiv(M, bm), triton.cdiv(N, bn), B)](a, b, c, B, M, N, K, BLOCK_M=bm, BLOCK_N=bn,
                                                                     BLOCK_K=bk)
        return [("c", c, torch.bmm(a.float(), b.float()), 5e-2, 1e-2)]
    return run


def _bmm_tma_case(name, bm, bn, bk, warps):
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "B": "i32", "M": "i32", "N": "i32", "K": "i32"}
    return dict(name=name, fn=bmm_device_tma_3d, sig=sig, const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=[0, 1, 2], opts=dict(num_warps=warps, num_stages=3), targets=("cuda:90",),
                run=_run_bmm_tma(bm, bn, bk))



# --- deterministic split-K: the splits of a tile take turns behind a spin lock ----------------


@triton.jit
def splitk_serial_lock(a_ptr, b_ptr, c_ptr, locks_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    # Split s waits until the tile's lock reads s, adds its partial to C and hands over to s + 1,
    # so the fp32 sum is the same on every run (unlike atomics).
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_left = K - k * BLOCK_K * SPLIT_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    lock = locks_ptr + pid
    if pid_k > 0:
        while tl.atomic_cas(lock, pid_k, pid_k) != pid_k:
            pass
        acc += tl.load(c_ptrs, mask=mask, other=0.0, cache_modifier=".cg")
    tl.store(c_ptrs, acc, mask=mask, cache_modifier=".cg")
    tl.debug_barrier()
    tl.atomic_xchg(lock, pid_k + 1, sem="release")


def _run_serial_lock(bm, bn, bk, split_k):
    def run(torch):
        M, N, K = 100, 130, 700
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float32)
        tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
        locks = torch.zeros(tiles, device="cuda", dtype=torch.int32)
        splitk_serial_lock[(tiles, split_k)](a, b, c, locks, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                             BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k)
        return [("c", c, a.float() @ b.float(), 5e-2, 1e-2),
                ("locks", locks, torch.full_like(locks, split_k), 0, 0)]
    return run


def _serial_lock_case(name, bm, bn, bk, split_k, warps, stages):
    sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32", "locks_ptr": "*i32", "M": "i32", "N": "i32",
           "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=splitk_serial_lock, sig=sig,
                const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k), div=[0, 1, 2, 3],
                opts=dict(num_warps=warps, num_stages=stages), run=_run_serial_lock(bm, bn, bk, split_k))


CASES = [
    _splitk_case("splitk_atomic_64x64_k4", 64, 64, 64, 4, 4, 3),
    _splitk_case("splitk_atomic_32x128_k8_s2", 32, 128, 32, 8, 4, 2),
    _bmm_case("bmm_bias_gelu_residual", "gelu", 64, 64, 32, 4, 3),
    _bmm_case("bmm_bias_gelu_tanh_residual_s4", "gelu_tanh", 128, 64, 64, 8, 4),
    _grouped_case("grouped_gemm_ptr_table_64", 64, 64, 32, 4, 3),
    _grouped_case("grouped_gemm_ptr_table_128", 128, 128, 32, 8, 2),
    _shrink_case("lora_shrink_sgmv_r16", 16, 16, 16, 64, 1, 4, 2),
    _shrink_case("lora_shrink_sgmv_r64_splitk", 64, 32, 64, 32, 4, 4, 3),
    _expand_case("lora_expand_bgmv_r16", 16, 128, 4),
    _expand_case("lora_expand_bgmv_r64", 64, 64, 4),
    _precision_case("gemm_fp16_acc", "*fp16", "ieee", True, 64, 64, 32, 4, 3, 5e-2),
    _precision_case("gemm_tf32", "*fp32", "tf32", False, 64, 64, 32, 4, 3, 2e-2),
    _precision_case("gemm_tf32x3", "*fp32", "tf32x3", False, 64, 64, 32, 4, 2, 1e-4),
    _precision_case("gemm_ieee_fp32", "*fp32", "ieee", False, 32, 32, 32, 4, 2, 1e-4),
    # A scaled in registers before the dot: on sm_90 wgmma with A in registers (tf32, tf32x3's
    # split A, fp8).
    _scaled_a_case("gemm_scaled_a_tf32", "*fp32", "tf32", 64, 64, 32, 4, 3, 2e-2),
    _scaled_a_case("gemm_scaled_a_tf32x3", "*fp32", "tf32x3", 64, 64, 32, 4, 2, 1e-4),
    _scaled_a_case("gemm_scaled_a_tf32x3_128x64_w8", "*fp32", "tf32x3", 128, 64, 32, 8, 2, 1e-4),
    _scaled_a_case("gemm_scaled_a_e4m3", "*fp8e4nv", "ieee", 64, 64, 64, 4, 3, 2e-2, targets=("cuda:90",)),
    _scaled_a_case("gemm_scaled_a_e5m2", "*fp8e5", "ieee", 64, 128, 64, 4, 3, 2e-2, targets=("cuda:90",)),
    _block_ptr_case("gemm_block_ptr_128x128", 128, 128, 32, 8, 3),
    _block_ptr_case("gemm_block_ptr_64x64_s4", 64, 64, 64, 4, 4),
    _host_tma_case("gemm_host_tma_128x128", 128, 128, 64, 8, 3),
    _host_tma_case("gemm_host_tma_64x128_s4", 64, 128, 64, 4, 4),
    _device_tma_case("persistent_device_tma_flatten", 128, 128, 64, True, False, 8, 3),
    _device_tma_case("persistent_device_tma_ws", 128, 128, 64, False, True, 4, 3),
    _persistent_flat_case("persistent_gemm_flatten_ptr", 128, 64, 32, 4, 3),
    _moe_masked_case("moe_masked_gemm_64x64", 64, 64, 64, 4, 3),
    _decode_case("decode_gemm_fma_m1", 1, 2, 64, 64, 4, 4),
    _decode_case("decode_gemm_fma_m13", 13, 16, 32, 32, 2, 4),
    _precision_case("gemm_bf16x3", "*fp32", "bf16x3", False, 64, 64, 32, 4, 3, 1e-3),
    _splitk_half_case("splitk_atomic_bf16_out", "*bf16", 16, 64, 128, 4, 4, 3),
    _splitk_half_case("splitk_atomic_fp16_out", "*fp16", 16, 128, 64, 8, 4, 2),
    _small_3d_case("batched_small_gemm_3d_16x16x16", 16, 16, 16, 8, 4),
    _small_3d_case("batched_small_gemm_3d_32x64x32", 32, 64, 32, 4, 8),
    _bmm_tma_case("bmm_device_tma_3d", 64, 64, 32, 4),
    _serial_lock_case("splitk_serial_lock_64x64_k4", 64, 64, 32, 4, 4, 3),
]
