//! `nvws-assign-stage-phase` (upstream's flag): gives every aref enter op
//! the stage (which buffer of the aref) and phase (the parity its barrier
//! waits for) it works on, and the matching exit and buffer ops the same
//! stage.
//!
//! - Per aref, producers (`put.enter`) and consumers (`get.enter`) are
//!   numbered separately, and within each, every partition using the aref
//!   keeps its own counter: stage starts at depth-1 and phase at 0 (put) or 1
//!   (get), and each enter first advances them (stage+1 wrapping to 0 at the
//!   depth, phase flipped on the wrap).
//! - The counters are threaded through the control flow that holds enter
//!   ops: loops get two more iter_args, ifs two more results, and the
//!   loops' and ifs' `ttg.partition` / `ttg.partition.outputs` grow with the
//!   partitions that compute them.
//! - Exit and buffer ops take the stage of the enter op whose token they use,
//!   followed through loop iter_args and yields.
//! - Scalar results of a `tt.warp_specialize` loop used outside it by the
//!   default code (no partition, or another warp-specialized loop) are then
//!   also computed in partition 0: their backward slice in the loop is given
//!   partition 0.
use crate::ir::{collect_ops, create, enclosing_module, erase, fail, module_functions, name_of, Order};
use crate::partition_attrs::{
    has_partition, has_warp_specialize_tag, partition_ids, partition_outputs, set_partition, set_partition_outputs,
    Ids, Placement, WARP_SPECIALIZE,
};
use crate::ssa::{defining_op, uses};
use crate::tritongpu_pipeline::loops::{add_iter_args, if_with_extra_results, FIRST_INIT};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, BlockLike, BlockRef, Location,
    OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use std::collections::{BTreeSet, HashMap, HashSet};
use tritium_dialects::{
    ir::{
        argument_number, argument_owner, block_arguments, block_ops, context_of, dense_i32_array, insert_before,
        op_key, replace_all_uses, set_attribute, set_operands, value_key,
    },
    pass::{PassDefinition, PassFailed, PassOptions, PassResult},
    types::MemDesc,
    views::{ArefBufferOp, ArefCreateOp, ArefEnterOp, IfOp},
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvws-assign-stage-phase",
    description: "Assign stages and phases to aref enter/exit ops, threading them through loops and ifs",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(root: OperationRef, _options: &PassOptions) -> PassResult {
    assign_in_module(enclosing_module(root).unwrap_or(root))
}

/// The pass on `module` (and the modules in it); nvws-lower-aref runs it
/// first, as upstream's nested pipeline does.
pub(crate) fn assign_in_module(module: OperationRef) -> PassResult {
    for module in std::iter::once(module).chain(tritium_dialects::ir::nested_modules(module)) {
        for function in module_functions(module) {
            assign_stage_phase(function)?;
        }
    }
    Ok(())
}

/// Ops whose stage operand names the aref buffer they work on (upstream's
/// `ArefStageInterface`).
const STAGE_OPS: &[&str] =
    &["nvws.aref.buffer", "nvws.aref.put.enter", "nvws.aref.get.enter", "nvws.aref.put.exit", "nvws.aref.get.exit"];

/// Which enter ops a run numbers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Producer,
    Consumer,
}

impl Side {
    fn enter_op(self) -> &'static str {
        match self {
            Side::Producer => "nvws.aref.put.enter",
            Side::Consumer => "nvws.aref.get.enter",
        }
    }

    /// Producers start on phase 0: their first wait must pass at once on
    /// fresh (empty) buffers; consumers wait for the first fill.
    fn initial_phase(self) -> i64 {
        match self {
            Side::Producer => 0,
            Side::Consumer => 1,
        }
    }
}

fn assign_stage_phase(function: OperationRef) -> PassResult {
    let arefs: Vec<_> =
        collect_ops(function, Order::Pre).into_iter().filter(|op| name_of(op) == "nvws.aref.create").collect();
    for aref in &arefs {
        number_enters(aref, Side::Producer)?;
        number_enters(aref, Side::Consumer)?;
    }
    give_scalar_results_to_default_partition(function)
}

/// The values of a counter at some point of the program: the stage and
/// phase, and the token of the last enter op they were used for.
#[derive(Clone, Copy)]
struct Index<'c, 'a> {
    stage: Value<'c, 'a>,
    phase: Value<'c, 'a>,
    token: Option<Value<'c, 'a>>,
}

/// `(op, token)` keys: where, at a loop or yield, the stage of a token sits.
type StageSlots = HashMap<(usize, Option<usize>), usize>;

fn slot_key(op: &OperationRef, token: Option<Value>) -> (usize, Option<usize>) {
    (op_key(op), token.map(value_key))
}

/// Upstream's `getArefDepth`: the leading dimension of the aref's first
/// buffer (1 for TMEM scales, which are not multi-buffered).
fn aref_depth(aref: &OperationRef) -> Result<i64, PassFailed> {
    let buffer = ArefCreateOp::of(*aref)
        .and_then(|create| create.buffers().first().copied())
        .ok_or_else(|| fail(aref, "nvws.aref.create without buffers"))?;
    let memdesc = MemDesc::of(buffer.r#type()).ok_or_else(|| fail(aref, "aref buffer is not a memdesc"))?;
    if memdesc.encoding.to_string().starts_with("#ttng.tensor_memory_scales_encoding") {
        return Ok(1);
    }
    memdesc.shape.first().copied().ok_or_else(|| fail(aref, "aref buffer of rank 0"))
}

fn i32_type(location: Location) -> Type {
    IntegerType::new(context_of(location), 32).into()
}

fn constant<'c>(location: Location<'c>, value: i64) -> melior::ir::Operation<'c> {
    let ty = i32_type(location);
    create("arith.constant", location, &[], &[ty], &[("value", IntegerAttribute::new(ty, value).into())])
}

fn number_enters(aref_op: &OperationRef, side: Side) -> PassResult {
    let aref: Value = aref_op.result(0).unwrap().into();
    let mut partitions: BTreeSet<i32> = BTreeSet::new();
    for user in uses(aref).into_iter().map(|u| u.owner) {
        if name_of(&user) == side.enter_op() {
            partitions.extend(partition_ids(&user).unwrap_or_default());
        }
    }
    if partitions.is_empty() {
        // Enter ops outside warp-specialized code still need their phases.
        partitions.insert(0);
    }
    let depth = aref_depth(aref_op)?;
    let location = aref_op.location();
    let block = aref_op.block().ok_or_else(|| fail(aref_op, "nvws.aref.create outside a block"))?;
    let stage = block.insert_operation_after(*aref_op, constant(location, depth - 1));
    let phase = block.insert_operation_after(stage, constant(location, side.initial_phase()));
    let index = Index { stage: stage.result(0).unwrap().into(), phase: phase.result(0).unwrap().into(), token: None };
    for partition in partitions {
        let mut numbering = Numbering { side, aref, partition, depth, slots: StageSlots::new() };
        numbering.in_block(&block, index)?;
        for user in uses(aref).into_iter().map(|u| u.owner) {
            let first_partition = partition_ids(&user).and_then(|ids| ids.first().copied());
            if name_of(&user) == side.enter_op() && first_partition.is_none_or(|first| first == partition) {
                let token: Value = user.result(user.result_count() - 1).unwrap().into();
                let stage = ArefEnterOp::of(user)
                    .and_then(|enter| enter.stage())
                    .ok_or_else(|| fail(&user, "enter op without a stage"))?;
                numbering.propagate_stage(token, stage, &mut HashSet::new())?;
            }
        }
    }
    Ok(())
}

/// The numbering of one side's enter ops of one aref in one partition.
struct Numbering<'c, 'a> {
    side: Side,
    aref: Value<'c, 'a>,
    partition: i32,
    depth: i64,
    slots: StageSlots,
}

impl<'c: 'a, 'a> Numbering<'c, 'a> {
    /// Whether `op` is an enter op this numbering counts.
    fn counts(&self, op: &OperationRef) -> bool {
        name_of(op) == self.side.enter_op()
            && ArefEnterOp::of(*op).is_some_and(|enter| enter.aref() == self.aref)
            && partition_ids(op).is_none_or(|ids| ids.contains(&self.partition))
    }

    fn uses_buffer(&self, op: &OperationRef, token: Option<Value>) -> bool {
        ArefBufferOp::of(*op).is_some_and(|buffer| buffer.aref() == self.aref && token == Some(buffer.token()))
    }

    /// Whether `block` (or what it holds) has an op this numbering counts
    /// or a buffer op reading `token`.
    fn used_in(&self, block: &BlockRef<'c, 'a>, token: Option<Value<'c, 'a>>) -> bool {
        for op in block_ops(block) {
            if self.counts(&op) || self.uses_buffer(&op, token) {
                return true;
            }
            match name_of(&op).as_str() {
                "scf.for" => {
                    let inits: Vec<Value> = op.operands().skip(FIRST_INIT).collect();
                    let body = op.region(0).unwrap().first_block().unwrap();
                    let inner = token.and_then(|t| inits.iter().position(|v| *v == t)).map(|pos| iter_arg(&body, pos));
                    if self.used_in(&body, inner) {
                        return true;
                    }
                }
                "scf.if" => {
                    for region in op.regions() {
                        if region.first_block().is_some_and(|b| self.used_in(&b, token)) {
                            return true;
                        }
                    }
                }
                _ => {}
            }
        }
        false
    }

    fn in_block(&mut self, block: &BlockRef<'c, 'a>, mut index: Index<'c, 'a>) -> Result<Index<'c, 'a>, PassFailed> {
        for op in block_ops(block) {
            if self.counts(&op) {
                index = self.advance(&op, index);
            } else if name_of(&op) == "scf.for" {
                self.in_loop(op, &mut index)?;
            } else if name_of(&op) == "scf.if" {
                self.in_if(op, &mut index)?;
            }
        }
        Ok(index)
    }

    /// Advances the counter before `enter` and gives it the new stage and
    /// phase.
    fn advance(&self, enter: &OperationRef<'c, 'a>, index: Index<'c, 'a>) -> Index<'c, 'a> {
        let location = enter.location();
        let placement = Placement::of(enter);
        let i32 = i32_type(location);
        let i1: Type = IntegerType::new(context_of(location), 1).into();
        let make = |op: melior::ir::Operation<'c>| -> Value<'c, 'a> {
            let op = insert_before(enter, op);
            placement.apply(&op);
            op.result(0).unwrap().into()
        };
        let one = make(constant(location, 1));
        let next = make(create("arith.addi", location, &[index.stage, one], &[i32], &[]));
        let depth = make(constant(location, self.depth));
        let eq = IntegerAttribute::new(IntegerType::new(context_of(location), 64).into(), 0).into();
        let wraps = make(create("arith.cmpi", location, &[next, depth], &[i1], &[("predicate", eq)]));
        let zero = make(constant(location, 0));
        let stage = make(create("arith.select", location, &[wraps, zero, next], &[i32], &[]));
        let one = make(constant(location, 1));
        let flipped = make(create("arith.xori", location, &[index.phase, one], &[i32], &[]));
        let phase = make(create("arith.select", location, &[wraps, flipped, index.phase], &[i32], &[]));
        set_operands(enter, &[self.aref, stage, phase]);
        set_attribute(enter, "operandSegmentSizes", dense_i32_array(location, &[1, 1, 1]));
        let token = enter.result(enter.result_count() - 1).unwrap().into();
        Index { stage, phase, token: Some(token) }
    }

    fn in_loop(&mut self, lp: OperationRef<'c, 'a>, index: &mut Index<'c, 'a>) -> PassResult {
        let inits: Vec<Value> = lp.operands().skip(FIRST_INIT).collect();
        let token_position = index.token.and_then(|t| inits.iter().position(|v| *v == t));
        let body = lp.region(0).unwrap().first_block().unwrap();
        if !self.used_in(&body, token_position.map(|pos| iter_arg(&body, pos))) {
            return Ok(());
        }
        let mut ids = partition_ids(&lp).ok_or_else(|| fail(&lp, "scf.for using an aref without ttg.partition"))?;
        let mut outputs =
            partition_outputs(&lp).ok_or_else(|| fail(&lp, "scf.for without a valid ttg.partition.outputs"))?;
        let count = inits.len();
        let lp = add_iter_args(lp, &[index.stage, index.phase]);
        let body = lp.region(0).unwrap().first_block().unwrap();
        if let Some(pos) = token_position {
            index.token = Some(iter_arg(&body, pos));
        }
        let inner = Index { stage: iter_arg(&body, count), phase: iter_arg(&body, count + 1), token: index.token };
        let last = self.in_block(&body, inner)?;
        let terminator = body.terminator().ok_or_else(|| fail(&lp, "scf.for without a yield"))?;
        let mut yielded: Vec<Value> = terminator.operands().collect();
        yielded.extend([last.stage, last.phase]);
        set_operands(&terminator, &yielded);
        self.slots.insert(slot_key(&lp, index.token), count);
        self.slots.insert(slot_key(&terminator, last.token), count);

        for value in [last.stage, last.phase] {
            let value_ids = computing_partitions(value)?;
            ids.extend(value_ids.iter().copied());
            outputs.push(value_ids);
        }
        set_partition(&lp, &ids);
        set_partition_outputs(&lp, &outputs);

        index.stage = lp.result(count).unwrap().into();
        index.phase = lp.result(count + 1).unwrap().into();
        if let Some(pos) = token_position {
            index.token = Some(lp.result(pos).unwrap().into());
        }
        Ok(())
    }

    fn in_if(&mut self, old: OperationRef<'c, 'a>, index: &mut Index<'c, 'a>) -> PassResult {
        let used = old.regions().any(|r| r.first_block().is_some_and(|b| self.used_in(&b, index.token)));
        if !used {
            return Ok(());
        }
        let ids = partition_ids(&old).ok_or_else(|| fail(&old, "scf.if using an aref without ttg.partition"))?;
        let mut outputs =
            partition_outputs(&old).ok_or_else(|| fail(&old, "scf.if without a valid ttg.partition.outputs"))?;
        let count = old.result_count();
        let new = if_with_extra_results(&old, &[index.stage.r#type(), index.phase.r#type()])?;
        for i in 0..count {
            replace_all_uses(old.result(i).unwrap().into(), new.result(i).unwrap().into());
        }
        erase(old);

        let mut token_position = None;
        let mut stage_ids = Ids::new();
        let mut phase_ids = Ids::new();
        for region in new.regions() {
            let block = region.first_block().unwrap();
            let branch = self.in_block(&block, *index)?;
            let terminator = block.terminator().ok_or_else(|| fail(&new, "scf.if branch without a yield"))?;
            let mut yielded: Vec<Value> = terminator.operands().collect();
            if let Some(pos) = index.token.and_then(|t| yielded.iter().position(|v| *v == t)) {
                token_position = Some(pos);
            }
            self.slots.insert(slot_key(&terminator, branch.token), yielded.len());
            yielded.extend([branch.stage, branch.phase]);
            set_operands(&terminator, &yielded);
            // A branch without enter ops yields the incoming counter, which
            // adds no partition.
            if let Some(def) = defining_op(branch.stage) {
                stage_ids.extend(partition_ids(&def).unwrap_or_default());
            }
            if let Some(def) = defining_op(branch.phase) {
                phase_ids.extend(partition_ids(&def).unwrap_or_default());
            }
        }
        outputs.extend([stage_ids, phase_ids]);
        set_partition(&new, &ids);
        set_partition_outputs(&new, &outputs);

        index.stage = new.result(count).unwrap().into();
        index.phase = new.result(count + 1).unwrap().into();
        if let Some(pos) = token_position {
            index.token = Some(new.result(pos).unwrap().into());
        }
        Ok(())
    }

    /// Gives the exit and buffer ops using `token` (through loops and
    /// yields) the stage `stage`.
    fn propagate_stage(&self, token: Value<'c, 'a>, stage: Value<'c, 'a>, visited: &mut HashSet<usize>) -> PassResult {
        for token_use in uses(token) {
            let owner = token_use.owner;
            if !visited.insert(op_key(&owner)) {
                continue;
            }
            let name = name_of(&owner);
            if STAGE_OPS.contains(&name.as_str()) {
                if let Some(block) = argument_owner(stage) {
                    // The stage is a loop's iter_arg: the loop now computes it
                    // for the partitions of this op too.
                    let op_ids = partition_ids(&owner).ok_or_else(|| fail(&owner, "aref op without ttg.partition"))?;
                    let lp = block.parent_operation().ok_or_else(|| fail(&owner, "stage of no loop"))?;
                    let position = argument_number(stage).unwrap_or(0).saturating_sub(1);
                    let mut ids = partition_ids(&lp).ok_or_else(|| fail(&lp, "scf.for without ttg.partition"))?;
                    ids.extend(op_ids.iter().copied());
                    set_partition(&lp, &ids);
                    let mut outputs =
                        partition_outputs(&lp).ok_or_else(|| fail(&lp, "scf.for without ttg.partition.outputs"))?;
                    for slot in outputs.iter_mut().skip(position).take(2) {
                        slot.extend(op_ids.iter().copied());
                    }
                    set_partition_outputs(&lp, &outputs);
                }
                set_stage(&owner, stage);
            } else if name == "scf.for" {
                let body = owner.region(0).unwrap().first_block().unwrap();
                let iter_token = iter_arg(&body, token_use.index - FIRST_INIT);
                let slot = self.slot(&owner, Some(iter_token))?;
                self.propagate_stage(iter_token, iter_arg(&body, slot), visited)?;
            } else if name == "scf.yield" {
                let slot = self.slot(&owner, Some(token))?;
                let parent = owner.parent_operation().ok_or_else(|| fail(&owner, "scf.yield outside an op"))?;
                let result = |i: usize| -> Result<Value<'c, 'a>, PassFailed> {
                    parent.result(i).map(Into::into).map_err(|_| fail(&parent, "yielded token without a result"))
                };
                self.propagate_stage(result(token_use.index)?, result(slot)?, visited)?;
            }
        }
        Ok(())
    }

    fn slot(&self, op: &OperationRef, token: Option<Value>) -> Result<usize, PassFailed> {
        self.slots
            .get(&slot_key(op, token))
            .copied()
            .ok_or_else(|| fail(op, "an aref token flows through here, but its stage does not"))
    }
}

/// Iter_arg `position` of a loop body (the induction variable comes first).
fn iter_arg<'c, 'a>(body: &BlockRef<'c, 'a>, position: usize) -> Value<'c, 'a> {
    block_arguments(body)[position + 1]
}

/// The partitions that compute `value`: its defining op's (the output's for
/// an op with regions), or for a block argument those of its users other
/// than yields.
fn computing_partitions(value: Value) -> Result<Ids, PassFailed> {
    match defining_op(value) {
        Some(def) if def.region_count() == 0 => {
            partition_ids(&def).ok_or_else(|| fail(&def, "op computing an aref stage without ttg.partition"))
        }
        Some(def) => {
            let position = tritium_dialects::ir::result_number(value).unwrap_or(0);
            let outputs =
                partition_outputs(&def).ok_or_else(|| fail(&def, "op without a valid ttg.partition.outputs"))?;
            Ok(outputs.get(position).cloned().unwrap_or_default())
        }
        None => {
            let mut ids = Ids::new();
            for user in uses(value).into_iter().map(|u| u.owner) {
                if name_of(&user) == "scf.yield" {
                    continue;
                }
                ids.extend(partition_ids(&user).ok_or_else(|| fail(&user, "aref stage user without ttg.partition"))?);
            }
            Ok(ids)
        }
    }
}

/// Sets the stage operand of an exit or buffer op (aref, token, stage).
fn set_stage<'c, 'a>(op: &OperationRef<'c, 'a>, stage: Value<'c, 'a>) {
    let mut operands: Vec<Value> = op.operands().collect();
    let name = name_of(op);
    if name.ends_with(".enter") {
        // aref, stage, phase: the stage is operand 1.
        if operands.len() >= 2 {
            operands[1] = stage;
            set_operands(op, &operands);
        }
        return;
    }
    operands.truncate(2);
    operands.push(stage);
    set_operands(op, &operands);
}

/// Adds partition 0 to `op` and to the partitions of its result `position`.
fn add_default_partition_to_output(op: &OperationRef, position: usize) -> PassResult {
    let mut ids = partition_ids(op).ok_or_else(|| fail(op, "op without ttg.partition"))?;
    ids.insert(0);
    set_partition(op, &ids);
    let mut outputs = partition_outputs(op).ok_or_else(|| fail(op, "op without a valid ttg.partition.outputs"))?;
    if let Some(slot) = outputs.get_mut(position) {
        slot.insert(0);
    }
    set_partition_outputs(op, &outputs);
    Ok(())
}

fn give_scalar_results_to_default_partition(function: OperationRef) -> PassResult {
    let loops: Vec<_> = collect_ops(function, Order::Post)
        .into_iter()
        .filter(|op| name_of(op) == "scf.for" && op.attribute(WARP_SPECIALIZE).is_ok())
        .collect();
    for lp in loops {
        let mut visited = HashSet::new();
        let body = lp.region(0).unwrap().first_block().unwrap();
        let terminator = body.terminator().ok_or_else(|| fail(&lp, "scf.for without a yield"))?;
        for (position, result) in lp.results().enumerate() {
            let ty = result.r#type();
            let scalar = ty.is_integer() || ty.is_float();
            let result: Value = result.into();
            let used_by_default = uses(result).into_iter().any(|u| {
                !has_partition(&u.owner) || (name_of(&u.owner) == "scf.for" && has_warp_specialize_tag(&u.owner))
            });
            if scalar && used_by_default {
                add_default_partition_to_output(&lp, position)?;
                let yielded = terminator.operand(position).unwrap();
                visit_backward_slice(&body, yielded, &mut visited)?;
            }
        }
    }
    Ok(())
}

/// Gives partition 0 to the ops of `body` (a warp-specialized loop's) that
/// `value` depends on, through loops and ifs, which also compute the
/// results on the way for partition 0.
fn visit_backward_slice(body: &BlockRef, value: Value, visited: &mut HashSet<usize>) -> PassResult {
    if !visited.insert(value_key(value)) {
        return Ok(());
    }
    let Some(def) = defining_op(value) else {
        let Some(lp) = argument_owner(value).and_then(|b| b.parent_operation()) else { return Ok(()) };
        if name_of(&lp) != "scf.for" || lp.attribute(WARP_SPECIALIZE).is_ok() {
            return Ok(());
        }
        // The induction variable has no init value.
        let Some(position) = argument_number(value).and_then(|n| n.checked_sub(1)) else { return Ok(()) };
        let init = lp.operand(FIRST_INIT + position).map_err(|_| fail(&lp, "iter_arg without an init value"))?;
        return visit_backward_slice(body, init, visited);
    };
    let position = tritium_dialects::ir::result_number(value).unwrap_or(0);
    match name_of(&def).as_str() {
        "scf.if" => {
            add_default_partition_to_output(&def, position)?;
            for region in def.regions() {
                if let Some(yielded) =
                    region.first_block().and_then(|b| b.terminator()).and_then(|t| t.operand(position).ok())
                {
                    visit_backward_slice(body, yielded, visited)?;
                }
            }
            visit_backward_slice(body, IfOp::of(def).expect("an scf.if").condition(), visited)
        }
        "scf.for" => {
            add_default_partition_to_output(&def, position)?;
            let inner = def.region(0).unwrap().first_block().unwrap();
            if let Some(yielded) = inner.terminator().and_then(|t| t.operand(position).ok()) {
                visit_backward_slice(body, yielded, visited)?;
            }
            for control in def.operands().take(FIRST_INIT) {
                visit_backward_slice(body, control, visited)?;
            }
            Ok(())
        }
        _ if tritium_dialects::ir::ancestor_in_block(body, def).is_some() => {
            if !["scf.yield", "tt.reduce"].contains(&name_of(&def).as_str()) {
                let mut ids = partition_ids(&def).ok_or_else(|| fail(&def, "op without ttg.partition"))?;
                ids.insert(0);
                set_partition(&def, &ids);
            }
            for operand in def.operands() {
                visit_backward_slice(body, operand, visited)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
