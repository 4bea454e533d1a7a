#!/usr/bin/env python3
"""The GPU half of the differential test (issue 13, item 2; RELIABILITY.md,
"Fuzzing"): generated kernels (scripts/fuzz_kernels.py) run under upstream
Triton and under Tritium on the same inputs, outputs compared with torch.

Two steps, on two machines:

  here (CPU, upstream triton + tritium built):
    python3 bench/fuzz_gpu.py prepare --count 300 [--first 0] [--target 90] [--out out/fuzz-gpu]
        for each seed upstream triton.compile accepts, writes out/fuzz-gpu/<seed>/: kernel.py (the kernel
        and its SPEC), ttir.{ptx,json} (Tritium from upstream's TTIR) and ttgir.{ptx,json} (Tritium's
        lowering of upstream's TTGIR); kernels Tritium rejects are listed in out/fuzz-gpu/rejected.txt.
  on the GPU machine (torch, triton 3.6, cuda-python; carry out/fuzz-gpu):
    python3 bench/fuzz_gpu.py run [--out out/fuzz-gpu]
        per kernel: random inputs (fixed seed), outputs poisoned; upstream's @triton.jit launch is the
        reference; Tritium's two bundles are launched with bench/harness.py's PtxKernel on the same
        inputs; outputs compared (exact for integers, NaN where upstream has NaN, a tolerance for floats
        that reductions and dots reorder). Writes out/fuzz-gpu/results.json; exit 1 on a mismatch.
"""
import argparse, importlib.util, json, os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "bench"))


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def prepare(args):
    import fuzz_kernels
    import fuzz_differential as fd
    fd.skip_upstream_ptxas()
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="fuzz-gpu-cache-"))
    ptxas, libdevice = fd.tool_paths()
    os.makedirs(args.out, exist_ok=True)
    rejected = open(os.path.join(args.out, "rejected.txt"), "a")
    prepared, seed = 0, args.first
    while prepared < args.count:
        source, spec = fuzz_kernels.generate(seed)
        folder = os.path.join(args.out, str(seed))
        os.makedirs(folder, exist_ok=True)
        kernel_path = os.path.join(folder, "kernel.py")
        with open(kernel_path, "w") as f:
            f.write(source)
        seed += 1
        upstream, why = fd.upstream_compile(kernel_path, spec, args.target)
        if upstream is None:
            shutil.rmtree(folder)
            continue
        bundles = 0
        for stage, text in zip(("ttir", "ttgir"), upstream):
            ir = os.path.join(folder, f"kernel.{stage}")
            with open(ir, "w") as f:
                f.write(text)
            code, stderr, ptx = fd.run_tritium(args.tritium, libdevice, ir, spec, args.target, folder)
            if code != 0:
                rejected.write(f"{seed - 1} {stage}: exit {code}: {fd.signature_of(stderr)}\n")
                continue
            shutil.copy(ptx, os.path.join(folder, f"{stage}.ptx"))
            shutil.copy(ptx[:-4] + ".json", os.path.join(folder, f"{stage}.json"))
            bundles += 1
        shutil.rmtree(os.path.join(folder, "bundle"), ignore_errors=True)
        if bundles:
            prepared += 1
        else:
            shutil.rmtree(folder)
    print(f"prepared {prepared} kernels (seeds {args.first}..{seed - 1}) in {args.out}")


def make_inputs(spec, torch, generator):
    """Arguments in SPEC order: random inputs, poisoned outputs, scalars."""
    dtypes = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32, "fp64": torch.float64,
              "i8": torch.int8, "i32": torch.int32, "fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2}
    values = []
    for arg in spec["args"]:
        if arg["kind"] == "scalar":
            values.append(arg["value"])
            continue
        dtype = dtypes[arg["dtype"]]
        n = arg["numel"]
        if dtype.is_floating_point:
            t = (torch.randn(n, generator=generator, dtype=torch.float32) * 2).to(dtype)
        else:
            t = torch.randint(-8, 8, (n,), generator=generator, dtype=torch.int32).to(dtype)
        values.append(t.cuda())
    return values


def poison(spec, values, torch):
    for arg, value in zip(spec["args"], values):
        if arg["kind"] == "ptr" and arg["output"]:
            value.view(torch.uint8).fill_(0xFF)  # NaN for floats, -1 for integers


# Unit roundoff (half an ulp at 1) and the largest finite value of each float dtype.
UNIT_ROUNDOFF = {"fp16": 2.0**-11, "bf16": 2.0**-8, "fp32": 2.0**-24, "fp64": 2.0**-53, "fp8e4nv": 2.0**-4,
                 "fp8e5": 2.0**-3}
LARGEST = {"fp16": 65504.0, "bf16": 3.39e38, "fp32": 3.4e38, "fp64": 1.79e308, "fp8e4nv": 448.0, "fp8e5": 57344.0}
SMALLEST_NORMAL = {"fp16": 2.0**-14, "bf16": 2.0**-126, "fp32": 2.0**-126, "fp64": 2.0**-1022,
                   "fp8e4nv": 2.0**-6, "fp8e5": 2.0**-14}
TOLERANCE = {"fp16": 1e-2, "bf16": 2e-2, "fp8e4nv": 0.13, "fp8e5": 0.26, "fp32": 1e-4, "fp64": 1e-9}


def compare(expected, actual, dtype, torch, accumulation=None):
    """None when `actual` matches upstream's `expected`, else a description.

    Floats: within the output dtype's tolerance, widened by the kernel's floating-point
    accumulation (SPEC["accumulation"]: the least precise dtype and number of terms of its sums,
    scans and dots, whose order each compiler chooses): a sum of n terms reassociated differs by
    about sqrt(n) * u * (its magnitude), u the accumulation dtype's unit roundoff (4 sqrt(n) u
    taken as the bound, relative for products, against the output's largest magnitude for
    sums). Where one order overflows and the other does not, the finite value must have the same
    sign, and for sums be near the dtype's largest value (half of it); a product's partial
    products reassociate by whole factors, so one order may overflow (or underflow to zero)
    where the other stays finite: accepted with the same sign (or near the smallest normal).
    """
    if not expected.dtype.is_floating_point:
        bad = (expected != actual).sum().item()
        return None if bad == 0 else f"{bad} of {expected.numel()} integers differ"
    e, a = expected.double(), actual.double()
    tolerance = TOLERANCE[dtype]
    nan = torch.isnan(e)
    if not torch.equal(nan, torch.isnan(a)):
        return f"NaN in {int((nan != torch.isnan(a)).sum())} different places"
    e, a = e[~nan], a[~nan]
    accepted = torch.zeros_like(e, dtype=torch.bool)
    atol = rtol = tolerance
    if accumulation:
        spread = 4 * accumulation["terms"] ** 0.5 * UNIT_ROUNDOFF[accumulation["dtype"]]
        largest = LARGEST[accumulation["dtype"]]
        finite = torch.isfinite(e) & torch.isfinite(a)
        one_overflowed = torch.isinf(e) ^ torch.isinf(a)
        finite_side = torch.where(torch.isinf(e), a, e)
        same_sign = torch.sign(e) == torch.sign(a)
        if accumulation["product"]:
            rtol = max(rtol, spread)
            near_largest = torch.ones_like(accepted)
            one_underflowed = (e == 0) ^ (a == 0)
            nonzero_side = torch.where(e == 0, a, e)
            tiny = SMALLEST_NORMAL[accumulation["dtype"]] * 2.0**10
            accepted |= one_underflowed & (nonzero_side.abs() <= tiny)
            accepted |= (e.abs() <= tiny) & (a.abs() <= tiny)  # subnormal products keep few significant bits
        else:
            scale = e[finite].abs().max().item() if finite.any() else 0.0
            atol = max(atol, spread * scale)
            rtol = max(rtol, spread)
            near_largest = finite_side.abs() >= largest / 2
        accepted |= one_overflowed & same_sign & near_largest
    close = torch.isclose(e, a, rtol=rtol, atol=atol) | accepted
    bad = (~close).sum().item()
    if bad:
        diff = (e[~close] - a[~close]).abs().max().item()
        return f"{bad} of {expected.numel()} values differ (max abs diff {diff:.4g}, atol {atol:.3g}, rtol {rtol:.3g})"
    return None


def run(args):
    import torch
    import harness
    results, mismatches = [], 0
    folders = sorted((d for d in os.listdir(args.out) if d.isdigit()), key=int)
    for folder_name in folders:
        folder = os.path.join(args.out, folder_name)
        module = load_module(os.path.join(folder, "kernel.py"), f"fuzz_{folder_name}")
        spec = module.SPEC
        jit = getattr(module, spec["name"])
        row = {"seed": spec["seed"], "kind": spec["kind"], "name": spec["name"]}
        try:
            generator = torch.Generator().manual_seed(spec["seed"])
            values = make_inputs(spec, torch, generator)
            outputs = [i for i, a in enumerate(spec["args"]) if a["kind"] == "ptr" and a["output"]]
            poison(spec, values, torch)
            jit[tuple(spec["grid"])](*values, **spec["constexprs"], num_warps=spec["num_warps"],
                                     num_stages=spec["num_stages"])
            torch.cuda.synchronize()
            reference = [values[i].clone() for i in outputs]
            for stage in ("ttir", "ttgir"):
                meta_path = os.path.join(folder, f"{stage}.json")
                if not os.path.exists(meta_path):
                    continue
                meta = json.load(open(meta_path))
                kernel = harness.PtxKernel.from_bundle(os.path.join(folder, f"{stage}.ptx"), meta)
                poison(spec, values, torch)
                # Scalars: harness.PtxKernel passes Python ints as i32 and floats as f32 (the SPEC's types).
                kernel(spec["grid"], values)
                torch.cuda.synchronize()
                problems = [compare(r, values[i], spec["args"][i]["dtype"], torch, spec.get("accumulation"))
                            for r, i in zip(reference, outputs)]
                problems = [p for p in problems if p]
                row[stage] = "ok" if not problems else "; ".join(problems)
                mismatches += bool(problems)
        except Exception as e:  # report and go on
            row["error"] = f"{type(e).__name__}: {e}"
            mismatches += 1
        results.append(row)
        print(json.dumps(row), flush=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    ran = sum(1 for r in results for s in ("ttir", "ttgir") if s in r)
    print(f"{len(results)} kernels, {ran} Tritium launches, {mismatches} mismatches or errors")
    sys.exit(1 if mismatches else 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("step", choices=["prepare", "run"])
    parser.add_argument("--out", default=os.path.join(ROOT, "out/fuzz-gpu"))
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--target", type=int, default=90)
    parser.add_argument("--tritium", default=os.path.join(ROOT, "target/debug/tritium"))
    args = parser.parse_args()
    prepare(args) if args.step == "prepare" else run(args)


if __name__ == "__main__":
    main()
