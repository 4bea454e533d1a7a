//! The program's place in the launch grid: `tt.get_program_id` and
//! `tt.get_num_programs` read PTX's `%ctaid` and `%nctaid` registers, or
//! `%clusterid` and `%nclusterid` when the launch runs several CTAs per
//! program (`Lowering::program_id`).
use crate::emit::{LowerError, Lowering, Result};
use melior::ir::OperationRef;

pub fn lower_get_program_id<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    along_axis(l, op, false)
}

pub fn lower_get_num_programs<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    along_axis(l, op, true)
}

/// The program id (or with `count` the number of programs) along the op's
/// `axis` (0 when absent).
fn along_axis<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, count: bool) -> Result<()> {
    let axis = crate::int_attribute(&op, "axis").unwrap_or(0);
    if !(0..3).contains(&axis) {
        return Err(LowerError::at(&op, "axis must be 0, 1 or 2"));
    }
    let v = l.program_id(axis as usize, count);
    l.set_result(&op, 0, vec![v]);
    Ok(())
}
