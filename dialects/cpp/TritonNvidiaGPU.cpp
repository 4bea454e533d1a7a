// The `ttng` dialect: registration and op verifiers.
#include "tritium/Dialects.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;

#include "tritium/TTNGDialect.cpp.inc"
#define GET_OP_CLASSES
#include "tritium/TTNGOps.cpp.inc"

namespace tritium::ttng {

void TTNGDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tritium/TTNGOps.cpp.inc"
      >();
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
  if (auto aTensor = dyn_cast<RankedTensorType>(getA().getType())) {
    auto dot = dyn_cast_or_null<ttg::DotOperandEncodingAttr>(aTensor.getEncoding());
    if (!dot || dot.getOpIdx() != 0 || dot.getParent() != mma)
      return emitOpError() << "operand A in registers must have the dot_op layout of opIdx 0 "
                              "of the accumulator's layout";
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
    return op->emitOpError() << "barrier must be a one-element i64 buffer, got " << type;
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
  auto block = getDesc().getType().getBlockType();
  if (getCoord().size() != size_t(block.getRank()))
    return emitOpError() << "needs " << block.getRank() << " coordinates, got " << getCoord().size();
  if (!getResult().getType().getMutableMemory())
    return emitOpError() << "cannot copy into immutable memory";
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
