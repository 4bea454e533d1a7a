#!/usr/bin/env python3
"""Launches Tritium's corpus kernels once each, for compute-sanitizer
(bench/sanitize.sh runs this under each tool). The cases, inputs, grids and the
launch are bench/harness.py's (case_list, PtxKernel): its masked shapes
included. Before each launch a marker line `@@@ CASE <case> | <shape> |
<launcher> | <target>` goes to stdout, after it `@@@ END ok|wrong|error ...`,
so that sanitize.sh can attribute compute-sanitizer's reports (printed when the
launch completes, at the synchronisation) to the kernel that made them.

  python3 bench/sanitize.py [--filter RE] [--targets cuda90,cuda80] [--launchers tritium,tritium_from_ttir,triton_ptx]
                            [--max-programs N] [--small]
  python3 bench/sanitize.py --list        (no GPU, no torch: what would be launched, and what cannot be)

--max-programs N launches at most N programs along each grid axis (racecheck
and synccheck check what happens inside a CTA, and cost ~1000x a plain run on
the full grids of the benchmark shapes); memcheck and initcheck run the full
grid, whose last programs are the masked ones. --small takes harness.case_list(small=True):
the same kernels with their loops cut down (K, sequence lengths, a persistent program's rows),
which racecheck needs: it costs minutes per program of a 4096^3 matmul.
"""
import argparse, os, re, sys

import corpus_manifest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# launcher -> out/bench folder; triton_ptx is upstream's PTX of the same TTGIR (as the harness's
# column of that name), to tell the kernels' own reports from the sanitizer's.
LAUNCHERS = {"tritium": "tritium", "tritium_from_ttir": "tritium-ttir", "triton_ptx": "upstream"}


def static_cases(small=False):
    """(case, corpus kernel, shape) of harness.case_list() and fp8_cases(), read from the source (no torch)."""
    pattern = re.compile(r'cases\.append\(\(\s*f?"([\w{}]+)",\s*"(\w+)",\s*f?"([^"]*)"')
    cases = []
    for name in ("harness.py", "fp8_cases.py"):
        for case, kernel, shape in pattern.findall(open(os.path.join(HERE, name)).read()):
            # fp8_cases.py names its cases in loops over the formats and the wide types.
            names = [case]
            for key, values in (("{fmt}", ("e4m3", "e5m2")), ("{wide}", ("f16", "bf16", "f32"))):
                names = [n.replace(key, v) for n in names for v in (values if key in n else (key,))]
            # Sizes written dim(big, little): the list shows the big one (--small: the little one).
            shape = re.sub(r"\{dim\((\d+), (\d+)\)\}", lambda m: m.group(2 if small else 1), shape)
            cases += [(n, kernel, shape) for n in names]
    return cases


def corpus_kernels(target):
    return {kernel for t, kernel, stage, _ in corpus_manifest.entries() if t == target and stage == "ttgir"}


def list_launches(args):
    bench = os.path.join(ROOT, "out", "bench")
    cases = static_cases(args.small)
    launches = missing = 0
    for target in args.targets.split(","):
        covered = set()
        for case, kernel, shape in cases:
            if not re.search(args.filter, case + " " + shape):
                continue
            covered.add(case)
            for launcher in args.launchers.split(","):
                ptx = os.path.join(bench, LAUNCHERS[launcher], target, case + ".ptx")
                if os.path.exists(ptx):
                    print(f"launch  {target}  {launcher:18s} {case:32s} {shape}")
                    launches += 1
                else:
                    print(f"no PTX  {target}  {launcher:18s} {case:32s} {shape}   ({os.path.relpath(ptx, ROOT)} missing)")
                    missing += 1
        for kernel in sorted(corpus_kernels(target) - covered):
            print(f"not run {target}  {kernel}: bench/harness.py has no inputs for it")
    print(f"{launches} launches per tool, {missing} without a bundle")


def run(args):
    import torch
    sys.path.insert(0, HERE)
    import harness
    torch.cuda.init()
    torch.manual_seed(0)
    bench = os.path.join(ROOT, "out", "bench")
    for case, kernel, shape, make in harness.case_list(small=args.small):
        if not re.search(args.filter, case + " " + shape):
            continue
        for target in args.targets.split(","):
            for launcher in args.launchers.split(","):
                directory = os.path.join(bench, LAUNCHERS[launcher], target)
                meta = harness.load_bundle(directory, case)
                if meta is None:
                    continue
                print(f"@@@ CASE {case} | {shape} | {launcher} | {target}", flush=True)
                try:
                    c = make()
                    if launcher == "triton_ptx":  # upstream's two trailing scratch pointers; its descriptors
                        tritium_meta = harness.load_bundle(os.path.join(bench, "tritium", target), case) or {}
                        kernel_fn = harness.PtxKernel.from_bundle(
                            os.path.join(directory, case + ".ptx"), meta, extra_null_args=2,
                            tensordesc_meta=meta.get("tensordesc_meta") or tritium_meta.get("tensordesc_meta"))
                    else:
                        kernel_fn = harness.PtxKernel.from_bundle(os.path.join(directory, case + ".ptx"), meta)
                    for o in c["out"]:
                        o.fill_(float("nan")) if o.is_floating_point() else o.fill_(-1)
                    grid = tuple(c["grid"])
                    if args.max_programs:
                        grid = tuple(min(g, args.max_programs) for g in grid)
                    kernel_fn(grid, c["args"])
                    torch.cuda.synchronize()
                    ok = grid != tuple(c["grid"]) or all(
                        torch.allclose(o.double(), r.double(), atol=c["tol"][0], rtol=c["tol"][1])
                        for o, r in zip(c["out"], c["ref"]))
                    print(f"@@@ END {'ok' if ok else 'wrong'}", flush=True)
                    del c
                except Exception as e:  # report and go on with the next launch
                    print(f"@@@ END error {type(e).__name__}: {e}", flush=True)
                torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--filter", default=".")
    parser.add_argument("--targets", default="cuda90,cuda80")
    parser.add_argument("--launchers", default="tritium,tritium_from_ttir")
    parser.add_argument("--max-programs", type=int, default=0)
    parser.add_argument("--small", action="store_true",
                        help="harness.case_list(small=True): loops cut down, for racecheck")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    list_launches(args) if args.list else run(args)


if __name__ == "__main__":
    main()
