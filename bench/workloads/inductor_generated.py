"""Kernels in the style torch.compile's Inductor generates (written for this project, not copied):
`triton_poi_fused_*` pointwise kernels over int64 `xindex` with div/mod index arithmetic,
`eviction_policy`, `tl.full`/`tl.broadcast_to`, `libdevice` calls and `tl.device_assert` of
gather bounds; 2-D tiled pointwise transposes with a grid folded over program_id(1)/(2);
`triton_red_fused_*` looped reductions (`rnumel`, `roffset`, accumulators carried through
`tl.where`), Welford mean/variance through a tuple `tl.reduce` with a custom combine function,
argmax through a (value, index) `tl.reduce`; `triton_per_fused_*` persistent reductions (softmax,
layer norm + residual, log-softmax backward); an Inductor-style cumsum through
`tl.associative_scan` of a helper; a bitonic sort-with-index written with reshapes and sums
(Inductor's own sort helper style); bucketize by binary search; philox dropout with a loaded
seed; and the mm template with a bias + activation epilogue."""
import triton
import triton.language as tl
from triton.language.extra import libdevice


# ---------------------------------------------------------------------------------------------
# helpers in Inductor's triton_helpers style


@triton.jit
def _maximum(a, b):
    mask = a > b
    if a.dtype.is_floating():
        mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def _welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (mean_1 + delta * w2_over_w, m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w, new_weight)


@triton.jit
def _welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, _welford_combine)


@triton.jit
def _welford_reduce(value, mean, m2, weight, first_iteration):
    if first_iteration:
        new_weight = tl.full(weight.shape, 1, weight.dtype)
        new_mean = value
        new_m2 = tl.zeros_like(m2)
    else:
        delta = value - mean
        new_weight = weight + 1
        new_mean = mean + delta / new_weight
        new_m2 = m2 + delta * (value - new_mean)
    return new_mean, new_m2, new_weight


@triton.jit
def _max_with_index_combine(value1, index1, value2, index2):
    gt = value1 > value2
    nan1 = value1 != value1
    nan2 = value2 != value2
    eq = value1 == value2
    tie = eq & (index1 < index2)
    take1 = gt | (nan1 & ~nan2) | tie | (nan1 & nan2 & (index1 < index2))
    return tl.where(take1, value1, value2), tl.where(take1, index1, index2)


@triton.jit
def _max_with_index(value, index, dim):
    return tl.reduce((value, index), dim, _max_with_index_combine)


@triton.jit
def _helper_fn_add0(arg0_0, arg1_0):
    return arg0_0 + arg1_0


@triton.jit
def _any_combine(a, b):
    return a | b


# ---------------------------------------------------------------------------------------------
# pointwise


@triton.jit
def triton_poi_fused_add_gelu_mul_0(in_out_ptr0, in_ptr0, in_ptr1, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0).to(tl.int64) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:].to(tl.int64)
    xmask = xindex < xnumel
    x2 = xindex
    x0 = xindex % 3072
    tmp0 = tl.load(in_out_ptr0 + (x2), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp9 = tl.load(in_ptr1 + (x2), xmask, eviction_policy='evict_first').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = 0.5
    tmp4 = tmp2 * tmp3
    tmp5 = 0.7071067811865476
    tmp6 = tmp2 * tmp5
    tmp7 = libdevice.erf(tmp6)
    tmp8 = 1.0
    tmp10 = tmp7 + tmp8
    tmp11 = tmp4 * tmp10
    tmp12 = tmp11 * tmp9
    tl.store(in_out_ptr0 + (x2), tmp12, xmask)


@triton.jit
def triton_poi_fused_embedding_1(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x1 = (xindex // 768)
    x0 = xindex % 768
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([XBLOCK], 50257, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 50257)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 50257")
    tmp6 = tl.load(in_ptr1 + (x0 + (768 * tmp4)), xmask)
    tl.store(out_ptr0 + (x2), tmp6, xmask)


@triton.jit
def triton_poi_fused_clone_transpose_2(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr,
                                       XBLOCK: tl.constexpr):
    yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[None, :]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = yindex % 64
    y1 = (yindex // 64)
    y3 = yindex
    tmp0 = tl.load(in_ptr0 + (y0 + (64 * x2) + (64 * xnumel * y1)), xmask & ymask, eviction_policy='evict_last')
    tmp1 = tmp0.to(tl.float32)
    tmp2 = 0.125
    tmp3 = tmp1 * tmp2
    tl.store(out_ptr0 + (x2 + (xnumel * y3)), tmp3, xmask & ymask)


@triton.jit
def triton_poi_fused_libdevice_zoo_3(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = libdevice.atan2(tmp0, tmp1)
    tmp3 = libdevice.fmod(tmp0, tmp1)
    tmp4 = libdevice.copysign(tmp3, tmp1)
    tmp5 = libdevice.log1p(tl.abs(tmp0))
    tmp6 = libdevice.expm1(tmp1)
    tmp7 = libdevice.nearbyint(tmp0 * 4.0)
    tmp8 = libdevice.trunc(tmp1)
    tmp9 = libdevice.signbit(tmp0) != 0
    tmp10 = libdevice.isinf(tmp1).to(tl.int1)
    tmp11 = libdevice.lgamma(tl.abs(tmp1) + 1.0)
    tmp12 = libdevice.erfinv(tl.minimum(tl.maximum(tmp0, -0.99), 0.99))
    tmp13 = libdevice.pow(tl.abs(tmp0), tmp1)
    tmp14 = libdevice.hypot(tmp0, tmp1)
    tmp15 = libdevice.nextafter(tmp0, tmp1)
    tmp16 = libdevice.cbrt(tmp0)
    tmp17 = libdevice.sinh(tmp1) + libdevice.acosh(tl.abs(tmp1) + 1.0)
    tmp18 = tmp2 + tmp4 + tmp5 + tmp6 + tmp7 + tmp8 + tmp11 + tmp12 + tmp13 + tmp14 + tmp15 + tmp16 + tmp17
    tmp19 = tl.where(tmp9 | tmp10, float("nan"), tmp18)
    tl.store(out_ptr0 + (x0), tmp19, xmask)
    tmp20 = libdevice.floor(tmp0).to(tl.int64)
    tmp21 = libdevice.ilogb(tmp1)
    tl.store(out_ptr1 + (x0), tmp20 + tmp21, xmask)


@triton.jit
def triton_poi_fused_native_dropout_4(in_ptr0, in_ptr1, out_ptr0, out_ptr1, load_seed_offset, xnumel,
                                      XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + load_seed_offset)
    tmp1 = x0
    tmp2 = tl.rand(tmp0, (tmp1).to(tl.uint32))
    tmp3 = 0.1
    tmp4 = tmp2 > tmp3
    tmp5 = tl.load(in_ptr1 + (x0), xmask).to(tl.float32)
    tmp6 = tmp4.to(tl.float32)
    tmp7 = tmp6 * tmp5
    tmp8 = 1.1111111111111112
    tmp9 = tmp7 * tmp8
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp9, xmask)


@triton.jit
def triton_poi_fused_randint_5(in_ptr0, out_ptr0, load_seed_offset, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + load_seed_offset)
    tmp1 = tl.randint(tmp0, (x0).to(tl.uint32))
    tmp2 = tl.randint4x(tmp0, (x0).to(tl.uint32))
    tmp3 = tmp1 ^ tmp2[0] ^ tmp2[3]
    tmp4 = (tmp3 % 1000).to(tl.int64)
    tl.store(out_ptr0 + (x0), tmp4, xmask)


@triton.jit
def triton_poi_fused_fp8_quant_6(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    x1 = xindex // 128
    tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x1), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 / tmp1
    tmp3 = -448.0
    tmp4 = _maximum(tmp2, tmp3)
    tmp5 = 448.0
    tmp6 = triton_helpers_minimum(tmp4, tmp5)
    tmp7 = tmp6.to(tl.float8e4nv)
    tl.store(out_ptr0 + (x0), tmp7, xmask)
    tmp8 = tl.clamp(tmp2, -57344.0, 57344.0).to(tl.float8e5, fp_downcast_rounding="rtne")
    tl.store(out_ptr1 + (x0), tmp8, xmask)


@triton.jit
def triton_helpers_minimum(a, b):
    mask = a < b
    if a.dtype.is_floating():
        mask |= a != a
    return tl.where(mask, a, b)


# ---------------------------------------------------------------------------------------------
# looped reductions


@triton.jit
def triton_red_fused_native_layer_norm_7(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, rnumel,
                                         XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    tmp2_mean = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_m2 = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_weight = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy='evict_last',
                       other=0.0).to(tl.float32)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = _welford_reduce(tmp1, tmp2_mean, tmp2_m2, tmp2_weight,
                                                                         roffset == 0)
        tmp2_mean = tl.where(rmask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(rmask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(rmask & xmask, tmp2_weight_next, tmp2_weight)
    tmp2_tmp, tmp3_tmp, tmp4_tmp = _welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)
    tmp2 = tmp2_tmp[:, None]
    tmp3 = tmp3_tmp[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tmp5 = rnumel.to(tl.float32)
    tmp6 = tmp3 / tmp5
    tmp7 = 1e-05
    tmp8 = tmp6 + tmp7
    tmp9 = libdevice.rsqrt(tmp8)
    tl.store(out_ptr1 + (x0), tmp9, xmask)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp10 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy='evict_first',
                        other=0.0).to(tl.float32)
        tmp11 = tl.load(in_ptr1 + (r1), rmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp12 = tl.load(in_ptr2 + (r1), rmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp13 = (tmp10 - tmp2) * tmp9
        tmp14 = tmp13 * tmp11 + tmp12
        tl.store(out_ptr2 + (r1 + (rnumel * x0)), tmp14, rmask & xmask)


@triton.jit
def triton_red_fused_argmax_8(in_ptr0, out_ptr0, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, RBLOCK], float("-inf"), tl.float32)
    _tmp2_index = tl.full([XBLOCK, RBLOCK], 9223372036854775807, tl.int64)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy='evict_first',
                       other=0.0).to(tl.float32)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        _tmp2_next, _tmp2_index_next = _max_with_index_combine(_tmp2, _tmp2_index, tmp1, rindex.to(tl.int64))
        _tmp2 = tl.where(rmask & xmask, _tmp2_next, _tmp2)
        _tmp2_index = tl.where(rmask & xmask, _tmp2_index_next, _tmp2_index)
    _, tmp2_tmp = _max_with_index(_tmp2, _tmp2_index, 1)
    tmp2 = tmp2_tmp[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)


@triton.jit
def triton_red_fused_sum_any_isnan_9(in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, rnumel, XBLOCK: tl.constexpr,
                                     RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp3 = tl.full([XBLOCK, RBLOCK], 0, tl.float64)
    _tmp5 = tl.full([XBLOCK, RBLOCK], False, tl.int1)
    _tmp7 = tl.full([XBLOCK, RBLOCK], 0, tl.int64)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tmp0.to(tl.float64)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, RBLOCK])
        _tmp3 = tl.where(rmask & xmask, _tmp3 + tmp2, _tmp3)
        tmp4 = libdevice.isnan(tmp0).to(tl.int1)
        _tmp5 = _tmp5 | tl.where(rmask & xmask, tmp4, False)
        tmp6 = (tmp0 > 0).to(tl.int64)
        _tmp7 = _tmp7 + tl.where(rmask & xmask, tmp6, 0)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    tmp5 = tl.reduce(_tmp5, 1, _any_combine)[:, None]
    tmp7 = tl.sum(_tmp7, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp3, xmask)
    tl.store(out_ptr1 + (x0), tmp5, xmask)
    tl.store(out_ptr2 + (x0), tmp7, xmask)


# ---------------------------------------------------------------------------------------------
# persistent reductions


@triton.jit
def triton_per_fused__softmax_10(in_ptr0, out_ptr2, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, other=0.0).to(tl.float32)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
    tmp3 = tl.where(rmask & xmask, tmp1, float("-inf"))
    tmp4 = tl.max(tmp3, 1)[:, None]
    tmp5 = tmp0 - tmp4
    tmp6 = tl.exp(tmp5)
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, RBLOCK])
    tmp9 = tl.where(rmask & xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None]
    tmp11 = tmp6 / tmp10
    tl.store(out_ptr2 + (r1 + (rnumel * x0)), tmp11, rmask & xmask)


@triton.jit
def triton_per_fused_add_native_layer_norm_11(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel,
                                              XBLOCK: tl.constexpr):
    rnumel = 768
    RBLOCK: tl.constexpr = 1024
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (r1 + (768 * x0)), rmask & xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr0 + (r1 + (768 * x0)), rmask & xmask, other=0.0).to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, RBLOCK])
    tmp5 = tl.where(rmask & xmask, tmp3, 0)
    tmp6 = tl.broadcast_to(tmp3, [XBLOCK, RBLOCK])
    tmp8 = tl.where(rmask & xmask, tmp6, 0)
    tmp9 = tl.sum(tmp8, 1)[:, None]
    tmp10 = tl.full([XBLOCK, 1], 768, tl.int32)
    tmp11 = tmp10.to(tl.float32)
    tmp12 = tmp9 / tmp11
    tmp13 = tmp3 - tmp12
    tmp14 = tmp13 * tmp13
    tmp15 = tl.broadcast_to(tmp14, [XBLOCK, RBLOCK])
    tmp17 = tl.where(rmask & xmask, tmp15, 0)
    tmp18 = tl.sum(tmp17, 1)[:, None]
    tmp19 = tmp18 / 768.0
    tmp20 = libdevice.rsqrt(tmp19 + 1e-05)
    tmp21 = tl.load(in_ptr1 + (r1), rmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp22 = tl.load(in_ptr2 + (r1), rmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp23 = (tmp2 - tmp12) * tmp20 * tmp21 + tmp22
    tl.store(in_out_ptr0 + (r1 + (768 * x0)), tmp2, rmask & xmask)
    tl.debug_barrier()
    tl.store(out_ptr0 + (x0), tmp20, xmask)
    tl.store(out_ptr1 + (r1 + (768 * x0)), tmp23, rmask & xmask)


@triton.jit
def triton_per_fused_cumsum_12(in_ptr0, out_ptr0, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, other=0.0)
    tmp1 = tmp0.to(tl.int64)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, RBLOCK])
    tmp3, = tl.associative_scan((tmp2,), 1, _helper_fn_add0)
    tl.store(out_ptr0 + (r1 + (rnumel * x0)), tmp3, rmask & xmask)


@triton.jit
def _compare_and_swap_with_index(x, idxs, rnumel, flip, i: tl.constexpr, n_dims: tl.constexpr,
                                 stable: tl.constexpr, descending: tl.constexpr):
    n_outer: tl.constexpr = x.numel >> n_dims
    shape: tl.constexpr = [n_outer * 2**i, 2, 2**(n_dims - i - 1)]
    idtype = tl.core.get_int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True)
    y = tl.reshape(x, shape)
    iy = y.to(idtype, bitcast=True)
    right_mask = tl.arange(0, 2)[None, :, None].to(idtype)
    left_mask = (1 - right_mask).to(idtype)
    ileft = tl.broadcast_to(tl.sum(iy * left_mask, 1)[:, None, :], shape)
    iright = tl.broadcast_to(tl.sum(iy * right_mask, 1)[:, None, :], shape)
    ileft = tl.reshape(ileft, x.shape)
    iright = tl.reshape(iright, x.shape)
    left = ileft.to(x.dtype, bitcast=True)
    right = iright.to(x.dtype, bitcast=True)
    y_idx = tl.reshape(idxs, shape)
    left_idx = tl.broadcast_to(tl.sum(y_idx * left_mask.to(y_idx.dtype), 1)[:, None, :], shape)
    right_idx = tl.broadcast_to(tl.sum(y_idx * right_mask.to(y_idx.dtype), 1)[:, None, :], shape)
    left_idx = tl.reshape(left_idx, x.shape)
    right_idx = tl.reshape(right_idx, x.shape)
    if descending:
        cond = left < right
    else:
        cond = left > right
    if stable:
        cond = cond | ((left == right) & (left_idx > right_idx))
    cond = (right_idx < rnumel) & cond
    cond = cond ^ flip
    ix = x.to(idtype, bitcast=True)
    ret = ix
    ret = ret ^ tl.where(cond, ileft ^ iright, tl.zeros_like(ix))
    new_idxs = idxs ^ tl.where(cond, left_idx ^ right_idx, tl.zeros_like(idxs))
    return ret.to(x.dtype, bitcast=True), new_idxs


@triton.jit
def _bitonic_merge_with_index(x, idxs, rnumel, stage: tl.constexpr, alternating: tl.constexpr,
                              n_dims: tl.constexpr, stable: tl.constexpr, descending: tl.constexpr):
    n_outer: tl.constexpr = x.numel >> n_dims
    if alternating:
        shape: tl.constexpr = [n_outer * 2**(n_dims - 1 - stage), 2, 2**stage]
        flip = tl.reshape(tl.broadcast_to(tl.arange(0, 2)[None, :, None], shape), x.shape)
    else:
        flip = False
    for i in tl.static_range(stage):
        x, idxs = _compare_and_swap_with_index(x, idxs, rnumel, flip, i + (n_dims - stage), n_dims, stable,
                                               descending)
    return x, idxs


@triton.jit
def _sort_with_index(x, idxs, rnumel, dim: tl.constexpr, stable: tl.constexpr, descending: tl.constexpr):
    n_dims: tl.constexpr = tl.constexpr(x.shape[dim]).bit_length() - 1
    for i in tl.static_range(1, n_dims + 1):
        x, idxs = _bitonic_merge_with_index(x, idxs, rnumel, i, i < n_dims, n_dims, stable, descending)
    return x, idxs


@triton.jit
def triton_per_fused_sort_13(in_ptr0, out_ptr0, out_ptr1, xnumel, rnumel, XBLOCK: tl.constexpr,
                             RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, other=0.0)
    tmp1 = r1.to(tl.int16)
    tmp2 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
    tmp3 = tl.broadcast_to(tmp1, [XBLOCK, RBLOCK])
    tmp4, tmp5 = _sort_with_index(tmp2, tmp3, rnumel, 1, stable=True, descending=True)
    tl.store(out_ptr0 + (r1 + (rnumel * x0)), tmp4, rmask & xmask)
    tl.store(out_ptr1 + (r1 + (rnumel * x0)), tmp5.to(tl.int64), rmask & xmask)


@triton.jit
def _bucketize_binary_search(values, offsets_ptr, indexing_dtype: tl.constexpr, right: tl.constexpr,
                             OFFSETS_SIZE: int, BLOCK_SHAPE):
    low = tl.zeros(BLOCK_SHAPE, dtype=indexing_dtype)
    high = tl.full(BLOCK_SHAPE, OFFSETS_SIZE, dtype=indexing_dtype)
    full_range = OFFSETS_SIZE + 1
    while full_range > 1:
        mid = (high + low) // 2
        mask = (mid < OFFSETS_SIZE).to(tl.int1)
        bucket_upper_bound = tl.load(offsets_ptr + mid, mask=mask, other=0.0)
        if right:
            is_above = values >= bucket_upper_bound
        else:
            is_above = values > bucket_upper_bound
        low = tl.where(is_above & mask, mid + 1, low)
        high = tl.where(is_above, high, mid)
        full_range = (full_range + 1) // 2
    return low


@triton.jit
def triton_poi_fused_bucketize_14(in_ptr0, in_ptr1, out_ptr0, nbuckets, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = _bucketize_binary_search(tmp0, in_ptr1, tl.int64, False, nbuckets, [XBLOCK])
    tl.store(out_ptr0 + (x0), tmp1, xmask)


@triton.jit
def triton_per_fused__log_softmax_backward_15(in_ptr0, in_ptr1, in_ptr2, out_ptr1, xnumel, rnumel,
                                              XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp8 = tl.load(in_ptr2 + (r1 + (rnumel * x0)), rmask & xmask, other=0.0).to(tl.float32)
    tmp2 = tl.full([1, 1], -100, tl.int64)
    tmp3 = tmp1 != tmp2
    tmp4 = r1 == tmp1
    tmp5 = tl.where(tmp4 & tmp3, -1.0, 0.0)
    tmp6 = tmp5 * tmp0
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, RBLOCK])
    tmp9 = tl.where(rmask & xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None]
    tmp11 = tl.exp(tmp8)
    tmp12 = tmp6 - tmp11 * tmp10
    tl.store(out_ptr1 + (r1 + (rnumel * x0)), tmp12, rmask & xmask)


# ---------------------------------------------------------------------------------------------
# mm template with epilogue


@triton.jit
def triton_tem_fused_addmm_gelu_16(in_ptr0, arg_A, arg_B, out_ptr0, M, N, K, stride_am, stride_ak, stride_bk,
                                   stride_bn, GROUP_M: tl.constexpr, EVEN_K: tl.constexpr,
                                   ALLOW_TF32: tl.constexpr, ACC_TYPE: tl.constexpr, BLOCK_M: tl.constexpr,
                                   BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    A = arg_A
    B = arg_B
    pid = tl.program_id(0)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if (stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1):
        ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        ram = rm % M
    if (stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1):
        rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        rbn = rn % N
    rk = tl.arange(0, BLOCK_K)
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(K, 0, -BLOCK_K):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            a = tl.load(A, mask=rk[None, :] < k, other=0.)
            b = tl.load(B, mask=rk[:, None] < k, other=0.)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32)
        A += BLOCK_K * stride_ak
        B += BLOCK_K * stride_bk
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)
    xindex = idx_n + (N * idx_m)
    tmp0 = tl.load(in_ptr0 + (tl.broadcast_to(idx_n, acc.shape)), mask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = acc + tmp0
    tmp2 = tmp1 * 0.5
    tmp3 = tmp1 * 0.7071067811865476
    tmp4 = libdevice.erf(tmp3)
    tmp5 = tmp2 * (tmp4 + 1.0)
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, acc.shape)), tmp5, mask)


_F = "*fp32"
_H = "*fp16"
_B = "*bf16"


def _poi(name, fn, sig, const, div=(), warps=4, targets=("cuda:90", "cuda:80"), **kw):
    return dict(name=name, fn=fn, sig=sig, const=const, div=list(div), opts=dict(num_warps=warps, **kw),
                targets=targets)


CASES = [
    _poi("ind_poi_add_gelu_mul", triton_poi_fused_add_gelu_mul_0,
         {"in_out_ptr0": _B, "in_ptr0": _B, "in_ptr1": _B, "xnumel": "i64"}, {"XBLOCK": 1024}, (0, 1, 2)),
    _poi("ind_poi_embedding_assert", triton_poi_fused_embedding_1,
         {"in_ptr0": "*i32", "in_ptr1": _F, "out_ptr0": _F, "xnumel": "i32"}, {"XBLOCK": 512}, (0, 1, 2, 3),
         debug=True),
    _poi("ind_poi_clone_transpose", triton_poi_fused_clone_transpose_2,
         {"in_ptr0": _H, "out_ptr0": _F, "ynumel": "i32", "xnumel": "i32"}, {"YBLOCK": 64, "XBLOCK": 32},
         (0, 1, 2, 3)),
    _poi("ind_poi_libdevice_zoo", triton_poi_fused_libdevice_zoo_3,
         {"in_ptr0": _F, "in_ptr1": _F, "out_ptr0": _F, "out_ptr1": "*i64", "xnumel": "i32"}, {"XBLOCK": 256},
         (0, 1, 2, 3), warps=2),
    _poi("ind_poi_dropout", triton_poi_fused_native_dropout_4,
         {"in_ptr0": "*i64", "in_ptr1": _H, "out_ptr0": "*i1", "out_ptr1": _H, "load_seed_offset": "i32",
          "xnumel": "i32"}, {"XBLOCK": 1024}, (0, 1, 2, 3, 5)),
    _poi("ind_poi_randint", triton_poi_fused_randint_5,
         {"in_ptr0": "*i64", "out_ptr0": "*i64", "load_seed_offset": "i32", "xnumel": "i32"}, {"XBLOCK": 256}),
    _poi("ind_poi_fp8_quant", triton_poi_fused_fp8_quant_6,
         {"in_ptr0": _B, "in_ptr1": _F, "out_ptr0": "*fp8e4nv", "out_ptr1": "*fp8e5", "xnumel": "i32"},
         {"XBLOCK": 1024}, (0, 1, 2, 3), targets=("cuda:90",)),
    _poi("ind_red_layer_norm_welford", triton_red_fused_native_layer_norm_7,
         {"in_ptr0": _B, "in_ptr1": _B, "in_ptr2": _B, "out_ptr0": _F, "out_ptr1": _F, "out_ptr2": _B,
          "xnumel": "i32", "rnumel": "i32"}, {"XBLOCK": 1, "RBLOCK": 2048}, (0, 1, 2, 3, 4, 5), warps=16),
    _poi("ind_red_layer_norm_welford_x8", triton_red_fused_native_layer_norm_7,
         {"in_ptr0": _B, "in_ptr1": _B, "in_ptr2": _B, "out_ptr0": _F, "out_ptr1": _F, "out_ptr2": _B,
          "xnumel": "i32", "rnumel": "i32"}, {"XBLOCK": 8, "RBLOCK": 128}, (0, 1, 2, 3, 4, 5), warps=8),
    _poi("ind_red_argmax", triton_red_fused_argmax_8,
         {"in_ptr0": _H, "out_ptr0": "*i64", "xnumel": "i32", "rnumel": "i32"}, {"XBLOCK": 1, "RBLOCK": 2048},
         (0, 1), warps=8),
    _poi("ind_red_sum_any_isnan", triton_red_fused_sum_any_isnan_9,
         {"in_ptr0": _F, "out_ptr0": "*fp64", "out_ptr1": "*i1", "out_ptr2": "*i64", "xnumel": "i32",
          "rnumel": "i32"}, {"XBLOCK": 4, "RBLOCK": 256}, (0, 1, 2, 3)),
    _poi("ind_per_softmax", triton_per_fused__softmax_10,
         {"in_ptr0": _H, "out_ptr2": _H, "xnumel": "i32", "rnumel": "i32"}, {"XBLOCK": 1, "RBLOCK": 1024},
         (0, 1), warps=8),
    _poi("ind_per_softmax_x32", triton_per_fused__softmax_10,
         {"in_ptr0": _F, "out_ptr2": _F, "xnumel": "i32", "rnumel": "i32"}, {"XBLOCK": 32, "RBLOCK": 16},
         (0, 1), warps=1),
    _poi("ind_per_add_layer_norm", triton_per_fused_add_native_layer_norm_11,
         {"in_out_ptr0": _B, "in_ptr0": _B, "in_ptr1": _B, "in_ptr2": _B, "out_ptr0": _F, "out_ptr1": _B,
          "xnumel": "i32"}, {"XBLOCK": 1}, (0, 1, 2, 3, 4, 5), warps=8),
    _poi("ind_per_cumsum", triton_per_fused_cumsum_12,
         {"in_ptr0": "*i32", "out_ptr0": "*i64", "xnumel": "i32", "rnumel": "i32"}, {"XBLOCK": 4, "RBLOCK": 512},
         (0, 1)),
    _poi("ind_per_sort_with_index", triton_per_fused_sort_13,
         {"in_ptr0": _F, "out_ptr0": _F, "out_ptr1": "*i64", "xnumel": "i32", "rnumel": "i32"},
         {"XBLOCK": 2, "RBLOCK": 256}, (0, 1, 2)),
    _poi("ind_poi_bucketize", triton_poi_fused_bucketize_14,
         {"in_ptr0": _F, "in_ptr1": _F, "out_ptr0": "*i64", "nbuckets": "i32", "xnumel": "i32"},
         {"XBLOCK": 512}, (0, 1, 2)),
    _poi("ind_per_log_softmax_bwd", triton_per_fused__log_softmax_backward_15,
         {"in_ptr0": _B, "in_ptr1": "*i64", "in_ptr2": _B, "out_ptr1": _B, "xnumel": "i32", "rnumel": "i32"},
         {"XBLOCK": 1, "RBLOCK": 4096}, (0, 1, 2, 3), warps=16),
    dict(name="ind_tem_addmm_gelu_tf32", fn=triton_tem_fused_addmm_gelu_16,
         sig={"in_ptr0": _F, "arg_A": _F, "arg_B": _F, "out_ptr0": _F, "M": "i32", "N": "i32", "K": "i32",
              "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32"},
         const={"GROUP_M": 8, "EVEN_K": False, "ALLOW_TF32": True, "ACC_TYPE": tl.float32, "BLOCK_M": 64,
                "BLOCK_N": 64, "BLOCK_K": 32, "stride_ak": 1, "stride_bn": 1},
         div=[0, 1, 2, 3, 4, 5, 6, 7, 9], opts=dict(num_warps=4, num_stages=3)),
    dict(name="ind_tem_addmm_gelu_bf16", fn=triton_tem_fused_addmm_gelu_16,
         sig={"in_ptr0": _B, "arg_A": _B, "arg_B": _B, "out_ptr0": _B, "M": "i32", "N": "i32", "K": "i32",
              "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32"},
         const={"GROUP_M": 8, "EVEN_K": True, "ALLOW_TF32": False, "ACC_TYPE": tl.float32, "BLOCK_M": 128,
                "BLOCK_N": 128, "BLOCK_K": 64, "stride_bk": 1},
         div=[0, 1, 2, 3, 4, 5, 6, 7, 8, 10], opts=dict(num_warps=8, num_stages=4)),
]
