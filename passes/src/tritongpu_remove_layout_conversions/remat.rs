//! Phase 2: backward rematerialisation (upstream `LayoutRematerialization`).
//!
//! For a conversion left after propagation, the ops computing its source
//! are duplicated in the target layout when that is cheaper than the
//! conversion (a conversion through shared memory costs about 32 cycles per
//! byte, duplicated loads and math their instruction costs), so the
//! conversion disappears. Loop-carried values and `scf.if` results become
//! new iter_args and results of rebuilt loops and ifs.
use super::ir::{
    attribute_key, body, clone_before, convert_layout, defining_op, encoding, int_or_float_width, is_float, op_key,
    op_name, operands, post_dominates, pre_order_positions, properly_dominates, replace_all_uses, result_number,
    results, set_operand, set_type, shape_of, terminator, users, value_key, with_encoding, Key,
};
use super::layouts::Layouts;
use super::ops::{can_be_rematerialized, is_expensive_math};
use super::scf;
use super::slice::{backward_slice, Operand, Slice};
use super::Step;
use crate::ir::{collect_ops, Order};
use melior::ir::{operation::OperationLike, Attribute, BlockLike, OperationRef, Value, ValueLike};
use std::collections::{HashMap, HashSet};
use tritium_dialects::access::{ranked_tensor, OpAccess};
use tritium_dialects::views::{ConvertLayoutOp, DotLikeOp, ReductionOp};

/// Values standing for other values in the rewrite of a slice (upstream
/// `IRMapping`).
#[derive(Default)]
pub(super) struct Mapping<'c, 'a> {
    values: HashMap<Key, Value<'c, 'a>>,
}

impl<'c, 'a> Mapping<'c, 'a> {
    pub(super) fn map(&mut self, from: Value<'c, 'a>, to: Value<'c, 'a>) {
        self.values.insert(value_key(from), to);
    }

    pub(super) fn get(&self, value: Value) -> Option<Value<'c, 'a>> {
        self.values.get(&value_key(value)).copied()
    }

    fn lookup(&self, value: Value) -> Step<Value<'c, 'a>> {
        self.get(value).ok_or_else(|| "a value of the slice was not rematerialized".to_string())
    }
}

pub(super) struct Rematerialization<'c, 'a, 'l> {
    pub(super) function: OperationRef<'c, 'a>,
    pub(super) layouts: &'l mut Layouts<'c>,
    /// Rematerialized values by (original value, layout).
    remat: HashMap<(Key, Key), Value<'c, 'a>>,
    /// The layout each original value with a rematerialization has it in.
    mapped: HashMap<Key, Attribute<'c>>,
    to_delete: Vec<OperationRef<'c, 'a>>,
    deleted: HashSet<Key>,
}

impl<'c, 'a, 'l> Rematerialization<'c, 'a, 'l> {
    pub(super) fn new(function: OperationRef<'c, 'a>, layouts: &'l mut Layouts<'c>) -> Self {
        Rematerialization {
            function,
            layouts,
            remat: HashMap::new(),
            mapped: HashMap::new(),
            to_delete: Vec::new(),
            deleted: HashSet::new(),
        }
    }

    pub(super) fn add_remat(&mut self, old: Value<'c, 'a>, layout: Attribute<'c>, new: Value<'c, 'a>) {
        self.remat.insert((value_key(old), attribute_key(layout)), new);
        self.mapped.insert(value_key(old), layout);
    }

    pub(super) fn remat_value(&self, value: Value, layout: Attribute) -> Option<Value<'c, 'a>> {
        self.remat.get(&(value_key(value), attribute_key(layout))).copied()
    }

    pub(super) fn schedule_delete(&mut self, op: OperationRef<'c, 'a>) {
        if self.deleted.insert(op_key(&op)) {
            self.to_delete.push(op);
        }
    }

    pub(super) fn is_deleted(&self, op: &OperationRef) -> bool {
        self.deleted.contains(&op_key(op))
    }

    /// Erases the replaced ops, last scheduled first.
    pub(super) fn cleanup(&mut self) -> Step<()> {
        for op in std::mem::take(&mut self.to_delete).into_iter().rev() {
            super::ir::erase_op(op)?;
        }
        self.deleted.clear();
        Ok(())
    }

    /// The function's conversions, nested ones first (MLIR's walk order).
    pub(super) fn conversions(&self) -> Vec<OperationRef<'c, 'a>> {
        collect_ops(self.function, Order::Post).into_iter().filter(|op| op_name(op) == "ttg.convert_layout").collect()
    }

    /// After handling `convert`: if it stays, later slices may reuse it.
    pub(super) fn remember_if_kept(&mut self, convert: OperationRef<'c, 'a>) -> bool {
        if self.is_deleted(&convert) {
            return false;
        }
        if let (Some(source), Ok(result)) = (ConvertLayoutOp::of(convert).map(|c| c.src()), convert.result_at(0)) {
            if let Some(layout) = encoding(result.r#type()) {
                self.add_remat(source, layout, result.into());
            }
        }
        true
    }

    /// Upstream `getConvertBackwardSlice` with reuse of rematerialized values
    /// that dominate the use they would replace.
    pub(super) fn convert_backward_slice(
        &mut self,
        root: Operand<'c, 'a>,
        layout: Attribute<'c>,
        slice: &mut Slice<'c, 'a>,
        stop: Option<&dyn Fn(&OperationRef) -> bool>,
    ) -> bool {
        let remat = &self.remat;
        let existing = |operand: Operand<'c, 'a>, layout: Attribute<'c>| -> Option<Value<'c, 'a>> {
            let value = operand.value()?;
            let remat = remat.get(&(value_key(value), attribute_key(layout))).copied()?;
            properly_dominates(remat, operand.owner).then_some(remat)
        };
        backward_slice(root, layout, slice, self.layouts, stop, Some(&existing))
    }

    /// A backward slice all of whose ops may be duplicated.
    pub(super) fn rematerializable_slice(
        &mut self,
        root: Operand<'c, 'a>,
        layout: Attribute<'c>,
        slice: &mut Slice<'c, 'a>,
        stop: Option<&dyn Fn(&OperationRef) -> bool>,
    ) -> bool {
        if !self.convert_backward_slice(root, layout, slice, stop) || slice.is_empty() {
            return false;
        }
        slice.values().iter().all(|&v| defining_op(v).is_none_or(|op| can_be_rematerialized(&op)))
    }

    /// Upstream `backwardRematerialization(ConvertLayoutOp)`.
    pub(super) fn backward_rematerialize(&mut self, convert: OperationRef<'c, 'a>) -> Step<()> {
        let (Some(source), Ok(result)) = (ConvertLayoutOp::of(convert).map(|c| c.src()), convert.result_at(0)) else {
            return Ok(());
        };
        let Some(target) = encoding(result.r#type()) else { return Ok(()) };
        // Conversions to dot operands are hoisted separately.
        if matches!(self.layouts.get(target), Some(tritium_layout::Layout::DotOperand(_))) {
            return Ok(());
        }
        if let Some(existing) = self.remat_value(source, target) {
            if properly_dominates(existing, convert) {
                replace_all_uses(result.into(), existing);
                self.schedule_delete(convert);
                return Ok(());
            }
        }
        let mut slice = Slice::default();
        if !self.rematerializable_slice(Operand { owner: convert, index: 0 }, target, &mut slice, None) {
            return Ok(());
        }
        let Some(cost) = self.rematerialization_cost(&slice, convert) else { return Ok(()) };
        let convert_cost = 32 * byte_count(source, 32, 32);
        if cost > convert_cost {
            return Ok(());
        }
        self.rewrite_slice(slice, convert, Mapping::default())
    }

    /// What duplicating the slice costs: nothing for ops only the slice uses
    /// (they move rather than duplicate) and for constants; loads (assumed
    /// cached), arithmetic (8x for special functions) and reductions by the
    /// bytes they produce or exchange. `None` where a non-associative
    /// reduction would be duplicated.
    fn rematerialization_cost(&mut self, slice: &Slice<'c, 'a>, convert: OperationRef<'c, 'a>) -> Option<i64> {
        let mut slice_ops: Vec<OperationRef> = Vec::new();
        for &value in slice.values() {
            if let Some(op) = defining_op(value) {
                if !slice_ops.contains(&op) {
                    slice_ops.push(op);
                }
            }
        }
        let in_slice: HashSet<Key> = slice_ops.iter().map(op_key).collect();
        let mut single_use: HashMap<Key, bool> = HashMap::new();
        let mut cost = 0i64;
        for op in &slice_ops {
            if is_single_use(*op, convert, &in_slice, &mut single_use) {
                continue;
            }
            let name = op_name(op);
            if name == "arith.constant" {
                continue;
            }
            if name == "tt.load" || name == "ttg.local_load" {
                cost += results(op).into_iter().map(|r| 8 * byte_count(r, 0, 0)).sum::<i64>();
            } else if name.starts_with("arith.") || name.starts_with("math.") {
                let multiplier = if is_expensive_math(&name) { 8 } else { 1 };
                cost += results(op).into_iter().map(|r| multiplier * byte_count(r, 0, 0)).sum::<i64>();
            } else if name == "tt.reduce" {
                let reduce = ReduceInfo::of(op, self.layouts)?;
                if !reduce.associative {
                    return None;
                }
                cost += i64::from(reduce.lanes_with_unique_data) + 8 * i64::from(reduce.warps_with_unique_data);
            }
        }
        Some(cost)
    }

    /// Duplicates the ops of `slice` in their slice layouts and replaces
    /// `convert` with the rematerialized source (upstream `rewriteSlice`).
    /// `mapping` may already hold replacements for some slice values.
    pub(super) fn rewrite_slice(
        &mut self,
        mut slice: Slice<'c, 'a>,
        convert: OperationRef<'c, 'a>,
        mut mapping: Mapping<'c, 'a>,
    ) -> Step<()> {
        let mut ops_to_rewrite: Vec<OperationRef> = Vec::new();
        let add_op = |op: OperationRef<'c, 'a>, ops: &mut Vec<OperationRef<'c, 'a>>| {
            if !ops.contains(&op) {
                ops.push(op);
            }
        };
        // Yield operands to duplicate, by yield op.
        let mut yield_operands: HashMap<Key, Vec<usize>> = HashMap::new();
        let mut reused = Vec::new();
        for &value in slice.values() {
            let layout = slice.layout(value).ok_or("a slice value without layout")?;
            if let Some(remat) = self.remat_value(value, layout) {
                mapping.map(value, remat);
                reused.push(value);
                continue;
            }
            if let Some(op) = defining_op(value) {
                add_op(op, &mut ops_to_rewrite);
                if op_name(&op) == "scf.if" {
                    let index = result_number(value).ok_or("an if result expected")?;
                    for branch in 0..2 {
                        let yield_op = terminator(&op, branch).ok_or("an if branch without yield")?;
                        add_op(yield_op, &mut ops_to_rewrite);
                        yield_operands.entry(op_key(&yield_op)).or_default().push(index);
                    }
                }
            } else {
                let (block, number) = super::ir::argument_owner(value).ok_or("a value without owner")?;
                let parent = block.parent_operation().ok_or("a block without parent")?;
                if op_name(&parent) != "scf.for" {
                    return Err("only scf.for block arguments can be rematerialized".into());
                }
                add_op(parent, &mut ops_to_rewrite);
                let yield_op = block.terminator().ok_or("a loop without yield")?;
                yield_operands.entry(op_key(&yield_op)).or_default().push(number - 1);
                add_op(yield_op, &mut ops_to_rewrite);
            }
        }
        for value in reused {
            slice.remove(value);
        }
        let positions = pre_order_positions(self.function);
        ops_to_rewrite.sort_by_key(|op| positions.get(&op_key(op)).copied().unwrap_or(usize::MAX));

        // Replacements of loop and if results, done once all ops are
        // rewritten (the slice must still see the old values).
        let mut replacements: Vec<(Value<'c, 'a>, Value<'c, 'a>)> = Vec::new();
        let mut dead = Vec::new();
        for op in ops_to_rewrite {
            match op_name(&op).as_str() {
                "scf.for" => {
                    let for_body = body(&op, 0).ok_or("a loop without body")?;
                    let init_count = op.operand_count() - 3;
                    let mut argument_mapping = Vec::new();
                    let mut new_inits = Vec::new();
                    for iter in 0..init_count {
                        let argument: Value = for_body.argument(iter + 1).map_err(|e| e.to_string())?.into();
                        if slice.contains(argument) {
                            argument_mapping.push((iter, init_count + new_inits.len()));
                            let init = op.operand_at(3 + iter).map_err(|e| e.to_string())?;
                            new_inits.push(mapping.lookup(init)?);
                        }
                    }
                    let new = scf::for_with_extra_iter_args(&op, &new_inits).ok_or("cannot rebuild the loop")?;
                    replacements.extend(scf::result_pairs(&op, &new));
                    dead.push(op);
                    let new_body = body(&new, 0).ok_or("a loop without body")?;
                    for (old_index, new_index) in argument_mapping {
                        let old_argument: Value = new_body.argument(old_index + 1).map_err(|e| e.to_string())?.into();
                        let new_argument: Value = new_body.argument(new_index + 1).map_err(|e| e.to_string())?.into();
                        let old_result: Value = op.result_at(old_index).map_err(|e| e.to_string())?.into();
                        let new_result: Value = new.result_at(new_index).map_err(|e| e.to_string())?.into();
                        mapping.map(old_result, new_result);
                        mapping.map(old_argument, new_argument);
                        let layout = slice.layout(old_argument).ok_or("a loop argument without layout")?;
                        let kept_result: Value = new.result_at(old_index).map_err(|e| e.to_string())?.into();
                        self.add_remat(kept_result, layout, new_result);
                        self.add_remat(old_argument, layout, new_argument);
                    }
                }
                "scf.if" => {
                    let mut types: Vec<_> = results(&op).into_iter().map(|r| r.r#type()).collect();
                    for result in results(&op) {
                        if slice.contains(result) {
                            let layout = slice.layout(result).ok_or("an if result without layout")?;
                            types.push(with_encoding(result.r#type(), layout).ok_or("not a tensor")?);
                        }
                    }
                    let new = scf::if_with_results(&op, &types, true).ok_or("cannot rebuild the if")?;
                    scf::ensure_yields(&new)?;
                    replacements.extend(scf::result_pairs(&op, &new));
                    let mut new_index = op.result_count();
                    for result in results(&op) {
                        if slice.contains(result) {
                            let new_result: Value = new.result_at(new_index).map_err(|e| e.to_string())?.into();
                            mapping.map(result, new_result);
                            let layout = slice.layout(result).ok_or("an if result without layout")?;
                            self.add_remat(result, layout, new_result);
                            new_index += 1;
                        }
                    }
                    dead.push(op);
                }
                "scf.yield" => {
                    let mut values = operands(&op);
                    let mut indices = yield_operands.get(&op_key(&op)).cloned().unwrap_or_default();
                    indices.sort_unstable();
                    for index in indices {
                        let operand = op.operand_at(index).map_err(|e| e.to_string())?;
                        values.push(mapping.lookup(operand)?);
                    }
                    let new = crate::ir::create("scf.yield", op.location(), &values, &[], &[]);
                    super::ir::insert_before(&op, new).ok_or("cannot insert a yield")?;
                    super::ir::erase_op(op)?;
                }
                "arith.constant" => {
                    // Constants are re-created as they are and converted;
                    // the canonicalizer folds the conversion.
                    let result: Value = op.result_at(0).map_err(|e| e.to_string())?.into();
                    let layout = slice.layout(result).ok_or("a constant without layout")?;
                    let copy = clone_before(&op).ok_or("cannot clone")?;
                    let ty = with_encoding(result.r#type(), layout).ok_or("not a tensor")?;
                    let copied: Value = copy.result_at(0).map_err(|e| e.to_string())?.into();
                    let converted = super::ir::insert_before(&op, convert_layout(op.location(), copied, ty))
                        .ok_or("cannot insert a conversion")?;
                    let converted: Value = converted.result_at(0).map_err(|e| e.to_string())?.into();
                    mapping.map(result, converted);
                    self.add_remat(result, layout, converted);
                }
                _ => {
                    let new = clone_mapped(&op, &mut mapping).ok_or("cannot clone")?;
                    for (old, new) in results(&op).into_iter().zip(results(&new)) {
                        let Some(layout) = slice.layout(old) else { continue };
                        set_type(new, with_encoding(old.r#type(), layout).ok_or("not a tensor")?);
                        self.add_remat(old, layout, new);
                    }
                }
            }
        }
        let source = ConvertLayoutOp::of(convert).ok_or("a ttg.convert_layout expected")?.src();
        let replacement = mapping.lookup(source)?;
        replace_all_uses(convert.result_at(0).map_err(|e| e.to_string())?.into(), replacement);
        self.schedule_delete(convert);
        self.update_remat_mapping(&replacements);
        for (old, new) in replacements {
            replace_all_uses(old, new);
        }
        for op in dead {
            self.schedule_delete(op);
        }
        Ok(())
    }

    /// Rematerializations of replaced loop and if results move to the new
    /// results (upstream `updateRematMapping`).
    fn update_remat_mapping(&mut self, replacements: &[(Value<'c, 'a>, Value<'c, 'a>)]) {
        for &(old, new) in replacements {
            let Some(layout) = self.mapped.remove(&value_key(old)) else { continue };
            let Some(mut replaced) = self.remat.remove(&(value_key(old), attribute_key(layout))) else { continue };
            if let Some(&(_, after)) = replacements.iter().find(|(before, _)| *before == replaced) {
                replaced = after;
            }
            self.remat.insert((value_key(new), attribute_key(layout)), replaced);
            self.mapped.insert(value_key(new), layout);
        }
    }

    /// `true` if one of the function's dot-like ops on MMA dot operands
    /// post-dominates `convert` (upstream `canBePipelined`).
    pub(super) fn dot_post_dominates(&mut self, convert: OperationRef<'c, 'a>) -> bool {
        let Some(parent) = convert.parent_operation() else { return false };
        collect_ops(parent, Order::Post).into_iter().any(|op| {
            let Some(dot) = DotLikeOp::of(op) else { return false };
            let Some(layout) = encoding(dot.a().r#type()) else { return false };
            let mma_operand = matches!(
                self.layouts.get(layout),
                Some(tritium_layout::Layout::DotOperand(d)) if matches!(*d.parent, tritium_layout::Layout::NvidiaMma(_))
            );
            mma_operand && post_dominates(op, convert)
        })
    }
}

/// An op whose results are used only by `convert` and by slice ops that
/// are themselves single-use moves rather than duplicates.
fn is_single_use(
    op: OperationRef,
    convert: OperationRef,
    in_slice: &HashSet<Key>,
    memo: &mut HashMap<Key, bool>,
) -> bool {
    if let Some(&known) = memo.get(&op_key(&op)) {
        return known;
    }
    let mut single = true;
    'results: for result in results(&op) {
        for user in users(result) {
            if user == convert {
                continue;
            }
            if !in_slice.contains(&op_key(&user)) || !is_single_use(user, convert, in_slice, memo) {
                single = false;
                break 'results;
            }
        }
    }
    memo.insert(op_key(&op), single);
    single
}

/// Bytes of a tensor value, counting at least `min_elements` elements of
/// at least `min_bits` bits (pointers count as 0 bits).
pub(super) fn byte_count(value: Value, min_elements: i64, min_bits: i64) -> i64 {
    let ty = value.r#type();
    let (mut elements, mut bits) = (0i64, 0i64);
    if let Some(shape) = shape_of(ty) {
        elements = shape.iter().product();
        if let Ok(tensor) = ranked_tensor(ty) {
            use melior::ir::r#type::ShapedTypeLike;
            bits = int_or_float_width(tensor.element()).map_or(0, i64::from);
        }
    }
    (elements.max(min_elements) * bits.max(min_bits)) >> 3
}

/// What the cost model needs of a reduction (upstream `ReduceOpHelper`).
struct ReduceInfo {
    associative: bool,
    lanes_with_unique_data: u32,
    warps_with_unique_data: u32,
}

impl ReduceInfo {
    fn of<'c>(op: &OperationRef<'c, '_>, layouts: &mut Layouts<'c>) -> Option<ReduceInfo> {
        let source = *ReductionOp::of(*op)?.srcs().first()?;
        let ty = source.r#type();
        let shape = shape_of(ty)?;
        let axis = usize::try_from(crate::ir::int_attribute(op, "axis")?).ok()?;
        let layout = layouts.get(encoding(ty)?)?;
        let element = ranked_tensor(ty).ok().map(|t| {
            use melior::ir::r#type::ShapedTypeLike;
            t.element()
        })?;
        // Float sums and products over more than two elements depend on the
        // order of the reduction.
        let associative = !is_float(element)
            || *shape.get(axis)? <= 2
            || !collect_ops(*op, Order::Post)
                .iter()
                .any(|o| matches!(op_name(o).as_str(), "arith.addf" | "arith.mulf"));
        Some(ReduceInfo {
            associative,
            lanes_with_unique_data: *layout.threads_per_warp(&shape).ok()?.get(axis)?,
            warps_with_unique_data: *layout.warps_per_cta(&shape).ok()?.get(axis)?,
        })
    }
}

/// A copy of `op` before it with its operands (and the operands of nested
/// ops) replaced through `mapping`; `op`'s results map to the copy's
/// (upstream `OpBuilder::clone(op, mapping)`).
pub(super) fn clone_mapped<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    mapping: &mut Mapping<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    let copy = clone_before(op)?;
    for (index, operand) in operands(&copy).into_iter().enumerate() {
        if let Some(new) = mapping.get(operand) {
            set_operand(&copy, index, new);
        }
    }
    for nested in collect_ops(copy, Order::Pre) {
        for (index, operand) in operands(&nested).into_iter().enumerate() {
            if let Some(new) = mapping.get(operand) {
                set_operand(&nested, index, new);
            }
        }
    }
    for (old, new) in results(op).into_iter().zip(results(&copy)) {
        mapping.map(old, new);
    }
    Some(copy)
}
