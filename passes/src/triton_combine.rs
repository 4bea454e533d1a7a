//! `triton-combine` (upstream Combine.cpp and Combine.td): peephole rewrites
//! of Triton IR, run with MLIR's greedy driver (and so with every fold):
//!
//! - `add(dot(a, b, 0), d)` -> `dot(a, b, d)`: the addition goes into the
//!   accumulator;
//! - `select(c, load(p, splat(c)), x)` -> `load(p, splat(c), other = x)`;
//! - `addptr(addptr(p, i), j)` -> `addptr(p, i + j)` when the sum cannot
//!   overflow;
//! - `reduce_sum(broadcast(expand_dims(a, 2)) * broadcast(expand_dims(b, 0)), 1)`
//!   -> `dot(a, b)`;
//! - a 1-D reshape feeding only reductions and histograms may reorder;
//! - a rank-reducing reshape of a descriptor load loads the reduced shape.
use crate::{
    greedy::{apply_with_folds, replace_all_uses_with},
    ir::{create, name_of, tensor_parts, tensor_type},
    op_traits::constant_integer,
    ssa::{defining_op, move_before, set_operand, uses},
};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, FloatAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, BlockLike, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use tritium_dialects::access::{integer_attribute, OpAccess};
use tritium_dialects::{
    pass::{PassDefinition, PassOptions, PassResult},
    rewrite::{Pattern, Rewriter},
    views::{AddOp, AddPtrOp, BroadcastOp, DotOp, ExpandDimsOp, LoadOp, SelectOp, SplatOp},
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-combine",
    description: "Combine ops of Triton IR (dot accumulators, masked loads, pointer offsets, reductions)",
    anchor: "builtin.module",
    options: &[],
    run,
};

/// In upstream's order; benefits as upstream's (a DRR pattern's is the number
/// of ops it matches).
static PATTERNS: &[Pattern] = &[
    Pattern { root: "arith.addi", benefit: 1, rewrite: add_into_dot_accumulator },
    Pattern { root: "arith.addf", benefit: 1, rewrite: add_into_dot_accumulator },
    Pattern { root: "arith.select", benefit: 3, rewrite: select_into_load_other },
    Pattern { root: "tt.addptr", benefit: 2, rewrite: combine_addptrs },
    Pattern { root: "tt.reduce", benefit: 1, rewrite: broadcast_mul_reduce_to_dot },
    Pattern { root: "tt.reshape", benefit: 1, rewrite: reorder_reshape_before_reduce },
    Pattern { root: "tt.reshape", benefit: 1, rewrite: rank_reduced_descriptor_load },
];

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let patterns: Vec<&'static Pattern> = PATTERNS.iter().collect();
    apply_with_folds(module, &patterns)
}

/// Upstream's `isZero`: an integer or float constant zero, scalar or splat.
use tritium_dialects::ir::is_zero;

/// Whether `op`'s results have exactly one use in all.
fn has_one_use(op: &OperationRef) -> bool {
    op.results().map(|r| uses(r.into()).len()).sum::<usize>() == 1
}

fn produced_by_dot<'c, 'a>(value: Value<'c, 'a>) -> Option<DotOp<'c, 'a>> {
    defining_op(value).and_then(DotOp::of)
}

/// add(dot(a, b, 0), d) -> dot(a, b, d), and with the dot on the right. The
/// dot moves to the add and takes `d` as accumulator; the add is left
/// unused, as upstream (the driver erases it).
fn add_into_dot_accumulator(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(add) = AddOp::of(op) else { return false };
    let (lhs, rhs) = (add.lhs(), add.rhs());
    let (dot, addend) = match (produced_by_dot(rhs), produced_by_dot(lhs)) {
        (Some(dot), _) => (dot, lhs),
        (None, Some(dot)) => (dot, rhs),
        (None, None) => return false,
    };
    if !has_one_use(&dot) || !is_zero(dot.c()) {
        return false;
    }
    // Imprecise accumulation only works from a zero accumulator.
    let imprecise = dot.attribute("maxNumImpreciseAcc").ok().and_then(|a| integer_attribute(a).ok());
    if name_of(&op) == "arith.addf" && imprecise.is_some_and(|a| a.value() != 0) {
        return false;
    }
    rewriter.modify_in_place(&dot, || {
        set_operand(&dot, 2, addend);
        move_before(&dot, &op);
    });
    replace_all_uses_with(rewriter, op.result_at(0).unwrap().into(), dot.result_at(0).unwrap().into());
    true
}

/// select(c, load(p, splat(c), ...), x) -> load(p, splat(c), other = x): the
/// load already yields nothing useful where `c` is false.
fn select_into_load_other(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(select) = SelectOp::of(op) else { return false };
    let (condition, on_true, on_false) = (select.condition(), select.true_value(), select.false_value());
    let Some(load) = defining_op(on_true).and_then(LoadOp::of) else { return false };
    let Some(mask) = load.mask() else { return false };
    let Some(splat) = defining_op(mask).and_then(SplatOp::of) else { return false };
    if splat.src() != condition {
        return false;
    }
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let mut attributes: Vec<(&str, Attribute)> = ["boundaryCheck", "padding", "cache", "evict", "isVolatile"]
        .into_iter()
        .filter_map(|k| load.attribute(k).ok().map(|a| (k, a)))
        .collect();
    attributes.push(("operandSegmentSizes", DenseI32ArrayAttribute::new(context, &[1, 1, 1]).into()));
    let pointer = load.ptr();
    let ty = op.result_at(0).unwrap().r#type();
    rewriter.replace_op_with_new(&op, create("tt.load", op.location(), &[pointer, mask, on_false], &[ty], &attributes));
    true
}

/// The integer a pointer offset is known to be: a constant, or a splat of
/// one (upstream's `GetConstantIntValue`), with its bit width.
fn known_offset(value: Value) -> Option<(i64, u32)> {
    let source = match defining_op(value) {
        Some(op) if name_of(&op) == "tt.splat" => SplatOp::of(op)?.src(),
        _ => value,
    };
    let width = integer_width(element_type(source.r#type()))?;
    Some((constant_integer(source)?, width))
}

fn element_type(ty: Type) -> Type {
    tensor_parts(ty).map(|(_, element, _)| element).unwrap_or(ty)
}

fn integer_width(ty: Type) -> Option<u32> {
    IntegerType::try_from(ty).ok().map(|i| i.width())
}

/// Upstream's `isAddPtrOffsetCombinable`: same types, and 64-bit offsets or
/// constant offsets whose sum does not overflow.
fn offsets_combinable(first: Value, second: Value) -> bool {
    if first.r#type() != second.r#type() {
        return false;
    }
    if integer_width(element_type(first.r#type())) == Some(64) {
        return true;
    }
    match (known_offset(first), known_offset(second)) {
        (Some((a, width)), Some((b, _))) if width <= 64 => {
            let sum = a as i128 + b as i128;
            let (min, max) = (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1);
            (min..=max).contains(&sum)
        }
        _ => false,
    }
}

/// The hints the combined addptr keeps from the outer one.
const OFFSET_HINTS: &[&str] = &["tt.divisibility", "tt.contiguity", "tt.constancy"];

/// addptr(addptr(p, i), j) -> addptr(p, i + j).
fn combine_addptrs(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(outer) = AddPtrOp::of(op) else { return false };
    let outer_offset = outer.offset();
    let Some(inner) = defining_op(outer.ptr()).and_then(AddPtrOp::of) else { return false };
    let (pointer, inner_offset) = (inner.ptr(), inner.offset());
    if !offsets_combinable(inner_offset, outer_offset) {
        return false;
    }
    rewriter.set_insertion_point_before(&op);
    let sum = rewriter.insert(create(
        "arith.addi",
        op.location(),
        &[inner_offset, outer_offset],
        &[inner_offset.r#type()],
        &[],
    ));
    let hints: Vec<(&str, Attribute)> =
        OFFSET_HINTS.iter().filter_map(|k| op.attribute(k).ok().map(|a| (*k, a))).collect();
    let ty = op.result_at(0).unwrap().r#type();
    let offset: Value = sum.result_at(0).unwrap().into();
    rewriter.replace_op_with_new(&op, create("tt.addptr", op.location(), &[pointer, offset], &[ty], &hints));
    true
}

/// Whether the combiner region of `reduce` is one float addition of at most
/// 32 bits.
fn is_small_float_sum(reduce: &OperationRef) -> bool {
    let Some(block) = reduce.region_at(0).ok().and_then(|r| r.first_block()) else { return false };
    if block.next_in_region().is_some() {
        return false;
    }
    let Some(first) = block.first_operation() else { return false };
    let count = std::iter::successors(Some(first), |op| op.next_in_block()).count();
    if count != 2 || name_of(&first) != "arith.addf" {
        return false;
    }
    let ty = first.result_at(0).unwrap().r#type();
    tritium_dialects::ir::float_width(ty).is_some_and(|width| width <= 32)
}

/// The op named `kind` defining operand `index` of `op`.
fn operand_from<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize, kind: &str) -> Option<OperationRef<'c, 'a>> {
    defining_op(op.operand_at(index).ok()?).filter(|d| name_of(d) == kind)
}

/// sum(x[:, :, None] * y[None, :, :], 1) -> dot(x, y), as upstream: the
/// reduction axis is not checked, and the shape test reads the left
/// broadcast twice.
fn broadcast_mul_reduce_to_dot(op: OperationRef, rewriter: &Rewriter) -> bool {
    if !is_small_float_sum(&op) {
        return false;
    }
    let Some(mul) = operand_from(&op, 0, "arith.mulf") else { return false };
    let (Some(lhs), Some(rhs)) = (operand_from(&mul, 0, "tt.broadcast"), operand_from(&mul, 1, "tt.broadcast")) else {
        return false;
    };
    let (Some(lhs_expand), Some(rhs_expand)) =
        (operand_from(&lhs, 0, "tt.expand_dims"), operand_from(&rhs, 0, "tt.expand_dims"))
    else {
        return false;
    };
    let axis = |e: &OperationRef| e.attribute("axis").ok().and_then(|a| integer_attribute(a).ok()).map(|a| a.value());
    if axis(&lhs_expand) != Some(2) || axis(&rhs_expand) != Some(0) {
        return false;
    }
    let Some((shape, _, _)) = tensor_parts(lhs.result_at(0).unwrap().r#type()) else { return false };
    if shape.len() != 3 || shape[2] < 16 || shape[0] < 16 {
        return false;
    }
    let Some((_, element, _)) = tensor_parts(BroadcastOp::of(lhs).unwrap().src().r#type()) else { return false };
    // Upstream splats an f32 zero whatever the element type; only f32 makes
    // valid IR.
    if !element.is_f32() {
        return false;
    }
    let accumulator_type = tensor_type(&[shape[0], shape[2]], element, None);
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let location = op.location();
    rewriter.set_insertion_point_before(&op);
    let zero = rewriter.insert(create(
        "arith.constant",
        location,
        &[],
        &[element],
        &[("value", FloatAttribute::new(context, element, 0.0).into())],
    ));
    let accumulator =
        rewriter.insert(create("tt.splat", location, &[zero.result_at(0).unwrap().into()], &[accumulator_type], &[]));
    let i32_type: Type = IntegerType::new(context, 32).into();
    let attributes = [
        ("inputPrecision", IntegerAttribute::new(i32_type, 0).into()),
        ("maxNumImpreciseAcc", IntegerAttribute::new(i32_type, 0).into()),
    ];
    let operands = [
        ExpandDimsOp::of(lhs_expand).unwrap().src(),
        ExpandDimsOp::of(rhs_expand).unwrap().src(),
        accumulator.result_at(0).unwrap().into(),
    ];
    rewriter.replace_op_with_new(&op, create("tt.dot", location, &operands, &[accumulator_type], &attributes));
    true
}

/// A 1-D reshape whose users are all reductions or histograms may reorder
/// its elements: they do not depend on the order.
fn reorder_reshape_before_reduce(op: OperationRef, rewriter: &Rewriter) -> bool {
    if op.has_attribute("allow_reorder") {
        return false;
    }
    let result = op.result_at(0).unwrap();
    if tensor_parts(result.r#type()).is_none_or(|(shape, _, _)| shape.len() != 1) {
        return false;
    }
    if !uses(result.into()).iter().all(|u| matches!(name_of(&u.owner).as_str(), "tt.reduce" | "tt.histogram")) {
        return false;
    }
    let unit = tritium_dialects::ir::unit_attribute(op.location());
    rewriter.modify_in_place(&op, || tritium_dialects::ir::set_attribute(&op, "allow_reorder", unit));
    true
}

/// reshape(descriptor_load) that only drops leading dims of size 1: the load
/// produces the reshaped type itself.
fn rank_reduced_descriptor_load(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(load) = operand_from(&op, 0, "tt.descriptor_load") else { return false };
    if !has_one_use(&load) {
        return false;
    }
    let load_result = load.result_at(0).unwrap();
    let reshaped = op.result_at(0).unwrap().r#type();
    let (Some((load_shape, _, _)), Some((shape, _, _))) = (tensor_parts(load_result.r#type()), tensor_parts(reshaped))
    else {
        return false;
    };
    if shape.len() >= load_shape.len() {
        return false;
    }
    let dropped = load_shape.len() - shape.len();
    if load_shape[..dropped].iter().any(|d| *d != 1) || load_shape[dropped..] != shape[..] {
        return false;
    }
    rewriter.modify_in_place(&load, || crate::ir::set_type(load_result.into(), reshaped));
    rewriter.replace_op_with_values(&op, &[load_result.into()]);
    true
}
