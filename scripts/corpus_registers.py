#!/usr/bin/env python3
"""Registers per thread (`ptxas -v`) of every corpus kernel: Tritium's PTX of
upstream's TTGIR against upstream Triton 3.6's PTX of the same TTGIR.

  python3 scripts/corpus_registers.py [--tritium target/debug/tritium]
      [--out regs.json] [--compare before.json] [--all]

Kernels: the ttgir rows of test/fixtures/corpus/manifest.tsv (cuda90 through
`ptxas -arch=sm_90a`, cuda80 through `-arch=sm_80`). Upstream's PTX comes from
../shared/corpus where it is there, else from triton.compile of the TTGIR here
(CPU only; its ptxas stage skipped), cached under --cache (it does not depend
on Tritium). Prints the kernels where Tritium uses more registers than
upstream (--all: every kernel), then counts; --out saves the figures, and
--compare prints, against a saved run, the kernels whose Tritium count
changed."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "test/fixtures/corpus")
SHARED = os.path.join(ROOT, "../shared/corpus")


def cuda_tools():
    """ptxas, and LIBDEVICE in the environment (tutorial 07 calls libdevice)."""
    out = subprocess.run(["bash", "-c", "source scripts/cuda-tools.sh; echo $PTXAS; echo $LIBDEVICE"], cwd=ROOT,
                         capture_output=True, text=True).stdout.split("\n")
    if len(out) > 1 and out[1] and "LIBDEVICE" not in os.environ:
        os.environ["LIBDEVICE"] = out[1]
    return out[0] or shutil.which("ptxas")


def registers(ptxas, ptx_path, target):
    arch = "sm_90a" if target == "cuda90" else "sm_80"
    run = subprocess.run([ptxas, f"-arch={arch}", "-v", ptx_path, "-o", os.devnull], capture_output=True, text=True)
    if run.returncode != 0:
        return None
    counts = [int(m) for m in re.findall(r"Used (\d+) registers", run.stderr)]
    return max(counts) if counts else None


def kernels():
    seen = []
    with open(os.path.join(CORPUS, "manifest.tsv")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            target, kernel, stage, ir = line.rstrip("\n").split("\t")
            if stage == "ttgir" and (target, kernel, ir) not in seen:
                seen.append((target, kernel, ir))
    return seen


def upstream_ptx(target, kernel, ir, cache):
    shared = os.path.join(SHARED, target, kernel, "kernel.ptx")
    if os.path.exists(shared):
        return shared
    cached = os.path.join(cache, target, kernel + ".ptx")
    if os.path.exists(cached):
        return cached
    try:
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.backends.nvidia import compiler
    except ImportError:
        return None
    compiler.CUDABackend.make_cubin = lambda self, src, metadata, opt, capability: b""
    os.makedirs(os.path.dirname(cached), exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        os.environ["TRITON_CACHE_DIR"] = d
        path = os.path.join(d, "kernel.ttgir")
        shutil.copy(os.path.join(CORPUS, "ir", ir + ".mlir"), path)
        try:
            compiled = triton.compile(path, target=GPUTarget("cuda", int(target.removeprefix("cuda")), 32))
        except Exception as e:  # upstream refuses some corpus TTGIR text (it is theirs, but e.g. TMA metadata)
            print(f"  upstream failed on {target}/{kernel}: {str(e).splitlines()[0][:120]}", file=sys.stderr)
            return None
    with open(cached, "w") as f:
        f.write(compiled.asm["ptx"])
    return cached


def tritium_ptx(tritium, ir, out_dir):
    run = subprocess.run([tritium, "compile", os.path.join(CORPUS, "ir", ir + ".mlir"), "-o", out_dir],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return None
    ptx = [p for p in os.listdir(out_dir) if p.endswith(".ptx")]
    return os.path.join(out_dir, ptx[0]) if ptx else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tritium", default=os.path.join(ROOT, "target/debug/tritium"))
    parser.add_argument("--cache", default=os.path.join(ROOT, "out/corpus-registers/upstream"))
    parser.add_argument("--out")
    parser.add_argument("--compare")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--filter", default="", help="only kernels whose name contains this")
    args = parser.parse_args()
    ptxas = cuda_tools()
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for target, kernel, ir in kernels():
            if args.filter not in kernel:
                continue
            key = f"{target}/{kernel}"
            up_path = upstream_ptx(target, kernel, ir, args.cache)
            out_dir = os.path.join(tmp, target, kernel)
            os.makedirs(out_dir)
            tr_path = tritium_ptx(args.tritium, ir, out_dir)
            rows[key] = dict(upstream=up_path and registers(ptxas, up_path, target),
                             tritium=tr_path and registers(ptxas, tr_path, target))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1, sort_keys=True)
    more = {k: r for k, r in rows.items() if r["tritium"] and r["upstream"] and r["tritium"] > r["upstream"]}
    fewer = {k: r for k, r in rows.items() if r["tritium"] and r["upstream"] and r["tritium"] < r["upstream"]}
    shown = rows if args.all else more
    print("| kernel | upstream | Tritium | Tritium - upstream |")
    print("|---|---:|---:|---:|")
    for key in sorted(shown):
        r = shown[key]
        delta = r["tritium"] - r["upstream"] if r["tritium"] and r["upstream"] else ""
        print(f"| {key} | {r['upstream']} | {r['tritium']} | {delta:+} |" if delta != "" else
              f"| {key} | {r['upstream']} | {r['tritium']} | |")
    same = sum(1 for r in rows.values() if r["tritium"] and r["tritium"] == r["upstream"])
    missing = [k for k, r in rows.items() if not (r["tritium"] and r["upstream"])]
    print(f"\n{len(rows)} kernels: {same} same as upstream, {len(more)} more registers, {len(fewer)} fewer, "
          f"{len(missing)} without both counts{': ' + ', '.join(missing) if missing else ''}")
    if args.compare:
        with open(args.compare) as f:
            before = json.load(f)
        changed = [(k, before[k]["tritium"], rows[k]["tritium"], rows[k]["upstream"]) for k in sorted(rows)
                   if k in before and before[k]["tritium"] != rows[k]["tritium"]]
        print(f"\nTritium's count changed on {len(changed)} kernels (before -> after, upstream):")
        for k, b, a, u in changed:
            print(f"  {k}: {b} -> {a} (upstream {u})")


if __name__ == "__main__":
    main()
