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
    ir::{apply_patterns_greedily, run_pipeline_on, PipelineFailure},
    pass::{emit_error, PassFailed, PassResult},
    rewrite::Pattern,
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
    let converged = apply_patterns_greedily(root, patterns);
    if PATTERN_FAILED.with(|f| f.replace(false)) {
        return Err(PassFailed);
    }
    if !converged {
        emit_error(root.location(), "the rewrite patterns did not converge");
        return Err(PassFailed);
    }
    Ok(())
}

/// Runs a textual pass pipeline (`builtin.module(canonicalize)`) on
/// `module`, as upstream passes do with `runPipeline`.
pub fn run_pipeline(module: OperationRef, pipeline: &str) -> PassResult {
    match run_pipeline_on(module, pipeline) {
        Ok(()) => Ok(()),
        Err(PipelineFailure::Parse) => {
            emit_error(module.location(), &format!("cannot build the pipeline '{pipeline}'"));
            Err(PassFailed)
        }
        Err(PipelineFailure::Run) => Err(PassFailed),
    }
}
