"""LLM serving kernels around mixture-of-experts, quantisation and sampling, written for this
project in the styles inference engines use: the fused MoE GEMM over tokens sorted by expert
(bf16, int8 w8a8 with per-token/per-channel scales, fp8 w8a8 with 128x128 block scales, int4
w4a16 with group-wise scales and zero points), the block-size alignment that produces its sorted
token ids (atomics, cumsum), top-k softmax gating, dynamic per-token fp8/int8 quantisation and
per-token-group fp8 quantisation, and sampling helpers (temperature + top-k through tl.topk and
tl.sort, repetition penalty through gather/scatter)."""
import triton
import triton.language as tl
from triton.language.extra import libdevice

from serving_attention import launched_case

# ----------------------------------------------------------------------------------------------
# Fused MoE GEMM. Rows of A are tokens, gathered through sorted_token_ids (token * top_k + k,
# padded per expert to a multiple of BLOCK_M with the sentinel num_valid_tokens); each block of
# rows belongs to one expert (expert_ids[pid_m], -1 when the expert lives on another rank). C is
# [tokens * top_k, N]. Programs are swizzled in groups of GROUP_M rows for L2 reuse.
# ----------------------------------------------------------------------------------------------


@triton.jit
def _moe_block_coords(pid, EM, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    num_pid_m = tl.cdiv(EM, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def _moe_write_zeros(c_ptr, offs_token, token_mask, pid_n, N, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr):
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    zeros = tl.zeros((BLOCK_M, BLOCK_N), dtype=c_ptr.dtype.element_ty)
    tl.store(c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :], zeros,
             mask=token_mask[:, None] & (offs_cn[None, :] < N))


@triton.jit
def fused_moe_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr,
                     expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens,
                     stride_am, stride_ak, stride_be, stride_bk, stride_bn, stride_cm, stride_cn,
                     stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                     GROUP_SIZE_K: tl.constexpr, GROUP_SIZE_N: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr,
                     TOP_K: tl.constexpr, USE_INT8_W8A8: tl.constexpr, USE_FP8_W8A8: tl.constexpr):
    pid = tl.program_id(0)
    pid_m, pid_n = _moe_block_coords(pid, EM, N, BLOCK_M, BLOCK_N, GROUP_M)
    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_M >= num_tokens_post_padded:
        return
    offs_token_id = pid_m * BLOCK_M + tl.arange(0, BLOCK_M).to(tl.int64)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)
    token_mask = offs_token < num_valid_tokens
    off_expert = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    if off_expert == -1:
        _moe_write_zeros(c_ptr, offs_token, token_mask, pid_n, N, stride_cm, stride_cn, BLOCK_M, BLOCK_N)
        return
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_token[:, None] // TOP_K * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + off_expert * stride_be + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    if USE_INT8_W8A8:
        # per-token activation scale, per-output-channel weight scale
        a_scale = tl.load(a_scale_ptr + (offs_token // TOP_K) * stride_asm, mask=token_mask, other=0.0)
        b_scale = tl.load(b_scale_ptr + off_expert * stride_bse + offs_bn * stride_bsn)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    else:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    if USE_FP8_W8A8:
        a_scale_ptrs = a_scale_ptr + (offs_token // TOP_K) * stride_asm
        offs_bsn = offs_bn // GROUP_SIZE_N
        b_scale_ptrs = b_scale_ptr + off_expert * stride_bse + offs_bsn * stride_bsn
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=token_mask[:, None] & (offs_k[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        if USE_FP8_W8A8:
            k_group = (k * BLOCK_K) // GROUP_SIZE_K
            a_s = tl.load(a_scale_ptrs + k_group * stride_ask, mask=token_mask, other=0.0)
            b_s = tl.load(b_scale_ptrs + k_group * stride_bsk)
            acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        elif USE_INT8_W8A8:
            acc += tl.dot(a, b)  # int8 x int8 -> int32
        else:
            acc = tl.dot(a, b, acc=acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if USE_INT8_W8A8:
        acc = acc.to(tl.float32) * a_scale[:, None] * b_scale[None, :]
    if MUL_ROUTED_WEIGHT:
        moe_weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
        acc = acc * moe_weight[:, None]
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=token_mask[:, None] & (offs_cn[None, :] < N))


# w4a16: B packs two int4 values per byte along K ([E, K // 2, N]); scales and zero points per
# group of GROUP_SIZE rows of K ([E, K // GROUP_SIZE, N], zero points packed two per byte along N).
@triton.jit
def fused_moe_w4a16_kernel(a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr,
                           expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens,
                           stride_am, stride_ak, stride_be, stride_bk, stride_bn, stride_cm, stride_cn,
                           stride_bse, stride_bsk, stride_bsn, stride_bze, stride_bzk, stride_bzn,
                           GROUP_SIZE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr,
                           TOP_K: tl.constexpr, HAS_ZP: tl.constexpr):
    pid = tl.program_id(0)
    pid_m, pid_n = _moe_block_coords(pid, EM, N, BLOCK_M, BLOCK_N, GROUP_M)
    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_M >= num_tokens_post_padded:
        return
    offs_token_id = pid_m * BLOCK_M + tl.arange(0, BLOCK_M).to(tl.int64)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)
    token_mask = offs_token < num_valid_tokens
    off_expert = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    if off_expert == -1:
        _moe_write_zeros(c_ptr, offs_token, token_mask, pid_n, N, stride_cm, stride_cn, BLOCK_M, BLOCK_N)
        return
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N).to(tl.int64)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_token[:, None] // TOP_K * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + off_expert * stride_be + (offs_k[:, None] // 2) * stride_bk + offs_bn[None, :] * stride_bn
    b_shifter = (offs_k[:, None] % 2) * 4
    zp_shifter = (offs_bn[None, :] % 2) * 4
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_mask = offs_k < K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=token_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_ptrs, mask=k_mask[:, None], other=0)
        b = (b >> b_shifter) & 0xF
        group = (offs_k[:, None] + k * BLOCK_K) // GROUP_SIZE
        b_scale = tl.load(b_scale_ptr + off_expert * stride_bse + offs_bn[None, :] * stride_bsn
                          + group * stride_bsk, mask=k_mask[:, None], other=0.0).to(tl.float32)
        if HAS_ZP:
            zp = tl.load(b_zp_ptr + off_expert * stride_bze + (offs_bn[None, :] // 2) * stride_bzn
                         + group * stride_bzk, mask=k_mask[:, None], other=0)
            zp = ((zp >> zp_shifter) & 0xF).to(tl.float32)
        else:
            zp = 8.0
        b = ((b.to(tl.float32) - zp) * b_scale).to(a.dtype)
        acc = tl.dot(a, b, acc=acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += (BLOCK_K // 2) * stride_bk
    if MUL_ROUTED_WEIGHT:
        moe_weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
        acc = acc * moe_weight[:, None]
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + stride_cm * offs_token[:, None] + stride_cn * offs_cn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=token_mask[:, None] & (offs_cn[None, :] < N))


def _align_host(torch, topk_ids, num_experts, block_m, expert_map=None):
    """Reference moe_align_block_size on the host: sorted ids padded per expert, expert per block."""
    flat = topk_ids.flatten().tolist()
    numel = len(flat)
    sorted_ids, expert_ids = [], []
    for e in range(num_experts):
        ids = [i for i, x in enumerate(flat) if x == e]
        padded = triton.cdiv(len(ids), block_m) * block_m
        sorted_ids += ids + [numel] * (padded - len(ids))
        owner = e if expert_map is None else expert_map[e]
        expert_ids += [owner] * (padded // block_m)
    return (torch.tensor(sorted_ids, dtype=torch.int32, device="cuda"),
            torch.tensor(expert_ids, dtype=torch.int32, device="cuda"),
            torch.tensor([len(sorted_ids)], dtype=torch.int32, device="cuda"))


def _moe_inputs(torch, gen, tokens, num_experts, top_k):
    logits = torch.randn(tokens, num_experts, device="cuda", generator=gen)
    weights, ids = torch.topk(torch.softmax(logits, dim=-1), top_k, dim=-1)
    return weights.float().contiguous(), ids.to(torch.int32)


def _moe_reference(torch, a, w, topk_ids, topk_weights, mul_weight):
    """[tokens * top_k, N] in fp32: a @ w[expert] per routed slot, times its weight if asked."""
    tokens, top_k = topk_ids.shape
    out = torch.empty(tokens * top_k, w.shape[2], device="cuda")
    for t in range(tokens):
        for j in range(top_k):
            row = a[t].float() @ w[topk_ids[t, j].item()].float()
            out[t * top_k + j] = row * (topk_weights[t, j] if mul_weight else 1.0)
    return out


def _launch_moe(kernel, a, b, c, sorted_ids, expert_ids, ntpp, topk_weights, N, K, top_k, cfg, extra_ptrs,
                extra_strides, **flags):
    EM = sorted_ids.numel()
    grid = (triton.cdiv(EM, cfg["BLOCK_M"]) * triton.cdiv(N, cfg["BLOCK_N"]),)
    kernel[grid](a, b, c, *extra_ptrs[:2], topk_weights, sorted_ids, expert_ids, ntpp, N, K, EM,
                 topk_weights.numel(), a.stride(0), a.stride(1), b.stride(0), b.stride(1), b.stride(2), c.stride(0),
                 c.stride(1), *extra_strides, TOP_K=top_k, **cfg, **flags)


def _run_moe_bf16(cfg, mul_weight, dtype_name, with_ep):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(10)
        dtype = getattr(torch, dtype_name)
        tokens, E, top_k, N, K = 37, 8, 2, 200, 160
        a = torch.randn(tokens, K, device="cuda", generator=gen).to(dtype) / 4
        w = (torch.randn(E, K, N, device="cuda", generator=gen) / 8).to(dtype)  # b[e, k, n]
        topk_weights, topk_ids = _moe_inputs(torch, gen, tokens, E, top_k)
        expert_map = [e if e % 4 != 3 else -1 for e in range(E)] if with_ep else None
        sorted_ids, expert_ids, ntpp = _align_host(torch, topk_ids, E, cfg["BLOCK_M"], expert_map)
        # the block table is longer than needed: programs past num_tokens_post_padded return
        sorted_ids = torch.cat([sorted_ids, torch.full((cfg["BLOCK_M"] * 2,), tokens * top_k, dtype=torch.int32,
                                                       device="cuda")])
        expert_ids = torch.cat([expert_ids, torch.zeros(2, dtype=torch.int32, device="cuda")])
        c = torch.full((tokens * top_k, N), 7.0, device="cuda", dtype=dtype)
        dummy = torch.empty(1, device="cuda")
        _launch_moe(fused_moe_kernel, a, w, c, sorted_ids, expert_ids, ntpp, topk_weights, N, K, top_k, cfg,
                    [dummy, dummy], [0, 0, 0, 0, 0], MUL_ROUTED_WEIGHT=mul_weight, USE_INT8_W8A8=False,
                    USE_FP8_W8A8=False, GROUP_SIZE_K=0, GROUP_SIZE_N=0)
        ref = _moe_reference(torch, a, w, topk_ids, topk_weights, mul_weight)
        if with_ep:
            off_rank = torch.tensor([expert_map[e] == -1 for e in range(E)], device="cuda")[topk_ids.long()]
            ref[off_rank.flatten()] = 0.0
        return [("c", c, ref, 3e-2, 3e-2)]
    return run


def _run_moe_int8(torch):
    gen = torch.Generator(device="cuda").manual_seed(11)
    tokens, E, top_k, N, K = 29, 4, 2, 192, 256
    cfg = dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64, GROUP_M=1)
    a_f = torch.randn(tokens, K, device="cuda", generator=gen)
    a_scale = a_f.abs().amax(dim=1) / 127.0
    a = torch.round(a_f / a_scale[:, None]).clamp(-128, 127).to(torch.int8)
    w_f = torch.randn(E, K, N, device="cuda", generator=gen)
    w_scale = w_f.abs().amax(dim=1) / 127.0  # [E, N]
    w = torch.round(w_f / w_scale[:, None, :]).clamp(-128, 127).to(torch.int8)
    topk_weights, topk_ids = _moe_inputs(torch, gen, tokens, E, top_k)
    sorted_ids, expert_ids, ntpp = _align_host(torch, topk_ids, E, cfg["BLOCK_M"])
    c = torch.empty(tokens * top_k, N, device="cuda", dtype=torch.bfloat16)
    _launch_moe(fused_moe_kernel, a, w, c, sorted_ids, expert_ids, ntpp, topk_weights, N, K, top_k, cfg,
                [a_scale, w_scale], [a_scale.stride(0), 0, w_scale.stride(0), 0, w_scale.stride(1)],
                MUL_ROUTED_WEIGHT=True, USE_INT8_W8A8=True, USE_FP8_W8A8=False, GROUP_SIZE_K=0, GROUP_SIZE_N=0)
    deq_a = a.float() * a_scale[:, None]
    deq_w = w.float() * w_scale[:, None, :]
    ref = _moe_reference(torch, deq_a, deq_w, topk_ids, topk_weights, True)
    return [("c", c, ref, 5e-2, 3e-2)]


def _run_moe_fp8_block(torch):
    gen = torch.Generator(device="cuda").manual_seed(12)
    tokens, E, top_k, N, K, blk = 21, 4, 2, 384, 512, 128
    cfg = dict(BLOCK_M=16, BLOCK_N=128, BLOCK_K=128, GROUP_M=8)
    a_f = torch.randn(tokens, K, device="cuda", generator=gen)
    a_s = a_f.reshape(tokens, K // blk, blk).abs().amax(-1) / 448.0  # [tokens, K/128]
    a = (a_f / a_s.repeat_interleave(blk, dim=1)).to(torch.float8_e4m3fn)
    w_f = torch.randn(E, K, N, device="cuda", generator=gen) / 16
    w_s = w_f.reshape(E, K // blk, blk, N // blk, blk).abs().amax(dim=(2, 4)) / 448.0  # [E, K/128, N/128]
    w_full_s = w_s.repeat_interleave(blk, dim=1).repeat_interleave(blk, dim=2)
    w = (w_f / w_full_s).to(torch.float8_e4m3fn)
    b_s = w_s.transpose(1, 2).contiguous()  # [E, N/128, K/128]
    topk_weights, topk_ids = _moe_inputs(torch, gen, tokens, E, top_k)
    sorted_ids, expert_ids, ntpp = _align_host(torch, topk_ids, E, cfg["BLOCK_M"])
    c = torch.empty(tokens * top_k, N, device="cuda", dtype=torch.bfloat16)
    _launch_moe(fused_moe_kernel, a, w, c, sorted_ids, expert_ids, ntpp, topk_weights, N, K, top_k, cfg,
                [a_s, b_s], [a_s.stride(0), a_s.stride(1), b_s.stride(0), b_s.stride(2), b_s.stride(1)],
                MUL_ROUTED_WEIGHT=False, USE_INT8_W8A8=False, USE_FP8_W8A8=True, GROUP_SIZE_K=blk,
                GROUP_SIZE_N=blk)
    deq_a = a.float() * a_s.repeat_interleave(blk, dim=1)
    deq_w = w.float() * w_full_s
    ref = _moe_reference(torch, deq_a, deq_w, topk_ids, topk_weights, False)
    return [("c", c, ref, 5e-2, 3e-2)]


def _run_moe_w4a16(has_zp):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(13)
        tokens, E, top_k, N, K, gs = 19, 4, 2, 256, 256, 64
        cfg = dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64, GROUP_M=1)
        a = (torch.randn(tokens, K, device="cuda", generator=gen) / 4).to(torch.float16)
        q = torch.randint(0, 16, (E, K, N), device="cuda", generator=gen, dtype=torch.int32)
        packed = (q[:, 0::2, :] | (q[:, 1::2, :] << 4)).to(torch.uint8)  # [E, K/2, N]
        scale = (torch.rand(E, K // gs, N, device="cuda", generator=gen) / 20 + 0.01).to(torch.float16)
        zq = torch.randint(0, 16, (E, K // gs, N), device="cuda", generator=gen, dtype=torch.int32)
        zp = (zq[:, :, 0::2] | (zq[:, :, 1::2] << 4)).to(torch.uint8)  # [E, K/gs, N/2]
        zero = zq.float() if has_zp else torch.full_like(zq, 8).float()
        w = (q.float() - zero.repeat_interleave(gs, dim=1)) * scale.float().repeat_interleave(gs, dim=1)
        w = w.to(torch.float16)
        topk_weights, topk_ids = _moe_inputs(torch, gen, tokens, E, top_k)
        sorted_ids, expert_ids, ntpp = _align_host(torch, topk_ids, E, cfg["BLOCK_M"])
        c = torch.empty(tokens * top_k, N, device="cuda", dtype=torch.float16)
        EM = sorted_ids.numel()
        grid = (triton.cdiv(EM, cfg["BLOCK_M"]) * triton.cdiv(N, cfg["BLOCK_N"]),)
        fused_moe_w4a16_kernel[grid](
            a, packed, c, scale, zp, topk_weights, sorted_ids, expert_ids, ntpp, N, K, EM, topk_weights.numel(),
            a.stride(0), a.stride(1), packed.stride(0), packed.stride(1), packed.stride(2), c.stride(0),
            c.stride(1), scale.stride(0), scale.stride(1), scale.stride(2), zp.stride(0), zp.stride(1),
            zp.stride(2), GROUP_SIZE=gs, TOP_K=top_k, MUL_ROUTED_WEIGHT=True, HAS_ZP=has_zp, **cfg,
            num_warps=4, num_stages=3)
        ref = _moe_reference(torch, a, w, topk_ids, topk_weights, True)
        return [("c", c, ref, 3e-2, 3e-2)]
    return run


# ----------------------------------------------------------------------------------------------
# moe_align_block_size in three launches: count tokens per expert (atomics), a one-program scan
# that pads each expert to BLOCK_M, writes expert ids per block and the total, and a scatter that
# claims positions with atomics (sorted_ids must be prefilled with the sentinel numel).
# ----------------------------------------------------------------------------------------------


@triton.jit
def moe_count_experts(topk_ids_ptr, counts_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    eid = tl.load(topk_ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + eid, 1, mask=mask, sem="relaxed")


@triton.jit
def moe_align_scan(counts_ptr, cursor_ptr, expert_ids_ptr, total_ptr, num_experts,
                   BLOCK_M: tl.constexpr, EXPERTS_PAD: tl.constexpr):
    offs_e = tl.arange(0, EXPERTS_PAD)
    e_mask = offs_e < num_experts
    counts = tl.load(counts_ptr + offs_e, mask=e_mask, other=0)
    padded = tl.cdiv(counts, BLOCK_M) * BLOCK_M
    ends = tl.cumsum(padded, axis=0)
    starts = ends - padded
    tl.store(cursor_ptr + offs_e, starts, mask=e_mask)
    tl.store(total_ptr, tl.sum(padded, axis=0))
    for e in range(num_experts):
        start = tl.load(cursor_ptr + e)
        end = start + tl.cdiv(tl.load(counts_ptr + e), BLOCK_M) * BLOCK_M
        for blk in range(start // BLOCK_M, end // BLOCK_M):
            tl.store(expert_ids_ptr + blk, e)


@triton.jit
def moe_align_scatter(topk_ids_ptr, cursor_ptr, sorted_ids_ptr, numel, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    eid = tl.load(topk_ids_ptr + offs, mask=mask, other=0)
    pos = tl.atomic_add(cursor_ptr + eid, 1, mask=mask)
    tl.store(sorted_ids_ptr + pos, offs, mask=mask)


def _run_moe_align(torch):
    gen = torch.Generator(device="cuda").manual_seed(14)
    tokens, E, top_k, block_m = 203, 12, 2, 16
    topk_ids = torch.stack([torch.randperm(E, device="cuda", generator=gen)[:top_k] for _ in range(tokens)])
    topk_ids = topk_ids.to(torch.int32).contiguous()
    numel = topk_ids.numel()
    max_padded = numel + E * (block_m - 1)
    counts = torch.zeros(E, dtype=torch.int32, device="cuda")
    cursor = torch.empty(E, dtype=torch.int32, device="cuda")
    expert_ids = torch.full((triton.cdiv(max_padded, block_m),), -7, dtype=torch.int32, device="cuda")
    total = torch.empty(1, dtype=torch.int32, device="cuda")
    sorted_ids = torch.full((max_padded,), numel, dtype=torch.int32, device="cuda")
    moe_count_experts[(triton.cdiv(numel, 256),)](topk_ids, counts, numel, BLOCK=256, num_warps=4)
    moe_align_scan[(1,)](counts, cursor, expert_ids, total, E, BLOCK_M=block_m, EXPERTS_PAD=16, num_warps=1)
    moe_align_scatter[(triton.cdiv(numel, 256),)](topk_ids, cursor, sorted_ids, numel, BLOCK=256, num_warps=4)
    ref_sorted, ref_experts, ref_total = _align_host(torch, topk_ids, E, block_m)
    n = ref_total.item()
    # the order inside an expert's segment depends on atomics: compare each segment as a set
    got_seg = sorted_ids[:n].reshape(-1, block_m).sort(dim=1).values
    ref_seg = ref_sorted.reshape(-1, block_m).sort(dim=1).values
    flat_ids = topk_ids.flatten()
    got_experts = flat_ids[sorted_ids[:n].clamp(max=numel - 1).long()].where(sorted_ids[:n] < numel,
                                                                            torch.tensor(-1, device="cuda"))
    ref_experts_per_row = flat_ids[ref_sorted.clamp(max=numel - 1).long()].where(ref_sorted < numel,
                                                                                torch.tensor(-1, device="cuda"))
    return [("total", total, ref_total, 0, 0), ("expert_ids", expert_ids[:n // block_m], ref_experts, 0, 0),
            ("counts", counts, torch.bincount(flat_ids.long(), minlength=E).to(torch.int32), 0, 0),
            ("rows per expert", got_experts.sort().values, ref_experts_per_row.sort().values, 0, 0),
            ("segments", got_seg.sum(dim=1), ref_seg.sum(dim=1), 0, 0)]


# ----------------------------------------------------------------------------------------------
# Top-k softmax gating: one program per token; softmax over the experts in fp32, then TOP_K
# rounds of argmax with the chosen expert masked out; optional renormalisation.
# ----------------------------------------------------------------------------------------------


@triton.jit
def topk_softmax_gating(logits_ptr, weights_ptr, ids_ptr, num_experts, stride_l,
                        EXPERTS_PAD: tl.constexpr, TOP_K: tl.constexpr, RENORMALIZE: tl.constexpr):
    tok = tl.program_id(0)
    offs = tl.arange(0, EXPERTS_PAD)
    mask = offs < num_experts
    x = tl.load(logits_ptr + tok * stride_l + offs, mask=mask, other=float("-inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    p = num / tl.sum(num, axis=0)
    total = 0.0
    for j in tl.static_range(TOP_K):
        best = tl.argmax(p, axis=0)
        w = tl.max(p, axis=0)
        tl.store(ids_ptr + tok * TOP_K + j, best.to(tl.int32))
        tl.store(weights_ptr + tok * TOP_K + j, w)
        total += w
        p = tl.where(offs == best, -1.0, p)
    if RENORMALIZE:
        offs_k = tl.arange(0, TOP_K)
        ws = tl.load(weights_ptr + tok * TOP_K + offs_k)
        tl.store(weights_ptr + tok * TOP_K + offs_k, ws / total)


def _run_gating(renorm):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(15)
        tokens, E, top_k = 67, 60, 4
        logits = torch.randn(tokens, E, device="cuda", generator=gen).to(torch.bfloat16)
        w = torch.empty(tokens, top_k, device="cuda")
        ids = torch.empty(tokens, top_k, device="cuda", dtype=torch.int32)
        topk_softmax_gating[(tokens,)](logits, w, ids, E, logits.stride(0), EXPERTS_PAD=64, TOP_K=top_k,
                                       RENORMALIZE=renorm, num_warps=1)
        ref_w, ref_ids = torch.topk(torch.softmax(logits.float(), dim=-1), top_k, dim=-1)
        if renorm:
            ref_w = ref_w / ref_w.sum(-1, keepdim=True)
        return [("weights", w, ref_w, 1e-5, 1e-5), ("ids", ids, ref_ids, 0, 0)]
    return run


# ----------------------------------------------------------------------------------------------
# Dynamic quantisation. Per token: absmax over the row (looped over the hidden size), scale, then
# a second pass that scales, clamps and casts. Per token group (DeepSeek 1x128): one program per
# group of GROUP_SIZE columns of a row.
# ----------------------------------------------------------------------------------------------


@triton.jit
def per_token_quant(x_ptr, y_ptr, scale_ptr, hidden, stride_x, stride_y, QMAX: tl.constexpr,
                    BLOCK: tl.constexpr, TO_INT8: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    absmax = tl.zeros([BLOCK], tl.float32)
    for i in range(0, hidden, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride_x + offs, mask=offs < hidden, other=0.0).to(tl.float32)
        absmax = tl.maximum(absmax, tl.abs(x))
    scale = tl.maximum(tl.max(absmax, axis=0), 1e-10) / QMAX
    tl.store(scale_ptr + row, scale)
    inv = 1.0 / scale
    for i in range(0, hidden, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        m = offs < hidden
        x = tl.load(x_ptr + row * stride_x + offs, mask=m, other=0.0).to(tl.float32)
        y = x * inv
        if TO_INT8:
            y = libdevice.rint(y)
        y = tl.clamp(y, -QMAX, QMAX)
        tl.store(y_ptr + row * stride_y + offs, y.to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def per_token_group_quant_fp8(x_ptr, y_ptr, s_ptr, group_size, num_groups_per_row, eps, fp8_min, fp8_max,
                              BLOCK: tl.constexpr, SCALE_UE8M0: tl.constexpr):
    g = tl.program_id(0)
    row = g // num_groups_per_row
    col_group = g % num_groups_per_row
    offs = tl.arange(0, BLOCK)
    mask = offs < group_size
    base = g.to(tl.int64) * group_size
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x)), eps)
    s = amax / fp8_max
    if SCALE_UE8M0:
        s = tl.exp2(tl.ceil(tl.log2(tl.abs(s))))
    y = tl.clamp(x / s, fp8_min, fp8_max).to(y_ptr.dtype.element_ty)
    tl.store(y_ptr + base + offs, y, mask=mask)
    tl.store(s_ptr + row * num_groups_per_row + col_group, s)


def _run_per_token_quant(to_int8):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(16)
        rows, hidden = 33, 1000
        x = (torch.randn(rows, hidden, device="cuda", generator=gen) * 3).to(torch.bfloat16)
        qmax = 127.0 if to_int8 else 448.0
        y = torch.empty(rows, hidden, device="cuda", dtype=torch.int8 if to_int8 else torch.float8_e4m3fn)
        s = torch.empty(rows, device="cuda")
        per_token_quant[(rows,)](x, y, s, hidden, x.stride(0), y.stride(0), QMAX=qmax, BLOCK=256,
                                 TO_INT8=to_int8, num_warps=4)
        ref_s = x.float().abs().amax(dim=1).clamp(min=1e-10) / qmax
        scaled = x.float() * (1.0 / ref_s)[:, None]
        if to_int8:
            ref_y = torch.round(scaled).clamp(-qmax, qmax)
            return [("scale", s, ref_s, 0, 1e-6), ("y", y.float(), ref_y, 1.0, 0)]
        ref_y = scaled.clamp(-qmax, qmax).to(torch.float8_e4m3fn).float()
        return [("scale", s, ref_s, 0, 1e-6), ("y dequant", y.float() * s[:, None], ref_y * ref_s[:, None],
                                                  1e-2, 0.07)]
    return run


def _run_group_quant(ue8m0):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(17)
        rows, hidden, gs = 19, 512, 128
        x = (torch.randn(rows, hidden, device="cuda", generator=gen) * 2).to(torch.bfloat16)
        y = torch.empty(rows, hidden, device="cuda", dtype=torch.float8_e4m3fn)
        s = torch.empty(rows, hidden // gs, device="cuda")
        per_token_group_quant_fp8[(rows * hidden // gs,)](x, y, s, gs, hidden // gs, 1e-10, -448.0, 448.0,
                                                           BLOCK=128, SCALE_UE8M0=ue8m0, num_warps=1)
        g = x.float().reshape(rows, hidden // gs, gs)
        ref_s = g.abs().amax(-1).clamp(min=1e-10) / 448.0
        if ue8m0:
            ref_s = torch.exp2(torch.ceil(torch.log2(ref_s)))
        ref_y = (g / ref_s[..., None]).clamp(-448.0, 448.0).to(torch.float8_e4m3fn).float()
        return [("scale", s, ref_s, 0, 1e-6),
                ("y", y.float().reshape(rows, hidden // gs, gs), ref_y, 0, 0.07)]
    return run


# ----------------------------------------------------------------------------------------------
# Sampling helpers. Temperature + top-k: each row's K largest logits through tl.topk; values below
# the K-th are masked to -inf, the rest divided by the temperature. Top-p style thresholding
# through a full descending tl.sort and a cumulative softmax. Repetition penalty: the logits of
# previously generated tokens gathered, penalised and scattered back.
# ----------------------------------------------------------------------------------------------


@triton.jit
def temperature_topk_mask(logits_ptr, out_ptr, temperature_ptr, vocab, stride_l, stride_o,
                          VOCAB_PAD: tl.constexpr, TOP_K: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, VOCAB_PAD)
    mask = offs < vocab
    x = tl.load(logits_ptr + row * stride_l + offs, mask=mask, other=float("-inf")).to(tl.float32)
    top = tl.topk(x, TOP_K, dim=0)
    kth = tl.min(top, axis=0)
    t = tl.load(temperature_ptr + row)
    y = tl.where(x >= kth, x / t, float("-inf"))
    tl.store(out_ptr + row * stride_o + offs, y, mask=mask)


@triton.jit
def top_p_threshold(logits_ptr, thresh_ptr, top_p_ptr, vocab, stride_l, VOCAB_PAD: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, VOCAB_PAD)
    x = tl.load(logits_ptr + row * stride_l + offs, mask=offs < vocab, other=float("-inf")).to(tl.float32)
    sorted_x = tl.sort(x, dim=0, descending=True)
    probs = tl.exp(sorted_x - tl.max(sorted_x, axis=0))
    probs = probs / tl.sum(probs, axis=0)
    cum = tl.cumsum(probs, axis=0)
    top_p = tl.load(top_p_ptr + row)
    # keep the smallest prefix whose mass reaches top_p: the threshold is the last kept logit
    keep = (cum - probs) < top_p
    tl.store(thresh_ptr + row, tl.min(tl.where(keep, sorted_x, float("inf")), axis=0))


@triton.jit
def apply_repetition_penalty(logits_ptr, token_ids_ptr, penalties_ptr, num_tokens_ptr, stride_l, stride_t,
                             BLOCK: tl.constexpr):
    row = tl.program_id(0)
    n = tl.load(num_tokens_ptr + row)
    penalty = tl.load(penalties_ptr + row)
    for i in range(0, n, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        m = offs < n
        ids = tl.load(token_ids_ptr + row * stride_t + offs, mask=m, other=0)
        l = tl.load(logits_ptr + row * stride_l + ids, mask=m, other=0.0)
        l = tl.where(l > 0, l / penalty, l * penalty)
        tl.store(logits_ptr + row * stride_l + ids, l, mask=m)


def _run_topk_mask(torch):
    gen = torch.Generator(device="cuda").manual_seed(18)
    rows, vocab, k = 6, 1000, 16
    logits = torch.randn(rows, vocab, device="cuda", generator=gen)
    temps = torch.rand(rows, device="cuda", generator=gen) + 0.5
    out = torch.empty_like(logits)
    temperature_topk_mask[(rows,)](logits, out, temps, vocab, logits.stride(0), out.stride(0), VOCAB_PAD=1024,
                                   TOP_K=k, num_warps=4)
    kth = torch.topk(logits, k, dim=-1).values[:, -1:]
    ref = torch.where(logits >= kth, logits / temps[:, None], torch.tensor(float("-inf"), device="cuda"))
    return [("masked logits", out, ref, 1e-6, 1e-6)]


def _run_top_p(torch):
    gen = torch.Generator(device="cuda").manual_seed(19)
    rows, vocab = 5, 777
    logits = torch.randn(rows, vocab, device="cuda", generator=gen) * 2
    top_p = torch.tensor([0.1, 0.5, 0.9, 0.95, 1.0], device="cuda")
    th = torch.empty(rows, device="cuda")
    top_p_threshold[(rows,)](logits, th, top_p, vocab, logits.stride(0), VOCAB_PAD=1024, num_warps=8)
    sx, _ = torch.sort(logits, dim=-1, descending=True)
    probs = torch.softmax(sx, dim=-1)
    keep = (probs.cumsum(-1) - probs) < top_p[:, None]
    ref = torch.where(keep, sx, torch.tensor(float("inf"), device="cuda")).amin(-1)
    return [("threshold", th, ref, 1e-6, 0)]


def _run_rep_penalty(torch):
    gen = torch.Generator(device="cuda").manual_seed(20)
    rows, vocab, max_prev = 4, 3000, 300
    logits = torch.randn(rows, vocab, device="cuda", generator=gen)
    prev = torch.randint(0, vocab, (rows, max_prev), device="cuda", generator=gen, dtype=torch.int32)
    n = torch.tensor([0, 1, 130, 300], dtype=torch.int32, device="cuda")
    pen = torch.tensor([1.2, 1.5, 1.1, 2.0], device="cuda")
    ref = logits.clone()
    for r in range(rows):
        ids = prev[r, :n[r]].long().unique()
        v = ref[r, ids]
        ref[r, ids] = torch.where(v > 0, v / pen[r], v * pen[r])
    apply_repetition_penalty[(rows,)](logits, prev, pen, n, logits.stride(0), prev.stride(0), BLOCK=128,
                                      num_warps=4)
    return [("logits", logits, ref, 1e-6, 1e-6)]


# ----------------------------------------------------------------------------------------------

_MOE_PTR_ARGS = ("a_ptr", "b_ptr", "c_ptr", "a_scale_ptr", "b_scale_ptr", "topk_weights_ptr",
                 "sorted_token_ids_ptr", "expert_ids_ptr", "num_tokens_post_padded_ptr")
_MOE_INT_ARGS = ("N", "K", "EM", "num_valid_tokens", "stride_am", "stride_ak", "stride_be", "stride_bk", "stride_bn",
                 "stride_cm", "stride_cn", "stride_asm", "stride_ask", "stride_bse", "stride_bsk", "stride_bsn")


def _moe_sig(a, b, c, a_scale="*fp32", b_scale="*fp32"):
    types = [a, b, c, a_scale, b_scale, "*fp32", "*i32", "*i32", "*i32"]
    return {**dict(zip(_MOE_PTR_ARGS, types)), **{k: "i32" for k in _MOE_INT_ARGS}}


def _moe_consts(cfg, **flags):
    base = dict(GROUP_SIZE_K=0, GROUP_SIZE_N=0, MUL_ROUTED_WEIGHT=True, TOP_K=2, USE_INT8_W8A8=False,
                USE_FP8_W8A8=False)
    base.update(cfg)
    base.update(flags)
    return base


_W4_SIG = {"a_ptr": "*fp16", "b_ptr": "*u8", "c_ptr": "*fp16", "b_scale_ptr": "*fp16", "b_zp_ptr": "*u8",
           "topk_weights_ptr": "*fp32", "sorted_token_ids_ptr": "*i32", "expert_ids_ptr": "*i32",
           "num_tokens_post_padded_ptr": "*i32",
           **{k: "i32" for k in ("N", "K", "EM", "num_valid_tokens", "stride_am", "stride_ak", "stride_be",
                                 "stride_bk", "stride_bn", "stride_cm", "stride_cn", "stride_bse", "stride_bsk",
                                 "stride_bsn", "stride_bze", "stride_bzk", "stride_bzn")}}
# N = K = 256, 19 tokens, top 2, BLOCK_M 16, 4 experts, group 64: packed B [4, 128, 256], scales
# [4, 4, 256], zero points [4, 4, 128]
_W4_INTS = dict(N=256, K=256, EM=96, num_valid_tokens=38, stride_am=256, stride_ak=1, stride_be=32768,
                stride_bk=256, stride_bn=1, stride_cm=256, stride_cn=1, stride_bse=1024, stride_bsk=256, stride_bsn=1,
                stride_bze=512, stride_bzk=128, stride_bzn=1)

_CFG_SMALL = dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64, GROUP_M=1)
_CFG_MID = dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=8)
_CFG_BIG = dict(BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, GROUP_M=16)


def _moe_ints(N, K, E, top_k, tokens, block_m, a_scale=(0, 0), b_scale=(0, 0, 0)):
    """The integer arguments of a fused-MoE launch over contiguous A [tokens, K], B [E, K, N] and
    C [tokens * top_k, N]; EM, the padded length, is a multiple of BLOCK_M as run() makes it."""
    return dict(N=N, K=K, EM=triton.cdiv(tokens * top_k + E * (block_m - 1), block_m) * block_m, num_valid_tokens=tokens * top_k, stride_am=K,
                stride_ak=1, stride_be=K * N, stride_bk=N, stride_bn=1, stride_cm=N, stride_cn=1,
                stride_asm=a_scale[0], stride_ask=a_scale[1], stride_bse=b_scale[0], stride_bsk=b_scale[1],
                stride_bsn=b_scale[2])


_QUANT_SIG = {"x_ptr": "*bf16", "y_ptr": "*fp8e4nv", "scale_ptr": "*fp32", "hidden": "i32", "stride_x": "i32",
              "stride_y": "i32"}
_GROUP_QUANT_SIG = {"x_ptr": "*bf16", "y_ptr": "*fp8e4nv", "s_ptr": "*fp32", "group_size": "i32",
                    "num_groups_per_row": "i32", "eps": "fp32", "fp8_min": "fp32", "fp8_max": "fp32"}
_GATING_SIG = {"logits_ptr": "*bf16", "weights_ptr": "*fp32", "ids_ptr": "*i32", "num_experts": "i32",
               "stride_l": "i32"}

CASES = [
    launched_case("fused_moe_bf16_m16_s3", fused_moe_kernel, _moe_sig("*bf16", "*bf16", "*bf16"),
                  _moe_consts(_CFG_SMALL), _moe_ints(200, 160, 8, 2, 37, 16), opts=dict(num_warps=4, num_stages=3),
                  run=_run_moe_bf16(_CFG_SMALL, True, "bfloat16", False)),
    launched_case("fused_moe_bf16_m64_s4_ep", fused_moe_kernel, _moe_sig("*bf16", "*bf16", "*bf16"),
                  _moe_consts(_CFG_MID), _moe_ints(200, 160, 8, 2, 37, 64), opts=dict(num_warps=4, num_stages=4),
                  run=_run_moe_bf16(_CFG_MID, True, "bfloat16", True)),
    launched_case("fused_moe_fp16_m64n128_s2_noweight", fused_moe_kernel, _moe_sig("*fp16", "*fp16", "*fp16"),
                  _moe_consts(_CFG_BIG, MUL_ROUTED_WEIGHT=False), _moe_ints(200, 160, 8, 2, 37, 64),
                  opts=dict(num_warps=8, num_stages=2), run=_run_moe_bf16(_CFG_BIG, False, "float16", False)),
    launched_case("fused_moe_int8_w8a8", fused_moe_kernel, _moe_sig("*i8", "*i8", "*bf16"),
                  _moe_consts(_CFG_SMALL, USE_INT8_W8A8=True),
                  _moe_ints(192, 256, 4, 2, 29, 16, a_scale=(1, 0), b_scale=(192, 0, 1)),
                  opts=dict(num_warps=4, num_stages=3), run=_run_moe_int8),
    launched_case("fused_moe_fp8_w8a8_block128", fused_moe_kernel, _moe_sig("*fp8e4nv", "*fp8e4nv", "*bf16"),
                  _moe_consts(dict(BLOCK_M=16, BLOCK_N=128, BLOCK_K=128, GROUP_M=8), USE_FP8_W8A8=True,
                              GROUP_SIZE_K=128, GROUP_SIZE_N=128, MUL_ROUTED_WEIGHT=False),
                  _moe_ints(384, 512, 4, 2, 21, 16, a_scale=(4, 1), b_scale=(12, 1, 4)),
                  opts=dict(num_warps=4, num_stages=3), targets=("cuda:90",), run=_run_moe_fp8_block),
    launched_case("fused_moe_w4a16_zp", fused_moe_w4a16_kernel, _W4_SIG,
                  dict(GROUP_SIZE=64, TOP_K=2, MUL_ROUTED_WEIGHT=True, HAS_ZP=True, **_CFG_SMALL),
                  _W4_INTS, opts=dict(num_warps=4, num_stages=3), run=_run_moe_w4a16(True)),
    launched_case("fused_moe_w4a16_symmetric", fused_moe_w4a16_kernel, _W4_SIG,
                  dict(GROUP_SIZE=64, TOP_K=2, MUL_ROUTED_WEIGHT=True, HAS_ZP=False, **_CFG_SMALL),
                  _W4_INTS, opts=dict(num_warps=4, num_stages=2), run=_run_moe_w4a16(False)),
    launched_case("moe_count_experts", moe_count_experts,
                  {"topk_ids_ptr": "*i32", "counts_ptr": "*i32", "numel": "i32"}, dict(BLOCK=256), dict(numel=406),
                  opts=dict(num_warps=4), run=_run_moe_align),
    launched_case("moe_align_scan", moe_align_scan,
                  {"counts_ptr": "*i32", "cursor_ptr": "*i32", "expert_ids_ptr": "*i32", "total_ptr": "*i32",
                   "num_experts": "i32"}, dict(BLOCK_M=16, EXPERTS_PAD=16), dict(num_experts=12),
                  opts=dict(num_warps=1)),
    launched_case("moe_align_scatter", moe_align_scatter,
                  {"topk_ids_ptr": "*i32", "cursor_ptr": "*i32", "sorted_ids_ptr": "*i32", "numel": "i32"},
                  dict(BLOCK=256), dict(numel=406), opts=dict(num_warps=4)),
    launched_case("topk_softmax_gating_renorm", topk_softmax_gating, _GATING_SIG,
                  dict(EXPERTS_PAD=64, TOP_K=4, RENORMALIZE=True), dict(num_experts=60, stride_l=60),
                  opts=dict(num_warps=1), run=_run_gating(True)),
    launched_case("topk_softmax_gating", topk_softmax_gating, _GATING_SIG,
                  dict(EXPERTS_PAD=64, TOP_K=4, RENORMALIZE=False), dict(num_experts=60, stride_l=60),
                  opts=dict(num_warps=1), run=_run_gating(False)),
    launched_case("per_token_quant_fp8", per_token_quant, _QUANT_SIG, dict(QMAX=448.0, BLOCK=256, TO_INT8=False),
                  dict(hidden=1000, stride_x=1000, stride_y=1000), opts=dict(num_warps=4), targets=("cuda:90",),
                  run=_run_per_token_quant(False)),
    launched_case("per_token_quant_int8", per_token_quant, {**_QUANT_SIG, "y_ptr": "*i8"},
                  dict(QMAX=127.0, BLOCK=256, TO_INT8=True), dict(hidden=1000, stride_x=1000, stride_y=1000),
                  opts=dict(num_warps=4), run=_run_per_token_quant(True)),
    launched_case("per_token_group_quant_fp8", per_token_group_quant_fp8, _GROUP_QUANT_SIG,
                  dict(BLOCK=128, SCALE_UE8M0=False), dict(group_size=128, num_groups_per_row=4),
                  opts=dict(num_warps=1), targets=("cuda:90",), run=_run_group_quant(False)),
    launched_case("per_token_group_quant_fp8_ue8m0", per_token_group_quant_fp8, _GROUP_QUANT_SIG,
                  dict(BLOCK=128, SCALE_UE8M0=True), dict(group_size=128, num_groups_per_row=4),
                  opts=dict(num_warps=1), targets=("cuda:90",), run=_run_group_quant(True)),
    launched_case("sampling_temperature_topk", temperature_topk_mask,
                  {"logits_ptr": "*fp32", "out_ptr": "*fp32", "temperature_ptr": "*fp32", "vocab": "i32",
                   "stride_l": "i32", "stride_o": "i32"}, dict(VOCAB_PAD=1024, TOP_K=16),
                  dict(vocab=1000, stride_l=1000, stride_o=1000), opts=dict(num_warps=4), run=_run_topk_mask),
    launched_case("sampling_top_p_sort", top_p_threshold,
                  {"logits_ptr": "*fp32", "thresh_ptr": "*fp32", "top_p_ptr": "*fp32", "vocab": "i32",
                   "stride_l": "i32"}, dict(VOCAB_PAD=1024), dict(vocab=777, stride_l=777), opts=dict(num_warps=8),
                  run=_run_top_p),
    launched_case("sampling_repetition_penalty", apply_repetition_penalty,
                  {"logits_ptr": "*fp32", "token_ids_ptr": "*i32", "penalties_ptr": "*fp32", "num_tokens_ptr": "*i32",
                   "stride_l": "i32", "stride_t": "i32"}, dict(BLOCK=128), dict(stride_l=3000, stride_t=300),
                  opts=dict(num_warps=4), run=_run_rep_penalty),
]
