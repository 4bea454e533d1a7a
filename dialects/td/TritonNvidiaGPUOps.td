// The `ttng` dialect: NVIDIA-specific ops that Hopper (sm_90) kernels use:
// wgmma, mbarriers, TMA copies and tensormap updates (Triton 3.6 syntax), and
// Blackwell's tensor memory (TMEM) attributes and tcgen05 ops, as syntax and
// verifiers only: nothing lowers them yet.
#ifndef TRITIUM_TTNG_OPS
#define TRITIUM_TTNG_OPS

include "TritonGPUBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TTNG_Dialect : Dialect {
  let name = "ttng";
  let cppNamespace = "::tritium::ttng";
  let summary = "NVIDIA-specific Triton GPU ops";
  let dependentDialects = ["::tritium::tt::TTDialect", "::tritium::ttg::TTGDialect",
                           "::mlir::gpu::GPUDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

def TTNG_TensorMemory : Resource<"::tritium::ttng::TensorMemory">;

//===----------------------------------------------------------------------===//
// Tensor memory (Blackwell) attributes
//===----------------------------------------------------------------------===//

def TTNG_TensorMemorySpaceAttr : AttrDef<TTNG_Dialect, "TensorMemorySpace"> {
  let mnemonic = "tensor_memory";
  let summary = "the memory space of tensor memory (in !ttg.memdesc)";
}

def TTNG_TensorMemoryEncodingAttr : AttrDef<TTNG_Dialect, "TensorMemoryEncoding"> {
  let mnemonic = "tensor_memory_encoding";
  let summary = "blockM x blockN blocks over TMEM's 128 lanes; colStride elements between "
                "neighbours of a row (1 = packed)";
  let parameters = (ins
    "unsigned":$blockM,
    "unsigned":$blockN,
    "unsigned":$colStride,
    DefaultValuedParameter<"unsigned", "1">:$CTASplitM,
    DefaultValuedParameter<"unsigned", "1">:$CTASplitN,
    DefaultValuedParameter<"bool", "false">:$twoCTAs);
  let genVerifyDecl = 1;
  let assemblyFormat = "`<` struct(params) `>`";
}

def TTNG_TensorMemoryScalesEncodingAttr : AttrDef<TTNG_Dialect, "TensorMemoryScalesEncoding"> {
  let mnemonic = "tensor_memory_scales_encoding";
  let summary = "the chunked layout tcgen05 reads block scales from (32x4x4-byte chunks "
                "repeated over the four warps' lanes)";
  let parameters = (ins
    DefaultValuedParameter<"unsigned", "1">:$CTASplitM,
    DefaultValuedParameter<"unsigned", "1">:$CTASplitN);
  let assemblyFormat = "`<` struct(params) `>`";
}

class TTNG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TTNG_Dialect, mnemonic, !listconcat(traits, [TT_VerifyTensorLayouts])>;

def TTNG_FenceAsyncSharedOp : TTNG_Op<"fence_async_shared"> {
  let summary = "fence.proxy.async: order generic-proxy shared-memory writes before async-proxy reads";
  let arguments = (ins BoolAttr:$bCluster);
  let assemblyFormat = "attr-dict";
}

def TTNG_ClusterArriveOp : TTNG_Op<"cluster_arrive"> {
  let summary = "arrive at the cluster barrier";
  let arguments = (ins I1Attr:$relaxed);
  let assemblyFormat = "attr-dict";
}

def TTNG_ClusterWaitOp : TTNG_Op<"cluster_wait"> {
  let summary = "wait at the cluster barrier";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

def TTNG_WarpGroupDotOp : TTNG_Op<"warp_group_dot", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"result's type matches accumulator's type", "d", "c", "$_self">]> {
  let summary = "d = a * b + c on a warp group (wgmma); b, and a unless in registers, in shared memory";
  let arguments = (ins
    TTG_TensorOrMemDesc:$a,
    TTG_MemDescType:$b,
    TT_FpIntTensor:$c,
    Optional<I1>:$useC,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::tritium::tt::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc,
    DefaultValuedAttr<BoolAttr, "false">:$isAsync);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a`,` $b`,` $c (`,` $useC^)? attr-dict
    `:` type($a) `*` qualified(type($b)) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TTNG_WarpGroupDotWaitOp : TTNG_Op<"warp_group_dot_wait", [AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "wait until at most `pendings` asynchronous wgmma groups are in flight";
  let arguments = (ins Variadic<TTG_TensorOrMemDesc>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<TTG_TensorOrMemDesc>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

def TTNG_InitBarrierOp : TTNG_Op<"init_barrier"> {
  let summary = "initialise an mbarrier with an arrival count";
  let arguments = (ins Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$alloc, I32Attr:$count);
  let assemblyFormat = "$alloc `,` $count attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_InvalBarrierOp : TTNG_Op<"inval_barrier"> {
  let summary = "invalidate an mbarrier";
  let arguments = (ins Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$alloc);
  let assemblyFormat = "$alloc attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_BarrierExpectOp : TTNG_Op<"barrier_expect"> {
  let summary = "expect `size` bytes of transactions on an mbarrier";
  let arguments = (ins Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$alloc,
                       I32Attr:$size, I1:$pred);
  let assemblyFormat = "$alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_WaitBarrierOp : TTNG_Op<"wait_barrier", [AttrSizedOperandSegments]> {
  let summary = "wait until the mbarrier phase `phase` completes";
  let arguments = (ins
    Arg<TTG_MemDescType, "", [MemRead<TT_SharedMemory>, MemWrite<TT_SharedMemory>]>:$alloc,
    I32:$phase, Optional<I1>:$pred, Variadic<TTG_MemDescType>:$deps);
  let assemblyFormat = [{
    $alloc `,` $phase (`,` $pred^)? (`deps` $deps^)?
    attr-dict `:` qualified(type($alloc)) (`,` type($deps)^)?
  }];
  let hasVerifier = 1;
}

def TTNG_ArriveBarrierOp : TTNG_Op<"arrive_barrier"> {
  let summary = "arrive `count` times on an mbarrier";
  let arguments = (ins
    Arg<TTG_MemDescType, "", [MemRead<TT_SharedMemory>, MemWrite<TT_SharedMemory>]>:$alloc,
    I32Attr:$count, Optional<I1>:$pred);
  let assemblyFormat = "$alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_AsyncCopyMbarrierArriveOp : TTNG_Op<"async_copy_mbarrier_arrive"> {
  let summary = "arrive on an mbarrier once all earlier cp.async copies complete";
  let arguments = (ins Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$barrier,
                       UnitAttr:$noIncrement);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

def TTNG_AsyncTMACopyGlobalToLocalOp : TTNG_Op<"async_tma_copy_global_to_local"> {
  let summary = "TMA load of a block into shared memory, completing on an mbarrier";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TT_GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$barrier,
    Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$result,
    I1:$pred,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tritium::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tritium::tt::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let assemblyFormat = [{
    $desc `[` $coord `]` $result `,` $barrier `,` $pred
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncTMACopyLocalToGlobalOp : TTNG_Op<"async_tma_copy_local_to_global"> {
  let summary = "TMA store of a shared-memory block";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDescType, "", [MemRead<TT_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $desc `[` $coord `]` $src
    attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
}

def TTNG_AsyncTMAReduceOp : TTNG_Op<"async_tma_reduce", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "TMA reducing store of a shared-memory block";
  let arguments = (ins
    TT_DescriptorReduceKindAttr:$kind,
    Arg<TT_TensorDescType, "", [MemRead<TT_GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDescType, "", [MemRead<TT_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $kind `,` $desc `[` $coord `]` $src
    attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
}

def TTNG_AsyncTMAGatherOp : TTNG_Op<"async_tma_gather"> {
  let summary = "TMA gather of rows into shared memory";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TT_GlobalMemory>]>:$desc,
    RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset,
    Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$barrier,
    Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$result,
    I1:$pred);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $result `,` $barrier `,` $pred
    attr-dict `:` type(operands)
  }];  let hasVerifier = 1;
}

def TTNG_AsyncTMAScatterOp : TTNG_Op<"async_tma_scatter"> {
  let summary = "TMA scatter of rows from shared memory";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>:$desc,
    RankedTensorOf<[I32]>:$x_offsets, I32:$y_offset,
    Arg<TTG_MemDescType, "", [MemRead<TT_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $src
    attr-dict `:` type(operands)
  }];
}

def TTNG_TMAStoreWaitOp : TTNG_Op<"async_tma_store_wait"> {
  let summary = "wait until at most `pendings` TMA stores still read shared memory";
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = "attr-dict";
}

def TTNG_ReinterpretTensorDescOp : TTNG_Op<"reinterpret_tensor_descriptor", [Pure]> {
  let summary = "view a raw TMA descriptor pointer as a typed tensor descriptor";
  let arguments = (ins TT_Ptr:$rawDesc);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = "$rawDesc attr-dict `:` qualified(type($rawDesc))  `to` qualified(type($result))";
}

def TTNG_TensormapCreateOp : TTNG_Op<"tensormap_create", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>,
    AttrSizedOperandSegments]> {
  let summary = "write a TMA descriptor in global memory";
  let arguments = (ins
    TT_PtrType:$desc_ptr,
    TT_PtrType:$global_address,
    Variadic<I32>:$box_dim,
    Variadic<I32>:$global_dim,
    Variadic<I64>:$global_stride,
    Variadic<I32>:$element_stride,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<15>]>:$elem_type,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$interleave_layout,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<3>]>:$swizzle_mode,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<1>]>:$fill_mode);
  let assemblyFormat = [{
    $desc_ptr `,` $global_address `,`
    `[` $box_dim `]` `,`
    `[` $global_dim `]` `,`
    `[` $global_stride `]` `,`
    `[` $element_stride `]`
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TTNG_TensormapFenceproxyAcquireOp : TTNG_Op<"tensormap_fenceproxy_acquire", [
    MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "acquire fence on a TMA descriptor written by tensormap_create";
  let arguments = (ins TT_PtrType:$desc_ptr);
  let assemblyFormat = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))";
}

//===----------------------------------------------------------------------===//
// Tensor memory and tcgen05 (Blackwell): syntax and verifiers
//===----------------------------------------------------------------------===//

// `[%dep]` after an operand: the async token the op waits for; `[]` when the op
// makes a token without waiting on one; nothing when it uses no tokens.

def TTNG_TCGen5MMAOp : TTNG_Op<"tc_gen5_mma", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, AttrSizedOperandSegments]> {
  let summary = "d += a * b on the 5th-generation tensor cores (tcgen05.mma); d in tensor memory";
  let arguments = (ins
    TTG_MemDescType:$a,
    TTG_MemDescType:$b,
    TTG_MemDescType:$d,
    Optional<TTG_AsyncToken>:$acc_dep,
    I1:$useD,
    I1:$pred,
    Variadic<TTG_MemDescType>:$barriers,
    Variadic<I1>:$barrier_preds,
    UnitAttr:$is_async,
    UnitAttr:$two_ctas);
  let results = (outs Optional<TTG_AsyncToken>:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $useD`,`
    $pred `` custom<BarriersAndPreds>($barriers, $barrier_preds)
    attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,`
    qualified(type($d)) (`,` qualified(type($barriers))^)?
  }];
  let hasVerifier = 1;
}

def TTNG_TCGen5MMAScaledOp : TTNG_Op<"tc_gen5_mma_scaled", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>, AttrSizedOperandSegments]> {
  let summary = "d += scale(a, a_scale) * scale(b, b_scale) on the 5th-generation tensor cores";
  let arguments = (ins
    TTG_MemDescType:$a,
    TTG_MemDescType:$b,
    TTG_MemDescType:$d,
    Optional<TTG_AsyncToken>:$acc_dep,
    TTG_MemDescType:$a_scale,
    TTG_MemDescType:$b_scale,
    TT_ScaleDotElemTypeAttr:$a_type,
    TT_ScaleDotElemTypeAttr:$b_type,
    I1:$useD,
    I1:$pred,
    Variadic<TTG_MemDescType>:$barriers,
    Variadic<I1>:$barrier_preds,
    UnitAttr:$is_async);
  let results = (outs Optional<TTG_AsyncToken>:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $a_scale `,`
    $b_scale `,` $useD `,` $pred `lhs` `=` $a_type `rhs` `=` $b_type
    `` custom<BarriersAndPreds>($barriers, $barrier_preds)
    attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,`
    qualified(type($d)) `,` qualified(type($a_scale)) `,`
    qualified(type($b_scale)) (`,` qualified(type($barriers))^)?
  }];
  let hasVerifier = 1;
}

def TTNG_TCGen5CommitOp : TTNG_Op<"tc_gen5_commit"> {
  let summary = "arrive on an mbarrier once every earlier asynchronous tcgen5 op completes";
  let arguments = (ins
    Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$barrier,
    Optional<I1>:$pred,
    UnitAttr:$two_ctas);
  let assemblyFormat = "$barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))";
}

def TTNG_TMEMLoadOp : TTNG_Op<"tmem_load"> {
  let summary = "load a tensor-memory buffer into a distributed tensor";
  let arguments = (ins
    Arg<TTG_MemDescType, "", [MemRead<TTNG_TensorMemory>]>:$src,
    Optional<TTG_AsyncToken>:$dep);
  let results = (outs TT_Tensor:$result, Optional<TTG_AsyncToken>:$token);
  let assemblyFormat = [{
    $src `` custom<Token>($dep, type($token))
    attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTNG_TMEMStoreOp : TTNG_Op<"tmem_store"> {
  let summary = "store a distributed tensor into a tensor-memory buffer";
  let arguments = (ins
    Arg<TTG_MemDescType, "", [MemWrite<TTNG_TensorMemory>]>:$dst,
    Optional<TTG_AsyncToken>:$dep,
    TT_Tensor:$src,
    I1:$pred);
  let results = (outs Optional<TTG_AsyncToken>:$token);
  let assemblyFormat = [{
    $src `,` $dst `` custom<Token>($dep, type($token)) `,` $pred
    attr-dict `:` type($src) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def TTNG_TMEMAllocOp : TTNG_Op<"tmem_alloc", [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "allocate a tensor-memory buffer, optionally initialised from a tensor";
  let arguments = (ins Optional<TT_Tensor>:$src);
  let results = (outs TTG_MemDescType:$result, Optional<TTG_AsyncToken>:$token);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TTNG_TMEMSubSliceOp : TTNG_Op<"tmem_subslice", [Pure]> {
  let summary = "a view of columns [N, N + width) of a 2-D tensor-memory buffer";
  let arguments = (ins TTG_MemDescType:$src, I32Attr:$N);
  let results = (outs TTG_MemDescType:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TTNG_TMEMCopyOp : TTNG_Op<"tmem_copy"> {
  let summary = "asynchronous copy from shared memory into tensor memory (tcgen05.cp)";
  let arguments = (ins
    Arg<TTG_MemDescType, "", [MemRead<TT_SharedMemory>]>:$src,
    Arg<TTG_MemDescType, "", [MemWrite<TTNG_TensorMemory>]>:$dst,
    Optional<TTG_MemDescType>:$barrier);
  let assemblyFormat = "$src `,` $dst (`,` $barrier^)? attr-dict `:` qualified(type(operands))";
  let hasVerifier = 1;
}

#endif // TRITIUM_TTNG_OPS
