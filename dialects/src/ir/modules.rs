//! Modules: a `Module` view of a `builtin.module` op, and translating one
//! to LLVM IR.
use melior::ir::{operation::OperationLike, Module, OperationRef};
use std::mem::ManuallyDrop;

/// A `Module` view of `op`, a `builtin.module` (what a pass is given as an
/// op); `None` for any other op. The view does not own the module
/// (`ManuallyDrop`): dropping it leaves the module alone.
pub fn module_view<'c>(op: &OperationRef<'c, '_>) -> Option<ManuallyDrop<Module<'c>>> {
    // SAFETY: a live op; MLIR gives a null module for an op that is no module.
    let raw = unsafe { mlir_sys::mlirModuleFromOperation(op.to_raw()) };
    // SAFETY: a non-null module handle of a live module op.
    (!raw.ptr.is_null()).then(|| ManuallyDrop::new(unsafe { Module::from_raw(raw) }))
}

/// Translates an LLVM-dialect `module` into a new LLVM module in
/// `llvm_context` (an `LLVMContextRef`); null when the translation fails.
///
/// # Safety
/// `llvm_context` must be a live LLVM context; the caller owns the returned
/// module.
pub unsafe fn translate_to_llvm_ir(module: &Module, llvm_context: *mut std::ffi::c_void) -> *mut std::ffi::c_void {
    // SAFETY: a live module and, by the caller's promise, a live LLVM context.
    unsafe { mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), llvm_context as _) as _ }
}
