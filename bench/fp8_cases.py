"""The harness's fp8 cases (bench/fp8_kernels.py): harness.py's case_list()
adds them. Each entry is (case name = corpus kernel, kernel, shape text,
make), as in case_list(); make() returns the inputs, the torch reference and
the tolerance.

References: fp8 -> wider conversions are exact, so those compare exactly,
over every fp8 code except NaN and infinity (their bit tricks on sm_80 do not
keep them, upstream's neither). Conversions to fp8 compare within one fp8
step: the sm_80 sequences (upstream's) round ties away from zero rather than
to even, and rtz is no torch rounding; a misplaced byte is many
steps off. The fp8 matmuls compare with the f32 matmul of the same fp8
values. Scaled dots compare with the float64 product of the decoded,
scaled operands."""
import torch
import fp8_kernels as F8

TORCH_FP8 = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}
WIDE = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
# Smallest normal and the relative step (2^-mantissa bits) of each format.
SMALLEST_NORMAL = {"e4m3": 2.0 ** -6, "e5m2": 2.0 ** -14}
STEP = {"e4m3": 2.0 ** -3, "e5m2": 2.0 ** -2}
LARGEST = {"e4m3": 448.0, "e5m2": 57344.0}


class Fp8Poisoned(torch.Tensor):
    """An fp8 output, poisoned with the NaN code 0x7f (torch may not fill fp8 tensors)."""

    def fill_(self, value):
        # The base method: a view of this subclass would come back here.
        torch.Tensor.fill_(self.view(torch.uint8), 0x7F)
        return self


class BytePoisoned(torch.Tensor):
    """A uint8 output, poisoned with 0xff (no case writes it)."""

    def fill_(self, value):
        return super().fill_(0xFF)


def cdiv(a, b):
    return (a + b - 1) // b


def finite_codes(fmt, n, dev):
    """n fp8 values cycling through every finite code of the format."""
    codes = torch.arange(256, device=dev, dtype=torch.int32)
    exponent_ones = (codes & 0x7F) >= (0x7F if fmt == "e4m3" else 0x7C)
    codes = codes[~exponent_ones].to(torch.uint8)
    return codes.repeat(cdiv(n, codes.numel()))[:n].view(TORCH_FP8[fmt])


def fp8_output(n, fmt, dev):
    return torch.empty(n, device=dev, dtype=TORCH_FP8[fmt]).as_subclass(Fp8Poisoned)


def elementwise(fn, args, out, ref, n, tol, moved):
    return dict(args=args + [n], out=out, ref=ref, grid=(cdiv(n, 1024),), constexprs=dict(BLOCK=1024), tol=tol,
                bytes=moved, jit=fn)


def copy(fmt, n, dev):
    x = finite_codes(fmt, n, dev)
    y = fp8_output(n, fmt, dev)
    return elementwise(F8.fp8_copy, [x, y], [y], [x], n, (0, 0), 2 * n)


def upcast(fmt, wide, n, dev):
    x = finite_codes(fmt, n, dev)
    y = torch.empty(n, device=dev, dtype=WIDE[wide])
    return elementwise(F8.fp8_cast, [x, y], [y], [x.to(WIDE[wide])], n, (0, 0), n * (1 + y.element_size()))


def downcast(wide, fmt, n, dev, rtz=False):
    # Within the format's range (torch's own conversion does not saturate).
    x = (torch.randn(n, device=dev) * 4).clamp(-0.9 * LARGEST[fmt], 0.9 * LARGEST[fmt]).to(WIDE[wide])
    y = fp8_output(n, fmt, dev)
    ref = x.float().to(TORCH_FP8[fmt])
    return elementwise(F8.fp8_cast_rtz if rtz else F8.fp8_cast, [x, y], [y], [ref], n,
                       (SMALLEST_NORMAL[fmt], STEP[fmt]), n * (1 + x.element_size()))


def bitcast(fmt, n, dev):
    x = finite_codes(fmt, n, dev)
    # Codes whose successor is finite too.
    last = 0x7D if fmt == "e4m3" else 0x7A
    x = (x.view(torch.uint8) % (last + 1)).view(TORCH_FP8[fmt])
    bits = torch.empty(n, device=dev, dtype=torch.uint8).as_subclass(BytePoisoned)
    z = fp8_output(n, fmt, dev)
    ref_bits = x.view(torch.uint8)
    ref_z = (ref_bits + 1).view(TORCH_FP8[fmt])
    return dict(args=[x, bits, z, n], out=[bits, z], ref=[ref_bits, ref_z], grid=(cdiv(n, 1024),),
                constexprs=dict(BLOCK=1024), tol=(0, 0), bytes=3 * n, jit=F8.fp8_bitcast)


def matmul(fmt, size, blocks, b_k_major, dev):
    m = n = k = size
    a = torch.randn(m, k, device=dev).to(TORCH_FP8[fmt])
    if b_k_major:
        b = torch.randn(n, k, device=dev).to(TORCH_FP8[fmt]).T  # tutorial 03's b.T: strides (1, K)
    else:
        b = torch.randn(k, n, device=dev).to(TORCH_FP8[fmt])
    c = torch.empty(m, n, device=dev, dtype=torch.float16)
    ref = (a.float() @ b.float()).half()
    bm, bn, bk = blocks
    full = [a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)]
    # The unit strides are constexprs of the compiled kernels (A: sak, C: scn, B: sbk or sbn).
    compiled = [a, b, c, m, n, k, a.stride(0), b.stride(1) if b_k_major else b.stride(0), c.stride(0)]
    # Hopper's fp8 wgmma accumulates with fewer bits than f32 (maxNumImpreciseAcc is not set),
    # truncating at each step, so its error grows with K: measured max errors 1.5 at K=4096 and
    # 3.75 at K=8192, the same for upstream's PTX, Tritium's and cuBLASLt's fast-accumulation
    # _scaled_mm (H100, BENCHMARKS.md). atol K/1024 (4 and 8) stays above that and far below a
    # misplaced fragment's error (the sums of K products of about 1 are about sqrt(K) = 64..90).
    return dict(args=compiled, jit_args=full, out=[c], ref=[ref], grid=(cdiv(m, bm) * cdiv(n, bn),),
                constexprs=dict(BM=bm, BN=bn, BK=bk, GROUP_M=8), tol=(max(1.0, k / 1024), 2e-2), flops=2 * m * n * k,
                jit=F8.matmul_fp8, jit_opts=dict(num_stages=3), torch=[scaled_mm_call(a, b)],
                moonshot="fp8" if fmt == "e4m3" else None)


def scaled_mm_call(a, b):
    """cuBLASLt's fp8 matmul on the same values, through torch._scaled_mm with unit scales and an
    f16 output, as the kernels write. _scaled_mm wants A row-major and B column-major: an N-major
    B is copied into that layout once, here, outside the timing. use_fast_accum: the kernels'
    fp8 wgmma accumulates without promotion too (Triton's sm_90 default for
    max_num_imprecise_acc), so both sides do the same arithmetic. cuBLASLt has no e5m2 x e5m2
    matmul: that call raises, and the harness reports '-'."""
    if b.stride(0) != 1:
        b = b.T.contiguous().T
    one = torch.ones((), device=a.device, dtype=torch.float32)

    def call():
        result = torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.float16, use_fast_accum=True)
        return result[0] if isinstance(result, tuple) else result  # torch < 2.4: (out, amax)
    return dict(key="torch", backend="cuBLASLt _scaled_mm", fn=call)


E2M1_VALUES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
TORCH_TYPE = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2, "bf16": torch.bfloat16, "fp16": torch.float16}


def mx_operand(kind, rows, k, dev, k_major_rows):
    """A random operand of a scaled dot and its exact float64 value: e2m1 bytes (two values per byte
    along K, the low nibble first), fp8 or 16-bit floats. `k_major_rows` gives A's [rows, K] layout;
    otherwise it is B's [K, rows]."""
    if kind == "e2m1":
        nibbles = torch.randint(0, 16, (rows, k), device=dev, dtype=torch.int32)
        magnitude = torch.tensor(E2M1_VALUES, device=dev, dtype=torch.float64)[nibbles & 7]
        value = torch.where(nibbles >= 8, -magnitude, magnitude)
        packed = (nibbles[:, 0::2] | (nibbles[:, 1::2] << 4)).to(torch.uint8)  # [rows, K/2]
        if k_major_rows:
            return packed.contiguous(), value
        # B is [K/2, N] bytes: K is the packed dimension.
        return packed.T.contiguous(), value.T
    x = torch.randn(rows, k, device=dev).to(TORCH_TYPE[kind])
    if k_major_rows:
        return x.contiguous(), x.double()
    return x.T.contiguous(), x.double().T


def scaled_dot(type_a, type_b, scale_a, scale_b, blocks, dev, jit):
    bm, bn, bk = blocks
    a, a_value = mx_operand(type_a, bm, bk, dev, True)          # a_value [BM, K]
    b, b_value = mx_operand(type_b, bn, bk, dev, False)         # b_value [K, BN]
    # e8m0 scales 2^(s - 127), s in 120..134 (no 0xff NaN), per 32 elements of K.
    a_scale = torch.randint(120, 135, (bm, bk // 32), device=dev, dtype=torch.uint8)
    b_scale = torch.randint(120, 135, (bn, bk // 32), device=dev, dtype=torch.uint8)
    if scale_a:
        a_value = a_value * torch.exp2(a_scale.double() - 127).repeat_interleave(32, dim=1)
    if scale_b:
        b_value = b_value * torch.exp2(b_scale.double() - 127).repeat_interleave(32, dim=1).T
    c = torch.empty(bm, bn, device=dev, dtype=torch.float32)
    ref = (a_value @ b_value).float()
    # The upcast operands are exact in bf16/f16 and their products in f32: only the f32 sums round,
    # by far less than 2^-16 of the sum of the products' magnitudes; a misplaced element or scale
    # errs by about that sum over sqrt(K).
    bound = (a_value.abs() @ b_value.abs()).max().item()
    return dict(args=[a, a_scale, b, b_scale, c], out=[c], ref=[ref], grid=(1,),
                constexprs=dict(BM=bm, BN=bn, BK=bk, TYPE_A=type_a, TYPE_B=type_b, SCALE_A=scale_a, SCALE_B=scale_b),
                tol=(bound * 2.0 ** -16, 0), flops=2 * bm * bn * bk, jit=jit)


def fp8_cases(dev="cuda", dim=lambda big, little: big):
    """dim: harness.case_list's sizes (the big ones, or cut down for racecheck)."""
    cases = []
    for fmt in ["e4m3", "e5m2"]:
        cases.append((f"fp8_copy_{fmt}", "fp8_copy", "n=16777216", lambda f=fmt: copy(f, 1 << 24, dev)))
        cases.append((f"fp8_copy_{fmt}", "fp8_copy", "n=100000 (masked)", lambda f=fmt: copy(f, 100000, dev)))
        for wide in WIDE:
            cases.append((f"fp8_cast_{fmt}_to_{wide}", "fp8_cast", "n=1048576",
                          lambda f=fmt, w=wide: upcast(f, w, 1 << 20, dev)))
            cases.append((f"fp8_cast_{wide}_to_{fmt}", "fp8_cast", "n=1048576",
                          lambda f=fmt, w=wide: downcast(w, f, 1 << 20, dev)))
        cases.append((f"fp8_bitcast_{fmt}", "fp8_bitcast", "n=1000000 (masked)", lambda f=fmt: bitcast(f, 1000000, dev)))
    cases.append(("fp8_cast_f32_to_e5m2_rtz", "fp8_cast_rtz", "n=1048576",
                  lambda: downcast("f32", "e5m2", 1 << 20, dev, rtz=True)))
    big = (128, 256, 128)
    cases.append(("matmul_fp8_e4m3", "matmul_fp8", f"{dim(4096, 512)}^3", lambda: matmul("e4m3", dim(4096, 512), big, True, dev)))
    cases.append(("matmul_fp8_e4m3", "matmul_fp8", f"{dim(8192, 1024)}^3", lambda: matmul("e4m3", dim(8192, 1024), big, True, dev)))
    cases.append(("matmul_fp8_e5m2", "matmul_fp8", f"{dim(4096, 512)}^3", lambda: matmul("e5m2", dim(4096, 512), big, True, dev)))
    cases.append(("matmul_fp8_e4m3_bn", "matmul_fp8", f"{dim(4096, 512)}^3",
                  lambda: matmul("e4m3", dim(4096, 512), (128, 128, 64), False, dev)))
    for case in F8.SCALED + F8.SCALED_SM90_ONLY:
        k = case["const"]
        blocks = (k["BM"], k["BN"], k["BK"])
        make = (lambda k=k, blocks=blocks: scaled_dot(k["TYPE_A"], k["TYPE_B"], k["SCALE_A"], k["SCALE_B"], blocks, dev,
                                                      F8.dot_scaled_tile))
        cases.append((case["name"], "dot_scaled_tile", "x".join(map(str, blocks)), make))
    return cases
