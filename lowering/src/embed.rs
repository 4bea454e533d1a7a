//! Compiling Triton IR *text* in a long-lived process (the Python package,
//! the C API, a Rust program embedding Tritium): one MLIR context per thread,
//! created on first use and reused by every later compile on that thread (an
//! autotuner compiles many kernels in one process), diagnostics captured as
//! text instead of printed, and no panic escaping to the caller.
use crate::{compile, Bundle, CompileOptions};
use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    Context,
};
use std::cell::RefCell;

/// Tritium's version: the Triton plug-in marks its kernels with it and keys
/// Triton's cache on it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub struct Compiled {
    pub bundle: Bundle,
    /// The TTGIR Tritium's pipeline produced (when asked, and the input was TTIR).
    pub ttgir: Option<String>,
    /// Warnings and remarks that did not stop the compile, located.
    pub warnings: Vec<String>,
}

thread_local! {
    static CONTEXT: Context = {
        crate::register_all_passes();
        tritium_dialects::create_context()
    };
}

/// `file:line:col: severity: message`, as compilers print diagnostics.
fn format_diagnostic(diagnostic: &Diagnostic) -> String {
    let severity = tritium_dialects::io::severity_name(diagnostic.severity());
    let location = diagnostic.location().to_string();
    let position = file_position(&location).unwrap_or(location);
    format!("{position}: {severity}: {diagnostic}")
}

/// The first `"file":line:col` of a printed location: a file location as it
/// is, or the one inside a name (`loc("x"("k.py":3:9))`, Triton names values
/// so) or a call site (`loc(callsite("callee.py":1:2 at ...))`, the callee
/// first, as MLIR prints them).
pub fn file_position(location: &str) -> Option<String> {
    let mut rest = location;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let end = after.find('"')?;
        let (file, tail) = (&after[..end], &after[end + 1..]);
        if let Some(numbers) = tail.strip_prefix(':') {
            let digits: String = numbers.chars().take_while(|c| c.is_ascii_digit() || *c == ':').collect();
            let digits = digits.trim_end_matches(':');
            if digits.split(':').count() == 2 && !digits.split(':').any(str::is_empty) {
                return Some(format!("{file}:{digits}"));
            }
        }
        rest = tail;
    }
    None
}

/// Compiles TTIR or TTGIR text (`source_name` names it in diagnostics).
/// The error is the located diagnostics, one per line, or, when none was
/// emitted, the name of the step that failed.
pub fn compile_source(
    source: &str,
    source_name: &str,
    options: &CompileOptions,
    keep_ttgir: bool,
) -> Result<Compiled, String> {
    CONTEXT.with(|context| {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            compile_in(context, source, source_name, options, keep_ttgir)
        }));
        result.unwrap_or_else(|panic| {
            let detail = tritium_dialects::internal_error::describe(panic.as_ref());
            Err(format!("{source_name}: error: internal compiler error: {detail}"))
        })
    })
}

fn compile_in(
    context: &Context,
    source: &str,
    source_name: &str,
    options: &CompileOptions,
    keep_ttgir: bool,
) -> Result<Compiled, String> {
    let mut module =
        tritium_dialects::io::parse_module(context, source, source_name).map_err(|errors| errors.join("\n"))?;
    let errors = RefCell::new(Vec::new());
    let warnings = RefCell::new(Vec::new());
    let handler = context.attach_diagnostic_handler(|d| {
        let text = format_diagnostic(&d);
        match d.severity() {
            DiagnosticSeverity::Error => errors.borrow_mut().push(text),
            _ => warnings.borrow_mut().push(text),
        }
        true
    });
    let options = CompileOptions { keep_ttgir, ..options.clone() };
    let result = compile(context, &mut module, &options);
    context.detach_diagnostic_handler(handler);
    let errors = errors.into_inner();
    match result {
        Ok(mut bundle) => Ok(Compiled { ttgir: bundle.ttgir.take(), bundle, warnings: warnings.into_inner() }),
        Err(message) if errors.is_empty() => Err(format!("{source_name}: error: {message}")),
        Err(_) => Err(errors.join("\n")),
    }
}

#[cfg(test)]
mod tests {
    use super::file_position;

    #[test]
    fn positions_of_printed_locations() {
        assert_eq!(file_position(r#"loc("k.py":3:9)"#).as_deref(), Some("k.py:3:9"));
        assert_eq!(file_position(r#"loc("x"("k.py":43:23))"#).as_deref(), Some("k.py:43:23"));
        assert_eq!(file_position(r#"loc(callsite("std.py":10:4 at "z"("k.py":7:2)))"#).as_deref(), Some("std.py:10:4"));
        assert_eq!(file_position("loc(unknown)"), None);
        assert_eq!(file_position(r#"loc("name")"#), None);
    }
}
