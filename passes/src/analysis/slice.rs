//! Def-use slices: the ops connected to an op through chains of definitions
//! and uses (MLIR's `getSlice` with default options).
use crate::ir::name_of;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, Value};
use std::collections::HashSet;
use tritium_dialects::access::{as_op_result, OpAccess};

/// Every op reachable from `root` by repeatedly taking, for an op in the
/// slice,
/// - backward: the ops defining its operands, and for an operand that is a
///   block argument, the op owning the block when that op has one region of
///   one block (a loop body's arguments lead to the loop); ops isolated from
///   above stop this walk;
/// - forward: the ops nested in its regions and the users of its results.
///
/// `root` included; in discovery order.
pub fn slice<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut seen: HashSet<usize> = HashSet::from([id(&root)]);
    let mut slice = vec![root];
    let mut next = 0;
    while next < slice.len() {
        let op = slice[next];
        next += 1;
        for neighbour in backward_neighbours(op).into_iter().chain(forward_neighbours(op)) {
            if seen.insert(id(&neighbour)) {
                slice.push(neighbour);
            }
        }
    }
    slice
}

fn id(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// Ops whose regions cannot see values from outside: backward slices stop
/// at them.
fn is_isolated_from_above(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "builtin.module" | "tt.func" | "func.func" | "ttg.warp_specialize.partitions")
}

fn backward_neighbours<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    if is_isolated_from_above(&op) {
        return Vec::new();
    }
    op.operands()
        .filter_map(|operand| {
            if let Some(result) = as_op_result(operand) {
                return Some(result.owner());
            }
            let owner = argument_owner(operand)?;
            let single_block = owner.region_count() == 1
                && owner.region_at(0).ok().and_then(|r| r.first_block()).is_some_and(|b| b.next_in_region().is_none());
            single_block.then_some(owner)
        })
        .filter(|def| !is_isolated_from_above(def))
        .collect()
}

/// The op whose region holds the block `argument` belongs to.
fn argument_owner<'c, 'a>(argument: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    tritium_dialects::ir::argument_parent_op(argument)
}

fn forward_neighbours<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut neighbours = Vec::new();
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut inner = b.first_operation();
            while let Some(nested) = inner {
                neighbours.push(nested);
                inner = nested.next_in_block();
            }
            block = b.next_in_region();
        }
    }
    for result in op.results() {
        neighbours.extend(users(result.into()));
    }
    neighbours
}

/// The ops using `value`.
pub use tritium_dialects::ir::users;
