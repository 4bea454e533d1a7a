//! Pipelining of the descriptor stores of a loop (upstream
//! `TMAStoresPipeline.cpp`, the last step of `tritongpu-pipeline`): each
//! `tt.descriptor_store` of the body (nested loops aside) becomes an
//! asynchronous TMA store from a shared buffer allocated before the loop,
//! so that the store of one iteration overlaps the work of the next:
//!
//!     ttng.async_tma_store_wait {pendings = 0}   // the previous store read the buffer
//!     ttg.local_store %value, %buffer
//!     ttng.fence_async_shared {bCluster = false} // visible to the TMA unit
//!     ttng.async_tma_copy_local_to_global %desc[...] %buffer
//!
//! and after the loop a last `async_tma_store_wait` before the buffers are
//! freed. Stores of one shape and element type share a buffer (each waits
//! for the previous store first).
//!
//! When a store goes through a descriptor made on the device, the
//! descriptors made in the loop get rotating tensormap slots, as in
//! pipelined loops (upstream `lowerTMADescriptorCreation`: the slots of a
//! three-stage schedule). Descriptor reductions and scatters go the same
//! way, as `ttng.async_tma_reduce` and `ttng.async_tma_scatter`.
use super::builder::Builder;
use super::loops::is_for;
use super::schedule::Schedule;
use crate::ir::{erase, name_of, tensor_parts};
use crate::triton_nvidia_tma_lowering::descriptor_encoding;
use melior::ir::{
    attribute::{BoolAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::views::{DescriptorScatterOp, DescriptorStoreOp};
use tritium_dialects::{
    pass::{PassFailed, PassResult},
    types::{shared_memory_space, MemDesc},
};

/// The descriptor stores (reductions and scatters too) of the body of `lp`,
/// outside nested loops, in order.
fn tma_stores<'c, 'a>(lp: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut stores = Vec::new();
    let mut stack: Vec<OperationRef> = Vec::new();
    push_nested(lp, &mut stack);
    while let Some(op) = stack.pop() {
        match name_of(&op).as_str() {
            "tt.descriptor_store" | "tt.descriptor_reduce" | "tt.descriptor_scatter" => stores.push(op),
            _ if is_for(&op) => {}
            _ => push_nested(&op, &mut stack),
        }
    }
    stores
}

/// Pushes the ops of the regions of `op` on `stack`, the first on top.
fn push_nested<'c, 'a>(op: &OperationRef<'c, 'a>, stack: &mut Vec<OperationRef<'c, 'a>>) {
    let mut nested = Vec::new();
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            nested.extend(crate::ssa::block_ops(&b));
            block = b.next_in_region();
        }
    }
    stack.extend(nested.into_iter().rev());
}

/// The shared buffer of the stores of one shape and element type.
struct StoreBuffer<'c, 'a> {
    shape: Vec<i64>,
    element: Type<'c>,
    value: Value<'c, 'a>,
}

/// Upstream `pipelineTMAStores`.
pub fn pipeline_tma_stores(lp: OperationRef) -> PassResult {
    let stores = tma_stores(&lp);
    if stores.is_empty() {
        return Ok(());
    }
    let context_ref = lp.context();
    let context = unsafe { context_ref.to_ref() };
    // One buffer per (shape, element type), in the order of first use.
    let mut buffers: Vec<StoreBuffer> = Vec::new();
    let mut store_buffers: Vec<Value> = Vec::new();
    for store in &stores {
        let descriptor = descriptor_of(store);
        let source = stored_value(store);
        let (shape, element, _) = tensor_parts(source.r#type()).ok_or_else(|| fail(store, "a store of no tensor"))?;
        let encoding = descriptor_encoding(store, descriptor, &shape)
            .ok_or_else(|| fail(store, "a descriptor without a shared encoding for the stored tensor"))?;
        let buffer = match buffers.iter().find(|b| b.shape == shape && b.element == element) {
            Some(existing) => existing.value,
            None => {
                let memdesc = MemDesc {
                    shape: shape.clone(),
                    element_type: element,
                    encoding,
                    memory_space: shared_memory_space(context),
                    mutable: true,
                    alloc_shape: shape.clone(),
                };
                let ty = memdesc.to_type(store.location()).ok_or(PassFailed)?;
                let mut before = Builder::before(lp);
                before.location = store.location();
                let buffer = before.value("ttg.local_alloc", &[], ty, &[]);
                buffers.push(StoreBuffer { shape: shape.clone(), element, value: buffer });
                buffer
            }
        };
        store_buffers.push(buffer);
    }
    let device_side = stores.iter().any(|store| !is_host_side_descriptor(descriptor_of(store)));
    let pendings = |n: i64| -> Attribute { IntegerAttribute::new(IntegerType::new(context, 32).into(), n).into() };
    for (store, buffer) in stores.iter().zip(&store_buffers) {
        let mut builder = Builder::before(*store);
        // The buffer's last store must have read it before it is written.
        builder.create("ttng.async_tma_store_wait", &[], &[], &[("pendings", pendings(0))]);
        builder.create("ttg.local_store", &[stored_value(store), *buffer], &[], &[]);
        builder.create("ttng.fence_async_shared", &[], &[], &[("bCluster", BoolAttribute::new(context, false).into())]);
        let mut operands: Vec<Value> = vec![descriptor_of(store)];
        let (copy, attributes): (&str, Vec<(&str, Attribute)>) = match name_of(store).as_str() {
            // (desc, x_offsets, y_offset, src)
            "tt.descriptor_scatter" => {
                operands.extend(store.operands().skip(1).take(2));
                ("ttng.async_tma_scatter", vec![])
            }
            // (desc, src, indices...)
            "tt.descriptor_reduce" => {
                operands.extend(store.operands().skip(2));
                let kind = store.attribute("kind").map_err(|_| fail(store, "a reduction without its kind"))?;
                ("ttng.async_tma_reduce", vec![("kind", kind)])
            }
            _ => {
                operands.extend(store.operands().skip(2));
                ("ttng.async_tma_copy_local_to_global", vec![])
            }
        };
        operands.push(*buffer);
        builder.create(copy, &operands, &[], &attributes);
        erase(*store);
    }
    let mut after = Builder::after(lp);
    after.location = lp.location();
    after.create("ttng.async_tma_store_wait", &[], &[], &[("pendings", pendings(0))]);
    for buffer in &buffers {
        after.create("ttg.local_dealloc", &[buffer.value], &[], &[]);
    }
    if device_side {
        // Coarse, as upstream's: every descriptor made in the loop gets
        // slots, whichever op uses it.
        super::descriptors::lower_tma_descriptors(lp, &mut Schedule::new(STORE_LOOP_STAGES))?;
    }
    Ok(())
}

/// The tensor a descriptor store, reduction or scatter writes.
fn stored_value<'c, 'a>(store: &OperationRef<'c, 'a>) -> Value<'c, 'a> {
    match DescriptorScatterOp::of(*store) {
        Some(scatter) => scatter.src(),
        None => DescriptorStoreOp::of(*store).expect("a descriptor store").src(),
    }
}

/// The descriptor a store writes through.
fn descriptor_of<'c, 'a>(store: &OperationRef<'c, 'a>) -> Value<'c, 'a> {
    match DescriptorScatterOp::of(*store) {
        Some(scatter) => scatter.desc(),
        None => DescriptorStoreOp::of(*store).expect("a descriptor store").desc(),
    }
}

/// The stages upstream gives the descriptors of a loop whose stores are
/// pipelined (two slots, three with a wgmma in the loop).
const STORE_LOOP_STAGES: i64 = 3;

/// Upstream `isHostSideDescriptor`: an argument of a kernel (a public
/// `tt.func`), which the host made.
fn is_host_side_descriptor(descriptor: Value) -> bool {
    crate::ssa::argument_owner(descriptor).and_then(|block| block.parent_operation()).is_some_and(|function| {
        name_of(&function) == "tt.func"
            && function.attribute("sym_visibility").map_or(true, |v| v.to_string() == "\"public\"")
    })
}

fn fail(op: &OperationRef, message: &str) -> PassFailed {
    crate::ir::fail(op, message)
}
