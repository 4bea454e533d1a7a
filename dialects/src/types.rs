//! Tritium's types: `!tt.ptr<T[, addressSpace]>`, `!tt.tensordesc<tensor<...>>`,
//! `!ttg.memdesc<...>` and `!ttg.async.token`.
use crate::access::ranked_tensor;
use crate::ffi;
use melior::{
    ir::{Attribute, AttributeLike, Location, Type, TypeLike},
    Context,
};

/// `!tt.ptr<pointee>` in address space 1 (global memory) or another.
pub fn pointer<'c>(pointee: Type<'c>, address_space: i32) -> Type<'c> {
    // SAFETY: valid type in, valid type out.
    unsafe { Type::from_raw(ffi::tritiumPointerTypeGet(pointee.to_raw(), address_space)) }
}

pub fn is_pointer(ty: Type) -> bool {
    unsafe { ffi::tritiumTypeIsPointer(ty.to_raw()) }
}

/// The pointee and address space of a `!tt.ptr`.
pub fn pointer_parts(ty: Type<'_>) -> Option<(Type<'_>, i32)> {
    if !is_pointer(ty) {
        return None;
    }
    unsafe {
        Some((
            Type::from_raw(ffi::tritiumPointerTypeGetPointee(ty.to_raw())),
            ffi::tritiumPointerTypeGetAddressSpace(ty.to_raw()),
        ))
    }
}

/// `!tt.tensordesc<block>`; `block` must be a ranked tensor type.
pub fn tensor_descriptor<'c>(block: Type<'c>) -> Option<Type<'c>> {
    if !block.is_ranked_tensor() {
        return None;
    }
    unsafe { Some(Type::from_raw(ffi::tritiumTensorDescTypeGet(block.to_raw()))) }
}

pub fn tensor_descriptor_block(ty: Type<'_>) -> Option<Type<'_>> {
    unsafe {
        ffi::tritiumTypeIsTensorDesc(ty.to_raw())
            .then(|| Type::from_raw(ffi::tritiumTensorDescTypeGetBlockType(ty.to_raw())))
    }
}

pub fn async_token(context: &Context) -> Type<'_> {
    unsafe { Type::from_raw(ffi::tritiumAsyncTokenTypeGet(context.to_raw())) }
}

/// `#ttg.shared_memory`, the memory space of shared-memory buffers.
pub fn shared_memory_space(context: &Context) -> Attribute<'_> {
    unsafe { Attribute::from_raw(ffi::tritiumSharedMemorySpaceGet(context.to_raw())) }
}

/// The parameters of a `!ttg.memdesc`.
#[derive(Clone, Debug, PartialEq)]
pub struct MemDesc<'c> {
    pub shape: Vec<i64>,
    pub element_type: Type<'c>,
    pub encoding: Attribute<'c>,
    pub memory_space: Attribute<'c>,
    pub mutable: bool,
    /// Shape of the whole allocation this is a view of (equal to `shape` for
    /// an allocation itself).
    pub alloc_shape: Vec<i64>,
}

impl<'c> MemDesc<'c> {
    /// Reads a `!ttg.memdesc` type.
    pub fn of(ty: Type<'c>) -> Option<Self> {
        let raw = ty.to_raw();
        unsafe {
            if !ffi::tritiumTypeIsMemDesc(raw) {
                return None;
            }
            let shape =
                (0..ffi::tritiumMemDescTypeGetRank(raw)).map(|d| ffi::tritiumMemDescTypeGetDim(raw, d)).collect();
            let alloc_shape = (0..ffi::tritiumMemDescTypeGetAllocRank(raw))
                .map(|d| ffi::tritiumMemDescTypeGetAllocDim(raw, d))
                .collect();
            Some(Self {
                shape,
                element_type: Type::from_raw(ffi::tritiumMemDescTypeGetElementType(raw)),
                encoding: Attribute::from_raw(ffi::tritiumMemDescTypeGetEncoding(raw)),
                memory_space: Attribute::from_raw(ffi::tritiumMemDescTypeGetMemorySpace(raw)),
                mutable: ffi::tritiumMemDescTypeIsMutable(raw),
                alloc_shape,
            })
        }
    }

    /// Builds the type; `None` (with a diagnostic at `location`) if invalid.
    pub fn to_type(&self, location: Location<'c>) -> Option<Type<'c>> {
        unsafe {
            Type::from_option_raw(ffi::tritiumMemDescTypeGet(
                location.to_raw(),
                self.shape.len() as isize,
                self.shape.as_ptr(),
                self.element_type.to_raw(),
                self.encoding.to_raw(),
                self.memory_space.to_raw(),
                self.mutable,
                self.alloc_shape.len() as isize,
                self.alloc_shape.as_ptr(),
            ))
        }
    }
}

/// The static shape of a ranked tensor type; `None` for other types or a
/// dynamic dimension (Triton tensors are always static).
pub fn static_shape(ty: Type<'_>) -> Option<Vec<i64>> {
    use melior::ir::r#type::{DimSize, ShapedTypeLike};
    let tensor = ranked_tensor(ty).ok()?;
    (0..tensor.rank())
        .map(|d| match tensor.dim_size(d) {
            Ok(DimSize::Static(n)) => i64::try_from(n).ok(),
            _ => None,
        })
        .collect()
}
