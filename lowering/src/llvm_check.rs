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
use melior::ir::{operation::OperationRef, Module};
use mlir_sys::{
    mlirAttributeIsAType, mlirBlockGetArgument, mlirBlockGetFirstOperation, mlirBlockGetNextInRegion,
    mlirBlockGetNumArguments, mlirDialectGetNamespace, mlirFloatTypeGetWidth, mlirIntegerTypeIsSignless,
    mlirLLVMFunctionTypeGetInput, mlirLLVMFunctionTypeGetNumInputs, mlirLLVMFunctionTypeGetReturnType,
    mlirLLVMStructTypeGetElementType, mlirLLVMStructTypeGetNumElementTypes, mlirOperationGetAttribute,
    mlirOperationGetFirstRegion, mlirOperationGetNextInBlock, mlirOperationGetNumAttributes,
    mlirOperationGetNumOperands, mlirOperationGetNumResults, mlirOperationGetOperand, mlirOperationGetResult,
    mlirRegionGetFirstBlock, mlirRegionGetNextInOperation, mlirShapedTypeGetElementType, mlirTypeAttrGetValue,
    mlirTypeGetDialect, mlirTypeIsABF16, mlirTypeIsAF16, mlirTypeIsAF32, mlirTypeIsAF64, mlirTypeIsAFloat,
    mlirTypeIsAInteger, mlirTypeIsALLVMPointerType, mlirTypeIsALLVMStructType, mlirTypeIsAVector, mlirValueGetType,
    MlirOperation, MlirType,
};

/// Whether LLVM has a type for `ty` (MLIR's `LLVM::isCompatibleType`, for
/// the types the lowering makes).
fn translatable(ty: MlirType) -> bool {
    unsafe {
        if mlirTypeIsAInteger(ty) {
            return mlirIntegerTypeIsSignless(ty);
        }
        if mlirTypeIsAFloat(ty) {
            // bf16/f16/f32/f64, and x86_fp80/fp128; no fp8, fp6, fp4 or tf32.
            return mlirTypeIsABF16(ty)
                || mlirTypeIsAF16(ty)
                || mlirTypeIsAF32(ty)
                || mlirTypeIsAF64(ty)
                || matches!(mlirFloatTypeGetWidth(ty), 80 | 128);
        }
        if mlirTypeIsAVector(ty) {
            return translatable(mlirShapedTypeGetElementType(ty));
        }
        let dialect = tritium_dialects::access::string_ref_text(mlirDialectGetNamespace(mlirTypeGetDialect(ty)));
        if dialect != "llvm" {
            return false;
        }
        if mlirTypeIsALLVMStructType(ty) {
            let count = mlirLLVMStructTypeGetNumElementTypes(ty);
            return (0..count).all(|i| translatable(mlirLLVMStructTypeGetElementType(ty, i)));
        }
        if mlirTypeIsALLVMPointerType(ty) {
            return true;
        }
        // No C API tells a function type apart; the few non-pointer LLVM
        // types of a kernel (its function type, void) are cheap to print.
        if type_text(ty).starts_with("!llvm.func") {
            let inputs = mlirLLVMFunctionTypeGetNumInputs(ty);
            return translatable(mlirLLVMFunctionTypeGetReturnType(ty))
                && (0..inputs).all(|i| translatable(mlirLLVMFunctionTypeGetInput(ty, i)));
        }
        true
    }
}

fn type_text(ty: MlirType) -> String {
    unsafe { melior::ir::Type::from_raw(ty) }.to_string()
}

/// The first untranslatable type of `op` itself (not of nested ops).
fn bad_type_of(op: MlirOperation) -> Option<String> {
    unsafe {
        for i in 0..mlirOperationGetNumResults(op) {
            let ty = mlirValueGetType(mlirOperationGetResult(op, i));
            if !translatable(ty) {
                return Some(format!("result #{i} has type {} that LLVM has no type for", type_text(ty)));
            }
        }
        for i in 0..mlirOperationGetNumOperands(op) {
            let ty = mlirValueGetType(mlirOperationGetOperand(op, i));
            if !translatable(ty) {
                return Some(format!("operand #{i} has type {} that LLVM has no type for", type_text(ty)));
            }
        }
        for i in 0..mlirOperationGetNumAttributes(op) {
            let named = mlirOperationGetAttribute(op, i);
            if mlirAttributeIsAType(named.attribute) {
                let ty = mlirTypeAttrGetValue(named.attribute);
                if !translatable(ty) {
                    let name = tritium_dialects::access::identifier_text(melior::ir::Identifier::from_raw(named.name));
                    return Some(format!("attribute '{name}' names type {} that LLVM has no type for", type_text(ty)));
                }
            }
        }
        let mut region = mlirOperationGetFirstRegion(op);
        while !region.ptr.is_null() {
            let mut block = mlirRegionGetFirstBlock(region);
            while !block.ptr.is_null() {
                for i in 0..mlirBlockGetNumArguments(block) {
                    let ty = mlirValueGetType(mlirBlockGetArgument(block, i));
                    if !translatable(ty) {
                        return Some(format!(
                            "block argument #{i} has type {} that LLVM has no type for",
                            type_text(ty)
                        ));
                    }
                }
                block = mlirBlockGetNextInRegion(block);
            }
            region = mlirRegionGetNextInOperation(region);
        }
    }
    None
}

/// Walks `op` and the ops nested in it, depth first, in order.
fn first_bad_op(op: MlirOperation) -> Option<(MlirOperation, String)> {
    if let Some(problem) = bad_type_of(op) {
        return Some((op, problem));
    }
    unsafe {
        let mut region = mlirOperationGetFirstRegion(op);
        while !region.ptr.is_null() {
            let mut block = mlirRegionGetFirstBlock(region);
            while !block.ptr.is_null() {
                let mut nested = mlirBlockGetFirstOperation(block);
                while !nested.ptr.is_null() {
                    if let Some(found) = first_bad_op(nested) {
                        return Some(found);
                    }
                    nested = mlirOperationGetNextInBlock(nested);
                }
                block = mlirBlockGetNextInRegion(block);
            }
            region = mlirRegionGetNextInOperation(region);
        }
    }
    None
}

/// An error at the first op of `module` that LLVM translation cannot handle.
pub fn check_translatable(module: &Module) -> Result<(), LowerError> {
    match first_bad_op(module.as_operation().to_raw()) {
        None => Ok(()),
        Some((op, problem)) => {
            let op = unsafe { OperationRef::from_raw(op) };
            Err(LowerError::at(&op, format!("cannot be translated to LLVM IR: {problem} (a bug in the lowering)")))
        }
    }
}
