//! `extract-variable-info` (upstream's flag, its `LLVMDILocalVariable` pass):
//! source variables for debuggers. Triton's frontend names the location of
//! each op that defines a Python variable (`loc("offsets"(...))`); after this
//! pass each such LLVM op is followed by `llvm.intr.dbg.value` of its first
//! result as a `#llvm.di_local_variable` of that name in the function's
//! subprogram, so that the PTX's DWARF (with full debug information, see
//! `enable-line-info`'s `variables`) lets cuda-gdb print the variable.
//! Upstream's compiler runs it when `LLVM_EXTRACT_DI_LOCAL_VARIABLES` is set;
//! Tritium's bundle when `CodegenOptions::debug_variables` is.
//!
//! As upstream: the variable's file is `<unknown>` and its line 0 (the
//! intrinsic's location carries the source position), its type a DWARF base
//! type named after the first result's type (`bool`, `int`, `half`, `float`,
//! `double`, `vector`; `unknown_type` otherwise), and a function whose
//! location has no subprogram yet gets one in a compile unit of full debug
//! information.
use crate::enable_line_info::{file_attribute, ops_in_function_scopes};
use melior::ir::{block::BlockLike, operation::OperationLike, Attribute, OperationRef, Type, ValueLike};
use tritium_dialects::ir::{
    context_of, create, di_basic_type, di_empty_expression, di_local_variable, int_or_float_width, name_location_parts,
    scalar_kind, vector_elements, DebugEmission, ScalarKind,
};
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "extract-variable-info",
    description: "Describe the values of named locations as source variables (llvm.intr.dbg.value)",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let context = context_of(module.location());
    let (unknown_file, expression) = (file_attribute(context, "<unknown>"), di_empty_expression(context));
    let named_value = |op: &OperationRef| name_location_parts(op.location()).is_some() && op.result(0).is_ok();
    for (op, scope) in ops_in_function_scopes(module, DebugEmission::Full, named_value) {
        let (Some((name, child)), Ok(result)) = (name_location_parts(op.location()), op.result(0)) else { continue };
        let variable = di_local_variable(context, scope, &name, unknown_file, debug_type(context, result.r#type()));
        let value = create(
            "llvm.intr.dbg.value",
            child,
            &[result.into()],
            &[],
            &[("varInfo", variable), ("locationExpr", expression)],
        );
        let block = op.block().expect("an op in a block");
        block.insert_operation_after(op, value);
    }
    Ok(())
}

/// The DWARF base type of a value of type `ty`, as upstream names them:
/// integers, f16/f32/f64 and vectors of integers or floats (a vector's type is
/// "vector", its bits all of its elements'); other types (bf16, pointers,
/// structs) `unknown_type`.
fn debug_type<'c>(context: &'c melior::Context, ty: Type<'c>) -> Attribute<'c> {
    const DW_ATE_BOOLEAN: u32 = 0x02;
    const DW_ATE_FLOAT: u32 = 0x04;
    const DW_ATE_SIGNED: u32 = 0x05;
    let (name, bits, encoding) = match scalar_kind(ty) {
        ScalarKind::Int(1) => ("bool", 1, DW_ATE_BOOLEAN),
        ScalarKind::Int(width) => ("int", width as u64, DW_ATE_SIGNED),
        ScalarKind::F16 => ("half", 16, DW_ATE_FLOAT),
        ScalarKind::F32 => ("float", 32, DW_ATE_FLOAT),
        ScalarKind::F64 => ("double", 64, DW_ATE_FLOAT),
        _ => match vector_elements(ty).and_then(|(element, count)| Some(int_or_float_width(element)? as u64 * count)) {
            Some(bits) => ("vector", bits, DW_ATE_FLOAT),
            None => ("unknown_type", 0, DW_ATE_SIGNED),
        },
    };
    di_basic_type(context, name, bits, encoding)
}
