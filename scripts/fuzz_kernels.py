#!/usr/bin/env python3
"""Random valid Triton kernels (RELIABILITY.md, "Fuzzing"): each seed gives one
`@triton.jit` kernel, written as a Python module, that upstream Triton 3.6's
frontend turns into TTIR. Kinds: element-wise (1-D and 2-D, broadcasting),
reductions, scans, dots (with or without a K loop), loops with loop-carried
tensors, masked loads, shape/view ops, atomics; random power-of-two shapes, dtypes (f16, bf16, f32, f64,
i8, i32, fp8 e4m3/e5m2), num_warps and num_stages.

The module holds the kernel and SPEC, what is needed to compile it
(signature, constexprs, options) and to run it (argument shapes and dtypes,
grid, which arguments are outputs): scripts/fuzz_differential.py compiles it
with upstream and Tritium, bench/fuzz_gpu.py runs it on a GPU under both.

    python3 scripts/fuzz_kernels.py SEED        # prints the module of SEED
"""
import random
import sys

FLOATS = ["fp16", "bf16", "fp32", "fp64"]
FP8 = ["fp8e4nv", "fp8e5"]
INTS = ["i8", "i32"]
TL = {"fp16": "tl.float16", "bf16": "tl.bfloat16", "fp32": "tl.float32", "fp64": "tl.float64",
      "i8": "tl.int8", "i32": "tl.int32", "fp8e4nv": "tl.float8e4nv", "fp8e5": "tl.float8e5"}


# Unit roundoff (half an ulp at 1) of each float dtype.
UNIT_ROUNDOFF = {"fp16": 2.0**-11, "bf16": 2.0**-8, "fp32": 2.0**-24, "fp64": 2.0**-53, "fp8e4nv": 2.0**-4,
                 "fp8e5": 2.0**-3}


def is_float(dtype):
    return dtype in FLOATS or dtype in FP8


class Kernel:
    """Builds one kernel: arguments, body lines, SPEC."""

    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.args = []          # (name, signature type, spec entry)
        self.constexprs = {}
        self.body = []
        self.values = 0
        # The floating-point accumulations whose order a compiler may choose (reductions, scans,
        # dots), summed up: the least precise dtype among them and the number of terms, chained
        # accumulations adding up (a sum of a broadcast sum carries the first one's error on).
        # bench/fuzz_gpu.py derives its tolerance from it.
        self.accumulation = None

    def pointer(self, dtype, numel, output=False):
        name = f"{'out' if output else 'in'}{len(self.args)}"
        self.args.append((name, "*" + dtype, {"name": name, "kind": "ptr", "dtype": dtype, "numel": numel,
                                              "output": output}))
        return name

    def scalar(self, dtype, value):
        name = f"s{len(self.args)}"
        self.args.append((name, dtype, {"name": name, "kind": "scalar", "dtype": dtype, "value": value}))
        return name

    def constexpr(self, name, value):
        self.constexprs[name] = value
        return name

    def line(self, text):
        self.body.append(text)

    def accumulate(self, dtype, terms, product=False):
        """Records a float accumulation of `terms` values in `dtype` (a sum, or with `product` a product)."""
        if not is_float(dtype) or terms < 2:
            return
        if self.accumulation is None:
            self.accumulation = {"dtype": dtype, "terms": 0, "product": False}
        acc = self.accumulation
        if UNIT_ROUNDOFF[dtype] > UNIT_ROUNDOFF[acc["dtype"]]:
            acc["dtype"] = dtype
        acc["terms"] += terms
        acc["product"] = acc["product"] or product

    def fresh(self, text):
        self.values += 1
        name = f"v{self.values}"
        self.line(f"{name} = {text}")
        return name

    def source(self):
        params = [a[0] for a in self.args] + [f"{c}: tl.constexpr" for c in self.constexprs]
        lines = ["import triton", "import triton.language as tl", "", "", "@triton.jit",
                 f"def {self.name}({', '.join(params)}):"]
        lines += ["    " + l for l in self.body]
        return "\n".join(lines) + "\n"


def load_value(k, ptr, dtype, offsets, mask):
    """A load; fp8 values become f16/f32 at once (Triton has no fp8 arithmetic)."""
    other = ", other=0" if mask and k.rng.random() < 0.7 else ""
    masked = f", mask={mask}{other}" if mask else ""
    value = k.fresh(f"tl.load({ptr} + {offsets}{masked})")
    if dtype in FP8:
        wide = k.rng.choice(["fp16", "fp32"])
        return k.fresh(f"{value}.to({TL[wide]})"), wide
    return value, dtype


def promoted(ta, tb):
    """The dtype Triton computes a binary op of `ta` and `tb` in (its type promotion)."""
    if ta == tb:
        return ta
    floats = [t for t in (ta, tb) if is_float(t)]
    if not floats:
        return "i32"
    if len(floats) == 1:
        return floats[0]
    return "fp64" if "fp64" in floats else "fp32"


def expression(k, leaves, depth):
    """A random expression over `leaves` [(value, dtype)], kept within the
    operations Triton allows for the dtypes it meets."""
    rng = k.rng
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(leaves)
    a, ta = expression(k, leaves, depth - 1)
    choice = rng.random()
    if choice < 0.45:
        b, tb = expression(k, leaves, depth - 1)
        floaty = is_float(ta) or is_float(tb)
        ops = ["+", "-", "*", "max", "min"] + (["/"] if floaty else ["&", "|", "^"])
        op = rng.choice(ops)
        if op in ("max", "min"):
            text = f"tl.{'maximum' if op == 'max' else 'minimum'}({a}, {b})"
        else:
            text = f"{a} {op} {b}"
        return k.fresh(text), promoted(ta, tb)
    if choice < 0.6:
        b, tb = expression(k, leaves, depth - 1)
        c, tc = expression(k, leaves, depth - 1)
        cmp = rng.choice(["<", ">", "<=", ">=", "==", "!="])
        return k.fresh(f"tl.where({a} {cmp} {b}, {a}, {c})"), promoted(ta, tc)
    if choice < 0.8 and is_float(ta):
        f32 = k.fresh(f"{a}.to(tl.float32)") if ta != "fp32" else a
        fn = rng.choice(["tl.exp({})", "tl.log(tl.abs({}) + 1.0)", "tl.sqrt(tl.abs({}))", "tl.sin({})",
                         "tl.cos({})", "tl.abs({})", "tl.sigmoid({})", "tl.fma({0}, {0}, 1.0)", "-{}",
                         "tl.exp2({} * 0.5)", "tl.rsqrt(tl.abs({}) + 1.0)"])
        return k.fresh(fn.format(f32)), "fp32"
    if choice < 0.8:
        op = rng.choice(["{} << 2", "{} >> 1", "-{}", "tl.abs({})", "{} * 3 + 1"])
        return k.fresh(op.format(a)), ta
    target = rng.choice(FLOATS + INTS)
    if target == "fp64" or ta == "fp64":
        target = rng.choice(["fp32", "fp64"])
    return k.fresh(f"{a}.to({TL[target]})"), target


def store_dtype(rng, computed, target):
    # fp8 stores on sm_80 too: upstream decides whether it accepts them.
    options = FLOATS + INTS + (FP8 if is_float(computed) else [])  # Triton has no int -> fp8 cast
    return computed if rng.random() < 0.5 else rng.choice(options)


def pick(rng, options, weights=None):
    return rng.choices(options, weights)[0]


def pow2(rng, low, high):
    return 1 << rng.randint(low.bit_length() - 1, high.bit_length() - 1)


def elementwise_1d(k, target):
    rng = k.rng
    block = pow2(rng, 16, 2048)
    programs = rng.choice([1, 2, 3])
    masked = rng.random() < 0.6
    n = block * programs - (rng.randint(1, block - 1) if masked else 0)
    k.constexpr("BLOCK", block)
    inputs = [rng.choice(FLOATS + INTS + FP8) for _ in range(rng.randint(1, 3))]
    pointers = [k.pointer(t, block * programs) for t in inputs]
    n_arg = k.scalar("i32", n)
    k.line("pid = tl.program_id(0)")
    k.line("offs = pid * BLOCK + tl.arange(0, BLOCK)")
    k.line(f"mask = offs < {n_arg}")
    leaves = [load_value(k, p, t, "offs", "mask" if masked else None) for p, t in zip(pointers, inputs)]
    value, dtype = expression(k, leaves, rng.randint(1, 4))
    out_t = store_dtype(rng, dtype, target)
    out = k.pointer(out_t, block * programs, output=True)
    k.line(f"tl.store({out} + offs, {value}.to({TL[out_t]}){', mask=mask' if masked else ''})")
    return [programs, 1, 1]


def tile_2d(k, rng, max_elements=8192):
    m = pow2(rng, 1, 128)
    n = pow2(rng, 1, max(1, min(256, max_elements // m)))
    if m * n < 16:
        n = 16
    return m, n


def elementwise_2d(k, target):
    rng = k.rng
    bm, bn = tile_2d(k, rng)
    k.constexpr("BM", bm)
    k.constexpr("BN", bn)
    grid_m = rng.choice([1, 2])
    rows, cols = bm * grid_m, bn
    masked = rng.random() < 0.5
    m_arg = k.scalar("i32", rows - (rng.randint(0, bm - 1) if masked else 0))
    k.line("pid = tl.program_id(0)")
    k.line("rm = pid * BM + tl.arange(0, BM)")
    k.line("rn = tl.arange(0, BN)")
    k.line(f"mask = (rm[:, None] < {m_arg}) & (rn[None, :] < BN)")
    leaves = []
    for _ in range(rng.randint(1, 3)):
        t = rng.choice(FLOATS + INTS + FP8)
        if rng.random() < 0.3:  # a row vector broadcast over the tile
            p = k.pointer(t, cols)
            v, vt = load_value(k, p, t, "rn", None)
            leaves.append((k.fresh(f"{v}[None, :]"), vt))
        else:
            p = k.pointer(t, rows * cols)
            leaves.append(load_value(k, p, t, f"rm[:, None] * {cols} + rn[None, :]", "mask" if masked else None))
    value, dtype = expression(k, leaves, rng.randint(1, 3))
    shape_op = rng.random()
    out_t = store_dtype(rng, dtype, target)
    out = k.pointer(out_t, rows * cols, output=True)
    offsets = f"rm[:, None] * {cols} + rn[None, :]"
    if shape_op < 0.15 and bm == bn and not masked:
        value = k.fresh(f"tl.trans({value})")
    k.line(f"tl.store({out} + {offsets}, {value}.to({TL[out_t]}){', mask=mask' if masked else ''})")
    return [grid_m, 1, 1]


def reduction(k, target):
    rng = k.rng
    bm, bn = tile_2d(k, rng)
    k.constexpr("BM", bm)
    k.constexpr("BN", bn)
    masked = rng.random() < 0.5
    m_arg = k.scalar("i32", bm - (rng.randint(0, bm - 1) if masked else 0))
    k.line("rm = tl.arange(0, BM)")
    k.line("rn = tl.arange(0, BN)")
    k.line(f"mask = (rm[:, None] < {m_arg}) & (rn[None, :] < BN)")
    t = rng.choice(FLOATS + INTS + FP8)
    p = k.pointer(t, bm * bn)
    leaf = load_value(k, p, t, f"rm[:, None] * BN + rn[None, :]", "mask" if masked else None)
    value, dtype = expression(k, [leaf], rng.randint(0, 2))
    axis = rng.choice([0, 1, None])
    fn = rng.choice(["tl.sum", "tl.max", "tl.min", "tl.argmax", "tl.argmin", "tl.xor_sum", "tl.reduce_or"])
    if fn == "tl.xor_sum" and is_float(dtype):
        fn = "tl.sum"
    if fn == "tl.reduce_or":
        fn = "tl.max"
    keep = rng.random() < 0.2 and axis is not None
    if fn == "tl.sum":
        k.accumulate(dtype, {0: bm, 1: bn, None: bm * bn}[axis])
    result = k.fresh(f"{fn}({value}, axis={axis}{', keep_dims=True' if keep else ''})")
    out_dtype = "i32" if fn in ("tl.argmax", "tl.argmin") else dtype
    out_t = store_dtype(rng, out_dtype, target)
    if axis is None:
        out = k.pointer(out_t, 1, output=True)
        k.line(f"tl.store({out}, {result}.to({TL[out_t]}))")
    else:
        length = bn if axis == 0 else bm
        index = "rn" if axis == 0 else "rm"
        out = k.pointer(out_t, length, output=True)
        if keep:
            result = k.fresh(f"tl.reshape({result}, ({'BN' if axis == 0 else 'BM'},))")
        k.line(f"tl.store({out} + {index}, {result}.to({TL[out_t]}))")
    return [1, 1, 1]


def scan(k, target):
    rng = k.rng
    bm, bn = tile_2d(k, rng, 4096)
    k.constexpr("BM", bm)
    k.constexpr("BN", bn)
    t = rng.choice(["fp32", "i32", "fp16", "i8", "bf16", "fp64"])
    p = k.pointer(t, bm * bn)
    k.line("rm = tl.arange(0, BM)")
    k.line("rn = tl.arange(0, BN)")
    k.line("offs = rm[:, None] * BN + rn[None, :]")
    value, dtype = load_value(k, p, t, "offs", None)
    axis = rng.choice([0, 1])
    fn = rng.choice(["tl.cumsum", "tl.cumprod"])
    reverse = ", reverse=True" if rng.random() < 0.3 else ""
    k.accumulate(dtype, bm if axis == 0 else bn, product=fn == "tl.cumprod")
    result = k.fresh(f"{fn}({value}, axis={axis}{reverse})")
    out_t = store_dtype(rng, dtype, target)
    out = k.pointer(out_t, bm * bn, output=True)
    k.line(f"tl.store({out} + offs, {result}.to({TL[out_t]}))")
    return [1, 1, 1]


DOT_TYPES = [("fp16", "fp32"), ("bf16", "fp32"), ("fp32", "fp32"), ("i8", "i32"), ("fp16", "fp16"),
             ("fp8e4nv", "fp32"), ("fp8e5", "fp32"), ("fp64", "fp64")]


def dot(k, target):
    rng = k.rng
    in_t, acc_t = rng.choice(DOT_TYPES)
    bm = pow2(rng, 16, 128)
    bn = pow2(rng, 16, 128)
    bk = pow2(rng, 16, 128 if in_t not in ("fp32", "fp64") else 64)
    if bm * bk + bk * bn > 16384:
        bk = 16
    k_iters = rng.choice([1, 1, 2, 4])
    k.constexpr("BM", bm)
    k.constexpr("BN", bn)
    k.constexpr("BK", bk)
    kk = bk * k_iters
    masked = rng.random() < 0.3
    a = k.pointer(in_t, bm * kk)
    b_transposed = rng.random() < 0.25
    b = k.pointer(in_t, kk * bn)
    k_arg = k.scalar("i32", kk - (rng.randint(1, bk - 1) if masked else 0))
    k.line("rm = tl.arange(0, BM)")
    k.line("rn = tl.arange(0, BN)")
    k.line("rk = tl.arange(0, BK)")
    zero = TL[acc_t]
    k.line(f"acc = tl.zeros((BM, BN), dtype={zero})")
    precision = ""
    if in_t == "fp32":
        precision = rng.choice(["", ", input_precision='ieee'", ", input_precision='tf32'", ", input_precision='tf32x3'"])
    out_dtype = f", out_dtype={zero}" if acc_t == "fp16" else ""
    k.line(f"for k0 in range(0, {k_arg}, BK):")
    kmask_a = f", mask=(k0 + rk[None, :]) < {k_arg}, other=0" if masked else ""
    kmask_b = f", mask=(k0 + rk[:, None]) < {k_arg}, other=0" if masked else ""
    k.line(f"    x = tl.load({a} + rm[:, None] * {kk} + (k0 + rk[None, :]){kmask_a})")
    if b_transposed:
        kmask_bt = f", mask=(k0 + rk[None, :]) < {k_arg}, other=0" if masked else ""
        k.line(f"    y = tl.trans(tl.load({b} + rn[:, None] * {kk} + (k0 + rk[None, :]){kmask_bt}))")
    else:
        k.line(f"    y = tl.load({b} + (k0 + rk[:, None]) * BN + rn[None, :]{kmask_b})")
    if rng.random() < 0.5:
        k.line(f"    acc = tl.dot(x, y, acc{precision}{out_dtype})")
    else:
        k.line(f"    acc += tl.dot(x, y{precision}{out_dtype})")
    k.accumulate(acc_t, kk)
    value, dtype = "acc", acc_t
    if rng.random() < 0.4:
        value, dtype = expression(k, [("acc", acc_t)], 2)
    out_t = store_dtype(rng, dtype, target)
    out = k.pointer(out_t, bm * bn, output=True)
    k.line(f"tl.store({out} + rm[:, None] * BN + rn[None, :], {value}.to({TL[out_t]}))")
    return [1, 1, 1]


def loop(k, target):
    """A loop with loop-carried tensors over blocks of a 1-D input."""
    rng = k.rng
    block = pow2(rng, 16, 1024)
    iters = rng.randint(1, 5)
    k.constexpr("BLOCK", block)
    t = rng.choice(FLOATS + INTS)
    p = k.pointer(t, block * iters)
    n_arg = k.scalar("i32", block * iters - rng.choice([0, 0, rng.randint(1, block - 1)]))
    acc_t = "fp32" if is_float(t) else "i32"
    k.line("offs = tl.arange(0, BLOCK)")
    k.line(f"acc = tl.zeros((BLOCK,), dtype={TL[acc_t]})")
    k.line(f"best = tl.full((BLOCK,), 0, dtype={TL[acc_t]})")
    k.line(f"for start in range(0, {n_arg}, BLOCK):")
    k.line(f"    x = tl.load({p} + start + offs, mask=start + offs < {n_arg}, other=0).to({TL[acc_t]})")
    update = rng.choice(["acc += x", "acc = acc * 2 + x", "acc = tl.maximum(acc, x)", "acc += x * x"])
    k.line(f"    {update}")
    k.line("    best = tl.where(x > best, x, best)")
    result = rng.choice(["acc", "acc + best", "tl.sum(acc, axis=0) + acc"])
    if result.startswith("tl.sum"):
        k.accumulate(acc_t, block)
    out_t = store_dtype(rng, acc_t, target)
    out = k.pointer(out_t, block, output=True)
    k.line(f"tl.store({out} + offs, ({result}).to({TL[out_t]}))")
    return [1, 1, 1]


def shapes(k, target):
    """View and shape ops on a 2-D tile: trans, reshape, permute, join/split,
    broadcast, expand_dims; the result is stored flat."""
    rng = k.rng
    bm, bn = tile_2d(k, rng, 4096)
    bm = max(bm, 2)
    k.constexpr("BM", bm)
    k.constexpr("BN", bn)
    t = rng.choice(FLOATS + INTS + FP8)
    p = k.pointer(t, bm * bn)
    k.line("rm = tl.arange(0, BM)")
    k.line("rn = tl.arange(0, BN)")
    v, vt = load_value(k, p, t, "rm[:, None] * BN + rn[None, :]", None)
    for _ in range(rng.randint(1, 3)):
        op = rng.choice(["trans", "reshape", "permute", "join_split", "join_sum", "broadcast", "expand"])
        if op == "trans":
            v = k.fresh(f"tl.reshape(tl.trans({v}), (BM, BN))")
        elif op == "reshape":
            v = k.fresh(f"tl.reshape(tl.reshape({v}, (BM * BN,)), (BM, BN))")
        elif op == "permute":
            v = k.fresh(f"tl.reshape(tl.permute(tl.reshape({v}, (2, BM // 2, BN)), (1, 2, 0)), (BM, BN))")
        elif op == "join_split":
            other = k.fresh(f"{v} + {v}") if rng.random() < 0.5 else v
            v = k.fresh(f"tl.split(tl.join({v}, {other}))") + "[0]"
        elif op == "join_sum" and is_float(vt):
            k.accumulate(vt, 2)
            v = k.fresh(f"tl.sum(tl.join({v}, {v} * 2), axis=2)")
        elif op == "broadcast":
            k.accumulate(vt, bm)
            row = k.fresh(f"tl.reshape(tl.sum({v}, axis=0), (1, BN))" if is_float(vt) or vt == "i32" else f"{v}")
            v = k.fresh(f"tl.broadcast_to({row}, (BM, BN))")
        else:
            v = k.fresh(f"tl.reshape(tl.expand_dims({v}, 1), (BM, BN))")
    out_t = store_dtype(rng, vt, target)
    out = k.pointer(out_t, bm * bn, output=True)
    k.line(f"tl.store({out} + tl.arange(0, BM * BN), tl.reshape({v}, (BM * BN,)).to({TL[out_t]}))")
    return [1, 1, 1]


def atomics(k, target):
    """Atomic read-modify-writes (scalar-per-element, masked), into integers
    (deterministic) or f32/f16 adds."""
    rng = k.rng
    block = pow2(rng, 32, 1024)
    k.constexpr("BLOCK", block)
    t = rng.choice(["i32", "i32", "fp32", "fp16"])
    bins = pow2(rng, 1, block)
    src = k.pointer(t, block)
    n_arg = k.scalar("i32", block - rng.choice([0, rng.randint(1, block - 1)]))
    out = k.pointer(t, bins, output=True)
    k.line("offs = tl.arange(0, BLOCK)")
    k.line(f"mask = offs < {n_arg}")
    k.line(f"x = tl.load({src} + offs, mask=mask, other=0)")
    ops = ["atomic_add"] if t != "i32" else ["atomic_add", "atomic_max", "atomic_min", "atomic_or", "atomic_xor",
                                             "atomic_and"]
    op = rng.choice(ops)
    sem = rng.choice(["", ", sem='relaxed'", ", sem='acq_rel'"])
    k.line(f"old = tl.{op}({out} + offs % {bins}, x, mask=mask{sem})")
    if bins == block and rng.random() < 0.5:  # the old values are order-independent without collisions
        ret = k.pointer("i32", block, output=True)
        k.line(f"tl.store({ret} + offs, (old != 0).to(tl.int32), mask=mask)")
    return [1, 1, 1]


KINDS = [(elementwise_1d, 3), (elementwise_2d, 3), (reduction, 2), (scan, 1), (dot, 3), (loop, 1), (shapes, 1), (atomics, 1)]


def generate(seed, target=90):
    """(module source, SPEC) of the kernel of `seed` for `target` (80, 90)."""
    rng = random.Random(seed)
    kind = pick(rng, [f for f, _ in KINDS], [w for _, w in KINDS])
    k = Kernel(rng, f"fuzz_{kind.__name__}_{seed}")
    grid = kind(k, target)
    spec = {
        "name": k.name,
        "kind": kind.__name__,
        "seed": seed,
        "args": [a[2] for a in k.args],
        "signature": {a[0]: a[1] for a in k.args},
        "constexprs": dict(k.constexprs),
        "grid": grid,
        "num_warps": rng.choice([1, 2, 4, 4, 8]),
        "num_stages": rng.choice([1, 2, 3, 4]),
    }
    if k.accumulation:
        spec["accumulation"] = k.accumulation
    source = k.source() + f"\n\nSPEC = {spec!r}\n"
    return source, spec


if __name__ == "__main__":
    print(generate(int(sys.argv[1]))[0])
