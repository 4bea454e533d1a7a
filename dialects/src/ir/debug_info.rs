//! Debug-information attributes of the LLVM dialect (`#llvm.di_*`), which
//! the translation to LLVM IR turns into DWARF metadata, and NVPTX into
//! `.file`/`.loc` line tables.
use melior::ir::{attribute::AttributeLike, Attribute};
use melior::Context;

fn string_attribute<'c>(context: &'c Context, text: &str) -> Attribute<'c> {
    melior::ir::attribute::StringAttribute::new(context, text).into()
}

/// `#llvm.di_file<"name" in "directory">`.
pub fn di_file<'c>(context: &'c Context, name: &str, directory: &str) -> Attribute<'c> {
    let (name, directory) = (string_attribute(context, name), string_attribute(context, directory));
    // SAFETY: two string attributes of `context`.
    unsafe { Attribute::from_raw(mlir_sys::mlirLLVMDIFileAttrGet(context.to_raw(), name.to_raw(), directory.to_raw())) }
}

/// A fresh `distinct[N]<unit>` id (compile units and subprogram definitions
/// need one of their own).
pub fn distinct_id(context: &Context) -> Attribute<'_> {
    let unit: Attribute = melior::ir::attribute::Attribute::unit(context);
    // SAFETY: a unit attribute of `context`.
    unsafe { Attribute::from_raw(mlir_sys::mlirDisctinctAttrCreate(unit.to_raw())) }
}

/// What a compile unit's debug information holds: line tables only (what
/// `-lineinfo` needs: `.loc` directives), or everything, source variables
/// included (what cuda-gdb shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugEmission {
    LineTablesOnly,
    Full,
}

/// An optimised compile unit of C-like source, `producer` named.
pub fn di_compile_unit<'c>(
    context: &'c Context,
    file: Attribute<'c>,
    producer: &str,
    emission: DebugEmission,
) -> Attribute<'c> {
    const DW_LANG_C: u32 = 0x2;
    let producer = string_attribute(context, producer);
    let emission = match emission {
        DebugEmission::LineTablesOnly => mlir_sys::MlirLLVMDIEmissionKind_MlirLLVMDIEmissionKindLineTablesOnly,
        DebugEmission::Full => mlir_sys::MlirLLVMDIEmissionKind_MlirLLVMDIEmissionKindFull,
    };
    // SAFETY: attributes of `context`; a null split-debug file name means none.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirLLVMDICompileUnitAttrGet(
            context.to_raw(),
            distinct_id(context).to_raw(),
            DW_LANG_C,
            file.to_raw(),
            producer.to_raw(),
            true,
            emission,
            mlir_sys::MlirLLVMDINameTableKind_MlirLLVMDINameTableKindDefault,
            mlir_sys::MlirAttribute { ptr: std::ptr::null() },
        ))
    }
}

/// The subprogram of a function named `name` that starts at `line` of
/// `file`: a definition in `compile_unit`, or, without one, a declaration.
pub fn di_subprogram<'c>(
    context: &'c Context,
    compile_unit: Option<Attribute<'c>>,
    file: Attribute<'c>,
    name: &str,
    line: u32,
) -> Attribute<'c> {
    // DISubprogramFlags: Definition = 8, Optimized = 16; DW_CC_normal = 1.
    const DEFINITION: u64 = 8;
    const OPTIMIZED: u64 = 16;
    const DW_CC_NORMAL: u32 = 1;
    let null = mlir_sys::MlirAttribute { ptr: std::ptr::null() };
    let name = string_attribute(context, name);
    // SAFETY: attributes of `context`; null ids and compile unit mean none.
    unsafe {
        let subroutine = mlir_sys::mlirLLVMDISubroutineTypeAttrGet(context.to_raw(), DW_CC_NORMAL, 0, std::ptr::null());
        let (id, unit, flags) = match compile_unit {
            Some(unit) => (distinct_id(context).to_raw(), unit.to_raw(), DEFINITION | OPTIMIZED),
            None => (null, null, OPTIMIZED),
        };
        Attribute::from_raw(mlir_sys::mlirLLVMDISubprogramAttrGet(
            context.to_raw(),
            null,
            false,
            id,
            unit,
            file.to_raw(),
            name.to_raw(),
            name.to_raw(),
            file.to_raw(),
            line,
            line,
            flags,
            subroutine,
            0,
            std::ptr::null(),
            0,
            std::ptr::null(),
        ))
    }
}

/// A lexical block of `scope` (a subprogram) in `file`: the scope of code
/// inlined from another file or function.
pub fn di_lexical_block_file<'c>(context: &'c Context, scope: Attribute<'c>, file: Attribute<'c>) -> Attribute<'c> {
    // SAFETY: attributes of `context`.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirLLVMDILexicalBlockFileAttrGet(
            context.to_raw(),
            scope.to_raw(),
            file.to_raw(),
            0,
        ))
    }
}

/// A basic type (`DW_TAG_base_type`) named `name`, `bits` wide, of DWARF
/// encoding `encoding` (`DW_ATE_*`).
pub fn di_basic_type<'c>(context: &'c Context, name: &str, bits: u64, encoding: u32) -> Attribute<'c> {
    const DW_TAG_BASE_TYPE: u32 = 0x24;
    let name = string_attribute(context, name);
    // SAFETY: a string attribute of `context`.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirLLVMDIBasicTypeAttrGet(
            context.to_raw(),
            DW_TAG_BASE_TYPE,
            name.to_raw(),
            bits,
            encoding as mlir_sys::MlirLLVMTypeEncoding,
        ))
    }
}

/// A source variable `name` of type `ty` in `scope` (a subprogram), declared
/// at no particular line of `file`.
pub fn di_local_variable<'c>(
    context: &'c Context,
    scope: Attribute<'c>,
    name: &str,
    file: Attribute<'c>,
    ty: Attribute<'c>,
) -> Attribute<'c> {
    let name = string_attribute(context, name);
    // SAFETY: attributes of `context`; line, argument number, alignment and
    // flags 0 mean unknown, not an argument, natural, none.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirLLVMDILocalVariableAttrGet(
            context.to_raw(),
            scope.to_raw(),
            name.to_raw(),
            file.to_raw(),
            0,
            0,
            0,
            ty.to_raw(),
            0,
        ))
    }
}

/// The empty `#llvm.di_expression<>` (the variable is the value itself).
pub fn di_empty_expression(context: &Context) -> Attribute<'_> {
    // SAFETY: no operations.
    unsafe { Attribute::from_raw(mlir_sys::mlirLLVMDIExpressionAttrGet(context.to_raw(), 0, std::ptr::null())) }
}
