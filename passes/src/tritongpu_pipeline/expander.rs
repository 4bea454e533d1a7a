//! The loop expander (upstream `PipelineExpander.cpp`, Triton's fork of
//! MLIR's `scf` loop pipeliner), as the NVIDIA pipeliner uses it: dynamic
//! loops, no peeled epilogue, ops of a stage predicated by wrapping them in
//! `ttg.mask` (see [`super::mask`]).
//!
//! Given each op's stage (the loop body ordered by the schedule), with
//! `S` the last stage:
//!
//! - the prologue, before the loop, runs iterations `0..S` of the stages
//!   that have started: part `i` holds the ops of stages `0..=i`, for
//!   iteration `i - stage`, each predicated by `lb + (i - stage) * step < ub`;
//! - the kernel loop runs every op once per iteration, an op of stage `s`
//!   for the iteration `S - s` behind the latest; the ops of stages before
//!   `S` are predicated by `iv < ub - (S - s) * step`, so the last
//!   iterations run the late stages only;
//! - a value used `k` stages after the one defining it is carried through
//!   `k` new iter_args, the latest version first.
//!
//! Every version of a value is tracked by index (upstream `valueMapping`):
//! version `v` of a value is the one iteration `v` computed, counting from
//! the start of the prologue.
use super::builder::{Builder, CmpI};
use super::loops::{body, induction_variable, init_args, iter_args, walk_pre, LOWER, STEP, UPPER};
use super::mask::wrap_in_mask;
use crate::ir::{erase, fail, name_of, replace_all_uses};
use crate::ssa::{
    argument_number, argument_owner, block_arguments, defining_op, has_uses, op_key, set_operand, value_key, Key,
};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    Block, BlockLike, BlockRef, Identifier, Location, Operation, OperationRef, Region, RegionLike, Type, Value,
    ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{emit_error, PassFailed};

/// Pipelines `lp` with `schedule` (its body's ops in kernel order, with
/// stages). Returns the new loop; `None` when the loop cannot be pipelined
/// (it is then left as it is).
/// Test-only loop attribute (as upstream's): the kernel's stage predicates
/// stay `ttg.predicate_stage` ops, for tests to see which stage each
/// predicate is for.
const KEEP_PREDICATE_STAGE: &str = "__test_keep_predicate_stage";

pub fn pipeline_for_loop<'c, 'a>(
    lp: OperationRef<'c, 'a>,
    schedule: Vec<(OperationRef<'c, 'a>, usize)>,
) -> Result<Option<OperationRef<'c, 'a>>, PassFailed> {
    let Some(mut expander) = Expander::new(lp, schedule) else { return Ok(None) };
    let mut prologue = Builder::before(lp);
    prologue.location = lp.location();
    expander.emit_prologue(&mut prologue)?;
    let cross_stage = expander.cross_stage_values();
    let (new_loop, loop_args) = expander.create_kernel_loop(&cross_stage, &mut prologue)?;
    expander.create_kernel(new_loop, &cross_stage, &loop_args)?;
    for (old, new) in lp.results().zip(new_loop.results()) {
        replace_all_uses(old.into(), new.into());
    }
    erase(lp);
    Ok(Some(new_loop))
}

/// Where a value used in a later stage than its definition lives.
#[derive(Clone, Copy, Default)]
struct LiveRange {
    def_stage: usize,
    last_use_stage: usize,
}

/// The versions of a value, by iteration (see [`Expander::versions`]).
type Versions<'c, 'a> = Vec<Option<Value<'c, 'a>>>;

/// For each value used across stages and each distance from its definition
/// (1 ..= its live range), the index of the kernel iter_arg carrying it.
type LoopArgs = HashMap<(Key, usize), usize>;

/// MLIR's `IRMapping` for the kernel: old values and ops to their clones.
#[derive(Default)]
struct Mapping<'c, 'a> {
    values: HashMap<Key, Value<'c, 'a>>,
    ops: HashMap<Key, OperationRef<'c, 'a>>,
}

impl<'c, 'a> Mapping<'c, 'a> {
    fn lookup_or_default(&self, value: Value<'c, 'a>) -> Value<'c, 'a> {
        self.values.get(&value_key(value)).copied().unwrap_or(value)
    }
}

struct Expander<'c, 'a> {
    lp: OperationRef<'c, 'a>,
    body: BlockRef<'c, 'a>,
    terminator: OperationRef<'c, 'a>,
    max_stage: usize,
    stages: HashMap<Key, usize>,
    order: Vec<OperationRef<'c, 'a>>,
    lower: Value<'c, 'a>,
    upper: Value<'c, 'a>,
    step: Value<'c, 'a>,
    /// Whether the trip count is only known at run time (the prologue's
    /// iterations are then predicated).
    dynamic: bool,
    /// Upstream `valueMapping`: version `v` of a value of the loop body is
    /// what iteration `v` computes (in the prologue; in the kernel, counted
    /// back from the latest iteration).
    versions: HashMap<Key, Versions<'c, 'a>>,
}

/// An `arith.constant` of `index` type.
fn constant_index(value: Value) -> Option<i64> {
    defining_op(value).filter(|op| name_of(op) == "arith.constant")?;
    if !tritium_dialects::ir::is_index(value.r#type()) {
        return None;
    }
    crate::op_traits::constant_integer(value)
}

impl<'c, 'a> Expander<'c, 'a> {
    /// Upstream `initializeLoopInfo`: `None` when the loop does not meet the
    /// expander's conditions.
    fn new(lp: OperationRef<'c, 'a>, schedule: Vec<(OperationRef<'c, 'a>, usize)>) -> Option<Self> {
        let body = body(&lp)?;
        let terminator = body.terminator()?;
        let (lower, upper, step) = (lp.operand_at(LOWER).ok()?, lp.operand_at(UPPER).ok()?, lp.operand_at(STEP).ok()?);
        // As upstream, the trip count is compared with the number of stages
        // before that is known (zero): constant index bounds make the loop
        // static as soon as it runs at all.
        let mut dynamic = true;
        if let (Some(ub), Some(lb), Some(st)) = (constant_index(upper), constant_index(lower), constant_index(step)) {
            if st != 0 && div_ceil(ub - lb, st) > 0 {
                dynamic = false;
            }
        }
        if schedule.is_empty() {
            return None;
        }
        let max_stage = schedule.iter().map(|(_, s)| *s).max().unwrap_or(0);
        let stages: HashMap<Key, usize> = schedule.iter().map(|(op, s)| (op_key(op), *s)).collect();
        let order: Vec<OperationRef> = schedule.iter().map(|(op, _)| *op).collect();
        let expander = Self {
            lp,
            body,
            terminator,
            max_stage,
            stages,
            order,
            lower,
            upper,
            step,
            dynamic,
            versions: HashMap::new(),
        };
        for op in super::loops::body_ops(&lp) {
            if !expander.stages.contains_key(&op_key(&op)) {
                emit_error(op.location(), &format!("'{}' op not assigned a pipeline stage", name_of(&op)));
                return None;
            }
        }
        if !expander.verify_schedule() {
            return None;
        }
        if expander.order.iter().any(|op| op.block() != Some(body) || *op == terminator) {
            return None;
        }
        // Loop-carried values must come from the previous iteration or from
        // outside the loop.
        for value in terminator.operands() {
            match defining_op(value) {
                None => return None,
                Some(def) if !expander.stages.contains_key(&op_key(&def)) && crate::ssa::is_ancestor(&lp, def) => {
                    return None
                }
                _ => {}
            }
        }
        Some(expander)
    }

    fn stage(&self, op: &OperationRef) -> Option<usize> {
        self.stages.get(&op_key(op)).copied()
    }

    /// The op defining `value` and how many iterations back: a body iter_arg
    /// leads to what the yield passes it (upstream's expander-local
    /// `getDefiningOpAndDistance`).
    fn defining_op_and_distance(&self, value: Value<'c, 'a>) -> (Option<OperationRef<'c, 'a>>, usize) {
        let mut value = value;
        let mut distance = 0;
        if argument_owner(value).is_some() {
            if argument_owner(value) != Some(self.body) {
                return (None, 0);
            }
            let number = argument_number(value).unwrap_or(0);
            if number == 0 {
                return (None, 0);
            }
            distance = 1;
            value = self.terminator.operand_at(number - 1).expect("a yielded value per iter_arg");
        }
        (defining_op(value), distance)
    }

    /// Upstream `verifySchedule`: every op runs after its operands' producers
    /// in the unrolled pipeline.
    fn verify_schedule(&self) -> bool {
        let per_iteration = self.order.len() as i64;
        let cycles: HashMap<Key, i64> = self
            .order
            .iter()
            .enumerate()
            .map(|(cycle, op)| (op_key(op), cycle as i64 + self.stage(op).unwrap() as i64 * per_iteration))
            .collect();
        for consumer in &self.order {
            let consumer_cycle = cycles[&op_key(consumer)];
            for nested in super::loops::walk_post(consumer) {
                for operand in nested.operands() {
                    let (Some(producer), distance) = self.defining_op_and_distance(operand) else { continue };
                    let Some(producer_cycle) = cycles.get(&op_key(&producer)) else { continue };
                    if consumer_cycle < producer_cycle - per_iteration * distance as i64 {
                        emit_error(consumer.location(), "operation scheduled before its operands");
                        return false;
                    }
                }
            }
        }
        true
    }

    fn set_version(&mut self, key: Value<'c, 'a>, value: Value<'c, 'a>, index: usize) {
        let size = self.max_stage + 1;
        let versions = self.versions.entry(value_key(key)).or_insert_with(|| vec![None; size]);
        versions[index] = Some(value);
    }

    fn version(&self, key: Value<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
        self.versions.get(&value_key(key)).and_then(|v| v.get(index).copied().flatten())
    }

    /// Upstream `cloneAndUpdateOperands` for the prologue: a copy of `op`
    /// whose operands from outside it take their version `index`.
    fn clone_with_version(
        &self,
        builder: &mut Builder<'c, 'a>,
        op: &OperationRef<'c, 'a>,
        index: usize,
    ) -> Result<OperationRef<'c, 'a>, PassFailed> {
        let copy = builder.insert(clone(op));
        for nested in walk_pre(&copy) {
            for (position, operand) in nested.operands().enumerate() {
                let from_outside = match defining_op(operand) {
                    Some(def) => !crate::ssa::is_ancestor(&copy, def),
                    None => true,
                };
                if !from_outside || !self.versions.contains_key(&value_key(operand)) {
                    continue;
                }
                let replacement = self
                    .version(operand, index)
                    .ok_or_else(|| fail(op, "the pipeliner has no version of an operand"))?;
                set_operand(&nested, position, replacement);
            }
        }
        Ok(copy)
    }

    /// Upstream `emitPrologue`.
    fn emit_prologue(&mut self, builder: &mut Builder<'c, 'a>) -> Result<(), PassFailed> {
        for (argument, init) in iter_args(&self.lp).into_iter().zip(init_args(&self.lp)) {
            self.set_version(argument, init, 0);
        }
        let induction = induction_variable(&self.lp).unwrap();
        let yielded: Vec<Value> = self.terminator.operands().collect();
        let arguments = iter_args(&self.lp);
        let mut predicates: Vec<Option<Value>> = vec![None; self.max_stage];
        for i in 0..self.max_stage {
            // iv = lb + i * step; the iteration runs if iv < ub.
            let index = builder.constant(i as i64, self.lower.r#type());
            let offset = builder.binary("arith.muli", self.step, index);
            let iv = builder.binary("arith.addi", self.lower, offset);
            if self.dynamic {
                predicates[i] = Some(builder.cmpi(CmpI::Slt, iv, self.upper));
            }
            self.set_version(induction, iv, i);
            for op in self.order.clone() {
                let stage = self.stage(&op).unwrap();
                if stage > i {
                    continue;
                }
                let mut new_op = self.clone_with_version(builder, &op, i - stage)?;
                let predicate = predicates[i - stage];
                if let Some(predicate) = predicate {
                    new_op = wrap_in_mask(new_op, predicate)?;
                }
                for (index, result) in op.results().enumerate() {
                    let result: Value = result.into();
                    let new_result: Value = new_op.result_at(index).unwrap().into();
                    let mut source = new_result;
                    for (k, value) in yielded.iter().enumerate() {
                        if *value != result {
                            continue;
                        }
                        if let Some(predicate) = predicate {
                            if has_uses(self.lp.result_at(k).unwrap().into()) {
                                // Used after the loop: keep the previous value
                                // when this iteration does not run.
                                let previous = self
                                    .version(arguments[k], i - stage)
                                    .ok_or_else(|| fail(&op, "the pipeliner has no version of an iter_arg"))?;
                                source = builder.select(predicate, source, previous);
                            }
                        }
                        self.set_version(arguments[k], source, i - stage + 1);
                    }
                    self.set_version(result, new_result, i - stage);
                }
            }
        }
        Ok(())
    }

    /// Upstream `analyzeCrossStageValues`: the values used in a later stage
    /// than the one defining them, in order of first use.
    fn cross_stage_values(&self) -> Vec<(Value<'c, 'a>, LiveRange)> {
        let mut ranges: Vec<(Value, LiveRange)> = Vec::new();
        for op in &self.order {
            let stage = self.stage(op).unwrap();
            let mut analyze = |operand: Value<'c, 'a>| {
                let (Some(def), distance) = self.defining_op_and_distance(operand) else { return };
                let Some(def_stage) = self.stage(&def) else { return };
                if def_stage == stage || def_stage == stage + distance {
                    return;
                }
                let index = match ranges.iter().position(|(v, _)| *v == operand) {
                    Some(index) => index,
                    None => {
                        ranges.push((operand, LiveRange::default()));
                        ranges.len() - 1
                    }
                };
                let range = &mut ranges[index].1;
                range.def_stage = def_stage;
                range.last_use_stage = range.last_use_stage.max(stage);
            };
            for operand in op.operands() {
                analyze(operand);
            }
            // Values used inside the op's regions from outside them
            // (MLIR's `visitUsedValuesDefinedAbove`).
            for nested in crate::ir::collect_ops(*op, crate::ir::Order::Post) {
                for operand in nested.operands() {
                    if !super::loops::defined_inside(operand, op) && defining_op(operand) != Some(*op) {
                        analyze(operand);
                    }
                }
            }
        }
        ranges
    }

    /// Upstream `createKernelLoop`: the new loop, its inits the prologue's
    /// last versions of the iter_args, then of each cross-stage value.
    /// Returns it with the map (value, distance) -> iter_arg index.
    fn create_kernel_loop(
        &self,
        cross_stage: &[(Value<'c, 'a>, LiveRange)],
        builder: &mut Builder<'c, 'a>,
    ) -> Result<(OperationRef<'c, 'a>, LoopArgs), PassFailed> {
        let arguments = iter_args(&self.lp);
        let inits = init_args(&self.lp);
        let mut loop_args: Vec<Value> = Vec::new();
        for (k, value) in self.terminator.operands().enumerate() {
            let def = defining_op(value).ok_or_else(|| fail(&self.lp, "a loop-carried value without a defining op"))?;
            match self.stage(&def) {
                Some(def_stage) => loop_args.push(
                    self.version(arguments[k], self.max_stage - def_stage)
                        .ok_or_else(|| fail(&self.lp, "the pipeliner has no version of an iter_arg"))?,
                ),
                None => loop_args.push(inits[k]),
            }
        }
        let mut arg_map = HashMap::new();
        for (value, range) in cross_stage {
            for index in 0..(range.last_use_stage - range.def_stage) {
                let version = self
                    .version(*value, self.max_stage - range.last_use_stage + index)
                    .ok_or_else(|| fail(&self.lp, "the pipeliner has no version of a value used across stages"))?;
                loop_args.push(version);
                arg_map
                    .insert((value_key(*value), range.last_use_stage - range.def_stage - index), loop_args.len() - 1);
            }
        }
        let location = self.lp.location();
        let mut operands = vec![self.lower, self.upper, self.step];
        operands.extend_from_slice(&loop_args);
        let result_types: Vec<Type> = loop_args.iter().map(|v| v.r#type()).collect();
        let mut block_types: Vec<(Type, Location)> = vec![(self.lower.r#type(), location)];
        block_types.extend(loop_args.iter().map(|v| (v.r#type(), location)));
        let region = Region::new();
        region.append_block(Block::new(&block_types));
        let attributes: Vec<(Identifier, melior::ir::Attribute)> = self.lp.attributes().collect();
        let new_loop = OperationBuilder::new("scf.for", location)
            .add_operands(&operands)
            .add_results(&result_types)
            .add_attributes(&attributes)
            .add_regions([region])
            .build()
            .map_err(|_| fail(&self.lp, "cannot build the pipelined loop"))?;
        Ok((builder.insert(new_loop), arg_map))
    }

    /// Upstream `createKernel`: the body of the new loop.
    fn create_kernel(
        &mut self,
        new_loop: OperationRef<'c, 'a>,
        cross_stage: &[(Value<'c, 'a>, LiveRange)],
        arg_map: &LoopArgs,
    ) -> Result<(), PassFailed> {
        self.versions.clear();
        let new_body = body(&new_loop).unwrap();
        let new_arguments = block_arguments(&new_body);
        let (new_induction, new_iter_args) = new_arguments.split_first().unwrap();
        let induction = induction_variable(&self.lp).unwrap();
        let mut mapping = Mapping::default();
        mapping.values.insert(value_key(induction), *new_induction);
        for (old, new) in iter_args(&self.lp).into_iter().zip(new_iter_args) {
            mapping.values.insert(value_key(old), *new);
        }
        let mut builder = Builder::at_end(new_body, new_loop.location());
        // Stage i < S runs while iv < ub - (S - i) * step.
        let keep_predicate_stage = self.lp.has_attribute(KEEP_PREDICATE_STAGE);
        let mut predicates: Vec<Option<Value>> = vec![None; self.max_stage + 1];
        for (i, predicate) in predicates.iter_mut().enumerate().take(self.max_stage) {
            if keep_predicate_stage {
                let i1 = builder.integer_type(1);
                let int32 = |value: usize| -> melior::ir::Attribute {
                    let i32_type = builder.integer_type(32);
                    melior::ir::attribute::IntegerAttribute::new(i32_type, value as i64).into()
                };
                let attributes = [("maxStage", int32(self.max_stage)), ("stage", int32(i))];
                let operands = [*new_induction, self.upper, self.step];
                *predicate = Some(builder.value("ttg.predicate_stage", &operands, i1, &attributes));
                continue;
            }
            let distance = builder.constant((self.max_stage - i) as i64, self.upper.r#type());
            let offset = builder.binary("arith.muli", self.step, distance);
            let limit = builder.binary("arith.subi", self.upper, offset);
            *predicate = Some(builder.cmpi(CmpI::Slt, *new_induction, limit));
        }
        for op in self.order.clone() {
            let use_stage = self.stage(&op).unwrap();
            let mut new_op = clone_mapped(&mut builder, &op, &mut mapping);
            for nested in super::loops::walk_post(&op) {
                let nested_new = mapping.ops[&op_key(&nested)];
                for (position, operand) in nested.operands().enumerate() {
                    if operand == induction {
                        // The induction variable of a stage-`s` op is the
                        // kernel's plus (S - s) steps.
                        builder.set_before(new_op);
                        let stages_ahead = builder.constant((self.max_stage - use_stage) as i64, self.step.r#type());
                        let offset = builder.binary("arith.muli", self.step, stages_ahead);
                        let iv = builder.binary("arith.addi", *new_induction, offset);
                        set_operand(&nested_new, position, iv);
                        builder.set_after(new_op);
                        continue;
                    }
                    let mut source = operand;
                    if argument_owner(operand) == Some(self.body) {
                        let number = argument_number(operand).unwrap_or(0);
                        let yielded = self.terminator.operand_at(number - 1).unwrap();
                        let Some(dep) = defining_op(yielded) else { continue };
                        let Some(dep_stage) = self.stage(&dep) else { continue };
                        if dep_stage == use_stage {
                            continue;
                        }
                        // A value from the next stage is this iteration's.
                        if dep_stage == use_stage + 1 {
                            set_operand(&nested_new, position, mapping.lookup_or_default(yielded));
                            continue;
                        }
                        source = yielded;
                    }
                    let Some(def) = defining_op(source) else { continue };
                    let Some(def_stage) = self.stage(&def) else { continue };
                    if def_stage == use_stage {
                        continue;
                    }
                    let index = arg_map
                        .get(&(value_key(operand), use_stage - def_stage))
                        .ok_or_else(|| fail(&op, "the pipeliner lost a value used across stages"))?;
                    set_operand(&nested_new, position, new_iter_args[*index]);
                }
            }
            if let Some(predicate) = predicates[use_stage] {
                new_op = wrap_in_mask(new_op, predicate)?;
                for (old, new) in op.results().zip(new_op.results()) {
                    mapping.values.insert(value_key(old.into()), new.into());
                }
            }
        }
        // The yield: the loop's own values, then each cross-stage value's
        // versions, shifted by one iter_arg per iteration.
        let mut yielded: Vec<Value> = Vec::new();
        for (k, value) in self.terminator.operands().enumerate() {
            let mut source = mapping.lookup_or_default(value);
            if has_uses(self.lp.result_at(k).unwrap().into()) {
                // Used after the loop: the last iterations, which do not run
                // the early stages, keep the value they were given.
                if let (Some(def), _) = self.defining_op_and_distance(value) {
                    if let Some(def_stage) = self.stage(&def).filter(|s| *s < self.max_stage) {
                        let predicate = predicates[def_stage].unwrap();
                        source = builder.select(predicate, source, new_iter_args[k]);
                    }
                }
            }
            yielded.push(source);
        }
        for (value, range) in cross_stage {
            for _ in 1..(range.last_use_stage - range.def_stage) {
                yielded.push(new_iter_args[yielded.len() + 1]);
            }
            yielded.push(mapping.lookup_or_default(*value));
        }
        builder.create("scf.yield", &yielded, &[], &[]);
        Ok(())
    }
}

fn div_ceil(a: i64, b: i64) -> i64 {
    let quotient = a / b;
    if a % b != 0 && ((a > 0) == (b > 0)) {
        quotient + 1
    } else {
        quotient
    }
}

/// A detached deep copy of `op`.
pub fn clone<'c>(op: &OperationRef<'c, '_>) -> Operation<'c> {
    tritium_dialects::ir::clone_op(op)
}

/// MLIR's `OpBuilder::clone(op, mapping)`: a copy of `op` at the builder's
/// point whose operands from outside it go through `mapping`; `mapping`
/// learns the copies of `op`, its nested ops, their results and block
/// arguments.
fn clone_mapped<'c, 'a>(
    builder: &mut Builder<'c, 'a>,
    op: &OperationRef<'c, 'a>,
    mapping: &mut Mapping<'c, 'a>,
) -> OperationRef<'c, 'a> {
    let copy = builder.insert(clone(op));
    let (originals, copies) = (walk_pre(op), walk_pre(&copy));
    for (original, copied) in originals.iter().zip(&copies) {
        for (position, operand) in original.operands().enumerate() {
            if !super::loops::defined_inside(operand, op) {
                set_operand(copied, position, mapping.lookup_or_default(operand));
            }
        }
    }
    for (original, copied) in originals.iter().zip(&copies) {
        mapping.ops.insert(op_key(original), *copied);
        for (old, new) in original.results().zip(copied.results()) {
            mapping.values.insert(value_key(old.into()), new.into());
        }
        for (old_region, new_region) in original.regions().zip(copied.regions()) {
            let (mut old_block, mut new_block) = (old_region.first_block(), new_region.first_block());
            while let (Some(a), Some(b)) = (old_block, new_block) {
                for (x, y) in block_arguments(&a).into_iter().zip(block_arguments(&b)) {
                    mapping.values.insert(value_key(x), y);
                }
                old_block = a.next_in_region();
                new_block = b.next_in_region();
            }
        }
    }
    copy
}
