//! The scalar types dots are made of, as the MMA rules name them.
use crate::analysis::type_facts::{bit_width, element_type};
use melior::ir::Type;
use tritium_dialects::ir::{is_mma_fp8_type, scalar_kind, ScalarKind};

/// The kind of the element of `ty` (a tensor or a scalar).
pub fn element_kind(ty: Type) -> ScalarKind {
    scalar_kind(element_type(ty))
}

/// Whether the element of `ty` is an fp8 format tensor cores take, upcast
/// where needed (upstream `supportMMA(value)`'s list: no e4m3b11fnuz).
pub fn is_mma_fp8(ty: Type) -> bool {
    is_mma_fp8_type(element_type(ty))
}

/// Bits of the element of `ty`; 0 for types without a width.
pub fn element_bits(ty: Type) -> u32 {
    bit_width(element_type(ty)).unwrap_or(0)
}
