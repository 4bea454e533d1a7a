"""Runs upstream Triton 3.6's tutorials 01-09 as a user runs them (their own
correctness checks; the benchmark/plot parts skipped) with Tritium as Triton's
compiler, each in a fresh process and a fresh Triton cache, and counts the
kernels Tritium compiled (metadata["tritium"]) and those it did not. Then times
tutorial 03's autotuning (all its configs compiled and benchmarked) with
Tritium and with upstream. GPU machine with torch and triton 3.6 and the
tritium wheel installed.

    [STRIP_ASSUME=1] python3 bench/tutorials.py TUTORIALS_DIR [01 02 ...]

STRIP_ASSUME=1 times the autotuning on tutorial 03's kernel without its
tl.assume hints (llvm.intr.assume, which Tritium does not lower yet), for
both compilers.
"""
import json
import os
import runpy
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.abspath(__file__)


def child(path, which):
    import torch
    import triton
    import triton.testing
    counts = {"tritium": 0, "upstream": 0, "compile_us": 0, "stages_us": 0}

    def listener(src, metadata, metadata_group, times, cache_hit):
        if cache_hit:
            return
        counts["tritium" if "tritium" in metadata else "upstream"] += 1
        stages = dict(times.lowering_stages)
        counts["compile_us"] += times.ir_initialization + sum(stages.values())
        counts["stages_us"] += sum(stages.get(s, 0) for s in ("ttgir", "llir", "ptx"))

    triton.knobs.compilation.listener = listener
    triton.testing.Mark.run = lambda self, *args, **kwargs: print("(benchmark skipped)")
    ok = True
    try:
        if which == "autotune":
            source = open(path).read()
            definitions = source[:source.index("# Unit Test")]
            if os.environ.get("STRIP_ASSUME") == "1":
                # tl.assume (llvm.intr.assume) is not lowered by Tritium yet: time
                # both compilers on the kernel without these hints.
                definitions = "\n".join(line for line in definitions.splitlines() if "tl.assume(" not in line)
                # @triton.jit reads the kernel's source back from its file: write one.
                path = os.path.join(tempfile.mkdtemp(), "tutorial03_without_assume.py")
                with open(path, "w") as f:
                    f.write(definitions)
            scope = {"__name__": "tutorial03", "__file__": path}
            exec(compile(definitions, path, "exec"), scope)
            a = torch.randn((4096, 4096), device="cuda", dtype=torch.float16)
            b = torch.randn((4096, 4096), device="cuda", dtype=torch.float16)
            start = time.time()
            c = scope["matmul"](a, b)
            torch.cuda.synchronize()
            counts["autotune_s"] = time.time() - start
            counts["configs"] = len(scope["matmul_kernel"].configs)
            ok = torch.allclose(c, torch.matmul(a, b), atol=1e-1, rtol=1e-2)
        elif which in ("05", "06", "09"):
            scope = runpy.run_path(path, run_name="tutorial")
            if which == "05":
                scope["test_layer_norm"](1151, 8192, torch.float16)
                print("layer norm forward and backward: match")
            elif which == "06":
                for head_dim in (64, 128):
                    for mode in ("fwd", "bwd"):
                        args = (1, 2, 1024, head_dim, True, False, mode, "triton-fp16")
                        try:
                            scope["test_op"](*args)
                            print(f"attention {args}: ok")
                        except BaseException as e:  # pytest.skip raises a BaseException
                            if type(e).__name__ == "Skipped":
                                print(f"attention {args}: skipped by the tutorial ({e})")
                                continue
                            ok = False
                            print(f"attention {args}: FAILED {type(e).__name__}: {str(e).splitlines()[0][:300]}")
            else:
                validate = scope["validate"]

                def run_test(expect, fn, a, b, label, enabled=True):
                    nonlocal ok
                    if not enabled:
                        print(f"  {label}: disabled")
                        return
                    try:
                        passed = torch.allclose(expect, fn(a, b).to(expect.dtype), atol=1.0)
                        print(f"  {label}: {'ok' if passed else 'WRONG'}")
                        ok = ok and passed
                    except Exception as e:
                        ok = False
                        print(f"  {label}: FAILED {type(e).__name__}: {str(e).splitlines()[0][:300]}")

                validate.__globals__["run_test"] = run_test
                validate(32, 32, 32, torch.float16)
                validate(8192, 8192, 512, torch.float16)
        else:
            runpy.run_path(path, run_name="__main__")
    except BaseException as e:
        ok = False
        traceback.print_exc(limit=3)
        print(f"FAILED {type(e).__name__}: {str(e).splitlines()[0][:400] if str(e) else ''}")
    counts["ok"] = bool(ok)
    print("RESULT " + json.dumps(counts))


def checkout_layout(directory):
    """The tutorials as they sit in upstream's checkout: 07 looks for libdevice
    at ../../third_party/nvidia/backend/lib beside its own file, which is
    where the installed triton keeps it (backends/nvidia/lib)."""
    import shutil
    import triton
    root = tempfile.mkdtemp(prefix="triton-checkout-")
    shutil.copytree(directory, os.path.join(root, "python", "tutorials"))
    backend = os.path.join(root, "third_party", "nvidia", "backend")
    os.makedirs(backend)
    os.symlink(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "lib"), os.path.join(backend, "lib"))
    return os.path.join(root, "python", "tutorials")


def main():
    directory = checkout_layout(sys.argv[1])
    chosen = sys.argv[2:] or ["01", "02", "03", "04", "05", "06", "07", "08", "09"]
    files = {name[:2]: os.path.abspath(os.path.join(directory, name)) for name in os.listdir(directory) if name[:2].isdigit()}
    runs = [(n, files[n], "1") for n in chosen if n != "autotune"]
    if "03" in files and os.environ.get("AUTOTUNE", "1") == "1":
        runs += [("autotune", files["03"], "1"), ("autotune", files["03"], "0")]
    for which, path, tritium in runs:
        env = {**os.environ, "TRITIUM": tritium, "TRITON_CACHE_DIR": tempfile.mkdtemp(), "PYTHONUNBUFFERED": "1"}
        start = time.time()
        try:
            run = subprocess.run([sys.executable, HERE, "--child", path, which], env=env, capture_output=True,
                                 text=True, timeout=int(os.environ.get("TUTORIAL_TIMEOUT", "150")), cwd=tempfile.mkdtemp())
            output = run.stdout + run.stderr
        except subprocess.TimeoutExpired as e:
            output = (e.stdout or b"").decode(errors="replace") + "\nTIMEOUT"
        result = [line for line in output.splitlines() if line.startswith("RESULT ")]
        print(f"===== {which} {os.path.basename(path)} TRITIUM={tritium} ({time.time() - start:.0f} s)")
        print("\n".join(line for line in output.splitlines()[-25:] if not line.startswith("RESULT ")))
        print(result[-1] if result else "RESULT none (crashed)")
        sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        main()
