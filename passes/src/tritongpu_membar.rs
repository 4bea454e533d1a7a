//! `tritongpu-membar`: inserts `ttg.local_barrier` where threads could race
//! on shared memory (upstream's membar analysis, run by its lowering): before
//! an op that writes bytes other threads may still read or write, or reads
//! bytes other threads may have written, since the last barrier. Needs
//! `allocation.offset` (allocate-shared-memory-nv) to know the bytes.
//!
//! Accesses: ttg.local_alloc with a value and ttg.local_store write their
//! buffer; ttg.local_load and warp_group_dot read theirs; async copies write
//! theirs, and, as upstream, every ttg.async_wait is followed by a barrier;
//! the ttng mbarrier and TMA ops access their mbarriers and buffers as
//! upstream's ops declare (see `accesses`);
//! ops with scratch write and then read it (their own internal barrier is
//! the lowering's, and, as upstream, one of the whole CTA, i.e. all but
//! warp-synchronous conversions and atomics that share no old values, also
//! orders the accesses before the op).
//! Loops are iterated to a fixed point; both branches of an scf.if are
//! followed; so are `cf` branches between the blocks of a function or of a
//! warp-specialized default region. A call accesses what its callee leaves
//! pending (callees are walked first). A memdesc_index with a constant
//! index covers its slice only; other views cover their whole buffer. A
//! warp-specialized partition's argument is its capture and a loop's
//! argument any value it takes (upstream's shared-memory alias analysis).
use crate::{
    analysis::scratch::{element_bytes, enclosing_capability, scratch_bytes, scratch_synchronizes_cta},
    ir::{collect_ops, fail, int_attribute, name_of, Order},
};
use melior::ir::{
    operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, RegionRef, Value, ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{incoming_values, value_key, Key};
use tritium_dialects::views::MemDescIndexOp;
use tritium_dialects::{
    pass::{PassDefinition, PassFailed, PassOptions, PassResult},
    types::MemDesc,
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-membar",
    description: "Insert ttg.local_barrier between conflicting shared-memory accesses (needs allocation.offset)",
    anchor: "builtin.module",
    options: &[],
    run,
};

type Interval = (usize, usize);

/// The ops whose order among threads upstream's membar does not always
/// enforce (`NVIDIA::canSkipBarSync`): mbarrier operations and TMA loads,
/// which synchronise through the mbarrier itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    InitBarrier,
    InvalBarrier,
    WaitBarrier,
    BarrierExpect,
    /// `async_tma_copy_global_to_local`, `async_tma_gather`.
    TmaLoad,
    Other,
}

impl Kind {
    fn of(name: &str) -> Kind {
        match name {
            "ttng.init_barrier" => Kind::InitBarrier,
            "ttng.inval_barrier" => Kind::InvalBarrier,
            "ttng.wait_barrier" => Kind::WaitBarrier,
            "ttng.barrier_expect" => Kind::BarrierExpect,
            "ttng.async_tma_copy_global_to_local" | "ttng.async_tma_gather" => Kind::TmaLoad,
            _ => Kind::Other,
        }
    }
}

/// Whether an access by `after` that overlaps one by `before` needs no
/// barrier between them, as upstream decides: several inits (or invals) of
/// mbarriers may run in any order among threads; expects, TMA loads and
/// waits on an mbarrier may too (but not two waits: a warp must not run
/// ahead through a chain of waits); and after a TMA load or a wait, the
/// mbarrier's completion, not a CTA barrier, orders the accesses that follow
/// (except the inval that ends the mbarrier).
fn can_skip_barrier(before: Kind, after: Kind) -> bool {
    use Kind::*;
    match (before, after) {
        (InitBarrier, InitBarrier) | (InvalBarrier, InvalBarrier) => true,
        (WaitBarrier, WaitBarrier) => false,
        (WaitBarrier | TmaLoad | BarrierExpect, WaitBarrier | TmaLoad | BarrierExpect) => true,
        (TmaLoad | WaitBarrier, after) => after != InvalBarrier,
        _ => false,
    }
}

/// Accesses since the last barrier that other threads may not have seen,
/// with the kind of op that made each.
#[derive(Clone, Default, PartialEq)]
pub(crate) struct Pending {
    reads: Vec<(Interval, Kind)>,
    writes: Vec<(Interval, Kind)>,
}

/// Whether an access of `after` to any of `a` overlaps a pending access in
/// `b` that a barrier must separate from it.
fn overlaps(a: &[Interval], after: Kind, b: &[(Interval, Kind)]) -> bool {
    a.iter().any(|x| b.iter().any(|(y, before)| x.0 < y.1 && y.0 < x.1 && !can_skip_barrier(*before, after)))
}

impl Pending {
    fn union(&self, other: &Pending) -> Pending {
        let mut merged = self.clone();
        for r in &other.reads {
            if !merged.reads.contains(r) {
                merged.reads.push(*r);
            }
        }
        for w in &other.writes {
            if !merged.writes.contains(w) {
                merged.writes.push(*w);
            }
        }
        merged
    }

    pub(crate) fn record(&mut self, access: Accesses) {
        for r in access.reads {
            if !self.reads.contains(&(r, access.kind)) {
                self.reads.push((r, access.kind));
            }
        }
        for w in access.writes {
            if !self.writes.contains(&(w, access.kind)) {
                self.writes.push((w, access.kind));
            }
        }
    }

    /// Whether any pending read or write overlaps one of `intervals`.
    pub(crate) fn touches(&self, intervals: &[Interval]) -> bool {
        let mut pending = self.reads.iter().chain(&self.writes);
        pending.any(|(y, _)| intervals.iter().any(|x| x.0 < y.1 && y.0 < x.1))
    }
}

pub(crate) struct Accesses {
    pub(crate) reads: Vec<Interval>,
    pub(crate) writes: Vec<Interval>,
    kind: Kind,
    /// The op's lowering ends with a barrier of the whole CTA (between the
    /// writes and the reads of its scratch), which also orders everything
    /// before it.
    synchronizes: bool,
}

/// Where an analysis wants its synchronising op, relative to the op it
/// looked at.
pub(crate) enum Sync {
    None,
    Before,
    After,
}

/// What one analysis over shared-memory accesses does at each op: the walk
/// over functions, calls, blocks, loops, branches and warp-specialized regions
/// is shared (upstream's MembarOrFenceAnalysis); the rules say what an op
/// leaves pending and where the synchronising op goes. After a synchronising
/// op (one the rules insert, or one already there), nothing is pending.
pub(crate) trait Rules {
    /// The op that synchronises, built at `location`.
    fn sync_op<'c>(&self, location: melior::ir::Location<'c>) -> melior::ir::Operation<'c>;
    /// Updates `state` for `op` (followed by `next`; `callees` says what each
    /// function leaves pending, for calls); says where a synchronising op must
    /// go. A synchronising op before or after `op` clears what was pending at
    /// that point.
    fn step(
        &self,
        op: &OperationRef,
        next: Option<OperationRef>,
        state: &mut Pending,
        callees: &Callees,
    ) -> Result<Sync, PassFailed>;
}

/// The barrier analysis: `ttg.local_barrier` between conflicting accesses.
struct Membar;

impl Rules for Membar {
    fn sync_op<'c>(&self, location: melior::ir::Location<'c>) -> melior::ir::Operation<'c> {
        crate::ir::create("ttg.local_barrier", location, &[], &[], &[])
    }

    fn step(
        &self,
        op: &OperationRef,
        next: Option<OperationRef>,
        state: &mut Pending,
        callees: &Callees,
    ) -> Result<Sync, PassFailed> {
        match name_of(op).as_str() {
            "ttg.local_barrier" | "gpu.barrier" => {
                *state = Pending::default();
                Ok(Sync::None)
            }
            // As upstream: after waiting for asynchronous copies, every thread
            // waits for all the others, so all of them see all the copies.
            "ttg.async_wait" | "ttng.async_tma_store_wait" => {
                *state = Pending::default();
                let next_is_barrier = next.is_some_and(|n| name_of(&n) == "ttg.local_barrier");
                Ok(if next_is_barrier { Sync::None } else { Sync::After })
            }
            _ => {
                let access = accesses(op, callees)?;
                let sync = if conflicts(&access, state) {
                    *state = Pending::default();
                    Sync::Before
                } else {
                    Sync::None
                };
                if access.synchronizes {
                    *state = Pending::default();
                }
                state.record(access);
                Ok(sync)
            }
        }
    }
}

pub(crate) fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    run_analysis(module, &Membar)
}

/// Runs `rules` over every function of `module` (and of its nested modules),
/// callees first (a call stands for what its callee leaves pending),
/// inserting their synchronising ops.
pub(crate) fn run_analysis(module: OperationRef, rules: &dyn Rules) -> PassResult {
    for nested in tritium_dialects::ir::nested_modules(module) {
        run_analysis(nested, rules)?;
    }
    let functions = crate::ir::module_functions(module);
    let mut callees = Callees::new();
    let mut visiting = Vec::new();
    for function in &functions {
        walk_function(*function, &functions, &mut callees, &mut visiting, rules)?;
    }
    Ok(())
}

/// What each function (by symbol name) leaves pending at its returns, in
/// its own offsets (upstream's `funcBlockInfoMap`).
pub(crate) type Callees = HashMap<String, Pending>;

fn symbol_name(op: &OperationRef) -> Option<String> {
    op.attribute("sym_name").ok().map(|name| name.to_string().trim_matches('"').to_string())
}

/// Walks `function` once, after the functions it calls.
fn walk_function<'c, 'a>(
    function: OperationRef<'c, 'a>,
    functions: &[OperationRef<'c, 'a>],
    callees: &mut Callees,
    visiting: &mut Vec<String>,
    rules: &dyn Rules,
) -> PassResult {
    let Some(name) = symbol_name(&function) else { return Ok(()) };
    if callees.contains_key(&name) || visiting.contains(&name) {
        return Ok(());
    }
    visiting.push(name.clone());
    for call in collect_ops(function, Order::Pre).into_iter().filter(|op| name_of(op) == "tt.call") {
        let callee = call.attribute("callee").ok().map(|c| c.to_string().trim_start_matches('@').to_string());
        if let Some(target) = callee.and_then(|c| functions.iter().find(|f| symbol_name(f).as_deref() == Some(&c))) {
            walk_function(*target, functions, callees, visiting, rules)?;
        }
    }
    visiting.pop();
    let leaving = match function.region_at(0) {
        Ok(body) => walk_region(body, Pending::default(), true, callees, rules)?,
        Err(_) => Pending::default(),
    };
    callees.insert(name, leaving);
    Ok(())
}

/// A region's blocks (several when early returns or a warp-specialized
/// default region left `cf` branches): the state entering a block is the
/// union of what its predecessors leave (`entry` for the first), found by
/// iterating to a fixed point; then each block is walked from its state,
/// inserting barriers. Returns what the blocks that leave the region (no
/// successors) leave, joined.
fn walk_region(
    body: RegionRef,
    entry: Pending,
    insert: bool,
    callees: &Callees,
    rules: &dyn Rules,
) -> Result<Pending, PassFailed> {
    let mut blocks = Vec::new();
    let mut block = body.first_block();
    while let Some(b) = block {
        blocks.push(b);
        block = b.next_in_region();
    }
    if blocks.len() <= 1 {
        return match blocks.first() {
            Some(only) => walk_block(only, entry, insert, callees, rules),
            None => Ok(entry),
        };
    }
    let index = |b: &BlockRef| blocks.iter().position(|x| x == b);
    let mut predecessors = vec![Vec::new(); blocks.len()];
    let mut exits = vec![true; blocks.len()];
    for (i, b) in blocks.iter().enumerate() {
        if let Some(terminator) = b.terminator() {
            for successor in terminator.successors() {
                exits[i] = false;
                if let Some(s) = index(&successor) {
                    predecessors[s].push(i);
                }
            }
        }
    }
    let entering = |out: &[Option<Pending>], b: usize| -> Option<Pending> {
        if b == 0 {
            return Some(entry.clone());
        }
        let mut reached = predecessors[b].iter().filter_map(|p| out[*p].as_ref());
        let first = reached.next()?.clone();
        Some(reached.fold(first, |joined, p| joined.union(p)))
    };
    let mut out: Vec<Option<Pending>> = vec![None; blocks.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..blocks.len() {
            let Some(state) = entering(&out, b) else { continue };
            let leaving = Some(walk_block(&blocks[b], state, false, callees, rules)?);
            if leaving != out[b] {
                out[b] = leaving;
                changed = true;
            }
        }
    }
    let mut left: Option<Pending> = None;
    for (b, block) in blocks.iter().enumerate() {
        if let Some(state) = entering(&out, b) {
            let leaving = walk_block(block, state, insert, callees, rules)?;
            if exits[b] {
                left = Some(match left {
                    Some(joined) => joined.union(&leaving),
                    None => leaving,
                });
            }
        }
    }
    Ok(left.unwrap_or_default())
}

/// The bytes a memdesc value covers: its allocation's, narrowed to one
/// slice when it is a memdesc_index with a constant index. `None` when
/// unknown (then the access counts as one to all of shared memory).
pub(crate) fn buffer_of(value: Value) -> Option<Interval> {
    match alias_of(value, &mut Vec::new()) {
        Alias::Known(interval) => Some(interval),
        Alias::Unknown | Alias::Nothing => None,
    }
}

/// What a memdesc value may point to, as upstream's shared-memory alias
/// analysis finds it: through views, the captures of warp-specialized
/// partitions and the iteration arguments of loops.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Alias {
    Known(Interval),
    /// No buffer reaches the value (yet): the join's identity.
    Nothing,
    Unknown,
}

impl Alias {
    /// Both: the smallest interval holding both (a loop argument that
    /// rotates through the slices of one buffer covers the buffer).
    fn join(self, other: Alias) -> Alias {
        match (self, other) {
            (Alias::Unknown, _) | (_, Alias::Unknown) => Alias::Unknown,
            (Alias::Nothing, x) | (x, Alias::Nothing) => x,
            (Alias::Known(a), Alias::Known(b)) => Alias::Known((a.0.min(b.0), a.1.max(b.1))),
        }
    }
}

/// `buffer_of`, with the loop arguments being followed (a loop argument
/// met again is a cycle: it adds nothing to what its other inputs give).
fn alias_of(value: Value, visiting: &mut Vec<Key>) -> Alias {
    let Some(op) = tritium_dialects::ir::defining_op(value) else { return argument_alias(value, visiting) };
    match name_of(&op).as_str() {
        "ttg.local_alloc" => {
            let Some(offset) = int_attribute(&op, "allocation.offset") else { return Alias::Unknown };
            let Some(memdesc) = op.result_at(0).ok().and_then(|r| MemDesc::of(r.r#type())) else {
                return Alias::Unknown;
            };
            let elements: i64 = memdesc.alloc_shape.iter().product();
            let offset = offset as usize;
            Alias::Known((offset, offset + elements as usize * element_bytes(memdesc.element_type)))
        }
        "ttg.memdesc_index" => {
            let Some(index_op) = MemDescIndexOp::of(op) else { return Alias::Unknown };
            let whole = match alias_of(index_op.src(), visiting) {
                Alias::Known(whole) => whole,
                other => return other,
            };
            let Some(memdesc) = op.result_at(0).ok().and_then(|r| MemDesc::of(r.r#type())) else {
                return Alias::Unknown;
            };
            let slice = memdesc.shape.iter().product::<i64>() as usize * element_bytes(memdesc.element_type);
            Alias::Known(match constant_of(index_op.index()) {
                Some(index) => (whole.0 + index as usize * slice, whole.0 + (index as usize + 1) * slice),
                None => whole,
            })
        }
        // Any other op (mostly a memdesc view): the buffer of its first
        // operand, by position since the op may be any.
        _ => op.operand_at(0).map_or(Alias::Unknown, |source| alias_of(source, visiting)),
    }
}

/// What a block argument may point to: any value that flows into it (a
/// partition's capture; a loop argument's initial and yielded values).
/// Arguments of other blocks (cf successors, function arguments): unknown.
fn argument_alias(value: Value, visiting: &mut Vec<Key>) -> Alias {
    let Some(incoming) = incoming_values(value) else { return Alias::Unknown };
    let key = value_key(value);
    if visiting.contains(&key) {
        return Alias::Nothing;
    }
    visiting.push(key);
    let alias = incoming.into_iter().fold(Alias::Nothing, |joined, v| joined.join(alias_of(v, visiting)));
    visiting.pop();
    alias
}

/// The value of an integer defined by arith.constant.
fn constant_of(value: Value) -> Option<i64> {
    let op = tritium_dialects::ir::defining_op(value)?;
    (name_of(&op) == "arith.constant").then(|| int_attribute(&op, "value")).flatten()
}

/// Everything in shared memory, for accesses whose buffer is unknown.
pub(crate) const EVERYTHING: Interval = (0, usize::MAX);

pub(crate) fn accesses(op: &OperationRef, callees: &Callees) -> Result<Accesses, PassFailed> {
    let memdesc_operand = |index: usize| -> Vec<Interval> {
        op.operand_at(index).ok().map(|v| vec![buffer_of(v).unwrap_or(EVERYTHING)]).unwrap_or_default()
    };
    let memdesc_operands = || -> Vec<Interval> {
        (0..op.operand_count())
            .filter(|&i| op.operand_at(i).is_ok_and(|v| MemDesc::of(v.r#type()).is_some()))
            .flat_map(memdesc_operand)
            .collect()
    };
    let name = name_of(op);
    let mut access = Accesses { reads: Vec::new(), writes: Vec::new(), kind: Kind::of(&name), synchronizes: false };
    match name.as_str() {
        "ttg.local_alloc" if op.operand_count() == 1 => {
            let offset = int_attribute(op, "allocation.offset")
                .ok_or_else(|| fail(op, "has no allocation.offset; run allocate-shared-memory-nv first"))?;
            let result = op.result_at(0).unwrap().into();
            access.writes.push(buffer_of(result).unwrap_or((offset as usize, usize::MAX)));
        }
        "ttg.local_store" => access.writes = memdesc_operand(1),
        "ttg.async_copy_global_to_local" => access.writes = memdesc_operand(1),
        "ttg.local_load" => access.reads = memdesc_operand(0),
        // mbarrier objects live in shared memory: upstream's ops declare
        // these effects on them, so a barrier separates, e.g., one thread's
        // mbarrier.init from the other threads' waits, and a wait from the
        // inval that ends the mbarrier's life.
        "ttng.init_barrier" | "ttng.inval_barrier" | "ttng.barrier_expect" | "ttng.async_copy_mbarrier_arrive" => {
            access.writes = memdesc_operand(0)
        }
        "ttng.wait_barrier" => {
            access.reads = memdesc_operand(0);
            access.writes = memdesc_operand(0);
        }
        // Arriving may signal other threads that shared memory is ready: all
        // earlier accesses must be complete first (as upstream).
        "ttng.arrive_barrier" => {
            access.reads = vec![EVERYTHING];
            access.writes = vec![EVERYTHING];
        }
        // TMA loads write their destination and their mbarrier (every memdesc
        // operand); TMA stores read their source, written by other threads.
        "ttng.async_tma_copy_global_to_local" | "ttng.async_tma_gather" => access.writes = memdesc_operands(),
        "ttng.async_tma_copy_local_to_global" | "ttng.async_tma_reduce" | "ttng.async_tma_scatter" => {
            access.reads = memdesc_operands()
        }
        // A call has its callee's pending accesses, at the call's place in
        // the caller's shared memory.
        "tt.call" => {
            let callee = op.attribute("callee").ok().map(|c| c.to_string().trim_start_matches('@').to_string());
            if let Some(pending) = callee.and_then(|c| callees.get(&c)) {
                let base = int_attribute(op, "allocation.offset").unwrap_or(0) as usize;
                let shift = |(start, end): Interval| (start.saturating_add(base), end.saturating_add(base));
                access.reads = pending.reads.iter().map(|(interval, _)| shift(*interval)).collect();
                access.writes = pending.writes.iter().map(|(interval, _)| shift(*interval)).collect();
            }
        }
        "ttng.warp_group_dot" => {
            for i in 0..2 {
                if op.operand_at(i).is_ok_and(|v| MemDesc::of(v.r#type()).is_some()) {
                    access.reads.extend(memdesc_operand(i));
                }
            }
        }
        _ => {
            let size = scratch_bytes(op, enclosing_capability(op));
            if size > 0 {
                let offset = int_attribute(op, "allocation.offset").ok_or_else(|| {
                    fail(op, "needs scratch but has no allocation.offset; run allocate-shared-memory-nv first")
                })? as usize;
                access.writes.push((offset, offset + size));
                access.reads.push((offset, offset + size));
                access.synchronizes = scratch_synchronizes_cta(op);
            }
        }
    }
    Ok(access)
}

/// Whether `access` touches what is pending: a write over a pending read or
/// write, or a read of a pending write.
fn conflicts(access: &Accesses, state: &Pending) -> bool {
    overlaps(&access.writes, access.kind, &state.reads)
        || overlaps(&access.writes, access.kind, &state.writes)
        || overlaps(&access.reads, access.kind, &state.writes)
}

/// Follows `block` from `state`; inserts the synchronising ops of `rules`
/// when `insert`. Returns the state at its end.
fn walk_block(
    block: &BlockRef,
    mut state: Pending,
    insert: bool,
    callees: &Callees,
    rules: &dyn Rules,
) -> Result<Pending, PassFailed> {
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let name = name_of(&op);
        match name.as_str() {
            "scf.for" | "scf.while" => {
                state = walk_loop(&op, state, insert, callees, rules)?;
                continue;
            }
            // Warp specialization: the default region runs on the warps that
            // reach the op, after what they did before it; each partition
            // runs on its own warps, which start after a barrier of all warps
            // (convert-warp-specialize-to-llvm) and meet the others again at
            // the end. A barrier inside a region becomes a named barrier of
            // that region's warps. (Barriers were missing between a
            // partition's shared stores and its TMA store: an epilogue race,
            // wrong results on the H100.)
            "ttg.warp_specialize" => {
                // Only whether to synchronise before it: the regions start
                // from the state the op found.
                if let Sync::Before = rules.step(&op, next, &mut state.clone(), callees)? {
                    if insert {
                        block.insert_operation_before(op, rules.sync_op(op.location()));
                    }
                }
                let holder = op.region_at(1).ok().and_then(|r| r.first_block());
                if let Some(partitions) = holder.and_then(|b| b.first_operation()) {
                    for region in partitions.regions() {
                        walk_region(region, Pending::default(), insert, callees, rules)?;
                    }
                }
                // What follows runs on the default region's warps, after
                // what that region left (as upstream, which sees the op as
                // branching into its default region and back).
                if let Ok(default) = op.region_at(0) {
                    state = walk_region(default, state, insert, callees, rules)?;
                }
                continue;
            }
            // What follows sees what either branch left; an absent else
            // leaves the state as it came in. (Joining the incoming state
            // too would keep accesses both branches had fenced off.)
            "scf.if" => {
                let mut joined: Option<Pending> = None;
                for region in op.regions() {
                    let left = match region.first_block() {
                        Some(body) => walk_block(&body, state.clone(), insert, callees, rules)?,
                        None => state.clone(),
                    };
                    joined = Some(match joined {
                        Some(joined) => joined.union(&left),
                        None => left,
                    });
                }
                state = joined.unwrap_or(state);
                continue;
            }
            _ => {}
        }
        match rules.step(&op, next, &mut state, callees)? {
            Sync::Before if insert => {
                block.insert_operation_before(op, rules.sync_op(op.location()));
            }
            Sync::After if insert => {
                block.insert_operation_after(op, rules.sync_op(op.location()));
            }
            _ => {}
        }
    }
    Ok(state)
}

/// A loop's regions run any number of times: find the state at the top of
/// an iteration (what comes in, joined with what one iteration leaves), then
/// insert barriers from it.
fn walk_loop(
    op: &OperationRef,
    entry: Pending,
    insert: bool,
    callees: &Callees,
    rules: &dyn Rules,
) -> Result<Pending, PassFailed> {
    let bodies: Vec<BlockRef> = op.regions().filter_map(|r| r.first_block()).collect();
    let mut top = entry.clone();
    for _ in 0..8 {
        let mut state = top.clone();
        for body in &bodies {
            state = walk_block(body, state, false, callees, rules)?;
        }
        let next_top = entry.union(&state);
        if next_top == top {
            break;
        }
        top = next_top;
    }
    let mut state = top.clone();
    for body in &bodies {
        state = walk_block(body, state, insert, callees, rules)?;
    }
    // Zero iterations leave `entry`; any number leaves what `top` grew into.
    Ok(top.union(&state))
}
