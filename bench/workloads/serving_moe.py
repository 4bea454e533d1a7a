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

# launch options (num_warps, num_stages) shared by a case and its run()
_O42, _O43, _O44, _O82 = (dict(num_warps=w, num_stages=n) for w, n in ((4, 2), (4, 3), (4, 4), (8, 2)))

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
                extra_strides, opts, **flags):
    EM = sorted_ids.numel()
    grid = (triton.cdiv(EM, cfg["BLOCK_M"]) * triton.cdiv(N, cfg["BLOCK_N"]),)
    kernel[grid](a, b, c, *extra_ptrs[:2], topk_weights, sorted_ids, expert_ids, ntpp, N, K, EM,
                 topk_weights.numel(), a.stride(0), a.stride(1), b.stride(0), b.stride(1), b.stride(2), c.stride(0),
                 c.stride(1), *extra_strides, TOP_K=top_k, **cfg, **flags, **opts)


def _run_moe_bf16(cfg, mul_weight, dtype_name, with_ep, opts):
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
                    [dummy, dummy], [0, 0, 0, 0, 0], opts, MUL_ROUTED_WEIGHT=mul_weight, USE_INT8_W8A8=False,
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
                [a_scale, w_scale], [a_scale.stride(0), 0, w_scale.stride(0), 0, w_scale.stride(1)], _O43,
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
                [a_s, b_s], [a_s.stride(0), a_s.stride(1), b_s.stride(0), b_s.stride(2), b_s.stride(1)], _O43,
                MUL_ROUTED_WEIGHT=False, USE_INT8_W8A8=False, USE_FP8_W8A8=True, GROUP_SIZE_K=blk,
                GROUP_SIZE_N=blk)
    deq_a = a.float() * a_s.repeat_interleave(blk, dim=1)
    deq_w = w.float() * w_full_s
    ref = _moe_reference(torch, deq_a, deq_w, topk_ids, topk_weights, False)
    return [("c", c, ref, 5e-2, 3e-2)]


def _run_moe_w4a16(has_zp, opts):
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
            zp.stride(2), GROUP_SIZE=gs, TOP_K=top_k, MUL_ROUTED_WEIGHT=True, HAS_ZP=has_zp, **cfg, **opts)
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
    # each expert's blocks, from the scan in registers (reading cursor back would race its store)
    for e in range(num_experts):
        first_block = tl.sum(tl.where(offs_e == e, starts, 0), axis=0) // BLOCK_M
        num_blocks = tl.sum(tl.where(offs_e == e, padded, 0), axis=0) // BLOCK_M
        for blk in range(first_block, first_block + num_blocks):
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
    # the order inside an expert's segment depends on the atomics: compare each segment as a
    # multiset, keyed by the segment's expert (sentinels included)
    seg_expert = ref_experts.long().repeat_interleave(block_m)
    got_keys = (seg_expert * (numel + 1) + sorted_ids[:n].long()).sort().values
    ref_keys = (seg_expert * (numel + 1) + ref_sorted.long()).sort().values
    flat_ids = topk_ids.flatten()
    return [("total", total, ref_total, 0, 0), ("expert_ids", expert_ids[:n // block_m], ref_experts, 0, 0),
            ("counts", counts, torch.bincount(flat_ids.long(), minlength=E).to(torch.int32), 0, 0),
            ("segments", got_keys, ref_keys, 0, 0)]


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
    offs_k = tl.arange(0, TOP_K)
    top_w = tl.zeros([TOP_K], tl.float32)
    top_ids = tl.zeros([TOP_K], tl.int32)
    for j in tl.static_range(TOP_K):
        best = tl.argmax(p, axis=0)
        w = tl.max(p, axis=0)
        top_w = tl.where(offs_k == j, w, top_w)
        top_ids = tl.where(offs_k == j, best.to(tl.int32), top_ids)
        p = tl.where(offs == best, -1.0, p)
    if RENORMALIZE:
        top_w = top_w / tl.sum(top_w, axis=0)
    tl.store(weights_ptr + tok * TOP_K + offs_k, top_w)
    tl.store(ids_ptr + tok * TOP_K + offs_k, top_ids)


def _run_gating(renorm):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(15)
        tokens, E, top_k = 67, 60, 4
        logits = torch.randn(tokens, E, device="cuda", generator=gen).to(torch.bfloat16)
        w = torch.empty(tokens, top_k, device="cuda")
        ids = torch.empty(tokens, top_k, device="cuda", dtype=torch.int32)
        topk_softmax_gating[(tokens,)](logits, w, ids, E, logits.stride(0), EXPERTS_PAD=64, TOP_K=top_k,
                                       RENORMALIZE=renorm, num_warps=1)
        probs = torch.softmax(logits.float(), dim=-1)
        ref_p, _ = torch.topk(probs, top_k, dim=-1)
        ref_w = ref_p / ref_p.sum(-1, keepdim=True) if renorm else ref_p
        # bf16 logits tie, and torch.topk orders tied experts its own way: the ids are checked
        # through the probabilities they pick (the k largest, in order), not one by one.
        picked = torch.gather(probs, 1, ids.long())
        return [("weights", w, ref_w, 1e-5, 1e-5), ("probabilities of the ids", picked, ref_p, 1e-6, 0)]
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
        # a value at a rounding midpoint may land one fp8 step (12.5 %) away
        return [("scale", s, ref_s, 0, 1e-6), ("y dequant", y.float() * s[:, None], ref_y * ref_s[:, None],
                                                  1e-2, 0.13)]
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
                ("y", y.float().reshape(rows, hidden // gs, gs), ref_y, 0, 0.13)]
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
    top_p = torch.tensor([0.1, 0.5, 0.8, 0.9, 0.99], device="cuda")
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
    # distinct tokens per row (a token listed twice would be penalised twice)
    prev = torch.stack([torch.randperm(vocab, device="cuda", generator=gen)[:max_prev] for _ in range(rows)])
    prev = prev.to(torch.int32).contiguous()
    n = torch.tensor([0, 1, 130, 300], dtype=torch.int32, device="cuda")
    pen = torch.tensor([1.2, 1.5, 1.1, 2.0], device="cuda")
    ref = logits.clone()
    for r in range(rows):
        ids = prev[r, :n[r]].long()
        v = ref[r, ids]
        ref[r, ids] = torch.where(v > 0, v / pen[r], v * pen[r])
    apply_repetition_penalty[(rows,)](logits, prev, pen, n, logits.stride(0), prev.stride(0), BLOCK=128,
                                      num_warps=4)
    return [("logits", logits, ref, 1e-6, 1e-6)]


# ----------------------------------------------------------------------------------------------
# Multi-LoRA (punica style). Tokens are grouped by adapter: token_indices_sorted lists the tokens
# of lora_ids[i] from lora_token_start[i], num_tokens_per_lora[i] of them. Each slice of a merged
# projection (q/k/v) has its own stacked adapter weights, reached through a table of raw pointers.
# Shrink: x [M, K] @ A[lora]^T -> [slices, M, R], split over K with atomics. Expand:
# out[:, slice_start + n] (+)= buf[slice] @ B[lora]^T.
# ----------------------------------------------------------------------------------------------


@triton.jit
def _lora_rows(lora_ids_ptr, num_tokens_per_lora_ptr, lora_token_start_ptr, token_indices_sorted_ptr, pid_m,
               BLOCK_M: tl.constexpr):
    """The adapter of this program and its rows (tokens), or -1 when it has nothing to do."""
    lora_idx = tl.program_id(2)
    lora_id = tl.load(lora_ids_ptr + lora_idx)
    m_size = tl.load(num_tokens_per_lora_ptr + lora_idx)
    m_off = pid_m * BLOCK_M
    busy = (lora_id != -1) & (m_off < m_size)
    start = tl.load(lora_token_start_ptr + lora_idx)
    offs = tl.arange(0, BLOCK_M)
    row_mask = offs < m_size - m_off
    rows = tl.load(token_indices_sorted_ptr + start + m_off + offs, mask=row_mask, other=0)
    return tl.where(busy, lora_id, -1), rows, row_mask


@triton.jit
def lora_shrink(x_ptr, lora_a_table_ptr, out_ptr, lora_ids_ptr, num_tokens_per_lora_ptr, lora_token_start_ptr,
                token_indices_sorted_ptr, M, N, K, scaling, stride_xm, stride_xk, stride_l0, stride_ln, stride_lk,
                stride_os, stride_om, stride_on,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid_sk_mn = tl.program_id(0)
    slice_id = tl.program_id(1)
    pid_sk = pid_sk_mn % SPLIT_K
    pid_mn = pid_sk_mn // SPLIT_K
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid_mn // num_pid_n
    pid_n = pid_mn % num_pid_n
    lora_id, rows, row_mask = _lora_rows(lora_ids_ptr, num_tokens_per_lora_ptr, lora_token_start_ptr,
                                         token_indices_sorted_ptr, pid_m, BLOCK_M)
    if lora_id == -1:
        return
    w_ptr = tl.load(lora_a_table_ptr + slice_id).to(tl.pointer_type(x_ptr.dtype.element_ty))
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = pid_sk * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = x_ptr + rows[:, None] * stride_xm + offs_k[None, :] * stride_xk
    b_ptrs = w_ptr + lora_id * stride_l0 + offs_n[None, :] * stride_ln + offs_k[:, None] * stride_lk
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_left = K - k * BLOCK_K * SPLIT_K
        a = tl.load(a_ptrs, mask=row_mask[:, None] & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * SPLIT_K * stride_xk
        b_ptrs += BLOCK_K * SPLIT_K * stride_lk
    acc *= scaling
    c_ptrs = out_ptr + slice_id * stride_os + rows[:, None] * stride_om + offs_n[None, :] * stride_on
    c_mask = row_mask[:, None] & (offs_n[None, :] < N)
    if SPLIT_K == 1:
        tl.store(c_ptrs, acc.to(out_ptr.dtype.element_ty), mask=c_mask)
    else:
        tl.atomic_add(c_ptrs, acc.to(out_ptr.dtype.element_ty), mask=c_mask, sem="relaxed")


@triton.jit
def lora_expand(buf_ptr, lora_b_table_ptr, out_ptr, slice_start_ptr, slice_size_ptr, lora_stride0_ptr, lora_ids_ptr,
                num_tokens_per_lora_ptr, lora_token_start_ptr, token_indices_sorted_ptr, M, max_n, K, stride_bs,
                stride_bm, stride_bk, stride_ln, stride_lk, stride_om, stride_on,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, ADD_INPUTS: tl.constexpr,
                EVEN_K: tl.constexpr):
    pid_mn = tl.program_id(0)
    slice_id = tl.program_id(1)
    num_pid_n = tl.cdiv(max_n, BLOCK_N)
    pid_m = pid_mn // num_pid_n
    pid_n = pid_mn % num_pid_n
    lora_id, rows, row_mask = _lora_rows(lora_ids_ptr, num_tokens_per_lora_ptr, lora_token_start_ptr,
                                         token_indices_sorted_ptr, pid_m, BLOCK_M)
    if lora_id == -1:
        return
    # the slices differ in width and so in their adapters' leading stride
    N = tl.load(slice_size_ptr + slice_id)
    if pid_n * BLOCK_N >= N:
        return
    w_ptr = tl.load(lora_b_table_ptr + slice_id).to(tl.pointer_type(out_ptr.dtype.element_ty))
    stride_l0 = tl.load(lora_stride0_ptr + slice_id)
    slice_start = tl.load(slice_start_ptr + slice_id)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = buf_ptr + slice_id * stride_bs + rows[:, None] * stride_bm + offs_k[None, :] * stride_bk
    b_ptrs = w_ptr + lora_id * stride_l0 + offs_n[None, :] * stride_ln + offs_k[:, None] * stride_lk
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        if EVEN_K:
            a = tl.load(a_ptrs, mask=row_mask[:, None], other=0.0)
            b = tl.load(b_ptrs, mask=offs_n[None, :] < N, other=0.0)
        else:
            k_left = K - k * BLOCK_K
            a = tl.load(a_ptrs, mask=row_mask[:, None] & (offs_k[None, :] < k_left), other=0.0)
            b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a.to(b.dtype), b)
        a_ptrs += BLOCK_K * stride_bk
        b_ptrs += BLOCK_K * stride_lk
    c_ptrs = out_ptr + rows[:, None] * stride_om + (slice_start + offs_n)[None, :] * stride_on
    c_mask = row_mask[:, None] & (offs_n[None, :] < N)
    if ADD_INPUTS:
        acc += tl.load(c_ptrs, mask=c_mask, other=0.0).to(tl.float32)
    tl.store(c_ptrs, acc.to(out_ptr.dtype.element_ty), mask=c_mask)


def _lora_mapping(torch, token_lora):
    """Tokens grouped by adapter, as the punica wrapper prepares them."""
    ids = sorted(set(token_lora))
    order = sorted(range(len(token_lora)), key=lambda t: token_lora[t])
    counts = [token_lora.count(i) for i in ids]
    starts = [sum(counts[:j]) for j in range(len(ids))]
    t = lambda xs: torch.tensor(xs, dtype=torch.int32, device="cuda")  # noqa: E731
    return t(ids), t(counts), t(starts), t(order)


def _run_lora(split_k, shrink_opts):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(22)
        M, K, R, num_loras, slices, bm = 45, 512, 16, 3, 3, 16
        out_n = [256, 64, 64]  # q, k, v of a merged qkv projection
        dtype = torch.bfloat16
        token_lora = [(t * 7) % (num_loras + 1) - 1 for t in range(M)]  # -1: no adapter
        lora_ids, counts, starts, order = _lora_mapping(torch, token_lora)
        x = (torch.randn(M, K, device="cuda", generator=gen) / 4).to(dtype)
        lora_a = [(torch.randn(num_loras, R, K, device="cuda", generator=gen) / 8).to(dtype) for _ in range(slices)]
        lora_b = [(torch.randn(num_loras, n, R, device="cuda", generator=gen) / 4).to(dtype) for n in out_n]
        a_table = torch.tensor([w.data_ptr() for w in lora_a], dtype=torch.uint64, device="cuda")
        b_table = torch.tensor([w.data_ptr() for w in lora_b], dtype=torch.uint64, device="cuda")
        buf = torch.zeros(slices, M, R, device="cuda", dtype=torch.float32)
        scaling = 0.5
        grid = (triton.cdiv(M, bm) * triton.cdiv(R, 16) * split_k, slices, len(lora_ids))
        lora_shrink[grid](x, a_table, buf, lora_ids, counts, starts, order, M, R, K, scaling, x.stride(0),
                          x.stride(1), lora_a[0].stride(0), lora_a[0].stride(1), lora_a[0].stride(2), buf.stride(0),
                          buf.stride(1), buf.stride(2), BLOCK_M=bm, BLOCK_N=16, BLOCK_K=64, SPLIT_K=split_k,
                          **shrink_opts)
        base = torch.randn(M, sum(out_n), device="cuda", generator=gen).to(dtype)
        out = base.clone()
        slice_start = torch.tensor([0, 256, 320], dtype=torch.int32, device="cuda")
        slice_size = torch.tensor(out_n, dtype=torch.int32, device="cuda")
        stride0 = torch.tensor([w.stride(0) for w in lora_b], dtype=torch.int32, device="cuda")
        grid = (triton.cdiv(M, bm) * triton.cdiv(max(out_n), 64), slices, len(lora_ids))
        lora_expand[grid](buf, b_table, out, slice_start, slice_size, stride0, lora_ids, counts, starts, order, M,
                          max(out_n), R, buf.stride(0), buf.stride(1), buf.stride(2), lora_b[0].stride(1),
                          lora_b[0].stride(2), out.stride(0), out.stride(1), BLOCK_M=bm, BLOCK_N=64, BLOCK_K=16,
                          ADD_INPUTS=True, EVEN_K=True, **_O42)
        ref_buf = torch.zeros(slices, M, R, device="cuda")
        ref_out = base.float().clone()
        for t, lid in enumerate(token_lora):
            if lid < 0:
                continue
            for sl in range(slices):
                ref_buf[sl, t] = (x[t].float() @ lora_a[sl][lid].float().T) * scaling
                s0 = int(slice_start[sl])
                ref_out[t, s0:s0 + out_n[sl]] += ref_buf[sl, t] @ lora_b[sl][lid].float().T
        return [("shrink", buf, ref_buf, 1e-2, 1e-2), ("expand", out, ref_out, 3e-2, 3e-2)]
    return run


# ----------------------------------------------------------------------------------------------
# Sampling by the Gumbel-max trick with Philox noise (tl.rand): argmax of logits / T + Gumbel.
# ----------------------------------------------------------------------------------------------


@triton.jit
def gumbel_sample(logits_ptr, temperature_ptr, out_ptr, seed, vocab, stride_l, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    t = tl.load(temperature_ptr + row)
    best_val = float("-inf")
    best_idx = 0
    for start in range(0, vocab, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < vocab
        x = tl.load(logits_ptr + row * stride_l + offs, mask=mask, other=float("-inf")).to(tl.float32)
        u = tl.rand(seed, row * vocab + offs)
        g = -tl.log(-tl.log(tl.maximum(u, 1e-20)))
        score = tl.where(mask, x / t + g, float("-inf"))
        v, i = tl.max(score, 0, return_indices=True, return_indices_tie_break_left=True)
        better = v > best_val
        best_idx = tl.where(better, start + i, best_idx)
        best_val = tl.where(better, v, best_val)
    tl.store(out_ptr + row, best_idx)


def _run_gumbel(torch):
    # a near-one-hot distribution: the sampled token is the dominant one unless noise exceeds the gap
    gen = torch.Generator(device="cuda").manual_seed(23)
    rows, vocab = 8, 5000
    logits = torch.randn(rows, vocab, device="cuda", generator=gen)
    winners = torch.randint(0, vocab, (rows,), device="cuda", generator=gen)
    logits[torch.arange(rows, device="cuda"), winners] = 60.0
    temps = torch.full((rows,), 0.5, device="cuda")
    out = torch.empty(rows, dtype=torch.int32, device="cuda")
    gumbel_sample[(rows,)](logits, temps, out, 1234, vocab, logits.stride(0), BLOCK=1024, num_warps=4)
    return [("token", out, winners.to(torch.int32), 0, 0)]


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
    em = triton.cdiv(tokens * top_k + E * (block_m - 1), block_m) * block_m
    return dict(N=N, K=K, EM=em, num_valid_tokens=tokens * top_k, stride_am=K, stride_ak=1, stride_be=K * N,
                stride_bk=N, stride_bn=1, stride_cm=N, stride_cn=1,
                stride_asm=a_scale[0], stride_ask=a_scale[1], stride_bse=b_scale[0], stride_bsk=b_scale[1],
                stride_bsn=b_scale[2])


_QUANT_SIG = {"x_ptr": "*bf16", "y_ptr": "*fp8e4nv", "scale_ptr": "*fp32", "hidden": "i32", "stride_x": "i32",
              "stride_y": "i32"}
_GROUP_QUANT_SIG = {"x_ptr": "*bf16", "y_ptr": "*fp8e4nv", "s_ptr": "*fp32", "group_size": "i32",
                    "num_groups_per_row": "i32", "eps": "fp32", "fp8_min": "fp32", "fp8_max": "fp32"}
_GATING_SIG = {"logits_ptr": "*bf16", "weights_ptr": "*fp32", "ids_ptr": "*i32", "num_experts": "i32",
               "stride_l": "i32"}

_LORA_ROWS_SIG = {"lora_ids_ptr": "*i32", "num_tokens_per_lora_ptr": "*i32", "lora_token_start_ptr": "*i32",
                  "token_indices_sorted_ptr": "*i32"}
_LORA_SHRINK_SIG = {"x_ptr": "*bf16", "lora_a_table_ptr": "*u64", "out_ptr": "*fp32", **_LORA_ROWS_SIG,
                    "scaling": "fp32",
                    **{k: "i32" for k in ("M", "N", "K", "stride_xm", "stride_xk", "stride_l0", "stride_ln",
                                          "stride_lk", "stride_os", "stride_om", "stride_on")}}
_LORA_SHRINK_INTS = dict(M=45, N=16, K=512, stride_xm=512, stride_xk=1, stride_l0=8192, stride_ln=512, stride_lk=1,
                         stride_os=720, stride_om=16, stride_on=1)
_LORA_EXPAND_SIG = {"buf_ptr": "*fp32", "lora_b_table_ptr": "*u64", "out_ptr": "*bf16", "slice_start_ptr": "*i32",
                    "slice_size_ptr": "*i32", "lora_stride0_ptr": "*i32", **_LORA_ROWS_SIG,
                    **{k: "i32" for k in ("M", "max_n", "K", "stride_bs", "stride_bm", "stride_bk", "stride_ln",
                                          "stride_lk", "stride_om", "stride_on")}}
_LORA_EXPAND_INTS = dict(M=45, max_n=256, K=16, stride_bs=720, stride_bm=16, stride_bk=1, stride_ln=16, stride_lk=1,
                         stride_om=384, stride_on=1)

CASES = [
    launched_case("fused_moe_bf16_m16_s3", fused_moe_kernel, _moe_sig("*bf16", "*bf16", "*bf16"),
                  _moe_consts(_CFG_SMALL), _moe_ints(200, 160, 8, 2, 37, 16), opts=_O43,
                  run=_run_moe_bf16(_CFG_SMALL, True, "bfloat16", False, _O43)),
    launched_case("fused_moe_bf16_m64_s4_ep", fused_moe_kernel, _moe_sig("*bf16", "*bf16", "*bf16"),
                  _moe_consts(_CFG_MID), _moe_ints(200, 160, 8, 2, 37, 64), opts=_O44,
                  run=_run_moe_bf16(_CFG_MID, True, "bfloat16", True, _O44)),
    launched_case("fused_moe_fp16_m64n128_s2_noweight", fused_moe_kernel, _moe_sig("*fp16", "*fp16", "*fp16"),
                  _moe_consts(_CFG_BIG, MUL_ROUTED_WEIGHT=False), _moe_ints(200, 160, 8, 2, 37, 64),
                  opts=_O82, run=_run_moe_bf16(_CFG_BIG, False, "float16", False, _O82)),
    launched_case("fused_moe_int8_w8a8", fused_moe_kernel, _moe_sig("*i8", "*i8", "*bf16"),
                  _moe_consts(_CFG_SMALL, USE_INT8_W8A8=True),
                  _moe_ints(192, 256, 4, 2, 29, 16, a_scale=(1, 0), b_scale=(192, 0, 1)),
                  opts=_O43, run=_run_moe_int8),
    launched_case("fused_moe_fp8_w8a8_block128", fused_moe_kernel, _moe_sig("*fp8e4nv", "*fp8e4nv", "*bf16"),
                  _moe_consts(dict(BLOCK_M=16, BLOCK_N=128, BLOCK_K=128, GROUP_M=8), USE_FP8_W8A8=True,
                              GROUP_SIZE_K=128, GROUP_SIZE_N=128, MUL_ROUTED_WEIGHT=False),
                  _moe_ints(384, 512, 4, 2, 21, 16, a_scale=(4, 1), b_scale=(12, 1, 4)),
                  opts=_O43, targets=("cuda:90",), run=_run_moe_fp8_block),
    launched_case("fused_moe_w4a16_zp", fused_moe_w4a16_kernel, _W4_SIG,
                  dict(GROUP_SIZE=64, TOP_K=2, MUL_ROUTED_WEIGHT=True, HAS_ZP=True, **_CFG_SMALL),
                  _W4_INTS, opts=_O43, run=_run_moe_w4a16(True, _O43)),
    launched_case("fused_moe_w4a16_symmetric", fused_moe_w4a16_kernel, _W4_SIG,
                  dict(GROUP_SIZE=64, TOP_K=2, MUL_ROUTED_WEIGHT=True, HAS_ZP=False, **_CFG_SMALL),
                  _W4_INTS, opts=_O42, run=_run_moe_w4a16(False, _O42)),
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
    launched_case("lora_shrink_splitk_bf16", lora_shrink, _LORA_SHRINK_SIG, dict(BLOCK_M=16, BLOCK_N=16, BLOCK_K=64,
                  SPLIT_K=4), _LORA_SHRINK_INTS, opts=_O42, run=_run_lora(4, _O42)),
    launched_case("lora_shrink_bf16", lora_shrink, _LORA_SHRINK_SIG, dict(BLOCK_M=16, BLOCK_N=16, BLOCK_K=64,
                  SPLIT_K=1), _LORA_SHRINK_INTS, opts=_O43, run=_run_lora(1, _O43)),
    launched_case("lora_expand_add_bf16", lora_expand, _LORA_EXPAND_SIG, dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=16,
                  ADD_INPUTS=True, EVEN_K=True), _LORA_EXPAND_INTS, opts=_O42),
    launched_case("lora_expand_uneven_k_fp16", lora_expand,
                  {**_LORA_EXPAND_SIG, "out_ptr": "*fp16"}, dict(BLOCK_M=32, BLOCK_N=128, BLOCK_K=32,
                  ADD_INPUTS=False, EVEN_K=False), {**_LORA_EXPAND_INTS, "K": 24, "stride_bs": 1080, "stride_bm": 24,
                                                        "stride_ln": 24},
                  opts=dict(num_warps=4, num_stages=3)),
    launched_case("sampling_gumbel_philox", gumbel_sample,
                  {"logits_ptr": "*fp32", "temperature_ptr": "*fp32", "out_ptr": "*i32", "seed": "i32", "vocab": "i32",
                   "stride_l": "i32"}, dict(BLOCK=1024), dict(seed=1234, vocab=5000, stride_l=5000),
                  opts=dict(num_warps=4), run=_run_gumbel),
]
