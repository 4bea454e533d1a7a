//! `tritongpu-combine-tensor-select-and-if` (upstream
//! CombineTensorSelectAndIf.cpp): an `arith.select` of tensors whose
//! condition also guards an `scf.if` in the same block becomes a result of
//! that `scf.if` (the true value yielded by `then`, the false value by
//! `else`), so the tensor is not selected element by element. A fused
//! persistent loop has exactly this: its epilogue `scf.if` stores the tile
//! and the accumulator is reset under the same condition.
//!
//! First, uses of a select inside an `scf.if` on the same condition take
//! the select's true (then branch) or false (else branch) value. Then a
//! select joins the first `scf.if` on its condition (in program order) in
//! its block that it dominates and that dominates its users.
use crate::ir::{erase, name_of, replace_all_uses, tensor_parts};
use crate::ssa::{ancestor_in_block, op_key, properly_dominates, set_operands, users, Key};
use crate::tritongpu_pipeline::loops::replace_uses_if;
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    Block, BlockLike, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};
use tritium_dialects::views::{IfOp, SelectOp};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-combine-tensor-select-and-if",
    description: "Merge tensor selects into scf.if ops on the same condition",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    use_branch_values_inside_ifs(module);
    // Program order (upstream sorts the condition's users topologically).
    let position: HashMap<Key, usize> = crate::ir::collect_ops(module, crate::ir::Order::Pre)
        .iter()
        .enumerate()
        .map(|(i, op)| (op_key(op), i))
        .collect();
    let mut merges: Vec<(OperationRef, Vec<OperationRef>)> = Vec::new();
    for select in selects(module) {
        if tensor_parts(select.result_at(0).unwrap().r#type()).is_none() {
            continue;
        }
        let condition = SelectOp::of(select).expect("an arith.select").condition();
        let block = select.block();
        let mut candidates = users(condition);
        candidates.sort_by_key(|op| position[&op_key(op)]);
        candidates.dedup();
        let target = candidates
            .into_iter()
            .find(|user| name_of(user) == "scf.if" && user.block() == block && can_merge_into_if(&select, user));
        if let Some(if_op) = target {
            match merges.iter_mut().find(|(i, _)| *i == if_op) {
                Some((_, list)) => list.push(select),
                None => merges.push((if_op, vec![select])),
            }
        }
    }
    for (if_op, selects) in merges {
        merge(if_op, &selects);
    }
    Ok(())
}

/// The `arith.select` ops of the module, nested ones first (MLIR's walk).
fn selects<'c, 'a>(module: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    crate::ir::collect_ops(module, crate::ir::Order::Post)
        .into_iter()
        .filter(|op| name_of(op) == "arith.select")
        .collect()
}

/// Uses of a select inside an `scf.if` on the select's condition take the
/// value the select would give in that branch.
fn use_branch_values_inside_ifs(module: OperationRef) {
    // (select result, replacement, the ops whose uses to rewrite), in the
    // order upstream's map fills.
    let mut rewrites: Vec<(Value, Value, Vec<OperationRef>)> = Vec::new();
    for select in selects(module) {
        let view = SelectOp::of(select).expect("an arith.select");
        let (condition, yes, no) = (view.condition(), view.true_value(), view.false_value());
        let result: Value = select.result_at(0).unwrap().into();
        for if_op in users(condition).into_iter().filter(|u| name_of(u) == "scf.if") {
            for user in users(result) {
                if user == if_op || !crate::ssa::is_ancestor(&if_op, user) {
                    continue;
                }
                let then_region = if_op.region_at(0).unwrap();
                let in_then = then_region.first_block().and_then(|b| ancestor_in_block(&b, user)).is_some();
                let replacement = if in_then { yes } else { no };
                match rewrites.iter_mut().find(|(s, r, _)| *s == result && *r == replacement) {
                    Some((_, _, list)) => list.push(user),
                    None => rewrites.push((result, replacement, vec![user])),
                }
            }
        }
    }
    for (result, replacement, owners) in rewrites {
        for owner in owners {
            replace_uses_if(result, replacement, |user| *user == owner);
        }
    }
}

/// Whether `select` dominates `if_op` and `if_op` dominates every user of
/// the select (so that the select's value can come out of the `scf.if`).
fn can_merge_into_if(select: &OperationRef, if_op: &OperationRef) -> bool {
    let dominates = |a: &OperationRef, b: &OperationRef| a == b || properly_dominates(a, b, true);
    dominates(select, if_op) && users(select.result_at(0).unwrap().into()).iter().all(|user| dominates(if_op, user))
}

/// Rebuilds `if_op` with one more result per select, yielding its true
/// value in `then` and its false value in `else` (created if missing).
fn merge<'c, 'a>(if_op: OperationRef<'c, 'a>, selects: &[OperationRef<'c, 'a>]) {
    let location = if_op.location();
    let mut types: Vec<Type> = if_op.results().map(|r| r.r#type()).collect();
    types.extend(selects.iter().map(|s| s.result_at(0).unwrap().r#type()));
    let new_if = OperationBuilder::new("scf.if", location)
        .add_operands(&[IfOp::of(if_op).expect("an scf.if").condition()])
        .add_results(&types)
        .add_regions([Region::new(), Region::new()])
        .build()
        .expect("a valid scf.if");
    let new_if = if_op.block().unwrap().insert_operation_before(if_op, new_if);
    let has_else = if_op.region_at(1).unwrap().first_block().is_some();
    tritium_dialects::ir::take_region_body(&new_if, &if_op, 0);
    if has_else {
        tritium_dialects::ir::take_region_body(&new_if, &if_op, 1);
    }
    if !has_else {
        let block = new_if.region_at(1).unwrap().append_block(Block::new(&[]));
        block.append_operation(crate::ir::create("scf.yield", location, &[], &[], &[]));
    }
    for (region, operand) in [(0, 1), (1, 2)] {
        let block = new_if.region_at(region).unwrap().first_block().unwrap();
        let yield_op = block.terminator().expect("a branch with a yield");
        let mut values: Vec<Value> = yield_op.operands().collect();
        values.extend(selects.iter().map(|s| s.operand_at(operand).unwrap()));
        set_operands(&yield_op, &values);
    }
    let mut new_results = new_if.results().map(Value::from);
    for old in if_op.results() {
        replace_all_uses(old.into(), new_results.next().unwrap());
    }
    for select in selects {
        replace_all_uses(select.result_at(0).unwrap().into(), new_results.next().unwrap());
        erase(*select);
    }
    erase(if_op);
}
