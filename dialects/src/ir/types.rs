//! Builtin scalar types: kinds, widths and signedness, without printing.
use melior::ir::{Type, TypeLike};

/// The builtin scalar kinds the passes tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    F16,
    BF16,
    F32,
    F64,
    /// `f8E5M2`, `f8E4M3FN`: the fp8 formats NVIDIA's MMA instructions take.
    NativeFp8,
    /// `f8E4M3FNUZ`, `f8E5M2FNUZ`, `f8E4M3B11FNUZ`.
    OtherFp8,
    /// A builtin integer of that many bits (any signedness).
    Int(u32),
    Other,
}

impl ScalarKind {
    /// Any fp8 format, native to the tensor cores or not.
    pub fn is_fp8(self) -> bool {
        matches!(self, ScalarKind::NativeFp8 | ScalarKind::OtherFp8)
    }
}

/// The kind of scalar type `ty`.
pub fn scalar_kind(ty: Type) -> ScalarKind {
    let raw = ty.to_raw();
    // SAFETY: type predicates on a live type; the width only of an integer.
    unsafe {
        if mlir_sys::mlirTypeIsAF16(raw) {
            ScalarKind::F16
        } else if mlir_sys::mlirTypeIsABF16(raw) {
            ScalarKind::BF16
        } else if mlir_sys::mlirTypeIsAF32(raw) {
            ScalarKind::F32
        } else if mlir_sys::mlirTypeIsAF64(raw) {
            ScalarKind::F64
        } else if mlir_sys::mlirTypeIsAFloat8E5M2(raw) || mlir_sys::mlirTypeIsAFloat8E4M3FN(raw) {
            ScalarKind::NativeFp8
        } else if mlir_sys::mlirTypeIsAFloat8E4M3FNUZ(raw)
            || mlir_sys::mlirTypeIsAFloat8E5M2FNUZ(raw)
            || mlir_sys::mlirTypeIsAFloat8E4M3B11FNUZ(raw)
        {
            ScalarKind::OtherFp8
        } else if mlir_sys::mlirTypeIsAInteger(raw) {
            ScalarKind::Int(mlir_sys::mlirIntegerTypeGetWidth(raw))
        } else {
            ScalarKind::Other
        }
    }
}

/// `f8E5M2`, `f8E4M3FN`, `f8E5M2FNUZ` or `f8E4M3FNUZ`: the fp8 types an MMA
/// takes as fp8 operands.
pub fn is_mma_fp8_type(ty: Type) -> bool {
    let raw = ty.to_raw();
    // SAFETY: type predicates on a live type.
    unsafe {
        mlir_sys::mlirTypeIsAFloat8E5M2(raw)
            || mlir_sys::mlirTypeIsAFloat8E4M3FN(raw)
            || mlir_sys::mlirTypeIsAFloat8E5M2FNUZ(raw)
            || mlir_sys::mlirTypeIsAFloat8E4M3FNUZ(raw)
    }
}

/// Any builtin float type.
pub fn is_float(ty: Type) -> bool {
    // SAFETY: a kind query on a live type.
    unsafe { mlir_sys::mlirTypeIsAFloat(ty.to_raw()) }
}

/// `f32`.
pub fn is_f32(ty: Type) -> bool {
    // SAFETY: a kind query on a live type.
    unsafe { mlir_sys::mlirTypeIsAF32(ty.to_raw()) }
}

/// A builtin integer type (any signedness).
pub fn is_integer(ty: Type) -> bool {
    // SAFETY: a kind query on a live type.
    unsafe { mlir_sys::mlirTypeIsAInteger(ty.to_raw()) }
}

/// `index`.
pub fn is_index(ty: Type) -> bool {
    // SAFETY: a kind query on a live type.
    unsafe { mlir_sys::mlirTypeIsAIndex(ty.to_raw()) }
}

/// Bits of a float type; `None` for other types.
pub fn float_width(ty: Type) -> Option<u32> {
    // SAFETY: a live type, asked for its width only when it is a float.
    unsafe { is_float(ty).then(|| mlir_sys::mlirFloatTypeGetWidth(ty.to_raw())) }
}

/// Bits of an integer type; `None` for other types (`index` included).
pub fn integer_width(ty: Type) -> Option<u32> {
    // SAFETY: a live type, asked for its width only when it is an integer.
    unsafe { is_integer(ty).then(|| mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw())) }
}

/// Bits of an integer or float type; `None` for other types.
pub fn int_or_float_width(ty: Type) -> Option<u32> {
    integer_width(ty).or_else(|| float_width(ty))
}

/// Width and signedness of an integer type: `(bits, signed, unsigned)`
/// (signless is neither); `None` for other types.
pub fn integer_signedness(ty: Type) -> Option<(u32, bool, bool)> {
    let raw = ty.to_raw();
    // SAFETY: a live type, queried as an integer type only when it is one.
    unsafe {
        is_integer(ty).then(|| {
            (
                mlir_sys::mlirIntegerTypeGetWidth(raw),
                mlir_sys::mlirIntegerTypeIsSigned(raw),
                mlir_sys::mlirIntegerTypeIsUnsigned(raw),
            )
        })
    }
}

/// The builtin signless integer type of `width` bits in `location`'s context.
pub fn integer_type<'c>(location: melior::ir::Location<'c>, width: u32) -> Type<'c> {
    // SAFETY: a live location has a live context.
    unsafe {
        let context = mlir_sys::mlirLocationGetContext(location.to_raw());
        Type::from_raw(mlir_sys::mlirIntegerTypeGet(context, width))
    }
}

/// The element type of a shaped type (tensor, vector, memref), or `ty`
/// itself when it is not shaped.
pub fn shaped_element_or_self(ty: Type) -> Type {
    // SAFETY: live types; only shaped types are asked for their element.
    unsafe {
        if mlir_sys::mlirTypeIsAShaped(ty.to_raw()) {
            Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(ty.to_raw()))
        } else {
            ty
        }
    }
}

/// The fields of an `!llvm.struct<...>` type; `None` for other types.
pub fn llvm_struct_fields(ty: Type<'_>) -> Option<Vec<Type<'_>>> {
    let raw = ty.to_raw();
    // SAFETY: a live type, read as an LLVM struct only when it is one.
    unsafe {
        mlir_sys::mlirTypeIsALLVMStructType(raw).then(|| {
            (0..mlir_sys::mlirLLVMStructTypeGetNumElementTypes(raw))
                .map(|i| Type::from_raw(mlir_sys::mlirLLVMStructTypeGetElementType(raw, i)))
                .collect()
        })
    }
}

/// Whether `ty` is an `!llvm.ptr` (of any address space).
pub fn is_llvm_pointer(ty: Type) -> bool {
    // SAFETY: a kind query on a live type.
    unsafe { mlir_sys::mlirTypeIsALLVMPointerType(ty.to_raw()) }
}

/// The result and parameter types of an `!llvm.func<...>` type. The C API
/// has no test for that kind, so the caller must know `ty` is one.
pub fn llvm_function_signature(ty: Type<'_>) -> (Type<'_>, Vec<Type<'_>>) {
    let raw = ty.to_raw();
    // SAFETY: a live LLVM function type (the caller's promise).
    unsafe {
        let inputs = (0..mlir_sys::mlirLLVMFunctionTypeGetNumInputs(raw))
            .map(|i| Type::from_raw(mlir_sys::mlirLLVMFunctionTypeGetInput(raw, i)))
            .collect();
        (Type::from_raw(mlir_sys::mlirLLVMFunctionTypeGetReturnType(raw)), inputs)
    }
}

/// The namespace of the dialect that defines `ty` (`builtin`, `llvm`,
/// `tt`...), empty strings included (melior's accessor panics on those).
pub fn type_dialect(ty: Type) -> String {
    // SAFETY: a live type has a live dialect.
    crate::access::string_ref_text(unsafe {
        mlir_sys::mlirDialectGetNamespace(mlir_sys::mlirTypeGetDialect(ty.to_raw()))
    })
}

/// The element type and the number of elements of a builtin vector type;
/// `None` for other types.
pub fn vector_elements(ty: Type) -> Option<(Type, u64)> {
    let raw = ty.to_raw();
    // SAFETY: a live type, read as a shaped type only when it is a vector.
    unsafe {
        if !mlir_sys::mlirTypeIsAVector(raw) {
            return None;
        }
        let count: i64 = (0..mlir_sys::mlirShapedTypeGetRank(raw))
            .map(|d| mlir_sys::mlirShapedTypeGetDimSize(raw, d as isize))
            .product();
        Some((Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)), count.max(0) as u64))
    }
}
