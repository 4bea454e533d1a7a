#!/usr/bin/env python3
"""Compare Tritium's tt/ttg/ttng syntax and verifiers with upstream Triton 3.6.

A dev tool, not run by CI. It needs the real Triton 3.6.0 Python package
(`pip install triton==3.6.0`; CPU-only is enough: only its MLIR parser and
printer are used) and a built tt-opt (`cargo build -p tt-opt`).

Run from the repository root:

    python3 test/upstream/compare.py            # every check, summary at the end
    python3 test/upstream/compare.py -v         # also print upstream's errors
    python3 test/upstream/compare.py FILE...    # only these test files

Environment: TT_OPT_DIR (default <repo>/target/debug) says where tt-opt is.

What it checks:

1. Round trips. Every round-trip test file (test/*/ops.mlir and
   test/TritonGPU/attributes.mlir), split on `// -----` lines if it has any,
   is parsed and printed by upstream (`ir.parse_mlir_module` then `str()`,
   which prints with debug info) and by
   `tt-opt --mlir-print-debuginfo --mlir-use-nameloc-as-prefix`; the two
   texts must be identical (trailing newlines aside). A difference means
   Tritium is wrong, unless it is listed in UPSTREAM_BUGS below.
2. Verifier tests. Every case of test/*/invalid.mlir (split on `// -----`)
   must be rejected by upstream's parser and verifier too, unless it is listed
   in STRICTER below (where Tritium rejects on purpose what upstream accepts).

Exit status: 0 when everything matches or is documented, 1 otherwise.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TT_OPT = os.path.join(os.environ.get("TT_OPT_DIR") or os.path.join(REPO, "target", "debug"),
                      "tt-opt")

ROUND_TRIP_FILES = [
    "test/Triton/ops.mlir",
    "test/TritonGPU/ops.mlir",
    "test/TritonGPU/attributes.mlir",
    "test/TritonNvidiaGPU/ops.mlir",
    "test/TritonNvidiaGPU/tensor-memory.mlir",
    "test/TritonGPU/amd-attributes.mlir",
    "test/TritonGPU/shared-linear.mlir",
    "test/TritonGPU/padded-shared.mlir",
    "test/TritonGPU/tti-ops.mlir",
    "test/TritonNvidiaGPU/nvws-ops.mlir",
    "test/TritonNvidiaGPU/nvg-ops.mlir",
]
INVALID_FILES = [
    "test/Triton/invalid.mlir",
    "test/TritonGPU/invalid.mlir",
    "test/TritonNvidiaGPU/invalid.mlir",
]

# Round-trip differences that are upstream's fault: (file, case index) -> why.
# None at present. Known upstream printer bug kept out of the tests: a
# `ttg.mask.return` of no values prints as `ttg.mask.return  :`, which neither
# upstream nor Tritium can parse back (Tritium prints it the same way).
UPSTREAM_BUGS = {}

# Invalid cases that upstream accepts and Tritium rejects on purpose:
# (file, substring of the case's expected error) -> why.
T, G, N = "test/Triton/invalid.mlir", "test/TritonGPU/invalid.mlir", "test/TritonNvidiaGPU/invalid.mlir"
STRICTER = {
    (T, "axis 2 is out of range for rank 2"):
        "upstream's tt.reduce verifier does not check the axis against the operand rank",
    (T, "does not match descriptor block 'tensor<64x64xf16>'"):
        "upstream's tt.descriptor_reduce has no verifier; Tritium checks it as descriptor_store",
    (G, "blocked layout must have rank at least 1"):
        "an empty blocked layout describes no tensor",
    (G, "nvidia_mma versionMajor must be 2"):
        "Tritium implements mma.sync (2) and wgmma (3) only; upstream still parses Volta's 1",
    (G, "wgmma (version 3) instrShape"):
        "upstream does not check instrShape; wgmma's N is a multiple of 8 up to 256",
    (G, "wgmma (version 3) layouts have rank 2"):
        "wgmma has no batched form",
    (G, "nvidia_mma warpsPerCTA must have 2 or 3 entries"):
        "an mma layout is 2-D (3-D batched)",
    (G, "vec, perPhase and maxPhase must be at least 1"):
        "0 would divide by zero in the swizzling formula",
    (G, "swizzlingByteWidth must be 0, 32, 64 or 128"):
        "the only swizzle modes of wgmma and TMA",
    (G, "elementBitWidth must be 4, 8, 16, 32 or 64"):
        "no other element width exists",
    (G, "cannot make immutable memory mutable"):
        "upstream does not check the mutability of memdesc_index views",
    (G, "does not match destination"):
        "upstream's async_copy_global_to_local does not compare source and destination shapes",
    (N, "element types of A and B must have the same bit width"):
        "as tt.dot requires; upstream's warp_group_dot verifier does not check it",
    (N, "TMA descriptors have rank 1 to 5"):
        "the hardware's limit (cuTensorMapEncode*)",
}

# Parses and prints one file with upstream Triton, in a child process so that
# an abort in upstream's C++ cannot take this script down.
UPSTREAM_SNIPPET = r"""
import sys
from triton._C.libtriton import ir, nvidia
ctx = ir.context()
ir.load_dialects(ctx)
nvidia.load_dialects(ctx)  # nvg and nvws
try:
    module = ir.parse_mlir_module(sys.argv[1], ctx)
except RuntimeError as e:
    sys.stderr.write(str(e) + "\n")
    sys.exit(1)
sys.stdout.write(str(module))
"""


def upstream(path):
    proc = subprocess.run([sys.executable, "-c", UPSTREAM_SNIPPET, path],
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def tritium(path):
    proc = subprocess.run([TT_OPT, "--mlir-print-debuginfo", "--mlir-use-nameloc-as-prefix", path],
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def split_cases(text):
    """The cases of a file split like --split-input-file does, with the line
    each starts at; blank lines keep every case's line numbers as in the file."""
    lines = text.split("\n")
    cases, current, start = [], [], 0
    for i, line in enumerate(lines):
        if re.match(r"^\s*// -----", line):
            cases.append((start, "\n".join(current)))
            current, start = [""] * (i + 1), i + 1
        else:
            current.append(line)
    cases.append((start, "\n".join(current)))
    return cases


def first_expected_error(case):
    m = re.search(r"expected-error\s*@?[^{]*\{\{(.*?)\}\}", case)
    return m.group(1) if m else "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="test files (default: all)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(TT_OPT):
        sys.exit(f"tt-opt not found at {TT_OPT}; run `cargo build -p tt-opt`")

    selected = [os.path.relpath(os.path.abspath(f), REPO) for f in args.files]
    def wanted(files):
        return [f for f in files if not selected or f in selected]

    problems, documented, crashes = [], [], []
    tmpdir = tempfile.mkdtemp(prefix="tritium-compare-")
    round_trip_cases = invalid_cases = 0

    for rel in wanted(ROUND_TRIP_FILES):
        text = open(os.path.join(REPO, rel)).read()
        for index, (start, case) in enumerate(split_cases(text)):
            if not case.strip():
                continue
            round_trip_cases += 1
            # Both tools read the same file, so the printed locations agree.
            path = os.path.join(tmpdir, f"{os.path.basename(os.path.dirname(rel))}-"
                                f"{os.path.basename(rel)[:-5]}-{index}.mlir")
            with open(path, "w") as f:
                f.write(case)
            up_rc, up_out, up_err = upstream(path)
            tr_rc, tr_out, tr_err = tritium(path)
            where = f"{rel} case {index} (line {start + 1})"
            if up_rc != 0 or tr_rc != 0:
                msg = f"{where}: upstream rc={up_rc}, tt-opt rc={tr_rc}\n{up_err}{tr_err}"
            elif up_out.rstrip("\n") != tr_out.rstrip("\n"):
                diff = "\n".join(difflib.unified_diff(
                    up_out.rstrip("\n").split("\n"), tr_out.rstrip("\n").split("\n"),
                    "upstream", "tt-opt", lineterm=""))
                msg = f"{where}: printed texts differ\n{diff}"
            else:
                continue
            if (rel, index) in UPSTREAM_BUGS:
                documented.append(f"{where}: {UPSTREAM_BUGS[(rel, index)]}")
            else:
                problems.append(msg)

    for rel in wanted(INVALID_FILES):
        text = open(os.path.join(REPO, rel)).read()
        for index, (start, case) in enumerate(split_cases(text)):
            if "expected-error" not in case:
                continue
            invalid_cases += 1
            path = os.path.join(tmpdir, f"invalid-{index}.mlir")
            with open(path, "w") as f:
                f.write(case)
            up_rc, _, up_err = upstream(path)
            expected = first_expected_error(case)
            where = f"{rel} case {index} (line {start + 1}, '{expected}')"
            # A signal or an LLVM ERROR is a crash, not a diagnostic: it rejects
            # the input too, but is worth knowing about.
            crashed = up_rc < 0 or "LLVM ERROR" in up_err
            if args.verbose:
                first = next((l for l in up_err.split("\n") if "error" in l.lower()), up_err.strip())
                verdict = ("CRASHES: " if crashed else "rejects: ") + first if up_rc else "ACCEPTS"
                print(f"{where}\n    upstream: {verdict}")
            if crashed:
                crashes.append(f"{where}: upstream "
                               + (f"dies of signal {-up_rc}" if up_rc < 0 else "aborts (LLVM ERROR)"))
            if up_rc != 0:
                continue
            why = next((v for (f, k), v in STRICTER.items() if f == rel and k in expected), None)
            if why:
                documented.append(f"{where}: upstream accepts; {why}")
            else:
                problems.append(f"{where}: upstream accepts it")

    for p in problems:
        print("MISMATCH " + p)
    for d in documented:
        print("documented: " + d)
    for c in crashes:
        print("rejected by a crash: " + c)
    print(f"\nround trips: {round_trip_cases} cases; invalid: {invalid_cases} cases; "
          f"{len(problems)} mismatches, {len(documented)} documented differences, "
          f"{len(crashes)} invalid cases upstream rejects by crashing")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
