//! Lowering of each op family. `lower_op` dispatches on the op name.
pub mod atomic;
pub mod control_flow;
pub mod convert;
pub mod debug;
pub mod dot;
pub mod elementwise;
pub mod fp8;
pub mod gather;
pub mod histogram;
pub mod inline_asm;
pub mod llvm;
pub mod memory;
pub mod reduce;
pub mod scan;
pub mod shape;
pub mod shared;
pub mod tma;
pub mod warp;
pub mod warp_specialize;
pub mod wgmma;

use crate::emit::{LowerError, Lowering, Result};
use melior::ir::{operation::OperationLike, OperationRef};

pub fn name_of(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

pub fn lower_op<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let name = name_of(&op);
    match name.as_str() {
        "tt.return" => crate::function_abi::lower_return(l, op),
        "tt.call" => crate::function_abi::lower_call(l, op),
        "tt.get_program_id" | "tt.get_num_programs" => {
            let axis = crate::int_attribute(&op, "axis").unwrap_or(0);
            if !(0..3).contains(&axis) {
                return Err(LowerError::at(&op, "axis must be 0, 1 or 2"));
            }
            let v = l.program_id(axis as usize, name == "tt.get_num_programs");
            l.set_result(&op, 0, vec![v]);
            Ok(())
        }
        "tt.make_range" | "tt.splat" | "tt.broadcast" | "tt.expand_dims" | "tt.reshape" | "tt.trans" | "tt.join"
        | "tt.split" | "tt.unsplat" | "tt.cat" => shape::lower(l, op, &name),
        "tt.addptr" | "tt.load" | "tt.store" => memory::lower(l, op, &name),
        "tt.atomic_rmw" | "tt.atomic_cas" => atomic::lower(l, op, &name),
        "tt.reduce" => reduce::lower_reduce(l, op),
        "tt.scan" => scan::lower(l, op),
        "tt.gather" => gather::lower(l, op),
        "tt.histogram" => histogram::lower(l, op),
        "tt.print" | "tt.assert" => debug::lower(l, op, &name),
        "tt.dot" => dot::lower(l, op),
        "ttg.convert_layout" => convert::lower(l, op),
        "scf.for"
        | "scf.if"
        | "scf.while"
        | "scf.yield"
        | "scf.condition"
        | "cf.br"
        | "cf.cond_br"
        | "tt.map_elementwise"
        | "tt.map_elementwise.return" => control_flow::lower(l, op, &name),
        "ttg.local_alloc"
        | "ttg.local_load"
        | "ttg.local_store"
        | "ttg.local_dealloc"
        | "ttg.memdesc_index"
        | "ttg.memdesc_subslice"
        | "ttg.memdesc_trans"
        | "ttg.memdesc_reshape"
        | "ttg.local_barrier"
        | "ttg.async_copy_global_to_local"
        | "ttg.async_commit_group"
        | "ttg.async_wait" => shared::lower(l, op, &name),
        "ttng.warp_group_dot" | "ttng.warp_group_dot_wait" | "ttng.fence_async_shared" => wgmma::lower(l, op, &name),
        n if (n.starts_with("ttng.") && (n.contains("barrier") || n.contains("tma") || n.contains("tensormap")))
            || n == "ttg.global_scratch_alloc"
            || n == "ttng.reinterpret_tensor_descriptor" =>
        {
            tma::lower(l, op, &name)
        }
        "ttg.warp_specialize" | "ttg.warp_yield" | "ttg.warp_return" => warp_specialize::lower(l, op, &name),
        "tt.fp_to_fp" => fp8::lower_fp_to_fp(l, op),
        "ttg.fp4_to_fp" => fp8::lower_fp4_to_fp(l, op),
        "arith.constant" if fp8::is_fp8_constant(&op) => fp8::lower_constant(l, op),
        "gpu.barrier" => llvm::lower(l, op, &name),
        _ if name.starts_with("llvm.") => llvm::lower(l, op, &name),
        "tt.elementwise_inline_asm" => inline_asm::lower(l, op),
        _ if name.starts_with("arith.") || name.starts_with("math.") => elementwise::lower(l, op, &name),
        "tt.precise_sqrt"
        | "tt.precise_divf"
        | "tt.clampf"
        | "tt.mulhiui"
        | "tt.bitcast"
        | "tt.extern_elementwise"
        | "tt.int_to_ptr"
        | "tt.ptr_to_int" => elementwise::lower(l, op, &name),
        "ub.poison" => poison(l, op),
        _ => Err(LowerError::at(&op, "the lowering does not support this op yet")),
    }
}

/// `ub.poison` (the value of a function that returns nothing on some path):
/// LLVM's poison, in every register of a tensor.
fn poison<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    use melior::ir::{TypeLike, ValueLike};
    use tritium_dialects::access::OpAccess;
    let result = op.result_at(0).map_err(|e| LowerError::at(&op, e.to_string()))?;
    let count =
        if result.r#type().is_ranked_tensor() { l.tensor_layout(&op, result.r#type())?.num_registers() } else { 1 };
    let element = l.lower_type(result.r#type());
    let value = l.b.op1("llvm.mlir.poison", &[], element, &[]);
    l.set_result(&op, 0, vec![value; count]);
    Ok(())
}
