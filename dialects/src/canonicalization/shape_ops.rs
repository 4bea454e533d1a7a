//! Folds and canonicalizations of Triton's shape ops (upstream's `fold`
//! methods, `canonicalize` methods and Canonicalize.td patterns of splat,
//! broadcast, expand_dims, reshape, trans and make_range): views of splats
//! and constants become splats and constants, chains of views collapse.
use super::{
    support::{
        build, constant_of, i32_array, i32_array_attribute, integer_value, is_identity, kept, name, produced_by,
        producer, replace_with_constant, result_type, retyped_elements, same_type, set_attribute, set_operand,
        splat_of, unit_attribute,
    },
    FOLD_BENEFIT,
};
use crate::access::{integer_attribute, ranked_tensor, OpAccess};
use crate::{
    rewrite::{Pattern, Rewriter},
    types::static_shape,
};
use melior::ir::{
    operation::OperationLike,
    r#type::{RankedTensorType, ShapedTypeLike},
    AttributeLike, OperationRef, Type, ValueLike,
};

pub static SPLAT_FOLDS: &[Pattern] = &[Pattern { root: "tt.splat", benefit: FOLD_BENEFIT, rewrite: fold_splat }];

pub static BROADCAST_FOLDS: &[Pattern] =
    &[Pattern { root: "tt.broadcast", benefit: FOLD_BENEFIT, rewrite: fold_broadcast }];

/// Upstream's two Canonicalize.td patterns (benefit 2: two ops matched).
pub static BROADCAST_PATTERNS: &[Pattern] = &[
    Pattern { root: "tt.broadcast", benefit: 2, rewrite: broadcast_of_splat },
    Pattern { root: "tt.broadcast", benefit: 2, rewrite: broadcast_of_broadcast },
];

pub static EXPAND_DIMS_FOLDS: &[Pattern] =
    &[Pattern { root: "tt.expand_dims", benefit: FOLD_BENEFIT, rewrite: fold_view_of_constant }];

pub static EXPAND_DIMS_PATTERNS: &[Pattern] =
    &[Pattern { root: "tt.expand_dims", benefit: 1, rewrite: canonicalize_expand_dims }];

pub static RESHAPE_FOLDS: &[Pattern] = &[Pattern { root: "tt.reshape", benefit: FOLD_BENEFIT, rewrite: fold_reshape }];

pub static RESHAPE_PATTERNS: &[Pattern] = &[Pattern { root: "tt.reshape", benefit: 1, rewrite: canonicalize_reshape }];

pub static TRANS_FOLDS: &[Pattern] = &[Pattern { root: "tt.trans", benefit: FOLD_BENEFIT, rewrite: fold_trans }];

pub static MAKE_RANGE_FOLDS: &[Pattern] =
    &[Pattern { root: "tt.make_range", benefit: FOLD_BENEFIT, rewrite: fold_make_range }];

/// splat(constant c) -> constant splat(c), for integer and float scalars.
fn fold_splat(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Some(value), Some(ty)) = (op.operand_at(0).ok().and_then(constant_of), result_type(&op)) else { return false };
    let scalar =
        unsafe { mlir_sys::mlirAttributeIsAInteger(value.to_raw()) || mlir_sys::mlirAttributeIsAFloat(value.to_raw()) };
    if !scalar {
        return false;
    }
    replace_with_constant(rewriter, &op, splat_of(ty, value));
    true
}

/// broadcast to its own type is a no-op; broadcast(constant splat) is a
/// constant splat of the broadcast shape.
fn fold_broadcast(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(source), Some(ty)) = (op.operand_at(0), result_type(&op)) else { return false };
    if same_type(source.r#type(), ty) {
        rewriter.replace_op_with_values(&op, &[source]);
        return true;
    }
    let Some(value) = constant_of(source).filter(|v| super::support::splat_element(*v).is_some()) else {
        return false;
    };
    let Some(folded) = retyped_elements(value, ty) else { return false };
    replace_with_constant(rewriter, &op, folded);
    true
}

/// broadcast(splat(x)) -> splat(x) of the broadcast shape.
fn broadcast_of_splat(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(splat) = op.operand_at(0).ok().and_then(|s| produced_by(s, "tt.splat")) else { return false };
    let (Ok(scalar), Some(ty)) = (splat.operand_at(0), result_type(&op)) else { return false };
    rewriter.replace_op_with_new(&op, build("tt.splat", op.location(), &[scalar], &[ty], &[]));
    true
}

/// broadcast(broadcast(x)) -> broadcast(x).
fn broadcast_of_broadcast(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(inner) = op.operand_at(0).ok().and_then(|s| produced_by(s, "tt.broadcast")) else { return false };
    let (Ok(source), Some(ty)) = (inner.operand_at(0), result_type(&op)) else { return false };
    rewriter.replace_op_with_new(&op, build("tt.broadcast", op.location(), &[source], &[ty], &[]));
    true
}

/// expand_dims and reshape of a dense constant: the same data with the new
/// shape (upstream's `foldViewLikeOp`).
fn fold_view_of_constant(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Some(value), Some(ty)) = (op.operand_at(0).ok().and_then(constant_of), result_type(&op)) else { return false };
    let Some(folded) = retyped_elements(value, ty) else { return false };
    replace_with_constant(rewriter, &op, folded);
    true
}

/// expand_dims(splat(x)) -> splat(x); expand_dims(broadcast(x)) ->
/// broadcast(expand_dims(x)), which lets broadcasts around an expand_dims meet
/// and merge.
fn canonicalize_expand_dims(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(source), Some(ty)) = (op.operand_at(0), result_type(&op)) else { return false };
    let Some(arg) = producer(source) else { return false };
    match name(&arg).as_str() {
        "tt.splat" => {
            let scalar = arg.operand_at(0).unwrap();
            rewriter.replace_op_with_new(&op, build("tt.splat", op.location(), &[scalar], &[ty], &[]));
            true
        }
        "tt.broadcast" => {
            let inner = arg.operand_at(0).unwrap();
            let Some(axis) = op.attribute("axis").ok().and_then(integer_value) else { return false };
            let Some(expanded) = expanded_type(inner.r#type(), axis as usize, ty) else { return false };
            rewriter.set_insertion_point_before(&op);
            let attrs = kept(&op, &["axis"]);
            let expand = rewriter.insert(build("tt.expand_dims", op.location(), &[inner], &[expanded], &attrs));
            let result = expand.result_at(0).unwrap().into();
            rewriter.replace_op_with_new(&op, build("tt.broadcast", arg.location(), &[result], &[ty], &[]));
            true
        }
        _ => false,
    }
}

/// The type of expand_dims(`source`, `axis`), whose encoding is that of the
/// expand_dims being rewritten, `like`: the broadcast keeps its operand's
/// encoding, a slice whose parent is the expand_dims result's encoding.
fn expanded_type<'c>(source: Type<'c>, axis: usize, like: Type<'c>) -> Option<Type<'c>> {
    let tensor = ranked_tensor(source).ok()?;
    let mut shape: Vec<u64> = static_shape(source)?.iter().map(|d| *d as u64).collect();
    if axis > shape.len() {
        return None;
    }
    shape.insert(axis, 1);
    let encoding = ranked_tensor(like).ok()?.encoding();
    Some(RankedTensorType::new(&shape, tensor.element(), encoding).into())
}

/// reshape to its own type, when it may not reorder, is a no-op; reshape of
/// a dense constant is a constant.
fn fold_reshape(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(source), Some(ty)) = (op.operand_at(0), result_type(&op)) else { return false };
    if same_type(source.r#type(), ty) && !op.has_attribute("allow_reorder") {
        rewriter.replace_op_with_values(&op, &[source]);
        return true;
    }
    fold_view_of_constant(op, rewriter)
}

/// reshape(reshape(x)) -> reshape(x), reordering if either did;
/// reshape(splat(x)) -> splat(x). A reshape whose layout was chosen on purpose
/// stays.
fn canonicalize_reshape(op: OperationRef, rewriter: &Rewriter) -> bool {
    if op.has_attribute("efficient_layout") {
        return false;
    }
    let (Ok(source), Some(ty)) = (op.operand_at(0), result_type(&op)) else { return false };
    let Some(arg) = producer(source) else { return false };
    match name(&arg).as_str() {
        "tt.reshape" => {
            let inner = arg.operand_at(0).unwrap();
            let reorder = op.has_attribute("allow_reorder") || arg.has_attribute("allow_reorder");
            let attrs: Vec<_> = reorder.then(|| ("allow_reorder", unit_attribute(&op))).into_iter().collect();
            rewriter.replace_op_with_new(&op, build("tt.reshape", op.location(), &[inner], &[ty], &attrs));
            true
        }
        "tt.splat" => {
            let scalar = arg.operand_at(0).unwrap();
            rewriter.replace_op_with_new(&op, build("tt.splat", op.location(), &[scalar], &[ty], &[]));
            true
        }
        _ => false,
    }
}

/// trans with the identity order to its own type is a no-op;
/// trans(trans(x)) is one trans of x by the composed order (changed in place);
/// trans of a constant splat is a constant splat.
fn fold_trans(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(source), Some(ty)) = (op.operand_at(0), result_type(&op)) else { return false };
    let Some(order) = op.attribute("order").ok().and_then(i32_array) else { return false };
    if is_identity(&order) && same_type(source.r#type(), ty) {
        rewriter.replace_op_with_values(&op, &[source]);
        return true;
    }
    if let Some(inner) = produced_by(source, "tt.trans") {
        return compose_transposes(&op, &inner, &order, rewriter);
    }
    let Some(value) = constant_of(source).filter(|v| super::support::splat_element(*v).is_some()) else {
        return false;
    };
    let Some(folded) = retyped_elements(value, ty) else { return false };
    replace_with_constant(rewriter, &op, folded);
    true
}

/// Makes `op` (a trans or memdesc_trans of `inner`, of the same kind) permute
/// `inner`'s source directly: `x` transposed by `inner_order` then by
/// `order` is `x` transposed by `inner_order[order[i]]`.
pub(super) fn compose_transposes(op: &OperationRef, inner: &OperationRef, order: &[i32], rewriter: &Rewriter) -> bool {
    let Some(inner_order) = inner.attribute("order").ok().and_then(i32_array) else { return false };
    let composed: Option<Vec<i32>> = order.iter().map(|&i| inner_order.get(i as usize).copied()).collect();
    let (Some(composed), Ok(source)) = (composed, inner.operand_at(0)) else { return false };
    let attribute = i32_array_attribute(op, &composed);
    rewriter.modify_in_place(op, || {
        set_attribute(op, "order", attribute);
        set_operand(op, 0, source);
    });
    true
}

/// make_range of one element is the constant splat of its start.
fn fold_make_range(op: OperationRef, rewriter: &Rewriter) -> bool {
    let (Ok(start), Ok(end), Some(ty)) = (op.attribute("start"), op.attribute("end"), result_type(&op)) else {
        return false;
    };
    let (Some(first), Some(last)) = (integer_value(start), integer_value(end)) else { return false };
    if first + 1 != last || integer_attribute(start).is_err() {
        return false;
    }
    replace_with_constant(rewriter, &op, splat_of(ty, start));
    true
}
