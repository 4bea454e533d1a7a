//! SSA and structure queries melior lacks, for the passes that move, clone
//! and rewire ops (LICM, loop unrolling, block-pointer rewriting, loop-aware
//! CSE): defining ops, uses, the block and region a value lives in, ancestry,
//! moving and cloning ops, block arguments.
use melior::ir::{
    operation::OperationLike, BlockLike, BlockRef, Operation, OperationRef, RegionLike, Value, ValueLike,
};
use tritium_dialects::access::{as_op_result, block_argument_at, OpAccess};

/// A hashable identity of a value, op or block (its pointer).
pub type Key = usize;

pub fn value_key(value: Value) -> Key {
    value.to_raw().ptr as Key
}

pub fn op_key(op: &OperationRef) -> Key {
    op.to_raw().ptr as Key
}

/// The op defining `value`; `None` for a block argument.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    as_op_result(value).map(|result| result.owner())
}

/// The index of `value` among its defining op's results.
pub fn result_number(value: Value) -> Option<usize> {
    as_op_result(value).map(|result| result.result_number())
}

/// The block `value` is defined in (its op's block, or its own block).
pub fn parent_block<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    match defining_op(value) {
        Some(op) => op.block(),
        None => argument_owner(value),
    }
}

/// The block whose argument `value` is.
pub fn argument_owner<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    // SAFETY: a live value; only block arguments are asked for their block.
    unsafe {
        mlir_sys::mlirValueIsABlockArgument(value.to_raw())
            .then(|| BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw())))
    }
}

/// The position of block argument `value` in its block.
pub fn argument_number(value: Value) -> Option<usize> {
    // SAFETY: a live value; only block arguments are asked for their number.
    unsafe {
        mlir_sys::mlirValueIsABlockArgument(value.to_raw())
            .then(|| mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw()) as usize)
    }
}

/// The op whose region holds the definition of `value`.
pub fn parent_op_of_value<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    parent_block(value)?.parent_operation()
}

/// Whether `ancestor` is `op` or contains it.
pub fn is_ancestor(ancestor: &OperationRef, op: OperationRef) -> bool {
    let mut current = Some(op);
    while let Some(op) = current {
        if op == *ancestor {
            return true;
        }
        current = op.parent_operation();
    }
    false
}

/// MLIR's `DominanceInfo::properlyDominates(a, b, enclosingOpOk)` for
/// structured control flow (every region one block): `a` comes before the
/// op of its block that holds `b`; when `a` holds `b`, `enclosing_ok`.
pub fn properly_dominates(a: &OperationRef, b: &OperationRef, enclosing_ok: bool) -> bool {
    if a == b {
        return false;
    }
    let Some(block) = a.block() else { return false };
    let mut ancestor = *b;
    while ancestor.block().as_ref() != Some(&block) {
        match ancestor.parent_operation() {
            Some(parent) => ancestor = parent,
            None => return false,
        }
    }
    if ancestor == *a {
        return enclosing_ok;
    }
    // SAFETY: two live ops of the same block.
    unsafe { mlir_sys::mlirOperationIsBeforeInBlock(a.to_raw(), ancestor.to_raw()) }
}

/// Whether `value` is defined outside `op` (MLIR's
/// `LoopLikeOpInterface::isDefinedOutsideOfLoop`).
pub fn is_defined_outside(value: Value, op: &OperationRef) -> bool {
    parent_op_of_value(value).is_none_or(|parent| !is_ancestor(op, parent))
}

/// One use of a value: the op using it and the operand's position.
#[derive(Clone, Copy)]
pub struct Use<'c, 'a> {
    pub owner: OperationRef<'c, 'a>,
    pub index: usize,
}

/// The uses of `value`, in use-list order.
pub fn uses<'c, 'a>(value: Value<'c, 'a>) -> Vec<Use<'c, 'a>> {
    let mut result = Vec::new();
    // SAFETY: walking the use list of a live value without changing it.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(operand) {
            result.push(Use {
                owner: OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand)),
                index: mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize,
            });
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    result
}

/// The ops using `value` (an op using it twice appears twice).
pub fn users<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    uses(value).into_iter().map(|u| u.owner).collect()
}

pub fn has_uses(value: Value) -> bool {
    // SAFETY: a live value.
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// Sets operand `index` of `op`.
pub fn set_operand<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize, value: Value<'c, 'a>) {
    // SAFETY: both handles are live; callers pass an index in range.
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) };
}

/// Replaces all operands of `op`.
pub fn set_operands<'c, 'a>(op: &OperationRef<'c, 'a>, values: &[Value<'c, 'a>]) {
    let raw: Vec<mlir_sys::MlirValue> = values.iter().map(|v| v.to_raw()).collect();
    // SAFETY: live handles; MLIR copies the list.
    unsafe { mlir_sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr()) };
}

/// Moves `op` right before `before` (possibly into another block).
pub fn move_before(op: &OperationRef, before: &OperationRef) {
    // SAFETY: both ops are live and in blocks.
    unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), before.to_raw()) };
}

/// Moves `op` to the end of `block`.
pub fn move_to_end(op: &OperationRef, block: &BlockRef) {
    // SAFETY: the op is live; it is unlinked before its new block takes it.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirBlockAppendOwnedOperation(block.to_raw(), op.to_raw());
    }
}

/// Inserts `op` before `before` and returns it.
pub fn insert_before<'c, 'a>(before: &OperationRef<'c, 'a>, op: Operation<'c>) -> OperationRef<'c, 'a> {
    let block = before.block().expect("an op in a block");
    block.insert_operation_before(*before, op)
}

/// The ops of `block`, in order (a snapshot).
pub fn block_ops<'c, 'a>(block: &BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        ops.push(op);
        next = op.next_in_block();
    }
    ops
}

/// The entry block of region `index` of `op`.
pub fn entry_block<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> Option<BlockRef<'c, 'a>> {
    op.region_at(index).ok()?.first_block()
}

/// Whether `op` is its block's terminator (MLIR's `IsTerminator` trait:
/// the C API hands out a block's last op as its terminator only when the op
/// has the trait).
pub fn is_terminator(op: &OperationRef) -> bool {
    let Some(block) = op.block() else { return false };
    block.terminator().is_some_and(|t| t == *op)
}

/// The arguments of `block`.
pub fn block_arguments<'c, 'a>(block: &BlockRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    (0..block.argument_count()).filter_map(|i| block_argument_at(*block, i).ok().map(Into::into)).collect()
}

/// A mapping from old values to new ones, as MLIR's `IRMapping`.
#[derive(Default)]
pub struct ValueMap {
    values: std::collections::HashMap<Key, mlir_sys::MlirValue>,
}

impl ValueMap {
    pub fn map(&mut self, from: Value, to: Value) {
        self.values.insert(value_key(from), to.to_raw());
    }

    /// What `value` maps to, or `value` itself.
    pub fn lookup<'c, 'a>(&self, value: Value<'c, 'a>) -> Value<'c, 'a> {
        match self.values.get(&value_key(value)) {
            // SAFETY: the mapped value lives in the same IR as `value`.
            Some(raw) => unsafe { Value::from_raw(*raw) },
            None => value,
        }
    }

    pub fn contains(&self, value: Value) -> bool {
        self.values.contains_key(&value_key(value))
    }
}

/// A deep copy of `op`, not yet inserted, whose operands (its own and those
/// of the ops inside it) defined outside it are looked up in `map` (MLIR's
/// `OpBuilder::clone(op, mapping)`, but the caller maps the results).
pub fn clone_with<'c>(op: &OperationRef<'c, '_>, map: &ValueMap) -> Operation<'c> {
    // SAFETY: a live op; the clone is owned by the returned handle.
    let clone = unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) };
    // SAFETY: the clone is live; only its operands are rewired.
    remap_operands(unsafe { OperationRef::from_raw(clone.to_raw()) }, map);
    clone
}

/// Rewires the operands of `op` and of every op inside it through `map`.
fn remap_operands(op: OperationRef, map: &ValueMap) {
    for index in 0..op.operand_count() {
        let operand = op.operand_at(index).expect("index in range");
        if map.contains(operand) {
            set_operand(&op, index, map.lookup(operand));
        }
    }
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            for inner in block_ops(&b) {
                remap_operands(inner, map);
            }
            block = b.next_in_region();
        }
    }
}

/// Removes attribute `name` from `op` if it has it.
pub fn remove_attribute(op: &OperationRef, name: &str) {
    let name = mlir_sys::MlirStringRef { data: name.as_ptr().cast(), length: name.len() };
    // SAFETY: a live op; removing an attribute it may not have is a no-op.
    unsafe { mlir_sys::mlirOperationRemoveAttributeByName(op.to_raw(), name) };
}

/// Sets attribute `name` of `op` (inherent or discardable).
pub fn set_attribute(op: &OperationRef, name: &str, value: melior::ir::Attribute) {
    use melior::ir::AttributeLike;
    let name = mlir_sys::MlirStringRef { data: name.as_ptr().cast(), length: name.len() };
    // SAFETY: live op and attribute; MLIR copies the name.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), name, value.to_raw()) };
}
