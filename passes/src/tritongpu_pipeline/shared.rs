//! Shared-memory facts about the loads the pipeliner turns into
//! asynchronous copies: which shared layout their buffers get (upstream
//! `getSharedEncoding`, `getSharedEncIfAllUsersAreDotEnc`), how many bytes
//! one copy instruction moves (`getCopyVecBytes`), whether `cp.async` can do
//! the load at all (`canBeConvertedToAsyncLoad`).
use crate::analysis::axis_info::ModuleAxisInfo;
use crate::analysis::type_facts::{bit_width, pointee_bit_width};
use crate::dot_operand_layouts::{order_for_memory, swizzled_shared_for_dot_operand, swizzled_shared_like_dot_operand};
use crate::ir::{name_of, tensor_parts};
use crate::ssa::{defining_op, uses};
use melior::ir::{operation::OperationLike, Attribute, Location, OperationRef, Type, Value, ValueLike};
use tritium_dialects::access::{float_attribute, OpAccess};
use tritium_dialects::views::LoadOp;
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    types::MemDesc,
};
use tritium_layout::{Layout, SwizzledShared};

/// The pointer, mask and `other` operands of a `tt.load`.
pub struct LoadOperands<'c, 'a> {
    pub pointer: Value<'c, 'a>,
    pub mask: Option<Value<'c, 'a>>,
    pub other: Option<Value<'c, 'a>>,
}

pub fn load_operands<'c, 'a>(load: &OperationRef<'c, 'a>) -> Option<LoadOperands<'c, 'a>> {
    let load = LoadOp::of(*load)?;
    Some(LoadOperands { pointer: load.ptr(), mask: load.mask(), other: load.other() })
}

/// Upstream `isZeroConst`: a splat constant of zero (floats: either sign).
pub fn is_zero_constant(value: Value) -> bool {
    let Some(producer) = defining_op(value).filter(|p| name_of(p) == "arith.constant") else { return false };
    let Ok(attribute) = producer.attribute("value") else { return false };
    let Some(element) = tritium_dialects::ir::splat_value(attribute) else { return false };
    if let Ok(float) = float_attribute(element) {
        return float.value() == 0.0;
    }
    crate::op_traits::constant_integer(value) == Some(0)
}

/// Upstream `canBeConvertedToAsyncLoad`: a load whose threads each read at
/// least 32 contiguous bits (what `cp.async` needs).
pub fn can_be_async_load(load: &OperationRef, axis: &ModuleAxisInfo) -> bool {
    let Some(operands) = load_operands(load) else { return false };
    if tensor_parts(operands.pointer.r#type()).is_none() {
        // A scalar load is copied as a one-element tensor.
        return pointee_bit_width(operands.pointer.r#type()).is_some_and(|bits| bits >= 32);
    }
    let mut vector = axis.contiguity(operands.pointer);
    if let Some(mask) = operands.mask {
        vector = vector.min(axis.mask_alignment(mask));
    }
    let bits = pointee_bit_width(operands.pointer.r#type()).unwrap_or(0);
    vector * bits >= 32
}

/// Upstream `getCopyVecBytes`: how many contiguous bytes a thread copies at
/// once from registers of `tensor_type`'s layout to a buffer of `shared`.
pub fn copy_vector_bytes(tensor_type: Type, shared: Attribute) -> Option<u32> {
    let (shape, element, layout) = tensor_parts(tensor_type)?;
    let registers = layout_of(layout?).ok()?.to_linear(&shape).ok()?;
    let memory = layout_of(shared).ok()?.to_linear(&shape).ok()?;
    let to_memory = registers.invert_and_compose(&memory).ok()?;
    Some(to_memory.num_consecutive_in_out() * bit_width(element)? / 8)
}

/// The layout of `ty`'s encoding (a tensor's or a memdesc's).
fn encoding_of(ty: Type) -> Option<(Vec<i64>, Type, Attribute)> {
    if let Some((shape, element, Some(layout))) = tensor_parts(ty) {
        return Some((shape, element, layout));
    }
    MemDesc::of(ty).map(|m| (m.shape, m.element_type, m.encoding))
}

/// What [`shared_encoding_if_all_users_are_dot`] found.
pub struct DotUsers<'c> {
    pub encoding: Option<Attribute<'c>>,
    /// Users need shared layouts that differ.
    pub incompatible: bool,
}

/// Upstream `getSharedEncIfAllUsersAreDotEnc`: when every use of `value`
/// converts it to a dot operand (directly, or through a shared buffer that
/// is read as one), the shared layout those dot operands read best.
pub fn shared_encoding_if_all_users_are_dot<'c>(value: Value<'c, '_>, location: Location<'c>) -> DotUsers<'c> {
    let none = |incompatible| DotUsers { encoding: None, incompatible };
    let mut encoding: Option<Attribute> = None;
    let mut incompatible = false;
    for user in uses(value).into_iter().map(|u| u.owner) {
        if user.result_count() != 1 {
            return none(incompatible);
        }
        let result: Value = user.result_at(0).unwrap().into();
        let wanted = if let Some(memdesc) = MemDesc::of(result.r#type()) {
            let inner = shared_encoding_if_all_users_are_dot(result, location);
            incompatible = inner.incompatible;
            if inner.encoding.is_none() {
                return none(incompatible);
            }
            memdesc.encoding
        } else {
            if !matches!(name_of(&user).as_str(), "ttg.local_load" | "ttg.convert_layout") {
                return none(incompatible);
            }
            let Some(layout) = tensor_parts(result.r#type()).and_then(|(_, _, l)| l).and_then(|l| layout_of(l).ok())
            else {
                return none(incompatible);
            };
            let attribute = match layout {
                Layout::DotOperand(dot) => dot_operand_shared(value.r#type(), &dot, location),
                other => dot_operand_like_shared(value.r#type(), result.r#type(), &other, location),
            };
            let Some(attribute) = attribute else {
                return none(incompatible);
            };
            attribute
        };
        if encoding.is_some_and(|e| e != wanted) {
            return none(true);
        }
        encoding = Some(wanted);
    }
    DotUsers { encoding, incompatible }
}

/// The swizzled shared layout from which a dot operand of `dot` is read,
/// for a value of `ty` (upstream `SwizzledSharedEncodingAttr::get` with a
/// dot operand, not transposed), in the order `ty` is best stored in
/// (upstream `getOrderForMemory`: a buffer's own order; for registers, the
/// lanes' order when each thread holds one element along the dim they walk
/// first, as a tile with rows repeated in registers does).
fn dot_operand_shared<'c>(
    ty: Type<'c>,
    dot: &tritium_layout::DotOperand,
    location: Location<'c>,
) -> Option<Attribute<'c>> {
    let (shape, element, layout) = encoding_of(ty)?;
    let layout = layout_of(layout).ok()?;
    let order =
        if MemDesc::of(ty).is_some() { layout.order(&shape).ok()? } else { order_for_memory(&layout, &shape).ok()? };
    let cta = layout.cta_layout().ok()?;
    let bits = bit_width(element)?;
    let shared = swizzled_shared_for_dot_operand(dot, &shape, &order, cta, bits, false).ok()?;
    attribute_of(&Layout::SwizzledShared(shared), location)
}

/// The shared layout for a value of `source` converted to `converted`, whose
/// (non dot-operand) `layout` may be tiled like an MMA operand (upstream
/// `swizzleDotOperandLike`; the CTA layout is the source's when the
/// destination is a linear layout, as upstream's).
fn dot_operand_like_shared<'c>(
    source: Type<'c>,
    converted: Type<'c>,
    layout: &Layout,
    location: Location<'c>,
) -> Option<Attribute<'c>> {
    let (shape, element, _) = tensor_parts(converted)?;
    let cta = if matches!(layout, Layout::Linear(_)) {
        layout_of(encoding_of(source)?.2).ok()?.cta_layout().ok()?
    } else {
        layout.cta_layout().ok()?
    };
    let shared = swizzled_shared_like_dot_operand(layout, &shape, cta, bit_width(element)?)?;
    attribute_of(&Layout::SwizzledShared(shared), location)
}

/// A shared layout with no swizzling, in the order of `ty`'s layout
/// (upstream's fallback: fine for 1-D, not optimal for 2-D tensors).
pub fn unswizzled_shared<'c>(ty: Type<'c>, location: Location<'c>) -> Option<Attribute<'c>> {
    let (shape, _, layout) = tensor_parts(ty)?;
    let layout = layout_of(layout?).ok()?;
    let shared = SwizzledShared::new(1, 1, 1, &layout.order(&shape).ok()?).with_cta(layout.cta_layout().ok()?);
    attribute_of(&Layout::SwizzledShared(shared), location)
}

/// Upstream `getSharedEncoding(op)` for a load: the layout of the
/// `local_alloc`s it feeds (the first one's, with a remark when they differ),
/// else the one its dot-operand users read best, else an unswizzled one.
pub fn shared_encoding_of_load<'c>(load: &OperationRef<'c, '_>) -> Option<Attribute<'c>> {
    let result: Value = load.result_at(0).ok()?.into();
    let mut alloc_encoding: Option<Attribute> = None;
    for user in uses(result).into_iter().map(|u| u.owner) {
        if name_of(&user) != "ttg.local_alloc" {
            continue;
        }
        let Some(encoding) = user.result_at(0).ok().and_then(|r| MemDesc::of(r.r#type())).map(|m| m.encoding) else {
            continue;
        };
        match alloc_encoding {
            None => alloc_encoding = Some(encoding),
            Some(first) if first != encoding => tritium_dialects::pass::emit_remark(
                load.location(),
                "Pipelining load with different use encodings. This will lead to layout conversions and performance degradation.",
            ),
            Some(_) => {}
        }
    }
    if alloc_encoding.is_some() {
        return alloc_encoding;
    }
    if let Some(encoding) = shared_encoding_if_all_users_are_dot(result, load.location()).encoding {
        return Some(encoding);
    }
    unswizzled_shared(result.r#type(), load.location())
}
