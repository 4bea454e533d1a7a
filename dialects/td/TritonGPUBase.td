// The `ttg` dialect's attributes (tensor layouts, shared-memory layouts, the
// shared memory space) and types (!ttg.memdesc, !ttg.async.token).
//
// Layout parameters are stored as plain integers; the layout algebra (what a
// layout means) lives in Rust (crate tritium-layout), which reads them
// through the C accessors in CAPI.cpp. The CTA-to-tensor map of multi-CTA
// layouts is kept as its linear-layout bases (`cgaBases`, rank values per
// basis, flattened), empty for a single CTA, and printed as `CGALayout`.
#ifndef TRITIUM_TTG_BASE
#define TRITIUM_TTG_BASE

include "TritonBase.td"

def TTG_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::tritium::ttg";
  let summary = "Triton IR with layouts: how tensors are spread over threads, warps and CTAs";
  let dependentDialects = ["::tritium::tt::TTDialect", "::mlir::gpu::GPUDialect"];
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

//===----------------------------------------------------------------------===//
// Layout interfaces
//===----------------------------------------------------------------------===//

def TTG_LayoutEncoding : AttrInterface<"LayoutEncoding"> {
  let cppNamespace = "::tritium::ttg";
  let description = "A tensor or memory layout; knows the rank of the tensors it can describe.";
  let methods = [
    InterfaceMethod<"rank of the tensors this layout applies to", "unsigned", "getRank">
  ];
}

def TTG_DistributedEncoding : AttrInterface<"DistributedEncoding"> {
  let cppNamespace = "::tritium::ttg";
  let description = "A layout of a tensor held in registers.";
}

def TTG_SharedEncoding : AttrInterface<"SharedEncoding"> {
  let cppNamespace = "::tritium::ttg";
  let description = "A layout of a buffer in shared memory.";
}

def TTG_MmaEncoding : AttrInterface<"MmaEncoding"> {
  let cppNamespace = "::tritium::ttg";
  let description = "The accumulator layout of a tensor-core instruction.";
}

class TTG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TTG_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
  let attrName = "ttg." # attrMnemonic;
}

def TTG_CgaBasesParameter : ArrayRefParameter<"int32_t", "CTA bases, rank entries each"> {
  let defaultValue = "::llvm::ArrayRef<int32_t>{}";
}

//===----------------------------------------------------------------------===//
// Distributed layouts
//===----------------------------------------------------------------------===//

def TTG_BlockedEncodingAttr : TTG_Attr<"BlockedEncoding", "blocked",
    [TTG_LayoutEncoding, TTG_DistributedEncoding]> {
  let summary = "each thread holds sizePerThread contiguous elements, tiled over threads, warps and CTAs";
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order,
    TTG_CgaBasesParameter:$cgaBases);
  let extraClassDeclaration = [{ unsigned getRank() const { return getSizePerThread().size(); } }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_SliceEncodingAttr : TTG_Attr<"SliceEncoding", "slice",
    [TTG_LayoutEncoding, TTG_DistributedEncoding]> {
  let summary = "the parent layout with dimension `dim` removed (the layout of a reduction's result)";
  let parameters = (ins "unsigned":$dim, "::tritium::ttg::DistributedEncoding":$parent);
  let extraClassDeclaration = [{ unsigned getRank() const; }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_DotOperandEncodingAttr : TTG_Attr<"DotOperandEncoding", "dot_op",
    [TTG_LayoutEncoding, TTG_DistributedEncoding]> {
  let summary = "operand opIdx (0 = A, 1 = B) of a dot whose result has layout `parent`";
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        DefaultValuedParameter<"unsigned", "0">:$kWidth);
  let extraClassDeclaration = [{ unsigned getRank() const; }];
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TTG_NvidiaMmaEncodingAttr : TTG_Attr<"NvidiaMmaEncoding", "nvidia_mma",
    [TTG_LayoutEncoding, TTG_DistributedEncoding, TTG_MmaEncoding]> {
  let summary = "accumulator layout of mma.sync (version 2) or wgmma (version 3)";
  let parameters = (ins
    "unsigned":$versionMajor,
    "unsigned":$versionMinor,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    TTG_CgaBasesParameter:$cgaBases,
    ArrayRefParameter<"unsigned">:$instrShape);
  let extraClassDeclaration = [{
    unsigned getRank() const { return getWarpsPerCTA().size(); }
    bool isAmpere() const { return getVersionMajor() == 2; }
    bool isHopper() const { return getVersionMajor() == 3; }
  }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_LinearEncodingAttr : TTG_Attr<"LinearEncoding", "linear",
    [TTG_LayoutEncoding, TTG_DistributedEncoding]> {
  let summary = "a distributed layout given directly as a linear layout (bases per input dimension)";
  let parameters = (ins
    "unsigned":$rank,
    ArrayRefParameter<"int32_t">:$registerBases,
    ArrayRefParameter<"int32_t">:$laneBases,
    ArrayRefParameter<"int32_t">:$warpBases,
    ArrayRefParameter<"int32_t">:$blockBases);
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

// AMD's MFMA and WMMA accumulator layouts: upstream registers them in the ttg
// dialect on every target, so Tritium parses, verifies and prints them (as
// upstream does) but has no layout algebra or lowering for them.
def TTG_AMDMfmaEncodingAttr : TTG_Attr<"AMDMfmaEncoding", "amd_mfma",
    [TTG_LayoutEncoding, TTG_DistributedEncoding, TTG_MmaEncoding]> {
  let summary = "accumulator layout of AMD's MFMA instructions (syntax only)";
  let parameters = (ins
    "unsigned":$version,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$instrShape,
    "bool":$isTransposed,
    TTG_CgaBasesParameter:$cgaBases,
    ArrayRefParameter<"unsigned">:$tilesPerWarp,
    "unsigned":$elementBitWidth);
  let extraClassDeclaration = [{ unsigned getRank() const { return getWarpsPerCTA().size(); } }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_AMDWmmaEncodingAttr : TTG_Attr<"AMDWmmaEncoding", "amd_wmma",
    [TTG_LayoutEncoding, TTG_DistributedEncoding, TTG_MmaEncoding]> {
  let summary = "accumulator layout of AMD's WMMA instructions (syntax only)";
  let parameters = (ins
    "unsigned":$version,
    "bool":$isTransposed,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$tilesPerWarp,
    TTG_CgaBasesParameter:$cgaBases,
    ArrayRefParameter<"unsigned">:$instrShape);
  let extraClassDeclaration = [{ unsigned getRank() const { return getWarpsPerCTA().size(); } }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Shared-memory layouts
//===----------------------------------------------------------------------===//

def TTG_SwizzledSharedEncodingAttr : TTG_Attr<"SwizzledSharedEncoding", "swizzled_shared",
    [TTG_LayoutEncoding, TTG_SharedEncoding]> {
  let summary = "rows of `vec`-element vectors XOR-swizzled by (row / perPhase) % maxPhase";
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order, TTG_CgaBasesParameter:$cgaBases);
  let extraClassDeclaration = [{ unsigned getRank() const { return getOrder().size(); } }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_NVMMASharedEncodingAttr : TTG_Attr<"NVMMASharedEncoding", "nvmma_shared",
    [TTG_LayoutEncoding, TTG_SharedEncoding]> {
  let summary = "the swizzled layouts wgmma and TMA read and write (32, 64 or 128-byte swizzle)";
  let parameters = (ins "unsigned":$swizzlingByteWidth, "bool":$transposed,
                        "unsigned":$elementBitWidth, "bool":$fp4Padded, "unsigned":$rank,
                        TTG_CgaBasesParameter:$cgaBases);
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_SharedLinearEncodingAttr : TTG_Attr<"SharedLinearEncoding", "shared_linear",
    [TTG_LayoutEncoding, TTG_SharedEncoding]> {
  let summary = "a shared-memory layout given as a linear layout: offset (and block) bases";
  let description = [{
    `#ttg.shared_linear<{offset = [[0, 1], ...], block = [...]}, alignment = 16>`:
    basis i of `offset` is the tensor coordinate of element offset 2^i. Tritium
    parses, verifies (surjective, bijective without zero bases) and prints it
    as upstream; passes and the lowering do not use it yet.
  }];
  let parameters = (ins
    "unsigned":$rank,
    ArrayRefParameter<"int32_t">:$offsetBases,
    ArrayRefParameter<"int32_t">:$blockBases,
    "unsigned":$alignment);
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_PaddedSharedEncodingAttr : TTG_Attr<"PaddedSharedEncoding", "padded_shared",
    [TTG_LayoutEncoding, TTG_SharedEncoding]> {
  let summary = "a shared-memory layout with `paddings[i]` elements after every `intervals[i]`";
  let description = [{
    `#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [256, 128]}>`, or with the
    element order as linear-layout bases: `{offset = [[0, 1], ...], block = []}`.
    Parsed, verified and printed as upstream; passes and the lowering do not use
    it yet.
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$intervals,
    ArrayRefParameter<"unsigned">:$paddings,
    "unsigned":$rank,
    ArrayRefParameter<"int32_t">:$offsetBases,
    ArrayRefParameter<"int32_t">:$blockBases);
  let extraClassDeclaration = [{
    // Size of each dimension the layout covers (2^bits of its bases).
    ::llvm::SmallVector<int64_t> getShape() const;
  }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_SharedMemorySpaceAttr : AttrDef<TTG_Dialect, "SharedMemorySpace"> {
  let mnemonic = "shared_memory";
  let summary = "the memory space of shared memory (in !ttg.memdesc)";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class TTG_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TTG_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TTG_AsyncToken : TTG_TypeDef<"AsyncToken", "async.token"> {
  let summary = "token of an asynchronous operation, consumed by the ops that wait for it";
}

def TTG_MemDescType : TTG_TypeDef<"MemDesc", "memdesc", [ShapedTypeInterface]> {
  let summary = "descriptor of a buffer in shared memory: shape, element type, layout, memory space";
  let description = [{
    `!ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>`; a trailing shape is the
    shape of the whole allocation when it differs from the view's shape.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "::mlir::Type":$elementType,
    "::mlir::Attribute":$encoding,
    "::mlir::Attribute":$memorySpace,
    "bool":$mutableMemory,
    ArrayRefParameter<"int64_t">:$allocShape);
  let extraClassDeclaration = [{
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape, ::mlir::Type elementType) const {
      return MemDescType::get(getContext(), shape.value_or(getShape()), elementType, getEncoding(),
                              getMemorySpace(), getMutableMemory(), getAllocShape());
    }
    bool hasRank() const { return true; }
  }];
  let genVerifyDecl = 1;
  let hasCustomAssemblyFormat = 1;
}

def TTG_TensorOrMemDesc : AnyTypeOf<[TT_FpIntTensor, TTG_MemDescType], "tensor or memory descriptor">;

#endif // TRITIUM_TTG_BASE
