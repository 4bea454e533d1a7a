//! `tt.reshape` without reordering (upstream `inferReshapeOpEncoding`,
//! with `inferReshapeOpLegacyEncoding` for blocked layouts).
use super::{inverse_permutation, is_permutation, shape_u32, unsupported, InferError, InferResult};
use crate::kinds::{default_blocked, Blocked, Layout};
use crate::utils::reshape_layout;

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
pub fn reshaped(src_shape: &[i64], layout: &Layout, dst_shape: &[i64]) -> InferResult<Layout> {
    if src_shape.iter().product::<i64>() != dst_shape.iter().product::<i64>() {
        return Err(InferError::Rejected("number of src and dst elements of reshape must be the same".into()));
    }
    if let Layout::Blocked(blocked) = layout {
        if let Some(result) = reshaped_blocked(src_shape, blocked, dst_shape) {
            return Ok(Layout::Blocked(result));
        }
    }
    if !layout.is_distributed() {
        return Err(unsupported("reshape of a shared layout"));
    }
    let linear = layout.to_linear(src_shape)?;
    Ok(Layout::Linear(reshape_layout(&linear, &shape_u32(dst_shape)?)?))
}

#[cfg(test)]
mod tests {
    use super::super::equivalent;
    use super::*;

    #[test]
    fn merging_dims_keeps_a_blocked_layout() {
        let source = Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
        let Layout::Blocked(merged) = reshaped(&[16, 32], &Layout::Blocked(source.clone()), &[512]).unwrap() else {
            panic!()
        };
        assert_eq!(merged, Blocked::new(&[4], &[32], &[4], &[0]));
        let by_linear =
            Layout::Linear(reshape_layout(&Layout::Blocked(source).to_linear(&[16, 32]).unwrap(), &[512]).unwrap());
        assert!(equivalent(&[512], &Layout::Blocked(merged), &by_linear).unwrap());
    }

    #[test]
    fn reshaping_to_another_element_count_is_rejected() {
        let source = Layout::Blocked(Blocked::new(&[1, 4], &[4, 8], &[4, 1], &[1, 0]));
        assert!(matches!(reshaped(&[16, 32], &source, &[256]), Err(InferError::Rejected(_))));
    }
}
