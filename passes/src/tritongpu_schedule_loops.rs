//! `tritongpu-schedule-loops` (upstream `ScheduleLoops.cpp`): the second step
//! of software pipelining. Every innermost loop whose ops carry latencies
//! (`tt.latency`, from `tritongpu-assign-latencies`) gets a coarse schedule
//! (see [`crate::tritongpu_pipeline::schedule`]):
//!
//! 1. key ops: an op's stage is the largest latency sum on a path from it to
//!    the end of the body, counted back from the last stage (a load of
//!    latency 2 feeding a dot lands two stages before the dot);
//! 2. `scf.if`s that scheduled ops depend on open the loop (a cluster at the
//!    front), other `scf.if`s close it (a cluster at the back);
//! 3. every op joins the stage and cluster of the first scheduled op that
//!    needs it;
//! 4. what an op needs from the previous iteration is computed one stage
//!    later, in a cluster just before the op's (loads join the op instead);
//! 5. the rest goes to the last stage, after what it uses.
//!
//! A loop split off a warp-specialized loop (`tt.warp_specialize`) without
//! latencies starts from the schedule it carries instead of step 1: its
//! stages renumbered from 0, or a single stage when its memory, MMA and
//! barrier ops all share one.
//!
//! The latencies are removed; the schedule is written as `loop.stage`,
//! `loop.cluster` and `tt.scheduled_max_stage`.
use crate::ir::{collect_ops, int_attribute, name_of, Order};
use crate::ssa::{ancestor_in_block, defining_op, op_key, users, Key};
use crate::tritongpu_assign_latencies::LATENCY;
use crate::tritongpu_pipeline::{
    loops::{
        body, body_ops, has_distance_greater_than_one, is_for, is_outer_loop, nested_operands, remove_attribute,
        yield_of,
    },
    schedule::{is_iter_arg_of, yielded_for_argument, Cluster, Schedule},
};
use melior::ir::{operation::OperationLike, OperationRef, Value};
use std::collections::{HashMap, HashSet};
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-schedule-loops",
    description: "Give the ops of loops with latencies a coarse software-pipelining schedule",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let mut latencies: HashMap<Key, i64> = HashMap::new();
    for op in collect_ops(module, Order::Post) {
        if let Some(latency) = int_attribute(&op, LATENCY) {
            latencies.insert(op_key(&op), latency);
            remove_attribute(&op, LATENCY);
        }
    }
    for lp in collect_ops(module, Order::Post).into_iter().filter(is_for) {
        schedule_loop(&lp, &latencies);
    }
    Ok(())
}

/// Upstream `isSafeToPipeline`.
fn is_safe_to_pipeline(lp: &OperationRef) -> bool {
    !has_distance_greater_than_one(lp)
        && !is_outer_loop(lp)
        && !collect_ops(*lp, Order::Pre).iter().any(|op| name_of(op) == "gpu.barrier")
}

fn schedule_loop(lp: &OperationRef, latencies: &HashMap<Key, i64>) {
    let Some(mut schedule) = initial_schedule(lp, latencies) else { return };
    let after_prologue = schedule_prologue_and_epilogue(lp, &mut schedule);
    schedule_dependencies(lp, &mut schedule);
    schedule_distance_one_dependencies(lp, &mut schedule);
    schedule_remaining_to_last_stage(lp, &mut schedule, after_prologue);
    schedule.serialize(lp);
}

/// Upstream `getInitialSchedule`: the schedule the other steps complete.
/// From the latencies when the loop has some; else, for a loop split off a
/// warp-specialized loop, the schedule it carries.
fn initial_schedule(lp: &OperationRef, latencies: &HashMap<Key, i64>) -> Option<Schedule> {
    if !is_safe_to_pipeline(lp) {
        return None;
    }
    if body_ops(lp).iter().any(|op| latencies.contains_key(&op_key(op))) {
        return schedule_key_ops(lp, latencies);
    }
    if !lp.has_attribute(WARP_SPECIALIZE) {
        return None;
    }
    let mut schedule = Schedule::deserialize(lp)?;
    // A partition's loop may see only part of the original loop's stages:
    // when its latency ops all sit in one stage, nothing is left to overlap
    // and the whole body goes to a single stage.
    let ops = body_ops(lp);
    let latency_stages: HashSet<i64> =
        ops.iter().filter(|op| is_latency_op(op)).filter_map(|op| schedule.get(op)).map(|(stage, _)| stage).collect();
    if latency_stages.len() <= 1 {
        let mut single = Schedule::new(1);
        let cluster = single.new_cluster_at_front();
        for op in &ops {
            single.insert(op, 0, cluster);
        }
        return Some(single);
    }
    schedule.shrink_to_fit();
    Some(schedule)
}

/// The attribute marking a loop to be warp-specialized (or split off one).
const WARP_SPECIALIZE: &str = "tt.warp_specialize";

/// The ops whose stages set how a warp-specialized loop's partition is
/// pipelined (upstream's `isLatencyOp` in `getInitialSchedule`): memory
/// transfers, MMAs and barriers.
fn is_latency_op(op: &OperationRef) -> bool {
    matches!(
        name_of(op).as_str(),
        "tt.load"
            | "tt.descriptor_load"
            | "tt.descriptor_gather"
            | "ttg.local_store"
            | "ttg.local_load"
            | "ttng.tmem_load"
            | "ttng.tmem_store"
            | "ttg.async_copy_global_to_local"
            | "ttng.async_tma_copy_global_to_local"
            | "ttng.async_tma_gather"
            | "ttng.tc_gen5_mma"
            | "ttng.tc_gen5_mma_scaled"
            | "ttng.wait_barrier"
            | "ttng.arrive_barrier"
    )
}

/// Upstream `scheduleKeyOps`: stages from latency sums, one cluster per
/// stage (the last stage first), and the `scf.if`s that nothing scheduled
/// depends on in an epilogue cluster.
fn schedule_key_ops(lp: &OperationRef, latencies: &HashMap<Key, i64>) -> Option<Schedule> {
    let block = body(lp)?;
    let terminator = yield_of(lp)?;
    let latency_ops: Vec<OperationRef> =
        body_ops(lp).into_iter().filter(|op| latencies.contains_key(&op_key(op))).collect();
    if latency_ops.is_empty() {
        return None;
    }
    // The longest latency sum from each op to the end of the body.
    let mut distance: HashMap<Key, i64> = HashMap::new();
    let mut reached: Vec<OperationRef> = Vec::new();
    fn compute<'c, 'a>(
        op: OperationRef<'c, 'a>,
        block: &melior::ir::BlockRef<'c, 'a>,
        terminator: &OperationRef<'c, 'a>,
        latencies: &HashMap<Key, i64>,
        distance: &mut HashMap<Key, i64>,
        reached: &mut Vec<OperationRef<'c, 'a>>,
    ) -> i64 {
        if let Some(d) = distance.get(&op_key(&op)) {
            return *d;
        }
        let mut longest = -1;
        for result in op.results() {
            for user in users(result.into()) {
                let Some(user) = ancestor_in_block(block, user).filter(|u| u != terminator) else { continue };
                longest = longest.max(compute(user, block, terminator, latencies, distance, reached));
            }
        }
        let d = latencies.get(&op_key(&op)).copied().unwrap_or(0) + longest.max(0);
        distance.insert(op_key(&op), d);
        reached.push(op);
        d
    }
    let mut max_distance = 0;
    for op in &latency_ops {
        max_distance = max_distance.max(compute(*op, &block, &terminator, latencies, &mut distance, &mut reached));
    }
    let stages: Vec<(OperationRef, i64)> =
        reached.iter().map(|op| (*op, max_distance - distance[&op_key(op)])).collect();
    let max_stage = stages.iter().map(|(_, s)| *s).max()?;
    let mut schedule = Schedule::new(max_stage + 1);
    let clusters: Vec<Cluster> = (0..=max_stage).map(|_| schedule.new_cluster_at_back()).collect();
    for (op, stage) in &stages {
        schedule.insert(op, *stage, clusters[(max_stage - stage) as usize]);
    }
    // `scf.if`s fed by key ops, which no other key op depends on, are
    // pushed as late as possible.
    let epilogue = schedule.new_cluster_at_back();
    let scheduled: HashSet<Key> = stages.iter().map(|(op, _)| op_key(op)).collect();
    for (op, stage) in &stages {
        if name_of(op) != "scf.if" || latencies.contains_key(&op_key(op)) {
            continue;
        }
        if forward_slice(op).iter().any(|o| scheduled.contains(&op_key(o))) {
            continue;
        }
        schedule.insert(op, *stage, epilogue);
    }
    Some(schedule)
}

/// MLIR's `getForwardSlice(op)`: the ops nested in `op` and the users of its
/// results, transitively.
fn forward_slice<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut slice = Vec::new();
    let mut seen: HashSet<Key> = HashSet::from([op_key(op)]);
    let mut worklist = vec![*op];
    while let Some(op) = worklist.pop() {
        let mut next: Vec<OperationRef> = collect_ops(op, Order::Pre);
        for result in op.results() {
            next.extend(users(result.into()));
        }
        for other in next {
            if seen.insert(op_key(&other)) {
                slice.push(other);
                worklist.push(other);
            }
        }
    }
    slice
}

/// The `scf.if` ops in the backward slice of `op` (MLIR's
/// `getBackwardSlice` without block arguments, with values used in nested
/// regions): what `op` depends on, inside the loop or before it.
fn ifs_in_backward_slice<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ifs = Vec::new();
    let mut seen: HashSet<Key> = HashSet::from([op_key(op)]);
    let mut worklist = vec![*op];
    while let Some(current) = worklist.pop() {
        if current != *op && name_of(&current) == "scf.if" {
            ifs.push(current);
        }
        for operand in nested_operands(&current) {
            if let Some(producer) = defining_op(operand) {
                if !is_isolated(&producer) && seen.insert(op_key(&producer)) {
                    worklist.push(producer);
                }
            }
        }
    }
    ifs
}

/// Ops that slices do not cross into (`IsIsolatedFromAbove`).
fn is_isolated(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "tt.func" | "builtin.module" | "func.func")
}

/// Upstream `schedulePrologueAndEpilogue`: returns the cluster that was first
/// before (the one after the prologue).
fn schedule_prologue_and_epilogue(lp: &OperationRef, schedule: &mut Schedule) -> Option<Cluster> {
    let after_prologue = schedule.first_cluster();
    let mut if_stages: Vec<(OperationRef, i64)> = Vec::new();
    for stage in 0..schedule.num_stages() {
        for (op, op_stage, _) in schedule.ops_in_order(lp) {
            if op_stage != stage {
                continue;
            }
            for if_op in ifs_in_backward_slice(&op) {
                if !if_stages.iter().any(|(o, _)| *o == if_op) {
                    if_stages.push((if_op, stage));
                }
            }
        }
    }
    if !if_stages.is_empty() {
        let prologue = schedule.new_cluster_at_front();
        for (if_op, stage) in &if_stages {
            schedule.insert_if_absent(if_op, *stage, prologue);
        }
    }
    let epilogue = schedule.new_cluster_at_back();
    let last = schedule.num_stages() - 1;
    for op in body_ops(lp) {
        if name_of(&op) == "scf.if" && !if_stages.iter().any(|(o, _)| *o == op) {
            schedule.insert_if_absent(&op, last, epilogue);
        }
    }
    after_prologue
}

/// Upstream `scheduleDependencies`: every scheduled op pulls what it uses in
/// the body into its stage and cluster, earlier stages first.
pub fn schedule_dependencies(lp: &OperationRef, schedule: &mut Schedule) {
    let ops = schedule.ops_in_order(lp);
    for stage in 0..schedule.num_stages() {
        for (op, op_stage, cluster) in &ops {
            if *op_stage == stage {
                schedule.insert_deps_of_op(op, stage, *cluster, false, true);
            }
        }
    }
}

/// Upstream `scheduleDistanceOneDependencies`: what an op uses from the
/// previous iteration goes one stage later, in a cluster right before the
/// op's; a load joins the op instead.
fn schedule_distance_one_dependencies(lp: &OperationRef, schedule: &mut Schedule) {
    let num_stages = schedule.num_stages();
    let mut clusters_before: HashMap<Cluster, Cluster> = HashMap::new();
    for op in body_ops(lp) {
        let Some((stage, cluster)) = schedule.get(&op) else { continue };
        if stage == num_stages - 1 {
            continue;
        }
        for operand in nested_operands(&op) {
            if !is_iter_arg_of(operand, lp) || crate::ssa::argument_owner(operand) != op.block() {
                continue;
            }
            let number = crate::ssa::argument_number(operand).unwrap_or(0);
            let Some(producer) = yielded_for_argument(lp, number).and_then(defining_op) else { continue };
            if schedule.contains(&producer) {
                continue;
            }
            if name_of(&producer) == "tt.load" {
                schedule.insert_if_absent(&producer, stage, cluster);
                schedule.insert_deps_of_op(&producer, stage, cluster, true, true);
            } else {
                let before = match clusters_before.get(&cluster) {
                    Some(before) => *before,
                    None => {
                        let before = schedule.new_cluster_before(cluster);
                        clusters_before.insert(cluster, before);
                        before
                    }
                };
                schedule.insert_if_absent(&producer, stage + 1, before);
                schedule.insert_deps_of_op(&producer, stage + 1, before, true, true);
            }
        }
    }
}

/// Upstream `scheduleRemainingToLastStage`: unscheduled ops go to the last
/// stage, in the cluster after the prologue or, if something they use from
/// the last stage is in a later cluster, in that one.
fn schedule_remaining_to_last_stage(lp: &OperationRef, schedule: &mut Schedule, after_prologue: Option<Cluster>) {
    let Some(after_prologue) = after_prologue else { return };
    let last = schedule.num_stages() - 1;
    let mut clusters: HashMap<Key, Cluster> = HashMap::new();
    let mut remaining: Vec<OperationRef> = Vec::new();
    for op in body_ops(lp) {
        if !schedule.contains(&op) {
            clusters.insert(op_key(&op), after_prologue);
            remaining.push(op);
        }
    }
    let mut queue: Vec<OperationRef> =
        schedule.ops_in_order(lp).into_iter().filter(|(_, s, _)| *s == last).map(|(op, _, _)| op).collect();
    while let Some(op) = queue.pop() {
        for result in op.results() {
            let result: Value = result.into();
            for user in users(result) {
                let Some(user_cluster) = clusters.get(&op_key(&user)).copied() else { continue };
                let op_cluster = match schedule.get(&op) {
                    Some((_, c)) => c,
                    None => clusters[&op_key(&op)],
                };
                if schedule.position(user_cluster) < schedule.position(op_cluster) {
                    clusters.insert(op_key(&user), op_cluster);
                    queue.push(user);
                }
            }
        }
    }
    for op in remaining {
        schedule.insert(&op, last, clusters[&op_key(&op)]);
    }
}
