"""ConSan through Python: Triton's own switch (TRITON_INSTRUMENTATION_MODE=consan,
read by triton.knobs.compilation.instrumentation_mode and passed to the backend as
the `instrumentation_mode` option) with Tritium compiling through the plug-in.

Each kernel runs in a process of its own for every configuration:
  tritium-consan   TRITIUM=1 TRITON_INSTRUMENTATION_MODE=consan
  tritium          TRITIUM=1
  upstream-consan  upstream Triton alone with ConSan (a reference only: upstream 3.6's
                   pass manager fails on the warp-specialized descriptor matmul with ConSan on
                   an H100, which does not count as a failure here)
and must give torch's result (ConSan must not report a race in these correctly
synchronised kernels), be compiled by Tritium where TRITIUM=1 (the plug-in's
counter), and carry the sanitizer's instrumentation exactly when ConSan is on
(its device-side assertions: calls of __assertfail in the PTX). The racy side,
that ConSan stops a kernel with a real race, is bench/consan/run.py's.

    python3 bench/consan/plugin_check.py          (on the GPU machine, wheel installed)
"""
import json
import os
import subprocess
import sys

KERNELS = ["pipelined_matmul", "ws_descriptor_matmul"]
CONFIGS = {
    "tritium-consan": {"TRITIUM": "1", "TRITON_INSTRUMENTATION_MODE": "consan"},
    "tritium": {"TRITIUM": "1", "TRITON_INSTRUMENTATION_MODE": ""},
    "upstream-consan": {"TRITIUM": "0", "TRITON_INSTRUMENTATION_MODE": "consan"},
}


def child(kernel_name):
    import torch
    import triton
    import triton.language as tl

    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))

    @triton.jit
    def pipelined_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        a = a_ptr + rm[:, None] * K + rk[None, :]
        b = b_ptr + rk[:, None] * N + rn[None, :]
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for _ in tl.range(0, K, BLOCK_K, num_stages=3):
            acc += tl.dot(tl.load(a), tl.load(b))
            a += BLOCK_K
            b += BLOCK_K * N
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

    @triton.jit
    def ws_descriptor_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             BLOCK_K: tl.constexpr):
        a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BLOCK_M, BLOCK_K])
        b_desc = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BLOCK_N, BLOCK_K])
        c_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BLOCK_M, BLOCK_N])
        off_m = tl.program_id(0) * BLOCK_M
        off_n = tl.program_id(1) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in tl.range(0, K, BLOCK_K, warp_specialize=True, num_stages=3):
            a = a_desc.load([off_m, k])
            b = b_desc.load([off_n, k])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([off_m, off_n], acc.to(tl.float16))

    m = n = k = 512
    torch.manual_seed(0)
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    grid = (m // 128, n // 128)
    if kernel_name == "pipelined_matmul":
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        compiled = pipelined_matmul[grid](a, b, c, m, n, k, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=4)
        expected = a @ b
    else:
        b = torch.randn(n, k, device="cuda", dtype=torch.float16)
        compiled = ws_descriptor_matmul[grid](a, b, c, m, n, k, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=4)
        expected = a @ b.T
    torch.cuda.synchronize()
    error = (c.float() - expected.float()).abs().max().item()
    ptx = compiled.asm["ptx"]
    by_tritium = None
    if os.environ.get("TRITIUM") == "1":
        import tritium.triton

        by_tritium = tritium.triton.stats["compiled"] > 0 and tritium.triton.stats["fallback"] == 0
    print(json.dumps({
        "correct": error < 0.5,
        "max_error": error,
        "assertfail_calls": ptx.count("__assertfail"),
        "ptx_lines": ptx.count("\n"),
        "by_tritium": by_tritium,
    }))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
        return 0
    failures = 0
    print(f"{'kernel':<22} {'config':<16} {'result':<8} {'max err':>8} {'asserts':>8} {'ptx lines':>9}  tritium")
    for kernel in KERNELS:
        for config, env in CONFIGS.items():
            run = subprocess.run([sys.executable, __file__, "--child", kernel], env={**os.environ, **env},
                                 capture_output=True, text=True, timeout=300)
            lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
            reference = env["TRITIUM"] != "1"
            if run.returncode != 0 or not lines:
                failures += not reference
                why = run.stderr.strip().splitlines()[-1:] or ["no output"]
                print(f"{kernel:<22} {config:<16} FAILED rc={run.returncode}{' (reference, not counted)' if reference else ''}: "
                      f"{why[0][:300]}")
                continue
            r = json.loads(lines[-1])
            consan = env["TRITON_INSTRUMENTATION_MODE"] == "consan"
            ok = r["correct"]
            if consan and r["assertfail_calls"] == 0:
                ok = False  # ConSan on, but nothing instrumented
            if env["TRITIUM"] == "1" and not r["by_tritium"]:
                ok = False
            failures += not ok and not reference
            print(f"{kernel:<22} {config:<16} {'ok' if ok else 'WRONG':<8} {r['max_error']:>8.3f} "
                  f"{r['assertfail_calls']:>8} {r['ptx_lines']:>9}  {r['by_tritium']}")
    print(f"RESULT plugin consan: {'PASS' if failures == 0 else f'{failures} FAILED'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
