"""Gated activations as MLP blocks of LLMs fuse them: SwiGLU and GeGLU (tanh approximation,
through libdevice's tanh), forward over a [tokens, 2 * hidden] input whose two halves are the
gate and the up projection."""
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def swiglu_fwd(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = cols < n_cols
    gate = tl.load(x_ptr + row * stride_x + cols, mask=m, other=0.0).to(tl.float32)
    up = tl.load(x_ptr + row * stride_x + n_cols + cols, mask=m, other=0.0).to(tl.float32)
    y = gate * tl.sigmoid(gate) * up
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def geglu_tanh_fwd(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = cols < n_cols
    gate = tl.load(x_ptr + row * stride_x + cols, mask=m, other=0.0).to(tl.float32)
    up = tl.load(x_ptr + row * stride_x + n_cols + cols, mask=m, other=0.0).to(tl.float32)
    inner = 0.7978845608028654 * (gate + 0.044715 * gate * gate * gate)
    y = 0.5 * gate * (1.0 + libdevice.tanh(inner)) * up
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=m)


def _run_gated(kernel, reference):
    def run(torch):
        tokens, hidden, block = 300, 1000, 256
        x = torch.randn(tokens, 2 * hidden, device="cuda", dtype=torch.bfloat16)
        y = torch.empty(tokens, hidden, device="cuda", dtype=torch.bfloat16)
        kernel[(tokens, triton.cdiv(hidden, block))](x, y, hidden, x.stride(0), y.stride(0), BLOCK=block)
        gate, up = x.float().chunk(2, dim=-1)
        return [("y", y, reference(torch, gate, up), 2e-2, 2e-2)]
    return run


def _swiglu_ref(torch, gate, up):
    return torch.nn.functional.silu(gate) * up


def _geglu_ref(torch, gate, up):
    return torch.nn.functional.gelu(gate, approximate="tanh") * up


_SIG = {"x_ptr": "*bf16", "y_ptr": "*bf16", "n_cols": "i32", "stride_x": "i32", "stride_y": "i32"}
CASES = [
    dict(name="swiglu_fwd_bf16", fn=swiglu_fwd, sig=_SIG, const={"BLOCK": 1024}, div=[0, 1],
         opts=dict(num_warps=4), run=_run_gated(swiglu_fwd, _swiglu_ref)),
    dict(name="geglu_tanh_fwd_bf16", fn=geglu_tanh_fwd, sig=_SIG, const={"BLOCK": 1024}, div=[0, 1],
         opts=dict(num_warps=4), run=_run_gated(geglu_tanh_fwd, _geglu_ref)),
]
