//! Row reductions accumulated across a loop, split in two (upstream's
//! thread-locality rewrite of `tt.reduce`): for
//!
//! ```text
//! %r = scf.for ... iter_args(%acc = %cst) {
//!   %x = tt.load ...                      // MxK, blocked, e > 1 elements of a row per thread
//!   %s = tt.reduce(%x) {axis = 1, addf}   // across the threads of each row
//!   scf.yield addf(%acc, %s)
//! }
//! ```
//!
//! the loop instead carries an Mx(K/e) accumulator: each iteration views
//! `%x` as Mx(K/e)xe, in a 3-D blocked layout where dim 2 is what one thread
//! holds, and reduces dim 2 only, within threads. After the loop one
//! reduction across threads finishes the rows, converts back to the old
//! layout and adds the initial value. The old reduction and update stay in
//! the loop, unused (a later DCE removes them), as upstream leaves them.
use crate::{
    ir::{
        collect_ops, create, erase, fail, int_attribute, name_of, replace_all_uses, set_type, tensor_parts,
        tensor_type, Order,
    },
    op_traits::ELEMENTWISE_OPS,
    ssa::{block_arguments, block_ops, clone_with, defining_op, entry_block, insert_before, uses, ValueMap},
};
use melior::ir::{
    attribute::{DenseElementsAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Attribute, BlockLike, Identifier, OperationRef, Region, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{ForOp, ReductionOp};
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    pass::{PassFailed, PassResult},
};
use tritium_layout::{Blocked, CtaLayout, Layout, Slice};

/// The reductions the rewrite handles: their combiner, one op of these.
const COMBINERS: &[&str] =
    &["arith.addf", "arith.mulf", "arith.maximumf", "arith.maxnumf", "arith.minimumf", "arith.minnumf"];

pub(super) fn split_loop_reductions(module: OperationRef) -> PassResult {
    // All reductions are chosen on the IR as it is. Each rewrite replaces
    // the loop around its reduction, so what surrounds the next one is read
    // again when its turn comes.
    let chosen: Vec<OperationRef> = collect_ops(module, Order::Post)
        .into_iter()
        .filter(|op| name_of(op) == "tt.reduce" && Candidate::of(*op).is_some())
        .collect();
    for reduce in chosen {
        if let Some(candidate) = Candidate::of(reduce) {
            candidate.rewrite()?;
        }
    }
    Ok(())
}

/// A reduction to rewrite and what surrounds it.
struct Candidate<'c, 'a> {
    reduce: OperationRef<'c, 'a>,
    combiner: OperationRef<'c, 'a>,
    /// The op combining the reduction with the loop-carried accumulator.
    update: OperationRef<'c, 'a>,
    lp: OperationRef<'c, 'a>,
    /// Index of the accumulator among the loop's iter_args.
    slot: usize,
    /// The accumulator's initial value, a constant.
    initial: Value<'c, 'a>,
    /// The single use of the loop's accumulator result: (user, operand).
    result_use: (OperationRef<'c, 'a>, usize),
    blocked: Blocked,
    shape: Vec<i64>,
    element: Type<'c>,
    /// Elements of a row each thread holds.
    per_thread: i64,
}

/// The single use of all the results of `op`.
fn single_use<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<crate::ssa::Use<'c, 'a>> {
    let all: Vec<_> = op.results().flat_map(|r| uses(r.into())).collect();
    match all.as_slice() {
        [only] => Some(*only),
        _ => None,
    }
}

impl<'c, 'a> Candidate<'c, 'a> {
    /// The conditions of upstream's pass, and those its rewrite asserts.
    fn of(reduce: OperationRef<'c, 'a>) -> Option<Self> {
        let body = entry_block(&reduce, 0)?;
        let ops = block_ops(&body);
        let [combiner, _terminator] = ops.as_slice() else { return None };
        let [source] = ReductionOp::of(reduce)?.srcs()[..] else { return None };
        if !COMBINERS.contains(&name_of(combiner).as_str()) {
            return None;
        }
        let (shape, element, encoding) = tensor_parts(source.r#type())?;
        let Layout::Blocked(blocked) = layout_of(encoding?).ok()? else { return None };
        let rank = shape.len();
        if rank < 2 || int_attribute(&reduce, "axis")? != rank as i64 - 1 {
            return None;
        }
        if defining_op(source).is_none_or(|d| name_of(&d) != "tt.load") {
            return None;
        }
        let per_thread = i64::from(*Layout::Blocked(blocked.clone()).elems_per_thread(&shape).ok()?.last()?);
        if per_thread == 1 {
            return None;
        }
        // Multiple CTAs would need the CTA layout with one more dim.
        if blocked.cta.num_ctas() != 1 {
            return None;
        }
        let update_use = single_use(&reduce)?;
        let update = update_use.owner;
        let yield_use = single_use(&update)?;
        if name_of(&yield_use.owner) != "scf.yield" {
            return None;
        }
        let lp = reduce.parent_operation().filter(|p| name_of(p) == "scf.for")?;
        let slot = yield_use.index;
        let initial = *ForOp::of(lp)?.init_args().get(slot)?;
        if defining_op(initial).is_none_or(|d| name_of(&d) != "arith.constant") {
            return None;
        }
        // The update combines the reduction with the accumulator of that same
        // slot, as an element-wise op whose result has its operands' type.
        let accumulator = update.operand_at(1 - update_use.index.min(1)).ok()?;
        let body = entry_block(&lp, 0)?;
        if update.operand_count() != 2
            || !ELEMENTWISE_OPS.contains(&name_of(&update).as_str())
            || block_arguments(&body).get(slot + 1) != Some(&accumulator)
            || update.operands().any(|o| o.r#type() != update.result_at(0).unwrap().r#type())
        {
            return None;
        }
        let result_uses = uses(lp.result_at(slot).ok()?.into());
        let [result_use] = result_uses.as_slice() else { return None };
        Some(Self {
            reduce,
            combiner: *combiner,
            update,
            lp,
            slot,
            initial,
            result_use: (result_use.owner, result_use.index),
            blocked,
            shape,
            element,
            per_thread,
        })
    }

    /// The update's two operands: it is any binary element-wise op (see
    /// [`Self::of`]), so they go by position.
    fn update_operands(&self) -> (Value<'c, 'a>, Value<'c, 'a>) {
        (self.update.operand_at(0).unwrap(), self.update.operand_at(1).unwrap())
    }

    /// The 3-D layout of the view: the rows' elements of one thread in the
    /// new, fastest dim.
    fn blocked_3d(&self) -> Blocked {
        let b = &self.blocked;
        let rank = self.shape.len();
        let axis = rank - 1;
        let mut size_per_thread = b.size_per_thread.clone();
        size_per_thread.push(b.size_per_thread[axis]);
        size_per_thread[axis] = 1;
        let with_one = |v: &[u32]| [v, &[1]].concat();
        let mut order = vec![rank as u32];
        order.extend(&b.order);
        Blocked::new(&size_per_thread, &with_one(&b.threads_per_warp), &with_one(&b.warps_per_cta), &order)
            .with_cta(CtaLayout::single_cta(rank + 1))
    }

    /// The value every partial accumulator starts from.
    fn neutral_element(&self) -> Option<f64> {
        // `#arith.fastmath<nnan,ninf>`: `ninf` (or `fast`, which includes
        // it) promises no infinities.
        let fast_math = self.combiner.attribute("fastmath").ok().map(|a| a.to_string()).unwrap_or_default();
        let flags = fast_math.split_once('<').and_then(|(_, rest)| rest.split_once('>')).map_or("", |(f, _)| f);
        let finite_only = flags.split(',').map(str::trim).any(|flag| flag == "ninf" || flag == "fast");
        let largest = || largest_finite(self.element);
        Some(match name_of(&self.combiner).as_str() {
            "arith.addf" => 0.0,
            "arith.mulf" => 1.0,
            "arith.maximumf" if finite_only => -largest()?,
            "arith.minimumf" if finite_only => largest()?,
            // Upstream's own values for maxnumf and minnumf (MLIR's are NaN).
            "arith.maximumf" | "arith.maxnumf" => f64::NEG_INFINITY,
            _ => f64::INFINITY,
        })
    }

    fn rewrite(self) -> PassResult {
        let location = self.reduce.location();
        let rank = self.shape.len();
        let axis = rank - 1;
        let context_ref = self.reduce.context();
        // SAFETY: `context_ref` outlives the reference.
        let context = unsafe { context_ref.to_ref() };
        let layout_3d = Layout::Blocked(self.blocked_3d());
        let encoding_3d = attribute_of(&layout_3d, location).ok_or(PassFailed)?;
        let slice = attribute_of(&Layout::Slice(Slice::new(rank as u32, layout_3d)), location).ok_or(PassFailed)?;
        let mut view_shape = self.shape.clone();
        view_shape[axis] /= self.per_thread;
        view_shape.push(self.per_thread);
        let view_type = tensor_type(&view_shape, self.element, Some(encoding_3d));
        let partial_type = tensor_type(&view_shape[..rank], self.element, Some(slice));

        // The partial accumulators start from the combiner's neutral element.
        let neutral =
            self.neutral_element().ok_or_else(|| fail(&self.reduce, "no neutral element for this reduction"))?;
        let neutral = melior::ir::attribute::FloatAttribute::new(context, self.element, neutral).into();
        let splat: Attribute = DenseElementsAttribute::splat(partial_type, neutral).into();
        let initial_op = defining_op(self.initial).unwrap();
        let partial_initial = insert_after(
            &initial_op,
            create("arith.constant", self.initial.location(), &[], &[partial_type], &[("value", splat)]),
        );

        let new_loop = self.loop_with_partial_accumulator(partial_initial.result_at(0).unwrap().into())?;
        let body = entry_block(&new_loop, 0).unwrap();
        let partial = *block_arguments(&body).last().unwrap();

        // In the loop: view, reduce within threads, combine.
        let source = ReductionOp::of(self.reduce).expect("a tt.reduce").srcs()[0];
        let unit = tritium_dialects::ir::unit_attribute(self.reduce.location());
        let view = insert_after(
            &self.reduce,
            create(
                "tt.reshape",
                location,
                &[source],
                &[view_type],
                &[("allow_reorder", unit), ("efficient_layout", unit)],
            ),
        );
        let mut map = ValueMap::default();
        map.map(source, view.result_at(0).unwrap().into());
        let thread_reduce = insert_after(&view, clone_with(&self.reduce, &map));
        let i32_type: Type = IntegerType::new(context, 32).into();
        crate::ssa::set_attribute(&thread_reduce, "axis", IntegerAttribute::new(i32_type, rank as i64).into());
        set_type(thread_reduce.result_at(0).unwrap().into(), partial_type);
        let mut map = ValueMap::default();
        let (lhs, rhs) = self.update_operands();
        map.map(lhs, partial);
        map.map(rhs, thread_reduce.result_at(0).unwrap().into());
        let partial_update = insert_after(&thread_reduce, clone_with(&self.update, &map));
        set_type(partial_update.result_at(0).unwrap().into(), partial_type);

        // The old slot yields its own argument; the new one the partials.
        let old_yield = body.terminator().unwrap();
        let mut yielded: Vec<Value> = old_yield.operands().collect();
        yielded[self.slot] = block_arguments(&body)[self.slot + 1];
        yielded.push(partial_update.result_at(0).unwrap().into());
        insert_before(&old_yield, create("scf.yield", old_yield.location(), &yielded, &[], &[]));
        erase(old_yield);

        // After the loop: reduce across threads, convert back, add the
        // initial value.
        let mut map = ValueMap::default();
        map.map(source, new_loop.result_at(new_loop.result_count() - 1).unwrap().into());
        let final_reduce = insert_after(&new_loop, clone_with(&self.reduce, &map));
        let final_shape = view_shape[..axis].to_vec();
        let final_slice =
            attribute_of(&Layout::Slice(Slice::new(axis as u32, layout_of(slice).map_err(|_| PassFailed)?)), location)
                .ok_or(PassFailed)?;
        set_type(final_reduce.result_at(0).unwrap().into(), tensor_type(&final_shape, self.element, Some(final_slice)));
        let result_type = self.lp.result_at(self.slot).unwrap().r#type();
        let convert = insert_after(
            &final_reduce,
            create("ttg.convert_layout", location, &[final_reduce.result_at(0).unwrap().into()], &[result_type], &[]),
        );
        let mut map = ValueMap::default();
        let (lhs, rhs) = self.update_operands();
        map.map(lhs, self.initial);
        map.map(rhs, convert.result_at(0).unwrap().into());
        let total = insert_after(&convert, clone_with(&self.update, &map));
        let (user, index) = self.result_use;
        crate::ssa::set_operand(&user, index, total.result_at(0).unwrap().into());
        erase(self.lp);
        Ok(())
    }

    /// A copy of the loop, before it, with one more iter_arg (`partial`)
    /// and the old loop's body; the old loop's results are replaced by the
    /// copy's. The old loop is left empty, to be erased.
    fn loop_with_partial_accumulator(&self, partial: Value<'c, 'a>) -> Result<OperationRef<'c, 'a>, PassFailed> {
        let lp = self.lp;
        let mut operands: Vec<Value> = lp.operands().collect();
        operands.push(partial);
        let mut result_types: Vec<Type> = lp.results().map(|r| r.r#type()).collect();
        result_types.push(partial.r#type());
        let region = Region::new();
        tritium_dialects::ir::take_body(&region, &lp.region_at(0).unwrap());
        let attributes: Vec<(Identifier, Attribute)> = lp.attributes().collect();
        let new_loop = OperationBuilder::new("scf.for", lp.location())
            .add_operands(&operands)
            .add_results(&result_types)
            .add_attributes(&attributes)
            .add_regions([region])
            .build()
            .map_err(|_| fail(&lp, "cannot build the loop with the partial accumulator"))?;
        let new_loop = insert_before(&lp, new_loop);
        let body = entry_block(&new_loop, 0).unwrap();
        body.add_argument(partial.r#type(), partial.location());
        for (old, new) in lp.results().zip(new_loop.results()) {
            replace_all_uses(old.into(), new.into());
        }
        Ok(new_loop)
    }
}

/// Inserts `op` right after `after`.
fn insert_after<'c, 'a>(after: &OperationRef<'c, 'a>, op: melior::ir::Operation<'c>) -> OperationRef<'c, 'a> {
    after.block().expect("an op in a block").insert_operation_after(*after, op)
}

/// The largest finite value of a float type, for the types Triton reduces.
fn largest_finite(ty: Type) -> Option<f64> {
    let text = ty.to_string();
    Some(match text.as_str() {
        "f16" => 65504.0,
        "bf16" => 3.389_531_389_251_535_5e38,
        "f32" => f32::MAX as f64,
        "f64" => f64::MAX,
        _ => return None,
    })
}
