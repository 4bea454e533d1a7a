//! Lowering of scheduled loops (upstream `LowerLoops.cpp`, the first half of
//! `tritongpu-pipeline`): every load whose users run in a later stage than
//! itself becomes an asynchronous copy into a multi-buffered shared-memory
//! allocation:
//!
//! - the allocation (`ttg.local_alloc`, one buffer per stage the value
//!   lives, plus one when a wgmma reads it from shared memory) is made
//!   before the loop and freed after it;
//! - two loop-carried counters per buffer count, the buffer to write
//!   (`insert`) and the one to read (`extract`), each wrapping around;
//! - the load becomes `memdesc_index` + `async_copy_global_to_local` +
//!   `async_commit_group` in its stage, and `async_wait` + `memdesc_index`
//!   (+ `local_load`, unless its users read shared memory directly) in the
//!   stage of its first use;
//! - an `async_wait` after the loop drains the copies in flight.
//!
//! New ops join the schedule, which is written back on the loop.
use super::builder::Builder;
use super::loops::{add_iter_args, ancestor_in_block, body, body_ops, is_for, iter_args, yield_of};
use super::schedule::Schedule;
use super::shared::{can_be_async_load, copy_vector_bytes, is_zero_constant, load_operands, shared_encoding_of_load};
use crate::analysis::axis_info::ModuleAxisInfo;
use crate::ir::{
    collect_ops, enclosing_int_attribute, erase, fail, name_of, replace_all_uses, set_type, tensor_parts, Order,
};
use crate::ssa::{uses, Key};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    Attribute, OperationRef, Type, Value, ValueLike,
};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::{
    layout::attribute_of,
    pass::{emit_remark, PassFailed, PassResult},
    types::{async_token, shared_memory_space, MemDesc},
};
use tritium_layout::{default_blocked, CtaLayout, Layout, SwizzledShared};

pub fn lower_loops(module: OperationRef) -> PassResult {
    let axis = ModuleAxisInfo::analyze(module)?;
    for lp in collect_ops(module, Order::Post).into_iter().filter(is_for) {
        let Some(mut schedule) = Schedule::deserialize(&lp) else { continue };
        if let Some(reason) = super::tma::unsupported_reason(&lp) {
            // The loop runs as it is, its descriptor loads become
            // synchronous TMA copies (triton-nvidia-tma-lowering).
            emit_remark(lp.location(), &format!("loop not pipelined: Tritium does not pipeline {reason}"));
            unschedule(&lp);
            continue;
        }
        let lp = lower_loads(lp, &mut schedule, &axis)?;
        let lp = super::descriptors::lower_tma_descriptors(lp, &mut schedule)?;
        schedule.serialize(&lp);
    }
    Ok(())
}

/// Drops the schedule of `lp` (its ops' stages and clusters, its max stage),
/// so that the loop is left as it is.
fn unschedule(lp: &OperationRef) {
    use super::schedule::{CLUSTER, MAX_STAGE, STAGE};
    for op in collect_ops(*lp, Order::Pre) {
        for name in [STAGE, CLUSTER, MAX_STAGE] {
            super::loops::remove_attribute(&op, name);
        }
    }
}

/// Ops that view a shared-memory buffer (upstream's `MemDescViewTrait`).
pub fn is_memdesc_view(op: &OperationRef) -> bool {
    matches!(
        name_of(op).as_str(),
        "ttg.memdesc_index"
            | "ttg.memdesc_subslice"
            | "ttg.memdesc_trans"
            | "ttg.memdesc_reshape"
            | "ttg.memdesc_reinterpret"
    )
}

/// Upstream `getTopLevelUsersInLoop`: the ops of the body using the results
/// of `op`, through the loop's iter_args and through buffer views.
fn top_level_users<'c, 'a>(op: &OperationRef<'c, 'a>, lp: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    top_level_users_where(op, lp, |_| true)
}

/// [`top_level_users`] counting only the uses by ops `keep` accepts
/// (upstream's `filterUse`; views are followed whatever it says).
pub(crate) fn top_level_users_where<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    lp: &OperationRef<'c, 'a>,
    keep: impl Fn(&OperationRef) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let Some(block) = body(lp) else { return Vec::new() };
    let loop_yield = yield_of(lp);
    let arguments = iter_args(lp);
    let mut found: Vec<OperationRef> = Vec::new();
    let mut queue: Vec<(OperationRef, usize)> =
        op.results().flat_map(|r| uses(r.into())).map(|u| (u.owner, u.index)).collect();
    let mut followed: HashSet<Key> = HashSet::new();
    while let Some((owner, index)) = queue.pop() {
        if Some(owner) == loop_yield {
            let argument = arguments[index];
            if followed.insert(crate::ssa::value_key(argument)) {
                queue.extend(uses(argument).into_iter().map(|u| (u.owner, u.index)));
            }
            continue;
        }
        if is_memdesc_view(&owner) {
            queue.extend(owner.results().flat_map(|r| uses(r.into())).map(|u| (u.owner, u.index)));
            continue;
        }
        if !keep(&owner) {
            continue;
        }
        if let Some(user) = ancestor_in_block(&block, owner) {
            if !found.contains(&user) {
                found.push(user);
            }
        }
    }
    found
}

/// Upstream `getFirstUseOfPipelinedOp`: the user of `op` in the body that
/// runs first in the pipelined loop.
fn first_use<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    lp: &OperationRef<'c, 'a>,
    schedule: &Schedule,
) -> Option<OperationRef<'c, 'a>> {
    first_use_of(std::slice::from_ref(op), lp, schedule)
}

/// Upstream `getFirstUseOfPipelinedOp` of several ops: the user of any of
/// `ops` in the body that runs first in the pipelined loop.
pub fn first_use_of<'c, 'a>(
    ops: &[OperationRef<'c, 'a>],
    lp: &OperationRef<'c, 'a>,
    schedule: &Schedule,
) -> Option<OperationRef<'c, 'a>> {
    let mut first: Option<OperationRef> = None;
    for user in ops.iter().flat_map(|op| top_level_users(op, lp)) {
        let better = match first {
            None => true,
            Some(current) => {
                let (use_stage, use_cluster) = schedule.get(&user)?;
                let (first_stage, first_cluster) = schedule.get(&current)?;
                use_stage < first_stage
                    || (use_stage == first_stage && schedule.is_cluster_before(use_cluster, first_cluster))
                    || (use_stage == first_stage && use_cluster == first_cluster && user.is_before_in_block(current))
            }
        };
        if better {
            first = Some(user);
        }
    }
    first
}

/// Upstream `getDefUseStageDiff`: how many stages after a load its first
/// user runs (users of a `local_alloc` of the load count, the alloc going
/// away; a user in a later cluster counts one stage later; a
/// `ttng.wait_barrier` on the buffer holds it up to its own stage).
fn def_use_stage_diff(load: &OperationRef, lp: &OperationRef, schedule: &Schedule) -> Result<i64, PassFailed> {
    let (def_stage, def_cluster) = schedule.get(load).ok_or_else(|| fail(load, "op not found in the schedule"))?;
    let mut users = top_level_users(load, lp);
    for user in users.clone() {
        if name_of(&user) == "ttg.local_alloc" {
            users.extend(top_level_users(&user, lp));
        }
    }
    let mut use_stage: Option<i64> = None;
    for user in &users {
        let (mut stage, cluster) = schedule.get(user).ok_or_else(|| fail(user, "op not found in the schedule"))?;
        // A user in a later cluster (conditional code pushed to the end of
        // the loop) reads the buffer after the next copy into it started:
        // one buffer more.
        if schedule.position(cluster) > schedule.position(def_cluster) {
            stage += 1;
        }
        use_stage = Some(use_stage.map_or(stage, |s| s.min(stage)));
    }
    // A `ttng.wait_barrier` depending on the buffer keeps it in use until
    // the wait is over: the buffer must live until the latest such wait.
    for wait in users.iter().filter(|user| name_of(user) == "ttng.wait_barrier") {
        let (stage, _) = schedule.get(wait).ok_or_else(|| fail(wait, "op not found in the schedule"))?;
        use_stage = Some(use_stage.map_or(stage, |s| s.max(stage)));
    }
    Ok(use_stage.map_or(0, |s| s - def_stage))
}

/// Upstream `mustLoadToRegisters`: the load's value is needed in registers
/// (it has a non-zero `other`, or users other than one `local_alloc`, or,
/// for a TMA load, an alloc of another layout than the descriptor's).
fn must_load_to_registers(load: &OperationRef) -> bool {
    if name_of(load) == "tt.load" {
        if let Some(other) = load_operands(load).and_then(|o| o.other) {
            if !is_zero_constant(other) {
                return true;
            }
        }
    }
    let Ok(result) = load.result_at(0) else { return true };
    let uses = uses(result.into());
    if uses.len() != 1 || name_of(&uses[0].owner) != "ttg.local_alloc" {
        return true;
    }
    if super::tma::is_tma_load(load) {
        let alloc_encoding = uses[0].owner.result_at(0).ok().and_then(|r| MemDesc::of(r.r#type())).map(|m| m.encoding);
        if let Some(encoding) = super::tma::descriptor_encoding(load) {
            return Some(encoding) != alloc_encoding;
        }
    }
    false
}

/// Upstream `loadRequiresAdditionalBuffer`: a load that only fills a shared
/// buffer a wgmma reads needs one buffer more, the wgmma of the previous
/// iteration being still in flight.
fn load_requires_additional_buffer(load: &OperationRef) -> bool {
    if must_load_to_registers(load) {
        return false;
    }
    let alloc = uses(load.result_at(0).unwrap().into())[0].owner;
    let mut worklist = vec![alloc];
    while let Some(op) = worklist.pop() {
        for result in op.results() {
            for user in crate::ssa::users(result.into()) {
                if is_memdesc_view(&user) {
                    worklist.push(user);
                } else if name_of(&user) == "ttng.warp_group_dot" {
                    return true;
                }
            }
        }
    }
    false
}

/// A load to turn into asynchronous copies.
struct AsyncLoad<'c, 'a> {
    load: OperationRef<'c, 'a>,
    buffers: i64,
    contiguity: u32,
    encoding: Attribute<'c>,
    alloc: Option<Value<'c, 'a>>,
    /// A descriptor load, copied by TMA (else `cp.async`).
    tma: bool,
}

/// The counters of the loads with a given number of buffers (and the
/// barrier phase, when TMA loads are among them).
struct LoadGroup<'c, 'a> {
    buffers: i64,
    has_tma: bool,
    insert: Option<Value<'c, 'a>>,
    extract: Option<Value<'c, 'a>>,
    phase: Option<Value<'c, 'a>>,
}

impl LoadGroup<'_, '_> {
    /// How many loop-carried values the group adds.
    fn carried(&self) -> usize {
        2 + usize::from(self.has_tma)
    }
}

/// The loads of the body to turn into asynchronous copies, and among them
/// the scalar ones (upstream's first loop of `lowerLoads`). Loads used in
/// their own stage stay; loads neither `cp.async` nor TMA can do stay too,
/// with a remark when they are pipelined over several stages (in
/// registers).
fn plan_async_loads<'c, 'a>(
    lp: &OperationRef<'c, 'a>,
    schedule: &Schedule,
    axis: &ModuleAxisInfo,
) -> Result<(Vec<AsyncLoad<'c, 'a>>, Vec<OperationRef<'c, 'a>>), PassFailed> {
    let mut async_loads: Vec<AsyncLoad> = Vec::new();
    let mut scalar_loads: Vec<OperationRef> = Vec::new();
    for op in body_ops(lp) {
        let tma = super::tma::is_tma_load(&op);
        if name_of(&op) != "tt.load" && !tma {
            continue;
        }
        let mut buffers = def_use_stage_diff(&op, lp, schedule)?;
        if buffers == 0 {
            continue;
        }
        let result_type = op.result_at(0).unwrap().r#type();
        let (can_use_async_copy, encoding, contiguity) = if tma {
            // TMA writes the descriptor's layout.
            let encoding = super::tma::descriptor_encoding(&op)
                .ok_or_else(|| fail(&op, "a descriptor without a shared layout for the loaded tensor"))?;
            (true, encoding, 1)
        } else if tensor_parts(result_type).is_none() {
            // A scalar load is copied as a one-element tensor.
            let can = crate::analysis::type_facts::bit_width(result_type).is_some_and(|bits| bits >= 32);
            if can {
                scalar_loads.push(op);
            }
            (can, scalar_shared(&op)?, 1)
        } else {
            let encoding = shared_encoding_of_load(&op).ok_or_else(|| fail(&op, "no shared layout for the load"))?;
            let can = can_be_async_load(&op, axis)
                && copy_vector_bytes(result_type, encoding).is_some_and(|bytes| bytes >= 4);
            let mut contiguity = 1;
            if can {
                let operands = load_operands(&op).unwrap();
                contiguity = axis.contiguity(operands.pointer);
                if let Some(mask) = operands.mask {
                    contiguity = contiguity.min(axis.mask_alignment(mask));
                }
            }
            (can, encoding, contiguity)
        };
        if can_use_async_copy {
            if load_requires_additional_buffer(&op) {
                buffers += 1;
            }
            async_loads.push(AsyncLoad { load: op, buffers, contiguity, encoding, alloc: None, tma });
        } else if buffers > 1 {
            emit_remark(
                op.location(),
                "Pipelining load that cannot use vectorized copy. This will likely lead to pipelining in registers and severe performance degradation.",
            );
        }
    }
    Ok((async_loads, scalar_loads))
}

/// Upstream `lowerLoads`: the loop (replaced when counters are added to its
/// iter_args) with its loads made asynchronous copies.
fn lower_loads<'c, 'a>(
    lp: OperationRef<'c, 'a>,
    schedule: &mut Schedule,
    axis: &ModuleAxisInfo,
) -> Result<OperationRef<'c, 'a>, PassFailed> {
    let (mut async_loads, scalar_loads) = plan_async_loads(&lp, schedule, axis)?;
    for load in scalar_loads {
        convert_scalar_to_tensor_load(load, &lp, schedule)?;
    }
    if async_loads.is_empty() {
        return Ok(lp);
    }
    let mut groups: Vec<LoadGroup> = Vec::new();
    for async_load in &mut async_loads {
        async_load.alloc = Some(create_alloc(&lp, &async_load.load, async_load.encoding, async_load.buffers)?);
        match groups.iter_mut().find(|g| g.buffers == async_load.buffers) {
            Some(group) => group.has_tma |= async_load.tma,
            None => groups.push(LoadGroup {
                buffers: async_load.buffers,
                has_tma: async_load.tma,
                insert: None,
                extract: None,
                phase: None,
            }),
        }
    }
    // Two counters per group, both starting at -1: duplicates, so that the
    // expander recomputes each in the stage that needs it rather than
    // carrying it over several iterations. With TMA loads, a third value:
    // the phase of the barriers, flipped each time the counter wraps.
    let mut before = Builder::before(lp);
    let minus_one = before.constant_i32(-1);
    let zero = before.constant_i32(0);
    let one = before.constant_i32(1);
    let mut new_operands: Vec<Value> = Vec::new();
    for group in &groups {
        new_operands.extend([minus_one, minus_one]);
        if group.has_tma {
            new_operands.push(zero);
        }
    }
    let first_new = iter_args(&lp).len();
    let lp = add_iter_args(lp, &new_operands);
    let loop_yield = yield_of(&lp).ok_or_else(|| fail(&lp, "scf.for without a yield"))?;
    let mut yielded: Vec<Value> = loop_yield.operands().collect();
    yielded.extend_from_slice(&new_operands);
    crate::ssa::set_operands(&loop_yield, &yielded);

    let arguments = iter_args(&lp);
    let block = body(&lp).unwrap();
    let mut position = first_new;
    for group in groups.iter_mut() {
        let (insert, extract) = (arguments[position], arguments[position + 1]);
        let phase = group.has_tma.then(|| arguments[position + 2]);
        position += group.carried();
        let mut builder = Builder::before(lp);
        builder.location = lp.location();
        builder.set_at_start(block);
        let buffers = builder.constant_i32(group.buffers);
        group.insert = Some(builder.increment_modulo(insert, buffers, zero, one).0);
        let (extract, wraps) = builder.increment_modulo(extract, buffers, zero, one);
        group.extract = Some(extract);
        if let Some(phase) = phase {
            let flipped = builder.binary("arith.xori", phase, one);
            group.phase = Some(builder.select(wraps, flipped, phase));
        }
    }
    let counters_of = |buffers: i64| {
        let group = groups.iter().find(|g| g.buffers == buffers).unwrap();
        (group.insert.unwrap(), group.extract.unwrap(), group.phase)
    };

    let tma_loads: Vec<super::tma::TmaLoad> = async_loads
        .iter()
        .filter(|a| a.tma)
        .map(|a| super::tma::TmaLoad {
            load: a.load,
            buffers: a.buffers,
            shared_only: !must_load_to_registers(&a.load),
        })
        .collect();
    let syncs = super::tma::create_barriers_and_waits(
        &lp,
        &tma_loads,
        &|buffers| {
            let (insert, extract, phase) = counters_of(buffers);
            (insert, extract, phase.expect("a group with TMA loads has a phase"))
        },
        schedule,
    )?;

    let mut has_cp_async = false;
    for async_load in &async_loads {
        let (insert, extract, _) = counters_of(async_load.buffers);
        if async_load.tma {
            let index = tma_loads.iter().position(|t| t.load == async_load.load).unwrap();
            super::tma::create_tma_copy(
                &lp,
                async_load.load,
                async_load.alloc.unwrap(),
                insert,
                extract,
                syncs[index],
                schedule,
            )?;
        } else {
            create_async_copy(&lp, async_load, insert, extract, schedule)?;
            has_cp_async = true;
        }
    }
    let mut position = first_new;
    for group in &groups {
        crate::ssa::set_operand(&loop_yield, position, group.insert.unwrap());
        crate::ssa::set_operand(&loop_yield, position + 1, group.extract.unwrap());
        if let Some(phase) = group.phase {
            crate::ssa::set_operand(&loop_yield, position + 2, phase);
        }
        position += group.carried();
    }
    // The new counters join the stages of the ops using them.
    crate::tritongpu_schedule_loops::schedule_dependencies(&lp, schedule);
    if has_cp_async {
        // Copies issued speculatively by the last iterations may still be
        // in flight after the loop.
        let mut after = Builder::after(lp);
        after.create(
            "ttg.async_wait",
            &[],
            &[async_token(unsafe { lp.context().to_ref() })],
            &[("num", int32(&lp, 0))],
        );
    }
    for op in body_ops(&lp) {
        if !schedule.contains(&op) {
            return Err(fail(&op, "op not found in the schedule"));
        }
    }
    Ok(lp)
}

/// The shared layout of the buffer of a scalar load: one element per row,
/// over the module's CTAs.
fn scalar_shared<'c>(load: &OperationRef<'c, '_>) -> Result<Attribute<'c>, PassFailed> {
    let ctas = enclosing_int_attribute(*load, "ttg.num-ctas").unwrap_or(1) as u32;
    let cta = CtaLayout::one_d(ctas).map_err(|e| fail(load, e.to_string()))?;
    let shared = SwizzledShared::new(1, 1, 1, &[0]).with_cta(cta);
    attribute_of(&Layout::SwizzledShared(shared), load.location()).ok_or(PassFailed)
}

/// Upstream `convertScalarToTensorLoad`: a scalar load becomes a load of a
/// one-element tensor (its operands splat, in its stage), read back with
/// `tt.unsplat` in the stage of its first use.
fn convert_scalar_to_tensor_load<'c, 'a>(
    load: OperationRef<'c, 'a>,
    lp: &OperationRef<'c, 'a>,
    schedule: &mut Schedule,
) -> PassResult {
    let warps = enclosing_int_attribute(load, "ttg.num-warps").ok_or_else(|| fail(&load, "no ttg.num-warps"))?;
    let threads = enclosing_int_attribute(load, "ttg.threads-per-warp").unwrap_or(32);
    let ctas = enclosing_int_attribute(load, "ttg.num-ctas").unwrap_or(1);
    let blocked =
        default_blocked(&[1], warps as u32, threads as u32, ctas as u32).map_err(|e| fail(&load, e.to_string()))?;
    let layout = attribute_of(&Layout::Blocked(blocked), load.location()).ok_or(PassFailed)?;
    let mut builder = Builder::before(load);
    builder.set_stage_cluster(schedule.get(&load));
    let operands = load_operands(&load).unwrap();
    let one = |ty: Type<'c>| crate::ir::tensor_type(&[1], ty, Some(layout));
    let splat = |builder: &mut Builder<'c, 'a>, value: Value<'c, 'a>| {
        builder.value("tt.splat", &[value], one(value.r#type()), &[])
    };
    let pointer = splat(&mut builder, operands.pointer);
    let mask = operands.mask.map(|m| splat(&mut builder, m));
    let other = operands.other.map(|o| splat(&mut builder, o));
    let new_operands: Vec<Value> = [Some(pointer), mask, other].into_iter().flatten().collect();
    crate::ssa::set_operands(&load, &new_operands);
    let result: Value = load.result_at(0).unwrap().into();
    let scalar_type = result.r#type();
    set_type(result, one(scalar_type));
    builder.set_after(load);
    let first = first_use(&load, lp, schedule).ok_or_else(|| fail(&load, "a pipelined load without users"))?;
    builder.set_stage_cluster(schedule.get(&first));
    let unsplat = builder.create("tt.unsplat", &[result], &[scalar_type], &[]);
    for use_ in uses(result) {
        if use_.owner != unsplat {
            crate::ssa::set_operand(&use_.owner, use_.index, unsplat.result_at(0).unwrap().into());
        }
    }
    schedule.absorb(builder.take_scheduled());
    Ok(())
}

fn int32<'c>(op: &OperationRef<'c, '_>, value: i64) -> Attribute<'c> {
    let context_ref = op.context();
    let i32_type = melior::ir::r#type::IntegerType::new(unsafe { context_ref.to_ref() }, 32).into();
    IntegerAttribute::new(i32_type, value).into()
}

/// Upstream `createAlloc`: a mutable buffer of `buffers` tiles of the
/// load's shape before the loop, freed right after it.
fn create_alloc<'c, 'a>(
    lp: &OperationRef<'c, 'a>,
    load: &OperationRef<'c, 'a>,
    encoding: Attribute<'c>,
    buffers: i64,
) -> Result<Value<'c, 'a>, PassFailed> {
    let (shape, element, _) = tensor_parts(load.result_at(0).unwrap().r#type()).unwrap();
    let mut buffer_shape = vec![buffers];
    buffer_shape.extend_from_slice(&shape);
    let context_ref = lp.context();
    let memdesc = MemDesc {
        shape: buffer_shape.clone(),
        element_type: element,
        encoding,
        memory_space: shared_memory_space(unsafe { context_ref.to_ref() }),
        mutable: true,
        alloc_shape: buffer_shape,
    };
    let ty = memdesc.to_type(load.location()).ok_or(PassFailed)?;
    let mut builder = Builder::before(*lp);
    builder.location = load.location();
    let alloc = builder.value("ttg.local_alloc", &[], ty, &[]);
    let mut after = Builder::after(*lp);
    after.location = lp.location();
    after.create("ttg.local_dealloc", &[alloc], &[], &[]);
    Ok(alloc)
}

/// Upstream `createSingleBufferView`: `memdesc_index` of buffer `index`.
pub fn buffer_view<'c, 'a>(
    builder: &mut Builder<'c, 'a>,
    alloc: Value<'c, 'a>,
    index: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, PassFailed> {
    let memdesc = MemDesc::of(alloc.r#type()).ok_or(PassFailed)?;
    let shape: Vec<i64> = if memdesc.shape.len() > 1 { memdesc.shape[1..].to_vec() } else { vec![1] };
    let view = MemDesc { alloc_shape: shape.clone(), shape, ..memdesc };
    let ty = view.to_type(builder.location).ok_or(PassFailed)?;
    Ok(builder.value("ttg.memdesc_index", &[alloc, index], ty, &[]))
}

/// Upstream `createAsyncCopy`: replaces a load by a copy into buffer
/// `insert` in its stage, and a wait and a view of buffer `extract` in the
/// stage of its first use.
fn create_async_copy<'c, 'a>(
    lp: &OperationRef<'c, 'a>,
    async_load: &AsyncLoad<'c, 'a>,
    insert: Value<'c, 'a>,
    extract: Value<'c, 'a>,
    schedule: &mut Schedule,
) -> PassResult {
    let load = async_load.load;
    let alloc = async_load.alloc.unwrap();
    // Upstream makes a zero here that nothing uses.
    let mut outside = Builder::before(*lp);
    outside.location = lp.location();
    outside.constant_i32(0);
    let first = first_use(&load, lp, schedule).ok_or_else(|| fail(&load, "a pipelined load without users"))?;
    let operands = load_operands(&load).unwrap();
    let mut builder = Builder::before(load);
    builder.set_stage_cluster(schedule.get(&load));
    let view = buffer_view(&mut builder, alloc, insert)?;
    let context_ref = load.context();
    let context = unsafe { context_ref.to_ref() };
    let token = async_token(context);
    let mut copy_operands = vec![operands.pointer, view];
    copy_operands.extend(operands.mask);
    copy_operands.extend(operands.other);
    let sizes = [1, 1, operands.mask.is_some() as i32, operands.other.is_some() as i32];
    let mut attributes: Vec<(&str, Attribute)> =
        vec![("operandSegmentSizes", DenseI32ArrayAttribute::new(context, &sizes).into())];
    for name in ["cache", "evict", "isVolatile"] {
        if let Ok(attribute) = load.attribute(name) {
            attributes.push((name, attribute));
        }
    }
    attributes.push(("contiguity", int32(&load, i64::from(async_load.contiguity))));
    let copy = builder.value("ttg.async_copy_global_to_local", &copy_operands, token, &attributes);
    let commit = builder.value("ttg.async_commit_group", &[copy], token, &[]);
    builder.set_stage_cluster(schedule.get(&first));
    let wait = builder.value("ttg.async_wait", &[commit], token, &[("num", int32(&load, 0))]);
    let shared_view = buffer_view(&mut builder, alloc, extract)?;
    let result: Value = load.result_at(0).unwrap().into();
    match operands.other {
        Some(other) if !is_zero_constant(other) => {
            if crate::ssa::has_uses(result) {
                // cp.async fills masked-off elements with zeros: select the
                // load's `other` there.
                let loaded = builder.value("ttg.local_load", &[shared_view, wait], result.r#type(), &[]);
                let mask = operands.mask.ok_or_else(|| fail(&load, "a load with `other` but no mask"))?;
                let selected = builder.select(mask, loaded, other);
                replace_all_uses(result, selected);
            }
        }
        _ => replace_uses_with_local_load(&mut builder, result, shared_view, Some(wait)),
    }
    schedule.absorb(builder.take_scheduled());
    schedule.erase(&load);
    erase(load);
    Ok(())
}

/// Upstream `replaceUsesWithLocalLoad`: `local_alloc`s of `old` with the
/// buffer's layout use the buffer instead; other users get a `local_load`
/// of it.
pub fn replace_uses_with_local_load<'c, 'a>(
    builder: &mut Builder<'c, 'a>,
    old: Value<'c, 'a>,
    buffer: Value<'c, 'a>,
    token: Option<Value<'c, 'a>>,
) {
    let buffer_encoding = MemDesc::of(buffer.r#type()).map(|m| m.encoding);
    let old_uses = uses(old);
    let mut allocs: Vec<OperationRef> = Vec::new();
    for user in old_uses.iter().map(|u| u.owner) {
        if name_of(&user) != "ttg.local_alloc" || allocs.contains(&user) {
            continue;
        }
        let encoding = user.result_at(0).ok().and_then(|r| MemDesc::of(r.r#type())).map(|m| m.encoding);
        if encoding.is_some() && encoding == buffer_encoding {
            replace_uses_and_propagate_type(&user, buffer);
            allocs.push(user);
        }
    }
    let alloc_uses = old_uses.iter().filter(|u| allocs.contains(&u.owner)).count();
    if old_uses.len() > alloc_uses {
        let operands: Vec<Value> = std::iter::once(buffer).chain(token).collect();
        let loaded = builder.value("ttg.local_load", &operands, old.r#type(), &[]);
        replace_all_uses(old, loaded);
    }
    for alloc in allocs {
        erase(alloc);
    }
}

/// Upstream `replaceUsesAndPropagateType`: the users of `old` (a buffer)
/// use `new` instead; buffer views of it take `new`'s mutability, and so
/// do the results of waits it goes through, and so on down chains of views
/// (a reshape then a transpose of a pipelined TMA tile).
fn replace_uses_and_propagate_type<'c, 'a>(old: &OperationRef<'c, 'a>, new: Value<'c, 'a>) {
    for use_ in uses(old.result_at(0).unwrap().into()) {
        crate::ssa::set_operand(&use_.owner, use_.index, new);
    }
    let mutable = MemDesc::of(new.r#type()).is_some_and(|m| m.mutable);
    propagate_mutability(new, mutable);
}

/// Gives the views of `value` (and the waits it passes through), and theirs
/// in turn, the mutability `mutable`.
fn propagate_mutability(value: Value, mutable: bool) {
    for use_ in uses(value) {
        let user = use_.owner;
        let result: Value = if is_memdesc_view(&user) {
            let result = user.result_at(0).unwrap();
            let Some(memdesc) = MemDesc::of(result.r#type()) else { continue };
            if memdesc.mutable != mutable {
                if let Some(ty) = (MemDesc { mutable, ..memdesc }).to_type(user.location()) {
                    set_type(result.into(), ty);
                }
            }
            result.into()
        } else if name_of(&user) == "ttng.warp_group_dot_wait" {
            let result: Value = user.result_at(use_.index).unwrap().into();
            set_type(result, value.r#type());
            result
        } else {
            continue;
        };
        propagate_mutability(result, mutable);
    }
}
