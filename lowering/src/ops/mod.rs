//! Lowering of each op family, one module per family with one function per
//! op; `table` maps op names to those functions, `lower_op` dispatches.
pub mod atomic;
pub mod control_flow;
pub mod convert;
pub mod debug;
pub mod dot;
pub mod elementwise;
pub mod fp8;
pub mod gather;
pub mod grid;
pub mod histogram;
pub mod inline_asm;
pub mod instrument;
pub mod llvm;
pub mod memory;
pub mod reduce;
pub mod scan;
pub mod shape;
pub mod shared;
pub mod table;
pub mod tma;
pub mod warp;
pub mod warp_specialize;
pub mod wgmma;

use crate::emit::{LowerError, Lowering, Result};
use melior::ir::{operation::OperationLike, OperationRef};

pub fn name_of(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

/// `op` as a typed view of [`tritium_dialects::views`] (`view(op,
/// DotOp::of)?.a()`): the op table picks a lowering by the op's name, so
/// the view fits; where it does not, an error at the op.
pub fn view<'c, 'a, V>(op: OperationRef<'c, 'a>, of: fn(OperationRef<'c, 'a>) -> Option<V>) -> Result<V> {
    of(op).ok_or_else(|| LowerError::at(&op, "is not an op this lowering reads"))
}

/// Lowers one op through its entry in the op table ([`table`]); an op of
/// an unregistered dialect (`-allow-unregistered-dialect`) is kept as it is
/// ([`crate::function_abi::keep_unregistered`]); any other op without an
/// entry is an error at the op.
pub fn lower_op<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let name = name_of(&op);
    match table::lowering_of(&name) {
        Some(lower) => lower(l, op),
        None if !l.context().is_registered_operation(&name) => crate::function_abi::keep_unregistered(l, op),
        None => Err(LowerError::at(&op, "the lowering does not support this op yet")),
    }
}
