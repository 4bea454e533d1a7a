// C entry points for Rust: registration, Rust passes inside MLIR's pass
// registry, the tt-opt driver, and attribute/type conversions.
#include "tritium/CAPI.h"
#include "tritium/Dialects.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Rewrite.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <variant>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TT, tt, tritium::tt::TTDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TTG, ttg, tritium::ttg::TTGDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TTNG, ttng, tritium::ttng::TTNGDialect)

static void registerDialects(DialectRegistry &registry) {
  registry.insert<tritium::tt::TTDialect, tritium::ttg::TTGDialect, tritium::ttng::TTNGDialect,
                  tritium::nvg::NVGDialect, tritium::nvws::NVWSDialect, tritium::tti::TTIDialect,
                  arith::ArithDialect, math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
                  func::FuncDialect, LLVM::LLVMDialect, NVVM::NVVMDialect, gpu::GPUDialect,
                  ub::UBDialect, index::IndexDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void tritiumRegisterDialects(MlirDialectRegistry registry) { registerDialects(*unwrap(registry)); }

void tritiumRegisterUpstreamPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerTransformsPasses(); // canonicalize, cse, sccp, symbol-dce, inline, licm, ...
    registerSCFToControlFlowPass();
    registerReconcileUnrealizedCastsPass();
    registerArithToLLVMConversionPass();
    registerConvertControlFlowToLLVMPass();
    registerConvertMathToLLVMPass();
    registerConvertIndexToLLVMPass();
    registerConvertNVVMToLLVMPass();
    registerConvertFuncToLLVMPass();
    registerUBToLLVMConversionPass();
    registerGpuNVVMAttachTarget();
    registerGpuModuleToBinaryPass();
  });
}

//===----------------------------------------------------------------------===//
// Passes written in Rust
//===----------------------------------------------------------------------===//

namespace {
// An MLIR pass whose body is a Rust function. Its options are real pass
// options, so `--pass-pipeline='builtin.module(flag{opt=1})'`, the per-pass
// command-line flags and --help all work as for C++ passes.
class RustPass : public Pass {
public:
  explicit RustPass(const TritiumPassSpec *spec)
      : Pass(TypeID::getFromOpaquePointer(spec), StringRef(spec->anchor)), spec(spec) {
    for (size_t i = 0; i < spec->numOptions; ++i) {
      const TritiumPassOption &option = spec->options[i];
      auto desc = llvm::cl::desc(option.description);
      switch (option.kind) {
      case TritiumOptionInt:
        options.emplace_back(std::make_unique<Option<int64_t>>(
            *this, option.name, desc, llvm::cl::init(std::stoll(option.defaultValue))));
        break;
      case TritiumOptionBool:
        options.emplace_back(std::make_unique<Option<bool>>(
            *this, option.name, desc, llvm::cl::init(StringRef(option.defaultValue) == "true")));
        break;
      case TritiumOptionString:
        options.emplace_back(std::make_unique<Option<std::string>>(
            *this, option.name, desc, llvm::cl::init(std::string(option.defaultValue))));
        break;
      }
    }
  }

  StringRef getArgument() const override { return spec->argument; }
  StringRef getDescription() const override { return spec->description; }
  StringRef getName() const override { return spec->argument; }

  // Every Rust pass may create ops of any of Tritium's dialects (and the
  // upstream ones it lowers to), so all of them are loaded before it runs.
  void getDependentDialects(DialectRegistry &registry) const override { registerDialects(registry); }

  bool canScheduleOn(RegisteredOperationName opName) const override {
    return opName.getStringRef() == spec->anchor;
  }

  std::unique_ptr<Pass> clonePass() const override {
    auto clone = std::make_unique<RustPass>(spec);
    clone->copyOptionValuesFrom(this);
    return clone;
  }

  void runOnOperation() override {
    std::vector<std::string> values;
    for (auto &option : options)
      values.push_back(std::visit([](auto &o) { return toText(o->getValue()); }, option));
    std::vector<const char *> pointers;
    for (auto &value : values)
      pointers.push_back(value.c_str());
    if (!spec->run(spec->userData, wrap(getOperation()), pointers.data(), pointers.size()))
      signalPassFailure();
  }

private:
  static std::string toText(const std::string &value) { return value; }
  static std::string toText(int64_t value) { return std::to_string(value); }
  static std::string toText(bool value) { return value ? "true" : "false"; }

  const TritiumPassSpec *spec;
  std::vector<std::variant<std::unique_ptr<Option<int64_t>>, std::unique_ptr<Option<bool>>,
                           std::unique_ptr<Option<std::string>>>>
      options;
};
} // namespace

void tritiumRegisterPass(const TritiumPassSpec *spec) {
  registerPass([spec]() -> std::unique_ptr<Pass> { return std::make_unique<RustPass>(spec); });
}

static std::atomic<TritiumPatternProvider> canonicalizationProvider{nullptr};

void tritiumSetCanonicalizationProvider(TritiumPatternProvider provider) {
  canonicalizationProvider.store(provider);
}

void tritium::addRustCanonicalizationPatterns(RewritePatternSet &patterns, StringRef opName) {
  if (TritiumPatternProvider provider = canonicalizationProvider.load())
    provider(wrap(opName), wrap(patterns.getContext()), wrap(&patterns));
}

static std::atomic<TritiumLayoutChecker> layoutChecker{nullptr};

void tritiumSetLayoutChecker(TritiumLayoutChecker checker) { layoutChecker.store(checker); }

tritium::LayoutVerdict tritium::checkLayouts(LayoutQuery query, Attribute source, Attribute result,
                                             ArrayRef<int64_t> shape, ArrayRef<int64_t> extra,
                                             Location location, Attribute *inferred) {
  TritiumLayoutChecker checker = layoutChecker.load();
  if (!checker || !source)
    return LayoutVerdict::Unknown;
  MlirAttribute answer{nullptr};
  int verdict = checker(int(query), wrap(source), wrap(result), shape.data(), shape.size(),
                        extra.data(), extra.size(), wrap(location), &answer);
  if (inferred)
    *inferred = unwrap(answer);
  if (verdict < 0 || verdict > int(LayoutVerdict::Unknown))
    return LayoutVerdict::Unknown;
  return LayoutVerdict(verdict);
}

MlirOperation tritiumParseSourceString(MlirContext context, MlirStringRef source,
                                       MlirStringRef sourceName) {
  ParserConfig config(unwrap(context));
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(unwrap(source), config, unwrap(sourceName));
  return wrap(module.release().getOperation());
}

void tritiumEmitRemark(MlirLocation location, const char *message) {
  emitRemark(unwrap(location)) << message;
}

void tritiumEmitWarning(MlirLocation location, const char *message) {
  emitWarning(unwrap(location)) << message;
}

int tritiumOptMain(int argc, char **argv) {
  DialectRegistry registry;
  registerDialects(registry);
  tritiumRegisterUpstreamPasses();
  return asMainReturnCode(
      MlirOptMain(argc, argv, "tt-opt: Tritium's optimizer driver (like mlir-opt)\n", registry));
}

MlirAttribute tritiumLayoutToDictionary(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return {nullptr};
  return wrap(tritium::ttg::layoutToDictionary(unwrap(attr)));
}

MlirAttribute tritiumLayoutFromDictionary(MlirLocation loc, MlirAttribute dictionary) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(unwrap(dictionary));
  if (!dict) {
    emitError(unwrap(loc)) << "invalid layout dictionary: not a dictionary";
    return {nullptr};
  }
  return wrap(tritium::ttg::layoutFromDictionary(unwrap(loc), dict));
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

using tritium::tt::PointerType;
using tritium::tt::TensorDescType;
using tritium::ttg::MemDescType;

MlirType tritiumPointerTypeGet(MlirType pointee, int addressSpace) {
  return wrap(PointerType::get(unwrap(pointee), addressSpace));
}
bool tritiumTypeIsPointer(MlirType type) { return isa<PointerType>(unwrap(type)); }
MlirType tritiumPointerTypeGetPointee(MlirType type) {
  return wrap(cast<PointerType>(unwrap(type)).getPointeeType());
}
int tritiumPointerTypeGetAddressSpace(MlirType type) {
  return cast<PointerType>(unwrap(type)).getAddressSpace();
}

MlirType tritiumTensorDescTypeGet(MlirType blockType) {
  auto block = cast<RankedTensorType>(unwrap(blockType));
  return wrap(TensorDescType::get(block.getContext(), block));
}
bool tritiumTypeIsTensorDesc(MlirType type) { return isa<TensorDescType>(unwrap(type)); }
MlirType tritiumTensorDescTypeGetBlockType(MlirType type) {
  return wrap(cast<TensorDescType>(unwrap(type)).getBlockType());
}

MlirType tritiumAsyncTokenTypeGet(MlirContext context) {
  return wrap(tritium::ttg::AsyncTokenType::get(unwrap(context)));
}

bool tritiumTypeIsMemDesc(MlirType type) { return isa<MemDescType>(unwrap(type)); }

MlirType tritiumMemDescTypeGet(MlirLocation loc, intptr_t rank, const int64_t *shape,
                               MlirType elementType, MlirAttribute encoding,
                               MlirAttribute memorySpace, bool mutableMemory, intptr_t allocRank,
                               const int64_t *allocShape) {
  return wrap(tritium::ttg::memDescTypeGetChecked(
      unwrap(loc), ArrayRef<int64_t>(shape, rank), unwrap(elementType), unwrap(encoding),
      unwrap(memorySpace), mutableMemory, ArrayRef<int64_t>(allocShape, allocRank)));
}
intptr_t tritiumMemDescTypeGetRank(MlirType type) {
  return cast<MemDescType>(unwrap(type)).getShape().size();
}
int64_t tritiumMemDescTypeGetDim(MlirType type, intptr_t dim) {
  return cast<MemDescType>(unwrap(type)).getShape()[dim];
}
intptr_t tritiumMemDescTypeGetAllocRank(MlirType type) {
  return cast<MemDescType>(unwrap(type)).getAllocShape().size();
}
int64_t tritiumMemDescTypeGetAllocDim(MlirType type, intptr_t dim) {
  return cast<MemDescType>(unwrap(type)).getAllocShape()[dim];
}
MlirType tritiumMemDescTypeGetElementType(MlirType type) {
  return wrap(cast<MemDescType>(unwrap(type)).getElementType());
}
MlirAttribute tritiumMemDescTypeGetEncoding(MlirType type) {
  return wrap(cast<MemDescType>(unwrap(type)).getEncoding());
}
MlirAttribute tritiumMemDescTypeGetMemorySpace(MlirType type) {
  return wrap(cast<MemDescType>(unwrap(type)).getMemorySpace());
}
bool tritiumMemDescTypeIsMutable(MlirType type) {
  return cast<MemDescType>(unwrap(type)).getMutableMemory();
}
MlirAttribute tritiumSharedMemorySpaceGet(MlirContext context) {
  return wrap(tritium::ttg::SharedMemorySpaceAttr::get(unwrap(context)));
}
