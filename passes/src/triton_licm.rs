//! `triton-licm` (upstream LoopInvariantCodeMotion.cpp): MLIR's loop
//! invariant code motion, which also hoists loads. Loops are visited inner
//! ones first, so that what leaves an inner loop may then leave the outer
//! one. An op leaves a loop when all it uses (it and the ops inside it) is
//! defined outside the loop and it is
//!
//! - speculatable and free of memory effects, or
//! - a `tt.load` whose effects and the whole loop's are at most reads. The
//!   hoisted load runs even when the loop does not: out of an `scf.for` it
//!   gets the mask `lower bound < upper bound` (and its own mask). Loads in
//!   `scf.while` loops stay.
//!
//! Within a loop, ops are tried in order, and the users of a hoisted op are
//! tried again after it (MLIR's `moveLoopInvariantCode` worklist).
use crate::{
    ir::{collect_ops, create, name_of, tensor_parts, tensor_type, Order},
    op_traits::{effects_recursively, is_memory_effect_free, is_speculatable},
    ssa::{block_ops, insert_before, is_ancestor, is_defined_outside, is_terminator, move_before, set_operands, users},
};
use melior::ir::{
    attribute::DenseI32ArrayAttribute, operation::OperationLike, r#type::IntegerType, Attribute, BlockLike,
    OperationRef, RegionLike, RegionRef, Type, TypeLike, Value, ValueLike,
};
use std::collections::VecDeque;
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};
use tritium_dialects::views::{ForOp, LoadOp};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-licm",
    description: "Hoist loop-invariant ops, loads included, out of loops",
    anchor: "builtin.module",
    options: &[],
    run,
};

/// The loops of MLIR's scf dialect (`LoopLikeOpInterface`) and the regions
/// their iterations run.
fn loop_regions<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<RegionRef<'c, 'a>> {
    match name_of(op).as_str() {
        "scf.for" | "scf.parallel" | "scf.forall" => op.region_at(0).into_iter().collect(),
        "scf.while" => op.regions().collect(),
        _ => Vec::new(),
    }
}

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    for op in collect_ops(module, Order::Post) {
        let regions = loop_regions(&op);
        if !regions.is_empty() {
            LoopMotion { lp: op, only_reads: None, with_loads: true }.hoist(&regions);
        }
    }
    Ok(())
}

/// MLIR's own `moveLoopInvariantCode` on one loop: only speculatable ops
/// free of memory effects leave it (no loads), as other passes call it.
pub(crate) fn move_loop_invariant_code(lp: OperationRef) {
    let regions = loop_regions(&lp);
    LoopMotion { lp, only_reads: None, with_loads: false }.hoist(&regions);
}

/// Hoisting out of one loop.
struct LoopMotion<'c, 'a> {
    lp: OperationRef<'c, 'a>,
    /// Whether the loop at most reads memory, computed when a load asks.
    only_reads: Option<bool>,
    /// Whether loads may leave the loop too (`triton-licm`), or only
    /// speculatable ops free of memory effects (MLIR's LICM).
    with_loads: bool,
}

/// Whether `op` and what it holds at most read memory.
fn at_most_reads(op: &OperationRef) -> bool {
    effects_recursively(op).is_some_and(|e| e.at_most_reads())
}

impl<'c, 'a> LoopMotion<'c, 'a> {
    fn hoist(&mut self, regions: &[RegionRef<'c, 'a>]) {
        for region in regions {
            let mut worklist: VecDeque<OperationRef> = VecDeque::new();
            let mut block = region.first_block();
            while let Some(b) = block {
                worklist.extend(block_ops(&b));
                block = b.next_in_region();
            }
            while let Some(op) = worklist.pop_front() {
                // Ops already hoisted are skipped.
                if parent_region(&op).is_none_or(|r| r != *region) {
                    continue;
                }
                if !self.should_move(&op) || !self.uses_only_outside_values(&op) {
                    continue;
                }
                self.move_out(&op);
                for result in op.results() {
                    for user in users(result.into()) {
                        if parent_region(&user).is_some_and(|r| r == *region) {
                            worklist.push_back(user);
                        }
                    }
                }
            }
        }
    }

    fn should_move(&mut self, op: &OperationRef) -> bool {
        if !self.with_loads || name_of(op) != "tt.load" {
            return is_speculatable(op) && is_memory_effect_free(op);
        }
        let lp = self.lp;
        let loop_reads_only = *self.only_reads.get_or_insert_with(|| at_most_reads(&lp));
        at_most_reads(op) && loop_reads_only
    }

    /// MLIR's `canBeHoisted`: not a terminator, and every value the op and
    /// the ops inside it use, unless defined inside the op, comes from
    /// outside the loop.
    fn uses_only_outside_values(&self, op: &OperationRef) -> bool {
        if is_terminator(op) {
            return false;
        }
        let mut ops = vec![*op];
        ops.extend(collect_ops(*op, Order::Pre));
        ops.iter().all(|inner| {
            inner.operands().all(|operand| {
                let defined_inside_op = crate::ssa::parent_op_of_value(operand).is_some_and(|p| is_ancestor(op, p));
                defined_inside_op || is_defined_outside(operand, &self.lp)
            })
        })
    }

    fn move_out(&self, op: &OperationRef) {
        if name_of(op) == "tt.load" {
            // Upstream leaves loads in while loops (after counting them as
            // moved, so their users are tried again, in vain).
            if name_of(&self.lp) != "scf.for" {
                return;
            }
            if !guard_load(op, &self.lp) {
                return;
            }
        }
        move_before(op, &self.lp);
    }
}

/// The region holding `op`.
fn parent_region<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<RegionRef<'c, 'a>> {
    op.block()?.parent_region()
}

/// Makes `load` (about to leave `lp`, an scf.for) read only if the loop runs
/// at least once: its mask becomes `lb < ub` (splat to the pointers' shape),
/// and-ed with its own mask. The new ops go before the loop. `false` when the
/// load reads through a block pointer, which has no such mask.
fn guard_load(load: &OperationRef, lp: &OperationRef) -> bool {
    let Some(load_op) = LoadOp::of(*load) else { return false };
    let pointer = load_op.ptr();
    let pointer_type = pointer.r#type();
    if tritium_dialects::types::pointer_parts(pointer_type).is_some_and(|(pointee, _)| pointee.is_ranked_tensor()) {
        return false;
    }
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = load.context();
    let context = unsafe { context_ref.to_ref() };
    let location = lp.location();
    let i1: Type = IntegerType::new(context, 1).into();
    let Some(for_op) = ForOp::of(*lp) else { return false };
    let (lower, upper) = (for_op.lower_bound(), for_op.upper_bound());
    let predicate = Attribute::parse(context, "2 : i64").expect("the slt predicate");
    let condition =
        insert_before(lp, create("arith.cmpi", location, &[lower, upper], &[i1], &[("predicate", predicate)]));
    let mut mask: Value = condition.result_at(0).unwrap().into();
    if let Some((shape, _, encoding)) = tensor_parts(pointer_type) {
        let mask_type = tensor_type(&shape, i1, encoding);
        mask = insert_before(lp, create("tt.splat", location, &[mask], &[mask_type], &[])).result_at(0).unwrap().into();
    }
    if let Some(current) = load_op.mask() {
        let and = create("arith.andi", location, &[mask, current], &[mask.r#type()], &[]);
        mask = insert_before(lp, and).result_at(0).unwrap().into();
    }
    let other: Option<Value> = load_op.other();
    let operands: Vec<Value> = [Some(pointer), Some(mask), other].into_iter().flatten().collect();
    set_operands(load, &operands);
    let sizes = [1, 1, other.is_some() as i32];
    let attribute = DenseI32ArrayAttribute::new(context, &sizes).into();
    crate::ssa::set_attribute(load, "operandSegmentSizes", attribute);
    true
}
