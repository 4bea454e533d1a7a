//! The number of copy groups each `ttg.async_wait` may leave in flight
//! (upstream `updateWaits`): the fewest `async_commit_group`s between the
//! commit it waits for and itself, on every path through loop iterations.
//! Waits with no commit between them are then merged into one
//! (`combineRedundantWaitOps`).
use super::builder::Builder;
use super::loops::{body, init_args, is_for};
use crate::ir::{collect_ops, erase, name_of, replace_all_uses, Order};
use crate::ssa::{argument_number, argument_owner, defining_op, op_key, Key};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, BlockLike, OperationRef, Value,
    ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::AsyncWaitOp;

pub fn update_waits(module: OperationRef) {
    let waits: Vec<OperationRef> =
        collect_ops(module, Order::Post).into_iter().filter(|op| name_of(op) == "ttg.async_wait").collect();
    let context_ref = module.context();
    let i32_type = IntegerType::new(unsafe { context_ref.to_ref() }, 32).into();
    for wait in &waits {
        let num = min_interleaved_commits(*wait);
        crate::ssa::set_attribute(wait, "num", IntegerAttribute::new(i32_type, num).into());
    }
    combine_redundant_waits(&waits);
}

/// The `async_commit_group`s from `from` (included) up to `to` (excluded),
/// in one block, not looking into nested regions.
fn commits_between(from: Option<OperationRef>, to: &OperationRef) -> i64 {
    let mut count = 0;
    let mut current = from;
    while let Some(op) = current {
        if op == *to {
            break;
        }
        if name_of(&op) == "ttg.async_commit_group" {
            count += 1;
        }
        current = op.next_in_block();
    }
    count
}

/// Upstream `minNumInterleavedCommitOps`.
fn min_interleaved_commits(wait: OperationRef) -> i64 {
    let Some(&[value]) = AsyncWaitOp::of(wait).map(|wait| wait.async_token()).as_deref() else {
        return 0;
    };
    // A wait nested deeper than the value counts from its ancestor there.
    let value_region = crate::ssa::parent_block(value).and_then(|b| b.parent_region());
    let mut sink = wait;
    while sink.block().and_then(|b| b.parent_region()) != value_region {
        match sink.parent_operation() {
            Some(parent) => sink = parent,
            None => return 0,
        }
    }
    let mut minimum = i64::MAX;
    min_over_histories(value, sink, 0, &mut minimum, 0)
}

/// How many iter_args deep [`min_over_histories`] follows a value (upstream
/// has no bound, and loops forever on a value passed through unchanged).
const MAX_HISTORY_DEPTH: usize = 32;

/// The fewest commits after the commit producing `value`, up to `sink`,
/// over the paths it may come by (the loop's init or its previous
/// iteration when it is an iter_arg).
fn min_over_histories(value: Value, sink: OperationRef, sum: i64, minimum: &mut i64, depth: usize) -> i64 {
    if let Some(producer) = defining_op(value) {
        let total = sum + commits_between(producer.next_in_block(), &sink);
        *minimum = (*minimum).min(total);
        return *minimum;
    }
    let Some(block) = argument_owner(value).filter(|_| depth < MAX_HISTORY_DEPTH) else { return 0 };
    let Some(lp) = block.parent_operation().filter(is_for) else { return 0 };
    let number = argument_number(value).unwrap_or(0);
    if number == 0 {
        return 0;
    }
    let sum = sum + commits_between(body(&lp).and_then(|b| b.first_operation()), &sink);
    if sum >= *minimum {
        return *minimum;
    }
    let incoming = init_args(&lp)[number - 1];
    let from_init = min_over_histories(incoming, lp, sum, minimum, depth + 1);
    let terminator = block.terminator().expect("a loop body with a yield");
    let previous = terminator.operand_at(number - 1).unwrap();
    let from_previous = min_over_histories(previous, terminator, sum, minimum, depth + 1);
    from_init.min(from_previous).min(*minimum)
}

/// Upstream `combineRedundantWaitOps`: waits with no commit between them
/// become one wait for all their tokens, with the smallest count.
fn combine_redundant_waits(waits: &[OperationRef]) {
    let mut replaced: HashMap<Key, OperationRef> = HashMap::new();
    let mut order: Vec<(OperationRef, OperationRef)> = Vec::new();
    for wait in waits {
        if replaced.contains_key(&op_key(wait)) {
            continue;
        }
        let mut group = vec![*wait];
        let mut tokens: Vec<Value> = wait.operands().collect();
        let mut num = crate::ir::int_attribute(wait, "num").unwrap_or(0);
        let mut next = wait.next_in_block();
        while let Some(op) = next.filter(|op| name_of(op) != "ttg.async_commit_group") {
            if name_of(&op) == "ttg.async_wait" {
                group.push(op);
                num = num.min(crate::ir::int_attribute(&op, "num").unwrap_or(0));
                tokens.extend(op.operands());
            }
            next = op.next_in_block();
        }
        if group.len() == 1 {
            continue;
        }
        let mut builder = Builder::before(group[0]);
        builder.location = wait.location();
        let token = wait.result_at(0).unwrap().r#type();
        let i32_type = builder.integer_type(32);
        let combined = builder.create(
            "ttg.async_wait",
            &tokens,
            &[token],
            &[("num", IntegerAttribute::new(i32_type, num).into())],
        );
        for member in group {
            replaced.insert(op_key(&member), combined);
            order.push((member, combined));
        }
    }
    for (wait, combined) in order {
        replace_all_uses(wait.result_at(0).unwrap().into(), combined.result_at(0).unwrap().into());
        erase(wait);
    }
}
