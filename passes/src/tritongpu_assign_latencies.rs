//! `tritongpu-assign-latencies` (upstream `AssignLatencies.cpp`): the first
//! step of software pipelining. In every innermost `scf.for` that is to be
//! pipelined (`num-stages`, or the loop's `tt.num_stages`, above 1), the
//! loads that feed dots, directly or through other loads, get a latency
//! (`tt.latency`): how many iterations ahead of their use they should be
//! issued. The stages are shared out evenly along the longest chain of
//! loads: with 3 stages, a load feeding a dot gets 2, and in a chain
//! load -> load -> dot each gets 1. Loads too narrow for `cp.async` or that
//! no shared layout suits are left alone.
//!
//! A loop marked `tt.num_stages` also pipelines the loads no dot depends on;
//! a loop whose ops already carry latencies keeps them. Blackwell's MMAs get
//! latencies of their own ([`mmav5`]).
mod mmav5;

use crate::analysis::axis_info::ModuleAxisInfo;
use crate::ir::{collect_ops, name_of, Order};
use crate::ssa::{defining_op, op_key, uses, Key};
use crate::tritongpu_pipeline::{
    loops::{
        body_ops, has_distance_greater_than_one, is_for, is_outer_loop, nested_operands, num_stages_or_default,
        NUM_STAGES,
    },
    shared::{can_be_async_load, copy_vector_bytes, shared_encoding_if_all_users_are_dot},
};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, OperationRef, Value, ValueLike,
};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::DotLikeOp;
use tritium_dialects::{
    pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult},
    types::MemDesc,
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-assign-latencies",
    description: "Assign latencies to the loads of loops to be software pipelined",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "num-stages",
        description: "The number of pipeline stages (loops may ask for their own with tt.num_stages)",
        kind: OptionKind::Int,
        default: "3",
    }],
    run,
};

/// The attribute holding an op's latency.
pub const LATENCY: &str = "tt.latency";

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let default_stages = options.int("num-stages");
    let loops: Vec<OperationRef> = collect_ops(module, Order::Post)
        .into_iter()
        .filter(is_for)
        .filter(|lp| !has_distance_greater_than_one(lp) && !is_outer_loop(lp))
        .filter(|lp| num_stages_or_default(lp, default_stages) > 1)
        .collect();
    if loops.is_empty() {
        return Ok(());
    }
    let mut latencies: Vec<(OperationRef, i64)> = Vec::new();
    let mut self_latencies: Vec<OperationRef> = Vec::new();
    for lp in &loops {
        let given: Vec<(OperationRef, i64)> =
            body_ops(lp).into_iter().filter_map(|op| crate::ir::int_attribute(&op, LATENCY).map(|l| (op, l))).collect();
        if !given.is_empty() {
            latencies.extend(given);
            continue;
        }
        // Upstream analyzes the module anew for every loop.
        let axis = ModuleAxisInfo::analyze(module)?;
        let num_stages = num_stages_or_default(lp, default_stages);
        let mut loop_latencies = load_latencies(lp, num_stages, &axis);
        mmav5::assign(lp, &mut loop_latencies, &mut self_latencies);
        latencies.extend(loop_latencies);
    }
    let context_ref = module.context();
    let i32_type = IntegerType::new(unsafe { context_ref.to_ref() }, 32).into();
    for (op, latency) in latencies {
        crate::ssa::set_attribute(&op, LATENCY, IntegerAttribute::new(i32_type, latency).into());
    }
    for op in self_latencies {
        crate::ssa::set_attribute(&op, mmav5::SELF_LATENCY, IntegerAttribute::new(i32_type, 1).into());
    }
    Ok(())
}

fn is_load(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "tt.load" | "tt.descriptor_load" | "tt.descriptor_gather")
}

/// Ops implementing upstream's `DotOpInterface`.
pub fn is_dot(op: &OperationRef) -> bool {
    crate::op_traits::is_dot_interface(op)
}

/// Upstream `AssignLoadLatencies::run`: the latency of each load to
/// pipeline in `lp`.
fn load_latencies<'c, 'a>(
    lp: &OperationRef<'c, 'a>,
    num_stages: i64,
    axis: &ModuleAxisInfo,
) -> Vec<(OperationRef<'c, 'a>, i64)> {
    let pipeline_without_dot = lp.has_attribute(NUM_STAGES);
    let mut levels = IndirectionLevels::new(axis);
    // Roots: the dots, and the stores into tensor memory (as upstream,
    // which keeps its heuristic from before tensor memory was hoisted).
    for op in body_ops(lp) {
        if !is_dot(&op) && name_of(&op) != "ttng.tmem_store" {
            continue;
        }
        levels.seen.clear();
        levels.visit(op, 0);
    }
    // As upstream: a loop that asks for its own stages pipelines its other
    // loads too (those no dot depends on), whether or not it holds a dot.
    if pipeline_without_dot {
        for op in body_ops(lp) {
            if !is_load(&op) {
                levels.visit(op, 0);
            }
        }
    }
    // Loads at distance `num_stages - 1` or more would have no stage left.
    let loads: Vec<(OperationRef, i64)> =
        levels.order.into_iter().filter(|(_, level)| *level < num_stages - 1).collect();
    let max_level = loads.iter().map(|(_, level)| *level).max().unwrap_or(0);
    let latency = (num_stages - 1) / (max_level + 1);
    loads.into_iter().map(|(op, _)| (op, latency)).collect()
}

/// The loads a loop body's dots depend on, with their indirection level: 0
/// for a load a dot uses, 1 for a load that one uses, and so on (upstream
/// `loadOpsToIndirectionLevel`). Loads reached at two levels are dropped.
struct IndirectionLevels<'c, 'a, 'x> {
    axis: &'x ModuleAxisInfo,
    /// Loads and levels, in discovery order.
    order: Vec<(OperationRef<'c, 'a>, i64)>,
    seen: HashSet<Key>,
    excluded: HashSet<Key>,
}

impl<'c, 'a, 'x> IndirectionLevels<'c, 'a, 'x> {
    fn new(axis: &'x ModuleAxisInfo) -> Self {
        Self { axis, order: Vec::new(), seen: HashSet::new(), excluded: HashSet::new() }
    }

    fn visit(&mut self, op: OperationRef<'c, 'a>, mut distance: i64) {
        let key = op_key(&op);
        if !self.seen.insert(key) || self.excluded.contains(&key) {
            return;
        }
        if is_load(&op) {
            if !is_pipelining_beneficial(&op, self.axis) {
                return;
            }
            match self.order.iter().position(|(o, _)| *o == op) {
                Some(index) if self.order[index].1 != distance => {
                    self.order.remove(index);
                    self.excluded.insert(key);
                    return;
                }
                Some(_) => {}
                None => self.order.push((op, distance)),
            }
            distance += 1;
        }
        let accumulator: Option<Value> = DotLikeOp::of(op).map(|dot| dot.accumulator());
        for operand in nested_operands(&op) {
            if Some(operand) == accumulator {
                continue;
            }
            if let Some(producer) = defining_op(operand).filter(|p| p.block() == op.block()) {
                self.visit(producer, distance);
            }
        }
    }
}

/// Upstream `isPipeliningBeneficial`: `cp.async` can do the load, and the
/// shared buffer it would land in suits its users.
fn is_pipelining_beneficial(load: &OperationRef, axis: &ModuleAxisInfo) -> bool {
    if name_of(load) != "tt.load" {
        return true;
    }
    if !can_be_async_load(load, axis) {
        return false;
    }
    let Ok(result) = load.result_at(0) else { return false };
    let result: Value = result.into();
    if shared_encoding_if_all_users_are_dot(result, load.location()).incompatible {
        return false;
    }
    let alloc_encodings: Vec<_> = uses(result)
        .into_iter()
        .filter(|u| name_of(&u.owner) == "ttg.local_alloc")
        .filter_map(|u| u.owner.result_at(0).ok().and_then(|r| MemDesc::of(r.r#type())).map(|m| m.encoding))
        .collect();
    let Some(first) = alloc_encodings.first() else { return true };
    if alloc_encodings.iter().any(|e| e != first) {
        return false;
    }
    // cp.async moves at least 4 contiguous bytes.
    copy_vector_bytes(result.r#type(), *first).is_some_and(|bytes| bytes >= 4)
}
