"""Serving kernels in the styles of vLLM/SGLang (written for this project) for the language
features the other serving families leave out:

- decode attention stage 1 (split-KV over a paged cache, tl.int64 offsets, a 3-D grid, logit
  soft-capping, tl.num_programs) and stage 2 (log-sum-exp merge of the splits);
- top-p / min-p sampling: tl.sort descending, tl.cumsum, tl.flip, a threshold picked with
  tl.where + tl.max, tl.rand / tl.randint with a per-row seed, a scalar store of the sample;
- AWQ dequantisation: int32 words unpacked with shifts and masks into 8 nibbles through
  tl.interleave in AWQ's reverse order, zero points and scales per group, then tl.dot;
- split-K GEMM whose partial tiles are reduced through a tl.atomic_cas spin-lock and
  tl.atomic_xchg release, with a while loop whose trip count depends on loaded data;
- @triton.jit(noinline=True) helpers (tensors, scalars and pointers in; tuples out), early
  returns inside nested ifs, scalar loads/stores and 0-d tensors, tl.debug_barrier;
- element-wise corners: tl.inline_asm_elementwise (two outputs, pack 2), tl.fma, tl.umulhi,
  tl.clamp, bitcasts, fp8 e4m3/e5m2 casts with rounding modes, libdevice from
  triton.language.extra.cuda, tl.extra.cuda.smid/globaltimer, cache modifiers, volatile loads;
- dot corners: tl.split/tl.join/tl.reshape/tl.permute on dot results, 3-D batched tl.dot, int8
  dots into int32, out_dtype fp16, fp8 dots, tiny 16x16 tiles at num_warps 1/2 and big tiles at
  num_warps 8/16; tl.gather, tl.histogram with a mask, atomics of each kind with sem/scope.
"""
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice as cuda_libdevice


# ---------------------------------------------------------------------------------------------
# decode attention, stage 1 and 2


@triton.jit
def _fwd_grouped_kernel_stage1(Q, K_Buffer, V_Buffer, sm_scale, Req_to_tokens, B_req_idx, B_Seqlen, Att_Out,
                               stride_req_to_tokens_b, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh,
                               stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os,
                               kv_group_num: tl.constexpr, q_head_num: tl.constexpr, BLOCK_DMODEL: tl.constexpr,
                               BLOCK_DV: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_H: tl.constexpr,
                               NUM_KV_SPLITS: tl.constexpr, logit_cap: tl.constexpr, Lk: tl.constexpr,
                               Lv: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head_id = tl.program_id(1)
    cur_kv_head = cur_head_id // tl.cdiv(kv_group_num, BLOCK_H)
    split_kv_id = tl.program_id(2)
    if BLOCK_H < kv_group_num:
        VALID_BLOCK_H: tl.constexpr = BLOCK_H
    else:
        VALID_BLOCK_H: tl.constexpr = kv_group_num
    cur_head = cur_head_id * VALID_BLOCK_H + tl.arange(0, BLOCK_H)
    mask_h = cur_head < (cur_head_id + 1) * VALID_BLOCK_H
    mask_h = mask_h & (cur_head < q_head_num)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_dv = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lk
    mask_dv = offs_dv < Lv
    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    cur_batch_req_idx = tl.load(B_req_idx + cur_batch)
    offs_q = cur_batch * stride_qbs + cur_head[:, None] * stride_qh + offs_d[None, :]
    q = tl.load(Q + offs_q, mask=(mask_h[:, None]) & (mask_d[None, :]), other=0.0)
    kv_len_per_split = tl.cdiv(cur_batch_seq_len, NUM_KV_SPLITS)
    split_kv_start = kv_len_per_split * split_kv_id
    split_kv_end = tl.minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len)
    e_max = tl.zeros([BLOCK_H], dtype=tl.float32) - float("inf")
    e_sum = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, BLOCK_DV], dtype=tl.float32)
    if split_kv_end > split_kv_start:
        for start_n in range(split_kv_start, split_kv_end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            kv_loc = tl.load(Req_to_tokens + stride_req_to_tokens_b * cur_batch_req_idx + offs_n,
                             mask=offs_n < split_kv_end, other=0)
            offs_buf_k = (kv_loc[None, :].to(tl.int64) * stride_buf_kbs + cur_kv_head * stride_buf_kh
                          + offs_d[:, None])
            k = tl.load(K_Buffer + offs_buf_k, mask=(offs_n[None, :] < split_kv_end) & (mask_d[:, None]),
                        other=0.0)
            qk = tl.dot(q, k.to(q.dtype))
            qk *= sm_scale
            if logit_cap > 0:
                # soft-capping: logit_cap * tanh(qk / logit_cap), tanh through the sigmoid
                qk = logit_cap * (2 * tl.sigmoid(2 * qk / logit_cap) - 1)
            qk = tl.where(mask_h[:, None] & (offs_n[None, :] < split_kv_end), qk, float("-inf"))
            offs_buf_v = (kv_loc[:, None].to(tl.int64) * stride_buf_vbs + cur_kv_head * stride_buf_vh
                          + offs_dv[None, :])
            v = tl.load(V_Buffer + offs_buf_v, mask=(offs_n[:, None] < split_kv_end) & (mask_dv[None, :]),
                        other=0.0)
            n_e_max = tl.maximum(tl.max(qk, 1), e_max)
            re_scale = tl.exp(e_max - n_e_max)
            p = tl.exp(qk - n_e_max[:, None])
            acc *= re_scale[:, None]
            acc += tl.dot(p.to(v.dtype), v)
            e_sum = e_sum * re_scale + tl.sum(p, 1)
            e_max = n_e_max
        offs_mid_o = (cur_batch * stride_mid_ob + cur_head[:, None] * stride_mid_oh + split_kv_id * stride_mid_os
                      + offs_dv[None, :])
        tl.store(Att_Out + offs_mid_o, acc / e_sum[:, None], mask=(mask_h[:, None]) & (mask_dv[None, :]))
        offs_mid_o_1 = (cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + Lv)
        tl.store(Att_Out + offs_mid_o_1, e_max + tl.log(e_sum), mask=mask_h)


@triton.jit
def _fwd_kernel_stage2(Mid_O, O, B_Seqlen, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_obs, stride_oh,
                       NUM_KV_SPLITS: tl.constexpr, BLOCK_DV: tl.constexpr, Lv: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    offs_d = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lv
    e_sum = 0.0
    e_max = -float("inf")
    acc = tl.zeros([BLOCK_DV], dtype=tl.float32)
    offs_v = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + offs_d
    offs_logic = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + Lv
    for split_kv_id in range(0, NUM_KV_SPLITS):
        kv_len_per_split = tl.cdiv(cur_batch_seq_len, NUM_KV_SPLITS)
        split_kv_start = kv_len_per_split * split_kv_id
        split_kv_end = tl.minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len)
        if split_kv_end > split_kv_start:
            tv = tl.load(Mid_O + offs_v + split_kv_id * stride_mid_os, mask=mask_d, other=0.0)
            tlogic = tl.load(Mid_O + offs_logic + split_kv_id * stride_mid_os)
            n_e_max = tl.maximum(tlogic, e_max)
            old_scale = tl.exp(e_max - n_e_max)
            acc *= old_scale
            exp_logic = tl.exp(tlogic - n_e_max)
            acc += exp_logic * tv
            e_sum = e_sum * old_scale + exp_logic
            e_max = n_e_max
    tl.store(O + cur_batch * stride_obs + cur_head * stride_oh + offs_d, acc / e_sum, mask=mask_d)


# ---------------------------------------------------------------------------------------------
# top-p / min-p sampling of one row per program


@triton.jit
def top_p_min_p_sample(logits_ptr, seeds_ptr, top_p_ptr, min_p_ptr, temperature_ptr, out_ptr, probs_out_ptr,
                       vocab, stride, BLOCK: tl.constexpr, USE_RANDINT: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < vocab
    temperature = tl.load(temperature_ptr + row)
    logits = tl.load(logits_ptr + row.to(tl.int64) * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
    if temperature == 0.0:
        tl.store(out_ptr + row, tl.argmax(logits, 0).to(tl.int64))
        return
    logits = logits / temperature
    probs = tl.softmax(logits)
    top_p = tl.load(top_p_ptr + row)
    min_p = tl.load(min_p_ptr + row)
    sorted_probs = tl.sort(probs, descending=True)
    cum = tl.cumsum(sorted_probs, 0)
    # the smallest probability kept: the last sorted one whose prefix (exclusive) is below top_p
    keep_sorted = (cum - sorted_probs) < top_p
    threshold = tl.min(tl.where(keep_sorted, sorted_probs, float("inf")), 0)
    pmax = tl.max(probs, 0)
    threshold = tl.maximum(threshold, pmax * min_p)
    probs = tl.where(probs >= threshold, probs, 0.0)
    probs = probs / tl.sum(probs, 0)
    tl.store(probs_out_ptr + row.to(tl.int64) * stride + offs, probs, mask=mask)
    seed = tl.load(seeds_ptr + row)
    if USE_RANDINT:
        r = tl.randint(seed, offs)
        u = (r >> 8).to(tl.float32) * (1.0 / 16777216.0)
    else:
        u = tl.rand(seed, offs)
    # exponential race: argmax of p / Exp(1), with the rank reversed through tl.flip
    q = -tl.log(tl.maximum(u, 1e-10))
    score = tl.where(mask & (probs > 0), probs / q, -1.0)
    rev = tl.flip(score, 0)
    best_rev = tl.argmax(rev, 0)
    sample = BLOCK - 1 - best_rev
    tl.store(out_ptr + row, sample.to(tl.int64))


# ---------------------------------------------------------------------------------------------
# AWQ GEMM: int4 weights packed 8 per int32 in AWQ's order [0, 4, 1, 5, 2, 6, 3, 7]


@triton.jit
def awq_gemm_kernel(a_ptr, b_ptr, c_ptr, zeros_ptr, scales_ptr, M, N, K, group_size, BLOCK_SIZE_M: tl.constexpr,
                    BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(axis=0)
    pid_z = tl.program_id(1)
    num_pid_n = (N + BLOCK_SIZE_N - 1) // BLOCK_SIZE_N
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    accumulator_dtype = c_ptr.type.element_ty
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=accumulator_dtype)
    reverse_awq_order_tensor = ((tl.arange(0, 2) * 4)[None, :] + tl.arange(0, 4)[:, None]).reshape(8)
    shifts = reverse_awq_order_tensor * 4
    shifts = tl.broadcast_to(shifts[None, :], (BLOCK_SIZE_K * (BLOCK_SIZE_N // 8), 8))
    shifts = tl.reshape(shifts, (BLOCK_SIZE_K, BLOCK_SIZE_N))
    offsets_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    masks_am = offsets_am < M
    offsets_bn = pid_n * (BLOCK_SIZE_N // 8) + tl.arange(0, BLOCK_SIZE_N // 8)
    masks_bn = offsets_bn < N // 8
    offsets_zn = pid_n * (BLOCK_SIZE_N // 8) + tl.arange(0, BLOCK_SIZE_N // 8)
    masks_zn = offsets_zn < N // 8
    offsets_sn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    masks_sn = offsets_sn < N
    offsets_k = pid_z * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
    offsets_a = K * offsets_am[:, None] + offsets_k[None, :]
    offsets_b = (N // 8) * offsets_k[:, None] + offsets_bn[None, :]
    a_ptrs = a_ptr + offsets_a
    b_ptrs = b_ptr + offsets_b
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K * SPLIT_K)):
        masks_k = offsets_k < K
        masks_a = masks_am[:, None] & masks_k[None, :]
        a = tl.load(a_ptrs, mask=masks_a, other=0.0)
        masks_b = masks_k[:, None] & masks_bn[None, :]
        b = tl.load(b_ptrs, mask=masks_b, other=0)
        b = tl.interleave(b, b)
        b = tl.interleave(b, b)
        b = tl.interleave(b, b)
        offsets_szk = ((BLOCK_SIZE_K * SPLIT_K * k + pid_z * BLOCK_SIZE_K) // group_size
                       + tl.arange(0, 1))
        offsets_z = (N // 8) * offsets_szk[:, None] + offsets_zn[None, :]
        masks_zk = offsets_szk < K // group_size
        masks_z = masks_zk[:, None] & masks_zn[None, :]
        zeros_ptrs = zeros_ptr + offsets_z
        zeros = tl.load(zeros_ptrs, mask=masks_z, other=0)
        zeros = tl.interleave(zeros, zeros)
        zeros = tl.interleave(zeros, zeros)
        zeros = tl.interleave(zeros, zeros)
        zeros = tl.broadcast_to(zeros, (BLOCK_SIZE_K, BLOCK_SIZE_N))
        offsets_s = N * offsets_szk[:, None] + offsets_sn[None, :]
        masks_sk = offsets_szk < K // group_size
        masks_s = masks_sk[:, None] & masks_sn[None, :]
        scales_ptrs = scales_ptr + offsets_s
        scales = tl.load(scales_ptrs, mask=masks_s, other=0.0)
        scales = tl.broadcast_to(scales, (BLOCK_SIZE_K, BLOCK_SIZE_N))
        b = (b >> shifts) & 0xF
        zeros = (zeros >> shifts) & 0xF
        b = (b - zeros) * scales
        b = b.to(c_ptr.type.element_ty)
        accumulator = tl.dot(a, b, accumulator, out_dtype=accumulator_dtype)
        offsets_k += BLOCK_SIZE_K * SPLIT_K
        a_ptrs += BLOCK_SIZE_K * SPLIT_K
        b_ptrs += BLOCK_SIZE_K * SPLIT_K * (N // 8)
    c = accumulator.to(c_ptr.type.element_ty)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + pid_z * N * M + N * offs_cm[:, None] + offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# ---------------------------------------------------------------------------------------------
# split-K GEMM reduced under a spin-lock; the last arriving split writes the tile


@triton.jit
def splitk_gemm_spinlock(a_ptr, b_ptr, c_ptr, ws_ptr, locks_ptr, counts_ptr, M, N, K, stride_am, stride_bk,
                         stride_cm, SPLIT_K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    grid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_remaining = K - k * (BLOCK_K * SPLIT_K)
        a = tl.load(a_ptrs, mask=rk[None, :] < k_remaining, other=0.0, cache_modifier=".cg")
        b = tl.load(b_ptrs, mask=rk[:, None] < k_remaining, other=0.0, cache_modifier=".cg")
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    mask = (rm < M)[:, None] & (rn < N)[None, :]
    ws = ws_ptr + rm[:, None] * N + rn[None, :]
    lock = locks_ptr + pid
    while tl.atomic_cas(lock, 0, 1, sem="acquire") == 1:
        pass
    count = tl.load(counts_ptr + pid, volatile=True)
    if count == 0:
        tl.store(ws, acc, mask=mask, cache_modifier=".cg")
    else:
        cur = tl.load(ws, mask=mask, other=0.0, cache_modifier=".cg")
        tl.store(ws, cur + acc, mask=mask, cache_modifier=".cg")
    tl.store(counts_ptr + pid, count + 1)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0, sem="release")
    if count == SPLIT_K - 1:
        total = tl.load(ws, mask=mask, other=0.0, cache_modifier=".cg")
        tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], total.to(c_ptr.dtype.element_ty), mask=mask,
                 cache_modifier=".cs")
        tl.atomic_xchg(counts_ptr + pid, 0, sem="relaxed", scope="gpu")


# ---------------------------------------------------------------------------------------------
# noinline helpers, nested early returns, scalars, 0-d tensors, data-dependent while loops


@triton.jit(noinline=True)
def _noinline_row_stats(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    return tl.sum(x, 0), tl.max(tl.where(offs < n, x, float("-inf")), 0)


@triton.jit(noinline=True)
def _noinline_scale_store(y_ptr, x_ptr, shift, scale, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, ((x - shift) * scale).to(y_ptr.dtype.element_ty), mask=offs < n)


@triton.jit(noinline=True)
def _noinline_count_steps(start, limit):
    steps = 0
    v = start
    while v < limit:
        v = v * 2 + 1
        steps += 1
    return steps


@triton.jit
def noinline_and_control(x_ptr, y_ptr, meta_ptr, flags_ptr, n, mode, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    nprog = tl.num_programs(0)
    flag = tl.load(flags_ptr + row)
    s, mx = _noinline_row_stats(x_ptr + row * n, n, BLOCK)
    if flag != 0:
        if mode == 1:
            if s > 0:
                tl.store(meta_ptr + row, s)
                return
            else:
                tl.store(meta_ptr + row, -s)
        elif mode == 2:
            return
    # a data-dependent trip count: halve until the maximum falls under 1
    zero_d = tl.full((), 0, tl.int32)
    it = zero_d
    m = mx
    while m > 1.0:
        m = m * 0.5
        it += 1
    steps = _noinline_count_steps(it, row + nprog)
    _noinline_scale_store(y_ptr + row * n, x_ptr + row * n, s / n, 1.0 / (mx + 1e-6) + steps, n, BLOCK)
    tl.store(meta_ptr + nprog + row, it.to(tl.float32))


# ---------------------------------------------------------------------------------------------
# element-wise corners


@triton.jit
def elementwise_corners(x_ptr, u_ptr, out_f16_ptr, out_e4_ptr, out_e5_ptr, out_u_ptr, out_f_ptr, out_sm_ptr, n,
                        BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, cache_modifier=".ca")
    u = tl.load(u_ptr + offs, mask=mask, other=0, eviction_policy="evict_first")
    # two outputs from one asm statement, two elements per instance
    lo, hi = tl.inline_asm_elementwise(
        asm="""
        {
            .reg .b32 t;
            mov.b32 t, $2;
            and.b32 $0, t, 0xFFFF0000;
            shl.b32 $1, t, 16;
        }
        """, constraints="=r,=r,r", args=[x.to(tl.uint32, bitcast=True)], dtype=(tl.uint32, tl.uint32),
        is_pure=True, pack=1)
    y = tl.fma(x, 2.0, lo.to(tl.float32, bitcast=True)) + hi.to(tl.float32, bitcast=True)
    y = tl.clamp(y, -100.0, 100.0)
    h = tl.umulhi(u, u ^ 0x9E3779B9)
    tl.store(out_u_ptr + offs, h + (u >> 3) + (u.to(tl.int32) >> 3).to(tl.uint32), mask=mask)
    tl.store(out_f16_ptr + offs, y.to(tl.float16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(out_e4_ptr + offs, y.to(tl.float8e4nv), mask=mask)
    tl.store(out_e5_ptr + offs, y.to(tl.float8e5, fp_downcast_rounding="rtz"), mask=mask)
    back = y.to(tl.float8e5).to(tl.float32) + y.to(tl.float16).to(tl.float8e4nv).to(tl.float32)
    z = cuda_libdevice.fast_dividef(back, 3.0) + cuda_libdevice.rsqrt(tl.abs(x) + 1.0)
    z += cuda_libdevice.popc(u.to(tl.int32)).to(tl.float32) + cuda_libdevice.clz(u.to(tl.int32)).to(tl.float32)
    z += cuda_libdevice.float_as_int(x).to(tl.float32) * 0.0 + cuda_libdevice.brev(u.to(tl.int32)).to(tl.float32)
    z += tl.math.div_rn(x, 7.0) + tl.math.sqrt_rn(tl.abs(x)) + tl.fdiv(x, 3.0, ieee_rounding=True)
    tl.store(out_f_ptr + offs, z, mask=mask, cache_modifier=".wt")
    if pid == 0:
        tl.store(out_sm_ptr, tl.extra.cuda.smid())
        tl.store(out_sm_ptr + 1, tl.extra.cuda.globaltimer().to(tl.int32))


@triton.jit
def fp16_packed_asm(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    y = tl.inline_asm_elementwise("ex2.approx.f16x2 $0, $1;", "=r,r", [x], dtype=tl.float16, is_pure=True, pack=2)
    tl.store(y_ptr + offs, y, mask=offs < n)


# ---------------------------------------------------------------------------------------------
# dot corners


@triton.jit
def dot_split_join_epilogue(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                            BLOCK_K: tl.constexpr):
    # a gate/up projection computed as one [M, 2N] dot whose columns interleave gate and up
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn2 = pid_n * 2 * BLOCK_N + tl.arange(0, 2 * BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, 2 * BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * (2 * N) + rn2[None, :],
                    mask=((k + rk)[:, None] < K) & (rn2[None, :] < 2 * N), other=0.0)
        acc = tl.dot(a, b, acc)
    gate, up = tl.split(tl.reshape(acc, (BLOCK_M, BLOCK_N, 2)))
    h = gate * tl.sigmoid(gate) * up
    both = tl.join(h, gate)  # [M, N, 2]
    both = tl.permute(both, (2, 0, 1))  # [2, M, N]
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs = tl.arange(0, 2)[:, None, None] * (M * N) + rm[None, :, None] * N + rn[None, None, :]
    mask = (rm[None, :, None] < M) & (rn[None, None, :] < N) & (tl.arange(0, 2)[:, None, None] < 2)
    tl.store(c_ptr + offs, both.to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def batched_dot_3d(a_ptr, b_ptr, c_ptr, G, BG: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr, PREC: tl.constexpr, OUT16: tl.constexpr):
    pid = tl.program_id(0)
    g = pid * BG + tl.arange(0, BG)
    m = tl.arange(0, BM)
    n = tl.arange(0, BN)
    k = tl.arange(0, BK)
    gm = g < G
    a = tl.load(a_ptr + g[:, None, None] * BM * BK + m[None, :, None] * BK + k[None, None, :],
                mask=gm[:, None, None], other=0.0)
    b = tl.load(b_ptr + g[:, None, None] * BK * BN + k[None, :, None] * BN + n[None, None, :],
                mask=gm[:, None, None], other=0.0)
    if OUT16:
        c = tl.dot(a, b, out_dtype=tl.float16)
    else:
        c = tl.dot(a, b, input_precision=PREC)
    tl.store(c_ptr + g[:, None, None] * BM * BN + m[None, :, None] * BN + n[None, None, :],
             c.to(c_ptr.dtype.element_ty), mask=gm[:, None, None])


@triton.jit
def int8_dot_dequant(a_ptr, b_ptr, as_ptr, bs_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in tl.range(0, K, BLOCK_K, num_stages=3, loop_unroll_factor=1):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] + rn[None, :] * K)
        acc += tl.dot(a, b)
    sa = tl.load(as_ptr + rm)
    sb = tl.load(bs_ptr + rn)
    c = acc.to(tl.float32) * sa[:, None] * sb[None, :]
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c.to(c_ptr.dtype.element_ty))


@triton.jit
def fp8_dot_mixed(a_ptr, b_ptr, c_ptr, scale, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, IMPRECISE: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, max_num_imprecise_acc=IMPRECISE)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], (acc * scale).to(c_ptr.dtype.element_ty))


@triton.jit
def gather_hist_atomics(x_ptr, idx_ptr, out_ptr, hist_ptr, stat_ptr, n, NBINS: tl.constexpr, BR: tl.constexpr,
                        BC: tl.constexpr):
    pid = tl.program_id(0)
    r = tl.arange(0, BR)
    c = tl.arange(0, BC)
    x = tl.load(x_ptr + pid * BR * BC + r[:, None] * BC + c[None, :])
    idx = tl.load(idx_ptr + pid * BR * BC + r[:, None] * BC + c[None, :]) % BC
    g1 = tl.gather(x, idx, axis=1)
    idx0 = tl.load(idx_ptr + pid * BR * BC + r[:, None] * BC + c[None, :]) % BR
    g0 = tl.gather(x, idx0, axis=0)
    tl.store(out_ptr + pid * BR * BC + r[:, None] * BC + c[None, :], g0 + g1)
    flat = tl.reshape(idx, (BR * BC,)) % NBINS
    valid = tl.reshape(x > 0, (BR * BC,))
    h = tl.histogram(flat, NBINS, mask=valid)
    tl.atomic_add(hist_ptr + tl.arange(0, NBINS), h, sem="relaxed", scope="gpu")
    xi = tl.reshape(x, (BR * BC,)).to(tl.int32)
    tl.atomic_max(stat_ptr + 0, tl.max(xi, 0))
    tl.atomic_min(stat_ptr + 1, tl.min(xi, 0), sem="acq_rel", scope="cta")
    tl.atomic_or(stat_ptr + 2, tl.max(xi & 1, 0))
    tl.atomic_and(stat_ptr + 3 + tl.zeros_like(xi), xi, mask=flat < NBINS // 2)
    tl.atomic_xor(stat_ptr + 4 + flat % 4, xi, sem="release", scope="sys")
    tl.atomic_add(stat_ptr + 8, 1)


@triton.jit
def atomic_add_halves(x_ptr, y16_ptr, ybf_ptr, idx_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(y16_ptr + offs, x.to(tl.float16), mask=mask)
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    old = tl.atomic_add(ybf_ptr + idx, x.to(tl.bfloat16), mask=mask)
    tl.store(x_ptr + offs, old.to(tl.float32), mask=mask)


_H, _B, _F = "*fp16", "*bf16", "*fp32"
_S1 = {"Q": _B, "K_Buffer": _B, "V_Buffer": _B, "sm_scale": "fp32", "Req_to_tokens": "*i32", "B_req_idx": "*i32",
       "B_Seqlen": "*i32", "Att_Out": _F, "stride_req_to_tokens_b": "i32", "stride_qbs": "i32", "stride_qh": "i32",
       "stride_buf_kbs": "i32", "stride_buf_kh": "i32", "stride_buf_vbs": "i32", "stride_buf_vh": "i32",
       "stride_mid_ob": "i32", "stride_mid_oh": "i32", "stride_mid_os": "i32"}
_SMP = {"logits_ptr": _F, "seeds_ptr": "*i64", "top_p_ptr": _F, "min_p_ptr": _F, "temperature_ptr": _F,
        "out_ptr": "*i64", "probs_out_ptr": _F, "vocab": "i32", "stride": "i32"}

CASES = [
    dict(name="decode_grouped_stage1_softcap", fn=_fwd_grouped_kernel_stage1, sig=_S1,
         const={"kv_group_num": 8, "q_head_num": 32, "BLOCK_DMODEL": 128, "BLOCK_DV": 128, "BLOCK_N": 32,
                "BLOCK_H": 16, "NUM_KV_SPLITS": 8, "logit_cap": 30.0, "Lk": 128, "Lv": 128},
         div=list(range(8)), opts=dict(num_warps=4, num_stages=2)),
    dict(name="decode_grouped_stage1_mla576", fn=_fwd_grouped_kernel_stage1, sig=_S1,
         const={"kv_group_num": 16, "q_head_num": 16, "BLOCK_DMODEL": 512, "BLOCK_DV": 512, "BLOCK_N": 16,
                "BLOCK_H": 16, "NUM_KV_SPLITS": 4, "logit_cap": 0.0, "Lk": 512, "Lv": 512},
         div=list(range(8)), opts=dict(num_warps=4, num_stages=1)),
    dict(name="decode_stage2_merge", fn=_fwd_kernel_stage2,
         sig={"Mid_O": _F, "O": _B, "B_Seqlen": "*i32", "stride_mid_ob": "i32", "stride_mid_oh": "i32",
              "stride_mid_os": "i32", "stride_obs": "i32", "stride_oh": "i32"},
         const={"NUM_KV_SPLITS": 8, "BLOCK_DV": 128, "Lv": 96}, div=[0, 1, 2], opts=dict(num_warps=4)),
    dict(name="top_p_min_p_sample_rand", fn=top_p_min_p_sample, sig=_SMP,
         const={"BLOCK": 4096, "USE_RANDINT": False}, div=[0, 1, 2, 3, 4, 5, 6], opts=dict(num_warps=16)),
    dict(name="top_p_min_p_sample_randint_small", fn=top_p_min_p_sample, sig=_SMP,
         const={"BLOCK": 256, "USE_RANDINT": True}, div=[0, 1, 2, 3, 4, 5, 6], opts=dict(num_warps=2)),
    dict(name="awq_gemm_fp16", fn=awq_gemm_kernel,
         sig={"a_ptr": _H, "b_ptr": "*i32", "c_ptr": _H, "zeros_ptr": "*i32", "scales_ptr": _H, "M": "i32",
              "N": "i32", "K": "i32", "group_size": "i32"},
         const={"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "SPLIT_K": 2},
         div=[0, 1, 2, 3, 4, 5, 6, 7, 8], opts=dict(num_warps=4)),
    dict(name="awq_gemm_fp16_m16", fn=awq_gemm_kernel,
         sig={"a_ptr": _H, "b_ptr": "*i32", "c_ptr": _H, "zeros_ptr": "*i32", "scales_ptr": _H, "M": "i32",
              "N": "i32", "K": "i32", "group_size": "i32"},
         const={"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "SPLIT_K": 1},
         div=[0, 1, 2, 3, 4, 6, 7], opts=dict(num_warps=2, num_stages=2)),
    dict(name="splitk_gemm_spinlock", fn=splitk_gemm_spinlock,
         sig={"a_ptr": _H, "b_ptr": _H, "c_ptr": _H, "ws_ptr": _F, "locks_ptr": "*i32", "counts_ptr": "*i32",
              "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
         const={"SPLIT_K": 4, "BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, div=list(range(12)),
         opts=dict(num_warps=4, num_stages=3)),
    dict(name="noinline_and_control", fn=noinline_and_control,
         sig={"x_ptr": _B, "y_ptr": _B, "meta_ptr": _F, "flags_ptr": "*i32", "n": "i32", "mode": "i32"},
         const={"BLOCK": 1024}, div=[0, 1, 2, 3], opts=dict(num_warps=4)),
    dict(name="elementwise_corners", fn=elementwise_corners,
         sig={"x_ptr": _F, "u_ptr": "*u32", "out_f16_ptr": _H, "out_e4_ptr": "*fp8e4nv", "out_e5_ptr": "*fp8e5",
              "out_u_ptr": "*u32", "out_f_ptr": _F, "out_sm_ptr": "*i32", "n": "i32"},
         const={"BLOCK": 512}, div=list(range(8)), opts=dict(num_warps=4), targets=("cuda:90",)),
    dict(name="fp16_packed_asm", fn=fp16_packed_asm, sig={"x_ptr": _H, "y_ptr": _H, "n": "i32"},
         const={"BLOCK": 1024}, div=[0, 1], opts=dict(num_warps=4)),
    dict(name="dot_split_join_swiglu", fn=dot_split_join_epilogue,
         sig={"a_ptr": _B, "b_ptr": _B, "c_ptr": _B, "M": "i32", "N": "i32", "K": "i32"},
         const={"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, div=[0, 1, 2, 3, 4, 5],
         opts=dict(num_warps=4, num_stages=3)),
    dict(name="dot_split_join_swiglu_w8", fn=dot_split_join_epilogue,
         sig={"a_ptr": _H, "b_ptr": _H, "c_ptr": _H, "M": "i32", "N": "i32", "K": "i32"},
         const={"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, div=[0, 1, 2, 3, 4, 5],
         opts=dict(num_warps=8, num_stages=3)),
    dict(name="batched_dot_3d_ieee", fn=batched_dot_3d,
         sig={"a_ptr": _F, "b_ptr": _F, "c_ptr": _F, "G": "i32"},
         const={"BG": 4, "BM": 16, "BN": 16, "BK": 16, "PREC": "ieee", "OUT16": False}, div=[0, 1, 2],
         opts=dict(num_warps=2)),
    dict(name="batched_dot_3d_tf32x3", fn=batched_dot_3d,
         sig={"a_ptr": _F, "b_ptr": _F, "c_ptr": _F, "G": "i32"},
         const={"BG": 2, "BM": 32, "BN": 32, "BK": 32, "PREC": "tf32x3", "OUT16": False}, div=[0, 1, 2],
         opts=dict(num_warps=4)),
    dict(name="batched_dot_3d_f16acc", fn=batched_dot_3d,
         sig={"a_ptr": _H, "b_ptr": _H, "c_ptr": _H, "G": "i32"},
         const={"BG": 8, "BM": 16, "BN": 32, "BK": 16, "PREC": "tf32", "OUT16": True}, div=[0, 1, 2],
         opts=dict(num_warps=1)),
    dict(name="int8_dot_dequant_tiny", fn=int8_dot_dequant,
         sig={"a_ptr": "*i8", "b_ptr": "*i8", "as_ptr": _F, "bs_ptr": _F, "c_ptr": _B, "M": "i32", "N": "i32",
              "K": "i32"}, const={"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 32}, div=list(range(8)),
         opts=dict(num_warps=1)),
    dict(name="int8_dot_dequant_big", fn=int8_dot_dequant,
         sig={"a_ptr": "*i8", "b_ptr": "*i8", "as_ptr": _F, "bs_ptr": _F, "c_ptr": _B, "M": "i32", "N": "i32",
              "K": "i32"}, const={"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 128}, div=list(range(8)),
         opts=dict(num_warps=8)),
    dict(name="fp8_dot_e4m3_e5m2", fn=fp8_dot_mixed,
         sig={"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e5", "c_ptr": _B, "scale": "fp32", "M": "i32", "N": "i32",
              "K": "i32"}, const={"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "IMPRECISE": 32},
         div=[0, 1, 2, 4, 5, 6], opts=dict(num_warps=4, num_stages=3), targets=("cuda:90",)),
    dict(name="fp8_dot_e4m3_w16", fn=fp8_dot_mixed,
         sig={"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": _F, "scale": "fp32", "M": "i32", "N": "i32",
              "K": "i32"}, const={"BLOCK_M": 256, "BLOCK_N": 128, "BLOCK_K": 128, "IMPRECISE": None},
         div=[0, 1, 2, 4, 5, 6], opts=dict(num_warps=16, num_stages=2), targets=("cuda:90",)),
    dict(name="fp16_dot_tiny_w1", fn=fp8_dot_mixed,
         sig={"a_ptr": _H, "b_ptr": _H, "c_ptr": _H, "scale": "fp32", "M": "i32", "N": "i32", "K": "i32"},
         const={"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "IMPRECISE": None}, div=[0, 1, 2, 4, 5, 6],
         opts=dict(num_warps=1, num_stages=2)),
    dict(name="gather_hist_atomics", fn=gather_hist_atomics,
         sig={"x_ptr": _F, "idx_ptr": "*i32", "out_ptr": _F, "hist_ptr": "*i32", "stat_ptr": "*i32", "n": "i32"},
         const={"NBINS": 64, "BR": 32, "BC": 32}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=4)),
    dict(name="atomic_add_halves", fn=atomic_add_halves,
         sig={"x_ptr": _F, "y16_ptr": _H, "ybf_ptr": _B, "idx_ptr": "*i32", "n": "i32"},
         const={"BLOCK": 512}, div=[0, 1, 2, 3], opts=dict(num_warps=4)),
]
