"""Training kernels in the styles of FLA, mamba and Liger/unsloth (written for this project), for
the language features the other training families leave out:

- chunked delta rule (FLA's chunk_delta_h style): block pointers with boundary_check and
  padding_option="zero", fp32 tl.dot with input_precision "ieee" and "tf32x3", a state carried
  over chunks and stored per chunk, a 3-D grid;
- WY representation (FLA's recompute_w_u): in-chunk lower-triangular matrices with tl.dot of a
  tl.trans'd operand and a tl.static_range forward substitution over rows picked by tl.where;
- reverse linear recurrence through tl.associative_scan(reverse=True) over a tuple combine function;
- mamba selective state update: softplus dt (tl.where + log1p(exp)), tl.exp2-free exp decay over
  a [DIM, DSTATE] state, tl.static_range over heads per program, optional D skip and z gate;
- Liger: fused linear cross entropy chunk (logit soft-capping through tanh, online logsumexp
  over the vocabulary in a loop, gradient written in place, label smoothing, ignore_index),
  KL divergence and generalised JSD forward/backward, group norm forward, fused add + RMSNorm
  backward with dW accumulated through tl.atomic_add, RoPE with tl.sin/tl.cos computed in-kernel;
- reductions in other forms: tl.max(return_indices=True), tl.argmin, tl.xor_sum, keep_dims,
  whole-tensor (axis=None) reductions into 0-d tensors, tl.cumprod reverse along axis 0.
"""
import triton
import triton.language as tl
from triton.language.extra import libdevice


# ---------------------------------------------------------------------------------------------
# FLA chunked delta rule: h_{t+1} = h_t + k^T (v - k h_t) per chunk, fp32 state


@triton.jit
def chunk_delta_rule_fwd_h(k_ptr, w_ptr, u_ptr, h_ptr, v_new_ptr, h0_ptr, ht_ptr, T, H: tl.constexpr,
                           K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr,
                           BV: tl.constexpr, PREC: tl.constexpr, USE_INITIAL_STATE: tl.constexpr,
                           STORE_FINAL_STATE: tl.constexpr):
    i_k, i_v, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H
    NT = tl.cdiv(T, BT)
    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    if USE_INITIAL_STATE:
        p_h0 = tl.make_block_ptr(h0_ptr + i_bh * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        b_h = tl.load(p_h0, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
    base = (i_b * T * H + i_h).to(tl.int64)
    for i_t in range(NT):
        p_h = tl.make_block_ptr(h_ptr + (i_bh * NT + i_t).to(tl.int64) * K * V, (K, V), (V, 1),
                                (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_h, b_h.to(p_h.dtype.element_ty), boundary_check=(0, 1))
        p_k = tl.make_block_ptr(k_ptr + base * K, (K, T), (1, H * K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        p_w = tl.make_block_ptr(w_ptr + base * K, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        p_u = tl.make_block_ptr(u_ptr + base * V, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
        p_vn = tl.make_block_ptr(v_new_ptr + base * V, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV),
                                 (1, 0))
        b_k = tl.load(p_k, boundary_check=(0, 1), padding_option="zero")
        b_w = tl.load(p_w, boundary_check=(0, 1), padding_option="zero")
        b_u = tl.load(p_u, boundary_check=(0, 1), padding_option="zero")
        b_v = b_u - tl.dot(b_w, b_h.to(b_w.dtype), input_precision=PREC)
        tl.store(p_vn, b_v.to(p_vn.dtype.element_ty), boundary_check=(0, 1))
        b_h += tl.dot(b_k, b_v.to(b_k.dtype), input_precision=PREC)
    if STORE_FINAL_STATE:
        p_ht = tl.make_block_ptr(ht_ptr + i_bh * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_ht, b_h, boundary_check=(0, 1))


# ---------------------------------------------------------------------------------------------
# FLA WY representation: A = (I + tril(beta * K K^T, -1))^{-1} by forward substitution, then
# w = A (beta * k), u = A (beta * v)


@triton.jit
def recompute_w_u_fwd(k_ptr, v_ptr, beta_ptr, w_ptr, u_ptr, T, H: tl.constexpr, K: tl.constexpr,
                      V: tl.constexpr, BT: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H
    base = (i_b * T * H + i_h).to(tl.int64)
    p_k = tl.make_block_ptr(k_ptr + base * K, (T, K), (H * K, 1), (i_t * BT, 0), (BT, K), (1, 0))
    p_v = tl.make_block_ptr(v_ptr + base * V, (T, V), (H * V, 1), (i_t * BT, 0), (BT, V), (1, 0))
    p_beta = tl.make_block_ptr(beta_ptr + base, (T,), (H,), (i_t * BT,), (BT,), (0,))
    b_k = tl.load(p_k, boundary_check=(0, 1))
    b_v = tl.load(p_v, boundary_check=(0, 1))
    b_beta = tl.load(p_beta, boundary_check=(0,)).to(tl.float32)
    b_kb = (b_k * b_beta[:, None]).to(b_k.dtype)
    o_t = tl.arange(0, BT)
    b_A = tl.dot(b_kb, tl.trans(b_k))
    b_A = -tl.where(o_t[:, None] > o_t[None, :], b_A, 0)
    for i in range(1, BT):
        mask = o_t == i
        b_a = tl.sum(tl.where(mask[:, None], b_A, 0), 0)
        b_a = b_a + tl.sum(b_a[:, None] * b_A, 0) * (o_t < i)
        b_A = tl.where(mask[:, None], b_a, b_A)
    b_A += o_t[:, None] == o_t[None, :]
    b_A = b_A.to(b_k.dtype)
    b_w = tl.dot(b_A, b_kb)
    b_u = tl.dot(b_A, (b_v * b_beta[:, None]).to(b_v.dtype))
    p_w = tl.make_block_ptr(w_ptr + base * K, (T, K), (H * K, 1), (i_t * BT, 0), (BT, K), (1, 0))
    p_u = tl.make_block_ptr(u_ptr + base * V, (T, V), (H * V, 1), (i_t * BT, 0), (BT, V), (1, 0))
    tl.store(p_w, b_w.to(p_w.dtype.element_ty), boundary_check=(0, 1))
    tl.store(p_u, b_u.to(p_u.dtype.element_ty), boundary_check=(0, 1))


# ---------------------------------------------------------------------------------------------
# reverse linear recurrence (the backward of h_t = a_t h_{t-1} + x_t)


@triton.jit
def _first_order_op(l_a, l_x, r_a, r_x):
    return r_a * l_a, r_a * l_x + r_x


@triton.jit
def _first_order_op_rev(l_a, l_x, r_a, r_x):
    return l_a * r_a, l_a * r_x + l_x


@triton.jit
def linear_recurrence_bwd(a_ptr, grad_ptr, dx_ptr, da_ptr, h_ptr, L, D, BLOCK_L: tl.constexpr,
                          BLOCK_D: tl.constexpr):
    pid_b, pid_d = tl.program_id(0), tl.program_id(1)
    offs_l = tl.arange(0, BLOCK_L)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    mask = (offs_l[:, None] < L) & (offs_d[None, :] < D)
    base = pid_b.to(tl.int64) * L * D
    offs = base + offs_l[:, None] * D + offs_d[None, :]
    # a_{t+1}: the next step's coefficient (1 past the end)
    a_next = tl.load(a_ptr + offs + D, mask=mask & (offs_l[:, None] + 1 < L), other=1.0).to(tl.float32)
    g = tl.load(grad_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    _, dx = tl.associative_scan((a_next, g), axis=0, combine_fn=_first_order_op_rev, reverse=True)
    h_prev = tl.load(h_ptr + offs - D, mask=mask & (offs_l[:, None] > 0), other=0.0).to(tl.float32)
    tl.store(dx_ptr + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    tl.store(da_ptr + offs, (dx * h_prev).to(da_ptr.dtype.element_ty), mask=mask)
    # and a forward scan of the same kind over the transposed direction, for the check of h
    a = tl.load(a_ptr + offs, mask=mask, other=1.0).to(tl.float32)
    _, h = tl.associative_scan((a, g), axis=0, combine_fn=_first_order_op)
    tl.store(h_ptr + offs, h.to(h_ptr.dtype.element_ty), mask=mask)


# ---------------------------------------------------------------------------------------------
# mamba selective state update (one decode step)


@triton.jit
def _softplus(dt):
    return tl.where(dt <= 20.0, tl.math.log(tl.math.exp(dt) + 1), dt)


@triton.jit
def selective_state_update(state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, out_ptr,
                           state_batch_indices_ptr, dim, dstate, nheads_ngroups_ratio, stride_state_batch,
                           stride_state_head, stride_state_dim, stride_x_batch, stride_x_head,
                           stride_dt_batch, stride_dt_head, stride_A_head, stride_A_dim, stride_B_batch,
                           stride_B_group, stride_out_batch, stride_out_head, DT_SOFTPLUS: tl.constexpr,
                           TIE_HDIM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr, HAS_DT_BIAS: tl.constexpr,
                           HAS_D: tl.constexpr, HAS_Z: tl.constexpr, HEADS_PER_PROG: tl.constexpr,
                           BLOCK_SIZE_DSTATE: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_b = tl.program_id(axis=1)
    pid_hg = tl.program_id(axis=2)
    state_batch_idx = tl.load(state_batch_indices_ptr + pid_b).to(tl.int64)
    if state_batch_idx < 0:
        return
    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = tl.arange(0, BLOCK_SIZE_DSTATE)
    for hh in tl.static_range(HEADS_PER_PROG):
        pid_h = pid_hg * HEADS_PER_PROG + hh
        sp = state_ptr + state_batch_idx * stride_state_batch + pid_h * stride_state_head
        state_ptrs = sp + (offs_m[:, None] * stride_state_dim + offs_n[None, :])
        xp = x_ptr + pid_b * stride_x_batch + pid_h * stride_x_head
        dtp = dt_ptr + pid_b * stride_dt_batch + pid_h * stride_dt_head
        Ap = A_ptr + pid_h * stride_A_head
        Bp = B_ptr + pid_b * stride_B_batch + (pid_h // nheads_ngroups_ratio) * stride_B_group
        Cp = C_ptr + pid_b * stride_B_batch + (pid_h // nheads_ngroups_ratio) * stride_B_group
        mask = (offs_m[:, None] < dim) & (offs_n[None, :] < dstate)
        state = tl.load(state_ptrs, mask=mask, other=0.0)
        x = tl.load(xp + offs_m, mask=offs_m < dim, other=0.0).to(tl.float32)
        if not TIE_HDIM:
            dt = tl.load(dtp + offs_m, mask=offs_m < dim, other=0.0).to(tl.float32)
            if HAS_DT_BIAS:
                dt += tl.load(dt_bias_ptr + pid_h * dim + offs_m, mask=offs_m < dim, other=0.0).to(tl.float32)
            if DT_SOFTPLUS:
                dt = _softplus(dt)
            A = tl.load(Ap + offs_m[:, None] * stride_A_dim + offs_n[None, :], mask=mask, other=0.0).to(tl.float32)
            dA = tl.exp(A * dt[:, None])
        else:
            dt = tl.load(dtp).to(tl.float32)
            if HAS_DT_BIAS:
                dt += tl.load(dt_bias_ptr + pid_h).to(tl.float32)
            if DT_SOFTPLUS:
                dt = _softplus(dt)
            A = tl.load(Ap).to(tl.float32)
            dA = tl.exp(A * dt)
        B = tl.load(Bp + offs_n, mask=offs_n < dstate, other=0.0).to(tl.float32)
        C = tl.load(Cp + offs_n, mask=offs_n < dstate, other=0.0).to(tl.float32)
        dB = B[None, :] * dt[:, None] if not TIE_HDIM else B * dt
        state = state * dA + dB * x[:, None]
        tl.store(state_ptrs, state.to(state_ptrs.dtype.element_ty), mask=mask)
        out = tl.sum(state * C[None, :], axis=1)
        if HAS_D:
            out += x * tl.load(D_ptr + pid_h * dim + offs_m, mask=offs_m < dim, other=0.0).to(tl.float32)
        if HAS_Z:
            z = tl.load(z_ptr + pid_b * stride_x_batch + pid_h * stride_x_head + offs_m, mask=offs_m < dim,
                        other=0.0).to(tl.float32)
            out *= z * tl.sigmoid(z)
        tl.store(out_ptr + pid_b * stride_out_batch + pid_h * stride_out_head + offs_m, out, mask=offs_m < dim)


# ---------------------------------------------------------------------------------------------
# Liger fused linear cross entropy: one chunk of logits (already X @ W^T), soft-capped, online
# logsumexp over the vocabulary, gradient written over the logits


@triton.jit
def liger_cross_entropy_kernel(X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, z_loss_ptr, loss_stride, n_cols,
                               n_non_ignore, ignore_index, lse_square_scale: tl.constexpr,
                               label_smoothing: tl.constexpr, reduction: tl.constexpr, softcap,
                               RETURN_Z_LOSS: tl.constexpr, BLOCK_SIZE: tl.constexpr, HAS_SOFTCAPPING: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    Y_ptr += program_id * Y_stride
    y = tl.load(Y_ptr)
    X_ptr += program_id * X_stride
    if y == ignore_index:
        for i in range(0, n_cols, BLOCK_SIZE):
            X_offsets = i + tl.arange(0, BLOCK_SIZE)
            tl.store(X_ptr + X_offsets, 0.0, mask=X_offsets < n_cols)
        return
    loss_ptr += program_id * loss_stride
    if RETURN_Z_LOSS:
        z_loss_ptr += program_id * loss_stride
    m = float("-inf")
    d = 0.0
    ori_X_y = tl.load(X_ptr + y).cast(tl.float32)
    if HAS_SOFTCAPPING:
        ori_X_y = softcap * libdevice.tanh(ori_X_y / softcap)
    scaled_x_sum = 0.0
    eps = label_smoothing / n_cols
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).cast(tl.float32)
        if HAS_SOFTCAPPING:
            X_block = softcap * libdevice.tanh(X_block / softcap)
        block_max = tl.max(X_block)
        if label_smoothing > 0:
            scaled_x_sum += tl.sum(tl.where(X_offsets < n_cols, -eps * X_block, 0.0))
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new
    lse = m + tl.log(d)
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).cast(tl.float32)
        if HAS_SOFTCAPPING:
            intermediate = libdevice.tanh(X_block / softcap)
            X_block = softcap * intermediate
        X_block = tl.exp(X_block - m) / d
        X_block += 2 * lse_square_scale * lse * X_block
        X_block += -eps
        X_block = tl.where(X_offsets != y, X_block, X_block - (1 - label_smoothing))
        if reduction == "mean":
            X_block = X_block / n_non_ignore
        if HAS_SOFTCAPPING:
            X_block = X_block * (1 - intermediate * intermediate)
        tl.store(X_ptr + X_offsets, X_block, mask=X_offsets < n_cols)
    tl.debug_barrier()
    loss = lse - ori_X_y
    if label_smoothing > 0:
        smooth_loss = scaled_x_sum + label_smoothing * lse
        loss = loss * (1 - label_smoothing) + smooth_loss
    z_loss = lse_square_scale * lse * lse
    loss += z_loss
    if reduction == "mean":
        z_loss = z_loss / n_non_ignore
        loss = loss / n_non_ignore
    tl.store(loss_ptr, loss)
    if RETURN_Z_LOSS:
        tl.store(z_loss_ptr, z_loss)


@triton.jit
def liger_kldiv_kernel(y_ptr, y_stride, gt_ptr, gt_stride, loss_ptr, loss_stride, n_cols, eps,
                       BLOCK_SIZE: tl.constexpr, log_target: tl.constexpr, reduction: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    y_ptr += pid * y_stride
    gt_ptr += pid * gt_stride
    loss_ptr += pid * loss_stride
    base_offsets = tl.arange(0, BLOCK_SIZE)
    loss_sum = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + base_offsets
        mask = offsets < n_cols
        y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        y_true = tl.load(gt_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        if not log_target:
            loss = y_true * (tl.log(tl.maximum(y_true, eps)) - y)
        else:
            loss = tl.exp(y_true) * (y_true - y)
        if reduction == 0:
            tl.store(loss_ptr + offsets, loss, mask=mask)
        else:
            loss_sum += tl.sum(loss, axis=0)
    if reduction != 0:
        tl.store(loss_ptr, loss_sum)


@triton.jit
def liger_jsd_kernel(X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, loss_stride, dX_ptr, dX_stride, label_ptr,
                     beta: tl.constexpr, n_non_ignore: int, ignore_index: tl.constexpr, n_cols,
                     BLOCK_SIZE: tl.constexpr, HAS_LABEL: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    X_ptr += pid * X_stride
    dX_ptr += pid * dX_stride
    Y_ptr += pid * Y_stride
    loss_ptr += pid * loss_stride
    label_ptr += pid
    if HAS_LABEL:
        label = tl.load(label_ptr)
        if label == ignore_index:
            for i in range(0, n_cols, BLOCK_SIZE):
                offsets = i + tl.arange(0, BLOCK_SIZE)
                tl.store(dX_ptr + offsets, 0.0, mask=offsets < n_cols)
            return
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols
        X = tl.load(X_ptr + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        Y = tl.load(Y_ptr + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        if beta == 0.0:
            Y_max = tl.max(Y, axis=0)
            Y_shifted = Y - Y_max
            Y_prob = tl.exp(Y_shifted) * tl.exp(Y_max)
            loss = Y_prob * (Y - X)
            dX = -Y_prob
        elif beta == 1.0:
            X_max = tl.max(X, axis=0)
            X_shifted = X - X_max
            X_prob = tl.exp(X_shifted) * tl.exp(X_max)
            loss = X_prob * (X - Y)
            dX = loss + X_prob
        else:
            max_val = tl.maximum(tl.max(X, axis=0), tl.max(Y, axis=0))
            X_shifted = X - max_val
            Y_shifted = Y - max_val
            exp_max = tl.exp(max_val)
            Q = tl.exp(X_shifted) * exp_max
            P = tl.exp(Y_shifted) * exp_max
            beta_P = beta * P
            one_minus_beta_Q = (1 - beta) * Q
            M = beta_P + one_minus_beta_Q
            log_M = tl.log(M)
            loss = beta_P * Y + one_minus_beta_Q * X - M * log_M
            dX = one_minus_beta_Q * (X - log_M)
        scale = 1.0 / n_non_ignore
        loss = loss * scale
        dX = dX * scale
        tl.store(loss_ptr + offsets, loss, mask=mask)
        tl.store(dX_ptr + offsets, dX, mask=mask)


# ---------------------------------------------------------------------------------------------
# Liger group norm forward: one program per (batch, group), the group's channels flattened


@triton.jit
def liger_group_norm_forward(Y_ptr, Y_row_stride, Y_col_stride, X_ptr, X_row_stride, X_col_stride, Mean_ptr,
                             Mean_row_stride, Mean_col_stride, RSTD_ptr, W_ptr, B_ptr, hidden_size,
                             channels_per_group, eps, BLOCK_SIZE: tl.constexpr):
    batch_idx = tl.program_id(0)
    group_idx = tl.program_id(1)
    X_ptr += batch_idx * X_row_stride + group_idx * X_col_stride
    Y_ptr += batch_idx * Y_row_stride + group_idx * Y_col_stride
    block_range = tl.arange(0, BLOCK_SIZE)
    s = 0.0
    squared_sum = 0.0
    for i in tl.range(0, hidden_size, BLOCK_SIZE):
        hidden_size_offsets = i + block_range
        mask = hidden_size_offsets < hidden_size
        X = tl.load(X_ptr + hidden_size_offsets, mask=mask, other=0.0)
        s += tl.sum(X)
        squared_sum += tl.sum(X * X)
    m = s / hidden_size
    variance = (squared_sum / hidden_size) - (m * m)
    rstd = tl.rsqrt(variance + eps)
    hidden_size_per_channel = hidden_size // channels_per_group
    for channel_idx in tl.range(group_idx * channels_per_group, (group_idx + 1) * channels_per_group):
        W = tl.load(W_ptr + channel_idx)
        B = tl.load(B_ptr + channel_idx)
        for i in range(0, hidden_size_per_channel, BLOCK_SIZE):
            hidden_size_offsets = i + block_range
            mask = hidden_size_offsets < hidden_size_per_channel
            X = tl.load(X_ptr + hidden_size_offsets, mask=mask, other=m)
            Y = (X - m) * rstd * W + B
            tl.store(Y_ptr + hidden_size_offsets, Y, mask=mask)
        X_ptr += hidden_size_per_channel
        Y_ptr += hidden_size_per_channel
    tl.store(Mean_ptr + batch_idx * Mean_row_stride + group_idx * Mean_col_stride, m)
    tl.store(RSTD_ptr + batch_idx * Mean_row_stride + group_idx * Mean_col_stride, rstd)


# ---------------------------------------------------------------------------------------------
# fused add + RMSNorm backward: dW accumulated across rows with atomics


@triton.jit
def fused_add_rms_norm_bwd(dY_ptr, dY_row_stride, dS_out_ptr, X_ptr, X_row_stride, W_ptr, RSTD_ptr,
                           dX_ptr, dW_ptr, n_rows, n_cols, offset, rows_per_program, casting_mode: tl.constexpr,
                           BLOCK_SIZE: tl.constexpr, HAS_DS_OUT: tl.constexpr, ATOMIC_DW: tl.constexpr):
    row_block_id = tl.program_id(0)
    row_start = row_block_id * rows_per_program
    row_end = min((row_block_id + 1) * rows_per_program, n_rows)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    dW_row = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0.0)
    W_row = W_row + offset
    for row_idx in range(row_start, row_end):
        dY_row = tl.load(dY_ptr + row_idx * dY_row_stride + col_offsets, mask=mask, other=0.0)
        X_row = tl.load(X_ptr + row_idx * X_row_stride + col_offsets, mask=mask, other=0.0)
        rstd_row = tl.load(RSTD_ptr + row_idx)
        X_row = X_row.to(tl.float32)
        if casting_mode == 0:  # llama
            m = (dY_row * W_row).to(tl.float32)
        else:  # gemma
            dY_row = dY_row.to(tl.float32)
            m = dY_row * W_row.to(tl.float32)
        dX_row = rstd_row * m
        if HAS_DS_OUT:
            dX_row += tl.load(dS_out_ptr + row_idx * dY_row_stride + col_offsets, mask=mask, other=0.0).to(
                tl.float32)
        dX_row += rstd_row * (-(1 / n_cols) * rstd_row * rstd_row * tl.sum(m * X_row, axis=0) * X_row)
        if ATOMIC_DW:
            tl.atomic_add(dW_ptr + col_offsets, (dY_row * (X_row * rstd_row)).to(tl.float32), mask=mask,
                          sem="relaxed")
        else:
            dW_row += dY_row * (X_row * rstd_row).to(dY_row.dtype)
        tl.store(dX_ptr + row_idx * X_row_stride + col_offsets, dX_row.to(dX_ptr.dtype.element_ty), mask=mask)
    if not ATOMIC_DW:
        tl.store(dW_ptr + row_block_id * n_cols + col_offsets, dW_row, mask=mask)


# ---------------------------------------------------------------------------------------------
# RoPE with the angles computed in-kernel (tl.sin / tl.cos of pos * inv_freq)


@triton.jit
def rope_sincos_inkernel(q_ptr, k_ptr, pos_ptr, q_row_stride, k_row_stride, n_qh: tl.constexpr,
                         n_kh: tl.constexpr, hd: tl.constexpr, base, BACKWARD: tl.constexpr,
                         BLOCK_H: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    pos = tl.load(pos_ptr + pid).to(tl.float32)
    half = tl.arange(0, hd // 2)
    inv_freq = tl.exp2(-(half.to(tl.float32) * 2.0 / hd) * tl.log2(base))
    ang = pos * inv_freq
    cos_row = tl.cos(ang)
    sin_row = tl.sin(ang)
    if BACKWARD:
        sin_row = -sin_row
    q_ptr = q_ptr + pid * q_row_stride
    k_ptr = k_ptr + pid * k_row_stride
    hq = tl.arange(0, BLOCK_H)[:, None]
    offs_1 = hq * hd + half[None, :]
    mq = (hq < n_qh) & (half[None, :] < hd // 2)
    mk = (hq < n_kh) & (half[None, :] < hd // 2)
    q1 = tl.load(q_ptr + offs_1, mask=mq, other=0).to(sin_row.dtype)
    q2 = tl.load(q_ptr + offs_1 + hd // 2, mask=mq, other=0).to(sin_row.dtype)
    k1 = tl.load(k_ptr + offs_1, mask=mk, other=0).to(sin_row.dtype)
    k2 = tl.load(k_ptr + offs_1 + hd // 2, mask=mk, other=0).to(sin_row.dtype)
    tl.store(q_ptr + offs_1, (q1 * cos_row - q2 * sin_row).to(q_ptr.dtype.element_ty), mask=mq)
    tl.store(q_ptr + offs_1 + hd // 2, (q2 * cos_row + q1 * sin_row).to(q_ptr.dtype.element_ty), mask=mq)
    tl.store(k_ptr + offs_1, (k1 * cos_row - k2 * sin_row).to(k_ptr.dtype.element_ty), mask=mk)
    tl.store(k_ptr + offs_1 + hd // 2, (k2 * cos_row + k1 * sin_row).to(k_ptr.dtype.element_ty), mask=mk)


# ---------------------------------------------------------------------------------------------
# reductions in other forms


@triton.jit
def reduce_forms(x_ptr, i_ptr, out_f_ptr, out_i_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr,
                 BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_C)
    m = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * n_cols + cols[None, :]
    x = tl.load(x_ptr + offs, mask=m, other=float("-inf")).to(tl.float32)
    bits = tl.load(i_ptr + offs, mask=m, other=0)
    vmax, imax = tl.max(x, axis=1, return_indices=True)
    imin = tl.argmin(tl.where(m, x, float("inf")), axis=1, tie_break_left=False)
    xs = tl.xor_sum(bits, axis=1)
    umin = tl.min(bits.to(tl.uint32), axis=1)
    colmax = tl.max(x, axis=0, keep_dims=True)
    total = tl.sum(tl.where(m, x - colmax, 0.0))  # 0-d
    prod = tl.cumprod(tl.where(m, tl.exp(x * 0.01), 1.0), axis=0, reverse=True)
    tl.store(out_f_ptr + rows, vmax + total, mask=rows < n_rows)
    tl.store(out_i_ptr + rows * 4 + 0, imax, mask=rows < n_rows)
    tl.store(out_i_ptr + rows * 4 + 1, imin, mask=rows < n_rows)
    tl.store(out_i_ptr + rows * 4 + 2, xs, mask=rows < n_rows)
    tl.store(out_i_ptr + rows * 4 + 3, umin.to(tl.int32), mask=rows < n_rows)
    tl.store(x_ptr + offs, prod.to(x_ptr.dtype.element_ty), mask=m)


_H, _B, _F = "*fp16", "*bf16", "*fp32"

CASES = [
    dict(name="fla_delta_h_ieee", fn=chunk_delta_rule_fwd_h,
         sig={"k_ptr": _F, "w_ptr": _F, "u_ptr": _F, "h_ptr": _F, "v_new_ptr": _F, "h0_ptr": _F, "ht_ptr": _F,
              "T": "i32"},
         const={"H": 4, "K": 64, "V": 64, "BT": 64, "BK": 64, "BV": 32, "PREC": "ieee", "USE_INITIAL_STATE": True,
                "STORE_FINAL_STATE": True}, div=[0, 1, 2, 3, 4, 5, 6], opts=dict(num_warps=4, num_stages=2)),
    dict(name="fla_delta_h_tf32x3", fn=chunk_delta_rule_fwd_h,
         sig={"k_ptr": _F, "w_ptr": _F, "u_ptr": _F, "h_ptr": _F, "v_new_ptr": _F, "h0_ptr": _F, "ht_ptr": _F,
              "T": "i32"},
         const={"H": 4, "K": 64, "V": 64, "BT": 64, "BK": 64, "BV": 64, "PREC": "tf32x3",
                "USE_INITIAL_STATE": False, "STORE_FINAL_STATE": True}, div=[0, 1, 2, 3, 4, 5, 6],
         opts=dict(num_warps=4, num_stages=3)),
    dict(name="fla_delta_h_bf16_tf32", fn=chunk_delta_rule_fwd_h,
         sig={"k_ptr": _B, "w_ptr": _B, "u_ptr": _B, "h_ptr": _B, "v_new_ptr": _B, "h0_ptr": _F, "ht_ptr": _F,
              "T": "i32"},
         const={"H": 4, "K": 128, "V": 128, "BT": 64, "BK": 64, "BV": 64, "PREC": "tf32",
                "USE_INITIAL_STATE": True, "STORE_FINAL_STATE": False}, div=[0, 1, 2, 3, 4, 5, 6],
         opts=dict(num_warps=4, num_stages=2)),
    dict(name="fla_recompute_w_u", fn=recompute_w_u_fwd,
         sig={"k_ptr": _B, "v_ptr": _B, "beta_ptr": _B, "w_ptr": _B, "u_ptr": _B, "T": "i32"},
         const={"H": 4, "K": 64, "V": 64, "BT": 64}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=4)),
    dict(name="fla_recompute_w_u_bt16", fn=recompute_w_u_fwd,
         sig={"k_ptr": _H, "v_ptr": _H, "beta_ptr": _F, "w_ptr": _H, "u_ptr": _H, "T": "i32"},
         const={"H": 2, "K": 32, "V": 16, "BT": 16}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=1)),
    dict(name="linear_recurrence_bwd_rev_scan", fn=linear_recurrence_bwd,
         sig={"a_ptr": _F, "grad_ptr": _F, "dx_ptr": _F, "da_ptr": _F, "h_ptr": _F, "L": "i32", "D": "i32"},
         const={"BLOCK_L": 256, "BLOCK_D": 16}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=4)),
    dict(name="linear_recurrence_bwd_rev_scan_bf16", fn=linear_recurrence_bwd,
         sig={"a_ptr": _B, "grad_ptr": _B, "dx_ptr": _B, "da_ptr": _B, "h_ptr": _B, "L": "i32", "D": "i32"},
         const={"BLOCK_L": 64, "BLOCK_D": 64}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=8)),
    dict(name="mamba_ssu_softplus_heads_per_prog", fn=selective_state_update,
         sig={"state_ptr": _F, "x_ptr": _B, "dt_ptr": _B, "dt_bias_ptr": _F, "A_ptr": _F, "B_ptr": _B, "C_ptr": _B,
              "D_ptr": _F, "z_ptr": _B, "out_ptr": _B, "state_batch_indices_ptr": "*i32", "dim": "i32",
              "dstate": "i32", "nheads_ngroups_ratio": "i32", "stride_state_batch": "i64",
              "stride_state_head": "i32", "stride_state_dim": "i32", "stride_x_batch": "i32",
              "stride_x_head": "i32", "stride_dt_batch": "i32", "stride_dt_head": "i32", "stride_A_head": "i32",
              "stride_A_dim": "i32", "stride_B_batch": "i32", "stride_B_group": "i32",
              "stride_out_batch": "i32", "stride_out_head": "i32"},
         const={"DT_SOFTPLUS": True, "TIE_HDIM": False, "BLOCK_SIZE_M": 16, "HAS_DT_BIAS": True, "HAS_D": True,
                "HAS_Z": True, "HEADS_PER_PROG": 2, "BLOCK_SIZE_DSTATE": 128},
         div=list(range(11)), opts=dict(num_warps=4)),
    dict(name="mamba2_selective_state_update_tied", fn=selective_state_update,
         sig={"state_ptr": _B, "x_ptr": _B, "dt_ptr": _B, "dt_bias_ptr": _F, "A_ptr": _F, "B_ptr": _B,
              "C_ptr": _B, "D_ptr": _F, "z_ptr": _B, "out_ptr": _B, "state_batch_indices_ptr": "*i32", "dim": "i32",
              "dstate": "i32", "nheads_ngroups_ratio": "i32", "stride_state_batch": "i64",
              "stride_state_head": "i32", "stride_state_dim": "i32", "stride_x_batch": "i32",
              "stride_x_head": "i32", "stride_dt_batch": "i32", "stride_dt_head": "i32", "stride_A_head": "i32",
              "stride_A_dim": "i32", "stride_B_batch": "i32", "stride_B_group": "i32",
              "stride_out_batch": "i32", "stride_out_head": "i32"},
         const={"DT_SOFTPLUS": True, "TIE_HDIM": True, "BLOCK_SIZE_M": 4, "HAS_DT_BIAS": True, "HAS_D": False,
                "HAS_Z": False, "HEADS_PER_PROG": 4, "BLOCK_SIZE_DSTATE": 128},
         div=list(range(11)), opts=dict(num_warps=1)),
    dict(name="liger_ce_softcap_smooth", fn=liger_cross_entropy_kernel,
         sig={"X_ptr": _B, "X_stride": "i64", "Y_ptr": "*i64", "Y_stride": "i32", "loss_ptr": _F,
              "z_loss_ptr": _F, "loss_stride": "i32", "n_cols": "i32", "n_non_ignore": "i32",
              "ignore_index": "i32", "softcap": "fp32"},
         const={"lse_square_scale": 1e-4, "label_smoothing": 0.1, "reduction": "mean", "RETURN_Z_LOSS": True,
                "BLOCK_SIZE": 4096, "HAS_SOFTCAPPING": True}, div=[0, 2, 4, 5], opts=dict(num_warps=32)),
    dict(name="liger_ce_plain_fp32", fn=liger_cross_entropy_kernel,
         sig={"X_ptr": _F, "X_stride": "i64", "Y_ptr": "*i64", "Y_stride": "i32", "loss_ptr": _F,
              "z_loss_ptr": _F, "loss_stride": "i32", "n_cols": "i32", "n_non_ignore": "i32",
              "ignore_index": "i32", "softcap": "fp32"},
         const={"lse_square_scale": 0.0, "label_smoothing": 0.0, "reduction": "sum", "RETURN_Z_LOSS": False,
                "BLOCK_SIZE": 1024, "HAS_SOFTCAPPING": False}, div=[0, 2, 4, 5], opts=dict(num_warps=8)),
    dict(name="liger_kldiv_none", fn=liger_kldiv_kernel,
         sig={"y_ptr": _F, "y_stride": "i32", "gt_ptr": _F, "gt_stride": "i32", "loss_ptr": _F,
              "loss_stride": "i32", "n_cols": "i32", "eps": "fp32"},
         const={"BLOCK_SIZE": 2048, "log_target": False, "reduction": 0}, div=[0, 2, 4], opts=dict(num_warps=8)),
    dict(name="liger_kldiv_logtarget_sum", fn=liger_kldiv_kernel,
         sig={"y_ptr": _B, "y_stride": "i32", "gt_ptr": _B, "gt_stride": "i32", "loss_ptr": _F,
              "loss_stride": "i32", "n_cols": "i32", "eps": "fp32"},
         const={"BLOCK_SIZE": 2048, "log_target": True, "reduction": 1}, div=[0, 2, 4], opts=dict(num_warps=8)),
    dict(name="liger_jsd_beta_half", fn=liger_jsd_kernel,
         sig={"X_ptr": _B, "X_stride": "i32", "Y_ptr": _B, "Y_stride": "i32", "loss_ptr": _F, "loss_stride": "i32",
              "dX_ptr": _B, "dX_stride": "i32", "label_ptr": "*i64", "n_non_ignore": "i32", "n_cols": "i32"},
         const={"beta": 0.5, "ignore_index": -100, "BLOCK_SIZE": 4096, "HAS_LABEL": True}, div=[0, 2, 4, 6, 8],
         opts=dict(num_warps=16)),
    dict(name="liger_jsd_beta0", fn=liger_jsd_kernel,
         sig={"X_ptr": _F, "X_stride": "i32", "Y_ptr": _F, "Y_stride": "i32", "loss_ptr": _F, "loss_stride": "i32",
              "dX_ptr": _F, "dX_stride": "i32", "label_ptr": "*i64", "n_non_ignore": "i32", "n_cols": "i32"},
         const={"beta": 0.0, "ignore_index": -100, "BLOCK_SIZE": 1024, "HAS_LABEL": False}, div=[0, 2, 4, 6, 8],
         opts=dict(num_warps=4)),
    dict(name="liger_group_norm_fwd", fn=liger_group_norm_forward,
         sig={"Y_ptr": _F, "Y_row_stride": "i32", "Y_col_stride": "i32", "X_ptr": _F, "X_row_stride": "i32",
              "X_col_stride": "i32", "Mean_ptr": _F, "Mean_row_stride": "i32", "Mean_col_stride": "i32",
              "RSTD_ptr": _F, "W_ptr": _F, "B_ptr": _F, "hidden_size": "i32", "channels_per_group": "i32",
              "eps": "fp32"}, const={"BLOCK_SIZE": 512}, div=[0, 3, 6, 9, 10, 11], opts=dict(num_warps=4)),
    dict(name="fused_add_rms_norm_bwd_atomic", fn=fused_add_rms_norm_bwd,
         sig={"dY_ptr": _B, "dY_row_stride": "i32", "dS_out_ptr": _B, "X_ptr": _B, "X_row_stride": "i32",
              "W_ptr": _B, "RSTD_ptr": _F, "dX_ptr": _B, "dW_ptr": _F, "n_rows": "i32", "n_cols": "i32",
              "offset": "fp32", "rows_per_program": "i32"},
         const={"casting_mode": 1, "BLOCK_SIZE": 4096, "HAS_DS_OUT": True, "ATOMIC_DW": True},
         div=[0, 2, 3, 5, 6, 7, 8], opts=dict(num_warps=16)),
    dict(name="fused_add_rms_norm_bwd_rows", fn=fused_add_rms_norm_bwd,
         sig={"dY_ptr": _H, "dY_row_stride": "i32", "dS_out_ptr": _H, "X_ptr": _H, "X_row_stride": "i32",
              "W_ptr": _H, "RSTD_ptr": _F, "dX_ptr": _H, "dW_ptr": _F, "n_rows": "i32", "n_cols": "i32",
              "offset": "fp32", "rows_per_program": "i32"},
         const={"casting_mode": 0, "BLOCK_SIZE": 1024, "HAS_DS_OUT": False, "ATOMIC_DW": False},
         div=[0, 2, 3, 5, 6, 7, 8], opts=dict(num_warps=4)),
    dict(name="rope_sincos_inkernel_bwd", fn=rope_sincos_inkernel,
         sig={"q_ptr": _B, "k_ptr": _B, "pos_ptr": "*i64", "q_row_stride": "i32", "k_row_stride": "i32",
              "base": "fp32"},
         const={"n_qh": 32, "n_kh": 8, "hd": 128, "BACKWARD": True, "BLOCK_H": 32}, div=[0, 1, 2, 3, 4],
         opts=dict(num_warps=4)),
    dict(name="reduce_forms", fn=reduce_forms,
         sig={"x_ptr": _H, "i_ptr": "*i32", "out_f_ptr": _F, "out_i_ptr": "*i32", "n_rows": "i32", "n_cols": "i32"},
         const={"BLOCK_R": 16, "BLOCK_C": 128}, div=[0, 1, 2, 3], opts=dict(num_warps=4)),
    dict(name="reduce_forms_w1", fn=reduce_forms,
         sig={"x_ptr": _F, "i_ptr": "*i32", "out_f_ptr": _F, "out_i_ptr": "*i32", "n_rows": "i32", "n_cols": "i32"},
         const={"BLOCK_R": 2, "BLOCK_C": 32}, div=[0, 1, 2, 3], opts=dict(num_warps=1)),
]
