//! Running Rust rewrite patterns the way upstream passes run theirs: through
//! MLIR's greedy driver (`applyPatternsGreedily`), which also folds ops,
//! hoists and uniques constants and erases dead ops between rewrites, so a
//! pass written as patterns gets upstream's clean-ups for free.
//!
//! A pattern cannot return an error through the driver; it calls
//! [`report_error`] instead, and [`apply_greedily`] fails afterwards.
use melior::ir::{operation::OperationLike, OperationRef};
use std::cell::Cell;
use tritium_dialects::{
    pass::{emit_error, PassFailed, PassResult},
    rewrite::{add_to_set, Pattern},
};

thread_local! {
    /// Whether a pattern of the current greedy run reported an error.
    static PATTERN_FAILED: Cell<bool> = const { Cell::new(false) };
}

/// Emits an error at `op` from inside a pattern and makes the running
/// [`apply_greedily`] fail.
pub fn report_error(op: &OperationRef, message: impl AsRef<str>) {
    emit_error(op.location(), message.as_ref());
    PATTERN_FAILED.with(|f| f.set(true));
}

/// Applies `patterns` to the regions of `root` until nothing changes, with
/// the driver's default configuration (bottom-up, folding, constant CSE), as
/// upstream's `applyPatternsGreedily(op, patterns)`. Fails if a pattern
/// reported an error or the rewrites did not converge.
pub fn apply_greedily(root: OperationRef, patterns: &[&'static Pattern]) -> PassResult {
    PATTERN_FAILED.with(|f| f.set(false));
    // SAFETY: the set, frozen set and config are created and destroyed here;
    // `root` is live and only the driver changes it meanwhile.
    let converged = unsafe {
        let context = mlir_sys::mlirOperationGetContext(root.to_raw());
        let set = mlir_sys::mlirRewritePatternSetCreate(context);
        for pattern in patterns {
            add_to_set(set, context, pattern);
        }
        let frozen = mlir_sys::mlirFreezeRewritePattern(set);
        let config = mlir_sys::mlirGreedyRewriteDriverConfigCreate();
        let result = mlir_sys::mlirApplyPatternsAndFoldGreedilyWithOp(root.to_raw(), frozen, config);
        mlir_sys::mlirGreedyRewriteDriverConfigDestroy(config);
        mlir_sys::mlirFrozenRewritePatternSetDestroy(frozen);
        result.value != 0
    };
    if PATTERN_FAILED.with(|f| f.replace(false)) {
        return Err(PassFailed);
    }
    if !converged {
        emit_error(root.location(), "the rewrite patterns did not converge");
        return Err(PassFailed);
    }
    Ok(())
}

fn string_ref(text: &str) -> mlir_sys::MlirStringRef {
    mlir_sys::MlirStringRef { data: text.as_ptr().cast(), length: text.len() }
}

/// Runs a textual pass pipeline (`builtin.module(canonicalize)`) on
/// `module`, as upstream passes do with `runPipeline`.
pub fn run_pipeline(module: OperationRef, pipeline: &str) -> PassResult {
    // SAFETY: a pass manager of the module's context, destroyed before
    // returning; the module is live and nothing else changes it meanwhile.
    unsafe {
        let context = mlir_sys::mlirOperationGetContext(module.to_raw());
        let manager = mlir_sys::mlirPassManagerCreateOnOperation(context, string_ref("builtin.module"));
        // The outer pass manager verifies after this pass.
        mlir_sys::mlirPassManagerEnableVerifier(manager, false);
        let parsed = mlir_sys::mlirParsePassPipeline(
            mlir_sys::mlirPassManagerGetAsOpPassManager(manager),
            string_ref(pipeline),
            None,
            std::ptr::null_mut(),
        );
        let result = if parsed.value == 0 {
            emit_error(module.location(), &format!("cannot build the pipeline '{pipeline}'"));
            Err(PassFailed)
        } else if mlir_sys::mlirPassManagerRunOnOp(manager, module.to_raw()).value == 0 {
            Err(PassFailed)
        } else {
            Ok(())
        };
        mlir_sys::mlirPassManagerDestroy(manager);
        result
    }
}
