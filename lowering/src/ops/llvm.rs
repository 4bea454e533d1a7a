//! Ops of the `llvm` and `gpu` dialects that upstream's TTIR carries as they
//! are: `llvm.intr.assume` (from `tl.assume`) and any other llvm op on
//! scalars is kept, its operands replaced by their lowered values;
//! `gpu.barrier` (`tl.debug_barrier`) is a CTA barrier, as upstream's
//! GPU-to-NVVM conversion makes it. A `builtin.unrealized_conversion_cast`
//! of a tensor to an LLVM struct (how upstream's tests hand a tensor to
//! llvm ops) is the struct of the thread's registers, upstream's lowered
//! form of a tensor.
use crate::{
    builder::V,
    emit::{LowerError, Lowering, Result},
};
use melior::ir::{operation::OperationLike, OperationRef, TypeLike, ValueLike};
use tritium_dialects::access::OpAccess;

/// `gpu.barrier`: a barrier of the whole CTA.
pub fn lower_gpu_barrier<'c>(l: &mut Lowering<'c>, _op: OperationRef<'c, '_>) -> Result<()> {
    l.b.barrier();
    Ok(())
}

/// Any `llvm.*` op without an entry of its own in the op table.
pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    if op.region_count() != 0 {
        return Err(LowerError::at(&op, "llvm ops with regions are only supported at module level"));
    }
    // The function's blocks are remade by the lowering, and branches between
    // them with them (cf.br / cf.cond_br); a copied llvm branch would still
    // name the old blocks.
    if op.successor_count() != 0 {
        return Err(LowerError::at(
            &op,
            "llvm branches between the blocks of a Triton function are not supported (use cf.br / cf.cond_br)",
        ));
    }
    let on_tensors =
        op.operands().any(|v| v.r#type().is_ranked_tensor()) || op.results().any(|v| v.r#type().is_ranked_tensor());
    if on_tensors {
        return Err(LowerError::at(&op, "llvm ops on tensors are not supported"));
    }
    if op.results().any(|v| tritium_dialects::types::pointer_parts(v.r#type()).is_some()) {
        return Err(LowerError::at(&op, "llvm ops giving Triton pointers are not supported"));
    }
    let mut operands: Vec<V> = Vec::new();
    for i in 0..op.operand_count() {
        operands.push(l.operand(&op, i)?[0]);
    }
    // A copy of the op (attributes, properties, operand segments) with the
    // lowered operands, at the cursor.
    let copy = l.b.insert(tritium_dialects::ir::clone_op(&op), l.b.cursor);
    for (i, v) in operands.iter().enumerate() {
        tritium_dialects::ir::set_operand(&copy, i, crate::builder::value(*v));
    }
    for i in 0..op.result_count() {
        let result = copy.result_at(i).unwrap().to_raw();
        l.set_result(&op, i, vec![result]);
    }
    Ok(())
}
