//! Tritium's MLIR dialects from Rust: `tt` (Triton IR), `ttg` (with layouts)
//! and `ttng` (NVIDIA ops), defined in ODS (`dialects/td`) with Triton 3.6's
//! textual syntax.
//!
//! - [`create_context`]: a context with every dialect Tritium uses.
//! - [`layout`]: layout attributes as typed values of `tritium-layout`.
//! - [`types`]: `!tt.ptr`, `!tt.tensordesc`, `!ttg.memdesc`, `!ttg.async.token`.
//! - [`ops`]: op builders generated from the ODS.
//! - [`io`]: parse and print with diagnostics as values.
//! - [`pass`]: registering Rust passes in MLIR's pass registry.
//! - [`ir`]: the IR-access layer, the one place with raw MLIR C API calls
//!   outside the FFI modules.
//! - [`views`]: typed views of ops, their operands by name.

pub mod access;
pub mod canonicalization;
mod context;
pub mod ffi;
pub mod internal_error;
pub mod io;
pub mod ir;
pub mod layout;
mod layout_checks;
pub mod ops;
pub mod pass;
pub mod rewrite;
pub mod target;
pub mod types;
pub mod views;

pub use context::create_context;

/// Registers, by name, the upstream passes Tritium's pipelines use
/// (canonicalize, cse, sccp, symbol-dce, licm, inline, convert-scf-to-cf, ...).
pub fn register_upstream_passes() {
    // SAFETY: idempotent global registration.
    unsafe { ffi::tritiumRegisterUpstreamPasses() };
    // `llvm-optimize-for-nvvm-target` (MLIR's: f16 division through f32 and
    // the like), which upstream's lowering tests run after their lowering.
    static NVVM_OPTIMIZE: std::sync::Once = std::sync::Once::new();
    // SAFETY: registration of a pass MLIR defines, once.
    NVVM_OPTIMIZE.call_once(|| unsafe { mlir_sys::mlirRegisterLLVMNVVMOptimizeForTargetPass() });
    canonicalization::register();
    layout_checks::register();
}

/// Runs mlir-opt's driver over Tritium's dialects and every registered pass
/// with these command-line arguments (program name first). Returns the exit code.
pub fn opt_main(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    use std::{ffi::CString, os::unix::ffi::OsStrExt};
    let args: Vec<CString> = args.into_iter().map(|a| CString::new(a.as_bytes()).unwrap_or_default()).collect();
    let mut argv: Vec<*mut std::os::raw::c_char> = args.iter().map(|a| a.as_ptr() as *mut _).collect();
    argv.push(std::ptr::null_mut());
    canonicalization::register();
    layout_checks::register();
    // SAFETY: argv holds args.len() valid C strings and a final null, alive
    // for the call.
    unsafe { ffi::tritiumOptMain(args.len() as i32, argv.as_mut_ptr()) }
}
