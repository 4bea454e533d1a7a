//! `triton-nvidia-tma-lowering`: tensor-descriptor loads and stores become
//! TMA copies through shared memory (upstream `TMALowering.cpp`).
//!
//! - `tt.descriptor_load` -> a mutable buffer in the descriptor's shared
//!   encoding and a one-slot mbarrier; `ttng.init_barrier` (1 arrival),
//!   `ttng.barrier_expect` (the tile's bytes), `ttng.async_tma_copy_global_
//!   to_local`, `ttng.wait_barrier` (phase 0), `ttng.inval_barrier`, then a
//!   `ttg.local_load` in the load's layout.
//! - `tt.descriptor_store` -> `ttg.local_alloc` of the value (immutable),
//!   `ttng.fence_async_shared` (the generic-proxy writes must be visible to
//!   the TMA unit), `ttng.async_tma_copy_local_to_global`,
//!   `ttng.async_tma_store_wait {pendings = 0}`.
//! - `tt.descriptor_reduce` -> the same with `ttng.async_tma_reduce` (the
//!   reduction kind kept).
//!
//! - `tt.make_tensor_descriptor` (a device-side descriptor) -> a 128-byte
//!   `ttg.global_scratch_alloc`, `ttng.tensormap_create` filling it (box,
//!   dims and byte strides innermost first, element type, swizzle, fill
//!   mode: upstream `createTMADesc`), `ttng.tensormap_fenceproxy_acquire`,
//!   and `ttng.reinterpret_tensor_descriptor` of the pointer.
//!
//! Run with MLIR's greedy driver, as upstream's patterns are: the constants
//! they create are folded into the region's entry. Gathers and scatters
//! through descriptors (Blackwell's TMA gather4/scatter4) are not lowered: they are located
//! errors naming the op, not left for the lowering to trip over.
use crate::{
    greedy::apply_with_folds,
    ir::{create, fail, name_of, tensor_parts},
    tensormap,
};
use melior::ir::{
    attribute::{BoolAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::views::{DescriptorLoadOp, DescriptorStoreOp};
use tritium_dialects::{
    access::OpAccess,
    layout::{attribute_of, layout_of},
    pass::{PassDefinition, PassOptions, PassResult},
    rewrite::{Pattern, Rewriter},
    types::{self, MemDesc},
};
use tritium_layout::{CtaLayout, Layout, SwizzledShared};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-nvidia-tma-lowering",
    description: "Lower tensor-descriptor loads and stores to TMA copies through shared memory",
    anchor: "builtin.module",
    options: &[],
    run,
};

static PATTERNS: &[Pattern] = &[
    Pattern { root: "tt.descriptor_load", benefit: 1, rewrite: lower_load },
    Pattern { root: "tt.descriptor_store", benefit: 1, rewrite: lower_store },
    Pattern { root: "tt.descriptor_reduce", benefit: 1, rewrite: lower_reduce },
    Pattern { root: "tt.make_tensor_descriptor", benefit: 1, rewrite: lower_make_descriptor },
];

/// Descriptor ops this pass does not lower yet.
const NOT_YET: &[&str] = &["tt.descriptor_gather", "tt.descriptor_scatter"];

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let mut unsupported = None;
    for op in crate::ir::collect_ops(module, crate::ir::Order::Pre) {
        let name = name_of(&op);
        if NOT_YET.contains(&name.as_str()) && unsupported.is_none() {
            unsupported = Some(op);
        }
    }
    if let Some(op) = unsupported {
        return Err(fail(&op, format!("{} is not lowered to TMA by Tritium yet", name_of(&op))));
    }
    let patterns: Vec<&'static Pattern> = PATTERNS.iter().collect();
    apply_with_folds(module, &patterns)
}

fn int_constant<'c, 'a>(
    rewriter: &Rewriter,
    context: &'c melior::Context,
    op: &OperationRef<'c, 'a>,
    value: i64,
    bits: u32,
) -> Value<'c, 'a> {
    let ty: Type = IntegerType::new(context, bits).into();
    let constant =
        create("arith.constant", op.location(), &[], &[ty], &[("value", IntegerAttribute::new(ty, value).into())]);
    rewriter.insert(constant).result(0).unwrap().into()
}

/// The shared encoding of a buffer of shape `shape` for the descriptor: the
/// descriptor's (set by triton-nvidia-optimize-descriptor-encoding), for
/// the rank of the tensor loaded or stored (upstream
/// `getEncodingFromDescriptor`): a rank-reducing load of a `1x8x64` block
/// into an `8x64` tensor takes the encoding with a rank-2 CTA layout.
pub(crate) fn descriptor_encoding<'c>(
    op: &OperationRef<'c, '_>,
    descriptor: Value<'c, '_>,
    shape: &[i64],
) -> Option<Attribute<'c>> {
    let block = types::tensor_descriptor_block(descriptor.r#type())?;
    let (block_shape, _, encoding) = tensor_parts(block)?;
    let encoding = encoding?;
    if block_shape.as_slice() == shape {
        return Some(encoding);
    }
    let rank = shape.len();
    let single_cta = CtaLayout::single_cta(rank);
    let updated = match layout_of(encoding).ok()? {
        Layout::NvmmaShared(nvmma) if nvmma.cta.num_ctas() == 1 => Layout::NvmmaShared(nvmma.with_cta(single_cta)),
        Layout::SwizzledShared(swizzled) if swizzled.cta.num_ctas() == 1 => {
            // The dropped (outer) dims leave the order; new outer dims come first.
            let mut order: Vec<u32> = (swizzled.order.len()..rank).rev().map(|d| d as u32).collect();
            order.extend(swizzled.order.iter().copied().filter(|&d| (d as usize) < rank));
            Layout::SwizzledShared(
                SwizzledShared::new(swizzled.vec, swizzled.per_phase, swizzled.max_phase, &order).with_cta(single_cta),
            )
        }
        _ => return None,
    };
    attribute_of(&updated, op.location())
}

fn memdesc_type<'c>(
    context: &'c melior::Context,
    op: &OperationRef<'c, '_>,
    shape: &[i64],
    element: Type<'c>,
    encoding: Attribute<'c>,
    mutable: bool,
) -> Option<Type<'c>> {
    let memory_space = types::shared_memory_space(context);
    MemDesc {
        shape: shape.to_vec(),
        element_type: element,
        encoding,
        memory_space,
        mutable,
        alloc_shape: shape.to_vec(),
    }
    .to_type(op.location())
}

fn lower_load(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(load) = DescriptorLoadOp::of(op) else { return false };
    let descriptor = load.desc();
    let result = op.result_at(0).unwrap();
    let Some((shape, element, _)) = tensor_parts(result.r#type()) else { return false };
    let Some(encoding) = descriptor_encoding(&op, descriptor, &shape) else { return false };
    // `to_ref` borrows the ContextRef: it stays alive in this frame.
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let Some(buffer_type) = memdesc_type(context, &op, &shape, element, encoding, true) else { return false };
    let barrier_layout = Layout::SwizzledShared(SwizzledShared::new(1, 1, 1, &[0]).with_cta(CtaLayout::single_cta(1)));
    let Some(barrier_encoding) = attribute_of(&barrier_layout, op.location()) else { return false };
    let i64_type: Type = IntegerType::new(context, 64).into();
    let Some(barrier_type) = memdesc_type(context, &op, &[1], i64_type, barrier_encoding, true) else { return false };
    let location = op.location();
    let i32_type: Type = IntegerType::new(context, 32).into();
    let i32_attr = |v: i64| -> Attribute { IntegerAttribute::new(i32_type, v).into() };

    rewriter.set_insertion_point_before(&op);
    let buffer: Value =
        rewriter.insert(create("ttg.local_alloc", location, &[], &[buffer_type], &[])).result(0).unwrap().into();
    let barrier: Value =
        rewriter.insert(create("ttg.local_alloc", location, &[], &[barrier_type], &[])).result(0).unwrap().into();
    rewriter.insert(create("ttng.init_barrier", location, &[barrier], &[], &[("count", i32_attr(1))]));
    let bytes = shape.iter().product::<i64>() * i64::from(crate::ir::element_bits(element)) / 8;
    let pred = int_constant(rewriter, context, &op, 1, 1);
    rewriter.insert(create("ttng.barrier_expect", location, &[barrier, pred], &[], &[("size", i32_attr(bytes))]));
    let mut operands: Vec<Value> = vec![descriptor];
    operands.extend(load.indices());
    operands.extend([barrier, buffer, pred]);
    let mut attributes: Vec<(&str, Attribute)> = Vec::new();
    for name in ["cache", "evict"] {
        if let Ok(value) = op.attribute(name) {
            attributes.push((name, value));
        }
    }
    if let Ok(value) = op.attribute("isVolatile") {
        attributes.push(("isVolatile", value));
    }
    rewriter.insert(create("ttng.async_tma_copy_global_to_local", location, &operands, &[], &attributes));
    let phase = int_constant(rewriter, context, &op, 0, 32);
    let segments = melior::ir::attribute::DenseI32ArrayAttribute::new(context, &[1, 1, 0, 0]);
    rewriter.insert(create(
        "ttng.wait_barrier",
        location,
        &[barrier, phase],
        &[],
        &[("operandSegmentSizes", segments.into())],
    ));
    rewriter.insert(create("ttng.inval_barrier", location, &[barrier], &[], &[]));
    replace_with_buffer(rewriter, &op, buffer, encoding);
    true
}

/// The `ttng.warp_group_dot_wait`s passing `value` through take its type.
fn retype_waits_of(value: Value) {
    for use_ in crate::ssa::uses(value) {
        if name_of(&use_.owner) == "ttng.warp_group_dot_wait" {
            let passed: Value = use_.owner.result_at(use_.index).unwrap().into();
            crate::ir::set_type(passed, value.r#type());
        }
    }
}

/// `user` now takes the mutable buffer (of type `buffer`) as operand
/// `index`: the results passing it on follow. A `ttng.warp_group_dot_wait`
/// passes its operands through, types included; a view of the buffer is
/// mutable; a `ttg.warp_specialize` capturing it (attention's Q tile, read
/// by the consumer warp groups) gives its partitions' argument the
/// buffer's type, and the argument's views follow in turn.
fn take_mutability(user: &OperationRef, index: usize, buffer: Type) {
    let name = name_of(user);
    if name == "ttng.warp_group_dot_wait" {
        let passed: Value = user.result_at(index).unwrap().into();
        crate::ir::set_type(passed, buffer);
    } else if crate::ir::MEMDESC_VIEWS.contains(&name.as_str()) {
        let view = user.result_at(0).unwrap();
        if let Some(memdesc) = MemDesc::of(view.r#type()) {
            if let Some(ty) = (MemDesc { mutable: true, ..memdesc }).to_type(user.location()) {
                crate::ir::set_type(view.into(), ty);
                retype_waits_of(view.into());
            }
        }
    } else if name == "ttg.warp_specialize" {
        let partitions = user.region(1).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation());
        for partition in partitions.iter().flat_map(|p| p.regions()) {
            let Some(argument) = partition.first_block().and_then(|b| b.argument(index).ok()) else { continue };
            let argument: Value = argument.into();
            crate::ir::set_type(argument, buffer);
            for use_ in crate::ssa::uses(argument) {
                take_mutability(&use_.owner, use_.index, buffer);
            }
        }
    }
}

/// Upstream `replaceUsesWithLocalLoad`: a `ttg.local_alloc` of the loaded
/// value in the buffer's encoding is the buffer itself (its users take the
/// buffer, views of it and warp_group_dot_wait results its mutability);
/// other users get a `ttg.local_load`.
fn replace_with_buffer<'c, 'a>(
    rewriter: &Rewriter,
    op: &OperationRef<'c, 'a>,
    buffer: Value<'c, 'a>,
    encoding: Attribute<'c>,
) {
    let result: Value = op.result_at(0).unwrap().into();
    let mut allocs = Vec::new();
    for user in crate::ssa::users(result) {
        let same = name_of(&user) == "ttg.local_alloc"
            && user.result_at(0).ok().and_then(|r| MemDesc::of(r.r#type())).is_some_and(|m| m.encoding == encoding);
        if same && !allocs.contains(&user) {
            allocs.push(user);
        }
    }
    for alloc in &allocs {
        for use_ in crate::ssa::uses(alloc.result_at(0).unwrap().into()) {
            let user = use_.owner;
            rewriter.modify_in_place(&user, || {
                crate::ssa::set_operand(&user, use_.index, buffer);
                take_mutability(&user, use_.index, buffer.r#type());
            });
        }
        rewriter.erase_op(alloc);
    }
    if crate::ssa::has_uses(result) {
        let load = rewriter.insert(create("ttg.local_load", op.location(), &[buffer], &[result.r#type()], &[]));
        rewriter.replace_op_with_values(op, &[load.result(0).unwrap().into()]);
    } else {
        rewriter.erase_op(op);
    }
}

fn lower_store(op: OperationRef, rewriter: &Rewriter) -> bool {
    lower_store_like(op, rewriter, "ttng.async_tma_copy_local_to_global")
}

/// `tt.descriptor_reduce` is lowered as the store, into a
/// `ttng.async_tma_reduce` that keeps the reduction kind.
fn lower_reduce(op: OperationRef, rewriter: &Rewriter) -> bool {
    lower_store_like(op, rewriter, "ttng.async_tma_reduce")
}

fn lower_store_like(op: OperationRef, rewriter: &Rewriter, tma_op: &str) -> bool {
    let Some(store) = DescriptorStoreOp::of(op) else { return false };
    let (descriptor, source) = (store.desc(), store.src());
    let Some((shape, element, _)) = tensor_parts(source.r#type()) else { return false };
    let Some(encoding) = descriptor_encoding(&op, descriptor, &shape) else { return false };
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let Some(buffer_type) = memdesc_type(context, &op, &shape, element, encoding, false) else { return false };
    let location = op.location();
    rewriter.set_insertion_point_before(&op);
    let buffer: Value =
        rewriter.insert(create("ttg.local_alloc", location, &[source], &[buffer_type], &[])).result(0).unwrap().into();
    rewriter.insert(create(
        "ttng.fence_async_shared",
        location,
        &[],
        &[],
        &[("bCluster", BoolAttribute::new(context, false).into())],
    ));
    let mut operands: Vec<Value> = vec![descriptor];
    operands.extend(store.indices());
    operands.push(buffer);
    let kind: Vec<(&str, Attribute)> = op.attribute("kind").ok().map(|kind| ("kind", kind)).into_iter().collect();
    rewriter.insert(create(tma_op, location, &operands, &[], &kind));
    let i32_type: Type = IntegerType::new(context, 32).into();
    rewriter.insert(create(
        "ttng.async_tma_store_wait",
        location,
        &[],
        &[],
        &[("pendings", IntegerAttribute::new(i32_type, 0).into())],
    ));
    rewriter.erase_op(&op);
    true
}

fn lower_make_descriptor(op: OperationRef, rewriter: &Rewriter) -> bool {
    let result = op.result_at(0).unwrap();
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let location = op.location();
    let i32_type: Type = IntegerType::new(context, 32).into();
    let i32_attr = |v: i64| -> Attribute { IntegerAttribute::new(i32_type, v).into() };
    let Some(i8_pointer) = tensormap::i8_pointer(context) else { return false };
    // A descriptor without a tensormap is left for the lowering, which
    // names what it cannot do.
    let Ok(map) = tensormap::Tensormap::of(&op) else { return false };
    rewriter.set_insertion_point_before(&op);
    let scratch: Value = rewriter
        .insert(create(
            "ttg.global_scratch_alloc",
            location,
            &[],
            &[i8_pointer],
            &[("nbytes", i32_attr(tensormap::TMA_SIZE_BYTES)), ("alignment", i32_attr(tensormap::TMA_ALIGN))],
        ))
        .result(0)
        .unwrap()
        .into();
    map.write(&op, scratch, &mut |new| rewriter.insert(new));
    rewriter.insert(create("ttng.tensormap_fenceproxy_acquire", location, &[scratch], &[], &[]));
    let descriptor =
        rewriter.insert(create("ttng.reinterpret_tensor_descriptor", location, &[scratch], &[result.r#type()], &[]));
    rewriter.replace_op_with_values(&op, &[descriptor.result(0).unwrap().into()]);
    true
}
