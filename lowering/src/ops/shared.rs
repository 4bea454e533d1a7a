//! Shared-memory buffers (ttg.local_alloc and friends). For now only the
//! ops that need no layout of their own are supported; the rest report an
//! error naming the op.
use crate::emit::{LowerError, Lowering, Result};
use melior::ir::OperationRef;

/// Sizes and offsets of the ttg.local_alloc buffers of the kernel.
pub fn plan_allocations(_l: &mut Lowering, _kernel: &OperationRef) -> Result<()> {
    Ok(())
}

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, name: &str) -> Result<()> {
    match name {
        "ttg.local_dealloc" => Ok(()),
        "ttg.local_barrier" => {
            l.b.barrier();
            Ok(())
        }
        _ => Err(LowerError::at(&op, "shared-memory buffers are not supported by the lowering yet")),
    }
}
