"""ConSan on the GPU: runs each kernel of out/consan (bench/consan/prepare.sh)
in a process of its own (a device assert ends the CUDA context) and checks
that the instrumented racy kernel stops with ConSan's assert while the
synchronised one, and both uninstrumented ones, run to the end with the
right output (1.0 everywhere).

    python3 bench/consan/run.py [out/consan]
"""
import ctypes
import json
import subprocess
import sys
from pathlib import Path

EXPECT = {
    "ws_race": "ok",  # the race goes unnoticed without the sanitizer
    "ws_synced": "ok",
    "ws_race.consan": "assert",  # "Buffer being accessed has outstanding writes/reads"
    "ws_synced.consan": "ok",
}


def run_one(directory: Path) -> str:
    import torch
    from cuda.bindings import driver as cu

    def check(result):
        error = result[0] if isinstance(result, tuple) else result
        if error != cu.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"CUDA error {error}")
        return result[1] if isinstance(result, tuple) and len(result) == 2 else result

    name = directory.name.split(".")[0]
    meta = json.loads((directory / f"{name}.json").read_text())
    ptx = (directory / f"{name}.ptx").read_bytes() + b"\0"
    torch.cuda.init()
    torch.empty(1, device="cuda")  # makes the primary context current
    module = check(cu.cuModuleLoadData(ptx))
    function = check(cu.cuModuleGetFunction(module, meta["name"].encode()))
    shared = meta["shared"]
    if shared > 48 * 1024:
        check(cu.cuFuncSetAttribute(function, cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared))
    out = torch.zeros(128, device="cuda", dtype=torch.float32)
    scratch_bytes = max(meta.get("global_scratch_size", 0), 1)
    scratch = torch.zeros(scratch_bytes, device="cuda", dtype=torch.uint8)
    params = [ctypes.c_void_p(out.data_ptr())]
    if any(p["name"] == "global_scratch" for p in meta["parameters"]):
        params.append(ctypes.c_void_p(scratch.data_ptr()))
    pointers = (ctypes.c_void_p * len(params))(*[ctypes.addressof(p) for p in params])
    check(cu.cuLaunchKernel(function, 1, 1, 1, meta["threads_per_block"], 1, 1, shared, 0, ctypes.addressof(pointers), 0))
    error = cu.cuCtxSynchronize()[0]
    if error != cu.CUresult.CUDA_SUCCESS:
        return f"error {error}"
    return "ok" if bool((out == 1.0).all()) else f"wrong output {out[:8].tolist()}"


def main() -> int:
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(run_one(Path(sys.argv[2])))
        return 0
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "out/consan")
    failures = 0
    for case, expected in EXPECT.items():
        proc = subprocess.run([sys.executable, __file__, "--one", str(root / case)], capture_output=True, text=True, timeout=120)
        lines = (proc.stdout.strip().splitlines() or [f"crashed: {proc.stderr.strip()[-300:]}"])
        result = lines[-1]
        asserted = "CUDA_ERROR_ASSERT" in result or "outstanding" in proc.stdout + proc.stderr
        got = "assert" if asserted else ("ok" if result == "ok" else result)
        message = [l for l in (proc.stdout + proc.stderr).splitlines() if "Assertion" in l or "outstanding" in l][:1]
        status = "PASS" if got == expected else "FAIL"
        failures += status == "FAIL"
        print(f"{status} {case}: expected {expected}, got {got} {message}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
