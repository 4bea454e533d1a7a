#!/usr/bin/env python3
"""Permute each run of N consecutive cp.async inline-asm blocks of a PTX file (a run: cp.async
blocks and plain instructions, no commit/bar/label between them), hoisting the run's other
instructions before its copies, so only the copies' issue order changes."""
import re, sys
src, dst, n, perm = sys.argv[1], sys.argv[2], int(sys.argv[3]), [int(x) for x in sys.argv[4].split(",")]
lines = open(src).read().split("\n")
out, i, runs = [], 0, 0
def is_copy_start(k):
    return lines[k].strip() == "// begin inline asm" and k + 1 < len(lines) and "cp.async.cg.shared.global" in lines[k + 1]
while i < len(lines):
    if not is_copy_start(i):
        out.append(lines[i]); i += 1; continue
    # collect a run
    copies, others, j = [], [], i
    while j < len(lines):
        if is_copy_start(j):
            copies.append(lines[j:j + 3]); j += 3
        elif re.match(r"\s*(add|shl|selp|setp|mov|cvt|and|or|xor|sub|mul|mad|\.loc|//)", lines[j]) and "commit" not in lines[j]:
            others.append(lines[j]); j += 1
        else:
            break
    if len(copies) == n:
        runs += 1
        out.extend(others)
        for p in perm:
            out.extend(copies[p])
    else:  # leave as it was
        out.extend(lines[i:j])
    i = j
open(dst, "w").write("\n".join(out))
print(src, "runs permuted:", runs, file=sys.stderr)
