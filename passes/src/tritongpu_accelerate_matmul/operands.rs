//! Placing the operands of a tensor-core dot: in registers in a
//! `#ttg.dot_op` layout of the MMA layout, or (wgmma) in shared memory in an
//! `#ttg.nvmma_shared` layout.
use super::elements::element_bits;
use super::slices::{backward_slice, defining_op};
use crate::dot_operand_layouts::{dot_operand_for, nvmma_shared_for, order_for_memory};
use crate::ir::{create, name_of, tensor_parts, tensor_type};
use crate::op_traits::{is_elementwise, is_memory_effect_free};
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, TypeLike, Value, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{ConvertLayoutOp, SrcOp};
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    pass::emit_warning,
    rewrite::Rewriter,
    types::{shared_memory_space, MemDesc},
};
use tritium_layout::Layout;

/// Where `value` was defined (upstream `Value::getLoc`).
pub use tritium_dialects::ir::location_of;

/// Ops that only view or move a shared-memory buffer (upstream's
/// `MemDescViewTrait`).
fn is_memdesc_view(name: &str) -> bool {
    matches!(
        name,
        "ttg.memdesc_index"
            | "ttg.memdesc_subslice"
            | "ttg.memdesc_trans"
            | "ttg.memdesc_reshape"
            | "ttg.memdesc_reinterpret"
    )
}

/// Whether `value` is, up to layout conversions, transposes and views, a
/// load from global memory (or a block argument): then it can go to shared
/// memory straight from the load (upstream `comesFromLoadOrBlockArg`).
pub fn comes_from_load_or_block_arg(value: Value) -> bool {
    let mut value = value;
    while let Some(op) = defining_op(value) {
        let name = name_of(&op);
        if !(name == "ttg.convert_layout" || name == "tt.trans" || is_memdesc_view(&name)) {
            return matches!(name.as_str(), "tt.load" | "tt.descriptor_load" | "tt.descriptor_gather");
        }
        let Some(source) = SrcOp::of(op).map(|op| op.src()) else { return false };
        value = source;
    }
    true
}

/// Ops through which a dot operand keeps the data it was loaded as: pure
/// element-wise ops, views, loads, broadcasts and conversions (upstream's
/// `bwdFilter`).
fn carries_loaded_data(op: &OperationRef) -> bool {
    (is_elementwise(op) && is_memory_effect_free(op))
        || matches!(
            name_of(op).as_str(),
            "tt.expand_dims"
                | "tt.reshape"
                | "tt.trans"
                | "tt.join"
                | "tt.split"
                | "ttg.fp4_to_fp"
                | "tt.load"
                | "tt.descriptor_load"
                | "tt.broadcast"
                | "ttg.convert_layout"
        )
}

/// The narrowest element width `value` was loaded from memory with
/// (upstream `computeOrigBitWidth`): an f16 operand upcast from fp8 loads
/// counts 8 bits, so its `kWidth` allows the wider loads. Unpacked fp4
/// counts 4 bits; a join halves the width, as layout propagation through it
/// halves the contiguity.
pub fn loaded_bit_width(value: Value) -> u32 {
    let slice = backward_slice(value, carries_loaded_data);
    let names: Vec<String> = slice.iter().map(name_of).collect();
    if names.iter().any(|n| n == "ttg.fp4_to_fp") {
        return 4;
    }
    let mut bits = element_bits(value.r#type());
    for (op, name) in slice.iter().zip(&names) {
        if name == "tt.load" || name == "tt.descriptor_load" {
            if let Some(loaded) = op.result_at(0).ok().filter(|r| r.r#type().is_ranked_tensor()) {
                bits = bits.min(element_bits(loaded.r#type()));
            }
        }
    }
    if names.iter().any(|n| n == "tt.join") {
        bits /= 2;
    }
    bits
}

/// Converts `value` to the `#ttg.dot_op` layout of operand `op_idx` of a
/// dot with result layout `mma`, with `kWidth` for `bits`-bit elements;
/// inserted at the rewriter's insertion point.
pub fn convert_to_dot_operand<'c: 'a, 'a>(
    rewriter: &Rewriter,
    value: Value<'c, 'a>,
    op_idx: u32,
    bits: u32,
    mma: &Layout,
) -> Result<Value<'c, 'a>, String> {
    let (shape, element, _) = tensor_parts(value.r#type()).ok_or("dot operands must be tensors")?;
    let layout = Layout::DotOperand(dot_operand_for(op_idx, mma.clone(), bits));
    let location = location_of(value);
    let attribute = attribute_of(&layout, location).ok_or("invalid dot operand layout")?;
    let converted: OperationRef<'c, 'a> = rewriter.insert(create(
        "ttg.convert_layout",
        location,
        &[value],
        &[tensor_type(&shape, element, Some(attribute))],
        &[],
    ));
    converted.result_at(0).map(Value::from).map_err(|e| e.to_string())
}

/// Puts operand `op_idx` of a wgmma into shared memory (upstream
/// `getSharedMemoryMMAOperand`): the tensor it is converted from is stored,
/// right where it is defined, in the NVMMA layout of its preferred memory
/// order, or in the order wgmma requires when it cannot transpose the type
/// (K contiguous), with a warning since the stores then transpose.
pub fn shared_memory_operand<'c: 'a, 'a>(
    rewriter: &Rewriter,
    dot: &OperationRef<'c, 'a>,
    value: Value<'c, 'a>,
    op_idx: u32,
    allow_transpose: bool,
) -> Result<Value<'c, 'a>, String> {
    let mut source = value;
    while let Some(convert) = defining_op(source).and_then(ConvertLayoutOp::of) {
        source = convert.src();
    }
    let (shape, element, encoding) = tensor_parts(source.r#type()).ok_or("dot operands must be tensors")?;
    let layout = layout_of(encoding.ok_or("dot operands must have a layout")?).map_err(|e| e.to_string())?;
    let order = order_for_memory(&layout, &shape).map_err(|e| e.to_string())?;
    let mut stored_order = order.clone();
    if !allow_transpose {
        stored_order = if op_idx == 1 { vec![0, 1] } else { vec![1, 0] };
    }
    if stored_order != order {
        emit_warning(
            dot.location(),
            &format!(
                "Warning: Forcing a different order [{}, {}] on SMEM than the register order for the operand {op_idx}. \
                 Registers will be transposed before SMEM store and the pipelined load for this operand will be \
                 disabled, so poor performance is expected. Recommendation: consider transposing the operand in global \
                 memory to remove the need to transpose the tensor in registers.",
                stored_order[0], stored_order[1]
            ),
        );
    }
    let cta = layout.cta_layout().map_err(|e| e.to_string())?;
    let shared = nvmma_shared_for(&shape, &stored_order, cta, element_bits(element), false);
    let location = location_of(source);
    let encoding = attribute_of(&Layout::NvmmaShared(shared), location).ok_or("invalid shared layout")?;
    let context = location.context();
    let memory_space = shared_memory_space(unsafe { context.to_ref() });
    let buffer = MemDesc {
        shape: shape.clone(),
        element_type: element,
        encoding,
        memory_space,
        mutable: false,
        alloc_shape: shape,
    }
    .to_type(location)
    .ok_or("invalid shared memory buffer type")?;
    set_insertion_point_after(rewriter, source)?;
    let alloc: OperationRef<'c, 'a> = rewriter.insert(create("ttg.local_alloc", location, &[source], &[buffer], &[]));
    rewriter.set_insertion_point_before(dot);
    alloc.result_at(0).map(Value::from).map_err(|e| e.to_string())
}

/// Makes new ops go right after the definition of `value` (at the start of
/// its block for a block argument).
fn set_insertion_point_after(rewriter: &Rewriter, value: Value) -> Result<(), String> {
    let next = match defining_op(value) {
        Some(op) => op.next_in_block(),
        None => {
            let block = tritium_dialects::ir::argument_owner(value).ok_or("a value neither result nor argument")?;
            block.first_operation()
        }
    };
    let next = next.ok_or("cannot insert after the definition of a dot operand")?;
    rewriter.set_insertion_point_before(&next);
    Ok(())
}
