// The `ttng` dialect: registration and op verifiers.
#include "tritium/Dialects.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

// `[%dep]`, `[]` or nothing after an operand: the op's async token (see the .td).
static ParseResult parseToken(OpAsmParser &parser,
                              std::optional<OpAsmParser::UnresolvedOperand> &dep, Type &token) {
  if (failed(parser.parseOptionalLSquare()))
    return success();
  token = tritium::ttg::AsyncTokenType::get(parser.getContext());
  if (succeeded(parser.parseOptionalRSquare()))
    return success();
  if (parser.parseOperand(dep.emplace()) || parser.parseRSquare())
    return failure();
  return success();
}

static void printToken(OpAsmPrinter &printer, Operation *, Value dep, Type token) {
  if (!token)
    return;
  printer << '[';
  if (dep)
    printer << dep;
  printer << ']';
}

// `, %barrier[%pred]` once per mbarrier a tcgen05 MMA arrives on.
static ParseResult
parseBarriersAndPreds(OpAsmParser &parser,
                      SmallVectorImpl<OpAsmParser::UnresolvedOperand> &barriers,
                      SmallVectorImpl<OpAsmParser::UnresolvedOperand> &preds) {
  while (succeeded(parser.parseOptionalComma()))
    if (parser.parseOperand(barriers.emplace_back()) || parser.parseLSquare() ||
        parser.parseOperand(preds.emplace_back()) || parser.parseRSquare())
      return failure();
  return success();
}

static void printBarriersAndPreds(OpAsmPrinter &printer, Operation *, OperandRange barriers,
                                  OperandRange preds) {
  for (auto [barrier, pred] : llvm::zip(barriers, preds))
    printer << ", " << barrier << '[' << pred << ']';
}

#include "tritium/TTNGDialect.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "tritium/TTNGAttrs.cpp.inc"
#define GET_OP_CLASSES
#include "tritium/TTNGOps.cpp.inc"

namespace tritium::ttng {

namespace {
// Upstream's aliases for the tensor-memory layouts (the memory space has none).
struct TTNGOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<TensorMemoryEncodingAttr>(attr))
      os << "tmem";
    else if (isa<TensorMemoryScalesEncodingAttr>(attr))
      os << "tmem_scales";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

namespace {
// Lets upstream's `inline` pass inline functions holding this dialect's ops,
// as upstream's dialects allow. tt.return, the only terminator of a callee,
// is handled by the tt dialect's interface.
struct InlineAnything : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final { return true; }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final { return true; }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final { return true; }
};
} // namespace

void TTNGDialect::initialize() {
  registerAttributes();
  addInterfaces<TTNGOpAsmInterface>();
  addInterfaces<InlineAnything>();
  addOperations<
#define GET_OP_LIST
#include "tritium/TTNGOps.cpp.inc"
      >();
}

void TTNGDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tritium/TTNGAttrs.cpp.inc"
      >();
}

LogicalResult TensorMemoryEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                               unsigned blockM, unsigned blockN,
                                               unsigned colStride, unsigned ctaSplitM,
                                               unsigned ctaSplitN, bool) {
  if (ctaSplitM < 1 || ctaSplitN < 1 || !llvm::isPowerOf2_32(ctaSplitM) ||
      !llvm::isPowerOf2_32(ctaSplitN))
    return emitError() << "CTASplitM and CTASplitN must be greater than 0 and a power of 2";
  if (blockM != 64 && blockM != 128)
    return emitError() << "blockM must be 64 or 128 but got " << blockM;
  if (!llvm::isPowerOf2_32(blockN))
    return emitError() << "blockN must be a power of 2 but got " << blockN;
  if (blockN > 512)
    return emitError() << "blockN must be less than or equal to 512 but got " << blockN;
  if (colStride != 1 && colStride != 2 && colStride != 4)
    return emitError() << "colStride must be 1, 2, or 4 but got " << colStride;
  return success();
}

using ttg::MemDescType;

void WarpGroupDotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (isa<MemDescType>(getA().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getAMutable(), SharedMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getBMutable(), SharedMemory::get());
}

static ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return cast<MemDescType>(type).getShape();
}

static Type elementOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return cast<MemDescType>(type).getElementType();
}

LogicalResult WarpGroupDotOp::verify() {
  auto a = shapeOf(getA().getType()), b = shapeOf(getB().getType());
  auto c = getC().getType().getShape();
  if (a.size() != 2 || b.size() != 2 || c.size() != 2)
    return emitOpError() << "requires rank-2 operands";
  if (a[1] != b[0] || c[0] != a[0] || c[1] != b[1])
    return emitOpError() << "operand shapes " << getA().getType() << " * " << getB().getType()
                         << " do not multiply into " << getC().getType();
  if (elementOf(getA().getType()).getIntOrFloatBitWidth() !=
      elementOf(getB().getType()).getIntOrFloatBitWidth())
    return emitOpError() << "element types of A and B must have the same bit width";
  auto mma = dyn_cast_or_null<ttg::NvidiaMmaEncodingAttr>(getC().getType().getEncoding());
  if (!mma || !mma.isHopper())
    return emitOpError() << "accumulator must have an nvidia_mma version 3 layout";
  // As upstream: operand A in registers needs a dot_op layout whose kWidth
  // fills 32-bit registers (its parent need not be the accumulator's layout).
  if (auto aTensor = dyn_cast<RankedTensorType>(getA().getType())) {
    auto dot = dyn_cast_or_null<ttg::DotOperandEncodingAttr>(aTensor.getEncoding());
    if (!dot)
      return emitOpError("WGMMA A operand must have NVMMA shared or dot layout");
    unsigned kWidth = 32 / aTensor.getElementTypeBitWidth();
    if (dot.getKWidth() != kWidth)
      return emitOpError("in-register LHS operand must have a kWidth of ")
             << kWidth << " but got " << dot.getKWidth();
  }
  return success();
}

LogicalResult WarpGroupDotWaitOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one value to wait for";
  return success();
}

static LogicalResult verifyBarrier(Operation *op, MemDescType type) {
  if (!type.getElementType().isInteger(64) || type.getNumElements() != 1)
    return op->emitOpError() << "barrier allocation must be a descriptor of 1xi64 type, got " << type;
  return success();
}

LogicalResult InitBarrierOp::verify() { return verifyBarrier(*this, getAlloc().getType()); }
LogicalResult InvalBarrierOp::verify() { return verifyBarrier(*this, getAlloc().getType()); }
LogicalResult BarrierExpectOp::verify() { return verifyBarrier(*this, getAlloc().getType()); }
LogicalResult WaitBarrierOp::verify() { return verifyBarrier(*this, getAlloc().getType()); }
LogicalResult ArriveBarrierOp::verify() {
  if (getCount() < 1)
    return emitOpError() << "arrival count must be at least 1";
  return verifyBarrier(*this, getAlloc().getType());
}

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (failed(verifyBarrier(*this, getBarrier().getType())))
    return failure();
  // As upstream: the number of coordinates is only bounded here; the
  // lowering refuses a copy whose count differs from the descriptor's rank.
  if (getCoord().size() < 1 || getCoord().size() > 5)
    return emitOpError() << "TMA copies must have between 1 and 5 coordinates";
  if (!getResult().getType().getMutableMemory())
    return emitOpError() << "Cannot store into immutable memory";
  if (!isa<ttg::NVMMASharedEncodingAttr>(getResult().getType().getEncoding()))
    return emitOpError() << "TMA result must have NVMMA shared layout";
  return success();
}

LogicalResult AsyncTMAGatherOp::verify() {
  if (failed(verifyBarrier(*this, getBarrier().getType())))
    return failure();
  if (!getResult().getType().getMutableMemory())
    return emitOpError() << "cannot store into immutable memory";
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor memory and tcgen05: the structural checks upstream's verifiers make.
// Not checked (yet): that a tensor's register layout is one tcgen05.ld/st can
// move (upstream compares linear layouts), and the two-CTA split numbers.
//===----------------------------------------------------------------------===//

static bool isTmemEncoding(Attribute encoding) {
  return isa_and_nonnull<TensorMemoryEncodingAttr, TensorMemoryScalesEncodingAttr>(encoding);
}

// The accumulator types tcgen05.mma allows for an operand element type, by kind.
enum class MmaKind { tf32, f16, f8f6f4 };
static std::optional<std::pair<MmaKind, SmallVector<Type>>> mmaKindOf(Type t) {
  MLIRContext *ctx = t.getContext();
  Type f16 = Float16Type::get(ctx), f32 = Float32Type::get(ctx);
  if (t.isF32())
    return {{MmaKind::tf32, {f32}}};
  if (t.isF16())
    return {{MmaKind::f16, {f16, f32}}};
  if (t.isBF16())
    return {{MmaKind::f16, {f32}}};
  // i8 stands for packed fp4 (as upstream).
  if (isa<Float8E4M3FNType, Float8E5M2Type>(t) || t.isInteger(8))
    return {{MmaKind::f8f6f4, {f16, f32}}};
  return std::nullopt;
}

static StringRef nameOf(MmaKind kind) {
  switch (kind) {
  case MmaKind::tf32:
    return "tf32";
  case MmaKind::f16:
    return "f16";
  case MmaKind::f8f6f4:
    return "f8f6f4";
  }
  return "?";
}

static LogicalResult verifyMmaTypes(Operation *op, Type a, Type b, Type d) {
  auto aKind = mmaKindOf(a), bKind = mmaKindOf(b);
  if (!aKind)
    return op->emitOpError("unsupported LHS operand dtype: ") << a;
  if (!bKind)
    return op->emitOpError("unsupported RHS operand dtype: ") << b;
  if (aKind->first != bKind->first)
    return op->emitOpError("LHS and RHS operand dtypes kinds don't match: LHS kind is ")
           << nameOf(aKind->first) << " but RHS kind is " << nameOf(bKind->first);
  if (!llvm::is_contained(aKind->second, d) || !llvm::is_contained(bKind->second, d)) {
    InFlightDiagnostic diag = op->emitOpError("unsupported accumulator dtype for operand types ")
                              << a << " and " << b << ", accumulator dtype is " << d
                              << " but must be one of [";
    llvm::interleaveComma(aKind->second, diag, [&](Type t) { diag << t; });
    diag << "]";
    return diag;
  }
  return success();
}

// The shape checks of upstream's DotOpInterface: A is MxK, B is KxN, D is MxN
// (a leading batch dimension allowed). `aK`/`bK` and `aM`/`bN` scale the
// dimensions that packed fp4 operands store two to a byte.
static LogicalResult verifyMmaShapes(Operation *op, ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                                     ArrayRef<int64_t> d, int64_t aK = 1, int64_t bK = 1,
                                     int64_t aM = 1, int64_t bN = 1) {
  if (a.size() != 2 && a.size() != 3)
    return op->emitOpError("expected operands to be 2d or 3d");
  if (a.size() != b.size() || a.size() != d.size())
    return op->emitOpError("expected all operands to have the same rank");
  size_t r = a.size();
  if (a[r - 1] * aK != b[r - 2] * bK)
    return op->emitOpError("expected the last dimension of the first operand to be equal to the "
                           "second-to-last dimension of the second operand");
  if (r == 3 && (a[0] != d[0] || b[0] != d[0]))
    return op->emitOpError("expected the first dimension of the first operand to be equal to the "
                           "first dimension of the result");
  if (a[r - 2] * aM != d[r - 2] || b[r - 1] * bN != d[r - 1])
    return op->emitOpError("expected the output shape to be the concatenation of the last "
                           "dimension of the first operand and the last dimension of the second ");
  return success();
}

static void addMmaEffects(Operation *op, Value useD, OpOperand &a, OpOperand &b, OpOperand &d,
                          SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  // The accumulator is read unless useD is the constant false.
  APInt use;
  if (!matchPattern(useD, m_ConstantInt(&use)) || !use.isZero())
    effects.emplace_back(MemoryEffects::Read::get(), &d, TensorMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), &d, TensorMemory::get());
  if (isa<ttg::SharedMemorySpaceAttr>(cast<MemDescType>(a.get().getType()).getMemorySpace()))
    effects.emplace_back(MemoryEffects::Read::get(), &a, SharedMemory::get());
  else
    effects.emplace_back(MemoryEffects::Read::get(), &a, TensorMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), &b, SharedMemory::get());
}

LogicalResult TCGen5MMAOp::verify() {
  if (!getIsAsync() && !getBarriers().empty())
    return emitOpError("The op is synchronous but a barrier is present.");
  if (getBarriers().size() != getBarrierPreds().size())
    return emitOpError("needs one predicate per barrier");
  MemDescType dType = getD().getType();
  if (failed(verifyMmaShapes(*this, getA().getType().getShape(), getB().getType().getShape(),
                             dType.getShape())))
    return failure();
  if (failed(verifyMmaTypes(*this, getA().getType().getElementType(),
                            getB().getType().getElementType(), dType.getElementType())))
    return failure();
  Attribute aEnc = getA().getType().getEncoding();
  if (!isa<ttg::NVMMASharedEncodingAttr, ttg::SharedLinearEncodingAttr, TensorMemoryEncodingAttr>(
          aEnc))
    return emitOpError("LHS operand must have a NVMMAShared or TensorMemory encoding");
  if (!isa<ttg::NVMMASharedEncodingAttr, ttg::SharedLinearEncodingAttr>(
          getB().getType().getEncoding()))
    return emitOpError("RHS operand must have a NVMMAShared encoding");
  auto dEnc = dyn_cast<TensorMemoryEncodingAttr>(dType.getEncoding());
  if (!dEnc)
    return emitOpError("Return operand must have a TensorMemory encoding");
  if (auto tmem = dyn_cast<TensorMemoryEncodingAttr>(aEnc); tmem && tmem.getColStride() != 1)
    return emitOpError("The col stride of the LHS operand must be 1");
  unsigned bits = dType.getElementType().getIntOrFloatBitWidth();
  if (dEnc.getColStride() != 32 / bits)
    return emitOpError("The col stride of the return operand must be 32 / ")
           << bits << " but got " << dEnc.getColStride();
  if (getTwoCtas() && !dEnc.getTwoCTAs())
    return emitOpError("The returned value's encoding must have twoCTA=true to be used in a "
                       "twoCTA matmul");
  return success();
}

void TCGen5MMAOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addMmaEffects(*this, getUseD(), getAMutable(), getBMutable(), getDMutable(), effects);
}

LogicalResult TCGen5MMAScaledOp::verify() {
  if (getBarriers().size() != getBarrierPreds().size())
    return emitOpError("needs one predicate per barrier");
  // fp4 (e2m1) operands hold two values per byte along their contiguous
  // dimension: K unless the shared layout is transposed (then M for A, N for B).
  auto transposed = [](Value v) {
    auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(cast<MemDescType>(v.getType()).getEncoding());
    return nvmma && nvmma.getTransposed();
  };
  bool aPacked = getAType() == tt::ScaleDotElemType::E2M1;
  bool bPacked = getBType() == tt::ScaleDotElemType::E2M1;
  bool aAlongK = !transposed(getA()), bAlongK = transposed(getB());
  if (failed(verifyMmaShapes(*this, getA().getType().getShape(), getB().getType().getShape(),
                             getD().getType().getShape(), aPacked && aAlongK ? 2 : 1,
                             bPacked && bAlongK ? 2 : 1, aPacked && !aAlongK ? 2 : 1,
                             bPacked && !bAlongK ? 2 : 1)))
    return failure();
  return verifyMmaTypes(*this, getA().getType().getElementType(),
                        getB().getType().getElementType(), getD().getType().getElementType());
}

void TCGen5MMAScaledOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addMmaEffects(*this, getUseD(), getAMutable(), getBMutable(), getDMutable(), effects);
  effects.emplace_back(MemoryEffects::Read::get(), &getAScaleMutable(), TensorMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getBScaleMutable(), TensorMemory::get());
}

// A tensor moved to or from tensor memory: 2-D, with the buffer's shape and element type.
static LogicalResult verifyTmemTensor(Operation *op, RankedTensorType tensor, MemDescType buffer,
                                      StringRef what) {
  if (tensor.getRank() != 2)
    return op->emitOpError(what) << " must be a 2D tensor";
  if (tensor.getElementType() != buffer.getElementType())
    return op->emitOpError("source and destination must have the same element type");
  if (tensor.getShape() != buffer.getShape())
    return op->emitOpError("shapes of ") << tensor << " and " << buffer << " differ";
  return success();
}

LogicalResult TMEMStoreOp::verify() {
  if (!isTmemEncoding(getDst().getType().getEncoding()))
    return emitOpError("should use tensor memory encoding.");
  if (!getDst().getType().getMutableMemory())
    return emitOpError("Cannot store into an immutable alloc");
  return verifyTmemTensor(*this, getSrc().getType(), getDst().getType(), "source");
}

LogicalResult TMEMLoadOp::verify() {
  if (!isa<TensorMemorySpaceAttr>(getSrc().getType().getMemorySpace()))
    return emitOpError("source must be a tensor memory buffer.");
  if (!isa<TensorMemoryEncodingAttr>(getSrc().getType().getEncoding()))
    return emitOpError("should use tensor memory encoding.");
  return verifyTmemTensor(*this, getResult().getType(), getSrc().getType(), "result");
}

LogicalResult TMEMAllocOp::verify() {
  MemDescType type = getResult().getType();
  if (!isTmemEncoding(type.getEncoding()))
    return emitOpError("should use tensor memory encoding");
  if (!isa<TensorMemorySpaceAttr>(type.getMemorySpace()))
    return emitOpError("should allocate in tensor memory");
  if (getSrc() && failed(verifyTmemTensor(*this, getSrc().getType(), type, "source")))
    return failure();
  // As ttg.local_alloc: a buffer without an initial value is filled later.
  if (!getSrc() && !type.getMutableMemory())
    return emitOpError("uninitialized alloc must have a mutable memdesc type");
  return success();
}

void TMEMAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  // An immutable allocation is a value (CSE and DCE may treat it so) until the
  // tensor-memory allocator has given it a column.
  if (!getResult().getType().getMutableMemory() && !(*this)->hasAttr("tensor_memory_col_offset"))
    return;
  OpResult alloc = getOperation()->getOpResult(0);
  effects.emplace_back(MemoryEffects::Allocate::get(), alloc, TensorMemory::get());
  if (getSrc())
    effects.emplace_back(MemoryEffects::Write::get(), alloc, TensorMemory::get());
}

// Not checked: upstream's 16-byte alignment of the source's shared layout and
// its single-CTA restriction.
LogicalResult TMEMCopyOp::verify() {
  MemDescType src = getSrc().getType(), dst = getDst().getType();
  if (!isa<ttg::SharedMemorySpaceAttr>(src.getMemorySpace()))
    return emitOpError("The source must be a shared memory buffer");
  if (src.getShape() != dst.getShape()) {
    InFlightDiagnostic diag = emitOpError("source shape ");
    llvm::interleaveComma(src.getShape(), diag);
    diag << " must match destination shape ";
    llvm::interleaveComma(dst.getShape(), diag);
    return diag;
  }
  if (getBarrier() &&
      !isa<ttg::SharedMemorySpaceAttr>(getBarrier().getType().getMemorySpace()))
    return emitOpError("The optional barrier should be a shared memory buffer");
  if (!dst.getMutableMemory())
    return emitOpError("Cannot copy into an immutable alloc");
  auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(src.getEncoding());
  if (nvmma && (nvmma.getTransposed() || nvmma.getFp4Padded()))
    return emitOpError("The source should not be transposed or padded");
  if (isa<TensorMemoryScalesEncodingAttr>(dst.getEncoding())) {
    if (nvmma && nvmma.getSwizzlingByteWidth() != 0)
      return emitOpError("The source should not be swizzled for now");
    return success();
  }
  auto tmem = dyn_cast<TensorMemoryEncodingAttr>(dst.getEncoding());
  if (!tmem)
    return emitOpError("Incorrect tmem layout.");
  if (tmem.getBlockM() != 128)
    return emitOpError("Tmem layout should have M=128.");
  if (nvmma && nvmma.getSwizzlingByteWidth() == 0)
    return emitOpError("Source layout should be swizzled.");
  if (src.getElementType().getIntOrFloatBitWidth() != 32)
    return emitOpError("Source element type should be 32-bit.");
  return success();
}

LogicalResult TMEMSubSliceOp::verify() {
  auto src = dyn_cast<TensorMemoryEncodingAttr>(getSrc().getType().getEncoding());
  if (!src)
    return emitOpError("The source must be a tensor memory buffer.");
  if (src.getBlockM() != 64 && src.getBlockM() != 128)
    return emitOpError("The source tensor memory descriptor must have a 128xN or 64xN layout, "
                       "got block_m=")
           << src.getBlockM();
  auto dst = dyn_cast<TensorMemoryEncodingAttr>(getResult().getType().getEncoding());
  if (!dst)
    return emitOpError("The destination must be a tensor memory buffer.");
  if (dst.getBlockM() != src.getBlockM() || dst.getCTASplitM() != src.getCTASplitM() ||
      dst.getCTASplitN() != src.getCTASplitN() || dst.getColStride() != src.getColStride())
    return emitOpError("The destination must have the same block size and CTASplit size as the "
                       "source.");
  return success();
}

LogicalResult TensormapCreateOp::verify() {
  size_t rank = getBoxDim().size();
  if (rank < 1 || rank > 5)
    return emitOpError() << "TMA descriptors have rank 1 to 5, got " << rank;
  if (getGlobalDim().size() != rank || getElementStride().size() != rank ||
      getGlobalStride().size() + 1 != rank)
    return emitOpError() << "needs rank box_dim, global_dim and element_stride values and rank-1 "
                            "global strides";
  return success();
}

} // namespace tritium::ttng
