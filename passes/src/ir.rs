//! Small IR helpers that melior lacks, shared by the passes: snapshots of op
//! lists (so a pass can rewrite while it iterates), retyping values, RAUW,
//! erasing, reading integer attributes, tensor types with layouts.
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    r#type::{RankedTensorType, ShapedTypeLike},
    Attribute, AttributeLike, BlockLike, Identifier, Location, Operation, OperationRef, RegionLike, Type, TypeLike,
    Value, ValueLike,
};
use tritium_dialects::access::{integer_attribute, ranked_tensor};
use tritium_dialects::pass::{emit_error, PassFailed};

/// The name of an operation, e.g. `"tt.load"`.
pub fn name_of(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

/// Order of [`collect_ops`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Parents before the ops nested in them.
    Pre,
    /// Nested ops before their parents.
    Post,
}

/// All operations nested in `root` (not `root` itself), in program order.
/// A snapshot: the IR may be changed while the list is used, as long as the
/// ops still in use were not erased.
pub fn collect_ops<'c, 'a>(root: OperationRef<'c, 'a>, order: Order) -> Vec<OperationRef<'c, 'a>> {
    fn visit<'c, 'a>(op: OperationRef<'c, 'a>, order: Order, out: &mut Vec<OperationRef<'c, 'a>>) {
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut next = b.first_operation();
                while let Some(inner) = next {
                    if order == Order::Pre {
                        out.push(inner);
                    }
                    visit(inner, order, out);
                    if order == Order::Post {
                        out.push(inner);
                    }
                    next = inner.next_in_block();
                }
                block = b.next_in_region();
            }
        }
    }
    let mut ops = Vec::new();
    visit(root, order, &mut ops);
    ops
}

/// Changes the type of a value in place (results and block arguments).
pub fn set_type(value: Value, ty: Type) {
    // SAFETY: both handles are live.
    unsafe { mlir_sys::mlirValueSetType(value.to_raw(), ty.to_raw()) };
}

/// Replaces every use of `old` with `new`.
pub fn replace_all_uses(old: Value, new: Value) {
    // SAFETY: both handles are live.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
}

/// Erases an operation that has no remaining uses.
pub fn erase(op: OperationRef) {
    // SAFETY: the op is live, owned by its block, and its results are unused.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
}

/// A `array<i32: ...>` attribute of `op`.
pub fn dense_i32_attribute(op: &OperationRef, name: &str) -> Option<Vec<i32>> {
    let attribute = op.attribute(name).ok()?;
    melior::ir::attribute::DenseI32ArrayAttribute::try_from(attribute).ok()?;
    let raw = attribute.to_raw();
    // SAFETY: a live dense i32 array attribute.
    unsafe {
        let n = mlir_sys::mlirDenseArrayGetNumElements(raw);
        Some((0..n).map(|i| mlir_sys::mlirDenseI32ArrayGetElement(raw, i)).collect())
    }
}

/// An integer attribute of `op`, inherent or discardable.
pub fn int_attribute(op: &OperationRef, name: &str) -> Option<i64> {
    op.attribute(name).ok().and_then(|a| integer_attribute(a).ok()).map(|i| i.value())
}

/// The nearest enclosing op (or `op` itself) that carries integer attribute
/// `name`, e.g. "ttg.num-warps" on the module.
pub fn enclosing_int_attribute(op: OperationRef, name: &str) -> Option<i64> {
    let mut current = Some(op);
    while let Some(op) = current {
        if let Some(value) = int_attribute(&op, name) {
            return Some(value);
        }
        current = op.parent_operation();
    }
    None
}

/// The `builtin.module` that holds `op` (or `op` itself).
pub fn enclosing_module<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut current = op;
    while name_of(&current) != "builtin.module" {
        current = current.parent_operation()?;
    }
    Some(current)
}

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

/// Builds an operation by name with operands, result types and attributes.
pub fn create<'c>(
    name: &str,
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
    OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_results(results)
        .add_attributes(&attributes)
        .build()
        .expect("operation with a registered name and valid parts")
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

/// The `tt.func`s directly in `module`, in order.
pub fn module_functions<'c, 'a>(module: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    for region in module.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut next = b.first_operation();
            while let Some(op) = next {
                if name_of(&op) == "tt.func" {
                    found.push(op);
                }
                next = op.next_in_block();
            }
            block = b.next_in_region();
        }
    }
    found
}
