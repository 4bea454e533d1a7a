// The `tt` dialect: Triton's tile-level IR. Its textual syntax is Triton 3.6's,
// so that Tritium reads what upstream Triton writes and the other way round.
#ifndef TRITIUM_TT_BASE
#define TRITIUM_TT_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::tritium::tt";
  let summary = "Triton's tile-level IR";
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::ub::UBDialect"
  ];
  let extraClassDeclaration = [{
    void registerTypes();
  }];
  let useDefaultTypePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TT_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// `!tt.ptr<T>` points to global memory (address space 1, not printed);
// `!tt.ptr<T, N>` to address space N.
def TT_PtrType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer to a scalar or (for block pointers) to a tensor";
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType, "int":$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "descriptor of a tensor in global memory (lowered to a TMA descriptor on Hopper)";
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F16, BF16, F32, F64], "floating-point">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_I4 : I<4>;
def TT_Int : AnyTypeOf<[I1, TT_I4, I8, I16, I32, I64], "integer">;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;
def TT_I32Like : AnyTypeOf<[I32, I32Tensor]>;
def TT_I64Like : AnyTypeOf<[I64, I64Tensor]>;

class TT_PtrOf<list<Type> pointeeTypes> :
    DialectType<TT_Dialect,
                And<[CPred<"::mlir::isa<::tritium::tt::PointerType>($_self)">,
                     Concat<"[](::mlir::Type pointeeType) { return ",
                            SubstLeaves<"$_self", "pointeeType", AnyTypeOf<pointeeTypes>.predicate>,
                            "; }(::mlir::cast<::tritium::tt::PointerType>($_self).getPointeeType())">]>,
                "ptr", "::tritium::tt::PointerType">;

def TT_Ptr : TT_PtrOf<[AnyType]>;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;
def TT_FpIntTensor : RankedTensorOf<[TT_Float, TT_Int]>;
def TT_Tensor : RankedTensorOf<[TT_Float, TT_Int, TT_Ptr]>;
def TT_TensorPtr : TT_PtrOf<[TT_Tensor]>;
def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;

//===----------------------------------------------------------------------===//
// Enum attributes (stored as i32, printed by keyword where an op lists them)
//===----------------------------------------------------------------------===//

def TT_CacheModifierAttr : I32EnumAttr<"CacheModifier", "", [
    I32EnumAttrCase<"NONE", 1, "none">, I32EnumAttrCase<"CA", 2, "ca">,
    I32EnumAttrCase<"CG", 3, "cg">, I32EnumAttrCase<"WB", 4, "wb">,
    I32EnumAttrCase<"CS", 5, "cs">, I32EnumAttrCase<"WT", 6, "wt">,
    I32EnumAttrCase<"CV", 7, "cv">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_MemSemanticAttr : I32EnumAttr<"MemSemantic", "", [
    I32EnumAttrCase<"RELAXED", 1, "relaxed">, I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
    I32EnumAttrCase<"RELEASE", 3, "release">, I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_EvictionPolicyAttr : I32EnumAttr<"EvictionPolicy", "", [
    I32EnumAttrCase<"NORMAL", 1, "evict_normal">, I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
    I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_PaddingOptionAttr : I32EnumAttr<"PaddingOption", "", [
    I32EnumAttrCase<"PAD_ZERO", 1, "zero">, I32EnumAttrCase<"PAD_NAN", 2, "nan">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_AtomicRMWAttr : I32EnumAttr<"RMWOp", "", [
    I32EnumAttrCase<"AND", 1, "and">, I32EnumAttrCase<"OR", 2, "or">,
    I32EnumAttrCase<"XOR", 3, "xor">, I32EnumAttrCase<"ADD", 4, "add">,
    I32EnumAttrCase<"FADD", 5, "fadd">, I32EnumAttrCase<"MAX", 6, "max">,
    I32EnumAttrCase<"MIN", 7, "min">, I32EnumAttrCase<"UMAX", 8, "umax">,
    I32EnumAttrCase<"UMIN", 9, "umin">, I32EnumAttrCase<"XCHG", 10, "exch">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_DescriptorReduceKindAttr : I32EnumAttr<"DescriptorReduceKind", "", [
    I32EnumAttrCase<"ADD", 1, "add">, I32EnumAttrCase<"MIN", 2, "min">,
    I32EnumAttrCase<"MAX", 3, "max">, I32EnumAttrCase<"INC", 4, "inc">,
    I32EnumAttrCase<"DEC", 5, "dec">, I32EnumAttrCase<"AND", 6, "and">,
    I32EnumAttrCase<"OR", 7, "or">, I32EnumAttrCase<"XOR", 8, "xor">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_MemSyncScopeAttr : I32EnumAttr<"MemSyncScope", "", [
    I32EnumAttrCase<"GPU", 1, "gpu">, I32EnumAttrCase<"CTA", 2, "cta">,
    I32EnumAttrCase<"SYSTEM", 3, "sys">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_ProgramDim : I32EnumAttr<"ProgramIDDim", "", [
    I32EnumAttrCase<"X", 0, "x">, I32EnumAttrCase<"Y", 1, "y">, I32EnumAttrCase<"Z", 2, "z">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_RoundingModeAttr : I32EnumAttr<"RoundingMode", "", [
    I32EnumAttrCase<"RTZ", 0, "rtz">, I32EnumAttrCase<"RTNE", 1, "rtne">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_PropagateNanAttr : I32EnumAttr<"PropagateNan", "", [
    I32EnumAttrCase<"NONE", 0, "none">, I32EnumAttrCase<"ALL", 0xFFFF, "all">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_InputPrecisionAttr : I32EnumAttr<"InputPrecision", "", [
    I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
    I32EnumAttrCase<"IEEE", 2, "ieee">, I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
    I32EnumAttrCase<"BF16x6", 4, "bf16x6">]> {
  let cppNamespace = "::tritium::tt";
}

def TT_ScaleDotElemTypeAttr : I32EnumAttr<"ScaleDotElemType", "", [
    I32EnumAttrCase<"E4M3", 0, "e4m3">, I32EnumAttrCase<"E5M2", 1, "e5m2">,
    I32EnumAttrCase<"E2M3", 2, "e2m3">, I32EnumAttrCase<"E3M2", 3, "e3m2">,
    I32EnumAttrCase<"E2M1", 4, "e2m1">, I32EnumAttrCase<"BF16", 5, "bf16">,
    I32EnumAttrCase<"FP16", 6, "fp16">]> {
  let cppNamespace = "::tritium::tt";
}

//===----------------------------------------------------------------------===//
// Traits shared by tt, ttg and ttng ops (implemented in Traits.h)
//===----------------------------------------------------------------------===//

def TT_VerifyTensorLayouts : NativeOpTrait<"VerifyTensorLayouts"> { let cppNamespace = "::tritium"; }
def TT_SameOperandsEncoding : NativeOpTrait<"SameOperandsEncoding"> { let cppNamespace = "::tritium"; }
def TT_SameOperandsAndResultEncoding : NativeOpTrait<"SameOperandsAndResultEncoding"> { let cppNamespace = "::tritium"; }
def TT_SameLoadStoreOperandsShape : NativeOpTrait<"SameLoadStoreOperandsShape"> { let cppNamespace = "::tritium"; }
def TT_SameLoadStoreOperandsAndResultShape : NativeOpTrait<"SameLoadStoreOperandsAndResultShape"> { let cppNamespace = "::tritium"; }
def TT_SameLoadStoreOperandsEncoding : NativeOpTrait<"SameLoadStoreOperandsEncoding"> { let cppNamespace = "::tritium"; }
def TT_SameLoadStoreOperandsAndResultEncoding : NativeOpTrait<"SameLoadStoreOperandsAndResultEncoding"> { let cppNamespace = "::tritium"; }

// Memory the ops of all three dialects read and write.
def TT_GlobalMemory : Resource<"::tritium::GlobalMemory">;
def TT_SharedMemory : Resource<"::tritium::SharedMemory">;

#endif // TRITIUM_TT_BASE
