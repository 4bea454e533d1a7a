// The `ttng` dialect: NVIDIA-specific ops that Hopper (sm_90) kernels use:
// wgmma, mbarriers, TMA copies and tensormap updates (Triton 3.6 syntax).
// Blackwell's tcgen05 / tensor-memory ops are not defined yet.
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
  let usePropertiesForAttributes = 1;
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
  }];
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

#endif // TRITIUM_TTNG_OPS
