// The `nvws` dialect (upstream's NVIDIA warp specialization): asynchronous
// references (arefs) between partitions, producer/consumer tokens and the
// nvws.warp_group container. Syntax and verifiers only: Tritium has no warp
// specialization passes yet.
#ifndef TRITIUM_NVWS_OPS
#define TRITIUM_NVWS_OPS

include "TritonGPUBase.td"
include "AuxEnums.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def NVWS_Dialect : Dialect {
  let name = "nvws";
  let cppNamespace = "::tritium::nvws";
  let summary = "NVIDIA warp specialization: arefs, tokens, warp groups (syntax only)";
  let dependentDialects = ["::tritium::tt::TTDialect", "::tritium::ttg::TTGDialect"];
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

def NVWS_ArefType : TypeDef<NVWS_Dialect, "Aref"> {
  let mnemonic = "aref";
  let summary = "asynchronous reference to buffers (a leading dimension counts their stages)";
  let parameters = (ins "::mlir::ArrayAttr":$baseType);
  let assemblyFormat = "`<` $baseType `>`";
}

def NVWS_TokenType : TypeDef<NVWS_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "producer/consumer synchronisation token";
}

def NVWS_AsyncOpAttr : EnumAttr<NVWS_Dialect, NVWS_AsyncOpKind, "async_op"> {
  let assemblyFormat = "`<` $value `>`";
}
def NVWS_AsyncOpArrayAttr : TypedArrayAttrBase<NVWS_AsyncOpAttr, "array of async op attributes">;

class NVWS_Op<string mnemonic, list<Trait> traits = []> : Op<NVWS_Dialect, mnemonic, traits>;

def NVWS_ArefCreateOp : NVWS_Op<"aref.create", [Pure,
    RangedTypesMatchWith<"buffer types are the aref's", "result", "buffers",
                         "::llvm::cast<ArefType>($_self).getBaseType().getAsValueRange<::mlir::TypeAttr>()">]> {
  let summary = "an aref over buffers whose leading dimension counts the stages";
  let arguments = (ins Variadic<TTG_MemDescType>:$buffers);
  let results = (outs NVWS_ArefType:$result);
  let assemblyFormat = "$buffers attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def NVWS_ArefBufferOp : NVWS_Op<"aref.buffer"> {
  let summary = "the buffers of an aref stage";
  let arguments = (ins NVWS_ArefType:$aref, TTG_AsyncToken:$token, Optional<I32>:$stage);
  let results = (outs Variadic<TTG_MemDescType>:$buffers);
  let assemblyFormat = [{
    $aref (`[` $stage^ `]`)? `,` $token attr-dict
    `:` type($aref) `,` type($token) `->` type(results)
  }];
}

def NVWS_ArefGetEnterOp : NVWS_Op<"aref.get.enter", [AttrSizedOperandSegments]> {
  let summary = "start reading an aref stage (may span loop iterations)";
  let arguments = (ins NVWS_ArefType:$aref, Optional<I32>:$stage, Optional<I32>:$phase);
  let results = (outs Variadic<TTG_MemDescType>:$buffers, TTG_AsyncToken:$token);
  let assemblyFormat = "$aref (`[` $stage^ `,` $phase `]`)? attr-dict `:` type($aref) `->` type(results)";
  let hasVerifier = 1;
}

def NVWS_ArefGetExitOp : NVWS_Op<"aref.get.exit"> {
  let summary = "stop reading an aref stage once the listed async ops are done";
  let arguments = (ins NVWS_ArefType:$aref, TTG_AsyncToken:$token, Optional<I32>:$stage,
                       NVWS_AsyncOpArrayAttr:$async_ops);
  let assemblyFormat = [{
    $aref (`[` $stage^ `]`)? `,` $token $async_ops attr-dict `:` type($aref) `,` type($token)
  }];
}

def NVWS_ArefPutEnterOp : NVWS_Op<"aref.put.enter", [AttrSizedOperandSegments]> {
  let summary = "start writing an aref stage (may span loop iterations)";
  let arguments = (ins NVWS_ArefType:$aref, Optional<I32>:$stage, Optional<I32>:$phase);
  let results = (outs Variadic<TTG_MemDescType>:$buffers, TTG_AsyncToken:$token);
  let assemblyFormat = "$aref (`[` $stage^ `,` $phase `]`)? attr-dict `:` type($aref) `->` type(results)";
  let hasVerifier = 1;
}

def NVWS_ArefPutExitOp : NVWS_Op<"aref.put.exit"> {
  let summary = "stop writing an aref stage once the listed async ops are done";
  let arguments = (ins NVWS_ArefType:$aref, TTG_AsyncToken:$token, Optional<I32>:$stage,
                       NVWS_AsyncOpArrayAttr:$async_ops);
  let assemblyFormat = [{
    $aref (`[` $stage^ `]`)? `,` $token $async_ops attr-dict `:` type($aref) `,` type($token)
  }];
}

def NVWS_WarpGroupOp : NVWS_Op<"warp_group", [RecursiveMemoryEffects, RecursivelySpeculatable]> {
  let summary = "warp-specialised partitions, each a region run by numWarps[i] warps";
  let arguments = (ins DenseI32ArrayAttr:$numWarps);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
}

def NVWS_WarpGroupYieldOp : NVWS_Op<"warp_group.yield",
    [Pure, Terminator, ReturnLike, HasParent<"WarpGroupOp">]> {
  let summary = "the results of nvws.warp_group, from its first region";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^)? attr-dict (`:` type($values)^)?";
}

def NVWS_WarpGroupReturnOp : NVWS_Op<"warp_group.return",
    [Pure, Terminator, HasParent<"WarpGroupOp">]> {
  let summary = "end of a warp group's region";
  let assemblyFormat = "attr-dict";
}

def NVWS_CreateTokenOp : NVWS_Op<"create_token"> {
  let summary = "a tensor of tokens, one per buffer";
  let arguments = (ins I32Attr:$numBuffers, NVWS_TokenLoadTypeAttr:$loadType);
  let results = (outs TensorOf<[NVWS_TokenType]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def NVWS_ProducerAcquireOp : NVWS_Op<"producer_acquire"> {
  let summary = "wait until buffer idx may be filled";
  let arguments = (ins TensorOf<[NVWS_TokenType]>:$token, I32:$idx, I1:$phase);
  let assemblyFormat = "$token `,` $idx `,` $phase attr-dict `:` type(operands)";
}

def NVWS_ProducerCommitOp : NVWS_Op<"producer_commit"> {
  let summary = "signal that buffer idx is filled";
  let arguments = (ins TensorOf<[NVWS_TokenType]>:$token, I32:$idx);
  let assemblyFormat = "$token `,` $idx attr-dict `:` type(operands)";
}

def NVWS_ConsumerWaitOp : NVWS_Op<"consumer_wait"> {
  let summary = "wait until buffer idx is filled";
  let arguments = (ins TensorOf<[NVWS_TokenType]>:$token, I32:$idx, I1:$phase);
  let assemblyFormat = "$token `,` $idx `,` $phase attr-dict `:` type(operands)";
}

def NVWS_ConsumerReleaseOp : NVWS_Op<"consumer_release"> {
  let summary = "signal that buffer idx may be filled again";
  let arguments = (ins TensorOf<[NVWS_TokenType]>:$token, I32:$idx);
  let assemblyFormat = "$token `,` $idx attr-dict `:` type(operands)";
}

def NVWS_DescriptorLoadOp : NVWS_Op<"descriptor_load"> {
  let summary = "tt.descriptor_load into shared memory (synchronous)";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TT_GlobalMemory>]>:$desc,
    Variadic<I32>:$indices,
    I32Attr:$txCount,
    Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$result,
    DefaultValuedAttr<TT_CacheModifierAttr, "::tritium::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::tritium::tt::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $desc `[` $indices `]` $txCount $result
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type(operands)
  }];
}

def NVWS_DescriptorGatherOp : NVWS_Op<"descriptor_gather"> {
  let summary = "tt.descriptor_gather into shared memory (synchronous)";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TT_GlobalMemory>]>:$desc,
    RankedTensorOf<[I32]>:$x_offsets,
    I32:$y_offset,
    I32Attr:$txCount,
    Arg<TTG_MemDescType, "", [MemWrite<TT_SharedMemory>]>:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $txCount $result attr-dict `:` type(operands)
  }];
}

#endif // TRITIUM_NVWS_OPS
