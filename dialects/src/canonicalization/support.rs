//! What the canonicalization patterns share: reading ops and constants, and
//! building replacements the way upstream's builders and folders do.
use crate::access::{dense_elements, OpAccess};
use crate::rewrite::Rewriter;
use melior::ir::{
    attribute::{Attribute, DenseElementsAttribute},
    operation::OperationLike,
    AttributeLike, OperationRef, Type, TypeLike, Value, ValueLike,
};

/// The name of an op (e.g. `"tt.splat"`), the op defining a value (`None`
/// for a block argument), the element of a splat dense elements attribute, a
/// `DenseI32ArrayAttr` as numbers (`order` of trans ops), whether a type is a
/// float (for folders that build float constants), and setting an operand
/// or attribute (inside `Rewriter::modify_in_place`).
pub(super) use crate::ir::{
    defining_op as producer, dense_i32s as i32_array, is_float, name_of as name, set_attribute, set_operand,
    splat_value as splat_element,
};

/// The op named `kind` defining `value`, if that is what defines it.
pub(super) fn produced_by<'c, 'a>(value: Value<'c, 'a>, kind: &str) -> Option<OperationRef<'c, 'a>> {
    producer(value).filter(|op| name(op) == kind)
}

/// The value of a constant operand (`m_Constant`).
pub(super) use crate::ir::constant_attribute as constant_of;

/// An integer attribute's value, sign-extended.
pub(super) fn integer_value(attribute: Attribute) -> Option<i64> {
    // SAFETY: checked to be an integer attribute first.
    unsafe {
        mlir_sys::mlirAttributeIsAInteger(attribute.to_raw())
            .then(|| mlir_sys::mlirIntegerAttrGetValueInt(attribute.to_raw()))
    }
}

/// MLIR's `m_Zero`: an integer zero, scalar or splat.
pub(super) fn is_integer_zero(attribute: Attribute) -> bool {
    let element = splat_element(attribute).unwrap_or(attribute);
    integer_value(element) == Some(0)
}

/// `Some(negative)` when `attribute` is a float zero, scalar or splat
/// (MLIR's `m_PosZeroFloat` / `m_NegZeroFloat`).
pub(super) fn float_zero_sign(attribute: Attribute) -> Option<bool> {
    let element = splat_element(attribute).unwrap_or(attribute);
    // SAFETY: checked to be a float attribute first.
    let value = unsafe {
        mlir_sys::mlirAttributeIsAFloat(element.to_raw())
            .then(|| mlir_sys::mlirFloatAttrGetValueDouble(element.to_raw()))
    }?;
    (value == 0.0).then(|| value.is_sign_negative())
}

/// A splat of `element` with type `ty` (a shaped type).
pub(super) fn splat_of<'c>(ty: Type<'c>, element: Attribute<'c>) -> Attribute<'c> {
    DenseElementsAttribute::splat(ty, element).into()
}

/// The dense elements `attribute` with its data unchanged and type `ty`
/// (`DenseElementsAttr::reshape`, and `resizeSplat` for splats, which may also
/// change the number of elements).
pub(super) fn retyped_elements<'c>(attribute: Attribute<'c>, ty: Type<'c>) -> Option<Attribute<'c>> {
    if let Some(element) = splat_element(attribute) {
        return Some(splat_of(ty, element));
    }
    let dense = dense_elements(attribute).ok()?;
    let same_count = crate::types::static_shape(ty).map(|s| s.iter().product::<i64>()) == Some(dense.len() as i64);
    same_count.then(|| dense.reshape(ty).into())
}

/// Builds an op by name with operands, result types and attributes (the
/// IR-access layer's [`crate::ir::create`]).
pub(super) use crate::ir::create as build;

/// The attributes `keys` of `op` that are set, to copy onto a replacement.
pub(super) fn kept<'c>(op: &OperationRef<'c, '_>, keys: &[&'static str]) -> Vec<(&'static str, Attribute<'c>)> {
    keys.iter().filter_map(|key| op.attribute(key).ok().map(|a| (*key, a))).collect()
}

/// What the Triton dialect's constant materializer does with a folded
/// attribute: an `arith.constant` in place of `op`, which it replaces.
pub(super) fn replace_with_constant(rewriter: &Rewriter, op: &OperationRef, value: Attribute) {
    let ty = op.result_at(0).expect("a folded op has a result").r#type();
    rewriter.replace_op_with_new(op, build("arith.constant", op.location(), &[], &[ty], &[("value", value)]));
}

/// `op`'s single result type.
pub(super) fn result_type<'c>(op: &OperationRef<'c, '_>) -> Option<Type<'c>> {
    op.result_at(0).ok().map(|r| r.r#type())
}

/// Whether two types are the same (types are uniqued).
pub(super) fn same_type(a: Type, b: Type) -> bool {
    a == b
}

/// A `DenseI32ArrayAttr` of `values`.
pub(super) fn i32_array_attribute<'c>(op: &OperationRef<'c, '_>, values: &[i32]) -> Attribute<'c> {
    crate::ir::dense_i32_array(op.location(), values)
}

/// The unit attribute (value of flags such as `allow_reorder`).
pub(super) fn unit_attribute<'c>(op: &OperationRef<'c, '_>) -> Attribute<'c> {
    crate::ir::unit_attribute(op.location())
}

/// `0, 1, ..., n-1`: a permutation that changes nothing.
pub(super) fn is_identity(order: &[i32]) -> bool {
    order.iter().enumerate().all(|(i, &d)| d as usize == i)
}

/// A float attribute of `ty` with `value`.
pub(super) fn float_attribute<'c>(ty: Type<'c>, value: f64) -> Attribute<'c> {
    // SAFETY: `ty` is a float type of a live context.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirFloatAttrDoubleGet(
            mlir_sys::mlirTypeGetContext(ty.to_raw()),
            ty.to_raw(),
            value,
        ))
    }
}

/// The element type of a shaped type, or the type itself.
pub(super) use crate::ir::shaped_element_or_self as element_type;

/// Whether `ty` is a ranked tensor (folders that return shaped constants).
pub(super) fn is_tensor(ty: Type) -> bool {
    ty.is_ranked_tensor()
}
