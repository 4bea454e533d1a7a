//! The attributes the analysis reads and writes: integer constants, the
//! `tt.contiguity` / `tt.divisibility` / `tt.constancy` hints (on ops and on
//! function arguments), and function argument attributes.
use melior::ir::{
    attribute::{DictionaryAttribute, IntegerAttribute, TypeAttribute},
    operation::OperationLike,
    r#type::{FunctionType, IntegerType},
    Attribute, AttributeLike, Identifier, OperationRef, TypeLike,
};
use tritium_dialects::access::integer_attribute;

/// The three hints, as attribute name and which lattice vector they set.
pub(super) const HINTS: [(&str, HintKind); 3] = [
    ("tt.contiguity", HintKind::Contiguity),
    ("tt.divisibility", HintKind::Divisibility),
    ("tt.constancy", HintKind::Constancy),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HintKind {
    Contiguity,
    Divisibility,
    Constancy,
}

/// The value of an integer (or bool) attribute, zero extended from its bit
/// width to 64 bits, as upstream reads constants (`getZExtValue`).
pub(super) fn zero_extended(attribute: Attribute) -> Option<i64> {
    let integer = integer_attribute(attribute).ok()?;
    let ty = integer.r#type();
    let raw_type = ty.to_raw();
    // SAFETY: `raw_type` is a live type, queried as an integer type only when it is one.
    let (width, signed, unsigned) = unsafe {
        if mlir_sys::mlirTypeIsAInteger(raw_type) {
            (
                mlir_sys::mlirIntegerTypeGetWidth(raw_type),
                mlir_sys::mlirIntegerTypeIsSigned(raw_type),
                mlir_sys::mlirIntegerTypeIsUnsigned(raw_type),
            )
        } else {
            (64, false, false) // index
        }
    };
    let bits = if unsigned {
        integer.unsigned_value() as i64
    } else if signed {
        integer.signed_value()
    } else {
        integer.value()
    };
    Some(if width >= 64 { bits } else { bits & ((1i64 << width) - 1) })
}

/// The value of an `arith.constant`'s attribute when it is one integer: a
/// scalar, or a splat of an integer or index tensor.
pub(super) fn integer_constant(attribute: Attribute) -> Option<i64> {
    if let Some(value) = zero_extended(attribute) {
        return Some(value);
    }
    let raw = attribute.to_raw();
    // SAFETY: a live attribute; the splat value is read only from a splat.
    let splat = unsafe {
        (mlir_sys::mlirAttributeIsADenseElements(raw) && mlir_sys::mlirDenseElementsAttrIsSplat(raw))
            .then(|| Attribute::from_raw(mlir_sys::mlirDenseElementsAttrGetSplatValue(raw)))
    }?;
    zero_extended(splat)
}

/// The values of a hint: one for an integer attribute, one per element for
/// dense i32/i64 elements. `None` if the attribute is neither.
pub(super) fn hint_values(attribute: Attribute) -> Option<Vec<i64>> {
    if let Some(value) = zero_extended(attribute) {
        return Some(vec![value]);
    }
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

/// The elements of an array attribute. (melior's `ArrayAttribute::try_from`
/// tests for a dense array instead.)
fn array_elements(attribute: Attribute<'_>) -> Option<Vec<Attribute<'_>>> {
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

/// Attribute `name` of argument `index` of a function (`arg_attrs`).
pub(super) fn argument_attribute<'c>(
    function: &OperationRef<'c, '_>,
    index: usize,
    name: &str,
) -> Option<Attribute<'c>> {
    let all = array_elements(function.attribute("arg_attrs").ok()?)?;
    DictionaryAttribute::try_from(*all.get(index)?).ok()?.element_by_name(name)
}

/// Sets attribute `name` of argument `index` of a function to `value`,
/// keeping the other argument attributes.
pub(super) fn set_argument_attribute(function: &OperationRef, index: usize, name: &str, value: Attribute) {
    let context = function.context();
    // SAFETY: the context outlives this call, which builds attributes in it.
    let context = unsafe { context.to_ref() };
    let argument_count = function
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|t| FunctionType::try_from(t.value()).ok())
        .map_or(0, |f| f.input_count());
    if index >= argument_count {
        return;
    }
    let existing = function.attribute("arg_attrs").ok().and_then(array_elements).unwrap_or_default();
    let dictionaries: Vec<Attribute> = (0..argument_count)
        .map(|i| {
            let old = existing.get(i).and_then(|a| DictionaryAttribute::try_from(*a).ok());
            let mut entries: Vec<(Identifier, Attribute)> =
                old.map(|d| (0..d.len()).filter_map(|j| d.element(j).ok()).collect()).unwrap_or_default();
            if i == index {
                entries.retain(|(key, _)| tritium_dialects::access::identifier_text(*key) != name);
                entries.push((Identifier::new(context, name), value));
            }
            DictionaryAttribute::new(context, &entries).into()
        })
        .collect();
    let array = melior::ir::attribute::ArrayAttribute::new(context, &dictionaries);
    let key = melior::StringRef::new("arg_attrs");
    // SAFETY: live op and attribute; `arg_attrs` is the function's argument attribute list.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(function.to_raw(), key.to_raw(), array.to_raw()) };
}

/// A 64-bit integer attribute, as upstream writes propagated hints.
pub(super) fn i64_attribute<'c>(function: &OperationRef<'c, '_>, value: i64) -> Attribute<'c> {
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = function.context();
    let context = unsafe { context_ref.to_ref() };
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value).into()
}
