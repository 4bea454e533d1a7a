//! ttg.convert_layout: nothing when both layouts put every element in the
//! same thread (registers are renamed), else a round trip through the op's
//! scratch in shared memory. The scratch's layout is chosen for the pair of
//! layouts (transfer::plan_conversion): vectorised, swizzled so that the
//! writes and the reads are free of bank conflicts, with ldmatrix/stmatrix
//! where they move more per instruction. The scratch holds the whole tensor
//! (allocate-shared-memory-nv sizes it so), so one round trip suffices.
use tritium_dialects::access::OpAccess;
use crate::{
    builder::type_of,
    emit::{LowerError, Lowering, Result},
    ops::{
        shape::register_map,
        shared::{load_registers, store_registers, stored_bytes},
    },
    transfer::plan_conversion,
};
use melior::ir::{OperationRef, ValueLike};

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let src = l.tensor_layout(&op, op.operand_at(0).unwrap().r#type())?;
    let dst = l.tensor_layout(&op, op.result_at(0).unwrap().r#type())?;
    let registers = l.operand(&op, 0)?;
    if let Ok(map) = register_map(&src, &dst, &|c: &[u32]| c.to_vec()) {
        l.set_result(&op, 0, map.iter().map(|r| registers[*r]).collect());
        return Ok(());
    }
    let element = *registers.first().map(|r| type_of(*r)).as_ref().ok_or_else(|| LowerError::at(&op, "empty tensor"))?;
    let base = l.scratch_base(&op)?;
    // One round trip writes the whole tensor: the scratch must hold it.
    let numel: i64 = src.shape.iter().product();
    if (tritium_passes::analysis::scratch::scratch_bytes(&op) as i64) < numel * stored_bytes(element) as i64 {
        return Err(LowerError::at(&op, "the conversion's scratch is smaller than the tensor"));
    }
    let plan = plan_conversion(&src, &dst, stored_bytes(element), l.target.capability).map_err(|e| LowerError::at(&op, e))?;
    // Barriers around the whole op are tritongpu-membar's; this one
    // separates its own writes from its reads.
    store_registers(l, &plan.write_access, &plan.write, &registers, base);
    l.b.barrier();
    let result = load_registers(l, &plan.read_access, &plan.read, dst.num_registers(), element, base)
        .ok_or_else(|| LowerError::at(&op, "the conversion's reads leave registers unread"))?;
    l.set_result(&op, 0, result);
    Ok(())
}
