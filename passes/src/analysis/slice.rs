//! Def-use slices: the ops connected to an op through chains of definitions
//! and uses (MLIR's `getSlice`, `getBackwardSlice`, `getForwardSlice`), and
//! the walk and neighbourhoods they are built from.
use crate::ir::name_of;
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, Value};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{defining_op, ops_in_regions};

/// The ops using `value`.
pub use tritium_dialects::ir::users;

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
    let neighbours = |op: OperationRef<'c, 'a>| {
        let mut next = backward_neighbours(op);
        next.extend(ops_in_regions(&op));
        next.extend(result_users(op));
        next
    };
    closure(vec![root], neighbours, |_| true)
}

/// Breadth-first closure of `roots` under `neighbours`, keeping only ops
/// that pass `keep` (the roots are not checked); in discovery order.
pub fn closure<'c, 'a>(
    roots: Vec<OperationRef<'c, 'a>>,
    neighbours: impl Fn(OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>>,
    keep: impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let mut seen = HashSet::new();
    let mut found: Vec<OperationRef> = roots.into_iter().filter(|root| seen.insert(id(root))).collect();
    let mut next = 0;
    while next < found.len() {
        let op = found[next];
        next += 1;
        for neighbour in neighbours(op) {
            if keep(&neighbour) && seen.insert(id(&neighbour)) {
                found.push(neighbour);
            }
        }
    }
    found
}

fn id(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// The users of `op`'s results.
pub fn result_users<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    op.results().flat_map(|result| users(result.into())).collect()
}

/// The op whose single-block region owns the block `argument`, the op a
/// backward slice continues at (none for multi-block regions).
pub fn single_block_owner<'c, 'a>(argument: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let owner = tritium_dialects::ir::argument_parent_op(argument)?;
    let single_block = owner.region_count() == 1
        && owner.region_at(0).ok().and_then(|r| r.first_block()).is_some_and(|b| b.next_in_region().is_none());
    single_block.then_some(owner)
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
        .filter_map(|operand| defining_op(operand).or_else(|| single_block_owner(operand)))
        .filter(|def| !is_isolated_from_above(def))
        .collect()
}
