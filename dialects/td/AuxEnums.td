// Enums of the small auxiliary dialects (nvg, nvws, tti), in a file of their
// own: -gen-enum-decls emits every enum a .td file sees, so these must not
// be generated together with the tt enums their ops' files include.
#ifndef TRITIUM_AUX_ENUMS
#define TRITIUM_AUX_ENUMS

include "mlir/IR/EnumAttr.td"

// nvg
def NVG_MemSemanticAttr : I32EnumAttr<"MemSemantic", "", [
    I32EnumAttrCase<"RELAXED", 1, "relaxed">, I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
    I32EnumAttrCase<"RELEASE", 3, "release">, I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">]> {
  let cppNamespace = "::tritium::nvg";
}
def NVG_MemSyncScopeAttr : I32EnumAttr<"MemSyncScope", "", [
    I32EnumAttrCase<"GPU", 1, "gpu">, I32EnumAttrCase<"CTA", 2, "cta">,
    I32EnumAttrCase<"SYSTEM", 3, "sys">]> {
  let cppNamespace = "::tritium::nvg";
}
def NVG_WGMMALayoutAttr : I32EnumAttr<"WGMMALayout", "wgmma operand layout, row or col", [
    I32EnumAttrCase<"row", 0>, I32EnumAttrCase<"col", 1>]> {
  let cppNamespace = "::tritium::nvg";
}
def NVG_WGMMAEltTypeAttr : I32EnumAttr<"WGMMAEltType", "wgmma element type", [
    I32EnumAttrCase<"s8", 0>, I32EnumAttrCase<"s32", 1>, I32EnumAttrCase<"e4m3", 2>,
    I32EnumAttrCase<"e5m2", 3>, I32EnumAttrCase<"f16", 4>, I32EnumAttrCase<"bf16", 5>,
    I32EnumAttrCase<"tf32", 6>, I32EnumAttrCase<"f32", 7>]> {
  let cppNamespace = "::tritium::nvg";
}

// nvws
def NVWS_TokenLoadTypeAttr : I32EnumAttr<"TokenLoadType", "", [
    I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"AsyncLoadOp", 1, "asyncLoadOp">,
    I32EnumAttrCase<"TMALoadOp", 2, "tmaLoadOp">, I32EnumAttrCase<"LocalStoreOp", 3, "localStoreOp">,
    I32EnumAttrCase<"TmemLoadOp", 4, "TmemLoadOp">]> {
  let cppNamespace = "::tritium::nvws";
}
def NVWS_AsyncOpKind : I32EnumAttr<"AsyncOp", "", [
    I32EnumAttrCase<"NONE", 0, "none">, I32EnumAttrCase<"TMALoad", 1, "tma_load">,
    I32EnumAttrCase<"TC5MMA", 2, "tc5mma">, I32EnumAttrCase<"TMEMCopy", 3, "tmem_copy">,
    I32EnumAttrCase<"CpAsync", 4, "cp_async">, I32EnumAttrCase<"WGMMA", 5, "wgmma">]> {
  let cppNamespace = "::tritium::nvws";
  let genSpecializedAttr = 0;
}

// tti
def TTI_MemTypeAttr : I32EnumAttr<"MemType", "", [
    I32EnumAttrCase<"SHARED_MEM", 0, "shared_mem">, I32EnumAttrCase<"TENSOR_MEM", 1, "tensor_mem">]> {
  let cppNamespace = "::tritium::tti";
}

#endif // TRITIUM_AUX_ENUMS
