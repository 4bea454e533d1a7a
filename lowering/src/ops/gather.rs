//! tt.gather: `out[I] = src[I with I[axis] = indices[I]]`, as upstream's
//! GatherOpToLLVM. When every column along the axis lives in one warp for
//! both tensors (GatherLoweringHelper::isWarpLocal), each output element is
//! fetched with `shfl.sync.idx` from the lane that holds it, one shuffle per
//! register that could hold it; otherwise the source goes through the op's
//! scratch in shared memory (row-major), and each thread reads what it needs.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::{apply_linear, TensorLayout},
    ops::warp::{bit_width, load_shared, row_major_index, shuffle, store_shared, stored_type, Shuffle},
};
use melior::ir::{OperationRef, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::GatherOp;
use tritium_layout::Dim;

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let axis = crate::int_attribute(&op, "axis").unwrap_or(0) as usize;
    let src = l.tensor_layout(&op, crate::ops::view(op, GatherOp::of)?.src().r#type())?;
    let dst = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    let sources = l.operand(&op, 0)?;
    let indices = l.operand(&op, 1)?;
    if indices.len() != dst.num_registers() {
        return Err(LowerError::at(&op, "the indices and the result are distributed differently"));
    }
    let indices: Vec<V> = indices.iter().map(|i| index_to_i32(l, &op, *i)).collect::<Result<_>>()?;
    let warp_local = tritium_passes::analysis::scratch::gather_is_warp_local(&op)
        .ok_or_else(|| LowerError::at(&op, "has operands without a distributed layout"))?;
    let result = if warp_local {
        within_warps(l, &op, axis, &src, &dst, &sources, &indices)?
    } else {
        through_shared(l, &op, axis, &src, &dst, &sources, &indices)?
    };
    l.set_result(&op, 0, result);
    Ok(())
}

/// Indices as i32 (narrower ones sign-extended, as upstream).
fn index_to_i32<'c>(l: &mut Lowering<'c>, op: &OperationRef, index: V) -> Result<V> {
    let i32 = l.b.i32();
    match bit_width(type_of(index)) {
        Some(32) => Ok(index),
        Some(64) => Ok(l.b.op1("arith.trunci", &[index], i32, &[])),
        Some(bits) if bits < 32 => Ok(l.b.op1("arith.extsi", &[index], i32, &[])),
        _ => Err(LowerError::at(op, "indices must be integers")),
    }
}

/// Which register or lane bit of the source layout gives each coordinate
/// bit: `coordinate_source[dim][bit]`.
#[derive(Clone, Copy, PartialEq)]
enum Holder {
    Register(usize),
    Lane(usize),
    Elsewhere,
}

fn holders(src: &TensorLayout) -> std::result::Result<Vec<Vec<Holder>>, String> {
    let mut holders: Vec<Vec<Holder>> =
        src.shape.iter().map(|s| vec![Holder::Elsewhere; s.trailing_zeros() as usize]).collect();
    let registers = src.linear.bases(&Dim::Register).cloned().unwrap_or_default();
    for (kind, bases) in [(0, &registers), (1, &src.lane_bases)] {
        for (bit, basis) in bases.iter().enumerate() {
            let nonzero: Vec<usize> = (0..basis.len()).filter(|d| basis[*d] != 0).collect();
            match nonzero[..] {
                [] => {}
                [d] if basis[d].is_power_of_two() => {
                    holders[d][basis[d].trailing_zeros() as usize] =
                        if kind == 0 { Holder::Register(bit) } else { Holder::Lane(bit) };
                }
                _ => return Err("the source layout is not a permutation of coordinate bits".into()),
            }
        }
    }
    Ok(holders)
}

fn within_warps<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    axis: usize,
    src: &TensorLayout,
    dst: &TensorLayout,
    sources: &[V],
    indices: &[V],
) -> Result<Vec<V>> {
    let holders = holders(src).map_err(|e| LowerError::at(op, e))?;
    // The lanes of the source that hold positions off the axis: this
    // thread's own bits (isWarpLocal checked that both layouts agree).
    let own_lanes = src
        .lane_bases
        .iter()
        .enumerate()
        .filter(|(_, basis)| basis.iter().enumerate().any(|(d, x)| d != axis && *x != 0))
        .fold(0u32, |mask, (bit, _)| mask | 1 << bit);
    // How the index's bits select the source register and lane.
    let (mut register_values, mut lane_values) = (Vec::new(), Vec::new());
    for holder in &holders[axis] {
        let (r, lane) = match holder {
            Holder::Register(bit) => (1u32 << bit, 0),
            Holder::Lane(bit) => (0, 1u32 << bit),
            Holder::Elsewhere => {
                return Err(LowerError::at(op, "the gather axis spans warps but the gather was found warp-local"))
            }
        };
        register_values.push(r);
        lane_values.push(lane);
    }
    let dynamic_registers = register_values.iter().fold(0, |m, v| m | v) as usize;
    let shuffles_needed = lane_values.iter().any(|v| *v != 0);
    let lane = l.lane;
    let own_lane = l.in_prologue(|b| {
        let m = b.i32_const(own_lanes as i64);
        b.and(lane, m)
    });

    let mut result = Vec::with_capacity(dst.num_registers());
    for (j, index) in indices.iter().enumerate() {
        // The source register bits and lane bits fixed by the output's place
        // off the axis.
        let (mut fixed_register, mut fixed_lane) = (0usize, 0u32);
        for (d, coordinate) in dst.register_coords[j].iter().enumerate() {
            if d == axis {
                continue;
            }
            for bit in 0..32 {
                if coordinate >> bit & 1 == 0 {
                    continue;
                }
                match holders[d].get(bit as usize) {
                    Some(Holder::Register(r)) => fixed_register ^= 1 << r,
                    Some(Holder::Lane(b)) => fixed_lane ^= 1 << b,
                    _ => return Err(LowerError::at(op, "an output element's column is not in its warp")),
                }
            }
        }
        let source_lane = if shuffles_needed {
            let from_index = apply_linear(&mut l.b, *index, &lane_values);
            let lane = l.b.or(own_lane, from_index);
            Some(if fixed_lane != 0 {
                let f = l.b.i32_const(fixed_lane as i64);
                l.b.xor(lane, f)
            } else {
                lane
            })
        } else {
            None
        };
        let selected = (dynamic_registers != 0).then(|| apply_linear(&mut l.b, *index, &register_values));
        // Every register the index may pick, read from the source lane.
        let mut value: Option<V> = None;
        let mut subset = 0usize;
        loop {
            let register = fixed_register ^ subset;
            let candidate = sources
                .get(register)
                .copied()
                .ok_or_else(|| LowerError::at(op, "a source register is out of range"))?;
            let candidate = match source_lane {
                Some(lane) => shuffle(l, candidate, Shuffle::Idx(lane)).ok_or_else(|| {
                    LowerError::at(op, format!("cannot shuffle values of type {}", type_of(candidate)))
                })?,
                None => candidate,
            };
            value = Some(match (value, selected) {
                (Some(previous), Some(selected)) => {
                    let s = l.b.i32_const(subset as i64);
                    let here = l.b.icmp(0, selected, s);
                    l.b.select(here, candidate, previous)
                }
                _ => candidate,
            });
            // The next subset of the dynamic register bits.
            subset = (subset.wrapping_sub(dynamic_registers)) & dynamic_registers;
            if subset == 0 {
                break;
            }
        }
        result.push(value.expect("at least one candidate"));
    }
    Ok(result)
}

fn through_shared<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    axis: usize,
    src: &TensorLayout,
    dst: &TensorLayout,
    sources: &[V],
    indices: &[V],
) -> Result<Vec<V>> {
    let base = l.scratch_base(op)?;
    let element = type_of(sources[0]);
    let stored = stored_type(l, element);
    for (r, v) in sources.iter().enumerate() {
        if src.is_duplicate_register(r) {
            continue;
        }
        let index = row_major_index(l, src, r);
        let address = l.b.gep(base, index, stored);
        store_shared(l, address, *v, None)
            .ok_or_else(|| LowerError::at(op, format!("cannot keep {element} in shared memory")))?;
    }
    l.b.barrier();
    let mut result = Vec::with_capacity(indices.len());
    for (j, index) in indices.iter().enumerate() {
        // Row-major over the source's shape, the axis coordinate replaced.
        let mut offset: Option<V> = None;
        for d in 0..dst.rank() {
            let coordinate = if d == axis { *index } else { l.coordinate(dst, j, d) };
            offset = Some(match offset {
                None => coordinate,
                Some(acc) => {
                    let size = l.b.i32_const(src.shape[d]);
                    let scaled = l.b.mul(acc, size);
                    l.b.add(scaled, coordinate)
                }
            });
        }
        let address = l.b.gep(base, offset.expect("tensors have a dimension"), stored);
        result.push(load_shared(l, address, element));
    }
    Ok(result)
}
