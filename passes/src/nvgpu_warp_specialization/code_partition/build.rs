//! Upstream's `OpBuilderWithAsyncTaskIds`: an insertion point plus the task
//! ids every op it creates gets, and the structured-control-flow dominance
//! queries the code partition needs.
use super::super::task_ids::{set_async_task_ids, AsyncTaskId};
use crate::ir::create;
use crate::ssa::ancestor_in_block;
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, Attribute, BlockRef, Location,
    Operation, OperationRef, Type, Value,
};

/// Where new ops go.
pub(super) type At<'c, 'a> = tritium_dialects::ir::InsertionPoint<'c, 'a>;

/// An insertion point and the task ids of the ops it creates (none: no
/// attribute).
pub(super) struct Builder<'c, 'a> {
    pub at: At<'c, 'a>,
    pub ids: Vec<AsyncTaskId>,
    pub location: Location<'c>,
}

impl<'c, 'a> Builder<'c, 'a> {
    pub fn new(location: Location<'c>, at: At<'c, 'a>) -> Self {
        Builder { at, ids: Vec::new(), location }
    }
    pub fn context(&self) -> &'c melior::Context {
        tritium_dialects::ir::context_of(self.location)
    }
    pub fn set_before(&mut self, op: OperationRef<'c, 'a>) {
        self.at = At::Before(op);
    }
    pub fn set_after(&mut self, op: OperationRef<'c, 'a>) {
        self.at = At::after(op);
    }
    pub fn set_start(&mut self, block: BlockRef<'c, 'a>) {
        self.at = At::start(block);
    }
    pub fn ids_from_op(&mut self, op: &OperationRef) {
        self.ids = super::super::task_ids::get_async_task_ids(op);
    }
    pub fn insert(&self, operation: Operation<'c>) -> OperationRef<'c, 'a> {
        let op = self.at.insert(operation);
        if !self.ids.is_empty() {
            set_async_task_ids(&op, &self.ids);
        }
        op
    }
    pub fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> OperationRef<'c, 'a> {
        self.insert(create(name, self.location, operands, results, attributes))
    }
    pub fn value(&self, name: &str, operands: &[Value<'c, '_>], result: Type<'c>) -> Value<'c, 'a> {
        self.op(name, operands, &[result], &[]).result(0).unwrap().into()
    }
    pub fn int_type(&self, width: u32) -> Type<'c> {
        IntegerType::new(self.context(), width).into()
    }
    pub fn int_attr(&self, width: u32, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(self.int_type(width), value).into()
    }
    /// `arith.constant value : i<width>`.
    pub fn constant(&self, value: i64, width: u32) -> Value<'c, 'a> {
        let ty = self.int_type(width);
        self.op("arith.constant", &[], &[ty], &[("value", self.int_attr(width, value))]).result(0).unwrap().into()
    }
}

/// MLIR's `DominanceInfo::properlyDominates(a, b)` (enclosing ops dominate)
/// on structured control flow.
pub(super) fn properly_dominates(a: &OperationRef, b: &OperationRef) -> bool {
    crate::ssa::properly_dominates(a, b, true)
}

/// MLIR's `PostDominanceInfo::properlyPostDominates(a, b)` on structured
/// control flow (single-block regions).
pub(super) fn properly_post_dominates(a: &OperationRef, b: &OperationRef) -> bool {
    if a == b {
        return false;
    }
    let Some(block) = a.block() else { return false };
    let Some(ancestor) = ancestor_in_block(&block, *b) else { return false };
    if ancestor == *a {
        return true;
    }
    ancestor.is_before_in_block(*a)
}

/// MLIR's `op->getParentOfType<...>()` by name (not `op` itself).
pub(super) fn parent_of_type<'c, 'a>(op: OperationRef<'c, 'a>, name: &str) -> Option<OperationRef<'c, 'a>> {
    tritium_dialects::ir::enclosing_named(op.parent_operation()?, name)
}

/// MLIR's `ancestor->isProperAncestor(op)`.
pub(super) fn is_proper_ancestor(ancestor: &OperationRef, op: &OperationRef) -> bool {
    ancestor != op && crate::ssa::is_ancestor(ancestor, *op)
}
