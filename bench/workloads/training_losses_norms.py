"""Training kernels around losses, norms and the optimizer, in the styles of Liger, unsloth,
apex/fused optimizers and the Triton tutorials (written for this project):

- cross-entropy forward and backward in one pass over the vocabulary (online logsumexp over
  vocab blocks, ignore_index with an early return, label smoothing, gradient written in place
  into the logits, mean loss reduced with an fp32 atomic);
- generalized Jensen-Shannon divergence (distillation) with its gradient;
- fused residual add + RMSNorm forward (Llama and Gemma's 1 + w), RMSNorm backward with per-program
  dW partial sums and a column-reduce kernel;
- LayerNorm backward with dW/dB accumulated under a spin lock (atomic_cas / atomic_xchg, while loop);
- GroupNorm forward with two-pass statistics in a noinline helper;
- softmax backward, embedding backward (fp32 atomic_add scatter, int64 offsets, padding_idx);
- fused bias + dropout (tl.rand, philox seed) + residual;
- AdamW over flat fp32 master parameters with a bf16 copy, AMP unscale and a found_inf early exit;
- gradient-norm clipping over many tensors through a table of raw addresses (int -> pointer).
"""
import triton
import triton.language as tl
from triton.language.extra import libdevice


# ---------------------------------------------------------------------------------------------
# cross-entropy


@triton.jit
def cross_entropy_fwd_bwd(logits_ptr, logits_stride, labels_ptr, loss_ptr, total_loss_ptr, n_cols,
                          n_non_ignore, ignore_index, label_smoothing, BLOCK: tl.constexpr,
                          HAS_SMOOTHING: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    logits_ptr += row * logits_stride
    label = tl.load(labels_ptr + row)
    if label == ignore_index:
        # an ignored token contributes nothing: zero its gradient row and leave
        for start in range(0, n_cols, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            tl.store(logits_ptr + cols, tl.zeros([BLOCK], tl.float32), mask=cols < n_cols)
        tl.store(loss_ptr + row, 0.0)
        return
    target_logit = tl.load(logits_ptr + label).to(tl.float32)
    eps = label_smoothing / n_cols
    running_max = float("-inf")
    running_sum = 0.0
    smooth_sum = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        if HAS_SMOOTHING:
            smooth_sum += tl.sum(tl.where(cols < n_cols, -eps * x, 0.0))
        new_max = tl.maximum(running_max, tl.max(x, 0))
        running_sum = running_sum * tl.exp(running_max - new_max) + tl.sum(tl.exp(x - new_max))
        running_max = new_max
    lse = running_max + tl.log(running_sum)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        grad = tl.exp(x - lse) - eps
        grad = tl.where(cols == label, grad - (1.0 - label_smoothing), grad) / n_non_ignore
        tl.store(logits_ptr + cols, grad.to(logits_ptr.dtype.element_ty), mask=cols < n_cols)
    loss = lse - target_logit
    if HAS_SMOOTHING:
        loss = loss * (1.0 - label_smoothing) + smooth_sum + label_smoothing * lse
    loss = loss / n_non_ignore
    tl.store(loss_ptr + row, loss)
    tl.atomic_add(total_loss_ptr, loss, sem="relaxed")


def _run_cross_entropy(dtype_name, smoothing, block, num_warps):
    def run(torch):
        dtype = getattr(torch, dtype_name)
        rows, vocab, ignore = 37, 5003, -100
        logits = torch.randn(rows, vocab, device="cuda", dtype=dtype) * 3
        labels = torch.randint(0, vocab, (rows,), device="cuda", dtype=torch.int64)
        labels[::5] = ignore
        n_non_ignore = float((labels != ignore).sum().item())
        ref_in = logits.float().clone().requires_grad_(True)
        ref = torch.nn.functional.cross_entropy(ref_in, labels, ignore_index=ignore, label_smoothing=smoothing)
        ref.backward()
        loss = torch.empty(rows, device="cuda", dtype=torch.float32)
        total = torch.zeros(1, device="cuda", dtype=torch.float32)
        grad = logits.clone()
        cross_entropy_fwd_bwd[(rows,)](grad, grad.stride(0), labels, loss, total, vocab, n_non_ignore, ignore,
                                       smoothing, BLOCK=block, HAS_SMOOTHING=smoothing > 0, num_warps=num_warps)
        return [("loss", total[0], ref.detach(), 1e-3, 1e-3),
                ("grad", grad.float(), ref_in.grad, 1e-4, 2e-2)]
    return run


_CE_SIG = {"logits_ptr": "*bf16", "logits_stride": "i32", "labels_ptr": "*i64", "loss_ptr": "*fp32",
           "total_loss_ptr": "*fp32", "n_cols": "i32", "n_non_ignore": "fp32", "ignore_index": "i32",
           "label_smoothing": "fp32"}


# ---------------------------------------------------------------------------------------------
# generalized JSD (distillation loss), inputs are log-probabilities


@triton.jit
def jsd_fwd_bwd(student_logp_ptr, teacher_logp_ptr, stride, grad_ptr, loss_ptr, n_cols, inv_rows, beta,
                BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    student_logp_ptr += row * stride
    teacher_logp_ptr += row * stride
    grad_ptr += row * stride
    row_loss = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        log_q = tl.load(student_logp_ptr + cols, mask=mask, other=float("-inf")).to(tl.float32)
        log_p = tl.load(teacher_logp_ptr + cols, mask=mask, other=float("-inf")).to(tl.float32)
        q = tl.exp(log_q)
        p = tl.exp(log_p)
        mixture = beta * p + (1.0 - beta) * q
        log_m = tl.log(mixture)
        term = beta * p * (log_p - log_m) + (1.0 - beta) * q * (log_q - log_m)
        row_loss += tl.where(mask, term, 0.0)
        grad = (1.0 - beta) * q * (log_q - log_m) * inv_rows
        tl.store(grad_ptr + cols, grad.to(grad_ptr.dtype.element_ty), mask=mask)
    tl.atomic_add(loss_ptr, tl.sum(row_loss, 0) * inv_rows, sem="relaxed")


def _run_jsd(torch):
    rows, vocab, beta = 23, 3001, 0.3
    student = torch.randn(rows, vocab, device="cuda").log_softmax(-1).to(torch.bfloat16)
    teacher = torch.randn(rows, vocab, device="cuda").log_softmax(-1).to(torch.bfloat16)
    grad = torch.empty_like(student)
    loss = torch.zeros(1, device="cuda", dtype=torch.float32)
    jsd_fwd_bwd[(rows,)](student, teacher, student.stride(0), grad, loss, vocab, 1.0 / rows, beta, BLOCK=2048,
                         num_warps=8)
    log_q = student.float().clone().requires_grad_(True)
    log_p = teacher.float()
    q, p = log_q.exp(), log_p.exp()
    log_m = (beta * p + (1 - beta) * q).log()
    ref = (beta * p * (log_p - log_m) + (1 - beta) * q * (log_q - log_m)).sum() / rows
    ref.backward()
    return [("loss", loss[0], ref.detach(), 1e-4, 1e-3), ("grad", grad.float(), log_q.grad, 1e-5, 3e-2)]


# ---------------------------------------------------------------------------------------------
# RMSNorm


@triton.jit
def fused_add_rmsnorm_fwd(x_ptr, residual_ptr, weight_ptr, y_ptr, rstd_ptr, stride, n_cols, eps,
                          WEIGHT_OFFSET: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    x += tl.load(residual_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    # the next layer's residual is the sum, rounded to the activation type
    tl.store(residual_ptr + row * stride + cols, x.to(residual_ptr.dtype.element_ty), mask=mask)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(rstd_ptr + row, rstd)
    w = tl.load(weight_ptr + cols, mask=mask, other=0.0).to(tl.float32) + WEIGHT_OFFSET
    tl.store(y_ptr + row * stride + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def _run_fused_add_rmsnorm(dtype_name, offset, block):
    def run(torch):
        dtype = getattr(torch, dtype_name)
        rows, hidden, eps = 65, 2000, 1e-6
        x = torch.randn(rows, hidden, device="cuda", dtype=dtype)
        residual = torch.randn(rows, hidden, device="cuda", dtype=dtype)
        w = torch.randn(hidden, device="cuda", dtype=dtype) * 0.1 + (0.0 if offset else 1.0)
        total = x.float() + residual.float()
        ref_rstd = torch.rsqrt(total.pow(2).mean(-1) + eps)
        ref_y = total * ref_rstd[:, None] * (w.float() + offset)
        y = torch.empty_like(x)
        rstd = torch.empty(rows, device="cuda", dtype=torch.float32)
        fused_add_rmsnorm_fwd[(rows,)](x, residual, w, y, rstd, x.stride(0), hidden, eps, WEIGHT_OFFSET=offset,
                                       BLOCK=block, num_warps=8)
        return [("residual", residual, total, 1e-2, 1e-2), ("rstd", rstd, ref_rstd, 1e-4, 1e-4),
                ("y", y, ref_y, 3e-2, 2e-2)]
    return run


_ADD_RMS_SIG = {"x_ptr": "*bf16", "residual_ptr": "*bf16", "weight_ptr": "*bf16", "y_ptr": "*bf16",
                "rstd_ptr": "*fp32", "stride": "i32", "n_cols": "i32", "eps": "fp32"}


@triton.jit
def rmsnorm_bwd(dy_ptr, x_ptr, weight_ptr, rstd_ptr, dx_ptr, dw_partial_ptr, stride, n_rows, n_cols,
                rows_per_program, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    first = pid * rows_per_program
    last = tl.minimum(first + rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    w = tl.load(weight_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], tl.float32)
    for row in range(first, last):
        dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + row)
        x_hat = x * rstd
        w_dy = w * dy
        dx = (w_dy - x_hat * (tl.sum(x_hat * w_dy, axis=0) / n_cols)) * rstd
        tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        dw += dy * x_hat
    tl.store(dw_partial_ptr + pid * n_cols + cols, dw, mask=mask)


@triton.jit
def column_sum(partial_ptr, out_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    acc = tl.zeros([BLOCK_R, BLOCK_C], tl.float32)
    for start in range(0, n_rows, BLOCK_R):
        rows = start + tl.arange(0, BLOCK_R)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        acc += tl.load(partial_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0).to(out_ptr.dtype.element_ty), mask=cols < n_cols)


def _run_rmsnorm_bwd(torch):
    rows, hidden, eps, programs = 150, 1500, 1e-6, 16
    x = torch.randn(rows, hidden, device="cuda", dtype=torch.bfloat16)
    w = (torch.rand(hidden, device="cuda") + 0.5).to(torch.bfloat16)
    dy = torch.randn(rows, hidden, device="cuda", dtype=torch.bfloat16)
    xr = x.float().clone().requires_grad_(True)
    wr = w.float().clone().requires_grad_(True)
    rstd = torch.rsqrt(x.float().pow(2).mean(-1) + eps)
    (xr * torch.rsqrt(xr.pow(2).mean(-1, keepdim=True) + eps) * wr).backward(dy.float())
    dx = torch.empty_like(x)
    partial = torch.empty(programs, hidden, device="cuda", dtype=torch.float32)
    rows_per_program = triton.cdiv(rows, programs)
    rmsnorm_bwd[(programs,)](dy, x, w, rstd, dx, partial, x.stride(0), rows, hidden, rows_per_program, BLOCK=2048,
                             num_warps=8)
    dw = torch.empty(hidden, device="cuda", dtype=torch.float32)
    column_sum[(triton.cdiv(hidden, 128),)](partial, dw, programs, hidden, BLOCK_R=16, BLOCK_C=128, num_warps=4)
    return [("dx", dx, xr.grad, 3e-2, 2e-2), ("dw", dw, wr.grad, 5e-2, 1e-2)]


def _run_column_sum(torch):
    partial = torch.randn(100, 1000, device="cuda", dtype=torch.float32)
    out = torch.empty(1000, device="cuda", dtype=torch.bfloat16)
    column_sum[(triton.cdiv(1000, 64),)](partial, out, 100, 1000, BLOCK_R=32, BLOCK_C=64, num_warps=4)
    return [("sum", out, partial.sum(0), 5e-2, 1e-2)]


# ---------------------------------------------------------------------------------------------
# LayerNorm backward: dx per row, dW/dB partial sums per lock group under a spin lock


@triton.jit
def layernorm_bwd_dx_locked_dwdb(dy_ptr, x_ptr, weight_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_partial_ptr,
                                 db_partial_ptr, lock_ptr, stride, n_cols, GROUPS: tl.constexpr,
                                 BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(weight_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    x_hat = tl.where(mask, (x - tl.load(mean_ptr + row)) * tl.load(rstd_ptr + row), 0.0)
    w_dy = tl.where(mask, w * dy, 0.0)
    mean_w_dy = tl.sum(w_dy, axis=0) / n_cols
    mean_xhat_w_dy = tl.sum(x_hat * w_dy, axis=0) / n_cols
    dx = (w_dy - (x_hat * mean_xhat_w_dy + mean_w_dy)) * tl.load(rstd_ptr + row)
    tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    # rows share GROUPS partial buffers; the first writer of a buffer stores, later ones add
    group = row % GROUPS
    lock = lock_ptr + group
    count = lock_ptr + GROUPS + group
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    partial_dw = dy * x_hat
    partial_db = dy
    if tl.load(count) != 0:
        partial_dw += tl.load(dw_partial_ptr + group * n_cols + cols, mask=mask)
        partial_db += tl.load(db_partial_ptr + group * n_cols + cols, mask=mask)
    else:
        tl.atomic_xchg(count, 1)
    tl.store(dw_partial_ptr + group * n_cols + cols, partial_dw, mask=mask)
    tl.store(db_partial_ptr + group * n_cols + cols, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


def _run_layernorm_bwd(torch):
    rows, hidden, eps, groups = 97, 1000, 1e-5, 32
    x = torch.randn(rows, hidden, device="cuda", dtype=torch.float16)
    w = torch.randn(hidden, device="cuda", dtype=torch.float16)
    b = torch.randn(hidden, device="cuda", dtype=torch.float16)
    dy = torch.randn(rows, hidden, device="cuda", dtype=torch.float16)
    xr = x.float().clone().requires_grad_(True)
    wr = w.float().clone().requires_grad_(True)
    br = b.float().clone().requires_grad_(True)
    torch.nn.functional.layer_norm(xr, (hidden,), wr, br, eps).backward(dy.float())
    mean = x.float().mean(-1)
    rstd = torch.rsqrt(x.float().var(-1, unbiased=False) + eps)
    dx = torch.empty_like(x)
    dw_partial = torch.zeros(groups, hidden, device="cuda", dtype=torch.float32)
    db_partial = torch.zeros(groups, hidden, device="cuda", dtype=torch.float32)
    locks = torch.zeros(2 * groups, device="cuda", dtype=torch.int32)
    layernorm_bwd_dx_locked_dwdb[(rows,)](dy, x, w, mean, rstd, dx, dw_partial, db_partial, locks, x.stride(0),
                                          hidden, GROUPS=groups, BLOCK=1024, num_warps=8)
    return [("dx", dx, xr.grad, 2e-2, 1e-2), ("dw", dw_partial.sum(0), wr.grad, 5e-2, 1e-2),
            ("db", db_partial.sum(0), br.grad, 5e-2, 1e-2)]


# ---------------------------------------------------------------------------------------------
# GroupNorm forward, two-pass statistics in a noinline helper


@triton.jit(noinline=True)
def _group_stats(base_ptr, n_elems, BLOCK: tl.constexpr):
    total = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_elems, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        total += tl.load(base_ptr + offs, mask=offs < n_elems, other=0.0).to(tl.float32)
    mean = tl.sum(total, 0) / n_elems
    sq = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_elems, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(base_ptr + offs, mask=offs < n_elems, other=0.0).to(tl.float32)
        sq += tl.where(offs < n_elems, (v - mean) * (v - mean), 0.0)
    return mean, tl.sum(sq, 0) / n_elems


@triton.jit
def group_norm_fwd(x_ptr, weight_ptr, bias_ptr, y_ptr, mean_ptr, rstd_ptr, channels, spatial, eps,
                   GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    sample = tl.program_id(0)
    group = tl.program_id(1)
    channels_per_group = channels // GROUPS
    n_elems = channels_per_group * spatial
    base = sample.to(tl.int64) * channels * spatial + group * n_elems
    mean, var = _group_stats(x_ptr + base, n_elems, BLOCK)
    rstd = tl.rsqrt(var + eps)
    tl.store(mean_ptr + sample * GROUPS + group, mean)
    tl.store(rstd_ptr + sample * GROUPS + group, rstd)
    for start in range(0, n_elems, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_elems
        channel = group * channels_per_group + offs // spatial
        w = tl.load(weight_ptr + channel, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(bias_ptr + channel, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + base + offs, ((x - mean) * rstd * w + b).to(y_ptr.dtype.element_ty), mask=mask)


def _run_group_norm(torch):
    n, c, h, w_, groups, eps = 3, 96, 13, 11, 8, 1e-5
    x = torch.randn(n, c, h, w_, device="cuda", dtype=torch.float16)
    weight = torch.randn(c, device="cuda", dtype=torch.float16)
    bias = torch.randn(c, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    mean = torch.empty(n, groups, device="cuda", dtype=torch.float32)
    rstd = torch.empty(n, groups, device="cuda", dtype=torch.float32)
    group_norm_fwd[(n, groups)](x, weight, bias, y, mean, rstd, c, h * w_, eps, GROUPS=groups, BLOCK=512,
                                num_warps=4)
    ref = torch.nn.functional.group_norm(x.float(), groups, weight.float(), bias.float(), eps)
    xg = x.float().view(n, groups, -1)
    return [("y", y, ref, 2e-2, 1e-2), ("mean", mean, xg.mean(-1), 1e-4, 1e-4),
            ("rstd", rstd, torch.rsqrt(xg.var(-1, unbiased=False) + eps), 1e-3, 1e-3)]


# ---------------------------------------------------------------------------------------------
# softmax backward


@triton.jit
def softmax_bwd(dy_ptr, y_ptr, dx_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    y = tl.load(y_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    dx = y * (dy - tl.sum(y * dy, axis=0))
    tl.store(dx_ptr + row * stride + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)


def _run_softmax_bwd(torch):
    rows, cols = 77, 1000
    y = torch.randn(rows, cols, device="cuda").softmax(-1).to(torch.bfloat16)
    dy = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    dx = torch.empty_like(y)
    softmax_bwd[(rows,)](dy, y, dx, y.stride(0), cols, BLOCK=1024, num_warps=4)
    yf, dyf = y.float(), dy.float()
    return [("dx", dx, yf * (dyf - (yf * dyf).sum(-1, keepdim=True)), 1e-3, 2e-2)]


# ---------------------------------------------------------------------------------------------
# embedding backward: scatter-add of the output gradient rows into an fp32 weight gradient


@triton.jit
def embedding_bwd(grad_out_ptr, ids_ptr, grad_weight_ptr, n_tokens, dim, padding_idx, BLOCK_T: tl.constexpr,
                  BLOCK_D: tl.constexpr):
    tokens = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    dims = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    ids = tl.load(ids_ptr + tokens, mask=tokens < n_tokens, other=padding_idx)
    live = (tokens < n_tokens) & (ids != padding_idx)
    mask = live[:, None] & (dims[None, :] < dim)
    g = tl.load(grad_out_ptr + tokens[:, None].to(tl.int64) * dim + dims[None, :], mask=mask, other=0.0)
    tl.atomic_add(grad_weight_ptr + ids[:, None] * dim + dims[None, :], g.to(tl.float32), mask=mask, sem="relaxed")


def _run_embedding_bwd(torch):
    tokens, vocab, dim, pad = 300, 1000, 200, 0
    ids = torch.randint(0, 50, (tokens,), device="cuda", dtype=torch.int64)  # many repeats
    g = torch.randn(tokens, dim, device="cuda", dtype=torch.bfloat16)
    grad_w = torch.zeros(vocab, dim, device="cuda", dtype=torch.float32)
    embedding_bwd[(triton.cdiv(tokens, 32), triton.cdiv(dim, 64))](g, ids, grad_w, tokens, dim, pad, BLOCK_T=32,
                                                                    BLOCK_D=64, num_warps=4)
    ref = torch.zeros(vocab, dim, device="cuda", dtype=torch.float32).index_add_(0, ids, g.float())
    ref[pad] = 0
    return [("grad_weight", grad_w, ref, 1e-3, 1e-3)]


# ---------------------------------------------------------------------------------------------
# fused bias + dropout + residual


@triton.jit
def bias_dropout_residual(x_ptr, bias_ptr, residual_ptr, y_ptr, keep_ptr, n_elems, n_cols, p, seed,
                          BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elems
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x += tl.load(bias_ptr + offs % n_cols, mask=mask, other=0.0).to(tl.float32)
    keep = tl.rand(seed, offs) > p
    x = tl.where(keep, x / (1.0 - p), 0.0)
    y = x + tl.load(residual_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(keep_ptr + offs, keep.to(tl.int8), mask=mask)


def _run_dropout(torch):
    rows, cols, p = 129, 700, 0.1
    x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    bias = torch.randn(cols, device="cuda", dtype=torch.bfloat16)
    residual = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    keep = torch.empty(rows, cols, device="cuda", dtype=torch.int8)
    bias_dropout_residual[(triton.cdiv(rows * cols, 1024),)](x, bias, residual, y, keep, rows * cols, cols, p, 1234,
                                                             BLOCK=1024, num_warps=4)
    kept = keep.bool()
    ref = residual.float() + torch.where(kept, (x.float() + bias.float()) / (1 - p), torch.zeros_like(x.float()))
    keep_rate = kept.float().mean()
    return [("y", y, ref, 3e-2, 1e-2), ("keep_rate", keep_rate, torch.tensor(1 - p, device="cuda"), 0.01, 0)]


# ---------------------------------------------------------------------------------------------
# AdamW over flat fp32 master parameters, bf16 model copy, AMP grad scale


@triton.jit
def adamw_step(master_ptr, model_ptr, grad_ptr, exp_avg_ptr, exp_avg_sq_ptr, found_inf_ptr, inv_grad_scale, lr,
               beta1, beta2, eps, weight_decay, step, n_elems, BLOCK: tl.constexpr):
    if tl.load(found_inf_ptr) != 0:
        # an overflowing step is skipped as a whole
        return
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elems
    param = tl.load(master_ptr + offs, mask=mask, other=0.0)
    grad = tl.load(grad_ptr + offs, mask=mask, other=0.0).to(tl.float32) * inv_grad_scale
    m = tl.load(exp_avg_ptr + offs, mask=mask, other=0.0)
    v = tl.load(exp_avg_sq_ptr + offs, mask=mask, other=0.0)
    param = param * (1.0 - lr * weight_decay)
    m = beta1 * m + (1.0 - beta1) * grad
    v = beta2 * v + (1.0 - beta2) * grad * grad
    step_f = step.to(tl.float32)
    bias_c1 = 1.0 - libdevice.pow(beta1, step_f)
    bias_c2 = 1.0 - libdevice.pow(beta2, step_f)
    denom = tl.sqrt(v / bias_c2) + eps
    param = param - (lr / bias_c1) * m / denom
    tl.store(master_ptr + offs, param, mask=mask)
    tl.store(model_ptr + offs, param.to(model_ptr.dtype.element_ty), mask=mask)
    tl.store(exp_avg_ptr + offs, m, mask=mask)
    tl.store(exp_avg_sq_ptr + offs, v, mask=mask)


def _run_adamw(torch):
    n, lr, b1, b2, eps, wd, step, scale = 100_003, 1e-3, 0.9, 0.999, 1e-8, 0.01, 7, 1024.0
    master = torch.randn(n, device="cuda")
    grad = (torch.randn(n, device="cuda") * scale).to(torch.bfloat16)
    m = torch.randn(n, device="cuda") * 0.01
    v = torch.rand(n, device="cuda") * 0.01
    found_inf = torch.zeros(1, device="cuda", dtype=torch.int32)
    ref_g = grad.float() / scale
    ref_p = master * (1 - lr * wd)
    ref_m = b1 * m + (1 - b1) * ref_g
    ref_v = b2 * v + (1 - b2) * ref_g * ref_g
    ref_p = ref_p - (lr / (1 - b1 ** step)) * ref_m / ((ref_v / (1 - b2 ** step)).sqrt() + eps)
    model = torch.empty(n, device="cuda", dtype=torch.bfloat16)
    grid = (triton.cdiv(n, 2048),)
    args = (1.0 / scale, lr, b1, b2, eps, wd, step, n)
    adamw_step[grid](master, model, grad, m, v, found_inf, *args, BLOCK=2048, num_warps=8)
    # a second launch with found_inf set must leave everything as it is
    found_inf.fill_(1)
    before = master.clone()
    adamw_step[grid](master, model, grad, m, v, found_inf, *args, BLOCK=2048, num_warps=8)
    return [("param", master, ref_p, 1e-5, 1e-4), ("model", model, ref_p, 1e-2, 1e-2), ("exp_avg", m, ref_m, 1e-6, 1e-4),
            ("exp_avg_sq", v, ref_v, 1e-7, 1e-4), ("skipped", master, before, 0, 0)]


_ADAMW_SIG = {"master_ptr": "*fp32", "model_ptr": "*bf16", "grad_ptr": "*bf16", "exp_avg_ptr": "*fp32",
              "exp_avg_sq_ptr": "*fp32", "found_inf_ptr": "*i32", "inv_grad_scale": "fp32", "lr": "fp32",
              "beta1": "fp32", "beta2": "fp32", "eps": "fp32", "weight_decay": "fp32", "step": "i32",
              "n_elems": "i32"}


# ---------------------------------------------------------------------------------------------
# gradient-norm clipping over many tensors: a table of (address, numel) per tensor


@triton.jit
def multi_tensor_sq_norm(addr_ptr, numel_ptr, norm_sq_ptr, BLOCK: tl.constexpr):
    tensor = tl.program_id(0)
    chunk = tl.program_id(1)
    grads = tl.load(addr_ptr + tensor).to(tl.pointer_type(tl.bfloat16))
    numel = tl.load(numel_ptr + tensor)
    offs = chunk * BLOCK + tl.arange(0, BLOCK)
    if chunk * BLOCK >= numel:
        return
    g = tl.load(grads + offs, mask=offs < numel, other=0.0).to(tl.float32)
    tl.atomic_add(norm_sq_ptr, tl.sum(g * g, 0), sem="relaxed")


@triton.jit
def multi_tensor_clip(addr_ptr, numel_ptr, norm_sq_ptr, max_norm, BLOCK: tl.constexpr):
    tensor = tl.program_id(0)
    grads = tl.load(addr_ptr + tensor).to(tl.pointer_type(tl.bfloat16))
    numel = tl.load(numel_ptr + tensor)
    scale = tl.minimum(max_norm / (tl.sqrt(tl.load(norm_sq_ptr)) + 1e-6), 1.0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    g = tl.load(grads + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(grads + offs, (g * scale).to(tl.bfloat16), mask=mask)


def _run_grad_clip(torch):
    sizes = [1000, 4097, 33, 20000]
    grads = [torch.randn(s, device="cuda", dtype=torch.bfloat16) for s in sizes]
    originals = [g.float() for g in grads]
    addrs = torch.tensor([g.data_ptr() for g in grads], device="cuda", dtype=torch.int64)
    numels = torch.tensor(sizes, device="cuda", dtype=torch.int64)
    norm_sq = torch.zeros(1, device="cuda", dtype=torch.float32)
    grid = (len(sizes), triton.cdiv(max(sizes), 1024))
    multi_tensor_sq_norm[grid](addrs, numels, norm_sq, BLOCK=1024, num_warps=4)
    multi_tensor_clip[grid](addrs, numels, norm_sq, 1.0, BLOCK=1024, num_warps=4)
    ref_norm = torch.cat(originals).norm()
    scale = min(1.0 / (ref_norm.item() + 1e-6), 1.0)
    return [("norm_sq", norm_sq[0], ref_norm ** 2, 1e-1, 1e-3),
            ("clipped", torch.cat([g.float() for g in grads]), torch.cat(originals) * scale, 1e-3, 1e-2)]


_MT_SIG = {"addr_ptr": "*i64", "numel_ptr": "*i64", "norm_sq_ptr": "*fp32"}


# ---------------------------------------------------------------------------------------------
# cross-entropy with top-1 accuracy (argmax through tl.max(return_indices=True)) and z-loss


@triton.jit
def cross_entropy_zloss_acc(logits_ptr, labels_ptr, loss_ptr, z_loss_ptr, correct_ptr, stride, n_cols,
                            z_loss_weight, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    label = tl.load(labels_ptr + row)
    if label == ignore_index:
        return
    logits_ptr += row * stride
    best_val = float("-inf")
    best_idx = 0
    running_max = float("-inf")
    running_sum = 0.0
    for start in tl.range(0, n_cols, BLOCK, num_stages=2):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        block_val, block_idx = tl.max(x, axis=0, return_indices=True)
        if block_val > best_val:
            best_val = block_val
            best_idx = start + block_idx
        new_max = tl.maximum(running_max, block_val)
        running_sum = running_sum * tl.exp2((running_max - new_max) * 1.4426950408889634) + \
            tl.sum(tl.exp2((x - new_max) * 1.4426950408889634))
        running_max = new_max
    lse = running_max + tl.log(running_sum)
    z_loss = z_loss_weight * lse * lse
    target = tl.load(logits_ptr + label).to(tl.float32)
    tl.atomic_add(loss_ptr, lse - target + z_loss, sem="relaxed")
    tl.atomic_add(z_loss_ptr, z_loss, sem="relaxed")
    tl.atomic_add(correct_ptr, (best_idx == label).to(tl.int32), sem="relaxed")


def _run_ce_zloss(torch):
    rows, vocab, ignore, zw = 41, 4099, -100, 1e-4
    logits = torch.randn(rows, vocab, device="cuda", dtype=torch.bfloat16) * 2
    labels = torch.randint(0, vocab, (rows,), device="cuda", dtype=torch.int64)
    labels[:10] = logits[:10].float().argmax(-1)
    labels[-3:] = ignore
    loss = torch.zeros(1, device="cuda")
    z = torch.zeros(1, device="cuda")
    correct = torch.zeros(1, device="cuda", dtype=torch.int32)
    cross_entropy_zloss_acc[(rows,)](logits, labels, loss, z, correct, logits.stride(0), vocab, zw, ignore,
                                     BLOCK=1024, num_warps=8)
    live = labels != ignore
    lf = logits.float()[live]
    lse = lf.logsumexp(-1)
    ref_z = (zw * lse * lse).sum()
    ref = (lse - lf.gather(1, labels[live][:, None])[:, 0]).sum() + ref_z
    ref_correct = (lf.argmax(-1) == labels[live]).sum().int()
    return [("loss", loss[0], ref, 1e-2, 1e-4), ("z", z[0], ref_z, 1e-4, 1e-4), ("correct", correct[0], ref_correct, 0, 0)]


# ---------------------------------------------------------------------------------------------
# exact-GELU backward (erf), tanh-GELU backward through inline PTX tanh.approx


@triton.jit
def gelu_erf_bwd(dy_ptr, x_ptr, dx_ptr, n_elems, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elems
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    cdf = 0.5 * (1.0 + libdevice.erf(x * 0.7071067811865476))
    pdf = tl.exp(-0.5 * x * x) * 0.3989422804014327
    tl.store(dx_ptr + offs, (dy * (cdf + x * pdf)).to(dx_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _tanh_approx(x):
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def gelu_tanh_bwd(dy_ptr, x_ptr, dx_ptr, n_elems, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elems
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    inner = 0.7978845608028654 * tl.fma(0.044715 * x, x * x, x)
    t = _tanh_approx(inner)
    d_inner = 0.7978845608028654 * (1.0 + 3.0 * 0.044715 * x * x)
    dx = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * d_inner
    tl.store(dx_ptr + offs, (dy * dx).to(dx_ptr.dtype.element_ty), mask=mask)


def _run_gelu_bwd(kernel, approximate):
    def run(torch):
        n = 10007
        x = torch.randn(n, device="cuda", dtype=torch.bfloat16) * 2
        dy = torch.randn(n, device="cuda", dtype=torch.bfloat16)
        dx = torch.empty_like(x)
        kernel[(triton.cdiv(n, 1024),)](dy, x, dx, n, BLOCK=1024, num_warps=4)
        xr = x.float().clone().requires_grad_(True)
        torch.nn.functional.gelu(xr, approximate=approximate).backward(dy.float())
        return [("dx", dx, xr.grad, 3e-2, 2e-2)]
    return run


# ---------------------------------------------------------------------------------------------
# AMP: unscale gradients in place and flag non-finite values (isinf / isnan from libdevice)


@triton.jit
def amp_unscale_check(grad_ptr, found_inf_ptr, inv_scale_ptr, n_elems, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elems
    g = tl.load(grad_ptr + offs, mask=mask, other=0.0)
    bad = (libdevice.isinf(g) | libdevice.isnan(g)) & mask
    if tl.max(bad.to(tl.int32), 0) > 0:
        tl.store(found_inf_ptr, 1.0)
    tl.store(grad_ptr + offs, g * tl.load(inv_scale_ptr), mask=mask)


def _run_amp_unscale(torch):
    n = 5000
    g = torch.randn(n, device="cuda") * 100
    g[4321] = float("inf")
    ref = g * (1 / 64)
    found = torch.zeros(1, device="cuda")
    inv = torch.full((1,), 1 / 64, device="cuda")
    amp_unscale_check[(triton.cdiv(n, 1024),)](g, found, inv, n, BLOCK=1024, num_warps=4)
    return [("grad", g, ref, 0, 0), ("found_inf", found[0], torch.tensor(1.0, device="cuda"), 0, 0)]


# ---------------------------------------------------------------------------------------------
# FP8 training: per-tensor amax (fp32 atomic_max) then e4m3 cast with a delayed scale, and
# DeepSeek-style 1x128 block quantisation with per-block scales


@triton.jit
def fp8_amax(x_ptr, amax_ptr, n_elems, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n_elems, other=0.0).to(tl.float32)
    tl.atomic_max(amax_ptr, tl.max(tl.abs(x), 0), sem="relaxed")


@triton.jit
def fp8_cast_scaled(x_ptr, y_ptr, amax_ptr, scale_inv_ptr, n_elems, FP8_MAX: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elems
    scale = FP8_MAX / tl.maximum(tl.load(amax_ptr), 1e-12)
    if tl.program_id(0) == 0:
        tl.store(scale_inv_ptr, 1.0 / scale)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.clamp(x * scale, -FP8_MAX, FP8_MAX)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def fp8_block_quant(x_ptr, y_ptr, s_ptr, n_cols, GROUP: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    group = tl.program_id(1)
    cols = group * GROUP + tl.arange(0, GROUP)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    s = tl.max(tl.abs(x), 0) / 448.0
    s = tl.where(s == 0.0, 1.0, s)
    tl.store(y_ptr + row * n_cols + cols, (x / s).to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(s_ptr + row * tl.cdiv(n_cols, GROUP) + group, s)


def _run_fp8_tensor(torch):
    n = 30011
    x = torch.randn(n, device="cuda", dtype=torch.bfloat16) * 3
    amax = torch.zeros(1, device="cuda")
    fp8_amax[(triton.cdiv(n, 2048),)](x, amax, n, BLOCK=2048, num_warps=8)
    y = torch.empty(n, device="cuda", dtype=torch.float8_e4m3fn)
    scale_inv = torch.empty(1, device="cuda")
    fp8_cast_scaled[(triton.cdiv(n, 2048),)](x, y, amax, scale_inv, n, FP8_MAX=448.0, BLOCK=2048, num_warps=8)
    ref_amax = x.float().abs().max()
    back = y.float() * scale_inv[0]
    return [("amax", amax[0], ref_amax, 0, 0), ("roundtrip", back, x.float(), 1e-2, 7e-2)]


def _run_fp8_block(torch):
    rows, cols = 33, 1000
    x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    y = torch.empty(rows, cols, device="cuda", dtype=torch.float8_e4m3fn)
    s = torch.empty(rows, triton.cdiv(cols, 128), device="cuda")
    fp8_block_quant[(rows, triton.cdiv(cols, 128))](x, y, s, cols, GROUP=128, num_warps=1)
    pad = torch.nn.functional.pad(x.float(), (0, s.shape[1] * 128 - cols)).view(rows, -1, 128)
    ref_s = pad.abs().amax(-1) / 448.0
    back = (y.float().view(rows, -1) * 1.0)
    back = torch.nn.functional.pad(back, (0, s.shape[1] * 128 - cols)).view(rows, -1, 128) * s[..., None]
    return [("scale", s, ref_s, 0, 1e-6), ("roundtrip", back.flatten(1)[:, :cols], x.float(), 1e-2, 7e-2)]


# ---------------------------------------------------------------------------------------------
# noise injection (NEFTune-style) with tl.randn


@triton.jit
def embedding_noise(x_ptr, y_ptr, n_elems, alpha_over_sqrt, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elems
    noise = tl.randn(seed, offs)
    noise = tl.clamp(noise, -3.0, 3.0) * alpha_over_sqrt
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (x + noise).to(y_ptr.dtype.element_ty), mask=mask)


def _run_noise(torch):
    n = 200_000
    x = torch.zeros(n, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    embedding_noise[(triton.cdiv(n, 4096),)](x, y, n, 0.5, 42, BLOCK=4096, num_warps=8)
    yf = y.float()
    one = torch.tensor(1.0, device="cuda")
    return [("mean", yf.mean(), 0 * one, 0.01, 0), ("std", yf.std(), 0.5 * 0.986 * one, 0.01, 0.02),
            ("bound", yf.abs().max() <= 1.5 + 1e-2, one.bool(), 0, 0)]


# ---------------------------------------------------------------------------------------------
# fused linear cross-entropy without materialising the logits (cut-cross-entropy style): the
# forward computes logits tiles E @ C^T and merges each tile's logsumexp into the rows' lse under a
# per-row-block spin lock; the backward recomputes the tiles and scatters dE and dC with fp32 atomics


@triton.jit
def _logits_tile(e_ptr, c_ptr, rows, vocab_ids, n_tokens, vocab, dim, stride_e, stride_c, BLOCK_B: tl.constexpr,
                 BLOCK_V: tl.constexpr, BLOCK_D: tl.constexpr):
    dims = tl.arange(0, BLOCK_D)
    e_ptrs = e_ptr + rows[:, None].to(tl.int64) * stride_e + dims[None, :]
    c_ptrs = c_ptr + vocab_ids[None, :].to(tl.int64) * stride_c + dims[:, None]
    acc = tl.zeros([BLOCK_B, BLOCK_V], tl.float32)
    for d in range(0, tl.cdiv(dim, BLOCK_D)):
        left = dim - d * BLOCK_D
        e = tl.load(e_ptrs, mask=(rows[:, None] < n_tokens) & (dims[None, :] < left), other=0.0)
        c = tl.load(c_ptrs, mask=(vocab_ids[None, :] < vocab) & (dims[:, None] < left), other=0.0)
        acc = tl.dot(e, c, acc)
        e_ptrs += BLOCK_D
        c_ptrs += BLOCK_D
    return tl.where(vocab_ids[None, :] < vocab, acc, float("-inf"))


@triton.jit
def linear_ce_lse_fwd(e_ptr, c_ptr, lse_ptr, locks_ptr, n_tokens, vocab, dim, stride_e, stride_c,
                      BLOCK_B: tl.constexpr, BLOCK_V: tl.constexpr, BLOCK_D: tl.constexpr, GROUP_B: tl.constexpr):
    pid = tl.program_id(0)
    n_b = tl.cdiv(n_tokens, BLOCK_B)
    n_v = tl.cdiv(vocab, BLOCK_V)
    pid_b, pid_v = tl.swizzle2d(pid // n_v, pid % n_v, n_b, n_v, GROUP_B)
    rows = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    vocab_ids = pid_v * BLOCK_V + tl.arange(0, BLOCK_V)
    logits = _logits_tile(e_ptr, c_ptr, rows, vocab_ids, n_tokens, vocab, dim, stride_e, stride_c, BLOCK_B, BLOCK_V,
                          BLOCK_D)
    tile_max = tl.max(logits, axis=1)
    tile_lse = tile_max + tl.log(tl.sum(tl.exp(logits - tile_max[:, None]), axis=1))
    lock = locks_ptr + pid_b
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    old = tl.load(lse_ptr + rows, mask=rows < n_tokens, other=float("-inf"), cache_modifier=".cg")
    top = tl.maximum(old, tile_lse)
    tl.store(lse_ptr + rows, top + tl.log(tl.exp(old - top) + tl.exp(tile_lse - top)), mask=rows < n_tokens)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def linear_ce_bwd(e_ptr, c_ptr, lse_ptr, targets_ptr, de_ptr, dc_ptr, grad_scale, n_tokens, vocab, dim, stride_e,
                  stride_c, ignore_index, BLOCK_B: tl.constexpr, BLOCK_V: tl.constexpr, BLOCK_D: tl.constexpr,
                  GROUP_B: tl.constexpr):
    pid = tl.program_id(0)
    n_b = tl.cdiv(n_tokens, BLOCK_B)
    n_v = tl.cdiv(vocab, BLOCK_V)
    pid_b, pid_v = tl.swizzle2d(pid // n_v, pid % n_v, n_b, n_v, GROUP_B)
    rows = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    vocab_ids = pid_v * BLOCK_V + tl.arange(0, BLOCK_V)
    logits = _logits_tile(e_ptr, c_ptr, rows, vocab_ids, n_tokens, vocab, dim, stride_e, stride_c, BLOCK_B, BLOCK_V,
                          BLOCK_D)
    lse = tl.load(lse_ptr + rows, mask=rows < n_tokens, other=0.0)
    targets = tl.load(targets_ptr + rows, mask=rows < n_tokens, other=ignore_index)
    grad = tl.exp(logits - lse[:, None]) - (vocab_ids[None, :] == targets[:, None]).to(tl.float32)
    live = (rows < n_tokens) & (targets != ignore_index)
    grad = (tl.where(live[:, None], grad, 0.0) * grad_scale).to(e_ptr.dtype.element_ty)
    dims = tl.arange(0, BLOCK_D)
    for d in range(0, tl.cdiv(dim, BLOCK_D)):
        cols = d * BLOCK_D + dims
        e = tl.load(e_ptr + rows[:, None].to(tl.int64) * stride_e + cols[None, :],
                    mask=(rows[:, None] < n_tokens) & (cols[None, :] < dim), other=0.0)
        c = tl.load(c_ptr + vocab_ids[:, None].to(tl.int64) * stride_c + cols[None, :],
                    mask=(vocab_ids[:, None] < vocab) & (cols[None, :] < dim), other=0.0)
        tl.atomic_add(de_ptr + rows[:, None] * dim + cols[None, :], tl.dot(grad, c),
                      mask=(rows[:, None] < n_tokens) & (cols[None, :] < dim), sem="relaxed")
        tl.atomic_add(dc_ptr + vocab_ids[:, None] * dim + cols[None, :], tl.dot(tl.trans(grad), e),
                      mask=(vocab_ids[:, None] < vocab) & (cols[None, :] < dim), sem="relaxed")


def _run_linear_ce(torch):
    tokens, vocab, dim, ignore = 100, 1000, 128, -100
    e = (torch.randn(tokens, dim, device="cuda") * 0.2).to(torch.bfloat16)
    c = (torch.randn(vocab, dim, device="cuda") * 0.2).to(torch.bfloat16)
    targets = torch.randint(0, vocab, (tokens,), device="cuda", dtype=torch.int64)
    targets[::7] = ignore
    lse = torch.full((tokens,), float("-inf"), device="cuda")
    locks = torch.zeros(triton.cdiv(tokens, 64), device="cuda", dtype=torch.int32)
    grid = (triton.cdiv(tokens, 64) * triton.cdiv(vocab, 128),)
    linear_ce_lse_fwd[grid](e, c, lse, locks, tokens, vocab, dim, e.stride(0), c.stride(0), BLOCK_B=64, BLOCK_V=128,
                            BLOCK_D=64, GROUP_B=8, num_warps=4, num_stages=3)
    de = torch.zeros(tokens, dim, device="cuda")
    dc = torch.zeros(vocab, dim, device="cuda")
    n_live = int((targets != ignore).sum().item())
    grid = (triton.cdiv(tokens, 64) * triton.cdiv(vocab, 64),)
    linear_ce_bwd[grid](e, c, lse, targets, de, dc, 1.0 / n_live, tokens, vocab, dim, e.stride(0), c.stride(0), ignore,
                        BLOCK_B=64, BLOCK_V=64, BLOCK_D=64, GROUP_B=8, num_warps=4, num_stages=2)
    ef = e.float().requires_grad_(True)
    cf = c.float().requires_grad_(True)
    logits = ef @ cf.T
    torch.nn.functional.cross_entropy(logits, targets, ignore_index=ignore).backward()
    return [("lse", lse, logits.detach().logsumexp(-1), 1e-3, 1e-4), ("de", de, ef.grad, 1e-4, 2e-2),
            ("dc", dc, cf.grad, 1e-4, 2e-2)]


CASES = [
    dict(name="train_cross_entropy_bf16_smooth", fn=cross_entropy_fwd_bwd, sig=_CE_SIG,
         const={"BLOCK": 4096, "HAS_SMOOTHING": True}, div=[0, 2, 3], opts=dict(num_warps=16),
         run=_run_cross_entropy("bfloat16", 0.1, 4096, 16)),
    dict(name="train_cross_entropy_fp16", fn=cross_entropy_fwd_bwd, sig=dict(_CE_SIG, logits_ptr="*fp16"),
         const={"BLOCK": 2048, "HAS_SMOOTHING": False}, div=[0, 2, 3], opts=dict(num_warps=8),
         run=_run_cross_entropy("float16", 0.0, 2048, 8)),
    dict(name="train_jsd_bf16", fn=jsd_fwd_bwd,
         sig={"student_logp_ptr": "*bf16", "teacher_logp_ptr": "*bf16", "stride": "i32", "grad_ptr": "*bf16",
              "loss_ptr": "*fp32", "n_cols": "i32", "inv_rows": "fp32", "beta": "fp32"},
         const={"BLOCK": 2048}, div=[0, 1, 3], opts=dict(num_warps=8), run=_run_jsd),
    dict(name="train_fused_add_rmsnorm_llama_bf16", fn=fused_add_rmsnorm_fwd, sig=_ADD_RMS_SIG,
         const={"WEIGHT_OFFSET": 0.0, "BLOCK": 2048}, div=[0, 1, 2, 3], opts=dict(num_warps=8),
         run=_run_fused_add_rmsnorm("bfloat16", 0.0, 2048)),
    dict(name="train_fused_add_rmsnorm_gemma_fp16", fn=fused_add_rmsnorm_fwd,
         sig={k: v.replace("bf16", "fp16") for k, v in _ADD_RMS_SIG.items()},
         const={"WEIGHT_OFFSET": 1.0, "BLOCK": 2048}, div=[0, 1, 2, 3], opts=dict(num_warps=8),
         run=_run_fused_add_rmsnorm("float16", 1.0, 2048)),
    dict(name="train_rmsnorm_bwd_bf16", fn=rmsnorm_bwd,
         sig={"dy_ptr": "*bf16", "x_ptr": "*bf16", "weight_ptr": "*bf16", "rstd_ptr": "*fp32", "dx_ptr": "*bf16",
              "dw_partial_ptr": "*fp32", "stride": "i32", "n_rows": "i32", "n_cols": "i32",
              "rows_per_program": "i32"},
         const={"BLOCK": 2048}, div=[0, 1, 2, 3, 4, 5], opts=dict(num_warps=8), run=_run_rmsnorm_bwd),
    dict(name="train_column_sum_fp32", fn=column_sum,
         sig={"partial_ptr": "*fp32", "out_ptr": "*bf16", "n_rows": "i32", "n_cols": "i32"},
         const={"BLOCK_R": 32, "BLOCK_C": 64}, div=[0, 1], opts=dict(num_warps=4), run=_run_column_sum),
    dict(name="train_layernorm_bwd_locked_fp16", fn=layernorm_bwd_dx_locked_dwdb,
         sig={"dy_ptr": "*fp16", "x_ptr": "*fp16", "weight_ptr": "*fp16", "mean_ptr": "*fp32", "rstd_ptr": "*fp32",
              "dx_ptr": "*fp16", "dw_partial_ptr": "*fp32", "db_partial_ptr": "*fp32", "lock_ptr": "*i32",
              "stride": "i32", "n_cols": "i32"},
         const={"GROUPS": 32, "BLOCK": 1024}, div=[0, 1, 2, 3, 4, 5, 6, 7, 8], opts=dict(num_warps=8),
         run=_run_layernorm_bwd),
    dict(name="train_group_norm_fwd_fp16", fn=group_norm_fwd,
         sig={"x_ptr": "*fp16", "weight_ptr": "*fp16", "bias_ptr": "*fp16", "y_ptr": "*fp16", "mean_ptr": "*fp32",
              "rstd_ptr": "*fp32", "channels": "i32", "spatial": "i32", "eps": "fp32"},
         const={"GROUPS": 8, "BLOCK": 512}, div=[0, 1, 2, 3, 4, 5], opts=dict(num_warps=4), run=_run_group_norm),
    dict(name="train_softmax_bwd_bf16", fn=softmax_bwd,
         sig={"dy_ptr": "*bf16", "y_ptr": "*bf16", "dx_ptr": "*bf16", "stride": "i32", "n_cols": "i32"},
         const={"BLOCK": 1024}, div=[0, 1, 2], opts=dict(num_warps=4), run=_run_softmax_bwd),
    dict(name="train_embedding_bwd_bf16", fn=embedding_bwd,
         sig={"grad_out_ptr": "*bf16", "ids_ptr": "*i64", "grad_weight_ptr": "*fp32", "n_tokens": "i32",
              "dim": "i32", "padding_idx": "i32"},
         const={"BLOCK_T": 32, "BLOCK_D": 64}, div=[0, 1, 2], opts=dict(num_warps=4), run=_run_embedding_bwd),
    dict(name="train_bias_dropout_residual_bf16", fn=bias_dropout_residual,
         sig={"x_ptr": "*bf16", "bias_ptr": "*bf16", "residual_ptr": "*bf16", "y_ptr": "*bf16", "keep_ptr": "*i8",
              "n_elems": "i32", "n_cols": "i32", "p": "fp32", "seed": "i32"},
         const={"BLOCK": 1024}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=4), run=_run_dropout),
    dict(name="train_adamw_master_bf16", fn=adamw_step, sig=_ADAMW_SIG, const={"BLOCK": 2048},
         div=[0, 1, 2, 3, 4], opts=dict(num_warps=8), run=_run_adamw),
    dict(name="train_adamw_master_bf16_w4", fn=adamw_step, sig=_ADAMW_SIG, const={"BLOCK": 1024},
         div=[0, 1, 2, 3, 4], opts=dict(num_warps=4)),
    dict(name="train_grad_sq_norm_multi_tensor", fn=multi_tensor_sq_norm, sig=_MT_SIG, const={"BLOCK": 1024},
         div=[0, 1, 2], opts=dict(num_warps=4), run=_run_grad_clip),
    dict(name="train_grad_clip_multi_tensor", fn=multi_tensor_clip, sig=dict(_MT_SIG, max_norm="fp32"),
         const={"BLOCK": 1024}, div=[0, 1, 2], opts=dict(num_warps=4)),
    dict(name="train_cross_entropy_zloss_acc_bf16", fn=cross_entropy_zloss_acc,
         sig={"logits_ptr": "*bf16", "labels_ptr": "*i64", "loss_ptr": "*fp32", "z_loss_ptr": "*fp32",
              "correct_ptr": "*i32", "stride": "i32", "n_cols": "i32", "z_loss_weight": "fp32", "ignore_index": "i32"},
         const={"BLOCK": 1024}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=8), run=_run_ce_zloss),
    dict(name="train_gelu_erf_bwd_bf16", fn=gelu_erf_bwd,
         sig={"dy_ptr": "*bf16", "x_ptr": "*bf16", "dx_ptr": "*bf16", "n_elems": "i32"}, const={"BLOCK": 1024},
         div=[0, 1, 2], opts=dict(num_warps=4), run=_run_gelu_bwd(gelu_erf_bwd, "none")),
    dict(name="train_gelu_tanh_bwd_inline_asm_bf16", fn=gelu_tanh_bwd,
         sig={"dy_ptr": "*bf16", "x_ptr": "*bf16", "dx_ptr": "*bf16", "n_elems": "i32"}, const={"BLOCK": 1024},
         div=[0, 1, 2], opts=dict(num_warps=4), run=_run_gelu_bwd(gelu_tanh_bwd, "tanh")),
    dict(name="train_amp_unscale_check", fn=amp_unscale_check,
         sig={"grad_ptr": "*fp32", "found_inf_ptr": "*fp32", "inv_scale_ptr": "*fp32", "n_elems": "i32"},
         const={"BLOCK": 1024}, div=[0, 1, 2], opts=dict(num_warps=4), run=_run_amp_unscale),
    dict(name="train_fp8_amax_bf16", fn=fp8_amax, sig={"x_ptr": "*bf16", "amax_ptr": "*fp32", "n_elems": "i32"},
         const={"BLOCK": 2048}, div=[0, 1], opts=dict(num_warps=8), run=_run_fp8_tensor),
    dict(name="train_fp8_cast_scaled_e4m3", fn=fp8_cast_scaled,
         sig={"x_ptr": "*bf16", "y_ptr": "*fp8e4nv", "amax_ptr": "*fp32", "scale_inv_ptr": "*fp32",
              "n_elems": "i32"},
         const={"FP8_MAX": 448.0, "BLOCK": 2048}, div=[0, 1, 2, 3], opts=dict(num_warps=8), targets=("cuda:90",)),
    dict(name="train_fp8_block_quant_1x128", fn=fp8_block_quant,
         sig={"x_ptr": "*bf16", "y_ptr": "*fp8e4nv", "s_ptr": "*fp32", "n_cols": "i32"},
         const={"GROUP": 128}, div=[0, 1, 2], opts=dict(num_warps=1), targets=("cuda:90",), run=_run_fp8_block),
    dict(name="train_embedding_noise_randn", fn=embedding_noise,
         sig={"x_ptr": "*bf16", "y_ptr": "*bf16", "n_elems": "i32", "alpha_over_sqrt": "fp32", "seed": "i32"},
         const={"BLOCK": 4096}, div=[0, 1], opts=dict(num_warps=8), run=_run_noise),
    dict(name="train_linear_ce_lse_fwd_bf16", fn=linear_ce_lse_fwd,
         sig={"e_ptr": "*bf16", "c_ptr": "*bf16", "lse_ptr": "*fp32", "locks_ptr": "*i32", "n_tokens": "i32",
              "vocab": "i32", "dim": "i32", "stride_e": "i32", "stride_c": "i32"},
         const={"BLOCK_B": 64, "BLOCK_V": 128, "BLOCK_D": 64, "GROUP_B": 8}, div=[0, 1, 2, 3, 6, 7, 8],
         opts=dict(num_warps=4, num_stages=3), run=_run_linear_ce),
    dict(name="train_linear_ce_lse_fwd_bf16_w8", fn=linear_ce_lse_fwd,
         sig={"e_ptr": "*bf16", "c_ptr": "*bf16", "lse_ptr": "*fp32", "locks_ptr": "*i32", "n_tokens": "i32",
              "vocab": "i32", "dim": "i32", "stride_e": "i32", "stride_c": "i32"},
         const={"BLOCK_B": 128, "BLOCK_V": 128, "BLOCK_D": 32, "GROUP_B": 8}, div=[0, 1, 2, 3, 6, 7, 8],
         opts=dict(num_warps=8, num_stages=4)),
    dict(name="train_linear_ce_bwd_bf16", fn=linear_ce_bwd,
         sig={"e_ptr": "*bf16", "c_ptr": "*bf16", "lse_ptr": "*fp32", "targets_ptr": "*i64", "de_ptr": "*fp32",
              "dc_ptr": "*fp32", "grad_scale": "fp32", "n_tokens": "i32", "vocab": "i32", "dim": "i32",
              "stride_e": "i32", "stride_c": "i32", "ignore_index": "i32"},
         const={"BLOCK_B": 64, "BLOCK_V": 64, "BLOCK_D": 64, "GROUP_B": 8}, div=[0, 1, 2, 3, 4, 5, 9, 10, 11],
         opts=dict(num_warps=4, num_stages=2)),
]
