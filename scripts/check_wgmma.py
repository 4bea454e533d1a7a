#!/usr/bin/env python3
"""Compares Tritium's wgmma lowering with upstream Triton 3.6's PTX.

For each kernel (by default the four sm_90 corpus kernels that use
ttng.warp_group_dot), compiles the `ttgir` stage of the corpus with
`tritium compile`, then compares with upstream's PTX of the same TTGIR
(CORPUS/cuda90/KERNEL/kernel.ptx). An argument that is a file is a TTGIR
module instead: upstream's PTX for it is made with triton.compile (Triton
3.6 installed for --python). What is compared:

- the sequence of wgmma-related instructions (fence.proxy.async, wgmma.fence,
  wgmma.mma_async with its shape and types, commit_group, wait_group N);
- for each wgmma.mma_async: the constant part of its A and B shared-memory
  descriptors (traced back through the `or`/`add` that adds the buffer's
  address), decoded into fields; scale-d (literal 0, or a predicate);
  the immediate arguments (scales, transpositions); how many registers A
  takes; and which instructions accumulate into the same registers;
- with --ptxas: that ptxas accepts the PTX for sm_90a and the SASS has
  HGMMA (IGMMA for i8, QGMMA for fp8).

--variants DIR writes small TTGIR kernels (one wgmma dot each) covering
f16/bf16/tf32/i8/fp8, swizzles 0/32/64/128, transposed A and B (also through
memdesc_trans), A in registers, n8 to n256, several warpgroups along M or N,
M/N repetitions, zero/loaded accumulators, useC, synchronous dots and fp8
partial accumulation, and checks them all (with upstream's PTX from
triton.compile); two of them use layouts upstream rejects too.

Exit status 1 on any difference.

    python3 scripts/check_wgmma.py [--tritium target/debug/tritium]
        [--corpus /work/shared/corpus] [--ptxas PATH] [--python PYTHON]
        [--variants DIR] [KERNEL | FILE.ttgir ...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = ["matmul_naive_f16", "matmul_grouped_f16", "attn_fwd_d64", "attn_fwd_causal_d128"]


def ttgir_of(kernel):
    with open(os.path.join(ROOT, "test/fixtures/corpus/manifest.tsv")) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if parts[:3] == ["cuda90", kernel, "ttgir"]:
                return os.path.join(ROOT, "test/fixtures/corpus/ir", parts[3] + ".mlir")
    raise SystemExit(f"no cuda90 ttgir for {kernel} in the manifest")


UPSTREAM_COMPILE = """
import sys, triton
from triton.backends.compiler import GPUTarget
kernel = triton.compile(sys.argv[1], target=GPUTarget("cuda", 90, 32))
open(sys.argv[2], "w").write(kernel.asm["ptx"])
"""


# ----- TTGIR variants ---------------------------------------------------------


def pointers(name, ptr, rows, cols, element, layout, col_major=False):
    """Lines computing a rows x cols tensor of pointers `ptr + offset` (row- or
    column-major offsets) in `layout`; returns (lines, value, type)."""
    s1 = f"#ttg.slice<{{dim = 1, parent = {layout}}}>"
    s0 = f"#ttg.slice<{{dim = 0, parent = {layout}}}>"

    def t(shape, e):
        return f"tensor<{shape}x{e}, {layout}>"

    full, ptr_t = f"{rows}x{cols}", t(f"{rows}x{cols}", f"!tt.ptr<{element}>")
    lines = [
        f"%{name}_r = tt.make_range {{end = {rows} : i32, start = 0 : i32}} : tensor<{rows}xi32, {s1}>",
        f"%{name}_c = tt.make_range {{end = {cols} : i32, start = 0 : i32}} : tensor<{cols}xi32, {s0}>",
        f"%{name}_r2 = tt.expand_dims %{name}_r {{axis = 1 : i32}} : tensor<{rows}xi32, {s1}> -> {t(f'{rows}x1', 'i32')}",
        f"%{name}_c2 = tt.expand_dims %{name}_c {{axis = 0 : i32}} : tensor<{cols}xi32, {s0}> -> {t(f'1x{cols}', 'i32')}",
    ]
    if col_major:
        lines += [
            f"%{name}_ld = arith.constant dense<{rows}> : {t(f'1x{cols}', 'i32')}",
            f"%{name}_co = arith.muli %{name}_c2, %{name}_ld : {t(f'1x{cols}', 'i32')}",
            f"%{name}_rb = tt.broadcast %{name}_r2 : {t(f'{rows}x1', 'i32')} -> {t(full, 'i32')}",
            f"%{name}_cb = tt.broadcast %{name}_co : {t(f'1x{cols}', 'i32')} -> {t(full, 'i32')}",
        ]
    else:
        lines += [
            f"%{name}_ld = arith.constant dense<{cols}> : {t(f'{rows}x1', 'i32')}",
            f"%{name}_ro = arith.muli %{name}_r2, %{name}_ld : {t(f'{rows}x1', 'i32')}",
            f"%{name}_rb = tt.broadcast %{name}_ro : {t(f'{rows}x1', 'i32')} -> {t(full, 'i32')}",
            f"%{name}_cb = tt.broadcast %{name}_c2 : {t(f'1x{cols}', 'i32')} -> {t(full, 'i32')}",
        ]
    lines += [
        f"%{name}_o = arith.addi %{name}_rb, %{name}_cb : {t(full, 'i32')}",
        f"%{name}_p0 = tt.splat {ptr} : !tt.ptr<{element}> -> {ptr_t}",
        f"%{name}_p = tt.addptr %{name}_p0, %{name}_o : {ptr_t}, {t(full, 'i32')}",
    ]
    return lines, f"%{name}_p", ptr_t


def variant_kernel(dtype="f16", M=64, N=64, K=64, warps=(4, 1), instr_n=None, sa=(128, False), sb=(128, False),
           a_regs=False, b_view=False, is_async=True, acc="zero", use_c=False, imprecise=None, copy=False,
           subslice=False):
    """One D = A x B + C on a warpgroup dot: A (M x K) and B (K x N) are
    loaded and stored into nvmma_shared buffers (swizzle, transposed) `sa`
    and `sb` (or cp.async'ed into them with `copy`); A may instead be
    converted to registers (`a_regs`), and B written transposed then viewed
    through ttg.memdesc_trans (`b_view`). The accumulator is a zero constant
    or loaded (`acc`), `use_c` adds a useC operand. With `subslice`, A and B
    are the second K halves (ttg.memdesc_subslice) of buffers twice as deep."""
    num_warps = warps[0] * warps[1]
    instr_n = instr_n or min(N // warps[1], 256)
    bits = {"f16": 16, "bf16": 16, "f32": 32, "i8": 8, "f8E4M3FN": 8, "f8E5M2": 8}[dtype]
    acc_t = "i32" if dtype == "i8" else "f32"
    fp8 = dtype.startswith("f8")
    # What is loaded from global memory: 8-bit types go through i32 (loads)
    # or i8 pointers (copies), which the rest of the lowering handles.
    loaded = {"i8": "i32", "f8E4M3FN": "i32", "f8E5M2": "i32"}.get(dtype, dtype)
    argument = ("i8" if fp8 else dtype) if copy else loaded
    head = [
        f"#blocked = #ttg.blocked<{{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [{num_warps}, 1], order = [1, 0]}}>",
        f"#blockedT = #ttg.blocked<{{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, {num_warps}], order = [0, 1]}}>",
        f"#mma = #ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [{warps[0]}, {warps[1]}], instrShape = [16, {instr_n}, {256 // bits}]}}>",
        f"#sa = #ttg.nvmma_shared<{{swizzlingByteWidth = {sa[0]}, transposed = {str(sa[1]).lower()}, elementBitWidth = {bits}}}>",
        f"#sb = #ttg.nvmma_shared<{{swizzlingByteWidth = {sb[0]}, transposed = {str(sb[1]).lower()}, elementBitWidth = {bits}}}>",
        f"#sbt = #ttg.nvmma_shared<{{swizzlingByteWidth = {sb[0]}, transposed = {str(not sb[1]).lower()}, elementBitWidth = {bits}}}>",
        "#smem = #ttg.shared_memory",
        f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {num_warps} : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}} {{',
        f"  tt.func public @k(%a: !tt.ptr<{argument}> {{tt.divisibility = 16 : i32}}, %b: !tt.ptr<{argument}> {{tt.divisibility = 16 : i32}}, "
        f"%c: !tt.ptr<{acc_t}> {{tt.divisibility = 16 : i32}}, %flag: i32) attributes {{noinline = false}} {{",
    ]
    body = []

    def copy_into(name, ptr, rows, cols, encoding, col_major=False):
        layout = "#blockedT" if col_major else "#blocked"
        lines, p, pt = pointers(name, ptr, rows, cols, argument, layout, col_major)
        body.extend(lines)
        if fp8:
            body.append(f"%{name}_pf = tt.bitcast {p} : {pt} -> tensor<{rows}x{cols}x!tt.ptr<{dtype}>, {layout}>")
            p, pt = f"%{name}_pf", f"tensor<{rows}x{cols}x!tt.ptr<{dtype}>, {layout}>"
        md = f"{rows}x{cols}x{dtype}, {encoding}, #smem, mutable"
        body.append(f"%{name}_s = ttg.local_alloc : () -> !ttg.memdesc<{md}>")
        body.append(f"%{name}_t = ttg.async_copy_global_to_local {p}, %{name}_s : {pt} -> <{md}>")
        body.append(f"%{name}_g = ttg.async_commit_group tokens %{name}_t")
        body.append(f"%{name}_w = ttg.async_wait %{name}_g {{num = 0 : i32}}")
        return f"%{name}_s", f"!ttg.memdesc<{md}>"

    def load(name, ptr, rows, cols):
        lines, p, pt = pointers(name, ptr, rows, cols, loaded, "#blocked")
        body.extend(lines)
        body.append(f"%{name}_v0 = tt.load {p} : {pt}")
        if loaded == dtype:
            return f"%{name}_v0"
        tensor = lambda e: f"tensor<{rows}x{cols}x{e}, #blocked>"
        body.append(f"%{name}_v8 = arith.trunci %{name}_v0 : {tensor(loaded)} to {tensor('i8')}")
        if dtype == "i8":
            return f"%{name}_v8"
        body.append(f"%{name}_v = tt.bitcast %{name}_v8 : {tensor('i8')} -> {tensor(dtype)}")
        return f"%{name}_v"

    if copy:
        a_op, a_ty = copy_into("a", "%a", M, K, "#sa")
        b_op, b_ty = copy_into("b", "%b", K, N, "#sb", col_major=sb[1])
    elif subslice:
        va = load("a2", "%a", M, 2 * K)
        b_op = "%sb"
        body.append(f"%sa2 = ttg.local_alloc {va} : (tensor<{M}x{2 * K}x{dtype}, #blocked>) -> !ttg.memdesc<{M}x{2 * K}x{dtype}, #sa, #smem>")
        a_op, a_ty = "%sa", f"!ttg.memdesc<{M}x{K}x{dtype}, #sa, #smem, {M}x{2 * K}>"
        body.append(f"%sa = ttg.memdesc_subslice %sa2[0, {K}] : !ttg.memdesc<{M}x{2 * K}x{dtype}, #sa, #smem> -> {a_ty}")
        vb = load("b2", "%b", 2 * K, N)
        body.append(f"%sb2 = ttg.local_alloc {vb} : (tensor<{2 * K}x{N}x{dtype}, #blocked>) -> !ttg.memdesc<{2 * K}x{N}x{dtype}, #sb, #smem>")
        b_ty = f"!ttg.memdesc<{K}x{N}x{dtype}, #sb, #smem, {2 * K}x{N}>"
        body.append(f"%sb = ttg.memdesc_subslice %sb2[{K}, 0] : !ttg.memdesc<{2 * K}x{N}x{dtype}, #sb, #smem> -> {b_ty}")
    else:
        va = load("a", "%a", M, K)
        b_op, b_ty = "%sb", f"!ttg.memdesc<{K}x{N}x{dtype}, #sb, #smem>"
        if b_view:
            vb = load("b", "%b", N, K)
            body.append(f"%sb0 = ttg.local_alloc {vb} : (tensor<{N}x{K}x{dtype}, #blocked>) -> !ttg.memdesc<{N}x{K}x{dtype}, #sbt, #smem>")
            body.append(f"%sb = ttg.memdesc_trans %sb0 {{order = array<i32: 1, 0>}} : !ttg.memdesc<{N}x{K}x{dtype}, #sbt, #smem> -> {b_ty}")
        else:
            vb = load("b", "%b", K, N)
            body.append(f"%sb = ttg.local_alloc {vb} : (tensor<{K}x{N}x{dtype}, #blocked>) -> {b_ty}")
        if a_regs:
            a_ty = f"tensor<{M}x{K}x{dtype}, #ttg.dot_op<{{opIdx = 0, parent = #mma, kWidth = 2}}>>"
            body.append(f"%ra = ttg.convert_layout {va} : tensor<{M}x{K}x{dtype}, #blocked> -> {a_ty}")
            a_op = "%ra"
        else:
            a_op, a_ty = "%sa", f"!ttg.memdesc<{M}x{K}x{dtype}, #sa, #smem>"
            body.append(f"%sa = ttg.local_alloc {va} : (tensor<{M}x{K}x{dtype}, #blocked>) -> {a_ty}")
    ct = f"tensor<{M}x{N}x{acc_t}, #mma>"
    lines, pc, pct = pointers("c", "%c", M, N, acc_t, "#mma")
    body.extend(lines)
    if acc == "zero":
        body.append(f"%acc = arith.constant dense<{'0' if acc_t == 'i32' else '0.000000e+00'}> : {ct}")
    else:
        body.append(f"%acc = tt.load {pc} : {pct}")
    body.append("ttng.fence_async_shared {bCluster = false}")
    use = ""
    if use_c:
        body.append("%c0 = arith.constant 0 : i32")
        body.append("%use = arith.cmpi ne, %flag, %c0 : i32")
        use = ", %use"
    attrs = ["inputPrecision = 0 : i32"]
    if imprecise is not None:
        attrs.append(f"maxNumImpreciseAcc = {imprecise} : i32")
    if is_async:
        attrs.append("isAsync = true")
    body.append(f"%d0 = ttng.warp_group_dot {a_op}, {b_op}, %acc{use} {{{', '.join(attrs)}}} : {a_ty} * {b_ty} -> {ct}")
    result = "%d0"
    if is_async:
        body.append(f"%d:3 = ttng.warp_group_dot_wait %d0, {a_op}, {b_op} {{pendings = 0 : i32}} : {ct}, {a_ty}, {b_ty}")
        result = "%d#0"
    body.append(f"tt.store {pc}, {result} : {pct}")
    body.append("tt.return")
    return "\n".join(head + ["    " + line for line in body] + ["  }", "}", ""])


VARIANTS = {
    "f16_basic": dict(),
    "f16_sync": dict(is_async=False),
    "f16_acc_usec": dict(acc="load", use_c=True),
    "bf16_acc": dict(dtype="bf16", acc="load"),
    "f16_bT": dict(sb=(128, True)),
    "f16_bT_view": dict(b_view=True),
    "f16_aT": dict(sa=(128, True)),
    "f16_sw32": dict(sa=(32, False), sb=(32, False), K=16, N=16),
    "f16_sw64": dict(sa=(64, False), sb=(64, False), K=32, N=32),
    "f16_mixed": dict(sa=(64, False), sb=(64, True), K=32),
    "f16_n8_sw0": dict(N=8, K=16, sa=(32, False), sb=(0, False)),
    "f16_n8_sw0_areg": dict(N=8, K=32, a_regs=True, sb=(0, False)),
    "f16_n128_8w": dict(M=128, N=128, warps=(8, 1)),
    "f16_4x2": dict(N=128, warps=(4, 2)),
    "f16_reps": dict(M=128, N=128, instr_n=64),
    "f16_n256": dict(N=256, K=16, sa=(32, False)),
    "f16_areg": dict(a_regs=True, acc="load", K=32),
    "f16_areg_8w": dict(a_regs=True, M=128, warps=(8, 1)),
    "f16_copy_8w_reps": dict(M=256, N=128, warps=(8, 1), instr_n=64, copy=True),
    "bf16_copy_bT": dict(dtype="bf16", sb=(128, True), copy=True),
    "f16_subslice": dict(subslice=True),
    "f16_subslice_bT": dict(subslice=True, sb=(128, True), K=64),
    "tf32": dict(dtype="f32", sb=(128, True), K=32),
    "i8": dict(dtype="i8", sb=(128, True), K=128),
    "e4m3": dict(dtype="f8E4M3FN", sb=(128, True), K=128, imprecise=1 << 30, copy=True),
    "e5m2_partial": dict(dtype="f8E5M2", sb=(128, True), K=128, imprecise=64, acc="load", copy=True),
    # Row-major buffers without swizzling are not wgmma's core matrices:
    # upstream fails ("Failed to find a valid layout"), Tritium must say so.
    "f16_sw0_rejected": dict(sa=(0, False), sb=(0, False), K=32),
    "f16_sw0_T_rejected": dict(sa=(0, True), sb=(0, True)),
}


def decode(descriptor):
    d = descriptor & (1 << 64) - 1
    mode = {0: "none", 1: "128B", 2: "64B", 3: "32B"}[d >> 62 & 3]
    return (f"start+{d & 0x3FFF:#x} lbo={(d >> 16 & 0x3FFF) * 16}B sbo={(d >> 32 & 0x3FFF) * 16}B "
            f"base_offset={d >> 49 & 7} swizzle={mode}")


def split_operands(text):
    """Top-level comma-separated operands (braces kept together)."""
    out, depth, current = [], 0, ""
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        out.append(current.strip())
    return out


def strip_comment(line):
    return line.split("//")[0].strip()


def definitions(lines, upto, register):
    """The last instruction before line `upto` that writes `register`."""
    pattern = re.compile(r"^\s*(?:@%p\d+\s+)?([\w.]+)\s+" + re.escape(register) + r"\s*,\s*(.*);")
    for i in range(upto - 1, -1, -1):
        m = pattern.match(strip_comment(lines[i]) + ("" if strip_comment(lines[i]).endswith(";") else ";"))
        if m:
            return m.group(1), split_operands(m.group(2).rstrip(";"))
    return None, None


def descriptor_constant(lines, upto, register):
    op, args = definitions(lines, upto, register)
    if op is None:
        return ("unknown", register)
    if op in ("or.b64", "add.s64") and len(args) == 2:
        for a in args:
            if re.fullmatch(r"-?\d+", a):
                return ("const", int(a) & (1 << 64) - 1)
    if op.startswith("mov") and re.fullmatch(r"-?\d+", args[0]):
        return ("const", int(args[0]) & (1 << 64) - 1)
    return ("base", 0)  # the buffer's address with no constant added


def predicate(lines, upto, register):
    op, args = definitions(lines, upto, register)
    if op == "mov.pred" and args and args[0] in ("-1", "1"):
        return "true"
    if op == "mov.pred" and args and args[0] == "0":
        return "false"
    return "runtime"


def events(path):
    with open(path) as f:
        lines = f.read().splitlines()
    out = []
    for i, raw in enumerate(lines):
        line = strip_comment(raw)
        if line.startswith("fence.proxy.async"):
            out.append(("fence.proxy.async", line.rstrip(";")))
        elif line.startswith("wgmma.fence"):
            out.append(("wgmma.fence",))
        elif line.startswith("wgmma.commit_group"):
            out.append(("commit",))
        elif line.startswith("wgmma.wait_group"):
            out.append(("wait", line.split()[-1].rstrip(";")))
        elif line.startswith("wgmma.mma_async"):
            mnemonic, rest = line.split(None, 1)
            ops = split_operands(rest.rstrip(";"))
            d = ops[0]
            i_op = 1
            a_regs = 0
            if ops[1].startswith("{"):
                a = ("registers", len(split_operands(ops[1][1:-1])))
                a_regs = a[1]
            else:
                a = descriptor_constant(lines, i, ops[1])
            b = descriptor_constant(lines, i, ops[2])
            scale = ops[3]
            scale = "0" if scale == "0" else predicate(lines, i, scale)
            immediates = tuple(ops[4:])
            out.append(("mma", mnemonic, len(split_operands(d[1:-1])), a, b, scale, immediates, d, a_regs))
    return out


def normalise(evs):
    """Replaces the accumulator register lists by chain numbers."""
    chains, result = {}, []
    for e in evs:
        if e[0] == "mma":
            chain = chains.setdefault(e[7], len(chains))
            result.append(e[:7] + (f"chain{chain}",))
        else:
            result.append(e)
    return result


def show(e):
    if e[0] != "mma":
        return " ".join(e)
    _, mnemonic, nd, a, b, scale, imm, chain = e
    a_text = f"A regs x{a[1]}" if a[0] == "registers" else f"A {decode(a[1]) if a[0] == 'const' else a[0]}"
    b_text = f"B {decode(b[1]) if b[0] == 'const' else b[0]}"
    return f"{mnemonic} D x{nd} ({chain}); {a_text}; {b_text}; scale-d {scale}; imm {','.join(imm)}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kernels", nargs="*", default=KERNELS)
    parser.add_argument("--tritium", default=os.path.join(ROOT, "target/debug/tritium"))
    parser.add_argument("--corpus", default="/work/shared/corpus")
    parser.add_argument("--ptxas", default=None, help="ptxas to assemble ours with (nvdisasm next to it)")
    parser.add_argument("--python", default="python3", help="a Python with triton==3.6.0, for TTGIR files")
    parser.add_argument("--variants", metavar="DIR", help="write the TTGIR variants to DIR and check them")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every wgmma instruction")
    args = parser.parse_args()
    if args.variants:
        os.makedirs(args.variants, exist_ok=True)
        args.kernels = []
        for name, options in VARIANTS.items():
            path = os.path.join(args.variants, name + ".ttgir")
            with open(path, "w") as f:
                f.write(variant_kernel(**options))
            args.kernels.append(path)
    failed = False
    for kernel in args.kernels:
        with tempfile.TemporaryDirectory() as out:
            if os.path.isfile(kernel):
                source = kernel
                upstream = os.path.join(out, "upstream.ptx")
                run = subprocess.run([args.python, "-c", UPSTREAM_COMPILE, source, upstream], capture_output=True, text=True)
                if kernel.endswith("_rejected.ttgir"):
                    ours = subprocess.run([args.tritium, "compile", source, "-o", os.path.join(out, "ours")],
                                          capture_output=True, text=True)
                    both = run.returncode != 0 and ours.returncode == 1 and "wgmma descriptor" in ours.stderr
                    print(f"{kernel}: {'rejected by upstream and by Tritium, as expected' if both else 'NOT rejected by both'}")
                    failed |= not both
                    continue
                if run.returncode != 0:
                    print(f"{kernel}: upstream's triton.compile failed\n{run.stderr[-2000:]}")
                    failed = True
                    continue
            else:
                source = ttgir_of(kernel)
                upstream = os.path.join(args.corpus, "cuda90", kernel, "kernel.ptx")
            run = subprocess.run([args.tritium, "compile", source, "-o", os.path.join(out, "ours")], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{kernel}: tritium failed\n{run.stderr}")
                failed = True
                continue
            ours_dir = os.path.join(out, "ours")
            ours_path = [os.path.join(ours_dir, f) for f in os.listdir(ours_dir) if f.endswith(".ptx")][0]
            ours, theirs = normalise(events(ours_path)), normalise(events(upstream))
            same = ours == theirs
            print(f"{kernel}: {sum(e[0] == 'mma' for e in ours)} wgmma.mma_async, "
                  f"{'same stream and descriptors as upstream' if same else 'DIFFERENT from upstream'}")
            if args.verbose or not same:
                for i in range(max(len(ours), len(theirs))):
                    o = show(ours[i]) if i < len(ours) else "-"
                    t = show(theirs[i]) if i < len(theirs) else "-"
                    mark = "  " if o == t else "!!"
                    print(f"  {mark} ours:     {o}")
                    if o != t:
                        print(f"  {mark} upstream: {t}")
            failed |= not same
            if args.ptxas:
                cubin = os.path.join(out, "k.cubin")
                p = subprocess.run([args.ptxas, "-arch=sm_90a", ours_path, "-o", cubin], capture_output=True, text=True)
                if p.returncode != 0 or p.stderr.strip():
                    print(f"  ptxas: {p.stderr.strip() or 'failed'}")
                    failed |= p.returncode != 0
                if p.returncode == 0:
                    nvdisasm = os.path.join(os.path.dirname(args.ptxas), "nvdisasm")
                    sass = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True).stdout
                    hgmma = re.findall(r"[HIQ]GMMA\.\S+", sass)
                    print(f"  ptxas sm_90a: ok; SASS: {len(hgmma)} GMMA ({', '.join(sorted(set(hgmma)))})")
                    failed |= not hgmma
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
