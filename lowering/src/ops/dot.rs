//! tt.dot. With blocked layouts (no tensor cores: the FMA path) every thread
//! holds, for each accumulator element it owns, the whole row of A and column
//! of B it needs, so the dot is a chain of fused multiply-adds per register.
use crate::{
    builder::type_of,
    emit::{LowerError, Lowering, Result},
    layout::TensorLayout,
};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};
use std::collections::HashMap;
use tritium_layout::Layout;

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let c_type = op.operand(2).unwrap().r#type();
    let c_layout = l.tensor_layout(&op, c_type)?;
    match &c_layout.layout {
        Layout::Blocked(_) => fma_dot(l, op, &c_layout),
        Layout::NvidiaMma(_) => Err(LowerError::at(&op, "tensor-core dots (mma.sync) are not supported by the lowering yet")),
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
    let a_layout = l.tensor_layout(&op, op.operand(0).unwrap().r#type())?;
    let b_layout = l.tensor_layout(&op, op.operand(1).unwrap().r#type())?;
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
