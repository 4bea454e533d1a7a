//! Asynchronous wgmma (upstream `asyncLaunchDots` in `WGMMAPipeline.cpp`):
//! every `ttng.warp_group_dot` of a loop body becomes `isAsync`, and waits
//! (`ttng.warp_group_dot_wait`) are added where its result or its shared
//! operands are needed:
//!
//! - a dot that can be "properly async" (shared operands multi-buffered or
//!   loop-invariant, register operands loop-invariant or from a previous
//!   wgmma; result only carried to the next iteration, where it feeds
//!   other dots' accumulators or is used after a full wait) runs
//!   overlapped: the loop waits for all but the dots of this iteration
//!   (unless it already waits for all somewhere), and a wait after the
//!   loop collects the last results;
//! - any other dot is followed by a wait for all dots.
//!
//! When the loop has no wait for all dots, properly async wgmmas with A in
//! registers are first split along K (see [`super::split_rs_dot`]), each
//! slice waiting for its previous iteration when the loop computes A.
//!
//! A wait takes the values it guards as operands and returns them, and its
//! uses replace the values' uses after it, so nothing reads them early; it
//! also takes the shared buffers the dots it waits for read, to keep them
//! alive until then.
use super::builder::Builder;
use super::loops::{ancestor_in_block, body, body_ops, iter_args, yield_of};
use super::split_rs_dot::split_rs_dot;
use crate::ir::{erase, int_attribute, name_of};
use crate::ssa::{argument_number, argument_owner, defining_op, is_defined_outside, op_key, uses, Key};
use melior::ir::{
    attribute::{BoolAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    OperationRef, Type, TypeLike, Value, ValueLike,
};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{ConvertLayoutOp, SrcOp, WarpGroupDotOp};
use tritium_dialects::{layout::layout_of, pass::PassResult, types::MemDesc};
use tritium_layout::Layout;

pub fn async_launch_dots(lp: OperationRef) -> PassResult {
    let mut properly_async: Vec<(OperationRef, usize)> = Vec::new();
    for dot in body_ops(&lp).into_iter().filter(|op| name_of(op) == "ttng.warp_group_dot") {
        let context_ref = dot.context();
        crate::ssa::set_attribute(&dot, "isAsync", BoolAttribute::new(unsafe { context_ref.to_ref() }, true).into());
        match can_be_properly_async(&dot, &lp) {
            Some(index) => properly_async.push((dot, index)),
            None => {
                let wait = create_wait(Builder::after(dot), &[], 0);
                thread_values_through_wait(wait, &[dot.result_at(0).unwrap().into()]);
            }
        }
    }
    if properly_async.is_empty() {
        return Ok(());
    }
    // Register-operand wgmmas are split along K so that the slices can run
    // while the next ones' registers are produced; not when the loop waits
    // for all dots anyway.
    let waits_for_all = body_ops(&lp)
        .iter()
        .any(|op| name_of(op) == "ttng.warp_group_dot_wait" && int_attribute(op, "pendings") == Some(0));
    if !waits_for_all {
        let mut split = Vec::new();
        for (dot, index) in properly_async {
            split.extend(split_rs_dot(dot)?.into_iter().map(|d| (d, index)));
        }
        properly_async = split;
    }
    insert_wait_in_loop(&lp, &properly_async);
    // After the loop, wait for the dots of the last iteration.
    let results: Vec<Value> = properly_async.iter().map(|(_, index)| lp.result_at(*index).unwrap().into()).collect();
    let wait = create_wait(Builder::after(lp), &[], 0);
    thread_values_through_wait(wait, &results);
    Ok(())
}

/// A `ttng.warp_group_dot_wait` of `inputs` with `pendings`.
fn create_wait<'c, 'a>(mut builder: Builder<'c, 'a>, inputs: &[Value<'c, 'a>], pendings: i64) -> OperationRef<'c, 'a> {
    let types: Vec<Type> = inputs.iter().map(|v| v.r#type()).collect();
    let context_ref = builder.location.context();
    let i32_type = IntegerType::new(unsafe { context_ref.to_ref() }, 32).into();
    builder.create(
        "ttng.warp_group_dot_wait",
        inputs,
        &types,
        &[("pendings", IntegerAttribute::new(i32_type, pendings).into())],
    )
}

fn is_shared(ty: Type) -> bool {
    MemDesc::of(ty).is_some()
}

/// Upstream `dotCanBeProperlyAsync`: the index of the iter_arg the dot's
/// result is carried in, when it can stay in flight across iterations.
fn can_be_properly_async(dot: &OperationRef, lp: &OperationRef) -> Option<usize> {
    let dot = WarpGroupDotOp::of(*dot)?;
    let (a, b) = (dot.a(), dot.b());
    if !operand_is_stable(a, lp) || !operand_is_stable(b, lp) {
        return None;
    }
    // The result may only be yielded (possibly through no-op conversions and
    // `scf.if`s).
    let mut iter_arg_index: Option<usize> = None;
    let mut queue: Vec<(OperationRef, usize)> =
        uses(dot.result_at(0).unwrap().into()).into_iter().map(|u| (u.owner, u.index)).collect();
    while let Some((user, index)) = queue.pop() {
        let parent = user.parent_operation()?;
        if parent == *lp {
            if is_noop(&user) {
                queue.extend(uses(user.result_at(0).ok()?.into()).into_iter().map(|u| (u.owner, u.index)));
                continue;
            }
            if name_of(&user) == "scf.yield" && iter_arg_index.is_none() {
                iter_arg_index = Some(index);
                continue;
            }
            return None;
        }
        if name_of(&parent) == "scf.if" {
            if name_of(&user) == "scf.yield" {
                queue.extend(uses(parent.result_at(index).ok()?.into()).into_iter().map(|u| (u.owner, u.index)));
            }
        } else {
            return None;
        }
    }
    // Only f32 accumulators stay in flight.
    let accumulator = dot.c();
    if !crate::ir::tensor_parts(accumulator.r#type()).is_some_and(|(_, element, _)| element.is_f32()) {
        return None;
    }
    let index = iter_arg_index?;
    let iter_arg = iter_args(lp)[index];
    // The previous iteration's result only feeds other wgmmas' accumulators
    // (possibly through no-ops).
    let arg_uses = uses(iter_arg);
    if arg_uses.iter().all(|u| feeds_accumulators(&u.owner, u.index)) {
        return Some(index);
    }
    // Or it is only used after a wait for all dots, through which it is then
    // threaded.
    let full_wait = body_ops(lp)
        .into_iter()
        .find(|op| name_of(op) == "ttng.warp_group_dot_wait" && int_attribute(op, "pendings") == Some(0))?;
    let block = body(lp)?;
    let after_wait = arg_uses
        .iter()
        .all(|u| ancestor_in_block(&block, u.owner).is_some_and(|top| full_wait.is_before_in_block(top)));
    if !after_wait {
        return None;
    }
    thread_values_through_wait(full_wait, &[iter_arg]);
    Some(index)
}

/// Whether operand `index` of `user` is a wgmma's accumulator, directly or
/// through no-ops.
fn feeds_accumulators(user: &OperationRef, index: usize) -> bool {
    if name_of(user) == "ttng.warp_group_dot" {
        return index == 2;
    }
    is_noop(user) && uses(user.result_at(0).unwrap().into()).iter().all(|u| feeds_accumulators(&u.owner, u.index))
}

/// Rule 1 of upstream's `dotCanBeProperlyAsync`: a register operand is
/// always fine; a shared operand must be multi-buffered (a `memdesc_index`)
/// or loop-invariant, seen through views and the loop's iter_args.
fn operand_is_stable(operand: Value, lp: &OperationRef) -> bool {
    if !is_shared(operand.r#type()) {
        return true;
    }
    let mut value = operand;
    let body = body(lp);
    loop {
        if argument_owner(value).is_some() {
            if argument_owner(value) != body {
                break;
            }
            let number = argument_number(value).unwrap_or(0);
            match yield_of(lp).and_then(|y| y.operand_at(number.wrapping_sub(1)).ok()) {
                Some(yielded) if yielded != value => value = yielded,
                _ => break,
            }
            continue;
        }
        match defining_op(value) {
            Some(op)
                if matches!(
                    name_of(&op).as_str(),
                    "ttg.convert_layout" | "ttg.memdesc_trans" | "ttg.memdesc_reshape" | "ttg.memdesc_subslice"
                ) =>
            {
                value = SrcOp::of(op).expect("an op with a src").src();
            }
            _ => break,
        }
    }
    is_defined_outside(value, lp) || defining_op(value).is_some_and(|op| name_of(&op) == "ttg.memdesc_index")
}

/// Upstream `isNoop`: reshapes, transposes, and layout conversions that move
/// no data.
fn is_noop(op: &OperationRef) -> bool {
    match name_of(op).as_str() {
        "tt.reshape" | "tt.trans" => true,
        "ttg.convert_layout" => {
            let linear = |ty: Type| {
                let (shape, _, layout) = crate::ir::tensor_parts(ty)?;
                layout_of(layout?).ok()?.to_linear(&shape).ok()
            };
            let (Some(source), Some(result)) =
                (linear(ConvertLayoutOp::of(*op).unwrap().src().r#type()), linear(op.result_at(0).unwrap().r#type()))
            else {
                return false;
            };
            tritium_layout::convert::minimal_cvt_layout(&source, &result)
                .is_ok_and(|c| c == tritium_layout::LinearLayout::empty())
        }
        _ => false,
    }
}

/// Upstream `rsDotNeedsWait`: a wgmma reading its A operand from registers
/// computed in the loop (not by another wgmma) must not start before its
/// previous iteration is done with those registers.
fn rs_dot_needs_wait(dot: &OperationRef, lp: &OperationRef) -> bool {
    let Some(dot) = WarpGroupDotOp::of(*dot) else { return false };
    let a = dot.a();
    if is_shared(a.r#type()) || is_defined_outside(a, lp) {
        return false;
    }
    match defining_op(a).and_then(ConvertLayoutOp::of) {
        Some(convert) => !crate::ir::tensor_parts(convert.src().r#type())
            .and_then(|(_, _, layout)| layout)
            .and_then(|l| layout_of(l).ok())
            .is_some_and(|l| matches!(l, Layout::NvidiaMma(_))),
        None => true,
    }
}

/// Upstream `insertAsyncWarpGroupDotWaitInLoop`: unless the loop already
/// waits for all dots, the users of the async dots in the body wait for
/// them, and a wait after the last one lets only this iteration's run on.
fn insert_wait_in_loop(lp: &OperationRef, properly_async: &[(OperationRef, usize)]) {
    let has_full_wait = body_ops(lp)
        .iter()
        .any(|op| name_of(op) == "ttng.warp_group_dot_wait" && int_attribute(op, "pendings") == Some(0));
    if has_full_wait {
        return;
    }
    for (dot, _) in properly_async {
        // A wgmma reading registers the loop computes waits for its previous
        // iteration, which also guards its result's uses.
        if rs_dot_needs_wait(dot, lp) {
            let wait = create_wait(Builder::after(*dot), &[], properly_async.len() as i64 - 1);
            thread_values_through_wait(wait, &[dot.result_at(0).unwrap().into()]);
            continue;
        }
        let result: Value = dot.result_at(0).unwrap().into();
        // Uses other than the yield, grouped by block.
        let mut blocks: Vec<(melior::ir::BlockRef, Vec<crate::ssa::Use>)> = Vec::new();
        for use_ in uses(result) {
            // Other wgmmas accumulating into the result need no wait: the
            // hardware orders them.
            let accumulates = name_of(&use_.owner) == "ttng.warp_group_dot" && use_.index == 2;
            if name_of(&use_.owner) == "scf.yield" || accumulates {
                continue;
            }
            let Some(block) = use_.owner.block() else { continue };
            match blocks.iter_mut().find(|(b, _)| *b == block) {
                Some((_, block_uses)) => block_uses.push(use_),
                None => blocks.push((block, vec![use_])),
            }
        }
        for (block, block_uses) in blocks {
            let mut builder = Builder::at_end(block, dot.location());
            builder.set_at_start(block);
            let wait = create_wait(builder, &[], 0);
            let values: Vec<Value> = block_uses.iter().map(|_| result).collect();
            thread_values_through_wait(wait, &values);
        }
    }
    let (last, _) = properly_async.last().unwrap();
    if rs_dot_needs_wait(last, lp) {
        return;
    }
    let wait = create_wait(Builder::after(*last), &[], properly_async.len() as i64);
    let results: Vec<Value> = properly_async.iter().map(|(dot, _)| dot.result_at(0).unwrap().into()).collect();
    thread_values_through_wait(wait, &results);
}

/// Upstream `threadValuesThroughWait`: a new wait in place of `wait` with
/// `values` (and the shared operands of the wgmmas they come from) added;
/// the uses of the added values after the wait take its results.
fn thread_values_through_wait<'c, 'a>(wait: OperationRef<'c, 'a>, values: &[Value<'c, 'a>]) -> OperationRef<'c, 'a> {
    let original: Vec<Value> = wait.operands().collect();
    let mut operands: Vec<Value> = original.clone();
    for value in values {
        if !operands.contains(value) {
            operands.push(*value);
        }
    }
    // The wgmmas the values depend on, through ops of the wait's block
    // (MLIR's backward slice, operands depth first).
    let mut dots: Vec<OperationRef> = Vec::new();
    for value in values {
        let mut seen: HashSet<Key> = HashSet::new();
        if let Some(producer) = defining_op(*value) {
            collect_dots(producer, &wait, &mut seen, &mut dots);
        }
    }
    for dot in &dots {
        for operand in dot.operands() {
            if is_shared(operand.r#type()) && !operands.contains(&operand) {
                operands.push(operand);
            }
        }
    }
    let pendings = int_attribute(&wait, "pendings").unwrap_or(0);
    let new_wait = create_wait(Builder::before(wait), &operands, pendings);
    // (Upstream leaves the uses of the old wait's buffer results, which
    // nothing has; they are moved too, so that erasing it is safe.)
    for index in 0..original.len() {
        crate::ir::replace_all_uses(wait.result_at(index).unwrap().into(), new_wait.result_at(index).unwrap().into());
    }
    let block = new_wait.block().unwrap();
    for (index, value) in operands.iter().enumerate().skip(original.len()) {
        if is_shared(value.r#type()) {
            continue;
        }
        let replacement: Value = new_wait.result_at(index).unwrap().into();
        super::loops::replace_uses_if(*value, replacement, |user| {
            ancestor_in_block(&block, *user).is_some_and(|top| new_wait.is_before_in_block(top))
        });
    }
    erase(wait);
    new_wait
}

/// The wgmmas `op` is or depends on through ops of `wait`'s block.
fn collect_dots<'c, 'a>(
    op: OperationRef<'c, 'a>,
    wait: &OperationRef<'c, 'a>,
    seen: &mut HashSet<Key>,
    dots: &mut Vec<OperationRef<'c, 'a>>,
) {
    if name_of(&op) == "ttng.warp_group_dot" {
        dots.push(op);
        return;
    }
    if op.block() != wait.block() || !seen.insert(op_key(&op)) {
        return;
    }
    for operand in op.operands() {
        if let Some(producer) = defining_op(operand) {
            collect_dots(producer, wait, seen, dots);
        }
    }
}
