//! `tritoninstrument-concurrency-sanitizer` (ConSan, upstream's
//! `instrumentation_mode="consan"`): instruments a kernel so that, when it
//! runs, races on shared (and tensor) memory between its partitions, the
//! TMA engine and the tensor cores, and deadlocks on mbarriers, stop it with
//! an assert. Runs after shared-memory allocation (it keys buffers by their
//! offsets).
//!
//! Model: "threads" are the partitions of warp_specialize (0 = default)
//! plus, for each, the TMA engine and the tensor cores acting for it
//! (`thread + 16`, `thread + 32`). The state (see `helpers.rs`) records which
//! threads see each buffer's last write and reads, which barriers carry
//! which accesses, the barriers' phases and counts, and the commit groups of
//! cp.async / wgmma / TMA stores still in flight. Every memory op checks the
//! state before it (a read needs the last write visible to its thread; a
//! write also needs all reads visible) and updates it; arrives and commits
//! attach the visible accesses to a barrier, waits hand them to the waiter.
//! Each op's checks and updates form a critical section (a global lock), as
//! partitions run concurrently.
mod helpers;
mod state;
mod text;

use crate::ir::{collect_ops, fail, int_attribute, name_of, Order};
use helpers::{BarrierStep, Helper, NUM_THREADS, TC_THREAD_OFFSET, TMA_THREAD_OFFSET};
use melior::ir::{
    attribute::{BoolAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    BlockLike, Location, Operation, OperationRef, RegionLike, Type, Value, ValueLike,
};
use state::{Aux, CommitKind, Scope, SHARED, TENSOR};
use std::collections::{HashMap, HashSet};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{context_of, create, insert_before};
use tritium_dialects::pass::{PassDefinition, PassFailed, PassOptions, PassResult};
use tritium_dialects::types::MemDesc;

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritoninstrument-concurrency-sanitizer",
    description: "Instrument shared/tensor memory accesses and mbarriers to detect races and deadlocks at run time",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let kernels: Vec<OperationRef> = crate::ir::module_functions(module)
        .into_iter()
        .filter(|f| f.attribute("sym_visibility").map_or(true, |v| v.to_string() == "\"public\""))
        .collect();
    let [entry] = kernels[..] else {
        return Err(fail(&module, "the concurrency sanitizer needs exactly one public function (the kernel)"));
    };
    let num_warps = int_attribute(&module, "ttg.num-warps").unwrap_or(4);
    let num_ctas = int_attribute(&module, "ttg.num-ctas").unwrap_or(1);
    let ops = collect_ops(module, Order::Post);
    let tracked = state::find_tracked(module)?;
    let has = |names: &[&str]| ops.iter().any(|op| names.contains(&name_of(op).as_str()));
    let mut commit_kinds = Vec::new();
    if has(&["ttg.async_copy_global_to_local", "ttg.async_commit_group", "ttg.async_wait"]) {
        commit_kinds.push(CommitKind::AsyncCopy);
    }
    if has(&["ttng.warp_group_dot", "ttng.warp_group_dot_wait"]) {
        commit_kinds.push(CommitKind::Wgmma);
    }
    if has(&["ttng.async_tma_copy_local_to_global", "ttng.async_tma_store_wait"]) {
        commit_kinds.push(CommitKind::TmaStore);
    }
    let kernel = state::create_kernel_state(entry, &tracked, &commit_kinds, num_warps, num_ctas)?;
    let mut scopes = HashMap::new();
    for ws in ops.iter().filter(|op| name_of(op) == "ttg.warp_specialize") {
        state::pass_to_partitions(*ws, &kernel, &tracked, num_ctas, &mut scopes)?;
    }
    scopes.insert(state::region_key(&entry.region(0).unwrap()), kernel);
    let mut sanitizer = Sanitizer { module, scopes, functions: HashSet::new(), num_ctas };
    for op in ops {
        sanitizer.instrument(op)?;
    }
    Ok(())
}

struct Sanitizer<'c, 'a> {
    module: OperationRef<'c, 'a>,
    /// The state by region (the kernel's body, each partition).
    scopes: HashMap<usize, Scope<'c, 'a>>,
    /// Helpers already in the module.
    functions: HashSet<String>,
    num_ctas: i64,
}

/// Where an op's instrumentation goes (before `anchor`), and what it
/// inserted, to wrap in the lock.
struct Site<'c, 'a> {
    anchor: OperationRef<'c, 'a>,
    location: Location<'c>,
    inserted: Vec<OperationRef<'c, 'a>>,
}

impl<'c, 'a> Site<'c, 'a> {
    fn insert(&mut self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        let op = insert_before(&self.anchor, op);
        self.inserted.push(op);
        op
    }

    fn value(&mut self, op: Operation<'c>) -> Value<'c, 'a> {
        self.insert(op).result(0).unwrap().into()
    }

    fn int(&mut self, value: i64, bits: u32) -> Value<'c, 'a> {
        let context = context_of(self.location);
        let ty: Type = IntegerType::new(context, bits).into();
        // `IntegerAttr` of i64 takes the bits; wider masks wrap as upstream's.
        let attribute = IntegerAttribute::new(ty, value).into();
        self.value(create("arith.constant", self.location, &[], &[ty], &[("value", attribute)]))
    }

    fn address(&mut self, memdesc: Value<'c, 'a>) -> Value<'c, 'a> {
        let i64: Type = IntegerType::new(context_of(self.location), 64).into();
        self.value(create("tti.experimental_memdesc_to_i64", self.location, &[memdesc], &[i64], &[]))
    }
}

/// A read or write of a buffer by an op.
#[derive(Clone, Copy, PartialEq)]
enum Access {
    Read,
    Write,
}

/// How an op's accesses complete: through barriers it arrives on, or
/// through commit groups waited for by count.
#[derive(Clone, Copy, PartialEq)]
enum Tracking {
    None,
    Barrier,
    Commits(CommitKind),
}

/// What an op does to memory, for the sanitizer.
struct Effects<'c, 'a> {
    tracking: Tracking,
    /// Whether the op itself closes a commit group (wgmma, TMA store).
    implicit_commit: bool,
    pred: Option<Value<'c, 'a>>,
    /// Barriers the op arrives on: barrier, its own predicate, count.
    barriers: Vec<(Value<'c, 'a>, Option<Value<'c, 'a>>, i64)>,
    accesses: Vec<(Access, Value<'c, 'a>, &'static str)>,
}

impl<'c, 'a> Effects<'c, 'a> {
    fn new(tracking: Tracking) -> Self {
        Effects { tracking, implicit_commit: false, pred: None, barriers: Vec::new(), accesses: Vec::new() }
    }
}

fn operand<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> Value<'c, 'a> {
    op.operand(index).expect("operand in range")
}

fn last_operand<'c, 'a>(op: &OperationRef<'c, 'a>, back: usize) -> Value<'c, 'a> {
    operand(op, op.operand_count() - 1 - back)
}

/// Operand group `group` of an op with `operandSegmentSizes`.
fn segment<'c, 'a>(op: &OperationRef<'c, 'a>, group: usize) -> Vec<Value<'c, 'a>> {
    let sizes = crate::ir::dense_i32_attribute(op, "operandSegmentSizes").unwrap_or_default();
    let start: i32 = sizes.iter().take(group).sum();
    let size = sizes.get(group).copied().unwrap_or(0);
    (start..start + size).map(|i| operand(op, i as usize)).collect()
}

/// The optional trailing operand of an op with one optional operand
/// after `fixed` operands.
fn optional<'c, 'a>(op: &OperationRef<'c, 'a>, fixed: usize) -> Option<Value<'c, 'a>> {
    (op.operand_count() > fixed).then(|| operand(op, fixed))
}

fn effects_of<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Effects<'c, 'a>> {
    use Access::*;
    let mut e;
    match name_of(op).as_str() {
        "ttng.async_tma_copy_global_to_local" | "ttng.async_tma_gather" => {
            e = Effects::new(Tracking::Barrier);
            e.pred = Some(last_operand(op, 0));
            e.barriers.push((last_operand(op, 2), None, 1));
            e.accesses.push((Write, last_operand(op, 1), ""));
        }
        "ttng.async_tma_copy_local_to_global" => {
            e = Effects::new(Tracking::Commits(CommitKind::TmaStore));
            e.implicit_commit = true;
            e.accesses.push((Read, last_operand(op, 0), ""));
        }
        "ttng.async_tma_scatter" => {
            e = Effects::new(Tracking::None);
            e.accesses.push((Read, last_operand(op, 0), ""));
        }
        "ttg.async_copy_global_to_local" => {
            e = Effects::new(Tracking::Commits(CommitKind::AsyncCopy));
            e.accesses.push((Write, operand(op, 1), ""));
        }
        "ttg.local_load" | "ttng.tmem_load" => {
            e = Effects::new(Tracking::Barrier);
            e.accesses.push((Read, operand(op, 0), ""));
        }
        "ttg.local_store" => {
            e = Effects::new(Tracking::Barrier);
            e.accesses.push((Write, operand(op, 1), ""));
        }
        "ttng.tmem_store" => {
            e = Effects::new(Tracking::Barrier);
            e.accesses.push((Write, operand(op, 0), ""));
        }
        "ttg.local_alloc" | "ttng.tmem_alloc" if op.operand_count() > 0 => {
            e = Effects::new(Tracking::Barrier);
            e.accesses.push((Write, op.result(0).unwrap().into(), ""));
        }
        "ttng.tc_gen5_mma" => {
            e = Effects::new(Tracking::Barrier);
            e.pred = segment(op, 5).first().copied();
            for (barrier, pred) in segment(op, 6).into_iter().zip(segment(op, 7)) {
                e.barriers.push((barrier, Some(pred), 1));
            }
            e.accesses.push((Read, operand(op, 0), "A"));
            e.accesses.push((Read, operand(op, 1), "B"));
            e.accesses.push((Write, operand(op, 2), "Acc"));
        }
        "ttng.tc_gen5_commit" => {
            e = Effects::new(Tracking::Barrier);
            e.pred = optional(op, 1);
            e.barriers.push((operand(op, 0), None, 1));
        }
        "ttng.arrive_barrier" => {
            e = Effects::new(Tracking::Barrier);
            e.pred = optional(op, 1);
            e.barriers.push((operand(op, 0), None, int_attribute(op, "count").unwrap_or(1)));
        }
        "ttng.warp_group_dot" if op.attribute("isAsync").is_ok_and(|a| a.to_string() == "true") => {
            e = Effects::new(Tracking::Commits(CommitKind::Wgmma));
            e.implicit_commit = true;
            for (index, name) in [(0, "A"), (1, "B")] {
                let value = operand(op, index);
                if memory_of(value) == Some(SHARED) {
                    e.accesses.push((Read, value, name));
                }
            }
        }
        _ => return None,
    }
    Some(e)
}

/// Shared or tensor memory, for a memdesc.
fn memory_of(value: Value) -> Option<usize> {
    let desc = MemDesc::of(value.r#type())?;
    Some(if desc.memory_space.to_string().contains("tensor_memory") { TENSOR } else { SHARED })
}

/// The partition `op` runs in (0 = default or outside warp_specialize).
fn partition_of(op: &OperationRef) -> i64 {
    let mut current = *op;
    while let Some(parent) = current.parent_operation() {
        if name_of(&parent) == "ttg.warp_specialize.partitions" {
            let region = current.block().and_then(|b| b.parent_region()).map(|r| state::region_key(&r));
            let index = (0..parent.region_count())
                .position(|i| parent.region_at(i).ok().map(|r| state::region_key(&r)) == region);
            return index.map_or(0, |i| i as i64 + 1);
        }
        current = parent;
    }
    0
}

/// The sanitizer's thread of `op`: its partition, or the engine acting
/// for it.
fn thread_of(op: &OperationRef) -> i64 {
    let thread = partition_of(op);
    match name_of(op).as_str() {
        "ttng.async_tma_copy_global_to_local"
        | "ttng.async_tma_copy_local_to_global"
        | "ttng.async_tma_gather"
        | "ttng.async_tma_scatter" => thread + TMA_THREAD_OFFSET,
        "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled" | "ttng.tc_gen5_commit" => thread + TC_THREAD_OFFSET,
        _ => thread,
    }
}

/// A thread and, for a partition, the engines acting for it.
fn peers(thread: i64) -> i64 {
    let mut mask = 1i64 << thread;
    if thread < NUM_THREADS {
        mask |= 1 << (thread + TMA_THREAD_OFFSET);
        mask |= 1 << (thread + TC_THREAD_OFFSET);
    }
    mask
}

/// The partitions running beside `op` (bit per partition, default = bit 0).
fn active_mask(op: &OperationRef) -> i64 {
    let mut current = *op;
    while let Some(parent) = current.parent_operation() {
        if name_of(&parent) == "ttg.warp_specialize" {
            return (1i64 << (state::partitions(&parent).len() + 1)) - 1;
        }
        current = parent;
    }
    1
}

impl<'c, 'a> Sanitizer<'c, 'a> {
    /// The state of the region `op` runs in: its partition's, or the
    /// kernel's (the default region of warp_specialize runs in the kernel's
    /// warps).
    fn scope(&self, op: &OperationRef<'c, 'a>) -> Scope<'c, 'a> {
        let mut current = *op;
        while let (Some(block), Some(parent)) = (current.block(), current.parent_operation()) {
            let name = name_of(&parent);
            if name == "tt.func" || name == "ttg.warp_specialize.partitions" {
                let key = block.parent_region().map(|r| state::region_key(&r)).unwrap_or(0);
                if let Some(scope) = self.scopes.get(&key) {
                    return scope.clone();
                }
            }
            current = parent;
        }
        Scope::default()
    }

    fn site(&self, op: &OperationRef<'c, 'a>, after: bool) -> Site<'c, 'a> {
        let anchor = if after { op.next_in_block().unwrap_or(*op) } else { *op };
        Site { anchor, location: op.location(), inserted: Vec::new() }
    }

    /// Wraps what `site` inserted in the lock.
    fn lock(&self, site: &Site<'c, 'a>, scope: &Scope<'c, 'a>, pred: Option<Value<'c, 'a>>) {
        let (Some(first), Some(lock)) = (site.inserted.first(), &scope.lock) else { return };
        let mut operands = vec![lock.value];
        operands.extend(pred);
        insert_before(first, create("tti.experimental_lock_acquire", site.location, &operands, &[], &[]));
        insert_before(&site.anchor, create("tti.experimental_lock_release", site.location, &operands, &[], &[]));
    }

    fn instrument(&mut self, op: OperationRef<'c, 'a>) -> Result<(), PassFailed> {
        let name = name_of(&op);
        let thread = thread_of(&op);
        let base_thread = thread % NUM_THREADS;
        let scope = self.scope(&op);
        let after = matches!(name.as_str(), "ttg.local_alloc" | "ttng.tmem_alloc" | "ttng.wait_barrier");
        let mut site = self.site(&op, after);
        if let Some(effects) = effects_of(&op) {
            self.instrument_effects(&mut site, &scope, effects, thread)?;
        }
        match name.as_str() {
            "ttg.warp_specialize" => {
                let count = state::partitions(&op).len() as i64;
                let destinations = (1..=count).fold(0, |mask, p| mask | peers(p));
                if count > 0 {
                    for memory in [SHARED, TENSOR] {
                        if let Some(writes) = &scope.write_visibility[memory] {
                            let helper = helpers::copy_write_visibility(&writes.ty, memory as i64);
                            let pred = site.int(1, 1);
                            let (source, mask) = (site.int(thread, 32), site.int(destinations, 64));
                            self.call(&mut site, &scope, helper, &[source, mask, pred, writes.value], &[])?;
                        }
                        if let Some(reads) = &scope.read_visibility[memory] {
                            let helper = helpers::copy_read_visibility(&reads.ty, memory as i64, destinations as u64);
                            let pred = site.int(1, 1);
                            let (source, mask) = (site.int(thread, 32), site.int(destinations, 64));
                            self.call(&mut site, &scope, helper, &[source, mask, pred, reads.value], &[])?;
                        }
                    }
                }
            }
            "ttng.init_barrier" => {
                if let (Some(barriers), Some(states)) = (&scope.barriers, &scope.barrier_states) {
                    let count = site.int(int_attribute(&op, "count").unwrap_or(1), 32);
                    let barrier = site.address(operand(&op, 0));
                    let helper = helpers::init_barrier_state(&barriers.ty, &states.ty);
                    self.call(&mut site, &scope, helper, &[barrier, count, barriers.value, states.value], &[])?;
                }
            }
            "ttng.wait_barrier" => self.instrument_wait(&op, &mut site, &scope, thread)?,
            "ttg.async_commit_group" => {
                if let Some(commits) = &scope.commits[CommitKind::AsyncCopy as usize] {
                    self.commit(&mut site, &scope, thread, None, commits)?;
                }
            }
            "ttg.async_wait" => {
                let pending = int_attribute(&op, "num").unwrap_or(0);
                self.clear_commits(&mut site, &scope, base_thread, thread, pending, CommitKind::AsyncCopy, true)?;
            }
            "ttng.warp_group_dot_wait" | "ttng.async_tma_store_wait" => {
                let pending = int_attribute(&op, "pendings").unwrap_or(0);
                let kind = if name == "ttng.warp_group_dot_wait" { CommitKind::Wgmma } else { CommitKind::TmaStore };
                self.clear_commits(&mut site, &scope, base_thread, thread, pending, kind, false)?;
            }
            _ => {}
        }
        self.lock(&site, &scope, None);
        Ok(())
    }

    /// Before a wait: mark this thread waiting, and fail if every active
    /// thread now waits. After it: the barrier's tracked accesses become
    /// visible to this thread.
    fn instrument_wait(
        &mut self,
        op: &OperationRef<'c, 'a>,
        site: &mut Site<'c, 'a>,
        scope: &Scope<'c, 'a>,
        thread: i64,
    ) -> Result<(), PassFailed> {
        let base_thread = thread % NUM_THREADS;
        let pred = segment(op, 2).first().copied();
        let barrier = operand(op, 0);
        let (Some(barriers), Some(states)) = (&scope.barriers, &scope.barrier_states) else { return Ok(()) };
        if let Some(waiting) = &scope.waiting {
            let mut before = self.site(op, false);
            let p = pred.unwrap_or_else(|| before.int(1, 1));
            let t = before.int(base_thread, 32);
            let address = before.address(barrier);
            let helper = helpers::set_waiting(&barriers.ty, &waiting.ty);
            self.call(
                &mut before,
                scope,
                helper,
                &[address, t, operand(op, 1), p, barriers.value, waiting.value],
                &[],
            )?;
            let p = pred.unwrap_or_else(|| before.int(1, 1));
            let active = before.int(helpers::waiting_flags(active_mask(op)), 32);
            let helper = helpers::check_all_active_waiting(&waiting.ty, &states.ty);
            let message = "Deadlock detected: all active threads are waiting on mbarriers";
            self.call(&mut before, scope, helper, &[active, p, waiting.value, states.value], &[message])?;
            self.lock(&before, scope, pred);
        }
        for memory in [SHARED, TENSOR] {
            for (visibility, tracking, writes) in scope.tracked_visibility(memory) {
                let p = pred.unwrap_or_else(|| site.int(1, 1));
                let mask = site.int(peers(thread), 64);
                let address = site.address(barrier);
                let helper = helpers::barrier_visibility(
                    BarrierStep::Transfer,
                    writes,
                    &barriers.ty,
                    &visibility.ty,
                    &tracking.ty,
                    memory as i64,
                );
                self.call(
                    site,
                    scope,
                    helper,
                    &[address, p, mask, barriers.value, visibility.value, tracking.value],
                    &[],
                )?;
            }
        }
        if let Some(waiting) = &scope.waiting {
            let p = pred.unwrap_or_else(|| site.int(1, 1));
            let t = site.int(base_thread, 32);
            let address = site.address(barrier);
            let helper = helpers::clear_waiting(&barriers.ty, &waiting.ty);
            self.call(site, scope, helper, &[address, t, p, barriers.value, waiting.value], &[])?;
        }
        Ok(())
    }

    fn instrument_effects(
        &mut self,
        site: &mut Site<'c, 'a>,
        scope: &Scope<'c, 'a>,
        effects: Effects<'c, 'a>,
        thread: i64,
    ) -> Result<(), PassFailed> {
        let base_thread = thread % NUM_THREADS;
        let pred = effects.pred;
        let has_barriers = scope.barriers.is_some();
        for (access, buffer, operand_name) in &effects.accesses {
            let Some(memory) = memory_of(*buffer) else { continue };
            let Some(buffers) = scope.buffers[memory].clone() else { continue };
            self.check_visibility(site, scope, *buffer, pred, memory, thread, operand_name, true)?;
            if *access == Access::Write {
                self.check_visibility(site, scope, *buffer, pred, memory, thread, operand_name, false)?;
            }
            if effects.tracking == Tracking::Barrier && has_barriers {
                let m = memory as i64;
                let (Some(writes), Some(reads)) = (&scope.write_visibility[memory], &scope.read_visibility[memory])
                else {
                    continue;
                };
                let p = pred.unwrap_or_else(|| site.int(1, 1));
                let mask = site.int(peers(thread), 64);
                let address = site.address(*buffer);
                let (helper, visibility) = match access {
                    Access::Read => (helpers::set_read_visibility(&buffers.ty, &reads.ty, m), reads),
                    Access::Write => (helpers::set_write_visibility(&buffers.ty, &writes.ty, m), writes),
                };
                self.call(site, scope, helper, &[address, p, mask, buffers.value, visibility.value], &[])?;
                if *access == Access::Write {
                    let cleared = [
                        ("clear_write_tracking", &scope.write_tracking[memory]),
                        ("clear_read_visibility", &scope.read_visibility[memory]),
                        ("clear_read_tracking", &scope.read_tracking[memory]),
                    ];
                    for (base, state) in cleared {
                        let Some(state) = state else { continue };
                        let p = pred.unwrap_or_else(|| site.int(1, 1));
                        let address = site.address(*buffer);
                        let helper = helpers::clear_rows(base, &buffers.ty, &state.ty, m);
                        self.call(site, scope, helper, &[address, p, buffers.value, state.value], &[])?;
                    }
                }
            }
            if let Tracking::Commits(kind) = effects.tracking {
                if let Some(commits) = &scope.commits[kind as usize] {
                    let p = pred.unwrap_or_else(|| site.int(1, 1));
                    let t = site.int(base_thread, 32);
                    let address = site.address(*buffer);
                    let helper = helpers::stage_access_for_commit(&buffers.ty, &commits.ty);
                    self.call(site, scope, helper, &[address, p, t, buffers.value, commits.value], &[])?;
                }
            }
        }
        for (barrier, barrier_pred, count) in &effects.barriers {
            let combined = match (barrier_pred, pred) {
                (Some(a), Some(b)) => {
                    let i1: Type = IntegerType::new(context_of(site.location), 1).into();
                    Some(site.value(create("arith.andi", site.location, &[*a, b], &[i1], &[])))
                }
                (a, b) => a.or(b),
            };
            let Some(barriers) = scope.barriers.clone() else { continue };
            for memory in [SHARED, TENSOR] {
                for (visibility, tracking, writes) in scope.tracked_visibility(memory) {
                    let p = combined.unwrap_or_else(|| site.int(1, 1));
                    let t = site.int(thread, 32);
                    let address = site.address(*barrier);
                    let helper = helpers::barrier_visibility(
                        BarrierStep::Track,
                        writes,
                        &barriers.ty,
                        &visibility.ty,
                        &tracking.ty,
                        memory as i64,
                    );
                    self.call(
                        site,
                        scope,
                        helper,
                        &[address, p, t, barriers.value, visibility.value, tracking.value],
                        &[],
                    )?;
                }
            }
            if let Some(states) = &scope.barrier_states {
                if *count > 0 {
                    let message = "Barrier arrive underflow: current count would become negative";
                    for verify in [true, false] {
                        let p = combined.unwrap_or_else(|| site.int(1, 1));
                        let c = site.int(*count, 32);
                        let address = site.address(*barrier);
                        let (helper, messages) = if verify {
                            (helpers::verify_barrier_arrive(&barriers.ty, &states.ty), vec![message])
                        } else {
                            (helpers::update_barrier_state(&barriers.ty, &states.ty), vec![])
                        };
                        self.call(site, scope, helper, &[address, c, p, barriers.value, states.value], &messages)?;
                    }
                }
            }
        }
        if effects.implicit_commit {
            if let Tracking::Commits(kind) = effects.tracking {
                if let Some(commits) = &scope.commits[kind as usize] {
                    self.commit(site, scope, base_thread, pred, commits)?;
                }
            }
        }
        Ok(())
    }

    /// Before an access: the buffer's last write must be visible to
    /// `thread`, and no cp.async into it may be in flight (`writes`). Before
    /// a write, also: every read of the buffer must be visible to `thread`,
    /// and no wgmma or TMA store may still read it (not `writes`).
    #[allow(clippy::too_many_arguments)]
    fn check_visibility(
        &mut self,
        site: &mut Site<'c, 'a>,
        scope: &Scope<'c, 'a>,
        buffer: Value<'c, 'a>,
        pred: Option<Value<'c, 'a>>,
        memory: usize,
        thread: i64,
        operand_name: &str,
        writes: bool,
    ) -> Result<(), PassFailed> {
        let Some(buffers) = &scope.buffers[memory] else { return Ok(()) };
        let visibility = if writes { &scope.write_visibility[memory] } else { &scope.read_visibility[memory] };
        if let Some(visibility) = visibility {
            let p = pred.unwrap_or_else(|| site.int(1, 1));
            let t = site.int(thread, 32);
            let address = site.address(buffer);
            let (mut message, operand_separator) = if writes {
                ("Buffer being accessed has outstanding writes.".to_string(), " ")
            } else {
                ("Buffer being accessed has outstanding reads".to_string(), ". ")
            };
            if !operand_name.is_empty() {
                message += &format!("{operand_separator}Operand: {operand_name}");
            }
            let helper = if writes {
                helpers::verify_write_visibility(&buffers.ty, &visibility.ty, memory as i64)
            } else {
                helpers::verify_read_visibility(&buffers.ty, &visibility.ty, memory as i64)
            };
            self.call(site, scope, helper, &[address, p, t, buffers.value, visibility.value], &[&message])?;
        }
        if memory == SHARED {
            let pending: &[_] = if writes {
                &[(CommitKind::AsyncCopy, "async_copy_global_to_shared")]
            } else {
                &[
                    (CommitKind::Wgmma, "warpgroup_mma operand read"),
                    (CommitKind::TmaStore, "async_copy_shared_to_global"),
                ]
            };
            for &(kind, access) in pending {
                self.check_commits(site, scope, buffer, pred, thread, kind, access)?;
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn check_commits(
        &mut self,
        site: &mut Site<'c, 'a>,
        scope: &Scope<'c, 'a>,
        buffer: Value<'c, 'a>,
        pred: Option<Value<'c, 'a>>,
        thread: i64,
        kind: CommitKind,
        pending: &str,
    ) -> Result<(), PassFailed> {
        let (Some(buffers), Some(commits)) = (&scope.buffers[SHARED], &scope.commits[kind as usize]) else {
            return Ok(());
        };
        let base_thread = thread % NUM_THREADS;
        let address = site.address(buffer);
        let p = pred.unwrap_or_else(|| site.int(1, 1));
        let t = site.int(base_thread, 32);
        let message = format!("Accessing buffer with pending access. Pending access type: {pending}");
        let helper = helpers::check_outstanding_commits(&buffers.ty, &commits.ty, base_thread);
        self.call(site, scope, helper, &[address, p, t, buffers.value, commits.value], &[&message])
    }

    fn commit(
        &mut self,
        site: &mut Site<'c, 'a>,
        scope: &Scope<'c, 'a>,
        thread: i64,
        pred: Option<Value<'c, 'a>>,
        commits: &Aux<'c, 'a>,
    ) -> Result<(), PassFailed> {
        let p = pred.unwrap_or_else(|| site.int(1, 1));
        let t = site.int(thread, 32);
        let helper = helpers::commit_accesses(&commits.ty);
        self.call(site, scope, helper, &[t, p, commits.value], &[])
    }

    /// A wait for commit groups: what the completed groups wrote
    /// (`writes`) or read becomes visible to the waiting thread.
    #[allow(clippy::too_many_arguments)]
    fn clear_commits(
        &mut self,
        site: &mut Site<'c, 'a>,
        scope: &Scope<'c, 'a>,
        base_thread: i64,
        thread: i64,
        pending: i64,
        kind: CommitKind,
        writes: bool,
    ) -> Result<(), PassFailed> {
        let visibility = if writes { &scope.write_visibility[SHARED] } else { &scope.read_visibility[SHARED] };
        let (Some(commits), Some(visibility)) = (&scope.commits[kind as usize], visibility) else { return Ok(()) };
        let p = site.int(1, 1);
        let t = site.int(base_thread, 32);
        let mask = site.int(peers(thread), 64);
        let n = site.int(pending, 32);
        let helper = helpers::clear_outstanding_commits(&commits.ty, &visibility.ty, writes);
        self.call(site, scope, helper, &[t, mask, n, p, commits.value, visibility.value], &[])
    }

    /// Calls `helper` (creating it on first use) with `arguments`; a helper
    /// that checks gets its result asserted with `messages[0]`.
    fn call(
        &mut self,
        site: &mut Site<'c, 'a>,
        scope: &Scope<'c, 'a>,
        helper: Helper,
        arguments: &[Value<'c, 'a>],
        messages: &[&str],
    ) -> Result<(), PassFailed> {
        let name = helper.mangled_name(scope.num_warps);
        if self.functions.insert(name.clone()) {
            self.define(&helper, &name, scope.num_warps)?;
        }
        let context = context_of(site.location);
        let results: Vec<Type> = match &helper.assert {
            Some(ty) => vec![Type::parse(context, &ty.to_string()).expect("a type the sanitizer made")],
            None => Vec::new(),
        };
        let callee = FlatSymbolRefAttribute::new(context, &name).into();
        let call = site.insert(create("tt.call", site.location, arguments, &results, &[("callee", callee)]));
        if let (Some(_), Some(message)) = (&helper.assert, messages.first()) {
            let result: Value = call.result(0).unwrap().into();
            site.insert(create(
                "tti.experimental_assert_in_thread",
                site.location,
                &[result],
                &[],
                &[
                    ("message", StringAttribute::new(context, message).into()),
                    ("check_any", BoolAttribute::new(context, false).into()),
                ],
            ));
        }
        Ok(())
    }

    /// Adds the helper's function at the start of the module.
    fn define(&self, helper: &Helper, name: &str, num_warps: i64) -> PassResult {
        let text = text::module_text(num_warps, self.num_ctas, &helper.function_text(name, num_warps));
        let context = context_of(self.module.location());
        let parsed = tritium_dialects::io::parse_text(context, &text).ok_or_else(|| {
            // A bug here: CONSAN_DEBUG=1 shows the text the parser refused.
            if std::env::var_os("CONSAN_DEBUG").is_some() {
                eprintln!("{text}");
            }
            fail(&self.module, format!("internal error: the concurrency sanitizer's helper {name} does not parse"))
        })?;
        let function = parsed.body().first_operation().expect("the parsed helper");
        let copy = tritium_dialects::ir::clone_op(&function);
        let body = self.module.region(0).unwrap().first_block().unwrap();
        match body.first_operation() {
            Some(first) => {
                insert_before(&first, copy);
            }
            None => {
                body.append_operation(copy);
            }
        }
        Ok(())
    }
}
