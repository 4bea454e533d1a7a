//! The scalar types dots are made of, as the MMA rules name them.
use crate::analysis::type_facts::{bit_width, element_type};
use melior::ir::{Type, TypeLike};

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
        let ty = element_type(ty);
        let raw = ty.to_raw();
        // SAFETY: type predicates on a live type.
        unsafe {
            if mlir_sys::mlirTypeIsAF16(raw) {
                Scalar::F16
            } else if mlir_sys::mlirTypeIsABF16(raw) {
                Scalar::BF16
            } else if mlir_sys::mlirTypeIsAF32(raw) {
                Scalar::F32
            } else if mlir_sys::mlirTypeIsAF64(raw) {
                Scalar::F64
            } else if mlir_sys::mlirTypeIsAFloat8E5M2(raw) || mlir_sys::mlirTypeIsAFloat8E4M3FN(raw) {
                Scalar::NativeFp8
            } else if mlir_sys::mlirTypeIsAFloat8E4M3FNUZ(raw)
                || mlir_sys::mlirTypeIsAFloat8E5M2FNUZ(raw)
                || mlir_sys::mlirTypeIsAFloat8E4M3B11FNUZ(raw)
            {
                Scalar::OtherFp8
            } else if mlir_sys::mlirTypeIsAInteger(raw) {
                Scalar::Int(mlir_sys::mlirIntegerTypeGetWidth(raw))
            } else {
                Scalar::Other
            }
        }
    }

    pub fn is_fp8(self) -> bool {
        matches!(self, Scalar::NativeFp8 | Scalar::OtherFp8)
    }
}

/// Whether the element of `ty` is an fp8 format tensor cores take, upcast
/// where needed (upstream `supportMMA(value)`'s list: no e4m3b11fnuz).
pub fn is_mma_fp8(ty: Type) -> bool {
    let raw = element_type(ty).to_raw();
    // SAFETY: type predicates on a live type.
    unsafe {
        mlir_sys::mlirTypeIsAFloat8E5M2(raw)
            || mlir_sys::mlirTypeIsAFloat8E4M3FN(raw)
            || mlir_sys::mlirTypeIsAFloat8E5M2FNUZ(raw)
            || mlir_sys::mlirTypeIsAFloat8E4M3FNUZ(raw)
    }
}

/// Bits of the element of `ty`; 0 for types without a width.
pub fn element_bits(ty: Type) -> u32 {
    bit_width(element_type(ty)).unwrap_or(0)
}
