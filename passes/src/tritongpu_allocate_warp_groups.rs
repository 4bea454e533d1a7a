//! `tritongpu-allocate-warp-groups` (upstream's flag; upstream runs it first
//! in make_llir): decides which warps run which partition of each
//! `ttg.warp_specialize` and how many registers each group gets.
//!
//! - Every `ttg.warp_specialize` is padded with empty partitions (powers of
//!   two, doing nothing but `ttg.warp_return`) up to the largest number of
//!   whole warp groups any of them needs, so that every warp of a warp group
//!   takes part in the `setmaxnreg` of its group (the instruction is
//!   warp-group wide).
//! - `warpGroupStartIds`: partitions get warps after the kernel's own
//!   (`ttg.num-warps`), the largest partitions first.
//! - `ttg.total-num-warps` on the module: the warps the kernel is launched
//!   with.
//! - Registers: the kernel's budget is `ttg.maxnreg` when the user set it,
//!   else all 64K registers over the total warps (a multiple of 8). With
//!   `requestedRegisters` and whole warp groups, each group gets the largest
//!   request of its partitions (rounded up to 8) and the default warps what
//!   is left (a multiple of 8, at least 24): `actualRegisters` = [default,
//!   partition 0, ...], and `ttg.maxnreg` is set, which ptxas needs to
//!   accept `setmaxnreg`.
use crate::ir::{collect_ops, create, enclosing_module, erase, fail, int_attribute, name_of, Order};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Block, BlockLike, Location, OperationRef, RegionLike, Type, ValueLike,
};
use tritium_dialects::{
    access::OpAccess,
    ir::take_body,
    pass::{PassDefinition, PassOptions, PassResult},
    target::ModuleConfig,
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-allocate-warp-groups",
    description: "Assign warps and register budgets to the partitions of ttg.warp_specialize (warpGroupStartIds, \
                  actualRegisters, ttg.total-num-warps, ttg.maxnreg)",
    anchor: "builtin.module",
    options: &[],
    run,
};

use crate::ir::dense_i32_attribute as dense_i32;

fn set_dense_i32(op: &OperationRef, name: &str, values: &[i32]) {
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    crate::ssa::set_attribute(op, name, DenseI32ArrayAttribute::new(context, values).into());
}

fn set_i32(op: &OperationRef, name: &str, value: i64) {
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let i32 = IntegerType::new(context, 32).into();
    crate::ssa::set_attribute(op, name, IntegerAttribute::new(i32, value).into());
}

/// The `ttg.warp_specialize.partitions` op of a `ttg.warp_specialize`.
fn partitions_op<'c, 'a>(ws: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    ws.region_at(1).ok()?.first_block()?.first_operation()
}

/// Adds empty partitions of `sizes` warps each (arguments: the captures).
fn pad(ws: &OperationRef, sizes: &[i32]) {
    let Some(old) = partitions_op(ws) else { return };
    let location: Location = ws.location();
    let capture_types: Vec<Type> = (0..ws.operand_count()).map(|i| ws.operand(i).unwrap().r#type()).collect();
    let holder = old.block().expect("partitions op in its holder block");
    let mut regions = Vec::new();
    for region in old.regions() {
        let moved = melior::ir::Region::new();
        take_body(&moved, &region);
        regions.push(moved);
    }
    for _ in sizes {
        let region = melior::ir::Region::new();
        let block = Block::new(&capture_types.iter().map(|t| (*t, location)).collect::<Vec<_>>());
        block.append_operation(create("ttg.warp_return", location, &[], &[], &[]));
        region.append_block(block);
        regions.push(region);
    }
    let new = OperationBuilder::new("ttg.warp_specialize.partitions", location)
        .add_regions_vec(regions)
        .build()
        .expect("ttg.warp_specialize.partitions is registered");
    holder.insert_operation_before(old, new);
    erase(old);
    let mut warps = dense_i32(ws, "partitionNumWarps").unwrap_or_default();
    warps.extend_from_slice(sizes);
    set_dense_i32(ws, "partitionNumWarps", &warps);
    // The padding does nothing and needs few registers.
    if let Some(mut requested) = dense_i32(ws, "requestedRegisters") {
        requested.extend(sizes.iter().map(|_| 16));
        set_dense_i32(ws, "requestedRegisters", &requested);
    }
}

/// Powers of two, largest first, adding up to `warps`.
fn padding_sizes(mut warps: i32) -> Vec<i32> {
    let mut sizes = Vec::new();
    while warps > 0 {
        let size = 1 << (31 - warps.leading_zeros());
        sizes.push(size);
        warps -= size;
    }
    sizes
}

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let module = enclosing_module(module).unwrap_or(module);
    let ws_ops: Vec<_> =
        collect_ops(module, Order::Pre).into_iter().filter(|o| name_of(o) == "ttg.warp_specialize").collect();
    let config = ModuleConfig::of(&module).map_err(|e| fail(&module, e.0))?;
    let base_warps = config.num_warps().map_err(|e| fail(&module, e.0))? as i32;
    let threads_per_warp = config.threads_per_warp as i32;
    let total_of = |ws: &OperationRef| dense_i32(ws, "partitionNumWarps").unwrap_or_default().iter().sum::<i32>();
    let max_extra = ws_ops.iter().map(total_of).max().unwrap_or(0);
    let extra_groups = (max_extra + 3) / 4;
    for ws in &ws_ops {
        let missing = extra_groups * 4 - total_of(ws);
        if missing > 0 {
            pad(ws, &padding_sizes(missing));
        }
    }
    let total_warps = base_warps + extra_groups * 4;
    let max_registers = match int_attribute(&module, "ttg.maxnreg") {
        Some(n) => n as i32,
        None => 64 * 1024 / total_warps / threads_per_warp / 8 * 8,
    };
    for ws in &ws_ops {
        let sizes = dense_i32(ws, "partitionNumWarps").unwrap_or_default();
        // Largest partitions get the lowest warp ids (stable for equal sizes).
        let mut order: Vec<usize> = (0..sizes.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
        let mut start_ids = vec![0; sizes.len()];
        let mut next = base_warps;
        for i in order {
            start_ids[i] = next;
            next += sizes[i];
        }
        set_dense_i32(ws, "warpGroupStartIds", &start_ids);

        let Some(requested) = dense_i32(ws, "requestedRegisters") else { continue };
        if sizes.iter().sum::<i32>() % 4 != 0 || requested.len() != sizes.len() {
            continue;
        }
        // Partitions by start id, grouped into warp groups of 4 warps.
        let mut by_start: Vec<usize> = (0..sizes.len()).collect();
        by_start.sort_by_key(|&i| start_ids[i]);
        let mut groups: Vec<(Vec<usize>, i32, i32)> = Vec::new(); // (partitions, max registers, warps)
        for i in by_start {
            if start_ids[i] % 4 == 0 || groups.is_empty() {
                groups.push((Vec::new(), 0, 0));
            }
            let group = groups.last_mut().unwrap();
            group.0.push(i);
            group.1 = group.1.max((requested[i] + 7) / 8 * 8);
            group.2 += sizes[i];
        }
        let mut budget = max_registers * base_warps * threads_per_warp;
        for (_, registers, warps) in &groups {
            budget += (max_registers - registers) * warps * threads_per_warp;
        }
        if budget <= 0 {
            continue;
        }
        let leftover = budget / (base_warps * threads_per_warp) / 8 * 8;
        if leftover < 24 {
            continue;
        }
        let mut actual = vec![0; 1 + sizes.len()];
        actual[0] = leftover;
        for (partitions, registers, _) in &groups {
            for p in partitions {
                actual[1 + p] = *registers;
            }
        }
        set_dense_i32(ws, "actualRegisters", &actual);
        set_i32(&module, "ttg.maxnreg", max_registers as i64);
    }
    set_i32(&module, "ttg.total-num-warps", total_warps as i64);
    Ok(())
}
