//! tt.dot. With blocked layouts (no tensor cores: the FMA path) every thread
//! holds, for each accumulator element it owns, the whole row of A and column
//! of B it needs, so the dot is a chain of fused multiply-adds per register.
use tritium_dialects::access::OpAccess;
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::TensorLayout,
};
use melior::ir::{OperationRef, ValueLike};
use std::collections::HashMap;
use tritium_layout::Layout;

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let c_type = op.operand_at(2).unwrap().r#type();
    let c_layout = l.tensor_layout(&op, c_type)?;
    match &c_layout.layout {
        Layout::Blocked(_) => fma_dot(l, op, &c_layout),
        Layout::NvidiaMma(mma) if mma.is_ampere() => mma_v2(l, op, &c_layout),
        Layout::NvidiaMma(_) => Err(LowerError::at(&op, "wgmma (nvidia_mma v3) dots go through ttng.warp_group_dot")),
        other => Err(LowerError::at(&op, format!("a dot with accumulator layout {other:?} is not supported"))),
    }
}

/// Registers by coordinates, for lookups.
fn by_coordinates(layout: &TensorLayout) -> HashMap<&[u32], usize> {
    let mut map = HashMap::new();
    for (r, coords) in layout.register_coords.iter().enumerate() {
        map.entry(coords.as_slice()).or_insert(r);
    }
    map
}

fn fma_dot<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, c_layout: &TensorLayout) -> Result<()> {
    let a_layout = l.tensor_layout(&op, op.operand_at(0).unwrap().r#type())?;
    let b_layout = l.tensor_layout(&op, op.operand_at(1).unwrap().r#type())?;
    let (a, b, c) = (l.operand(&op, 0)?, l.operand(&op, 1)?, l.operand(&op, 2)?);
    let rank = c_layout.rank();
    let k_size = a_layout.shape[rank - 1] as u32;
    // The threads holding A's rows and B's columns must be those of C's.
    let project = |keep: usize| {
        move |coords: &[u32]| -> Vec<u32> {
            let mut out = coords.to_vec();
            out[keep] = 0;
            out
        }
    };
    for (which, operand, column) in [("A", &a_layout, rank - 1), ("B", &b_layout, rank - 2)] {
        let lanes_ok = operand.lane_bases.iter().zip(&c_layout.lane_bases).all(|(o, c)| project(column)(o) == project(column)(c));
        let warps_ok = operand.warp_bases.iter().zip(&c_layout.warp_bases).all(|(o, c)| project(column)(o) == project(column)(c));
        if !lanes_ok || !warps_ok {
            return Err(LowerError::at(&op, format!("operand {which}'s layout does not give each thread the data of its accumulator")));
        }
    }
    let (a_index, b_index) = (by_coordinates(&a_layout), by_coordinates(&b_layout));
    let element = type_of(c[0]);
    let is_float = !element.to_string().starts_with('i');
    let operand_element = type_of(a[0]);
    let mut result = Vec::with_capacity(c.len());
    for (r, coords) in c_layout.register_coords.iter().enumerate() {
        let mut accumulator = c[r];
        for k in 0..k_size {
            let mut a_coords = coords.clone();
            a_coords[rank - 1] = k;
            let mut b_coords = coords.clone();
            b_coords[rank - 2] = k;
            let (Some(&ar), Some(&br)) = (a_index.get(a_coords.as_slice()), b_index.get(b_coords.as_slice())) else {
                return Err(LowerError::at(&op, "a thread lacks the A or B elements of one of its accumulator elements"));
            };
            let (mut x, mut y) = (a[ar], b[br]);
            if operand_element != element {
                let cast = if is_float { "arith.extf" } else { "arith.extsi" };
                x = l.b.op1(cast, &[x], element, &[]);
                y = l.b.op1(cast, &[y], element, &[]);
            }
            accumulator = if is_float {
                l.b.op1("math.fma", &[x, y, accumulator], element, &[])
            } else {
                let product = l.b.op1("arith.muli", &[x, y], element, &[]);
                l.b.op1("arith.addi", &[product, accumulator], element, &[])
            };
        }
        result.push(accumulator);
    }
    l.set_result(&op, 0, result);
    Ok(())
}

/// The lane bases an mma.sync fragment assumes: lanes 0-1 (the thread in its
/// quad) step the column by 2 and 4, lanes 2-4 (the quad) step the row by 1,
/// 2 and 4. For B, rows are K and columns N.
fn quad_lanes(row: usize, column: usize, rank: usize) -> Vec<Vec<u32>> {
    let basis = |dim: usize, step: u32| {
        let mut b = vec![0u32; rank];
        b[dim] = step;
        b
    };
    vec![basis(column, 2), basis(column, 4), basis(row, 1), basis(row, 2), basis(row, 4)]
}

/// mma.sync.m16n8k16 (f16 or bf16 operands, f32 accumulator): for each
/// 16x8 accumulator tile a thread holds and each 16-deep slice of K, the
/// fragment registers are found by their coordinates in the three layouts.
fn mma_v2<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, c_layout: &TensorLayout) -> Result<()> {
    let a_layout = l.tensor_layout(&op, op.operand_at(0).unwrap().r#type())?;
    let b_layout = l.tensor_layout(&op, op.operand_at(1).unwrap().r#type())?;
    let (a, b, c) = (l.operand(&op, 0)?, l.operand(&op, 1)?, l.operand(&op, 2)?);
    let rank = c_layout.rank();
    let (m, n) = (rank - 2, rank - 1);
    let operand_type = type_of(a[0]);
    let kind = match operand_type.to_string().as_str() {
        "f16" => "f16",
        "bf16" => "bf16",
        other => return Err(LowerError::at(&op, format!("mma.sync of {other} operands is not supported yet (f16 and bf16 are)"))),
    };
    if type_of(c[0]).to_string() != "f32" {
        return Err(LowerError::at(&op, "mma.sync accumulates in f32 only, for now"));
    }
    if c_layout.lane_bases != quad_lanes(m, n, rank)
        || a_layout.lane_bases != quad_lanes(m, n, rank)
        || b_layout.lane_bases != quad_lanes(n, m, rank)
    {
        return Err(LowerError::at(&op, "the operand and accumulator layouts are not mma.sync's fragments"));
    }
    let k_size = a_layout.shape[n] as u32;
    if k_size % 16 != 0 {
        return Err(LowerError::at(&op, "K must be a multiple of 16 for mma.sync.m16n8k16"));
    }
    let (a_index, b_index, c_index) = (by_coordinates(&a_layout), by_coordinates(&b_layout), by_coordinates(c_layout));
    let lookup = |index: &HashMap<&[u32], usize>, coords: &[u32]| {
        index.get(coords).copied().ok_or_else(|| LowerError::at(&op, "a thread lacks part of an mma.sync fragment"))
    };
    let at = |base: &[u32], row: u32, column: u32, row_dim: usize, column_dim: usize| {
        let mut coords = base.to_vec();
        coords[row_dim] += row;
        coords[column_dim] += column;
        coords
    };
    let f32 = l.b.context_f32();
    let results_type = melior::dialect::llvm::r#type::r#struct(l.context(), &[f32; 4], false);
    let mut result = c.clone();
    let asm = format!(
        "mma.sync.aligned.m16n8k16.row.col.f32.{kind}.{kind}.f32 {{$0, $1, $2, $3}}, {{$4, $5, $6, $7}}, {{$8, $9}}, {{$10, $11, $12, $13}};"
    );
    for (r, coords) in c_layout.register_coords.iter().enumerate() {
        if coords[m] % 16 != 0 || coords[n] % 8 != 0 || c_layout.is_duplicate_register(r) {
            continue;
        }
        let tile: Vec<usize> = [(0, 0), (0, 1), (8, 0), (8, 1)]
            .iter()
            .map(|(dr, dc)| lookup(&c_index, &at(coords, *dr, *dc, m, n)))
            .collect::<Result<_>>()?;
        let mut accumulator: Vec<V> = tile.iter().map(|t| result[*t]).collect();
        for k0 in (0..k_size).step_by(16) {
            let mut a_base = coords.clone();
            a_base[n] = k0;
            let mut b_base = coords.clone();
            b_base[m] = k0;
            let mut operands = Vec::new();
            // a0..a3: (row, k) pairs at row +0/+8 and k +0/+8.
            for (dr, dk) in [(0, 0), (8, 0), (0, 8), (8, 8)] {
                let pair = [lookup(&a_index, &at(&a_base, dr, dk, m, n))?, lookup(&a_index, &at(&a_base, dr, dk + 1, m, n))?];
                operands.extend(crate::ops::memory::pack(l, &[a[pair[0]], a[pair[1]]], 16, 32));
            }
            // b0, b1: (k, column) pairs at k +0 and +8.
            for dk in [0, 8] {
                let pair = [lookup(&b_index, &at(&b_base, dk, 0, m, n))?, lookup(&b_index, &at(&b_base, dk + 1, 0, m, n))?];
                operands.extend(crate::ops::memory::pack(l, &[b[pair[0]], b[pair[1]]], 16, 32));
            }
            operands.extend(accumulator.iter().copied());
            let out = l
                .b
                .inline_asm(&asm, "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3", &operands, Some(results_type))
                .unwrap();
            accumulator = (0..4)
                .map(|i| {
                    let position = melior::ir::attribute::DenseI64ArrayAttribute::new(l.context(), &[i]);
                    l.b.op1("llvm.extractvalue", &[out], f32, &[("position", position.into())])
                })
                .collect();
        }
        for (t, v) in tile.iter().zip(accumulator) {
            result[*t] = v;
        }
    }
    l.set_result(&op, 0, result);
    Ok(())
}
