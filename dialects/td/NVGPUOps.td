// The `nvg` dialect (upstream's NVGPU): the NVIDIA-specific ops upstream's
// TTGIR -> LLVM lowering produces on the way to PTX (wgmma on LLVM structs,
// cluster/warp ids, acquire loads, the tensor-memory base). Tritium's
// lowering makes the wgmma ones as upstream's does; convert-nv-gpu-to-llvm
// turns them all into NVVM ops and inline PTX.
#ifndef TRITIUM_NVG_OPS
#define TRITIUM_NVG_OPS

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "AuxEnums.td"

def NVG_Dialect : Dialect {
  let name = "nvg";
  let cppNamespace = "::tritium::nvg";
  let summary = "NVIDIA-specific ops of upstream Triton's lowering to LLVM (syntax only)";
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let usePropertiesForAttributes = 1;
}

class NVG_Op<string mnemonic, list<Trait> traits = []> : Op<NVG_Dialect, mnemonic, traits>;

def NVG_WGMMAWaitGroupOp : NVG_Op<"wgmma_wait_group", [AllTypesMatch<["input", "output"]>]> {
  let summary = "wait until at most `pendings` wgmma groups are in flight";
  let arguments = (ins LLVM_AnyStruct:$input, I32Attr:$pendings);
  let results = (outs LLVM_AnyStruct:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def NVG_WGMMAOperand : AnyTypeOf<[LLVM_AnyStruct, I64], "wgmma operand A/B type">;

def NVG_WGMMAOp : NVG_Op<"wgmma"> {
  let summary = "one wgmma.mma_async on LLVM values";
  let arguments = (ins NVG_WGMMAOperand:$opA, NVG_WGMMAOperand:$opB, I1:$useC,
                       Optional<LLVM_AnyStruct>:$opC,
                       I32Attr:$m, I32Attr:$n, I32Attr:$k,
                       NVG_WGMMAEltTypeAttr:$eltTypeC, NVG_WGMMAEltTypeAttr:$eltTypeA,
                       NVG_WGMMAEltTypeAttr:$eltTypeB,
                       NVG_WGMMALayoutAttr:$layoutA, NVG_WGMMALayoutAttr:$layoutB);
  let results = (outs LLVM_AnyStruct:$res);
  let assemblyFormat =
      "$opA `,` $opB `,` $useC (`,` $opC^)? attr-dict `:` functional-type(operands, $res)";
}

def NVG_ClusterCTAIdOp : NVG_Op<"cluster_id", [Pure]> {
  let summary = "the CTA's id in its cluster";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def NVG_Scalar : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F16, BF16, F32, F64,
                            I1, I8, I16, I32, I64]>;

def NVG_LoadAcquireOp : NVG_Op<"ld_acquire", [MemoryEffects<[MemRead]>]> {
  let summary = "ld.acquire of a global scalar";
  let arguments = (ins LLVM_PointerInAddressSpace<1>:$addr, Optional<I1>:$mask,
                       NVG_MemSemanticAttr:$sem, NVG_MemSyncScopeAttr:$scope);
  let results = (outs NVG_Scalar:$result);
  let assemblyFormat =
      "$sem `,` $scope `,` $addr (`,` $mask^)? attr-dict `:` functional-type($addr, $result)";
}

def NVG_WarpIdOp : NVG_Op<"warp_id", [Pure]> {
  let summary = "the warp's index in its CTA (uniform)";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def NVG_TensorMemoryBaseAddress : NVG_Op<"tensor_memory_base", [Pure]> {
  let summary = "the base address of the kernel's tensor memory";
  let results = (outs LLVM_PointerInAddressSpace<6>:$result);
  let assemblyFormat = "attr-dict";
}

#endif // TRITIUM_NVG_OPS
