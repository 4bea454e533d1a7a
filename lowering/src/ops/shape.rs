//! Ops that change a tensor's shape without moving data between threads
//! (make_range, splat, broadcast, expand_dims, reshape, trans, join, split):
//! each result register takes the operand register that holds the same
//! element, found through the two layouts.
use crate::{
    builder::V,
    emit::{LowerError, Lowering, Result},
    layout::TensorLayout,
};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{JoinOp, SplitOp, SrcOp};

pub fn lower_splat<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let scalar = l.operand(&op, 0)?;
    if scalar.len() != 1 {
        return Err(LowerError::at(&op, "splat of a tensor is not supported"));
    }
    let layout = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    l.set_result(&op, 0, vec![scalar[0]; layout.num_registers()]);
    Ok(())
}

pub fn lower_unsplat<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let registers = l.operand(&op, 0)?;
    l.set_result(&op, 0, vec![registers[0]]);
    Ok(())
}

pub fn lower_broadcast<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    remap(l, op, Remap::Broadcast)
}

pub fn lower_expand_dims<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    remap(l, op, Remap::ExpandDims)
}

pub fn lower_trans<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    remap(l, op, Remap::Trans)
}

pub fn lower_reshape<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    remap(l, op, Remap::Reshape)
}

pub fn lower_make_range<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let start = crate::int_attribute(&op, "start").unwrap_or(0);
    let layout = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    let mut registers = Vec::with_capacity(layout.num_registers());
    // The start is added even when it is 0, as upstream does, with an
    // `llvm.add` (an `arith.addi` of 0 would fold away in the conversion to
    // LLVM; LLVM's O3 folds it): the LLVM-dialect shape upstream's lit tests
    // count adds in (Conversion/dedup-by-constancy.mlir).
    let offset = l.b.i32_const(start);
    let i32 = l.b.i32();
    for r in 0..layout.num_registers() {
        let coordinate = l.coordinate(&layout, r, 0);
        registers.push(l.b.op1("llvm.add", &[coordinate, offset], i32, &[]));
    }
    l.set_result(&op, 0, registers);
    Ok(())
}

/// For each register of `dst`, the register of `src` holding the element at
/// `to_source(coordinates in dst)`. The lane and warp bases must agree too:
/// otherwise the op would move data between threads.
pub fn register_map(
    src: &TensorLayout,
    dst: &TensorLayout,
    to_source: &dyn Fn(&[u32]) -> Vec<u32>,
) -> std::result::Result<Vec<usize>, String> {
    same_threads(src, dst, to_source)?;
    let mut index: HashMap<&[u32], usize> = HashMap::new();
    for (r, coords) in src.register_coords.iter().enumerate() {
        index.entry(coords.as_slice()).or_insert(r);
    }
    dst.register_coords
        .iter()
        .map(|coords| {
            let wanted = to_source(coords);
            index.get(wanted.as_slice()).copied().ok_or_else(|| {
                "a result register holds an element no operand register of this thread holds".to_string()
            })
        })
        .collect()
}

/// Maps a coordinate of a result to the coordinate of the source element it copies.
type SourceCoordinates = Box<dyn Fn(&[u32]) -> Vec<u32>>;

/// Checks that each lane and warp holds, in `dst`, the elements that map to
/// the ones it holds in `src`.
pub fn same_threads(
    src: &TensorLayout,
    dst: &TensorLayout,
    to_source: &dyn Fn(&[u32]) -> Vec<u32>,
) -> std::result::Result<(), String> {
    for (which, dst_bases, src_bases) in
        [("lane", &dst.lane_bases, &src.lane_bases), ("warp", &dst.warp_bases, &src.warp_bases)]
    {
        let mapped: Vec<Vec<u32>> = dst_bases.iter().map(|b| to_source(b)).collect();
        if &mapped != src_bases {
            return Err(format!(
                "the {which}s of the operand and the result hold different elements; a ttg.convert_layout is needed"
            ));
        }
    }
    Ok(())
}

/// Whether `src` and `dst` hold as many registers, replicated alike (the
/// same duplicate registers, the same lanes and warps holding copies), so
/// that handing each thread's registers over in order gives a permutation of
/// the elements: what a `tt.reshape` with `allow_reorder` may do, and what
/// upstream's lowering does when the elements do not stay in their threads
/// (a whole-tensor `tl.sum` reshapes to 1-D that way).
fn same_replication(src: &TensorLayout, dst: &TensorLayout) -> bool {
    let first_copies = |t: &TensorLayout| -> Vec<usize> {
        (0..t.num_registers())
            .map(|r| t.register_coords.iter().position(|c| *c == t.register_coords[r]).unwrap())
            .collect()
    };
    src.num_registers() == dst.num_registers()
        && first_copies(src) == first_copies(dst)
        && src.free_lane_mask() == dst.free_lane_mask()
        && src.free_warp_mask() == dst.free_warp_mask()
        && src.lane_bases.len() == dst.lane_bases.len()
        && src.warp_bases.len() == dst.warp_bases.len()
}

/// The shape ops whose result registers are operand registers, each at the
/// element the op maps it from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Remap {
    Broadcast,
    ExpandDims,
    Trans,
    Reshape,
}

fn remap<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, kind: Remap) -> Result<()> {
    let src_type = crate::ops::view(op, SrcOp::of)?.src().r#type();
    let dst_type = op.result_at(0).unwrap().r#type();
    let (src, dst) = (l.tensor_layout(&op, src_type)?, l.tensor_layout(&op, dst_type)?);
    let (src_shape, dst_shape) = (src.shape.clone(), dst.shape.clone());
    let to_source: SourceCoordinates = match kind {
        Remap::Broadcast => Box::new(move |c: &[u32]| {
            c.iter().zip(&src_shape).map(|(x, size)| if *size == 1 { 0 } else { *x }).collect()
        }),
        Remap::ExpandDims => {
            let axis = crate::int_attribute(&op, "axis").unwrap_or(0) as usize;
            Box::new(move |c: &[u32]| c.iter().enumerate().filter(|(d, _)| *d != axis).map(|(_, x)| *x).collect())
        }
        Remap::Trans => {
            let order = crate::dense_i32_attribute(&op, "order").ok_or_else(|| LowerError::at(&op, "has no order"))?;
            Box::new(move |c: &[u32]| {
                let mut source = vec![0; c.len()];
                for (i, d) in order.iter().enumerate() {
                    source[*d as usize] = c[i];
                }
                source
            })
        }
        Remap::Reshape => Box::new(move |c: &[u32]| {
            // Row-major linear index, split again along the source shape.
            let mut linear: u64 = 0;
            for (x, size) in c.iter().zip(&dst_shape) {
                linear = linear * *size as u64 + *x as u64;
            }
            let mut source = vec![0; src_shape.len()];
            for (d, size) in src_shape.iter().enumerate().rev() {
                source[d] = (linear % *size as u64) as u32;
                linear /= *size as u64;
            }
            source
        }),
    };
    let map = match register_map(&src, &dst, to_source.as_ref()) {
        Ok(map) => map,
        Err(_) if kind == Remap::Reshape && op.attribute("allow_reorder").is_ok() && same_replication(&src, &dst) => {
            (0..src.num_registers()).collect()
        }
        Err(e) => return Err(LowerError::at(&op, e)),
    };
    let registers = l.operand(&op, 0)?;
    l.set_result(&op, 0, map.iter().map(|r| registers[*r]).collect());
    Ok(())
}

/// join(lhs, rhs): the new minor dimension selects the operand.
pub fn lower_join<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    // Both halves have the same type and layout.
    let src = l.tensor_layout(&op, crate::ops::view(op, JoinOp::of)?.lhs().r#type())?;
    let dst = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    let (lhs, rhs) = (l.operand(&op, 0)?, l.operand(&op, 1)?);
    let last = dst.rank() - 1;
    let drop_last = |c: &[u32]| c[..c.len() - 1].to_vec();
    let mut registers = Vec::new();
    for coords in &dst.register_coords {
        let source = drop_last(coords);
        let r = src
            .register_coords
            .iter()
            .position(|c| *c == source)
            .ok_or_else(|| LowerError::at(&op, "the result layout does not keep both halves in one thread"))?;
        registers.push(if coords[last] == 0 { lhs[r] } else { rhs[r] });
    }
    same_threads(&src, &dst, &drop_last).map_err(|e| LowerError::at(&op, e))?;
    l.set_result(&op, 0, registers);
    Ok(())
}

/// split(x): the halves along the minor dimension of size 2.
pub fn lower_split<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let src = l.tensor_layout(&op, crate::ops::view(op, SplitOp::of)?.src().r#type())?;
    let dst = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    let registers = l.operand(&op, 0)?;
    let append_zero = |c: &[u32]| {
        let mut with_half = c.to_vec();
        with_half.push(0);
        with_half
    };
    same_threads(&src, &dst, &append_zero).map_err(|e| LowerError::at(&op, e))?;
    for half in 0..2u32 {
        let mut result: Vec<V> = Vec::new();
        for coords in &dst.register_coords {
            let mut wanted = coords.clone();
            wanted.push(half);
            let r = src
                .register_coords
                .iter()
                .position(|c| *c == wanted)
                .ok_or_else(|| LowerError::at(&op, "the operand layout does not keep both halves in one thread"))?;
            result.push(registers[r]);
        }
        l.set_result(&op, half as usize, result);
    }
    Ok(())
}

/// `tt.cat` (its order of elements may change: `can_reorder`): as upstream,
/// the result's registers are the first operand's, then the second's; the
/// result's layout holds twice the registers of the operands'.
pub fn lower_cat<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let mut registers = l.operand(&op, 0)?;
    registers.extend(l.operand(&op, 1)?);
    let layout = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    if registers.len() != layout.num_registers() {
        return Err(LowerError::at(
            &op,
            format!(
                "the result holds {} registers per thread, the operands {}",
                layout.num_registers(),
                registers.len()
            ),
        ));
    }
    l.set_result(&op, 0, registers);
    Ok(())
}
