//! Attributes: reading the builtin kinds melior has no accessors for
//! (dense arrays, splats, arrays, symbol references, integer types' signs),
//! and making the ones that need a context.
use crate::access::{dense_elements, string_ref_text};
use melior::ir::{operation::OperationLike, Attribute, AttributeLike, Location, OperationRef, Type, TypeLike};

fn raw_context(location: Location) -> mlir_sys::MlirContext {
    // SAFETY: a live location has a live context.
    unsafe { mlir_sys::mlirLocationGetContext(location.to_raw()) }
}

/// The elements of a dense i32 array attribute (`array<i32: ...>`), `None`
/// for any other attribute.
pub fn dense_i32s(attribute: Attribute) -> Option<Vec<i32>> {
    let raw = attribute.to_raw();
    // SAFETY: read as a dense i32 array only when it is one.
    unsafe {
        mlir_sys::mlirAttributeIsADenseI32Array(raw).then(|| {
            (0..mlir_sys::mlirDenseArrayGetNumElements(raw))
                .map(|i| mlir_sys::mlirDenseI32ArrayGetElement(raw, i))
                .collect()
        })
    }
}

/// Element `index` of a dense i32 array attribute, `None` when the attribute
/// is not one or is shorter.
pub fn dense_i32_at(attribute: Attribute, index: usize) -> Option<i32> {
    let raw = attribute.to_raw();
    // SAFETY: indexed as a dense i32 array only when it is one and in bounds.
    unsafe {
        (mlir_sys::mlirAttributeIsADenseI32Array(raw) && (index as isize) < mlir_sys::mlirDenseArrayGetNumElements(raw))
            .then(|| mlir_sys::mlirDenseI32ArrayGetElement(raw, index as isize))
    }
}

/// A `array<i32: ...>` attribute of `op`.
pub fn dense_i32_attribute(op: &OperationRef, name: &str) -> Option<Vec<i32>> {
    dense_i32s(op.attribute(name).ok()?)
}

/// `array<i32: values>`.
pub fn dense_i32_array<'c>(location: Location<'c>, values: &[i32]) -> Attribute<'c> {
    // SAFETY: the context is live; MLIR copies the values.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDenseI32ArrayGet(
            raw_context(location),
            values.len() as isize,
            values.as_ptr(),
        ))
    }
}

/// The unit attribute (the value of flags such as `allow_reorder`).
pub fn unit_attribute(location: Location) -> Attribute {
    // SAFETY: the context is live.
    unsafe { Attribute::from_raw(mlir_sys::mlirUnitAttrGet(raw_context(location))) }
}

/// A float attribute of float type `ty`.
pub fn float_attribute<'c>(location: Location<'c>, ty: Type<'c>, value: f64) -> Attribute<'c> {
    // SAFETY: `ty` is a float type of the live context.
    unsafe { Attribute::from_raw(mlir_sys::mlirFloatAttrDoubleGet(raw_context(location), ty.to_raw(), value)) }
}

/// The element of a splat dense-elements attribute; `None` for anything
/// else (non-splat dense elements included).
pub fn splat_value(attribute: Attribute) -> Option<Attribute> {
    let raw = attribute.to_raw();
    // SAFETY: a live attribute; the splat value is read only from a splat.
    unsafe {
        (mlir_sys::mlirAttributeIsADenseElements(raw) && mlir_sys::mlirDenseElementsAttrIsSplat(raw))
            .then(|| Attribute::from_raw(mlir_sys::mlirDenseElementsAttrGetSplatValue(raw)))
    }
}

/// A splat dense-elements attribute of shaped type `ty` whose every
/// element is `element` (of `ty`'s element type).
pub fn splat_attribute<'c>(ty: Type<'c>, element: Attribute<'c>) -> Attribute<'c> {
    // SAFETY: a live shaped type and element attribute of its context.
    unsafe { Attribute::from_raw(mlir_sys::mlirDenseElementsAttrSplatGet(ty.to_raw(), element.to_raw())) }
}

/// The element of an elements attribute (dense, splat or sparse) at the
/// multi-dimensional `index`; `None` for another attribute or an index
/// outside its shape.
pub fn element_at<'c>(attribute: Attribute<'c>, index: &[u64]) -> Option<Attribute<'c>> {
    let raw = attribute.to_raw();
    let mut index = index.to_vec();
    let rank = index.len() as isize;
    // SAFETY: a live attribute; the index is checked before it is read.
    unsafe {
        (mlir_sys::mlirAttributeIsAElements(raw)
            && mlir_sys::mlirElementsAttrIsValidIndex(raw, rank, index.as_mut_ptr()))
        .then(|| Attribute::from_raw(mlir_sys::mlirElementsAttrGetValue(raw, rank, index.as_mut_ptr())))
    }
}

/// The element of a splat, or the attribute itself.
pub fn scalar_of(attribute: Attribute) -> Attribute {
    splat_value(attribute).unwrap_or(attribute)
}

/// The elements of a dense integer elements attribute of i32 or i64
/// elements, as i64; `None` for other attributes or widths.
pub fn dense_int_values(attribute: Attribute) -> Option<Vec<i64>> {
    let raw = attribute.to_raw();
    // SAFETY: a live attribute; elements are read by the accessor of their width.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseIntElements(raw) {
            return None;
        }
        let element = mlir_sys::mlirShapedTypeGetElementType(mlir_sys::mlirAttributeGetType(raw));
        let width = mlir_sys::mlirIntegerTypeGetWidth(element);
        let count = mlir_sys::mlirElementsAttrGetNumElements(raw);
        (0..count)
            .map(|i| match width {
                32 => Some(i64::from(mlir_sys::mlirDenseElementsAttrGetInt32Value(raw, i as isize))),
                64 => Some(mlir_sys::mlirDenseElementsAttrGetInt64Value(raw, i as isize)),
                _ => None,
            })
            .collect()
    }
}

/// A dense elements attribute with the same elements and type `ty` (of the
/// same number of elements); `None` when `attribute` is not dense elements.
pub fn reshape_dense<'c>(attribute: Attribute<'c>, ty: Type<'c>) -> Option<Attribute<'c>> {
    dense_elements(attribute).ok()?;
    // SAFETY: a live dense elements attribute and a live shaped type.
    Some(unsafe { Attribute::from_raw(mlir_sys::mlirDenseElementsAttrReshapeGet(attribute.to_raw(), ty.to_raw())) })
}

/// The elements of an array attribute, `None` for any other attribute.
pub fn array_elements(attribute: Attribute<'_>) -> Option<Vec<Attribute<'_>>> {
    let raw = attribute.to_raw();
    // SAFETY: `raw` is live; elements are read only when it is an array.
    unsafe {
        mlir_sys::mlirAttributeIsAArray(raw).then(|| {
            (0..mlir_sys::mlirArrayAttrGetNumElements(raw))
                .map(|i| Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(raw, i)))
                .collect()
        })
    }
}

/// The symbol of a flat symbol reference (`@name` -> `name`), `None` for any
/// other attribute.
pub fn flat_symbol(attribute: Attribute) -> Option<String> {
    let raw = attribute.to_raw();
    // SAFETY: a live attribute, read as a flat symbol reference only when it is one.
    unsafe {
        mlir_sys::mlirAttributeIsAFlatSymbolRef(raw)
            .then(|| string_ref_text(mlir_sys::mlirFlatSymbolRefAttrGetValue(raw)))
    }
}
