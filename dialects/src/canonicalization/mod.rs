//! Canonicalization patterns of Tritium's ops, written in Rust. Ops declared
//! with `hasCanonicalizer` in the ODS forward MLIR's request for their
//! patterns here, so upstream's `canonicalize` pass (and any pattern driver
//! that collects canonicalization patterns) runs them.
mod convert_layout;

use crate::{ffi, rewrite::Pattern};
use mlir_sys::{MlirContext, MlirRewritePatternSet, MlirStringRef};
use std::sync::Once;

/// (op whose getCanonicalizationPatterns adds them, the patterns). As in
/// upstream Triton, an op's patterns may be rooted at other ops.
static CANONICALIZATIONS: &[(&str, &[Pattern])] = &[("ttg.convert_layout", convert_layout::PATTERNS)];

unsafe extern "C" fn provide(op_name: MlirStringRef, context: MlirContext, set: MlirRewritePatternSet) {
    // SAFETY: MLIR passes a valid string for the op name.
    let name = unsafe { std::slice::from_raw_parts(op_name.data as *const u8, op_name.length) };
    for (owner, patterns) in CANONICALIZATIONS {
        if owner.as_bytes() == name {
            for pattern in *patterns {
                // SAFETY: `set` is the live pattern set MLIR is filling.
                unsafe { crate::rewrite::add_to_set(set, context, pattern) };
            }
        }
    }
}

/// Makes the Rust canonicalization patterns available to MLIR. Idempotent.
pub fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| unsafe { ffi::tritiumSetCanonicalizationProvider(provide) });
}
