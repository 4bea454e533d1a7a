//! `triton-nvidia-mma-lowering` (upstream MMALowering.cpp), for the 5th
//! generation tensor-core MMAs (`ttng.tc_gen5_mma`, `tc_gen5_mma_scaled`):
//!
//! - a synchronous MMA becomes an asynchronous one that arrives on a fresh
//!   mbarrier, followed by a wait on it (phase 0, under the MMA's
//!   predicate) and the mbarrier's invalidation;
//! - `ttng.tc_gen5_commit`s that follow an MMA across pure ops only become
//!   completion barriers of the MMA itself, when the MMA always runs or
//!   runs under the commit's predicate, and what computes the commit's
//!   mbarrier and predicate can move above the MMA.
//!
//! Then the module is folded, as upstream's greedy driver does (constants
//! deduplicated, dead pure ops dropped). Upstream also moves the scales of a
//! scaled MMA from shared to tensor memory; Tritium has no tensor-memory
//! layouts for scales and refuses such MMAs with a diagnostic. On sm_80 and
//! sm_90 code (no tcgen05 MMAs) only the folding happens.
use crate::ir::{collect_ops, create, fail, name_of, Order};
use crate::op_traits::is_pure;
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, Attribute, OperationRef, Type, Value,
    ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{dense_i32_array, dense_i32_attribute, insert_before, set_attribute, set_operands};
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};
use tritium_dialects::types::MemDesc;
use tritium_dialects::views::TcGen5CommitOp;

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-nvidia-mma-lowering",
    description: "Make tcgen05 MMAs asynchronous with completion mbarriers, merging the commits that follow them",
    anchor: "builtin.module",
    options: &[],
    run,
};

const MMAS: &[&str] = &["ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled"];

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    for op in collect_ops(module, Order::Pre) {
        if !MMAS.contains(&name_of(&op).as_str()) {
            continue;
        }
        if name_of(&op) == "ttng.tc_gen5_mma_scaled" {
            for scale in [4, 5] {
                let in_shared = op
                    .operand_at(segment_start(&op, scale))
                    .ok()
                    .and_then(|v| MemDesc::of(v.r#type()))
                    .is_some_and(|m| m.memory_space.to_string().contains("shared_memory"));
                if in_shared {
                    return Err(fail(
                        &op,
                        "has its scales in shared memory: moving them to tensor memory (Blackwell) is not supported",
                    ));
                }
            }
        }
        if op.attribute("is_async").is_err() {
            make_asynchronous(op)?;
        }
        merge_commits(op);
    }
    tritium_dialects::ir::apply_patterns_greedily(module, &[]);
    Ok(())
}

/// The operand segment sizes of an MMA: ..., useD, pred, barriers, barrier_preds.
fn segments(op: &OperationRef) -> Vec<i32> {
    dense_i32_attribute(op, "operandSegmentSizes").unwrap_or_default()
}

/// The index of the first operand of segment `segment`.
fn segment_start(op: &OperationRef, segment: usize) -> usize {
    segments(op).iter().take(segment).map(|s| *s as usize).sum()
}

/// The MMA's predicate (the segment before its barriers).
fn predicate<'c, 'a>(op: &OperationRef<'c, 'a>) -> Value<'c, 'a> {
    let count = segments(op).len();
    op.operand_at(segment_start(op, count - 3)).unwrap()
}

/// Adds `barrier` (arrived on under `pred`) to the MMA's completion barriers.
fn add_completion_barrier<'c, 'a>(op: &OperationRef<'c, 'a>, barrier: Value<'c, 'a>, pred: Value<'c, 'a>) {
    let mut sizes = segments(op);
    let count = sizes.len();
    let mut operands: Vec<Value> = op.operands().collect();
    let preds_end = operands.len();
    operands.insert(preds_end, pred);
    let barriers_end = segment_start(op, count - 1);
    operands.insert(barriers_end, barrier);
    sizes[count - 2] += 1;
    sizes[count - 1] += 1;
    set_operands(op, &operands);
    set_attribute(op, "operandSegmentSizes", dense_i32_array(op.location(), &sizes));
}

fn boolean<'c, 'a>(before: &OperationRef<'c, 'a>, value: bool) -> Value<'c, 'a> {
    let context = tritium_dialects::ir::context_of(before.location());
    let i1: Type = IntegerType::new(context, 1).into();
    let attribute = IntegerAttribute::new(i1, value as i64).into();
    insert_before(before, create("arith.constant", before.location(), &[], &[i1], &[("value", attribute)]))
        .result_at(0)
        .unwrap()
        .into()
}

/// A synchronous MMA: arrive on a new mbarrier when done, and wait for it.
fn make_asynchronous(op: OperationRef) -> PassResult {
    let location = op.location();
    let context = tritium_dialects::ir::context_of(location);
    let barrier_type = Type::parse(
        context,
        "!ttg.memdesc<1xi64, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>",
    )
    .ok_or_else(|| fail(&op, "cannot build an mbarrier type"))?;
    let i32: Type = IntegerType::new(context, 32).into();
    let barrier: Value =
        insert_before(&op, create("ttg.local_alloc", location, &[], &[barrier_type], &[])).result_at(0).unwrap().into();
    let one = IntegerAttribute::new(i32, 1).into();
    insert_before(&op, create("ttng.init_barrier", location, &[barrier], &[], &[("count", one)]));
    let always = boolean(&op, true);
    add_completion_barrier(&op, barrier, always);
    set_attribute(&op, "is_async", Attribute::unit(context));
    // After the MMA: wait for phase 0 under its predicate, then invalidate.
    let next = op.next_in_block().ok_or_else(|| fail(&op, "has no op after it"))?;
    let zero = IntegerAttribute::new(i32, 0).into();
    let phase: Value = insert_before(&next, create("arith.constant", location, &[], &[i32], &[("value", zero)]))
        .result_at(0)
        .unwrap()
        .into();
    let sizes = dense_i32_array(location, &[1, 1, 1, 0]);
    insert_before(
        &next,
        create(
            "ttng.wait_barrier",
            location,
            &[barrier, phase, predicate(&op)],
            &[],
            &[("operandSegmentSizes", sizes)],
        ),
    );
    insert_before(&next, create("ttng.inval_barrier", location, &[barrier], &[], &[]));
    Ok(())
}

/// Whether `value` is an `arith.constant true`.
fn is_constant_true(value: Value) -> bool {
    // An i1 true reads as -1 (sign-extended).
    crate::op_traits::constant_integer(value).is_some_and(|v| v != 0)
        && tritium_dialects::ir::integer_width(value.r#type()) == Some(1)
}

/// The commits after `mma` (across pure ops) that it may take over, with
/// their predicates.
fn commits_after<'c, 'a>(mma: &OperationRef<'c, 'a>) -> Vec<(OperationRef<'c, 'a>, Option<Value<'c, 'a>>)> {
    let mma_pred = predicate(mma);
    let mut commits = Vec::new();
    let mut next = mma.next_in_block();
    while let Some(op) = next {
        if let Some(commit) = TcGen5CommitOp::of(op) {
            let commit_pred = commit.pred();
            if is_constant_true(mma_pred) || commit_pred == Some(mma_pred) {
                commits.push((op, commit_pred));
            }
        } else if !is_pure(&op) {
            break;
        }
        next = op.next_in_block();
    }
    commits
}

/// Moves the pure ops computing `value` after `target` (in its block) to
/// before it; false (moving nothing) when one of them is not pure.
fn move_definitions_before(value: Value, target: &OperationRef) -> bool {
    fn collect<'c, 'a>(
        value: Value<'c, 'a>,
        target: &OperationRef<'c, 'a>,
        found: &mut Vec<OperationRef<'c, 'a>>,
    ) -> bool {
        let Some(op) = tritium_dialects::ir::defining_op(value) else { return true };
        if op.block() != target.block() || !comes_after(&op, target) || found.contains(&op) {
            return true;
        }
        if !is_pure(&op) {
            return false;
        }
        for operand in op.operands() {
            if !collect(operand, target, found) {
                return false;
            }
        }
        found.push(op);
        true
    }
    let mut found = Vec::new();
    if !collect(value, target, &mut found) {
        return false;
    }
    for op in found {
        tritium_dialects::ir::move_before(&op, target);
    }
    true
}

/// Whether `op` comes after `target` in their block.
fn comes_after(op: &OperationRef, target: &OperationRef) -> bool {
    let mut next = target.next_in_block();
    while let Some(current) = next {
        if current == *op {
            return true;
        }
        next = current.next_in_block();
    }
    false
}

fn merge_commits(mma: OperationRef) {
    for (commit, pred) in commits_after(&mma) {
        let pred = pred.unwrap_or_else(|| boolean(&mma, true));
        let barrier = TcGen5CommitOp::of(commit).expect("a ttng.tc_gen5_commit").barrier();
        if !move_definitions_before(barrier, &mma) || !move_definitions_before(pred, &mma) {
            continue;
        }
        add_completion_barrier(&mma, barrier, pred);
        crate::ir::erase(commit);
    }
}
