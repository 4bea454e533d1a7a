//! Phase 1: forward layout propagation (upstream `LayoutPropagation`).
//!
//! 1. Anchors (function arguments, expensive loads and stores, dots,
//!    atomics, ...) keep their layout.
//! 2. Their layouts flow to every user that transfers layouts (elementwise
//!    ops, reductions, views, conversions, loop-carried values), collecting
//!    for each value the candidate layouts reaching it.
//! 3. Where several reach a value, one wins: blocked for memory ops, MMA
//!    otherwise, else the first that arrived.
//! 4. The function is rewritten in program order: each op whose results
//!    change layout is rebuilt in the new layout, every other use gets a
//!    `ttg.convert_layout` back to the layout it had. The canonicalizer then
//!    folds the conversions that cancel out.
use super::ir;
use super::ir::{
    body, convert_layout, defining_op, encoding, insert_after_value, is_tensor, op_key, op_name, operands, results,
    set_operand, set_type, uses, value_key, with_encoding, Key,
};
use super::layouts::Layouts;
use super::ops::{
    can_fold_into_conversion, is_layout_anchor, is_layout_transfer, is_mma, is_reduce_to_scalar, keeps_encoding,
};
use super::scf;
use super::Step;
use crate::ir::{collect_ops, Order};
use melior::ir::{
    operation::OperationLike, Attribute, BlockLike, OperationRef, RegionLike, RegionRef, Value, ValueLike,
};
use std::collections::{HashMap, HashSet, VecDeque};
use tritium_dialects::access::{block_argument_at, OpAccess};
use tritium_dialects::views::{AssertOp, ConvertLayoutOp};

/// Candidate layouts per value, both in the order they were found.
#[derive(Default)]
struct Candidates<'c, 'a> {
    values: Vec<Value<'c, 'a>>,
    layouts: HashMap<Key, Vec<Attribute<'c>>>,
}

impl<'c, 'a> Candidates<'c, 'a> {
    fn get(&self, value: Value) -> Option<&Vec<Attribute<'c>>> {
        self.layouts.get(&value_key(value))
    }

    /// Adds `layout` to `value`'s candidates; `true` if it is new.
    fn add(&mut self, value: Value<'c, 'a>, layout: Attribute<'c>) -> bool {
        let entry = self.layouts.entry(value_key(value)).or_insert_with(|| {
            self.values.push(value);
            Vec::new()
        });
        if entry.contains(&layout) {
            return false;
        }
        entry.push(layout);
        true
    }

    /// Adds `value` with its own layout, if it has no candidates yet.
    fn anchor(&mut self, value: Value<'c, 'a>) {
        if let Some(layout) = encoding(value.r#type()) {
            if self.get(value).is_none() {
                self.add(value, layout);
            }
        }
    }

    /// The layout chosen for `value` (after conflicts are resolved).
    fn chosen(&self, value: Value) -> Option<Attribute<'c>> {
        self.get(value).and_then(|l| l.first().copied())
    }
}

pub(super) struct LayoutPropagation<'c, 'a, 'l> {
    function: OperationRef<'c, 'a>,
    layouts: &'l mut Layouts<'c>,
    candidates: Candidates<'c, 'a>,
    /// Rewritten values by (original value, layout).
    rewritten: HashMap<(Key, Key), Value<'c, 'a>>,
    /// Ops replaced by rewritten ones, erased at the end.
    to_delete: Vec<OperationRef<'c, 'a>>,
    deleted: HashSet<Key>,
}

impl<'c, 'a, 'l> LayoutPropagation<'c, 'a, 'l> {
    pub(super) fn new(function: OperationRef<'c, 'a>, layouts: &'l mut Layouts<'c>) -> Self {
        LayoutPropagation {
            function,
            layouts,
            candidates: Candidates::default(),
            rewritten: HashMap::new(),
            to_delete: Vec::new(),
            deleted: HashSet::new(),
        }
    }

    /// Runs the whole phase on the function.
    pub(super) fn run(mut self) -> Step<()> {
        self.init_anchors();
        self.propagate();
        self.resolve_conflicts();
        self.rewrite()
    }

    fn init_anchors(&mut self) {
        // Function arguments are anchors too, which makes tests easy to write.
        if let Some(entry) = body(&self.function, 0) {
            for argument in ir::block_arguments(&entry) {
                self.candidates.anchor(argument);
            }
        }
        for op in collect_ops(self.function, Order::Post) {
            if is_layout_anchor(&op) {
                for result in results(&op) {
                    self.candidates.anchor(result);
                }
            }
        }
    }

    fn propagate(&mut self) {
        let mut queue: Vec<Value<'c, 'a>> = self.candidates.values.clone();
        while let Some(value) = queue.pop() {
            let layouts = self.candidates.get(value).cloned().unwrap_or_default();
            let changed = self.propagate_to_users(value, &layouts);
            queue.extend(changed);
        }
    }

    /// Adds `layouts`, as seen through `op`, to the candidates of `values`;
    /// returns the values that gained a candidate.
    fn set_encoding(
        &mut self,
        values: &[Value<'c, 'a>],
        layouts: &[Attribute<'c>],
        op: &OperationRef<'c, 'a>,
        changed: &mut Vec<Value<'c, 'a>>,
    ) {
        let is_convert = op_name(op) == "ttg.convert_layout";
        for &value in values {
            if !is_tensor(value.r#type()) {
                continue;
            }
            let mut grew = false;
            for &layout in layouts {
                // Through a conversion, try to remove it: keep the source layout.
                let result = if is_convert { Some(layout) } else { self.layouts.infer_dst_encoding(op, layout) };
                if let Some(result) = result {
                    grew |= self.candidates.add(value, result);
                }
            }
            if grew {
                changed.push(value);
            }
        }
    }

    fn propagate_to_users(&mut self, value: Value<'c, 'a>, layouts: &[Attribute<'c>]) -> Vec<Value<'c, 'a>> {
        let mut changed = Vec::new();
        for u in uses(value) {
            let user = u.owner;
            let name = op_name(&user);
            match name.as_str() {
                "scf.for" => {
                    // Only iter_args carry tensors (after lb, ub, step).
                    let Some(iter) = u.index.checked_sub(3) else { continue };
                    let argument = body(&user, 0).and_then(|b| block_argument_at(b, iter + 1).ok()).map(Value::from);
                    let result = user.result_at(iter).ok().map(Value::from);
                    let targets: Vec<Value> = argument.into_iter().chain(result).collect();
                    self.set_encoding(&targets, layouts, &user, &mut changed);
                    continue;
                }
                "scf.while" => {
                    let argument = body(&user, 0).and_then(|b| block_argument_at(b, u.index).ok()).map(Value::from);
                    let targets: Vec<Value> = argument.into_iter().collect();
                    self.set_encoding(&targets, layouts, &user, &mut changed);
                    continue;
                }
                "scf.yield" => {
                    let Some(parent) = user.parent_operation() else { continue };
                    let parent_name = op_name(&parent);
                    let mut targets = Vec::new();
                    if matches!(parent_name.as_str(), "scf.for" | "scf.if" | "scf.while") {
                        targets.extend(parent.result_at(u.index).ok().map(Value::from));
                    }
                    if parent_name == "scf.for" {
                        targets.extend(
                            body(&parent, 0).and_then(|b| block_argument_at(b, u.index + 1).ok()).map(Value::from),
                        );
                    }
                    if parent_name == "scf.while" {
                        targets
                            .extend(body(&parent, 0).and_then(|b| block_argument_at(b, u.index).ok()).map(Value::from));
                    }
                    if matches!(parent_name.as_str(), "scf.for" | "scf.if" | "scf.while") {
                        self.set_encoding(&targets, layouts, &user, &mut changed);
                    }
                    continue;
                }
                "scf.condition" => {
                    // Operand 0 is the condition.
                    let (Some(parent), Some(index)) = (user.parent_operation(), u.index.checked_sub(1)) else {
                        continue;
                    };
                    let argument = body(&parent, 1).and_then(|b| block_argument_at(b, index).ok()).map(Value::from);
                    let result = parent.result_at(index).ok().map(Value::from);
                    let targets: Vec<Value> = argument.into_iter().chain(result).collect();
                    self.set_encoding(&targets, layouts, &user, &mut changed);
                    continue;
                }
                "ttng.warp_group_dot_wait" => {
                    let targets: Vec<Value> = user.result_at(u.index).ok().map(Value::from).into_iter().collect();
                    self.set_encoding(&targets, layouts, &user, &mut changed);
                    continue;
                }
                // Only the indices decide the result layout, unless the
                // gather's layout was chosen on purpose.
                "tt.gather" if !crate::ir::is_set(user.attribute("efficient_layout").ok()) && u.index == 1 => {
                    let targets = results(&user);
                    self.set_encoding(&targets, layouts, &user, &mut changed);
                    continue;
                }
                _ => {}
            }
            if keeps_encoding(&name) || is_layout_transfer(&name) {
                let targets = results(&user);
                self.set_encoding(&targets, layouts, &user, &mut changed);
            }
        }
        changed
    }

    /// Keeps one layout per value: blocked for memory ops (coalescing),
    /// MMA for everything else, else the first found.
    fn resolve_conflicts(&mut self) {
        for value in self.candidates.values.clone() {
            let key = value_key(value);
            let Some(found) = self.candidates.layouts.get(&key).cloned() else { continue };
            if found.len() <= 1 {
                continue;
            }
            let is_memory_op = defining_op(value).is_some_and(|op| {
                matches!(op_name(&op).as_str(), "tt.load" | "tt.store" | "tt.atomic_rmw" | "tt.atomic_cas")
            });
            let preferred =
                found.iter().copied().find(
                    |&layout| {
                        if is_memory_op {
                            self.layouts.is_blocked(layout)
                        } else {
                            is_mma(layout)
                        }
                    },
                );
            let chosen = preferred.unwrap_or(found[0]);
            self.candidates.layouts.insert(key, vec![chosen]);
        }
    }

    // --- rewriting ------------------------------------------------------------

    fn map(&mut self, old: Value<'c, 'a>, new: Value<'c, 'a>) {
        if let Some(layout) = encoding(new.r#type()) {
            self.rewritten.insert((value_key(old), ir::attribute_key(layout)), new);
        }
    }

    /// The value standing for `value` in its chosen layout.
    fn rewritten_value(&self, value: Value<'c, 'a>) -> Step<Value<'c, 'a>> {
        let Some(current) = encoding(value.r#type()) else { return Ok(value) };
        let Some(chosen) = self.candidates.chosen(value) else { return Ok(value) };
        if chosen == current {
            return Ok(value);
        }
        self.rewritten
            .get(&(value_key(value), ir::attribute_key(chosen)))
            .copied()
            .ok_or_else(|| format!("no rewritten value in layout {chosen}"))
    }

    /// `value` in layout `layout`: its rewritten version, converted if the
    /// chosen layout is another one (one conversion per use, placed right
    /// after the definition).
    fn value_as(&mut self, value: Value<'c, 'a>, layout: Attribute<'c>) -> Step<Value<'c, 'a>> {
        if !is_tensor(value.r#type()) {
            return Ok(value);
        }
        let rewritten = self.rewritten_value(value)?;
        if encoding(rewritten.r#type()) == Some(layout) {
            return Ok(rewritten);
        }
        let ty = with_encoding(value.r#type(), layout).ok_or("not a tensor type")?;
        let convert = insert_after_value(rewritten, convert_layout(value.location(), rewritten, ty))
            .ok_or("cannot insert a conversion")?;
        Ok(convert.result_at(0).map_err(|e| e.to_string())?.into())
    }

    fn rewrite(&mut self) -> Step<()> {
        let Ok(region) = self.function.region_at(0) else { return Ok(()) };
        let mut queue: VecDeque<RegionRef<'c, 'a>> = VecDeque::from([region]);
        while let Some(region) = queue.pop_front() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut next = b.first_operation();
                while let Some(op) = next {
                    self.rewrite_or_remap(op, &mut queue)?;
                    // Read after the rewrite: new ops go before `op`.
                    next = op.next_in_block();
                }
                block = b.next_in_region();
            }
        }
        for op in std::mem::take(&mut self.to_delete).into_iter().rev() {
            ir::erase_op(op)?;
        }
        Ok(())
    }

    fn rewrite_or_remap(&mut self, op: OperationRef<'c, 'a>, queue: &mut VecDeque<RegionRef<'c, 'a>>) -> Step<()> {
        let needs_rewrite = results(&op).into_iter().any(|result| {
            self.candidates.chosen(result).is_some_and(|chosen| encoding(result.r#type()) != Some(chosen))
        });
        let name = op_name(&op);
        if needs_rewrite {
            let new = self.rewrite_op(op)?;
            queue.extend(new.regions());
        } else if name == "scf.yield" {
            self.rewrite_yield(&op)?;
        } else if name == "scf.condition" {
            self.rewrite_condition(&op)?;
        } else if is_reduce_to_scalar(&op) {
            self.rewrite_reduce_to_scalar(&op)?;
        } else if name == "tt.assert" {
            self.rewrite_assert(&op)?;
        } else {
            // Users keep the layout they had: remap their operands.
            for (index, operand) in operands(&op).into_iter().enumerate() {
                if self.candidates.get(operand).is_none() {
                    continue;
                }
                let Some(layout) = encoding(operand.r#type()) else { continue };
                let value = self.value_as(operand, layout)?;
                set_operand(&op, index, value);
            }
            queue.extend(op.regions());
        }
        Ok(())
    }

    fn schedule_delete(&mut self, op: OperationRef<'c, 'a>) {
        if self.deleted.insert(op_key(&op)) {
            self.to_delete.push(op);
        }
    }

    fn replace_or_map(&mut self, pairs: Vec<(Value<'c, 'a>, Value<'c, 'a>)>) {
        for (old, new) in pairs {
            if old.r#type() == new.r#type() {
                ir::replace_all_uses(old, new);
            } else {
                self.map(old, new);
            }
        }
    }

    fn rewrite_op(&mut self, op: OperationRef<'c, 'a>) -> Step<OperationRef<'c, 'a>> {
        self.schedule_delete(op);
        let name = op_name(&op);
        match name.as_str() {
            "scf.for" => return self.rewrite_for(op),
            "scf.while" => return self.rewrite_while(op),
            "scf.if" => return self.rewrite_if(op),
            _ => {}
        }
        let result: Value = op.result_at(0).map_err(|e| e.to_string())?.into();
        let layout = self.candidates.chosen(result).ok_or("no layout chosen")?;
        let new_type = with_encoding(result.r#type(), layout).ok_or("not a tensor")?;
        if name == "ttg.convert_layout" {
            let source = ConvertLayoutOp::of(op).ok_or("a ttg.convert_layout expected")?.src();
            let source_layout = self
                .candidates
                .chosen(source)
                .or_else(|| encoding(source.r#type()))
                .ok_or("a conversion of a tensor without layout")?;
            let source = self.value_as(source, source_layout)?;
            let convert =
                ir::insert_before(&op, convert_layout(op.location(), source, new_type)).ok_or("cannot insert")?;
            self.map(result, convert.result_at(0).map_err(|e| e.to_string())?.into());
            return Ok(convert);
        }
        if can_fold_into_conversion(&op, layout, self.layouts) {
            // The op itself stays; the canonicalizer folds the conversion
            // into it.
            let copy = ir::clone_before(&op).ok_or("cannot clone")?;
            let copied: Value = copy.result_at(0).map_err(|e| e.to_string())?.into();
            let convert =
                ir::insert_before(&op, convert_layout(op.location(), copied, new_type)).ok_or("cannot insert")?;
            self.map(result, convert.result_at(0).map_err(|e| e.to_string())?.into());
            return Ok(convert);
        }
        if keeps_encoding(&name)
            || is_layout_transfer(&name)
            || matches!(name.as_str(), "tt.gather" | "ttng.warp_group_dot_wait")
        {
            let new = self.clone_in_layout(&op, layout)?;
            let pairs = scf::result_pairs(&op, &new);
            self.replace_or_map(pairs);
            return Ok(new);
        }
        Err(format!("cannot change the layout of '{name}'"))
    }

    /// A copy of `op` producing `layout`, its operands converted to the
    /// layout that gives it (upstream `cloneElementwise`).
    fn clone_in_layout(&mut self, op: &OperationRef<'c, 'a>, layout: Attribute<'c>) -> Step<OperationRef<'c, 'a>> {
        let new = ir::clone_before(op).ok_or("cannot clone")?;
        let operand_values = operands(op);
        let mut operand_layout = None;
        if !operand_values.is_empty() {
            for &operand in &operand_values {
                let ty = self.rewritten_value(operand)?.r#type();
                let Some(current) = encoding(ty) else { continue };
                if self.layouts.infer_dst_encoding(op, current) == Some(layout) {
                    operand_layout = Some(current);
                    break;
                }
            }
            if operand_layout.is_none() {
                operand_layout = self.layouts.infer_src_encoding(op, layout);
            }
        }
        for (index, operand) in operand_values.into_iter().enumerate() {
            let value = match operand_layout {
                Some(operand_layout) => self.value_as(operand, operand_layout)?,
                None if !is_tensor(operand.r#type()) => operand,
                None => return Err(format!("no operand layout gives {layout}")),
            };
            set_operand(&new, index, value);
        }
        for result in results(&new) {
            if let Some(ty) = with_encoding(result.r#type(), layout) {
                set_type(result, ty);
            }
        }
        Ok(new)
    }

    fn rewrite_for(&mut self, op: OperationRef<'c, 'a>) -> Step<OperationRef<'c, 'a>> {
        let inits: Vec<Value> = operands(&op).into_iter().skip(3).collect();
        let mut new_inits = Vec::new();
        for (init, result) in inits.into_iter().zip(results(&op)) {
            new_inits.push(match self.candidates.chosen(result) {
                Some(layout) => self.value_as(init, layout)?,
                None => init,
            });
        }
        let new = scf::new_for(&op, &new_inits).ok_or("cannot rebuild the loop")?;
        scf::move_ops(&body(&op, 0).ok_or("loop without body")?, &body(&new, 0).ok_or("loop without body")?);
        let pairs = scf::result_pairs(&op, &new);
        self.replace_or_map(pairs);
        let pairs = scf::argument_pairs(&op, &new, 0);
        self.replace_or_map(pairs);
        Ok(new)
    }

    fn rewrite_while(&mut self, op: OperationRef<'c, 'a>) -> Step<OperationRef<'c, 'a>> {
        let before = body(&op, 0).ok_or("while without before region")?;
        let mut inits = Vec::new();
        for (init, argument) in operands(&op).into_iter().zip(ir::block_arguments(&before)) {
            inits.push(match self.candidates.chosen(argument) {
                Some(layout) => self.value_as(init, layout)?,
                None => init,
            });
        }
        let mut result_types = Vec::new();
        for result in results(&op) {
            result_types.push(match self.candidates.chosen(result) {
                Some(layout) => with_encoding(result.r#type(), layout).ok_or("not a tensor")?,
                None => result.r#type(),
            });
        }
        let new = scf::while_with_types(&op, &inits, &result_types).ok_or("cannot rebuild the loop")?;
        let mut pairs = scf::result_pairs(&op, &new);
        pairs.extend(scf::argument_pairs(&op, &new, 0));
        pairs.extend(scf::argument_pairs(&op, &new, 1));
        self.replace_or_map(pairs);
        Ok(new)
    }

    fn rewrite_if(&mut self, op: OperationRef<'c, 'a>) -> Step<OperationRef<'c, 'a>> {
        let mut result_types = Vec::new();
        for result in results(&op) {
            result_types.push(match self.candidates.chosen(result) {
                Some(layout) => with_encoding(result.r#type(), layout).ok_or("not a tensor")?,
                None => result.r#type(),
            });
        }
        let new = scf::if_with_results(&op, &result_types, false).ok_or("cannot rebuild the if")?;
        let pairs = scf::result_pairs(&op, &new);
        self.replace_or_map(pairs);
        Ok(new)
    }

    /// Yielded values go back to the layout the loop or if now carries.
    fn rewrite_yield(&mut self, op: &OperationRef<'c, 'a>) -> Step<()> {
        let Some(parent) = op.parent_operation() else { return Ok(()) };
        let parent_name = op_name(&parent);
        for (index, operand) in operands(op).into_iter().enumerate() {
            let ty = match parent_name.as_str() {
                "scf.for" | "scf.if" => parent.result_at(index).map(|r| r.r#type()).unwrap_or(operand.r#type()),
                "scf.while" => body(&parent, 0)
                    .and_then(|b| block_argument_at(b, index).ok())
                    .map(|a| a.r#type())
                    .unwrap_or(operand.r#type()),
                _ => operand.r#type(),
            };
            let Some(layout) = encoding(ty) else { continue };
            let value = self.value_as(operand, layout)?;
            set_operand(op, index, value);
        }
        Ok(())
    }

    fn rewrite_condition(&mut self, op: &OperationRef<'c, 'a>) -> Step<()> {
        let Some(parent) = op.parent_operation() else { return Ok(()) };
        for (index, operand) in operands(op).into_iter().enumerate().skip(1) {
            let Some(layout) = parent.result_at(index - 1).ok().and_then(|r| encoding(r.r#type())) else { continue };
            let value = self.value_as(operand, layout)?;
            set_operand(op, index, value);
        }
        Ok(())
    }

    /// A reduction to scalars takes its operands in whatever layout the
    /// first of them was given.
    fn rewrite_reduce_to_scalar(&mut self, op: &OperationRef<'c, 'a>) -> Step<()> {
        let values = operands(op);
        let Some(layout) = values.iter().find_map(|&v| self.candidates.chosen(v)) else { return Ok(()) };
        for (index, operand) in values.into_iter().enumerate() {
            let value = self.value_as(operand, layout)?;
            set_operand(op, index, value);
        }
        Ok(())
    }

    fn rewrite_assert(&mut self, op: &OperationRef<'c, 'a>) -> Step<()> {
        let Some(condition) = AssertOp::of(*op).map(|assert| assert.condition()) else { return Ok(()) };
        let Some(layout) = self.candidates.chosen(condition) else { return Ok(()) };
        let value = self.value_as(condition, layout)?;
        set_operand(op, 0, value);
        Ok(())
    }
}
