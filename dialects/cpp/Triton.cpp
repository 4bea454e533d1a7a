// The `tt` dialect: registration, the pointer type's syntax, shared traits and
// op verifiers. Verifiers check structure (shapes, element types, encodings
// that must agree) so that malformed IR is rejected with a located error.
#include "tritium/Dialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

#include "tritium/TTDialect.cpp.inc"
#include "tritium/TTEnums.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "tritium/TTTypes.cpp.inc"
#define GET_OP_CLASSES
#include "tritium/TTOps.cpp.inc"

// A mismatch with an op's inferred result type reads as MLIR's failed
// inference (upstream's ops implement InferTypeOpInterface).
LogicalResult tritium::emitInferredTypeMismatch(Operation *op, Type inferred, Type actual) {
  SmallVector<Type> inferredTypes(op->getNumResults(), inferred), actualTypes(op->getResultTypes());
  auto quoted = [](ArrayRef<Type> types) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(types, os, [&](Type t) { os << "'" << t << "'"; });
    return text;
  };
  op->emitOpError() << "inferred type(s) " << quoted(inferredTypes)
                    << " are incompatible with return type(s) of operation " << quoted(actualTypes);
  return op->emitOpError() << "failed to infer returned types";
}

namespace tritium::tt {

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

namespace {
// Lets upstream's `inline` pass inline tt.call into tt.func bodies.
struct TTInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final { return true; }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final { return true; }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final { return true; }

  void handleTerminator(Operation *op, Block *newDest) const final {
    auto returnOp = dyn_cast<ReturnOp>(op);
    if (!returnOp)
      return;
    OpBuilder builder(op);
    builder.create<cf::BranchOp>(op->getLoc(), newDest, returnOp.getOperands());
    op->erase();
  }

  void handleTerminator(Operation *op, ValueRange valuesToReplace) const final {
    auto returnOp = cast<ReturnOp>(op);
    for (auto [from, to] : llvm::zip(valuesToReplace, returnOp.getOperands()))
      from.replaceAllUsesWith(to);
  }
};
} // namespace

void TTDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tritium/TTOps.cpp.inc"
      >();
  addInterfaces<TTInlinerInterface>();
}

void TTDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tritium/TTTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// !tt.ptr<T[, addressSpace]>
//===----------------------------------------------------------------------===//

Type PointerType::parse(AsmParser &parser) {
  Type pointeeType;
  int addressSpace = 1;
  if (parser.parseLess() || parser.parseType(pointeeType))
    return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseInteger(addressSpace))
    return {};
  if (parser.parseGreater())
    return {};
  return PointerType::get(pointeeType, addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != 1)
    printer << ", " << getAddressSpace();
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Type helpers used by the ODS constraints
//===----------------------------------------------------------------------===//

Type getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(i1);
  return i1;
}

// The type a pointer-like value points to: the pointee of a pointer, a tensor
// of pointees for a tensor of pointers, and the block tensor of a block pointer.
// Returns the type itself when it is not pointer-like, so that the constraint
// that follows reports the mismatch instead of this helper crashing.
Type getPointeeType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return tensor.clone(ptr.getPointeeType());
    return type;
  }
  if (auto ptr = dyn_cast<PointerType>(type))
    return ptr.getPointeeType();
  return type;
}

Type getPointerTypeSameShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(PointerType::get(tensor.getElementType(), 1));
  return PointerType::get(type, 1);
}

Type getBasePointerOfBlockPointer(Type blockPointerType) {
  auto ptr = dyn_cast<PointerType>(blockPointerType);
  if (!ptr)
    return blockPointerType;
  auto block = dyn_cast<RankedTensorType>(ptr.getPointeeType());
  if (!block)
    return blockPointerType;
  return PointerType::get(block.getElementType(), ptr.getAddressSpace());
}

} // namespace tritium::tt

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

namespace tritium::impl {

static Attribute encodingOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getEncoding();
  return {};
}

// Shape of a tensor, or of the block a block pointer points to.
static ArrayRef<int64_t> loadStoreShape(Type type) {
  if (auto ptr = dyn_cast<tt::PointerType>(type))
    type = ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

static bool sameEncodingOrAbsent(Type a, Type b) {
  Attribute ea = encodingOf(a), eb = encodingOf(b);
  return !ea || !eb || ea == eb;
}

static constexpr int64_t kMaxTensorElements = 1 << 20;

static LogicalResult checkTensorSize(Operation *op, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return success();
  int64_t elements = tensor.getNumElements();
  if (elements > kMaxTensorElements)
    return op->emitOpError() << "has a tensor of " << elements
                             << " elements; at most " << kMaxTensorElements << " are allowed";
  if (!llvm::isPowerOf2_64(elements))
    return op->emitOpError() << "has a tensor of " << elements
                             << " elements; the number of elements must be a power of two";
  return success();
}

// Number of warps the code around `op` runs on: the innermost enclosing
// "ttg.num-warps" (set on the module, or on a function/partition).
static std::optional<int64_t> enclosingNumWarps(Operation *op) {
  for (Operation *parent = op; parent; parent = parent->getParentOp()) {
    if (auto partitions = dyn_cast<ttg::WarpSpecializePartitionsOp>(parent)) {
      Region *region = op->getParentRegion();
      while (region && region->getParentOp() != parent)
        region = region->getParentOp()->getParentRegion();
      auto ws = partitions->getParentOfType<ttg::WarpSpecializeOp>();
      if (region && ws) {
        auto numWarps = ws.getPartitionNumWarps();
        unsigned index = region->getRegionNumber();
        if (index < numWarps.size())
          return numWarps[index];
      }
      return std::nullopt;
    }
    if (auto attr = parent->getAttrOfType<IntegerAttr>("ttg.num-warps"))
      return attr.getInt();
  }
  return std::nullopt;
}

static std::optional<int64_t> moduleIntAttr(Operation *op, StringRef name) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return std::nullopt;
  if (auto attr = module->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return std::nullopt;
}

static int64_t product(ArrayRef<unsigned> values) {
  int64_t result = 1;
  for (unsigned v : values)
    result *= v;
  return result;
}

// Warps, lanes and CTAs a distributed layout spreads over, where it says so directly.
struct LayoutSpread {
  int64_t warps, lanes, ctas;
};

// Number of CTAs of a CGALayout (or linear block bases): one per basis doubles it.
static int64_t ctasOf(ArrayRef<int32_t> flatBases, unsigned rank) {
  return int64_t(1) << (flatBases.size() / std::max(1u, rank));
}

static std::optional<LayoutSpread> spreadOf(Attribute layout) {
  if (auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(layout))
    return LayoutSpread{product(blocked.getWarpsPerCTA()), product(blocked.getThreadsPerWarp()),
                        ctasOf(blocked.getCgaBases(), blocked.getRank())};
  if (auto mma = dyn_cast<ttg::NvidiaMmaEncodingAttr>(layout))
    return LayoutSpread{product(mma.getWarpsPerCTA()), 32,
                        ctasOf(mma.getCgaBases(), mma.getRank())};
  if (auto linear = dyn_cast<ttg::LinearEncodingAttr>(layout)) {
    unsigned rank = std::max(1u, linear.getRank());
    return LayoutSpread{int64_t(1) << (linear.getWarpBases().size() / rank),
                        int64_t(1) << (linear.getLaneBases().size() / rank),
                        ctasOf(linear.getBlockBases(), rank)};
  }
  if (auto slice = dyn_cast<ttg::SliceEncodingAttr>(layout))
    return spreadOf(slice.getParent());
  if (auto dot = dyn_cast<ttg::DotOperandEncodingAttr>(layout))
    return spreadOf(dot.getParent());
  return std::nullopt;
}

// tt.make_range checks its size against its range first (upstream reports an
// empty range as such), then the size rule.
static LogicalResult verifyTensorSize(Operation *op, Type type) {
  return isa<tt::MakeRangeOp>(op) ? success() : checkTensorSize(op, type);
}

static LogicalResult verifyLayoutOf(Operation *op, Type type, StringRef what) {
  if (failed(verifyTensorSize(op, type)))
    return failure();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.getEncoding())
    return success();
  Attribute encoding = tensor.getEncoding();
  if (!isa<ttg::TTGDialect>(encoding.getDialect()))
    return success(); // encodings of other dialects are theirs to check
  if (!isa<ttg::DistributedEncoding>(encoding))
    return op->emitOpError() << what << " has type " << tensor
                             << ": Non-distributed layout is not allowed in tensor type.";
  auto layout = cast<ttg::LayoutEncoding>(encoding);
  // Upstream's wording and order: rank, lanes, warps, CTAs.
  if (layout.getRank() != tensor.getRank())
    return op->emitOpError() << what << ": Layout has rank " << layout.getRank()
                             << ", but the tensor it's attached to has rank " << tensor.getRank() << ".";
  auto spread = spreadOf(encoding);
  if (!spread)
    return success();
  if (auto lanes = moduleIntAttr(op, "ttg.threads-per-warp"); lanes && spread->lanes != *lanes)
    return op->emitOpError() << what << ": " << encoding << ". Layout has " << spread->lanes
                             << " threads per warp, but the module specifies " << *lanes
                             << " threads per warp.";
  if (auto numWarps = enclosingNumWarps(op); numWarps && spread->warps != *numWarps)
    return op->emitOpError() << what << ": " << encoding << ". Layout has " << spread->warps
                             << " warps per CTA, but the context requires " << *numWarps
                             << " warps per CTA.";
  if (auto ctas = moduleIntAttr(op, "ttg.num-ctas"); ctas && spread->ctas != *ctas)
    return op->emitOpError() << what << ": " << encoding << ". Layout has " << spread->ctas
                             << " CTAs per CGA, but the context requires " << *ctas << " CTAs per CGA.";
  return success();
}

LogicalResult verifyTensorLayouts(Operation *op) {
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (failed(verifyLayoutOf(op, operand.getType(), "operand #" + std::to_string(i))))
      return failure();
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    if (failed(verifyLayoutOf(op, result.getType(), "result #" + std::to_string(i))))
      return failure();
  return success();
}

LogicalResult verifySameOperandsEncoding(Operation *op) {
  if (op->getNumOperands() == 0)
    return success();
  Type first = op->getOperand(0).getType();
  for (Type type : llvm::drop_begin(op->getOperandTypes()))
    if (!sameEncodingOrAbsent(type, first))
      return op->emitOpError() << "requires the same encoding for all operands";
  return success();
}

LogicalResult verifySameOperandsAndResultEncoding(Operation *op) {
  if (op->getNumOperands() == 0)
    return success();
  Type first = op->getOperand(0).getType();
  for (Type type : op->getResultTypes())
    if (!sameEncodingOrAbsent(type, first))
      return op->emitOpError() << "requires the same encoding for all operands and results";
  return verifySameOperandsEncoding(op);
}

LogicalResult verifySameLoadStoreOperandsShape(Operation *op) {
  if (op->getNumOperands() == 0)
    return success();
  auto first = loadStoreShape(op->getOperand(0).getType());
  for (Type type : llvm::drop_begin(op->getOperandTypes()))
    if (failed(verifyCompatibleShape(loadStoreShape(type), first)))
      return op->emitOpError() << "requires the same shape for all operands";
  return success();
}

LogicalResult verifySameLoadStoreOperandsAndResultShape(Operation *op) {
  if (failed(verifySameLoadStoreOperandsShape(op)))
    return failure();
  if (op->getNumOperands() == 0)
    return success();
  auto first = loadStoreShape(op->getOperand(0).getType());
  for (Type type : op->getResultTypes())
    if (failed(verifyCompatibleShape(loadStoreShape(type), first)))
      return op->emitOpError() << "requires the same shape for all operands and results";
  return success();
}

LogicalResult verifySameLoadStoreOperandsEncoding(Operation *op) {
  return verifySameOperandsEncoding(op);
}

LogicalResult verifySameLoadStoreOperandsAndResultEncoding(Operation *op) {
  return verifySameOperandsAndResultEncoding(op);
}

} // namespace tritium::impl

//===----------------------------------------------------------------------===//
// Op verifiers and interface methods
//===----------------------------------------------------------------------===//

namespace tritium::tt {

static Type elementTypeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

static unsigned bitWidthOf(Type type) {
  type = elementTypeOf(type);
  if (isa<PointerType>(type))
    return 64;
  return type.getIntOrFloatBitWidth();
}

LogicalResult BitcastOp::verify() {
  Type from = elementTypeOf(getSrc().getType()), to = elementTypeOf(getType());
  auto fromPointer = dyn_cast<PointerType>(from), toPointer = dyn_cast<PointerType>(to);
  if (fromPointer && toPointer) {
    if (fromPointer.getAddressSpace() != toPointer.getAddressSpace())
      return emitOpError() << "Cannot bitcast pointer between different address spaces";
    return success();
  }
  if (fromPointer || toPointer)
    return emitOpError() << "Cannot bitcast pointer to non-pointer type";
  if (bitWidthOf(from) != bitWidthOf(to))
    return emitOpError() << "Cannot bitcast data-type of size " << bitWidthOf(from)
                         << " to data-type of size " << bitWidthOf(to);
  return success();
}

LogicalResult FpToFpOp::verify() {
  unsigned srcBits = bitWidthOf(getSrc().getType()), dstBits = bitWidthOf(getType());
  if (dstBits < srcBits && !getRounding())
    return emitOpError() << "Rounding mode is required for FP downcast";
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(), GlobalMemory::get());
  // A volatile load must be neither removed nor reordered: model it as a write.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

LogicalResult UnsplatOp::verify() {
  auto type = getSrc().getType();
  if (type.getNumElements() != 1)
    return emitOpError() << "source tensor must have exactly one element, got " << type;
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto srcType = getSrc().getType();
  auto resultType = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > srcType.getRank())
    return emitOpError() << "axis " << axis << " is out of range for a tensor of rank "
                         << srcType.getRank();
  SmallVector<int64_t> expected(srcType.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (resultType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape must be the source shape with a 1 inserted at axis " << axis;
  // In TTGIR the source layout is a slice of the result layout along `axis`.
  if (auto slice = dyn_cast_or_null<ttg::SliceEncodingAttr>(srcType.getEncoding())) {
    if (slice.getDim() != axis || Attribute(slice.getParent()) != resultType.getEncoding())
      return emitOpError() << "source layout " << slice
                           << " must be the slice along the axis of the result layout "
                           << resultType.getEncoding();
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto srcType = getSrc().getType();
  auto resultType = getType();
  if (srcType.getNumElements() != resultType.getNumElements())
    return emitOpError() << "number of src and dst elements of reshape must be the same: "
                         << srcType << " and " << resultType;
  if (bool(srcType.getEncoding()) != bool(resultType.getEncoding()))
    return emitOpError() << "Op requires that either (a) src and dst both have encodings, or "
                            "(b) neither does.";
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto srcShape = getSrc().getType().getShape();
  auto resultShape = getType().getShape();
  if (srcShape.size() != resultShape.size())
    return emitOpError() << "rank of source must be same as rank of result";
  for (auto [i, dims] : llvm::enumerate(llvm::zip(srcShape, resultShape))) {
    auto [from, to] = dims;
    if (from != to && from != 1)
      return emitOpError() << "Different dimensions at index " << i
                           << " between source and result.  Broadcast requires the source "
                              "dimension to be 1.";
  }
  return success();
}

LogicalResult JoinOp::verify() {
  SmallVector<int64_t> expected(getLhs().getType().getShape());
  expected.push_back(2);
  auto resultShape = getType().getShape();
  if (resultShape != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape must be (" << ArrayRef<int64_t>(expected) << "), but got "
                         << resultShape;
  if (getType().getElementType() != getLhs().getType().getElementType())
    return emitOpError() << "result element type must match the input element type";
  Attribute srcEnc = getLhs().getType().getEncoding(), retEnc = getType().getEncoding();
  if (!retEnc) {
    if (srcEnc)
      return emitOpError() << "result encoding must be specified";
    return success();
  }
  // A result layout has one operand layout (a split of it), while an operand
  // layout has several result layouts: check the operands against the split.
  switch (checkLayouts(LayoutQuery::Join, retEnc, srcEnc, getType().getShape(), {}, getLoc())) {
  case LayoutVerdict::Rejected:
    return failure();
  case LayoutVerdict::Incompatible:
    return emitOpError() << "incompatible join layout";
  default:
    return success();
  }
}

// Upstream's tt.split and tt.trans infer their result types and accept a
// result whose layout is equivalent (the same linear layout) to the inferred
// one. Checks the result layout against the inferred one.
static LogicalResult verifyInferredLayout(Operation *op, LayoutQuery query, RankedTensorType srcType,
                                          RankedTensorType dstType, ArrayRef<int64_t> extra) {
  Attribute srcEnc = srcType.getEncoding(), dstEnc = dstType.getEncoding();
  auto withEncoding = [&](Attribute encoding) {
    return RankedTensorType::get(dstType.getShape(), dstType.getElementType(), encoding);
  };
  if (!srcEnc)
    return dstEnc ? emitInferredTypeMismatch(op, withEncoding({}), dstType) : success();
  Attribute inferred;
  switch (checkLayouts(query, srcEnc, dstEnc, srcType.getShape(), extra, op->getLoc(), &inferred)) {
  case LayoutVerdict::Rejected:
    return op->emitOpError() << "failed to infer returned types";
  case LayoutVerdict::Incompatible:
    if (!inferred) // the layout could not be built: name the result's shape only
      return op->emitOpError() << "failed to infer returned types";
    return emitInferredTypeMismatch(op, withEncoding(inferred), dstType);
  default:
    return success();
  }
}

// Upstream infers tt.split's result types, so a mismatch reads as a failed
// inference: the reason, then "failed to infer returned types".
LogicalResult SplitOp::verify() {
  auto srcType = getSrc().getType();
  auto srcShape = srcType.getShape();
  auto inferenceFailed = [&](InFlightDiagnostic reason) {
    reason.report();
    return emitOpError() << "failed to infer returned types";
  };
  if (srcShape.empty() || srcShape.back() != 2)
    return inferenceFailed(emitOpError() << "last dimension of input tensor must be 2");
  for (Value result : getResults()) {
    auto type = cast<RankedTensorType>(result.getType());
    if (type.getShape() != srcShape.drop_back() || type.getElementType() != srcType.getElementType())
      return inferenceFailed(emitOpError()
                             << "inferred type(s) of the results (shape " << srcShape.drop_back()
                             << " and element type " << srcType.getElementType()
                             << ") are incompatible with return type " << type);
  }
  return verifyInferredLayout(*this, LayoutQuery::Split, srcType, getOutLHS().getType(), {});
}

static LogicalResult verifyPermutation(Operation *op, ArrayRef<int32_t> order, int64_t rank) {
  if (int64_t(order.size()) != rank)
    return op->emitOpError() << "order has " << order.size() << " entries for a rank-" << rank
                             << " value";
  SmallVector<bool> seen(rank, false);
  for (int32_t dim : order) {
    if (dim < 0 || dim >= rank || seen[dim])
      return op->emitOpError() << "order must be a permutation of [0, " << rank << ")";
    seen[dim] = true;
  }
  return success();
}

LogicalResult TransOp::verify() {
  auto srcShape = getSrc().getType().getShape();
  auto order = getOrder();
  if (failed(verifyPermutation(*this, order, srcShape.size())))
    return failure();
  auto resultShape = getType().getShape();
  if (resultShape.size() != srcShape.size())
    return emitOpError() << "result must have the rank of the source";
  for (auto [i, dim] : llvm::enumerate(order))
    if (resultShape[i] != srcShape[dim])
      return emitOpError() << "result shape must be the source shape permuted by order";
  SmallVector<int64_t> permutation(order.begin(), order.end());
  return verifyInferredLayout(*this, LayoutQuery::Trans, getSrc().getType(), getType(), permutation);
}

// tt.dot_scaled: e2m1 operands hold two elements per i8, packed along K
// unless `lhs_k_pack`/`rhs_k_pack` (default true) say along M/N instead. The
// messages are upstream's (its dot-op interface's and its own).
LogicalResult DotScaledOp::verify() {
  auto packedAlongK = [&](StringRef name) {
    auto attr = (*this)->getAttrOfType<BoolAttr>(name);
    return !attr || attr.getValue();
  };
  auto a = getA().getType().getShape(), b = getB().getType().getShape(),
       c = getC().getType().getShape();
  if (a.size() < 2 || a.size() > 3)
    return emitOpError() << "expected operands to be 2d or 3d";
  if (a.size() != b.size() || a.size() != c.size())
    return emitOpError() << "expected all operands to have the same rank";
  size_t rank = a.size();
  bool aFp4 = getAElemType() == ScaleDotElemType::E2M1, bFp4 = getBElemType() == ScaleDotElemType::E2M1;
  bool aAlongK = packedAlongK("lhs_k_pack"), bAlongK = packedAlongK("rhs_k_pack");
  int64_t aK = a[rank - 1] * (aFp4 && aAlongK ? 2 : 1);
  int64_t bK = b[rank - 2] * (bFp4 && bAlongK ? 2 : 1);
  if (aK != bK)
    return emitOpError() << "expected the last dimension of the first operand to be equal to the "
                            "second-to-last dimension of the second operand";
  int64_t m = a[rank - 2] * (aFp4 && !aAlongK ? 2 : 1);
  int64_t n = b[rank - 1] * (bFp4 && !bAlongK ? 2 : 1);
  if (m != c[rank - 2] || n != c[rank - 1])
    return emitOpError() << "expected the output shape to be the concatenation of the last "
                            "dimension of the first operand and the last dimension of the second ";
  // One e8m0 scale per 32 elements of K (per 16 for e4m3 scales).
  auto checkScale = [&](Value scale, int64_t rows, StringRef which) -> LogicalResult {
    if (!scale)
      return success();
    auto type = cast<RankedTensorType>(scale.getType());
    auto shape = type.getShape();
    if (shape.size() != rank)
      return emitOpError() << "scales must have the rank of the operands";
    if (shape[rank - 2] != rows)
      return emitOpError() << "scales " << which << " dimension must match the operand " << which
                           << " dimension";
    int64_t factor = isa<Float8E4M3FNType>(type.getElementType()) ? 16 : 32;
    if (shape[rank - 1] != aK / factor)
      return emitOpError() << "scales K dimension must match the operand K divided by the scale factor";
    return success();
  };
  if (failed(checkScale(getAScale(), c[rank - 2], "M")) || failed(checkScale(getBScale(), c[rank - 1], "N")))
    return failure();
  return success();
}

LogicalResult DotOp::verify() {
  auto aType = getA().getType(), bType = getB().getType(), cType = getC().getType();
  if (aType.getRank() != bType.getRank() || aType.getRank() != cType.getRank() ||
      (aType.getRank() != 2 && aType.getRank() != 3))
    return emitOpError() << "requires operands of rank 2 (or 3 with a batch dimension)";
  auto a = aType.getShape(), b = bType.getShape(), c = cType.getShape();
  size_t k = a.size() - 1;
  if (a[k] != b[k - 1])
    return emitOpError() << "expected the last dimension of the first operand to be equal to the "
                            "second-to-last dimension of the second operand ("
                         << a[k] << " and " << b[k - 1] << ")";
  if (c[k - 1] != a[k - 1] || c[k] != b[k])
    return emitOpError() << "accumulator shape must be M x N of A and B";
  if (aType.getElementType().getIntOrFloatBitWidth() !=
      bType.getElementType().getIntOrFloatBitWidth())
    return emitOpError() << "element types of operands A and B must have same bit width";
  if (bool(aType.getEncoding()) != bool(bType.getEncoding()))
    return emitOpError() << "mismatching encoding between A and B operands";
  if (aType.getEncoding() && !cType.getEncoding())
    return emitOpError() << "miss encoding of C operand";
  if (!aType.getEncoding() && cType.getEncoding())
    return emitOpError() << "requires all or none of A, B and C to have a layout";
  auto aDot = dyn_cast_or_null<ttg::DotOperandEncodingAttr>(aType.getEncoding());
  auto bDot = dyn_cast_or_null<ttg::DotOperandEncodingAttr>(bType.getEncoding());
  if (aDot && bDot && aDot.getKWidth() != bDot.getKWidth())
    return emitOpError() << "mismatching kWidth between A and B operands";
  auto checkOperand = [&](Attribute encoding, unsigned opIdx) -> LogicalResult {
    if (!encoding)
      return success();
    auto dot = dyn_cast<ttg::DotOperandEncodingAttr>(encoding);
    if (!dot)
      return emitOpError() << "operand " << (opIdx ? "B" : "A")
                           << " must have a #ttg.dot_op layout, got " << encoding;
    if (dot.getOpIdx() != opIdx || dot.getParent() != cType.getEncoding())
      return emitOpError() << "operand " << (opIdx ? "B" : "A") << " layout " << encoding
                           << " does not match opIdx " << opIdx << " of the accumulator layout "
                           << cType.getEncoding();
    return success();
  };
  if (failed(checkOperand(aType.getEncoding(), 0)) || failed(checkOperand(bType.getEncoding(), 1)))
    return failure();
  // mma.sync takes f32 operands only as tf32: an IEEE f32 dot is an FMA dot.
  auto mma = dyn_cast_or_null<ttg::NvidiaMmaEncodingAttr>(cType.getEncoding());
  if (mma && mma.getVersionMajor() == 2 && aType.getElementType().isF32() &&
      getInputPrecision() == InputPrecision::IEEE)
    return emitOpError() << "unsupported MMA version: mma v2 takes f32 operands only as tf32, "
                            "not with inputPrecision = ieee";
  return success();
}

template <typename CombinerOp>
static LogicalResult verifyCombinerRegion(Operation *op, Region &region, TypeRange elementTypes) {
  Block &block = region.front();
  if (block.getNumArguments() != 2 * elementTypes.size())
    return op->emitOpError() << "combiner must take " << 2 * elementTypes.size()
                             << " arguments, two per operand";
  for (auto [i, arg] : llvm::enumerate(block.getArguments()))
    if (arg.getType() != elementTypes[i % elementTypes.size()])
      return op->emitOpError() << "combiner argument #" << i << " has type " << arg.getType()
                               << ", expected " << elementTypes[i % elementTypes.size()];
  auto terminator = dyn_cast<CombinerOp>(block.getTerminator());
  if (!terminator)
    return op->emitOpError() << "combiner must end with " << CombinerOp::getOperationName();
  if (TypeRange(terminator->getOperandTypes()) != elementTypes)
    return op->emitOpError() << "combiner must return one value of each operand's element type";
  return success();
}

// tt.reduce's result type depends on the axis, so it must be in range; a
// scan's does not, and upstream's scan verifier accepts any axis.
template <typename Op>
static LogicalResult verifyReduceOrScanOperands(Op op, bool checkAxis = true) {
  if (op.getSrcs().empty())
    return op.emitOpError() << "requires at least one operand";
  auto shape = cast<RankedTensorType>(op.getSrcs()[0].getType()).getShape();
  int64_t axis = op.getAxis();
  if (checkAxis && (axis < 0 || axis >= int64_t(shape.size())))
    return op.emitOpError() << "axis " << axis << " is out of range for rank " << shape.size();
  if (op.getNumResults() != op.getSrcs().size())
    return op.emitOpError() << "requires one result per operand";
  return success();
}

static SmallVector<Type> elementTypesOf(ValueRange values) {
  SmallVector<Type> types;
  for (Value v : values)
    types.push_back(cast<RankedTensorType>(v.getType()).getElementType());
  return types;
}

// Each result's element type is its operand's (upstream's wording).
template <typename Op> static LogicalResult verifyResultElementTypes(Op op) {
  for (auto [src, result] : llvm::zip(op.getSrcs(), op.getResults()))
    if (cast<RankedTensorType>(src.getType()).getElementType() != getElementTypeOrSelf(result.getType()))
      return op.emitOpError() << "operand types and result types must agree";
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyReduceOrScanOperands(*this)) || failed(verifyResultElementTypes(*this)))
    return failure();
  auto srcType = cast<RankedTensorType>(getSrcs()[0].getType());
  int64_t axis = getAxis();
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    auto srcTensor = cast<RankedTensorType>(src.getType());
    Type expected = srcTensor.getElementType();
    if (srcType.getRank() > 1) {
      SmallVector<int64_t> shape(srcTensor.getShape());
      shape.erase(shape.begin() + axis);
      auto resultTensor = dyn_cast<RankedTensorType>(result.getType());
      if (!resultTensor || resultTensor.getShape() != ArrayRef<int64_t>(shape) ||
          resultTensor.getElementType() != expected)
        return emitOpError() << "result type " << result.getType()
                             << " must be the operand type without dimension " << axis;
      if (auto enc = srcTensor.getEncoding()) {
        auto slice = dyn_cast_or_null<ttg::SliceEncodingAttr>(resultTensor.getEncoding());
        if (!slice || slice.getDim() != axis || Attribute(slice.getParent()) != enc)
          return emitOpError() << "result layout must be the slice along axis " << axis
                               << " of the operand layout " << enc;
      }
    } else if (result.getType() != expected) {
      return emitOpError() << "reducing a 1-D tensor gives a scalar of type " << expected;
    }
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombinerRegion<ReduceReturnOp>(*this, getCombineOp(), elementTypesOf(getSrcs()));
}

LogicalResult ScanOp::verify() {
  if (failed(verifyReduceOrScanOperands(*this, /*checkAxis=*/false)) ||
      failed(verifyResultElementTypes(*this)))
    return failure();
  for (auto [src, result] : llvm::zip(getSrcs(), getResults()))
    if (src.getType() != result.getType())
      return emitOpError() << "requires each result to have its operand's type";
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombinerRegion<ScanReturnOp>(*this, getCombineOp(), elementTypesOf(getSrcs()));
}

LogicalResult MapElementwiseOp::verify() {
  if (getPack() < 1)
    return emitOpError() << "pack must be at least 1";
  return success();
}

LogicalResult MapElementwiseOp::verifyRegions() {
  Region &region = getScalarOp();
  if (region.empty())
    return emitOpError() << "requires a non-empty region";
  unsigned pack = getPack();
  auto inputTypes = elementTypesOf(getSrcs());
  auto outputTypes = elementTypesOf(getResults());
  Block &entry = region.front();
  if (entry.getNumArguments() != inputTypes.size() * pack)
    return emitOpError() << "region has wrong number of arguments: " << entry.getNumArguments()
                         << ", expected " << inputTypes.size() * pack << " (pack elements of each operand)";
  for (auto [i, arg] : llvm::enumerate(entry.getArguments()))
    if (arg.getType() != inputTypes[i / pack])
      return emitOpError() << "argument types did not match: region argument #" << i << " has type "
                           << arg.getType() << ", expected " << inputTypes[i / pack];
  // Stores would be executed once per element, masks and all, which the
  // scalar region cannot express.
  WalkResult walk = region.walk([&](Operation *nested) -> WalkResult {
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (effects && effects.hasEffect<MemoryEffects::Write>())
      return nested->emitOpError() << "Stores are not supported inside map_elementwise";
    auto terminator = dyn_cast<MapElementwiseReturnOp>(nested);
    if (!terminator)
      return WalkResult::advance();
    bool matches = terminator->getNumOperands() == outputTypes.size() * pack;
    for (auto [i, type] : llvm::enumerate(terminator->getOperandTypes()))
      matches = matches && type == outputTypes[i / pack];
    if (!matches)
      return terminator->emitOpError() << "region return does not match map_elementwise result";
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
}

Speculation::Speculatability ExternElementwiseOp::getSpeculatability() {
  return getPure() ? Speculation::Speculatable : Speculation::NotSpeculatable;
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
}

Speculation::Speculatability ElementwiseInlineAsmOp::getSpeculatability() {
  return getPure() ? Speculation::Speculatable : Speculation::NotSpeculatable;
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  if (getPackedElement() < 1)
    return emitOpError() << "packed_element must be at least 1";
  if (!getArgs().empty()) {
    auto tensor = dyn_cast<RankedTensorType>(getArgs()[0].getType());
    int64_t elements = tensor ? tensor.getNumElements() : 0;
    if (elements % getPackedElement() != 0)
      return emitOpError() << "number of input elements " << elements
                           << " must be a multiple of the op's packed_element attribute, "
                           << getPackedElement();
  }
  if (getArgs().empty() && getNumResults() == 0)
    return success();
  std::optional<ArrayRef<int64_t>> shape;
  for (Type type : llvm::concat<Type>(getArgs().getTypes(), getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    ArrayRef<int64_t> current = tensor ? tensor.getShape() : ArrayRef<int64_t>();
    if (shape && *shape != current)
      return emitOpError() << "requires all operands and results to have the same shape";
    shape = current;
  }
  return success();
}

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  auto type = getType();
  if (start >= end)
    return emitOpError() << "start must be less than end (" << start << " and " << end << ")";
  if (type.getRank() != 1)
    return emitOpError() << "return type must be a 1D tensor";
  if (type.getShape()[0] != end - start)
    return emitOpError() << "number of elements in returned tensor, " << type.getShape()[0]
                         << ", must match size of range [" << start << ", " << end << "), which has "
                         << end - start << " elements";
  if (!type.getElementType().isInteger(32))
    return emitOpError() << "returned tensor must have i32 elements";
  return impl::checkTensorSize(*this, type);
}

LogicalResult GatherOp::verify() {
  auto srcType = getSrc().getType(), indicesType = getIndices().getType();
  auto resultType = getType();
  int64_t axis = getAxis();
  if (indicesType.getShape() != resultType.getShape())
    return emitOpError() << "indices and output shapes must match";
  if (indicesType.getEncoding() != resultType.getEncoding())
    return emitOpError() << "indices and output encodings must match";
  if (srcType.getElementType() != resultType.getElementType())
    return emitOpError() << "input and output element types must match";
  if (srcType.getRank() != indicesType.getRank())
    return emitOpError() << "input and indices ranks must match";
  if (axis < 0 || axis >= srcType.getRank())
    return emitOpError() << "gather dimension must be less than the input rank";
  // Along the other dimensions, each index row reads the source row it is in.
  for (int64_t d = 0; d < srcType.getRank(); ++d)
    if (d != axis && indicesType.getShape()[d] != srcType.getShape()[d])
      return emitOpError() << "indices dimension " << d
                           << " must match the corresponding input dimension";
  return success();
}

static LogicalResult verifyDescriptorBlock(Operation *op, TensorDescType desc,
                                           RankedTensorType tensor) {
  // The number of indices is not checked, as upstream does not: its own tests
  // pass one index for a 2-D block, or three.
  auto block = desc.getBlockType();
  // As in Triton: the block's shape, less leading unit dimensions it may drop,
  // and its element type up to the signedness of integers.
  auto signless = [](Type type) -> Type {
    if (auto integer = dyn_cast<IntegerType>(type))
      return IntegerType::get(type.getContext(), integer.getWidth());
    return type;
  };
  auto blockShape = block.getShape(), shape = tensor.getShape();
  auto isOne = [](int64_t d) { return d == 1; };
  if (blockShape.size() > shape.size() && !llvm::all_of(blockShape.drop_back(shape.size()), isOne))
    return op->emitOpError()
           << "ranked reduce load only allowed for unit dimension leading dim.";
  if (blockShape.size() < shape.size() || blockShape.take_back(shape.size()) != shape ||
      signless(block.getElementType()) != signless(tensor.getElementType()))
    return op->emitOpError() << "tensor descriptor block and tensor types must match: " << tensor
                             << " and block " << block;
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return verifyDescriptorBlock(*this, getDesc().getType(), getType());
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyDescriptorBlock(*this, getDesc().getType(), getSrc().getType());
}

LogicalResult DescriptorReduceOp::verify() {
  return verifyDescriptorBlock(*this, getDesc().getType(), getSrc().getType());
}

static LogicalResult verifyGatherScatter(Operation *op, TensorDescType desc, RankedTensorType tile,
                                         RankedTensorType xOffsets) {
  // Rows of a `1 x N` block, one per x offset, into an `M x N` tile.
  auto block = desc.getBlockType();
  if (block.getRank() != 2)
    return op->emitOpError() << "block must be a 2D tensor, but got " << block;
  if (block.getShape()[0] != 1)
    return op->emitOpError() << "block must have exactly 1 row, but got " << block;
  if (xOffsets.getRank() != 1)
    return op->emitOpError() << "x offsets must be a 1D tensor, but got " << xOffsets;
  if (tile.getRank() != 2)
    return op->emitOpError() << "result must be a 2D tensor, but got " << tile;
  // TMA gathers move rows of at least 8 x 32 bytes (the smallest swizzled tile).
  if (tile.getShape()[0] < 8)
    return op->emitOpError() << "gather must have at least 8 rows, but got " << tile.getShape()[0];
  unsigned bits = tile.getElementType().getIntOrFloatBitWidth();
  if (bits > 32)
    return op->emitOpError() << "TMA dtype cannot be greater than 32 bits";
  int64_t minColumns = 32 / bits * 8;
  if (tile.getShape()[1] < minColumns)
    return op->emitOpError() << "gather of " << tile.getElementType() << " must have at least "
                             << minColumns << " columns, but got " << tile.getShape()[1];
  if (tile.getShape()[0] != xOffsets.getShape()[0])
    return op->emitOpError() << "result tensor must have as many rows as indices ("
                             << xOffsets.getShape()[0] << "), but got " << tile;
  if (tile.getShape()[1] != block.getShape()[1])
    return op->emitOpError() << "result tensor number of columns must match block ("
                             << block.getShape()[1] << "), but got " << tile;
  if (tile.getElementType() != block.getElementType())
    return op->emitOpError() << "result tensor element type must match block ("
                             << block.getElementType() << "), but got " << tile;
  return success();
}

LogicalResult DescriptorGatherOp::verify() {
  return verifyGatherScatter(*this, getDesc().getType(), getType(), getXOffsets().getType());
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyGatherScatter(*this, getDesc().getType(), getSrc().getType(), getXOffsets().getType());
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false, getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(printer, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee = getCalleeAttr();
  auto fn = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, callee);
  if (!fn)
    return emitOpError() << "'" << callee.getValue() << "' does not reference a valid function";
  auto fnType = fn.getFunctionType();
  if (fnType.getNumInputs() != getNumOperands())
    return emitOpError() << "has " << getNumOperands() << " operands but the callee takes "
                         << fnType.getNumInputs();
  for (unsigned i = 0; i < fnType.getNumInputs(); ++i)
    if (getOperand(i).getType() != fnType.getInput(i))
      return emitOpError() << "operand #" << i << " has type " << getOperand(i).getType()
                           << " but the callee takes " << fnType.getInput(i);
  if (fnType.getNumResults() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but the callee returns "
                         << fnType.getNumResults();
  for (unsigned i = 0; i < fnType.getNumResults(); ++i)
    if (getResult(i).getType() != fnType.getResult(i))
      return emitOpError() << "result #" << i << " has type " << getResult(i).getType()
                           << " but the callee returns " << fnType.getResult(i);
  return success();
}

LogicalResult ReturnOp::verify() {
  auto fn = cast<FuncOp>((*this)->getParentOp());
  auto results = fn.getFunctionType().getResults();
  if (getNumOperands() != results.size())
    return emitOpError() << "has " << getNumOperands() << " operands, but the enclosing function ("
                         << fn.getName() << ") returns " << results.size();
  for (unsigned i = 0; i < results.size(); ++i)
    if (getOperand(i).getType() != results[i])
      return emitOpError() << "type of return operand " << i << " (" << getOperand(i).getType()
                           << ") doesn't match function result type (" << results[i] << ")"
                           << " in function @" << fn.getName();
  return success();
}

void FpToFpOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void AddPtrOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void AdvanceOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void LoadOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void StoreOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void SplatOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void TransOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void MakeRangeOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }

} // namespace tritium::tt
