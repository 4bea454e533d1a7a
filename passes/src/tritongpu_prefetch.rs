//! `tritongpu-prefetch` (upstream Prefetch.cpp): for a loop whose one
//! `tt.dot` (MMA v2) reads both operands from shared memory carried by the
//! loop (`ttg.local_load` of an iter_arg, maybe through element-wise ops),
//! the first K slice of each operand (`prefetchWidth` = 8 * kWidth) is
//! loaded before the loop and, for the next iteration, at the end of the
//! body; the dot is split along K into a dot on the prefetched slices and
//! dots on the remaining slices, loaded in the body. The last dot is sunk as
//! far as the ops after it allow (until one uses it or has regions), so the
//! next iteration's prefetch is issued before it.
//!
//! As upstream, every loop holding exactly one MMA v2 (or AMD MFMA) dot is
//! rebuilt, prefetched or not (the new loop has none of the old one's
//! attributes); first the conversions' canonicalization patterns run over
//! the module.
use crate::greedy::apply_with_folds;
use crate::ir::{collect_ops, element_bits, erase, name_of, replace_all_uses, tensor_parts, tensor_type, Order};
use crate::ssa::{
    argument_number, argument_owner, block_arguments, block_ops, clone_with, defining_op, uses, ValueMap,
};
use crate::tritongpu_pipeline::builder::{Builder, Point};
use crate::tritongpu_pipeline::loops::{body, init_args, is_for, iter_args, FIRST_INIT};
use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    operation::{OperationBuilder, OperationLike},
    Attribute, Block, BlockLike, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::canonicalization;
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};
use tritium_dialects::types::MemDesc;
use tritium_dialects::views::{DotOp, ForOp};
use tritium_layout::Layout;

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-prefetch",
    description: "Prefetch the K slices of MMA v2 dot operands from shared memory across loop iterations",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let patterns: Vec<_> = canonicalization::patterns_of("ttg.convert_layout").collect();
    apply_with_folds(module, &patterns)?;
    let loops: Vec<OperationRef> = collect_ops(module, Order::Post).into_iter().filter(is_for).collect();
    for lp in loops {
        let Some(prefetcher) = Prefetcher::new(lp) else {
            continue;
        };
        let (a_head, b_head) = prefetcher.emit_prologue();
        let new_loop = prefetcher.rebuild_loop(a_head, b_head);
        for (old, new) in lp.results().zip(new_loop.results()) {
            replace_all_uses(old.into(), new.into());
        }
        erase(lp);
    }
    Ok(())
}

/// What prefetching one dot's operand needs: the chain from the shared
/// memory to the dot (`chain[0]` the memdesc iter_arg, `chain[1]` its
/// `ttg.local_load`, then element-wise ops, the last one the operand), the
/// loop's init and yielded value for that iter_arg.
struct Operand<'c, 'a> {
    chain: Vec<Value<'c, 'a>>,
    init: Value<'c, 'a>,
    yielded: Value<'c, 'a>,
}

struct Prefetcher<'c, 'a> {
    lp: OperationRef<'c, 'a>,
    /// 8 * kWidth of the dot's operands (or 256 bits' worth without kWidth).
    width: i64,
    /// The dot to prefetch with its A and B operands; `None` when the loop
    /// is rebuilt as it is.
    dot: Option<(OperationRef<'c, 'a>, Operand<'c, 'a>, Operand<'c, 'a>)>,
}

fn encoding_text(value: Value) -> String {
    tensor_parts(value.r#type()).and_then(|(_, _, e)| e).map(|e| e.to_string()).unwrap_or_default()
}

/// The `kWidth` of a value's `#ttg.dot_op` layout, if it has one (read from
/// the attribute's text when the parent is an AMD layout, which Tritium
/// knows as syntax only).
fn dot_operand_k_width(value: Value) -> Option<u32> {
    let (_, _, encoding) = tensor_parts(value.r#type())?;
    match tritium_dialects::layout::layout_of(encoding?) {
        Ok(Layout::DotOperand(d)) => Some(d.k_width),
        Ok(_) => None,
        Err(_) => {
            let text = encoding_text(value);
            if !text.starts_with("#ttg.dot_op") {
                return None;
            }
            let rest = &text[text.find("kWidth = ")? + "kWidth = ".len()..];
            rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
        }
    }
}

fn is_mma_v2_or_mfma(value: Value) -> bool {
    let Some((_, _, Some(encoding))) = tensor_parts(value.r#type()) else {
        return false;
    };
    if encoding_text(value).starts_with("#ttg.amd_mfma") {
        return true;
    }
    matches!(tritium_dialects::layout::layout_of(encoding), Ok(Layout::NvidiaMma(mma)) if mma.version_major == 2)
}

impl<'c, 'a> Prefetcher<'c, 'a> {
    /// Upstream `Prefetcher::initialize`: `None` when the loop is left alone
    /// (no dot, more than one, or one that is not MMA v2 / MFMA).
    fn new(lp: OperationRef<'c, 'a>) -> Option<Self> {
        let block = body(&lp)?;
        let mut dots = Vec::new();
        for op in block_ops(&block) {
            if name_of(&op) == "tt.dot" {
                if !is_mma_v2_or_mfma(op.result_at(0).ok()?.into()) {
                    return None;
                }
                dots.push(op);
            }
        }
        if dots.len() != 1 {
            return None;
        }
        let mut prefetcher = Prefetcher { lp, width: 32, dot: None };
        let dot = dots[0];
        let operands = DotOp::of(dot)?;
        let (a, b) = (operands.a(), operands.b());
        let (Some(a_k_width), Some(b_k_width)) = (dot_operand_k_width(a), dot_operand_k_width(b)) else {
            return Some(prefetcher);
        };
        if a_k_width != b_k_width {
            return Some(prefetcher);
        }
        let (a_shape, a_element, _) = tensor_parts(a.r#type())?;
        let k_size = *a_shape.last()?;
        prefetcher.width =
            if a_k_width == 0 { 256 / i64::from(element_bits(a_element)) } else { 8 * i64::from(a_k_width) };
        if k_size < prefetcher.width {
            return Some(prefetcher);
        }
        if let (Some(a), Some(b)) = (prefetcher.operand(a), prefetcher.operand(b)) {
            prefetcher.dot = Some((dot, a, b));
        }
        Some(prefetcher)
    }

    /// The operand's chain back to a `ttg.local_load` into a dot-operand
    /// layout, each op with one operand and its result used once, from a
    /// memdesc iter_arg of the loop.
    fn operand(&self, value: Value<'c, 'a>) -> Option<Operand<'c, 'a>> {
        let mut op = defining_op(value);
        let mut chain = vec![op?.result_at(0).ok()?.into()];
        let mut found = false;
        while let Some(current) = op {
            if current.operand_count() != 1 || uses(current.result_at(0).ok()?.into()).len() != 1 {
                break;
            }
            // The chain's ops are any with one operand: it goes by position.
            let source = current.operand_at(0).ok()?;
            chain.push(source);
            if name_of(&current) == "ttg.local_load" {
                found = encoding_text(current.result_at(0).ok()?.into()).starts_with("#ttg.dot_op");
                break;
            }
            op = defining_op(source);
        }
        if !found {
            return None;
        }
        chain.reverse();
        let memory = chain[0];
        let owner = argument_owner(memory)?;
        if owner.parent_operation() != Some(self.lp) {
            return None;
        }
        let index = argument_number(memory)? - 1;
        let init = init_args(&self.lp).get(index).copied()?;
        let yielded = body(&self.lp)?.terminator()?.operand_at(index).ok()?;
        Some(Operand { chain, init, yielded })
    }

    /// Upstream `generatePrefetch`: a `ttg.memdesc_subslice` of `memory`
    /// along K (the first `width` for a prologue, else `[offset, offset +
    /// size)`) and its `ttg.local_load` into operand `op_idx`'s layout.
    fn prefetch_slice(
        &self,
        b: &mut Builder<'c, 'a>,
        memory: Value<'c, 'a>,
        op_idx: usize,
        prologue: bool,
        slice: Option<(i64, i64)>,
    ) -> Value<'c, 'a> {
        let description = MemDesc::of(memory.r#type()).expect("a memdesc operand");
        let rank = description.shape.len();
        let k = if op_idx == 0 { rank - 1 } else { rank - 2 };
        let mut shape = description.shape.clone();
        let mut offsets = vec![0i32; rank];
        offsets[k] = if prologue { 0 } else { self.width as i32 };
        shape[k] = if prologue { self.width } else { shape[k] - self.width };
        if let Some((offset, size)) = slice {
            offsets[k] = offset as i32;
            shape[k] = size;
        }
        let location = memory.location();
        let view = MemDesc { shape: shape.clone(), ..description };
        let element = view.element_type;
        let view_type = view.to_type(location).expect("a valid view");
        let context_ref = location.context();
        let context = unsafe { context_ref.to_ref() };
        let offsets_attribute: Attribute = DenseI32ArrayAttribute::new(context, &offsets).into();
        let saved = b.location;
        b.location = location;
        let subslice = b.value("ttg.memdesc_subslice", &[memory], view_type, &[("offsets", offsets_attribute)]);
        let parent = self.dot_encoding();
        let layout = Attribute::parse(
            context,
            &format!("#ttg.dot_op<{{opIdx = {op_idx}, parent = {parent}, kWidth = {}}}>", self.width / 8),
        )
        .expect("a dot operand layout");
        let loaded = b.value("ttg.local_load", &[subslice], tensor_type(&shape, element, Some(layout)), &[]);
        b.location = saved;
        loaded
    }

    fn dot_encoding(&self) -> String {
        let (dot, _, _) = self.dot.as_ref().expect("a dot to prefetch");
        tensor_parts(dot.result_at(0).unwrap().r#type()).and_then(|(_, _, e)| e).expect("a layout").to_string()
    }

    /// Upstream `cloneElementwiseOps`: the chain's element-wise ops applied
    /// to `loaded` (a slice), their tensor results reshaped to it.
    fn apply_chain(&self, b: &mut Builder<'c, 'a>, loaded: Value<'c, 'a>, chain: &[Value<'c, 'a>]) -> Value<'c, 'a> {
        let mut map = ValueMap::default();
        map.map(chain[1], loaded);
        let (shape, _, _) = tensor_parts(loaded.r#type()).expect("a tensor");
        for value in &chain[2..] {
            let op = defining_op(*value).expect("an element-wise op");
            let clone = b.insert(clone_with(&op, &map));
            let result: Value = clone.result_at(0).unwrap().into();
            if let Some((_, element, _)) = tensor_parts(result.r#type()) {
                // Any element-wise op: its first operand, by position.
                let operand_layout = tensor_parts(clone.operand_at(0).unwrap().r#type()).and_then(|(_, _, e)| e);
                crate::ir::set_type(result, tensor_type(&shape, element, operand_layout));
            }
            map.map(*value, result);
        }
        map.lookup(*chain.last().unwrap())
    }

    /// Upstream `emitPrologue`: the first K slices of A and B, before the
    /// loop.
    fn emit_prologue(&self) -> (Option<Value<'c, 'a>>, Option<Value<'c, 'a>>) {
        let Some((_, a, b_operand)) = &self.dot else {
            return (None, None);
        };
        let mut b = Builder::before(self.lp);
        let a_slice = self.prefetch_slice(&mut b, a.init, 0, true, None);
        let a_head = self.apply_chain(&mut b, a_slice, &a.chain);
        let b_slice = self.prefetch_slice(&mut b, b_operand.init, 1, true, None);
        let b_head = self.apply_chain(&mut b, b_slice, &b_operand.chain);
        (Some(a_head), Some(b_head))
    }

    /// Upstream `createNewForOp`: the loop again, with the prefetched
    /// slices as extra iter_args and the dot split along K.
    fn rebuild_loop(&self, a_head: Option<Value<'c, 'a>>, b_head: Option<Value<'c, 'a>>) -> OperationRef<'c, 'a> {
        let lp = self.lp;
        let mut inits = init_args(&lp);
        let old_count = inits.len();
        inits.extend(a_head.into_iter().chain(b_head));
        let location = lp.location();
        let lower_bound = ForOp::of(lp).expect("an scf.for").lower_bound();
        let mut arguments: Vec<(Type, Location)> = vec![(lower_bound.r#type(), location)];
        arguments.extend(inits.iter().map(|v| (v.r#type(), v.location())));
        let region = Region::new();
        region.append_block(Block::new(&arguments));
        let mut operands: Vec<Value> = lp.operands().take(FIRST_INIT).collect();
        operands.extend(&inits);
        let new_loop = OperationBuilder::new("scf.for", location)
            .add_operands(&operands)
            .add_results(&inits.iter().map(|v| v.r#type()).collect::<Vec<_>>())
            .add_regions([region])
            .build()
            .expect("a valid scf.for");
        let new_loop = lp.block().unwrap().insert_operation_before(lp, new_loop);
        let new_body = body(&new_loop).unwrap();
        let new_arguments = block_arguments(&new_body);
        let mut map = ValueMap::default();
        for (old, new) in iter_args(&lp).into_iter().zip(&new_arguments[1..]) {
            map.map(old, *new);
        }
        map.map(block_arguments(&body(&lp).unwrap())[0], new_arguments[0]);

        let mut b = Builder::at_end(new_body, location);
        // A loop without iter_args gets its (empty) yield at once, as
        // `scf::ForOp::create` gives it; new ops then go before it.
        let end =
            if inits.is_empty() { Point::Before(b.create("scf.yield", &[], &[], &[])) } else { Point::End(new_body) };
        b.set_point(end);
        let old_body = body(&lp).unwrap();
        let old_yield = old_body.terminator().unwrap();
        let prefetched_dot = self.dot.as_ref().map(|(dot, _, _)| *dot);
        for op in block_ops(&old_body).into_iter().filter(|op| *op != old_yield) {
            // Stop sinking the split dot at control flow or at its users.
            if op.regions().next().is_some() {
                b.set_point(end);
            }
            if op.operands().any(|v| defining_op(v).is_some_and(|d| Some(d) == prefetched_dot)) {
                b.set_point(end);
            }
            let mut new_op = b.insert(clone_with(&op, &map));
            if Some(op) == prefetched_dot {
                let (dot, a, b_operand) = self.dot.as_ref().unwrap();
                let first = b.insert(clone_with(dot, &map));
                crate::ssa::set_operand(&first, 0, new_arguments[1 + old_count]);
                crate::ssa::set_operand(&first, 1, new_arguments[2 + old_count]);
                let k_size = tensor_parts(DotOp::of(*dot).unwrap().a().r#type()).unwrap().0.last().copied().unwrap();
                let (mut k_offset, mut k_rest) = (self.width, k_size - self.width);
                let mut previous = first;
                if k_rest == 0 {
                    b.set_before(previous);
                    new_op = first;
                }
                while k_rest != 0 {
                    let size = self.width;
                    let saved = b.point();
                    b.set_before(previous);
                    let a_slice = self.prefetch_slice(&mut b, map.lookup(a.chain[0]), 0, false, Some((k_offset, size)));
                    let a_rest = self.apply_chain(&mut b, a_slice, &a.chain);
                    let b_slice =
                        self.prefetch_slice(&mut b, map.lookup(b_operand.chain[0]), 1, false, Some((k_offset, size)));
                    let b_rest = self.apply_chain(&mut b, b_slice, &b_operand.chain);
                    b.set_point(saved);
                    new_op = b.insert(clone_with(dot, &map));
                    crate::ssa::set_operand(&new_op, 0, a_rest);
                    crate::ssa::set_operand(&new_op, 1, b_rest);
                    crate::ssa::set_operand(&new_op, 2, previous.result_at(0).unwrap().into());
                    previous = new_op;
                    k_offset += size;
                    k_rest -= size;
                    if k_rest == 0 {
                        // Issue the last dot as late as possible: after the
                        // next iteration's prefetch, ideally.
                        b.set_before(previous);
                    }
                }
            }
            for (old, new) in op.results().zip(new_op.results()) {
                map.map(old.into(), new.into());
            }
        }

        let mut yielded: Vec<Value> = old_yield.operands().map(|v| map.lookup(v)).collect();
        if let Some((_, a, b_operand)) = &self.dot {
            let a_slice = self.prefetch_slice(&mut b, map.lookup(a.yielded), 0, true, None);
            yielded.push(self.apply_chain(&mut b, a_slice, &a.chain));
            let b_slice = self.prefetch_slice(&mut b, map.lookup(b_operand.yielded), 1, true, None);
            yielded.push(self.apply_chain(&mut b, b_slice, &b_operand.chain));
        }
        b.set_point(end);
        b.location = old_yield.location();
        if !yielded.is_empty() {
            b.create("scf.yield", &yielded, &[], &[]);
        }
        new_loop
    }
}
