//! The backward slice of a conversion (upstream `getConvertBackwardSlice`):
//! the tensors a value is computed from, each with the layout it needs for
//! the value to come out in the conversion's target layout. The walk stops
//! at ops that can produce any layout (constants, splats, ranges, other
//! conversions) and fails where a layout cannot be pushed through (loop
//! results, block arguments of other regions, `tt.cat`, conflicting
//! requirements).
use super::ir::{
    argument_owner, defining_op, encoding, is_tensor, op_key, op_name, result_number, results, terminator, value_key,
    Key,
};
use super::layouts::Layouts;
use super::ops::can_fold_into_conversion;
use melior::ir::{operation::OperationLike, Attribute, BlockLike, OperationRef, Value, ValueLike};
use std::collections::{HashMap, HashSet};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::ConvertLayoutOp;
use tritium_layout::convert::cvt_reorders_registers;

/// An operand slot: operand `index` of `owner` (upstream `OpOperand&`).
#[derive(Clone, Copy)]
pub(super) struct Operand<'c, 'a> {
    pub owner: OperationRef<'c, 'a>,
    pub index: usize,
}

impl<'c, 'a> Operand<'c, 'a> {
    pub(super) fn value(&self) -> Option<Value<'c, 'a>> {
        self.owner.operand_at(self.index).ok()
    }

    fn key(&self) -> (Key, usize) {
        (op_key(&self.owner), self.index)
    }
}

/// Values with the layout each must be rematerialized in, in the order they
/// were reached (upstream's `SetVector<Value>` plus `DenseMap<Value,
/// Attribute>`).
#[derive(Default, Clone)]
pub(super) struct Slice<'c, 'a> {
    values: Vec<Value<'c, 'a>>,
    layouts: HashMap<Key, Attribute<'c>>,
}

impl<'c, 'a> Slice<'c, 'a> {
    pub(super) fn values(&self) -> &[Value<'c, 'a>] {
        &self.values
    }

    pub(super) fn len(&self) -> usize {
        self.values.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub(super) fn contains(&self, value: Value) -> bool {
        self.values.contains(&value)
    }

    pub(super) fn layout(&self, value: Value) -> Option<Attribute<'c>> {
        self.layouts.get(&value_key(value)).copied()
    }

    /// Adds `value` (once) to the ordered values.
    pub(super) fn insert(&mut self, value: Value<'c, 'a>) {
        if !self.contains(value) {
            self.values.push(value);
        }
    }

    pub(super) fn remove(&mut self, value: Value) {
        self.values.retain(|v| *v != value);
    }

    /// Records the layout of a value already listed, keeping a layout found
    /// before (upstream `DenseMap::insert`).
    fn keep_layout(&mut self, value: Value, layout: Attribute<'c>) {
        self.layouts.entry(value_key(value)).or_insert(layout);
    }

    /// Appends the values of `other` and its layouts where none is set.
    pub(super) fn merge(&mut self, other: &Slice<'c, 'a>) {
        for &value in &other.values {
            self.insert(value);
        }
        for &value in &other.values {
            if let Some(layout) = other.layout(value) {
                self.keep_layout(value, layout);
            }
        }
    }

    /// A slice of `values` with this slice's layouts.
    pub(super) fn with_values(&self, values: Vec<Value<'c, 'a>>) -> Slice<'c, 'a> {
        Slice { values, layouts: self.layouts.clone() }
    }

    /// Whether some value of `other` has another layout here.
    pub(super) fn conflicts_with(&self, other: &Slice<'c, 'a>) -> bool {
        other.values.iter().any(|&v| match (self.layout(v), other.layout(v)) {
            (Some(mine), Some(theirs)) => mine != theirs,
            _ => false,
        })
    }

    /// Adds `value` to the slice with `layout`; fails if it already needs
    /// another layout.
    fn require(&mut self, value: Value<'c, 'a>, layout: Attribute<'c>) -> bool {
        self.insert(value);
        match self.layouts.get(&value_key(value)) {
            Some(existing) if *existing != layout => false,
            _ => {
                self.layouts.insert(value_key(value), layout);
                true
            }
        }
    }
}

/// A conversion that only permutes each thread's registers.
fn is_free_convert<'c>(op: &OperationRef<'c, '_>, layouts: &mut Layouts<'c>) -> bool {
    let (Some(convert), Ok(result)) = (ConvertLayoutOp::of(*op), op.result_at(0)) else { return false };
    let source = convert.src();
    let (Some(shape), Some(from), Some(to)) = (
        super::ir::shape_of(source.r#type()),
        encoding(source.r#type()).and_then(|e| layouts.get(e)),
        encoding(result.r#type()).and_then(|e| layouts.get(e)),
    ) else {
        return false;
    };
    match (from.to_linear(&shape), to.to_linear(&shape)) {
        (Ok(from), Ok(to)) => cvt_reorders_registers(&from, &to).unwrap_or(false),
        _ => false,
    }
}

/// Collects the backward slice of `root` needed in `root_layout` into
/// `slice`; `false` when the layout cannot be pushed back. `stop` ends the
/// walk at the ops it accepts (they stay in the slice, their operands are
/// not followed); `existing` offers an already rematerialized value to
/// reuse for an operand.
pub(super) fn backward_slice<'c, 'a>(
    root: Operand<'c, 'a>,
    root_layout: Attribute<'c>,
    slice: &mut Slice<'c, 'a>,
    layouts: &mut Layouts<'c>,
    stop: Option<&dyn Fn(&OperationRef) -> bool>,
    existing: Option<&dyn Fn(Operand<'c, 'a>, Attribute<'c>) -> Option<Value<'c, 'a>>>,
) -> bool {
    let mut seen: HashSet<((Key, usize), Key)> = HashSet::new();
    let mut queue: Vec<(Operand<'c, 'a>, Attribute<'c>)> = Vec::new();
    let mut enqueue = |operand: Operand<'c, 'a>, layout: Attribute<'c>, queue: &mut Vec<_>| {
        if seen.insert((operand.key(), super::ir::attribute_key(layout))) {
            queue.push((operand, layout));
        }
    };
    enqueue(root, root_layout, &mut queue);
    let stops = |op: &OperationRef| stop.is_some_and(|f| f(op));

    while let Some((operand, layout)) = queue.pop() {
        let Some(mut current) = operand.value() else { return false };
        if !is_tensor(current.r#type()) {
            continue;
        }
        // Loop results are not rematerialized (yet, upstream says).
        if defining_op(current).is_some_and(|op| matches!(op_name(&op).as_str(), "scf.for" | "scf.while")) {
            return false;
        }
        if !slice.require(current, layout) {
            return false;
        }
        if let Some(reused) = existing.and_then(|f| f(operand, layout)) {
            if !slice.require(reused, layout) {
                return false;
            }
            current = reused;
        }
        let Some(definition) = defining_op(current) else {
            // A block argument: only loop-carried values of scf.for are
            // followed, to the init value and the yielded value.
            let Some((block, number)) = argument_owner(current) else { return false };
            let Some(parent) = block.parent_operation() else { return false };
            if op_name(&parent) != "scf.for" || number == 0 {
                return false;
            }
            enqueue(Operand { owner: parent, index: 3 + number - 1 }, layout, &mut queue);
            if let Some(yield_op) = block.terminator() {
                enqueue(Operand { owner: yield_op, index: number - 1 }, layout, &mut queue);
            }
            continue;
        };
        if op_name(&definition) == "scf.if" {
            if stops(&definition) {
                continue;
            }
            let Some(index) = result_number(current) else { return false };
            for branch in 0..2 {
                let Some(yield_op) = terminator(&definition, branch) else { return false };
                enqueue(Operand { owner: yield_op, index }, layout, &mut queue);
            }
            continue;
        }
        // Every tensor result of the op moves to the same layout.
        for result in results(&definition) {
            if result != current && is_tensor(result.r#type()) && !slice.require(result, layout) {
                return false;
            }
        }
        if is_free_convert(&definition, layouts) {
            enqueue(Operand { owner: definition, index: 0 }, layout, &mut queue);
            continue;
        }
        if can_fold_into_conversion(&definition, layout, layouts) || stops(&definition) {
            continue;
        }
        match op_name(&definition).as_str() {
            "tt.cat" => return false,
            "tt.gather" => {
                // Only the indices share the result's layout.
                let Some(source) = layouts.infer_src_encoding(&definition, layout) else { return false };
                enqueue(Operand { owner: definition, index: 1 }, source, &mut queue);
                continue;
            }
            _ => {}
        }
        for (index, value) in definition.operands().enumerate() {
            let Some(source) = layouts.infer_src_encoding(&definition, layout) else { return false };
            // An operand already in the needed layout is not followed.
            if is_tensor(value.r#type()) && encoding(value.r#type()) == Some(source) {
                continue;
            }
            enqueue(Operand { owner: definition, index }, source, &mut queue);
        }
    }
    true
}
