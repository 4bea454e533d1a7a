//! `scf.for` queries and rewrites shared by the pipelining passes: the body
//! and its yield, iter_args, which loops may be pipelined, adding iter_args
//! (upstream `addIterArgsToLoop`), and MLIR's walk orders.
use crate::ir::{erase, fail, int_attribute, name_of, replace_all_uses};
use crate::ssa::{block_arguments, block_ops, is_ancestor, parent_op_of_value};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    Attribute, Block, BlockLike, BlockRef, Identifier, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::access::{block_argument_at, OpAccess};
use tritium_dialects::pass::PassFailed;
use tritium_dialects::views::IfOp;

/// Operand positions of `scf.for`.
pub const LOWER: usize = 0;
pub const UPPER: usize = 1;
pub const STEP: usize = 2;
pub const FIRST_INIT: usize = 3;

/// The loop attribute asking for a number of stages (`tt.num_stages`).
pub const NUM_STAGES: &str = "tt.num_stages";

pub fn is_for(op: &OperationRef) -> bool {
    name_of(op) == "scf.for"
}

pub fn body<'c, 'a>(lp: &OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    lp.region_at(0).ok()?.first_block()
}

pub fn yield_of<'c, 'a>(lp: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    body(lp)?.terminator()
}

/// The ops of the body but its terminator (upstream `without_terminator`).
pub fn body_ops<'c, 'a>(lp: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let Some(block) = body(lp) else { return Vec::new() };
    let terminator = block.terminator();
    block_ops(&block).into_iter().filter(|op| Some(*op) != terminator).collect()
}

pub fn induction_variable<'c, 'a>(lp: &OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    block_argument_at(body(lp)?, 0).ok().map(Into::into)
}

/// The iter_args of the body (its arguments after the induction variable).
pub fn iter_args<'c, 'a>(lp: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    body(lp).map(|b| block_arguments(&b).into_iter().skip(1).collect()).unwrap_or_default()
}

pub fn init_args<'c, 'a>(lp: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    lp.operands().skip(FIRST_INIT).collect()
}

pub fn yielded<'c, 'a>(lp: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    yield_of(lp).map(|y| y.operands().collect()).unwrap_or_default()
}

/// Upstream `isOuterLoop`: the body holds a loop directly.
pub fn is_outer_loop(lp: &OperationRef) -> bool {
    body_ops(lp).iter().any(|op| matches!(name_of(op).as_str(), "scf.for" | "scf.while"))
}

/// Upstream `loopHasDistGreaterThanOne`: some yielded value is a block
/// argument (a value carried over more than one iteration, or passed
/// through).
pub fn has_distance_greater_than_one(lp: &OperationRef) -> bool {
    yielded(lp).into_iter().any(|v| crate::ssa::defining_op(v).is_none())
}

/// Upstream `getNumStagesOrDefault`: the loop's `tt.num_stages`, else the
/// pass option.
pub fn num_stages_or_default(lp: &OperationRef, default: i64) -> i64 {
    int_attribute(lp, NUM_STAGES).unwrap_or(default)
}

pub use tritium_dialects::ir::ancestor_in_block;

/// `op` and the ops nested in it, nested ones first (MLIR's default
/// post-order walk).
pub fn walk_post<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = crate::ir::collect_ops(*op, crate::ir::Order::Post);
    ops.push(*op);
    ops
}

/// `op` and the ops nested in it, parents first (MLIR's pre-order walk).
pub fn walk_pre<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = vec![*op];
    ops.extend(crate::ir::collect_ops(*op, crate::ir::Order::Pre));
    ops
}

/// Whether `value` is defined in `op` or in a region of it.
pub fn defined_inside(value: Value, op: &OperationRef) -> bool {
    parent_op_of_value(value).is_some_and(|parent| is_ancestor(op, parent))
        && crate::ssa::defining_op(value).is_none_or(|d| d != *op)
}

/// The operands of `op` and of the ops nested in it that are defined
/// outside `op`, in walk order (upstream `getNestedOperands`).
pub fn nested_operands<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let mut operands = Vec::new();
    for nested in walk_post(op) {
        for operand in nested.operands() {
            if !defined_inside(operand, op) {
                operands.push(operand);
            }
        }
    }
    operands
}

/// Upstream `addIterArgsToLoop`: a new loop before `lp` with `extra` init
/// values appended (its body gets arguments for them, its yield is left as
/// is), taking over `lp`'s body, attributes and uses; `lp` is erased.
pub fn add_iter_args<'c, 'a>(lp: OperationRef<'c, 'a>, extra: &[Value<'c, 'a>]) -> OperationRef<'c, 'a> {
    let mut operands: Vec<Value> = lp.operands().collect();
    operands.extend_from_slice(extra);
    let result_types: Vec<Type> = operands[FIRST_INIT..].iter().map(|v| v.r#type()).collect();
    let attributes: Vec<(Identifier, melior::ir::Attribute)> = lp.attributes().collect();
    let new = OperationBuilder::new("scf.for", lp.location())
        .add_operands(&operands)
        .add_results(&result_types)
        .add_attributes(&attributes)
        .add_regions([Region::new()])
        .build()
        .expect("a valid scf.for");
    let new = lp.block().expect("a loop in a block").insert_operation_before(lp, new);
    tritium_dialects::ir::take_region_body(&new, &lp, 0).expect("scf.for has a body region");
    let block = body(&new).expect("the moved body");
    for value in extra {
        block.add_argument(value.r#type(), value.location());
    }
    for (old, replacement) in lp.results().zip(new.results()) {
        replace_all_uses(old.into(), replacement.into());
    }
    erase(lp);
    new
}

/// `scf.if` on the condition of `old`, with its results, attributes and
/// branches and results of `extra` types after them (upstream
/// `replaceIfOpWithNewSignature`), inserted before `old`, whose uses it does
/// not take over; the branches' yields are the caller's to extend.
pub fn if_with_extra_results<'c, 'a>(
    old: &OperationRef<'c, 'a>,
    extra: &[Type<'c>],
) -> Result<OperationRef<'c, 'a>, PassFailed> {
    let condition = IfOp::of(*old).ok_or_else(|| fail(old, "is no scf.if"))?.condition();
    let mut types: Vec<Type> = old.results().map(|r| r.r#type()).collect();
    types.extend_from_slice(extra);
    let attributes: Vec<(Identifier, Attribute)> = old.attributes().collect();
    let new = OperationBuilder::new("scf.if", old.location())
        .add_operands(&[condition])
        .add_results(&types)
        .add_attributes(&attributes)
        .add_regions([Region::new(), Region::new()])
        .build()
        .map_err(|_| fail(old, "cannot rebuild scf.if"))?;
    let new = crate::ssa::insert_before(old, new);
    tritium_dialects::ir::take_region_body(&new, old, 0).ok_or_else(|| fail(old, "scf.if without a then branch"))?;
    let else_region = old.region_at(1).map_err(|_| fail(old, "scf.if without an else region"))?;
    if else_region.first_block().is_some() {
        tritium_dialects::ir::take_region_body(&new, old, 1).ok_or_else(|| fail(old, "cannot move the else branch"))?;
    } else {
        // Only an if without results lacks an else branch: the new one
        // yields nothing there yet.
        let block = new.region_at(1).unwrap().append_block(Block::new(&[]));
        block.append_operation(crate::ir::create("scf.yield", old.location(), &[], &[], &[]));
    }
    Ok(new)
}

/// Removes attribute `name` from `op` if it has it.
pub fn remove_attribute(op: &OperationRef, name: &str) {
    tritium_dialects::ir::remove_attribute(op, name);
}

/// Replaces the uses of `old` by `new` where `keep` holds for the user.
pub fn replace_uses_if<'c: 'a, 'a>(
    old: Value<'c, 'a>,
    new: Value<'c, 'a>,
    keep: impl Fn(&OperationRef<'c, 'a>) -> bool,
) {
    for use_ in crate::ssa::uses(old) {
        let owner = use_.owner;
        if keep(&owner) {
            crate::ssa::set_operand(&use_.owner, use_.index, new);
        }
    }
}
