//! Tritium's C API, declared in `include/tritium.h`: a context, a compile of
//! Triton IR text with options, and a result holding the PTX and metadata or
//! the located diagnostics. No panic crosses the boundary.
#![allow(clippy::missing_safety_doc, non_camel_case_types)]
use std::{
    ffi::{c_char, c_int, c_uint, CStr, CString},
    path::PathBuf,
    ptr,
    sync::Mutex,
};
use tritium_lowering::{compile_source, CompileOptions, Instrumentation, Target};

/// Compiles are serialised (LLVM's code generation set-up is shared).
static COMPILE: Mutex<()> = Mutex::new(());

/// The MLIR context itself is per thread inside the library; this handle
/// exists so that the API can grow per-context settings without breaking.
pub struct tritium_context {
    _private: (),
}

pub struct tritium_result {
    ptx: Option<CString>,
    metadata: Option<CString>,
    error: Option<CString>,
}

#[repr(C)]
pub struct tritium_options {
    target: *const c_char,
    num_warps: c_uint,
    num_stages: c_uint,
    num_ctas: c_uint,
    libdevice: *const c_char,
    triton_abi: c_int,
    maxnreg: c_uint,
    no_fp_fusion: c_int,
    no_reflect_ftz: c_int,
    instrumentation_mode: *const c_char,
    no_line_info: c_int,
    debug_variables: c_int,
}

/// Text to a C string; an interior NUL (never in PTX or JSON) is cut there.
fn c_string(text: String) -> CString {
    CString::new(text).unwrap_or_else(|e| {
        let end = e.nul_position();
        CString::new(&e.into_vec()[..end]).unwrap()
    })
}

unsafe fn optional_str<'a>(text: *const c_char) -> Result<Option<&'a str>, String> {
    if text.is_null() {
        return Ok(None);
    }
    CStr::from_ptr(text).to_str().map(Some).map_err(|_| "a string argument is not UTF-8".to_string())
}

#[no_mangle]
pub extern "C" fn tritium_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

#[no_mangle]
pub extern "C" fn tritium_context_create() -> *mut tritium_context {
    Box::into_raw(Box::new(tritium_context { _private: () }))
}

#[no_mangle]
pub unsafe extern "C" fn tritium_context_free(context: *mut tritium_context) {
    if !context.is_null() {
        drop(Box::from_raw(context));
    }
}

unsafe fn options_from(options: *const tritium_options) -> Result<CompileOptions, String> {
    let mut result = CompileOptions::default();
    let Some(options) = options.as_ref() else {
        return Ok(result);
    };
    if let Some(target) = optional_str(options.target)? {
        result.target = Target::parse(target)?;
    }
    let or = |value: c_uint, default: u32| if value == 0 { default } else { value };
    result.num_warps = or(options.num_warps, 4);
    result.num_stages = or(options.num_stages, 3);
    result.num_ctas = or(options.num_ctas, 1);
    if !result.num_warps.is_power_of_two() || result.num_warps > 32 {
        return Err(format!("num_warps must be a power of two up to 32, got {}", result.num_warps));
    }
    result.libdevice = optional_str(options.libdevice)?.map(PathBuf::from);
    result.scratch_parameters = options.triton_abi != 0;
    result.codegen.maxnreg = (options.maxnreg != 0).then_some(options.maxnreg);
    result.codegen.fp_fusion = options.no_fp_fusion == 0;
    result.codegen.reflect_ftz = options.no_reflect_ftz == 0;
    result.codegen.line_info = options.no_line_info == 0;
    result.codegen.debug_variables = options.debug_variables != 0;
    result.instrumentation = Instrumentation::parse(optional_str(options.instrumentation_mode)?.unwrap_or(""))?;
    Ok(result)
}

#[no_mangle]
pub unsafe extern "C" fn tritium_compile(
    context: *mut tritium_context,
    source: *const c_char,
    source_name: *const c_char,
    options: *const tritium_options,
) -> *mut tritium_result {
    let outcome = std::panic::catch_unwind(|| -> Result<(String, String), String> {
        if context.is_null() || source.is_null() {
            return Err("tritium_compile: the context and the source must not be NULL".into());
        }
        let source = optional_str(source)?.unwrap_or_default();
        let name = optional_str(source_name)?.unwrap_or("<string>");
        let options = options_from(options)?;
        let _guard = COMPILE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let compiled = compile_source(source, name, &options, false)?;
        let metadata = compiled.bundle.metadata_json();
        Ok((compiled.bundle.ptx, metadata))
    })
    .unwrap_or_else(|_| Err("tritium_compile: internal compiler error".into()));
    let result = match outcome {
        Ok((ptx, metadata)) => {
            tritium_result { ptx: Some(c_string(ptx)), metadata: Some(c_string(metadata)), error: None }
        }
        Err(error) => tritium_result { ptx: None, metadata: None, error: Some(c_string(error)) },
    };
    Box::into_raw(Box::new(result))
}

fn field(result: *const tritium_result, get: impl Fn(&tritium_result) -> &Option<CString>) -> *const c_char {
    match unsafe { result.as_ref() } {
        Some(result) => get(result).as_ref().map_or(ptr::null(), |s| s.as_ptr()),
        None => ptr::null(),
    }
}

#[no_mangle]
pub unsafe extern "C" fn tritium_result_ok(result: *const tritium_result) -> c_int {
    result.as_ref().is_some_and(|r| r.error.is_none()) as c_int
}

#[no_mangle]
pub extern "C" fn tritium_result_ptx(result: *const tritium_result) -> *const c_char {
    field(result, |r| &r.ptx)
}

#[no_mangle]
pub extern "C" fn tritium_result_metadata(result: *const tritium_result) -> *const c_char {
    field(result, |r| &r.metadata)
}

#[no_mangle]
pub extern "C" fn tritium_result_error(result: *const tritium_result) -> *const c_char {
    field(result, |r| &r.error)
}

#[no_mangle]
pub unsafe extern "C" fn tritium_result_free(result: *mut tritium_result) {
    if !result.is_null() {
        drop(Box::from_raw(result));
    }
}
