//! Parsing and printing modules, with diagnostics returned as text rather
//! than printed, for library users and tests.
use melior::{
    diagnostic::DiagnosticSeverity,
    ir::{operation::OperationLike, Module, Operation},
    Context,
};
use mlir_sys::{
    mlirOpPrintingFlagsCreate, mlirOpPrintingFlagsDestroy, mlirOpPrintingFlagsEnableDebugInfo,
    mlirOpPrintingFlagsPrintGenericOpForm, mlirOpPrintingFlagsPrintNameLocAsPrefix, mlirOperationPrintWithFlags,
    mlirOperationVerify, MlirStringRef,
};
use std::{cell::RefCell, ffi::c_void};

/// How to print IR. The default is MLIR's: custom syntax, no locations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print locations (`loc(...)`), like `--mlir-print-debuginfo`.
    pub debug_info: bool,
    /// Print every op in the generic form, like `--mlir-print-op-generic`.
    pub generic: bool,
    /// Name SSA values after their name locations (`%x_4`), like
    /// `--mlir-use-nameloc-as-prefix`; what Triton's dumps use.
    pub name_loc_as_prefix: bool,
}

impl PrintOptions {
    /// The way upstream Triton prints IR in its dumps and `asm` fields.
    pub const TRITON: PrintOptions = PrintOptions { debug_info: true, generic: false, name_loc_as_prefix: true };
}

/// Prints an operation (usually a module) to a string.
pub fn print<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, options: PrintOptions) -> String {
    unsafe extern "C" fn append(text: MlirStringRef, data: *mut c_void) {
        // SAFETY: `data` is the Vec below; MLIR passes valid byte ranges.
        let out = unsafe { &mut *(data as *mut Vec<u8>) };
        out.extend_from_slice(unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) });
    }
    let mut out = Vec::<u8>::new();
    unsafe {
        let flags = mlirOpPrintingFlagsCreate();
        if options.debug_info {
            mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
        }
        if options.generic {
            mlirOpPrintingFlagsPrintGenericOpForm(flags);
        }
        if options.name_loc_as_prefix {
            mlirOpPrintingFlagsPrintNameLocAsPrefix(flags);
        }
        mlirOperationPrintWithFlags(op.to_raw(), flags, Some(append), &mut out as *mut _ as *mut c_void);
        mlirOpPrintingFlagsDestroy(flags);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How compilers name a diagnostic's severity (`error`, `warning`, ...).
pub fn severity_name(severity: DiagnosticSeverity) -> &'static str {
    match severity {
        DiagnosticSeverity::Error => "error",
        DiagnosticSeverity::Warning => "warning",
        DiagnosticSeverity::Note => "note",
        DiagnosticSeverity::Remark => "remark",
    }
}

/// The deepest bracket nesting (`<`, `(`, `[`, `{`) parse_module accepts.
/// MLIR's parser recurses once per level and overflowed an 8 MiB stack
/// between 4,000 and 8,000 levels of nested arrays (fewer on the 2 MiB
/// stacks of spawned threads, which compile too); real kernels nest a few
/// dozen levels at most.
pub const MAX_NESTING: usize = 256;

/// An error at the first bracket that opens level MAX_NESTING + 1, outside
/// string literals and comments (`->` is an arrow, not a closing bracket).
fn check_nesting(source: &str, source_name: &str) -> Result<(), String> {
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let mut chars = source.chars().peekable();
    let (mut in_string, mut previous) = (false, '\0');
    while let Some(c) = chars.next() {
        column += 1;
        if c == '\n' {
            line += 1;
            column = 0;
        } else if in_string {
            if c == '\\' {
                chars.next();
                column += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        } else if c == '/' && chars.peek() == Some(&'/') {
            while chars.peek().is_some_and(|&next| next != '\n') {
                chars.next();
            }
        } else if matches!(c, '<' | '(' | '[' | '{') {
            depth += 1;
            if depth > MAX_NESTING {
                return Err(format!(
                    "{source_name}:{line}:{column}: error: brackets nested more than {MAX_NESTING} deep; Tritium refuses such IR (MLIR's parser would overflow its stack)"
                ));
            }
        } else if matches!(c, ')' | ']' | '}') || (c == '>' && previous != '-') {
            depth = depth.saturating_sub(1);
        }
        previous = c;
    }
    Ok(())
}

/// Text followed by a NUL byte, for MLIR's parser.
///
/// MLIR's lexer reads the byte after the last one it is given: it expects
/// the NUL terminator `llvm::MemoryBuffer` puts after a file's contents, but
/// `parseSourceString` (and `mlirModuleCreateParse`, melior's `Module::parse`)
/// wrap the caller's bytes without copying them. A Rust `&str` has no such
/// byte, so the lexer read past the end of the input's allocation (valgrind:
/// "Invalid read of size 1" in `Lexer::lexNumber`, `lexString`,
/// `lexPrefixedIdentifier`), and went on reading as long as what followed
/// looked like the token's continuation.
pub struct NulTerminated(String);

impl NulTerminated {
    pub fn new(text: &str) -> Self {
        let mut copy = String::with_capacity(text.len() + 1);
        copy.push_str(text);
        copy.push('\0');
        NulTerminated(copy)
    }

    /// The text without its terminator; the NUL is the byte after it.
    pub fn text(&self) -> &str {
        &self.0[..self.0.len() - 1]
    }
}

/// melior's `Module::parse` on a NUL-terminated copy of `text` (see
/// [`NulTerminated`]): for modules the compiler writes itself, whose
/// diagnostics are not the user's.
pub fn parse_text<'c>(context: &'c Context, text: &str) -> Option<Module<'c>> {
    Module::parse(context, NulTerminated::new(text).text())
}

/// Parses `source` (named `source_name` in diagnostics) into a module and
/// verifies it. On failure returns the diagnostics, one
/// `name:line:col: error: message` string each.
pub fn parse_module<'c>(context: &'c Context, source: &str, source_name: &str) -> Result<Module<'c>, Vec<String>> {
    check_nesting(source, source_name).map_err(|error| vec![error])?;
    let diagnostics = RefCell::new(Vec::new());
    let handler = context.attach_diagnostic_handler(|diagnostic| {
        let severity = severity_name(diagnostic.severity());
        let location = diagnostic.location().to_string();
        let location = location.trim_start_matches("loc(").trim_end_matches(')').replace('"', "");
        diagnostics.borrow_mut().push(format!("{location}: {severity}: {diagnostic}"));
        true
    });
    let terminated = NulTerminated::new(source);
    let parsed = unsafe {
        let raw = crate::ffi::tritiumParseSourceString(
            context.to_raw(),
            MlirStringRef { data: terminated.text().as_ptr() as *const _, length: source.len() },
            MlirStringRef { data: source_name.as_ptr() as *const _, length: source_name.len() },
        );
        (!raw.ptr.is_null()).then(|| Operation::from_raw(raw))
    };
    let result = match parsed {
        Some(operation) if unsafe { mlirOperationVerify(operation.to_raw()) } => {
            match Module::from_operation(operation) {
                Some(module) => Ok(module),
                None => Err(vec![format!("{source_name}: error: the top-level operation is not a builtin.module")]),
            }
        }
        _ => Err(std::mem::take(&mut *diagnostics.borrow_mut())),
    };
    context.detach_diagnostic_handler(handler);
    match result {
        Err(mut errors) if errors.is_empty() => {
            errors.push(format!("{source_name}: error: invalid IR"));
            Err(errors)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parser must stop at the end of the text it is given, whatever
    /// byte follows it in memory: here the text is a prefix of a longer
    /// string and ends in the widest integer type MLIR allows; the byte
    /// after it is a digit, and `i167772159` is too wide. Before the
    /// NUL-terminated copy, the lexer read that digit as part of the type's
    /// name and refused the text.
    #[test]
    fn parsing_stops_at_the_end_of_the_text() {
        let context = crate::create_context();
        let longer = "module {}\n!widest = i167772159";
        let text = &longer[..longer.len() - 1];
        assert!(parse_module(&context, text, "prefix.mlir").is_ok());
        assert!(parse_module(&context, longer, "longer.mlir").is_err());
        assert!(parse_text(&context, text).is_some());
    }
}
