//! The attributes the analysis reads and writes: integer constants, the
//! `tt.contiguity` / `tt.divisibility` / `tt.constancy` hints (on ops and on
//! function arguments), and function argument attributes.
use melior::ir::{
    attribute::{DictionaryAttribute, IntegerAttribute, TypeAttribute},
    operation::OperationLike,
    r#type::{FunctionType, IntegerType},
    Attribute, AttributeLike, Identifier, OperationRef,
};
use tritium_dialects::access::integer_attribute;
use tritium_dialects::ir::{array_elements, dense_int_values, integer_signedness, set_attribute, splat_value};

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
    // Not an integer type: index.
    let (width, signed, unsigned) = integer_signedness(integer.r#type()).unwrap_or((64, false, false));
    let bits = if unsigned {
        integer.unsigned_value() as i64
    } else if signed {
        integer.signed_value()
    } else {
        integer.value()
    };
    // The mask in u64: `1i64 << 63` is i64::MIN, and one less overflows.
    Some(if width >= 64 { bits } else { bits & ((1u64 << width) - 1) as i64 })
}

/// The value of an `arith.constant`'s attribute when it is one integer: a
/// scalar, or a splat of an integer or index tensor.
pub(super) fn integer_constant(attribute: Attribute) -> Option<i64> {
    if let Some(value) = zero_extended(attribute) {
        return Some(value);
    }
    zero_extended(splat_value(attribute)?)
}

/// The values of a hint: one for an integer attribute, one per element for
/// dense i32/i64 elements. `None` if the attribute is neither.
pub(super) fn hint_values(attribute: Attribute) -> Option<Vec<i64>> {
    if let Some(value) = zero_extended(attribute) {
        return Some(vec![value]);
    }
    dense_int_values(attribute)
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
    set_attribute(function, "arg_attrs", array.into());
}

/// A 64-bit integer attribute, as upstream writes propagated hints.
pub(super) fn i64_attribute<'c>(function: &OperationRef<'c, '_>, value: i64) -> Attribute<'c> {
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = function.context();
    let context = unsafe { context_ref.to_ref() };
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value).into()
}
