//! SSA and structure queries for the passes that move, clone and rewire ops
//! (LICM, loop unrolling, block-pointer rewriting, loop-aware CSE): the
//! IR-access layer's functions (`tritium_dialects::ir`: defining ops, uses,
//! block arguments, moving and cloning ops) re-exported, plus structured
//! dominance.
use melior::ir::{operation::OperationLike, OperationRef, Value};

pub use tritium_dialects::ir::{
    ancestor_in_block, argument_number, argument_owner, block_arguments, block_ops, clone_with, defining_op,
    entry_block, has_uses, insert_before, is_ancestor, is_terminator, move_before, move_to_end, op_key, ops_in_regions,
    parent_block, parent_op_of_value, result_number, set_attribute, set_operand, set_operands, users, uses, value_key,
    Key, Use, ValueMap,
};

/// MLIR's `DominanceInfo::properlyDominates(a, b, enclosingOpOk)` for
/// structured control flow (every region one block): `a` comes before the
/// op of its block that holds `b`; when `a` holds `b`, `enclosing_ok`.
pub fn properly_dominates<'c, 'a>(a: &OperationRef<'c, 'a>, b: &OperationRef<'c, 'a>, enclosing_ok: bool) -> bool {
    if a == b {
        return false;
    }
    let Some(ancestor) = a.block().and_then(|block| ancestor_in_block(&block, *b)) else { return false };
    if ancestor == *a {
        return enclosing_ok;
    }
    a.is_before_in_block(ancestor)
}

/// Whether `value` is defined outside `op` (MLIR's
/// `LoopLikeOpInterface::isDefinedOutsideOfLoop`).
pub fn is_defined_outside(value: Value, op: &OperationRef) -> bool {
    parent_op_of_value(value).is_none_or(|parent| !is_ancestor(op, parent))
}
