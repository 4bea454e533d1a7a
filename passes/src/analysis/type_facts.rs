//! Facts about types that analyses of memory accesses need: bit widths of
//! scalars and of what pointers point to.
use melior::ir::{ShapedTypeLike, Type};
use tritium_dialects::access::ranked_tensor;
use tritium_dialects::types::pointer_parts;

/// Bits of an integer, index or float type (upstream `getIntOrFloatBitWidth`);
/// pointers count as 64 bits. `None` for other types.
pub fn bit_width(ty: Type) -> Option<u32> {
    if let Some(width) = tritium_dialects::ir::int_or_float_width(ty) {
        return Some(width);
    }
    if tritium_dialects::ir::is_index(ty) {
        return Some(64);
    }
    pointer_parts(ty).map(|_| 64)
}

/// The scalar a tensor holds, or the type itself.
pub fn element_type(ty: Type) -> Type {
    ranked_tensor(ty).map(|t| t.element()).unwrap_or(ty)
}

/// Bits of what a pointer, or a tensor of pointers, points to (upstream
/// `getPointeeBitWidth`); a pointer to a tensor counts the tensor's element.
/// `None` when `ty` is not a pointer (tensor).
pub fn pointee_bit_width(ty: Type) -> Option<u32> {
    let (pointee, _) = pointer_parts(element_type(ty))?;
    bit_width(element_type(pointee))
}

/// Bit width of the elements a memory access moves: the pointee of a tensor
/// of pointers, else the tensor's element (upstream `getElementBitWidth`).
pub fn access_bit_width(ty: Type) -> Option<u32> {
    pointee_bit_width(ty).or_else(|| bit_width(element_type(ty)))
}

/// Rank of a value as the axis-info analysis counts it: a tensor's rank, the
/// rank of the tensor a pointer points to, else 1 (scalars).
pub fn axis_rank(ty: Type) -> usize {
    if let Ok(tensor) = ranked_tensor(ty) {
        return tensor.rank();
    }
    match pointer_parts(ty) {
        Some((pointee, _)) => ranked_tensor(pointee).map_or(1, |t| t.rank()),
        None => 1,
    }
}
