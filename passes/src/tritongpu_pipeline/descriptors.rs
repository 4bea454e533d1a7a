//! Tensor descriptors made inside a pipelined loop (upstream
//! `lowerTMADescriptors`, PipeliningUtility.cpp). A device-side descriptor
//! is a 128-byte tensormap in global memory that TMA copies read when they
//! run. Once the loop is pipelined, the copies of an iteration still run
//! (or wait) while later iterations make their own descriptors, so each
//! `tt.make_tensor_descriptor` of the loop gets a ring of tensormap slots
//! in global scratch instead of a single one:
//!
//! - before the loop, one `ttg.global_scratch_alloc` of `slots * 128` bytes
//!   per descriptor op, and a loop-carried slot counter starting at 0;
//! - where the descriptor was made, `ttng.tensormap_create` writes slot
//!   `counter` (`tt.addptr` of `128 * counter` bytes),
//!   `ttng.tensormap_fenceproxy_acquire` makes the write visible to the TMA
//!   unit, and `ttng.reinterpret_tensor_descriptor` of the slot replaces
//!   the descriptor; the counter then advances modulo `slots`;
//! - a descriptor made in a nested region (an `scf.if` taken when a new
//!   batch starts, say) passes its advanced counter out through the results
//!   of the enclosing ops (upstream `sinkValueRedefinition`).
//!
//! `slots` is the loop's last stage, plus one when a wgmma is in the body
//! (it may stay in flight one iteration longer). The original op stays,
//! unused, for the clean-up to erase.
use super::builder::Builder;
use super::loops::{add_iter_args, body, body_ops, if_with_extra_results, iter_args, yield_of};
use super::schedule::Schedule;
use crate::ir::{collect_ops, erase, fail, name_of, replace_all_uses, Order};
use crate::tensormap::{i8_pointer, Tensormap, TMA_ALIGN, TMA_SIZE_BYTES};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, Attribute, BlockLike, BlockRef,
    OperationRef, RegionLike, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::PassFailed;

/// Upstream `lowerTMADescriptors`: gives every `tt.make_tensor_descriptor`
/// in `lp` (nested ones included) a ring of tensormap slots, the slots
/// being the last stage of `schedule` (plus one with a wgmma). Returns the
/// loop, replaced when counters were added.
pub fn lower_tma_descriptors<'c, 'a>(
    lp: OperationRef<'c, 'a>,
    schedule: &mut Schedule,
) -> Result<OperationRef<'c, 'a>, PassFailed> {
    let mut slots = schedule.num_stages() - 1;
    if body_ops(&lp).iter().any(|op| name_of(op) == "ttng.warp_group_dot") {
        slots += 1;
    }
    let makes: Vec<OperationRef> =
        collect_ops(lp, Order::Post).into_iter().filter(|op| name_of(op) == "tt.make_tensor_descriptor").collect();
    // A single stage overlaps no iterations: the one slot each descriptor
    // gets in triton-nvidia-tma-lowering is enough (upstream would allocate
    // none and count modulo zero).
    if makes.is_empty() || slots < 1 {
        return Ok(lp);
    }
    // Check every descriptor before changing anything.
    let mut maps = Vec::new();
    for make in &makes {
        maps.push(Tensormap::of(make).map_err(|reason| fail(make, format!("no TMA descriptor: {reason}")))?);
    }
    let context_ref = lp.context();
    let context = unsafe { context_ref.to_ref() };
    let pointer_type = i8_pointer(context).ok_or_else(|| fail(&lp, "no !tt.ptr<i8> type"))?;
    let mut scratch = Vec::new();
    for make in &makes {
        let mut before = Builder::before(lp);
        before.location = make.location();
        let bytes = int32(context, slots * TMA_SIZE_BYTES);
        let alignment = int32(context, TMA_ALIGN);
        scratch.push(before.value(
            "ttg.global_scratch_alloc",
            &[],
            pointer_type,
            &[("nbytes", bytes), ("alignment", alignment)],
        ));
    }
    let mut before = Builder::before(lp);
    before.location = lp.location();
    let zero = before.constant_i32(0);
    let one = before.constant_i32(1);
    // One counter per descriptor op, so that each rewrites only its own slots.
    let first_counter = iter_args(&lp).len();
    let lp = add_iter_args(lp, &vec![zero; makes.len()]);
    let loop_yield = yield_of(&lp).ok_or_else(|| fail(&lp, "scf.for without a yield"))?;
    let mut yielded: Vec<Value> = loop_yield.operands().collect();
    yielded.extend(std::iter::repeat_n(zero, makes.len()));
    crate::ssa::set_operands(&loop_yield, &yielded);
    let mut before = Builder::before(lp);
    before.location = lp.location();
    let slot_count = before.constant_i32(slots);

    let body_block = body(&lp).ok_or_else(|| fail(&lp, "scf.for without a body"))?;
    for (index, make) in makes.iter().enumerate() {
        let counter = iter_args(&lp)[first_counter + index];
        let mut builder = Builder::before(*make);
        builder.location = make.location();
        builder.set_stage_cluster(schedule.get(make));
        let slot_bytes = builder.constant_i32(TMA_SIZE_BYTES);
        let offset = builder.binary("arith.muli", slot_bytes, counter);
        let slot = builder.value("tt.addptr", &[scratch[index], offset], pointer_type, &[]);
        maps[index].write(make, slot, &mut |op| builder.insert(op));
        builder.create("ttng.tensormap_fenceproxy_acquire", &[slot], &[], &[]);
        let result: Value = make.result_at(0).unwrap().into();
        let descriptor = builder.value("ttng.reinterpret_tensor_descriptor", &[slot], result.r#type(), &[]);
        replace_all_uses(result, descriptor);
        let (next, _) = builder.increment_modulo(counter, slot_count, zero, one);
        schedule.absorb(builder.take_scheduled());
        let block = make.block().ok_or_else(|| fail(make, "an op outside any block"))?;
        let next = sink_value_redefinition(counter, next, block, body_block, schedule)?;
        crate::ssa::set_operand(&loop_yield, first_counter + index, next);
    }
    Ok(lp)
}

/// Upstream `sinkValueRedefinition`: `out`, a new value of `in_value` made
/// in `block` (nested in the loop body `body_block`), made available in the
/// body: each enclosing `scf.if` gets one more result (`out` where the
/// branch holding it is taken, `in_value` otherwise), each enclosing
/// `scf.for` one more iter_arg. Returns the value that holds it in the body.
fn sink_value_redefinition<'c, 'a>(
    in_value: Value<'c, 'a>,
    mut out: Value<'c, 'a>,
    mut block: BlockRef<'c, 'a>,
    body_block: BlockRef<'c, 'a>,
    schedule: &mut Schedule,
) -> Result<Value<'c, 'a>, PassFailed> {
    while block != body_block {
        let op = block.parent_operation().ok_or_else(|| fail_at_value(out, "a value outside the loop"))?;
        match name_of(&op).as_str() {
            // Live in the nested loop, `out` after it (once it runs).
            "scf.for" => {
                let new = add_iter_args(op, &[in_value]);
                let nested_yield = yield_of(&new).ok_or_else(|| fail(&new, "scf.for without a yield"))?;
                let mut yielded: Vec<Value> = nested_yield.operands().collect();
                yielded.push(out);
                crate::ssa::set_operands(&nested_yield, &yielded);
                rescheduled(schedule, &op, &new);
                out = new.result_at(new.result_count() - 1).unwrap().into();
                block = new.block().ok_or_else(|| fail(&new, "an op outside any block"))?;
            }
            "scf.if" => {
                let taken_else = op.region_at(1).ok().and_then(|r| r.first_block()) == Some(block);
                let new = if_with_extra_results(&op, &[out.r#type()])?;
                let (taken, other) = if taken_else { (1, 0) } else { (0, 1) };
                append_to_branch_yield(&new, taken, out)?;
                append_to_branch_yield(&new, other, in_value)?;
                for (old, replacement) in op.results().zip(new.results()) {
                    replace_all_uses(old.into(), replacement.into());
                }
                rescheduled(schedule, &op, &new);
                erase(op);
                out = new.result_at(new.result_count() - 1).unwrap().into();
                block = new.block().ok_or_else(|| fail(&new, "an op outside any block"))?;
            }
            other => {
                return Err(fail(&op, format!("a tensor descriptor made in '{other}' inside a pipelined loop")));
            }
        }
    }
    Ok(out)
}

/// Appends `value` to the yield of branch `index` of `if_op`.
fn append_to_branch_yield<'c, 'a>(
    if_op: &OperationRef<'c, 'a>,
    index: usize,
    value: Value<'c, 'a>,
) -> Result<(), PassFailed> {
    let terminator = if_op
        .region_at(index)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.terminator())
        .ok_or_else(|| fail(if_op, "an scf.if branch without a yield"))?;
    let mut yielded: Vec<Value> = terminator.operands().collect();
    yielded.push(value);
    crate::ssa::set_operands(&terminator, &yielded);
    Ok(())
}

/// `new`, which replaces `old`, takes over its place in the schedule.
fn rescheduled(schedule: &mut Schedule, old: &OperationRef, new: &OperationRef) {
    if let Some((stage, cluster)) = schedule.get(old) {
        schedule.erase(old);
        schedule.insert(new, stage, cluster);
    }
}

fn fail_at_value(value: Value, message: &str) -> PassFailed {
    let location = value.location();
    tritium_dialects::pass::emit_error(location, message);
    PassFailed
}

fn int32(context: &melior::Context, value: i64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 32).into(), value).into()
}
