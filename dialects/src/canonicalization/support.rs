//! What the canonicalization patterns share: reading ops and constants, and
//! building replacements the way upstream's builders and folders do.
use crate::access::{dense_elements, OpAccess};
use crate::rewrite::Rewriter;
use melior::ir::{
    attribute::{Attribute, DenseElementsAttribute},
    operation::{OperationBuilder, OperationLike},
    AttributeLike, Identifier, Location, Operation, OperationRef, Type, TypeLike, Value, ValueLike,
};

/// The name of an op, e.g. `"tt.splat"`.
pub(super) fn name(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

/// The op defining `value`; `None` for a block argument.
pub(super) fn producer<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    // SAFETY: `value` is live; the owner of an op result is its op.
    unsafe {
        mlir_sys::mlirValueIsAOpResult(value.to_raw())
            .then(|| OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw())))
    }
}

/// The op named `kind` defining `value`, if that is what defines it.
pub(super) fn produced_by<'c, 'a>(value: Value<'c, 'a>, kind: &str) -> Option<OperationRef<'c, 'a>> {
    producer(value).filter(|op| name(op) == kind)
}

/// The value of a constant operand: what MLIR's folders receive as the
/// operand's attribute (`m_Constant`). Tritium's IR has one constant-like op.
pub(super) fn constant_of<'c>(value: Value<'c, '_>) -> Option<Attribute<'c>> {
    produced_by(value, "arith.constant")?.attribute("value").ok()
}

/// The element of a splat dense elements attribute.
pub(super) fn splat_element(attribute: Attribute) -> Option<Attribute> {
    let dense = dense_elements(attribute).ok()?;
    // SAFETY: a dense elements attribute that is a splat has a splat value.
    dense
        .is_splat()
        .then(|| unsafe { Attribute::from_raw(mlir_sys::mlirDenseElementsAttrGetSplatValue(attribute.to_raw())) })
}

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

/// Builds an op by name with operands, result types and attributes.
pub(super) fn build<'c>(
    kind: &str,
    location: Location<'c>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(&str, Attribute<'c>)],
) -> Operation<'c> {
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = location.context();
    let context = unsafe { context_ref.to_ref() };
    let attributes: Vec<(Identifier, Attribute)> =
        attributes.iter().map(|(k, v)| (Identifier::new(context, k), *v)).collect();
    OperationBuilder::new(kind, location)
        .add_operands(operands)
        .add_results(results)
        .add_attributes(&attributes)
        .build()
        .expect("a registered op with valid parts")
}

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

/// A `DenseI32ArrayAttr` as numbers (`order` of trans ops).
pub(super) fn i32_array(attribute: Attribute) -> Option<Vec<i32>> {
    // SAFETY: checked to be a dense i32 array first.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI32Array(attribute.to_raw()) {
            return None;
        }
        let n = mlir_sys::mlirDenseArrayGetNumElements(attribute.to_raw());
        Some((0..n).map(|i| mlir_sys::mlirDenseI32ArrayGetElement(attribute.to_raw(), i)).collect())
    }
}

/// A `DenseI32ArrayAttr` of `values`.
pub(super) fn i32_array_attribute<'c>(op: &OperationRef<'c, '_>, values: &[i32]) -> Attribute<'c> {
    // SAFETY: the context is live; MLIR copies the values.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDenseI32ArrayGet(
            mlir_sys::mlirOperationGetContext(op.to_raw()),
            values.len() as isize,
            values.as_ptr(),
        ))
    }
}

/// The unit attribute (value of flags such as `allow_reorder`).
pub(super) fn unit_attribute<'c>(op: &OperationRef<'c, '_>) -> Attribute<'c> {
    // SAFETY: the op's context is live.
    unsafe { Attribute::from_raw(mlir_sys::mlirUnitAttrGet(mlir_sys::mlirOperationGetContext(op.to_raw()))) }
}

/// `0, 1, ..., n-1`: a permutation that changes nothing.
pub(super) fn is_identity(order: &[i32]) -> bool {
    order.iter().enumerate().all(|(i, &d)| d as usize == i)
}

/// Sets operand `index` of `op` (inside `Rewriter::modify_in_place`).
pub(super) fn set_operand(op: &OperationRef, index: usize, value: Value) {
    // SAFETY: both are live and the index is in range for the callers.
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) }
}

/// Sets attribute `key` of `op` (inside `Rewriter::modify_in_place`).
pub(super) fn set_attribute(op: &OperationRef, key: &str, value: Attribute) {
    let key = mlir_sys::MlirStringRef { data: key.as_ptr().cast(), length: key.len() };
    // SAFETY: both are live; MLIR copies the name.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), key, value.to_raw()) }
}

/// Whether `ty` is a float type (for folders that build float constants).
pub(super) fn is_float(ty: Type) -> bool {
    // SAFETY: a live type.
    unsafe { mlir_sys::mlirTypeIsAFloat(ty.to_raw()) }
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
pub(super) fn element_type(ty: Type) -> Type {
    // SAFETY: live types; only shaped types are asked for their element.
    unsafe {
        if mlir_sys::mlirTypeIsAShaped(ty.to_raw()) {
            Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(ty.to_raw()))
        } else {
            ty
        }
    }
}

/// Whether `ty` is a ranked tensor (folders that return shaped constants).
pub(super) fn is_tensor(ty: Type) -> bool {
    ty.is_ranked_tensor()
}
