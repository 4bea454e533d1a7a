//! `tritongpu-coalesce` (upstream `Coalesce.cpp`): gives every global memory
//! access a layout that makes its threads access memory in wide,
//! contiguous chunks.
//!
//! For accesses through tensors of pointers (`tt.load`, `tt.store`,
//! `tt.atomic_rmw`, `tt.atomic_cas`, `ttg.async_copy_global_to_local`) the
//! layout comes from the axis info of the pointers (see
//! [`crate::coalescing`]); tensor-descriptor accesses get up to 16 bytes
//! per thread along the last dim. The access is then rewritten to that
//! layout: every tensor operand goes through a `ttg.convert_layout` to it,
//! and tensor results are converted back to their old layout, so the rest of
//! the IR is unchanged (later passes remove the conversions they can).
use crate::analysis::axis_info::ModuleAxisInfo;
use crate::analysis::type_facts::bit_width;
use crate::coalescing::{accessed_pointer, blocked_for_shape, coalesced_layout, is_pointer_tensor, Threads};
use crate::ir::{collect_ops, create, fail, name_of, set_type, tensor_parts, tensor_type, Order};
use melior::ir::{operation::OperationLike, Attribute, BlockLike, OperationRef, Value, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{DescriptorScatterOp, DescriptorStoreOp};
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    pass::{PassDefinition, PassFailed, PassOptions, PassResult},
    target::{lookup_num_warps, ModuleConfig},
};
use tritium_layout::{utils::matrix_order, Blocked, Layout};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-coalesce",
    description: "Give global memory accesses layouts that coalesce their memory transactions",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    // Upstream looks up the number of warps of every op, the module
    // included, and fails without it.
    let config = ModuleConfig::of(&module).map_err(|e| fail(&module, e.0))?;
    config.num_warps().map_err(|e| fail(&module, e.0))?;
    // Layouts are all chosen on the IR as it is, then applied.
    let axis = ModuleAxisInfo::analyze(module)?;
    let threads_per_warp = config.threads_per_warp;
    let ops = collect_ops(module, Order::Post);
    let mut plan: Vec<(OperationRef, Blocked)> = Vec::new();
    for op in &ops {
        if accessed_pointer(op).is_some_and(is_pointer_tensor) {
            plan.push((*op, coalesced_layout(*op, &axis, threads_of(*op, threads_per_warp)?)?));
        }
    }
    for op in &ops {
        if let Some(data) = descriptor_data(op) {
            plan.push((*op, descriptor_layout(*op, data, threads_of(*op, threads_per_warp)?)?));
        }
    }
    for (op, layout) in plan {
        let attribute = attribute_of(&Layout::Blocked(layout), op.location()).ok_or(PassFailed)?;
        convert_access_layout(op, attribute)?;
    }
    Ok(())
}

fn threads_of(op: OperationRef, threads_per_warp: u32) -> Result<Threads, PassFailed> {
    let num_warps = lookup_num_warps(&op).map_err(|e| fail(&op, e.0))?.ok_or_else(|| {
        fail(&op, "is not contained within a context that specifies the number of warps (ttg.num-warps)")
    })?;
    Ok(Threads { num_warps, threads_per_warp })
}

/// The tensor a tensor-descriptor access moves: the result of a load or
/// gather, the source of a store, reduce or scatter.
fn descriptor_data<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    match name_of(op).as_str() {
        "tt.descriptor_load" | "tt.descriptor_gather" => op.result_at(0).ok().map(Value::from),
        "tt.descriptor_store" | "tt.descriptor_reduce" => DescriptorStoreOp::of(*op).map(|store| store.src()),
        "tt.descriptor_scatter" => DescriptorScatterOp::of(*op).map(|scatter| scatter.src()),
        _ => None,
    }
}

/// A layout for a tensor-descriptor access (upstream
/// `pickDescriptorLoadStoreLayout`): these go through shared memory, not
/// L1, so only vectorization matters: each thread takes its share of the
/// tensor, at most 16 bytes, along the last dim.
fn descriptor_layout(op: OperationRef, data: Value, threads: Threads) -> Result<Blocked, PassFailed> {
    let (shape, element, encoding) = tensor_parts(data.r#type()).ok_or_else(|| fail(&op, "tensor expected"))?;
    let layout = encoding
        .ok_or_else(|| fail(&op, "the accessed tensor has no layout"))
        .and_then(|e| layout_of(e).map_err(|e| fail(&op, e.to_string())))?;
    let per_cta_shape = layout.shape_per_cta(&shape).map_err(|e| fail(&op, e.to_string()))?;
    let elements = per_cta_shape.iter().product::<i64>();
    let thread_count = i64::from(threads.num_warps) * i64::from(threads.threads_per_warp);
    let per_thread = u32::try_from((elements / thread_count).max(1)).unwrap_or(u32::MAX);
    let bits = bit_width(element).filter(|&b| b > 0).ok_or_else(|| fail(&op, "element with a bit width expected"))?;
    let mut size_per_thread = vec![1; shape.len()];
    if let Some(last) = size_per_thread.last_mut() {
        *last = per_thread.min(128 / bits).max(1);
    }
    let cta = layout.cta_layout().map_err(|e| fail(&op, e.to_string()))?;
    blocked_for_shape(&shape, size_per_thread, matrix_order(shape.len(), true), threads, cta)
        .map_err(|message| fail(&op, message))
}

/// Rewrites `op` to work in `layout` (upstream
/// `convertDistributedOpEncoding`): tensor operands are converted to it
/// (even when they already have it, as upstream does), tensor results are
/// retyped and converted back for their users. The offsets of descriptor
/// gathers and scatters keep their layout, and so does the token of an
/// async copy.
fn convert_access_layout(op: OperationRef, layout: Attribute) -> Result<(), PassFailed> {
    let location = op.location();
    let block = op.block().ok_or_else(|| fail(&op, "op in a block expected"))?;
    let name = name_of(&op);
    let keeps_layout =
        |index: usize| matches!(name.as_str(), "tt.descriptor_gather" | "tt.descriptor_scatter") && index == 1;
    for index in 0..op.operand_count() {
        let operand = op.operand_at(index).map_err(|_| fail(&op, "operand expected"))?;
        let Some((shape, element, _)) = tensor_parts(operand.r#type()) else { continue };
        if keeps_layout(index) {
            continue;
        }
        let to_layout =
            create("ttg.convert_layout", location, &[operand], &[tensor_type(&shape, element, Some(layout))], &[]);
        let converted = block.insert_operation_before(op, to_layout);
        let converted: Value = converted.result_at(0).map_err(|_| fail(&op, "conversion result expected"))?.into();
        tritium_dialects::ir::set_operand(&op, index, converted);
    }
    if name == "ttg.async_copy_global_to_local" {
        return Ok(());
    }
    let mut last = op;
    for index in 0..op.result_count() {
        let result: Value = op.result_at(index).map_err(|_| fail(&op, "result expected"))?.into();
        let old_type = result.r#type();
        let Some((shape, element, _)) = tensor_parts(old_type) else { continue };
        let new_type = tensor_type(&shape, element, Some(layout));
        if new_type == old_type {
            continue;
        }
        set_type(result, new_type);
        let back = create("ttg.convert_layout", location, &[result], &[old_type], &[]);
        let back = block.insert_operation_after(last, back);
        last = back;
        let back_value: Value = back.result_at(0).map_err(|_| fail(&op, "conversion result expected"))?.into();
        // The conversion back is the one use to keep.
        tritium_dialects::ir::replace_all_uses_except(result, back_value, &back);
    }
    Ok(())
}
