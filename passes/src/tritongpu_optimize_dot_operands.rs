//! `tritongpu-optimize-dot-operands` (upstream `OptimizeDotOperands.cpp`):
//! moves the transposes and reshapes of dot operands into shared memory,
//! where they cost nothing but a different view of the buffer.
//!
//! After a canonicalization, these rewrites run to a fixed point together
//! with the canonicalization patterns of layout conversions:
//! - `convert(trans(x)) -> #dot_op` feeding a `tt.dot` (mma.sync reads its
//!   operands from shared memory anyway): `x` is stored in a swizzled
//!   layout for that operand and loaded through a transposed view,
//!   `local_load(memdesc_trans(local_alloc(x)))`.
//! - `local_alloc(trans(x))` read by a wgmma: wgmma reads either major-ness,
//!   so `x` is stored as it is and the transpose becomes a view,
//!   `memdesc_trans(local_alloc(x))`.
//! - `local_alloc(reshape(x))` in an `#ttg.nvmma_shared` layout: stored
//!   unreshaped and viewed reshaped (`memdesc_reshape`) when an NVMMA layout
//!   of `x`'s shape describes the same memory.
//!
//! Upstream also rewrites the scales of Blackwell's scaled MMAs, which
//! Tritium's dialects do not have yet. `hoist-layout-conversion` is
//! accepted for compatibility; Triton 3.6 does not use it either.
use crate::dot_operand_layouts::{order_for_memory, swizzled_shared_for_dot_operand, transpose_cta};
use crate::greedy::apply_with_folds;
use crate::ir::{create, name_of, tensor_parts};
use crate::pattern_driver::{report_error, run_pipeline};
use melior::ir::{
    attribute::DenseI32ArrayAttribute, operation::OperationLike, Attribute, Location, OperationRef, Type, Value,
    ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::{
    canonicalization,
    layout::{attribute_of, layout_of},
    pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult},
    rewrite::{Pattern, Rewriter},
    types::MemDesc,
};
use tritium_layout::{utils::reshape_layout, Layout, NvmmaShared, SwizzledShared};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-optimize-dot-operands",
    description: "Fold transposes and reshapes of dot operands into shared-memory views",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "hoist-layout-conversion",
        description: "whether to move conversions to dot operands earlier, past element-wise ops (unused, as upstream)",
        kind: OptionKind::Bool,
        default: "true",
    }],
    run,
};

static SWIZZLE_TRANSPOSED_DOT_OPERAND: Pattern =
    Pattern { root: "ttg.convert_layout", benefit: 1, rewrite: |op, r| applied(op, r, swizzle_transposed_dot_operand) };
static FUSE_TRANSPOSE_INTO_WGMMA_OPERAND: Pattern =
    Pattern { root: "ttg.local_alloc", benefit: 1, rewrite: |op, r| applied(op, r, fuse_transpose_into_wgmma_operand) };
static RESHAPE_IN_SHARED_MEMORY: Pattern =
    Pattern { root: "ttg.local_alloc", benefit: 1, rewrite: |op, r| applied(op, r, reshape_in_shared_memory) };

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    run_pipeline(module, "builtin.module(canonicalize)")?;
    // With the conversions' canonicalization patterns, as upstream.
    let patterns: Vec<&'static Pattern> =
        [&SWIZZLE_TRANSPOSED_DOT_OPERAND, &FUSE_TRANSPOSE_INTO_WGMMA_OPERAND, &RESHAPE_IN_SHARED_MEMORY]
            .into_iter()
            .chain(canonicalization::patterns_of("ttg.convert_layout"))
            .collect();
    apply_with_folds(module, &patterns)
}

type Rewrite = for<'c, 'a> fn(OperationRef<'c, 'a>, &Rewriter) -> Result<bool, String>;

fn applied(op: OperationRef, rewriter: &Rewriter, rewrite: Rewrite) -> bool {
    match rewrite(op, rewriter) {
        Ok(changed) => changed,
        Err(message) => {
            report_error(&op, message);
            false
        }
    }
}

use tritium_dialects::ir::defining_op;
use tritium_dialects::views::{ConvertLayoutOp, LocalAllocOp, ReshapeOp, TransOp};

/// The single user of the results of `op`, if there is exactly one use.
fn single_user<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let result = op.result_at(0).ok()?;
    let users = crate::analysis::slice::users(result.into());
    (op.result_count() == 1 && users.len() == 1).then(|| users[0])
}

/// The `tt.trans` with order [1, 0] defining `value`.
fn matrix_transpose<'c, 'a>(value: Value<'c, 'a>) -> Option<TransOp<'c, 'a>> {
    let trans = defining_op(value).and_then(TransOp::of)?;
    let order = trans.attribute("order").ok().and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())?;
    let order: Vec<i32> = (0..order.len()).filter_map(|i| order.element(i).ok()).collect();
    (order == [1, 0]).then_some(trans)
}

fn order_attribute<'c>(location: Location<'c>, order: &[i32]) -> Attribute<'c> {
    let context = location.context();
    DenseI32ArrayAttribute::new(unsafe { context.to_ref() }, order).into()
}

fn shared_layout_attribute<'c>(layout: Layout, location: Location<'c>) -> Result<Attribute<'c>, String> {
    attribute_of(&layout, location).ok_or_else(|| "invalid shared layout".to_string())
}

/// The type of `memdesc_trans` with order [1, 0] of a buffer of type
/// `source` whose layout transposed is `transposed_layout`.
fn transposed_buffer<'c>(
    source: &MemDesc<'c>,
    transposed_layout: Attribute<'c>,
    location: Location<'c>,
) -> Result<Type<'c>, String> {
    let swap_last_two = |shape: &[i64]| {
        let mut shape = shape.to_vec();
        let n = shape.len();
        shape.swap(n - 2, n - 1);
        shape
    };
    MemDesc {
        shape: swap_last_two(&source.shape),
        encoding: transposed_layout,
        alloc_shape: swap_last_two(&source.alloc_shape),
        ..source.clone()
    }
    .to_type(location)
    .ok_or_else(|| "invalid transposed buffer type".to_string())
}

/// An immutable buffer in `memory_space` holding a tensor of `shape`.
fn buffer_type<'c>(
    shape: &[i64],
    element: Type<'c>,
    layout: Attribute<'c>,
    memory_space: Attribute<'c>,
    location: Location<'c>,
) -> Result<Type<'c>, String> {
    MemDesc {
        shape: shape.to_vec(),
        element_type: element,
        encoding: layout,
        memory_space,
        mutable: false,
        alloc_shape: shape.to_vec(),
    }
    .to_type(location)
    .ok_or_else(|| "invalid buffer type".to_string())
}

fn inserted_result<'c, 'a>(rewriter: &Rewriter, op: melior::ir::Operation<'c>) -> Result<Value<'c, 'a>, String>
where
    'c: 'a,
{
    let op: OperationRef<'c, 'a> = rewriter.insert(op);
    op.result_at(0).map(Value::from).map_err(|e| e.to_string())
}

/// `convert(trans(x)) -> #dot_op` used by a `tt.dot` becomes
/// `convert(local_load(memdesc_trans(local_alloc(x))))`, `x` stored in the
/// swizzled layout the transposed operand is loaded from without bank
/// conflicts (upstream `SwizzleShmemConvert`).
fn swizzle_transposed_dot_operand<'c, 'a>(convert: OperationRef<'c, 'a>, rewriter: &Rewriter) -> Result<bool, String> {
    let reads_for_dot = single_user(&convert).is_some_and(|user| name_of(&user) == "tt.dot");
    if !reads_for_dot {
        return Ok(false);
    }
    let source = ConvertLayoutOp::of(convert).ok_or("a ttg.convert_layout expected")?.src();
    let Some(trans) = matrix_transpose(source) else { return Ok(false) };
    let x = trans.src();
    // Of an inner conversion, the layout the data had before it.
    let mut stored_type = x.r#type();
    if let Some(inner) = defining_op(x).and_then(ConvertLayoutOp::of) {
        stored_type = inner.src().r#type();
    }
    let loaded_type = convert.result_at(0).map_err(|e| e.to_string())?.r#type();
    let Some(Layout::DotOperand(dot_operand)) =
        tensor_parts(loaded_type).and_then(|(_, _, encoding)| layout_of(encoding?).ok())
    else {
        return Ok(false);
    };
    let (shape, element, encoding) = tensor_parts(stored_type).ok_or("tensor expected")?;
    let stored_layout = layout_of(encoding.ok_or("tensor with a layout expected")?).map_err(|e| e.to_string())?;
    if shape.len() != 2 {
        return Ok(false);
    }
    let order = order_for_memory(&stored_layout, &shape).map_err(|e| e.to_string())?;
    // The CTA layout of the transposed tensor, as upstream takes it.
    let cta =
        transpose_cta(&stored_layout.cta_layout().map_err(|e| e.to_string())?, &[1, 0]).map_err(|e| e.to_string())?;
    let bits = crate::analysis::type_facts::bit_width(element).ok_or("element with a bit width expected")?;
    let swizzled = swizzled_shared_for_dot_operand(&dot_operand, &shape, &order, cta, bits, true)?;

    let location = trans.location();
    let context = location.context();
    let shared_memory = tritium_dialects::types::shared_memory_space(unsafe { context.to_ref() });
    let stored_layout = shared_layout_attribute(Layout::SwizzledShared(swizzled.clone()), location)?;
    let stored = buffer_type(&shape, element, stored_layout, shared_memory, location)?;
    let viewed_layout = transposed_swizzled(&swizzled)?;
    let viewed = transposed_buffer(
        &MemDesc::of(stored).ok_or("buffer type expected")?,
        shared_layout_attribute(Layout::SwizzledShared(viewed_layout), location)?,
        location,
    )?;
    rewriter.set_insertion_point_before(&trans);
    let alloc = inserted_result(rewriter, create("ttg.local_alloc", location, &[x], &[stored], &[]))?;
    let view = inserted_result(
        rewriter,
        create("ttg.memdesc_trans", location, &[alloc], &[viewed], &[("order", order_attribute(location, &[1, 0]))]),
    )?;
    let load = inserted_result(rewriter, create("ttg.local_load", location, &[view], &[loaded_type], &[]))?;
    rewriter.modify_in_place(&convert, || tritium_dialects::ir::set_operand(&convert, 0, load));
    Ok(true)
}

/// A swizzled layout viewed through a [1, 0] transpose: the dims trade
/// places in the order and the CTA layout.
fn transposed_swizzled(layout: &SwizzledShared) -> Result<SwizzledShared, String> {
    let order: Vec<u32> = layout.order.iter().map(|&d| if d < 2 { 1 - d } else { d }).collect();
    let cta = transpose_cta(&layout.cta, &[1, 0]).map_err(|e| e.to_string())?;
    Ok(SwizzledShared::new(layout.vec, layout.per_phase, layout.max_phase, &order).with_cta(cta))
}

/// An NVMMA layout viewed through a [1, 0] transpose: the other dim is the
/// contiguous one.
fn transposed_nvmma(layout: &NvmmaShared) -> Result<NvmmaShared, String> {
    let cta = transpose_cta(&layout.cta, &[1, 0]).map_err(|e| e.to_string())?;
    Ok(NvmmaShared { transposed: !layout.transposed, cta, ..layout.clone() })
}

/// `local_alloc(trans(x))` read only by a wgmma (or a Blackwell MMA, which
/// reads transposed operands too) becomes `memdesc_trans(local_alloc(x))`
/// (upstream `FuseTransMMAV3Plus`).
fn fuse_transpose_into_wgmma_operand<'c, 'a>(alloc: OperationRef<'c, 'a>, rewriter: &Rewriter) -> Result<bool, String> {
    let read_by_wgmma = single_user(&alloc).is_some_and(|user| {
        matches!(name_of(&user).as_str(), "ttng.warp_group_dot" | "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled")
    });
    let source = LocalAllocOp::of(alloc).ok_or("a ttg.local_alloc expected")?.src();
    let Some(source) = source.filter(|_| read_by_wgmma) else {
        return Ok(false);
    };
    let Some(trans) = matrix_transpose(source) else { return Ok(false) };
    let buffer = MemDesc::of(alloc.result_at(0).map_err(|e| e.to_string())?.r#type()).ok_or("buffer type expected")?;
    let Ok(Layout::NvmmaShared(layout)) = layout_of(buffer.encoding) else { return Ok(false) };
    if layout.rank() != 2 {
        return Ok(false);
    }
    let x = trans.src();
    let (shape, element, _) = tensor_parts(x.r#type()).ok_or("tensor expected")?;
    let location = alloc.location();
    let stored_layout = transposed_nvmma(&layout)?;
    let stored_attribute = shared_layout_attribute(Layout::NvmmaShared(stored_layout.clone()), location)?;
    let stored = buffer_type(&shape, element, stored_attribute, buffer.memory_space, location)?;
    let viewed = transposed_buffer(
        &MemDesc::of(stored).ok_or("buffer type expected")?,
        shared_layout_attribute(Layout::NvmmaShared(transposed_nvmma(&stored_layout)?), location)?,
        location,
    )?;
    rewriter.set_insertion_point_before(&alloc);
    let new_alloc = inserted_result(rewriter, create("ttg.local_alloc", location, &[x], &[stored], &[]))?;
    let view = create(
        "ttg.memdesc_trans",
        location,
        &[new_alloc],
        &[viewed],
        &[("order", order_attribute(location, &[1, 0]))],
    );
    rewriter.replace_op_with_new(&alloc, view);
    Ok(true)
}

/// `local_alloc(reshape(x))` in an NVMMA layout becomes
/// `memdesc_reshape(local_alloc(x))` when an NVMMA layout of `x`'s shape
/// with the same swizzling lays out memory as the reshaped buffer
/// (upstream `ReshapeMemDesc` with `MemDescReshapeOp::inferReturnTypes`).
fn reshape_in_shared_memory<'c, 'a>(alloc: OperationRef<'c, 'a>, rewriter: &Rewriter) -> Result<bool, String> {
    let source = LocalAllocOp::of(alloc).ok_or("a ttg.local_alloc expected")?.src();
    let Some(reshape) = source.and_then(defining_op).and_then(ReshapeOp::of) else {
        return Ok(false);
    };
    let x = reshape.src();
    let (shape, _, _) = tensor_parts(x.r#type()).ok_or("tensor expected")?;
    let buffer_type = alloc.result_at(0).map_err(|e| e.to_string())?.r#type();
    let buffer = MemDesc::of(buffer_type).ok_or("buffer type expected")?;
    let Ok(Layout::NvmmaShared(layout)) = layout_of(buffer.encoding) else { return Ok(false) };
    let Some(stored_layout) = nvmma_layout_before_reshape(&layout, &buffer.shape, &shape) else { return Ok(false) };
    let location = alloc.location();
    let batch_dims = buffer.alloc_shape.len() - buffer.shape.len();
    let mut alloc_shape = buffer.alloc_shape[..batch_dims].to_vec();
    alloc_shape.extend(&shape);
    let stored = MemDesc {
        shape: shape.clone(),
        encoding: shared_layout_attribute(Layout::NvmmaShared(stored_layout), location)?,
        alloc_shape,
        ..buffer.clone()
    }
    .to_type(location)
    .ok_or("invalid buffer type")?;
    rewriter.set_insertion_point_before(&alloc);
    let new_alloc = inserted_result(rewriter, create("ttg.local_alloc", location, &[x], &[stored], &[]))?;
    rewriter.replace_op_with_new(&alloc, create("ttg.memdesc_reshape", location, &[new_alloc], &[buffer_type], &[]));
    Ok(true)
}

/// The NVMMA layout of shape `shape` that, reshaped to `reshaped_shape`,
/// is `layout`: the same swizzling on one CTA, when the contiguous dim is
/// kept and the memory maps agree.
fn nvmma_layout_before_reshape(layout: &NvmmaShared, reshaped_shape: &[i64], shape: &[i64]) -> Option<NvmmaShared> {
    if layout.cta.num_ctas() != 1 || shape.iter().product::<i64>() != reshaped_shape.iter().product::<i64>() {
        return None;
    }
    let contiguous = |s: &[i64]| if layout.transposed { s.first().copied() } else { s.last().copied() };
    if contiguous(shape) != contiguous(reshaped_shape) {
        return None;
    }
    let candidate = NvmmaShared::new(
        layout.swizzling_byte_width,
        layout.transposed,
        layout.element_bit_width,
        layout.fp4_padded,
        shape.len(),
    );
    let reshaped = layout.to_linear(reshaped_shape).ok()?;
    let target: Vec<u32> = shape.iter().map(|&d| u32::try_from(d).ok()).collect::<Option<_>>()?;
    let unreshaped = reshape_layout(&reshaped, &target).ok()?;
    (candidate.to_linear(shape).ok()? == unreshaped).then_some(candidate)
}
