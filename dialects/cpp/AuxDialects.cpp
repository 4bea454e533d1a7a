// Upstream's auxiliary dialects, as syntax and verifiers only: `nvg` (ops of
// upstream's lowering to LLVM), `nvws` (warp specialization: arefs, tokens,
// warp groups) and `tti` (the concurrency sanitizer's ops). Tritium parses,
// verifies and prints them as upstream Triton 3.6 does; nothing lowers them.
#include "tritium/Dialects.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

#include "tritium/AuxEnums.cpp.inc"
#include "tritium/NVGDialect.cpp.inc"
#define GET_OP_CLASSES
#include "tritium/NVGOps.cpp.inc"
#include "tritium/NVWSDialect.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "tritium/NVWSTypes.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "tritium/NVWSAttrs.cpp.inc"
#define GET_OP_CLASSES
#include "tritium/NVWSOps.cpp.inc"
#include "tritium/TTIDialect.cpp.inc"
#define GET_OP_CLASSES
#include "tritium/TTIOps.cpp.inc"

namespace tritium::nvg {
void NVGDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tritium/NVGOps.cpp.inc"
      >();
}
} // namespace tritium::nvg

namespace tritium::tti {
void TTIDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tritium/TTIOps.cpp.inc"
      >();
}
} // namespace tritium::tti

namespace tritium::nvws {

void NVWSDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tritium/NVWSOps.cpp.inc"
      >();
}

void NVWSDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tritium/NVWSTypes.cpp.inc"
      >();
}

void NVWSDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tritium/NVWSAttrs.cpp.inc"
      >();
}

// An aref's buffers: used only by the aref (and their deallocation), with
// the same leading (stage) dimension.
LogicalResult ArefCreateOp::verify() {
  SmallVector<int64_t> stages;
  for (Value buffer : getBuffers()) {
    if (!llvm::all_of(buffer.getUsers(), [](Operation *user) {
          return isa<ArefCreateOp, ttg::LocalDeallocOp>(user);
        }))
      return emitError("Aref buffer is used elsewhere, Aref cannot guarantee async safety");
    stages.push_back(cast<ttg::MemDescType>(buffer.getType()).getShape()[0]);
  }
  if (!llvm::all_equal(stages))
    return emitError("Leading dims of sliced aref inputs don't match.");
  return success();
}

// The buffers an aref stage gives are its buffers without the stage
// dimension (tensor-memory scales keep theirs).
static LogicalResult verifyStageBuffers(Operation *op, ArefType aref, TypeRange buffers) {
  ArrayAttr bases = aref.getBaseType();
  if (bases.size() != buffers.size())
    return op->emitError("Aref has different number of arguments than enter");
  for (auto [base, buffer] : llvm::zip(bases.getAsValueRange<TypeAttr>(), buffers)) {
    auto whole = dyn_cast<ttg::MemDescType>(base);
    auto stage = dyn_cast<ttg::MemDescType>(buffer);
    if (!whole || !stage)
      return op->emitError("Slicing not Implemented for this type");
    if (whole.getElementType() != stage.getElementType())
      return op->emitError("Ranks don't match");
    bool scales = isa<ttng::TensorMemoryScalesEncodingAttr>(whole.getEncoding());
    ArrayRef<int64_t> expected = scales ? whole.getShape() : whole.getShape().drop_front();
    if (expected.size() != stage.getShape().size())
      return op->emitError(scales ? "Ranks don't match for TensorMemoryScalesEncodingAttr"
                                  : "Ranks don't match");
    if (expected != stage.getShape())
      return op->emitError(scales ? "Dimensions don't match for TensorMemoryScalesEncodingAttr"
                                  : "Dimensions don't match");
  }
  return success();
}

LogicalResult ArefGetEnterOp::verify() {
  return verifyStageBuffers(*this, getAref().getType(), getBuffers().getTypes());
}

LogicalResult ArefPutEnterOp::verify() {
  return verifyStageBuffers(*this, getAref().getType(), getBuffers().getTypes());
}

LogicalResult WarpGroupOp::verify() {
  auto regions = getPartitionRegions();
  if (getNumWarps().size() != regions.size())
    return emitError("Must supply numWarps for each Warp Group.");
  if (getResults().empty())
    return success();
  auto yield = dyn_cast<WarpGroupYieldOp>(regions.front().front().getTerminator());
  if (!yield)
    return emitError("When nvws.warp_group op has results, the first region should be "
                     "terminated by nvws.warp_group.yield op.");
  if (getResults().size() != yield.getNumOperands())
    return emitError("Mismatch in the number of results returned by nvws.warp_group op and the "
                     "number of the operands of the corresponding nvws.warp_group.yield op in the "
                     "first region.");
  return success();
}

// nvws.warp_group attributes? partition0 num_warps(N) { ... } partition1 ...
// As upstream, the results are not written; unlike upstream's parser, this one
// gives the op the types its first region yields (nvws.warp_group.yield), so
// that a printed warp group with results parses back (upstream's parser reads
// it as an op without results, and every use of them fails).
ParseResult WarpGroupOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  SmallVector<int32_t> numWarps;
  while (succeeded(parser.parseOptionalKeyword("partition" + std::to_string(numWarps.size())))) {
    if (parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(numWarps.emplace_back()) || parser.parseRParen() ||
        parser.parseRegion(*result.addRegion())) {
      // The failed state is destroyed region by region (see
      // tritium::dropStateReferences).
      tritium::dropStateReferences(result);
      return failure();
    }
  }
  result.addAttribute(getNumWarpsAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(numWarps));
  if (!result.regions.empty() && !result.regions.front()->empty()) {
    Block &entry = result.regions.front()->front();
    if (!entry.empty())
      if (auto yield = dyn_cast<WarpGroupYieldOp>(entry.back()))
        result.addTypes(yield.getOperandTypes());
  }
  return success();
}

void WarpGroupOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(), {getNumWarpsAttrName()});
  for (auto [i, region, numWarps] : llvm::enumerate(getPartitionRegions(), getNumWarps())) {
    printer.printNewline();
    printer << "partition" << i << " num_warps(" << numWarps << ") ";
    printer.printRegion(region, /*printEntryBlockArgs=*/false);
  }
}

} // namespace tritium::nvws
