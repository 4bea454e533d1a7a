#![allow(dead_code)] // used by the steps of upstream's algorithm being ported
//! The `async_task_id` attribute (`array<i32: ...>`, sorted) that upstream's
//! Hopper warp specialization puts on every op to say which async tasks
//! (warp groups) run it: task 0 the producer, 1.. the consumers. Every step
//! of the pass (task partition, task-id propagation, data and code
//! partition, specialization) reads and writes it through these functions.
use crate::ir::{collect_ops, name_of, Order};
use melior::ir::{operation::OperationLike, OperationRef};
use tritium_dialects::ir::{dense_i32_array, remove_attribute, set_attribute};

/// Upstream's attribute name.
pub const ASYNC_TASK_ID: &str = "async_task_id";

pub type AsyncTaskId = i32;

/// The op's task ids in attribute order, a repeated neighbour dropped (as
/// upstream reads them).
pub fn get_async_task_ids(op: &OperationRef) -> Vec<AsyncTaskId> {
    let mut ids: Vec<AsyncTaskId> = Vec::new();
    for id in tritium_dialects::ir::dense_i32_attribute(op, ASYNC_TASK_ID).unwrap_or_default() {
        if ids.last() != Some(&id) {
            ids.push(id);
        }
    }
    ids
}

pub fn has_async_task_id(op: &OperationRef, id: AsyncTaskId) -> bool {
    get_async_task_ids(op).contains(&id)
}

/// Sets the ids, sorted (duplicates kept, as upstream).
pub fn set_async_task_ids(op: &OperationRef, ids: &[AsyncTaskId]) {
    let mut sorted = ids.to_vec();
    sorted.sort();
    set_attribute(op, ASYNC_TASK_ID, dense_i32_array(op.location(), &sorted));
}

/// Adds the ids the op lacks; an op left without any keeps no attribute.
pub fn add_async_task_ids(op: &OperationRef, ids: &[AsyncTaskId]) {
    let mut current = get_async_task_ids(op);
    let before: Vec<AsyncTaskId> = current.clone();
    for &id in ids {
        if !before.contains(&id) {
            current.push(id);
        }
    }
    if !current.is_empty() {
        set_async_task_ids(op, &current);
    }
}

pub fn remove_async_task_id(op: &OperationRef, id: AsyncTaskId) {
    let mut current = get_async_task_ids(op);
    current.retain(|&x| x != id);
    if current.is_empty() {
        remove_attribute(op, ASYNC_TASK_ID);
    } else {
        set_async_task_ids(op, &current);
    }
}

pub fn remove_async_task_ids(op: &OperationRef) {
    remove_attribute(op, ASYNC_TASK_ID);
}

/// Adds the op's ids to every enclosing op up to (not including) the `tt.func`.
pub fn label_parent_ops(op: &OperationRef) {
    let ids = get_async_task_ids(op);
    let mut parent = op.parent_operation();
    while let Some(p) = parent {
        if name_of(&p) == "tt.func" {
            break;
        }
        add_async_task_ids(&p, &ids);
        parent = p.parent_operation();
    }
}

/// The ids of the op and every op nested in it, sorted, each once.
pub fn get_nested_async_task_ids(op: &OperationRef) -> Vec<AsyncTaskId> {
    let mut ids: Vec<AsyncTaskId> = Vec::new();
    let mut nested = collect_ops(*op, Order::Post);
    nested.push(*op);
    for o in nested {
        for id in get_async_task_ids(&o) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids.sort();
    ids
}
