//! Buffers, tokens and the synchronisation between a channel's producer and
//! consumers (upstream's `createBuffer`, `createToken`, `insertAsyncComm`,
//! `foldLocalLoads` of WSCodePartition.cpp).
use super::super::task_ids::{get_async_task_ids, AsyncTaskId};
use super::accum_counts::{buffer_idx_and_phase_of, Regions};
use super::build::{parent_of_type, properly_post_dominates, At, Builder};
use super::channels::{actual_consumers, is_dot_op, unique_actual_consumer, Channel, Groups};
use super::lower_mem::{optimize_tma_loads, CopyOps};
use crate::dot_operand_layouts::{nvmma_shared_for, order_for_memory};
use crate::ir::{collect_ops, name_of, tensor_parts, Order};
use crate::ssa::{block_ops, defining_op, op_key, uses};
use melior::ir::{
    operation::OperationLike, r#type::IntegerType, Attribute, OperationRef, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::layout::{attribute_of, layout_of};
use tritium_dialects::types::MemDesc;
use tritium_layout::{Layout, SwizzledShared};

fn function_body<'c, 'a>(function: &OperationRef<'c, 'a>) -> melior::ir::BlockRef<'c, 'a> {
    function.region(0).unwrap().first_block().unwrap()
}

/// Upstream's `createBuffer`: a buffer (a stage per buffer when the producer
/// is in a loop) for each producer group, allocated at the function's start.
pub(super) fn create_buffers<'c, 'a>(
    function: OperationRef<'c, 'a>,
    channels: &[Channel<'c, 'a>],
    groups: &Groups,
) -> Result<Vec<Option<Value<'c, 'a>>>, String> {
    let mut buffers: Vec<Option<Value>> = vec![None; channels.len()];
    let location = function.location();
    let mut b = Builder::new(location, At::End(function_body(&function)));
    b.set_start(function_body(&function));
    let context = b.context();
    // Upstream passes every channel here (its parameter's name says
    // "ordered"), in collection order.
    for (key, channel) in channels.iter().enumerate() {
        let Some(group) = groups.producer_group(key) else { continue };
        let src_value = channel.src_operand();
        let src_op = channel.src_op();
        let (shape, element, encoding) =
            tensor_parts(src_value.r#type()).ok_or("code partition: channel of a non-tensor value")?;
        let layout = layout_of(encoding.ok_or("tensor with a layout expected")?).map_err(|e| e.to_string())?;
        let order = order_for_memory(&layout, &shape).map_err(|e| e.to_string())?;
        let cta = layout.cta_layout().map_err(|e| e.to_string())?;
        let shared: Attribute = if actual_consumers(channel.dst_op()).iter().any(is_dot_op) {
            let bits = crate::analysis::type_facts::bit_width(element).ok_or("element bit width")?;
            attribute_of(&Layout::NvmmaShared(nvmma_shared_for(&shape, &order, cta, bits, false)), location)
                .ok_or("nvmma_shared layout")?
        } else if name_of(&src_op) == "tt.descriptor_load" {
            let desc =
                tritium_dialects::views::DescriptorOp::of(src_op).ok_or("a descriptor load expected")?.desc().r#type();
            let block = tritium_dialects::types::tensor_descriptor_block(desc).ok_or("tensor descriptor expected")?;
            tensor_parts(block).and_then(|(_, _, e)| e).ok_or("descriptor without a shared layout")?
        } else {
            attribute_of(&Layout::SwizzledShared(SwizzledShared::new(1, 1, 1, &order).with_cta(cta)), location)
                .ok_or("swizzled_shared layout")?
        };
        let stages = if parent_of_type(src_op, "scf.for").is_some() { channel.num_buffers as i64 } else { 1 };
        let mut buffer_shape = vec![stages];
        buffer_shape.extend_from_slice(&shape);
        let ty = MemDesc {
            shape: buffer_shape.clone(),
            element_type: element,
            encoding: shared,
            memory_space: tritium_dialects::types::shared_memory_space(context),
            mutable: true,
            alloc_shape: buffer_shape,
        }
        .to_type(location)
        .ok_or("buffer type")?;
        let buffer: Value = b.value("ttg.local_alloc", &[], ty);
        for &c in group {
            buffers[c] = Some(buffer);
        }
    }
    Ok(buffers)
}

/// Upstream's `createBarrierAlloc`: `distance` mbarriers (count 1), at the
/// function's start.
fn create_barrier_alloc<'c, 'a>(function: OperationRef<'c, 'a>, distance: u32) -> Result<Value<'c, 'a>, String> {
    let location = function.location();
    let mut b = Builder::new(location, At::End(function_body(&function)));
    b.set_start(function_body(&function));
    let context = b.context();
    let encoding =
        Attribute::parse(context, "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>")
            .ok_or("barrier layout")?;
    let i64: Type = IntegerType::new(context, 64).into();
    let memdesc = |shape: Vec<i64>| MemDesc {
        shape: shape.clone(),
        element_type: i64,
        encoding,
        memory_space: tritium_dialects::types::shared_memory_space(context),
        mutable: true,
        alloc_shape: shape,
    };
    let all = memdesc(vec![distance as i64, 1]).to_type(location).ok_or("barrier buffer type")?;
    let one = memdesc(vec![1]).to_type(location).ok_or("barrier type")?;
    let alloc = b.value("ttg.local_alloc", &[], all);
    for i in 0..distance {
        let index = b.constant(i as i64, 32);
        let view = b.value("ttg.memdesc_index", &[alloc, index], one);
        b.op("ttng.init_barrier", &[view], &[], &[("count", b.int_attr(32, 1))]);
    }
    Ok(alloc)
}

/// Upstream's `CommChannel` (Hopper: no consumer barriers).
#[derive(Clone, Default)]
pub(super) struct CommChannel<'c, 'a> {
    /// By consumer task, in the iteration order of upstream's
    /// `DenseMap<int, Value>` (bucket `(37 * task) mod 64`).
    pub tokens: Vec<(AsyncTaskId, Value<'c, 'a>)>,
    pub producer_barrier: Option<Value<'c, 'a>>,
}

fn insert_token<'c, 'a>(tokens: &mut Vec<(AsyncTaskId, Value<'c, 'a>)>, task: AsyncTaskId, value: Value<'c, 'a>) {
    if let Some(entry) = tokens.iter_mut().find(|(t, _)| *t == task) {
        entry.1 = value;
        return;
    }
    tokens.push((task, value));
    tokens.sort_by_key(|(t, _)| (37u32.wrapping_mul(*t as u32)) & 63);
}

/// Upstream's `createToken`: for each consumer group, a token per consumer
/// task (and the barriers of TMA producers).
pub(super) fn create_tokens<'c, 'a>(
    function: OperationRef<'c, 'a>,
    channels: &[Channel<'c, 'a>],
    groups: &Groups,
    copies: &CopyOps<'c, 'a>,
) -> Result<Vec<Option<CommChannel<'c, 'a>>>, String> {
    let mut comm: Vec<Option<CommChannel>> = vec![None; channels.len()];
    let location = function.location();
    let mut b = Builder::new(location, At::End(function_body(&function)));
    b.set_start(function_body(&function));
    let context = b.context();
    for &key in &groups.ordered {
        let group = groups.consumer_group(key).ok_or("code partition: channel group not found")?;
        let channel = &channels[group[0]];
        let producer = channel.src_op();
        let mut cc = CommChannel::default();
        if name_of(&producer) == "tt.descriptor_load" {
            cc.producer_barrier = Some(create_barrier_alloc(function, channel.num_buffers)?);
        }
        for &task in &channel.consumers {
            let copy = copies[group[0]].ok_or("code partition: channel without a copy")?.0;
            let load_type = match name_of(&copy).as_str() {
                "ttg.async_copy_global_to_local" => 1,
                "tt.descriptor_load" => 2,
                "ttg.local_store" => 3,
                _ => return Err("code partition: unexpected producer of a channel".into()),
            };
            let num_buffers = if parent_of_type(producer, "scf.for").is_some() { channel.num_buffers } else { 1 };
            let ty = Type::parse(context, &format!("tensor<{num_buffers}x!nvws.token>")).ok_or("token type")?;
            let token = b
                .op(
                    "nvws.create_token",
                    &[],
                    &[ty],
                    &[("numBuffers", b.int_attr(32, num_buffers as i64)), ("loadType", b.int_attr(32, load_type))],
                )
                .result(0)
                .unwrap()
                .into();
            insert_token(&mut cc.tokens, task, token);
        }
        for &c in group {
            comm[c] = Some(cc.clone());
        }
    }
    Ok(comm)
}

/// Along `c`'s parents, the op whose parent is `p`'s parent (or `c` when
/// one of `p`'s parents shares `c`'s parent).
fn same_level_op<'c, 'a>(p: OperationRef<'c, 'a>, c: OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, String> {
    let mut op = c;
    while name_of(&op) != "tt.func" {
        if op.parent_operation() == p.parent_operation() {
            return Ok(op);
        }
        op = op.parent_operation().ok_or("op outside the function")?;
    }
    let mut op = p;
    while name_of(&op) != "tt.func" {
        if c.parent_operation() == op.parent_operation() {
            return Ok(c);
        }
        op = op.parent_operation().ok_or("op outside the function")?;
    }
    Err("code partition: no op of the consumer at the producer's level".into())
}

fn consumer_release_point<'c, 'a>(
    p: OperationRef<'c, 'a>,
    c: OperationRef<'c, 'a>,
    task: AsyncTaskId,
) -> Result<OperationRef<'c, 'a>, String> {
    if c.block() != p.block() {
        return same_level_op(p, c);
    }
    let mut users: Vec<OperationRef> = Vec::new();
    for user in actual_consumers(c) {
        let mut dominated = false;
        let mut kept = Vec::new();
        for &other in &users {
            if dominated {
                kept.push(other);
            } else if properly_post_dominates(&user, &other) {
            } else if properly_post_dominates(&other, &user) {
                dominated = true;
                kept.push(other);
            } else {
                kept.push(other);
            }
        }
        users = kept;
        if !dominated {
            users.push(user);
        }
    }
    if users.len() == 1 {
        let mut user = Some(users[0]);
        while let Some(u) = user {
            if u.parent_operation() == c.parent_operation() {
                return Ok(u);
            }
            user = u.parent_operation();
        }
        return Err("code partition: no common parent of a consumer and its user".into());
    }
    let block = c.block().unwrap();
    for op in block_ops(&block).into_iter().rev() {
        if get_async_task_ids(&op) == [task] {
            return Ok(op);
        }
    }
    Err("code partition: no place to release a buffer".into())
}

/// Upstream's `insertAsyncComm`: producer acquire/commit and consumer
/// wait/release around each consumer group, TMA loads lowered.
#[allow(clippy::too_many_arguments)]
pub(super) fn insert_async_comm<'c, 'a>(
    function: OperationRef<'c, 'a>,
    channels: &[Channel<'c, 'a>],
    groups: &Groups,
    comm: &[Option<CommChannel<'c, 'a>>],
    buffers: &[Option<Value<'c, 'a>>],
    copies: &CopyOps<'c, 'a>,
    regions: &Regions<'c, 'a>,
    order: &[usize],
) -> Result<(), String> {
    for &g in order {
        let (master_index, group) = &groups.by_consumer[g];
        let mut producer_ops: Vec<usize> = Vec::new();
        let mut consumer_ops: Vec<usize> = Vec::new();
        for &c in group {
            let (copy, read) = copies[c].ok_or("code partition: channel without a copy")?;
            producer_ops.push(op_key(&copy));
            consumer_ops.push(op_key(&read));
            consumer_ops.push(op_key(&channels[c].dst_op()));
            consumer_ops.push(op_key(&unique_actual_consumer(channels[c].dst_op())));
        }
        let front = &channels[group[0]];
        let producer_block = front.src_op().block().unwrap();
        let producer_list = block_ops(&producer_block);
        let head_producer =
            *producer_list.iter().find(|o| producer_ops.contains(&op_key(o))).ok_or("no head producer")?;
        let tail_producer =
            *producer_list.iter().rev().find(|o| producer_ops.contains(&op_key(o))).ok_or("no tail producer")?;
        let consumer_block = front.dst_op().block().unwrap();
        let consumer_list = block_ops(&consumer_block);
        let head_consumer =
            *consumer_list.iter().find(|o| consumer_ops.contains(&op_key(o))).ok_or("no head consumer")?;
        let tail_consumer =
            *consumer_list.iter().rev().find(|o| consumer_ops.contains(&op_key(o))).ok_or("no tail consumer")?;

        let cc = comm[group[0]].clone().ok_or("code partition: channel without tokens")?;
        let master = &channels[*master_index];
        let mut tasks_pc = vec![master.producer];
        tasks_pc.extend_from_slice(&master.consumers);

        let location = head_producer.location();
        let mut b = Builder::new(location, At::Before(head_producer));
        let parent = head_producer.parent_operation().unwrap();
        if name_of(&parent) == "tt.func" {
            b.set_start(function_body(&function));
        } else {
            b.set_before(parent);
        }
        b.ids = tasks_pc;
        let (index, phase) = if parent_of_type(head_producer, "scf.for").is_some() {
            b.set_before(head_producer);
            buffer_idx_and_phase_of(&b, head_producer, front.num_buffers, regions)?
        } else {
            (b.constant(0, 32), b.constant(0, 1))
        };

        let mut tma_loads = Vec::new();
        for &c in group {
            let src = channels[c].src_op();
            if name_of(&src) == "tt.descriptor_load" {
                tma_loads.push((src, buffers[c].ok_or("code partition: channel without a buffer")?));
            }
        }

        b.ids = vec![master.producer];
        for &(_, token) in &cc.tokens {
            b.set_before(same_level_op(head_consumer, head_producer)?);
            b.op("nvws.producer_acquire", &[token, index, phase], &[], &[]);
            if cc.producer_barrier.is_none() {
                b.set_after(same_level_op(head_consumer, tail_producer)?);
                b.op("nvws.producer_commit", &[token, index], &[], &[]);
            }
        }
        for &(task, token) in &cc.tokens {
            b.ids = vec![task];
            if cc.producer_barrier.is_none() {
                b.set_before(same_level_op(head_producer, head_consumer)?);
                b.op("nvws.consumer_wait", &[token, index, phase], &[], &[]);
            }
            b.set_after(consumer_release_point(tail_producer, tail_consumer, task)?);
            b.op("nvws.consumer_release", &[token, index], &[], &[]);
        }
        if !tma_loads.is_empty() {
            let barriers = cc.producer_barrier.ok_or("TMA channel without a barrier")?;
            optimize_tma_loads(&mut b, &tma_loads, barriers, index, index, phase, head_producer, head_consumer)?;
        }
    }
    Ok(())
}

/// Gives `view` (a buffer view) and the views of it, in turn, the
/// mutability `mutable` (upstream's `replaceUsesAndPropagateType` rebuilds
/// them; only their types change).
fn propagate_mutability(view: OperationRef, mutable: bool) {
    if !crate::ir::MEMDESC_VIEWS.contains(&name_of(&view).as_str()) {
        return;
    }
    let result = view.result(0).unwrap();
    if let Some(memdesc) = MemDesc::of(result.r#type()) {
        if memdesc.mutable != mutable {
            if let Some(ty) = (MemDesc { mutable, ..memdesc }).to_type(view.location()) {
                crate::ir::set_type(result.into(), ty);
            }
        }
    }
    for u in uses(result.into()) {
        propagate_mutability(u.owner, mutable);
    }
}

/// Upstream's `foldLocalLoads`: a `local_alloc` of a `local_load` (same
/// tasks) is replaced by the loaded buffer.
pub(super) fn fold_local_loads(function: OperationRef) {
    for alloc in collect_ops(function, Order::Post) {
        if name_of(&alloc) != "ttg.local_alloc" || alloc.operand_count() == 0 {
            continue;
        }
        let Some(load) = tritium_dialects::views::LocalAllocOp::of(alloc).and_then(|a| a.src()).and_then(defining_op)
        else {
            continue;
        };
        if name_of(&load) != "ttg.local_load" || get_async_task_ids(&load) != get_async_task_ids(&alloc) {
            continue;
        }
        let Some(source) = tritium_dialects::views::SrcOp::of(load).map(|l| l.src()) else { continue };
        let result: Value = alloc.result(0).unwrap().into();
        let mutable = MemDesc::of(source.r#type()).is_some_and(|m| m.mutable);
        for u in uses(result) {
            crate::ssa::set_operand(&u.owner, u.index, source);
            propagate_mutability(u.owner, mutable);
        }
    }
}
