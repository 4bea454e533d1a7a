//! `tritongpu-fuse-nested-loops` (upstream FuseNestedLoops.cpp): flattens a
//! loop nest into one `scf.for`, so that the software pipeliner sees one
//! loop whose iterations run the inner loops' bodies back to back (a
//! persistent kernel's loads of the next tile overlap the current tile's
//! epilogue).
//!
//! Which nests: a loop marked `tt.flatten` (`tl.range(..., flatten=True)`)
//! that holds exactly one loop, or any nest whose outer loop is marked
//! `ttg.always-fuse` (for tests). A nest stops at any op with regions that is
//! not an `scf.for` (such an op's loops form nests of their own).
//!
//! Before fusing a `tt.flatten` nest, its outer loop gets MLIR's
//! loop-invariant code motion, pure ops of the prologue used only after the
//! inner loop sink past it, and the inner loop is made to run at least once:
//! either an `llvm.intr.assume(ub > lb)` says so, or the nest is versioned on
//! whether the inner loop is empty (its bounds hoisted out of the outer
//! loop) and the inner loop's body needs no guard in the fused loop.
//!
//! Fusing one level (leaf to root) turns
//!
//! ```text
//! for i: prologue0(i); for j0: body0; prologue1(i); for j1: body1; ...; epilogue(i)
//! ```
//!
//! into one loop over `len(i) * (sum_k max(1, len(jk)) - N)` iterations with
//! a counter `T`: at `T == start_k` prologue k runs (the first one also steps
//! `i`), while `start_k <= T < start_k + len(jk)` body k runs, at the last
//! `T` the epilogue runs and `T` wraps to 0. Everything live across those
//! pieces becomes an iter_arg of the fused loop (initialised to zero, or
//! `ub.poison` where zero has no meaning). Inner loops whose bounds depend on
//! the outer induction variable are fused too: their lengths are computed in
//! a loop of their own before the fused one, and again in the prologue.
use crate::ir::{collect_ops, erase, name_of, replace_all_uses, tensor_parts, Order};
use crate::op_traits::{has_only_read_effects, is_dot_interface, is_memory_effect_free, is_pure};
use crate::ssa::{
    ancestor_in_block, argument_owner, block_arguments, block_ops, clone_with, defining_op, move_before, move_to_end,
    op_key, ops_in_regions, properly_dominates, set_operand, set_operands, uses, Key, ValueMap,
};
use crate::tritongpu_pipeline::builder::{Builder, CmpI};
use crate::tritongpu_pipeline::loops::{
    body, init_args, is_for, iter_args, remove_attribute, replace_uses_if, FIRST_INIT, LOWER, NUM_STAGES, STEP, UPPER,
};
use melior::ir::{
    attribute::{DenseElementsAttribute, FloatAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    Attribute, Block, BlockLike, BlockRef, Location, OperationRef, Region, RegionLike, RegionRef, Type, TypeLike,
    Value, ValueLike,
};
use std::collections::HashSet;
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir;
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};
use tritium_dialects::views::{CmpIOp, IfOp};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-fuse-nested-loops",
    description: "Flatten loop nests marked tt.flatten into one loop",
    anchor: "builtin.module",
    options: &[],
    run,
};

/// Set by the frontend (`tl.range(..., flatten=True)`).
const FLATTEN: &str = "tt.flatten";
/// The inner loop runs at least once (its length was speculated).
const MUST_EXECUTE: &str = "ttg.must-execute";
/// Fuse whatever the nest looks like (tests).
const ALWAYS_FUSE: &str = "ttg.always-fuse";
const WARP_SPECIALIZE: &str = "tt.warp_specialize";
const DISALLOW_ACC_MULTI_BUFFER: &str = "tt.disallow_acc_multi_buffer";

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let functions = tritium_dialects::ir::module_functions(module);
    for func in functions {
        let mut nests = Vec::new();
        find_loop_nests(func, &mut nests);
        for mut nest in nests {
            if !should_fuse(&nest) {
                continue;
            }
            if !nest.loops[0].has_attribute(ALWAYS_FUSE) && !preprocess(&nest, func) {
                continue;
            }
            flatten(&mut nest, 0, func);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Loop nests

/// A tree of `scf.for` loops; node 0 is the outermost loop.
struct LoopNest<'c, 'a> {
    loops: Vec<OperationRef<'c, 'a>>,
    /// The loops nested immediately in each loop (indices into `loops`).
    children: Vec<Vec<usize>>,
}

impl<'c, 'a> LoopNest<'c, 'a> {
    fn add(&mut self, lp: OperationRef<'c, 'a>) -> usize {
        self.loops.push(lp);
        self.children.push(Vec::new());
        self.loops.len() - 1
    }
}

/// The loop nests under `container`, in the order upstream finds them (a
/// nest found inside another nest's loop comes before it).
fn find_loop_nests<'c, 'a>(container: OperationRef<'c, 'a>, nests: &mut Vec<LoopNest<'c, 'a>>) {
    for op in ops_in_regions(&container) {
        if is_for(&op) {
            let mut nest = LoopNest { loops: Vec::new(), children: Vec::new() };
            let root = nest.add(op);
            construct_loop_nest(root, &mut nest, nests);
            nests.push(nest);
        } else {
            find_loop_nests(op, nests);
        }
    }
}

/// Adds the loops under node `parent` to `nest`; other ops with regions
/// start nests of their own.
fn construct_loop_nest<'c, 'a>(parent: usize, nest: &mut LoopNest<'c, 'a>, nests: &mut Vec<LoopNest<'c, 'a>>) {
    let lp = nest.loops[parent];
    visit_loop_body(lp, parent, nest, nests);
}

fn visit_loop_body<'c, 'a>(
    op: OperationRef<'c, 'a>,
    parent: usize,
    nest: &mut LoopNest<'c, 'a>,
    nests: &mut Vec<LoopNest<'c, 'a>>,
) {
    for inner in ops_in_regions(&op) {
        if is_for(&inner) {
            let child = nest.add(inner);
            nest.children[parent].push(child);
            construct_loop_nest(child, nest, nests);
        } else if inner.regions().next().is_some() {
            find_loop_nests(inner, nests);
        }
    }
}

/// Only simple nests (one loop in one loop) marked `tt.flatten` are fused,
/// or any nest marked `ttg.always-fuse`.
fn should_fuse(nest: &LoopNest) -> bool {
    let root = nest.loops[0];
    if root.has_attribute(ALWAYS_FUSE) {
        return true;
    }
    nest.loops.len() == 2 && nest.children[0].len() == 1 && root.has_attribute(FLATTEN)
}

/// Fuses the nest under `node` leaf to root.
fn flatten<'c, 'a>(nest: &mut LoopNest<'c, 'a>, node: usize, func: OperationRef<'c, 'a>) {
    for child in nest.children[node].clone() {
        flatten(nest, child, func);
    }
    fuse_one_level(nest, node, func);
}

// ---------------------------------------------------------------------------
// Dominance (structured control flow: every region has one block)

/// Whether `value` is available at `op` without being defined by an op that
/// encloses it.
fn value_properly_dominates(value: Value, op: &OperationRef) -> bool {
    match defining_op(value) {
        Some(definition) => properly_dominates(&definition, op, false),
        None => argument_owner(value).is_some_and(|block| ancestor_in_block(&block, *op).is_some()),
    }
}

/// The region holding `value`'s definition.
fn region_of_value<'c, 'a>(value: Value<'c, 'a>) -> Option<RegionRef<'c, 'a>> {
    crate::ssa::parent_block(value)?.parent_region()
}

/// Whether `op` is inside `region` (at any depth).
fn is_in_region(op: &OperationRef, region: &RegionRef) -> bool {
    let mut current = Some(*op);
    while let Some(op) = current {
        if op.block().and_then(|b| b.parent_region()).as_ref() == Some(region) {
            return true;
        }
        current = op.parent_operation();
    }
    false
}

/// `ops` in program order (upstream's `topologicalSort` of ops of one
/// structured region tree).
fn in_program_order<'c, 'a>(ops: &[OperationRef<'c, 'a>], func: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let wanted: HashSet<Key> = ops.iter().map(op_key).collect();
    collect_ops(func, Order::Pre).into_iter().filter(|op| wanted.contains(&op_key(op))).collect()
}

/// An ordered set of ops (upstream's `SetVector<Operation *>`).
#[derive(Default)]
struct OpSet<'c, 'a> {
    ops: Vec<OperationRef<'c, 'a>>,
    keys: HashSet<Key>,
}

impl<'c, 'a> OpSet<'c, 'a> {
    fn insert(&mut self, op: OperationRef<'c, 'a>) -> bool {
        let inserted = self.keys.insert(op_key(&op));
        if inserted {
            self.ops.push(op);
        }
        inserted
    }

    fn contains(&self, op: &OperationRef) -> bool {
        self.keys.contains(&op_key(op))
    }
}

/// Upstream `getDominatingValueSetOpsToHoist`: whether every value of
/// `values` dominates `reference` or can be made to by hoisting ops that
/// `can_hoist` accepts (climbing their operands breadth first), using only
/// block arguments `can_use_argument` accepts. The ops to hoist are added to
/// `to_hoist` only if all values qualify.
fn ops_to_hoist<'c, 'a>(
    reference: &OperationRef<'c, 'a>,
    values: &[Value<'c, 'a>],
    can_hoist: impl Fn(&OperationRef) -> bool,
    can_use_argument: impl Fn(Value) -> bool,
    to_hoist: &mut OpSet<'c, 'a>,
) -> bool {
    let mut visited = OpSet::default();
    let mut queue: std::collections::VecDeque<Value> = values.iter().copied().collect();
    while let Some(value) = queue.pop_front() {
        if value_properly_dominates(value, reference) {
            continue;
        }
        let Some(op) = defining_op(value) else {
            if !can_use_argument(value) {
                return false;
            }
            continue;
        };
        if visited.contains(&op) {
            continue;
        }
        if !can_hoist(&op) {
            return false;
        }
        visited.insert(op);
        queue.extend(op.operands());
    }
    for op in visited.ops {
        to_hoist.insert(op);
    }
    true
}

/// Moves `ops` right before `before`, in program order.
fn hoist_before<'c, 'a>(ops: &OpSet<'c, 'a>, before: &OperationRef<'c, 'a>, func: OperationRef<'c, 'a>) {
    for op in in_program_order(&ops.ops, func) {
        move_before(&op, before);
    }
}

fn is_scalar(ty: Type) -> bool {
    is_int_index_or_float(ty) || tritium_dialects::types::pointer_parts(ty).is_some()
}

fn is_int_index_or_float(ty: Type) -> bool {
    ir::is_integer(ty) || ir::is_index(ty) || ir::is_float(ty)
}

/// Only cheap scalar ops that are free of effects or only read may leave
/// the outer loop to compute an inner loop's bounds (integer divisions
/// included: bounds computations never divide by zero).
fn can_hoist_bound_computation(op: &OperationRef) -> bool {
    (is_memory_effect_free(op) || has_only_read_effects(op))
        && op.operands().all(|v| is_scalar(v.r#type()))
        && op.results().all(|r| is_scalar(r.r#type()))
}

/// Whether `value` is an argument of the function.
fn is_function_argument(value: Value) -> bool {
    argument_owner(value).and_then(|b| b.parent_operation()).is_some_and(|op| name_of(&op) == "tt.func")
}

// ---------------------------------------------------------------------------
// IR building

fn bounds<'c, 'a>(lp: &OperationRef<'c, 'a>) -> [Value<'c, 'a>; 3] {
    [lp.operand_at(LOWER).unwrap(), lp.operand_at(UPPER).unwrap(), lp.operand_at(STEP).unwrap()]
}

fn induction_type<'c>(lp: &OperationRef<'c, '_>) -> Type<'c> {
    lp.operand_at(LOWER).unwrap().r#type()
}

fn induction_variable<'c, 'a>(lp: &OperationRef<'c, 'a>) -> Value<'c, 'a> {
    crate::tritongpu_pipeline::loops::induction_variable(lp).expect("a loop with a body")
}

/// Bits of an integer type; `index` counts as 64.
fn int_width(ty: Type) -> u32 {
    if is_index(ty) {
        64
    } else {
        ir::integer_width(ty).expect("an integer or index type")
    }
}

use tritium_dialects::ir::is_index;

/// `ceildiv(ub - lb, step)`: the number of iterations (also for a negative
/// step).
fn number_of_iterations<'c, 'a>(b: &mut Builder<'c, 'a>, [lower, upper, step]: [Value<'c, 'a>; 3]) -> Value<'c, 'a> {
    let difference = b.binary("arith.subi", upper, lower);
    b.binary("arith.ceildivsi", difference, step)
}

/// `value` as integer or index type `ty` (truncated or sign-extended).
fn cast_int<'c, 'a>(b: &mut Builder<'c, 'a>, value: Value<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
    let from = value.r#type();
    if from == ty {
        return value;
    }
    if is_index(from) || is_index(ty) {
        return b.value("arith.index_cast", &[value], ty, &[]);
    }
    let name = if int_width(from) > int_width(ty) { "arith.trunci" } else { "arith.extsi" };
    b.value(name, &[value], ty, &[])
}

/// A value never read on live paths: zero where the type has one (ptxas
/// does better with zeros than with poison), else `ub.poison`.
fn poison_or_zero<'c, 'a>(b: &mut Builder<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
    let (element, is_tensor) = match tensor_parts(ty) {
        Some((_, element, _)) => (element, true),
        None => (ty, false),
    };
    if !is_int_index_or_float(element) || (!is_tensor && ty != element) {
        return b.value("ub.poison", &[], ty, &[]);
    }
    let zero: Attribute = if ir::is_float(element) {
        let context_ref = element.context();
        FloatAttribute::new(unsafe { context_ref.to_ref() }, element, 0.0).into()
    } else {
        IntegerAttribute::new(element, 0).into()
    };
    let value =
        if is_tensor { DenseElementsAttribute::new(ty, &[zero]).expect("a splat of zero").into() } else { zero };
    b.value("arith.constant", &[], ty, &[("value", value)])
}

fn bool_constant<'c, 'a>(b: &mut Builder<'c, 'a>, value: bool) -> Value<'c, 'a> {
    let i1 = b.integer_type(1);
    b.constant(value as i64, i1)
}

/// `scf.if` with empty regions at the builder's point.
fn create_if<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    result_types: &[Type<'c>],
    condition: Value<'c, 'a>,
) -> OperationRef<'c, 'a> {
    let op = OperationBuilder::new("scf.if", b.location)
        .add_operands(&[condition])
        .add_results(result_types)
        .add_regions([Region::new(), Region::new()])
        .build()
        .expect("a valid scf.if");
    b.insert(op)
}

/// A new empty block as the only block of region `index` of `op`.
fn create_block<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> BlockRef<'c, 'a> {
    op.region_at(index).unwrap().append_block(Block::new(&[]))
}

/// `scf.for` at the builder's point with a body block holding only its
/// arguments (no terminator yet).
fn create_for<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    [lower, upper, step]: [Value<'c, 'a>; 3],
    inits: &[Value<'c, 'a>],
) -> OperationRef<'c, 'a> {
    let location = b.location;
    let mut arguments: Vec<(Type, Location)> = vec![(lower.r#type(), location)];
    arguments.extend(inits.iter().map(|v| (v.r#type(), v.location())));
    let region = Region::new();
    region.append_block(Block::new(&arguments));
    let mut operands = vec![lower, upper, step];
    operands.extend_from_slice(inits);
    let result_types: Vec<Type> = inits.iter().map(|v| v.r#type()).collect();
    let op = OperationBuilder::new("scf.for", location)
        .add_operands(&operands)
        .add_results(&result_types)
        .add_regions([region])
        .build()
        .expect("a valid scf.for");
    b.insert(op)
}

fn create_yield<'c, 'a>(b: &mut Builder<'c, 'a>, values: &[Value<'c, 'a>]) -> OperationRef<'c, 'a> {
    b.create("scf.yield", values, &[], &[])
}

fn results<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    op.results().map(Into::into).collect()
}

fn result_types<'c>(op: &OperationRef<'c, '_>) -> Vec<Type<'c>> {
    op.results().map(|r| r.r#type()).collect()
}

fn terminator<'c, 'a>(block: &BlockRef<'c, 'a>) -> OperationRef<'c, 'a> {
    block.terminator().expect("a block with a terminator")
}

/// The block of region `index` of `op`.
fn block_of<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> BlockRef<'c, 'a> {
    op.region_at(index).unwrap().first_block().expect("a region with a block")
}

fn take_body(to: &OperationRef, from: &OperationRef, index: usize) {
    ir::take_region_body(to, from, index).expect("both ops have the region");
}

fn unit_attribute<'c>(op: &OperationRef<'c, '_>, name: &str) {
    crate::ssa::set_attribute(op, name, ir::unit_attribute(op.location()));
}

/// Upstream `eraseIfResults`: `if_op` without the results at `remove`
/// (their uses take `replace_with`, in order); returns the new `scf.if`.
fn erase_if_results<'c, 'a>(
    if_op: OperationRef<'c, 'a>,
    remove: &[bool],
    replace_with: &[Value<'c, 'a>],
) -> OperationRef<'c, 'a> {
    let removed = |i: usize| remove.get(i).copied().unwrap_or(false);
    for region in 0..2 {
        let yield_op = terminator(&block_of(&if_op, region));
        let kept: Vec<Value> = yield_op.operands().enumerate().filter(|(i, _)| !removed(*i)).map(|(_, v)| v).collect();
        set_operands(&yield_op, &kept);
    }
    let types: Vec<Type> = terminator(&block_of(&if_op, 0)).operands().map(|v| v.r#type()).collect();
    let mut b = Builder::before(if_op);
    b.location = if_op.location();
    let new_if = create_if(&mut b, &types, IfOp::of(if_op).expect("an scf.if").condition());
    take_body(&new_if, &if_op, 0);
    take_body(&new_if, &if_op, 1);
    let (mut replacements, mut new_results) = (replace_with.iter(), new_if.results());
    for (i, old) in results(&if_op).into_iter().enumerate() {
        let new: Value = if removed(i) { *replacements.next().unwrap() } else { new_results.next().unwrap().into() };
        replace_all_uses(old, new);
    }
    erase(if_op);
    new_if
}

// ---------------------------------------------------------------------------
// Prologues and epilogues

/// A contiguous range of ops of the outer loop's body and the results of
/// theirs used after it.
struct Logue<'c, 'a> {
    ops: Vec<OperationRef<'c, 'a>>,
    outputs: Vec<Value<'c, 'a>>,
}

impl<'c, 'a> Logue<'c, 'a> {
    /// A result is an output when the last op of the range dominates one of
    /// its users.
    fn new(ops: Vec<OperationRef<'c, 'a>>) -> Self {
        let mut outputs = Vec::new();
        if let Some(last) = ops.last() {
            for op in &ops {
                for result in results(op) {
                    if uses(result).iter().any(|u| properly_dominates(last, &u.owner, true)) {
                        outputs.push(result);
                    }
                }
            }
        }
        Logue { ops, outputs }
    }

    fn output_types(&self) -> Vec<Type<'c>> {
        self.outputs.iter().map(|v| v.r#type()).collect()
    }

    fn move_to_end_of(&self, block: &BlockRef<'c, 'a>) {
        for op in &self.ops {
            move_to_end(op, block);
        }
    }

    /// Replaces the uses of the outputs outside `region` (where the ops now
    /// are) with `values`.
    fn replace_uses_outside(&self, values: &[Value<'c, 'a>], region: RegionRef<'c, 'a>) {
        for (output, new) in self.outputs.iter().zip(values) {
            replace_uses_if(*output, *new, |owner| !is_in_region(owner, &region));
        }
    }
}

/// The ops of `block` strictly between `after` (or the block's start) and
/// `before`.
fn ops_between<'c, 'a>(
    block: &BlockRef<'c, 'a>,
    after: Option<&OperationRef<'c, 'a>>,
    before: &OperationRef<'c, 'a>,
) -> Vec<OperationRef<'c, 'a>> {
    let all = block_ops(block);
    let start = after.map_or(0, |a| all.iter().position(|o| o == a).unwrap() + 1);
    let end = all.iter().position(|o| o == before).unwrap();
    all[start..end].to_vec()
}

// ---------------------------------------------------------------------------
// Fusing one level

struct InnerLoop<'c, 'a> {
    op: OperationRef<'c, 'a>,
    /// The ops computing its bounds from the outer induction variable; empty
    /// when the bounds are invariant in the outer loop.
    sliced: OpSet<'c, 'a>,
}

impl InnerLoop<'_, '_> {
    fn is_outer_invariant(&self) -> bool {
        self.sliced.ops.is_empty()
    }
}

/// Clones `ops` (program order) at the builder's point, skipping those
/// cloned already, and records the clones in `map`.
fn clone_slice<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    ops: &OpSet<'c, 'a>,
    map: &mut ValueMap,
    cloned: &mut HashSet<Key>,
    func: OperationRef<'c, 'a>,
) {
    for op in in_program_order(&ops.ops, func) {
        if !cloned.insert(op_key(&op)) {
            continue;
        }
        let clone = b.insert(clone_with(&op, map));
        for (old, new) in op.results().zip(clone.results()) {
            map.map(old.into(), new.into());
        }
    }
}

/// Whether each output of the epilogue is yielded by the outer loop exactly
/// once, which the fused loop relies on (upstream assumes it and would build
/// invalid IR otherwise; such a nest is left alone here).
fn epilogue_is_fusable(epilogue: &Logue, outer_yield: &OperationRef) -> bool {
    epilogue.outputs.iter().all(|output| uses(*output).iter().filter(|u| u.owner == *outer_yield).count() == 1)
}

/// Upstream `fuseOneLevel`: fuses the (already flat) children of node
/// `node` into it; the node becomes the fused loop.
fn fuse_one_level<'c, 'a>(nest: &mut LoopNest<'c, 'a>, node: usize, func: OperationRef<'c, 'a>) {
    let outer = nest.loops[node];
    let outer_iv = induction_variable(&outer);
    let mut inner_loops: Vec<InnerLoop> = Vec::new();
    let mut to_hoist = OpSet::default();
    for &child in &nest.children[node] {
        let inner = nest.loops[child];
        let inner_bounds = bounds(&inner);
        if ops_to_hoist(&outer, &inner_bounds, can_hoist_bound_computation, is_function_argument, &mut to_hoist) {
            inner_loops.push(InnerLoop { op: inner, sliced: OpSet::default() });
            continue;
        }
        let mut sliced = OpSet::default();
        let outer_or_function_argument = |v: Value| v == outer_iv || is_function_argument(v);
        if ops_to_hoist(&outer, &inner_bounds, can_hoist_bound_computation, outer_or_function_argument, &mut sliced) {
            inner_loops.push(InnerLoop { op: inner, sliced });
        }
    }
    // Children that cannot be fused stay inside the prologues and epilogue.
    nest.children[node].clear();
    if inner_loops.is_empty() {
        return;
    }
    let outer_body = body(&outer).expect("a loop with a body");
    let outer_yield = terminator(&outer_body);
    let last_inner = inner_loops.last().unwrap().op;
    if !epilogue_is_fusable(&Logue::new(ops_between(&outer_body, Some(&last_inner), &outer_yield)), &outer_yield) {
        return;
    }
    hoist_before(&to_hoist, &outer, func);

    let mut b = Builder::before(outer);
    b.location = outer.location();
    let width =
        inner_loops.iter().map(|l| int_width(induction_type(&l.op))).fold(int_width(induction_type(&outer)), u32::max);
    let int_ty = b.integer_type(width);
    let all_invariant = inner_loops.iter().all(InnerLoop::is_outer_invariant);

    let len_outer = number_of_iterations(&mut b, bounds(&outer));
    let mut len_inners: Vec<Value> = Vec::new();
    for lp in &inner_loops {
        let len = if lp.is_outer_invariant() {
            let len = number_of_iterations(&mut b, bounds(&lp.op));
            cast_int(&mut b, len, int_ty)
        } else {
            poison_or_zero(&mut b, int_ty)
        };
        len_inners.push(len);
    }
    // inner_len = max(1, len_j0) + ... + max(1, len_jN) - N
    let n = inner_loops.len() - 1;
    let mut inner_len = b.constant(0, int_ty);
    for (lp, len) in inner_loops.iter().zip(&len_inners) {
        if !lp.is_outer_invariant() {
            continue;
        }
        let one = b.constant(1, int_ty);
        let at_least_one = b.binary("arith.maxsi", one, *len);
        inner_len = b.binary("arith.addi", inner_len, at_least_one);
    }
    let n_value = b.constant(n as i64, int_ty);
    inner_len = b.binary("arith.subi", inner_len, n_value);
    let len_outer = cast_int(&mut b, len_outer, int_ty);
    let total = b.binary("arith.muli", len_outer, inner_len);

    // The lengths of inner loops whose bounds vary with the outer loop add
    // up in a loop of their own.
    let counting = create_for(&mut b, bounds(&outer), &[total]);
    let counting_body = body(&counting).unwrap();
    let counting_args = block_arguments(&counting_body);
    let mut map = ValueMap::default();
    map.map(outer_iv, counting_args[0]);
    let mut cloned = HashSet::new();
    let mut sum = counting_args[1];
    {
        let mut inside = Builder::at_end(counting_body, b.location);
        for lp in inner_loops.iter().filter(|l| !l.is_outer_invariant()) {
            clone_slice(&mut inside, &lp.sliced, &mut map, &mut cloned, func);
            let mapped = bounds(&lp.op).map(|v| map.lookup(v));
            let len = number_of_iterations(&mut inside, mapped);
            let len = cast_int(&mut inside, len, int_ty);
            let one = inside.constant(1, int_ty);
            let at_least_one = inside.binary("arith.maxsi", one, len);
            sum = inside.binary("arith.addi", sum, at_least_one);
        }
        create_yield(&mut inside, &[sum]);
    }
    let total: Value = counting.result_at(0).unwrap().into();
    b.set_after(counting);

    // prologue0, prologue k (0 < k <= N), epilogue.
    let mut logues: Vec<Logue> = Vec::new();
    logues.push(Logue::new(ops_between(&outer_body, None, &inner_loops[0].op)));
    for k in 0..n {
        logues.push(Logue::new(ops_between(&outer_body, Some(&inner_loops[k].op), &inner_loops[k + 1].op)));
    }
    logues.push(Logue::new(ops_between(&outer_body, Some(&last_inner), &outer_yield)));

    // Iter args: T, i, the outer iter_args, the inner lengths, inner_len,
    // each inner induction variable, each inner loop's results, each
    // prologue's outputs.
    let mut inits: Vec<Value> = vec![b.constant(0, int_ty)];
    let [outer_lower, _, outer_step] = bounds(&outer);
    inits.push(b.binary("arith.subi", outer_lower, outer_step));
    let outer_start = inits.len();
    inits.extend(init_args(&outer));
    let lens_start = inits.len();
    inits.extend(&len_inners);
    let inner_len_index = inits.len();
    inits.push(inner_len);
    let ivars_start = inits.len();
    for lp in &inner_loops {
        let ty = induction_type(&lp.op);
        inits.push(poison_or_zero(&mut b, ty));
    }
    let inner_outs_start = inits.len();
    for lp in &inner_loops {
        for ty in result_types(&lp.op) {
            inits.push(poison_or_zero(&mut b, ty));
        }
    }
    let logue_outs_start = inits.len();
    for logue in &logues[..logues.len() - 1] {
        for ty in logue.output_types() {
            inits.push(poison_or_zero(&mut b, ty));
        }
    }
    let zero = b.constant(0, int_ty);
    let one = b.constant(1, int_ty);
    let fused = create_for(&mut b, [zero, total, one], &inits);
    let fused_body = body(&fused).unwrap();
    let fused_region = fused.region_at(0).unwrap();
    let args: Vec<Value> = block_arguments(&fused_body).into_iter().skip(1).collect();
    for (old, new) in iter_args(&outer).into_iter().zip(&args[outer_start..]) {
        replace_all_uses(old, *new);
    }
    let n_inner = inner_loops.len();
    let lens_range: Vec<Value> = args[lens_start..lens_start + n_inner].to_vec();
    len_inners = lens_range.clone();

    let mut b = Builder::at_end(fused_body, outer.location());
    let t = args[0];
    let current_i = args[1];
    let mut i = current_i;
    let mut body_outs = inner_outs_start;
    let mut logue_outs = logue_outs_start;
    let mut prologue_ifs: Vec<OperationRef> = Vec::new();
    let mut body_ifs: Vec<OperationRef> = Vec::new();
    for k in 0..=n {
        // if T == max(1, len_j0) + ... + max(1, len_jk-1) - k: prologue k
        let mut inner_start = b.constant(0, int_ty);
        for len in &len_inners[..k] {
            let one = b.constant(1, int_ty);
            let at_least_one = b.binary("arith.maxsi", one, *len);
            inner_start = b.binary("arith.addi", inner_start, at_least_one);
        }
        let k_value = b.constant(k as i64, int_ty);
        inner_start = b.binary("arith.subi", inner_start, k_value);
        let prologue_condition = b.cmpi(CmpI::Eq, t, inner_start);

        let inner = inner_loops[k].op;
        let prologue = &logues[k];
        let inner_inits = init_args(&inner);
        let mut types = vec![induction_type(&inner)];
        types.extend(prologue.output_types());
        types.extend(inner_inits.iter().map(|v| v.r#type()));
        if k == 0 {
            types.push(current_i.r#type());
            types.extend(std::iter::repeat_n(int_ty, n_inner));
            types.push(inner_len.r#type());
        }
        let prologue_if = create_if(&mut b, &types, prologue_condition);
        prologue_ifs.push(prologue_if);
        let then_block = create_block(&prologue_if, 0);
        let then_region = prologue_if.region_at(0).unwrap();
        prologue.move_to_end_of(&then_block);

        let mut then_builder = Builder::at_end(then_block, outer.location());
        then_builder.set_at_start(then_block);
        if k == 0 {
            // Step `i` here, not in the epilogue, so that nothing depends on
            // the epilogue.
            i = then_builder.binary("arith.addi", current_i, outer_step);
            let stepped = i;
            replace_uses_if(outer_iv, stepped, |owner| is_in_region(owner, &then_region));
            // Upstream clones the slices with an empty mapping, which is
            // right only for slices in prologue 0 (already rewired to the
            // stepped `i` above); a slice in a later prologue would keep the
            // outer induction variable and end up using this very `scf.if`'s
            // result (invalid IR upstream). Mapping it to `i` gives the same
            // IR where upstream's is valid.
            let mut map = ValueMap::default();
            map.map(outer_iv, stepped);
            let mut cloned = HashSet::new();
            for (lp, len) in inner_loops.iter().zip(len_inners.iter_mut()) {
                if lp.is_outer_invariant() {
                    continue;
                }
                clone_slice(&mut then_builder, &lp.sliced, &mut map, &mut cloned, func);
                let mapped = bounds(&lp.op).map(|v| map.lookup(v));
                let new_len = number_of_iterations(&mut then_builder, mapped);
                *len = cast_int(&mut then_builder, new_len, int_ty);
                let one = then_builder.constant(1, int_ty);
                let at_least_one = then_builder.binary("arith.maxsi", one, *len);
                inner_len = then_builder.binary("arith.addi", inner_len, at_least_one);
            }
        }
        let mut then_values = vec![inner.operand_at(LOWER).unwrap()];
        then_values.extend(&prologue.outputs);
        then_values.extend(&inner_inits);
        if k == 0 {
            then_values.push(i);
            then_values.extend(&len_inners);
            then_values.push(inner_len);
        }
        let mut then_end = Builder::at_end(then_block, outer.location());
        create_yield(&mut then_end, &then_values);

        let else_block = create_block(&prologue_if, 1);
        let outputs = prologue.outputs.len();
        let inner_results = inner.result_count();
        let mut else_values = vec![args[ivars_start + k]];
        else_values.extend(&args[logue_outs..logue_outs + outputs]);
        else_values.extend(&args[body_outs..body_outs + inner_results]);
        if k == 0 {
            else_values.push(current_i);
            else_values.extend(&lens_range);
            // Upstream passes the invariant inner_len through directly.
            else_values.push(if all_invariant { inner_len } else { args[inner_len_index] });
        }
        logue_outs += outputs;
        create_yield(&mut Builder::at_end(else_block, outer.location()), &else_values);

        let if_results = results(&prologue_if);
        let jk = if_results[0];
        let prologue_outputs = &if_results[1..1 + outputs];
        let prologue_inits = &if_results[1 + outputs..1 + outputs + inner_results];
        replace_all_uses(induction_variable(&inner), jk);
        prologue.replace_uses_outside(prologue_outputs, then_region);
        for (init, argument) in prologue_inits.iter().zip(iter_args(&inner)) {
            replace_all_uses(argument, *init);
        }
        if k == 0 {
            let count = if_results.len();
            i = if_results[count - 2 - n_inner];
            len_inners = if_results[count - 1 - n_inner..count - 1].to_vec();
            inner_len = if_results[count - 1];
            replace_all_uses(outer_iv, i);
        }

        // if start <= T < start + len_jk: body k; jk += step
        b.set_after(prologue_if);
        let len_k = cast_int(&mut b, len_inners[k], int_ty);
        let inner_end = b.binary("arith.addi", inner_start, len_k);
        let ge = b.cmpi(CmpI::Sge, t, inner_start);
        let lt = b.cmpi(CmpI::Slt, t, inner_end);
        let body_condition = b.binary("arith.andi", ge, lt);
        let mut body_types = vec![jk.r#type()];
        body_types.extend(result_types(&inner));
        let body_if = create_if(&mut b, &body_types, body_condition);
        body_ifs.push(body_if);
        let inner_body = body(&inner).unwrap();
        for index in (0..inner_body.argument_count()).rev() {
            // The arguments have no uses left.
            ir::erase_block_argument(&inner_body, index);
        }
        take_body(&body_if, &inner, 0);
        let inner_yield = terminator(&block_of(&body_if, 0));
        let mut before_yield = Builder::before(inner_yield);
        before_yield.location = outer.location();
        let next_jk = before_yield.binary("arith.addi", jk, bounds(&inner)[2]);
        let mut yielded = vec![next_jk];
        yielded.extend(inner_yield.operands());
        set_operands(&inner_yield, &yielded);
        let body_else = create_block(&body_if, 1);
        let mut forwarded = vec![jk];
        forwarded.extend(&args[body_outs..body_outs + inner_results]);
        body_outs += inner_results;
        create_yield(&mut Builder::at_end(body_else, outer.location()), &forwarded);
        for (old, new) in results(&inner).into_iter().zip(results(&body_if).into_iter().skip(1)) {
            replace_all_uses(old, new);
        }
        if inner.has_attribute(MUST_EXECUTE) {
            b.set_before(body_if);
            let always = bool_constant(&mut b, true);
            set_operand(&body_if, 0, always);
        }
        b.set_after(body_if);
    }

    // if T == inner_len - 1: epilogue
    let epilogue = logues.last().unwrap();
    let mut used_iter_args = Vec::new();
    for output in &epilogue.outputs {
        for u in uses(*output) {
            if u.owner == outer_yield {
                used_iter_args.push(args[outer_start + u.index]);
            }
        }
    }
    let one = b.constant(1, int_ty);
    let last = b.binary("arith.subi", inner_len, one);
    let epilogue_condition = b.cmpi(CmpI::Eq, t, last);
    let epilogue_if = create_if(&mut b, &epilogue.output_types(), epilogue_condition);
    let then_block = create_block(&epilogue_if, 0);
    epilogue.move_to_end_of(&then_block);
    create_yield(&mut Builder::at_end(then_block, outer.location()), &epilogue.outputs);
    let else_block = create_block(&epilogue_if, 1);
    create_yield(&mut Builder::at_end(else_block, outer.location()), &used_iter_args);
    epilogue.replace_uses_outside(&results(&epilogue_if), epilogue_if.region_at(0).unwrap());

    // T = 0 if T == inner_len - 1 else T + 1
    let one = b.constant(1, int_ty);
    let next_t = b.binary("arith.addi", t, one);
    let one = b.constant(1, int_ty);
    let last = b.binary("arith.subi", inner_len, one);
    let rollover = b.cmpi(CmpI::Eq, t, last);
    let zero = b.constant(0, int_ty);
    let new_t = b.select(rollover, zero, next_t);

    let mut yielded = vec![new_t, i];
    yielded.extend(outer_yield.operands());
    yielded.extend(&len_inners);
    yielded.push(inner_len);
    for body_if in &body_ifs {
        yielded.push(body_if.result_at(0).unwrap().into());
    }
    for (body_if, lp) in body_ifs.iter().zip(&inner_loops) {
        yielded.extend(results(body_if).into_iter().skip(1).take(lp.op.result_count()));
    }
    for (prologue_if, logue) in prologue_ifs.iter().zip(&logues) {
        yielded.extend(results(prologue_if).into_iter().skip(1).take(logue.outputs.len()));
    }
    let fused_yield = create_yield(&mut b, &yielded);
    for (old, new) in results(&outer).into_iter().zip(results(&fused).into_iter().skip(outer_start)) {
        replace_all_uses(old, new);
    }

    // Inner loops whose inits come from outside the fused loop start from
    // them once, in the fused loop's inits; the epilogue resets them.
    let mut position = inner_outs_start;
    let mut yields_to_update = Vec::new();
    let (mut reset, mut forwarded) = (Vec::new(), Vec::new());
    for ((lp, prologue_if), (body_if, prologue)) in
        inner_loops.iter().zip(&prologue_ifs).zip(body_ifs.iter().zip(&logues))
    {
        let inner_results = lp.op.result_count();
        let skip = 1 + prologue.outputs.len();
        let mut remove = vec![false; skip + inner_results];
        let mut replace_with = Vec::new();
        for (index, init) in init_args(&lp.op).into_iter().enumerate() {
            if region_of_value(init).is_some_and(|r| r == fused_region) {
                continue;
            }
            set_operand(&fused, FIRST_INIT + position + index, init);
            replace_with.push(args[position + index]);
            remove[skip + index] = true;
            yields_to_update.push(position + index);
            forwarded.push(body_if.result_at(1 + index).unwrap().into());
            reset.push(init);
        }
        erase_if_results(*prologue_if, &remove, &replace_with);
        position += inner_results;
    }
    if !yields_to_update.is_empty() {
        let then_yield = terminator(&block_of(&epilogue_if, 0));
        let else_yield = terminator(&block_of(&epilogue_if, 1));
        let mut then_values: Vec<Value> = then_yield.operands().collect();
        then_values.extend(&reset);
        set_operands(&then_yield, &then_values);
        let mut else_values: Vec<Value> = else_yield.operands().collect();
        else_values.extend(&forwarded);
        set_operands(&else_yield, &else_values);
        let types: Vec<Type> = then_values.iter().map(|v| v.r#type()).collect();
        let mut before = Builder::before(epilogue_if);
        before.location = outer.location();
        let new_if = create_if(&mut before, &types, IfOp::of(epilogue_if).expect("an scf.if").condition());
        take_body(&new_if, &epilogue_if, 0);
        take_body(&new_if, &epilogue_if, 1);
        let old_count = epilogue_if.result_count();
        for (old, new) in results(&epilogue_if).into_iter().zip(results(&new_if)) {
            replace_all_uses(old, new);
        }
        let new_results = results(&new_if);
        for (index, position) in yields_to_update.iter().enumerate() {
            set_operand(&fused_yield, *position, new_results[old_count + index]);
        }
        erase(epilogue_if);
    }

    // The loop attributes the pipeliner reads carry over.
    if outer.has_attribute(WARP_SPECIALIZE) || inner_loops.iter().any(|l| l.op.has_attribute(WARP_SPECIALIZE)) {
        unit_attribute(&fused, WARP_SPECIALIZE);
    }
    if outer.has_attribute(DISALLOW_ACC_MULTI_BUFFER)
        || inner_loops.iter().any(|l| l.op.has_attribute(DISALLOW_ACC_MULTI_BUFFER))
    {
        unit_attribute(&fused, DISALLOW_ACC_MULTI_BUFFER);
    }
    let mut stages = crate::ir::int_attribute(&outer, NUM_STAGES).unwrap_or(1);
    for lp in &inner_loops {
        if let Some(inner_stages) = crate::ir::int_attribute(&lp.op, NUM_STAGES) {
            stages = stages.max(inner_stages);
        }
        erase(lp.op);
    }
    erase(outer);
    nest.loops[node] = fused;
    if stages > 1 {
        let i32_type = b.integer_type(32);
        crate::ssa::set_attribute(&fused, NUM_STAGES, IntegerAttribute::new(i32_type, stages).into());
    }
}

// ---------------------------------------------------------------------------
// Preparing a tt.flatten nest

/// Sinks the pure ops of the prologue whose users all come after the inner
/// loop (or are sunk too) to just after it, shortening their live ranges.
fn sink_prologue_into_epilogue<'c, 'a>(
    outer: &OperationRef<'c, 'a>,
    inner: &OperationRef<'c, 'a>,
    func: OperationRef<'c, 'a>,
) {
    let outer_body = body(outer).unwrap();
    let in_epilogue = |op: &OperationRef| properly_dominates(inner, op, false);
    let mut sunk = OpSet::default();
    for op in ops_between(&outer_body, None, inner).into_iter().rev() {
        if !is_pure(&op) || is_dot_interface(&op) {
            continue;
        }
        let can_sink =
            op.results().all(|r| uses(r.into()).iter().all(|u| in_epilogue(&u.owner) || sunk.contains(&u.owner)));
        if can_sink {
            sunk.insert(op);
        }
    }
    if sunk.ops.is_empty() {
        return;
    }
    let after_inner = inner.next_in_block().expect("the loop's yield follows");
    hoist_before(&sunk, &after_inner, func);
}

/// `arith.cmpi` predicates.
const SGT: i64 = 4;
const SLT: i64 = 2;
const UGT: i64 = 8;
const ULT: i64 = 6;

/// Whether an `llvm.intr.assume` says `ub > lb` (or `lb < ub`).
fn assumes_positive_trip_count(lp: &OperationRef) -> bool {
    let [lower, upper, _] = bounds(lp);
    let unsigned = lp.has_attribute("unsignedCmp");
    let (greater, less) = if unsigned { (UGT, ULT) } else { (SGT, SLT) };
    uses(upper).into_iter().any(|u| {
        let cmp = u.owner;
        let Some(compare) = CmpIOp::of(cmp) else { return false };
        let assumed = cmp.results().any(|r| uses(r.into()).iter().any(|u| name_of(&u.owner) == "llvm.intr.assume"));
        if !assumed {
            return false;
        }
        let predicate = crate::ir::int_attribute(&cmp, "predicate");
        let (lhs, rhs) = (compare.lhs(), compare.rhs());
        (predicate == Some(greater) && lhs == upper && rhs == lower)
            || (predicate == Some(less) && lhs == lower && rhs == upper)
    })
}

/// Makes the inner loop known to run at least once, so that its body needs
/// no guard in the fused loop (which the pipeliner handles better): from an
/// assumption, or by versioning the nest on an empty inner loop (the `then`
/// copy of the nest has no inner loop; the nest to fuse is in `else`).
fn speculate_inner_loop_length<'c, 'a>(
    outer: &OperationRef<'c, 'a>,
    inner: &OperationRef<'c, 'a>,
    func: OperationRef<'c, 'a>,
) -> bool {
    if assumes_positive_trip_count(inner) {
        unit_attribute(inner, MUST_EXECUTE);
        return true;
    }
    let mut to_hoist = OpSet::default();
    if !ops_to_hoist(outer, &bounds(inner), can_hoist_bound_computation, is_function_argument, &mut to_hoist) {
        return false;
    }
    hoist_before(&to_hoist, outer, func);
    unit_attribute(inner, MUST_EXECUTE);

    let mut b = Builder::before(*outer);
    b.location = inner.location();
    let len = number_of_iterations(&mut b, bounds(inner));
    let zero = b.constant(0, len.r#type());
    let empty = b.cmpi(CmpI::Eq, len, zero);
    let if_op = create_if(&mut b, &result_types(outer), empty);

    // then: the nest without its inner loop.
    let then_block = create_block(&if_op, 0);
    let inner_position = collect_ops(*outer, Order::Pre).iter().position(|op| op == inner).unwrap();
    let copy = then_block.append_operation(clone_with(outer, &ValueMap::default()));
    let copied_inner = collect_ops(copy, Order::Pre)[inner_position];
    let mut then_end = Builder::at_end(then_block, inner.location());
    create_yield(&mut then_end, &results(&copy));
    for (result, init) in results(&copied_inner).into_iter().zip(init_args(&copied_inner)) {
        replace_all_uses(result, init);
    }
    erase(copied_inner);
    remove_attribute(&copy, WARP_SPECIALIZE);

    // else: the nest itself.
    for (old, new) in results(outer).into_iter().zip(results(&if_op)) {
        replace_all_uses(old, new);
    }
    let else_block = create_block(&if_op, 1);
    move_to_end(outer, &else_block);
    create_yield(&mut Builder::at_end(else_block, inner.location()), &results(outer));
    true
}

/// Upstream `preprocessLoopNest` for a one-loop-in-one-loop nest: MLIR's
/// LICM on the outer loop, sinking prologue ops into the epilogue, and
/// speculating the inner loop's length; `false` when the nest is not to be
/// fused.
fn preprocess(nest: &LoopNest, func: OperationRef) -> bool {
    let (outer, inner) = (nest.loops[0], nest.loops[1]);
    crate::triton_licm::move_loop_invariant_code(outer);
    sink_prologue_into_epilogue(&outer, &inner, func);
    speculate_inner_loop_length(&outer, &inner, func)
}
