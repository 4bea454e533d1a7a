//! The analysis of one function: a sparse forward dataflow over its values,
//! swept in program order until nothing changes.
//!
//! Like upstream's (MLIR's sparse dataflow framework with Triton's
//! visitors), a value starts *unknown* (no lattice yet) and only goes down by
//! `join`; an op whose operands are not all known yet is skipped, and a value
//! still unknown at the end (dead code, or fed by such values) gets the
//! pessimistic state. Structured control flow joins what flows into a value:
//! loop-carried values join the initial and the yielded values until the
//! fixpoint, the induction variable gets the divisibility of its lower bound
//! and step, branch results join the yields of the branches that can run.
use super::{
    attributes::{argument_attribute, hint_values, integer_constant, HintKind, HINTS},
    lattice::{gcd, AxisInfo},
    rules::{transfer, Binary, Predicate, Rule},
};
use crate::analysis::type_facts::{axis_rank, pointee_bit_width};
use crate::ir::{collect_ops, fail, int_attribute, name_of, Order};
use melior::ir::{
    operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, RegionRef, Value, ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::{as_block_argument, as_op_result, block_argument_at, OpAccess};
use tritium_dialects::views::IfOp;
use tritium_dialects::{pass::PassFailed, types::static_shape};

/// Identity of a value (its MLIR handle), to key lattices by.
pub(super) type ValueKey = usize;

pub(super) fn key(value: Value) -> ValueKey {
    value.to_raw().ptr as ValueKey
}

/// The lattice only goes down and has finite height, so sweeps stop; this
/// bound only guards against a bug turning into a hang.
const MAX_SWEEPS: usize = 10_000;

/// Analyzes `function` (a `tt.func`); returns the lattice of every value in
/// it, block arguments included.
pub(super) fn analyze_function(function: OperationRef) -> Result<HashMap<ValueKey, AxisInfo>, PassFailed> {
    let mut solver = Solver::default();
    let Ok(body) = function.region_at(0) else { return Ok(HashMap::new()) };
    let Some(entry) = body.first_block() else { return Ok(HashMap::new()) };
    for argument in block_arguments(entry) {
        let state = entry_state(argument)?;
        solver.join(argument, &state);
    }
    let mut sweeps = 0;
    loop {
        solver.changed = false;
        solver.visit_region(body)?;
        if !solver.changed {
            break;
        }
        sweeps += 1;
        if sweeps == MAX_SWEEPS {
            return Err(fail(&function, "axis info analysis did not converge"));
        }
    }
    let mut infos = HashMap::new();
    let mut record = |value: Value| -> Result<(), PassFailed> {
        let info = match solver.lattice.remove(&key(value)) {
            Some(info) => info,
            None => entry_state(value)?,
        };
        infos.insert(key(value), info);
        Ok(())
    };
    for_each_block(function, &mut |block| block_arguments(block).try_for_each(&mut record))?;
    for op in collect_ops(function, Order::Pre) {
        op.results().try_for_each(|result| record(result.into()))?;
    }
    Ok(infos)
}

#[derive(Default)]
struct Solver {
    lattice: HashMap<ValueKey, AxisInfo>,
    changed: bool,
}

impl Solver {
    fn get(&self, value: Value) -> Option<&AxisInfo> {
        self.lattice.get(&key(value))
    }

    /// Lowers `value`'s lattice to what holds for it and for `info`.
    fn join(&mut self, value: Value, info: &AxisInfo) {
        match self.lattice.get_mut(&key(value)) {
            None => {
                self.lattice.insert(key(value), info.clone());
                self.changed = true;
            }
            Some(old) => {
                let joined = old.join(info);
                if joined != *old {
                    *old = joined;
                    self.changed = true;
                }
            }
        }
    }

    /// Joins what is known of `source` (if anything) into `target`.
    fn flow(&mut self, source: Value, target: Value) {
        if let Some(info) = self.get(source).cloned() {
            self.join(target, &info);
        }
    }

    fn flow_all<'c, 'a>(&mut self, sources: &[Value<'c, 'a>], targets: &[Value<'c, 'a>]) {
        for (source, target) in sources.iter().zip(targets) {
            self.flow(*source, *target);
        }
    }

    fn visit_region(&mut self, region: RegionRef) -> Result<(), PassFailed> {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut next = b.first_operation();
            while let Some(op) = next {
                self.visit_op(op)?;
                next = op.next_in_block();
            }
            block = b.next_in_region();
        }
        Ok(())
    }

    fn visit_op(&mut self, op: OperationRef) -> Result<(), PassFailed> {
        match name_of(&op).as_str() {
            "scf.for" => self.visit_for(op),
            "scf.if" => self.visit_if(op),
            "scf.while" => self.visit_while(op),
            "scf.execute_region" | "scf.index_switch" => {
                let regions: Vec<RegionRef> = op.regions().collect();
                self.visit_yielding_regions(op, &regions)
            }
            "ttg.warp_specialize" => self.visit_warp_specialize(op),
            "ttg.warp_specialize.partitions" => self.visit_partitions(op),
            name => {
                if matches!(name, "tt.call" | "func.call") {
                    // The callee is analyzed on its own, after its callers:
                    // nothing is known of what it returns.
                    for result in results(op) {
                        let state = entry_state(result)?;
                        self.join(result, &state);
                    }
                } else {
                    self.visit_plain(op)?;
                }
                self.visit_branch(op)?;
                // Regions of other ops (reductions, scans, ...) get
                // arguments the analysis cannot relate to anything.
                for region in op.regions() {
                    if let Some(entry) = region.first_block() {
                        for argument in block_arguments(entry) {
                            let state = entry_state(argument)?;
                            self.join(argument, &state);
                        }
                    }
                    self.visit_region(region)?;
                }
                Ok(())
            }
        }
    }

    /// An op without control flow: its rule, or the pessimistic state.
    fn visit_plain(&mut self, op: OperationRef) -> Result<(), PassFailed> {
        if op.result_count() == 0 {
            return Ok(());
        }
        let mut operands = Vec::with_capacity(op.operand_count());
        for operand in op.operands() {
            match self.get(operand) {
                Some(info) => operands.push(info.clone()),
                None => return Ok(()), // wait until every operand is known
            }
        }
        let result_type = op.result_at(0).map_err(|_| fail(&op, "result expected"))?.r#type();
        let shape = static_shape(result_type);
        // A rule giving a tensor result the wrong rank (a cast from a value
        // of another shape) would derail its users: fall back instead.
        let info = apply_rule(op, &operands, shape.as_deref())
            .filter(|info| info.rank() > 0 && shape.as_ref().is_none_or(|s| s.len() == info.rank()));
        match info {
            Some(mut info) => {
                apply_hints(&op, &mut info, |name| op.discardable_attribute(name).ok())?;
                for result in results(op) {
                    self.join(result, &info);
                }
            }
            None => {
                for result in results(op) {
                    let state = entry_state(result)?;
                    self.join(result, &state);
                }
            }
        }
        Ok(())
    }

    /// `scf.for`: the induction variable from the bounds, iteration
    /// arguments and results from the initial and the yielded values.
    fn visit_for(&mut self, op: OperationRef) -> Result<(), PassFailed> {
        let operands: Vec<Value> = op.operands().collect();
        let body = entry_block(op, 0)?;
        let arguments: Vec<Value> = block_arguments(body).collect();
        if operands.len() < 3 || arguments.is_empty() {
            return Err(fail(&op, "scf.for with bounds and an induction variable expected"));
        }
        let (lower, step, inits) = (operands[0], operands[2], &operands[3..]);
        let yielded = terminator_operands(body);
        if let (Some(lower), Some(step)) = (self.get(lower), self.get(step)) {
            let divisibility = gcd(lower.divisibility[0], step.divisibility[0]);
            let induction = AxisInfo::new(vec![1], vec![divisibility], vec![1], None);
            self.join(arguments[0], &induction);
        }
        self.flow_all(inits, &arguments[1..]);
        self.flow_all(&yielded, &arguments[1..]);
        self.visit_region(op.region_at(0).map_err(|_| fail(&op, "scf.for body expected"))?)?;
        // The loop may run zero times: results are the initial values too.
        let results: Vec<Value> = results(op).collect();
        self.flow_all(inits, &results);
        self.flow_all(&terminator_operands(body), &results);
        Ok(())
    }

    /// `scf.if`: only the branch a constant condition takes runs, and
    /// neither before the condition is known (upstream's dead code analysis
    /// decides the same way, from constant propagation).
    fn visit_if(&mut self, op: OperationRef) -> Result<(), PassFailed> {
        let condition = IfOp::of(op).ok_or_else(|| fail(&op, "scf.if expected"))?.condition();
        let Some(condition) = self.get(condition) else { return Ok(()) };
        let regions: Vec<RegionRef> = op.regions().collect();
        let live: Vec<RegionRef> = match condition.constant {
            Some(0) => regions.into_iter().skip(1).collect(),
            Some(_) => regions.into_iter().take(1).collect(),
            None => regions,
        };
        self.visit_yielding_regions(op, &live)
    }

    /// Ops whose regions take no arguments and yield the op's results.
    fn visit_yielding_regions(&mut self, op: OperationRef, regions: &[RegionRef]) -> Result<(), PassFailed> {
        let results: Vec<Value> = results(op).collect();
        for region in regions {
            let Some(block) = region.first_block() else { continue };
            self.visit_region(*region)?;
            self.flow_all(&terminator_operands(block), &results);
        }
        Ok(())
    }

    /// `scf.while`: the "before" region gets the initial values and what the
    /// "after" region yields; the condition forwards values to the "after"
    /// region and to the results.
    fn visit_while(&mut self, op: OperationRef) -> Result<(), PassFailed> {
        let before = entry_block(op, 0)?;
        let after = entry_block(op, 1)?;
        let inits: Vec<Value> = op.operands().collect();
        let before_arguments: Vec<Value> = block_arguments(before).collect();
        self.flow_all(&inits, &before_arguments);
        self.flow_all(&terminator_operands(after), &before_arguments);
        self.visit_region(op.region_at(0).map_err(|_| fail(&op, "scf.while regions expected"))?)?;
        let forwarded: Vec<Value> = terminator_operands(before).into_iter().skip(1).collect();
        let after_arguments: Vec<Value> = block_arguments(after).collect();
        self.flow_all(&forwarded, &after_arguments);
        self.visit_region(op.region_at(1).map_err(|_| fail(&op, "scf.while regions expected"))?)?;
        let results: Vec<Value> = results(op).collect();
        self.flow_all(&forwarded, &results);
        Ok(())
    }

    /// `ttg.warp_specialize`: the default region yields the results; the
    /// partitions (nested) see the captures.
    fn visit_warp_specialize(&mut self, op: OperationRef) -> Result<(), PassFailed> {
        let default = op.region_at(0).map_err(|_| fail(&op, "default region expected"))?;
        self.visit_yielding_regions(op, &[default])?;
        for region in op.regions().skip(1) {
            self.visit_region(region)?;
        }
        Ok(())
    }

    /// Partition regions take the captures of their `ttg.warp_specialize`,
    /// joined with the unconstrained state upstream starts them from (so
    /// their constant values are dropped).
    fn visit_partitions(&mut self, op: OperationRef) -> Result<(), PassFailed> {
        let captures: Vec<Value> = op.parent_operation().map(|p| p.operands().collect()).unwrap_or_default();
        for region in op.regions() {
            if let Some(entry) = region.first_block() {
                for (argument, capture) in block_arguments(entry).zip(&captures) {
                    let state = entry_state(argument)?;
                    self.join(argument, &state);
                    self.flow(*capture, argument);
                }
            }
            self.visit_region(region)?;
        }
        Ok(())
    }

    /// Unstructured control flow: `cf.br` and `cf.cond_br` pass operands to
    /// their successors' arguments; other branches pass nothing known.
    fn visit_branch(&mut self, op: OperationRef) -> Result<(), PassFailed> {
        if op.successor_count() == 0 {
            return Ok(());
        }
        let operands: Vec<Value> = op.operands().collect();
        let successors: Vec<BlockRef> = op.successors().collect();
        let passed: Vec<&[Value]> = match name_of(&op).as_str() {
            "cf.br" => vec![&operands[..]],
            "cf.cond_br" => {
                let segments =
                    operand_segments(&op).filter(|s| s.len() == 3 && s.iter().sum::<usize>() == operands.len());
                let Some(segments) = segments else {
                    return Err(fail(&op, "cf.cond_br operand segments expected"));
                };
                let true_end = 1 + segments[1];
                vec![&operands[1..true_end], &operands[true_end..]]
            }
            _ => vec![],
        };
        for (index, successor) in successors.iter().enumerate() {
            let arguments: Vec<Value> = block_arguments(*successor).collect();
            match passed.get(index) {
                Some(values) => self.flow_all(values, &arguments),
                None => {
                    for argument in arguments {
                        let state = entry_state(argument)?;
                        self.join(argument, &state);
                    }
                }
            }
        }
        Ok(())
    }
}

/// The rule of `op`, applied.
fn apply_rule(op: OperationRef, operands: &[AxisInfo], shape: Option<&[i64]>) -> Option<AxisInfo> {
    let binary = |b: Binary| transfer(Rule::Binary(b), operands, shape);
    let operand_type = |i: usize| op.operand_at(i).ok().map(|v| v.r#type());
    match name_of(&op).as_str() {
        "arith.extsi"
        | "arith.extui"
        | "arith.trunci"
        | "ttg.convert_layout"
        | "tt.bitcast"
        | "gluon.set_auto_layout"
        | "builtin.unrealized_conversion_cast" => transfer(Rule::Forward, operands, shape),
        "tt.make_range" => {
            let start = u32::try_from(int_attribute(&op, "start")?).ok()?;
            let end = u32::try_from(int_attribute(&op, "end")?).ok()?;
            transfer(Rule::MakeRange { start, end }, operands, shape)
        }
        "ub.poison" => transfer(Rule::Poison, operands, shape),
        "arith.constant" => {
            let value = integer_constant(op.attribute("value").ok()?)?;
            transfer(Rule::Constant { value }, operands, shape)
        }
        "arith.addi" => binary(Binary::Add),
        "arith.subi" => binary(Binary::Sub),
        "tt.addptr" => {
            let bits = pointee_bit_width(operand_type(0)?)?;
            binary(Binary::AddPtr { element_bytes: i64::from((bits / 8).max(1)) })
        }
        "arith.muli" => binary(Binary::Mul),
        "arith.divsi" | "arith.divui" => binary(Binary::Div),
        "arith.remsi" | "arith.remui" => binary(Binary::Rem),
        "arith.andi" => binary(Binary::And),
        "arith.ori" => binary(Binary::Or),
        "arith.xori" => binary(Binary::Xor),
        "arith.shli" => binary(Binary::Shl),
        "arith.shrui" | "arith.shrsi" => binary(Binary::Shr),
        "tt.splat" => transfer(Rule::Splat, operands, shape),
        "tt.load" => transfer(Rule::Load, operands, shape),
        "tt.expand_dims" => {
            let axis = usize::try_from(int_attribute(&op, "axis")?).ok()?;
            transfer(Rule::ExpandDims { axis }, operands, shape)
        }
        "tt.broadcast" => {
            let operand_shape = static_shape(operand_type(0)?)?;
            transfer(Rule::Broadcast { operand_shape: &operand_shape }, operands, shape)
        }
        "arith.cmpi" => {
            let predicate = Predicate::from_value(int_attribute(&op, "predicate")?)?;
            transfer(Rule::Compare(predicate), operands, shape)
        }
        "arith.select" => {
            let scalar_condition = static_shape(operand_type(0)?).is_none();
            transfer(Rule::Select { scalar_condition }, operands, shape)
        }
        "arith.maxsi" | "arith.maxui" => transfer(Rule::Max, operands, shape),
        "arith.minsi" | "arith.minui" => transfer(Rule::Min, operands, shape),
        "tt.trans" => {
            let order = dense_i32_array(op.attribute("order").ok()?)?;
            let order: Vec<usize> = order.into_iter().map(usize::try_from).collect::<Result<_, _>>().ok()?;
            transfer(Rule::Trans { order: &order }, operands, shape)
        }
        _ => None,
    }
}

/// The state of a value the analysis cannot derive: nothing known, except
/// what hints say (function argument attributes, or attributes on the
/// defining op).
pub(super) fn entry_state(value: Value) -> Result<AxisInfo, PassFailed> {
    let mut info = AxisInfo::pessimistic(axis_rank(value.r#type()));
    if let Some(argument) = as_block_argument(value) {
        let index = argument.argument_number();
        let block = argument.owner();
        let Some(parent) = block.parent_operation() else { return Ok(info) };
        let is_entry = block.parent_region().and_then(|r| r.first_block()) == Some(block);
        if !is_entry {
            return Ok(info);
        }
        match name_of(&parent).as_str() {
            "tt.func" | "func.func" => {
                apply_hints(&parent, &mut info, |name| argument_attribute(&parent, index, name))?;
            }
            "ttg.warp_specialize.partitions" => info = AxisInfo::unconstrained(info.rank()),
            _ => {}
        }
    } else if let Some(result) = as_op_result(value) {
        let owner = result.owner();
        apply_hints(&owner, &mut info, |name| owner.discardable_attribute(name).ok())?;
    }
    Ok(info)
}

/// Overrides the properties that hints (`tt.contiguity = 16`,
/// `tt.divisibility = dense<[1, 16]> : tensor<2xi32>`, ...) give.
fn apply_hints<'c>(
    op: &OperationRef,
    info: &mut AxisInfo,
    hint: impl Fn(&str) -> Option<melior::ir::Attribute<'c>>,
) -> Result<(), PassFailed> {
    for (name, kind) in HINTS {
        let Some(attribute) = hint(name) else { continue };
        let Some(values) = hint_values(attribute) else {
            return Err(fail(op, format!("'{name}' must be an integer or dense i32/i64 elements, got {attribute}")));
        };
        if values.len() != info.rank() {
            return Err(fail(op, format!("'{name}' has {} values for a value of rank {}", values.len(), info.rank())));
        }
        match kind {
            HintKind::Contiguity => info.contiguity = values,
            HintKind::Divisibility => info.divisibility = values,
            HintKind::Constancy => info.constancy = values,
        }
    }
    Ok(())
}

fn results<'c, 'a>(op: OperationRef<'c, 'a>) -> impl Iterator<Item = Value<'c, 'a>> {
    (0..op.result_count()).filter_map(move |i| op.result_at(i).ok().map(Value::from))
}

fn block_arguments<'c, 'a>(block: BlockRef<'c, 'a>) -> impl Iterator<Item = Value<'c, 'a>> {
    (0..block.argument_count()).filter_map(move |i| block_argument_at(block, i).ok().map(Value::from))
}

fn entry_block<'c, 'a>(op: OperationRef<'c, 'a>, region: usize) -> Result<BlockRef<'c, 'a>, PassFailed> {
    op.region_at(region)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| fail(&op, format!("region #{region} with a block expected")))
}

/// Operands of `block`'s terminator (what it yields or forwards).
fn terminator_operands<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    block.terminator().map(|t| t.operands().collect()).unwrap_or_default()
}

/// Calls `f` on every block nested in `op`.
fn for_each_block(op: OperationRef, f: &mut dyn FnMut(BlockRef) -> Result<(), PassFailed>) -> Result<(), PassFailed> {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            f(b)?;
            let mut next = b.first_operation();
            while let Some(inner) = next {
                for_each_block(inner, f)?;
                next = inner.next_in_block();
            }
            block = b.next_in_region();
        }
    }
    Ok(())
}

/// `operandSegmentSizes` of an op with variadic operand groups.
fn operand_segments(op: &OperationRef) -> Option<Vec<usize>> {
    let values = dense_i32_array(op.attribute("operandSegmentSizes").ok()?)?;
    values.into_iter().map(|v| usize::try_from(v).ok()).collect()
}

use tritium_dialects::ir::dense_i32s as dense_i32_array;
