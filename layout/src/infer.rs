//! Layout inference for the ops that rename a tensor's elements without moving
//! them (`tt.trans`, `tt.split`, `tt.join`), and the check of shared-memory
//! subslices against their swizzling, as the ops' verifiers need them.
//!
//! Upstream keeps the inference rules in the TritonGPU dialect's
//! `DialectInferLayoutInterface` (`inferTransOpEncoding`,
//! `inferSplitOpEncoding`) and compares an op's layouts by their linear
//! layouts (`areLayoutsEquivalent`). The rules here follow those: blocked
//! (and swizzled/NVMMA shared) layouts keep their kind, every other layout
//! becomes a linear one.
//!
//! A verifier must not reject valid IR because Tritium cannot compute
//! something: every function tells a rejection upstream would make
//! ([`InferError::Rejected`], with upstream's message) from a question this
//! crate cannot answer ([`InferError::Unsupported`]).
use crate::dims::{standard_out_dims, Dim};
use crate::error::LayoutError;
use crate::kinds::{Blocked, CtaLayout, Layout, NvmmaShared, SwizzledShared};
use crate::linear::LinearLayout;
use crate::utils::transpose_linear_layout;

/// Why no layout could be inferred.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InferError {
    /// The input is invalid; upstream rejects it with this message.
    Rejected(String),
    /// Tritium cannot compute this (a layout or shape the crate does not
    /// handle): no verdict either way.
    Unsupported(LayoutError),
}

impl From<LayoutError> for InferError {
    fn from(error: LayoutError) -> Self {
        InferError::Unsupported(error)
    }
}

pub type InferResult<T> = std::result::Result<T, InferError>;

fn unsupported(what: &str) -> InferError {
    InferError::Unsupported(LayoutError::InvalidParameter(what.to_string()))
}

/// `values` permuted by `order`: entry `i` of the result is `values[order[i]]`.
fn permuted(values: &[u32], order: &[usize]) -> Vec<u32> {
    order.iter().map(|&i| values[i]).collect()
}

/// The inverse permutation of `order`.
fn inverse(order: &[usize]) -> Vec<usize> {
    let mut inverse = vec![0; order.len()];
    for (i, &o) in order.iter().enumerate() {
        inverse[o] = i;
    }
    inverse
}

fn is_permutation(order: &[usize]) -> bool {
    let mut seen = vec![false; order.len()];
    order.iter().all(|&o| o < seen.len() && !std::mem::replace(&mut seen[o], true))
}

/// A layout's dim order after a transposition: dim `d` becomes dim
/// `inverse[d]`.
fn renamed_order(order: &[u32], inverse: &[usize]) -> InferResult<Vec<u32>> {
    order
        .iter()
        .map(|&d| inverse.get(d as usize).map(|&i| i as u32).ok_or_else(|| unsupported("layout order out of range")))
        .collect()
}

fn transposed_cta(cta: &CtaLayout, order: &[usize]) -> InferResult<CtaLayout> {
    Ok(CtaLayout::from_linear(transpose_linear_layout(cta.linear_layout(), order)?)?)
}

/// The layout of `trans(x, order)` when `x` has `layout` and `shape`
/// (upstream `inferTransOpEncoding`): blocked and swizzled shared layouts
/// permute their parameters, an NVMMA shared layout flips `transposed` under
/// `[1, 0]`, anything else becomes the transposed linear layout.
pub fn transposed(layout: &Layout, shape: &[i64], order: &[usize]) -> InferResult<Layout> {
    if order.iter().enumerate().all(|(i, &o)| i == o) {
        return Ok(layout.clone());
    }
    if shape.len() != order.len() {
        return Err(InferError::Rejected(format!(
            "shape and order rank do not match: {} vs {}",
            shape.len(),
            order.len()
        )));
    }
    if !is_permutation(order) {
        return Err(unsupported("order is not a permutation"));
    }
    if layout.rank() != order.len() {
        return Err(InferError::Rejected(format!(
            "rank of encoding does not match order: {} vs {}",
            layout.rank(),
            order.len()
        )));
    }
    let inverse = inverse(order);
    match layout {
        Layout::Blocked(blocked) => {
            return Ok(Layout::Blocked(
                Blocked::new(
                    &permuted(&blocked.size_per_thread, order),
                    &permuted(&blocked.threads_per_warp, order),
                    &permuted(&blocked.warps_per_cta, order),
                    &renamed_order(&blocked.order, &inverse)?,
                )
                .with_cta(transposed_cta(&blocked.cta, order)?),
            ));
        }
        Layout::SwizzledShared(shared) => {
            return Ok(Layout::SwizzledShared(
                SwizzledShared::new(
                    shared.vec,
                    shared.per_phase,
                    shared.max_phase,
                    &renamed_order(&shared.order, &inverse)?,
                )
                .with_cta(transposed_cta(&shared.cta, order)?),
            ));
        }
        Layout::NvmmaShared(shared) if order == [1, 0] => {
            return Ok(Layout::NvmmaShared(
                NvmmaShared::new(
                    shared.swizzling_byte_width,
                    !shared.transposed,
                    shared.element_bit_width,
                    shared.fp4_padded,
                    shared.rank(),
                )
                .with_cta(transposed_cta(&shared.cta, order)?),
            ));
        }
        _ => {}
    }
    // Distributed layouts become `#ttg.linear`, shared ones a shared linear
    // layout (offset and block in-dims).
    let linear = layout.to_linear(shape)?;
    Ok(Layout::Linear(transpose_linear_layout(&linear, order)?))
}

/// Upstream `tryJoinOnAxis`: joining doubles `axis` with a new register
/// basis (`forward`); splitting removes the register basis that steps by one
/// along `axis` and halves `axis` everywhere else.
pub fn joined_on_axis(layout: &LinearLayout, forward: bool, axis: usize) -> InferResult<LinearLayout> {
    let out_names = layout.out_dim_names();
    let axis_name = out_names.get(axis).ok_or_else(|| unsupported("join axis out of range"))?.clone();
    if forward {
        let split = LinearLayout::identity_1d(2, Dim::Register, axis_name)?;
        return Ok((split * layout.clone())?);
    }
    let mut found = false;
    let mut in_dims = Vec::new();
    for (dim, bases) in layout.in_dims() {
        let mut kept = Vec::new();
        for basis in bases {
            if *dim == Dim::Register && basis[axis] == 1 {
                found = true;
                continue;
            }
            let mut basis = basis.clone();
            basis[axis] /= 2;
            kept.push(basis);
        }
        in_dims.push((dim.clone(), kept));
    }
    if !found {
        return Err(InferError::Rejected(
            "Fp4ToFpOp/SplitOp requires at least 2 elements per thread in the axis/last dimension".into(),
        ));
    }
    Ok(LinearLayout::with_inferred_sizes(in_dims, out_names)?)
}

/// The layout of each half of `split(x)` when `x` has `layout` and `shape`
/// (upstream `inferSplitOpEncoding`): a blocked layout holding the pair in
/// one thread's registers loses its last dim, anything else becomes the
/// linear layout without the register basis along the last dim.
pub fn split_halves(layout: &Layout, shape: &[i64]) -> InferResult<Layout> {
    if let Layout::Blocked(blocked) = layout {
        let simple = blocked.size_per_thread.last() == Some(&2)
            && blocked.threads_per_warp.last() == Some(&1)
            && blocked.warps_per_cta.last() == Some(&1)
            && blocked.cta.ctas_per_cga().last() == Some(&1);
        if simple {
            let split_dim = blocked.order.len() as u32 - 1;
            let order: Vec<u32> = blocked.order.iter().copied().filter(|&d| d != split_dim).collect();
            let cta_layout = blocked.cta.linear_layout();
            let last = cta_layout.out_dim_names().last().cloned().ok_or_else(|| unsupported("rank-0 CTA layout"))?;
            let cta = CtaLayout::from_linear(cta_layout.unsqueeze_out(&last)?)?;
            let drop_last = |v: &[u32]| v[..v.len() - 1].to_vec();
            return Ok(Layout::Blocked(
                Blocked::new(
                    &drop_last(&blocked.size_per_thread),
                    &drop_last(&blocked.threads_per_warp),
                    &drop_last(&blocked.warps_per_cta),
                    &order,
                )
                .with_cta(cta),
            ));
        }
    }
    let Some(axis) = shape.len().checked_sub(1) else {
        return Err(InferError::Rejected("SplitOp input shape should have 2 in the last dim".into()));
    };
    if shape[axis] != 2 {
        return Err(InferError::Rejected("SplitOp input shape should have 2 in the last dim".into()));
    }
    if !layout.is_distributed() {
        return Err(unsupported("split of a shared layout"));
    }
    let halves = joined_on_axis(&layout.to_linear(shape)?, false, axis)?;
    let half_shape = shape[..axis]
        .iter()
        .map(|&s| u32::try_from(s).map_err(|_| unsupported("shape out of range")))
        .collect::<InferResult<Vec<u32>>>()?;
    let out_dims: Vec<(Dim, u32)> = standard_out_dims(axis).into_iter().zip(half_shape).collect();
    Ok(Layout::Linear(halves.reshape_outs(&out_dims)?))
}

/// Whether two layouts place the elements of a tensor of `shape` alike
/// (upstream `areLayoutsEquivalent`: equal linear layouts).
pub fn equivalent(shape: &[i64], a: &Layout, b: &Layout) -> Result<bool, LayoutError> {
    if a == b {
        return Ok(true);
    }
    Ok(a.to_linear(shape)? == b.to_linear(shape)?)
}

/// Whether a subslice of a shared allocation cuts through its swizzling
/// pattern (upstream `MemDescSubsliceOp::verify`): for each split dim `d`,
/// stepping by the slice's size along `d` (and every doubling of it up to
/// the source's size) must move by a power-of-two offset in memory, i.e. by
/// a single basis of the layout.
///
/// `alloc_shape` is the allocation's shape (the layout's), `src` and `dst`
/// the shapes of the sliced and the slice descriptor.
pub fn subslice_crosses_swizzling(
    layout: &Layout,
    alloc_shape: &[i64],
    src: &[i64],
    dst: &[i64],
) -> Result<bool, LayoutError> {
    let inverse = layout.to_linear(alloc_shape)?.invert()?;
    let axes = standard_out_dims(src.len());
    for (dim, (&src_size, &dst_size)) in src.iter().zip(dst).enumerate() {
        if src_size == dst_size {
            continue;
        }
        let mut step = dst_size;
        while step < src_size {
            let coordinates: Vec<(Dim, u32)> = axes
                .iter()
                .enumerate()
                .map(|(d, axis)| (axis.clone(), if d == dim { step as u32 } else { 0 }))
                .collect();
            let at = inverse.apply(&coordinates)?;
            let offset = at
                .iter()
                .find(|(d, _)| *d == Dim::Offset)
                .map(|(_, value)| *value)
                .ok_or_else(|| LayoutError::Dimension("shared layout without an offset dim".into()))?;
            if !offset.is_power_of_two() {
                return Ok(true);
            }
            step *= 2;
        }
    }
    Ok(false)
}

/// The layout of `ttg.fp4_to_fp`'s packed source when its result along
/// `axis` has `layout` and `shape` (upstream `inferFp4ToFpOpEncoding`,
/// backwards): dot operands halve `kWidth` and blocked layouts their
/// `sizePerThread` along `axis` when upstream's order test holds, anything
/// else loses the register basis along `axis`.
pub fn fp4_packed_source(layout: &Layout, shape: &[i64], axis: usize) -> InferResult<Layout> {
    let too_few =
        || InferError::Rejected("Fp4ToFpOp requires at least 2 elements per thread in the axis dimension".into());
    // Upstream tests the order's entry at `axis` (not the position of `axis`).
    if layout.order(shape)?.get(axis) == Some(&0) {
        match layout {
            Layout::DotOperand(dot) => {
                if dot.k_width <= 1 {
                    return Err(too_few());
                }
                return Ok(Layout::DotOperand(crate::kinds::DotOperand::new(
                    dot.op_idx,
                    (*dot.parent).clone(),
                    dot.k_width / 2,
                )));
            }
            Layout::Blocked(blocked) => {
                let mut size_per_thread = blocked.size_per_thread.clone();
                match size_per_thread.get_mut(axis) {
                    Some(size) if *size > 1 => *size /= 2,
                    _ => return Err(too_few()),
                }
                return Ok(Layout::Blocked(
                    Blocked::new(&size_per_thread, &blocked.threads_per_warp, &blocked.warps_per_cta, &blocked.order)
                        .with_cta(blocked.cta.clone()),
                ));
            }
            _ => {}
        }
    }
    if !layout.is_distributed() {
        return Err(unsupported("fp4_to_fp of a shared layout"));
    }
    Ok(Layout::Linear(joined_on_axis(&layout.to_linear(shape)?, false, axis)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::DotOperand;
    use crate::NvidiaMma;

    fn blocked(spt: &[u32], tpw: &[u32], wpc: &[u32], order: &[u32]) -> Layout {
        Layout::Blocked(Blocked::new(spt, tpw, wpc, order))
    }

    #[test]
    fn transposing_a_blocked_layout_equals_transposing_its_linear_layout() {
        let source = blocked(&[1, 2, 4], &[4, 8, 1], &[1, 2, 2], &[2, 1, 0]);
        let (shape, order) = ([8, 32, 16], [2, 0, 1]);
        let by_rule = transposed(&source, &shape, &order).unwrap();
        assert!(matches!(by_rule, Layout::Blocked(_)));
        let by_linear = Layout::Linear(transpose_linear_layout(&source.to_linear(&shape).unwrap(), &order).unwrap());
        assert!(equivalent(&[16, 8, 32], &by_rule, &by_linear).unwrap());
    }

    #[test]
    fn transposing_twice_gives_back_an_equivalent_mma_layout() {
        let mma = Layout::NvidiaMma(NvidiaMma::new(2, 0, &[2, 2], &[16, 8]));
        let once = transposed(&mma, &[64, 32], &[1, 0]).unwrap();
        let twice = transposed(&once, &[32, 64], &[1, 0]).unwrap();
        assert!(equivalent(&[64, 32], &mma, &twice).unwrap());
    }

    #[test]
    fn nvmma_shared_transposition_flips_transposed() {
        let shared = Layout::NvmmaShared(NvmmaShared::new(128, false, 16, false, 2));
        let Layout::NvmmaShared(result) = transposed(&shared, &[64, 128], &[1, 0]).unwrap() else { panic!() };
        assert!(result.transposed);
    }

    #[test]
    fn split_and_its_linear_rule_agree_on_a_simple_blocked_layout() {
        let source = blocked(&[1, 2], &[32, 1], &[4, 1], &[1, 0]);
        let halves = split_halves(&source, &[128, 2]).unwrap();
        assert_eq!(halves, blocked(&[1], &[32], &[4], &[0]));
        let linear = Layout::Linear(source.to_linear(&[128, 2]).unwrap());
        let linear_halves = split_halves(&linear, &[128, 2]).unwrap();
        assert!(equivalent(&[128], &halves, &linear_halves).unwrap());
    }

    #[test]
    fn split_rejects_a_pair_spread_over_lanes() {
        let source = blocked(&[1, 1], &[16, 2], &[1, 1], &[1, 0]);
        assert!(matches!(split_halves(&source, &[16, 2]), Err(InferError::Rejected(_))));
    }

    #[test]
    fn fp4_source_of_a_dot_operand_halves_k_width() {
        let mma = Layout::NvidiaMma(NvidiaMma::new(2, 0, &[4, 1], &[16, 8]));
        let dot = Layout::DotOperand(DotOperand::new(0, mma.clone(), 8));
        let Layout::DotOperand(packed) = fp4_packed_source(&dot, &[64, 64], 1).unwrap() else { panic!() };
        assert_eq!(packed.k_width, 4);
        let narrow = Layout::DotOperand(DotOperand::new(0, mma, 1));
        assert!(matches!(fp4_packed_source(&narrow, &[64, 64], 1), Err(InferError::Rejected(_))));
    }

    #[test]
    fn subslices_must_start_at_whole_swizzling_patterns() {
        let shared = Layout::SwizzledShared(SwizzledShared::new(2, 1, 8, &[1, 0]));
        let alloc = [16, 16];
        assert!(!subslice_crosses_swizzling(&shared, &alloc, &alloc, &[8, 16]).unwrap());
        assert!(!subslice_crosses_swizzling(&shared, &alloc, &alloc, &[16, 8]).unwrap());
        assert!(subslice_crosses_swizzling(&shared, &alloc, &alloc, &[4, 16]).unwrap());
    }
}
