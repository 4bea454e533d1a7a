//! Predication of the ops the expander runs conditionally. The expander
//! wraps such an op in a `ttg.mask %pred` region (upstream `wrapInMaskOp`);
//! once every loop is expanded and the IR folded, each mask is dissolved:
//! its ops move out, and those with side effects get the predicate in their
//! own mask operand (upstream `resolveMaskOp` and `predicateOp`).
use super::builder::Builder;
use super::expander::clone;
use crate::greedy::apply_with_folds;
use crate::ir::{collect_ops, create, erase, fail, name_of, replace_all_uses, tensor_parts, tensor_type, Order};
use crate::op_traits::is_memory_effect_free;
use crate::ssa::{move_before, set_attribute, set_operands};
use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    operation::{OperationBuilder, OperationLike},
    Block, BlockLike, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{PassFailed, PassResult};
use tritium_dialects::views::{AtomicRMWOp, IfOp, MaskOp, StoreOp, WaitBarrierOp};

/// Upstream `wrapInMaskOp`: `op` moves into a `ttg.mask` on `predicate`
/// (in its place), whose results replace its own.
pub fn wrap_in_mask<'c, 'a>(
    op: OperationRef<'c, 'a>,
    predicate: Value<'c, 'a>,
) -> Result<OperationRef<'c, 'a>, PassFailed> {
    let location = op.location();
    let types: Vec<Type> = op.results().map(|r| r.r#type()).collect();
    let region = Region::new();
    region.append_block(Block::new(&[]));
    let mask = OperationBuilder::new("ttg.mask", location)
        .add_operands(&[predicate])
        .add_results(&types)
        .add_regions([region])
        .build()
        .map_err(|_| fail(&op, "cannot build ttg.mask"))?;
    let mask = Builder::after(op).insert(mask);
    let block = mask.region_at(0).unwrap().first_block().unwrap();
    let copy = block.append_operation(clone(&op));
    let results: Vec<Value> = copy.results().map(Into::into).collect();
    block.append_operation(create("ttg.mask.return", location, &results, &[], &[]));
    for (old, new) in op.results().zip(mask.results()) {
        replace_all_uses(old.into(), new.into());
    }
    erase(op);
    Ok(mask)
}

/// Upstream `resolveMaskOp`: folds the IR (the clean-up upstream runs with
/// the arith dialect's canonicalization patterns, of which there are none:
/// folds only), then dissolves every `ttg.mask`.
pub fn resolve_masks(module: OperationRef) -> PassResult {
    apply_with_folds(module, &[])?;
    for mask in collect_ops(module, Order::Post).into_iter().filter(|op| name_of(op) == "ttg.mask") {
        let predicate = MaskOp::of(mask).expect("a ttg.mask").pred();
        let block = mask.region_at(0).unwrap().first_block().unwrap();
        let terminator = block.terminator().ok_or_else(|| fail(&mask, "ttg.mask without a terminator"))?;
        while let Some(op) = block.first_operation().filter(|op| *op != terminator) {
            move_before(&op, &mask);
            predicate_op(op, predicate)?;
        }
        for (result, value) in mask.results().zip(terminator.operands()) {
            replace_all_uses(result.into(), value);
        }
        erase(mask);
    }
    Ok(())
}

/// Upstream `predicateOp`: makes `op` take effect only where `predicate`
/// holds. Ops without side effects, and ops that are safe to run anyway
/// (waits, commits, shared-memory loads and stores) are left as they are.
fn predicate_op(op: OperationRef, predicate: Value) -> PassResult {
    // Upstream also leaves ops alone under a predicate that is the constant
    // 1, which an i1 `true` (-1 sign-extended) never is: a constant true
    // predicate is applied like any other, and folds away later.
    if is_memory_effect_free(&op) {
        return Ok(());
    }
    let name = name_of(&op);
    match name.as_str() {
        "llvm.intr.assume"
        | "ttng.fence_async_shared"
        | "ttg.async_commit_group"
        | "ttg.async_wait"
        | "ttg.local_load"
        | "ttg.local_store" => Ok(()),
        "scf.if" => {
            let condition = IfOp::of(op).expect("an scf.if").condition();
            let mask = predicate_mask(op, condition.r#type(), Some(condition), predicate);
            crate::ssa::set_operand(&op, 0, mask);
            Ok(())
        }
        // Operand groups: src, result, mask, other.
        "ttg.async_copy_global_to_local" => set_segment_mask(op, 0, 2, predicate),
        // Operand groups: ptr, mask, other.
        "tt.load" => set_segment_mask(op, 0, 1, predicate),
        // The predicate is the last operand.
        "ttng.async_tma_copy_global_to_local" | "ttng.barrier_expect" => {
            let last = op.operand_count() - 1;
            let current = op.operand_at(last).unwrap();
            let mask = predicate_mask(op, current.r#type(), Some(current), predicate);
            crate::ssa::set_operand(&op, last, mask);
            Ok(())
        }
        // Operand groups: alloc, phase, pred, deps.
        "ttng.wait_barrier" => {
            if let Some(current) = WaitBarrierOp::of(op).expect("a ttng.wait_barrier").pred() {
                let mask = predicate_mask(op, current.r#type(), Some(current), predicate);
                crate::ssa::set_operand(&op, 2, mask);
                Ok(())
            } else {
                // The predicate itself becomes the wait's.
                let mut operands: Vec<Value> = op.operands().collect();
                operands.insert(2, predicate);
                let mut sizes = crate::ir::dense_i32_attribute(&op, "operandSegmentSizes")
                    .ok_or_else(|| fail(&op, "an op without operand segment sizes"))?;
                sizes[2] = 1;
                set_operands(&op, &operands);
                let context_ref = op.context();
                let sizes_attribute = DenseI32ArrayAttribute::new(unsafe { context_ref.to_ref() }, &sizes);
                set_attribute(&op, "operandSegmentSizes", sizes_attribute.into());
                Ok(())
            }
        }
        // Operands: ptr, value, then the optional mask.
        "tt.store" | "tt.atomic_rmw" => {
            let (pointer, current) = match StoreOp::of(op) {
                Some(store) => (store.ptr(), store.mask()),
                None => {
                    let atomic = AtomicRMWOp::of(op).expect("a tt.atomic_rmw");
                    (atomic.ptr(), atomic.mask())
                }
            };
            let pointer_type = pointer.r#type();
            let mask = predicate_mask(op, pointer_type, current, predicate);
            let mut operands: Vec<Value> = op.operands().take(2).collect();
            operands.push(mask);
            set_operands(&op, &operands);
            Ok(())
        }
        _ => Err(fail(&op, "pipeliner doesn't know how to predicate this op.")),
    }
}

/// Upstream `getPredMask`: `predicate`, splat to the shape of `like` when it
/// is a tensor, and-ed with `current` if there is one; made before `op`.
fn predicate_mask<'c, 'a>(
    op: OperationRef<'c, 'a>,
    like: Type<'c>,
    current: Option<Value<'c, 'a>>,
    predicate: Value<'c, 'a>,
) -> Value<'c, 'a> {
    let mut builder = Builder::before(op);
    builder.location = predicate.location();
    let mut mask = predicate;
    if let Some((shape, _, layout)) = tensor_parts(like) {
        let i1 = builder.integer_type(1);
        mask = builder.value("tt.splat", &[predicate], tensor_type(&shape, i1, layout), &[]);
    }
    if let Some(current) = current {
        mask = builder.binary("arith.andi", mask, current);
    }
    mask
}

/// Predicates an op whose mask is operand group `mask_group` (of an op with
/// `operandSegmentSizes`), shaped as the operand at `like`.
fn set_segment_mask(op: OperationRef, like: usize, mask_group: usize, predicate: Value) -> PassResult {
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let mut sizes: Vec<i32> = op
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
        .map(|a| (0..a.len()).map(|i| a.element(i).unwrap_or(0)).collect())
        .ok_or_else(|| fail(&op, "an op without operand segment sizes"))?;
    let start: usize = sizes[..mask_group].iter().map(|s| *s as usize).sum();
    let current = (sizes[mask_group] == 1).then(|| op.operand_at(start).unwrap());
    let like_type = op.operand_at(like).unwrap().r#type();
    let mask = predicate_mask(op, like_type, current, predicate);
    let mut operands: Vec<Value> = op.operands().collect();
    if current.is_some() {
        operands[start] = mask;
    } else {
        operands.insert(start, mask);
        sizes[mask_group] = 1;
    }
    set_operands(&op, &operands);
    set_attribute(&op, "operandSegmentSizes", DenseI32ArrayAttribute::new(context, &sizes).into());
    Ok(())
}
