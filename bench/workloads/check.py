#!/usr/bin/env python3
"""Workload kernels: LLM training and serving kernels written for this project in the styles
real code uses (paged attention, fused MoE, quantisation, fused norms, losses, scans...), checked
the way a user meets Tritium: compiled from Python with upstream's frontend, and run.

Each module bench/workloads/<family>.py has CASES, a list of dicts:
    name   unique case name
    fn     the @triton.jit kernel
    sig    {arg: type} of the non-constexpr arguments ("*fp16", "i32", "fp32", ...)
    const  {arg: value} of the constexpr arguments
    div    indices (into fn.arg_names) of arguments with tt.divisibility 16
    opts   triton.compile options (num_warps, num_stages, ...)
    targets  optional, default ("cuda:90", "cuda:80")
    run    optional: run(torch) -> [(label, got, expected, atol, rtol)], launches the kernel
           through its JIT (fn[grid](...)) on "cuda" and computes a torch reference

compile (CPU, no GPU): every case through upstream's triton.compile for each target; where
upstream accepts it, Tritium compiles upstream's TTIR (its whole pipeline) and upstream's TTGIR
(its lowering) with the same options, and ptxas assembles each PTX. A Tritium failure where
upstream succeeded is a failure of this check (exit 1), listed with its first error.

    python3 bench/workloads/check.py compile [--filter RE] [--targets cuda:90,cuda:80]
                                             [--tritium target/debug/tritium] [--out out/workloads]

run (GPU with torch, triton 3.6 and the tritium wheel): every case with `run`, twice in fresh
processes, with Tritium as Triton's compiler (the plug-in) and with upstream alone; each result
is compared with its torch reference, and the plug-in run counts the kernels Tritium compiled
(metadata["tritium"]) so that an upstream fallback cannot pass for Tritium.

    python3 bench/workloads/check.py run [--filter RE] [--which tritium,upstream]

--filter matches a case's name or FAMILY/NAME (e.g. "^serving_" for the serving families).
"""
import argparse
import importlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ARCH = {90: "sm_90a", 80: "sm_80"}
FAMILIES_SKIP = {"check"}


def families():
    return sorted(f[:-3] for f in os.listdir(HERE) if f.endswith(".py") and f[:-3] not in FAMILIES_SKIP
                  and not f.startswith("_"))


def cases(pattern):
    sys.path.insert(0, HERE)
    out = []
    for fam in families():
        mod = importlib.import_module(fam)
        for case in mod.CASES:
            # The filter matches a case's name or its family/name ("^serving_" picks a family).
            if re.search(pattern, case["name"]) or re.search(pattern, f"{fam}/{case['name']}"):
                out.append((fam, case))
    names = [c["name"] for _, c in out]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit(f"duplicate case names: {sorted(dup)}")
    return out


def tool_paths():
    """ptxas, and the libdevice Triton's JIT links (its wheel's copy, which the plug-in passes
    too), so that Tritium and upstream link the same libdevice; cuda-tools.sh's as a fallback."""
    env = subprocess.run(["bash", "-c", f"source {ROOT}/scripts/cuda-tools.sh; echo $PTXAS; echo $LIBDEVICE"],
                         capture_output=True, text=True).stdout.split("\n")
    try:
        import triton
        bundled = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "lib", "libdevice.10.bc")
    except ImportError:
        bundled = ""
    return env[0] or "ptxas", bundled if os.path.exists(bundled) else env[1] or ""


def first_error(text):
    for line in text.splitlines():
        if "error" in line.lower():
            return line.strip()[:300]
    lines = [line for line in text.splitlines() if line.strip()]
    return (lines[-1] if lines else "(no output)")[:300]


def upstream_compile(case, target):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    fn = case["fn"]
    sig = dict(case["sig"])
    sig.update({k: "constexpr" for k in case["const"]})
    sig = {k: sig[k] for k in fn.arg_names}
    attrs = {(i,): [["tt.divisibility", 16]] for i in case.get("div", [])}
    src = ASTSource(fn=fn, signature=sig, constexprs=case["const"], attrs=attrs)
    arch = int(target.split(":")[1])
    return triton.compile(src, target=GPUTarget("cuda", arch, 32), options=case.get("opts", {}))


def tritium_compile(tritium, ptxas, libdevice, ir_path, target, opts, dest):
    os.makedirs(dest, exist_ok=True)
    cmd = [tritium, "compile", ir_path, "--target", target, "--num-warps", str(opts.get("num_warps", 4)),
           "--num-stages", str(opts.get("num_stages", 3)), "--num-ctas", str(opts.get("num_ctas", 1)), "-o", dest]
    if libdevice:
        cmd += ["--libdevice", libdevice]
    if opts.get("maxnreg"):
        cmd += ["--maxnreg", str(opts["maxnreg"])]
    if opts.get("enable_fp_fusion") is False:
        cmd += ["--no-fp-fusion"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "timeout", "tritium compile ran over 300 s"
    if r.returncode != 0:
        return ("internal" if r.returncode == 2 else "error" if r.returncode == 1 else "crash"), \
            first_error(r.stderr)
    ptx = [f for f in os.listdir(dest) if f.endswith(".ptx")]
    if len(ptx) != 1:
        return "error", f"expected one PTX in {dest}, found {ptx}"
    arch = ARCH[int(target.split(":")[1])]
    r = subprocess.run([ptxas, f"-arch={arch}", os.path.join(dest, ptx[0]), "-o", os.path.join(dest, "k.cubin")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return "ptxas", first_error(r.stderr + r.stdout)
    return "ok", ""


def compile_mode(args):
    ptxas, libdevice = tool_paths()
    rows, failures = [], 0
    for fam, case in cases(args.filter):
        for target in case.get("targets", ("cuda:90", "cuda:80")):
            if target not in args.targets.split(","):
                continue
            row = {"family": fam, "case": case["name"], "target": target}
            dest = os.path.join(args.out, target.replace(":", ""), case["name"])
            os.makedirs(dest, exist_ok=True)
            t = time.time()
            try:
                k = upstream_compile(case, target)
            except Exception as e:  # noqa: BLE001 - any upstream failure means "upstream rejects"
                row["upstream"] = "rejects: " + first_error(str(e))
                rows.append(row)
                print(f"{target} {case['name']}: upstream rejects ({row['upstream'][:120]})", flush=True)
                continue
            row["upstream"] = f"ok {time.time() - t:.2f}s"
            for stage in ("ttir", "ttgir"):
                path = os.path.join(dest, f"kernel.{stage}")
                with open(path, "w") as f:
                    f.write(k.asm[stage])
                status, why = tritium_compile(args.tritium, ptxas, libdevice, path, target, case.get("opts", {}),
                                              os.path.join(dest, "from-" + stage))
                row[stage] = status if status == "ok" else f"{status}: {why}"
                failures += status != "ok"
            rows.append(row)
            print(f"{target} {case['name']}: ttir {row['ttir'][:150]} | ttgir {row['ttgir'][:150]}", flush=True)
    with open(os.path.join(args.out, "compile.json"), "w") as f:
        json.dump(rows, f, indent=1)
    accepted = [r for r in rows if r["upstream"].startswith("ok")]
    ok = sum(r["ttir"] == "ok" and r["ttgir"] == "ok" for r in accepted)
    print(f"workloads: {len(rows)} case/target pairs, upstream compiles {len(accepted)}, "
          f"Tritium compiles {ok} of those from TTIR and TTGIR (ptxas included), {failures} failures")
    return 1 if failures else 0


def child(names, which, out):
    import torch
    import triton
    if which == "tritium":
        import tritium.triton
        tritium.triton.enable()
    counts = {"tritium": 0, "upstream": 0}

    def listener(src, metadata, metadata_group, times, cache_hit):
        if not cache_hit:
            counts["tritium" if "tritium" in metadata else "upstream"] += 1

    triton.knobs.compilation.listener = listener
    for fam, case in cases("^(" + "|".join(map(re.escape, names)) + ")$"):
        before = dict(counts)
        entry = {"case": case["name"], "which": which}
        try:
            checks = case["run"](torch)
            bad = []
            for label, got, expected, atol, rtol in checks:
                if not torch.allclose(got.float(), expected.float(), atol=atol, rtol=rtol, equal_nan=True):
                    err = (got.float() - expected.float()).abs().max().item()
                    bad.append(f"{label}: max abs err {err:.3g}")
            entry["result"] = "ok" if not bad else "mismatch: " + "; ".join(bad)
        except Exception as e:  # noqa: BLE001 - report and go on with the next case
            entry["result"] = f"error: {type(e).__name__}: {first_error(str(e)) or e}"
        entry["compiled_by_tritium"] = counts["tritium"] - before["tritium"]
        entry["compiled_by_upstream"] = counts["upstream"] - before["upstream"]
        if which == "tritium" and entry["result"] == "ok" and entry["compiled_by_upstream"]:
            entry["result"] = "fallback: upstream compiled a kernel"
        print(json.dumps(entry), flush=True)
        with open(out, "a") as f:
            f.write(json.dumps(entry) + "\n")


def run_mode(args):
    names = [c["name"] for _, c in cases(args.filter) if "run" in c]
    table = {}
    deadline = time.time() + args.timeout
    for which in args.which.split(","):
        # One child process runs the cases in order and appends one JSON line per case; a
        # child that dies (a crash in a kernel or in a compiler) is followed by a new one for
        # the cases after the one it died on, which is reported as a crash.
        out = os.path.join(tempfile.mkdtemp(), "results.jsonl")
        env = dict(os.environ, TRITON_CACHE_DIR=tempfile.mkdtemp(), TRITIUM="0")
        remaining = list(names)
        while remaining and time.time() < deadline:
            try:
                subprocess.run([sys.executable, __file__, "child", which, out] + remaining, env=env,
                               timeout=max(1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                pass
            done = set()
            if os.path.exists(out):
                for line in open(out):
                    entry = json.loads(line)
                    table.setdefault(entry["case"], {})[which] = entry
                    done.add(entry["case"])
            remaining = [n for n in remaining if n not in done]
            if remaining and time.time() < deadline:
                crashed = remaining.pop(0)
                entry = {"case": crashed, "which": which, "result": "crash: the process died in this case"}
                table.setdefault(crashed, {})[which] = entry
                print(json.dumps(entry), flush=True)
    bad = 0
    print(f"\n| case | {' | '.join(args.which.split(','))} |")
    print("|---|" + "---|" * len(args.which.split(",")))
    for name in names:
        cells = []
        for which in args.which.split(","):
            entry = table.get(name, {}).get(which)
            cells.append(entry["result"][:90] if entry else "not run")
            bad += which == "tritium" and (not entry or entry["result"] != "ok")
        print(f"| {name} | {' | '.join(cells)} |")
    print(f"\nworkloads run: {len(names)} cases, {bad} not ok through Tritium")
    return 1 if bad else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "child":
        return child(sys.argv[4:], sys.argv[2], sys.argv[3])
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["compile", "run"])
    p.add_argument("--filter", default="")
    p.add_argument("--targets", default="cuda:90,cuda:80")
    p.add_argument("--tritium", default=os.path.join(ROOT, "target/debug/tritium"))
    p.add_argument("--out", default=os.path.join(ROOT, "out/workloads"))
    p.add_argument("--which", default="tritium,upstream")
    p.add_argument("--timeout", type=int, default=1200)
    args = p.parse_args()
    return compile_mode(args) if args.mode == "compile" else run_mode(args)


if __name__ == "__main__":
    sys.exit(main())
