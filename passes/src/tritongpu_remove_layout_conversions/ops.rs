//! What the pass needs to know about ops, by name: the op traits upstream
//! queries (`Elementwise`, `SameOperandsAndResultEncoding`, ...) as they are
//! declared in Triton's and MLIR's ODS, and the pass's own predicates (layout
//! anchors, ops folded into a conversion, ops too expensive to duplicate).
//!
//! MLIR's C API cannot query op traits, so the trait sets are tables here
//! (the `Elementwise` one shared with other passes in [`crate::op_traits`]);
//! they must follow `dialects/td` (which follows upstream's ODS).
use super::ir::{element_bit_width, encoding, is_tensor, num_elements, op_name, shape_of};
use super::layouts::{layout, total_elems_per_thread, Layouts};
use crate::op_traits::has_elementwise_trait;
use melior::ir::{operation::OperationLike, Attribute, OperationRef, TypeLike, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::target::{self, ModuleConfig, THREADS_PER_WARP};
use tritium_dialects::views::{ConvertLayoutOp, FpToFpOp, LoadOp, ReshapeOp, StoreOp};
use tritium_layout::Layout;

/// Ops with Triton's `SameOperandsAndResultEncoding` trait.
const SAME_OPERANDS_AND_RESULT_ENCODING: &[&str] = &[
    "tt.int_to_ptr",
    "tt.ptr_to_int",
    "tt.bitcast",
    "tt.fp_to_fp",
    "tt.addptr",
    "tt.atomic_rmw",
    "tt.atomic_cas",
    "tt.splat",
    "tt.broadcast",
    "tt.scan",
    "tt.map_elementwise",
    "tt.extern_elementwise",
    "tt.elementwise_inline_asm",
];

pub(super) fn has_same_operands_and_result_encoding(name: &str) -> bool {
    SAME_OPERANDS_AND_RESULT_ENCODING.contains(&name)
}

/// `SameLoadStoreOperandsAndResultEncoding`: only `tt.load`.
pub(super) fn has_same_load_store_encoding(name: &str) -> bool {
    name == "tt.load"
}

/// Ops whose result layout follows their operands' layout one to one.
pub(super) fn keeps_encoding(name: &str) -> bool {
    has_same_operands_and_result_encoding(name) || has_elementwise_trait(name)
}

/// Ops that change shape but whose result layout is inferred from the
/// operand's (upstream `isView` plus reduce and convert): forward propagation
/// goes through them.
pub(super) fn is_layout_transfer(name: &str) -> bool {
    matches!(
        name,
        "tt.reduce" | "tt.expand_dims" | "tt.reshape" | "tt.trans" | "tt.join" | "tt.split" | "ttg.convert_layout"
    )
}

/// Upstream `isView`.
pub(super) fn is_view(name: &str) -> bool {
    matches!(name, "tt.expand_dims" | "tt.reshape" | "tt.trans" | "tt.join" | "tt.split")
}

/// Ops implementing `DescriptorOpInterface` (TMA loads and stores).
fn is_descriptor_op(name: &str) -> bool {
    matches!(
        name,
        "tt.descriptor_load"
            | "tt.descriptor_gather"
            | "tt.descriptor_store"
            | "tt.descriptor_reduce"
            | "tt.descriptor_scatter"
    )
}

fn has_unit_attribute(op: &OperationRef, name: &str) -> bool {
    crate::ir::is_set(op.attribute(name).ok())
}

/// Upstream `isExpensiveLoadOrStore`: a load or store is cheap to duplicate
/// when it touches one element, or fewer elements than there are threads
/// (the hit rate will be high); a load through a tensor pointer never is.
pub(crate) fn is_expensive_load_or_store(op: &OperationRef) -> bool {
    let Some(pointer) = LoadOp::of(*op).map(|load| load.ptr()).or_else(|| StoreOp::of(*op).map(|store| store.ptr()))
    else {
        return true;
    };
    let ty = pointer.r#type();
    if tritium_dialects::types::pointer_parts(ty).is_some_and(|(pointee, _)| pointee.is_ranked_tensor()) {
        return true;
    }
    // A scalar (or single element) is loaded once by every thread.
    let Some(elements) = num_elements(ty) else { return false };
    if elements == 1 {
        return false;
    }
    let num_warps = target::lookup_num_warps(op).ok().flatten().unwrap_or(4);
    let threads_per_warp = ModuleConfig::of_enclosing(op).map_or(THREADS_PER_WARP, |c| c.threads_per_warp);
    elements >= i64::from(num_warps * threads_per_warp)
}

/// Upstream `isLayoutAnchor`: ops whose layout the pass keeps and propagates
/// from (expensive memory ops, dots, atomics, gathers with a chosen layout,
/// and reordering reshapes, whose result layout is free).
pub(super) fn is_layout_anchor(op: &OperationRef) -> bool {
    let name = op_name(op);
    match name.as_str() {
        n if is_descriptor_op(n) => true,
        "tt.load" | "tt.store" => is_expensive_load_or_store(op),
        "tt.dot" | "tt.dot_scaled" | "ttng.warp_group_dot" | "tt.atomic_rmw" | "tt.atomic_cas" | "ttng.tmem_load" => {
            true
        }
        "tt.gather" => has_unit_attribute(op, "efficient_layout"),
        "tt.reshape" => has_unit_attribute(op, "allow_reorder"),
        _ => false,
    }
}

/// Upstream `canBeRemat`: ops the backward rematerialisation may duplicate.
pub(super) fn can_be_rematerialized(op: &OperationRef) -> bool {
    match op_name(op).as_str() {
        "tt.load" | "tt.store" => !is_expensive_load_or_store(op),
        "tt.atomic_rmw" | "tt.atomic_cas" | "tt.dot" => false,
        "tt.gather" => !has_unit_attribute(op, "efficient_layout"),
        "scf.while" | "scf.condition" => false,
        _ => true,
    }
}

/// Upstream `isExpensiveCat`: a cat into a layout with fewer elements per
/// thread goes through shared memory anyway.
fn is_expensive_cat<'c>(op: &OperationRef<'c, '_>, target: Attribute<'c>, layouts: &mut Layouts<'c>) -> bool {
    let Ok(result) = op.result_at(0) else { return true };
    let ty = result.r#type();
    let Some(shape) = shape_of(ty) else { return true };
    let current = encoding(ty).and_then(|e| layouts.get(e)).and_then(|l| total_elems_per_thread(&l, &shape));
    let new = layouts.get(target).and_then(|l| total_elems_per_thread(&l, &shape));
    match (current, new) {
        (Some(current), Some(new)) => new < current,
        _ => true,
    }
}

/// Upstream `isExpensiveView`: a reshape between these layouts moves data
/// between threads (different replication, or a different number of
/// elements per thread).
pub(super) fn is_expensive_view(src_shape: &[i64], src: &Layout, dst_shape: &[i64], dst: &Layout) -> bool {
    let (Ok(src_linear), Ok(dst_linear)) = (src.to_linear(src_shape), dst.to_linear(dst_shape)) else {
        return true;
    };
    if src_linear.free_variable_masks() != dst_linear.free_variable_masks() {
        return true;
    }
    total_elems_per_thread(src, src_shape) != total_elems_per_thread(dst, dst_shape)
}

/// Upstream `canFoldIntoConversion`: a conversion of this op's result to
/// `target` can be folded into the op by the canonicalizer (the op can
/// produce any layout, or the conversion is of a conversion).
pub(super) fn can_fold_into_conversion<'c>(
    op: &OperationRef<'c, '_>,
    target: Attribute<'c>,
    layouts: &mut Layouts<'c>,
) -> bool {
    match op_name(op).as_str() {
        "tt.cat" => !is_expensive_cat(op, target, layouts),
        "ttg.convert_layout" => {
            if matches!(layouts.get(target), Some(Layout::NvidiaMma(_))) {
                let source = ConvertLayoutOp::of(*op).and_then(|c| encoding(c.src().r#type()));
                return source == Some(target);
            }
            true
        }
        "tt.reshape" => {
            if !has_unit_attribute(op, "allow_reorder") || has_unit_attribute(op, "efficient_layout") {
                return false;
            }
            let (Some(reshape), Ok(result)) = (ReshapeOp::of(*op), op.result_at(0)) else { return false };
            let source = reshape.src();
            let (Some(src_shape), Some(dst_shape)) = (shape_of(source.r#type()), shape_of(result.r#type())) else {
                return false;
            };
            let src = encoding(source.r#type()).and_then(|e| layouts.get(e));
            match (src, layouts.get(target)) {
                (Some(src), Some(dst)) => !is_expensive_view(&src_shape, &src, &dst_shape, &dst),
                _ => false,
            }
        }
        "arith.constant" | "tt.make_range" | "tt.splat" | "tt.histogram" | "ttg.local_alloc" | "ttg.local_load"
        | "ttg.local_store" => true,
        _ => false,
    }
}

/// Ops that cost several instructions or the special function unit
/// (upstream `isExpensiveMathOp`, after CUDA's arithmetic throughput table).
pub(super) fn is_expensive_math(name: &str) -> bool {
    matches!(
        name,
        "arith.divf"
            | "math.erfc"
            | "math.sinh"
            | "math.cosh"
            | "math.tanh"
            | "math.asinh"
            | "math.acosh"
            | "math.atanh"
            | "math.ctpop"
            | "math.ctlz"
            | "math.cttz"
            | "math.exp"
            | "math.exp2"
            | "math.expm1"
            | "math.log"
            | "math.log2"
            | "math.log10"
            | "math.log1p"
            | "math.sin"
            | "math.cos"
            | "math.tan"
            | "math.asin"
            | "math.acos"
            | "math.atan"
            | "math.atan2"
            | "math.powf"
            | "math.sqrt"
            | "math.rsqrt"
            | "math.erf"
            | "math.cbrt"
    )
}

/// Upstream `isMemoryEffectFree` for the elementwise ops: extern calls and
/// inline assembly are free of effects only when marked pure.
pub(super) fn is_memory_effect_free_elementwise(op: &OperationRef) -> bool {
    match op_name(op).as_str() {
        "tt.extern_elementwise" | "tt.elementwise_inline_asm" => {
            op.attribute("pure").ok().is_some_and(|a| a.to_string() == "true")
        }
        name => has_elementwise_trait(name),
    }
}

/// A widening cast or a broadcast: converting before it moves less data
/// (the ops `hoistConvertOnTopOfExtOrBroadcast` hoists conversions over).
pub(super) fn is_ext_or_broadcast(op: &OperationRef) -> bool {
    match op_name(op).as_str() {
        "arith.extsi" | "arith.extui" | "arith.extf" | "tt.broadcast" | "tt.expand_dims" => true,
        "tt.fp_to_fp" => {
            let (Some(convert), Ok(result)) = (FpToFpOp::of(*op), op.result_at(0)) else { return false };
            let source = convert.src();
            match (element_bit_width(source.r#type()), element_bit_width(result.r#type())) {
                (Some(from), Some(to)) => from < to,
                _ => false,
            }
        }
        _ => false,
    }
}

/// A reduction to scalars: its operands' layout does not show in its results.
pub(super) fn is_reduce_to_scalar(op: &OperationRef) -> bool {
    op_name(op) == "tt.reduce" && op.result_at(0).is_ok_and(|r| !is_tensor(r.r#type()))
}

/// The layout kinds upstream calls `MmaEncodingTrait` (NVIDIA MMA here).
pub(super) fn is_mma(attribute: Attribute) -> bool {
    matches!(layout(attribute), Some(Layout::NvidiaMma(_)))
}
