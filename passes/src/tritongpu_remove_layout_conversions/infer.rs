//! Layout inference through shape-changing ops: given the layout on one side
//! of a `tt.trans`, `tt.reshape`, `tt.join` or `tt.split`, the layout on the
//! other side that makes the op a no-op (the same thread holds the same
//! elements, only renamed). Upstream keeps these in the TritonGPU dialect's
//! `DialectInferLayoutInterface` (`inferTransOpEncoding`,
//! `inferReshapeOpEncoding`, `inferDefaultJoinOpEncoding`,
//! `inferSplitOpEncoding`); the "legacy" kinds are kept where upstream keeps
//! them, everything else becomes a `#ttg.linear` layout.
//!
//! Pure functions of layouts and shapes; `None` where upstream fails.
use tritium_layout::{
    default_blocked, standard_out_dims,
    utils::{reshape_layout, transpose_linear_layout},
    Blocked, CtaLayout, Dim, Layout, LinearLayout,
};

/// `values` permuted by `order`: element `i` of the result is `values[order[i]]`.
fn permuted<T: Copy>(values: &[T], order: &[usize]) -> Vec<T> {
    order.iter().map(|&i| values[i]).collect()
}

/// The inverse permutation: `inverse[order[i]] == i`.
pub(super) fn inverse_permutation(order: &[usize]) -> Vec<usize> {
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

fn to_u32(shape: &[i64]) -> Option<Vec<u32>> {
    shape.iter().map(|&s| u32::try_from(s).ok()).collect()
}

/// The layout of `trans(x, order)` when `x` has `layout` and `shape`: blocked
/// layouts permute their parameters (and invert-permute their order), every
/// other distributed layout becomes the transposed linear layout.
pub(crate) fn transposed(layout: &Layout, shape: &[i64], order: &[usize]) -> Option<Layout> {
    if order.iter().enumerate().all(|(i, &o)| i == o) {
        return Some(layout.clone());
    }
    if shape.len() != order.len() || !is_permutation(order) || layout.rank() != order.len() {
        return None;
    }
    if let Layout::Blocked(blocked) = layout {
        let inverse = inverse_permutation(order);
        let cta = CtaLayout::from_linear(transpose_linear_layout(blocked.cta.linear_layout(), order).ok()?).ok()?;
        let new_order =
            blocked.order.iter().map(|&d| inverse.get(d as usize).map(|&i| i as u32)).collect::<Option<Vec<_>>>()?;
        return Some(Layout::Blocked(
            Blocked::new(
                &permuted(&blocked.size_per_thread, order),
                &permuted(&blocked.threads_per_warp, order),
                &permuted(&blocked.warps_per_cta, order),
                &new_order,
            )
            .with_cta(cta),
        ));
    }
    if !layout.is_distributed() {
        return None;
    }
    let linear = layout.to_linear(shape).ok()?;
    Some(Layout::Linear(transpose_linear_layout(&linear, order).ok()?))
}

/// Upstream `getReshapeDecomposition`: groups of source dims and destination
/// dims that hold the same elements, in order.
fn reshape_decomposition(src: &[i64], dst: &[i64]) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut groups = Vec::new();
    if src.is_empty() {
        return groups;
    }
    let mut group: (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let (mut s, mut d) = (0usize, 0usize);
    let (mut src_elems, mut dst_elems) = (1i64, 1i64);
    while s < src.len() || d < dst.len() {
        if src_elems < dst_elems || (s < src.len() && (src_elems == 1 || src[s] == 1)) {
            let Some(&size) = src.get(s) else { break };
            src_elems *= size;
            group.0.push(s);
            s += 1;
        } else if dst_elems < src_elems || (d < dst.len() && dst[d] == 1) {
            let Some(&size) = dst.get(d) else { break };
            dst_elems *= size;
            group.1.push(d);
            d += 1;
        } else {
            groups.push(std::mem::take(&mut group));
            src_elems = 1;
            dst_elems = 1;
        }
    }
    groups.push(group);
    groups
}

/// Upstream `inferReshapeOpLegacyEncoding`: a blocked layout for the
/// reshaped tensor when one exists.
fn reshaped_blocked(src_shape: &[i64], src: &Blocked, dst_shape: &[i64]) -> Option<Blocked> {
    if src_shape == dst_shape {
        return Some(src.clone());
    }
    let num_warps: u32 = src.warps_per_cta.iter().product();
    let threads_per_warp: u32 = src.threads_per_warp.iter().product();
    let num_ctas: u32 = src.cta.ctas_per_cga().iter().product();
    if default_blocked(src_shape, num_warps, threads_per_warp, num_ctas).ok().as_ref() == Some(src) {
        return default_blocked(dst_shape, num_warps, threads_per_warp, num_ctas).ok();
    }
    // Multi-CTA layouts are not handled (as upstream).
    if src.cta.ctas_per_cga().iter().any(|&c| c != 1) || src.cta.cta_split_num().iter().any(|&c| c != 1) {
        return None;
    }
    let rank = src_shape.len();
    let fields = [&src.size_per_thread, &src.threads_per_warp, &src.warps_per_cta];
    for field in fields {
        if field.len() != rank {
            return None;
        }
        for dim in 0..rank {
            let block = i64::from(field[dim]);
            if src_shape[dim] >= block && src_shape[dim] % block != 0 {
                return None;
            }
        }
    }
    let mut decomposition = reshape_decomposition(src_shape, dst_shape);
    let order: Vec<usize> = src.order.iter().map(|&d| d as usize).collect();
    if !is_permutation(&order) || order.len() != rank {
        return None;
    }
    // src_inverse_order[d]: how minor dim d is (0 = most minor).
    let src_inverse_order = inverse_permutation(&order);
    // Merged source dims must be consecutive in physical order, the first
    // the most major.
    for (src_dims, _) in &decomposition {
        let physical: Vec<usize> = src_dims.iter().rev().map(|&d| src_inverse_order[d]).collect();
        if physical.windows(2).any(|w| w[1] != w[0] + 1) {
            return None;
        }
    }
    // Within a group, a more major dim may only be split over threads once the
    // more minor dims are covered; a block larger than the shape is allowed
    // only on the group's most major dim.
    // The sub-blocks fill a group in turn: sizePerThread, then threadsPerWarp,
    // then warpsPerCTA, each taking what the previous left of the shape.
    for (src_dims, _) in &decomposition {
        let mut remaining: Vec<i64> = src_dims.iter().map(|&d| src_shape[d]).collect();
        for field in fields {
            for i in (0..src_dims.len()).rev() {
                let block = i64::from(field[src_dims[i]]);
                if block == 1 {
                    continue;
                }
                if remaining[i + 1..].iter().any(|&r| r != 1) {
                    return None;
                }
                remaining[i] = if remaining[i] >= block { remaining[i] / block } else { 0 };
                if remaining[i] == 0 && i != 0 {
                    return None;
                }
            }
        }
    }
    // Fill the destination sub-blocks greedily from the most minor dim.
    let mut dst_remaining: Vec<i64> = dst_shape.to_vec();
    let mut sub_block = |field: &[u32]| -> Option<Vec<u32>> {
        let mut result = vec![1u32; dst_shape.len()];
        for (src_dims, dst_dims) in &decomposition {
            let mut left: i64 = src_dims.iter().map(|&d| i64::from(field[d])).product();
            for &d in dst_dims.iter().rev() {
                let value = left.min(dst_remaining[d]).max(1);
                if dst_remaining[d] % value != 0 {
                    return None;
                }
                result[d] = u32::try_from(value).ok()?;
                left /= value;
                dst_remaining[d] /= value;
            }
            let first = *dst_dims.first()?;
            result[first] = result[first].checked_mul(u32::try_from(left).ok()?)?;
        }
        Some(result)
    };
    let size_per_thread = sub_block(&src.size_per_thread)?;
    let threads_per_warp = sub_block(&src.threads_per_warp)?;
    let warps_per_cta = sub_block(&src.warps_per_cta)?;
    // Destination dims follow the physical order of their source dims.
    decomposition.sort_by_key(|(src_dims, _)| src_dims.first().map(|&d| src_inverse_order[d]).unwrap_or(0));
    let mut dst_inverse_order = vec![0usize; dst_shape.len()];
    let mut next = 0;
    for (_, dst_dims) in &decomposition {
        for &d in dst_dims.iter().rev() {
            dst_inverse_order[d] = next;
            next += 1;
        }
    }
    let dst_order: Vec<u32> = inverse_permutation(&dst_inverse_order).into_iter().map(|d| d as u32).collect();
    Some(Blocked::new(&size_per_thread, &threads_per_warp, &warps_per_cta, &dst_order))
}

/// The layout of `reshape(x)` (without reordering) from the layout of `x`
/// (upstream `inferReshapeOpEncoding`): a blocked layout where the legacy
/// rules find one, else the reshaped linear layout.
pub(crate) fn reshaped(src_shape: &[i64], layout: &Layout, dst_shape: &[i64]) -> Option<Layout> {
    if src_shape.iter().product::<i64>() != dst_shape.iter().product::<i64>() {
        return None;
    }
    if let Layout::Blocked(blocked) = layout {
        if let Some(result) = reshaped_blocked(src_shape, blocked, dst_shape) {
            return Some(Layout::Blocked(result));
        }
    }
    if !layout.is_distributed() {
        return None;
    }
    let linear = layout.to_linear(src_shape).ok()?;
    Some(Layout::Linear(reshape_layout(&linear, &to_u32(dst_shape)?).ok()?))
}

/// Upstream `tryJoinOnAxis`: joining doubles `axis` with a new register bit;
/// splitting removes the register basis that steps along `axis`.
pub(crate) fn joined_on_axis(layout: &LinearLayout, forward: bool, axis: usize) -> Option<LinearLayout> {
    let out_names = layout.out_dim_names();
    if forward {
        let split = LinearLayout::identity_1d(2, Dim::Register, out_names.get(axis)?.clone()).ok()?;
        return (split * layout.clone()).ok();
    }
    let mut found = false;
    let mut in_dims = Vec::new();
    for (dim, bases) in layout.in_dims() {
        let mut kept = Vec::new();
        for basis in bases {
            if *dim == Dim::Register && basis.get(axis) == Some(&1) {
                found = true;
                continue;
            }
            let mut basis = basis.clone();
            *basis.get_mut(axis)? /= 2;
            kept.push(basis);
        }
        in_dims.push((dim.clone(), kept));
    }
    if !found {
        return None;
    }
    LinearLayout::with_inferred_sizes(in_dims, out_names).ok()
}

/// The layout of `join(a, b)` when `a` and `b` have `layout` and `shape`
/// (upstream `inferDefaultJoinOpEncoding`).
pub(super) fn joined(layout: &Layout, shape: &[i64]) -> Option<Layout> {
    let rank = shape.len();
    match layout {
        Layout::Slice(slice) if slice.dim as usize == rank => {
            // join undoes a split of the slice's parent on the new last dim.
            let mut joined_shape = shape.to_vec();
            joined_shape.push(2);
            if let Some(split) = split_layout(&slice.parent, &joined_shape) {
                let same = matches!((split.to_linear(shape), layout.to_linear(shape)), (Ok(a), Ok(b)) if a == b);
                if same {
                    return Some((*slice.parent).clone());
                }
            }
        }
        Layout::Blocked(blocked) => {
            let append = |v: &[u32], x: u32| v.iter().copied().chain([x]).collect::<Vec<_>>();
            let order: Vec<u32> = [rank as u32].into_iter().chain(blocked.order.iter().copied()).collect();
            let unit = LinearLayout::identity_1d(1, Dim::Block, Dim::Axis(blocked.cta.rank())).ok()?;
            let cta = CtaLayout::from_linear((blocked.cta.linear_layout().clone() * unit).ok()?).ok()?;
            return Some(Layout::Blocked(
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
        return None;
    }
    let mut unit_shape: Vec<(Dim, u32)> = standard_out_dims(rank).into_iter().zip(to_u32(shape)?).collect();
    unit_shape.push((Dim::Axis(rank), 1));
    let linear = layout.to_linear(shape).ok()?.reshape_outs(&unit_shape).ok()?;
    Some(Layout::Linear(joined_on_axis(&linear, true, rank)?))
}

/// The layout of the halves of `split(x)` when `x` has `layout` and `shape`
/// (upstream `inferSplitOpEncoding`).
pub(super) fn split_layout(layout: &Layout, shape: &[i64]) -> Option<Layout> {
    if let Layout::Blocked(blocked) = layout {
        let simple = blocked.size_per_thread.last() == Some(&2)
            && blocked.threads_per_warp.last() == Some(&1)
            && blocked.warps_per_cta.last() == Some(&1)
            && blocked.cta.ctas_per_cga().last() == Some(&1);
        if simple {
            let split_dim = blocked.order.len() as u32 - 1;
            let order: Vec<u32> = blocked.order.iter().copied().filter(|&d| d != split_dim).collect();
            let last = blocked.cta.linear_layout().out_dim_names().last()?.clone();
            let cta = CtaLayout::from_linear(blocked.cta.linear_layout().unsqueeze_out(&last).ok()?).ok()?;
            let drop_last = |v: &[u32]| v[..v.len() - 1].to_vec();
            return Some(Layout::Blocked(
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
    let axis = shape.len().checked_sub(1)?;
    if shape[axis] != 2 || !layout.is_distributed() {
        return None;
    }
    let halves = joined_on_axis(&layout.to_linear(shape).ok()?, false, axis)?;
    let half_shape: Vec<(Dim, u32)> = standard_out_dims(axis).into_iter().zip(to_u32(&shape[..axis])?).collect();
    Some(Layout::Linear(halves.reshape_outs(&half_shape).ok()?))
}
