//! Pattern runs as upstream Triton's passes make them with MLIR's greedy
//! driver, which folds every op it visits: Rust patterns together with the
//! dialects' folds ([`apply_with_folds`]), or C++ canonicalization patterns
//! of MLIR's ops picked by name ([`apply_canonicalization_patterns`]).
use crate::{
    pattern_driver::{apply_greedily, run_pipeline},
    ssa::{set_operand, uses},
};
use melior::ir::{OperationRef, Value};
use tritium_dialects::{
    canonicalization,
    pass::PassResult,
    rewrite::{Pattern, Rewriter},
};

/// `applyPatternsGreedily(root, patterns)`: `patterns`, and the folds of
/// Tritium's ops (MLIR folds its own ops natively).
pub fn apply_with_folds(root: OperationRef, patterns: &[&'static Pattern]) -> PassResult {
    let all: Vec<&'static Pattern> = patterns.iter().copied().chain(canonicalization::folds()).collect();
    apply_greedily(root, &all)
}

/// `applyPatternsGreedily(module, patterns)` where upstream collects
/// `patterns` from ops' getCanonicalizationPatterns: the C++ patterns named
/// `cxx_patterns` (MLIR's debug names) and the Rust patterns of `tritium_ops`,
/// with every fold. Runs as MLIR's canonicalizer restricted to them, bottom
/// up like the greedy driver's default.
pub fn apply_canonicalization_patterns(
    module: OperationRef,
    cxx_patterns: &[&str],
    tritium_ops: &[&str],
) -> PassResult {
    // The empty name is that of every Rust pattern: with it the filter lets
    // through what the canonicalization provider adds, which
    // `with_patterns_of` limits to the folds and `tritium_ops`' patterns.
    let names = format!("{},", cxx_patterns.join(","));
    let pipeline = format!("builtin.module(canonicalize{{enable-patterns={{{names}}} top-down=false}})");
    canonicalization::with_patterns_of(tritium_ops, || run_pipeline(module, &pipeline))
}

/// The canonicalization patterns of `scf.for` in MLIR 22 (what upstream's
/// `scf::ForOp::getCanonicalizationPatterns` adds). The last three are MLIR's
/// generic region-branch patterns, which other ops' canonicalizations add
/// too; selected by name, they apply to those ops as well.
pub const FOR_OP_PATTERNS: &[&str] = &[
    "(anonymous namespace)::SimplifyTrivialLoops",
    "(anonymous namespace)::ForOpTensorCastFolder",
    "(anonymous namespace)::MakeRegionBranchOpSuccessorInputsDead",
    "(anonymous namespace)::RemoveDeadRegionBranchOpSuccessorInputs",
    "(anonymous namespace)::RemoveDuplicateSuccessorInputUses",
];

/// `RewriterBase::replaceAllUsesWith`: every use of `from` becomes `to`,
/// each user changed through the rewriter (so the driver revisits it); the
/// op defining `from` stays, unused, for the driver to erase.
pub fn replace_all_uses_with(rewriter: &Rewriter, from: Value, to: Value) {
    for user in uses(from) {
        rewriter.modify_in_place(&user.owner, || set_operand(&user.owner, user.index, to));
    }
}
