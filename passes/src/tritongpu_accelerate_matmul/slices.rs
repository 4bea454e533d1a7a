//! The def-use neighbourhoods of a dot that the MMA heuristics look at
//! (MLIR's `getBackwardSlice`, `getForwardSlice` and `getSlice`, with
//! their default options unless stated).
use crate::analysis::slice::{closure, result_users, single_block_owner, users};
use melior::ir::{operation::OperationLike, OperationRef, Value};
use tritium_dialects::ir::ops_in_regions;

/// The op defining `value`; `None` for a block argument.
pub use tritium_dialects::ir::defining_op;

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
        let mut next = ops_in_regions(&op);
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
        next.extend(ops_in_regions(&op));
        next.extend(result_users(op));
        next
    };
    closure(vec![root], neighbours, keep)
}
