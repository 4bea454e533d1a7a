// C++ declarations of Tritium's tt, ttg and ttng dialects. Almost everything
// here is generated from dialects/td; this header adds the helpers the ODS
// definitions refer to (type inference helpers, traits, memory resources).
#ifndef TRITIUM_DIALECTS_H
#define TRITIUM_DIALECTS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tritium {

// Drops the operand uses of every op in the regions of `state`, an operation
// state a failed custom parse leaves to be destroyed. Its regions are
// destroyed one after the other, each dropping only its own ops' uses before
// freeing them, and the parser does not enforce isolation, so an op of a later
// region can use a value of an earlier one (a forward reference resolved
// across ttg.warp_specialize partitions): destroying the later region then
// wrote into the freed op (valgrind: "Invalid write of size 8" in
// Operation::dropAllReferences under ~OperationState), the heap corruption of
// the libFuzzer targets (RELIABILITY.md, "Fuzzing"). Block::clear drops all
// uses before freeing anything for the same reason.
//
// The uses *of* the state's values go too: a forward reference from outside
// the state (an op before the failing one, `%0 = arith.addi %x, %x` with %x
// defined in a ttg.warp_specialize partition) is resolved to the state's op,
// which is then freed while that user, destroyed later with the enclosing
// region, still sits in its use list (valgrind: "Invalid write of size 8" in
// Operation::dropAllReferences, into a block freed by ~OperationState in
// WarpSpecializeOp::parse; case 11 of tritium-fuzz-findings.mlir). MLIR's
// parser does the same for the state it passes to a custom parser
// (CleanupOpStateRegions: Block::dropAllDefinedValueUses), not for a state of
// the custom parser's own (`partitions` in WarpSpecializeOp::parse).
inline void dropStateReferences(mlir::OperationState &state) {
  for (auto &region : state.regions) {
    if (!region)
      continue;
    for (mlir::Block &block : *region)
      block.dropAllDefinedValueUses();
    region->dropAllReferences();
  }
}

// Memory that the ops of the three dialects read and write; the side-effect
// analyses upstream MLIR runs (CSE, DCE, LICM) key on these.
struct GlobalMemory : public mlir::SideEffects::Resource::Base<GlobalMemory> {
  llvm::StringRef getName() final { return "<GlobalMemory>"; }
};
struct SharedMemory : public mlir::SideEffects::Resource::Base<SharedMemory> {
  llvm::StringRef getName() final { return "<SharedMemory>"; }
};

/// Adds the canonicalization patterns that Rust provides for `opName` (see
/// tritiumSetCanonicalizationProvider); the getCanonicalizationPatterns of
/// every op declared with hasCanonicalizer forwards here.
void addRustCanonicalizationPatterns(mlir::RewritePatternSet &patterns, llvm::StringRef opName);

/// What Rust's layout checker (tritiumSetLayoutChecker) says about an op's
/// layouts. Unknown when it cannot tell (a layout or shape it does not
/// handle, or no checker registered): verifiers then accept.
enum class LayoutVerdict { Compatible = 0, Incompatible = 1, Rejected = 2, Unknown = 3 };
enum class LayoutQuery {
  /// source: operand layout, result: result layout, shape: operand shape, extra: order.
  Trans = 0,
  /// source: operand layout, result: the halves' layout, shape: operand shape.
  Split = 1,
  /// source: result layout, result: the operands' layout, shape: result shape.
  Join = 2,
  /// source: the sliced layout, shape: its allocation shape, extra: source
  /// shape then result shape.
  Subslice = 3,
  /// source: result layout, result: the packed source's layout, shape:
  /// result shape, extra: the axis.
  Fp4ToFp = 4,
};
LayoutVerdict checkLayouts(LayoutQuery query, mlir::Attribute source, mlir::Attribute result,
                           llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> extra,
                           mlir::Location location, mlir::Attribute *inferred = nullptr);

/// MLIR's two errors for an op whose result type is not the one its rule
/// infers (upstream's ops implement InferTypeOpInterface): "inferred type(s)
/// ... are incompatible with return type(s) of operation ...", then "failed
/// to infer returned types". Returns failure.
mlir::LogicalResult emitInferredTypeMismatch(mlir::Operation *op, mlir::Type inferred,
                                             mlir::Type actual);

namespace impl {
mlir::LogicalResult verifyTensorLayouts(mlir::Operation *op);
mlir::LogicalResult verifySameOperandsEncoding(mlir::Operation *op);
mlir::LogicalResult verifySameOperandsAndResultEncoding(mlir::Operation *op);
mlir::LogicalResult verifySameLoadStoreOperandsShape(mlir::Operation *op);
mlir::LogicalResult verifySameLoadStoreOperandsAndResultShape(mlir::Operation *op);
mlir::LogicalResult verifySameLoadStoreOperandsEncoding(mlir::Operation *op);
mlir::LogicalResult verifySameLoadStoreOperandsAndResultEncoding(mlir::Operation *op);
} // namespace impl

#define TRITIUM_DEFINE_VERIFY_TRAIT(Name, verifyFn)                            \
  template <typename ConcreteType>                                             \
  class Name : public mlir::OpTrait::TraitBase<ConcreteType, Name> {           \
  public:                                                                      \
    static mlir::LogicalResult verifyTrait(mlir::Operation *op) {              \
      return impl::verifyFn(op);                                               \
    }                                                                          \
  };
TRITIUM_DEFINE_VERIFY_TRAIT(VerifyTensorLayouts, verifyTensorLayouts)
TRITIUM_DEFINE_VERIFY_TRAIT(SameOperandsEncoding, verifySameOperandsEncoding)
TRITIUM_DEFINE_VERIFY_TRAIT(SameOperandsAndResultEncoding, verifySameOperandsAndResultEncoding)
TRITIUM_DEFINE_VERIFY_TRAIT(SameLoadStoreOperandsShape, verifySameLoadStoreOperandsShape)
TRITIUM_DEFINE_VERIFY_TRAIT(SameLoadStoreOperandsAndResultShape,
                            verifySameLoadStoreOperandsAndResultShape)
TRITIUM_DEFINE_VERIFY_TRAIT(SameLoadStoreOperandsEncoding, verifySameLoadStoreOperandsEncoding)
TRITIUM_DEFINE_VERIFY_TRAIT(SameLoadStoreOperandsAndResultEncoding,
                            verifySameLoadStoreOperandsAndResultEncoding)
#undef TRITIUM_DEFINE_VERIFY_TRAIT

} // namespace tritium

#include "tritium/TTDialect.h.inc"
#include "tritium/TTEnums.h.inc"
#define GET_TYPEDEF_CLASSES
#include "tritium/TTTypes.h.inc"

namespace tritium::tt {
// Helpers that the ODS type constraints of tt ops call.
mlir::Type getPointeeType(mlir::Type type);
mlir::Type getI1SameShape(mlir::Type type);
mlir::Type getPointerTypeSameShape(mlir::Type type);
mlir::Type getBasePointerOfBlockPointer(mlir::Type blockPointerType);
} // namespace tritium::tt

#define GET_OP_CLASSES
#include "tritium/TTOps.h.inc"

#include "tritium/TTGDialect.h.inc"
#include "tritium/TTGAttrInterfaces.h.inc"
#define GET_ATTRDEF_CLASSES
#include "tritium/TTGAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "tritium/TTGTypes.h.inc"
#define GET_OP_CLASSES
#include "tritium/TTGOps.h.inc"

namespace tritium::ttg {
// A layout attribute as a builtin dictionary {kind = "blocked", ...} and back;
// the form Rust reads and builds layouts in (see CAPI.h).
mlir::Attribute layoutToDictionary(mlir::Attribute layout);
mlir::Attribute layoutFromDictionary(mlir::Location loc, mlir::DictionaryAttr dictionary);
MemDescType memDescTypeGetChecked(mlir::Location loc, llvm::ArrayRef<int64_t> shape,
                                  mlir::Type elementType, mlir::Attribute encoding,
                                  mlir::Attribute memorySpace, bool mutableMemory,
                                  llvm::ArrayRef<int64_t> allocShape);
} // namespace tritium::ttg

#include "tritium/TTNGDialect.h.inc"
namespace tritium::ttng {
// Blackwell's tensor memory, the resource of tmem_* and tcgen05 ops' effects.
struct TensorMemory : public mlir::SideEffects::Resource::Base<TensorMemory> {
  llvm::StringRef getName() final { return "<TensorMemory>"; }
};
} // namespace tritium::ttng
#define GET_ATTRDEF_CLASSES
#include "tritium/TTNGAttrs.h.inc"
#define GET_OP_CLASSES
#include "tritium/TTNGOps.h.inc"

// Upstream's auxiliary dialects (syntax only): nvg, nvws, tti.
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "tritium/AuxEnums.h.inc"
#include "tritium/NVGDialect.h.inc"
#define GET_OP_CLASSES
#include "tritium/NVGOps.h.inc"
#include "tritium/NVWSDialect.h.inc"
#define GET_TYPEDEF_CLASSES
#include "tritium/NVWSTypes.h.inc"
#define GET_ATTRDEF_CLASSES
#include "tritium/NVWSAttrs.h.inc"
#define GET_OP_CLASSES
#include "tritium/NVWSOps.h.inc"
#include "tritium/TTIDialect.h.inc"
#define GET_OP_CLASSES
#include "tritium/TTIOps.h.inc"

#endif // TRITIUM_DIALECTS_H
