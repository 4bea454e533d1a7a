#!/usr/bin/env python3
"""Registers and spills per thread (`ptxas -v`) of workload kernels: upstream Triton 3.6's own PTX
against Tritium's PTX of upstream's TTGIR (so the difference is Tritium's lowering), and how many
64-bit integer instructions (arithmetic, compares, selects, mul/mad.wide) each PTX has.

  python3 scripts/compare_registers.py --filter RE [--targets cuda:90,cuda:80]
      [--tritium target/debug/tritium] [--keep DIR] [--out regs.json] [--compare before.json]

Cases are bench/workloads' CASES whose name matches RE (re.search). Upstream compiles each case
on the CPU (triton.compile; its ptxas stage skipped); Tritium compiles the TTGIR upstream made,
with the case's options, as bench/workloads/check.py does. --keep DIR leaves, per target and
case, upstream's kernel.ttgir, kernel.llir and kernel.ptx and Tritium's PTX and LLVM IR there
(for comparing the two lowerings); --out saves the figures and --compare prints the changes of
Tritium's counts against a saved run."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench/workloads"))
import check  # noqa: E402  (the workloads' case list and upstream's compile)

ARCH = {"cuda:90": "sm_90a", "cuda:80": "sm_80"}


def ptxas_usage(ptxas, ptx_path, target):
    """(registers, spill stores in bytes) of the largest kernel in the PTX, or None."""
    run = subprocess.run([ptxas, f"-arch={ARCH[target]}", "-v", ptx_path, "-o", os.devnull],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return None
    regs = [int(m) for m in re.findall(r"Used (\d+) registers", run.stderr)]
    spills = [int(m) for m in re.findall(r"(\d+) bytes spill stores", run.stderr)]
    return (max(regs), max(spills, default=0), wide_integer_ops(ptx_path)) if regs else None


WIDE_INTEGER = re.compile(r"^\s+(@!?%p\d+\s+)?(add|sub|mul|mad|shl|shr|and|or|xor|setp\.[a-z]+|selp|cvt\.[a-z0-9]+)"
                          r"\.(wide\.)?[sub]64\b|^\s+(@!?%p\d+\s+)?(mul|mad)\.wide\.", re.M)


def wide_integer_ops(ptx_path):
    """Instructions of the PTX that do 64-bit integer arithmetic, compares or
    selects (address arithmetic included; loads, stores and moves not)."""
    with open(ptx_path) as f:
        return len(WIDE_INTEGER.findall(f.read()))


def tritium_ptx(tritium, libdevice, ttgir, target, opts, dest):
    os.makedirs(dest, exist_ok=True)
    cmd = [tritium, "compile", ttgir, "--target", target, "--num-warps", str(opts.get("num_warps", 4)),
           "--num-stages", str(opts.get("num_stages", 3)), "--num-ctas", str(opts.get("num_ctas", 1)),
           "--emit-llvm", "-o", dest]
    if libdevice:
        cmd += ["--libdevice", libdevice]
    if opts.get("maxnreg"):
        cmd += ["--maxnreg", str(opts["maxnreg"])]
    if opts.get("enable_fp_fusion") is False:
        cmd += ["--no-fp-fusion"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        print(f"  tritium failed on {ttgir}: {check.first_error(run.stderr)}", file=sys.stderr)
        return None
    ptx = [f for f in os.listdir(dest) if f.endswith(".ptx")]
    return os.path.join(dest, ptx[0]) if len(ptx) == 1 else None


def cell(usage):
    if usage is None:
        return "-"
    regs, spill = usage[:2]
    return f"{regs}" + (f" +{spill} B spill" if spill else "") + (f" ({usage[2]} i64 ops)" if len(usage) > 2 else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--filter", default="")
    parser.add_argument("--targets", default="cuda:90,cuda:80")
    parser.add_argument("--tritium", default=os.path.join(ROOT, "target/debug/tritium"))
    parser.add_argument("--keep")
    parser.add_argument("--out")
    parser.add_argument("--compare")
    args = parser.parse_args()
    ptxas, libdevice = check.tool_paths()
    from triton.backends.nvidia import compiler
    compiler.CUDABackend.make_cubin = lambda self, src, metadata, opt, capability: b""
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp())
    base = args.keep or tempfile.mkdtemp()
    rows = {}
    for _, case in check.cases(args.filter):
        for target in case.get("targets", ("cuda:90", "cuda:80")):
            if target not in args.targets.split(","):
                continue
            dest = os.path.join(base, target.replace(":", ""), case["name"])
            os.makedirs(dest, exist_ok=True)
            try:
                kernel = check.upstream_compile(case, target)
            except Exception as e:  # noqa: BLE001 - upstream rejects the case: nothing to compare
                print(f"  upstream rejects {target} {case['name']}: {check.first_error(str(e))}", file=sys.stderr)
                continue
            for stage in ("ttgir", "llir", "ptx"):
                with open(os.path.join(dest, f"kernel.{stage}"), "w") as f:
                    f.write(kernel.asm[stage])
            ours = tritium_ptx(args.tritium, libdevice, os.path.join(dest, "kernel.ttgir"), target,
                               case.get("opts", {}), os.path.join(dest, "tritium"))
            rows[f"{target} {case['name']}"] = dict(
                upstream=ptxas_usage(ptxas, os.path.join(dest, "kernel.ptx"), target),
                tritium=ours and ptxas_usage(ptxas, ours, target))
    print("| case | upstream | Tritium (upstream's TTGIR) |")
    print("|---|---:|---:|")
    for key, row in rows.items():
        print(f"| {key} | {cell(row['upstream'])} | {cell(row['tritium'])} |")
    both = [r for r in rows.values() if r["upstream"] and r["tritium"]]
    print(f"\n{len(rows)} kernels; registers in total: upstream {sum(r['upstream'][0] for r in both)}, "
          f"Tritium {sum(r['tritium'][0] for r in both)} (over the {len(both)} with both counts)")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
    if args.compare:
        with open(args.compare) as f:
            before = json.load(f)
        print("\nTritium before -> after (upstream):")
        for key, row in rows.items():
            old = before.get(key, {}).get("tritium")
            old = tuple(old) if old else None
            if (old or ())[:2] != (row["tritium"] or ())[:2]:  # registers or spills changed
                print(f"  {key}: {cell(old)} -> {cell(row['tritium'])} ({cell(row['upstream'])})")


if __name__ == "__main__":
    main()
