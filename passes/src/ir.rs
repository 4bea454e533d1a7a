//! IR helpers shared by the passes: the IR-access layer's op-level functions
//! (`tritium_dialects::ir`: op lists, retyping, RAUW, erasing, attributes,
//! building ops by name) re-exported, plus tensor types with layouts,
//! failing with a diagnostic and element widths.
use melior::ir::{
    operation::OperationLike,
    r#type::{RankedTensorType, ShapedTypeLike},
    Attribute, AttributeLike, OperationRef, Type,
};
use tritium_dialects::access::{integer_attribute, ranked_tensor};
use tritium_dialects::pass::{emit_error, PassFailed};

pub use tritium_dialects::ir::{
    collect_ops, create, dense_i32_attribute, enclosing_int_attribute, enclosing_module, erase, int_attribute,
    module_functions, name_of, replace_all_uses, set_type, Order,
};

/// Shape, element type and layout of a ranked tensor type.
pub fn tensor_parts(ty: Type) -> Option<(Vec<i64>, Type, Option<Attribute>)> {
    let tensor = ranked_tensor(ty).ok()?;
    let shape = tritium_dialects::types::static_shape(ty)?;
    Some((shape, tensor.element(), tensor.encoding()))
}

/// `tensor<shape x element, layout>`.
pub fn tensor_type<'c>(shape: &[i64], element: Type<'c>, layout: Option<Attribute<'c>>) -> Type<'c> {
    let dims: Vec<u64> = shape.iter().map(|d| *d as u64).collect();
    RankedTensorType::new(&dims, element, layout).into()
}

/// Reports an error on `op` and returns the failure to propagate with `?`.
pub fn fail(op: &OperationRef, message: impl AsRef<str>) -> PassFailed {
    emit_error(op.location(), message.as_ref());
    PassFailed
}

/// `true` if `attribute` is set (an integer attribute with a non-zero value,
/// or a unit attribute).
pub fn is_set(attribute: Option<Attribute>) -> bool {
    attribute.is_some_and(|a| integer_attribute(a).map(|i| i.value() != 0).unwrap_or(a.is_unit()))
}

/// Bits of one element of a tensor descriptor's (or a buffer's) element type:
/// f16/bf16/f32/f64, fp8 (`f8E...`), `iN`; 32 for anything else.
pub fn element_bits(element: Type) -> u32 {
    let text = element.to_string();
    match text.as_str() {
        "f16" | "bf16" => 16,
        "f32" => 32,
        "f64" => 64,
        _ if text.starts_with("f8") => 8,
        // Signless, signed (`si8`, tensor descriptors' blocks) or unsigned.
        _ => text.trim_start_matches(['s', 'u']).trim_start_matches('i').parse().unwrap_or(32),
    }
}

/// Ops whose memdesc result is a view of their memdesc operand (upstream's
/// `MemDescViewTrait`).
pub const MEMDESC_VIEWS: &[&str] = &[
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret",
];
