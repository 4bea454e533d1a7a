"""Quantised GEMMs as LLM serving stacks write them: W8A8 int8 with per-token / per-channel
scales in the epilogue, fp8 row-wise scaled GEMMs, DeepSeek-style fp8 block-scaled GEMMs (scales
applied per K block inside the loop), AWQ and GPTQ W4A16 (int4 packed eight to an int32,
unpacked with shifts and masks, group-wise scales and zero points), W8A16 weight-only, and an
int8 weight-only GEMV for decode."""
import triton
import triton.language as tl


@triton.jit
def _grouped_tile(pid, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    # L2-friendly ordering: GROUP_M rows of tiles are walked column by column.
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    return pid_m, pid_n


# --- W8A8 int8 -----------------------------------------------------------------------------


@triton.jit
def w8a8_int8_scaled_mm(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, bias_ptr, M, N, K,
                        stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                        PER_TOKEN: tl.constexpr, PER_CHANNEL: tl.constexpr, HAS_BIAS: tl.constexpr,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        GROUP_M: tl.constexpr):
    pid_m, pid_n = _grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if PER_TOKEN:
        a_s = tl.load(a_scale_ptr + offs_am)[:, None]
    else:
        a_s = tl.load(a_scale_ptr)
    if PER_CHANNEL:
        b_s = tl.load(b_scale_ptr + offs_bn)[None, :]
    else:
        b_s = tl.load(b_scale_ptr)
    c = acc.to(tl.float32) * a_s * b_s
    if HAS_BIAS:
        c += tl.load(bias_ptr + offs_bn)[None, :].to(tl.float32)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    tl.store(c_ptrs, c.to(c_ptr.dtype.element_ty), mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def _run_w8a8(per_token, per_channel, has_bias, bm, bn, bk):
    def run(torch):
        M, N, K = 77, 200, 320
        a = torch.randint(-127, 128, (M, K), device="cuda", dtype=torch.int8)
        w = torch.randint(-127, 128, (N, K), device="cuda", dtype=torch.int8)
        a_s = torch.rand(M if per_token else 1, device="cuda") * 0.01 + 1e-3
        w_s = torch.rand(N if per_channel else 1, device="cuda") * 0.01 + 1e-3
        bias = torch.randn(N, device="cuda", dtype=torch.bfloat16)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        b = w.t()
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        w8a8_int8_scaled_mm[grid](a, b, c, a_s, w_s, bias, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                  b.stride(1), c.stride(0), c.stride(1), PER_TOKEN=per_token,
                                  PER_CHANNEL=per_channel, HAS_BIAS=has_bias, BLOCK_M=bm, BLOCK_N=bn,
                                  BLOCK_K=bk, GROUP_M=8)
        ref = (a.float() @ w.float().t()) * a_s.view(-1, 1) * w_s.view(1, -1)
        if has_bias:
            ref = ref + bias.float()
        return [("c", c, ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


_W8A8_SIG = {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*bf16", "a_scale_ptr": "*fp32", "b_scale_ptr": "*fp32",
             "bias_ptr": "*bf16", "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_ak": "i32",
             "stride_bk": "i32", "stride_bn": "i32", "stride_cm": "i32", "stride_cn": "i32"}


def _w8a8_case(name, per_token, per_channel, has_bias, bm, bn, bk, warps, stages):
    const = dict(PER_TOKEN=per_token, PER_CHANNEL=per_channel, HAS_BIAS=has_bias, BLOCK_M=bm, BLOCK_N=bn,
                 BLOCK_K=bk, GROUP_M=8, stride_ak=1, stride_bk=1, stride_cn=1)
    sig = {k: v for k, v in _W8A8_SIG.items() if k not in const}
    return dict(name=name, fn=w8a8_int8_scaled_mm, sig=sig, const=const, div=[0, 1, 2, 3, 4, 5, 9, 12],
                opts=dict(num_warps=warps, num_stages=stages),
                run=_run_w8a8(per_token, per_channel, has_bias, bm, bn, bk))


# --- fp8 row-wise ---------------------------------------------------------------------------


@triton.jit
def fp8_rowwise_mm(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, M, N, K, stride_am, stride_bn, stride_cm,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                   EVEN_K: tl.constexpr):
    # B is the weight as stored, [N, K] row-major; the tile is loaded [BLOCK_N, BLOCK_K] and
    # transposed in registers, as FBGEMM-style kernels do.
    pid_m, pid_n = _grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None].to(tl.int64) * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_n[:, None].to(tl.int64) * stride_bn + offs_k[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        if EVEN_K:
            a = tl.load(a_ptrs, mask=offs_m[:, None] < M, other=0.0)
            b = tl.load(b_ptrs, mask=offs_n[:, None] < N, other=0.0)
        else:
            k_left = K - k * BLOCK_K
            a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
            b = tl.load(b_ptrs, mask=(offs_n[:, None] < N) & (offs_k[None, :] < k_left), other=0.0)
        acc = tl.dot(a, tl.trans(b), acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    a_s = tl.load(a_scale_ptr + offs_m, mask=offs_m < M, other=0.0)
    b_s = tl.load(b_scale_ptr + offs_n, mask=offs_n < N, other=0.0)
    c = acc * a_s[:, None] * b_s[None, :]
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, c.to(tl.bfloat16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_fp8_rowwise(fp8, bm, bn, bk, even_k):
    def run(torch):
        dt = getattr(torch, fp8)
        M, N, K = 93, 176, 512 if even_k else 464
        a = (torch.randn(M, K, device="cuda") * 2).to(dt)
        w = (torch.randn(N, K, device="cuda") * 2).to(dt)
        a_s = torch.rand(M, device="cuda") * 0.05 + 0.01
        w_s = torch.rand(N, device="cuda") * 0.05 + 0.01
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        fp8_rowwise_mm[grid](a, w, c, a_s, w_s, M, N, K, a.stride(0), w.stride(0), c.stride(0), BLOCK_M=bm,
                             BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, EVEN_K=even_k)
        ref = (a.float() @ w.float().t()) * a_s[:, None] * w_s[None, :]
        return [("c", c, ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


def _fp8_rowwise_case(name, fp8, bm, bn, bk, even_k, warps, stages, targets):
    ty = {"float8_e4m3fn": "*fp8e4nv", "float8_e5m2": "*fp8e5"}[fp8]
    sig = {"a_ptr": ty, "b_ptr": ty, "c_ptr": "*bf16", "a_scale_ptr": "*fp32", "b_scale_ptr": "*fp32", "M": "i32",
           "N": "i32", "K": "i32", "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=fp8_rowwise_mm, sig=sig,
                const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, EVEN_K=even_k),
                div=[0, 1, 2, 3, 4, 8, 9, 10], opts=dict(num_warps=warps, num_stages=stages), targets=targets,
                run=_run_fp8_rowwise(fp8, bm, bn, bk, even_k))


# --- DeepSeek-style fp8 block-scaled --------------------------------------------------------


@triton.jit
def fp8_block_scaled_mm(a_ptr, b_ptr, c_ptr, as_ptr, bs_ptr, M, N, K, stride_am, stride_bn, stride_cm,
                        stride_as_m, stride_bs_n, GROUP_N: tl.constexpr, GROUP_K: tl.constexpr,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        GROUP_M: tl.constexpr):
    # A carries one scale per token and 1 x GROUP_K block, B one per GROUP_N x GROUP_K block;
    # BLOCK_K == GROUP_K so that each K step multiplies by exactly one scale column.
    pid_m, pid_n = _grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] + offs_bn[None, :] * stride_bn
    as_ptrs = as_ptr + offs_am * stride_as_m
    bs_ptrs = bs_ptr + (offs_bn // GROUP_N) * stride_bs_n
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        k_group = (k * BLOCK_K) // GROUP_K
        a_s = tl.load(as_ptrs + k_group)
        b_s = tl.load(bs_ptrs + k_group)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def _run_block_fp8(bm, bn):
    def run(torch):
        M, N, K, G = 45, 320, 448, 128
        kg, ng = triton.cdiv(K, G), triton.cdiv(N, G)
        a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
        w = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn)
        a_s = torch.rand(M, kg, device="cuda") * 0.1 + 0.02
        w_s = torch.rand(ng, kg, device="cuda") * 0.1 + 0.02
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        fp8_block_scaled_mm[grid](a, w, c, a_s, w_s, M, N, K, a.stride(0), w.stride(0), c.stride(0), a_s.stride(0),
                                  w_s.stride(0), GROUP_N=G, GROUP_K=G, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=G, GROUP_M=8)
        a_deq = a.float() * a_s.repeat_interleave(G, dim=1)[:, :K]
        w_deq = w.float() * w_s.repeat_interleave(G, dim=0)[:N].repeat_interleave(G, dim=1)[:, :K]
        ref = a_deq @ w_deq.t()
        return [("c", c, ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


def _block_fp8_case(name, bm, bn, warps, stages, targets=("cuda:90",)):
    sig = {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*bf16", "as_ptr": "*fp32", "bs_ptr": "*fp32",
           "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32",
           "stride_as_m": "i32", "stride_bs_n": "i32"}
    return dict(name=name, fn=fp8_block_scaled_mm, sig=sig,
                const=dict(GROUP_N=128, GROUP_K=128, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=128, GROUP_M=32),
                div=[0, 1, 2, 3, 4, 8, 9, 10], opts=dict(num_warps=warps, num_stages=stages), targets=targets,
                run=_run_block_fp8(bm, bn))


# --- AWQ W4A16 (packed along N, interleaved nibble order) ------------------------------------


@triton.jit
def _awq_unpack(packed, ROWS: tl.constexpr, COLS: tl.constexpr):
    # Each int32 holds 8 consecutive output columns; AWQ stores column j in nibble
    # [0, 4, 1, 5, 2, 6, 3, 7][j]. Repeat every word 8 times along N, then shift each copy.
    packed = tl.interleave(packed, packed)
    packed = tl.interleave(packed, packed)
    packed = tl.interleave(packed, packed)
    order = (tl.arange(0, 2) * 4)[None, :] + tl.arange(0, 4)[:, None]
    shifts = tl.reshape(order * 4, (8,))
    shifts = tl.reshape(tl.broadcast_to(shifts[None, :], (ROWS * COLS // 8, 8)), (ROWS, COLS))
    return (packed >> shifts) & 0xF


@triton.jit
def awq_w4a16_gemm(a_ptr, qw_ptr, qz_ptr, scales_ptr, c_ptr, M, N, K, GROUP_SIZE,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_pn = pid_n * (BLOCK_N // 8) + tl.arange(0, BLOCK_N // 8)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    qw_ptrs = qw_ptr + offs_k[:, None] * (N // 8) + offs_pn[None, :]
    qz_ptrs = qz_ptr + offs_pn[None, :]
    s_ptrs = scales_ptr + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_base = (k * SPLIT_K + pid_k) * BLOCK_K
        mask_k = offs_k < K - k * SPLIT_K * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & mask_k[None, :], other=0.0)
        qw = tl.load(qw_ptrs, mask=mask_k[:, None] & (offs_pn[None, :] < N // 8), other=0)
        group = k_base // GROUP_SIZE
        qz = tl.load(qz_ptrs + group * (N // 8), mask=offs_pn[None, :] < N // 8, other=0)
        s = tl.load(s_ptrs + group * N, mask=offs_n[None, :] < N, other=0.0)
        w = _awq_unpack(qw, BLOCK_K, BLOCK_N)
        z = _awq_unpack(qz, 1, BLOCK_N)
        b = (w - z).to(tl.float16) * s
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * SPLIT_K
        qw_ptrs += BLOCK_K * SPLIT_K * (N // 8)
    c_ptrs = c_ptr + pid_k * M * N + offs_m[:, None] * N + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _pack_int32(torch, nibbles):
    """nibbles [..., 8] int64 in 0..15, nibble i at bits 4i; returns int32 with the sign wrapped."""
    shifts = torch.arange(0, 32, 4, device=nibbles.device, dtype=torch.int64)
    packed = (nibbles << shifts).sum(-1)
    return torch.where(packed >= 2**31, packed - 2**32, packed).to(torch.int32)


def _run_awq(bm, bn, bk, split_k):
    def run(torch):
        M, N, K, G = 37, 256, 384, 128
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        w = torch.randint(0, 16, (K, N), device="cuda", dtype=torch.int64)
        z = torch.randint(0, 16, (K // G, N), device="cuda", dtype=torch.int64)
        s = (torch.rand(K // G, N, device="cuda") * 0.02 + 0.005).half()
        order = torch.tensor([0, 2, 4, 6, 1, 3, 5, 7], device="cuda")  # nibble i holds column order[i]
        qw = _pack_int32(torch, w.view(K, N // 8, 8)[:, :, order])
        qz = _pack_int32(torch, z.view(K // G, N // 8, 8)[:, :, order])
        c = torch.empty(split_k, M, N, device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), split_k)
        awq_w4a16_gemm[grid](a, qw, qz, s, c, M, N, K, G, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k)
        deq = (w - z.repeat_interleave(G, dim=0)).float() * s.float().repeat_interleave(G, dim=0)
        ref = a.float() @ deq
        return [("c", c.float().sum(0), ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


def _awq_case(name, bm, bn, bk, split_k, warps, stages):
    sig = {"a_ptr": "*fp16", "qw_ptr": "*i32", "qz_ptr": "*i32", "scales_ptr": "*fp16", "c_ptr": "*fp16",
           "M": "i32", "N": "i32", "K": "i32", "GROUP_SIZE": "i32"}
    return dict(name=name, fn=awq_w4a16_gemm, sig=sig,
                const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=split_k), div=[0, 1, 2, 3, 4, 6, 7, 8],
                opts=dict(num_warps=warps, num_stages=stages), run=_run_awq(bm, bn, bk, split_k))


# --- GPTQ W4A16 (packed along K, act-order g_idx) --------------------------------------------


@triton.jit
def gptq_w4a16_gemm(a_ptr, qw_ptr, scales_ptr, qz_ptr, g_idx_ptr, c_ptr, M, N, K,
                    stride_am, stride_qwk, stride_sg, stride_zg, stride_cm,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid_m, pid_n = _grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_m = offs_m < M
    mask_n = offs_n < N
    zero_shift = (offs_n % 8) * 4
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        mask_k = ks < K
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + ks[None, :], mask=mask_m[:, None] & mask_k[None, :],
                    other=0.0)
        # eight K rows share one packed word; row k sits at nibble k % 8
        qw = tl.load(qw_ptr + (ks // 8)[:, None] * stride_qwk + offs_n[None, :],
                     mask=mask_k[:, None] & mask_n[None, :], other=0)
        g = tl.load(g_idx_ptr + ks, mask=mask_k, other=0)
        s = tl.load(scales_ptr + g[:, None] * stride_sg + offs_n[None, :], mask=mask_n[None, :], other=0.0)
        qz = tl.load(qz_ptr + g[:, None] * stride_zg + (offs_n // 8)[None, :], mask=mask_n[None, :], other=0)
        w = (qw >> ((ks % 8) * 4)[:, None]) & 0xF
        z = (qz >> zero_shift[None, :]) & 0xF
        b = (w - z).to(tl.float16) * s
        acc += tl.dot(a, b)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=mask_m[:, None] & mask_n[None, :])


def _run_gptq(bm, bn, bk):
    def run(torch):
        M, N, K, G = 20, 192, 328, 32
        groups = triton.cdiv(K, G)
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        w = torch.randint(0, 16, (K, N), device="cuda", dtype=torch.int64)
        # act-order: the group of row k is a permutation of the natural k // G
        g_idx = (torch.arange(K, device="cuda") // G)[torch.randperm(K, device="cuda")].to(torch.int32)
        z = torch.randint(0, 16, (groups, N), device="cuda", dtype=torch.int64)
        s = (torch.rand(groups, N, device="cuda") * 0.02 + 0.005).half()
        qw = _pack_int32(torch, w.view(K // 8, 8, N).permute(0, 2, 1))
        qz = _pack_int32(torch, z.view(groups, N // 8, 8))
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        gptq_w4a16_gemm[grid](a, qw, s, qz, g_idx, c, M, N, K, a.stride(0), qw.stride(0), s.stride(0), qz.stride(0),
                              c.stride(0), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8)
        gl = g_idx.long()
        deq = (w - z[gl]).float() * s.float()[gl]
        ref = a.float() @ deq
        return [("c", c, ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


def _gptq_case(name, bm, bn, bk, warps, stages):
    sig = {"a_ptr": "*fp16", "qw_ptr": "*i32", "scales_ptr": "*fp16", "qz_ptr": "*i32", "g_idx_ptr": "*i32",
           "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_qwk": "i32",
           "stride_sg": "i32", "stride_zg": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=gptq_w4a16_gemm, sig=sig, const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8),
                div=[0, 1, 2, 3, 4, 5], opts=dict(num_warps=warps, num_stages=stages), run=_run_gptq(bm, bn, bk))


# --- W8A16 weight-only ----------------------------------------------------------------------


@triton.jit
def w8a16_gemm(a_ptr, w_ptr, scale_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid_m, pid_n = _grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    w_ptrs = w_ptr + offs_k[:, None] + offs_n[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0)
        acc = tl.dot(a, w.to(tl.bfloat16), acc)
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    scale = tl.load(scale_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
    c = acc * scale[None, :]
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], c.to(tl.bfloat16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_w8a16(bm, bn, bk):
    def run(torch):
        M, N, K = 65, 300, 272
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        w = torch.randint(-127, 128, (N, K), device="cuda", dtype=torch.int8)
        s = (torch.rand(N, device="cuda") * 0.01 + 0.001).bfloat16()
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        w8a16_gemm[grid](a, w, s, c, M, N, K, a.stride(0), w.stride(0), c.stride(0), BLOCK_M=bm, BLOCK_N=bn,
                         BLOCK_K=bk, GROUP_M=8)
        ref = (a.float() @ w.float().t()) * s.float()[None, :]
        return [("c", c, ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


def _w8a16_case(name, bm, bn, bk, warps, stages):
    sig = {"a_ptr": "*bf16", "w_ptr": "*i8", "scale_ptr": "*bf16", "c_ptr": "*bf16", "M": "i32", "N": "i32",
           "K": "i32", "stride_am": "i32", "stride_wn": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=w8a16_gemm, sig=sig, const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8),
                div=[0, 1, 2, 3, 7, 8], opts=dict(num_warps=warps, num_stages=stages),
                run=_run_w8a16(bm, bn, bk))


# --- int8 weight-only GEMV for decode (a few tokens, tl.sum instead of tl.dot) ----------------


@triton.jit
def w8a16_gemv(x_ptr, w_ptr, scale_ptr, y_ptr, M, N, K, stride_xm, stride_wn, stride_ym,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_n = tl.program_id(0)
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_n = offs_n < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        x = tl.load(x_ptr + offs_m[:, None] * stride_xm + ks[None, :], mask=(offs_m[:, None] < M) & (ks[None, :] < K),
                    other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs_n[:, None].to(tl.int64) * stride_wn + ks[None, :],
                    mask=mask_n[:, None] & (ks[None, :] < K), other=0, eviction_policy="evict_first")
        acc += tl.sum(x[:, None, :] * w.to(tl.float32)[None, :, :], axis=2)
    y = acc * tl.load(scale_ptr + offs_n, mask=mask_n, other=0.0)[None, :]
    tl.store(y_ptr + offs_m[:, None] * stride_ym + offs_n[None, :], y.to(tl.float16),
             mask=(offs_m[:, None] < M) & mask_n[None, :])


def _run_gemv(m, bm, bn, bk):
    def run(torch):
        N, K = 1000, 1040
        x = torch.randn(m, K, device="cuda", dtype=torch.float16)
        w = torch.randint(-127, 128, (N, K), device="cuda", dtype=torch.int8)
        s = torch.rand(N, device="cuda") * 0.01 + 0.001
        y = torch.empty(m, N, device="cuda", dtype=torch.float16)
        w8a16_gemv[(triton.cdiv(N, bn),)](x, w, s, y, m, N, K, x.stride(0), w.stride(0), y.stride(0), BLOCK_M=bm,
                                          BLOCK_N=bn, BLOCK_K=bk)
        ref = (x.float() @ w.float().t()) * s[None, :]
        return [("y", y, ref, 1e-2 * ref.abs().max().item(), 1e-2)]
    return run


def _gemv_case(name, m, bm, bn, bk, warps):
    sig = {"x_ptr": "*fp16", "w_ptr": "*i8", "scale_ptr": "*fp32", "y_ptr": "*fp16", "M": "i32", "N": "i32",
           "K": "i32", "stride_xm": "i32", "stride_wn": "i32", "stride_ym": "i32"}
    return dict(name=name, fn=w8a16_gemv, sig=sig, const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk), div=[0, 1, 2, 3],
                opts=dict(num_warps=warps, num_stages=1), run=_run_gemv(m, bm, bn, bk))



# --- MXFP4 weights (e2m1 packed two to a byte along K, e8m0 scales per 32) through dot_scaled ---


@triton.jit
def mxfp4_weight_gemm(x_ptr, w_ptr, ws_ptr, c_ptr, M, N, K, stride_xm, stride_wk, stride_wsn, stride_cm,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_kp = tl.arange(0, BLOCK_K // 2)
    offs_ks = tl.arange(0, BLOCK_K // 32)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + offs_m[:, None] * stride_xm + (k0 + offs_k)[None, :],
                    mask=(offs_m[:, None] < M) & ((k0 + offs_k)[None, :] < K), other=0.0)
        w = tl.load(w_ptr + (k0 // 2 + offs_kp)[:, None] * stride_wk + offs_n[None, :],
                    mask=((k0 // 2 + offs_kp)[:, None] < K // 2) & (offs_n[None, :] < N), other=0)
        ws = tl.load(ws_ptr + offs_n[:, None] * stride_wsn + (k0 // 32 + offs_ks)[None, :],
                     mask=(offs_n[:, None] < N) & ((k0 // 32 + offs_ks)[None, :] < K // 32), other=127)
        acc = tl.dot_scaled(x, None, "bf16", w, ws, "e2m1", acc)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.bfloat16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_mxfp4(bm, bn, bk):
    def run(torch):
        M, N, K = 40, 96, 320
        x = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        codes = torch.randint(0, 16, (K, N), device="cuda", dtype=torch.int32)
        packed = (codes[0::2] | (codes[1::2] << 4)).to(torch.uint8)  # even k in the low nibble
        ws = torch.randint(120, 130, (N, K // 32), device="cuda", dtype=torch.uint8)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        mxfp4_weight_gemm[(triton.cdiv(M, bm), triton.cdiv(N, bn))](x, packed, ws, c, M, N, K, x.stride(0),
                                                                     packed.stride(0), ws.stride(0), c.stride(0),
                                                                     BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        table = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], device="cuda")
        w = table[codes & 7] * torch.where(codes >= 8, -1.0, 1.0)
        scale = torch.exp2(ws.float() - 127.0).t().repeat_interleave(32, dim=0)  # [K, N]
        ref = x.float() @ (w * scale)
        return [("c", c, ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


def _mxfp4_case(name, bm, bn, bk, warps, stages):
    sig = {"x_ptr": "*bf16", "w_ptr": "*u8", "ws_ptr": "*u8", "c_ptr": "*bf16", "M": "i32", "N": "i32", "K": "i32",
           "stride_xm": "i32", "stride_wk": "i32", "stride_wsn": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=mxfp4_weight_gemm, sig=sig, const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=[0, 1, 2, 3, 5, 6, 7, 8, 10], opts=dict(num_warps=warps, num_stages=stages),
                run=_run_mxfp4(bm, bn, bk))


# --- int8 GEMM on an [N, K] weight tile transposed in registers, fp8 re-quantised output ------


@triton.jit
def w8a8_int8_nt_fp8_out(a_ptr, w_ptr, a_scale_ptr, w_scale_ptr, c_ptr, c_scale_ptr, M, N, K, stride_am, stride_wn,
                         stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # One program owns whole output rows (BLOCK_N >= N) so that it can take the row amax and
    # emit fp8 with a per-token scale for the next layer.
    pid_m = tl.program_id(0)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + ks[None, :], mask=(offs_m[:, None] < M) & (ks[None, :] < K),
                    other=0)
        w = tl.load(w_ptr + offs_n[:, None] * stride_wn + ks[None, :], mask=(offs_n[:, None] < N) & (ks[None, :] < K),
                    other=0)
        acc += tl.dot(a, tl.trans(w), out_dtype=tl.int32)
    a_s = tl.load(a_scale_ptr + offs_m, mask=offs_m < M, other=0.0)
    w_s = tl.load(w_scale_ptr + offs_n, mask=offs_n < N, other=0.0)
    y = acc.to(tl.float32) * a_s[:, None] * w_s[None, :]
    amax = tl.max(tl.abs(y), axis=1, keep_dims=True)
    scale = tl.maximum(amax, 1e-6) / 448.0
    q = tl.clamp(y / scale, -448.0, 448.0).to(tl.float8e4nv)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], q, mask=mask)
    tl.store(c_scale_ptr + offs_m[:, None] + tl.zeros_like(amax).to(tl.int32), scale, mask=offs_m[:, None] < M)


def _run_int8_nt(bm, bn, bk):
    def run(torch):
        M, N, K = 70, 120, 240
        a = torch.randint(-127, 128, (M, K), device="cuda", dtype=torch.int8)
        w = torch.randint(-127, 128, (N, K), device="cuda", dtype=torch.int8)
        a_s = torch.rand(M, device="cuda") * 0.01 + 1e-3
        w_s = torch.rand(N, device="cuda") * 0.01 + 1e-3
        c = torch.empty(M, N, device="cuda", dtype=torch.float8_e4m3fn)
        c_s = torch.empty(M, 1, device="cuda", dtype=torch.float32)
        w8a8_int8_nt_fp8_out[(triton.cdiv(M, bm),)](a, w, a_s, w_s, c, c_s, M, N, K, a.stride(0), w.stride(0),
                                                    c.stride(0), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        y = (a.float() @ w.float().t()) * a_s[:, None] * w_s[None, :]
        ref_s = y.abs().amax(dim=1, keepdim=True).clamp(min=1e-6) / 448.0
        return [("scale", c_s, ref_s, 1e-6, 1e-4),
                ("dequant", c.float() * c_s, y, 0.07 * y.abs().max().item(), 0.07)]
    return run


def _int8_nt_case(name, bm, bn, bk, warps, stages):
    sig = {"a_ptr": "*i8", "w_ptr": "*i8", "a_scale_ptr": "*fp32", "w_scale_ptr": "*fp32", "c_ptr": "*fp8e4nv",
           "c_scale_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_wn": "i32",
           "stride_cm": "i32"}
    return dict(name=name, fn=w8a8_int8_nt_fp8_out, sig=sig, const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=[0, 1, 2, 3, 4, 5, 8, 9, 10], opts=dict(num_warps=warps, num_stages=stages),
                targets=("cuda:90",), run=_run_int8_nt(bm, bn, bk))


# --- fp8 weight stored [K, N] (N-major B, which wgmma cannot read directly) ---------------------


@triton.jit
def fp8_kn_weight_gemm(a_ptr, b_ptr, c_ptr, scale_a, scale_b, M, N, K, stride_am, stride_bk, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=3):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, max_num_imprecise_acc=32)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    acc = acc * (tl.load(scale_a) * tl.load(scale_b))
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_fp8_kn(bm, bn, bk):
    def run(torch):
        M, N, K = 100, 144, 288
        a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(K, N, device="cuda").to(torch.float8_e4m3fn)
        sa = torch.tensor([0.05], device="cuda")
        sb = torch.tensor([0.2], device="cuda")
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        fp8_kn_weight_gemm[(triton.cdiv(M, bm), triton.cdiv(N, bn))](a, b, c, sa, sb, M, N, K, a.stride(0),
                                                                      b.stride(0), c.stride(0), BLOCK_M=bm,
                                                                      BLOCK_N=bn, BLOCK_K=bk)
        ref = (a.float() @ b.float()) * 0.01
        return [("c", c, ref, 3e-2 * ref.abs().max().item(), 3e-2)]
    return run


def _fp8_kn_case(name, bm, bn, bk, warps):
    sig = {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp16", "scale_a": "*fp32", "scale_b": "*fp32",
           "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=fp8_kn_weight_gemm, sig=sig, const=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=[0, 1, 2, 3, 4, 6, 7, 8, 9, 10], opts=dict(num_warps=warps, num_stages=3),
                targets=("cuda:90",), run=_run_fp8_kn(bm, bn, bk))


# --- int4 packed two to a byte along K, unpacked with split/join + reshape -------------------


@triton.jit
def w4a16_join_unpack_gemm(a_ptr, qw_ptr, scales_ptr, c_ptr, M, N, K, stride_am, stride_qk, stride_sg, stride_cm,
                           GROUP_SIZE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_K: tl.constexpr):
    # Symmetric int4 (zero point 8): byte k//2 holds row k in its low nibble for even k.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_kh = tl.arange(0, BLOCK_K // 2)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + (k0 + offs_k)[None, :],
                    mask=(offs_m[:, None] < M) & ((k0 + offs_k)[None, :] < K), other=0.0)
        q = tl.load(qw_ptr + (k0 // 2 + offs_kh)[:, None] * stride_qk + offs_n[None, :],
                    mask=((k0 // 2 + offs_kh)[:, None] < K // 2) & (offs_n[None, :] < N), other=0x88)
        lo = (q & 0xF).to(tl.int8) - 8
        hi = (q >> 4).to(tl.int8) - 8
        w = tl.join(lo, hi)                       # [BLOCK_K/2, BLOCK_N, 2]
        w = tl.permute(w, (0, 2, 1))              # [BLOCK_K/2, 2, BLOCK_N]
        w = tl.reshape(w, (BLOCK_K, BLOCK_N))     # rows interleaved back into k order
        s = tl.load(scales_ptr + (k0 // GROUP_SIZE) * stride_sg + offs_n, mask=offs_n < N, other=0.0)
        acc = tl.dot(a, w.to(tl.bfloat16) * s[None, :], acc)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.bfloat16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_join_unpack(bm, bn, bk, group):
    def run(torch):
        M, N, K = 33, 200, 512
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        codes = torch.randint(0, 16, (K, N), device="cuda", dtype=torch.int32)
        qw = (codes[0::2] | (codes[1::2] << 4)).to(torch.uint8)
        s = (torch.rand(K // group, N, device="cuda") * 0.05 + 0.01).bfloat16()
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        w4a16_join_unpack_gemm[(triton.cdiv(M, bm), triton.cdiv(N, bn))](
            a, qw, s, c, M, N, K, a.stride(0), qw.stride(0), s.stride(0), c.stride(0), GROUP_SIZE=group, BLOCK_M=bm,
            BLOCK_N=bn, BLOCK_K=bk)
        deq = (codes - 8).float() * s.float().repeat_interleave(group, dim=0)
        ref = a.float() @ deq
        return [("c", c, ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


def _join_unpack_case(name, bm, bn, bk, group, warps, stages):
    sig = {"a_ptr": "*bf16", "qw_ptr": "*u8", "scales_ptr": "*bf16", "c_ptr": "*bf16", "M": "i32", "N": "i32",
           "K": "i32", "stride_am": "i32", "stride_qk": "i32", "stride_sg": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=w4a16_join_unpack_gemm, sig=sig,
                const=dict(GROUP_SIZE=group, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk), div=[0, 1, 2, 3, 6, 7],
                opts=dict(num_warps=warps, num_stages=stages), run=_run_join_unpack(bm, bn, bk, group))



# --- int4 -> fp16 through the lop3 "magic number" trick in inline PTX --------------------------


@triton.jit
def _int4_pair_to_f16(words):
    # (word & 0x000f000f) | 0x64006400 is the f16 pair (1024 + lo, 1024 + hi) of the nibbles at
    # bits 0 and 16; subtracting 1024 leaves the integers, exactly, in two instructions.
    return tl.inline_asm_elementwise(
        "{ .reg .b32 t, m; lop3.b32 t, $2, 0x000f000f, 0x64006400, 0xea; mov.b32 m, 0x64006400; "
        "sub.f16x2 t, t, m; mov.b32 {$0, $1}, t; }",
        "=h,=h,r", [words], dtype=(tl.float16, tl.float16), is_pure=True, pack=1)


@triton.jit
def w4a16_lop3_gemm(a_ptr, qw_ptr, scales_ptr, c_ptr, M, N, K, stride_am, stride_qk, stride_sg, stride_cm,
                    GROUP_SIZE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # qw [K / 8, N]: word i of a column holds rows 8i..8i+7 in nibbles 0..7. Each asm call
    # yields nibbles j and j + 4 of every word; three levels of join and a permute put the
    # eight back in row order before the reshape to [BLOCK_K, BLOCK_N].
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_w = tl.arange(0, BLOCK_K // 8)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + (k0 + offs_k)[None, :],
                    mask=(offs_m[:, None] < M) & ((k0 + offs_k)[None, :] < K), other=0.0)
        q = tl.load(qw_ptr + (k0 // 8 + offs_w)[:, None] * stride_qk + offs_n[None, :],
                    mask=((k0 // 8 + offs_w)[:, None] < K // 8) & (offs_n[None, :] < N), other=0)
        lo0, hi0 = _int4_pair_to_f16(q)
        lo1, hi1 = _int4_pair_to_f16(q >> 4)
        lo2, hi2 = _int4_pair_to_f16(q >> 8)
        lo3, hi3 = _int4_pair_to_f16(q >> 12)
        t01 = tl.join(tl.join(lo0, hi0), tl.join(lo1, hi1))        # [.., BLOCK_N, h, c]: nibble c + 4h
        t23 = tl.join(tl.join(lo2, hi2), tl.join(lo3, hi3))        # nibble 2 + c + 4h
        w = tl.join(t01, t23)                                       # [.., BLOCK_N, h, c, a]: c + 2a + 4h
        w = tl.permute(w, (0, 2, 4, 3, 1))                          # [.., h, a, c, BLOCK_N]
        w = tl.reshape(w, (BLOCK_K, BLOCK_N))
        s = tl.load(scales_ptr + (k0 // GROUP_SIZE) * stride_sg + offs_n, mask=offs_n < N, other=0.0)
        acc = tl.dot(a, (w - 8.0) * s[None, :], acc)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _run_lop3(bm, bn, bk, group):
    def run(torch):
        M, N, K = 24, 136, 384
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        w = torch.randint(0, 16, (K, N), device="cuda", dtype=torch.int64)
        qw = _pack_int32(torch, w.view(K // 8, 8, N).permute(0, 2, 1))  # row 8i + p in nibble p
        s = (torch.rand(K // group, N, device="cuda") * 0.02 + 0.005).half()
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        w4a16_lop3_gemm[(triton.cdiv(M, bm), triton.cdiv(N, bn))](
            a, qw, s, c, M, N, K, a.stride(0), qw.stride(0), s.stride(0), c.stride(0), GROUP_SIZE=group, BLOCK_M=bm,
            BLOCK_N=bn, BLOCK_K=bk)
        ref = a.float() @ ((w - 8).float() * s.float().repeat_interleave(group, dim=0))
        return [("c", c, ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


def _lop3_case(name, bm, bn, bk, group, warps, stages):
    sig = {"a_ptr": "*fp16", "qw_ptr": "*i32", "scales_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
           "K": "i32", "stride_am": "i32", "stride_qk": "i32", "stride_sg": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=w4a16_lop3_gemm, sig=sig, const=dict(GROUP_SIZE=group, BLOCK_M=bm, BLOCK_N=bn,
                BLOCK_K=bk), div=[0, 1, 2, 3, 6, 7], opts=dict(num_warps=warps, num_stages=stages),
                run=_run_lop3(bm, bn, bk, group))


# --- QLoRA NF4: a 16-entry codebook looked up with tl.gather, blockwise absmax ----------------


@triton.jit
def nf4_gemm(a_ptr, qw_ptr, absmax_ptr, code_ptr, c_ptr, M, N, K, stride_am, stride_cm,
             QBLOCK: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # The weight is [N, K] flattened and quantised in blocks of QBLOCK elements; byte i holds
    # element 2i in its high nibble and 2i + 1 in its low nibble (bitsandbytes' order).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    code = tl.load(code_ptr + tl.arange(0, 16))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + ks[None, :], mask=(offs_m[:, None] < M) & (ks[None, :] < K),
                    other=0.0)
        flat = offs_n[None, :] * K + ks[:, None]                   # [BLOCK_K, BLOCK_N] element index
        wmask = (ks[:, None] < K) & (offs_n[None, :] < N)
        byte = tl.load(qw_ptr + flat // 2, mask=wmask, other=0)
        nibble = tl.where(flat % 2 == 0, byte >> 4, byte & 0xF).to(tl.int32)
        values = tl.gather(code, tl.reshape(nibble, (BLOCK_K * BLOCK_N,)), 0)
        absmax = tl.load(absmax_ptr + flat // QBLOCK, mask=wmask, other=0.0)
        w = tl.reshape(values, (BLOCK_K, BLOCK_N)) * absmax
        acc = tl.dot(a, w.to(tl.bfloat16), acc)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.bfloat16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


_NF4_CODE = [-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
             -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
             0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
             0.7229568362236023, 1.0]


def _run_nf4(bm, bn, bk):
    def run(torch):
        M, N, K, qb = 19, 100, 256, 64
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        idx = torch.randint(0, 16, (N * K,), device="cuda", dtype=torch.int32)
        qw = ((idx[0::2] << 4) | idx[1::2]).to(torch.uint8)
        absmax = torch.rand(N * K // qb, device="cuda") + 0.1
        code = torch.tensor(_NF4_CODE, device="cuda", dtype=torch.float32)
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        nf4_gemm[(triton.cdiv(M, bm), triton.cdiv(N, bn))](a, qw, absmax, code, c, M, N, K, a.stride(0), c.stride(0),
                                                          QBLOCK=qb, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        w = (code[idx.long()] * absmax.repeat_interleave(qb)).view(N, K)
        ref = a.float() @ w.t()
        return [("c", c, ref, 2e-2 * ref.abs().max().item(), 2e-2)]
    return run


def _nf4_case(name, bm, bn, bk, warps, stages):
    sig = {"a_ptr": "*bf16", "qw_ptr": "*u8", "absmax_ptr": "*fp32", "code_ptr": "*fp32", "c_ptr": "*bf16",
           "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_cm": "i32"}
    return dict(name=name, fn=nf4_gemm, sig=sig, const=dict(QBLOCK=64, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                div=[0, 1, 2, 3, 4, 7, 8], opts=dict(num_warps=warps, num_stages=stages), run=_run_nf4(bm, bn, bk))


CASES = [
    _w8a8_case("w8a8_int8_token_channel_bias", True, True, True, 64, 64, 64, 4, 3),
    _w8a8_case("w8a8_int8_tensor_scale_128x128", False, False, False, 128, 128, 128, 8, 4),
    _w8a8_case("w8a8_int8_token_channel_s2", True, True, False, 32, 64, 128, 4, 2),
    _fp8_rowwise_case("fp8e4_rowwise_128x128_s4", "float8_e4m3fn", 128, 128, 128, False, 8, 4, ("cuda:90",)),
    _fp8_rowwise_case("fp8e4_rowwise_64x64_evenk", "float8_e4m3fn", 64, 64, 128, True, 4, 3, ("cuda:90",)),
    _fp8_rowwise_case("fp8e5_rowwise_64x128", "float8_e5m2", 64, 128, 64, False, 4, 3, ("cuda:90", "cuda:80")),
    _fp8_rowwise_case("fp8e5_rowwise_128x64_evenk_s4", "float8_e5m2", 128, 64, 128, True, 8, 4, ("cuda:90", "cuda:80")),
    _block_fp8_case("fp8_block_scaled_64x128_s3", 64, 128, 4, 3),
    _block_fp8_case("fp8_block_scaled_16x64_s4", 16, 64, 4, 4),
    _awq_case("awq_w4a16_32x64", 32, 64, 32, 1, 4, 2),
    _awq_case("awq_w4a16_64x128_splitk2", 64, 128, 64, 2, 4, 3),
    _gptq_case("gptq_w4a16_actorder_16x64", 16, 64, 32, 4, 3),
    _gptq_case("gptq_w4a16_actorder_64x64", 64, 64, 64, 4, 2),
    _w8a16_case("w8a16_gemm_64x128", 64, 128, 64, 4, 3),
    _w8a16_case("w8a16_gemm_128x64_s4", 128, 64, 64, 8, 4),
    _gemv_case("w8a16_gemv_m1", 1, 1, 64, 128, 4),
    _gemv_case("w8a16_gemv_m5", 5, 8, 16, 64, 4),
    _mxfp4_case("mxfp4_weight_dot_scaled_32x64", 32, 64, 64, 4, 3),
    _mxfp4_case("mxfp4_weight_dot_scaled_64x128_s2", 64, 128, 128, 8, 2),
    _int8_nt_case("w8a8_int8_nt_fp8_out", 32, 128, 64, 4, 3),
    _fp8_kn_case("fp8_kn_weight_imprecise_acc", 64, 64, 64, 4),
    _join_unpack_case("w4a16_join_unpack_g128", 32, 64, 64, 128, 4, 3),
    _join_unpack_case("w4a16_join_unpack_g64_128x128", 128, 128, 64, 64, 8, 2),
    _lop3_case("w4a16_lop3_inline_asm_g128", 16, 64, 64, 128, 4, 3),
    _lop3_case("w4a16_lop3_inline_asm_g64_64x128", 64, 128, 64, 64, 4, 2),
    _nf4_case("nf4_gather_gemm_32x32", 32, 32, 64, 4, 2),
    _nf4_case("nf4_gather_gemm_16x64", 16, 64, 32, 4, 3),
]
