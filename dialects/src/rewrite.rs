//! Rewrite patterns written in Rust for MLIR's pattern drivers (the
//! canonicalizer, greedy rewrites in passes): a [`Pattern`] is a root op name
//! and a function that rewrites through a [`Rewriter`], so that the driver
//! sees every change.
use melior::ir::{operation::OperationLike, Operation, OperationRef, Value, ValueLike};
use mlir_sys::*;
use std::{
    ffi::c_void,
    panic::{catch_unwind, AssertUnwindSafe},
};

/// A rewrite pattern rooted at ops named `root`. `rewrite` returns true when it
/// changed the IR, false (having changed nothing) when it does not apply.
pub struct Pattern {
    pub root: &'static str,
    pub benefit: u32,
    pub rewrite: for<'c, 'a> fn(OperationRef<'c, 'a>, &Rewriter) -> bool,
}

/// MLIR's PatternRewriter, for the duration of one rewrite.
pub struct Rewriter {
    raw: MlirRewriterBase,
}

impl Rewriter {
    /// New ops go right before `op`.
    pub fn set_insertion_point_before(&self, op: &OperationRef) {
        unsafe { mlirRewriterBaseSetInsertionPointBefore(self.raw, op.to_raw()) }
    }

    /// Inserts `op` at the insertion point and returns it.
    pub fn insert<'c, 'a>(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        let raw = op.into_raw();
        unsafe { OperationRef::from_raw(mlirRewriterBaseInsert(self.raw, raw)) }
    }

    /// Replaces the results of `op` with `values` and erases `op`.
    pub fn replace_op_with_values(&self, op: &OperationRef, values: &[Value]) {
        let raw: Vec<MlirValue> = values.iter().map(|v| v.to_raw()).collect();
        unsafe { mlirRewriterBaseReplaceOpWithValues(self.raw, op.to_raw(), raw.len() as isize, raw.as_ptr()) }
    }

    /// Replaces the results of `op` with those of `new_op` and erases `op`.
    pub fn replace_op_with_op(&self, op: &OperationRef, new_op: &OperationRef) {
        unsafe { mlirRewriterBaseReplaceOpWithOperation(self.raw, op.to_raw(), new_op.to_raw()) }
    }

    /// Inserts `new_op` before `op`, then replaces `op` with it.
    pub fn replace_op_with_new<'c, 'a>(
        &self,
        op: &OperationRef<'c, 'a>,
        new_op: Operation<'c>,
    ) -> OperationRef<'c, 'a> {
        self.set_insertion_point_before(op);
        let inserted = self.insert(new_op);
        self.replace_op_with_op(op, &inserted);
        inserted
    }

    pub fn erase_op(&self, op: &OperationRef) {
        unsafe { mlirRewriterBaseEraseOp(self.raw, op.to_raw()) }
    }

    /// Changes `op` in place (operands, attributes) inside `change`.
    pub fn modify_in_place(&self, op: &OperationRef, change: impl FnOnce()) {
        unsafe { mlirRewriterBaseStartOpModification(self.raw, op.to_raw()) };
        change();
        unsafe { mlirRewriterBaseFinalizeOpModification(self.raw, op.to_raw()) };
    }
}

unsafe extern "C" fn match_and_rewrite(
    _pattern: MlirRewritePattern,
    op: MlirOperation,
    rewriter: MlirPatternRewriter,
    user_data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: user_data is the &'static Pattern given to `add_to_set`.
    let pattern = unsafe { &*(user_data as *const Pattern) };
    let rewriter = Rewriter { raw: unsafe { mlirPatternRewriterAsBase(rewriter) } };
    let op = unsafe { OperationRef::from_raw(op) };
    // A panicking pattern is a bug: reported on the op and counted, so that
    // the pass running it (or the driver) fails instead of going on with IR
    // the pattern may have half rewritten.
    let applied = match catch_unwind(AssertUnwindSafe(|| (pattern.rewrite)(op, &rewriter))) {
        Ok(applied) => applied,
        Err(panic) => {
            crate::internal_error::record();
            let detail = crate::internal_error::describe(panic.as_ref());
            crate::pass::emit_error(
                op.location(),
                &format!("internal error in a rewrite pattern on '{}': {detail}", pattern.root),
            );
            false
        }
    };
    MlirLogicalResult { value: if applied { 1 } else { 0 } }
}

/// Adds `pattern` to an MLIR pattern set (owned by the set afterwards).
///
/// # Safety
/// `set` must be a live `RewritePatternSet` of `context`.
pub unsafe fn add_to_set(set: MlirRewritePatternSet, context: MlirContext, pattern: &'static Pattern) {
    let callbacks =
        MlirRewritePatternCallbacks { construct: None, destruct: None, matchAndRewrite: Some(match_and_rewrite) };
    let root = MlirStringRef { data: pattern.root.as_ptr() as *const _, length: pattern.root.len() };
    unsafe {
        let raw = mlirOpRewritePatternCreate(
            root,
            pattern.benefit,
            context,
            callbacks,
            pattern as *const Pattern as *mut c_void,
            0,
            std::ptr::null_mut(),
        );
        mlirRewritePatternSetAdd(set, raw);
    }
}
