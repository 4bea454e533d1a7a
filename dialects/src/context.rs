//! One call that makes an MLIR context with everything Tritium uses.
use crate::ffi;
use melior::{dialect::DialectRegistry, Context};

/// A context with tt, ttg, ttng and the upstream dialects Tritium uses (arith,
/// math, scf, cf, func, llvm, nvvm, gpu, ub, index) registered and loaded, and
/// the upstream passes of Tritium's pipelines registered by name.
pub fn create_context() -> Context {
    let registry = DialectRegistry::new();
    // SAFETY: the registry is live; the C function only inserts into it.
    unsafe { ffi::tritiumRegisterDialects(registry.to_raw()) };
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    // SAFETY: idempotent global registration.
    unsafe { ffi::tritiumRegisterUpstreamPasses() };
    crate::canonicalization::register();
    crate::layout_checks::register();
    context
}
