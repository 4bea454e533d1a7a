//! Layout choices for the operands of dots, shared by the passes that place
//! dot operands: the `kWidth` of register operands of tensor cores, the
//! order a tensor is best stored in shared memory, and the shared layouts
//! the MMA instructions read (upstream's attribute builders of
//! `DotOperandEncodingAttr`, `NVMMASharedEncodingAttr` and
//! `SwizzledSharedEncodingAttr`, and `getOrderForMemory`).
use tritium_layout::{
    linear::divide_left,
    standard_out_dims,
    utils::{identity_standard_nd, order_for_dot_operand, shape_per_cta, transpose_linear_layout},
    CtaLayout, Dim, DotOperand, Layout, LayoutError, LinearLayout, NvmmaShared, SwizzledShared,
};

/// The `#ttg.dot_op` layout of operand `op_idx` of a dot whose result has
/// layout `parent`, for elements of `element_bits` bits: tensor cores
/// (MMA v2 and v3 parents) take 32 bits of K per thread at a time, so
/// `kWidth` is 32 bits' worth of elements (at least one); other parents
/// have no `kWidth`.
pub fn dot_operand_for(op_idx: u32, parent: Layout, element_bits: u32) -> DotOperand {
    let k_width = match &parent {
        Layout::NvidiaMma(mma) if mma.is_ampere() || mma.is_hopper() => (32 / element_bits.max(1)).max(1),
        _ => 0,
    };
    DotOperand::new(op_idx, parent, k_width)
}

/// The order (fastest dim first) in which a tensor of `layout` is best
/// written to shared memory: the layout's element order, unless each thread
/// holds a single element along the dim its lanes walk first, in which case
/// the lanes' order decides (the element order is then immaterial).
pub fn order_for_memory(layout: &Layout, shape: &[i64]) -> Result<Vec<u32>, LayoutError> {
    let order = layout.order(shape)?;
    let thread_order = layout.thread_order(shape)?;
    if order == thread_order {
        return Ok(order);
    }
    let per_thread = layout.elems_per_thread(shape)?;
    if per_thread[thread_order[0] as usize] == 1 {
        return Ok(thread_order);
    }
    Ok(order)
}

fn per_cta_shape(cta: &CtaLayout, shape: &[i64]) -> Vec<i64> {
    let shape: Vec<u64> = shape.iter().map(|&d| d.max(0) as u64).collect();
    shape_per_cta(&cta.cta_split_num(), &shape).into_iter().map(|d| d as i64).collect()
}

/// The `#ttg.nvmma_shared` layout for a buffer of `shape` stored in `order`
/// (wgmma / tcgen05 operands): the widest swizzle (128, 64 or 32 bytes) that
/// the contiguous dim fills exactly, none when it fills none or when fewer
/// than 8 rows (one swizzle pattern) exist; `transposed` when dim 0 is the
/// contiguous one.
pub fn nvmma_shared_for(
    shape: &[i64],
    order: &[u32],
    cta: CtaLayout,
    element_bits: u32,
    fp4_padded: bool,
) -> NvmmaShared {
    let per_cta = per_cta_shape(&cta, shape);
    let packing = if fp4_padded { 2 } else { 1 };
    let contiguous_bytes = per_cta[order[0] as usize] * packing * i64::from(element_bits) / 8;
    let mut swizzle = [128, 64, 32]
        .into_iter()
        .find(|&width| contiguous_bytes >= width && contiguous_bytes % width == 0)
        .unwrap_or(0);
    let outer_rows: i64 = order[1..].iter().map(|&d| per_cta[d as usize]).product();
    if per_cta.len() < 2 || outer_rows < 8 {
        swizzle = 0;
    }
    let rank = shape.len();
    NvmmaShared::new(swizzle as u32, order[0] == 0, element_bits, fp4_padded, rank).with_cta(cta)
}

/// The `#ttg.swizzled_shared` layout from which threads load a dot operand
/// of layout `dot` without bank conflicts (for MMA v2/v3 parents; other
/// parents get no swizzling). `need_trans` says that the buffer is read
/// transposed, which swaps the roles of the K and M/N dims.
pub fn swizzled_shared_for_dot_operand(
    dot: &DotOperand,
    shape: &[i64],
    order: &[u32],
    cta: CtaLayout,
    element_bits: u32,
    need_trans: bool,
) -> Result<SwizzledShared, String> {
    match dot.parent.as_ref() {
        Layout::NvidiaMma(mma) if mma.is_ampere() || mma.is_hopper() => {}
        Layout::NvidiaMma(mma) => {
            return Err(format!("no shared layout for operands of MMA version {}", mma.version_major));
        }
        _ => return Ok(SwizzledShared::new(1, 1, 1, order).with_cta(cta)),
    }
    Ok(swizzled_shared_for_mma_operand(dot.op_idx, dot.k_width, shape, order, cta, element_bits, need_trans))
}

/// The `#ttg.swizzled_shared` layout from which operand `op_idx` of an MMA
/// v2/v3 instruction is read with `k_width` elements of K per register
/// (upstream `SwizzledSharedEncodingAttr::get` with `opIdx` and `kWidth`).
pub fn swizzled_shared_for_mma_operand(
    op_idx: u32,
    k_width: u32,
    shape: &[i64],
    order: &[u32],
    cta: CtaLayout,
    element_bits: u32,
    need_trans: bool,
) -> SwizzledShared {
    let bits = i64::from(element_bits.max(1));
    let k = per_cta_shape(&cta, shape)[order[0] as usize].max(1);
    // Rows of the contiguous dim that together cover the 1024 bits of the
    // 32 banks: small contiguous dims pack several rows per phase.
    let per_phase = (1024 / (bits * k)).max(1);
    let mut vec = 4 * i64::from(k_width);
    let mut mma_stride = 8;
    if need_trans {
        std::mem::swap(&mut vec, &mut mma_stride);
    }
    let rank = order.len();
    let k_dim = if op_idx == 0 { rank - 1 } else { rank - 2 };
    if order[0] as usize != k_dim {
        std::mem::swap(&mut vec, &mut mma_stride);
    }
    // Phases needed for `vec`-element groups to cover all banks, fewer when
    // rows are packed.
    let max_phase = (mma_stride.min(1024 / (vec.max(1) * bits))).max(1);
    let max_phase = (max_phase / per_phase).max(1);
    SwizzledShared::new(vec as u32, per_phase as u32, max_phase as u32, order).with_cta(cta)
}

/// Upstream `swizzleDotOperandLike`: when a distributed `layout` of `shape`
/// is built from tiles of an MMA operand (its threads ordered as operand A's
/// or B's with K contiguous, and an 8 x 4·kWidth microtile of kWidth
/// registers, 4 lanes along K and 8 lanes across dividing it on the left),
/// the swizzled shared layout that operand would be read from. Loads that
/// feed such layouts (say, packed fp4 on its way to a dot) are staged in it.
pub fn swizzled_shared_like_dot_operand(
    layout: &Layout,
    shape: &[i64],
    cta: CtaLayout,
    element_bits: u32,
) -> Option<SwizzledShared> {
    let rank = shape.len();
    if rank < 2 {
        return None;
    }
    let encoding = layout.linear_encoding(shape).ok()?;
    let order = encoding.thread_order();
    let op_idx = (0..2).find(|&op_idx| order_for_dot_operand(op_idx, rank, true) == order)?;
    let k_width = encoding.contig_per_thread()[order[0] as usize];
    let dims = standard_out_dims(rank);
    let (inner, outer) = (dims[order[0] as usize].clone(), dims[order[1] as usize].clone());
    let repetitions: Vec<u32> = (0..rank as u32).collect();
    let microtile = (identity_standard_nd(Dim::Register, &vec![1; rank], &repetitions).ok()?
        * LinearLayout::identity_1d(k_width, Dim::Register, inner.clone()).ok()?
        * LinearLayout::identity_1d(4, Dim::Lane, inner).ok()?
        * LinearLayout::identity_1d(8, Dim::Lane, outer).ok()?)
    .ok()?;
    divide_left(encoding.linear_layout(), &microtile).ok()??;
    Some(swizzled_shared_for_mma_operand(op_idx, k_width, shape, &order, cta, element_bits, false))
}

/// `cta` with its dims permuted by `order` (new dim `i` is old dim
/// `order[i]`), as the CTA layout of a transposed tensor.
pub fn transpose_cta(cta: &CtaLayout, order: &[u32]) -> Result<CtaLayout, LayoutError> {
    let order: Vec<usize> = order.iter().map(|&d| d as usize).collect();
    CtaLayout::from_linear(transpose_linear_layout(cta.linear_layout(), &order)?)
}
