//! The def-use neighbourhoods of a dot that the MMA heuristics look at
//! (MLIR's `getBackwardSlice`, `getForwardSlice` and `getSlice`, with
//! their default options unless stated).
use crate::analysis::slice::users;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, Value};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;

/// The op defining `value`; `None` for a block argument.
pub use tritium_dialects::ir::defining_op;

/// The ops directly inside the regions of `op`.
fn nested_ops<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut nested = Vec::new();
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut inner = b.first_operation();
            while let Some(child) = inner {
                nested.push(child);
                inner = child.next_in_block();
            }
            block = b.next_in_region();
        }
    }
    nested
}

fn result_users<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    op.results().flat_map(|result| users(result.into())).collect()
}

/// The op whose single-block region owns `argument`, the op a backward
/// slice continues at (none for multi-block regions).
fn single_block_owner<'c, 'a>(argument: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let owner = tritium_dialects::ir::argument_parent_op(argument)?;
    let single_block = owner.region_count() == 1
        && owner.region_at(0).ok().and_then(|r| r.first_block()).is_some_and(|b| b.next_in_region().is_none());
    single_block.then_some(owner)
}

fn key(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// Breadth-first closure of `roots` under `neighbours`, keeping only ops
/// that pass `keep` (the roots are not checked); in discovery order.
fn closure<'c, 'a>(
    roots: Vec<OperationRef<'c, 'a>>,
    neighbours: impl Fn(OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>>,
    keep: impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let mut seen = HashSet::new();
    let mut found: Vec<OperationRef> = roots.into_iter().filter(|root| seen.insert(key(root))).collect();
    let mut next = 0;
    while next < found.len() {
        let op = found[next];
        next += 1;
        for neighbour in neighbours(op) {
            if keep(&neighbour) && seen.insert(key(&neighbour)) {
                found.push(neighbour);
            }
        }
    }
    found
}

/// The ops `value` is computed from through ops passing `keep`, block
/// arguments not followed (`getBackwardSlice` with `omitBlockArguments`).
/// The op defining `value` must pass `keep` for anything to be found, and
/// is not part of the result.
pub fn backward_slice<'c, 'a>(
    value: Value<'c, 'a>,
    keep: impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let Some(root) = defining_op(value).filter(|op| keep(op)) else { return Vec::new() };
    let operand_definitions = |op: OperationRef<'c, 'a>| op.operands().filter_map(defining_op).collect();
    closure(vec![root], operand_definitions, keep).split_off(1)
}

/// Every op using `value`, directly or through the results of its users,
/// and the ops nested in them (`getForwardSlice` of a value).
pub fn forward_slice<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let successors = |op: OperationRef<'c, 'a>| {
        let mut next = nested_ops(op);
        next.extend(result_users(op));
        next
    };
    closure(users(value), successors, |_| true)
}

/// Every op connected to `root` by chains of definitions and uses through
/// ops passing `keep` (`getSlice` with `keep` as both filters): operands'
/// definitions, the op owning a block argument operand, nested ops and
/// users. `root` included.
pub fn connected_slice<'c, 'a>(
    root: OperationRef<'c, 'a>,
    keep: impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let neighbours = |op: OperationRef<'c, 'a>| {
        let mut next: Vec<OperationRef> =
            op.operands().filter_map(|operand| defining_op(operand).or_else(|| single_block_owner(operand))).collect();
        next.extend(nested_ops(op));
        next.extend(result_users(op));
        next
    };
    closure(vec![root], neighbours, keep)
}
