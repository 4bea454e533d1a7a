//! Phase 3: moving the conversions that remain to cheaper places
//! (upstream `hoistConvertOnTopOfExtOrBroadcast`,
//! `hoistConvertIntoConditionals`, `hoistConvertDotOperand`):
//!
//! - before a widening cast or broadcast, where the tensor is smaller;
//! - into the one branch of an `scf.if` (in a loop) that needs it;
//! - next to the loads feeding a dot operand, so the pipeliner sees them.
use super::ir::{
    convert_layout, defining_op, encoding, insert_after_value, insert_before, op_name, result_number, set_operand,
    set_type, terminator, with_encoding,
};
use super::ops::{is_ext_or_broadcast, is_memory_effect_free_elementwise, is_view};
use super::remat::{Mapping, Rematerialization};
use super::slice::{Operand, Slice};
use super::Step;
use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_layout::Layout;

impl<'c, 'a, 'l> Rematerialization<'c, 'a, 'l> {
    /// Converts the narrow source of the one widening op (or broadcast) in
    /// the conversion's slice instead of its wide result.
    pub(super) fn hoist_over_ext_or_broadcast(&mut self, convert: OperationRef<'c, 'a>) -> Step<()> {
        let Ok(result) = convert.result_at(0) else { return Ok(()) };
        let Some(target) = encoding(result.r#type()) else { return Ok(()) };
        if matches!(self.layouts.get(target), Some(Layout::DotOperand(_))) {
            return Ok(());
        }
        let mut slice = Slice::default();
        let stop = |op: &OperationRef| is_ext_or_broadcast(op);
        if !self.rematerializable_slice(Operand { owner: convert, index: 0 }, target, &mut slice, Some(&stop)) {
            return Ok(());
        }
        let mut hoisted_over: Option<OperationRef> = None;
        // Slices merged below are appended; only the first values are visited.
        for index in 0..slice.len() {
            let value = slice.values()[index];
            let Some(op) = defining_op(value) else { continue };
            if !is_ext_or_broadcast(&op) {
                continue;
            }
            let layout = slice.layout(value).ok_or("a slice value without layout")?;
            let Some(source_layout) = self.layouts.infer_src_encoding(&op, layout) else { return Ok(()) };
            let mut source_slice = Slice::default();
            let mut ok =
                self.rematerializable_slice(Operand { owner: op, index: 0 }, source_layout, &mut source_slice, None);
            // A value already needed in another layout blocks going further.
            if slice.conflicts_with(&source_slice) {
                ok = false;
            }
            if ok {
                // The rest of this op's slice can be rematerialized: it needs
                // no conversion.
                slice.merge(&source_slice);
                continue;
            }
            // Hoisting over two ops would duplicate the conversion.
            if hoisted_over.is_some() {
                return Ok(());
            }
            hoisted_over = Some(op);
        }
        let Some(op) = hoisted_over else { return Ok(()) };
        let op_result: Value = op.result_at(0).map_err(|e| e.to_string())?.into();
        let layout = slice.layout(op_result).ok_or("a slice value without layout")?;
        let Some(source_layout) = self.layouts.infer_src_encoding(&op, layout) else { return Ok(()) };
        // An extension or a broadcast, of several kinds: its one operand by
        // position.
        let source = op.operand_at(0).map_err(|e| e.to_string())?;
        let source_type = with_encoding(source.r#type(), source_layout).ok_or("not a tensor")?;
        let converted = insert_before(&op, convert_layout(convert.location(), source, source_type))
            .ok_or("cannot insert a conversion")?;
        let copy = super::ir::clone_before(&op).ok_or("cannot clone")?;
        set_operand(&copy, 0, converted.result_at(0).map_err(|e| e.to_string())?.into());
        let copied: Value = copy.result_at(0).map_err(|e| e.to_string())?.into();
        set_type(copied, with_encoding(op_result.r#type(), layout).ok_or("not a tensor")?);
        let mut mapping = Mapping::default();
        mapping.map(op_result, copied);
        slice.remove(op_result);
        self.rewrite_slice(slice, convert, mapping)
    }

    /// Where only one branch of an `scf.if` inside a loop cannot produce
    /// the target layout, converts in that branch only.
    pub(super) fn hoist_into_conditionals(&mut self, convert: OperationRef<'c, 'a>) -> Step<()> {
        let Ok(result) = convert.result_at(0) else { return Ok(()) };
        let Some(target) = encoding(result.r#type()) else { return Ok(()) };
        let is_if = |op: &OperationRef| op_name(op) == "scf.if";
        let mut slice = Slice::default();
        if !self.rematerializable_slice(Operand { owner: convert, index: 0 }, target, &mut slice, Some(&is_if)) {
            return Ok(());
        }
        // (if result, branch operand to convert) and if results where the
        // rematerialisation ends.
        let mut hoist_above: Vec<(Value<'c, 'a>, Operand<'c, 'a>)> = Vec::new();
        let mut terminals: Vec<Value<'c, 'a>> = Vec::new();
        let mut index = 0;
        while index < slice.len() {
            let value = slice.values()[index];
            index += 1;
            let Some(if_op) = defining_op(value).filter(|op| op_name(op) == "scf.if") else { continue };
            let layout = slice.layout(value).ok_or("a slice value without layout")?;
            let result_index = result_number(value).ok_or("an if result expected")?;
            let then_operand =
                Operand { owner: terminator(&if_op, 0).ok_or("an if without yield")?, index: result_index };
            let else_operand =
                Operand { owner: terminator(&if_op, 1).ok_or("an if without else")?, index: result_index };
            let (mut then_slice, mut else_slice) = (Slice::default(), Slice::default());
            let then_ok = self.rematerializable_slice(then_operand, layout, &mut then_slice, Some(&is_if));
            let else_ok = self.rematerializable_slice(else_operand, layout, &mut else_slice, Some(&is_if));
            if then_ok && else_ok {
                slice.merge(&then_slice);
                slice.merge(&else_slice);
                continue;
            }
            // Only ifs inside loops are assumed to run less often than the
            // conversion would.
            let in_loop = if_op.parent_operation().is_some_and(|p| op_name(&p) == "scf.for");
            if (!then_ok && !else_ok) || !in_loop {
                terminals.push(value);
                continue;
            }
            if then_ok {
                hoist_above.push((value, else_operand));
                slice.merge(&then_slice);
            } else {
                hoist_above.push((value, then_operand));
                slice.merge(&else_slice);
            }
        }
        if hoist_above.is_empty() {
            return Ok(());
        }
        let mut mapping = Mapping::default();
        let location = convert.location();
        for value in terminals {
            let layout = slice.layout(value).ok_or("a slice value without layout")?;
            let ty = with_encoding(value.r#type(), layout).ok_or("not a tensor")?;
            let converted = insert_after_value(value, convert_layout(location, value, ty)).ok_or("cannot insert")?;
            mapping.map(value, converted.result_at(0).map_err(|e| e.to_string())?.into());
            slice.remove(value);
        }
        for (if_result, edge) in hoist_above {
            let layout = slice.layout(if_result).ok_or("a slice value without layout")?;
            let value = edge.value().ok_or("a yield operand expected")?;
            let ty = with_encoding(value.r#type(), layout).ok_or("not a tensor")?;
            let converted = insert_before(&edge.owner, convert_layout(location, value, ty)).ok_or("cannot insert")?;
            mapping.map(value, converted.result_at(0).map_err(|e| e.to_string())?.into());
            slice.remove(value);
        }
        self.rewrite_slice(slice, convert, mapping)
    }

    /// Moves a conversion to an MMA dot operand up to the loads it comes
    /// from, through ops that do not move data between threads.
    pub(super) fn hoist_dot_operand(&mut self, convert: OperationRef<'c, 'a>) -> Step<()> {
        let Ok(result) = convert.result_at(0) else { return Ok(()) };
        let Some(target) = encoding(result.r#type()) else { return Ok(()) };
        if !self.dot_post_dominates(convert) {
            return Ok(());
        }
        let stop = |op: &OperationRef| !moves_no_data(op);
        let mut slice = Slice::default();
        if !self.convert_backward_slice(Operand { owner: convert, index: 0 }, target, &mut slice, Some(&stop)) {
            return Ok(());
        }
        let mut mapping = Mapping::default();
        let mut inner = Vec::new();
        for &value in slice.values() {
            // Block arguments are not supported.
            let Some(op) = defining_op(value) else { return Ok(()) };
            let name = op_name(&op);
            if name != "tt.load" && name != "tt.descriptor_load" {
                if name == "arith.constant" || moves_no_data(&op) {
                    inner.push(value);
                    continue;
                }
                // The leaves must be loads or constants.
                return Ok(());
            }
            let Ok(loaded) = op.result_at(0) else { continue };
            let loaded: Value = loaded.into();
            let Some(layout) = slice.layout(loaded) else { continue };
            let Some(ty) = with_encoding(loaded.r#type(), layout) else { continue };
            let converted =
                insert_after_value(loaded, convert_layout(convert.location(), loaded, ty)).ok_or("cannot insert")?;
            mapping.map(loaded, converted.result_at(0).map_err(|e| e.to_string())?.into());
        }
        if inner.is_empty() {
            return Ok(());
        }
        let inner = slice.with_values(inner);
        self.rewrite_slice(inner, convert, mapping)
    }
}

/// Ops computed by each thread on its own elements (upstream's
/// `noDataMovement` of `hoistConvertDotOperand`).
fn moves_no_data(op: &OperationRef) -> bool {
    let name = op_name(op);
    is_memory_effect_free_elementwise(op)
        || matches!(name.as_str(), "tt.broadcast" | "ttg.fp4_to_fp" | "ttg.convert_layout")
        || is_view(&name)
}
