//! Task partition, the first step of upstream's Hopper warp specialization
//! (`doTaskPartition`; its test flag `nvgpu-test-ws-task-partition`): picks
//! the anchor ops of the async tasks and labels them with `async_task_id`.
//!
//! Task 0 is the producer, tasks 1..num-warp-groups-1 the consumers. Every
//! `ttng.warp_group_dot` goes to the consumers, and so do all stores
//! (`tt.store`, `tt.descriptor_store`); the producer gets the loads the dots'
//! A and B operands are computed from (MLIR's backward slice: operands'
//! definitions, block arguments not followed): every `tt.descriptor_load`,
//! and the `tt.load`s that are expensive (upstream's
//! `isExpensiveLoadOrStore`). Nothing is labelled when the function already
//! carries task ids (user annotations, or an earlier attempt of the driver),
//! has no loop, load or dot, or when no dot is fed by such a load.
//! Everything else gets its ids from the propagation step
//! ([`super::task_id_propagation`]).
use super::task_ids::{get_async_task_ids, set_async_task_ids, AsyncTaskId};
use crate::ir::{collect_ops, enclosing_module, fail, name_of, Order};
use crate::tritongpu_remove_layout_conversions::ops::is_expensive_load_or_store;
use melior::ir::{operation::OperationLike, OperationRef, Value};
use std::collections::HashSet;
use tritium_dialects::ir::{argument_parent_op, defining_op, op_key};
use tritium_dialects::pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvgpu-test-ws-task-partition",
    description: "Test pass of warp specialization's task partition: label the anchor ops with async task ids",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "num-warp-groups",
        description: "Number of warp groups for warp specialization",
        kind: OptionKind::Int,
        default: "0",
    }],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let module = enclosing_module(module).unwrap_or(module);
    let num_warp_groups = options.int("num-warp-groups");
    for function in collect_ops(module, Order::Post).into_iter().filter(|o| name_of(o) == "tt.func") {
        if num_warp_groups > 1 {
            do_task_partition(function, num_warp_groups as u32).map_err(|reason| fail(&function, reason))?;
        }
    }
    Ok(())
}

/// Ops with MLIR's `IsIsolatedFromAbove` trait that a slice can meet here.
fn is_isolated_from_above(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "builtin.module" | "tt.func" | "func.func")
}

/// MLIR's `getBackwardSlice(value)` with `omitBlockArguments` and
/// `inclusive` (uses from above omitted, its default), added to `slice`: the
/// op defining `value` (for a block argument, the op owning its block) and,
/// transitively, the ops defining their operands.
fn add_backward_slice<'c, 'a>(value: Value<'c, 'a>, slice: &mut Vec<OperationRef<'c, 'a>>, seen: &mut HashSet<usize>) {
    let Some(root) = defining_op(value).or_else(|| argument_parent_op(value)) else { return };
    let mut stack = vec![root];
    while let Some(op) = stack.pop() {
        if is_isolated_from_above(&op) || !seen.insert(op_key(&op)) {
            continue;
        }
        slice.push(op);
        stack.extend(op.operands().filter_map(defining_op));
    }
}

/// Upstream's `doTaskPartition`: labels the producer loads with task 0 and
/// the dots and stores with the consumer tasks 1..`num_warp_groups`-1.
pub fn do_task_partition(function: OperationRef, num_warp_groups: u32) -> Result<(), String> {
    if num_warp_groups <= 1 {
        return Ok(());
    }
    let mut all = collect_ops(function, Order::Post);
    all.push(function);
    // Ids already there (user annotations, or the driver's earlier attempt):
    // leave them.
    if all.iter().any(|op| !get_async_task_ids(op).is_empty()) {
        return Ok(());
    }
    let (mut loops, mut loads, mut dots, mut stores) = (0, 0, Vec::new(), Vec::new());
    for op in &all {
        match name_of(op).as_str() {
            "scf.for" => loops += 1,
            "ttng.warp_group_dot" => dots.push(*op),
            "tt.load" | "tt.descriptor_load" => loads += 1,
            "tt.store" | "tt.descriptor_store" => stores.push(*op),
            _ => {}
        }
    }
    if loops == 0 || loads == 0 || dots.is_empty() {
        return Ok(());
    }
    // The loads the dots' operands A and B come from go to the producer.
    let mut slice = Vec::new();
    let mut seen = HashSet::new();
    for dot in &dots {
        for index in 0..2 {
            let operand = dot.operand(index).map_err(|e| e.to_string())?;
            add_backward_slice(operand, &mut slice, &mut seen);
        }
    }
    let producers: Vec<OperationRef> = slice
        .into_iter()
        .filter(|op| match name_of(op).as_str() {
            "tt.descriptor_load" => true,
            "tt.load" => is_expensive_load_or_store(op),
            _ => false,
        })
        .collect();
    if producers.is_empty() {
        return Ok(());
    }
    let consumer_ids: Vec<AsyncTaskId> = (1..num_warp_groups as AsyncTaskId).collect();
    for op in &producers {
        set_async_task_ids(op, &[0]);
    }
    for op in dots.iter().chain(&stores) {
        set_async_task_ids(op, &consumer_ids);
    }
    Ok(())
}
