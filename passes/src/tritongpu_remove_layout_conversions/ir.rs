//! The IR operations the pass performs that melior does not offer: use
//! lists, insertion next to a value's definition, cloning, structural
//! dominance, and identity keys for hashing values, ops and attributes
//! (MLIR uniques attributes, so equal keys mean equal attributes).
use melior::ir::{
    operation::OperationLike, r#type::ShapedTypeLike, Attribute, AttributeLike, BlockLike, BlockRef, Location,
    Operation, OperationRef, RegionLike, Type, TypeLike, Value,
};
use tritium_dialects::access::{ranked_tensor, OpAccess};

/// Identity of a value, an op or an attribute, for hash maps.
pub(super) use tritium_dialects::ir::{op_key, value_key, Key};

use tritium_dialects::ir::ancestor_in_block;

pub(super) fn attribute_key(attribute: Attribute) -> Key {
    attribute.to_raw().ptr as Key
}

pub(super) fn op_name(op: &OperationRef) -> String {
    crate::ir::name_of(op)
}

pub(super) use tritium_dialects::ir::{
    block_arguments, block_ops, defining_op, has_uses, int_or_float_width, is_ancestor, is_float, replace_all_uses,
    result_number, set_operand, set_type, users, uses,
};

/// The block owning a block argument, and the argument's index.
pub(super) fn argument_owner<'c, 'a>(value: Value<'c, 'a>) -> Option<(BlockRef<'c, 'a>, usize)> {
    Some((tritium_dialects::ir::argument_owner(value)?, tritium_dialects::ir::argument_number(value)?))
}

/// The op owning the block that defines `value` (or that holds its
/// defining op).
pub(super) fn parent_op_of_value<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    match defining_op(value) {
        Some(op) => op.parent_operation(),
        None => argument_owner(value).and_then(|(block, _)| block.parent_operation()),
    }
}

pub(super) fn results<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    op.results().map(Value::from).collect()
}

pub(super) fn operands<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    op.operands().collect()
}

/// The first block of region `index` of `op`.
pub(super) fn body<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> Option<BlockRef<'c, 'a>> {
    op.region_at(index).ok()?.first_block()
}

/// The terminator of the first block of region `index`.
pub(super) fn terminator<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> Option<OperationRef<'c, 'a>> {
    body(op, index)?.terminator()
}

// --- types -------------------------------------------------------------------

pub(super) fn is_tensor(ty: Type) -> bool {
    ty.is_ranked_tensor()
}

/// The layout attribute of a ranked tensor type.
pub(super) fn encoding(ty: Type) -> Option<Attribute> {
    ranked_tensor(ty).ok()?.encoding()
}

pub(super) fn shape_of(ty: Type) -> Option<Vec<i64>> {
    tritium_dialects::types::static_shape(ty)
}

pub(super) fn num_elements(ty: Type) -> Option<i64> {
    Some(shape_of(ty)?.iter().product())
}

/// The same tensor type with another layout (upstream `cloneWithEncoding`).
pub(super) fn with_encoding<'c>(ty: Type<'c>, layout: Attribute<'c>) -> Option<Type<'c>> {
    let tensor = ranked_tensor(ty).ok()?;
    let shape = shape_of(ty)?;
    Some(crate::ir::tensor_type(&shape, tensor.element(), Some(layout)))
}

/// Bit width of a tensor's element type, the pointee's for pointers
/// (upstream `getElementBitWidth`).
pub(super) fn element_bit_width(ty: Type) -> Option<u32> {
    let element = ranked_tensor(ty).ok()?.element();
    let element = tritium_dialects::types::pointer_parts(element).map_or(element, |(pointee, _)| pointee);
    int_or_float_width(element)
}

pub(super) use tritium_dialects::ir::dense_i32s;

// --- building -----------------------------------------------------------------

/// Inserts `new` right before `anchor`.
pub(super) fn insert_before<'c, 'a>(anchor: &OperationRef<'c, 'a>, new: Operation<'c>) -> Option<OperationRef<'c, 'a>> {
    let block = anchor.block()?;
    Some(block.insert_operation_before(*anchor, new))
}

/// Inserts `new` right after the definition of `value`: after its defining
/// op, or at the start of its block for a block argument (upstream
/// `setInsertionPointAfterValue`).
pub(super) fn insert_after_value<'c, 'a>(value: Value<'c, 'a>, new: Operation<'c>) -> Option<OperationRef<'c, 'a>> {
    match defining_op(value) {
        Some(op) => Some(op.block()?.insert_operation_after(op, new)),
        None => {
            let (block, _) = argument_owner(value)?;
            Some(block.insert_operation(0, new))
        }
    }
}

/// A copy of `op` (with its regions), inserted right before it.
pub(super) fn clone_before<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    insert_before(op, tritium_dialects::ir::clone_op(op))
}

/// `ttg.convert_layout %value : ... -> ty`.
pub(super) fn convert_layout<'c>(location: Location<'c>, value: Value<'c, '_>, ty: Type<'c>) -> Operation<'c> {
    crate::ir::create("ttg.convert_layout", location, &[value], &[ty], &[])
}

/// Erases an op whose results (and block arguments) are no longer used
/// outside of it.
pub(super) fn erase_op(op: OperationRef) -> Result<(), String> {
    let results_used = op.results().any(|r| has_uses(r.into()));
    let arguments_used = op.regions().any(|region| {
        let mut block = region.first_block();
        while let Some(b) = block {
            // Uses by the op's own nested ops go away with it.
            if block_arguments(&b).into_iter().flat_map(users).any(|user| !is_ancestor(&op, user)) {
                return true;
            }
            block = b.next_in_region();
        }
        false
    });
    if results_used || arguments_used {
        let users: Vec<String> = op.results().flat_map(|r| users(r.into())).map(|u| u.to_string()).collect();
        return Err(format!("'{}' is still used and cannot be erased: {}", op_name(&op), users.join("; ")));
    }
    crate::ir::erase(op);
    Ok(())
}

// --- structure and dominance ---------------------------------------------------

/// `value` is available at `op` and defined before it (MLIR's
/// `properlyDominates(Value, Operation*)` for single-block regions): a block
/// argument dominates everything nested in its block, an op result the ops
/// after its definition, not the ops nested in it.
pub(super) fn properly_dominates(value: Value, op: OperationRef) -> bool {
    match defining_op(value) {
        None => argument_owner(value).is_some_and(|(block, _)| ancestor_in_block(&block, op).is_some()),
        Some(definition) => {
            let Some(block) = definition.block() else { return false };
            match ancestor_in_block(&block, op) {
                Some(ancestor) => ancestor != definition && definition.is_before_in_block(ancestor),
                None => false,
            }
        }
    }
}

/// `a` post-dominates `b` in structured control flow: `a` is `b`, or `a`
/// encloses `b`, or `a` follows the op of its block that holds `b`.
pub(super) fn post_dominates(a: OperationRef, b: OperationRef) -> bool {
    if a == b {
        return true;
    }
    let Some(block) = a.block() else { return false };
    match ancestor_in_block(&block, b) {
        Some(ancestor) if ancestor == a => true,
        Some(ancestor) => ancestor.is_before_in_block(a),
        None => false,
    }
}

/// Every op nested in `root`, parents first, in program order (the order in
/// which MLIR's `topologicalSort` lists ops of a structured region).
pub(super) fn pre_order_positions(root: OperationRef) -> std::collections::HashMap<Key, usize> {
    crate::ir::collect_ops(root, crate::ir::Order::Pre).iter().enumerate().map(|(i, op)| (op_key(op), i)).collect()
}
