//! The scalar types dots are made of, as the MMA rules name them.
use crate::analysis::type_facts::{bit_width, element_type};
use melior::ir::Type;
use tritium_dialects::ir::{is_mma_fp8_type, scalar_kind, ScalarKind};

/// What a dot operand or result element is, for choosing an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    F16,
    BF16,
    F32,
    F64,
    /// The fp8 formats with native tensor-core support (e5m2, e4m3fn).
    NativeFp8,
    /// Other fp8 formats (e4m3fnuz, e5m2fnuz, e4m3b11fnuz): upcast.
    OtherFp8,
    Int(u32),
    Other,
}

impl Scalar {
    /// The element of `ty` (a tensor or a scalar).
    pub fn of(ty: Type) -> Scalar {
        match scalar_kind(element_type(ty)) {
            ScalarKind::F16 => Scalar::F16,
            ScalarKind::BF16 => Scalar::BF16,
            ScalarKind::F32 => Scalar::F32,
            ScalarKind::F64 => Scalar::F64,
            ScalarKind::NativeFp8 => Scalar::NativeFp8,
            ScalarKind::OtherFp8 => Scalar::OtherFp8,
            ScalarKind::Int(width) => Scalar::Int(width),
            ScalarKind::Other => Scalar::Other,
        }
    }

    pub fn is_fp8(self) -> bool {
        matches!(self, Scalar::NativeFp8 | Scalar::OtherFp8)
    }
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
