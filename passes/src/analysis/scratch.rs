//! Shared memory an op needs for itself while it runs (its scratch), as the
//! lowering uses it: a layout conversion that moves elements between threads
//! goes through shared memory, in as many rounds as upstream splits it into
//! (`tritium_layout::swizzling`); a
//! reduction across warps keeps one partial result per output and warp along
//! the axis, one array per operand; a scan across warps, an atomic whose
//! result is used, a gather across warps and a histogram take upstream's
//! sizes (see `scan_scratch`, `atomic_scratch_bytes`, `gather_scratch_bytes`,
//! `histogram_scratch_bytes`). The allocation pass and the lowering both
//! read these numbers, so they always agree.
use crate::ir::{name_of, tensor_parts};
use melior::ir::{operation::OperationLike, OperationRef, Type, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::layout::layout_of;
use tritium_dialects::views::{AtomicOp, ConvertLayoutOp, GatherOp, ReductionOp};
use tritium_layout::{
    convert::cvt_needs_warp_shuffle, kinds::LinearEncoding, swizzling::conversion_rounds_log2, Dim, Layout,
    LinearLayout,
};

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
    let srcs = ReductionOp::of(*op)?.srcs();
    let (layout, shape, _) = linear(srcs.first()?.r#type())?;
    let warp_bits = bases(&layout, Dim::Warp).iter().filter(|b| b.get(axis).is_some_and(|x| *x != 0)).count();
    if warp_bits == 0 {
        return None;
    }
    let slots = 1usize << warp_bits;
    let outputs: usize = shape.iter().enumerate().filter(|(d, _)| *d != axis).map(|(_, s)| *s as usize).product();
    let mut offsets = Vec::new();
    let mut total = 0usize;
    for src in srcs {
        let (_, element, _) = tensor_parts(src.r#type())?;
        let size = element_bytes(element);
        total = total.div_ceil(size) * size;
        offsets.push(total);
        total += outputs * slots * size;
    }
    Some(ReduceScratch { slots, outputs, offsets, bytes: total })
}

/// One scan's scratch, as upstream sizes it: for every warp, the partial
/// results of its non-axis elements in every block of the tensor (a block
/// being what one layout tile covers), one array of `elements` per operand.
pub struct ScanScratch {
    pub elements: usize,
    /// Byte offset of each operand's array.
    pub offsets: Vec<usize>,
    pub bytes: usize,
}

/// The scratch of a tt.scan whose axis spans warps; `None` when warps need
/// not talk, or when the layout is not a blocked one (no scan lowering).
pub fn scan_scratch(op: &OperationRef) -> Option<ScanScratch> {
    let axis = crate::ir::int_attribute(op, "axis")? as usize;
    let srcs = ReductionOp::of(*op)?.srcs();
    let (shape, _, encoding) = tensor_parts(srcs.first()?.r#type())?;
    if !matches!(layout_of(encoding?).ok()?, Layout::Blocked(_)) {
        return None;
    }
    // The layout without its broadcast registers, queried as upstream
    // queries a linear encoding.
    let (layout, _, _) = linear(srcs[0].r#type())?;
    let encoding = LinearEncoding::new(layout.remove_zero_bases_along_dim(&Dim::Register).ok()?).ok()?;
    let (contig, threads, warps) =
        (encoding.contig_per_thread(), encoding.threads_per_warp(), encoding.warps_per_cta());
    if warps[axis] == 1 {
        return None;
    }
    let product = |v: &[u32]| v.iter().map(|x| *x as usize).product::<usize>();
    let non_axis_per_warp = product(&threads) / threads[axis] as usize * (product(&contig) / contig[axis] as usize);
    let blocks: usize =
        (0..shape.len()).map(|d| (shape[d] as usize).div_ceil((contig[d] * threads[d] * warps[d]) as usize)).product();
    let elements = product(&warps) * non_axis_per_warp * blocks;
    // As upstream, the arrays go widest element first, so that every array
    // is aligned to its element size.
    let sizes: Vec<usize> = srcs
        .iter()
        .map(|src| tensor_parts(src.r#type()).map(|(_, element, _)| element_bytes(element)))
        .collect::<Option<_>>()?;
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    let mut offsets = vec![0; sizes.len()];
    let mut total = 0usize;
    for i in order {
        offsets[i] = total;
        total += elements * sizes[i];
    }
    Some(ScanScratch { elements, offsets, bytes: total })
}

/// A tt.atomic_rmw or tt.atomic_cas whose old value is used, as upstream
/// sizes it: on a single address, one thread does the atomic and passes the
/// value to the others through one element of scratch; on a tensor whose
/// layout holds some elements in several registers or threads, each element
/// is updated once and its old value goes to the others through a scratch
/// holding the whole tensor (row-major).
pub fn atomic_scratch_bytes(op: &OperationRef) -> usize {
    let (Some(atomic), Ok(result)) = (AtomicOp::of(*op), op.result_at(0)) else { return 0 };
    let pointer = atomic.ptr();
    if crate::analysis::slice::users(result.into()).is_empty() {
        return 0;
    }
    match linear(pointer.r#type()) {
        Some((layout, shape, _)) => {
            if layout.free_variable_masks().iter().all(|(_, mask)| *mask == 0) {
                return 0;
            }
            shape.iter().product::<i64>() as usize * element_bytes(result_element(result.r#type()))
        }
        None if tensor_parts(pointer.r#type()).is_some() => 0,
        None => element_bytes(result.r#type()),
    }
}

/// The element type of a tensor type, or the type itself.
fn result_element(ty: Type) -> Type {
    tensor_parts(ty).map_or(ty, |(_, element, _)| element)
}

/// Whether a tt.gather can be done within each warp (upstream's
/// GatherLoweringHelper::isWarpLocal): along the gather axis every column of
/// the source and of the indices lies in one warp, the same warp for both,
/// and the lanes holding a column are the same in both layouts. Then the
/// lowering shuffles; otherwise the source goes through shared memory.
pub fn gather_is_warp_local(op: &OperationRef) -> Option<bool> {
    let axis = crate::ir::int_attribute(op, "axis")? as usize;
    let gather = GatherOp::of(*op)?;
    let (src, _, _) = linear(gather.src().r#type())?;
    let (idx, _, _) = linear(gather.indices().r#type())?;
    let gather_dim = [Dim::Axis(axis)];
    let warps: Vec<Dim> =
        [Dim::Warp, Dim::Block].into_iter().filter(|d| src.has_in_dim(d) && idx.has_in_dim(d)).collect();
    if !src.sublayout_is_zero(&warps, &gather_dim).ok()? || !idx.sublayout_is_zero(&warps, &gather_dim).ok()? {
        return Some(false);
    }
    let others: Vec<Dim> = (0..src.num_out_dims()).filter(|d| *d != axis).map(Dim::Axis).collect();
    let same =
        |ins: &[Dim]| -> Option<bool> { Some(src.sublayout(ins, &others).ok()? == idx.sublayout(ins, &others).ok()?) };
    Some(same(&warps)? && same(&[Dim::Lane])?)
}

/// A tt.gather that is not warp-local writes its whole source to scratch.
pub fn gather_scratch_bytes(op: &OperationRef) -> usize {
    if gather_is_warp_local(op) != Some(false) {
        return 0;
    }
    GatherOp::of(*op)
        .and_then(|gather| tensor_parts(gather.src().r#type()))
        .map_or(0, |(shape, element, _)| shape.iter().product::<i64>() as usize * element_bytes(element))
}

/// A tt.histogram accumulates its bins in scratch: one counter per bin, at
/// least one per lane of a warp (upstream's size).
pub fn histogram_scratch_bytes(op: &OperationRef) -> usize {
    op.result_at(0)
        .ok()
        .and_then(|r| tensor_parts(r.r#type()))
        .map_or(0, |(shape, element, _)| (shape.iter().product::<i64>() as usize).max(32) * element_bytes(element))
}

/// The compute capability of the module's `ttg.target` (`cuda:90` -> 90);
/// 90 when it has none.
pub fn module_capability(module: &OperationRef) -> u32 {
    tritium_dialects::target::module_capability(module).unwrap_or(90)
}

/// [`module_capability`] of the module that holds `op`.
pub fn enclosing_capability(op: &OperationRef) -> u32 {
    crate::ir::enclosing_module(*op).map_or(90, |module| module_capability(&module))
}

/// Bytes of a TMA tensormap (CUtensorMap), built in shared memory by
/// `ttng.tensormap_create` at a 128-byte aligned address.
pub const TENSORMAP_BYTES: usize = 128;

/// Bytes of scratch `op` needs (0 for most ops) on a GPU of `capability`
/// (conversions split into rounds as upstream does there).
pub fn scratch_bytes(op: &OperationRef, capability: u32) -> usize {
    match name_of(op).as_str() {
        "ttg.convert_layout" => {
            let (Some(convert), Ok(dst)) = (ConvertLayoutOp::of(*op), op.result_at(0)) else { return 0 };
            let src = convert.src();
            match (linear(src.r#type()), linear(dst.r#type())) {
                // None where the threads keep their elements or warp
                // shuffles move them (upstream's cvtNeedsSharedMemory).
                (Some((a, shape, element)), Some((b, _, _)))
                    if !same_threads(&a, &b) && !cvt_needs_warp_shuffle(&a, &b).unwrap_or(false) =>
                {
                    let bytes = element_bytes(element);
                    let rounds = conversion_rounds_log2(&a, &b, 8 * bytes as u32, capability).unwrap_or(0);
                    (shape.iter().product::<i64>() as usize >> rounds) * bytes
                }
                _ => 0,
            }
        }
        "tt.reduce" => reduce_scratch(op).map_or(0, |s| s.bytes),
        "tt.scan" => scan_scratch(op).map_or(0, |s| s.bytes),
        "tt.atomic_rmw" | "tt.atomic_cas" => atomic_scratch_bytes(op),
        "tt.gather" => gather_scratch_bytes(op),
        "tt.histogram" => histogram_scratch_bytes(op),
        "ttg.warp_specialize" => warp_specialize_capture_bytes(op),
        "tt.func" => warp_state_bytes(op),
        // The tensormap is built in shared memory, then copied to global.
        "ttng.tensormap_create" => TENSORMAP_BYTES,
        _ => 0,
    }
}

/// Whether the lowering of `op`, an op with scratch, separates its scratch
/// writes from its reads with a barrier of the whole CTA (which then also
/// orders every earlier shared-memory access): all such ops but layout
/// conversions each warp does alone (a warp barrier), and atomics whose old
/// values no other thread needs (no barrier at all; only duplicated
/// registers, no duplicated lanes or warps).
pub fn scratch_synchronizes_cta(op: &OperationRef) -> bool {
    match name_of(op).as_str() {
        "ttg.convert_layout" => {
            let (Some(convert), Ok(dst)) = (ConvertLayoutOp::of(*op), op.result_at(0)) else { return false };
            let src = convert.src();
            match (linear(src.r#type()), linear(dst.r#type())) {
                (Some((a, _, _)), Some((b, _, _))) => !tritium_layout::convert::is_warp_synchronous_conversion(&a, &b),
                _ => false,
            }
        }
        "tt.atomic_rmw" | "tt.atomic_cas" => {
            let Some(atomic) = AtomicOp::of(*op) else { return false };
            let pointer = atomic.ptr();
            match linear(pointer.r#type()) {
                Some((layout, _, _)) => [Dim::Lane, Dim::Warp]
                    .into_iter()
                    .any(|dim| bases(&layout, dim).iter().any(|basis| basis.iter().all(|&x| x == 0))),
                // A scalar atomic: one thread's old value goes to all.
                None => true,
            }
        }
        _ => true,
    }
}

/// Bytes of one capture of `ttg.warp_specialize` in the packed struct the
/// default warps hand it over in (upstream's sizes: a shared-memory
/// descriptor as base pointer and one i32 offset per dimension; Tritium's
/// lowering passes only the pointer, so this is an upper bound). Tensors
/// cannot be captured (each thread holds different registers).
pub fn capture_bytes(ty: Type) -> usize {
    if let Some(memdesc) = tritium_dialects::types::MemDesc::of(ty) {
        return 8 + 4 * memdesc.shape.len();
    }
    if ty.to_string().starts_with("!tt.tensordesc") {
        return 8; // its address
    }
    element_bytes(ty) // scalars; pointers are 8
}

/// `ttg.warp_specialize` passes its captures through shared memory.
pub fn warp_specialize_capture_bytes(op: &OperationRef) -> usize {
    (0..op.operand_count()).map(|i| capture_bytes(op.operand(i).unwrap().r#type())).sum()
}

/// The alignment of `ttg.warp_specialize`'s packed captures, as upstream's
/// capture alignment: the largest natural alignment of a capture (8 for
/// pointers, memdescs and descriptors), at least 1.
pub fn warp_specialize_capture_alignment(op: &OperationRef) -> usize {
    (0..op.operand_count())
        .filter_map(|i| op.operand(i).ok())
        .map(|v| {
            let ty = v.r#type();
            if tritium_dialects::types::MemDesc::of(ty).is_some() || ty.to_string().starts_with("!tt.tensordesc") {
                8
            } else {
                element_bytes(ty).clamp(1, 8)
            }
        })
        .max()
        .unwrap_or(1)
}

/// A kernel with `ttg.warp_specialize` tells each worker warp what to run
/// through one byte per warp, for the whole kernel.
pub fn warp_state_bytes(function: &OperationRef) -> usize {
    crate::ir::collect_ops(*function, crate::ir::Order::Pre)
        .iter()
        .filter(|o| name_of(o) == "ttg.warp_specialize")
        .filter_map(|o| crate::ir::dense_i32_attribute(o, "partitionNumWarps"))
        .map(|warps| warps.iter().sum::<i32>() as usize)
        .max()
        .unwrap_or(0)
}
