#!/usr/bin/env python3
"""Differential testing against upstream Triton 3.6 on the CPU (issue 13, item 2;
RELIABILITY.md, "Fuzzing").

For each seed, scripts/fuzz_kernels.py makes a random kernel; upstream's
`triton.compile` compiles it for each target (cuda:90, cuda:80; ptxas
included). Every kernel upstream accepts, Tritium must compile too, or reject
with a located "not supported" diagnostic (or a located "over the shared
memory limit", which upstream reports only at launch); both from upstream's TTIR (Tritium's
own TTGIR pipeline) and from upstream's TTGIR (Tritium's lowering only). Its PTX
must pass ptxas. Anything else is a finding: a crash or signal, an internal
error (exit 2), a timeout, an error that is not a located "not supported", or
PTX that ptxas rejects. Each finding is kept in OUT/findings/<class>/<seed>-<target>-<input>/
(kernel.py, the TTIR or TTGIR, Tritium's stderr, the ptxas output), one
folder per case; OUT/summary.json counts them, and the distinct classes (the
first error with numbers and positions taken out) are printed.

    scripts/fuzz_differential.py [--seeds 0:1000] [--targets 90,80] [--out target/fuzz/differential]
                                 [--tritium target/debug/tritium] [--seconds N]

Run it under `nice -n 19`; it is one process (plus the tritium/ptxas it runs).
"""
import argparse, collections, importlib.util, json, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fuzz_kernels  # noqa: E402

LOCATED = re.compile(r"^\S+:\d+:\d+: error: ", re.M)
UNSUPPORTED = re.compile(r"not supported|does not support|not yet supported|is not implemented", re.I)
# A kernel over the device's shared memory: upstream compiles it and fails at launch
# (OutOfResources), Tritium says so at compile time (RELIABILITY.md, rows 36-38).
OVER_LIMIT = re.compile(r"of shared memory, more than the \d+ bytes .* a CTA can have")
ARCH = {90: "sm_90a", 80: "sm_80"}


def tool_paths():
    env = subprocess.run(["bash", "-c", f"source {ROOT}/scripts/cuda-tools.sh; echo $PTXAS; echo $LIBDEVICE"],
                         capture_output=True, text=True).stdout.split("\n")
    return env[0] or shutil.which("ptxas"), env[1] or None


def load_kernel(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def skip_upstream_ptxas():
    """Upstream's compile stops after PTX (its cubin stage returns nothing):
    ptxas on upstream's PTX took half of each kernel's time, and the TTIR and
    TTGIR Tritium compiles are made before it."""
    from triton.backends.nvidia import compiler
    compiler.CUDABackend.make_cubin = lambda self, src, metadata, opt, capability: b""


class QuietStderr:
    """Upstream's C++ prints its errors (and whole PTX reproducers) to fd 2."""

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)


def upstream_compile(path, spec, capability):
    """Upstream's (TTIR, TTGIR) of the kernel, or the exception's first line."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    fn = load_kernel(path, spec["name"])
    signature = dict(spec["signature"])
    signature.update({c: "constexpr" for c in spec["constexprs"]})
    signature = {name: signature[name] for name in fn.arg_names}
    source = ASTSource(fn=fn, signature=signature, constexprs=dict(spec["constexprs"]))
    try:
        with QuietStderr():
            compiled = triton.compile(source, target=GPUTarget("cuda", capability, 32),
                                      options={"num_warps": spec["num_warps"], "num_stages": spec["num_stages"]})
    except Exception as e:  # upstream rejects the kernel: not Tritium's concern
        text = str(e).strip().split("\n")
        return None, (type(e).__name__ + ": " + (text[-1] if text else ""))[:200]
    return (compiled.asm["ttir"], compiled.asm["ttgir"]), None


def signature_of(text):
    """A finding's class: its first error line without positions, names and numbers."""
    lines = [l for l in text.split("\n") if "error" in l.lower() or "panicked" in l] or text.split("\n")[-3:]
    line = lines[0] if lines else ""
    line = re.sub(r"^\S+:\d+:\d+: ", "", line)
    line = re.sub(r"'[^']*\.(mlir|ttir|ttgir|ptx)'", "FILE", line)
    line = re.sub(r"\d+", "N", line)
    line = re.sub(r"fuzz_\w+", "KERNEL", line)
    return line.strip()[:160]


def run_tritium(tritium, libdevice, ir_path, spec, capability, work):
    out = os.path.join(work, "bundle")
    shutil.rmtree(out, ignore_errors=True)
    command = [tritium, "compile", ir_path, "--target", f"cuda:{capability}", "--num-warps", str(spec["num_warps"]),
               "--num-stages", str(spec["num_stages"]), "-o", out]
    if libdevice:
        command += ["--libdevice", libdevice]
    try:
        p = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "timeout", "timeout after 120 s", None
    ptx = os.path.join(out, spec["name"] + ".ptx")
    return p.returncode, p.stderr, (ptx if p.returncode == 0 else None)


def run_ptxas(ptxas, ptx, capability, work):
    p = subprocess.run([ptxas, f"-arch={ARCH[capability]}", ptx, "-o", os.path.join(work, "k.cubin")],
                       capture_output=True, text=True, timeout=300)
    return p.returncode == 0, p.stderr


def classify(code, stderr):
    """None when Tritium's answer is acceptable, else the finding's class."""
    if code == 0:
        return None
    if code == 1 and LOCATED.search(stderr) and (UNSUPPORTED.search(stderr) or OVER_LIMIT.search(stderr)):
        return None
    if code == 1:
        return "rejected"        # an error that is not a located "not supported"
    if code == 2:
        return "internal-error"
    if code == "timeout":
        return "timeout"
    return "crash"               # a signal


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="0:200")
    parser.add_argument("--targets", default="90,80")
    parser.add_argument("--out", default=os.path.join(ROOT, "target/fuzz/differential"))
    parser.add_argument("--tritium", default=os.path.join(ROOT, "target/debug/tritium"))
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--upstream-ptxas", action="store_true",
                        help="upstream accepts = its ptxas too (slower; default: through its PTX)")
    parser.add_argument("--keep-inputs", default=None, help="copy every upstream TTIR/TTGIR here (fuzz seeds)")
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split(":"))
    targets = [int(t) for t in args.targets.split(",")]
    ptxas, libdevice = tool_paths()
    if not args.upstream_ptxas:
        skip_upstream_ptxas()
    os.makedirs(args.out, exist_ok=True)
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="fuzz-triton-cache-"))
    counts = collections.Counter()
    classes = collections.defaultdict(list)
    start = time.time()
    work = tempfile.mkdtemp(prefix="fuzz-differential-")
    seed = first
    for seed in range(first, last):
        if args.seconds and time.time() - start > args.seconds:
            break
        source, spec = fuzz_kernels.generate(seed)
        kernel_path = os.path.join(work, f"{spec['name']}.py")
        with open(kernel_path, "w") as f:
            f.write(source)
        counts["kernels"] += 1
        for capability in targets:
            upstream, why = upstream_compile(kernel_path, spec, capability)
            if upstream is None:
                counts[f"upstream rejects (sm_{capability})"] += 1
                counts["upstream reason: " + re.sub(r"\d+", "N", why)[:90]] += 1
                continue
            counts[f"upstream accepts (sm_{capability})"] += 1
            for stage, text in zip(("ttir", "ttgir"), upstream):
                ir_path = os.path.join(work, f"{spec['name']}.{stage}")
                with open(ir_path, "w") as f:
                    f.write(text)
                if args.keep_inputs:
                    os.makedirs(args.keep_inputs, exist_ok=True)
                    header = f"// fuzz: target=cuda:{capability} num-warps={spec['num_warps']} num-stages={spec['num_stages']}\n"
                    with open(os.path.join(args.keep_inputs, f"{seed}-sm{capability}.{stage}.mlir"), "w") as f:
                        f.write(header + text)
                code, stderr, ptx = run_tritium(args.tritium, libdevice, ir_path, spec, capability, work)
                finding = classify(code, stderr)
                detail = stderr
                if finding is None and ptx:
                    ok, ptxas_err = run_ptxas(ptxas, ptx, capability, work)
                    counts[f"tritium compiles ({stage}, sm_{capability})"] += 1
                    if not ok:
                        finding, detail = "ptxas-rejects", ptxas_err
                elif finding is None:
                    counts[f"tritium: located refusal ({stage}, sm_{capability})"] += 1
                    counts["refused: " + signature_of(stderr)[:100]] += 1
                if finding:
                    counts[f"finding: {finding}"] += 1
                    key = f"{finding}: {stage}: {signature_of(detail)}"
                    classes[key].append(f"{seed}-sm{capability}")
                    keep = os.path.join(args.out, "findings", finding, f"{seed}-sm{capability}-{stage}")
                    os.makedirs(keep, exist_ok=True)
                    shutil.copy(kernel_path, os.path.join(keep, "kernel.py"))
                    shutil.copy(ir_path, os.path.join(keep, f"kernel.{stage}"))
                    if ptx and os.path.exists(ptx):
                        shutil.copy(ptx, os.path.join(keep, "kernel.ptx"))
                    with open(os.path.join(keep, "stderr.txt"), "w") as f:
                        f.write(f"exit {code}\n{stderr}\n{detail if detail is not stderr else ''}")
                    print(f"FINDING {key} (seed {seed}, sm_{capability})", flush=True)
        if counts["kernels"] % 50 == 0:
            print(f"{counts['kernels']} kernels, {time.time() - start:.0f} s, "
                  f"{sum(v for k, v in counts.items() if k.startswith('finding'))} findings", flush=True)
    summary = {"seeds": f"{first}:{seed + 1}", "seconds": round(time.time() - start), "counts": dict(counts),
               "classes": {k: v for k, v in sorted(classes.items())}}
    with open(os.path.join(args.out, f"summary-{first}-{seed + 1}.json"), "w") as f:
        json.dump(summary, f, indent=1)
    for key, value in sorted(counts.items()):
        print(f"{value:6d}  {key}")
    print(f"\n{len(classes)} distinct findings:")
    for key, cases in sorted(classes.items()):
        print(f"  {len(cases):4d}  {key}   e.g. {cases[0]}")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if classes else 0)


if __name__ == "__main__":
    main()
