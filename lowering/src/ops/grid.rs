//! The program's place in the launch grid: `tt.get_program_id` and
//! `tt.get_num_programs` read PTX's `%ctaid` and `%nctaid` registers.
use crate::emit::{LowerError, Lowering, Result};
use melior::ir::OperationRef;

pub fn lower_get_program_id<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    special_register_along_axis(l, op, "ctaid")
}

pub fn lower_get_num_programs<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    special_register_along_axis(l, op, "nctaid")
}

/// `%<register>.<x|y|z>` for the op's `axis` (0 when absent).
fn special_register_along_axis<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, register: &str) -> Result<()> {
    let axis = crate::int_attribute(&op, "axis").unwrap_or(0);
    let axis = ["x", "y", "z"].get(axis as usize).ok_or_else(|| LowerError::at(&op, "axis must be 0, 1 or 2"))?;
    let v = l.b.special_register(&format!("{register}.{axis}"));
    l.set_result(&op, 0, vec![v]);
    Ok(())
}
