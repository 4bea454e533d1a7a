//! Latencies of Blackwell's tensor-core MMAs (`ttng.tc_gen5_mma`,
//! `ttng.tc_gen5_mma_scaled`; upstream `AssignMMALatencies` and
//! `MMAv5PipelineUtility.cpp`). An MMA whose operands are ready early
//! enough (loaded outside the loop, or by loads being pipelined) can overlap
//! its own next iteration: self latency 1 (`tt.self_latency`). Its users
//! can then also wait one iteration for its result (latency 1) unless that
//! needs a second accumulator buffer in tensor memory that cannot be had:
//! the accumulator is read in the loop and never reset there.
//!
//! The accumulator is the tensor memory of a `ttng.tmem_alloc` outside the
//! loop; anything else is treated pessimistically.
use crate::ir::name_of;
use crate::op_traits::constant_integer;
use crate::ssa::{argument_number, argument_owner, defining_op, is_ancestor, is_defined_outside, users};
use crate::tritongpu_pipeline::{
    loops::{ancestor_in_block, body, body_ops, yield_of},
    shared::{copy_vector_bytes, shared_encoding_of_load},
};
use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{LocalAllocOp, MemDescViewOp};
use tritium_dialects::{layout::layout_of, types::MemDesc};

/// The loop attribute that forbids a second accumulator buffer.
const DISALLOW_ACC_MULTI_BUFFER: &str = "tt.disallow_acc_multi_buffer";
/// The loop attribute of warp-specialized loops.
const WARP_SPECIALIZE: &str = "tt.warp_specialize";

fn is_mmav5(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled")
}

/// The latencies and self latencies of the MMAs of `lp`, given the
/// latencies of its loads (`latencies`, updated in place).
pub fn assign<'c, 'a>(
    lp: &OperationRef<'c, 'a>,
    latencies: &mut Vec<(OperationRef<'c, 'a>, i64)>,
    self_latencies: &mut Vec<OperationRef<'c, 'a>>,
) {
    let ops = body_ops(lp);
    // Loops that also hold synchronous dots keep their MMAs unpipelined:
    // peeling their last iteration pays better than a masked one.
    if ops.iter().any(|op| name_of(op) == "tt.dot") {
        return;
    }
    for mma in ops.iter().filter(|op| is_mmav5(op)) {
        let pipelined = |op: &OperationRef| latencies.iter().any(|(o, l)| o == op && *l > 0);
        let operands = OperandsState::of(mma, lp, &pipelined);
        if !(operands.pipelineable() || (operands.determined && !has_loads_after(mma, lp))) {
            continue;
        }
        self_latencies.push(*mma);
        if !requires_acc_multi_buffering(mma, lp)
            || (is_acc_multi_buffering_possible(mma, lp) && !lp.has_attribute(DISALLOW_ACC_MULTI_BUFFER))
        {
            set_latency(latencies, mma, 1);
        }
        // A warp-specialized MMA's users sit in another partition: one more
        // buffer lets them lag behind, unless the accumulator is read,
        // modified and written back in the loop.
        if is_warp_specialized(lp) {
            if has_acc_read_modify_write(mma, lp) {
                latencies.retain(|(op, _)| op != mma);
            } else {
                let current = latencies.iter().find(|(op, _)| op == mma).map_or(0, |(_, l)| *l);
                set_latency(latencies, mma, current + 1);
            }
        }
    }
}

fn set_latency<'c, 'a>(latencies: &mut Vec<(OperationRef<'c, 'a>, i64)>, op: &OperationRef<'c, 'a>, latency: i64) {
    match latencies.iter_mut().find(|(o, _)| o == op) {
        Some(entry) => entry.1 = latency,
        None => latencies.push((*op, latency)),
    }
}

/// The operands of an MMAv5 op, by `operandSegmentSizes`.
struct MmaOperands<'c, 'a> {
    a: Value<'c, 'a>,
    b: Value<'c, 'a>,
    accumulator: Value<'c, 'a>,
    scales: Option<(Value<'c, 'a>, Value<'c, 'a>)>,
    use_accumulator: Option<Value<'c, 'a>>,
}

impl<'c, 'a> MmaOperands<'c, 'a> {
    fn of(mma: &OperationRef<'c, 'a>) -> Option<Self> {
        let sizes = tritium_dialects::ir::dense_i32s(mma.attribute("operandSegmentSizes").ok()?)?;
        let first = |segment: usize| -> Option<Value<'c, 'a>> {
            let start: i32 = sizes.get(..segment)?.iter().sum();
            (*sizes.get(segment)? > 0).then(|| mma.operand_at(start as usize).ok()).flatten()
        };
        // (a, b, d, acc_dep?, [a_scale, b_scale,] useD, pred, ...)
        let scaled = name_of(mma) == "ttng.tc_gen5_mma_scaled";
        let use_segment = if scaled { 6 } else { 4 };
        Some(Self {
            a: first(0)?,
            b: first(1)?,
            accumulator: first(2)?,
            scales: if scaled { Some((first(4)?, first(5)?)) } else { None },
            use_accumulator: first(use_segment),
        })
    }
}

/// Upstream `MMAv5PipelineableOperandsHelper`: whether the operands are
/// known to be ready early (`determined`), and the in-loop ops that make
/// some of them not (`blockers`).
struct OperandsState {
    determined: bool,
    blockers: usize,
}

impl OperandsState {
    fn pipelineable(&self) -> bool {
        self.determined && self.blockers == 0
    }

    fn of(mma: &OperationRef, lp: &OperationRef, pipelined: &dyn Fn(&OperationRef) -> bool) -> Self {
        let mut state = OperandsState { determined: true, blockers: 0 };
        let Some(operands) = MmaOperands::of(mma) else { return state };
        // (Upstream's helper then reports "determined, not pipelineable".)
        if accumulator_alloc(&operands, lp).is_none() {
            return state;
        }
        let check = |value: Value, state: &mut OperandsState| match operand_readiness(value, lp, pipelined) {
            Readiness::Ready => {}
            Readiness::Blocked => state.blockers += 1,
            Readiness::Unknown => state.determined = false,
        };
        check(operands.a, &mut state);
        check(operands.b, &mut state);
        if let Some((a_scale, b_scale)) = operands.scales {
            // Scales in tensor memory made in the loop: where they are
            // written is not followed.
            let in_shared_or_outside = |scale: Value| {
                MemDesc::of(scale.r#type()).is_some_and(|m| layout_of(m.encoding).is_ok_and(|l| l.is_shared()))
                    || is_defined_outside(scale, lp)
            };
            if !in_shared_or_outside(a_scale) || !in_shared_or_outside(b_scale) {
                return OperandsState { determined: false, blockers: state.blockers };
            }
            check(a_scale, &mut state);
            check(b_scale, &mut state);
        }
        state
    }
}

enum Readiness {
    /// Made outside the loop, or by a load being pipelined.
    Ready,
    /// Made in the loop by an op that keeps the MMA from overlapping.
    Blocked,
    /// Not known.
    Unknown,
}

/// Upstream `isOperandPipelineableBase`, through shared-memory views.
fn operand_readiness<'c, 'a>(
    mut value: Value<'c, 'a>,
    lp: &OperationRef<'c, 'a>,
    pipelined: &dyn Fn(&OperationRef) -> bool,
) -> Readiness {
    if is_defined_outside(value, lp) {
        return Readiness::Ready;
    }
    let mut producer = match defining_op(value) {
        Some(op) => op,
        None => return Readiness::Unknown,
    };
    while matches!(name_of(&producer).as_str(), "ttg.memdesc_trans" | "ttg.memdesc_reshape") {
        value = MemDescViewOp::of(producer).expect("a memdesc view").src();
        if is_defined_outside(value, lp) {
            return Readiness::Ready;
        }
        producer = match defining_op(value) {
            Some(op) => op,
            None => return Readiness::Unknown,
        };
    }
    match name_of(&producer).as_str() {
        "ttg.local_store" | "ttng.tmem_store" | "ttng.tmem_alloc" => return Readiness::Blocked,
        "ttg.local_alloc" => {}
        _ => return Readiness::Unknown,
    }
    let Some(source) = LocalAllocOp::of(producer).and_then(|alloc| alloc.src()) else { return Readiness::Blocked };
    if is_defined_outside(source, lp) {
        return Readiness::Ready;
    }
    let Some(load) = defining_op(source) else { return Readiness::Blocked };
    if !matches!(name_of(&load).as_str(), "tt.load" | "tt.descriptor_load" | "tt.descriptor_gather") {
        return Readiness::Blocked;
    }
    if pipelined(&load) && can_be_async_load(&load) {
        Readiness::Ready
    } else {
        Readiness::Blocked
    }
}

/// Upstream `canBeAsyncLoad` (without alignment facts): TMA loads, and
/// loads whose copies into their shared layout move 4 bytes or more.
fn can_be_async_load(load: &OperationRef) -> bool {
    if name_of(load) != "tt.load" {
        return true;
    }
    let Ok(result) = load.result_at(0) else { return false };
    shared_encoding_of_load(load)
        .and_then(|encoding| copy_vector_bytes(result.r#type(), encoding))
        .is_some_and(|bytes| bytes >= 4)
}

/// The `ttng.tmem_alloc` outside `lp` holding the accumulator.
fn accumulator_alloc<'c, 'a>(operands: &MmaOperands<'c, 'a>, lp: &OperationRef) -> Option<OperationRef<'c, 'a>> {
    defining_op(operands.accumulator)
        .filter(|alloc| name_of(alloc) == "ttng.tmem_alloc")
        .filter(|_| is_defined_outside(operands.accumulator, lp))
}

/// The users of the accumulator's allocation named `name` inside `lp`.
fn accumulator_users_in<'c, 'a>(
    alloc: &OperationRef<'c, 'a>,
    lp: &OperationRef,
    name: &str,
) -> Vec<OperationRef<'c, 'a>> {
    users(alloc.result_at(0).unwrap().into())
        .into_iter()
        .filter(|user| name_of(user) == name && user.parent_operation().is_some_and(|p| is_ancestor(lp, p)))
        .collect()
}

/// Upstream `hasLoadsAfterMMA`: the loop reads the accumulator after the
/// MMA.
fn has_loads_after(mma: &OperationRef, lp: &OperationRef) -> bool {
    let Some(alloc) = MmaOperands::of(mma).and_then(|o| accumulator_alloc(&o, lp)) else { return false };
    let Some(block) = body(lp) else { return false };
    users(alloc.result_at(0).unwrap().into())
        .into_iter()
        .filter(|user| name_of(user) == "ttng.tmem_load")
        .filter_map(|user| ancestor_in_block(&block, user))
        .any(|top| mma.is_before_in_block(top))
}

/// Upstream `requiresAccMultiBuffering`: the loop reads the accumulator
/// (assumed when its allocation is not found).
fn requires_acc_multi_buffering(mma: &OperationRef, lp: &OperationRef) -> bool {
    match MmaOperands::of(mma).and_then(|o| accumulator_alloc(&o, lp)) {
        Some(alloc) => !accumulator_users_in(&alloc, lp, "ttng.tmem_load").is_empty(),
        None => true,
    }
}

/// Upstream `isAccMultibufferingPossible`: the loop starts the accumulator
/// afresh somewhere (a use flag that is false or computed in the loop, or a
/// store over it), the only place buffers can be swapped.
fn is_acc_multi_buffering_possible(mma: &OperationRef, lp: &OperationRef) -> bool {
    let Some(operands) = MmaOperands::of(mma) else { return false };
    acc_use_flag_set_to_false(&operands, lp)
        || accumulator_alloc(&operands, lp)
            .is_some_and(|alloc| !accumulator_users_in(&alloc, lp, "ttng.tmem_store").is_empty())
}

/// Upstream `accUseFlagSetToFalse`: the flag is a constant false, or is (or
/// is carried from) a value computed in the loop.
fn acc_use_flag_set_to_false(operands: &MmaOperands, lp: &OperationRef) -> bool {
    let Some(mut flag) = operands.use_accumulator else { return false };
    if constant_integer(flag) == Some(0) {
        return true;
    }
    let Some(terminator) = yield_of(lp) else { return false };
    let mut hops = 0;
    while argument_owner(flag).is_some_and(|b| Some(b) == body(lp)) && hops < 64 {
        let Some(number) = argument_number(flag).filter(|&n| n > 0) else { return false };
        let Ok(yielded) = terminator.operand_at(number - 1) else { return false };
        flag = yielded;
        hops += 1;
    }
    defining_op(flag).is_some_and(|op| is_ancestor(lp, op))
}

/// Upstream `hasAccReadModifyWrite`: a value read from the accumulator in
/// the loop is changed and stored back into it.
fn has_acc_read_modify_write(mma: &OperationRef, lp: &OperationRef) -> bool {
    let Some(alloc) = MmaOperands::of(mma).and_then(|o| accumulator_alloc(&o, lp)) else { return true };
    let stores = accumulator_users_in(&alloc, lp, "ttng.tmem_store");
    let loads = accumulator_users_in(&alloc, lp, "ttng.tmem_load");
    if stores.is_empty() || loads.is_empty() {
        return false;
    }
    let mut seen: Vec<Value> = Vec::new();
    // Values read unchanged, then values derived from them.
    let mut read: Vec<Value> = loads.iter().filter_map(|l| l.result_at(0).ok().map(Value::from)).collect();
    let mut modified: Vec<Value> = Vec::new();
    while let Some(value) = read.pop() {
        if seen.contains(&value) {
            continue;
        }
        seen.push(value);
        for use_ in crate::ssa::uses(value) {
            if stores.contains(&use_.owner) {
                continue;
            }
            let (through_yield, next) = forwarded(&use_, lp);
            if through_yield {
                read.extend(next)
            } else {
                modified.extend(next)
            }
        }
    }
    while let Some(value) = modified.pop() {
        if seen.contains(&value) {
            continue;
        }
        seen.push(value);
        for use_ in crate::ssa::uses(value) {
            if stores.contains(&use_.owner) {
                return true;
            }
            modified.extend(forwarded(&use_, lp).1);
        }
    }
    false
}

/// Where a use sends a value on (`true` for a yield): an `scf.if`'s result
/// or the loop's next iteration for a yield, the user's results otherwise.
fn forwarded<'c, 'a>(use_: &crate::ssa::Use<'c, 'a>, lp: &OperationRef<'c, 'a>) -> (bool, Vec<Value<'c, 'a>>) {
    let owner = use_.owner;
    if name_of(&owner) != "scf.yield" {
        return (false, owner.results().map(Value::from).collect());
    }
    let mut next = Vec::new();
    if let Some(parent) = owner.parent_operation() {
        if name_of(&parent) == "scf.if" {
            next.extend(parent.result_at(use_.index).ok().map(Value::from));
        }
        if parent == *lp {
            next.extend(crate::tritongpu_pipeline::loops::iter_args(lp).get(use_.index).copied());
        }
    }
    (true, next)
}

/// Whether `lp` or a loop around it is warp-specialized.
fn is_warp_specialized(lp: &OperationRef) -> bool {
    let mut current = Some(*lp);
    while let Some(op) = current {
        if name_of(&op) == "scf.for" && op.has_attribute(WARP_SPECIALIZE) {
            return true;
        }
        current = op.parent_operation();
    }
    false
}

/// The attribute holding an MMA's self latency.
pub const SELF_LATENCY: &str = "tt.self_latency";
