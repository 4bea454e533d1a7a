//! Canonicalization patterns of Tritium's ops, written in Rust. Ops declared
//! with `hasCanonicalizer` in the ODS forward MLIR's request for their
//! patterns here, so upstream's `canonicalize` pass (and any pattern driver
//! that collects canonicalization patterns) runs them.
//!
//! Upstream's C++ `fold` methods are patterns here too ("folds"), tried
//! before an op's other patterns, as MLIR's driver folds an op before it
//! tries patterns. Every greedy rewrite upstream folds, so passes that run
//! their own patterns add [`folds`] to them.
mod convert_layout;
mod load_store;
mod memdesc;
mod shape_ops;
mod split_of_convert;
mod support;
mod value_folds;
mod warp_specialize;

use crate::{ffi, rewrite::Pattern};
use mlir_sys::{MlirContext, MlirRewritePatternSet, MlirStringRef};
use std::{cell::RefCell, sync::Once};

/// Benefit of the patterns that stand for folders: above any other pattern.
const FOLD_BENEFIT: u32 = 1000;

/// What an op contributes to canonicalization.
struct Canonicalization {
    /// The op whose getCanonicalizationPatterns adds the patterns.
    op: &'static str,
    /// Its `fold` method, as patterns rooted at the op.
    folds: &'static [&'static [Pattern]],
    /// Its canonicalization patterns; as in upstream Triton, they may be
    /// rooted at other ops.
    patterns: &'static [&'static [Pattern]],
}

static CANONICALIZATIONS: &[Canonicalization] = &[
    Canonicalization { op: "tt.addptr", folds: &[value_folds::ADDPTR_FOLDS], patterns: &[] },
    Canonicalization { op: "tt.advance", folds: &[value_folds::ADVANCE_FOLDS], patterns: &[] },
    Canonicalization {
        op: "tt.broadcast",
        folds: &[shape_ops::BROADCAST_FOLDS],
        patterns: &[shape_ops::BROADCAST_PATTERNS],
    },
    Canonicalization {
        op: "tt.expand_dims",
        folds: &[shape_ops::EXPAND_DIMS_FOLDS],
        patterns: &[shape_ops::EXPAND_DIMS_PATTERNS],
    },
    Canonicalization { op: "tt.fp_to_fp", folds: &[value_folds::FP_TO_FP_FOLDS], patterns: &[] },
    Canonicalization { op: "tt.load", folds: &[], patterns: &[load_store::LOAD_PATTERNS] },
    Canonicalization { op: "tt.make_range", folds: &[shape_ops::MAKE_RANGE_FOLDS], patterns: &[] },
    Canonicalization { op: "tt.reshape", folds: &[shape_ops::RESHAPE_FOLDS], patterns: &[shape_ops::RESHAPE_PATTERNS] },
    Canonicalization { op: "tt.splat", folds: &[shape_ops::SPLAT_FOLDS], patterns: &[] },
    Canonicalization { op: "tt.store", folds: &[], patterns: &[load_store::STORE_PATTERNS] },
    Canonicalization { op: "tt.trans", folds: &[shape_ops::TRANS_FOLDS], patterns: &[] },
    Canonicalization {
        op: "ttg.convert_layout",
        folds: &[],
        patterns: &[convert_layout::PATTERNS, split_of_convert::PATTERNS],
    },
    Canonicalization { op: "ttg.local_alloc", folds: &[memdesc::LOCAL_ALLOC_FOLDS], patterns: &[] },
    Canonicalization { op: "ttg.memdesc_reinterpret", folds: &[memdesc::MEMDESC_REINTERPRET_FOLDS], patterns: &[] },
    Canonicalization { op: "ttg.memdesc_trans", folds: &[memdesc::MEMDESC_TRANS_FOLDS], patterns: &[] },
    Canonicalization { op: "ttg.warp_specialize", folds: &[], patterns: &[warp_specialize::PATTERNS] },
];

/// Every op's folds: what MLIR's greedy driver adds to any set of patterns.
pub fn folds() -> impl Iterator<Item = &'static Pattern> {
    CANONICALIZATIONS.iter().flat_map(|c| c.folds.iter().flat_map(|p| p.iter()))
}

/// The canonicalization patterns `op`'s getCanonicalizationPatterns adds
/// (its folds not included), e.g. for a pass that runs
/// `BroadcastOp::getCanonicalizationPatterns` upstream.
pub fn patterns_of(op: &str) -> impl Iterator<Item = &'static Pattern> + '_ {
    CANONICALIZATIONS.iter().filter(move |c| c.op == op).flat_map(|c| c.patterns.iter().flat_map(|p| p.iter()))
}

thread_local! {
    /// The ops whose canonicalization patterns MLIR may collect on this
    /// thread; `None`: every op's.
    static SELECTED: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Runs `f` with the Rust canonicalization patterns of `ops` only (and every
/// fold) visible to the canonicalizers it builds on this thread. Upstream
/// passes that run `SomeOp::getCanonicalizationPatterns` through the greedy
/// driver are run as `canonicalize{enable-patterns=...}` over the C++
/// patterns' names; Rust patterns have no name to select them by, so this
/// selects them.
pub fn with_patterns_of<R>(ops: &[&str], f: impl FnOnce() -> R) -> R {
    /// Restores the previous selection, also when `f` panics.
    struct Restore(Option<Vec<String>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            SELECTED.with(|s| *s.borrow_mut() = previous);
        }
    }
    let _restore = Restore(SELECTED.with(|s| s.replace(Some(ops.iter().map(|o| o.to_string()).collect()))));
    f()
}

unsafe extern "C" fn provide(op_name: MlirStringRef, context: MlirContext, set: MlirRewritePatternSet) {
    // SAFETY: MLIR passes a valid string for the op name.
    let name = unsafe { std::slice::from_raw_parts(op_name.data as *const u8, op_name.length) };
    let Some(entry) = CANONICALIZATIONS.iter().find(|c| c.op.as_bytes() == name) else { return };
    let selected = SELECTED.with(|s| s.borrow().as_ref().is_none_or(|ops| ops.iter().any(|o| o == entry.op)));
    let patterns = entry.patterns.iter().filter(|_| selected);
    for pattern in entry.folds.iter().chain(patterns).flat_map(|p| p.iter()) {
        // SAFETY: `set` is the live pattern set MLIR is filling.
        unsafe { crate::rewrite::add_to_set(set, context, pattern) };
    }
}

/// Makes the Rust canonicalization patterns available to MLIR. Idempotent.
pub fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| unsafe { ffi::tritiumSetCanonicalizationProvider(provide) });
}
