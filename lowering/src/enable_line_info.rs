//! `enable-line-info` (upstream's flag, its `LLVMDIScope` pass): gives each
//! LLVM function a debug-info scope, so that the translation to LLVM IR keeps
//! the source locations as `!dbg` line tables and NVPTX writes `.file` and
//! `.loc` directives; with ptxas `-lineinfo` (Triton's cubin stage) the cubin
//! then maps SASS back to the Python source, as profilers and
//! compute-sanitizer show it.
//!
//! - A defined `llvm.func` whose location carries no scope yet gets a
//!   subprogram (named after the function, at the line its location names)
//!   in a compile unit of its own, line tables only, "triton" the producer,
//!   fused into its location.
//! - An op whose location is a call site (code of a `@triton.jit` function
//!   inlined into the kernel) gets, at each level of the call chain, a
//!   lexical block of the function's subprogram in the file that level's
//!   location names, so that inlined code is attributed to its own file.
//!
//! Declarations (libdevice's, for instance) get none: they have no code here.
//!
//! With `variables=true` (upstream reads its `LLVM_EXTRACT_DI_LOCAL_VARIABLES`
//! instead) the compile unit holds full debug information, so that the source
//! variables `extract-variable-info` describes reach the PTX's DWARF.
use melior::ir::{operation::OperationLike, Attribute, Location, OperationRef, RegionLike};
use std::collections::HashMap;
use std::path::Path;
use tritium_dialects::ir::{
    call_site, call_site_parts, collect_ops, context_of, di_compile_unit, di_file, di_lexical_block_file,
    di_subprogram, enclosing_named, fused_metadata, fused_with, name_of, set_location, source_position, DebugEmission,
    Order,
};
use tritium_dialects::pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "enable-line-info",
    description: "Give LLVM functions and inlined code debug-info scopes, so that line tables reach the PTX",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "variables",
        description: "Full debug information (source variables too), not line tables only",
        kind: OptionKind::Bool,
        default: "false",
    }],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let context = context_of(module.location());
    let emission = if options.bool("variables") { DebugEmission::Full } else { DebugEmission::LineTablesOnly };
    let inlined = |op: &OperationRef| call_site_parts(op.location()).is_some();
    for (op, scope) in ops_in_function_scopes(module, emission, inlined) {
        set_location(&op, scoped(context, scope, op.location()));
    }
    Ok(())
}

/// The ops of `module` that `wanted` picks and that a defined function
/// holds, each with its function's subprogram ([`function_scope`], made with
/// `emission` where the function has none yet), in pre-order: what the
/// debug-information passes (this one, `extract-variable-info`) attach to.
pub(crate) fn ops_in_function_scopes<'c, 'a>(
    module: OperationRef<'c, 'a>,
    emission: DebugEmission,
    wanted: impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Vec<(OperationRef<'c, 'a>, Attribute<'c>)> {
    let context = context_of(module.location());
    // Function (by its op's address) -> its subprogram; pre-order visits a
    // function before the ops in it.
    let mut scopes: HashMap<usize, Attribute> = HashMap::new();
    let mut picked = Vec::new();
    for op in collect_ops(module, Order::Pre) {
        if name_of(&op) == "llvm.func" {
            if let Some(scope) = function_scope(context, &op, emission) {
                scopes.insert(op.to_raw().ptr as usize, scope);
            }
            continue;
        }
        if !wanted(&op) {
            continue;
        }
        if let Some(scope) = enclosing_named(op, "llvm.func").and_then(|f| scopes.get(&(f.to_raw().ptr as usize))) {
            picked.push((op, *scope));
        }
    }
    picked
}

/// The subprogram of a defined function: the one its location already
/// carries, or a new one, which its location then carries.
fn function_scope<'c>(
    context: &'c melior::Context,
    function: &OperationRef<'c, '_>,
    emission: DebugEmission,
) -> Option<Attribute<'c>> {
    let defined = function.regions().next().is_some_and(|body| body.first_block().is_some());
    if !defined {
        return None;
    }
    let location = function.location();
    if let Some(scope) = fused_metadata(location) {
        return Some(scope);
    }
    let position = source_position(location);
    let file = file_attribute(context, position.as_ref().map_or("<unknown>", |p| p.file.as_str()));
    let line = position.map_or(1, |p| p.line);
    let unit = di_compile_unit(context, file, "triton", emission);
    let name = function
        .attribute("sym_name")
        .ok()
        .and_then(tritium_dialects::access::string_attribute_value)
        .unwrap_or_default();
    let scope = di_subprogram(context, Some(unit), file, &name, line);
    set_location(function, fused_with(location, scope));
    Some(scope)
}

/// `#llvm.di_file` of a path: its file name in its directory.
pub(crate) fn file_attribute<'c>(context: &'c melior::Context, path: &str) -> Attribute<'c> {
    let path = Path::new(path);
    let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let directory = path.parent().map_or(String::new(), |d| d.to_string_lossy().into_owned());
    di_file(context, &name, &directory)
}

/// `location` with every leaf of its call chain in a lexical block of
/// `scope` for the file the leaf names.
fn scoped<'c>(context: &'c melior::Context, scope: Attribute<'c>, location: Location<'c>) -> Location<'c> {
    if let Some((callee, caller)) = call_site_parts(location) {
        return call_site(scoped(context, scope, callee), scoped(context, scope, caller));
    }
    let file = source_position(location).map_or("<unknown>".to_string(), |p| p.file);
    fused_with(location, di_lexical_block_file(context, scope, file_attribute(context, &file)))
}
