//! Folds of Triton's element-wise ops (upstream's `fold` methods of addptr,
//! advance and fp_to_fp): offsets of zero, and casts of a constant zero or to
//! the same type.
use super::{
    support::{
        constant_of, element_type, float_attribute, float_zero_sign, integer_value, is_float, is_integer_zero,
        is_tensor, replace_with_constant, result_type, same_type, splat_of,
    },
    FOLD_BENEFIT,
};
use crate::access::OpAccess;
use crate::rewrite::{Pattern, Rewriter};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

pub static ADDPTR_FOLDS: &[Pattern] = &[Pattern { root: "tt.addptr", benefit: FOLD_BENEFIT, rewrite: fold_addptr }];

pub static ADVANCE_FOLDS: &[Pattern] = &[Pattern { root: "tt.advance", benefit: FOLD_BENEFIT, rewrite: fold_advance }];

pub static FP_TO_FP_FOLDS: &[Pattern] =
    &[Pattern { root: "tt.fp_to_fp", benefit: FOLD_BENEFIT, rewrite: fold_fp_to_fp }];

/// addptr(p, 0) -> p.
fn fold_addptr(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(pointer), Ok(offset)) = (op.operand_at(0), op.operand_at(1)) else { return false };
    if !constant_of(offset).is_some_and(is_integer_zero) {
        return false;
    }
    rewriter.replace_op_with_values(&op, &[pointer]);
    true
}

/// advance(p, [0, 0, ...]) -> p.
fn fold_advance(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Ok(pointer) = op.operand_at(0) else { return false };
    let all_zero = op.operands().skip(1).all(|offset| constant_of(offset).and_then(integer_value) == Some(0));
    if !all_zero {
        return false;
    }
    rewriter.replace_op_with_values(&op, &[pointer]);
    true
}

/// fp_to_fp to the same type is a no-op; of a constant +0.0 or -0.0 it is
/// that zero in the result type.
fn fold_fp_to_fp(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(source), Some(ty)) = (op.operand_at(0), result_type(&op)) else { return false };
    if same_type(source.r#type(), ty) {
        rewriter.replace_op_with_values(&op, &[source]);
        return true;
    }
    let Some(negative) = constant_of(source).and_then(float_zero_sign) else { return false };
    let element = element_type(ty);
    if !is_float(element) {
        return false;
    }
    let zero = float_attribute(element, if negative { -0.0 } else { 0.0 });
    let folded = if is_tensor(ty) { splat_of(ty, zero) } else { zero };
    replace_with_constant(rewriter, &op, folded);
    true
}
