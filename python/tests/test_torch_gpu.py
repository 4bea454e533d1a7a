"""GPU tests: Tritium-compiled kernels registered as torch operators.

    TRITON_CACHE_DIR=$(mktemp -d) python3 test_torch_gpu.py

Needs a CUDA GPU, torch and triton 3.6 (the device machine; skipped, saying
so, elsewhere). Covers `torch.library.custom_op` around a `@triton.jit`
launch and `torch.library.triton_op` + `wrap_triton`, each eager and under
`torch.compile` (whose Inductor kernels go through Tritium too), checking the
results against torch and that Tritium, not upstream, compiled the kernels.
"""
import os
import sys
import tempfile

os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-torch-cache-"))


def main():
    try:
        import torch
        import triton
        import triton.language as tl
    except ImportError as missing:
        print(f"SKIP test_torch_gpu: {missing}")
        return 0
    if not torch.cuda.is_available():
        print("SKIP test_torch_gpu: no CUDA device")
        return 0
    import tritium.triton
    tritium.triton.enable()

    @triton.jit
    def scaled_add_kernel(x, y, out, n, alpha, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        a = tl.load(x + offsets, mask=mask)
        b = tl.load(y + offsets, mask=mask)
        tl.store(out + offsets, a + alpha * b, mask=mask)

    def launch(kernel, x, y, alpha):
        out = torch.empty_like(x)
        n = x.numel()
        kernel[(triton.cdiv(n, 1024),)](x, y, out, n, alpha, BLOCK=1024)
        return out

    @torch.library.custom_op("tritium_test::scaled_add", mutates_args=())
    def scaled_add(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
        return launch(scaled_add_kernel, x, y, alpha)

    @scaled_add.register_fake
    def _(x, y, alpha):
        return torch.empty_like(x)

    @torch.library.triton_op("tritium_test::scaled_add_traced", mutates_args=())
    def scaled_add_traced(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
        return launch(torch.library.wrap_triton(scaled_add_kernel), x, y, alpha)

    x = torch.randn(100_003, device="cuda")
    y = torch.randn(100_003, device="cuda")
    expected = x + 0.5 * y
    failures = 0
    cases = [
        ("custom_op eager", lambda: torch.ops.tritium_test.scaled_add(x, y, 0.5)),
        ("custom_op torch.compile", lambda: torch.compile(lambda a, b: scaled_add(a, b, 0.5).relu())(x, y)),
        ("triton_op eager", lambda: torch.ops.tritium_test.scaled_add_traced(x, y, 0.5)),
        ("triton_op torch.compile", lambda: torch.compile(lambda a, b: scaled_add_traced(a, b, 0.5).relu())(x, y)),
    ]
    for name, run in cases:
        before = tritium.triton.stats["compiled"]
        try:
            got = run()
            torch.cuda.synchronize()
            want = expected.relu() if "compile" in name else expected
            torch.testing.assert_close(got, want)
            compiled = tritium.triton.stats["compiled"] - before
            fallback = tritium.triton.stats["fallback"]
            assert fallback == 0, f"{fallback} kernels fell back to upstream"
            print(f"PASS {name} (Tritium compiled {compiled} kernels here)")
        except Exception as error:  # report every case, then fail
            failures += 1
            import traceback
            traceback.print_exc()
            print(f"FAIL {name}: {error!r}")
    total = tritium.triton.stats["compiled"]
    # The first eager call compiles scaled_add_kernel; torch.compile's Inductor
    # kernels (the fused relu) are Tritium's as well.
    if total < 2:
        failures += 1
        print(f"FAIL Tritium compiled only {total} kernels in all")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
