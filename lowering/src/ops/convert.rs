//! ttg.convert_layout: nothing when both layouts put every element in the
//! same thread (registers are renamed), else a round trip through shared
//! memory: each thread writes its elements at their row-major offsets and
//! reads back the ones the new layout gives it.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    ops::shape::register_map,
};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let src = l.tensor_layout(&op, op.operand(0).unwrap().r#type())?;
    let dst = l.tensor_layout(&op, op.result(0).unwrap().r#type())?;
    let registers = l.operand(&op, 0)?;
    if let Ok(map) = register_map(&src, &dst, &|c: &[u32]| c.to_vec()) {
        l.set_result(&op, 0, map.iter().map(|r| registers[*r]).collect());
        return Ok(());
    }
    let element = type_of(registers[0]);
    let base = l.scratch_base(&op)?;
    // i1 has no memory representation of its own: go through i8.
    let stored_type = if element.to_string() == "i1" { l.b.int_type(8) } else { element };

    let offset_of = |l: &mut Lowering<'c>, layout: &crate::layout::TensorLayout, register: usize| -> V {
        let mut index: Option<V> = None;
        for d in 0..layout.rank() {
            let coordinate = l.coordinate(layout, register, d);
            index = Some(match index {
                None => coordinate,
                Some(acc) => {
                    let size = l.b.i32_const(layout.shape[d]);
                    let scaled = l.b.mul(acc, size);
                    l.b.add(scaled, coordinate)
                }
            });
        }
        index.unwrap()
    };
    // Barriers around the whole op are tritongpu-membar's; this one
    // separates its own writes from its reads.
    for (r, v) in registers.iter().enumerate() {
        if src.is_duplicate_register(r) {
            continue;
        }
        let index = offset_of(l, &src, r);
        let address = l.b.gep(base, index, stored_type);
        let stored = if stored_type == element { *v } else { l.b.op1("arith.extui", &[*v], stored_type, &[]) };
        l.b.op("llvm.store", &[stored, address], &[], &[]);
    }
    l.b.barrier();
    let mut result = Vec::with_capacity(dst.num_registers());
    for r in 0..dst.num_registers() {
        let index = offset_of(l, &dst, r);
        let address = l.b.gep(base, index, stored_type);
        let loaded = l.b.op1("llvm.load", &[address], stored_type, &[]);
        result.push(if stored_type == element { loaded } else { l.b.op1("arith.trunci", &[loaded], element, &[]) });
    }
    if result.is_empty() {
        return Err(LowerError::at(&op, "empty tensor"));
    }
    l.set_result(&op, 0, result);
    Ok(())
}
