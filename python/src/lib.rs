//! `tritium._native`: Tritium's compiler in the Python process. The Python
//! package (`tritium/__init__.py`) wraps it; `tritium/triton.py` plugs it
//! into Triton.
use pyo3::{create_exception, exceptions::PyException, prelude::*};
use std::{path::PathBuf, sync::Mutex};
use tritium_lowering::{compile_source, CodegenOptions, CompileOptions, Instrumentation, Target};

create_exception!(
    _native,
    CompileError,
    PyException,
    "Tritium could not compile the kernel; the message holds its located diagnostics."
);

/// Compiles are serialised: each thread has its own MLIR context, but LLVM's
/// target set-up and code generation are not known to be safe to run twice at once.
static COMPILE: Mutex<()> = Mutex::new(());

/// What `compile` returns: (ptx, metadata json, ttgir or None, llvm ir or None, warnings).
type Output = (String, String, Option<String>, Option<String>, Vec<String>);

#[pyfunction]
#[pyo3(signature = (source, target="cuda:90", num_warps=4, num_stages=3, num_ctas=1, libdevice=None,
                    triton_abi=false, keep_ttgir=false, keep_llvm_ir=false, source_name="<string>",
                    maxnreg=None, enable_fp_fusion=true, enable_reflect_ftz=true, instrumentation_mode="", line_info=true, reproducer=None, debug_variables=false))]
#[allow(clippy::too_many_arguments)]
fn compile(
    py: Python<'_>,
    source: &str,
    target: &str,
    num_warps: u32,
    num_stages: u32,
    num_ctas: u32,
    libdevice: Option<PathBuf>,
    triton_abi: bool,
    keep_ttgir: bool,
    keep_llvm_ir: bool,
    source_name: &str,
    maxnreg: Option<u32>,
    enable_fp_fusion: bool,
    enable_reflect_ftz: bool,
    instrumentation_mode: &str,
    line_info: bool,
    reproducer: Option<PathBuf>,
    debug_variables: bool,
) -> PyResult<Output> {
    let target = Target::parse(target).map_err(CompileError::new_err)?;
    let instrumentation = Instrumentation::parse(instrumentation_mode).map_err(CompileError::new_err)?;
    if num_warps == 0 || !num_warps.is_power_of_two() || num_warps > 32 {
        return Err(CompileError::new_err(format!("num_warps must be a power of two up to 32, got {num_warps}")));
    }
    let options = CompileOptions {
        target,
        num_warps,
        num_stages,
        num_ctas,
        libdevice,
        keep_llvm_ir,
        scratch_parameters: triton_abi,
        codegen: CodegenOptions {
            maxnreg,
            fp_fusion: enable_fp_fusion,
            reflect_ftz: enable_reflect_ftz,
            line_info,
            debug_variables,
        },
        instrumentation,
        reproducer,
        ..CompileOptions::default()
    };
    let compiled = py.allow_threads(|| {
        let _guard = COMPILE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        compile_source(source, source_name, &options, keep_ttgir)
    });
    let compiled = compiled.map_err(CompileError::new_err)?;
    let metadata = compiled.bundle.metadata_json();
    Ok((compiled.bundle.ptx, metadata, compiled.ttgir, compiled.bundle.llvm_ir, compiled.warnings))
}

#[pymodule]
#[pyo3(name = "_native")]
fn native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(compile, module)?)?;
    module.add("CompileError", module.py().get_type::<CompileError>())?;
    module.add("VERSION", tritium_lowering::VERSION)?;
    // The PTX ISA version Tritium emits (87: `.version 8.7`, as upstream with CUDA 12.8's ptxas).
    module.add("PTX_VERSION", tritium_lowering::target::PTX_VERSION)?;
    Ok(())
}
