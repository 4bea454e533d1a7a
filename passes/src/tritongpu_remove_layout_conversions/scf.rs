//! Rebuilding `scf.for`, `scf.if` and `scf.while` with other result and
//! argument types, keeping their bodies (upstream builds a new op and moves
//! the old body over; the old op is erased once nothing refers to it).
use super::ir::{block_arguments, body, insert_before, operands, results};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::IfOp;

/// The attributes of `op`, to copy onto its replacement.
fn attributes_of<'c>(op: &OperationRef<'c, '_>) -> Vec<(Identifier<'c>, melior::ir::Attribute<'c>)> {
    op.attributes().collect()
}

fn location_of_value<'c>(value: Value<'c, '_>) -> Location<'c> {
    value.location()
}

/// Moves every op of `from`, in order, to the end of `to`.
pub(super) use tritium_dialects::ir::move_ops_to_end as move_ops;
/// Moves the blocks of region `index` of `from` into the (empty) region of
/// `to`.
use tritium_dialects::ir::take_region_body as take_body;

/// `scf.for %iv = lb to ub step s iter_args(inits)`, inserted before
/// `anchor`, with `old`'s attributes and an empty body whose arguments match
/// the inits (upstream `scf::ForOp::create` without a body builder).
pub(super) fn new_for<'c, 'a>(old: &OperationRef<'c, 'a>, inits: &[Value<'c, 'a>]) -> Option<OperationRef<'c, 'a>> {
    let bounds: Vec<Value> = operands(old).into_iter().take(3).collect();
    if bounds.len() != 3 {
        return None;
    }
    let location = old.location();
    let mut arguments = vec![(bounds[0].r#type(), location)];
    arguments.extend(inits.iter().map(|v| (v.r#type(), location_of_value(*v))));
    let region = Region::new();
    region.append_block(Block::new(&arguments));
    let result_types: Vec<Type> = inits.iter().map(|v| v.r#type()).collect();
    let all_operands: Vec<Value> = bounds.iter().chain(inits).copied().collect();
    let op = OperationBuilder::new("scf.for", location)
        .add_operands(&all_operands)
        .add_results(&result_types)
        .add_attributes(&attributes_of(old))
        .add_regions([region])
        .build()
        .ok()?;
    insert_before(old, op)
}

/// Upstream `replaceForOpWithNewSignature`: a copy of `old` with `extra`
/// iter_args appended, owning `old`'s body (the block moves over, with new
/// arguments for the extra values). Returns the new loop; `old`'s results
/// are to be replaced by the first results of the new one.
pub(super) fn for_with_extra_iter_args<'c, 'a>(
    old: &OperationRef<'c, 'a>,
    extra: &[Value<'c, 'a>],
) -> Option<OperationRef<'c, 'a>> {
    let mut inits: Vec<Value> = operands(old).into_iter().skip(3).collect();
    inits.extend_from_slice(extra);
    let bounds: Vec<Value> = operands(old).into_iter().take(3).collect();
    let result_types: Vec<Type> = inits.iter().map(|v| v.r#type()).collect();
    let all_operands: Vec<Value> = bounds.iter().chain(&inits).copied().collect();
    let op = OperationBuilder::new("scf.for", old.location())
        .add_operands(&all_operands)
        .add_results(&result_types)
        .add_attributes(&attributes_of(old))
        .add_regions([Region::new()])
        .build()
        .ok()?;
    let new = insert_before(old, op)?;
    take_body(&new, old, 0)?;
    let block = body(&new, 0)?;
    for value in extra {
        block.add_argument(value.r#type(), location_of_value(*value));
    }
    Some(new)
}

/// `scf.if` on `old`'s condition with `result_types`, owning `old`'s
/// branches. Upstream's layout propagation builds it without `old`'s
/// attributes, the rematerialisation with them (`keep_attributes`).
pub(super) fn if_with_results<'c, 'a>(
    old: &OperationRef<'c, 'a>,
    result_types: &[Type<'c>],
    keep_attributes: bool,
) -> Option<OperationRef<'c, 'a>> {
    let condition = IfOp::of(*old)?.condition();
    let attributes = if keep_attributes { attributes_of(old) } else { Vec::new() };
    let op = OperationBuilder::new("scf.if", old.location())
        .add_operands(&[condition])
        .add_results(result_types)
        .add_attributes(&attributes)
        .add_regions([Region::new(), Region::new()])
        .build()
        .ok()?;
    let new = insert_before(old, op)?;
    take_body(&new, old, 0)?;
    take_body(&new, old, 1)?;
    Some(new)
}

/// `scf.while` with new inits and result types, inserted before `old`, with
/// fresh blocks whose arguments match (before: the inits, after: the
/// results) and `old`'s ops moved into them (upstream `rewriteWhileOp`,
/// which does not copy attributes).
pub(super) fn while_with_types<'c, 'a>(
    old: &OperationRef<'c, 'a>,
    inits: &[Value<'c, 'a>],
    result_types: &[Type<'c>],
) -> Option<OperationRef<'c, 'a>> {
    let location = old.location();
    let before: Vec<(Type, Location)> = inits.iter().map(|v| (v.r#type(), location)).collect();
    let after: Vec<(Type, Location)> = result_types.iter().map(|t| (*t, location)).collect();
    let (before_region, after_region) = (Region::new(), Region::new());
    before_region.append_block(Block::new(&before));
    after_region.append_block(Block::new(&after));
    let op = OperationBuilder::new("scf.while", location)
        .add_operands(inits)
        .add_results(result_types)
        .add_regions([before_region, after_region])
        .build()
        .ok()?;
    let new = insert_before(old, op)?;
    for index in 0..2 {
        move_ops(&body(old, index)?, &body(&new, index)?);
    }
    Some(new)
}

/// `(old value, new value)` pairs of two equally long lists.
pub(super) fn pairs<'c, 'a>(old: Vec<Value<'c, 'a>>, new: Vec<Value<'c, 'a>>) -> Vec<(Value<'c, 'a>, Value<'c, 'a>)> {
    old.into_iter().zip(new).collect()
}

/// Results of `old` paired with the leading results of `new`.
pub(super) fn result_pairs<'c, 'a>(
    old: &OperationRef<'c, 'a>,
    new: &OperationRef<'c, 'a>,
) -> Vec<(Value<'c, 'a>, Value<'c, 'a>)> {
    pairs(results(old), results(new))
}

/// Arguments of the first block of region `index` of `old` and `new`, paired.
pub(super) fn argument_pairs<'c, 'a>(
    old: &OperationRef<'c, 'a>,
    new: &OperationRef<'c, 'a>,
    index: usize,
) -> Vec<(Value<'c, 'a>, Value<'c, 'a>)> {
    match (body(old, index), body(new, index)) {
        (Some(a), Some(b)) => pairs(block_arguments(&a), block_arguments(&b)),
        _ => Vec::new(),
    }
}

/// Gives each branch of an `scf.if` a block ending in `scf.yield` (upstream
/// `ensureTerminator` after moving the branches over).
pub(super) fn ensure_yields(if_op: &OperationRef) -> Result<(), String> {
    for index in 0..2 {
        let region = if_op.region_at(index).map_err(|e| e.to_string())?;
        if region.first_block().is_none() {
            let block = region.append_block(Block::new(&[]));
            block.append_operation(crate::ir::create("scf.yield", if_op.location(), &[], &[], &[]));
        }
    }
    Ok(())
}
