"""Language corners real kernels meet now and then (written for this project): scalar arguments of
every width (fp16/bf16/fp64/i1/i8/i16/u64), bool and uint8 pointers, pointers to pointers,
fp64 arithmetic and atomics, 64-bit atomic_cas, float atomic_xchg, 2-D atomics with their old
values used, device_print, static_print/static_assert, tl.assume, tl.cat, reshape with
can_reorder, padding_option="nan", 3-D block pointers, negative tl.advance, 1-row/1-column
shapes and their reductions, reductions of bools, tl.sort along axis 0 of a 2-D tile, tl.topk,
the fp8e4b15 type on sm_80, fp8 <-> bf16/fp64 casts, programmatic dependent launch
(gdc_wait/gdc_launch_dependents), tl.extra.cuda.num_threads/num_warps, and tl.range options
(flatten, disallow_acc_multi_buffer, warp_specialize on sm_90)."""
import triton
import triton.language as tl


@triton.jit
def scalar_args_every_width(out_ptr, a16, abf, a64, ab, a8, ai16, au64, pp_ptr, flag_ptr, u8_ptr, n,
                            BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    # a table of row pointers (pointers to pointers)
    row = tl.load(pp_ptr + pid).to(tl.pointer_type(tl.float32))
    x = tl.load(row + tl.arange(0, BLOCK), mask=mask, other=0.0)
    f = tl.load(flag_ptr + offs, mask=mask, other=False)
    u = tl.load(u8_ptr + offs, mask=mask, other=0)
    hi = (u >> 4).to(tl.float32)
    lo = (u & 0xF).to(tl.float32)
    y = x * a16.to(tl.float32) + abf.to(tl.float32) + (a64 * 2.0).to(tl.float32)
    y = tl.where(f, y, hi - lo)
    if ab:
        y += a8.to(tl.float32) + ai16.to(tl.float32)
    y += (au64 % 7).to(tl.float32)
    tl.store(out_ptr + offs, y.to(tl.float64), mask=mask)
    tl.store(flag_ptr + offs, y > 0, mask=mask)
    tl.store(u8_ptr + offs, (u.to(tl.uint32) * 3 >> 1).to(tl.uint8), mask=mask)


@triton.jit
def fp64_atomics_and_cas(acc_ptr, x_ptr, lock64_ptr, xch_ptr, old_ptr, n, BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    r = tl.arange(0, BR)[:, None]
    c = tl.arange(0, BC)[None, :]
    offs = r * BC + c
    m = (pid * BR + r < n) & (c < BC)
    x = tl.load(x_ptr + pid * BR * BC + offs, mask=m, other=0.0).to(tl.float64)
    old = tl.atomic_add(acc_ptr + offs, x, mask=m)
    tl.store(old_ptr + pid * BR * BC + offs, old.to(tl.float32), mask=m)
    s = tl.sum(tl.sum(x, 1), 0)
    tl.atomic_add(acc_ptr + BR * BC, s)
    ticket = tl.atomic_cas(lock64_ptr, pid.to(tl.int64), pid.to(tl.int64) + 1)
    prev = tl.atomic_xchg(xch_ptr + (offs % 4), x.to(tl.float32), mask=m)
    tl.store(old_ptr + pid * BR * BC + offs, prev + ticket.to(tl.float32), mask=m & (ticket > 0))


@triton.jit
def print_assert_assume(x_ptr, y_ptr, n, BLOCK: tl.constexpr, DEBUG_PRINT: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
    tl.static_print("compiling print_assert_assume with BLOCK", BLOCK)
    pid = tl.program_id(0)
    tl.assume(pid >= 0)
    tl.assume(n > 0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if DEBUG_PRINT:
        if pid == 0:
            tl.device_print("x", x)
            tl.device_print("n pid ", n, pid, hex=True)
    tl.device_assert(n > 0, "n must be positive")
    tl.store(y_ptr + offs, x * 2, mask=offs < n)


@triton.jit
def cat_reshape_reorder(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.cat(x, y, can_reorder=True)
    s = tl.sum(z, 0)
    r = tl.reshape(x * y, (BLOCK // 16, 16), can_reorder=True)
    rs = tl.sum(r, 1)
    tl.store(out_ptr + tl.arange(0, BLOCK // 16), rs + s)


@triton.jit
def block_ptr_3d_nan_pad(x_ptr, y_ptr, B, T, D, BB: tl.constexpr, BT: tl.constexpr, BD: tl.constexpr):
    pid = tl.program_id(0)
    p = tl.make_block_ptr(x_ptr, (B, T, D), (T * D, D, 1), (0, pid * BT, 0), (BB, BT, BD), (2, 1, 0))
    x = tl.load(p, boundary_check=(0, 1, 2), padding_option="nan")
    ok = x == x
    s = tl.sum(tl.where(ok, x, 0.0), 2)  # [BB, BT]
    cnt = tl.sum(ok.to(tl.int32), 2)
    q = tl.make_block_ptr(y_ptr, (B, T), (T, 1), (0, pid * BT), (BB, BT), (1, 0))
    tl.store(q, s / tl.maximum(cnt, 1).to(tl.float32), boundary_check=(0, 1))
    # walk backwards over the last dimension of a 1-D view
    r = tl.make_block_ptr(x_ptr, (B * T * D,), (1,), (B * T * D - BD,), (BD,), (0,))
    acc = tl.zeros((BD,), tl.float32)
    for _ in range(0, 4):
        acc += tl.load(r, boundary_check=(0,), padding_option="zero")
        r = tl.advance(r, (-BD,))
    tl.store(y_ptr + B * T + tl.arange(0, BD), acc)


@triton.jit
def thin_shapes(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    col = tl.load(x_ptr + offs[:, None], mask=offs[:, None] < n, other=0.0)  # [BLOCK, 1]
    row = tl.load(x_ptr + offs[None, :], mask=offs[None, :] < n, other=0.0)  # [1, BLOCK]
    a = tl.sum(col, 0)  # [1]
    b = tl.max(row, 1)  # [1]
    c = tl.sum(col, 1)  # [BLOCK]
    outer = col * row  # [BLOCK, BLOCK]
    d = tl.sum(outer, 0) + c
    any_pos = tl.max((row > 0).to(tl.int1), 1)
    cnt = tl.sum((col > 0), 0)
    tl.store(out_ptr + offs, d + a + b + any_pos.to(tl.float32) + cnt.to(tl.float32), mask=offs < n)


@triton.jit
def sort_axis0_topk(x_ptr, out_ptr, top_ptr, BR: tl.constexpr, BC: tl.constexpr, K: tl.constexpr):
    r = tl.arange(0, BR)
    c = tl.arange(0, BC)
    x = tl.load(x_ptr + r[:, None] * BC + c[None, :])
    s = tl.trans(tl.sort(tl.trans(x), 1, descending=False))
    tl.store(out_ptr + r[:, None] * BC + c[None, :], s)
    t = tl.topk(x, K, dim=1)
    tl.store(top_ptr + r[:, None] * K + tl.arange(0, K)[None, :], t)


@triton.jit
def fp8_casts(x_ptr, out_bf_ptr, out_e5_ptr, out_f64_ptr, n, BLOCK: tl.constexpr, E4B15: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    e5 = x.to(tl.float8e5)
    tl.store(out_e5_ptr + offs, e5, mask=m)
    bf = e5.to(tl.bfloat16)
    if E4B15:
        bf = bf + x.to(tl.float8e4b15).to(tl.bfloat16)
    tl.store(out_bf_ptr + offs, bf, mask=m)
    d = x.to(tl.float64)
    tl.store(out_f64_ptr + offs, d * 0.5 + bf.to(tl.float64), mask=m)


@triton.jit
def int4_asm_dequant_small(q_ptr, s_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # a lop3-style int8x4 nibble extraction (pack=4) on a tile with fewer elements per thread than a pack
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    q = tl.load(q_ptr + offs, mask=offs < n, other=0)
    lo = tl.inline_asm_elementwise("lop3.b32 $0, $1, 0x0F0F0F0F, 0x08080808, 0x6a;", "=r,r", [q], dtype=tl.int8,
                                   is_pure=True, pack=4)
    h = tl.inline_asm_elementwise("{ .reg .b32 t; and.b32 t, $2, 0x00FF00FF; mov.b32 $0, t; mov.b32 $1, t; }",
                                  "=r,=r,r", [q], dtype=tl.float16, is_pure=True, pack=4)
    s = tl.load(s_ptr)
    y = (lo.to(tl.int32) - 8).to(tl.float16) * s + h * 0.0
    tl.store(y_ptr + offs, y, mask=offs < n)


@triton.jit
def pdl_and_cuda_queries(x_ptr, y_ptr, n, BLOCK: tl.constexpr, USE_PDL: tl.constexpr):
    if USE_PDL:
        tl.extra.cuda.gdc_wait()
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    nt = tl.extra.cuda.num_threads()
    nw = tl.extra.cuda.num_warps()
    if USE_PDL:
        tl.extra.cuda.gdc_launch_dependents()
    tl.store(y_ptr + offs, x + nt + nw, mask=offs < n)


@triton.jit
def range_options_gemm(a_ptr, b_ptr, c_ptr, M, N, K, NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr,
                       BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, WS: tl.constexpr, FLATTEN: tl.constexpr):
    start_pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=FLATTEN, warp_specialize=WS):
        pid_m = tile_id // num_pid_n
        pid_n = tile_id % num_pid_n
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in tl.range(k_tiles, disallow_acc_multi_buffer=True):
            k = ki * BLOCK_K
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K),
                        other=0.0)
            b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                        other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _sq_or_neg(x):
    if x > 0:
        return x * x
    else:
        return -x


@triton.jit
def nan_modes_rng_map(x_ptr, y_ptr, seed, n, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    a = tl.maximum(x, 0.5, propagate_nan=tl.PropagateNan.ALL)
    b = tl.minimum(x, -0.5, propagate_nan=tl.PropagateNan.ALL)
    c = tl.clamp(x, -1.0, 1.0, propagate_nan=tl.PropagateNan.ALL)
    r0, r1, r2, r3 = tl.rand4x(seed, offs, n_rounds=ROUNDS)
    g0, g1, g2, g3 = tl.randn4x(seed, offs)
    neg0 = tl.where(x < 0, 1.0, 0.0)
    q = tl.map_elementwise(_sq_or_neg, x)
    y = a + b + c + r0 * r1 + r2 - r3 + g0 * g1 + g2 * g3 + neg0 + q
    tl.store(y_ptr + offs, y, mask=m)


@triton.jit
def options_matmul(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    rowmax = tl.max(acc, 1)
    out = acc * 1.5 + rowmax[:, None] * 0.25
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], out.to(c_ptr.dtype.element_ty))


_F = "*fp32"
_MM = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32"}

CASES = [
    dict(name="nan_modes_rng_map", fn=nan_modes_rng_map, sig={"x_ptr": _F, "y_ptr": _F, "seed": "i32", "n": "i32"},
         const={"BLOCK": 512, "ROUNDS": 7}, div=[0, 1], opts=dict(num_warps=4)),
    dict(name="options_matmul_maxnreg_nofusion", fn=options_matmul, sig=_MM,
         const={"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32}, div=[0, 1, 2, 3, 4, 5],
         opts=dict(num_warps=4, num_stages=4, maxnreg=128, enable_fp_fusion=False)),
    dict(name="options_matmul_w16_small", fn=options_matmul, sig=_MM,
         const={"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 16}, div=[0, 1, 2, 3, 4, 5],
         opts=dict(num_warps=16, num_stages=2)),
    dict(name="options_matmul_w2_tiny", fn=options_matmul, sig=_MM,
         const={"BLOCK_M": 16, "BLOCK_N": 32, "BLOCK_K": 16}, div=[0, 1, 2, 3, 4, 5],
         opts=dict(num_warps=2, num_stages=5)),
    dict(name="scalar_args_every_width", fn=scalar_args_every_width,
         sig={"out_ptr": "*fp64", "a16": "fp16", "abf": "bf16", "a64": "fp64", "ab": "i1", "a8": "i8", "ai16": "i16",
              "au64": "u64", "pp_ptr": "*i64", "flag_ptr": "*i1", "u8_ptr": "*u8", "n": "i32"},
         const={"BLOCK": 256}, div=[0, 8, 9, 10], opts=dict(num_warps=2)),
    dict(name="fp64_atomics_and_cas", fn=fp64_atomics_and_cas,
         sig={"acc_ptr": "*fp64", "x_ptr": _F, "lock64_ptr": "*i64", "xch_ptr": _F, "old_ptr": _F, "n": "i32"},
         const={"BR": 16, "BC": 32}, div=[0, 1, 2, 3, 4], opts=dict(num_warps=4)),
    dict(name="print_assert_assume", fn=print_assert_assume,
         sig={"x_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32"}, const={"BLOCK": 256, "DEBUG_PRINT": True},
         div=[0, 1], opts=dict(num_warps=4, debug=True)),
    dict(name="assume_no_print", fn=print_assert_assume,
         sig={"x_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32"}, const={"BLOCK": 256, "DEBUG_PRINT": False},
         div=[0, 1], opts=dict(num_warps=4)),
    dict(name="cat_reshape_reorder", fn=cat_reshape_reorder,
         sig={"x_ptr": _F, "y_ptr": _F, "out_ptr": _F}, const={"BLOCK": 256}, div=[0, 1, 2], opts=dict(num_warps=4)),
    dict(name="block_ptr_3d_nan_pad", fn=block_ptr_3d_nan_pad,
         sig={"x_ptr": _F, "y_ptr": _F, "B": "i32", "T": "i32", "D": "i32"},
         const={"BB": 2, "BT": 32, "BD": 64}, div=[0, 1], opts=dict(num_warps=4)),
    dict(name="thin_shapes", fn=thin_shapes, sig={"x_ptr": _F, "out_ptr": _F, "n": "i32"}, const={"BLOCK": 64},
         div=[0, 1], opts=dict(num_warps=2)),
    dict(name="sort_axis0_topk", fn=sort_axis0_topk, sig={"x_ptr": _F, "out_ptr": _F, "top_ptr": _F},
         const={"BR": 64, "BC": 32, "K": 8}, div=[0, 1, 2], opts=dict(num_warps=4)),
    dict(name="fp8_casts_e4b15", fn=fp8_casts,
         sig={"x_ptr": _F, "out_bf_ptr": "*bf16", "out_e5_ptr": "*fp8e5", "out_f64_ptr": "*fp64", "n": "i32"},
         const={"BLOCK": 512, "E4B15": True}, div=[0, 1, 2, 3], opts=dict(num_warps=4), targets=("cuda:80",)),
    dict(name="fp8_casts", fn=fp8_casts,
         sig={"x_ptr": _F, "out_bf_ptr": "*bf16", "out_e5_ptr": "*fp8e5", "out_f64_ptr": "*fp64", "n": "i32"},
         const={"BLOCK": 512, "E4B15": False}, div=[0, 1, 2, 3], opts=dict(num_warps=4)),
    dict(name="fp8_casts_e4b15_one_per_thread", fn=fp8_casts,
         sig={"x_ptr": _F, "out_bf_ptr": "*bf16", "out_e5_ptr": "*fp8e5", "out_f64_ptr": "*fp64", "n": "i32"},
         const={"BLOCK": 128, "E4B15": True}, div=[0, 1, 2, 3], opts=dict(num_warps=4), targets=("cuda:80",)),
    dict(name="int4_asm_dequant_small", fn=int4_asm_dequant_small,
         sig={"q_ptr": "*i8", "s_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32"}, const={"BLOCK": 64}, div=[0, 1, 2],
         opts=dict(num_warps=2)),
    dict(name="int4_asm_dequant_two_per_thread", fn=int4_asm_dequant_small,
         sig={"q_ptr": "*i8", "s_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32"}, const={"BLOCK": 256}, div=[0, 1, 2],
         opts=dict(num_warps=4)),
    dict(name="pdl_and_cuda_queries", fn=pdl_and_cuda_queries, sig={"x_ptr": _F, "y_ptr": _F, "n": "i32"},
         const={"BLOCK": 1024, "USE_PDL": True}, div=[0, 1], opts=dict(num_warps=4, launch_pdl=True),
         targets=("cuda:90",)),
    dict(name="range_options_persistent_flatten", fn=range_options_gemm,
         sig={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32"},
         const={"NUM_SMS": 132, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "WS": False, "FLATTEN": True},
         div=[0, 1, 2, 3, 4, 5], opts=dict(num_warps=8, num_stages=3)),
]
