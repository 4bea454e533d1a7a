"""Training kernels over sequences, in the styles of FLA, mamba, causal-conv1d, Liger/unsloth RoPE and
MoE routing code (written for this project):

- chunked retention forward (FLA's fused-chunk style): block pointers advanced over the sequence,
  tl.dot in the loop, boundary_check, exp2 decay masks, a 3D grid with program_id(2);
- chunk-local cumulative sums of log-decays, forward and reverse (tl.cumsum reverse=True), over
  packed variable-length sequences (cu_seqlens + chunk_indices);
- selective scan (mamba): softplus dt, tl.associative_scan over a tuple combine function, z gating;
- causal depthwise conv1d over the sequence with a tl.static_range tap loop and SiLU;
- RoPE backward (rotate-half) on packed sequences, positions from a binary search over cu_seqlens in a
  while loop; interleaved (GPT-J) RoPE forward through tl.reshape + tl.split / tl.join;
- MoE routing: softmax + top-k over packed (probability, expert) keys (tl.topk, tl.gather), expert
  token counts with tl.histogram, token sorting by expert with tl.sort;
- batched 3D tl.dot over groups of small matrices.
"""
import itertools

import triton
import triton.language as tl


# ---------------------------------------------------------------------------------------------
# chunked retention forward


@triton.jit
def fused_chunk_retention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, scale, T, H: tl.constexpr, K: tl.constexpr,
                              V: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr):
    i_v, i_k, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_h = i_bh % H
    # per-head decay gamma = 1 - 2^(-5 - h), kept in log2
    log2_gamma = tl.log2(1.0 - tl.exp2(-5.0 - i_h.to(tl.float32)))
    pos = tl.arange(0, BT)
    decay_chunk = tl.exp2(BT * log2_gamma)
    decay_query = tl.exp2((pos + 1) * log2_gamma)
    decay_key = tl.exp2((BT - pos - 1) * log2_gamma)
    causal = pos[:, None] >= pos[None, :]
    decay_intra = tl.where(causal, tl.exp2((pos[:, None] - pos[None, :]) * log2_gamma), 0.0)
    state = tl.zeros([BK, BV], dtype=tl.float32)
    n_bh = tl.num_programs(2)
    p_q = tl.make_block_ptr(q_ptr + i_bh * T * K, (T, K), (K, 1), (0, i_k * BK), (BT, BK), (1, 0))
    p_k = tl.make_block_ptr(k_ptr + i_bh * T * K, (K, T), (1, K), (i_k * BK, 0), (BK, BT), (0, 1))
    p_v = tl.make_block_ptr(v_ptr + i_bh * T * V, (T, V), (V, 1), (0, i_v * BV), (BT, BV), (1, 0))
    p_o = tl.make_block_ptr(o_ptr + (i_k * n_bh + i_bh).to(tl.int64) * T * V, (T, V), (V, 1), (0, i_v * BV),
                            (BT, BV), (1, 0))
    for _ in range(0, tl.cdiv(T, BT)):
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_q = (b_q * scale).to(b_q.dtype)
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_v = tl.load(p_v, boundary_check=(0, 1))
        scores = tl.dot(b_q, b_k) * decay_intra
        b_o = tl.dot(scores.to(b_q.dtype), b_v)
        b_o += tl.dot(b_q, state.to(b_q.dtype)) * decay_query[:, None]
        state = decay_chunk * state + tl.dot(b_k, (b_v * decay_key[:, None]).to(b_k.dtype))
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))
        p_q = tl.advance(p_q, (BT, 0))
        p_k = tl.advance(p_k, (0, BT))
        p_v = tl.advance(p_v, (BT, 0))
        p_o = tl.advance(p_o, (BT, 0))


def _run_retention(bt, num_warps, num_stages):
    def run(torch):
        b, h, t, d = 2, 4, 200, 64
        q = torch.randn(b, h, t, d, device="cuda", dtype=torch.float16)
        k = torch.randn(b, h, t, d, device="cuda", dtype=torch.float16)
        v = torch.randn(b, h, t, d, device="cuda", dtype=torch.float16)
        scale = d ** -0.5
        o = torch.empty(1, b, h, t, d, device="cuda", dtype=torch.float16)
        fused_chunk_retention_fwd[(1, 1, b * h)](q, k, v, o, scale, t, H=h, K=d, V=d, BT=bt, BK=64, BV=64,
                                                 num_warps=num_warps, num_stages=num_stages)
        gamma = 1 - 2.0 ** (-5.0 - torch.arange(h, device="cuda", dtype=torch.float32))
        idx = torch.arange(t, device="cuda")
        dist = (idx[:, None] - idx[None, :]).float()
        decay = torch.where(dist >= 0, gamma[:, None, None] ** dist.clamp(min=0), torch.zeros(()).cuda())
        ref = ((q.float() @ k.float().transpose(-1, -2)) * scale * decay) @ v.float()
        return [("o", o[0], ref, 5e-2, 5e-2)]
    return run


# ---------------------------------------------------------------------------------------------
# chunk-local cumulative sums over packed variable-length sequences, layout [total_tokens, H, S]


@triton.jit
def chunk_local_cumsum_varlen(g_ptr, out_ptr, cu_seqlens_ptr, chunk_indices_ptr, H: tl.constexpr,
                              S: tl.constexpr, BT: tl.constexpr, BS: tl.constexpr, REVERSE: tl.constexpr):
    i_s, i_t, i_h = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_n = tl.load(chunk_indices_ptr + i_t * 2).to(tl.int32)
    i_t = tl.load(chunk_indices_ptr + i_t * 2 + 1).to(tl.int32)
    bos = tl.load(cu_seqlens_ptr + i_n).to(tl.int32)
    eos = tl.load(cu_seqlens_ptr + i_n + 1).to(tl.int32)
    T = eos - bos
    p_g = tl.make_block_ptr(g_ptr + (bos * H + i_h) * S, (T, S), (H * S, 1), (i_t * BT, i_s * BS), (BT, BS), (1, 0))
    p_o = tl.make_block_ptr(out_ptr + (bos * H + i_h) * S, (T, S), (H * S, 1), (i_t * BT, i_s * BS), (BT, BS),
                            (1, 0))
    b_g = tl.load(p_g, boundary_check=(0, 1)).to(tl.float32)
    b_o = tl.cumsum(b_g, axis=0, reverse=REVERSE)
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))


def _run_cumsum(reverse):
    def run(torch):
        lens, h, s, bt, bs = [37, 64, 130], 4, 48, 32, 32
        cu = torch.tensor([0] + list(itertools.accumulate(lens)), device="cuda", dtype=torch.int32)
        chunks = [(n, c) for n, ln in enumerate(lens) for c in range(triton.cdiv(ln, bt))]
        chunk_indices = torch.tensor(chunks, device="cuda", dtype=torch.int32).flatten()
        g = -torch.rand(sum(lens), h, s, device="cuda", dtype=torch.float32)
        out = torch.empty_like(g)
        chunk_local_cumsum_varlen[(triton.cdiv(s, bs), len(chunks), h)](g, out, cu, chunk_indices, H=h, S=s, BT=bt,
                                                                         BS=bs, REVERSE=reverse, num_warps=4)
        ref = torch.empty_like(g)
        start = 0
        for ln in lens:
            for c in range(0, ln, bt):
                piece = g[start + c:start + min(c + bt, ln)]
                ref[start + c:start + min(c + bt, ln)] = (piece.flip(0).cumsum(0).flip(0) if reverse
                                                          else piece.cumsum(0))
            start += ln
        return [("cumsum", out, ref, 1e-4, 1e-4)]
    return run


# ---------------------------------------------------------------------------------------------
# selective scan (mamba): h_t = exp(dt_t * A) h_{t-1} + dt_t B_t x_t, y_t = C_t . h_t + D x_t, gated


@triton.jit
def _linear_recurrence(decay_a, value_a, decay_b, value_b):
    return decay_a * decay_b, value_a * decay_b + value_b


@triton.jit
def selective_scan_fwd(x_ptr, dt_ptr, dt_bias_ptr, a_ptr, b_ptr, c_ptr, d_ptr, z_ptr, y_ptr, seqlen, dim,
                       N_STATE: tl.constexpr, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    batch = tl.program_id(0)
    chans = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    steps = tl.arange(0, BLOCK_L)
    cmask = chans < dim
    mask = (steps[:, None] < seqlen) & cmask[None, :]
    offs = batch.to(tl.int64) * seqlen * dim + steps[:, None] * dim + chans[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dt = tl.load(dt_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dt += tl.load(dt_bias_ptr + chans, mask=cmask, other=0.0)[None, :]
    dt = tl.where(dt <= 20.0, tl.log(1.0 + tl.exp(dt)), dt)  # softplus
    y = tl.zeros([BLOCK_L, BLOCK_D], tl.float32)
    bc_offs = batch.to(tl.int64) * seqlen * N_STATE + steps * N_STATE
    for n in range(N_STATE):
        a_n = tl.load(a_ptr + chans * N_STATE + n, mask=cmask, other=0.0)
        b_n = tl.load(b_ptr + bc_offs + n, mask=steps < seqlen, other=0.0)
        c_n = tl.load(c_ptr + bc_offs + n, mask=steps < seqlen, other=0.0)
        decay = tl.exp(dt * a_n[None, :])
        drive = dt * b_n[:, None] * x
        _, h = tl.associative_scan((decay, drive), axis=0, combine_fn=_linear_recurrence)
        y += h * c_n[:, None]
    y += x * tl.load(d_ptr + chans, mask=cmask, other=0.0)[None, :]
    z = tl.load(z_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y *= z * tl.sigmoid(z)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def _run_selective_scan(torch):
    bsz, seqlen, dim, n = 2, 100, 96, 16
    x = torch.randn(bsz, seqlen, dim, device="cuda", dtype=torch.bfloat16)
    dt = (torch.randn(bsz, seqlen, dim, device="cuda") * 0.5 - 2).to(torch.bfloat16)
    dt_bias = torch.randn(dim, device="cuda") * 0.1
    a = -torch.rand(dim, n, device="cuda") - 0.5
    b = torch.randn(bsz, seqlen, n, device="cuda")
    c = torch.randn(bsz, seqlen, n, device="cuda")
    d = torch.randn(dim, device="cuda")
    z = torch.randn(bsz, seqlen, dim, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    selective_scan_fwd[(bsz, triton.cdiv(dim, 32))](x, dt, dt_bias, a, b, c, d, z, y, seqlen, dim, N_STATE=n,
                                                   BLOCK_L=128, BLOCK_D=32, num_warps=4)
    dtf = torch.nn.functional.softplus(dt.float() + dt_bias)
    xf = x.float()
    h = torch.zeros(bsz, dim, n, device="cuda")
    ys = []
    for t in range(seqlen):
        h = torch.exp(dtf[:, t, :, None] * a) * h + dtf[:, t, :, None] * b[:, t, None, :] * xf[:, t, :, None]
        ys.append((h * c[:, t, None, :]).sum(-1))
    ref = (torch.stack(ys, 1) + xf * d) * torch.nn.functional.silu(z.float())
    return [("y", y, ref, 5e-2, 3e-2)]


# ---------------------------------------------------------------------------------------------
# causal depthwise conv1d, x [batch, dim, seqlen]


@triton.jit
def causal_conv1d_fwd(x_ptr, w_ptr, bias_ptr, y_ptr, dim, seqlen, WIDTH: tl.constexpr, SILU: tl.constexpr,
                      BLOCK_D: tl.constexpr, BLOCK_L: tl.constexpr):
    batch = tl.program_id(0)
    chans = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    steps = tl.program_id(2) * BLOCK_L + tl.arange(0, BLOCK_L)
    cmask = chans < dim
    base = batch.to(tl.int64) * dim * seqlen + chans[:, None] * seqlen
    acc = tl.zeros([BLOCK_D, BLOCK_L], tl.float32) + tl.load(bias_ptr + chans, mask=cmask, other=0.0)[:, None]
    for tap in tl.static_range(WIDTH):
        src = steps - (WIDTH - 1 - tap)
        xm = cmask[:, None] & (src[None, :] >= 0) & (src[None, :] < seqlen)
        xv = tl.load(x_ptr + base + src[None, :], mask=xm, other=0.0).to(tl.float32)
        wv = tl.load(w_ptr + chans * WIDTH + tap, mask=cmask, other=0.0).to(tl.float32)
        acc += xv * wv[:, None]
    if SILU:
        acc = acc * tl.sigmoid(acc)
    ymask = cmask[:, None] & (steps[None, :] < seqlen)
    tl.store(y_ptr + base + steps[None, :], acc.to(y_ptr.dtype.element_ty), mask=ymask)


def _run_conv1d(torch):
    bsz, dim, seqlen, width = 2, 200, 301, 4
    x = torch.randn(bsz, dim, seqlen, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(dim, width, device="cuda", dtype=torch.bfloat16)
    bias = torch.randn(dim, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    causal_conv1d_fwd[(bsz, triton.cdiv(dim, 64), triton.cdiv(seqlen, 64))](x, w, bias, y, dim, seqlen, WIDTH=width,
                                                                           SILU=True, BLOCK_D=64, BLOCK_L=64,
                                                                           num_warps=4)
    ref = torch.nn.functional.conv1d(x.float(), w.float()[:, None, :], bias.float(), padding=width - 1,
                                     groups=dim)[..., :seqlen]
    return [("y", y, torch.nn.functional.silu(ref), 3e-2, 2e-2)]


# ---------------------------------------------------------------------------------------------
# RoPE


@triton.jit
def _sequence_of(token, cu_seqlens_ptr, n_seqs):
    # binary search: the last sequence whose start is <= token
    lo = 0
    hi = n_seqs
    while lo < hi:
        mid = (lo + hi) // 2
        if tl.load(cu_seqlens_ptr + mid + 1) <= token:
            lo = mid + 1
        else:
            hi = mid
    return lo


@triton.jit
def rope_bwd_varlen(dq_ptr, cos_ptr, sin_ptr, cu_seqlens_ptr, n_seqs, stride_t, stride_h, n_heads,
                    HEAD_DIM: tl.constexpr, BLOCK_H: tl.constexpr):
    token = tl.program_id(0)
    seq = _sequence_of(token, cu_seqlens_ptr, n_seqs)
    pos = token - tl.load(cu_seqlens_ptr + seq)
    half = tl.arange(0, HEAD_DIM // 2)
    heads = tl.arange(0, BLOCK_H)
    cos = tl.load(cos_ptr + pos * (HEAD_DIM // 2) + half)[None, :]
    sin = tl.load(sin_ptr + pos * (HEAD_DIM // 2) + half)[None, :]
    mask = heads[:, None] < n_heads
    first = dq_ptr + token.to(tl.int64) * stride_t + heads[:, None] * stride_h + half[None, :]
    dy1 = tl.load(first, mask=mask, other=0.0).to(tl.float32)
    dy2 = tl.load(first + HEAD_DIM // 2, mask=mask, other=0.0).to(tl.float32)
    # the transpose of the rotation: rotate by -theta
    tl.store(first, (dy1 * cos + dy2 * sin).to(dq_ptr.dtype.element_ty), mask=mask)
    tl.store(first + HEAD_DIM // 2, (dy2 * cos - dy1 * sin).to(dq_ptr.dtype.element_ty), mask=mask)


def _rope_tables(torch, max_pos, head_dim):
    inv_freq = 1.0 / (10000 ** (torch.arange(0, head_dim, 2, device="cuda").float() / head_dim))
    freqs = torch.arange(max_pos, device="cuda").float()[:, None] * inv_freq[None, :]
    return freqs.cos().contiguous(), freqs.sin().contiguous()


def _run_rope_bwd(torch):
    lens, heads, head_dim = [5, 17, 1, 40], 12, 128
    cu = torch.tensor([0, 5, 22, 23, 63], device="cuda", dtype=torch.int32)
    cos, sin = _rope_tables(torch, max(lens), head_dim)
    dq = torch.randn(sum(lens), heads, head_dim, device="cuda", dtype=torch.bfloat16)
    pos = torch.cat([torch.arange(n, device="cuda") for n in lens])
    c, s = cos[pos][:, None, :], sin[pos][:, None, :]
    d1, d2 = dq.float().chunk(2, dim=-1)
    ref = torch.cat([d1 * c + d2 * s, d2 * c - d1 * s], dim=-1)
    rope_bwd_varlen[(sum(lens),)](dq, cos, sin, cu, len(lens), dq.stride(0), dq.stride(1), heads,
                                  HEAD_DIM=head_dim, BLOCK_H=16, num_warps=4)
    return [("dq", dq, ref, 2e-2, 1e-2)]


@triton.jit
def rope_interleaved_fwd(x_ptr, cos_ptr, sin_ptr, pos_ptr, y_ptr, stride_t, n_heads, HEAD_DIM: tl.constexpr,
                         BLOCK_H: tl.constexpr):
    token = tl.program_id(0)
    pos = tl.load(pos_ptr + token)
    heads = tl.arange(0, BLOCK_H)
    dims = tl.arange(0, HEAD_DIM)
    mask = heads[:, None] < n_heads
    offs = token.to(tl.int64) * stride_t + heads[:, None] * HEAD_DIM + dims[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    # pairs (2i, 2i+1) rotate together
    even, odd = tl.split(tl.reshape(x, (BLOCK_H, HEAD_DIM // 2, 2)))
    half = tl.arange(0, HEAD_DIM // 2)
    cos = tl.load(cos_ptr + pos * (HEAD_DIM // 2) + half)[None, :]
    sin = tl.load(sin_ptr + pos * (HEAD_DIM // 2) + half)[None, :]
    y = tl.reshape(tl.join(even * cos - odd * sin, odd * cos + even * sin), (BLOCK_H, HEAD_DIM))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def _run_rope_interleaved(torch):
    tokens, heads, head_dim = 50, 6, 64
    cos, sin = _rope_tables(torch, 1000, head_dim)
    pos = torch.randint(0, 1000, (tokens,), device="cuda", dtype=torch.int64)
    x = torch.randn(tokens, heads, head_dim, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    rope_interleaved_fwd[(tokens,)](x, cos, sin, pos, y, x.stride(0), heads, HEAD_DIM=head_dim, BLOCK_H=8,
                                    num_warps=2)
    xe, xo = x.float()[..., 0::2], x.float()[..., 1::2]
    c, s = cos[pos][:, None, :], sin[pos][:, None, :]
    ref = torch.stack([xe * c - xo * s, xo * c + xe * s], dim=-1).flatten(-2)
    return [("y", y, ref, 1e-2, 1e-2)]


# ---------------------------------------------------------------------------------------------
# MoE routing


@triton.jit
def moe_router_topk(logits_ptr, weights_ptr, ids_ptr, n_tokens, N_EXPERTS: tl.constexpr, TOP_K: tl.constexpr,
                    BLOCK_T: tl.constexpr, RENORMALIZE: tl.constexpr):
    tokens = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    experts = tl.arange(0, N_EXPERTS)
    tmask = tokens < n_tokens
    logits = tl.load(logits_ptr + tokens[:, None] * N_EXPERTS + experts[None, :], mask=tmask[:, None],
                     other=0.0).to(tl.float32)
    probs = tl.exp(logits - tl.max(logits, axis=1)[:, None])
    probs = probs / tl.sum(probs, axis=1)[:, None]
    # positive floats order like their bit patterns; the low word breaks ties towards lower experts
    keys = (probs.to(tl.int32, bitcast=True).to(tl.int64) << 32) | (N_EXPERTS - 1 - experts)[None, :]
    top = tl.topk(keys, TOP_K, dim=1)
    top_ids = (N_EXPERTS - 1 - (top & 0xFFFFFFFF)).to(tl.int32)
    top_w = tl.gather(probs, top_ids, axis=1)
    if RENORMALIZE:
        top_w = top_w / tl.sum(top_w, axis=1)[:, None]
    slots = tl.arange(0, TOP_K)
    out = tokens[:, None] * TOP_K + slots[None, :]
    tl.store(weights_ptr + out, top_w, mask=tmask[:, None])
    tl.store(ids_ptr + out, top_ids, mask=tmask[:, None])


def _run_router(torch):
    tokens, experts, k = 77, 64, 8
    # fp32 router logits (as routers compute them): bf16 ones would tie, and ties order differently in torch.topk
    logits = torch.randn(tokens, experts, device="cuda", dtype=torch.float32)
    weights = torch.empty(tokens, k, device="cuda", dtype=torch.float32)
    ids = torch.empty(tokens, k, device="cuda", dtype=torch.int32)
    moe_router_topk[(triton.cdiv(tokens, 16),)](logits, weights, ids, tokens, N_EXPERTS=experts, TOP_K=k,
                                               BLOCK_T=16, RENORMALIZE=True, num_warps=4)
    ref_w, ref_ids = torch.topk(logits.softmax(-1), k, dim=-1)
    ref_w = ref_w / ref_w.sum(-1, keepdim=True)
    return [("weights", weights, ref_w, 1e-5, 1e-4), ("ids", ids, ref_ids, 0, 0)]


@triton.jit
def expert_histogram(ids_ptr, counts_ptr, n_ids, N_EXPERTS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ids = tl.load(ids_ptr + offs, mask=offs < n_ids, other=0)
    hist = tl.histogram(ids, N_EXPERTS, mask=offs < n_ids)
    tl.atomic_add(counts_ptr + tl.arange(0, N_EXPERTS), hist, sem="relaxed")


def _run_histogram(torch):
    n, experts = 3000, 64
    ids = torch.randint(0, experts, (n,), device="cuda", dtype=torch.int32)
    counts = torch.zeros(experts, device="cuda", dtype=torch.int32)
    expert_histogram[(triton.cdiv(n, 1024),)](ids, counts, n, N_EXPERTS=experts, BLOCK=1024, num_warps=4)
    return [("counts", counts, torch.bincount(ids.long(), minlength=experts), 0, 0)]


@triton.jit
def sort_tokens_by_expert(ids_ptr, sorted_pos_ptr, sorted_ids_ptr, n_ids, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n_ids
    ids = tl.load(ids_ptr + offs, mask=mask, other=0x7FFFFFFF)
    # expert in the high word, position in the low word: one sort gives a stable order by expert
    keys = (ids.to(tl.int64) << 32) | offs.to(tl.int64)
    keys = tl.sort(keys)
    tl.store(sorted_pos_ptr + offs, (keys & 0xFFFFFFFF).to(tl.int32), mask=mask)
    tl.store(sorted_ids_ptr + offs, (keys >> 32).to(tl.int32), mask=mask)


def _run_sort(torch):
    n, experts = 777, 16
    ids = torch.randint(0, experts, (n,), device="cuda", dtype=torch.int32)
    pos = torch.empty(n, device="cuda", dtype=torch.int32)
    sorted_ids = torch.empty(n, device="cuda", dtype=torch.int32)
    sort_tokens_by_expert[(1,)](ids, pos, sorted_ids, n, BLOCK=1024, num_warps=8)
    ref = torch.sort(ids.long() * n + torch.arange(n, device="cuda")).values
    return [("ids", sorted_ids, ref // n, 0, 0), ("pos", pos, ref % n, 0, 0)]


# ---------------------------------------------------------------------------------------------
# batched 3D dot over groups of small matrices


@triton.jit
def grouped_small_bmm(a_ptr, b_ptr, c_ptr, n_groups, M: tl.constexpr, K: tl.constexpr, N: tl.constexpr,
                      GROUPS_PER_PROGRAM: tl.constexpr):
    g = tl.program_id(0) * GROUPS_PER_PROGRAM + tl.arange(0, GROUPS_PER_PROGRAM)
    gmask = (g < n_groups)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rk_col = tl.arange(0, K)[None, None, :]
    rk_row = tl.arange(0, K)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    g3 = g.to(tl.int64)[:, None, None]
    a = tl.load(a_ptr + g3 * M * K + rm * K + rk_col, mask=gmask, other=0.0)
    b = tl.load(b_ptr + g3 * K * N + rk_row * N + rn, mask=gmask, other=0.0)
    c = tl.dot(a, b)
    tl.store(c_ptr + g3 * M * N + rm * N + rn, c.to(c_ptr.dtype.element_ty), mask=gmask)


def _run_bmm(torch):
    groups, m, k, n = 37, 32, 64, 32
    a = torch.randn(groups, m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(groups, k, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(groups, m, n, device="cuda", dtype=torch.bfloat16)
    grouped_small_bmm[(triton.cdiv(groups, 4),)](a, b, c, groups, M=m, K=k, N=n, GROUPS_PER_PROGRAM=4, num_warps=4)
    return [("c", c, torch.bmm(a.float(), b.float()), 1e-1, 2e-2)]


# ---------------------------------------------------------------------------------------------
# retention backward, intra-chunk part: dq = (dO V^T * D) K, dk = (dO V^T * D)^T Q, dv = (Q K^T * D)^T dO


@triton.jit
def chunk_retention_bwd_intra(q_ptr, k_ptr, v_ptr, do_ptr, dq_ptr, dk_ptr, dv_ptr, scale, T, H: tl.constexpr,
                              D: tl.constexpr, BT: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    i_h = i_bh % H
    log2_gamma = tl.log2(1.0 - tl.exp2(-5.0 - i_h.to(tl.float32)))
    pos = tl.arange(0, BT)
    decay = tl.where(pos[:, None] >= pos[None, :], tl.exp2((pos[:, None] - pos[None, :]) * log2_gamma), 0.0)
    base = i_bh.to(tl.int64) * T * D
    p_q = tl.make_block_ptr(q_ptr + base, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    p_k = tl.make_block_ptr(k_ptr + base, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    p_v = tl.make_block_ptr(v_ptr + base, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    p_do = tl.make_block_ptr(do_ptr + base, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    b_q = tl.load(p_q, boundary_check=(0, 1))
    b_k = tl.load(p_k, boundary_check=(0, 1))
    b_v = tl.load(p_v, boundary_check=(0, 1))
    b_do = tl.load(p_do, boundary_check=(0, 1))
    ds = (tl.dot(b_do, tl.trans(b_v)) * decay * scale).to(b_q.dtype)
    dq = tl.dot(ds, b_k)
    dk = tl.dot(tl.trans(ds), b_q)
    s = (tl.dot(b_q, tl.trans(b_k)) * decay * scale).to(b_q.dtype)
    dv = tl.dot(tl.trans(s), b_do)
    p_dq = tl.make_block_ptr(dq_ptr + base, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    p_dk = tl.make_block_ptr(dk_ptr + base, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    p_dv = tl.make_block_ptr(dv_ptr + base, (T, D), (D, 1), (i_t * BT, 0), (BT, D), (1, 0))
    tl.store(p_dq, dq.to(p_dq.dtype.element_ty), boundary_check=(0, 1))
    tl.store(p_dk, dk.to(p_dk.dtype.element_ty), boundary_check=(0, 1))
    tl.store(p_dv, dv.to(p_dv.dtype.element_ty), boundary_check=(0, 1))


def _run_retention_bwd(torch):
    b, h, t, d, bt = 2, 3, 150, 64, 64
    q, k, v, do = (torch.randn(b, h, t, d, device="cuda", dtype=torch.bfloat16) for _ in range(4))
    dq, dk, dv = (torch.empty_like(q) for _ in range(3))
    scale = d ** -0.5
    chunk_retention_bwd_intra[(triton.cdiv(t, bt), b * h)](q, k, v, do, dq, dk, dv, scale, t, H=h, D=d, BT=bt,
                                                          num_warps=4, num_stages=1)
    gamma = 1 - 2.0 ** (-5.0 - torch.arange(h, device="cuda", dtype=torch.float32))
    idx = torch.arange(t, device="cuda")
    dist = (idx[:, None] - idx[None, :]).float()
    same_chunk = (idx[:, None] // bt) == (idx[None, :] // bt)
    decay = torch.where((dist >= 0) & same_chunk, gamma[:, None, None] ** dist.clamp(min=0),
                        torch.zeros((), device="cuda"))
    qf, kf, vf = (x.float().requires_grad_(True) for x in (q, k, v))
    (((qf @ kf.transpose(-1, -2)) * scale * decay) @ vf).backward(do.float())
    return [("dq", dq, qf.grad, 0.1, 5e-2), ("dk", dk, kf.grad, 0.1, 5e-2), ("dv", dv, vf.grad, 0.1, 5e-2)]


# ---------------------------------------------------------------------------------------------
# multi-head intra-chunk causal attention with 3D tiles: [BT, H, D] -> [H, BT, D] by tl.permute, 3D dots


@triton.jit
def chunk_heads_attention(q_ptr, k_ptr, v_ptr, o_ptr, T, scale, H: tl.constexpr, D: tl.constexpr,
                          BT: tl.constexpr):
    i_t = tl.program_id(0)
    rows = i_t * BT + tl.arange(0, BT)
    offs = rows[:, None, None] * H * D + tl.arange(0, H)[None, :, None] * D + tl.arange(0, D)[None, None, :]
    mask = (rows < T)[:, None, None]
    q = tl.permute(tl.load(q_ptr + offs, mask=mask, other=0.0), (1, 0, 2))
    k = tl.permute(tl.load(k_ptr + offs, mask=mask, other=0.0), (1, 2, 0))
    v = tl.permute(tl.load(v_ptr + offs, mask=mask, other=0.0), (1, 0, 2))
    s = tl.dot(q, k) * scale
    pos = tl.arange(0, BT)
    causal = (pos[:, None] >= pos[None, :])[None, :, :]
    s = tl.where(causal, s, float("-inf"))
    p = tl.exp(s - tl.max(s, axis=2, keep_dims=True))
    p = p / tl.sum(p, axis=2, keep_dims=True)
    o = tl.dot(p.to(v.dtype), v)
    tl.store(o_ptr + offs, tl.permute(o, (1, 0, 2)).to(o_ptr.dtype.element_ty), mask=mask)


def _run_chunk_heads(torch):
    t, h, d, bt = 100, 4, 32, 32
    q, k, v = (torch.randn(t, h, d, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    chunk_heads_attention[(triton.cdiv(t, bt),)](q, k, v, o, t, d ** -0.5, H=h, D=d, BT=bt, num_warps=4)
    refs = []
    for c in range(0, t, bt):
        qc, kc, vc = (x[c:c + bt].float().transpose(0, 1) for x in (q, k, v))
        n = qc.shape[1]
        s = (qc @ kc.transpose(-1, -2)) * d ** -0.5
        s = s.masked_fill(~torch.ones(n, n, device="cuda", dtype=torch.bool).tril(), float("-inf"))
        refs.append((s.softmax(-1) @ vc).transpose(0, 1))
    return [("o", o, torch.cat(refs), 1e-2, 1e-2)]


# ---------------------------------------------------------------------------------------------
# weight gradient dW = X^T dY over the token dimension through TMA tensor descriptors (sm_90)


@triton.jit
def weight_grad_tma(x_ptr, dy_ptr, dw_ptr, n_tokens, d_in, d_out, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[n_tokens, d_in], strides=[d_in, 1],
                                       block_shape=[BLOCK_K, BLOCK_M])
    dy_desc = tl.make_tensor_descriptor(dy_ptr, shape=[n_tokens, d_out], strides=[d_out, 1],
                                        block_shape=[BLOCK_K, BLOCK_N])
    dw_desc = tl.make_tensor_descriptor(dw_ptr, shape=[d_in, d_out], strides=[d_out, 1],
                                        block_shape=[BLOCK_M, BLOCK_N])
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in tl.range(0, tl.cdiv(n_tokens, BLOCK_K), warp_specialize=WARP_SPECIALIZE):
        x = x_desc.load([k * BLOCK_K, pid_m * BLOCK_M])
        dy = dy_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(x.T, dy, acc)
    dw_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(dw_desc.dtype))


def _run_weight_grad(warp_specialize, stages):
    def run(torch):
        triton.set_allocator(lambda size, align, stream: torch.empty(size, device="cuda", dtype=torch.int8))
        tokens, d_in, d_out = 1000, 192, 320
        x = torch.randn(tokens, d_in, device="cuda", dtype=torch.bfloat16)
        dy = torch.randn(tokens, d_out, device="cuda", dtype=torch.bfloat16)
        dw = torch.empty(d_in, d_out, device="cuda", dtype=torch.bfloat16)
        weight_grad_tma[(triton.cdiv(d_in, 128), triton.cdiv(d_out, 128))](
            x, dy, dw, tokens, d_in, d_out, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, WARP_SPECIALIZE=warp_specialize,
            num_warps=4, num_stages=stages)
        return [("dw", dw, x.float().T @ dy.float(), 0.5, 2e-2)]
    return run


# ---------------------------------------------------------------------------------------------
# SwitchBack-style int8 training matmul: row-wise int8 X times column-wise int8 W^T, int32 accumulate


@triton.jit
def int8_rowwise_matmul_dequant(a_ptr, b_ptr, a_state_ptr, b_state_ptr, bias_ptr, c_ptr, M, N, K, stride_am,
                                stride_bn, stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    pid_m, pid_n = tl.swizzle2d(pid // grid_n, pid % grid_n, grid_m, grid_n, GROUP_M)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.int32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K),
                    other=0)
        b = tl.load(b_ptr + rn[None, :] * stride_bn + kk[:, None], mask=(rn[None, :] < N) & (kk[:, None] < K),
                    other=0)
        acc += tl.dot(a, b)
    a_state = tl.load(a_state_ptr + rm, mask=rm < M, other=0.0)
    b_state = tl.load(b_state_ptr + rn, mask=rn < N, other=0.0)
    c = acc.to(tl.float32) * (a_state[:, None] * b_state[None, :] / (127.0 * 127.0))
    c += tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)[None, :]
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], c.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def _run_int8_matmul(torch):
    m, n, k = 200, 300, 256
    x = torch.randn(m, k, device="cuda")
    w = torch.randn(n, k, device="cuda")
    bias = torch.randn(n, device="cuda", dtype=torch.float16)
    x_state = x.abs().amax(1)
    w_state = w.abs().amax(1)
    xq = torch.round(x / x_state[:, None] * 127).to(torch.int8)
    wq = torch.round(w / w_state[:, None] * 127).to(torch.int8)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    grid = (triton.cdiv(m, 64) * triton.cdiv(n, 64),)
    int8_rowwise_matmul_dequant[grid](xq, wq, x_state, w_state, bias, c, m, n, k, xq.stride(0), wq.stride(0),
                                      c.stride(0), BLOCK_M=64, BLOCK_N=64, BLOCK_K=64, GROUP_M=8, num_warps=4,
                                      num_stages=3)
    ref = (xq.float() @ wq.float().T) * (x_state[:, None] * w_state[None, :] / 127 ** 2) + bias.float()
    return [("c", c, ref, 2e-2, 1e-2)]


# ---------------------------------------------------------------------------------------------
# DeepSeek-style fp8 GEMM with 1x128 activation scales and 128x128 weight scales (sm_90)


@triton.jit
def fp8_blockwise_gemm(a_ptr, b_ptr, c_ptr, a_s_ptr, b_s_ptr, M, N: tl.constexpr, K: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    k_tiles = tl.cdiv(K, BLOCK_K)
    rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    rn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rn[None, :] * K + rk[:, None]
    a_s_ptrs = a_s_ptr + rm * k_tiles
    b_s_ptrs = b_s_ptr + (rn // BLOCK_K) * k_tiles
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for i in range(k_tiles):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - i * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - i * BLOCK_K, other=0.0)
        a_s = tl.load(a_s_ptrs + i)
        b_s = tl.load(b_s_ptrs + i)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def _run_fp8_gemm(torch):
    m, n, k = 100, 256, 512
    a = torch.randn(m, k, device="cuda")
    b = torch.randn(n, k, device="cuda")
    a_s = a.view(m, k // 128, 128).abs().amax(-1) / 448
    b_s = b.view(n // 128, 128, k // 128, 128).abs().amax((1, 3)) / 448
    aq = (a.view(m, k // 128, 128) / a_s[..., None]).view(m, k).to(torch.float8_e4m3fn)
    bq = (b.view(n // 128, 128, k // 128, 128) / b_s[:, None, :, None]).view(n, k).to(torch.float8_e4m3fn)
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    fp8_blockwise_gemm[(triton.cdiv(m, 64), triton.cdiv(n, 128))](aq, bq, c, a_s, b_s, m, N=n, K=k, BLOCK_M=64,
                                                                BLOCK_N=128, BLOCK_K=128, num_warps=4,
                                                                num_stages=3)
    a_deq = (aq.float().view(m, k // 128, 128) * a_s[..., None]).view(m, k)
    b_deq = (bq.float().view(n // 128, 128, k // 128, 128) * b_s[:, None, :, None]).view(n, k)
    return [("c", c, a_deq @ b_deq.T, 0.5, 2e-2)]


# ---------------------------------------------------------------------------------------------
# fp32 state update with a selectable dot precision (mamba2 chunk states: states = (B * decay)^T X)


@triton.jit
def chunk_state_fp32(b_ptr, x_ptr, dA_cumsum_ptr, states_ptr, chunk_size, N: tl.constexpr, P: tl.constexpr,
                     BLOCK_T: tl.constexpr, PRECISION: tl.constexpr):
    c = tl.program_id(0)
    t = tl.arange(0, BLOCK_T)
    tmask = t < chunk_size
    base = c.to(tl.int64) * chunk_size
    cums = tl.load(dA_cumsum_ptr + base + t, mask=tmask, other=0.0)
    last = tl.load(dA_cumsum_ptr + base + chunk_size - 1)
    decay = tl.exp(last - cums)
    bm = tl.load(b_ptr + (base + t)[:, None] * N + tl.arange(0, N)[None, :], mask=tmask[:, None], other=0.0)
    xm = tl.load(x_ptr + (base + t)[:, None] * P + tl.arange(0, P)[None, :], mask=tmask[:, None], other=0.0)
    bm = bm * decay[:, None]
    states = tl.dot(tl.trans(bm), xm, input_precision=PRECISION)
    tl.store(states_ptr + c * N * P + tl.arange(0, N)[:, None] * P + tl.arange(0, P)[None, :], states)


def _run_chunk_state(precision):
    def run(torch):
        chunks, cs, n, p = 3, 50, 16, 32
        bm = torch.randn(chunks * cs, n, device="cuda")
        x = torch.randn(chunks * cs, p, device="cuda")
        da = -torch.rand(chunks, cs, device="cuda").cumsum(-1) * 0.1
        states = torch.empty(chunks, n, p, device="cuda")
        chunk_state_fp32[(chunks,)](bm, x, da, states, cs, N=n, P=p, BLOCK_T=64, PRECISION=precision, num_warps=4)
        decay = torch.exp(da[:, -1:] - da)
        ref = (bm.view(chunks, cs, n) * decay[..., None]).transpose(1, 2) @ x.view(chunks, cs, p)
        tol = 1e-4 if precision != "tf32" else 3e-2
        return [("states", states, ref, tol, tol)]
    return run


# ---------------------------------------------------------------------------------------------
# gated decay products within chunks (GLA-style): forward cumprod and reversed through tl.flip


@triton.jit
def chunk_gate_cumprod(g_ptr, fwd_ptr, bwd_ptr, T, D: tl.constexpr, BT: tl.constexpr):
    i_t = tl.program_id(0)
    rows = i_t * BT + tl.arange(0, BT)
    cols = tl.arange(0, D)
    mask = (rows < T)[:, None]
    g = tl.load(g_ptr + rows[:, None] * D + cols[None, :], mask=mask, other=1.0).to(tl.float32)
    tl.store(fwd_ptr + rows[:, None] * D + cols[None, :], tl.cumprod(g, axis=0), mask=mask)
    # suffix products: flip, prefix product, flip back (padding rows are 1 and do not disturb it)
    suffix = tl.flip(tl.cumprod(tl.flip(g, 0), axis=0), 0)
    tl.store(bwd_ptr + rows[:, None] * D + cols[None, :], suffix, mask=mask)


def _run_cumprod(torch):
    t, d, bt = 100, 64, 32
    g = torch.rand(t, d, device="cuda", dtype=torch.float16) * 0.2 + 0.8
    fwd = torch.empty(t, d, device="cuda")
    bwd = torch.empty(t, d, device="cuda")
    chunk_gate_cumprod[(triton.cdiv(t, bt),)](g, fwd, bwd, t, D=d, BT=bt, num_warps=4)
    ref_f, ref_b = torch.empty_like(fwd), torch.empty_like(bwd)
    for c in range(0, t, bt):
        piece = g[c:c + bt].float()
        ref_f[c:c + bt] = piece.cumprod(0)
        ref_b[c:c + bt] = piece.flip(0).cumprod(0).flip(0)
    return [("fwd", fwd, ref_f, 1e-5, 1e-4), ("bwd", bwd, ref_b, 1e-5, 1e-4)]


# ---------------------------------------------------------------------------------------------
# gated linear attention / DeltaNet-style chunk recurrence over packed sequences (FLA's chunk_fwd_h):
# the state entering every chunk is stored, then decayed by exp(g_last - g) and updated with K^T V;
# and the in-chunk forward substitution (I + A)^-1 of a strictly lower-triangular A (FLA's solve_tril)


@triton.jit
def chunk_gated_fwd_h(k_ptr, v_ptr, g_ptr, h_ptr, final_ptr, cu_seqlens_ptr, chunk_offsets_ptr, H: tl.constexpr,
                      K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr,
                      STORE_FINAL: tl.constexpr):
    i_k, i_v, i_nh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_n, i_h = i_nh // H, i_nh % H
    bos = tl.load(cu_seqlens_ptr + i_n).to(tl.int64)
    T = (tl.load(cu_seqlens_ptr + i_n + 1) - bos).to(tl.int32)
    first_chunk = tl.load(chunk_offsets_ptr + i_n).to(tl.int64)
    state = tl.zeros([BK, BV], dtype=tl.float32)
    for i_t in range(tl.cdiv(T, BT)):
        p_h = tl.make_block_ptr(h_ptr + ((first_chunk + i_t) * H + i_h) * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV),
                                (BK, BV), (1, 0))
        tl.store(p_h, state.to(p_h.dtype.element_ty), boundary_check=(0, 1))
        p_k = tl.make_block_ptr(k_ptr + (bos * H + i_h) * K, (K, T), (1, H * K), (i_k * BK, i_t * BT), (BK, BT),
                                (0, 1))
        p_v = tl.make_block_ptr(v_ptr + (bos * H + i_h) * V, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV),
                                (1, 0))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_v = tl.load(p_v, boundary_check=(0, 1))
        last = tl.minimum((i_t + 1) * BT, T) - 1
        g_last = tl.load(g_ptr + (bos + last) * H + i_h)
        rows = i_t * BT + tl.arange(0, BT)
        b_g = tl.load(g_ptr + (bos + rows) * H + i_h, mask=rows < T, other=0.0)
        b_v = (b_v * tl.where(rows < T, tl.exp(g_last - b_g), 0.0)[:, None]).to(b_v.dtype)
        state = state * tl.exp(g_last) + tl.dot(b_k, b_v)
    if STORE_FINAL:
        p_f = tl.make_block_ptr(final_ptr + i_nh * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_f, state, boundary_check=(0, 1))


def _run_chunk_fwd_h(torch):
    lens, h, kd, vd, bt = [70, 128, 33], 2, 64, 64, 64
    total = sum(lens)
    cu = torch.tensor([0] + list(itertools.accumulate(lens)), device="cuda", dtype=torch.int32)
    chunks = [triton.cdiv(n, bt) for n in lens]
    offsets = torch.tensor([0] + list(itertools.accumulate(chunks))[:-1], device="cuda", dtype=torch.int32)
    k = (torch.randn(total, h, kd, device="cuda") * 0.2).to(torch.bfloat16)
    v = torch.randn(total, h, vd, device="cuda", dtype=torch.bfloat16)
    g = -torch.rand(total, h, device="cuda") * 0.05
    for n, start in zip(lens, cu[:-1].tolist()):  # log-decays are cumulative within each chunk
        for c in range(0, n, bt):
            g[start + c:start + min(c + bt, n)] = g[start + c:start + min(c + bt, n)].cumsum(0)
    states = torch.empty(sum(chunks), h, kd, vd, device="cuda", dtype=torch.bfloat16)
    final = torch.empty(len(lens), h, kd, vd, device="cuda")
    chunk_gated_fwd_h[(1, 1, len(lens) * h)](k, v, g, states, final, cu, offsets, H=h, K=kd, V=vd, BT=bt, BK=64,
                                            BV=64, STORE_FINAL=True, num_warps=4, num_stages=2)
    ref_states, ref_final = [], []
    for n, start in zip(lens, cu[:-1].tolist()):
        s = torch.zeros(h, kd, vd, device="cuda")
        for c in range(0, n, bt):
            ref_states.append(s.clone())
            end = min(c + bt, n)
            kk, vv, gg = k[start + c:start + end].float(), v[start + c:start + end].float(), g[start + c:start + end]
            g_last = gg[-1]
            vv = vv * torch.exp(g_last[None, :] - gg)[..., None]
            s = s * torch.exp(g_last)[:, None, None] + torch.einsum("thk,thv->hkv", kk, vv)
        ref_final.append(s)
    return [("states", states, torch.stack(ref_states), 5e-2, 2e-2), ("final", final, torch.stack(ref_final), 5e-2, 2e-2)]


@triton.jit
def solve_unit_lower(a_ptr, out_ptr, n_chunks, BT: tl.constexpr):
    chunk = tl.program_id(0)
    if chunk >= n_chunks:
        return
    rows = tl.arange(0, BT)
    base = a_ptr + chunk.to(tl.int64) * BT * BT
    a = -tl.load(base + rows[:, None] * BT + rows[None, :])
    a = tl.where(rows[:, None] > rows[None, :], a, 0.0)
    # forward substitution, one row at a time: row i += row i of A times the rows above
    for i in range(1, BT):
        row = tl.sum(tl.where(rows[:, None] == i, a, 0.0), axis=0)
        row = row + tl.sum(row[:, None] * a, axis=0) * (rows < i)
        a = tl.where(rows[:, None] == i, row[None, :], a)
    a += (rows[:, None] == rows[None, :]).to(tl.float32)
    tl.store(out_ptr + chunk.to(tl.int64) * BT * BT + rows[:, None] * BT + rows[None, :], a.to(out_ptr.dtype.element_ty))


def _run_solve(torch):
    n, bt = 5, 32
    a = torch.randn(n, bt, bt, device="cuda") * 0.1
    a = torch.tril(a, diagonal=-1)
    out = torch.empty(n, bt, bt, device="cuda")
    solve_unit_lower[(n + 1,)](a, out, n, BT=bt, num_warps=4)
    ref = torch.linalg.inv(torch.eye(bt, device="cuda") + a)
    return [("inverse", out, ref, 1e-4, 1e-3)]


_RET_SIG = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "scale": "fp32", "T": "i32"}
_RET_CONST = {"H": 4, "K": 64, "V": 64, "BK": 64, "BV": 64}
_CUMSUM_SIG = {"g_ptr": "*fp32", "out_ptr": "*fp32", "cu_seqlens_ptr": "*i32", "chunk_indices_ptr": "*i32"}

CASES = [
    dict(name="train_retention_chunk_fwd_bt64_s2", fn=fused_chunk_retention_fwd, sig=_RET_SIG,
         const=dict(_RET_CONST, BT=64), div=[0, 1, 2, 3], opts=dict(num_warps=4, num_stages=2),
         run=_run_retention(64, 4, 2)),
    dict(name="train_retention_chunk_fwd_bt32_s3", fn=fused_chunk_retention_fwd, sig=_RET_SIG,
         const=dict(_RET_CONST, BT=32), div=[0, 1, 2, 3], opts=dict(num_warps=2, num_stages=3),
         run=_run_retention(32, 2, 3)),
    dict(name="train_retention_chunk_fwd_bt64_s4_w8", fn=fused_chunk_retention_fwd, sig=_RET_SIG,
         const=dict(_RET_CONST, BT=64), div=[0, 1, 2, 3], opts=dict(num_warps=8, num_stages=4)),
    dict(name="train_chunk_cumsum_varlen", fn=chunk_local_cumsum_varlen, sig=_CUMSUM_SIG,
         const={"H": 4, "S": 48, "BT": 32, "BS": 32, "REVERSE": False}, div=[0, 1], opts=dict(num_warps=4),
         run=_run_cumsum(False)),
    dict(name="train_chunk_cumsum_varlen_reverse", fn=chunk_local_cumsum_varlen, sig=_CUMSUM_SIG,
         const={"H": 4, "S": 48, "BT": 32, "BS": 32, "REVERSE": True}, div=[0, 1], opts=dict(num_warps=4),
         run=_run_cumsum(True)),
    dict(name="train_selective_scan_fwd", fn=selective_scan_fwd,
         sig={"x_ptr": "*bf16", "dt_ptr": "*bf16", "dt_bias_ptr": "*fp32", "a_ptr": "*fp32", "b_ptr": "*fp32",
              "c_ptr": "*fp32", "d_ptr": "*fp32", "z_ptr": "*bf16", "y_ptr": "*bf16", "seqlen": "i32", "dim": "i32"},
         const={"N_STATE": 16, "BLOCK_L": 128, "BLOCK_D": 32}, div=list(range(9)), opts=dict(num_warps=4),
         run=_run_selective_scan),
    dict(name="train_causal_conv1d_fwd_silu", fn=causal_conv1d_fwd,
         sig={"x_ptr": "*bf16", "w_ptr": "*bf16", "bias_ptr": "*bf16", "y_ptr": "*bf16", "dim": "i32",
              "seqlen": "i32"},
         const={"WIDTH": 4, "SILU": True, "BLOCK_D": 64, "BLOCK_L": 64}, div=[0, 1, 2, 3], opts=dict(num_warps=4),
         run=_run_conv1d),
    dict(name="train_rope_bwd_varlen_bf16", fn=rope_bwd_varlen,
         sig={"dq_ptr": "*bf16", "cos_ptr": "*fp32", "sin_ptr": "*fp32", "cu_seqlens_ptr": "*i32", "n_seqs": "i32",
              "stride_t": "i32", "stride_h": "i32", "n_heads": "i32"},
         const={"HEAD_DIM": 128, "BLOCK_H": 16}, div=[0, 1, 2, 3], opts=dict(num_warps=4), run=_run_rope_bwd),
    dict(name="train_rope_interleaved_fwd_fp16", fn=rope_interleaved_fwd,
         sig={"x_ptr": "*fp16", "cos_ptr": "*fp32", "sin_ptr": "*fp32", "pos_ptr": "*i64", "y_ptr": "*fp16",
              "stride_t": "i32", "n_heads": "i32"},
         const={"HEAD_DIM": 64, "BLOCK_H": 8}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=2),
         run=_run_rope_interleaved),
    dict(name="train_moe_router_topk_gather", fn=moe_router_topk,
         sig={"logits_ptr": "*fp32", "weights_ptr": "*fp32", "ids_ptr": "*i32", "n_tokens": "i32"},
         const={"N_EXPERTS": 64, "TOP_K": 8, "BLOCK_T": 16, "RENORMALIZE": True}, div=[0, 1, 2],
         opts=dict(num_warps=4), run=_run_router),
    dict(name="train_expert_histogram", fn=expert_histogram,
         sig={"ids_ptr": "*i32", "counts_ptr": "*i32", "n_ids": "i32"}, const={"N_EXPERTS": 64, "BLOCK": 1024},
         div=[0, 1], opts=dict(num_warps=4), run=_run_histogram),
    dict(name="train_sort_tokens_by_expert", fn=sort_tokens_by_expert,
         sig={"ids_ptr": "*i32", "sorted_pos_ptr": "*i32", "sorted_ids_ptr": "*i32", "n_ids": "i32"},
         const={"BLOCK": 1024}, div=[0, 1, 2], opts=dict(num_warps=8), run=_run_sort),
    dict(name="train_grouped_small_bmm3d_bf16", fn=grouped_small_bmm,
         sig={"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*bf16", "n_groups": "i32"},
         const={"M": 32, "K": 64, "N": 32, "GROUPS_PER_PROGRAM": 4}, div=[0, 1, 2], opts=dict(num_warps=4),
         run=_run_bmm),
    dict(name="train_retention_bwd_intra_bf16", fn=chunk_retention_bwd_intra,
         sig={"q_ptr": "*bf16", "k_ptr": "*bf16", "v_ptr": "*bf16", "do_ptr": "*bf16", "dq_ptr": "*bf16",
              "dk_ptr": "*bf16", "dv_ptr": "*bf16", "scale": "fp32", "T": "i32"},
         const={"H": 3, "D": 64, "BT": 64}, div=list(range(7)), opts=dict(num_warps=4, num_stages=1),
         run=_run_retention_bwd),
    dict(name="train_chunk_heads_attention_permute3d", fn=chunk_heads_attention,
         sig={"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "T": "i32", "scale": "fp32"},
         const={"H": 4, "D": 32, "BT": 32}, div=[0, 1, 2, 3], opts=dict(num_warps=4), run=_run_chunk_heads),
    dict(name="train_weight_grad_tma", fn=weight_grad_tma,
         sig={"x_ptr": "*bf16", "dy_ptr": "*bf16", "dw_ptr": "*bf16", "n_tokens": "i32", "d_in": "i32",
              "d_out": "i32"},
         const={"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "WARP_SPECIALIZE": False}, div=[0, 1, 2, 4, 5],
         opts=dict(num_warps=4, num_stages=3), targets=("cuda:90",), run=_run_weight_grad(False, 3)),
    dict(name="train_weight_grad_tma_ws", fn=weight_grad_tma,
         sig={"x_ptr": "*bf16", "dy_ptr": "*bf16", "dw_ptr": "*bf16", "n_tokens": "i32", "d_in": "i32",
              "d_out": "i32"},
         const={"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "WARP_SPECIALIZE": True}, div=[0, 1, 2, 4, 5],
         opts=dict(num_warps=4, num_stages=2), targets=("cuda:90",), run=_run_weight_grad(True, 2)),
    dict(name="train_int8_switchback_matmul", fn=int8_rowwise_matmul_dequant,
         sig={"a_ptr": "*i8", "b_ptr": "*i8", "a_state_ptr": "*fp32", "b_state_ptr": "*fp32", "bias_ptr": "*fp16",
              "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_bn": "i32",
              "stride_cm": "i32"},
         const={"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64, "GROUP_M": 8}, div=[0, 1, 2, 3, 4, 5, 8, 9, 10],
         opts=dict(num_warps=4, num_stages=3), run=_run_int8_matmul),
    dict(name="train_fp8_blockwise_gemm", fn=fp8_blockwise_gemm,
         sig={"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*bf16", "a_s_ptr": "*fp32", "b_s_ptr": "*fp32",
              "M": "i32"},
         const={"N": 256, "K": 512, "BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 128}, div=[0, 1, 2, 3, 4],
         opts=dict(num_warps=4, num_stages=3), targets=("cuda:90",), run=_run_fp8_gemm),
    dict(name="train_chunk_state_fp32_ieee", fn=chunk_state_fp32,
         sig={"b_ptr": "*fp32", "x_ptr": "*fp32", "dA_cumsum_ptr": "*fp32", "states_ptr": "*fp32", "chunk_size": "i32"},
         const={"N": 16, "P": 32, "BLOCK_T": 64, "PRECISION": "ieee"}, div=[0, 1, 2, 3], opts=dict(num_warps=4),
         run=_run_chunk_state("ieee")),
    dict(name="train_chunk_state_fp32_tf32", fn=chunk_state_fp32,
         sig={"b_ptr": "*fp32", "x_ptr": "*fp32", "dA_cumsum_ptr": "*fp32", "states_ptr": "*fp32", "chunk_size": "i32"},
         const={"N": 16, "P": 32, "BLOCK_T": 64, "PRECISION": "tf32"}, div=[0, 1, 2, 3], opts=dict(num_warps=4),
         run=_run_chunk_state("tf32")),
    dict(name="train_chunk_state_fp32_tf32x3", fn=chunk_state_fp32,
         sig={"b_ptr": "*fp32", "x_ptr": "*fp32", "dA_cumsum_ptr": "*fp32", "states_ptr": "*fp32", "chunk_size": "i32"},
         const={"N": 16, "P": 32, "BLOCK_T": 64, "PRECISION": "tf32x3"}, div=[0, 1, 2, 3], opts=dict(num_warps=4),
         run=_run_chunk_state("tf32x3")),
    dict(name="train_chunk_gate_cumprod_flip", fn=chunk_gate_cumprod,
         sig={"g_ptr": "*fp16", "fwd_ptr": "*fp32", "bwd_ptr": "*fp32", "T": "i32"}, const={"D": 64, "BT": 32},
         div=[0, 1, 2], opts=dict(num_warps=4), run=_run_cumprod),
    dict(name="train_chunk_gated_fwd_h_varlen", fn=chunk_gated_fwd_h,
         sig={"k_ptr": "*bf16", "v_ptr": "*bf16", "g_ptr": "*fp32", "h_ptr": "*bf16", "final_ptr": "*fp32",
              "cu_seqlens_ptr": "*i32", "chunk_offsets_ptr": "*i32"},
         const={"H": 2, "K": 64, "V": 64, "BT": 64, "BK": 64, "BV": 64, "STORE_FINAL": True}, div=list(range(7)),
         opts=dict(num_warps=4, num_stages=2), run=_run_chunk_fwd_h),
    dict(name="train_chunk_gated_fwd_h_varlen_s3", fn=chunk_gated_fwd_h,
         sig={"k_ptr": "*bf16", "v_ptr": "*bf16", "g_ptr": "*fp32", "h_ptr": "*bf16", "final_ptr": "*fp32",
              "cu_seqlens_ptr": "*i32", "chunk_offsets_ptr": "*i32"},
         const={"H": 2, "K": 128, "V": 64, "BT": 64, "BK": 64, "BV": 64, "STORE_FINAL": False}, div=list(range(7)),
         opts=dict(num_warps=4, num_stages=3)),
    dict(name="train_solve_unit_lower_tril", fn=solve_unit_lower,
         sig={"a_ptr": "*fp32", "out_ptr": "*fp32", "n_chunks": "i32"}, const={"BT": 32}, div=[0, 1],
         opts=dict(num_warps=4), run=_run_solve),
]
