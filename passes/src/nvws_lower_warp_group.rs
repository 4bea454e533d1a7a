//! `nvws-lower-warp-group` (upstream's flag): turns each `nvws.warp_group`
//! into a `ttg.warp_specialize`.
//!
//! - When the first group runs with the kernel's own warp count
//!   (`ttg.num-warps`), it becomes the default region (its yielded values the
//!   `ttg.warp_yield`'s); the other groups become partitions, with
//!   `partitionNumWarps` their warp counts. A group with results needs such a
//!   default region.
//! - Partitions are isolated from above, so what they use from outside
//!   becomes an explicit capture, with two exceptions: constants and pure ops
//!   producing tensors are cloned into each partition (their operands are
//!   then captured in turn), and other tensors travel through shared memory
//!   (a `ttg.local_alloc` before the op, a `ttg.local_load` at the start of
//!   each partition), since partitions cannot capture tensors.
//! - Upstream runs the rewrite inside MLIR's greedy driver, which also folds,
//!   hoists constants to the top of each partition and erases dead ops: the
//!   pass ends with the same driver (no patterns, folds only).
use crate::ir::{collect_ops, create, enclosing_int_attribute, enclosing_module, erase, fail, name_of, Order};
use crate::op_traits::is_pure;
use crate::ssa::{defining_op, uses};
use melior::ir::{
    attribute::DenseI32ArrayAttribute, operation::OperationBuilder, operation::OperationLike, Block, BlockLike,
    BlockRef, Identifier, Location, OperationRef, Region, RegionLike, RegionRef, Type, Value, ValueLike,
};
use std::collections::{HashSet, VecDeque};
use tritium_dialects::{
    ir::{
        block_arguments, block_ops, clone_with, context_of, dense_i32_attribute, insert_before, location_of,
        move_to_end, op_key, parent_block, parent_region_key, value_key, ValueMap,
    },
    pass::{PassDefinition, PassFailed, PassOptions, PassResult},
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvws-lower-warp-group",
    description: "Lower nvws.warp_group to ttg.warp_specialize (captures made explicit, tensors passed through \
                  shared memory)",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(root: OperationRef, _options: &PassOptions) -> PassResult {
    let module = enclosing_module(root).unwrap_or(root);
    // Inner groups first: lowering an outer group moves the inner ones.
    let groups: Vec<_> =
        collect_ops(module, Order::Post).into_iter().filter(|op| name_of(op) == "nvws.warp_group").collect();
    for group in groups {
        lower(group)?;
    }
    crate::greedy::apply_with_folds(module, &[])
}

/// A hashable identity of a region.
fn region_key(region: &RegionRef) -> usize {
    region.to_raw().ptr as usize
}

/// Whether `op` is inside the region `region` (at any depth).
fn is_in_region(op: OperationRef, region: usize) -> bool {
    let mut current = Some(op);
    while let Some(op) = current {
        let Some(block) = op.block() else { return false };
        if parent_region_key(&block) == region {
            return true;
        }
        current = block.parent_operation();
    }
    false
}

/// Whether `value` is defined inside `region` (at any depth).
fn is_defined_in(value: Value, region: usize) -> bool {
    let mut block = parent_block(value);
    while let Some(b) = block {
        if parent_region_key(&b) == region {
            return true;
        }
        block = b.parent_operation().and_then(|op| op.block());
    }
    false
}

/// Values used in `region` but defined outside it, in order of first use
/// (MLIR's `getUsedValuesDefinedAbove`).
fn used_values_defined_above<'c, 'a>(
    region: &RegionRef<'c, 'a>,
    seen: &mut HashSet<usize>,
    out: &mut Vec<Value<'c, 'a>>,
) {
    let key = region_key(region);
    let mut block = region.first_block();
    while let Some(b) = block {
        for op in block_ops(&b) {
            let nested = std::iter::once(op).chain(collect_ops(op, Order::Pre));
            for inner in nested {
                for value in inner.operands() {
                    if !is_defined_in(value, key) && seen.insert(value_key(value)) {
                        out.push(value);
                    }
                }
            }
        }
        block = b.next_in_region();
    }
}

/// Replaces the uses of `old` inside `region` with `new`.
fn replace_uses_in_region(old: Value, new: Value, region: usize) {
    for user in uses(old) {
        if is_in_region(user.owner, region) {
            tritium_dialects::ir::set_operand(&user.owner, user.index, new);
        }
    }
}

/// MLIR's `ConstantLike` trait, for the ops Tritium's IR holds.
fn is_constant_like(op: &OperationRef) -> bool {
    matches!(name_of(op).as_str(), "arith.constant" | "ub.poison")
}

/// `ops` ordered so that each comes after the ops of `ops` defining its
/// operands (keeping the given order otherwise).
fn topological_order<'c, 'a>(mut ops: Vec<OperationRef<'c, 'a>>) -> Vec<OperationRef<'c, 'a>> {
    let mut sorted = Vec::with_capacity(ops.len());
    while !ops.is_empty() {
        let pending: HashSet<usize> = ops.iter().map(op_key).collect();
        let ready = ops.iter().position(|op| {
            op.operands().all(|v| defining_op(v).is_none_or(|d| d == *op || !pending.contains(&op_key(&d))))
        });
        // A cycle cannot happen among ops outside the region; take the first
        // op to stay total anyway.
        sorted.push(ops.remove(ready.unwrap_or(0)));
    }
    sorted
}

fn lower(group: OperationRef) -> PassResult {
    let location = group.location();
    let Some(global_warps) = enclosing_int_attribute(group, "ttg.num-warps") else {
        return Err(fail(&group, "nvws.warp_group outside a module with \"ttg.num-warps\""));
    };
    let Some(num_warps) = dense_i32_attribute(&group, "numWarps") else {
        return Err(fail(&group, "nvws.warp_group without numWarps"));
    };
    let regions: Vec<RegionRef> = group.regions().collect();
    if num_warps.len() != regions.len() {
        return Err(fail(&group, "mismatched number of warp groups and number of warps per warp group"));
    }
    let has_default = num_warps.first() == Some(&(global_warps as i32));
    if !has_default && group.result_count() > 0 {
        return Err(fail(
            &group,
            "the first warp group does not use the default number of warps, so it cannot be the default \
             partition; an nvws.warp_group with results needs one",
        ));
    }
    let (default_region, partitions, partition_warps) = if has_default {
        (Some(regions[0]), regions[1..].to_vec(), num_warps[1..].to_vec())
    } else {
        (None, regions, num_warps)
    };

    let inputs = make_captures_explicit(&group, &partitions)?;
    let context = context_of(location);

    // The default region: the first group's ops, its terminator's operands
    // yielded.
    let default = Region::new();
    let default_block = default.append_block(Block::new(&[]));
    let mut yielded = Vec::new();
    if let Some(region) = default_region {
        let block = region.first_block().expect("warp group regions have a block");
        for op in block_ops(&block) {
            if op.next_in_block().is_none() {
                yielded = op.operands().collect();
            } else {
                move_to_end(&op, &default_block);
            }
        }
    }
    default_block.append_operation(create("ttg.warp_yield", location, &yielded, &[], &[]));

    // The partitions: one block each, the captures as its arguments.
    let input_types: Vec<(Type, Location)> = inputs.iter().map(|v| (v.r#type(), location)).collect();
    let mut new_regions = Vec::new();
    let mut new_blocks: Vec<BlockRef> = Vec::new();
    for _ in &partitions {
        let region = Region::new();
        new_blocks.push(region.append_block(Block::new(&input_types)));
        new_regions.push(region);
    }
    let holder = Region::new();
    let mut builder = OperationBuilder::new("ttg.warp_specialize.partitions", location);
    for region in new_regions {
        builder = builder.add_regions([region]);
    }
    let partitions_op = builder.build().map_err(|_| fail(&group, "cannot build ttg.warp_specialize.partitions"))?;
    holder.append_block(Block::new(&[])).append_operation(partitions_op);

    let result_types: Vec<Type> = (0..group.result_count()).map(|i| group.result(i).unwrap().r#type()).collect();
    let ws = OperationBuilder::new("ttg.warp_specialize", location)
        .add_operands(&inputs)
        .add_results(&result_types)
        .add_attributes(&[(
            Identifier::new(context, "partitionNumWarps"),
            DenseI32ArrayAttribute::new(context, &partition_warps).into(),
        )])
        .add_regions([default, holder])
        .build()
        .map_err(|_| fail(&group, "cannot build ttg.warp_specialize"))?;
    let ws = insert_before(&group, ws);

    for (old, block) in partitions.iter().zip(&new_blocks) {
        let old_block = old.first_block().expect("warp group regions have a block");
        for op in block_ops(&old_block) {
            if op.next_in_block().is_some() {
                move_to_end(&op, block);
            }
        }
        block.append_operation(create("ttg.warp_return", location, &[], &[], &[]));
        let region = parent_region_key(block);
        for (input, argument) in inputs.iter().zip(block_arguments(block)) {
            replace_uses_in_region(*input, argument, region);
        }
    }

    for i in 0..group.result_count() {
        crate::ir::replace_all_uses(group.result(i).unwrap().into(), ws.result(i).unwrap().into());
    }
    erase(group);
    Ok(())
}

/// Prepares the partition regions for isolation and returns the values they
/// capture: constants and pure tensor-producing ops are cloned into every
/// partition, other tensors go through a shared-memory buffer allocated
/// before `group`.
fn make_captures_explicit<'c, 'a>(
    group: &OperationRef<'c, 'a>,
    partitions: &[RegionRef<'c, 'a>],
) -> Result<Vec<Value<'c, 'a>>, PassFailed> {
    let mut seen = HashSet::new();
    let mut captures = Vec::new();
    for region in partitions {
        used_values_defined_above(region, &mut seen, &mut captures);
    }
    // Where each partition's new ops go: before its original first op.
    let anchors: Vec<OperationRef> =
        partitions.iter().map(|r| r.first_block().and_then(|b| b.first_operation()).expect("a terminator")).collect();
    let mut maps: Vec<ValueMap> = partitions.iter().map(|_| ValueMap::default()).collect();
    let mut inputs = Vec::new();
    let mut to_clone = Vec::new();
    let mut queue: VecDeque<Value> = captures.into_iter().collect();
    let mut visited = HashSet::new();
    while let Some(capture) = queue.pop_front() {
        if !visited.insert(value_key(capture)) {
            continue;
        }
        let is_tensor = crate::ir::tensor_parts(capture.r#type()).is_some();
        match defining_op(capture) {
            Some(def) if is_pure(&def) && (is_constant_like(&def) || is_tensor) => {
                queue.extend(def.operands());
                to_clone.push(def);
            }
            _ if is_tensor => {
                let alloc = shared_copy(group, capture)?;
                for ((region, anchor), map) in partitions.iter().zip(&anchors).zip(&mut maps) {
                    let load = create("ttg.local_load", location_of(capture), &[alloc], &[capture.r#type()], &[]);
                    let load: Value = insert_before(anchor, load).result(0).unwrap().into();
                    replace_uses_in_region(capture, load, region_key(region));
                    map.map(capture, load);
                }
                inputs.push(alloc);
            }
            _ => inputs.push(capture),
        }
    }
    for op in topological_order(to_clone) {
        for ((region, anchor), map) in partitions.iter().zip(&anchors).zip(&mut maps) {
            let copy = insert_before(anchor, clone_with(&op, map));
            for i in 0..op.result_count() {
                let (old, new) = (op.result(i).unwrap().into(), copy.result(i).unwrap().into());
                map.map(old, new);
                replace_uses_in_region(old, new, region_key(region));
            }
        }
    }
    Ok(inputs)
}

/// A `ttg.local_alloc` holding `tensor`, inserted before `group`, in an
/// unswizzled shared layout of the tensor's order (upstream's generic
/// `getSharedEncoding`).
fn shared_copy<'c, 'a>(group: &OperationRef<'c, 'a>, tensor: Value<'c, 'a>) -> Result<Value<'c, 'a>, PassFailed> {
    let location = group.location();
    let ty = tensor.r#type();
    let encoding = crate::tritongpu_pipeline::shared::unswizzled_shared(ty, location).ok_or_else(|| {
        fail(group, format!("cannot pass a {ty} to a partition: its layout has no shared-memory form"))
    })?;
    let memdesc = crate::nvws_insert_aref::buffer_of(ty, encoding, location)
        .map_err(|_| fail(group, format!("cannot pass a {ty} to a partition: not a ranked tensor")))?;
    let memdesc = memdesc.to_type(location).ok_or_else(|| fail(group, "cannot build the shared-memory buffer type"))?;
    let alloc = insert_before(group, create("ttg.local_alloc", location, &[tensor], &[memdesc], &[]));
    Ok(alloc.result(0).unwrap().into())
}
