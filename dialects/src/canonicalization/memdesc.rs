//! Folds of TritonGPU's shared-memory ops (upstream's `fold` methods of
//! local_alloc, memdesc_trans and memdesc_reinterpret): views that change
//! nothing, and an immutable copy of a buffer just read back.
use super::{
    shape_ops::compose_transposes,
    support::{i32_array, is_identity, produced_by, result_type, same_type},
    FOLD_BENEFIT,
};
use crate::access::OpAccess;
use crate::{
    rewrite::{Pattern, Rewriter},
    types::MemDesc,
};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

pub static LOCAL_ALLOC_FOLDS: &[Pattern] =
    &[Pattern { root: "ttg.local_alloc", benefit: FOLD_BENEFIT, rewrite: fold_local_alloc }];

pub static MEMDESC_TRANS_FOLDS: &[Pattern] =
    &[Pattern { root: "ttg.memdesc_trans", benefit: FOLD_BENEFIT, rewrite: fold_memdesc_trans }];

pub static MEMDESC_REINTERPRET_FOLDS: &[Pattern] =
    &[Pattern { root: "ttg.memdesc_reinterpret", benefit: FOLD_BENEFIT, rewrite: fold_memdesc_reinterpret }];

/// local_alloc(local_load(buffer)) -> buffer, when the allocation is
/// immutable and of the buffer's very type.
fn fold_local_alloc(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(ty) = result_type(&op) else { return false };
    if MemDesc::of(ty).is_none_or(|m| m.mutable) {
        return false;
    }
    let Some(load) = op.operand_at(0).ok().and_then(|s| produced_by(s, "ttg.local_load")) else { return false };
    let Ok(buffer) = load.operand_at(0) else { return false };
    if !same_type(buffer.r#type(), ty) {
        return false;
    }
    rewriter.replace_op_with_values(&op, &[buffer]);
    true
}

/// memdesc_trans by the identity order is its source; memdesc_trans of
/// memdesc_trans is one transpose by the composed order (changed in place).
fn fold_memdesc_trans(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(source), Some(ty)) = (op.operand_at(0), result_type(&op)) else { return false };
    let Some(order) = op.attribute("order").ok().and_then(i32_array) else { return false };
    // Upstream returns the source whatever the types; the identity order
    // infers the source's type, so only a hand-written result type differs,
    // and replacing a value by one of another type would be invalid IR.
    if is_identity(&order) {
        if !same_type(source.r#type(), ty) {
            return false;
        }
        rewriter.replace_op_with_values(&op, &[source]);
        return true;
    }
    match produced_by(source, "ttg.memdesc_trans") {
        Some(inner) => compose_transposes(&op, &inner, &order, rewriter),
        None => false,
    }
}

/// memdesc_reinterpret to the source's own type is a no-op.
fn fold_memdesc_reinterpret(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(source), Some(ty)) = (op.operand_at(0), result_type(&op)) else { return false };
    if !same_type(source.r#type(), ty) {
        return false;
    }
    rewriter.replace_op_with_values(&op, &[source]);
    true
}
