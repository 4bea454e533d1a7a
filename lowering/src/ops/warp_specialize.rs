//! `ttg.warp_specialize` and its terminators. The op stays, in the LLVM
//! dialect: its captures and results become the registers of their values,
//! its default region is lowered in place (the kernel's own warps run it),
//! each partition as a region isolated from the kernel, with thread and warp
//! ids relative to its first warp (`warpGroupStartIds`, from
//! `tritongpu-allocate-warp-groups`; a partition that needs no ids is
//! lowered without them, as upstream's lowering does). `convert-warp-specialize-to-llvm` then
//! turns it into the warp-id dispatch (upstream splits the work the same
//! way between its two passes).
use crate::{
    builder::{type_of, Cursor, V},
    emit::{LowerError, Lowering, Result},
};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Block, BlockLike, Identifier, OperationRef, Region, RegionLike, Type, TypeLike, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_passes::ir::{collect_ops, name_of, Order};

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, name: &str) -> Result<()> {
    match name {
        "ttg.warp_yield" => {
            let mut values = Vec::new();
            for i in 0..op.operand_count() {
                values.extend(l.operand(&op, i)?);
            }
            l.b.op("ttg.warp_yield", &values, &[], &[]);
            Ok(())
        }
        "ttg.warp_return" => {
            l.b.op("ttg.warp_return", &[], &[], &[]);
            Ok(())
        }
        _ => lower_warp_specialize(l, op),
    }
}

fn lower_warp_specialize<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let context = l.context();
    let location = op.location();
    let partition_warps = crate::dense_i32_attribute(&op, "partitionNumWarps").unwrap_or_default();
    // Before tritongpu-allocate-warp-groups there are no start ids: the
    // partitions are lowered all the same, as long as none needs its thread
    // or warp ids (see `lower_isolated_block`).
    let start_ids = crate::dense_i32_attribute(&op, "warpGroupStartIds");

    // Captures: one register each (scalars, pointers, shared-memory and
    // tensor descriptors); a tensor has different registers in every thread
    // and cannot go through the one shared copy (upstream refuses it too).
    let mut captures: Vec<V> = Vec::new();
    for i in 0..op.operand_count() {
        let ty = op.operand(i).unwrap().r#type();
        if ty.is_ranked_tensor() {
            return Err(LowerError::at(
                &op,
                format!("capture {i} is a tensor ({ty}); only scalars, pointers and descriptors can be captured"),
            ));
        }
        let registers = l.operand(&op, i)?;
        if registers.len() != 1 {
            return Err(LowerError::at(&op, format!("capture {i} lowers to {} values, expected one", registers.len())));
        }
        captures.push(registers[0]);
    }
    // A partition that makes device-side descriptors reaches the kernel's
    // global-scratch parameter through one more capture (an isolated region
    // cannot use the function's argument; convert-warp-specialize-to-llvm
    // gives the partition the argument again, so the capture costs no shared
    // memory).
    let uses_global_scratch = op
        .region_at(1)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.first_operation())
        .is_some_and(|p| collect_ops(p, Order::Pre).iter().any(|o| name_of(o) == "ttg.global_scratch_alloc"));
    let scratch_capture = match l.global_scratch {
        Some(pointer) if uses_global_scratch => {
            captures.push(pointer);
            Some(captures.len() - 1)
        }
        _ => None,
    };
    let capture_types: Vec<Type> = captures.iter().map(|v| type_of(*v)).collect();

    // Results: the registers of each value the default region yields.
    let mut result_types = Vec::new();
    let mut result_counts = Vec::new();
    for r in 0..op.result_count() {
        let ty = op.result(r).unwrap().r#type();
        let count = if ty.is_ranked_tensor() { l.tensor_layout(&op, ty)?.num_registers() } else { 1 };
        result_counts.push(count);
        result_types.extend(std::iter::repeat_n(l.lower_type(ty), count));
    }

    let old_partitions = op
        .region_at(1)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.first_operation())
        .ok_or_else(|| LowerError::at(&op, "has no partitions"))?;
    let old_regions: Vec<_> = old_partitions.regions().collect();
    if old_regions.len() != partition_warps.len() || start_ids.as_ref().is_some_and(|s| s.len() != old_regions.len()) {
        return Err(LowerError::at(&op, "partitionNumWarps and warpGroupStartIds must name every partition"));
    }

    // The new op: an empty default block, and the partitions' blocks taking
    // the captures' registers.
    let default_region = Region::new();
    let default_block = default_region.append_block(Block::new(&[])).to_raw();
    let mut partition_regions = Vec::new();
    let mut partition_blocks = Vec::new();
    for _ in &old_regions {
        let region = Region::new();
        let block = region.append_block(Block::new(&capture_types.iter().map(|t| (*t, location)).collect::<Vec<_>>()));
        partition_blocks.push(block.to_raw());
        partition_regions.push(region);
    }
    let partitions = OperationBuilder::new("ttg.warp_specialize.partitions", location)
        .add_regions_vec(partition_regions)
        .build()
        .map_err(|e| LowerError::at(&op, e.to_string()))?;
    let holder = Region::new();
    holder.append_block(Block::new(&[])).append_operation(partitions);

    let mut attributes = Vec::new();
    for attribute in ["partitionNumWarps", "warpGroupStartIds", "requestedRegisters", "actualRegisters"] {
        if let Some(values) = crate::dense_i32_attribute(&op, attribute) {
            attributes
                .push((Identifier::new(context, attribute), DenseI32ArrayAttribute::new(context, &values).into()));
        }
    }
    if let Some(offset) = crate::int_attribute(&op, "allocation.offset") {
        let i32: Type = IntegerType::new(context, 32).into();
        attributes.push((Identifier::new(context, "allocation.offset"), IntegerAttribute::new(i32, offset).into()));
    }
    let operands: Vec<_> = captures.iter().map(|v| crate::builder::value(*v)).collect();
    let new = OperationBuilder::new("ttg.warp_specialize", location)
        .add_operands(&operands)
        .add_results(&result_types)
        .add_attributes(&attributes)
        .add_regions([default_region, holder])
        .build()
        .map_err(|e| LowerError::at(&op, e.to_string()))?;
    let new = l.b.insert(new, l.b.cursor);

    // The default region: the kernel's warps, the kernel's ids.
    let saved = l.b.cursor;
    l.b.cursor = Cursor::End(default_block);
    let old_default = op
        .region_at(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| LowerError::at(&op, "has no default region"))?;
    l.lower_block(&old_default)?;
    l.b.cursor = saved;

    // Each partition, on its own warps.
    // SAFETY: the partition blocks live in the new op, which outlives this function.
    let partition_block = |i: usize| unsafe { melior::ir::BlockRef::from_raw(partition_blocks[i]) };
    for (i, region) in old_regions.iter().enumerate() {
        let old_block = region.first_block().ok_or_else(|| LowerError::at(&op, "a partition has no block"))?;
        for a in 0..old_block.argument_count() {
            let argument = partition_block(i).argument(a).unwrap().to_raw();
            l.set(old_block.argument(a).unwrap().to_raw(), vec![argument]);
        }
        let num_warps =
            u32::try_from(partition_warps[i]).map_err(|_| LowerError::at(&op, "negative partition warps"))?;
        let saved_scratch = l.global_scratch;
        if let Some(index) = scratch_capture {
            l.global_scratch = Some(partition_block(i).argument(index).unwrap().to_raw());
        }
        let lowered = l.lower_isolated_block(
            &old_block,
            partition_blocks[i],
            start_ids.as_ref().map(|s| i64::from(s[i])),
            num_warps,
        );
        l.global_scratch = saved_scratch;
        lowered?;
    }

    let mut next = 0;
    for (r, count) in result_counts.iter().enumerate() {
        let registers = (next..next + count).map(|j| new.result(j).unwrap().to_raw()).collect();
        l.set_result(&op, r, registers);
        next += count;
    }
    Ok(())
}
