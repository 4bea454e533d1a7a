//! Task-id propagation, the second step of upstream's Hopper warp
//! specialization (`doTaskIdPropagate` over the backward data-flow analysis
//! `TaskIdBackwardPropagation`; its test flag `nvgpu-test-taskid-propagate`).
//!
//! Every SSA value gets a lattice value: uninitialized, or the set of async
//! tasks that use it. The analysis runs backwards from the anchors (ops with
//! an `async_task_id`) to a fixpoint; upstream runs it in MLIR's sparse
//! backward data-flow framework, here it is the same system of (monotone)
//! equations solved by iterating over the function's live ops until nothing
//! changes, which gives the same least fixpoint:
//!
//! - an op with an `async_task_id` (any op but the region-branch ones below)
//!   gives its ids to all its operands; any other op gives each operand the
//!   union of its results' values;
//! - either way, those ids (the annotation, or each result's value) also go
//!   to the control operands of every enclosing `scf.for` (lower bound,
//!   upper bound, step) and to the condition of every enclosing `scf.if`;
//! - a `tt.reduce` gives its results' values to the operands of its combine
//!   region's terminator;
//! - `scf.for`: each init operand gets the values of its region argument and
//!   of its result; once every result has a value, the yield operands get
//!   the results' values (MLIR's `visitBranchOperand`, run for the control
//!   operands, which no region receives);
//! - `scf.if`: once every result has a value, the operands of both yields
//!   get them (the condition's `visitBranchOperand`);
//! - `scf.yield`: its operands get the values of what they flow to: the
//!   loop's region arguments and results, or the `scf.if`'s results; an
//!   annotation on a yield, a for or an if is not read;
//! - `tt.return` does nothing (its function has unknown callers: the exit
//!   state, which upstream leaves unchanged); a `cf.br` gives its operands
//!   the values of the block arguments they are passed to.
//!
//! Ops in blocks MLIR's dead-code analysis finds dead (the branch of an
//! `scf.if` on a constant condition not taken) are not visited.
//!
//! The meet of two values is the sorted, deduplicated union of their ids (a
//! value equal to the other, or met with an uninitialized one, is kept as
//! is). Afterwards, in post-order, every op without an `async_task_id`, and
//! every `arith.constant`, whose results (or, without results, operands) have
//! a value gets the union as its `async_task_id`, and its enclosing ops get
//! those ids added.
//!
//! Upstream aborts (`llvm_unreachable`, or an assertion) on an op nested in a
//! region of an op other than `scf.for`, `scf.if` and `tt.reduce` (such as
//! `scf.while`), on region control flow it does not model and on
//! conditional branches (`cf.cond_br`, as in a function with an early
//! return) and calls; here those are errors.
use super::task_ids::{get_async_task_ids, label_parent_ops, set_async_task_ids, ASYNC_TASK_ID};
use crate::ir::{collect_ops, enclosing_module, fail, name_of, Order};
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, RegionLike, Value};
use std::collections::HashMap;
use tritium_dialects::ir::{
    constant_attribute, dense_i32_array, dense_i32s, entry_block, remove_attribute, set_attribute, value_key,
};
use tritium_dialects::pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult};
use tritium_dialects::views::IfOp;

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvgpu-test-taskid-propagate",
    description: "Test pass of warp specialization's task-id propagation from the anchor ops to their dependencies",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "num-warp-groups",
        description: "Number of warp groups for warp specialization",
        kind: OptionKind::Int,
        default: "0",
    }],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let module = enclosing_module(module).unwrap_or(module);
    let num_warp_groups = options.int("num-warp-groups");
    for function in collect_ops(module, Order::Post).into_iter().filter(|o| name_of(o) == "tt.func") {
        let mut ops = collect_ops(function, Order::Post);
        ops.push(function);
        let mut anchors = 0;
        for op in &ops {
            let ids = get_async_task_ids(op);
            if ids.is_empty() {
                continue;
            }
            set_async_task_ids(op, &ids);
            if name_of(op) != "arith.constant" {
                anchors += 1;
            }
            if num_warp_groups == 0 {
                remove_attribute(op, ASYNC_TASK_ID);
            }
        }
        if num_warp_groups == 0 || anchors == 0 {
            continue;
        }
        do_task_id_propagate(function).map_err(|reason| fail(&function, reason))?;
    }
    Ok(())
}

/// A lattice value: `None` uninitialized, else the task ids (as an
/// `array<i32>` attribute would hold them).
type TaskIds = Option<Vec<i32>>;

/// Upstream's `TaskId::meet`.
fn meet(lhs: &TaskIds, rhs: &TaskIds) -> TaskIds {
    match (lhs, rhs) {
        (None, _) => rhs.clone(),
        (_, None) => lhs.clone(),
        (Some(l), Some(r)) if l == r => lhs.clone(),
        (Some(l), Some(r)) => {
            let mut ids: Vec<i32> = l.iter().chain(r).copied().collect();
            ids.sort();
            ids.dedup();
            Some(ids)
        }
    }
}

struct Analysis {
    lattices: HashMap<usize, TaskIds>,
    changed: bool,
}

impl Analysis {
    fn get(&self, value: Value) -> TaskIds {
        self.lattices.get(&value_key(value)).cloned().flatten()
    }

    /// Creates the value's lattice (uninitialized) if it has none.
    fn touch(&mut self, value: Value) {
        self.lattices.entry(value_key(value)).or_insert(None);
    }

    fn meet_into(&mut self, value: Value, ids: &TaskIds) {
        let entry = self.lattices.entry(value_key(value)).or_insert(None);
        let new = meet(entry, ids);
        if new != *entry {
            *entry = new;
            self.changed = true;
        }
    }

    /// Upstream's `propagateToParent`: the ids reach the control operands of
    /// the enclosing loops and the conditions of the enclosing ifs.
    fn propagate_to_parents(&mut self, op: &OperationRef, ids: &TaskIds) -> Result<(), String> {
        let mut parent = op.parent_operation();
        while let Some(p) = parent {
            match name_of(&p).as_str() {
                "tt.func" => break,
                "scf.for" => {
                    for index in 0..3 {
                        self.meet_into(p.operand(index).map_err(|e| e.to_string())?, ids);
                    }
                }
                "scf.if" => self.meet_into(IfOp::of(p).ok_or("not an scf.if")?.condition(), ids),
                "tt.reduce" => {}
                other => {
                    return Err(format!(
                    "task-id propagation does not support ops nested in '{other}' (only scf.for, scf.if and tt.reduce)"
                ))
                }
            }
            parent = p.parent_operation();
        }
        Ok(())
    }

    /// The operands of a `tt.reduce`'s combine terminator get its results'
    /// values.
    fn propagate_to_reduce_terminator(&mut self, reduce: &OperationRef) -> Result<(), String> {
        let terminator = entry_block(reduce, 0)
            .and_then(|b| b.terminator())
            .ok_or_else(|| "tt.reduce without a combine terminator".to_string())?;
        let results: Vec<TaskIds> = reduce.results().map(|r| self.get(r.into())).collect();
        for (operand, ids) in terminator.operands().zip(results) {
            self.meet_into(operand, &ids);
        }
        Ok(())
    }

    /// Every result of `op` has a value (upstream's `visitBranchOperand`
    /// waits for them).
    fn all_results_initialized(&self, op: &OperationRef) -> bool {
        op.results().all(|r| self.get(r.into()).is_some())
    }

    /// The results' values flow to the yields' operands.
    fn results_to_yields(&mut self, op: &OperationRef, regions: &[usize]) -> Result<(), String> {
        if !self.all_results_initialized(op) {
            return Ok(());
        }
        let results: Vec<TaskIds> = op.results().map(|r| self.get(r.into())).collect();
        for &region in regions {
            let Some(block) = entry_block(op, region) else { continue };
            let yield_op = block.terminator().ok_or_else(|| format!("{} without a terminator", name_of(op)))?;
            if yield_op.operand_count() != results.len() {
                return Err(format!("{}: yield and results differ in number", name_of(op)));
            }
            for (operand, ids) in yield_op.operands().zip(&results) {
                self.meet_into(operand, ids);
            }
        }
        Ok(())
    }

    fn visit(&mut self, op: &OperationRef) -> Result<(), String> {
        // Every operand and result has a lattice (MLIR creates them on the
        // first visit).
        for operand in op.operands() {
            self.touch(operand);
        }
        for result in op.results() {
            self.touch(result.into());
        }
        let name = name_of(op);
        match name.as_str() {
            "scf.for" => {
                let body = entry_block(op, 0).ok_or("scf.for without a body")?;
                let inits = op.operand_count().saturating_sub(3);
                for i in 0..inits {
                    let init = op.operand(3 + i).map_err(|e| e.to_string())?;
                    let argument: Value = body.argument(1 + i).map_err(|e| e.to_string())?.into();
                    let result: Value = op.result(i).map_err(|e| e.to_string())?.into();
                    let (a, r) = (self.get(argument), self.get(result));
                    self.meet_into(init, &a);
                    self.meet_into(init, &r);
                }
                self.results_to_yields(op, &[0])
            }
            "scf.if" => self.results_to_yields(op, &[0, 1]),
            "scf.yield" => {
                let parent = op.parent_operation().ok_or("scf.yield without a parent")?;
                let mut targets: Vec<Vec<TaskIds>> = Vec::new();
                match name_of(&parent).as_str() {
                    "scf.for" => {
                        let body = entry_block(&parent, 0).ok_or("scf.for without a body")?;
                        let arguments: Vec<TaskIds> = (1..body.argument_count())
                            .map(|i| body.argument(i).map(|a| self.get(a.into())).unwrap_or(None))
                            .collect();
                        targets.push(arguments);
                    }
                    "scf.if" => {}
                    other => return Err(format!("task-id propagation does not support scf.yield in '{other}'")),
                }
                targets.push(parent.results().map(|r| self.get(r.into())).collect());
                let operands: Vec<Value> = op.operands().collect();
                for target in targets {
                    for (operand, ids) in operands.iter().zip(&target) {
                        self.meet_into(*operand, ids);
                    }
                }
                Ok(())
            }
            "tt.return" => Ok(()),
            // A branch's operands get the values of the block arguments they
            // are passed to.
            "cf.br" => {
                let dest = op.successor(0).map_err(|e| e.to_string())?;
                let operands: Vec<Value> = op.operands().collect();
                for (index, operand) in operands.into_iter().enumerate() {
                    let argument: Value = dest.argument(index).map_err(|e| e.to_string())?.into();
                    let ids = self.get(argument);
                    self.meet_into(operand, &ids);
                }
                Ok(())
            }
            // Upstream's `visitBranchOperand` asserts on the condition of a
            // conditional branch (it expects only scf.for and scf.if).
            "cf.cond_br" | "cf.switch" => {
                Err(format!("task-id propagation does not support '{name}' (only structured control flow)"))
            }
            // Upstream's `visitCallOperand` is unreachable ("no call operands
            // after inlining").
            "tt.call" => Err("task-id propagation does not support calls (tt.call): inline the callee".to_string()),
            _ if is_unsupported_region_op(&name) => {
                Err(format!("task-id propagation does not support region op '{name}'"))
            }
            _ => {
                let annotation: TaskIds = op.attribute(ASYNC_TASK_ID).ok().and_then(dense_i32s);
                let operands: Vec<Value> = op.operands().collect();
                if annotation.is_some() {
                    for operand in &operands {
                        self.meet_into(*operand, &annotation);
                    }
                    self.propagate_to_parents(op, &annotation)?;
                } else {
                    let results: Vec<TaskIds> = op.results().map(|r| self.get(r.into())).collect();
                    for ids in &results {
                        for operand in &operands {
                            self.meet_into(*operand, ids);
                        }
                    }
                    for ids in &results {
                        self.propagate_to_parents(op, ids)?;
                    }
                }
                if name == "tt.reduce" {
                    self.propagate_to_reduce_terminator(op)?;
                }
                Ok(())
            }
        }
    }
}

/// Region ops whose control flow upstream's analysis does not model.
fn is_unsupported_region_op(name: &str) -> bool {
    matches!(
        name,
        "scf.while"
            | "scf.execute_region"
            | "scf.index_switch"
            | "scf.parallel"
            | "scf.forall"
            | "scf.condition"
            | "tt.scan"
            | "tt.map_elementwise"
            | "ttg.warp_specialize"
            | "ttg.warp_specialize.partitions"
    )
}

/// Whether MLIR's dead-code analysis leaves `op`'s block dead: it lies in
/// the branch of an `scf.if` on a constant condition that is not taken.
fn in_dead_block(op: &OperationRef, function: &OperationRef) -> bool {
    let mut current = *op;
    while let Some(parent) = current.parent_operation() {
        if parent == *function {
            break;
        }
        if name_of(&parent) == "scf.if" {
            let condition = IfOp::of(parent)
                .map(|i| i.condition())
                .and_then(constant_attribute)
                .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok().map(|i| i.value() != 0));
            if let Some(taken) = condition {
                let region = current.block().and_then(|b| b.parent_region());
                let then_region = parent.region(0).ok();
                let in_then = region.is_some_and(|r| then_region.is_some_and(|t| t.to_raw().ptr == r.to_raw().ptr));
                if in_then != taken {
                    return true;
                }
            }
        }
        current = parent;
    }
    false
}

/// Upstream's `doTaskIdPropagate`: runs the analysis from the ops that carry
/// an `async_task_id` and labels the others (and constants) with the tasks
/// that use them. `Ok(0)` on success, as upstream returns; upstream's -1
/// (the data-flow solver failing) cannot happen with these analyses; cases
/// upstream does not support are errors.
pub fn do_task_id_propagate(function: OperationRef) -> Result<i32, String> {
    let mut ops = collect_ops(function, Order::Post);
    ops.push(function);
    let live: Vec<OperationRef> =
        ops.iter().copied().filter(|op| *op != function && !in_dead_block(op, &function)).rev().collect();
    let mut analysis = Analysis { lattices: HashMap::new(), changed: true };
    while analysis.changed {
        analysis.changed = false;
        for op in &live {
            analysis.visit(op)?;
        }
    }
    for op in &ops {
        let mut ids: TaskIds = None;
        let lookup = |v: Value| {
            analysis
                .lattices
                .get(&value_key(v))
                .cloned()
                .ok_or_else(|| format!("no task-id lattice for a value of {}", name_of(op)))
        };
        if op.result_count() > 0 {
            for result in op.results() {
                ids = meet(&ids, &lookup(result.into())?);
            }
        } else {
            for operand in op.operands() {
                ids = meet(&ids, &lookup(operand)?);
            }
        }
        let Some(ids) = ids else { continue };
        if name_of(op) == "arith.constant" || op.attribute(ASYNC_TASK_ID).is_err() {
            set_attribute(op, ASYNC_TASK_ID, dense_i32_array(op.location(), &ids));
            label_parent_ops(op);
        }
    }
    Ok(0)
}
