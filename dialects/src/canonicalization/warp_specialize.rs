//! Unused and duplicate values of `ttg.warp_specialize` (upstream's
//! WarpSpecializeOp::canonicalize): a capture no partition uses, or that
//! repeats an earlier capture, is dropped (with its block argument in every
//! partition); results nobody uses are dropped from the op and from the
//! default region's `ttg.warp_yield`.
use super::support::{name, set_operand};
use crate::access::{block_argument_at, OpAccess};
use crate::rewrite::{Pattern, Rewriter};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    Attribute, BlockLike, Identifier, OperationRef, Region, RegionLike, RegionRef, Type, Value, ValueLike,
};

pub static PATTERNS: &[Pattern] = &[Pattern { root: "ttg.warp_specialize", benefit: 1, rewrite: drop_unused_values }];

/// The partition regions: those of the `ttg.warp_specialize.partitions` op
/// in the second region.
fn partition_regions<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<RegionRef<'c, 'a>> {
    let holder = op.region_at(1).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation());
    holder.filter(|h| name(h) == "ttg.warp_specialize.partitions").map(|h| h.regions().collect()).unwrap_or_default()
}

fn argument<'c, 'a>(region: &RegionRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    block_argument_at(region.first_block()?, index).ok().map(Into::into)
}

fn has_uses(value: Value) -> bool {
    // SAFETY: a live value.
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// Redirects every use of `from` to `to` (inside a modification of the op
/// that owns both).
fn replace_uses(from: Value, to: Value) {
    // SAFETY: both values are live.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(from.to_raw(), to.to_raw()) }
}

fn drop_unused_values(op: OperationRef, rewriter: &Rewriter) -> bool {
    let regions = partition_regions(&op);
    let captures: Vec<Value> = op.operands().collect();
    let unused_results: Vec<bool> = op.results().map(|r| !has_uses(r.into())).collect();
    let mut unused_captures = vec![false; captures.len()];
    let mut first_of: Vec<(Value, usize)> = Vec::new();
    for (i, capture) in captures.iter().enumerate() {
        let used = regions.iter().any(|r| argument(r, i).is_some_and(has_uses));
        if !used {
            unused_captures[i] = true;
            continue;
        }
        match first_of.iter().find(|(v, _)| v == capture) {
            Some((_, first)) => {
                let first = *first;
                rewriter.modify_in_place(&op, || {
                    for region in &regions {
                        if let (Some(duplicate), Some(kept)) = (argument(region, i), argument(region, first)) {
                            replace_uses(duplicate, kept);
                        }
                    }
                });
                unused_captures[i] = true;
            }
            None => first_of.push((*capture, i)),
        }
    }
    let any_capture = unused_captures.iter().any(|u| *u);
    let any_result = unused_results.iter().any(|u| *u);
    if !any_capture && !any_result {
        return false;
    }
    if any_capture {
        let kept: Vec<Value> =
            captures.iter().zip(&unused_captures).filter(|(_, unused)| !**unused).map(|(v, _)| *v).collect();
        rewriter.modify_in_place(&op, || {
            for region in &regions {
                let Some(block) = region.first_block() else { continue };
                for index in (0..unused_captures.len()).rev().filter(|i| unused_captures[*i]) {
                    // SAFETY: the argument exists and has no uses left.
                    unsafe { mlir_sys::mlirBlockEraseArgument(block.to_raw(), index as u32) };
                }
            }
            let raw: Vec<mlir_sys::MlirValue> = kept.iter().map(|v| v.to_raw()).collect();
            // SAFETY: live op and values; MLIR copies the list.
            unsafe { mlir_sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr()) };
        });
    }
    if any_result {
        drop_unused_results(&op, &unused_results, rewriter);
    }
    true
}

/// Rebuilds `op` without the results marked unused: the default region's
/// yields stop yielding them, and the regions move to the new op.
fn drop_unused_results(op: &OperationRef, unused: &[bool], rewriter: &Rewriter) {
    if let Ok(default) = op.region_at(0) {
        let mut block = default.first_block();
        while let Some(b) = block {
            if let Some(yield_op) = b.terminator().filter(|t| name(t) == "ttg.warp_yield") {
                let kept: Vec<Value> =
                    yield_op.operands().zip(unused).filter(|(_, unused)| !**unused).map(|(v, _)| v).collect();
                rewriter.modify_in_place(&yield_op, || {
                    let raw: Vec<mlir_sys::MlirValue> = kept.iter().map(|v| v.to_raw()).collect();
                    // SAFETY: live op and values; MLIR copies the list.
                    unsafe { mlir_sys::mlirOperationSetOperands(yield_op.to_raw(), raw.len() as isize, raw.as_ptr()) };
                });
            }
            block = b.next_in_region();
        }
    }
    let types: Vec<Type> = op.results().zip(unused).filter(|(_, unused)| !**unused).map(|(r, _)| r.r#type()).collect();
    let regions: Vec<Region> = op
        .regions()
        .map(|old| {
            let new = Region::new();
            // SAFETY: both regions are live; the blocks move to `new`.
            unsafe { mlir_sys::mlirRegionTakeBody(new.to_raw(), old.to_raw()) };
            new
        })
        .collect();
    let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
    let operands: Vec<Value> = op.operands().collect();
    let new_op = OperationBuilder::new("ttg.warp_specialize", op.location())
        .add_operands(&operands)
        .add_results(&types)
        .add_attributes(&attributes)
        .add_regions_vec(regions)
        .build()
        .expect("the op rebuilt from its own parts");
    rewriter.set_insertion_point_before(op);
    let new_op = rewriter.insert(new_op);
    let mut next = 0;
    for (result, unused) in op.results().zip(unused) {
        if !*unused {
            let replacement: Value = new_op.result_at(next).unwrap().into();
            for user in uses_of(result.into()) {
                rewriter.modify_in_place(&user.0, || set_operand(&user.0, user.1, replacement));
            }
            next += 1;
        }
    }
    rewriter.erase_op(op);
}

/// (user, operand index) of every use of `value`.
fn uses_of<'c, 'a>(value: Value<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let mut result = Vec::new();
    // SAFETY: walking the use list of a live value without changing it.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(operand) {
            result.push((
                OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand)),
                mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize,
            ));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    result
}
