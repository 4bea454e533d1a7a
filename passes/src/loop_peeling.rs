//! Peeling the last iteration off an `scf.for` (upstream's
//! `peelLoopEpilogue`): the loop stops one step earlier, and an `scf.if`
//! after it runs a copy of the body for the last induction value, when the
//! loop runs at all:
//!
//! ```text
//! %r = scf.for %i = %lb to %ub - %step step %step iter_args(%a = %init)
//! %last = (%ub - %lb - 1) / %step * %step + %lb
//! %p = scf.if %lb < %ub { body[%i := %last, %a := %r] } else { yield %r }
//! ```
//!
//! Uses of the loop's results after it read the `scf.if`'s instead.
use crate::ir::{create, name_of};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, Block, BlockLike, OperationRef, Region,
    RegionLike, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{block_arguments, clone_with, insert_before, is_ancestor, set_operand, uses, ValueMap};
use tritium_dialects::views::ForOp;

/// Peels the last iteration of `for_op` (an `scf.for`). Returns the `scf.if`
/// that runs it.
pub fn peel_epilogue<'c, 'a>(for_op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    if name_of(&for_op) != "scf.for" {
        return None;
    }
    let location = for_op.location();
    let block = for_op.block()?;
    let body = for_op.region_at(0).ok()?.first_block()?;
    let bounds = ForOp::of(for_op)?;
    let (lower, upper, step) = (bounds.lower_bound(), bounds.upper_bound(), bounds.step());
    let ty = step.r#type();
    let value = |op: OperationRef<'c, 'a>| -> Value<'c, 'a> { op.result_at(0).unwrap().into() };

    // The shorter loop.
    let new_upper = value(insert_before(&for_op, create("arith.subi", location, &[upper, step], &[ty], &[])));

    // After the loop, in this order: the last induction value, the condition, the if.
    let mut after = for_op;
    let mut append = |op: melior::ir::Operation<'c>| -> OperationRef<'c, 'a> {
        let inserted = block.insert_operation_after(after, op);
        after = inserted;
        inserted
    };
    let range = value(append(create("arith.subi", location, &[upper, lower], &[ty], &[])));
    let one = value(append(create(
        "arith.constant",
        location,
        &[],
        &[ty],
        &[("value", IntegerAttribute::new(ty, 1).into())],
    )));
    let range_minus_one = value(append(create("arith.subi", location, &[range, one], &[ty], &[])));
    let steps = value(append(create("arith.divsi", location, &[range_minus_one, step], &[ty], &[])));
    let delta = value(append(create("arith.muli", location, &[steps, step], &[ty], &[])));
    let last = value(append(create("arith.addi", location, &[delta, lower], &[ty], &[])));
    let context = tritium_dialects::ir::context_of(location);
    // arith.cmpi's predicate `slt` is 2.
    let slt = IntegerAttribute::new(IntegerType::new(context, 64).into(), 2);
    let i1 = IntegerType::new(context, 1).into();
    let runs = value(append(create("arith.cmpi", location, &[lower, upper], &[i1], &[("predicate", slt.into())])));

    let results: Vec<Value<'c, 'a>> = for_op.results().map(Into::into).collect();
    let result_types: Vec<_> = results.iter().map(|r| r.r#type()).collect();
    let if_op = melior::ir::operation::OperationBuilder::new("scf.if", location)
        .add_operands(&[runs])
        .add_results(&result_types)
        .add_regions([Region::new(), Region::new()])
        .build()
        .ok()?;
    let if_op = append(if_op);

    // Then: the body, on the last induction value and the loop's results.
    let mut map = ValueMap::default();
    let arguments = block_arguments(&body);
    map.map(arguments[0], last);
    for (argument, result) in arguments.iter().skip(1).zip(&results) {
        map.map(*argument, *result);
    }
    let then_block = if_op.region_at(0).ok()?.append_block(Block::new(&[]));
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let copy = then_block.append_operation(clone_with(&op, &map));
        for (old, new) in op.results().zip(copy.results()) {
            map.map(old.into(), new.into());
        }
    }
    // Else: what the loop left.
    let else_block = if_op.region_at(1).ok()?.append_block(Block::new(&[]));
    else_block.append_operation(create("scf.yield", location, &results, &[], &[]));

    for (result, peeled) in results.iter().zip(if_op.results()) {
        for user in uses(*result) {
            if !is_ancestor(&if_op, user.owner) {
                set_operand(&user.owner, user.index, peeled.into());
            }
        }
    }
    set_operand(&for_op, 1, new_upper);
    Some(if_op)
}
