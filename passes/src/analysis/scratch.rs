//! Shared memory an op needs for itself while it runs (its scratch), as the
//! lowering uses it: a layout conversion that moves elements between threads
//! goes through shared memory (every element at its row-major offset); a
//! reduction across warps keeps one partial result per output and warp along
//! the axis, one array per operand. The allocation pass and the lowering both
//! read these numbers, so they always agree.
use crate::ir::{name_of, tensor_parts};
use melior::ir::{operation::OperationLike, OperationRef, Type, ValueLike};
use tritium_dialects::layout::layout_of;
use tritium_layout::{Dim, LinearLayout};

/// Bytes of one element in shared memory (i1 as i8, pointers as 8 bytes).
pub fn element_bytes(ty: Type) -> usize {
    let text = ty.to_string();
    match text.as_str() {
        "f64" | "i64" => 8,
        "f16" | "bf16" | "i16" => 2,
        "i8" | "i1" => 1,
        _ if text.starts_with("f8") => 1,
        _ if text.starts_with("!tt.ptr") || text.starts_with("!llvm.ptr") => 8,
        _ => 4,
    }
}

fn linear(ty: Type) -> Option<(LinearLayout, Vec<i64>, Type)> {
    let (shape, element, encoding) = tensor_parts(ty)?;
    let layout = layout_of(encoding?).ok()?;
    Some((layout.to_linear(&shape).ok()?, shape, element))
}

fn bases(layout: &LinearLayout, dim: Dim) -> Vec<Vec<u32>> {
    layout.bases(&dim).cloned().unwrap_or_default()
}

/// Both layouts give every lane and warp the same elements: converting
/// between them only renames registers.
pub fn same_threads(a: &LinearLayout, b: &LinearLayout) -> bool {
    bases(a, Dim::Lane) == bases(b, Dim::Lane) && bases(a, Dim::Warp) == bases(b, Dim::Warp)
}

/// One reduction's scratch: an array per operand, `[output][warp slot]`.
pub struct ReduceScratch {
    pub slots: usize,
    pub outputs: usize,
    /// Byte offset of each operand's array.
    pub offsets: Vec<usize>,
    pub bytes: usize,
}

/// The scratch of a tt.reduce whose axis spans warps; `None` when warps
/// need not talk.
pub fn reduce_scratch(op: &OperationRef) -> Option<ReduceScratch> {
    let axis = crate::ir::int_attribute(op, "axis")? as usize;
    let (layout, shape, _) = linear(op.operand(0).ok()?.r#type())?;
    let warp_bits = bases(&layout, Dim::Warp).iter().filter(|b| b.get(axis).is_some_and(|x| *x != 0)).count();
    if warp_bits == 0 {
        return None;
    }
    let slots = 1usize << warp_bits;
    let outputs: usize = shape.iter().enumerate().filter(|(d, _)| *d != axis).map(|(_, s)| *s as usize).product();
    let mut offsets = Vec::new();
    let mut total = 0usize;
    for i in 0..op.operand_count() {
        let (_, element, _) = tensor_parts(op.operand(i).ok()?.r#type())?;
        let size = element_bytes(element);
        total = total.div_ceil(size) * size;
        offsets.push(total);
        total += outputs * slots * size;
    }
    Some(ReduceScratch { slots, outputs, offsets, bytes: total })
}

/// Bytes of scratch `op` needs (0 for most ops).
pub fn scratch_bytes(op: &OperationRef) -> usize {
    match name_of(op).as_str() {
        "ttg.convert_layout" => {
            let (Ok(src), Ok(dst)) = (op.operand(0), op.result(0)) else { return 0 };
            match (linear(src.r#type()), linear(dst.r#type())) {
                (Some((a, shape, element)), Some((b, _, _))) if !same_threads(&a, &b) => {
                    shape.iter().product::<i64>() as usize * element_bytes(element)
                }
                _ => 0,
            }
        }
        "tt.reduce" => reduce_scratch(op).map_or(0, |s| s.bytes),
        _ => 0,
    }
}
