//! Lowering the producers of channels to copies into their buffers
//! (upstream's WSLowerMem.cpp): `tt.load` to `ttg.async_copy_global_to_local`,
//! other producers to `ttg.local_store`, TMA loads (in [`optimize_tma_loads`])
//! to `ttng.async_tma_copy_global_to_local` completing on a barrier; the
//! consumers read the buffer with `ttg.local_load`.
use super::super::task_ids::{get_async_task_ids, AsyncTaskId};
use super::accum_counts::{barrier_for_stage, buffer_idx_and_phase_of, Regions};
use super::build::{parent_of_type, properly_dominates, Builder};
use super::channels::{Channel, Groups};
use crate::ir::{erase, name_of, replace_all_uses, tensor_parts};
use crate::ssa::uses;
use melior::ir::{
    attribute::DenseI32ArrayAttribute, operation::OperationLike, Attribute, OperationRef, Type, Value, ValueLike,
};
use tritium_dialects::types::MemDesc;
use tritium_dialects::views::LoadOp;

/// The copy into the buffer and the op reading it back, per channel.
pub(super) type CopyOps<'c, 'a> = Vec<Option<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)>>;

/// A one-slot view of `buffer` for a tensor of `ty`.
pub(super) fn slot_type<'c>(
    ty: Type<'c>,
    buffer: Value<'c, '_>,
    mutable: bool,
    location: melior::ir::Location<'c>,
) -> Option<Type<'c>> {
    let (shape, element, _) = tensor_parts(ty)?;
    let memdesc = MemDesc::of(buffer.r#type())?;
    MemDesc {
        shape: shape.clone(),
        element_type: element,
        encoding: memdesc.encoding,
        memory_space: memdesc.memory_space,
        mutable,
        alloc_shape: shape,
    }
    .to_type(location)
}

fn create_async_copy<'c, 'a>(
    buffer: Value<'c, 'a>,
    channel: &Channel<'c, 'a>,
    load: OperationRef<'c, 'a>,
    index: Value<'c, 'a>,
    index_extract: Value<'c, 'a>,
) -> Option<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)> {
    let result: Value = load.result(0).unwrap().into();
    let location = load.location();
    let slot = slot_type(result.r#type(), buffer, true, location)?;
    let view_load = LoadOp::of(load)?;
    let mut b = Builder::new(location, super::build::At::Before(load));
    b.ids_from_op(&load);
    b.set_after(load);
    let view = b.value("ttg.memdesc_index", &[buffer, index], slot);
    let mut operands = vec![view_load.ptr(), view];
    let mask = view_load.mask();
    let other = view_load.other();
    operands.extend(mask);
    operands.extend(other);
    let segments: Attribute =
        DenseI32ArrayAttribute::new(b.context(), &[1, 1, i32::from(mask.is_some()), i32::from(other.is_some())]).into();
    let mut attributes: Vec<(&str, Attribute)> = vec![("operandSegmentSizes", segments)];
    for name in ["cache", "evict", "isVolatile"] {
        if let Ok(a) = load.attribute(name) {
            attributes.push((name, a));
        }
    }
    let token = tritium_dialects::types::async_token(b.context());
    let copy = b.op("ttg.async_copy_global_to_local", &operands, &[token], &attributes);

    let mut ids: Vec<AsyncTaskId> = Vec::new();
    for user in crate::ssa::users(result) {
        for id in get_async_task_ids(&user) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    b.ids = ids;
    b.set_before(channel.dst_op());
    let view = b.value("ttg.memdesc_index", &[buffer, index_extract], slot);
    let shared_load = b.op("ttg.local_load", &[view], &[result.r#type()], &[]);
    replace_all_uses(result, shared_load.result(0).unwrap().into());
    erase(load);
    Some((copy, shared_load))
}

fn create_local_copy<'c, 'a>(
    buffer: Value<'c, 'a>,
    channel: &Channel<'c, 'a>,
    src_index: Value<'c, 'a>,
    dst_index: Value<'c, 'a>,
) -> Option<(OperationRef<'c, 'a>, OperationRef<'c, 'a>)> {
    let src_op = channel.src_op();
    let dst_op = channel.dst_op();
    let src_value = channel.src_operand();
    let location = dst_op.location();
    let slot = slot_type(src_value.r#type(), buffer, true, location)?;
    let mut b = Builder::new(location, super::build::At::Before(dst_op));
    b.ids_from_op(&dst_op);
    let view = b.value("ttg.memdesc_index", &[buffer, dst_index], slot);
    let shared_load = b.op("ttg.local_load", &[view], &[src_value.r#type()], &[]);
    replace_all_uses(src_value, shared_load.result(0).unwrap().into());

    b.ids = vec![channel.producer];
    b.set_after(src_op);
    let view = b.value("ttg.memdesc_index", &[buffer, src_index], slot);
    let copy = b.op("ttg.local_store", &[src_value, view], &[], &[]);
    Some((copy, shared_load))
}

/// Upstream's `insertAsyncCopy`, over the producer groups.
pub(super) fn insert_async_copy<'c, 'a>(
    channels: &[Channel<'c, 'a>],
    groups: &Groups,
    buffers: &[Option<Value<'c, 'a>>],
    regions: &Regions<'c, 'a>,
) -> Result<CopyOps<'c, 'a>, String> {
    let mut copies: CopyOps = vec![None; channels.len()];
    for (key, group) in &groups.by_producer {
        // The channel whose consumer dominates the others'.
        let mut non_dominated: Vec<usize> = Vec::new();
        for &c in group {
            let dst = channels[c].dst_op();
            let mut dominated = false;
            let mut kept = Vec::new();
            for &other in &non_dominated {
                let other_dst = channels[other].dst_op();
                if dominated {
                    kept.push(other);
                } else if properly_dominates(&dst, &other_dst) {
                    // `c` dominates `other`: drop it.
                } else if properly_dominates(&other_dst, &dst) {
                    dominated = true;
                    kept.push(other);
                } else {
                    kept.push(other);
                }
            }
            non_dominated = kept;
            if !dominated {
                non_dominated.push(c);
            }
        }
        if non_dominated.len() != 1 {
            return Err("code partition: conditional consumers are not supported".into());
        }
        let dominating = non_dominated[0];
        let src_op = channels[*key].src_op();
        let mut b = Builder::new(src_op.location(), super::build::At::Before(src_op));
        let mut ids = get_async_task_ids(&src_op);
        for &c in &non_dominated {
            for id in get_async_task_ids(&channels[c].dst_op()) {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        b.ids = ids;
        let index = if parent_of_type(src_op, "scf.for").is_some() {
            buffer_idx_and_phase_of(&b, src_op, channels[*key].num_buffers, regions)?.0
        } else {
            b.constant(0, 32)
        };
        let buffer = buffers[dominating].ok_or("code partition: channel without a buffer")?;
        let pair = match name_of(&src_op).as_str() {
            "tt.descriptor_load" => Some((src_op, channels[dominating].dst_op())),
            "tt.load" => create_async_copy(buffer, &channels[dominating], channels[dominating].src_op(), index, index),
            "ttg.local_load" => return Err("code partition: a local_load's buffer should be reused".into()),
            _ => create_local_copy(buffer, &channels[dominating], index, index),
        };
        for &c in group {
            copies[c] = pair;
        }
    }
    Ok(copies)
}

fn tma_load_bytes(load: &OperationRef) -> i64 {
    let ty = load.result(0).unwrap().r#type();
    let (shape, element, _) = tensor_parts(ty).unwrap_or_default_parts();
    let bits = crate::analysis::type_facts::bit_width(element).unwrap_or(0) as i64;
    shape.iter().product::<i64>() * bits / 8
}

trait DefaultParts<'c> {
    fn unwrap_or_default_parts(self) -> (Vec<i64>, Type<'c>, Option<Attribute<'c>>);
}
impl<'c> DefaultParts<'c> for Option<(Vec<i64>, Type<'c>, Option<Attribute<'c>>)> {
    fn unwrap_or_default_parts(self) -> (Vec<i64>, Type<'c>, Option<Attribute<'c>>) {
        self.expect("tensor result")
    }
}

/// Upstream's `optimizeTMALoads`: one barrier_expect for all the group's TMA
/// loads, each an async TMA copy into its buffer's stage; the consumer waits
/// on the stage's barrier and reads the buffers.
#[allow(clippy::too_many_arguments)]
pub(super) fn optimize_tma_loads<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    loads: &[(OperationRef<'c, 'a>, Value<'c, 'a>)],
    barriers: Value<'c, 'a>,
    index: Value<'c, 'a>,
    index_extract: Value<'c, 'a>,
    phase: Value<'c, 'a>,
    head_producer: OperationRef<'c, 'a>,
    head_consumer: OperationRef<'c, 'a>,
) -> Result<(), String> {
    let bytes: i64 = loads.iter().map(|(l, _)| tma_load_bytes(l)).sum();
    b.set_before(head_producer);
    b.ids_from_op(&head_producer);
    let producer_barrier = barrier_for_stage(b, barriers, index)?;
    let pred = b.constant(1, 1);
    let size = b.int_attr(32, bytes);
    b.op("ttng.barrier_expect", &[producer_barrier, pred], &[], &[("size", size)]);
    for (load, buffer) in loads {
        b.set_before(*load);
        let ty = load.result(0).unwrap().r#type();
        let slot = slot_type(ty, *buffer, true, load.location()).ok_or("TMA load of a tensor expected")?;
        let view = b.value("ttg.memdesc_index", &[*buffer, index], slot);
        let mut operands: Vec<Value> = (0..load.operand_count()).map(|i| load.operand(i).unwrap()).collect();
        operands.push(producer_barrier);
        operands.push(view);
        operands.push(pred);
        b.op("ttng.async_tma_copy_global_to_local", &operands, &[], &[]);
    }
    b.set_before(head_consumer);
    b.ids_from_op(&head_consumer);
    let consumer_barrier = barrier_for_stage(b, barriers, index_extract)?;
    let phase = b.value("arith.extsi", &[phase], b.int_type(32));
    let segments: Attribute = DenseI32ArrayAttribute::new(b.context(), &[1, 1, 0, 0]).into();
    b.op("ttng.wait_barrier", &[consumer_barrier, phase], &[], &[("operandSegmentSizes", segments)]);
    for (load, buffer) in loads {
        let ty = load.result(0).unwrap().r#type();
        let slot = slot_type(ty, *buffer, false, load.location()).ok_or("TMA load of a tensor expected")?;
        let view = b.value("ttg.memdesc_index", &[*buffer, index_extract], slot);
        let shared_load = b.op("ttg.local_load", &[view], &[ty], &[]);
        let result: Value = load.result(0).unwrap().into();
        replace_all_uses(result, shared_load.result(0).unwrap().into());
        debug_assert!(uses(result).is_empty());
        erase(*load);
    }
    Ok(())
}
