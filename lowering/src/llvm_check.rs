//! A check of the LLVM-dialect module before MLIR translates it to LLVM IR.
//!
//! MLIR's verifier accepts LLVM-dialect ops whose types LLVM cannot represent
//! (an `llvm.getelementptr` over `f8E4M3FN` elements verifies), and the
//! translation then dereferences the null LLVM type it got for them: a
//! segfault inside `IRBuilder::CreateGEP` instead of an error. So every type
//! an op produces, takes, or names in an attribute (`elem_type`,
//! `function_type`, `global_type`...) must be one LLVM has, and the first one
//! that is not is reported at its op.
use crate::emit::LowerError;
use melior::ir::{
    attribute::TypeAttribute, operation::OperationLike, AttributeLike, Module, OperationRef, Type, TypeLike, ValueLike,
};
use tritium_dialects::access::identifier_text;
use tritium_dialects::ir::{
    block_arguments, block_ops, float_width, integer_signedness, is_float, is_llvm_pointer, llvm_function_signature,
    llvm_struct_fields, region_blocks, scalar_kind, shaped_element_or_self, type_dialect, ScalarKind,
};

/// [`translatable`] once per type: MLIR types are uniqued, so a type's
/// storage pointer names it. Without it, every `extractvalue` of a wgmma's
/// 128-float accumulator re-checked the struct's 128 fields (28 ms of
/// batched_desc_matmul's 100 ms compile).
#[derive(Default)]
struct Checked {
    known: std::collections::HashMap<usize, bool>,
}

impl Checked {
    fn translatable(&mut self, ty: Type) -> bool {
        *self.known.entry(ty.to_raw().ptr as usize).or_insert_with(|| translatable(ty))
    }
}

/// Whether LLVM has a type for `ty` (MLIR's `LLVM::isCompatibleType`, for
/// the types the lowering makes).
fn translatable(ty: Type) -> bool {
    if let Some((_, signed, unsigned)) = integer_signedness(ty) {
        return !signed && !unsigned;
    }
    if is_float(ty) {
        // bf16/f16/f32/f64, and x86_fp80/fp128; no fp8, fp6, fp4 or tf32.
        return matches!(scalar_kind(ty), ScalarKind::BF16 | ScalarKind::F16 | ScalarKind::F32 | ScalarKind::F64)
            || matches!(float_width(ty), Some(80 | 128));
    }
    if ty.is_vector() {
        return translatable(shaped_element_or_self(ty));
    }
    if type_dialect(ty) != "llvm" {
        return false;
    }
    if let Some(fields) = llvm_struct_fields(ty) {
        return fields.into_iter().all(translatable);
    }
    if is_llvm_pointer(ty) {
        return true;
    }
    // No C API tells a function type apart; the few non-pointer LLVM
    // types of a kernel (its function type, void) are cheap to print.
    if ty.to_string().starts_with("!llvm.func") {
        let (result, inputs) = llvm_function_signature(ty);
        return translatable(result) && inputs.into_iter().all(translatable);
    }
    true
}

/// The first untranslatable type of `op` itself (not of nested ops).
fn bad_type_of(op: &OperationRef, checked: &mut Checked) -> Option<String> {
    for (i, result) in op.results().enumerate() {
        if !checked.translatable(result.r#type()) {
            return Some(format!("result #{i} has type {} that LLVM has no type for", result.r#type()));
        }
    }
    for (i, operand) in op.operands().enumerate() {
        if !checked.translatable(operand.r#type()) {
            return Some(format!("operand #{i} has type {} that LLVM has no type for", operand.r#type()));
        }
    }
    for (name, attribute) in op.attributes() {
        if let Some(ty) = attribute.is_type().then(|| TypeAttribute::try_from(attribute).ok()).flatten() {
            if !checked.translatable(ty.value()) {
                let name = identifier_text(name);
                return Some(format!("attribute '{name}' names type {} that LLVM has no type for", ty.value()));
            }
        }
    }
    for region in op.regions() {
        for block in region_blocks(&region) {
            for (i, argument) in block_arguments(&block).into_iter().enumerate() {
                if !checked.translatable(argument.r#type()) {
                    return Some(format!(
                        "block argument #{i} has type {} that LLVM has no type for",
                        argument.r#type()
                    ));
                }
            }
        }
    }
    None
}

/// Walks `op` and the ops nested in it, depth first, in order.
fn first_bad_op<'c, 'a>(op: OperationRef<'c, 'a>, checked: &mut Checked) -> Option<(OperationRef<'c, 'a>, String)> {
    if let Some(problem) = bad_type_of(&op, checked) {
        return Some((op, problem));
    }
    for region in op.regions() {
        for block in region_blocks(&region) {
            for nested in block_ops(&block) {
                if let Some(found) = first_bad_op(nested, checked) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// An error at the first op of `module` that LLVM translation cannot handle.
pub fn check_translatable(module: &Module) -> Result<(), LowerError> {
    match first_bad_op(module.as_operation(), &mut Checked::default()) {
        None => Ok(()),
        Some((op, problem)) => {
            Err(LowerError::at(&op, format!("cannot be translated to LLVM IR: {problem} (a bug in the lowering)")))
        }
    }
}
