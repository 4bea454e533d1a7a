"""LLM serving kernels around attention, written for this project in the styles inference engines
use: paged-attention decode over block tables with grouped-query heads (one pass, and split into
partitions merged by a log-sum-exp reduce), token-indexed split-KV decode with a second-stage
merge and logit soft-capping, variable-length causal prefill over cu_seqlens with an early return
for blocks past the sequence, extend attention that reads its prefix from a paged KV cache, the
KV-cache scatter by slot mapping (bf16 and fp8), rotary embedding in place (neox and gpt-j
layouts, cos/sin gathered by position) and the mamba selective-state decode step."""
import itertools
import math

import triton
import triton.language as tl
from triton.language.extra import libdevice

# ----------------------------------------------------------------------------------------------
# Paged-attention decode, one pass: one program per (sequence, KV head) serves the QUERY_GRP query
# heads sharing that KV head, so the scores are a [QUERY_GRP_PAD, BLOCK_SIZE] matrix product.
# KV cache layout [num_blocks, block_size, num_kv_heads, head_dim].
# ----------------------------------------------------------------------------------------------


@triton.jit
def paged_attn_decode_gqa(out_ptr, q_ptr, k_cache_ptr, v_cache_ptr, block_tables_ptr, seq_lens_ptr, scale,
                          stride_q_tok, stride_q_head, stride_o_tok, stride_o_head,
                          stride_c_blk, stride_c_slot, stride_c_head, stride_bt,
                          QUERY_GRP: tl.constexpr, QUERY_GRP_PAD: tl.constexpr, HEAD_DIM: tl.constexpr,
                          BLOCK_SIZE: tl.constexpr):
    seq = tl.program_id(0)
    kv_head = tl.program_id(1)
    seq_len = tl.load(seq_lens_ptr + seq)
    offs_g = tl.arange(0, QUERY_GRP_PAD)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_s = tl.arange(0, BLOCK_SIZE)
    grp_mask = offs_g < QUERY_GRP
    q_heads = kv_head * QUERY_GRP + offs_g
    q = tl.load(q_ptr + seq * stride_q_tok + q_heads[:, None] * stride_q_head + offs_d[None, :],
                mask=grp_mask[:, None], other=0.0)
    q = (q * scale).to(q.dtype)
    m_i = tl.full([QUERY_GRP_PAD], float("-inf"), tl.float32)
    l_i = tl.zeros([QUERY_GRP_PAD], tl.float32)
    acc = tl.zeros([QUERY_GRP_PAD, HEAD_DIM], tl.float32)
    num_blocks = tl.cdiv(seq_len, BLOCK_SIZE)
    for j in range(0, num_blocks):
        phys = tl.load(block_tables_ptr + seq * stride_bt + j).to(tl.int64)
        kv_off = phys * stride_c_blk + offs_s[:, None] * stride_c_slot + kv_head * stride_c_head + offs_d[None, :]
        tok_mask = j * BLOCK_SIZE + offs_s < seq_len
        k = tl.load(k_cache_ptr + kv_off, mask=tok_mask[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k))
        s = tl.where(tok_mask[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_cache_ptr + kv_off, mask=tok_mask[:, None], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(out_ptr + seq * stride_o_tok + q_heads[:, None] * stride_o_head + offs_d[None, :],
             acc.to(out_ptr.dtype.element_ty), mask=grp_mask[:, None])


def _paged_cache(torch, seq_lens, num_kv_heads, head_dim, block_size, dtype, gen):
    """A shuffled block pool, block tables pointing into it, and the dense per-sequence K/V."""
    blocks_per_seq = [triton.cdiv(n, block_size) for n in seq_lens]
    num_blocks = sum(blocks_per_seq) + 3
    k_cache = torch.randn(num_blocks, block_size, num_kv_heads, head_dim, device="cuda", generator=gen).to(dtype)
    v_cache = torch.randn(num_blocks, block_size, num_kv_heads, head_dim, device="cuda", generator=gen).to(dtype)
    perm = torch.randperm(num_blocks, device="cuda", generator=gen)
    max_blocks = max(blocks_per_seq)
    tables = torch.zeros(len(seq_lens), max_blocks, dtype=torch.int32, device="cuda")
    dense_k, dense_v, used = [], [], 0
    for i, (n, nb) in enumerate(zip(seq_lens, blocks_per_seq)):
        ids = perm[used:used + nb]
        used += nb
        tables[i, :nb] = ids.to(torch.int32)
        dense_k.append(k_cache[ids].reshape(nb * block_size, num_kv_heads, head_dim)[:n].float())
        dense_v.append(v_cache[ids].reshape(nb * block_size, num_kv_heads, head_dim)[:n].float())
    return k_cache, v_cache, tables, dense_k, dense_v


def _decode_reference(torch, q, dense_k, dense_v, scale, grp):
    outs = []
    for i in range(q.shape[0]):
        k = dense_k[i].repeat_interleave(grp, dim=1)  # [n, q_heads, d]
        v = dense_v[i].repeat_interleave(grp, dim=1)
        s = torch.einsum("hd,nhd->hn", q[i].float(), k) * scale
        outs.append(torch.einsum("hn,nhd->hd", torch.softmax(s, dim=-1), v))
    return torch.stack(outs)


def _run_paged_decode(head_dim, grp, block_size, dtype_name, opts):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(0)
        dtype = getattr(torch, dtype_name)
        seq_lens = [1, 17, 200, 333]
        num_kv_heads = 2
        k_cache, v_cache, tables, dk, dv = _paged_cache(torch, seq_lens, num_kv_heads, head_dim, block_size,
                                                        dtype, gen)
        q = torch.randn(len(seq_lens), num_kv_heads * grp, head_dim, device="cuda", generator=gen).to(dtype)
        out = torch.empty_like(q)
        lens = torch.tensor(seq_lens, dtype=torch.int32, device="cuda")
        scale = 1.0 / math.sqrt(head_dim)
        paged_attn_decode_gqa[(len(seq_lens), num_kv_heads)](
            out, q, k_cache, v_cache, tables, lens, scale, q.stride(0), q.stride(1), out.stride(0), out.stride(1),
            k_cache.stride(0), k_cache.stride(1), k_cache.stride(2), tables.stride(0),
            QUERY_GRP=grp, QUERY_GRP_PAD=max(16, triton.next_power_of_2(grp)), HEAD_DIM=head_dim,
            BLOCK_SIZE=block_size, **opts)
        return [("out", out, _decode_reference(torch, q, dk, dv, scale, grp), 2e-2, 2e-2)]
    return run


# ----------------------------------------------------------------------------------------------
# Paged-attention decode, split into partitions (v2): one program per (sequence, query head,
# partition) with a dot-free score (q . k as a broadcast multiply and row sum), non-power-of-two
# head size padded and masked; partitions past the sequence return at once. A second kernel merges
# the partial outputs with their max logits and exp sums.
# ----------------------------------------------------------------------------------------------


@triton.jit
def paged_attn_decode_v2_partition(tmp_out_ptr, max_logits_ptr, exp_sums_ptr, q_ptr, k_cache_ptr, v_cache_ptr,
                                   block_tables_ptr, seq_lens_ptr, alibi_slopes_ptr, scale,
                                   stride_q_tok, stride_c_blk, stride_c_slot, stride_c_head, stride_bt,
                                   num_q_heads, max_num_partitions,
                                   QUERY_GRP: tl.constexpr, HEAD_DIM: tl.constexpr, HEAD_DIM_PAD: tl.constexpr,
                                   BLOCK_SIZE: tl.constexpr, PARTITION_SIZE: tl.constexpr,
                                   USE_ALIBI: tl.constexpr):
    seq = tl.program_id(0)
    head = tl.program_id(1)
    part = tl.program_id(2)
    seq_len = tl.load(seq_lens_ptr + seq)
    start = part * PARTITION_SIZE
    if start >= seq_len:
        return
    kv_head = head // QUERY_GRP
    offs_d = tl.arange(0, HEAD_DIM_PAD)
    d_mask = offs_d < HEAD_DIM
    offs_s = tl.arange(0, BLOCK_SIZE)
    q = tl.load(q_ptr + seq * stride_q_tok + head * HEAD_DIM + offs_d, mask=d_mask, other=0.0).to(tl.float32)
    if USE_ALIBI:
        slope = tl.load(alibi_slopes_ptr + head)
    m_i = float("-inf")
    l_i = 0.0
    acc = tl.zeros([HEAD_DIM_PAD], tl.float32)
    end = tl.minimum(start + PARTITION_SIZE, seq_len)
    for tok0 in range(start, end, BLOCK_SIZE):
        phys = tl.load(block_tables_ptr + seq * stride_bt + tok0 // BLOCK_SIZE).to(tl.int64)
        toks = tok0 + offs_s
        tok_mask = toks < end
        kv_off = phys * stride_c_blk + offs_s[:, None] * stride_c_slot + kv_head * stride_c_head + offs_d[None, :]
        kv_mask = tok_mask[:, None] & d_mask[None, :]
        k = tl.load(k_cache_ptr + kv_off, mask=kv_mask, other=0.0).to(tl.float32)
        s = tl.sum(q[None, :] * k, 1) * scale
        if USE_ALIBI:
            s += slope * (toks - seq_len + 1).to(tl.float32)
        s = tl.where(tok_mask, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        v = tl.load(v_cache_ptr + kv_off, mask=kv_mask, other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, 0)
        l_i = l_i * alpha + tl.sum(p, 0)
        m_i = m_new
    row = (seq * num_q_heads + head) * max_num_partitions + part
    tl.store(max_logits_ptr + row, m_i)
    tl.store(exp_sums_ptr + row, l_i)
    tl.store(tmp_out_ptr + row * HEAD_DIM + offs_d, acc / l_i, mask=d_mask)


@triton.jit
def paged_attn_decode_v2_reduce(out_ptr, tmp_out_ptr, max_logits_ptr, exp_sums_ptr, seq_lens_ptr,
                                stride_o_tok, num_q_heads, max_num_partitions,
                                HEAD_DIM: tl.constexpr, HEAD_DIM_PAD: tl.constexpr,
                                PARTITION_SIZE: tl.constexpr, MAX_PARTS_PAD: tl.constexpr):
    seq = tl.program_id(0)
    head = tl.program_id(1)
    seq_len = tl.load(seq_lens_ptr + seq)
    num_parts = tl.cdiv(seq_len, PARTITION_SIZE)
    offs_p = tl.arange(0, MAX_PARTS_PAD)
    offs_d = tl.arange(0, HEAD_DIM_PAD)
    p_mask = offs_p < num_parts
    base = (seq * num_q_heads + head) * max_num_partitions
    max_logits = tl.load(max_logits_ptr + base + offs_p, mask=p_mask, other=float("-inf"))
    global_max = tl.max(max_logits, 0)
    exp_sums = tl.load(exp_sums_ptr + base + offs_p, mask=p_mask, other=0.0)
    weights = exp_sums * tl.exp(max_logits - global_max)
    weights = tl.where(p_mask, weights, 0.0)
    total = tl.sum(weights, 0)
    parts = tl.load(tmp_out_ptr + (base + offs_p[:, None]) * HEAD_DIM + offs_d[None, :],
                    mask=p_mask[:, None] & (offs_d[None, :] < HEAD_DIM), other=0.0)
    out = tl.sum(parts * weights[:, None], 0) / total
    tl.store(out_ptr + seq * stride_o_tok + head * HEAD_DIM + offs_d, out.to(out_ptr.dtype.element_ty),
             mask=offs_d < HEAD_DIM)


def _run_paged_v2(use_alibi, opts):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(1)
        dtype, head_dim, grp, block_size, part_size = torch.float16, 80, 4, 16, 128
        seq_lens = [5, 130, 300, 513]
        num_kv_heads = 2
        nq = num_kv_heads * grp
        k_cache, v_cache, tables, dk, dv = _paged_cache(torch, seq_lens, num_kv_heads, head_dim, block_size,
                                                        dtype, gen)
        q = torch.randn(len(seq_lens), nq, head_dim, device="cuda", generator=gen).to(dtype)
        lens = torch.tensor(seq_lens, dtype=torch.int32, device="cuda")
        slopes = torch.tensor([2.0 ** (-8.0 * (h + 1) / nq) for h in range(nq)], device="cuda")
        max_parts = triton.cdiv(max(seq_lens), part_size)
        tmp = torch.empty(len(seq_lens), nq, max_parts, head_dim, device="cuda")
        ml = torch.empty(len(seq_lens), nq, max_parts, device="cuda")
        es = torch.empty_like(ml)
        out = torch.empty_like(q)
        scale = 1.0 / math.sqrt(head_dim)
        paged_attn_decode_v2_partition[(len(seq_lens), nq, max_parts)](
            tmp, ml, es, q, k_cache, v_cache, tables, lens, slopes, scale, q.stride(0), k_cache.stride(0),
            k_cache.stride(1), k_cache.stride(2), tables.stride(0), nq, max_parts, QUERY_GRP=grp,
            HEAD_DIM=head_dim, HEAD_DIM_PAD=128, BLOCK_SIZE=block_size, PARTITION_SIZE=part_size,
            USE_ALIBI=use_alibi, **opts)
        paged_attn_decode_v2_reduce[(len(seq_lens), nq)](
            out, tmp, ml, es, lens, out.stride(0), nq, max_parts, HEAD_DIM=head_dim, HEAD_DIM_PAD=128,
            PARTITION_SIZE=part_size, MAX_PARTS_PAD=triton.next_power_of_2(max_parts), num_warps=4)
        outs = []
        for i, n in enumerate(seq_lens):
            k = dk[i].repeat_interleave(grp, dim=1)
            v = dv[i].repeat_interleave(grp, dim=1)
            s = torch.einsum("hd,nhd->hn", q[i].float(), k) * scale
            if use_alibi:
                s = s + slopes[:, None] * (torch.arange(n, device="cuda") - n + 1).float()[None, :]
            outs.append(torch.einsum("hn,nhd->hd", torch.softmax(s, dim=-1), v))
        return [("out", out, torch.stack(outs), 2e-2, 2e-2)]
    return run


# ----------------------------------------------------------------------------------------------
# Token-indexed decode (a request-to-token table instead of blocks), split over KV_SPLITS programs
# per (request, head), with tanh logit soft-capping; stage 2 merges the splits by log-sum-exp.
# ----------------------------------------------------------------------------------------------


@triton.jit
def decode_splitkv_stage1(q_ptr, k_buf_ptr, v_buf_ptr, req_to_token_ptr, req_pool_idx_ptr, seq_lens_ptr,
                          att_out_ptr, att_lse_ptr, sm_scale, logit_cap,
                          stride_qb, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh,
                          stride_req, stride_ob, stride_oh, stride_os,
                          KV_GROUP: tl.constexpr, BLOCK_DMODEL: tl.constexpr, BLOCK_N: tl.constexpr,
                          KV_SPLITS: tl.constexpr, LOGIT_CAP: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    split = tl.program_id(2)
    cur_kv_head = cur_head // KV_GROUP
    offs_d = tl.arange(0, BLOCK_DMODEL)
    seq_len = tl.load(seq_lens_ptr + cur_batch)
    req = tl.load(req_pool_idx_ptr + cur_batch)
    split_len = tl.cdiv(seq_len, KV_SPLITS)
    split_start = split_len * split
    split_end = tl.minimum(split_start + split_len, seq_len)
    q = tl.load(q_ptr + cur_batch * stride_qb + cur_head * stride_qh + offs_d).to(tl.float32)
    e_max = -float("inf")
    e_sum = 0.0
    acc = tl.zeros([BLOCK_DMODEL], tl.float32)
    if split_end > split_start:
        for start_n in range(split_start, split_end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            n_mask = offs_n < split_end
            kv_loc = tl.load(req_to_token_ptr + req * stride_req + offs_n, mask=n_mask, other=0).to(tl.int64)
            k = tl.load(k_buf_ptr + kv_loc[:, None] * stride_buf_kbs + cur_kv_head * stride_buf_kh + offs_d[None, :],
                        mask=n_mask[:, None], other=0.0)
            qk = tl.sum(q[None, :] * k, 1) * sm_scale
            if LOGIT_CAP:
                qk = logit_cap * libdevice.tanh(qk / logit_cap)
            qk = tl.where(n_mask, qk, float("-inf"))
            v = tl.load(v_buf_ptr + kv_loc[:, None] * stride_buf_vbs + cur_kv_head * stride_buf_vh + offs_d[None, :],
                        mask=n_mask[:, None], other=0.0)
            n_max = tl.maximum(tl.max(qk, 0), e_max)
            re_scale = tl.exp(e_max - n_max)
            p = tl.exp(qk - n_max)
            acc = acc * re_scale + tl.sum(p[:, None] * v, 0)
            e_sum = e_sum * re_scale + tl.sum(p, 0)
            e_max = n_max
        out = att_out_ptr + cur_batch * stride_ob + cur_head * stride_oh + split * stride_os
        tl.store(out + offs_d, acc / e_sum)
        tl.store(att_lse_ptr + (cur_batch * tl.num_programs(1) + cur_head) * KV_SPLITS + split,
                 e_max + tl.log(e_sum))


@triton.jit
def decode_splitkv_stage2(att_out_ptr, att_lse_ptr, o_ptr, seq_lens_ptr, stride_ob, stride_oh, stride_os,
                          stride_o_b, stride_o_h, KV_SPLITS: tl.constexpr, BLOCK_DMODEL: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    seq_len = tl.load(seq_lens_ptr + cur_batch)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    e_sum = 0.0
    e_max = -float("inf")
    acc = tl.zeros([BLOCK_DMODEL], tl.float32)
    split_len = tl.cdiv(seq_len, KV_SPLITS)
    for split in range(KV_SPLITS):
        if split * split_len < seq_len:
            tv = tl.load(att_out_ptr + cur_batch * stride_ob + cur_head * stride_oh + split * stride_os + offs_d)
            tlogic = tl.load(att_lse_ptr + (cur_batch * tl.num_programs(1) + cur_head) * KV_SPLITS + split)
            n_max = tl.maximum(tlogic, e_max)
            old_scale = tl.exp(e_max - n_max)
            exp_logic = tl.exp(tlogic - n_max)
            acc = acc * old_scale + exp_logic * tv
            e_sum = e_sum * old_scale + exp_logic
            e_max = n_max
    tl.store(o_ptr + cur_batch * stride_o_b + cur_head * stride_o_h + offs_d,
             (acc / e_sum).to(o_ptr.dtype.element_ty))


def _run_decode_splitkv(torch):
    gen = torch.Generator(device="cuda").manual_seed(2)
    dtype, d, grp, nkv, splits, cap = torch.bfloat16, 128, 4, 2, 8, 30.0
    seq_lens = [3, 77, 260]
    nq = nkv * grp
    pool = 1024
    k_buf = torch.randn(pool, nkv, d, device="cuda", generator=gen).to(dtype)
    v_buf = torch.randn(pool, nkv, d, device="cuda", generator=gen).to(dtype)
    req_to_token = torch.zeros(5, 300, dtype=torch.int32, device="cuda")
    req_idx = torch.tensor([4, 0, 2], dtype=torch.int32, device="cuda")
    perm = torch.randperm(pool, device="cuda", generator=gen).to(torch.int32)
    used = 0
    for r, n in zip(req_idx.tolist(), seq_lens):
        req_to_token[r, :n] = perm[used:used + n]
        used += n
    q = torch.randn(len(seq_lens), nq, d, device="cuda", generator=gen).to(dtype)
    lens = torch.tensor(seq_lens, dtype=torch.int32, device="cuda")
    att_out = torch.empty(len(seq_lens), nq, splits, d, device="cuda")
    att_lse = torch.empty(len(seq_lens), nq, splits, device="cuda")
    o = torch.empty_like(q)
    scale = 1.0 / math.sqrt(d)
    decode_splitkv_stage1[(len(seq_lens), nq, splits)](
        q, k_buf, v_buf, req_to_token, req_idx, lens, att_out, att_lse, scale, cap, q.stride(0), q.stride(1),
        k_buf.stride(0), k_buf.stride(1), v_buf.stride(0), v_buf.stride(1), req_to_token.stride(0),
        att_out.stride(0), att_out.stride(1), att_out.stride(2), KV_GROUP=grp, BLOCK_DMODEL=d, BLOCK_N=32,
        KV_SPLITS=splits, LOGIT_CAP=True, num_warps=4, num_stages=2)
    decode_splitkv_stage2[(len(seq_lens), nq)](
        att_out, att_lse, o, lens, att_out.stride(0), att_out.stride(1), att_out.stride(2), o.stride(0),
        o.stride(1), KV_SPLITS=splits, BLOCK_DMODEL=d, num_warps=4, num_stages=2)
    ref = []
    for i, (r, n) in enumerate(zip(req_idx.tolist(), seq_lens)):
        locs = req_to_token[r, :n].long()
        k = k_buf[locs].float().repeat_interleave(grp, dim=1)
        v = v_buf[locs].float().repeat_interleave(grp, dim=1)
        s = torch.einsum("hd,nhd->hn", q[i].float(), k) * scale
        s = cap * torch.tanh(s / cap)
        ref.append(torch.einsum("hn,nhd->hd", torch.softmax(s, dim=-1), v))
    return [("o", o, torch.stack(ref), 2e-2, 2e-2)]


def _run_decode_stage2_only(torch):
    # the merge alone, against a direct log-sum-exp combination of random partials
    gen = torch.Generator(device="cuda").manual_seed(3)
    b, h, splits, d = 3, 8, 8, 128
    seq_lens = [3, 40, 1000]
    att_out = torch.randn(b, h, splits, d, device="cuda", generator=gen)
    att_lse = torch.randn(b, h, splits, device="cuda", generator=gen) * 3
    o = torch.empty(b, h, d, device="cuda", dtype=torch.float16)
    lens = torch.tensor(seq_lens, dtype=torch.int32, device="cuda")
    decode_splitkv_stage2[(b, h)](att_out, att_lse, o, lens, att_out.stride(0), att_out.stride(1),
                                  att_out.stride(2), o.stride(0), o.stride(1), KV_SPLITS=splits, BLOCK_DMODEL=d,
                                  num_warps=4)
    ref = torch.empty(b, h, d, device="cuda")
    for i, n in enumerate(seq_lens):
        split_len = triton.cdiv(n, splits)
        valid = [s for s in range(splits) if s * split_len < n]
        lse = att_lse[i][:, valid]
        w = torch.softmax(lse, dim=-1)
        ref[i] = torch.einsum("hs,hsd->hd", w, att_out[i][:, valid])
    return [("o", o, ref, 1e-2, 1e-2)]


# ----------------------------------------------------------------------------------------------
# Variable-length causal prefill (flash attention over packed sequences): grid over
# (query block, head, sequence); blocks past the sequence's length return at once.
# ----------------------------------------------------------------------------------------------


@triton.jit
def varlen_prefill_attn(q_ptr, k_ptr, v_ptr, o_ptr, cu_seqlens_ptr, sm_scale,
                        stride_qt, stride_qh, stride_kt, stride_kh, stride_vt, stride_vh, stride_ot, stride_oh,
                        KV_GROUP: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr, IS_CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    seq = tl.program_id(2)
    seq_start = tl.load(cu_seqlens_ptr + seq)
    seq_len = tl.load(cu_seqlens_ptr + seq + 1) - seq_start
    if start_m * BLOCK_M >= seq_len:
        return
    kv_head = head // KV_GROUP
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_mask = offs_m < seq_len
    q = tl.load(q_ptr + (seq_start + offs_m[:, None]).to(tl.int64) * stride_qt + head * stride_qh + offs_d[None, :],
                mask=m_mask[:, None], other=0.0)
    qk_scale = sm_scale * 1.44269504
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len) if IS_CAUSAL else seq_len
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        n_mask = cols < seq_len
        rows = (seq_start + cols).to(tl.int64)
        k = tl.load(k_ptr + rows[None, :] * stride_kt + kv_head * stride_kh + offs_d[:, None],
                    mask=n_mask[None, :], other=0.0)
        qk = tl.dot(q, k) * qk_scale
        valid = n_mask[None, :]
        if IS_CAUSAL:
            valid = valid & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(valid, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + rows[:, None] * stride_vt + kv_head * stride_vh + offs_d[None, :],
                    mask=n_mask[:, None], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + (seq_start + offs_m[:, None]).to(tl.int64) * stride_ot + head * stride_oh + offs_d[None, :],
             acc.to(o_ptr.dtype.element_ty), mask=m_mask[:, None])


def _run_varlen(dtype_name, block_m, block_n, causal, opts):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(4)
        dtype = getattr(torch, dtype_name)
        seq_lens, nkv, grp, d = [1, 70, 129, 300], 2, 2, 64
        total = sum(seq_lens)
        q = torch.randn(total, nkv * grp, d, device="cuda", generator=gen).to(dtype)
        k = torch.randn(total, nkv, d, device="cuda", generator=gen).to(dtype)
        v = torch.randn(total, nkv, d, device="cuda", generator=gen).to(dtype)
        o = torch.zeros_like(q)
        cu = torch.tensor([0] + list(itertools.accumulate(seq_lens)), dtype=torch.int32,
                          device="cuda")
        scale = 1.0 / math.sqrt(d)
        grid = (triton.cdiv(max(seq_lens), block_m), nkv * grp, len(seq_lens))
        varlen_prefill_attn[grid](q, k, v, o, cu, scale, q.stride(0), q.stride(1), k.stride(0), k.stride(1),
                                  v.stride(0), v.stride(1), o.stride(0), o.stride(1), KV_GROUP=grp, HEAD_DIM=d,
                                  BLOCK_M=block_m, BLOCK_N=block_n, IS_CAUSAL=causal, **opts)
        ref = torch.empty(total, nkv * grp, d, device="cuda")
        for s0, n in zip(cu.tolist()[:-1], seq_lens):
            qs = q[s0:s0 + n].float().transpose(0, 1)
            ks = k[s0:s0 + n].float().repeat_interleave(grp, dim=1).transpose(0, 1)
            vs = v[s0:s0 + n].float().repeat_interleave(grp, dim=1).transpose(0, 1)
            s = qs @ ks.transpose(1, 2) * scale
            if causal:
                s = s.masked_fill(torch.ones(n, n, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
            ref[s0:s0 + n] = (torch.softmax(s, dim=-1) @ vs).transpose(0, 1)
        return [("o", o, ref, 2e-2, 2e-2)]
    return run


# ----------------------------------------------------------------------------------------------
# Extend (chunked prefill) attention: the new tokens attend to the request's cached prefix, found
# through a request-to-token table (gathered rows), then causally to themselves.
# ----------------------------------------------------------------------------------------------


@triton.jit
def extend_attn_fwd(q_ext_ptr, k_ext_ptr, v_ext_ptr, o_ext_ptr, k_buf_ptr, v_buf_ptr, req_to_token_ptr,
                    req_pool_idx_ptr, prefix_lens_ptr, qo_start_ptr, ext_lens_ptr, sm_scale,
                    stride_qt, stride_qh, stride_kt, stride_kh, stride_bt, stride_bh, stride_ot, stride_oh,
                    stride_req, KV_GROUP: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr):
    cur_seq = tl.program_id(0)
    cur_head = tl.program_id(1)
    cur_block_m = tl.program_id(2)
    cur_kv_head = cur_head // KV_GROUP
    ext_len = tl.load(ext_lens_ptr + cur_seq)
    if cur_block_m * BLOCK_M >= ext_len:
        return
    prefix_len = tl.load(prefix_lens_ptr + cur_seq)
    ext_start = tl.load(qo_start_ptr + cur_seq)
    req = tl.load(req_pool_idx_ptr + cur_seq).to(tl.int64)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_m = cur_block_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_mask = offs_m < ext_len
    q = tl.load(q_ext_ptr + (ext_start + offs_m[:, None]) * stride_qt + cur_head * stride_qh + offs_d[None, :],
                mask=m_mask[:, None], other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    # the prefix, from the KV cache
    for start_n in range(0, prefix_len, BLOCK_N):
        cols = start_n + offs_n
        n_mask = cols < prefix_len
        loc = tl.load(req_to_token_ptr + req * stride_req + cols, mask=n_mask, other=0).to(tl.int64)
        k = tl.load(k_buf_ptr + loc[None, :] * stride_bt + cur_kv_head * stride_bh + offs_d[:, None],
                    mask=n_mask[None, :], other=0.0)
        qk = tl.dot(q, k) * sm_scale
        qk = tl.where(n_mask[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        re_scale = tl.exp(m_i - m_new)
        p = tl.exp(qk - m_new[:, None])
        l_i = l_i * re_scale + tl.sum(p, 1)
        v = tl.load(v_buf_ptr + loc[:, None] * stride_bt + cur_kv_head * stride_bh + offs_d[None, :],
                    mask=n_mask[:, None], other=0.0)
        acc = acc * re_scale[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    # the new tokens, causal
    hi = tl.minimum((cur_block_m + 1) * BLOCK_M, ext_len)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        n_mask = cols < ext_len
        k = tl.load(k_ext_ptr + (ext_start + cols[None, :]) * stride_kt + cur_kv_head * stride_kh + offs_d[:, None],
                    mask=n_mask[None, :], other=0.0)
        qk = tl.dot(q, k) * sm_scale
        causal = (offs_m[:, None] >= cols[None, :]) & n_mask[None, :]
        qk = tl.where(causal, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        re_scale = tl.exp(m_i - m_new)
        p = tl.exp(qk - m_new[:, None])
        l_i = l_i * re_scale + tl.sum(p, 1)
        v = tl.load(v_ext_ptr + (ext_start + cols[:, None]) * stride_kt + cur_kv_head * stride_kh + offs_d[None, :],
                    mask=n_mask[:, None], other=0.0)
        acc = acc * re_scale[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    tl.store(o_ext_ptr + (ext_start + offs_m[:, None]) * stride_ot + cur_head * stride_oh + offs_d[None, :],
             (acc / l_i[:, None]).to(o_ext_ptr.dtype.element_ty), mask=m_mask[:, None])


def _run_extend(torch):
    gen = torch.Generator(device="cuda").manual_seed(5)
    dtype, d, nkv, grp = torch.bfloat16, 128, 2, 4
    nq = nkv * grp
    prefix, ext = [0, 50, 133], [20, 37, 70]
    pool = 512
    k_buf = torch.randn(pool, nkv, d, device="cuda", generator=gen).to(dtype)
    v_buf = torch.randn(pool, nkv, d, device="cuda", generator=gen).to(dtype)
    req_to_token = torch.zeros(4, 256, dtype=torch.int32, device="cuda")
    req_idx = torch.tensor([3, 1, 0], dtype=torch.int32, device="cuda")
    perm = torch.randperm(pool, device="cuda", generator=gen).to(torch.int32)
    used = 0
    for r, n in zip(req_idx.tolist(), prefix):
        req_to_token[r, :n] = perm[used:used + n]
        used += n
    total = sum(ext)
    q = torch.randn(total, nq, d, device="cuda", generator=gen).to(dtype)
    k = torch.randn(total, nkv, d, device="cuda", generator=gen).to(dtype)
    v = torch.randn(total, nkv, d, device="cuda", generator=gen).to(dtype)
    o = torch.zeros_like(q)
    starts = [0, ext[0], ext[0] + ext[1]]
    t = lambda xs: torch.tensor(xs, dtype=torch.int32, device="cuda")  # noqa: E731
    scale = 1.0 / math.sqrt(d)
    block_m, block_n = 64, 64
    extend_attn_fwd[(3, nq, triton.cdiv(max(ext), block_m))](
        q, k, v, o, k_buf, v_buf, req_to_token, req_idx, t(prefix), t(starts), t(ext), scale,
        q.stride(0), q.stride(1), k.stride(0), k.stride(1), k_buf.stride(0), k_buf.stride(1), o.stride(0),
        o.stride(1), req_to_token.stride(0), KV_GROUP=grp, HEAD_DIM=d, BLOCK_M=block_m, BLOCK_N=block_n,
        num_warps=4, num_stages=2)
    ref = torch.empty(total, nq, d, device="cuda")
    for i, r in enumerate(req_idx.tolist()):
        locs = req_to_token[r, :prefix[i]].long()
        s0, n = starts[i], ext[i]
        kk = torch.cat([k_buf[locs].float(), k[s0:s0 + n].float()]).repeat_interleave(grp, dim=1).transpose(0, 1)
        vv = torch.cat([v_buf[locs].float(), v[s0:s0 + n].float()]).repeat_interleave(grp, dim=1).transpose(0, 1)
        s = q[s0:s0 + n].float().transpose(0, 1) @ kk.transpose(1, 2) * scale
        mask = torch.ones(n, prefix[i] + n, device="cuda", dtype=torch.bool).triu(prefix[i] + 1)
        s = s.masked_fill(mask, float("-inf"))
        ref[s0:s0 + n] = (torch.softmax(s, dim=-1) @ vv).transpose(0, 1)
    return [("o", o, ref, 2e-2, 2e-2)]


# ----------------------------------------------------------------------------------------------
# KV-cache write: every new token's K and V scattered to its slot (block, offset) of a paged
# cache; slot -1 marks padding and is skipped. The fp8 variant divides by a per-tensor scale.
# ----------------------------------------------------------------------------------------------


@triton.jit
def reshape_and_cache_flash(key_ptr, value_ptr, key_cache_ptr, value_cache_ptr, slot_mapping_ptr, k_scale_ptr,
                            v_scale_ptr, stride_k_tok, stride_v_tok, stride_c_blk, stride_c_slot,
                            NUM_HEADS: tl.constexpr, HEAD_SIZE: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                            TILE: tl.constexpr, FP8_CACHE: tl.constexpr):
    tok = tl.program_id(0).to(tl.int64)
    slot = tl.load(slot_mapping_ptr + tok).to(tl.int64)
    if slot < 0:
        return
    block_idx = slot // BLOCK_SIZE
    block_off = slot % BLOCK_SIZE
    n = NUM_HEADS * HEAD_SIZE
    dst = block_idx * stride_c_blk + block_off * stride_c_slot
    if FP8_CACHE:
        k_scale = tl.load(k_scale_ptr)
        v_scale = tl.load(v_scale_ptr)
    for i in tl.range(0, n, TILE):
        offs = i + tl.arange(0, TILE)
        m = offs < n
        k = tl.load(key_ptr + tok * stride_k_tok + offs, mask=m)
        v = tl.load(value_ptr + tok * stride_v_tok + offs, mask=m)
        if FP8_CACHE:
            k = (k.to(tl.float32) / k_scale).to(key_cache_ptr.dtype.element_ty)
            v = (v.to(tl.float32) / v_scale).to(value_cache_ptr.dtype.element_ty)
        tl.store(key_cache_ptr + dst + offs, k, mask=m)
        tl.store(value_cache_ptr + dst + offs, v, mask=m)


def _run_reshape_and_cache(fp8):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(6)
        tokens, heads, hs, bs, nblocks = 37, 4, 96, 16, 12
        key = torch.randn(tokens, heads, hs, device="cuda", generator=gen).to(torch.bfloat16)
        value = torch.randn(tokens, heads, hs, device="cuda", generator=gen).to(torch.bfloat16)
        cdt = torch.float8_e4m3fn if fp8 else torch.bfloat16
        kc = torch.zeros(nblocks, bs, heads, hs, device="cuda").to(cdt)
        vc = torch.zeros(nblocks, bs, heads, hs, device="cuda").to(cdt)
        slots = torch.randperm(nblocks * bs, device="cuda", generator=gen)[:tokens]
        slots[::5] = -1
        ks = torch.tensor([0.5], device="cuda")
        vs = torch.tensor([0.25], device="cuda")
        reshape_and_cache_flash[(tokens,)](key, value, kc, vc, slots, ks, vs, key.stride(0), value.stride(0),
                                           kc.stride(0), kc.stride(1), NUM_HEADS=heads, HEAD_SIZE=hs,
                                           BLOCK_SIZE=bs, TILE=256, FP8_CACHE=fp8, num_warps=4)
        ref_k = torch.zeros(nblocks * bs, heads, hs, device="cuda")
        ref_v = torch.zeros(nblocks * bs, heads, hs, device="cuda")
        keep = slots >= 0
        kin, vin = key[keep].float(), value[keep].float()
        if fp8:
            kin = (kin / 0.5).to(cdt).float()
            vin = (vin / 0.25).to(cdt).float()
        ref_k[slots[keep]] = kin
        ref_v[slots[keep]] = vin
        return [("key_cache", kc.float().reshape(-1, heads, hs), ref_k, 0, 0),
                ("value_cache", vc.float().reshape(-1, heads, hs), ref_v, 0, 0)]
    return run


# ----------------------------------------------------------------------------------------------
# Rotary embedding in place on q and k ([tokens, heads, head_size]), cos/sin rows gathered by
# position from a [max_pos, rot_dim] cache (cos half, then sin half); all heads of a token in one
# program. NEOX rotates the two halves; GPT-J rotates interleaved pairs.
# ----------------------------------------------------------------------------------------------


@triton.jit
def rotary_embedding_inplace(q_ptr, k_ptr, positions_ptr, cos_sin_ptr, stride_q_tok, stride_q_head,
                             stride_k_tok, stride_k_head, stride_cs, num_q_heads, num_kv_heads,
                             ROT_DIM: tl.constexpr, HEADS_PAD: tl.constexpr, IS_NEOX: tl.constexpr):
    tok = tl.program_id(0)
    pos = tl.load(positions_ptr + tok)
    HALF: tl.constexpr = ROT_DIM // 2
    offs_r = tl.arange(0, HALF)
    cos = tl.load(cos_sin_ptr + pos * stride_cs + offs_r).to(tl.float32)
    sin = tl.load(cos_sin_ptr + pos * stride_cs + HALF + offs_r).to(tl.float32)
    if IS_NEOX:
        off1 = offs_r
        off2 = offs_r + HALF
    else:
        off1 = offs_r * 2
        off2 = offs_r * 2 + 1
    heads = tl.arange(0, HEADS_PAD)
    for which in tl.static_range(2):
        if which == 0:
            base = q_ptr + tok * stride_q_tok + heads[:, None] * stride_q_head
            hmask = heads[:, None] < num_q_heads
        else:
            base = k_ptr + tok * stride_k_tok + heads[:, None] * stride_k_head
            hmask = heads[:, None] < num_kv_heads
        x1 = tl.load(base + off1[None, :], mask=hmask, other=0.0).to(tl.float32)
        x2 = tl.load(base + off2[None, :], mask=hmask, other=0.0).to(tl.float32)
        y1 = x1 * cos[None, :] - x2 * sin[None, :]
        y2 = x2 * cos[None, :] + x1 * sin[None, :]
        tl.store(base + off1[None, :], y1.to(q_ptr.dtype.element_ty), mask=hmask)
        tl.store(base + off2[None, :], y2.to(q_ptr.dtype.element_ty), mask=hmask)


def _run_rotary(is_neox, dtype_name):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(7)
        dtype = getattr(torch, dtype_name)
        tokens, nq, nkv, hs, rot, max_pos = 45, 12, 3, 128, 64, 4096
        q = torch.randn(tokens, nq, hs, device="cuda", generator=gen).to(dtype)
        k = torch.randn(tokens, nkv, hs, device="cuda", generator=gen).to(dtype)
        pos = torch.randint(0, max_pos, (tokens,), device="cuda", generator=gen)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, rot, 2, device="cuda").float() / rot))
        freqs = torch.arange(max_pos, device="cuda").float()[:, None] * inv_freq[None, :]
        cache = torch.cat([freqs.cos(), freqs.sin()], dim=-1)
        q0, k0 = q.float(), k.float()
        rotary_embedding_inplace[(tokens,)](q, k, pos, cache, q.stride(0), q.stride(1), k.stride(0), k.stride(1),
                                            cache.stride(0), nq, nkv, ROT_DIM=rot, HEADS_PAD=16,
                                            IS_NEOX=is_neox, num_warps=4)

        def ref(x):
            cos = cache[pos, :rot // 2][:, None, :]
            sin = cache[pos, rot // 2:][:, None, :]
            out = x.clone()
            if is_neox:
                x1, x2 = x[..., :rot // 2], x[..., rot // 2:rot]
                out[..., :rot // 2] = x1 * cos - x2 * sin
                out[..., rot // 2:rot] = x2 * cos + x1 * sin
            else:
                x1, x2 = x[..., 0:rot:2], x[..., 1:rot:2]
                out[..., 0:rot:2] = x1 * cos - x2 * sin
                out[..., 1:rot:2] = x2 * cos + x1 * sin
            return out
        return [("q", q, ref(q0), 2e-2, 2e-2), ("k", k, ref(k0), 2e-2, 2e-2)]
    return run


# ----------------------------------------------------------------------------------------------
# Mamba selective-state update, one decode step: state[b, d, n] = state * exp(A dt) + B dt x,
# y = sum_n state * C + D x, gated by silu(z); dt through softplus with a bias; the state row is
# found through a cache index, and padded entries return at once.
# ----------------------------------------------------------------------------------------------


@triton.jit
def selective_state_update(state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, out_ptr,
                           state_idx_ptr, dim, dstate, nheads_ngroups_ratio,
                           stride_s_batch, stride_s_head, stride_s_dim, stride_x_batch, stride_x_head,
                           stride_A_head, stride_A_dim, stride_B_batch, stride_B_group, stride_o_batch,
                           stride_o_head, pad_slot_id,
                           DT_SOFTPLUS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_DSTATE: tl.constexpr,
                           HAS_Z: tl.constexpr):
    # x, dt and z share one layout [batch, nheads, dim]; B and C share [batch, ngroups, dstate]
    pid_m = tl.program_id(0)
    pid_b = tl.program_id(1)
    pid_h = tl.program_id(2)
    state_row = tl.load(state_idx_ptr + pid_b).to(tl.int64)
    if state_row == pad_slot_id:
        return
    group = pid_h // nheads_ngroups_ratio
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_DSTATE)
    m_mask = offs_m < dim
    n_mask = offs_n < dstate
    mn_mask = m_mask[:, None] & n_mask[None, :]
    s_ptrs = state_ptr + state_row * stride_s_batch + pid_h * stride_s_head + offs_m[:, None] * stride_s_dim \
        + offs_n[None, :]
    state = tl.load(s_ptrs, mask=mn_mask, other=0.0)
    row = pid_b * stride_x_batch + pid_h * stride_x_head + offs_m
    x = tl.load(x_ptr + row, mask=m_mask, other=0.0).to(tl.float32)
    dt = tl.load(dt_ptr + row, mask=m_mask, other=0.0).to(tl.float32)
    dt += tl.load(dt_bias_ptr + pid_h * dim + offs_m, mask=m_mask, other=0.0).to(tl.float32)
    if DT_SOFTPLUS:
        dt = tl.where(dt <= 20.0, libdevice.log1p(tl.exp(dt)), dt)
    A = tl.load(A_ptr + pid_h * stride_A_head + offs_m[:, None] * stride_A_dim + offs_n[None, :], mask=mn_mask,
                other=0.0).to(tl.float32)
    dA = tl.exp(A * dt[:, None])
    bc_off = pid_b * stride_B_batch + group * stride_B_group + offs_n
    B = tl.load(B_ptr + bc_off, mask=n_mask, other=0.0).to(tl.float32)
    C = tl.load(C_ptr + bc_off, mask=n_mask, other=0.0).to(tl.float32)
    D = tl.load(D_ptr + pid_h * dim + offs_m, mask=m_mask, other=0.0).to(tl.float32)
    dB = B[None, :] * dt[:, None]
    state = state * dA + dB * x[:, None]
    tl.store(s_ptrs, state, mask=mn_mask)
    out = tl.sum(state * C[None, :], axis=1) + x * D
    if HAS_Z:
        z = tl.load(z_ptr + row, mask=m_mask, other=0.0).to(tl.float32)
        out *= z * tl.sigmoid(z)
    tl.store(out_ptr + pid_b * stride_o_batch + pid_h * stride_o_head + offs_m, out.to(out_ptr.dtype.element_ty),
             mask=m_mask)


def _run_ssu(torch):
    gen = torch.Generator(device="cuda").manual_seed(8)
    batch, nheads, ngroups, dim, dstate, slots, pad = 5, 4, 2, 100, 16, 8, -1
    state = torch.randn(slots, nheads, dim, dstate, device="cuda", generator=gen)
    x = torch.randn(batch, nheads, dim, device="cuda", generator=gen).to(torch.bfloat16)
    dt = torch.randn(batch, nheads, dim, device="cuda", generator=gen).to(torch.bfloat16)
    z = torch.randn(batch, nheads, dim, device="cuda", generator=gen).to(torch.bfloat16)
    dt_bias = torch.rand(nheads, dim, device="cuda", generator=gen) - 4.0
    A = -torch.rand(nheads, dim, dstate, device="cuda", generator=gen)
    B = torch.randn(batch, ngroups, dstate, device="cuda", generator=gen).to(torch.bfloat16)
    C = torch.randn(batch, ngroups, dstate, device="cuda", generator=gen).to(torch.bfloat16)
    D = torch.randn(nheads, dim, device="cuda", generator=gen)
    out = torch.zeros(batch, nheads, dim, device="cuda", dtype=torch.bfloat16)
    idx = torch.tensor([6, -1, 0, 3, 7], dtype=torch.int32, device="cuda")
    state0 = state.clone()
    block_m = 32
    ratio = nheads // ngroups
    selective_state_update[(triton.cdiv(dim, block_m), batch, nheads)](
        state, x, dt, dt_bias, A, B, C, D, z, out, idx, dim, dstate, ratio, state.stride(0), state.stride(1),
        state.stride(2), x.stride(0), x.stride(1), A.stride(0), A.stride(1), B.stride(0), B.stride(1),
        out.stride(0), out.stride(1), pad, DT_SOFTPLUS=True, BLOCK_M=block_m, BLOCK_DSTATE=16, HAS_Z=True,
        num_warps=4)
    ref_state = state0.clone()
    ref_out = torch.zeros(batch, nheads, dim, device="cuda")
    for b, row in enumerate(idx.tolist()):
        if row == pad:
            continue
        for h in range(nheads):
            g = h // ratio
            d = torch.nn.functional.softplus(dt[b, h].float() + dt_bias[h])
            dA = torch.exp(A[h] * d[:, None])
            dB = B[b, g].float()[None, :] * d[:, None]
            s = state0[row, h] * dA + dB * x[b, h].float()[:, None]
            ref_state[row, h] = s
            y = (s * C[b, g].float()[None, :]).sum(-1) + x[b, h].float() * D[h]
            zz = z[b, h].float()
            ref_out[b, h] = y * zz * torch.sigmoid(zz)
    return [("state", state, ref_state, 1e-3, 1e-3), ("out", out, ref_out, 3e-2, 3e-2)]


# ----------------------------------------------------------------------------------------------
# Unified (chunked-prefill + decode) paged attention: the query tokens of all sequences packed
# together; a program takes BLOCK_Q query tokens of one sequence times the QPKV query heads of one
# KV head as its BLOCK_M rows, and finds its sequence by binary search over the cumulative query
# starts. Causal against the sequence's context, optional sliding window, optional per-head
# attention sinks.
# ----------------------------------------------------------------------------------------------


@triton.jit
def _find_seq_idx(query_start_ptr, target_q_block, num_seqs, BLOCK_Q: tl.constexpr):
    left: tl.int32 = 0
    right = num_seqs
    while left < right:
        mid = (left + right) // 2
        start = tl.load(query_start_ptr + mid)
        if start // BLOCK_Q + mid <= target_q_block:
            left = mid + 1
        else:
            right = mid
    return left - 1


@triton.jit
def unified_attention(out_ptr, q_ptr, k_cache_ptr, v_cache_ptr, sinks_ptr, block_tables_ptr, seq_lens_ptr,
                      query_start_ptr, scale, num_seqs, stride_q_tok, stride_q_head, stride_o_tok, stride_o_head,
                      stride_c_blk, stride_c_slot, stride_c_head, stride_bt,
                      QPKV: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_SIZE: tl.constexpr, BLOCK_Q: tl.constexpr,
                      BLOCK_M: tl.constexpr, SLIDING_WINDOW: tl.constexpr, USE_SINKS: tl.constexpr):
    q_block_global = tl.program_id(0)
    kv_head = tl.program_id(1)
    seq = _find_seq_idx(query_start_ptr, q_block_global, num_seqs, BLOCK_Q)
    q_start = tl.load(query_start_ptr + seq)
    q_len = tl.load(query_start_ptr + seq + 1) - q_start
    q_block_local = q_block_global - (q_start // BLOCK_Q + seq)
    if q_block_local * BLOCK_Q >= q_len:
        return
    offs_m = tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_s = tl.arange(0, BLOCK_SIZE)
    q_pos = q_block_local * BLOCK_Q + offs_m // QPKV
    head = kv_head * QPKV + offs_m % QPKV
    row_mask = q_pos < q_len
    q_off = (q_start + q_pos)[:, None] * stride_q_tok + head[:, None] * stride_q_head + offs_d[None, :]
    q = tl.load(q_ptr + q_off, mask=row_mask[:, None], other=0.0)
    seq_len = tl.load(seq_lens_ptr + seq)
    context_len = seq_len - q_len
    if USE_SINKS:
        # the sink is one more logit without a value: it starts the running max and sum
        m_i = tl.load(sinks_ptr + head).to(tl.float32)
        l_i = tl.full([BLOCK_M], 1.0, tl.float32)
    else:
        m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
        l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    # the last key any row of this block sees
    max_key = tl.minimum(context_len + q_block_local * BLOCK_Q + BLOCK_Q, seq_len)
    num_blocks = tl.cdiv(max_key, BLOCK_SIZE)
    for j in range(0, num_blocks):
        phys = tl.load(block_tables_ptr + seq * stride_bt + j).to(tl.int64)
        key_pos = j * BLOCK_SIZE + offs_s
        kv_off = phys * stride_c_blk + offs_s[:, None] * stride_c_slot + kv_head * stride_c_head + offs_d[None, :]
        k = tl.load(k_cache_ptr + kv_off, mask=(key_pos < seq_len)[:, None], other=0.0)
        v = tl.load(v_cache_ptr + kv_off, mask=(key_pos < seq_len)[:, None], other=0.0)
        s = scale * tl.dot(q, tl.trans(k))
        visible = key_pos[None, :] <= (context_len + q_pos)[:, None]
        if SLIDING_WINDOW > 0:
            visible = visible & ((context_len + q_pos)[:, None] - key_pos[None, :] < SLIDING_WINDOW)
        s = tl.where(visible & row_mask[:, None], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        # a row that sees no key yet (sliding window, padding rows) keeps a finite max: no NaN
        m_new = tl.where(m_new > float("-inf"), m_new, 0.0)
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_off = (q_start + q_pos)[:, None] * stride_o_tok + head[:, None] * stride_o_head + offs_d[None, :]
    tl.store(out_ptr + o_off, acc.to(out_ptr.dtype.element_ty), mask=row_mask[:, None])


def _run_unified(window, sinks, opts):
    def run(torch):
        gen = torch.Generator(device="cuda").manual_seed(9)
        dtype, d, nkv, qpkv, bs, block_q = torch.bfloat16, 64, 2, 4, 16, 4
        q_lens, seq_lens = [1, 9, 1, 30], [40, 9, 129, 70]
        nq = nkv * qpkv
        k_cache, v_cache, tables, dk, dv = _paged_cache(torch, seq_lens, nkv, d, bs, dtype, gen)
        total_q = sum(q_lens)
        q = torch.randn(total_q, nq, d, device="cuda", generator=gen).to(dtype)
        out = torch.zeros_like(q)
        starts = [0] + list(itertools.accumulate(q_lens))
        qs = torch.tensor(starts, dtype=torch.int32, device="cuda")
        lens = torch.tensor(seq_lens, dtype=torch.int32, device="cuda")
        sink = torch.randn(nq, device="cuda", generator=gen)
        scale = 1.0 / math.sqrt(d)
        total_blocks = total_q // block_q + len(q_lens)
        unified_attention[(total_blocks, nkv)](
            out, q, k_cache, v_cache, sink, tables, lens, qs, scale, len(q_lens), q.stride(0), q.stride(1),
            out.stride(0), out.stride(1), k_cache.stride(0), k_cache.stride(1), k_cache.stride(2), tables.stride(0),
            QPKV=qpkv, HEAD_DIM=d, BLOCK_SIZE=bs, BLOCK_Q=block_q, BLOCK_M=block_q * qpkv, SLIDING_WINDOW=window,
            USE_SINKS=sinks, **opts)
        ref = torch.empty(total_q, nq, d, device="cuda")
        for i, (ql, n) in enumerate(zip(q_lens, seq_lens)):
            k = dk[i].repeat_interleave(qpkv, dim=1).transpose(0, 1)
            v = dv[i].repeat_interleave(qpkv, dim=1).transpose(0, 1)
            qq = q[starts[i]:starts[i] + ql].float().transpose(0, 1)
            s = qq @ k.transpose(1, 2) * scale  # [h, ql, n]
            qpos = torch.arange(ql, device="cuda")[:, None] + (n - ql)
            kpos = torch.arange(n, device="cuda")[None, :]
            visible = kpos <= qpos
            if window > 0:
                visible &= (qpos - kpos) < window
            s = s.masked_fill(~visible, float("-inf"))
            if sinks:
                s = torch.cat([s, sink[:, None, None].expand(nq, ql, 1)], dim=-1)
                p = torch.softmax(s, dim=-1)[..., :-1]
            else:
                p = torch.softmax(s, dim=-1)
            ref[starts[i]:starts[i] + ql] = (p @ v).transpose(0, 1)
        return [("out", out, ref, 2e-2, 2e-2)]
    return run


# ----------------------------------------------------------------------------------------------
# MLA decode (DeepSeek): the KV cache holds one latent vector per token (KV_LORA_RANK) and a
# shared rotary part (ROPE_DIM); all query heads attend to it, BLOCK_H heads per program, and the
# latent doubles as the value. Paged through a block table.
# ----------------------------------------------------------------------------------------------


@triton.jit
def mla_decode_paged(out_ptr, q_ptr, kv_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, num_heads,
                     stride_q_tok, stride_q_head, stride_o_tok, stride_o_head, stride_c_blk, stride_c_slot, stride_bt,
                     KV_LORA_RANK: tl.constexpr, ROPE_DIM: tl.constexpr, BLOCK_H: tl.constexpr,
                     BLOCK_SIZE: tl.constexpr):
    seq = tl.program_id(0)
    head_block = tl.program_id(1)
    heads = head_block * BLOCK_H + tl.arange(0, BLOCK_H)
    h_mask = heads < num_heads
    offs_c = tl.arange(0, KV_LORA_RANK)
    offs_r = tl.arange(0, ROPE_DIM)
    offs_s = tl.arange(0, BLOCK_SIZE)
    q_base = q_ptr + seq * stride_q_tok + heads[:, None] * stride_q_head
    q_nope = tl.load(q_base + offs_c[None, :], mask=h_mask[:, None], other=0.0)
    q_pe = tl.load(q_base + KV_LORA_RANK + offs_r[None, :], mask=h_mask[:, None], other=0.0)
    seq_len = tl.load(seq_lens_ptr + seq)
    m_i = tl.full([BLOCK_H], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_H], tl.float32)
    acc = tl.zeros([BLOCK_H, KV_LORA_RANK], tl.float32)
    for j in range(0, tl.cdiv(seq_len, BLOCK_SIZE)):
        phys = tl.load(block_tables_ptr + seq * stride_bt + j).to(tl.int64)
        tok_mask = j * BLOCK_SIZE + offs_s < seq_len
        row = kv_cache_ptr + phys * stride_c_blk + offs_s * stride_c_slot
        kv = tl.load(row[None, :] + offs_c[:, None], mask=tok_mask[None, :], other=0.0)  # [rank, BLOCK_SIZE]
        k_pe = tl.load(row[None, :] + KV_LORA_RANK + offs_r[:, None], mask=tok_mask[None, :], other=0.0)
        s = (tl.dot(q_nope, kv) + tl.dot(q_pe, k_pe)) * scale
        s = tl.where(tok_mask[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(kv.dtype), tl.trans(kv))
        m_i = m_new
    tl.store(out_ptr + seq * stride_o_tok + heads[:, None] * stride_o_head + offs_c[None, :],
             (acc / l_i[:, None]).to(out_ptr.dtype.element_ty), mask=h_mask[:, None])


def _run_mla(torch):
    gen = torch.Generator(device="cuda").manual_seed(21)
    rank, rope, bs, nh, block_h = 512, 64, 16, 20, 16
    seq_lens = [1, 37, 100]
    dim = rank + rope
    k_cache, _, tables, dk, _ = _paged_cache(torch, seq_lens, 1, dim, bs, torch.bfloat16, gen)
    k_cache = k_cache.reshape(k_cache.shape[0], bs, dim)
    q = (torch.randn(len(seq_lens), nh, dim, device="cuda", generator=gen) / 4).to(torch.bfloat16)
    out = torch.empty(len(seq_lens), nh, rank, device="cuda", dtype=torch.bfloat16)
    lens = torch.tensor(seq_lens, dtype=torch.int32, device="cuda")
    scale = 1.0 / math.sqrt(192)
    mla_decode_paged[(len(seq_lens), triton.cdiv(nh, block_h))](
        out, q, k_cache, tables, lens, scale, nh, q.stride(0), q.stride(1), out.stride(0), out.stride(1),
        k_cache.stride(0), k_cache.stride(1), tables.stride(0), KV_LORA_RANK=rank, ROPE_DIM=rope, BLOCK_H=block_h,
        BLOCK_SIZE=bs, num_warps=4, num_stages=2)
    ref = []
    for i in range(len(seq_lens)):
        kv = dk[i][:, 0]  # [n, rank + rope]
        p = torch.softmax(q[i].float() @ kv.T * scale, dim=-1)
        ref.append(p @ kv[:, :rank])
    return [("out", out, torch.stack(ref), 2e-2, 2e-2)]


# ----------------------------------------------------------------------------------------------

_PAGED_SIG = {"out_ptr": "*fp16", "q_ptr": "*fp16", "k_cache_ptr": "*fp16", "v_cache_ptr": "*fp16",
              "block_tables_ptr": "*i32", "seq_lens_ptr": "*i32", "scale": "fp32",
              **{k: "i32" for k in ("stride_q_tok", "stride_q_head", "stride_o_tok", "stride_o_head", "stride_c_blk",
                                    "stride_c_slot", "stride_c_head", "stride_bt")}}
_PAGED_BF16_SIG = {k: ("*bf16" if v == "*fp16" else v) for k, v in _PAGED_SIG.items()}

_V2_SIG = {"tmp_out_ptr": "*fp32", "max_logits_ptr": "*fp32", "exp_sums_ptr": "*fp32", "q_ptr": "*fp16",
           "k_cache_ptr": "*fp16", "v_cache_ptr": "*fp16", "block_tables_ptr": "*i32", "seq_lens_ptr": "*i32",
           "alibi_slopes_ptr": "*fp32", "scale": "fp32",
           **{k: "i32" for k in ("stride_q_tok", "stride_c_blk", "stride_c_slot", "stride_c_head", "stride_bt",
                                 "num_q_heads", "max_num_partitions")}}
_V2_RED_SIG = {"out_ptr": "*fp16", "tmp_out_ptr": "*fp32", "max_logits_ptr": "*fp32", "exp_sums_ptr": "*fp32",
               "seq_lens_ptr": "*i32", "stride_o_tok": "i32", "num_q_heads": "i32", "max_num_partitions": "i32"}

_S1_SIG = {"q_ptr": "*bf16", "k_buf_ptr": "*bf16", "v_buf_ptr": "*bf16", "req_to_token_ptr": "*i32",
           "req_pool_idx_ptr": "*i32", "seq_lens_ptr": "*i32", "att_out_ptr": "*fp32", "att_lse_ptr": "*fp32",
           "sm_scale": "fp32", "logit_cap": "fp32",
           **{k: "i32" for k in ("stride_qb", "stride_qh", "stride_buf_kbs", "stride_buf_kh", "stride_buf_vbs",
                                 "stride_buf_vh", "stride_req", "stride_ob", "stride_oh", "stride_os")}}
_S2_SIG = {"att_out_ptr": "*fp32", "att_lse_ptr": "*fp32", "o_ptr": "*bf16", "seq_lens_ptr": "*i32",
           **{k: "i32" for k in ("stride_ob", "stride_oh", "stride_os", "stride_o_b", "stride_o_h")}}


def _varlen_sig(dt):
    return {"q_ptr": dt, "k_ptr": dt, "v_ptr": dt, "o_ptr": dt, "cu_seqlens_ptr": "*i32", "sm_scale": "fp32",
            **{k: "i32" for k in ("stride_qt", "stride_qh", "stride_kt", "stride_kh", "stride_vt", "stride_vh",
                                  "stride_ot", "stride_oh")}}


_EXT_SIG = {"q_ext_ptr": "*bf16", "k_ext_ptr": "*bf16", "v_ext_ptr": "*bf16", "o_ext_ptr": "*bf16",
            "k_buf_ptr": "*bf16", "v_buf_ptr": "*bf16", "req_to_token_ptr": "*i32", "req_pool_idx_ptr": "*i32",
            "prefix_lens_ptr": "*i32", "qo_start_ptr": "*i32", "ext_lens_ptr": "*i32", "sm_scale": "fp32",
            **{k: "i32" for k in ("stride_qt", "stride_qh", "stride_kt", "stride_kh", "stride_bt", "stride_bh",
                                  "stride_ot", "stride_oh", "stride_req")}}


def _cache_sig(cache_dt):
    return {"key_ptr": "*bf16", "value_ptr": "*bf16", "key_cache_ptr": cache_dt, "value_cache_ptr": cache_dt,
            "slot_mapping_ptr": "*i64", "k_scale_ptr": "*fp32", "v_scale_ptr": "*fp32",
            **{k: "i32" for k in ("stride_k_tok", "stride_v_tok", "stride_c_blk", "stride_c_slot")}}


def _rope_sig(dt):
    return {"q_ptr": dt, "k_ptr": dt, "positions_ptr": "*i64", "cos_sin_ptr": "*fp32",
            **{k: "i32" for k in ("stride_q_tok", "stride_q_head", "stride_k_tok", "stride_k_head", "stride_cs",
                                  "num_q_heads", "num_kv_heads")}}


_SSU_SIG = {"state_ptr": "*fp32", "x_ptr": "*bf16", "dt_ptr": "*bf16", "dt_bias_ptr": "*fp32", "A_ptr": "*fp32",
            "B_ptr": "*bf16", "C_ptr": "*bf16", "D_ptr": "*fp32", "z_ptr": "*bf16", "out_ptr": "*bf16",
            "state_idx_ptr": "*i32",
            **{k: "i32" for k in ("dim", "dstate", "nheads_ngroups_ratio", "stride_s_batch", "stride_s_head",
                                  "stride_s_dim", "stride_x_batch", "stride_x_head", "stride_A_head",
                                  "stride_A_dim", "stride_B_batch", "stride_B_group", "stride_o_batch",
                                  "stride_o_head", "pad_slot_id")}}

def launched_case(name, fn, sig, const, ints, **rest):
    """A case compiled as Triton's JIT specialises the launch its run() makes (`ints` are the
    integer arguments' values there): an integer equal to 1 becomes the constexpr 1, one divisible
    by 16 gets tt.divisibility 16, and so does every pointer (torch's allocations are 16-byte
    aligned)."""
    sig, const = dict(sig), dict(const)
    missing = [a for a in sig if not sig[a].startswith(("*", "fp")) and a not in ints]
    assert not missing, f"{name}: no launch value for {missing}"
    for arg, value in ints.items():
        if value == 1:
            del sig[arg]
            const[arg] = 1
    div = [i for i, a in enumerate(fn.arg_names)
           if a in sig and (sig[a].startswith("*") or (a in ints and ints[a] % 16 == 0))]
    return dict(name=name, fn=fn, sig=sig, const=const, div=div, **rest)


_PAGED_D128_INTS = dict(stride_q_tok=1024, stride_q_head=128, stride_o_tok=1024, stride_o_head=128,
                        stride_c_blk=4096, stride_c_slot=256, stride_c_head=128, stride_bt=21)
_PAGED_D64_INTS = dict(stride_q_tok=1024, stride_q_head=64, stride_o_tok=1024, stride_o_head=64,
                       stride_c_blk=4096, stride_c_slot=128, stride_c_head=64, stride_bt=11)
_V2_INTS = dict(stride_q_tok=640, stride_c_blk=2560, stride_c_slot=160, stride_c_head=80, stride_bt=33,
                num_q_heads=8, max_num_partitions=5)
_S1_INTS = dict(stride_qb=1024, stride_qh=128, stride_buf_kbs=256, stride_buf_kh=128, stride_buf_vbs=256,
                stride_buf_vh=128, stride_req=300, stride_ob=8192, stride_oh=1024, stride_os=128)
_S2_INTS = dict(stride_ob=8192, stride_oh=1024, stride_os=128, stride_o_b=1024, stride_o_h=128)
_VARLEN_INTS = dict(stride_qt=256, stride_qh=64, stride_kt=128, stride_kh=64, stride_vt=128, stride_vh=64,
                    stride_ot=256, stride_oh=64)
_EXT_INTS = dict(stride_qt=1024, stride_qh=128, stride_kt=256, stride_kh=128, stride_bt=256, stride_bh=128,
                 stride_ot=1024, stride_oh=128, stride_req=256)
_CACHE_INTS = dict(stride_k_tok=384, stride_v_tok=384, stride_c_blk=6144, stride_c_slot=384)
_ROPE_INTS = dict(stride_q_tok=1536, stride_q_head=128, stride_k_tok=384, stride_k_head=128, stride_cs=64,
                  num_q_heads=12, num_kv_heads=3)
_SSU_INTS = dict(dim=100, dstate=16, nheads_ngroups_ratio=2, stride_s_batch=6400, stride_s_head=1600,
                 stride_s_dim=16, stride_x_batch=400, stride_x_head=100, stride_A_head=1600, stride_A_dim=16,
                 stride_B_batch=32, stride_B_group=16, stride_o_batch=400, stride_o_head=100, pad_slot_id=-1)

_UNIFIED_SIG = {"out_ptr": "*bf16", "q_ptr": "*bf16", "k_cache_ptr": "*bf16", "v_cache_ptr": "*bf16",
                "sinks_ptr": "*fp32", "block_tables_ptr": "*i32", "seq_lens_ptr": "*i32", "query_start_ptr": "*i32",
                "scale": "fp32",
                **{k: "i32" for k in ("num_seqs", "stride_q_tok", "stride_q_head", "stride_o_tok", "stride_o_head",
                                      "stride_c_blk", "stride_c_slot", "stride_c_head", "stride_bt")}}
_UNIFIED_INTS = dict(num_seqs=4, stride_q_tok=512, stride_q_head=64, stride_o_tok=512, stride_o_head=64,
                     stride_c_blk=2048, stride_c_slot=128, stride_c_head=64, stride_bt=9)
_MLA_SIG = {"out_ptr": "*bf16", "q_ptr": "*bf16", "kv_cache_ptr": "*bf16", "block_tables_ptr": "*i32",
            "seq_lens_ptr": "*i32", "scale": "fp32",
            **{k: "i32" for k in ("num_heads", "stride_q_tok", "stride_q_head", "stride_o_tok", "stride_o_head",
                                  "stride_c_blk", "stride_c_slot", "stride_bt")}}
_MLA_INTS = dict(num_heads=20, stride_q_tok=11520, stride_q_head=576, stride_o_tok=10240, stride_o_head=512,
                 stride_c_blk=9216, stride_c_slot=576, stride_bt=7)

# launch options (num_warps, num_stages) shared by a case and its run()
_O41, _O42, _O43, _O44, _O83 = (dict(num_warps=w, num_stages=n) for w, n in ((4, 1), (4, 2), (4, 3), (4, 4), (8, 3)))

CASES = [
    launched_case("paged_attn_decode_gqa_fp16_d128_bs16", paged_attn_decode_gqa, _PAGED_SIG,
                  dict(QUERY_GRP=4, QUERY_GRP_PAD=16, HEAD_DIM=128, BLOCK_SIZE=16), _PAGED_D128_INTS,
                  opts=_O42, run=_run_paged_decode(128, 4, 16, "float16", _O42)),
    launched_case("paged_attn_decode_gqa_bf16_d64_bs32", paged_attn_decode_gqa, _PAGED_BF16_SIG,
                  dict(QUERY_GRP=8, QUERY_GRP_PAD=16, HEAD_DIM=64, BLOCK_SIZE=32), _PAGED_D64_INTS,
                  opts=_O43, run=_run_paged_decode(64, 8, 32, "bfloat16", _O43)),
    launched_case("paged_attn_decode_v2_partition_alibi", paged_attn_decode_v2_partition, _V2_SIG,
                  dict(QUERY_GRP=4, HEAD_DIM=80, HEAD_DIM_PAD=128, BLOCK_SIZE=16, PARTITION_SIZE=128,
                       USE_ALIBI=True), _V2_INTS, opts=_O42, run=_run_paged_v2(True, _O42)),
    launched_case("paged_attn_decode_v2_partition", paged_attn_decode_v2_partition, _V2_SIG,
                  dict(QUERY_GRP=4, HEAD_DIM=80, HEAD_DIM_PAD=128, BLOCK_SIZE=16, PARTITION_SIZE=128,
                       USE_ALIBI=False), _V2_INTS, opts=_O41, run=_run_paged_v2(False, _O41)),
    launched_case("paged_attn_decode_v2_reduce", paged_attn_decode_v2_reduce, _V2_RED_SIG,
                  dict(HEAD_DIM=80, HEAD_DIM_PAD=128, PARTITION_SIZE=128, MAX_PARTS_PAD=8),
                  dict(stride_o_tok=640, num_q_heads=8, max_num_partitions=5), opts=dict(num_warps=4)),
    launched_case("decode_splitkv_stage1_softcap_bf16", decode_splitkv_stage1, _S1_SIG,
                  dict(KV_GROUP=4, BLOCK_DMODEL=128, BLOCK_N=32, KV_SPLITS=8, LOGIT_CAP=True), _S1_INTS,
                  opts=dict(num_warps=4, num_stages=2), run=_run_decode_splitkv),
    launched_case("decode_splitkv_stage2_merge", decode_splitkv_stage2, _S2_SIG,
                  dict(KV_SPLITS=8, BLOCK_DMODEL=128), _S2_INTS, opts=dict(num_warps=4, num_stages=2)),
    launched_case("decode_splitkv_stage2_merge_fp16", decode_splitkv_stage2, {**_S2_SIG, "o_ptr": "*fp16"},
                  dict(KV_SPLITS=8, BLOCK_DMODEL=128), _S2_INTS, opts=dict(num_warps=4),
                  run=_run_decode_stage2_only),
    launched_case("varlen_prefill_causal_fp16_m64n64", varlen_prefill_attn, _varlen_sig("*fp16"),
                  dict(KV_GROUP=2, HEAD_DIM=64, BLOCK_M=64, BLOCK_N=64, IS_CAUSAL=True), _VARLEN_INTS,
                  opts=_O42, run=_run_varlen("float16", 64, 64, True, _O42)),
    launched_case("varlen_prefill_causal_bf16_m128n32_s3", varlen_prefill_attn, _varlen_sig("*bf16"),
                  dict(KV_GROUP=2, HEAD_DIM=64, BLOCK_M=128, BLOCK_N=32, IS_CAUSAL=True), _VARLEN_INTS,
                  opts=_O83, run=_run_varlen("bfloat16", 128, 32, True, _O83)),
    launched_case("varlen_prefill_full_bf16_m64n64", varlen_prefill_attn, _varlen_sig("*bf16"),
                  dict(KV_GROUP=2, HEAD_DIM=64, BLOCK_M=64, BLOCK_N=64, IS_CAUSAL=False), _VARLEN_INTS,
                  opts=_O44, run=_run_varlen("bfloat16", 64, 64, False, _O44)),
    launched_case("extend_attn_paged_prefix_bf16", extend_attn_fwd, _EXT_SIG,
                  dict(KV_GROUP=4, HEAD_DIM=128, BLOCK_M=64, BLOCK_N=64), _EXT_INTS,
                  opts=dict(num_warps=4, num_stages=2), run=_run_extend),
    launched_case("reshape_and_cache_flash_bf16", reshape_and_cache_flash, _cache_sig("*bf16"),
                  dict(NUM_HEADS=4, HEAD_SIZE=96, BLOCK_SIZE=16, TILE=256, FP8_CACHE=False), _CACHE_INTS,
                  opts=dict(num_warps=4), run=_run_reshape_and_cache(False)),
    launched_case("reshape_and_cache_flash_fp8", reshape_and_cache_flash, _cache_sig("*fp8e4nv"),
                  dict(NUM_HEADS=4, HEAD_SIZE=96, BLOCK_SIZE=16, TILE=256, FP8_CACHE=True), _CACHE_INTS,
                  opts=dict(num_warps=4), targets=("cuda:90",), run=_run_reshape_and_cache(True)),
    launched_case("rotary_neox_inplace_bf16", rotary_embedding_inplace, _rope_sig("*bf16"),
                  dict(ROT_DIM=64, HEADS_PAD=16, IS_NEOX=True), _ROPE_INTS, opts=dict(num_warps=4),
                  run=_run_rotary(True, "bfloat16")),
    launched_case("rotary_gptj_inplace_fp16", rotary_embedding_inplace, _rope_sig("*fp16"),
                  dict(ROT_DIM=64, HEADS_PAD=16, IS_NEOX=False), _ROPE_INTS, opts=dict(num_warps=4),
                  run=_run_rotary(False, "float16")),
    launched_case("mamba_selective_state_update", selective_state_update, _SSU_SIG,
                  dict(DT_SOFTPLUS=True, BLOCK_M=32, BLOCK_DSTATE=16, HAS_Z=True), _SSU_INTS,
                  opts=dict(num_warps=4), run=_run_ssu),
    launched_case("unified_attention_paged_bf16", unified_attention, _UNIFIED_SIG,
                  dict(QPKV=4, HEAD_DIM=64, BLOCK_SIZE=16, BLOCK_Q=4, BLOCK_M=16, SLIDING_WINDOW=0, USE_SINKS=False),
                  _UNIFIED_INTS, opts=_O42, run=_run_unified(0, False, _O42)),
    launched_case("unified_attention_paged_window_sinks", unified_attention, _UNIFIED_SIG,
                  dict(QPKV=4, HEAD_DIM=64, BLOCK_SIZE=16, BLOCK_Q=4, BLOCK_M=16, SLIDING_WINDOW=32, USE_SINKS=True),
                  _UNIFIED_INTS, opts=_O43, run=_run_unified(32, True, _O43)),
    launched_case("mla_decode_paged_bf16", mla_decode_paged, _MLA_SIG,
                  dict(KV_LORA_RANK=512, ROPE_DIM=64, BLOCK_H=16, BLOCK_SIZE=16), _MLA_INTS,
                  opts=dict(num_warps=4, num_stages=2), run=_run_mla),
]
