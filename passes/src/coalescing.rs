//! How to lay out a global memory access for coalescing (upstream
//! `CoalesceUtils.cpp` and the helpers of `TritonGPU/Transforms/Utility.cpp`
//! it uses): each thread takes as many contiguous elements along the most
//! contiguous dim as the axis info proves contiguous and aligned, up to 128
//! bits, and threads then warps fill the tensor from that dim outwards.
use crate::analysis::{axis_info::ModuleAxisInfo, slice::slice, type_facts::access_bit_width};
use crate::ir::{fail, name_of, tensor_parts};
use melior::ir::{OperationRef, Value, ValueLike};
use tritium_dialects::views::{AsyncCopyGlobalToLocalOp, AtomicOp, LoadOp, StoreOp};
use tritium_dialects::{layout::layout_of, pass::PassFailed, types::is_pointer};
use tritium_layout::{blocked_with_cta, Blocked, CtaLayout};

/// The pointer (tensor) a global memory access reads or writes through
/// (upstream `getMemAccessPtr`); `None` for other ops.
pub fn accessed_pointer<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    match name_of(op).as_str() {
        "tt.load" => LoadOp::of(*op).map(|load| load.ptr()),
        "tt.store" => StoreOp::of(*op).map(|store| store.ptr()),
        "tt.atomic_rmw" | "tt.atomic_cas" => AtomicOp::of(*op).map(|atomic| atomic.ptr()),
        "ttg.async_copy_global_to_local" => AsyncCopyGlobalToLocalOp::of(*op).map(|copy| copy.src()),
        _ => None,
    }
}

/// Whether `value` is a ranked tensor of pointers.
pub fn is_pointer_tensor(value: Value) -> bool {
    tensor_parts(value.r#type()).is_some_and(|(_, element, _)| is_pointer(element))
}

/// Dims from most to least contiguous, ties in increasing dim order
/// (upstream `getOrderFromContiguity` as the Triton 3.6.0 release builds it:
/// a stable sort of `0..rank`. The 3.6 sources' version starts from the
/// reversed dims, putting the last dim first among ties; the release's
/// output is what Tritium matches).
pub fn order_from_contiguity(contiguity: &[i64]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..contiguity.len() as u32).collect();
    order.sort_by(|&a, &b| contiguity[b as usize].cmp(&contiguity[a as usize]));
    order
}

/// The machine a layout is for.
#[derive(Clone, Copy, Debug)]
pub struct Threads {
    pub num_warps: u32,
    pub threads_per_warp: u32,
}

/// The coalesced layout for the memory access `op` (upstream
/// `buildCoalescedEncoding`).
pub fn coalesced_layout(op: OperationRef, axis: &ModuleAxisInfo, threads: Threads) -> Result<Blocked, PassFailed> {
    let pointer = accessed_pointer(&op).ok_or_else(|| fail(&op, "memory access expected"))?;
    let (shape, _, encoding) =
        tensor_parts(pointer.r#type()).ok_or_else(|| fail(&op, "tensor of pointers expected"))?;
    let layout = encoding
        .ok_or_else(|| fail(&op, "the pointer tensor has no layout"))
        .and_then(|e| layout_of(e).map_err(|e| fail(&op, e.to_string())))?;
    let cta = layout.cta_layout().map_err(|e| fail(&op, e.to_string()))?;
    let per_cta_shape = layout.shape_per_cta(&shape).map_err(|e| fail(&op, e.to_string()))?;
    let info = axis.get(pointer).ok_or_else(|| fail(&op, "no axis info for the pointer"))?;
    let order = order_from_contiguity(&info.contiguity);

    // Other accesses of the same shape and order connected to this one may
    // prove a wider vector for the same pointers' layout: take the widest.
    let mut per_thread = elements_per_thread(op, &order, axis, &per_cta_shape)?;
    // (Upstream only looks when the pointers are computed here, not when
    // they are block arguments such as loop-carried pointers.)
    if pointer.is_operation_result() {
        for other in slice(op).into_iter().skip(1) {
            let Some(other_pointer) = accessed_pointer(&other) else { continue };
            let same_shape = tensor_parts(other_pointer.r#type()).is_some_and(|(s, _, _)| s == shape);
            let same_order = axis.get(other_pointer).is_some_and(|i| order_from_contiguity(&i.contiguity) == order);
            if same_shape && same_order {
                per_thread = per_thread.max(elements_per_thread(other, &order, axis, &per_cta_shape)?);
            }
        }
    }
    // Do not give threads more than their share of the tensor.
    let elements = per_cta_shape.iter().product::<i64>();
    let thread_count = i64::from(threads.num_warps) * i64::from(threads.threads_per_warp);
    per_thread = per_thread.min(u32::try_from((elements / thread_count).max(1)).unwrap_or(u32::MAX));
    if name_of(&op) != "tt.load" {
        // Writes wider than 128 bits per thread leave gaps at the warp level
        // (loads do not care, the L1 cache absorbs them).
        per_thread = per_thread.min(elements_per_thread(op, &order, axis, &per_cta_shape)?);
    }
    if per_thread == 0 {
        return Err(fail(&op, "axis info gives the pointers a contiguity of 0"));
    }
    let mut size_per_thread = vec![1; shape.len()];
    size_per_thread[order[0] as usize] = per_thread;
    blocked_for_shape(&shape, size_per_thread, order, threads, cta).map_err(|message| fail(&op, message))
}

/// How many elements of `op`'s pointers along `order[0]` one thread can
/// access at once: contiguous and aligned ones, at most 128 bits (upstream
/// `getNumElementsPerThread`).
fn elements_per_thread(
    op: OperationRef,
    order: &[u32],
    axis: &ModuleAxisInfo,
    per_cta_shape: &[i64],
) -> Result<u32, PassFailed> {
    let pointer = accessed_pointer(&op).ok_or_else(|| fail(&op, "memory access expected"))?;
    let info = axis.get(pointer).ok_or_else(|| fail(&op, "no axis info for the pointer"))?;
    let bits = access_bit_width(pointer.r#type())
        .filter(|&b| b > 0)
        .ok_or_else(|| fail(&op, "element with a bit width expected"))?;
    let dim = order[0] as usize;
    let (Some(&divisibility), Some(&contiguity), Some(&extent)) =
        (info.divisibility.get(dim), info.contiguity.get(dim), per_cta_shape.get(dim))
    else {
        return Err(fail(&op, "axis info rank differs from the pointer rank"));
    };
    // Upstream holds these in 32-bit unsigned integers: a divisibility of
    // 2^32 or more wraps (to 0 for powers of two), which counts as 1.
    let multiple = ((divisibility as u32) / (bits / 8).max(1)).max(1);
    let contiguous = contiguity.min(extent) as u32;
    Ok(multiple.min(contiguous).min(128 / bits))
}

/// A blocked layout with the given `size_per_thread` and `order` for a
/// tensor of `shape` on `cta` (upstream's `BlockedEncodingAttr::get(shape,
/// sizePerThread, order, numWarps, threadsPerWarp, CTALayout)`, see
/// [`blocked_with_cta`]).
pub fn blocked_for_shape(
    shape: &[i64],
    size_per_thread: Vec<u32>,
    order: Vec<u32>,
    threads: Threads,
    cta: CtaLayout,
) -> Result<Blocked, String> {
    blocked_with_cta(shape, &size_per_thread, &order, threads.num_warps, threads.threads_per_warp, cta)
        .map_err(|e| e.to_string())
}
