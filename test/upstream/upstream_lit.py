#!/usr/bin/env python3
"""Runs upstream Triton 3.6's lit tests through tt-opt, one case at a time.

Upstream's lit files live in ../shared/upstream-tests/triton-3.6/test (never
copied into this repository). Every RUN line of every file is run with
`triton-opt` replaced by `tt-opt`; a file whose RUN line has
`--split-input-file` is run chunk by chunk (each `// -----` chunk is one case,
checked against the CHECK lines of that chunk only), any other file is one case
per RUN line. RUN lines that need Blackwell (sm_100+, tcgen05, the TMEM-only
passes) or AMD are listed as skipped and not counted.

    test/upstream/upstream_lit.py                 # per-file table and total
    test/upstream/upstream_lit.py -v              # also every failing case and why
    test/upstream/upstream_lit.py --floor FILE    # exit 1 if fewer cases pass than FILE says
    test/upstream/upstream_lit.py --parse         # which input chunks upstream's parser reads
                                                  # and tt-opt does not (needs triton==3.6.0)
    test/upstream/upstream_lit.py TritonGPU/coalesce.mlir ...   # only these files

Failure reasons, checked in this order: `crash` (a signal or an LLVM ERROR),
`unknown pass` (tt-opt does not know a flag of the RUN line), `parse error` (the
chunk does not parse, even with the verifier off), `verifier` (it parses but
does not verify), `diagnostics` (a --verify-diagnostics case whose expected
diagnostics differ), `pass error` (a pass failed or left invalid IR), `CHECK
mismatch` (everything ran, FileCheck or a later tool of the pipeline failed).

Tools: tt-opt from $TT_OPT_DIR (default target/debug); FileCheck, not,
mlir-translate, opt and llc from /usr/lib/llvm-22/bin.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def upstream_folder():
    """../shared/upstream-tests/triton-3.6/test beside the checkout ($TRITIUM_SHARED
    overrides ../shared; a git worktree one level deeper finds it too)."""
    candidates = [os.environ.get("TRITIUM_SHARED"), os.path.join(REPO, "..", "shared"),
                  os.path.join(REPO, "..", "..", "shared")]
    for shared in filter(None, candidates):
        folder = os.path.normpath(os.path.join(shared, "upstream-tests", "triton-3.6", "test"))
        if os.path.isdir(folder):
            return folder
    return os.path.normpath(os.path.join(REPO, "..", "shared", "upstream-tests", "triton-3.6", "test"))


UPSTREAM = upstream_folder()
TT_OPT = os.path.join(os.environ.get("TT_OPT_DIR") or os.path.join(REPO, "target", "debug"), "tt-opt")
LLVM_BIN = "/usr/lib/llvm-22/bin"
EXCLUDED_DIRS = {"Inputs", "Examples"}

# RUN lines that only make sense on hardware or targets Tritium does not take.
SKIP_RULES = [
    ("AMD", re.compile(r"amdgpu|tritonamd|rocdl|gfx\d|hip", re.I)),
    ("Blackwell", re.compile(
        r"cuda:1[0-9]{2}|compute-capability=1[0-9]{2}|sm_?1[0-9]{2}|tcgen05|tmem|TMEM")),
]

# Cases (chunks) whose module targets Blackwell or AMD, whatever the RUN line.
CHUNK_SKIP_RULES = [
    ("AMD target", re.compile(r'ttg\.target"? = "hip')),
    ("Blackwell target", re.compile(r'ttg\.target"? = "cuda:1[0-9]{2}"')),
]

REASONS = ["crash", "unknown pass", "parse error", "verifier", "diagnostics", "pass error",
           "CHECK mismatch"]
SHORT = {"crash": "crash", "unknown pass": "unk.pass", "parse error": "parse", "verifier": "verif",
         "diagnostics": "diag", "pass error": "passerr", "CHECK mismatch": "CHECK"}

UNKNOWN_FLAG = re.compile(r"Unknown command line argument '([^']*)'|"
                          r"'([^']*)' does not refer to a registered pass|"
                          r"Cannot find option named '([^']*)'|"
                          r"for the .* option: Cannot find option named '([^']*)'")


def run_lines(text):
    """The RUN commands of a file, continuation lines joined."""
    commands, current = [], None
    for line in text.split("\n"):
        m = re.match(r"^\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            if current is not None:
                commands.append(current)
                current = None
            continue
        body = m.group(1).rstrip()
        current = (current or "") + (" " if current else "") + body.rstrip("\\").strip()
        if not body.endswith("\\"):
            commands.append(current)
            current = None
    if current is not None:
        commands.append(current)
    return commands


def split_chunks(text):
    """(first line, text) of each `// -----` chunk; the text keeps the file's line
    numbers (other chunks become blank lines) so @LINE and diagnostics agree."""
    lines = text.split("\n")
    chunks, start = [], 0
    for i, line in enumerate(lines + ["// -----"]):
        if re.match(r"^\s*// -----", line):
            body = [""] * start + lines[start:i] + [""] * (len(lines) - i)
            chunks.append((start + 1, "\n".join(body)))
            start = i + 1
    return chunks


def check_prefixes(command):
    """Prefixes the FileCheck of a RUN line looks for (None: no FileCheck)."""
    if "FileCheck" not in command:
        return None
    prefixes = []
    for m in re.finditer(r"--?check-prefix(?:es)?[= ]([A-Za-z0-9_,-]+)", command):
        prefixes += m.group(1).split(",")
    return prefixes or ["CHECK"]


def has_directive(text, prefixes):
    pattern = (r"(?<![\w-])(?:%s)(?:-(?:LABEL|NEXT|NOT|DAG|SAME|EMPTY|COUNT-\d+))?:"
               % "|".join(re.escape(p) for p in prefixes))
    return re.search(pattern, text) is not None


def skip_reason(command):
    for name, rule in SKIP_RULES:
        if rule.search(command):
            return name
    return None


def opt_args(command):
    """The arguments of the triton-opt invocation of a RUN line."""
    m = re.search(r"triton-opt\s+([^|]*)", command)
    args = m.group(1) if m else ""
    # Redirections and the output file are the RUN line's business, not the case's.
    return re.sub(r"\s(?:2>&1|2>\s*/dev/null|-o\s+\S+)", " ", " " + args).strip()


class Case:
    def __init__(self, rel, run_index, command, chunk_line, text, split):
        self.rel, self.run_index, self.command = rel, run_index, command
        self.chunk_line, self.text, self.split = chunk_line, text, split
        self.status, self.detail = None, ""

    @property
    def name(self):
        where = f" chunk@{self.chunk_line}" if self.split else ""
        return f"{self.rel} RUN#{self.run_index + 1}{where}"


def shell(command, env, timeout=120):
    try:
        proc = subprocess.run(["bash", "-c", "set -o pipefail; " + command], env=env,
                              capture_output=True, text=True, timeout=timeout)
        return proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        return -9, "", "timeout"


def crashed(rc, err):
    return rc < 0 or rc >= 128 or "LLVM ERROR" in err or "PLEASE submit a bug report" in err \
        or "Stack dump" in err or "panicked" in err


def first_error(err):
    err = re.sub(r"/\S*/(?:case|parse)-\d+\.mlir:", "", err)
    for line in err.split("\n"):
        if "error" in line.lower():
            return line.strip()[:200]
    return err.strip().split("\n")[0][:200] if err.strip() else ""


def run_case(case, workdir, env):
    path = os.path.join(workdir, f"case-{id(case)}.mlir")
    with open(path, "w") as f:
        f.write(case.text)
    command = case.command.replace("%s", path).replace("%PYTHON", sys.executable)
    prefixes = check_prefixes(command)
    if case.split and prefixes is not None and not has_directive(case.text, prefixes):
        # A chunk with no CHECK lines of its own: lit only needs the command to succeed.
        command = re.sub(r"FileCheck[^|]*", "cat > /dev/null ", command)
    rc, _, err = shell(command, env)
    if rc == 0:
        case.status = "pass"
        os.unlink(path)
        return case
    args = opt_args(case.command)
    unregistered = "--allow-unregistered-dialect" if "allow-unregistered-dialect" in args else ""
    expects_diagnostics = "verify-diagnostics" in args
    opt_rc, _, opt_err = shell(f"triton-opt {args.replace('%s', path)} -o /dev/null", env)
    unknown = [next(g for g in m.groups() if g) for m in UNKNOWN_FLAG.finditer(opt_err)]
    parse_rc, _, parse_err = shell(
        f"triton-opt {unregistered} --mlir-very-unsafe-disable-verifier-on-parsing {path} -o /dev/null", env)
    verify_rc, _, verify_err = shell(f"triton-opt {unregistered} {path} -o /dev/null", env)
    if crashed(opt_rc, opt_err) or crashed(parse_rc, parse_err) or crashed(verify_rc, verify_err):
        case.status = "crash"
        case.detail = first_error(opt_err + parse_err + verify_err)
    elif unknown:
        case.status, case.detail = "unknown pass", ", ".join(sorted(set(unknown)))
    elif parse_rc != 0 and not expects_diagnostics:
        case.status, case.detail = "parse error", first_error(parse_err)
    elif verify_rc != 0 and not expects_diagnostics:
        case.status, case.detail = "verifier", first_error(verify_err)
    elif expects_diagnostics and opt_rc != 0:
        case.status, case.detail = "diagnostics", first_error(opt_err)
    elif opt_rc != 0:
        case.status, case.detail = "pass error", first_error(opt_err)
    else:
        case.status, case.detail = "CHECK mismatch", first_error(err)
    os.unlink(path)
    return case


def test_files(selected):
    files = []
    for root, dirs, names in os.walk(UPSTREAM):
        dirs[:] = sorted(d for d in dirs if d not in EXCLUDED_DIRS)
        for name in sorted(names):
            if name.endswith(".mlir"):
                files.append(os.path.relpath(os.path.join(root, name), UPSTREAM))
    if selected:
        files = [f for f in files if f in selected]
    return sorted(files)


def collect(files):
    cases, skipped = [], []
    for rel in files:
        text = open(os.path.join(UPSTREAM, rel)).read()
        for index, command in enumerate(run_lines(text)):
            reason = skip_reason(command)
            if reason:
                skipped.append((rel, index, reason, None))
                continue
            split = "split-input-file" in opt_args(command)
            for line, chunk in split_chunks(text) if split else [(1, text)]:
                if not chunk.strip():
                    continue
                reason = next((name for name, rule in CHUNK_SKIP_RULES if rule.search(chunk)), None)
                if reason:
                    skipped.append((rel, index, reason, line if split else None))
                else:
                    cases.append(Case(rel, index, command, line, chunk, split))
    return cases, skipped


def tool_env(bindir):
    os.symlink(os.path.abspath(TT_OPT), os.path.join(bindir, "triton-opt"))
    env = dict(os.environ)
    env["PATH"] = f"{bindir}:{LLVM_BIN}:{env.get('PATH', '')}"
    # As upstream's lit.cfg.py; per-chunk checking may leave a prefix unused.
    env["FILECHECK_OPTS"] = "--enable-var-scope --allow-unused-prefixes"
    return env


def print_table(cases, skipped):
    per_file = collections.OrderedDict()
    for c in cases:
        per_file.setdefault(c.rel, collections.Counter())[c.status] += 1
    header = f"{'file':58} {'cases':>5} {'pass':>5} " + " ".join(f"{SHORT[r]:>8}" for r in REASONS)
    print(header)
    print("-" * len(header))
    totals, per_dir = collections.Counter(), collections.OrderedDict()
    for rel, counts in per_file.items():
        n = sum(counts.values())
        print(f"{rel:58} {n:5} {counts['pass']:5} " + " ".join(f"{counts[r]:8}" for r in REASONS))
        totals.update(counts)
        d = per_dir.setdefault(rel.split("/")[0], collections.Counter())
        d.update(counts)
    print("-" * len(header))
    for d, counts in per_dir.items():
        n = sum(counts.values())
        print(f"{d + '/':58} {n:5} {counts['pass']:5} " + " ".join(f"{counts[r]:8}" for r in REASONS))
    n = sum(totals.values())
    print(f"{'TOTAL':58} {n:5} {totals['pass']:5} " + " ".join(f"{totals[r]:8}" for r in REASONS))
    if skipped:
        runs = [s for s in skipped if s[3] is None]
        chunks = collections.Counter((rel, index, reason) for rel, index, reason, line in skipped
                                     if line is not None)
        print(f"\nskipped, not counted: {len(runs)} RUN lines (Blackwell-only passes or targets, "
              f"AMD) and {sum(chunks.values())} chunks (a module for a Blackwell or AMD target):")
        for rel, index, reason, _ in runs:
            print(f"  {rel} RUN#{index + 1}: {reason}")
        for (rel, index, reason), count in chunks.items():
            print(f"  {rel} RUN#{index + 1}: {count} chunks, {reason}")
    return totals["pass"], n


UPSTREAM_PARSER = r"""
import sys
from triton._C.libtriton import ir, nvidia
ctx = ir.context()
ir.load_dialects(ctx)
nvidia.load_dialects(ctx)
for path in sys.argv[1:]:
    try:
        ir.parse_mlir_module(path, ctx)
        ok = 1
    except RuntimeError:
        ok = 0
    sys.stdout.write(f"{ok} {path}\n")
    sys.stdout.flush()
"""


def upstream_reads(paths):
    """{path: True/False}: whether upstream's 3.6 parser (and verifier) reads it.
    One child process for many files; an abort only loses the file it was on."""
    result, todo = {}, list(paths)
    while todo:
        proc = subprocess.run([sys.executable, "-c", UPSTREAM_PARSER] + todo,
                              capture_output=True, text=True)
        for line in proc.stdout.split("\n"):
            if line:
                ok, path = line.split(" ", 1)
                result[path] = ok == "1"
        todo = [p for p in todo if p not in result]
        if todo:  # the first one left aborted the process
            result[todo.pop(0)] = False
    return result


def parse_report(files, workdir, env, verbose):
    chunks = []
    for rel in files:
        text = open(os.path.join(UPSTREAM, rel)).read()
        commands = run_lines(text)
        split = any("split-input-file" in opt_args(c) for c in commands)
        unregistered = any("allow-unregistered-dialect" in opt_args(c) for c in commands)
        for line, chunk in (split_chunks(text) if split else [(1, text)]):
            if not chunk.strip():
                continue
            path = os.path.join(workdir, f"parse-{len(chunks)}.mlir")
            with open(path, "w") as f:
                f.write(chunk)
            chunks.append((rel, line, path, unregistered))
    reads = upstream_reads([c[2] for c in chunks])
    fails = collections.Counter()
    read_by_upstream, missing = 0, []
    for rel, line, path, unregistered in chunks:
        if not reads[path]:
            continue
        read_by_upstream += 1
        rc, _, err = shell(f"triton-opt {'--allow-unregistered-dialect' if unregistered else ''} "
                           f"{path} -o /dev/null", env)
        if rc != 0:
            missing.append((rel, line, first_error(err)))
            fails[rel.split("/")[0]] += 1
    for rel, line, why in missing:
        print(f"{rel}:{line}: {why}")
    print(f"\ninput chunks: {len(chunks)}; upstream's parser reads {read_by_upstream}; "
          f"tt-opt reads {read_by_upstream - len(missing)} of those "
          f"({len(missing)} not: " + ", ".join(f"{d} {n}" for d, n in sorted(fails.items())) + ")")
    return 0 if not missing else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="files relative to the upstream test folder")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every failing case")
    parser.add_argument("--floor", help="file with the least number of cases that must pass")
    parser.add_argument("--parse", action="store_true",
                        help="compare which input chunks upstream's parser and tt-opt read")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    if not os.path.isdir(UPSTREAM):
        print(f"upstream lit tests: skipped ({UPSTREAM} is absent)")
        return 0
    if not os.path.exists(TT_OPT):
        sys.exit(f"tt-opt not found at {TT_OPT}; run `cargo build -p tt-opt`")
    files = test_files(set(args.files))
    workdir = tempfile.mkdtemp(prefix="tritium-upstream-lit-")
    bindir = os.path.join(workdir, "bin")
    os.mkdir(bindir)
    env = tool_env(bindir)
    try:
        if args.parse:
            return parse_report(files, workdir, env, args.verbose)
        cases, skipped = collect(files)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            list(pool.map(lambda c: run_case(c, workdir, env), cases))
        if args.verbose:
            for c in cases:
                if c.status != "pass":
                    print(f"{c.name}: {c.status}: {c.detail}")
            print()
        passed, total = print_table(cases, skipped)
        print(f"\nupstream lit: {passed} of {total} cases pass")
        if args.floor:
            floor = int(open(args.floor).read().split()[0])
            if passed < floor:
                print(f"FAIL: {passed} cases pass, below the committed floor of {floor} ({args.floor})")
                return 1
            print(f"floor {floor}: ok" + (f" (raise it to {passed})" if passed > floor else ""))
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
