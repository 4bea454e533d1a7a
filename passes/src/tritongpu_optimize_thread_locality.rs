//! `tritongpu-optimize-thread-locality` (upstream OptimizeThreadLocality.cpp):
//! layouts that keep more of a reduction or gather inside each thread or warp.
//!
//! - A reshape that may reorder and feeds reductions along one axis takes a
//!   blocked layout with that axis slowest (so each thread holds whole
//!   stretches of it) and converts back for its other users.
//! - A gather takes a layout in which one warp spans whole columns along the
//!   gather axis, so the gather needs only warp shuffles.
//! - A row reduction accumulated across a loop is split in two (see
//!   [`reduce`]): within each thread inside the loop, across threads once
//!   after it.
mod reduce;

use crate::{
    coalescing::{blocked_for_shape, Threads},
    greedy::apply_with_folds,
    ir::{create, int_attribute, name_of, tensor_parts, tensor_type},
    ssa::{set_attribute, set_operand, uses},
};
use melior::ir::{operation::OperationLike, Attribute, OperationRef, Type, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{GatherOp, ReshapeOp};
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    pass::{PassDefinition, PassOptions, PassResult},
    rewrite::{Pattern, Rewriter},
    target::{lookup_num_warps, ModuleConfig},
};
use tritium_layout::{Blocked, CtaLayout, Layout};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-optimize-thread-locality",
    description: "Choose layouts that keep reductions and gathers within threads and warps",
    anchor: "builtin.module",
    options: &[],
    run,
};

static LAYOUT_PATTERNS: &[Pattern] = &[
    Pattern { root: "tt.reshape", benefit: 1, rewrite: reshape_for_reduction },
    Pattern { root: "tt.gather", benefit: 1, rewrite: warp_local_gather },
];

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let patterns: Vec<&'static Pattern> = LAYOUT_PATTERNS.iter().collect();
    apply_with_folds(module, &patterns)?;
    reduce::split_loop_reductions(module)
}

/// The number of warps and of threads per warp that `op` runs with.
fn threads_of(op: &OperationRef) -> Option<Threads> {
    let num_warps = lookup_num_warps(op).ok()??;
    let threads_per_warp = ModuleConfig::of_enclosing(op).ok()?.threads_per_warp;
    Some(Threads { num_warps, threads_per_warp })
}

/// The CTA layout of upstream's `BlockedEncodingAttr::get(shape, sizePerThread,
/// order, numWarps, threadsPerWarp, numCTAs)`: CTAs go along the dims from
/// the slowest one, as far as the tensor takes them, the rest wraps on the
/// fastest.
fn cta_for(shape: &[i64], size_per_thread: &[u32], order: &[u32], num_ctas: u32) -> Option<CtaLayout> {
    let rank = shape.len();
    let mut per_cga = vec![1u32; rank];
    let mut remaining = num_ctas;
    for &dim in order.iter().rev() {
        let i = dim as usize;
        let fit = (shape[i] / i64::from(size_per_thread[i])).max(1) as u32;
        per_cga[i] = remaining.clamp(1, fit);
        remaining /= per_cga[i];
    }
    let split = per_cga.clone();
    // What does not fit wraps around, on the last dim.
    per_cga[rank - 1] *= remaining;
    CtaLayout::from_split_params(&per_cga, &split, order).ok()
}

/// Upstream's `isExpensiveView`: a reshape between these types moves data
/// across threads (different replication, or a different number of elements
/// per thread).
fn is_expensive_view(source: Type, target: Type) -> bool {
    let parts = |ty: Type| {
        let (shape, _, encoding) = tensor_parts(ty)?;
        Some((layout_of(encoding?).ok()?, shape))
    };
    let (Some((src, src_shape)), Some((dst, dst_shape))) = (parts(source), parts(target)) else { return true };
    let (Ok(src_linear), Ok(dst_linear)) = (src.to_linear(&src_shape), dst.to_linear(&dst_shape)) else { return true };
    src_linear.free_variable_masks() != dst_linear.free_variable_masks()
        || src.total_elems_per_thread(&src_shape).ok() != dst.total_elems_per_thread(&dst_shape).ok()
}

/// Replaces every use of `op`'s result, but in `except`, by `except`'s result
/// (through the rewriter, so the driver sees it).
fn redirect_uses_to(op: &OperationRef, except: &OperationRef, rewriter: &Rewriter) {
    let result = op.result_at(0).unwrap();
    let replacement = except.result_at(0).unwrap().into();
    for user in uses(result.into()) {
        if user.owner != *except {
            rewriter.modify_in_place(&user.owner, || set_operand(&user.owner, user.index, replacement));
        }
    }
}

/// A reshape that may reorder elements, feeding reductions along one axis:
/// its result takes the default blocked layout with that axis slowest, so
/// that threads do not share the reduced stretches; a conversion gives the
/// other users the old layout.
fn reshape_for_reduction(op: OperationRef, rewriter: &Rewriter) -> bool {
    if !op.has_attribute("allow_reorder") {
        return false;
    }
    let result = op.result_at(0).unwrap();
    let mut axis: Option<i64> = None;
    for user in uses(result.into()) {
        if name_of(&user.owner) == "tt.reduce" {
            let user_axis = int_attribute(&user.owner, "axis");
            match axis {
                Some(seen) if Some(seen) != user_axis => return false,
                _ => axis = user_axis,
            }
        }
    }
    let Some(axis) = axis.map(|a| a as usize) else { return false };
    let ty = result.r#type();
    let Some((shape, element, Some(encoding))) = tensor_parts(ty) else { return false };
    let Ok(layout) = layout_of(encoding) else { return false };
    if let Layout::Blocked(blocked) = &layout {
        let ctas = blocked.cta.ctas_per_cga();
        if blocked.threads_per_warp[axis] == 1 && blocked.warps_per_cta[axis] == 1 && ctas.get(axis) == Some(&1) {
            return false;
        }
    }
    let Ok(current_order) = layout.order(&shape) else { return false };
    let mut order: Vec<u32> = current_order.into_iter().filter(|d| *d as usize != axis).collect();
    order.push(axis as u32);
    let size_per_thread = vec![1u32; shape.len()];
    let Ok(ModuleConfig { num_ctas, .. }) = ModuleConfig::of_enclosing(&op) else { return false };
    let (Some(threads), Some(cta)) = (threads_of(&op), cta_for(&shape, &size_per_thread, &order, num_ctas)) else {
        return false;
    };
    let Ok(blocked) = blocked_for_shape(&shape, size_per_thread, order, threads, cta) else { return false };
    let Some(new_encoding) = attribute_of(&Layout::Blocked(blocked), op.location()) else { return false };
    if new_encoding == encoding {
        return false;
    }
    let new_type = tensor_type(&shape, element, Some(new_encoding));
    if is_expensive_view(ReshapeOp::of(op).unwrap().src().r#type(), new_type) {
        return false;
    }
    let unit = unit_attribute(&op);
    rewriter.modify_in_place(&op, || {
        crate::ir::set_type(result.into(), new_type);
        set_attribute(&op, "efficient_layout", unit);
    });
    let convert =
        insert_after(rewriter, &op, create("ttg.convert_layout", op.location(), &[result.into()], &[ty], &[]));
    redirect_uses_to(&op, &convert, rewriter);
    true
}

fn unit_attribute<'c>(op: &OperationRef<'c, '_>) -> Attribute<'c> {
    tritium_dialects::ir::unit_attribute(op.location())
}

/// Inserts `new_op` right after `op` through the rewriter.
fn insert_after<'c, 'a>(
    rewriter: &Rewriter,
    op: &OperationRef<'c, 'a>,
    new_op: melior::ir::Operation<'c>,
) -> OperationRef<'c, 'a> {
    match op.next_in_block() {
        Some(next) => {
            rewriter.set_insertion_point_before(&next);
            rewriter.insert(new_op)
        }
        // Every op but a terminator has a next one in its block.
        None => unreachable!("a reshape or gather is never a block's terminator"),
    }
}

/// The warp-local layout of a gather (upstream's `setOptimizedGatherLayout`):
/// as many lanes as fit along the gather axis, the rest and the warps along
/// the other dims in the source's thread and warp orders; whatever is left
/// broadcasts along the axis.
fn gather_layout(source: &Layout, shape: &[i64], axis: usize, threads: Threads) -> Option<Blocked> {
    let rank = shape.len();
    let Threads { num_warps, threads_per_warp } = threads;
    let mut lanes = vec![0u32; rank];
    let mut warps = vec![0u32; rank];
    let mut order = vec![axis as u32];
    let lanes_on_axis = (shape[axis] as u32).min(threads_per_warp).max(1);
    lanes[axis] = lanes_on_axis;
    let mut lanes_left = threads_per_warp / lanes_on_axis;
    for dim in source.thread_order(shape).ok()? {
        let d = dim as usize;
        if d == axis {
            continue;
        }
        order.push(dim);
        let here = (shape[d] as u32).min(lanes_left).max(1);
        lanes[d] = here;
        lanes_left /= here;
    }
    warps[axis] = 1;
    let mut warps_left = num_warps;
    for dim in source.warp_order(shape).ok()? {
        let d = dim as usize;
        if d == axis {
            continue;
        }
        let fit = shape[d] as u32 / lanes[d];
        if fit == 0 {
            return None;
        }
        let here = fit.min(warps_left);
        warps[d] = here;
        warps_left /= here;
    }
    if lanes.contains(&0) || warps.contains(&0) {
        return None;
    }
    let mut size_per_thread = vec![1u32; rank];
    size_per_thread[axis] = shape[axis] as u32 / lanes[axis];
    lanes[axis] *= lanes_left;
    warps[axis] *= warps_left;
    Some(Blocked::new(&size_per_thread, &lanes, &warps, &order).with_cta(source.cta_layout().ok()?))
}

/// A gather whose layout was not chosen yet gets the warp-local one, with
/// conversions of its source and indices to it and of its result back.
fn warp_local_gather(op: OperationRef, rewriter: &Rewriter) -> bool {
    if op.has_attribute("efficient_layout") {
        return false;
    }
    let Some(gather) = GatherOp::of(op) else { return false };
    let (source, indices, result) = (gather.src(), gather.indices(), op.result_at(0).unwrap());
    let Some((shape, _, Some(encoding))) = tensor_parts(source.r#type()) else { return false };
    let (Some(axis), Some(threads)) = (int_attribute(&op, "axis"), threads_of(&op)) else { return false };
    if shape.len() == 1 {
        return false;
    }
    let Ok(layout) = layout_of(encoding) else { return false };
    let Some(blocked) = gather_layout(&layout, &shape, axis as usize, threads) else { return false };
    let Some(new_encoding) = attribute_of(&Layout::Blocked(blocked), op.location()) else { return false };
    fn retyped<'c>(ty: Type<'c>, encoding: Attribute<'c>) -> Type<'c> {
        let (shape, element, _) = tensor_parts(ty).expect("gather operands are tensors");
        tensor_type(&shape, element, Some(encoding))
    }
    let location = op.location();
    rewriter.set_insertion_point_before(&op);
    let new_source = rewriter.insert(create(
        "ttg.convert_layout",
        location,
        &[source],
        &[retyped(source.r#type(), new_encoding)],
        &[],
    ));
    let new_indices = rewriter.insert(create(
        "ttg.convert_layout",
        location,
        &[indices],
        &[retyped(indices.r#type(), new_encoding)],
        &[],
    ));
    let old_type = result.r#type();
    let back = insert_after(rewriter, &op, create("ttg.convert_layout", location, &[result.into()], &[old_type], &[]));
    redirect_uses_to(&op, &back, rewriter);
    let unit = unit_attribute(&op);
    rewriter.modify_in_place(&op, || {
        set_operand(&op, 0, new_source.result_at(0).unwrap().into());
        set_operand(&op, 1, new_indices.result_at(0).unwrap().into());
        crate::ir::set_type(result.into(), retyped(old_type, new_encoding));
        set_attribute(&op, "efficient_layout", unit);
    });
    true
}
