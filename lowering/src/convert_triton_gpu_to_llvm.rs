//! `convert-triton-gpu-to-llvm` (upstream's flag): the lowering as a pass in
//! MLIR's registry, so that `tt-opt` runs it and lit tests FileCheck the LLVM
//! dialect it produces. Every function is lowered by [`emit::lower_module`]; then
//! upstream MLIR's conversions take the scf/arith/math/cf/index/ub ops the
//! emitter leaves to the LLVM dialect, so the module that comes out is LLVM
//! and NVVM only, as upstream's pass leaves it.
//!
//! Options are upstream's (`compute-capability`, `ptx-version`) and
//! Tritium's `scratch-parameters`: upstream's kernels always take two
//! trailing scratch pointers (Triton's launcher passes them), Tritium's
//! standalone bundles do not (README: kernel ABI).
use crate::{emit, target::Target};
use melior::ir::{operation::OperationLike, OperationRef};
use tritium_dialects::pass::{OptionKind, PassDefinition, PassFailed, PassOption, PassOptions, PassResult};
use tritium_passes::pattern_driver::run_pipeline;

/// Upstream MLIR's conversions of what the emitter leaves (no canonicalize or
/// cse: LLVM's O3 does that work, and on the corpus the PTX is the same).
pub const LLVM_DIALECT_CONVERSIONS: &str =
    "builtin.module(convert-scf-to-cf,convert-arith-to-llvm,convert-math-to-llvm,\
     convert-cf-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts)";

pub static PASS: PassDefinition = PassDefinition {
    argument: "convert-triton-gpu-to-llvm",
    description:
        "Lower TritonGPU IR (a kernel module with layouts and shared memory allocated) to the LLVM and NVVM dialects",
    anchor: "builtin.module",
    options: &[
        PassOption {
            name: "compute-capability",
            description: "Target compute capability, when the module has no ttg.target",
            kind: OptionKind::Int,
            default: "80",
        },
        PassOption {
            name: "ptx-version",
            description: "PTX ISA version the code may use (the file is PTX 8.7 whatever it says; instructions newer than this version are not emitted)",
            kind: OptionKind::Int,
            default: tritium_dialects::target::PTX_VERSION_TEXT,
        },
        PassOption {
            name: "scratch-parameters",
            description: "Take upstream Triton's trailing global and profile scratch pointers",
            kind: OptionKind::Bool,
            default: "true",
        },
        // Off by default: upstream's pass leaves fusion to the backend's
        // options (enable_fp_fusion), so its output, and this pass's unless
        // asked, has no `contract` flags. `tritium compile` passes the
        // compile option (on unless --no-fp-fusion).
        PassOption {
            name: "fp-fusion",
            description: "Multiplies and adds may fuse into fma (upstream's enable_fp_fusion; tritium compile turns it on)",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOption {
            name: "reflect-ftz",
            description:
                "Flush f32 denormals where upstream's enable_reflect_ftz does: exp2, and libdevice (nvvm-reflect-ftz)",
            kind: OptionKind::Bool,
            default: "true",
        },
        PassOption {
            name: "test-internal-error",
            description: "Test only: panic, to check how internal errors are reported",
            kind: OptionKind::Bool,
            default: "false",
        },
    ],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    if options.bool("test-internal-error") {
        panic!("the lowering panicked on purpose (--test-internal-error=lowering)");
    }
    // A file of several kernel modules (no split-input-file) parses as an
    // outer module around them: each is lowered with its own attributes.
    let nested = tritium_dialects::ir::nested_modules(module);
    if !nested.is_empty() && tritium_passes::ir::module_functions(module).is_empty() {
        for inner in nested {
            lower(inner, options)?;
        }
    } else {
        lower(module, options)?;
    }
    run_pipeline(module, LLVM_DIALECT_CONVERSIONS)?;
    move_loop_annotations(module);
    Ok(())
}

/// Lowers the functions of one kernel module.
fn lower(module: OperationRef, options: &PassOptions) -> PassResult {
    let target = match Target::of_module(&module) {
        Some(target) => target,
        None => Target::from_capability(u32::try_from(options.int("compute-capability")).unwrap_or(0)),
    };
    let target = target.map_err(|message| {
        tritium_dialects::pass::emit_error(module.location(), &message);
        PassFailed
    })?;
    // SAFETY: the context and a view of the module the pass manager runs on
    // (which does not own it), both alive for the whole pass.
    let context_ref = module.context();
    let context = unsafe { context_ref.to_ref() };
    let Some(module_view) = tritium_dialects::ir::module_view(&module) else {
        tritium_dialects::pass::emit_error(module.location(), "convert-triton-gpu-to-llvm runs on a builtin.module");
        return Err(PassFailed);
    };
    let abi = emit::ModuleOptions {
        scratch_parameters: options.bool("scratch-parameters"),
        reflect_ftz: options.bool("reflect-ftz"),
        fp_fusion: options.bool("fp-fusion"),
        ptx_version: u32::try_from(options.int("ptx-version")).unwrap_or(tritium_dialects::target::PTX_VERSION),
    };
    emit::lower_module(context, &module_view, target, abi).map_err(|error| {
        error.emit();
        PassFailed
    })
}

/// convert-scf-to-cf leaves a loop's `llvm.loop_annotation` (the frontend's
/// `disable_licm`) on its back edge as a discardable attribute, which
/// convert-cf-to-llvm copies to the `llvm.br` as it is; LLVM translation
/// reads the branch's own `loop_annotation` (`!llvm.loop` metadata).
fn move_loop_annotations(module: OperationRef) {
    use tritium_passes::ir::{collect_ops, Order};
    for op in collect_ops(module, Order::Pre) {
        if let Ok(annotation) = op.attribute("llvm.loop_annotation") {
            let name = op.name();
            if matches!(name.as_string_ref().as_str(), Ok("llvm.br" | "llvm.cond_br")) {
                tritium_dialects::ir::set_attribute(&op, "loop_annotation", annotation);
                tritium_dialects::ir::remove_attribute(&op, "llvm.loop_annotation");
            }
        }
    }
}
