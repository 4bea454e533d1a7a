//! Tritium's backend: TritonGPU IR -> LLVM and NVVM dialects -> LLVM IR ->
//! PTX, and the kernel bundle (`NAME.ptx` + `NAME.json`).
//!
//! The lowering ([`emit`]) is a direct emitter: each tensor value maps to the
//! registers one thread holds, found through the linear layout of its
//! layout ([`layout`]); ops are lowered family by family ([`ops`]). Upstream
//! MLIR then converts scf/arith/math/cf to the LLVM dialect, and LLVM's NVPTX
//! backend makes PTX ([`ptx`]).
pub mod builder;
pub mod bundle;
pub mod cfg;
pub mod convert_nv_gpu_to_llvm;
pub mod convert_triton_gpu_to_llvm;
pub mod convert_warp_specialize_to_llvm;
pub mod embed;
pub mod emit;
pub mod enable_line_info;
pub mod extract_variable_info;
pub mod function_abi;
pub mod layout;
pub mod llvm_check;
pub mod ops;
pub mod ptx;
pub mod ptx_branches;
pub mod target;
pub mod transfer;

pub use bundle::{compile, Bundle, CodegenOptions, CompileOptions, Instrumentation};

/// Registers every Tritium pass in MLIR's pass registry: the passes of
/// `tritium_passes` and the lowering (`convert-triton-gpu-to-llvm`). Safe to
/// call more than once.
pub fn register_all_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    tritium_passes::register_all();
    ONCE.call_once(|| {
        tritium_dialects::pass::register(&convert_triton_gpu_to_llvm::PASS);
        tritium_dialects::pass::register(&convert_warp_specialize_to_llvm::PASS);
        tritium_dialects::pass::register(&convert_nv_gpu_to_llvm::PASS);
        tritium_dialects::pass::register(&enable_line_info::PASS);
        tritium_dialects::pass::register(&extract_variable_info::PASS);
    });
}
pub use embed::{compile_source, Compiled, VERSION};
pub use target::Target;

/// The integer and `array<i32: ...>` attributes of ops, from the IR-access
/// layer (the lowering reads `allocation.offset`, `ttg.shared`,
/// `partitionNumWarps`... through them).
pub(crate) use tritium_dialects::ir::{dense_i32_attribute, int_attribute};
