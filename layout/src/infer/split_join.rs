//! Ops that pair up or unpair elements along one dim, which stay in the
//! same thread's registers: `tt.join`, `tt.split` and `ttg.fp4_to_fp`
//! (upstream `inferDefaultJoinOpEncoding`, `inferSplitOpEncoding`,
//! `inferFp4ToFpOpEncoding`, all built on `tryJoinOnAxis`).
use super::{shape_u32, unsupported, InferError, InferResult};
use crate::dims::{standard_out_dims, Dim};
use crate::kinds::{Blocked, CtaLayout, DotOperand, Layout};
use crate::linear::LinearLayout;

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
    let out_dims: Vec<(Dim, u32)> = standard_out_dims(axis).into_iter().zip(shape_u32(&shape[..axis])?).collect();
    Ok(Layout::Linear(halves.reshape_outs(&out_dims)?))
}

/// The layout of `join(a, b)` when `a` and `b` have `layout` and `shape`
/// (upstream `inferDefaultJoinOpEncoding`): a slice along the new dim that
/// a split of its parent gives is its parent again, a blocked layout gains
/// a minor dim of two registers, anything else becomes the linear layout
/// with a register basis along the new dim.
pub fn joined(layout: &Layout, shape: &[i64]) -> InferResult<Layout> {
    let rank = shape.len();
    match layout {
        Layout::Slice(slice) if slice.dim as usize == rank => {
            // join undoes a split of the slice's parent on the new last dim.
            let mut joined_shape = shape.to_vec();
            joined_shape.push(2);
            if let Ok(split) = split_halves(&slice.parent, &joined_shape) {
                let same = matches!((split.to_linear(shape), layout.to_linear(shape)), (Ok(a), Ok(b)) if a == b);
                if same {
                    return Ok((*slice.parent).clone());
                }
            }
        }
        Layout::Blocked(blocked) => {
            let append = |v: &[u32], x: u32| v.iter().copied().chain([x]).collect::<Vec<_>>();
            let order: Vec<u32> = [rank as u32].into_iter().chain(blocked.order.iter().copied()).collect();
            let unit = LinearLayout::identity_1d(1, Dim::Block, Dim::Axis(blocked.cta.rank()))?;
            let cta = CtaLayout::from_linear((blocked.cta.linear_layout().clone() * unit)?)?;
            return Ok(Layout::Blocked(
                Blocked::new(
                    &append(&blocked.size_per_thread, 2),
                    &append(&blocked.threads_per_warp, 1),
                    &append(&blocked.warps_per_cta, 1),
                    &order,
                )
                .with_cta(cta),
            ));
        }
        _ => {}
    }
    if !layout.is_distributed() {
        return Err(unsupported("join of a shared layout"));
    }
    let mut unit_shape: Vec<(Dim, u32)> = standard_out_dims(rank).into_iter().zip(shape_u32(shape)?).collect();
    unit_shape.push((Dim::Axis(rank), 1));
    let linear = layout.to_linear(shape)?.reshape_outs(&unit_shape)?;
    Ok(Layout::Linear(joined_on_axis(&linear, true, rank)?))
}

/// The layout of `ttg.fp4_to_fp`'s result along `axis` when its packed
/// source has `layout` and `shape` (upstream `inferFp4ToFpOpEncoding`,
/// forwards): the elements per thread along `axis` double.
pub fn fp4_unpacked_result(layout: &Layout, shape: &[i64], axis: usize) -> InferResult<Layout> {
    fp4_repacked(layout, shape, axis, true)
}

/// The layout of `ttg.fp4_to_fp`'s packed source when its result along
/// `axis` has `layout` and `shape` (upstream `inferFp4ToFpOpEncoding`,
/// backwards): the elements per thread along `axis` halve.
pub fn fp4_packed_source(layout: &Layout, shape: &[i64], axis: usize) -> InferResult<Layout> {
    fp4_repacked(layout, shape, axis, false)
}

/// Unpacking fp4 pairs (`unpack`) or packing them: dot operands scale
/// `kWidth` and blocked layouts their `sizePerThread` along `axis` when
/// upstream's order test holds, anything else gains or loses the register
/// basis along `axis`.
fn fp4_repacked(layout: &Layout, shape: &[i64], axis: usize, unpack: bool) -> InferResult<Layout> {
    let scale = |value: u32| -> InferResult<u32> {
        if unpack {
            value.checked_mul(2).ok_or_else(|| unsupported("elements per thread out of range"))
        } else if value > 1 {
            Ok(value / 2)
        } else {
            Err(InferError::Rejected("Fp4ToFpOp requires at least 2 elements per thread in the axis dimension".into()))
        }
    };
    // Upstream tests the order's entry at `axis` (not the position of `axis`).
    if layout.order(shape)?.get(axis) == Some(&0) {
        match layout {
            Layout::DotOperand(dot) => {
                return Ok(Layout::DotOperand(DotOperand::new(dot.op_idx, (*dot.parent).clone(), scale(dot.k_width)?)));
            }
            Layout::Blocked(blocked) => {
                let mut size_per_thread = blocked.size_per_thread.clone();
                let size = size_per_thread.get_mut(axis).ok_or_else(|| unsupported("fp4 axis out of range"))?;
                *size = scale(*size)?;
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
    Ok(Layout::Linear(joined_on_axis(&layout.to_linear(shape)?, unpack, axis)?))
}

#[cfg(test)]
mod tests {
    use super::super::equivalent;
    use super::*;
    use crate::NvidiaMma;

    fn blocked(spt: &[u32], tpw: &[u32], wpc: &[u32], order: &[u32]) -> Layout {
        Layout::Blocked(Blocked::new(spt, tpw, wpc, order))
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
    fn join_undoes_split() {
        let source = blocked(&[1, 2], &[32, 1], &[4, 1], &[1, 0]);
        let halves = split_halves(&source, &[128, 2]).unwrap();
        assert!(equivalent(&[128, 2], &joined(&halves, &[128]).unwrap(), &source).unwrap());
        let mma = Layout::NvidiaMma(NvidiaMma::new(2, 0, &[4, 1], &[16, 8]));
        let joined_mma = joined(&mma, &[64, 64]).unwrap();
        let split_again = split_halves(&joined_mma, &[64, 64, 2]).unwrap();
        assert!(equivalent(&[64, 64], &split_again, &mma).unwrap());
    }

    #[test]
    fn fp4_source_of_a_dot_operand_halves_k_width() {
        let mma = Layout::NvidiaMma(NvidiaMma::new(2, 0, &[4, 1], &[16, 8]));
        let dot = Layout::DotOperand(DotOperand::new(0, mma.clone(), 8));
        let Layout::DotOperand(packed) = fp4_packed_source(&dot, &[64, 64], 1).unwrap() else { panic!() };
        assert_eq!(packed.k_width, 4);
        let Layout::DotOperand(unpacked) = fp4_unpacked_result(&Layout::DotOperand(packed), &[64, 32], 1).unwrap()
        else {
            panic!()
        };
        assert_eq!(unpacked.k_width, 8);
        let narrow = Layout::DotOperand(DotOperand::new(0, mma, 1));
        assert!(matches!(fp4_packed_source(&narrow, &[64, 64], 1), Err(InferError::Rejected(_))));
    }
}
