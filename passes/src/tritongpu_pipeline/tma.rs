//! Tensor-descriptor loads in pipelined loops (upstream `LowerLoops.cpp`,
//! `createTMABarrierAndWait` and `createTMAAsyncCopy`): a `tt.descriptor_load`
//! (or `tt.descriptor_gather`, which becomes `ttng.async_tma_gather`)
//! whose users run stages later becomes a TMA copy into one buffer of a
//! multi-buffered allocation, completed through an mbarrier per buffer:
//!
//! - before the loop, `ttg.local_alloc` of `buffers` barriers (`i64`) and
//!   one `ttng.init_barrier` (1 arrival) each; after the loop, one
//!   `ttng.inval_barrier` each and the dealloc;
//! - in the load's stage, `ttng.barrier_expect` (the bytes of all the loads
//!   sharing the barrier) on the barrier of buffer `insert`, then for each
//!   load `ttng.async_tma_copy_global_to_local` into its buffer `insert`;
//! - in the stage of the first use, `ttng.wait_barrier` on the barrier of
//!   buffer `extract` with the loop-carried phase, then a view of the buffer
//!   `extract` that the users read (`ttg.local_load`, or the buffer itself
//!   where they made a `ttg.local_alloc` of the value in its layout).
//!
//! Consecutive descriptor loads of one stage and cluster with as many
//! buffers share a barrier and a wait, as long as none of them uses another.
use super::builder::Builder;
use super::loops::ancestor_in_block;
use super::schedule::Schedule;
use crate::ir::{collect_ops, enclosing_int_attribute, erase, fail, name_of, tensor_parts, Order};
use crate::ssa::{op_key, users, Key};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    Attribute, OperationRef, Value, ValueLike,
};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::DescriptorOp;
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    pass::PassFailed,
    types::{shared_memory_space, MemDesc},
};
use tritium_layout::{CtaLayout, Layout, SwizzledShared};

/// Upstream `isTMALoad`.
pub fn is_tma_load(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "tt.descriptor_load" | "tt.descriptor_gather")
}

/// The shared layout of the buffer a TMA load lands in: the descriptor's,
/// fitted to the rank of the loaded tensor (upstream
/// `getEncodingFromDescriptor`).
pub fn descriptor_encoding<'c>(load: &OperationRef<'c, '_>) -> Option<Attribute<'c>> {
    let descriptor = DescriptorOp::of(*load)?.desc();
    let (shape, _, _) = tensor_parts(load.result_at(0).ok()?.r#type())?;
    crate::triton_nvidia_tma_lowering::descriptor_encoding(load, descriptor, &shape)
}

/// Why `lp` cannot be pipelined by Tritium (the loop then runs unpipelined,
/// its descriptor loads becoming synchronous TMA copies in
/// triton-nvidia-tma-lowering), or `None` when it can.
pub fn unsupported_reason(lp: &OperationRef) -> Option<&'static str> {
    // The ops writing the tensormap of a descriptor made directly in the
    // body, in a stage the expander predicates, cannot be predicated
    // (upstream's pipeliner stops with a fatal error there); made in an
    // `scf.if`, they are, with the if.
    let max_stage = crate::ir::int_attribute(lp, super::schedule::MAX_STAGE).unwrap_or(0);
    for op in super::loops::body_ops(lp) {
        if name_of(&op) == "tt.make_tensor_descriptor"
            && crate::ir::int_attribute(&op, super::schedule::STAGE).is_some_and(|stage| stage < max_stage)
        {
            return Some("a tensor descriptor made at the top level of the loop body before its last stage");
        }
    }
    let ops = collect_ops(*lp, Order::Pre);
    if !ops.iter().any(is_tma_load) {
        return None;
    }
    if enclosing_int_attribute(*lp, "ttg.num-ctas").unwrap_or(1) != 1 {
        return Some("descriptor loads of a multi-CTA kernel");
    }
    for op in &ops {
        match name_of(op).as_str() {
            "tt.descriptor_load" | "tt.descriptor_gather" => {
                let Some(encoding) = descriptor_encoding(op) else {
                    return Some("a descriptor without a shared layout for the loaded tensor");
                };
                // FP4-padded layouts need their last index doubled.
                if matches!(layout_of(encoding), Ok(Layout::NvmmaShared(ref n)) if n.fp4_padded) {
                    return Some("an fp4-padded descriptor");
                }
            }
            _ => {}
        }
    }
    None
}

/// What a TMA load shares with the loads of its barrier group.
#[derive(Clone, Copy)]
pub struct TmaSync<'c, 'a> {
    pub barrier: Value<'c, 'a>,
    pub wait: OperationRef<'c, 'a>,
}

/// A TMA load to lower, with what its group needs.
pub struct TmaLoad<'c, 'a> {
    pub load: OperationRef<'c, 'a>,
    pub buffers: i64,
    /// The value lands in shared memory only (one `local_alloc` user of the
    /// buffer's layout): the users of that alloc are its users.
    pub shared_only: bool,
}

/// Upstream `createTMABarrierAndWait`: groups the TMA loads (in body
/// order) that can share a barrier, and makes each group's barriers, expect
/// and wait. Returns, for each load of `loads`, its barrier and wait.
pub fn create_barriers_and_waits<'c, 'a>(
    lp: &OperationRef<'c, 'a>,
    loads: &[TmaLoad<'c, 'a>],
    counters: &dyn Fn(i64) -> (Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>),
    schedule: &mut Schedule,
) -> Result<Vec<TmaSync<'c, 'a>>, PassFailed> {
    let index_of = |op: &OperationRef| loads.iter().position(|l| l.load == *op);
    let mut visited: HashSet<Key> = HashSet::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (first, tma) in loads.iter().enumerate() {
        if visited.contains(&op_key(&tma.load)) {
            continue;
        }
        let mut group: Vec<usize> = Vec::new();
        let mut group_users: HashSet<Key> = HashSet::new();
        let add = |index: usize, group: &mut Vec<usize>, visited: &mut HashSet<Key>, group_users: &mut HashSet<Key>| {
            let load = loads[index].load;
            group.push(index);
            visited.insert(op_key(&load));
            let block = load.block().expect("a load in a block");
            for user in users(load.result_at(0).unwrap().into()) {
                // The alloc of a value kept in shared memory goes away: its
                // users are the load's.
                if loads[index].shared_only && user.block() == Some(block) {
                    group_users.extend(users(user.result_at(0).unwrap().into()).iter().map(op_key));
                    continue;
                }
                if let Some(in_block) = ancestor_in_block(&block, user) {
                    group_users.insert(op_key(&in_block));
                }
            }
        };
        add(first, &mut group, &mut visited, &mut group_users);
        let mut next = tma.load.next_in_block();
        while let Some(op) = next {
            if group_users.contains(&op_key(&op)) || visited.contains(&op_key(&op)) {
                break;
            }
            if let Some(index) = index_of(&op) {
                if loads[index].buffers != tma.buffers {
                    break;
                }
                if schedule.get(&loads[group[0]].load) == schedule.get(&op) {
                    add(index, &mut group, &mut visited, &mut group_users);
                }
            }
            next = op.next_in_block();
        }
        groups.push(group);
    }

    let mut syncs: Vec<Option<TmaSync>> = vec![None; loads.len()];
    for group in groups {
        let first = loads[group[0]].load;
        let last = loads[*group.last().unwrap()].load;
        let buffers = loads[group[0]].buffers;
        let (insert, extract, phase) = counters(buffers);
        let mut bytes = 0;
        for &index in &group {
            bytes += tile_bytes(&loads[index].load)?;
        }
        let barriers = create_barrier_alloc(lp, buffers)?;
        let mut builder = Builder::before(first);
        builder.location = lp.location();
        builder.set_stage_cluster(schedule.get(&first));
        let barrier = super::lower_loops::buffer_view(&mut builder, barriers, insert)?;
        let always = constant_true(&mut builder);
        builder.create("ttng.barrier_expect", &[barrier, always], &[], &[("size", int32(lp, bytes))]);
        builder.set_after(last);
        let group_loads: Vec<OperationRef> = group.iter().map(|&i| loads[i].load).collect();
        let first_use = super::lower_loops::first_use_of(&group_loads, lp, schedule)
            .ok_or_else(|| fail(&first, "a pipelined load without users"))?;
        builder.set_stage_cluster(schedule.get(&first_use));
        let wait_view = super::lower_loops::buffer_view(&mut builder, barriers, extract)?;
        let context_ref = lp.context();
        let segments = DenseI32ArrayAttribute::new(unsafe { context_ref.to_ref() }, &[1, 1, 0, 0]);
        let wait =
            builder.create("ttng.wait_barrier", &[wait_view, phase], &[], &[("operandSegmentSizes", segments.into())]);
        schedule.absorb(builder.take_scheduled());
        for &index in &group {
            syncs[index] = Some(TmaSync { barrier, wait });
        }
    }
    Ok(syncs.into_iter().map(|s| s.expect("every TMA load is in a group")).collect())
}

/// Upstream `createTMAAsyncCopy` for a `tt.descriptor_load` or
/// `tt.descriptor_gather`: the copy into
/// buffer `insert` in the load's stage, and after the group's wait, in the
/// stage of the first use, the view of buffer `extract` its users read.
pub fn create_tma_copy<'c, 'a>(
    lp: &OperationRef<'c, 'a>,
    load: OperationRef<'c, 'a>,
    alloc: Value<'c, 'a>,
    insert: Value<'c, 'a>,
    extract: Value<'c, 'a>,
    sync: TmaSync<'c, 'a>,
    schedule: &mut Schedule,
) -> Result<(), PassFailed> {
    // Upstream makes a zero here that nothing uses.
    let mut outside = Builder::before(*lp);
    outside.location = lp.location();
    outside.constant_i32(0);
    let mut builder = Builder::before(load);
    builder.set_stage_cluster(schedule.get(&load));
    let view = super::lower_loops::buffer_view(&mut builder, alloc, insert)?;
    let always = constant_true(&mut builder);
    // (desc, indices..., barrier, result buffer, pred); a gather's indices
    // are its row offsets and column.
    let mut operands: Vec<Value> = load.operands().collect();
    operands.extend([sync.barrier, view, always]);
    let copy = if name_of(&load) == "tt.descriptor_gather" {
        "ttng.async_tma_gather"
    } else {
        "ttng.async_tma_copy_global_to_local"
    };
    builder.create(copy, &operands, &[], &[]);
    let first_use = super::lower_loops::first_use_of(&[load], lp, schedule)
        .ok_or_else(|| fail(&load, "a pipelined load without users"))?;
    builder.set_after(sync.wait);
    builder.set_stage_cluster(schedule.get(&first_use));
    let shared_view = super::lower_loops::buffer_view(&mut builder, alloc, extract)?;
    super::lower_loops::replace_uses_with_local_load(
        &mut builder,
        load.result_at(0).unwrap().into(),
        shared_view,
        None,
    );
    schedule.absorb(builder.take_scheduled());
    schedule.erase(&load);
    erase(load);
    Ok(())
}

/// The bytes one CTA receives of the tile a TMA load reads.
pub(crate) fn tile_bytes(load: &OperationRef) -> Result<i64, PassFailed> {
    let (shape, element, layout) =
        tensor_parts(load.result_at(0).unwrap().r#type()).ok_or_else(|| fail(load, "a TMA load of no tensor"))?;
    let per_cta = match layout.map(layout_of) {
        Some(Ok(layout)) => layout.shape_per_cta(&shape).map_err(|e| fail(load, e.to_string()))?,
        _ => shape,
    };
    Ok(per_cta.iter().product::<i64>() * i64::from(crate::ir::element_bits(element)) / 8)
}

/// Upstream `createBarrierAlloc`: `count` mbarriers (one arrival each)
/// allocated and initialized before `lp`, invalidated and freed after it.
fn create_barrier_alloc<'c, 'a>(lp: &OperationRef<'c, 'a>, count: i64) -> Result<Value<'c, 'a>, PassFailed> {
    let context_ref = lp.context();
    let context = unsafe { context_ref.to_ref() };
    let shared = SwizzledShared::new(1, 1, 1, &[0]).with_cta(CtaLayout::single_cta(1));
    let encoding = attribute_of(&Layout::SwizzledShared(shared), lp.location()).ok_or(PassFailed)?;
    let i64_type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let memdesc = MemDesc {
        shape: vec![count, 1],
        element_type: i64_type,
        encoding,
        memory_space: shared_memory_space(context),
        mutable: true,
        alloc_shape: vec![count, 1],
    };
    let ty = memdesc.to_type(lp.location()).ok_or(PassFailed)?;
    let mut before = Builder::before(*lp);
    before.location = lp.location();
    let barriers = before.value("ttg.local_alloc", &[], ty, &[]);
    for index in 0..count {
        let index = before.constant_i32(index);
        let view = super::lower_loops::buffer_view(&mut before, barriers, index)?;
        before.create("ttng.init_barrier", &[view], &[], &[("count", int32(lp, 1))]);
    }
    let mut after = Builder::after(*lp);
    after.location = lp.location();
    for index in 0..count {
        let index = after.constant_i32(index);
        let view = super::lower_loops::buffer_view(&mut after, barriers, index)?;
        after.create("ttng.inval_barrier", &[view], &[], &[]);
    }
    after.create("ttg.local_dealloc", &[barriers], &[], &[]);
    Ok(barriers)
}

/// An `i1` constant true (upstream's `ConstantIntOp(1, 1)`).
fn constant_true<'c, 'a>(builder: &mut Builder<'c, 'a>) -> Value<'c, 'a> {
    let i1 = builder.integer_type(1);
    builder.constant(1, i1)
}

fn int32<'c>(op: &OperationRef<'c, '_>, value: i64) -> Attribute<'c> {
    let context_ref = op.context();
    let i32_type = melior::ir::r#type::IntegerType::new(unsafe { context_ref.to_ref() }, 32).into();
    IntegerAttribute::new(i32_type, value).into()
}
