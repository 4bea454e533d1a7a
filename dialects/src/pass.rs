//! Passes written in Rust, registered in MLIR's own pass registry so that
//! they run by name in `--pass-pipeline`, have per-pass flags and options in
//! tt-opt, and show in `--help` like C++ passes (see `RustPass` in CAPI.cpp).
use crate::ffi;
use melior::ir::{operation::OperationLike, Location, OperationRef};
use std::{
    collections::HashMap,
    ffi::{c_char, c_void, CStr, CString},
    panic::{catch_unwind, AssertUnwindSafe},
};

/// The type of a pass option, as MLIR's option parser checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    String,
    Int,
    Bool,
}

#[derive(Clone, Copy, Debug)]
pub struct PassOption {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: OptionKind,
    /// Default in textual form: `"4"`, `"true"`, `"cuda:90"`.
    pub default: &'static str,
}

/// The failure of a pass; diagnostics were emitted where the problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassFailed;

pub type PassResult = Result<(), PassFailed>;

/// A pass: its flag, one line of help, its options and its body. The body runs
/// on the anchor operation (`builtin.module` unless stated).
pub struct PassDefinition {
    pub argument: &'static str,
    pub description: &'static str,
    pub anchor: &'static str,
    pub options: &'static [PassOption],
    pub run: for<'c, 'a> fn(OperationRef<'c, 'a>, &PassOptions) -> PassResult,
}

/// Option values of one run of a pass.
#[derive(Debug, Clone, Default)]
pub struct PassOptions {
    values: HashMap<&'static str, String>,
}

impl PassOptions {
    /// The options' defaults, overridden by `overrides` (name, value).
    pub fn with_defaults(options: &[PassOption], overrides: &[(&str, &str)]) -> Self {
        let mut values: HashMap<&'static str, String> =
            options.iter().map(|o| (o.name, o.default.to_string())).collect();
        for (name, value) in overrides {
            let option = options.iter().find(|o| o.name == *name).unwrap_or_else(|| undeclared(name));
            values.insert(option.name, value.to_string());
        }
        Self { values }
    }

    /// The value of option `name`. A name the pass does not declare is a
    /// bug in the pass (a misspelt option must not silently read as 0): it
    /// panics, which the pass trampoline reports as an internal error.
    pub fn string(&self, name: &str) -> &str {
        self.values.get(name).map(String::as_str).unwrap_or_else(|| undeclared(name))
    }

    /// MLIR's option parser has already checked the value's syntax.
    pub fn int(&self, name: &str) -> i64 {
        self.string(name).parse().unwrap_or(0)
    }

    pub fn bool(&self, name: &str) -> bool {
        self.string(name) == "true"
    }
}

fn undeclared(name: &str) -> ! {
    panic!("the pass reads option '{name}', which it does not declare")
}

/// Emits an error diagnostic at `location` (shown by tt-opt with the source
/// line, and matched by `expected-error` in --verify-diagnostics tests).
pub fn emit_error(location: Location, message: &str) {
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: the location is live; the message is a valid C string.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) };
}

/// Registers `definition` under its flag. Call once per pass per process.
pub fn register(definition: &'static PassDefinition) {
    let leak = |s: &str| CString::new(s).expect("pass strings have no NUL").into_raw() as *const c_char;
    let options: Vec<ffi::TritiumPassOption> = definition
        .options
        .iter()
        .map(|o| ffi::TritiumPassOption {
            name: leak(o.name),
            description: leak(o.description),
            kind: match o.kind {
                OptionKind::String => ffi::OPTION_STRING,
                OptionKind::Int => ffi::OPTION_INT,
                OptionKind::Bool => ffi::OPTION_BOOL,
            },
            default_value: leak(o.default),
        })
        .collect();
    let options = Box::leak(options.into_boxed_slice());
    let spec = Box::leak(Box::new(ffi::TritiumPassSpec {
        argument: leak(definition.argument),
        description: leak(definition.description),
        anchor: leak(definition.anchor),
        options: options.as_ptr(),
        num_options: options.len(),
        run: run_trampoline,
        user_data: definition as *const PassDefinition as *mut c_void,
    }));
    // SAFETY: the spec and its strings are leaked, so they outlive the registry.
    unsafe { ffi::tritiumRegisterPass(spec) };
}

unsafe extern "C" fn run_trampoline(
    user_data: *mut c_void,
    op: mlir_sys::MlirOperation,
    values: *const *const c_char,
    num_values: usize,
) -> bool {
    // SAFETY: user_data is the &'static PassDefinition given to `register`;
    // `values` holds `num_values` C strings, one per option in order.
    let definition = unsafe { &*(user_data as *const PassDefinition) };
    let mut options = PassOptions::default();
    for (i, option) in definition.options.iter().enumerate().take(num_values) {
        let value = unsafe { CStr::from_ptr(*values.add(i)) };
        options.values.insert(option.name, value.to_string_lossy().into_owned());
    }
    let operation = unsafe { OperationRef::from_raw(op) };
    // A bug in a pass must not take the process down: report it on the op,
    // and fail the pass (its IR may be half rewritten).
    let internal_errors = crate::internal_error::count();
    match catch_unwind(AssertUnwindSafe(|| (definition.run)(operation, &options))) {
        Ok(_) if crate::internal_error::count() != internal_errors => {
            // A rewrite pattern of this pass panicked (and said where).
            emit_error(
                operation.location(),
                &format!("internal error in pass '{}': a rewrite pattern panicked", definition.argument),
            );
            false
        }
        Ok(result) => result.is_ok(),
        Err(panic) => {
            crate::internal_error::record();
            let detail = crate::internal_error::describe(panic.as_ref());
            emit_error(operation.location(), &format!("internal error in pass '{}': {detail}", definition.argument));
            false
        }
    }
}

/// Emits a remark at `location` (matched by `expected-remark`).
pub fn emit_remark(location: Location, message: &str) {
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: as for emit_error.
    unsafe { crate::ffi::tritiumEmitRemark(location.to_raw(), message.as_ptr()) };
}

/// Emits a warning at `location` (matched by `expected-warning`): the
/// compile goes on, and `tritium compile` and the Python plug-in show it.
pub fn emit_warning(location: Location, message: &str) {
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: as for emit_error.
    unsafe { crate::ffi::tritiumEmitWarning(location.to_raw(), message.as_ptr()) };
}
