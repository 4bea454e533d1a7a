//! The C functions of `dialects/cpp/include/tritium/CAPI.h`.
#![allow(non_snake_case)]

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirDialectRegistry, MlirLocation, MlirOperation, MlirType,
};
use std::os::raw::{c_char, c_int, c_void};

pub const OPTION_STRING: c_int = 0;
pub const OPTION_INT: c_int = 1;
pub const OPTION_BOOL: c_int = 2;

#[repr(C)]
pub struct TritiumPassOption {
    pub name: *const c_char,
    pub description: *const c_char,
    pub kind: c_int,
    pub default_value: *const c_char,
}

pub type TritiumPassRun = unsafe extern "C" fn(
    user_data: *mut c_void,
    op: MlirOperation,
    values: *const *const c_char,
    num_values: usize,
) -> bool;

#[repr(C)]
pub struct TritiumPassSpec {
    pub argument: *const c_char,
    pub description: *const c_char,
    pub anchor: *const c_char,
    pub options: *const TritiumPassOption,
    pub num_options: usize,
    pub run: TritiumPassRun,
    pub user_data: *mut c_void,
}

// The spec is immutable and lives for the whole process once registered.
unsafe impl Send for TritiumPassSpec {}
unsafe impl Sync for TritiumPassSpec {}

pub type TritiumPatternProvider = unsafe extern "C" fn(
    op_name: mlir_sys::MlirStringRef,
    context: MlirContext,
    patterns: mlir_sys::MlirRewritePatternSet,
);

pub type TritiumLayoutChecker = unsafe extern "C" fn(
    query: c_int,
    source: MlirAttribute,
    result: MlirAttribute,
    shape: *const i64,
    rank: isize,
    extra: *const i64,
    extra_size: isize,
    location: MlirLocation,
    inferred: *mut MlirAttribute,
) -> c_int;

unsafe extern "C" {
    pub fn tritiumSetLayoutChecker(checker: TritiumLayoutChecker);
    pub fn tritiumSetCanonicalizationProvider(provider: TritiumPatternProvider);
    pub fn mlirGetDialectHandle__tt__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__ttg__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__ttng__() -> MlirDialectHandle;

    pub fn tritiumRegisterDialects(registry: MlirDialectRegistry);
    pub fn tritiumRegisterUpstreamPasses();
    pub fn tritiumRegisterPass(spec: *const TritiumPassSpec);
    pub fn tritiumParseSourceString(
        context: MlirContext,
        source: mlir_sys::MlirStringRef,
        source_name: mlir_sys::MlirStringRef,
    ) -> MlirOperation;
    pub fn tritiumEmitRemark(location: MlirLocation, message: *const c_char);
    pub fn tritiumEmitWarning(location: MlirLocation, message: *const c_char);
    pub fn tritiumOptMain(argc: c_int, argv: *mut *mut c_char) -> c_int;

    pub fn tritiumLayoutToDictionary(attr: MlirAttribute) -> MlirAttribute;
    pub fn tritiumLayoutFromDictionary(loc: MlirLocation, dictionary: MlirAttribute) -> MlirAttribute;

    pub fn tritiumPointerTypeGet(pointee: MlirType, address_space: c_int) -> MlirType;
    pub fn tritiumTypeIsPointer(ty: MlirType) -> bool;
    pub fn tritiumPointerTypeGetPointee(ty: MlirType) -> MlirType;
    pub fn tritiumPointerTypeGetAddressSpace(ty: MlirType) -> c_int;
    pub fn tritiumTensorDescTypeGet(block_type: MlirType) -> MlirType;
    pub fn tritiumTypeIsTensorDesc(ty: MlirType) -> bool;
    pub fn tritiumTensorDescTypeGetBlockType(ty: MlirType) -> MlirType;
    pub fn tritiumAsyncTokenTypeGet(context: MlirContext) -> MlirType;
    pub fn tritiumTypeIsMemDesc(ty: MlirType) -> bool;
    pub fn tritiumMemDescTypeGet(
        loc: MlirLocation,
        rank: isize,
        shape: *const i64,
        element_type: MlirType,
        encoding: MlirAttribute,
        memory_space: MlirAttribute,
        mutable_memory: bool,
        alloc_rank: isize,
        alloc_shape: *const i64,
    ) -> MlirType;
    pub fn tritiumMemDescTypeGetRank(ty: MlirType) -> isize;
    pub fn tritiumMemDescTypeGetDim(ty: MlirType, dim: isize) -> i64;
    pub fn tritiumMemDescTypeGetAllocRank(ty: MlirType) -> isize;
    pub fn tritiumMemDescTypeGetAllocDim(ty: MlirType, dim: isize) -> i64;
    pub fn tritiumMemDescTypeGetElementType(ty: MlirType) -> MlirType;
    pub fn tritiumMemDescTypeGetEncoding(ty: MlirType) -> MlirAttribute;
    pub fn tritiumMemDescTypeGetMemorySpace(ty: MlirType) -> MlirAttribute;
    pub fn tritiumMemDescTypeIsMutable(ty: MlirType) -> bool;
    pub fn tritiumSharedMemorySpaceGet(context: MlirContext) -> MlirAttribute;
}
