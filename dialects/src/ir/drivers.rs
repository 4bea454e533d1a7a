//! Running MLIR's drivers on an op from inside a pass: a textual pass
//! pipeline (upstream passes' `runPipeline`) and the greedy pattern driver
//! (`applyPatternsGreedily`) over Rust patterns.
use crate::rewrite::{add_to_set, Pattern};
use melior::ir::OperationRef;

/// Why [`run_pipeline_on`] failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipelineFailure {
    /// The pipeline text does not parse (unknown pass or option).
    Parse,
    /// A pass of the pipeline failed (it reported its own diagnostics).
    Run,
}

fn string_ref(text: &str) -> mlir_sys::MlirStringRef {
    // MLIR copies what it keeps; the text outlives the calls it is passed to.
    mlir_sys::MlirStringRef { data: text.as_ptr().cast(), length: text.len() }
}

/// Runs a textual pass pipeline on `module` (a `builtin.module`), e.g.
/// `builtin.module(canonicalize)`. The pass manager does not verify the IR
/// after each pass: the outer pass manager verifies after the calling pass.
pub fn run_pipeline_on(module: OperationRef, pipeline: &str) -> Result<(), PipelineFailure> {
    run_pipeline_on_op(module, "builtin.module", pipeline)
}

/// [`run_pipeline_on`] for any op named `anchor` (e.g. a `tt.func` with
/// `tt.func(canonicalize)`), which the pipeline runs on alone.
pub fn run_pipeline_on_op(op: OperationRef, anchor: &str, pipeline: &str) -> Result<(), PipelineFailure> {
    let module = op;
    // SAFETY: a pass manager of the op's context, destroyed before
    // returning; the op is live and nothing else changes it meanwhile.
    unsafe {
        let context = mlir_sys::mlirOperationGetContext(module.to_raw());
        let manager = mlir_sys::mlirPassManagerCreateOnOperation(context, string_ref(anchor));
        mlir_sys::mlirPassManagerEnableVerifier(manager, false);
        let parsed = mlir_sys::mlirParsePassPipeline(
            mlir_sys::mlirPassManagerGetAsOpPassManager(manager),
            string_ref(pipeline),
            None,
            std::ptr::null_mut(),
        );
        let result = if parsed.value == 0 {
            Err(PipelineFailure::Parse)
        } else if mlir_sys::mlirPassManagerRunOnOp(manager, module.to_raw()).value == 0 {
            Err(PipelineFailure::Run)
        } else {
            Ok(())
        };
        mlir_sys::mlirPassManagerDestroy(manager);
        result
    }
}

/// Applies `patterns` to the regions of `root` with MLIR's greedy driver and
/// its default configuration (bottom-up, folding, constant CSE, dead-op
/// removal) until nothing changes. `true` if the rewrites converged.
pub fn apply_patterns_greedily(root: OperationRef, patterns: &[&'static Pattern]) -> bool {
    // SAFETY: the set, frozen set and config are created and destroyed here;
    // `root` is live and only the driver changes it meanwhile.
    unsafe {
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
    }
}

/// The greedy driver's clean-ups alone, as upstream's
/// `applyPatternsGreedily` with folding and constant CSE disabled runs them
/// around its patterns: trivially dead ops erased and regions simplified,
/// nothing folded. `true` if it converged.
pub fn erase_dead_ops_greedily(root: OperationRef) -> bool {
    // SAFETY: as in `apply_patterns_greedily`, with an empty pattern set.
    unsafe {
        let context = mlir_sys::mlirOperationGetContext(root.to_raw());
        let set = mlir_sys::mlirRewritePatternSetCreate(context);
        let frozen = mlir_sys::mlirFreezeRewritePattern(set);
        let config = mlir_sys::mlirGreedyRewriteDriverConfigCreate();
        mlir_sys::mlirGreedyRewriteDriverConfigEnableFolding(config, false);
        mlir_sys::mlirGreedyRewriteDriverConfigEnableConstantCSE(config, false);
        let result = mlir_sys::mlirApplyPatternsAndFoldGreedilyWithOp(root.to_raw(), frozen, config);
        mlir_sys::mlirGreedyRewriteDriverConfigDestroy(config);
        mlir_sys::mlirFrozenRewritePatternSetDestroy(frozen);
        result.value != 0
    }
}
