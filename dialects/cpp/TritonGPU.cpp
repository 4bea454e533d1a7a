// The `ttg` dialect: layout attributes (syntax and structural checks),
// !ttg.memdesc, op verifiers, and the custom syntax of ttg.warp_specialize.
// What a layout *means* (its linear layout) is computed in Rust.
#include "tritium/Dialects.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallSet.h"
#include <set>

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

#include "tritium/TTGDialect.cpp.inc"
#include "tritium/TTGAttrInterfaces.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "tritium/TTGAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "tritium/TTGTypes.cpp.inc"

// Custom directive of ttg.memdesc_subslice: `[0, 32]` without the attribute's
// own `array<i32: ...>` syntax.
static ParseResult parseOffsets(OpAsmParser &parser, DenseI32ArrayAttr &offsets) {
  SmallVector<int32_t> values;
  if (parser.parseCommaSeparatedList([&]() { return parser.parseInteger(values.emplace_back()); }))
    return failure();
  offsets = parser.getBuilder().getDenseI32ArrayAttr(values);
  return success();
}

static void printOffsets(OpAsmPrinter &printer, Operation *, DenseI32ArrayAttr offsets) {
  llvm::interleaveComma(offsets.asArrayRef(), printer);
}

#define GET_OP_CLASSES
#include "tritium/TTGOps.cpp.inc"

namespace tritium::ttg {

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

namespace {
// Prints layouts as `#blocked`, `#mma`, `#shared`, `#linear`, `#smem`, like Triton.
struct TTGOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<MmaEncoding>(attr))
      os << "mma";
    else if (isa<SharedEncoding>(attr))
      os << "shared";
    else if (isa<BlockedEncodingAttr>(attr))
      os << "blocked";
    else if (isa<LinearEncodingAttr>(attr))
      os << "linear";
    else if (isa<SharedMemorySpaceAttr>(attr))
      os << "smem";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

namespace {
// Lets upstream's `inline` pass inline tt.call into regions of this dialect's
// ops (ttg.warp_specialize partitions) and inline functions holding its ops,
// as upstream's dialects allow. tt.return, the only terminator of a callee,
// is handled by the tt dialect's interface.
struct InlineAnything : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final { return true; }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final { return true; }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final { return true; }
};
} // namespace

void TTGDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tritium/TTGOps.cpp.inc"
      >();
  addInterfaces<TTGOpAsmInterface>();
  addInterfaces<InlineAnything>();
}

void TTGDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tritium/TTGTypes.cpp.inc"
      >();
}

void TTGDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tritium/TTGAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Parsing helpers for the `<{key = value, ...}>` layout syntax
//===----------------------------------------------------------------------===//

namespace {
class LayoutDictParser {
public:
  explicit LayoutDictParser(AsmParser &parser) : parser(parser), loc(parser.getCurrentLocation()) {}

  // Parses `<{...}>` into `dict`.
  ParseResult parse() {
    if (parser.parseLess() || parser.parseAttribute(dict) || parser.parseGreater())
      return failure();
    return success();
  }

  // Parses `<{...}` into `dict`, leaving what follows the dictionary.
  ParseResult parseOpen() {
    if (parser.parseLess() || parser.parseAttribute(dict))
      return failure();
    return success();
  }

  ParseResult error(const Twine &message) { return parser.emitError(loc, message); }

  // Every key must be one of `known`.
  ParseResult checkKeys(ArrayRef<StringRef> known) {
    for (NamedAttribute entry : dict)
      if (!llvm::is_contained(known, entry.getName().strref()))
        return error("unexpected key '" + entry.getName().strref() + "' in layout");
    return success();
  }

  Attribute get(StringRef key) { return dict.get(key); }

  ParseResult getUInt(StringRef key, unsigned &out, bool required = true) {
    Attribute value = dict.get(key);
    if (!value)
      return required ? error("missing '" + key + "' in layout") : success();
    auto integer = dyn_cast<IntegerAttr>(value);
    if (!integer || integer.getValue().isNegative() || integer.getValue().getActiveBits() > 31)
      return error("'" + key + "' must be a non-negative integer");
    out = integer.getInt();
    return success();
  }

  ParseResult getBool(StringRef key, bool &out, bool required = true) {
    Attribute value = dict.get(key);
    if (!value)
      return required ? error("missing '" + key + "' in layout") : success();
    auto boolean = dyn_cast<BoolAttr>(value);
    if (!boolean)
      return error("'" + key + "' must be true or false");
    out = boolean.getValue();
    return success();
  }

  ParseResult getUIntArray(StringRef key, SmallVectorImpl<unsigned> &out, bool required = true) {
    Attribute value = dict.get(key);
    if (!value)
      return required ? error("missing '" + key + "' in layout") : success();
    return toUIntArray(value, key, out);
  }

  ParseResult toUIntArray(Attribute value, StringRef key, SmallVectorImpl<unsigned> &out) {
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array)
      return error("'" + key + "' must be an array of non-negative integers");
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer || integer.getValue().isNegative() || integer.getValue().getActiveBits() > 31)
        return error("'" + key + "' must be an array of non-negative integers");
      out.push_back(integer.getInt());
    }
    return success();
  }

  // `[[a, b], [c, d]]`: a list of bases, each `rank` integers, flattened.
  ParseResult getBases(StringRef key, std::optional<unsigned> &rank, SmallVectorImpl<int32_t> &out) {
    Attribute value = dict.get(key);
    if (!value)
      return success();
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array)
      return error("'" + key + "' must be a list of bases, e.g. [[0, 1], [1, 0]]");
    for (Attribute basis : array) {
      SmallVector<unsigned> values;
      if (toUIntArray(basis, key, values))
        return failure();
      if (rank && values.size() != *rank)
        return error("every basis of '" + key + "' must have " + Twine(*rank) + " entries");
      rank = values.size();
      out.append(values.begin(), values.end());
    }
    return success();
  }

private:
  AsmParser &parser;
  SMLoc loc;
  DictionaryAttr dict;
};

void printUIntArray(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

void printBases(AsmPrinter &printer, ArrayRef<int32_t> flat, unsigned rank) {
  printer << "[";
  for (size_t i = 0; rank && i < flat.size(); i += rank) {
    if (i)
      printer << ", ";
    printer << "[";
    llvm::interleaveComma(flat.slice(i, rank), printer);
    printer << "]";
  }
  printer << "]";
}

void printCgaLayout(AsmPrinter &printer, ArrayRef<int32_t> cgaBases, unsigned rank) {
  if (cgaBases.empty())
    return;
  printer << ", CGALayout = ";
  printBases(printer, cgaBases, rank);
}

LogicalResult verifyOrder(function_ref<InFlightDiagnostic()> emitError, ArrayRef<unsigned> order,
                          unsigned rank) {
  if (order.size() != rank)
    return emitError() << "order has " << order.size() << " entries for rank " << rank;
  SmallVector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      return emitError() << "order must be a permutation of [0, " << rank << ")";
    seen[dim] = true;
  }
  return success();
}

LogicalResult verifyPowersOfTwo(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                                ArrayRef<unsigned> values, unsigned rank) {
  if (values.size() != rank)
    return emitError() << name << " has " << values.size() << " entries for rank " << rank;
  for (unsigned v : values)
    if (!llvm::isPowerOf2_32(v))
      return emitError() << name << " entries must be powers of two, got " << v;
  return success();
}

// Bases of a linear layout: `rank` non-negative entries each. Those of a
// CGALayout must be 0 or powers of two (Triton aborts on others); those of a
// #ttg.linear may be any value, as in Triton.
LogicalResult verifyBases(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                          ArrayRef<int32_t> flat, unsigned rank, bool powersOfTwo = true) {
  if (flat.empty())
    return success();
  if (rank == 0 || flat.size() % rank != 0)
    return emitError() << name << " bases must have " << rank << " entries each";
  for (int32_t v : flat)
    if (v < 0 || (powersOfTwo && v != 0 && !llvm::isPowerOf2_32(v)))
      return emitError() << name << " basis entries must be 0 or powers of two, got " << v;
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// #ttg.blocked
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutDictParser dict(parser);
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  SmallVector<int32_t> cgaBases;
  std::optional<unsigned> rank;
  if (dict.parse() ||
      dict.checkKeys({"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CGALayout"}) ||
      dict.getUIntArray("sizePerThread", sizePerThread) ||
      dict.getUIntArray("threadsPerWarp", threadsPerWarp) ||
      dict.getUIntArray("warpsPerCTA", warpsPerCTA) || dict.getUIntArray("order", order) ||
      dict.getBases("CGALayout", rank = sizePerThread.size(), cgaBases))
    return {};
  return parser.getChecked<BlockedEncodingAttr>(parser.getContext(), sizePerThread,
                                                threadsPerWarp, warpsPerCTA, order, cgaBases);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printUIntArray(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printUIntArray(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printUIntArray(printer, getWarpsPerCTA());
  printer << ", order = ";
  printUIntArray(printer, getOrder());
  printCgaLayout(printer, getCgaBases(), getRank());
  printer << "}>";
}

LogicalResult BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<unsigned> sizePerThread,
                                          ArrayRef<unsigned> threadsPerWarp,
                                          ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order,
                                          ArrayRef<int32_t> cgaBases) {
  unsigned rank = sizePerThread.size();
  if (rank == 0)
    return emitError() << "blocked layout must have rank at least 1";
  if (failed(verifyPowersOfTwo(emitError, "sizePerThread", sizePerThread, rank)) ||
      failed(verifyPowersOfTwo(emitError, "threadsPerWarp", threadsPerWarp, rank)) ||
      failed(verifyPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA, rank)) ||
      failed(verifyOrder(emitError, order, rank)) ||
      failed(verifyBases(emitError, "CGALayout", cgaBases, rank)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// #ttg.slice
//===----------------------------------------------------------------------===//

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutDictParser dict(parser);
  unsigned dim = 0;
  if (dict.parse() || dict.checkKeys({"dim", "parent"}) || dict.getUInt("dim", dim))
    return {};
  auto parent = dyn_cast_or_null<DistributedEncoding>(dict.get("parent"));
  if (!parent) {
    (void)dict.error("'parent' must be a distributed layout (blocked, slice, dot_op, nvidia_mma, linear)");
    return {};
  }
  return parser.getChecked<SliceEncodingAttr>(parser.getContext(), dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << Attribute(getParent()) << "}>";
}

static unsigned rankOf(Attribute layout) {
  if (auto encoding = dyn_cast_or_null<LayoutEncoding>(layout))
    return encoding.getRank();
  return 0;
}

unsigned SliceEncodingAttr::getRank() const { return rankOf(getParent()) - 1; }

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned dim,
                                        DistributedEncoding parent) {
  unsigned parentRank = rankOf(parent);
  if (parentRank < 2)
    return emitError() << "parent layout must have at least rank >= 2";
  if (dim >= parentRank)
    return emitError() << "slice dim=" << dim << " must be less than the parent rank=" << parentRank;
  return success();
}

//===----------------------------------------------------------------------===//
// #ttg.dot_op
//===----------------------------------------------------------------------===//

unsigned DotOperandEncodingAttr::getRank() const { return rankOf(getParent()); }

LogicalResult DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned opIdx, Attribute parent, unsigned kWidth) {
  // Upstream's messages.
  if (opIdx > 1)
    return emitError() << "ttg.dot_op opIdx parameter can be 0 or 1, got: " << opIdx;
  if (auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(parent)) {
    bool ampereOrHopper = mma.getVersionMajor() == 2 || mma.isHopper();
    if (!ampereOrHopper && kWidth != 0)
      return emitError() << "ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent";
    if (ampereOrHopper && kWidth == 0)
      return emitError() << "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent";
    if (mma.isHopper() && opIdx != 0)
      return emitError() << "ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper "
                            "WGMMA only allows first operand to be in registers";
    return success();
  }
  if (auto wmma = dyn_cast_or_null<AMDWmmaEncodingAttr>(parent)) {
    if (wmma.getVersion() == 1 && kWidth != 8 && kWidth != 16)
      return emitError() << "ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 "
                            "(including packed cases for `scaled_dot`)";
    if (wmma.getVersion() == 2 && !llvm::is_contained({4u, 8u, 16u}, kWidth))
      return emitError() << "ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 "
                            "(including packed cases for `scaled_dot`)";
    if (wmma.getVersion() == 3 && kWidth == 0)
      return emitError() << "ttg.dot_op kWidth parameter is mandatory for WMMA v3 ";
    return success();
  }
  if (isa_and_nonnull<AMDMfmaEncodingAttr>(parent)) {
    if (kWidth == 0)
      return emitError() << "ttg.dot_op kWidth parameter is mandatory for MFMA parent";
    return success();
  }
  // As in Triton, a dot operand is that of an mma or, for FMA dots, a blocked layout.
  if (!isa_and_nonnull<BlockedEncodingAttr>(parent))
    return emitError() << "the parent of a dot_op layout must be an nvidia_mma or blocked layout";
  if (kWidth != 0)
    return emitError() << "ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout";
  return success();
}

//===----------------------------------------------------------------------===//
// #ttg.nvidia_mma
//===----------------------------------------------------------------------===//

Attribute NvidiaMmaEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutDictParser dict(parser);
  unsigned versionMajor = 0, versionMinor = 0;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  SmallVector<int32_t> cgaBases;
  std::optional<unsigned> rank;
  if (dict.parse() ||
      dict.checkKeys({"versionMajor", "versionMinor", "warpsPerCTA", "instrShape", "CGALayout"}) ||
      dict.getUInt("versionMajor", versionMajor) || dict.getUInt("versionMinor", versionMinor, /*required=*/false) ||
      dict.getUIntArray("warpsPerCTA", warpsPerCTA) || dict.getUIntArray("instrShape", instrShape) ||
      dict.getBases("CGALayout", rank = warpsPerCTA.size(), cgaBases))
    return {};
  return parser.getChecked<NvidiaMmaEncodingAttr>(parser.getContext(), versionMajor, versionMinor,
                                                  warpsPerCTA, cgaBases, instrShape);
}

void NvidiaMmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{versionMajor = " << getVersionMajor() << ", versionMinor = " << getVersionMinor()
          << ", warpsPerCTA = ";
  printUIntArray(printer, getWarpsPerCTA());
  printCgaLayout(printer, getCgaBases(), getRank());
  printer << ", instrShape = ";
  printUIntArray(printer, getInstrShape());
  printer << "}>";
}

LogicalResult NvidiaMmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                            unsigned versionMajor, unsigned versionMinor,
                                            ArrayRef<unsigned> warpsPerCTA,
                                            ArrayRef<int32_t> cgaBases,
                                            ArrayRef<unsigned> instrShape) {
  unsigned rank = warpsPerCTA.size();
  // Version 1 (Volta) parses, as upstream, but nothing lowers it.
  if (versionMajor < 1 || versionMajor > 3)
    return emitError() << "nvidia_mma versionMajor must be 1, 2 (mma.sync) or 3 (wgmma), got "
                       << versionMajor;
  if (rank != 2 && rank != 3)
    return emitError() << "nvidia_mma warpsPerCTA must have 2 or 3 entries";
  if (failed(verifyPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA, rank)) ||
      failed(verifyBases(emitError, "CGALayout", cgaBases, rank)))
    return failure();
  // mma.sync's instrShape (version 2) is fixed by the hardware and, as
  // upstream, not checked: upstream's own tests write [16, 16] and [1, 1].
  // Nor is a wgmma instrShape of other than three entries (upstream's tests
  // write [16, 8]); the layout algebra rejects it where it is used.
  if (versionMajor == 3) {
    if (instrShape.size() == 3 && (instrShape[0] != 16 || instrShape[1] % 8 != 0 ||
        instrShape[1] == 0 || instrShape[1] > 256 || instrShape[2] == 0))
      return emitError() << "wgmma (version 3) instrShape must be [16, N, K] with N a multiple of "
                            "8 up to 256";
    if (rank != 2)
      return emitError() << "wgmma (version 3) layouts have rank 2";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// #ttg.linear
//===----------------------------------------------------------------------===//

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutDictParser dict(parser);
  SmallVector<int32_t> registerBases, laneBases, warpBases, blockBases;
  std::optional<unsigned> rank;
  if (dict.parse() || dict.checkKeys({"register", "lane", "warp", "block"}) ||
      dict.getBases("register", rank, registerBases) || dict.getBases("lane", rank, laneBases) ||
      dict.getBases("warp", rank, warpBases) || dict.getBases("block", rank, blockBases))
    return {};
  if (!rank) {
    (void)dict.error("a linear layout needs at least one basis to know its rank");
    return {};
  }
  return parser.getChecked<LinearEncodingAttr>(parser.getContext(), *rank, registerBases,
                                               laneBases, warpBases, blockBases);
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  unsigned rank = getRank();
  printer << "<{register = ";
  printBases(printer, getRegisterBases(), rank);
  printer << ", lane = ";
  printBases(printer, getLaneBases(), rank);
  printer << ", warp = ";
  printBases(printer, getWarpBases(), rank);
  printer << ", block = ";
  printBases(printer, getBlockBases(), rank);
  printer << "}>";
}

LogicalResult LinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned rank,
                                         ArrayRef<int32_t> registerBases,
                                         ArrayRef<int32_t> laneBases, ArrayRef<int32_t> warpBases,
                                         ArrayRef<int32_t> blockBases) {
  if (rank == 0)
    return emitError() << "linear layout must have rank at least 1";
  for (auto [name, bases] : {std::make_pair("register", registerBases), {"lane", laneBases},
                             {"warp", warpBases}, {"block", blockBases}}) {
    if (failed(verifyBases(emitError, name, bases, rank, /*powersOfTwo=*/false)))
      return failure();
    // A distributed layout moves along at most one dimension per basis.
    for (size_t i = 0; i < bases.size(); i += rank)
      if (llvm::count_if(bases.slice(i, rank), [](int32_t v) { return v != 0; }) > 1)
        return emitError() << "in a distributed linear layout each basis moves along at most one "
                              "dimension; "
                           << name << " basis #" << i / rank << " does not";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// #ttg.swizzled_shared
//===----------------------------------------------------------------------===//

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutDictParser dict(parser);
  unsigned vec = 0, perPhase = 0, maxPhase = 0;
  SmallVector<unsigned> order;
  SmallVector<int32_t> cgaBases;
  std::optional<unsigned> rank;
  if (dict.parse() || dict.checkKeys({"vec", "perPhase", "maxPhase", "order", "CGALayout"}) ||
      dict.getUInt("vec", vec) || dict.getUInt("perPhase", perPhase) ||
      dict.getUInt("maxPhase", maxPhase) || dict.getUIntArray("order", order) ||
      dict.getBases("CGALayout", rank = order.size(), cgaBases))
    return {};
  return parser.getChecked<SwizzledSharedEncodingAttr>(parser.getContext(), vec, perPhase,
                                                       maxPhase, order, cgaBases);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  printUIntArray(printer, getOrder());
  printCgaLayout(printer, getCgaBases(), getRank());
  printer << "}>";
}

LogicalResult SwizzledSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                                 unsigned vec, unsigned perPhase,
                                                 unsigned maxPhase, ArrayRef<unsigned> order,
                                                 ArrayRef<int32_t> cgaBases) {
  if (order.empty())
    return emitError() << "swizzled_shared layout must have rank at least 1";
  if (vec == 0 || perPhase == 0 || maxPhase == 0)
    return emitError() << "vec, perPhase and maxPhase must be at least 1";
  return failure(failed(verifyOrder(emitError, order, order.size())) ||
                 failed(verifyBases(emitError, "CGALayout", cgaBases, order.size())));
}

//===----------------------------------------------------------------------===//
// #ttg.amd_mfma, #ttg.amd_wmma (syntax only; printed as upstream prints them)
//===----------------------------------------------------------------------===//

// As upstream's parsers, these two ignore keys they do not know.
Attribute AMDMfmaEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutDictParser dict(parser);
  unsigned version = 0, elementBitWidth = 32;
  bool isTransposed = false;
  SmallVector<unsigned> warpsPerCTA, instrShape, tilesPerWarp;
  SmallVector<int32_t> cgaBases;
  std::optional<unsigned> rank;
  if (dict.parse() ||
      dict.getUInt("version", version, /*required=*/false) ||
      dict.getUIntArray("warpsPerCTA", warpsPerCTA) ||
      dict.getUIntArray("instrShape", instrShape) ||
      dict.getBool("isTransposed", isTransposed, /*required=*/false) ||
      dict.getUIntArray("tilesPerWarp", tilesPerWarp, /*required=*/false) ||
      dict.getUInt("elementBitWidth", elementBitWidth, /*required=*/false) ||
      dict.getBases("CGALayout", rank = warpsPerCTA.size(), cgaBases))
    return {};
  if (tilesPerWarp.empty())
    tilesPerWarp.assign(instrShape.size(), 1);
  return parser.getChecked<AMDMfmaEncodingAttr>(parser.getContext(), version, warpsPerCTA,
                                                instrShape, isTransposed, cgaBases, tilesPerWarp,
                                                elementBitWidth);
}

void AMDMfmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{version = " << getVersion() << ", warpsPerCTA = ";
  printUIntArray(printer, getWarpsPerCTA());
  printer << ", instrShape = ";
  printUIntArray(printer, getInstrShape());
  printer << ", isTransposed = " << (getIsTransposed() ? "true" : "false");
  printCgaLayout(printer, getCgaBases(), getRank());
  if (llvm::any_of(getTilesPerWarp(), [](unsigned t) { return t != 1; })) {
    printer << ", tilesPerWarp = ";
    printUIntArray(printer, getTilesPerWarp());
  }
  if (getElementBitWidth() != 32)
    printer << ", elementBitWidth = " << getElementBitWidth();
  printer << "}>";
}

LogicalResult AMDMfmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          unsigned version, ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned> instrShape, bool,
                                          ArrayRef<int32_t> cgaBases,
                                          ArrayRef<unsigned>, unsigned elementBitWidth) {
  if (version > 4)
    return emitError() << "version must be in the [0, 4] range";
  if (instrShape.size() < 2)
    return emitError() << "instrShape must have at least 2 entries";
  std::pair<unsigned, unsigned> mn{instrShape[0], instrShape[1]};
  if (!llvm::is_contained({std::pair(32u, 32u), std::pair(16u, 16u), std::pair(64u, 4u),
                           std::pair(4u, 64u)},
                          mn))
    return emitError() << "invalid (mDim, nDim) combination: (" << mn.first << ", " << mn.second
                       << ")";
  if (elementBitWidth != 32 && elementBitWidth != 64)
    return emitError() << "elementBitWidth must be 32 or 64";
  return verifyBases(emitError, "CGALayout", cgaBases, warpsPerCTA.size());
}

static constexpr unsigned kDefaultWmmaInstrShape[] = {16, 16, 16};

Attribute AMDWmmaEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutDictParser dict(parser);
  unsigned version = 0;
  bool isTransposed = false;
  SmallVector<unsigned> warpsPerCTA, tilesPerWarp, instrShape;
  SmallVector<int32_t> cgaBases;
  std::optional<unsigned> rank;
  if (dict.parse() ||
      dict.getUInt("version", version, /*required=*/false) ||
      dict.getBool("isTranspose", isTransposed, /*required=*/false) ||
      dict.getUIntArray("warpsPerCTA", warpsPerCTA) ||
      dict.getUIntArray("tilesPerWarp", tilesPerWarp, /*required=*/false) ||
      dict.getUIntArray("instrShape", instrShape, /*required=*/false) ||
      dict.getBases("CGALayout", rank = warpsPerCTA.size(), cgaBases))
    return {};
  if (!dict.get("instrShape"))
    instrShape.assign(std::begin(kDefaultWmmaInstrShape), std::end(kDefaultWmmaInstrShape));
  if (tilesPerWarp.empty())
    tilesPerWarp.assign(instrShape.size(), 1);
  return parser.getChecked<AMDWmmaEncodingAttr>(parser.getContext(), version, isTransposed,
                                                warpsPerCTA, tilesPerWarp, cgaBases, instrShape);
}

void AMDWmmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{version = " << getVersion()
          << ", isTranspose = " << (getIsTransposed() ? "true" : "false") << ", warpsPerCTA = ";
  printUIntArray(printer, getWarpsPerCTA());
  printCgaLayout(printer, getCgaBases(), getRank());
  if (llvm::any_of(getTilesPerWarp(), [](unsigned t) { return t != 1; })) {
    printer << ", tilesPerWarp = ";
    printUIntArray(printer, getTilesPerWarp());
  }
  if (getInstrShape() != ArrayRef<unsigned>(kDefaultWmmaInstrShape)) {
    printer << ", instrShape = ";
    printUIntArray(printer, getInstrShape());
  }
  printer << "}>";
}

LogicalResult AMDWmmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          unsigned version, bool, ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned>, ArrayRef<int32_t> cgaBases,
                                          ArrayRef<unsigned> instrShape) {
  if (version < 1 || version > 3)
    return emitError() << "WMMA version must be in the [1, 3] range";
  SmallVector<unsigned> shape(instrShape);
  auto is = [&](std::initializer_list<SmallVector<unsigned>> valid) {
    return llvm::is_contained(valid, shape);
  };
  if (version == 1 && !is({{16, 16, 16}}))
    return emitError() << "invalid WMMA v1 instruction shape";
  if (version == 2 && !is({{16, 16, 16}, {16, 16, 32}}))
    return emitError() << "invalid WMMA v2 instruction shape";
  if (version == 3 && !is({{16, 16, 4}, {16, 16, 32}, {16, 16, 64}, {16, 16, 128}}))
    return emitError() << "invalid WMMA v3 instruction shape";
  return verifyBases(emitError, "CGALayout", cgaBases, warpsPerCTA.size());
}

//===----------------------------------------------------------------------===//
// #ttg.shared_linear
//===----------------------------------------------------------------------===//

Attribute SharedLinearEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutDictParser dict(parser);
  SmallVector<int32_t> offsetBases, blockBases;
  std::optional<unsigned> rank;
  unsigned alignment = 0;
  if (dict.parseOpen())
    return {};
  if (dict.get("alignment")) {
    (void)dict.error("alignment must be specified outside of the linear layout braces");
    return {};
  }
  if (dict.checkKeys({"offset", "block"}) || dict.getBases("offset", rank, offsetBases) ||
      dict.getBases("block", rank, blockBases))
    return {};
  if (!dict.get("offset")) {
    (void)dict.error("Expected basis of 'offset' not found");
    return {};
  }
  if (!rank) {
    (void)dict.error("Empty Layout not supported");
    return {};
  }
  if (parser.parseComma() || parser.parseKeyword("alignment") || parser.parseEqual() ||
      parser.parseInteger(alignment) || parser.parseGreater())
    return {};
  return parser.getChecked<SharedLinearEncodingAttr>(parser.getContext(), *rank, offsetBases,
                                                     blockBases, alignment);
}

void SharedLinearEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{offset = ";
  printBases(printer, getOffsetBases(), getRank());
  if (!getBlockBases().empty()) {
    printer << ", block = ";
    printBases(printer, getBlockBases(), getRank());
  }
  printer << "}, alignment = " << getAlignment() << ">";
}

// As upstream: over GF(2), the bases must reach every element of the tensor
// (whose size per dimension is the smallest power of two above the bases'
// values), and do so once each when the zero (broadcast) bases are left out.
LogicalResult SharedLinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                               unsigned rank, ArrayRef<int32_t> offsetBases,
                                               ArrayRef<int32_t> blockBases, unsigned) {
  if (rank == 0)
    return emitError() << "SharedLinearEncodingAttr requires at least one output dimension.";
  SmallVector<unsigned> bitsPerDim(rank, 0);
  SmallVector<int32_t> all(offsetBases);
  all.append(blockBases.begin(), blockBases.end());
  for (size_t i = 0; i < all.size(); ++i)
    bitsPerDim[i % rank] = std::max(bitsPerDim[i % rank], unsigned(llvm::Log2_32(all[i]) + 1));
  unsigned totalBits = 0;
  for (unsigned bits : bitsPerDim)
    totalBits += bits;
  if (totalBits > 64)
    return emitError() << "shared_linear layouts of more than 2^64 elements are not supported";
  // Each basis as one vector of totalBits bits (dimension 0's bits lowest).
  SmallVector<uint64_t> vectors;
  for (size_t i = 0; i < all.size(); i += rank) {
    uint64_t v = 0;
    unsigned shift = 0;
    for (unsigned d = 0; d < rank; ++d) {
      v |= uint64_t(uint32_t(all[i + d])) << shift;
      shift += bitsPerDim[d];
    }
    vectors.push_back(v);
  }
  unsigned nonZero = llvm::count_if(vectors, [](uint64_t v) { return v != 0; });
  // Gaussian elimination over GF(2).
  unsigned rankOfBases = 0;
  for (unsigned bit = 0; bit < totalBits; ++bit) {
    auto pivot = llvm::find_if(vectors, [&](uint64_t v) { return v >> bit & 1; });
    if (pivot == vectors.end())
      continue;
    uint64_t p = *pivot;
    vectors.erase(pivot);
    for (uint64_t &v : vectors)
      if (v >> bit & 1)
        v ^= p;
    ++rankOfBases;
  }
  if (rankOfBases != totalBits)
    return emitError() << "The layout must be surjective";
  if (nonZero != totalBits)
    return emitError() << "After removing the zero bases the layout must be bijective";
  return success();
}

//===----------------------------------------------------------------------===//
// #ttg.padded_shared
//===----------------------------------------------------------------------===//

// The offset bases of the identity layout of `shape` in `order` (fastest
// dimension first): each dimension's bits in turn.
static SmallVector<int32_t> identityBases(ArrayRef<int64_t> shape, ArrayRef<unsigned> order) {
  SmallVector<int32_t> bases;
  for (unsigned dim : order)
    for (int64_t step = 1; step < shape[dim]; step *= 2)
      for (unsigned d = 0; d < shape.size(); ++d)
        bases.push_back(d == dim ? step : 0);
  return bases;
}

SmallVector<int64_t> PaddedSharedEncodingAttr::getShape() const {
  SmallVector<int64_t> shape(getRank(), 1);
  unsigned rank = getRank();
  auto grow = [&](ArrayRef<int32_t> bases) {
    for (size_t i = 0; i < bases.size(); ++i)
      shape[i % rank] = std::max<int64_t>(shape[i % rank], int64_t(bases[i]) * 2);
  };
  grow(getOffsetBases());
  grow(getBlockBases());
  return shape;
}

Attribute PaddedSharedEncodingAttr::parse(AsmParser &parser, Type) {
  SmallVector<unsigned> intervals, paddings;
  auto parsePair = [&]() -> ParseResult {
    unsigned interval = 0, padding = 0;
    if (parser.parseInteger(interval) || parser.parseColon() || parser.parsePlus() ||
        parser.parseInteger(padding))
      return failure();
    intervals.push_back(interval);
    paddings.push_back(padding);
    return success();
  };
  if (parser.parseLess() || parser.parseLSquare() || parser.parseCommaSeparatedList(parsePair) ||
      parser.parseRSquare())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  DictionaryAttr dict;
  if (parser.parseAttribute(dict) || parser.parseGreater())
    return {};
  std::optional<unsigned> rank;
  SmallVector<int32_t> offsetBases, blockBases;
  if (dict.contains("offset") || dict.contains("block")) {
    // The linear form: offset and block bases.
    for (NamedAttribute entry : dict)
      if (entry.getName() != "offset" && entry.getName() != "block") {
        parser.emitError(loc, "Unexpected attribute ") << entry.getName() << " found";
        return {};
      }
    auto getBases = [&](StringRef key, SmallVectorImpl<int32_t> &out) -> ParseResult {
      // Upstream's messages.
      if (!dict.get(key))
        return parser.emitError(loc, "Expected basis of '") << key << "' not found";
      auto array = dyn_cast<ArrayAttr>(dict.get(key));
      if (!array)
        return parser.emitError(loc, "Expected array of arrays for basis of '") << key << "'";
      for (Attribute basis : array) {
        auto values = dyn_cast<ArrayAttr>(basis);
        if (!values)
          return parser.emitError(loc, "'") << key << "' must be a list of bases";
        if (rank && values.size() != *rank)
          return parser.emitError(loc, "every basis must have ") << *rank << " entries";
        rank = values.size();
        for (Attribute v : values) {
          auto integer = dyn_cast<IntegerAttr>(v);
          if (!integer || integer.getValue().isNegative() || integer.getValue().getActiveBits() > 31)
            return parser.emitError(loc, "bases must be non-negative integers");
          out.push_back(integer.getInt());
        }
      }
      return success();
    };
    if (getBases("offset", offsetBases) || getBases("block", blockBases))
      return {};
    if (!rank) {
      parser.emitError(loc, "Empty Layout not supported");
      return {};
    }
  } else {
    // The short form: the identity layout of `shape` in `order`.
    SmallVector<unsigned> order, shapeValues;
    for (NamedAttribute entry : dict) {
      SmallVector<unsigned> *out = entry.getName() == "order"   ? &order
                                   : entry.getName() == "shape" ? &shapeValues
                                                                : nullptr;
      auto array = dyn_cast<ArrayAttr>(entry.getValue());
      if (!out) {
        parser.emitError(loc, "Unexpected attribute ") << entry.getName() << " found";
        return {};
      }
      if (!array) {
        parser.emitError(loc, "'") << entry.getName() << "' must be an array of integers";
        return {};
      }
      for (Attribute v : array) {
        auto integer = dyn_cast<IntegerAttr>(v);
        if (!integer || integer.getValue().isNegative()) {
          parser.emitError(loc, "'") << entry.getName() << "' must be an array of integers";
          return {};
        }
        out->push_back(integer.getInt());
      }
    }
    if (order.size() != shapeValues.size()) {
      parser.emitError(loc, "Mismatch of shape and order ranks in padded layout");
      return {};
    }
    SmallVector<int64_t> shape(shapeValues.begin(), shapeValues.end());
    if (failed(verifyOrder([&] { return parser.emitError(loc); }, order, order.size())))
      return {};
    if (llvm::any_of(shape, [](int64_t d) { return d <= 0 || !llvm::isPowerOf2_64(d); })) {
      parser.emitError(loc, "padded_shared shape must be powers of two");
      return {};
    }
    rank = shape.size();
    offsetBases = identityBases(shape, order);
  }
  return parser.getChecked<PaddedSharedEncodingAttr>(parser.getContext(), intervals, paddings,
                                                     *rank, offsetBases, blockBases);
}

void PaddedSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(llvm::zip(getIntervals(), getPaddings()), printer, [&](auto pair) {
    printer << std::get<0>(pair) << ":+" << std::get<1>(pair);
  });
  printer << "] {";
  // The order: dimensions as the offset bases first move along them, then the
  // others from the last to the first (as upstream).
  unsigned rank = getRank();
  SmallVector<unsigned> order;
  ArrayRef<int32_t> offsets = getOffsetBases();
  for (size_t i = 0; i < offsets.size(); i += rank)
    for (unsigned d = 0; d < rank; ++d)
      if (offsets[i + d] != 0 && !llvm::is_contained(order, d))
        order.push_back(d);
  for (unsigned d = rank; d-- > 0;)
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  SmallVector<int64_t> shape = getShape();
  if (getBlockBases().empty() && identityBases(shape, order) == offsets) {
    printer << "order = ";
    printUIntArray(printer, order);
    printer << ", shape = [";
    llvm::interleaveComma(shape, printer);
    printer << "]";
  } else {
    printer << "offset = ";
    printBases(printer, offsets, rank);
    printer << ", block = ";
    printBases(printer, getBlockBases(), rank);
  }
  printer << "}>";
}

LogicalResult PaddedSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                               ArrayRef<unsigned> intervals,
                                               ArrayRef<unsigned> paddings, unsigned rank,
                                               ArrayRef<int32_t> offsetBases,
                                               ArrayRef<int32_t> blockBases) {
  if (intervals.size() != paddings.size())
    return emitError() << "intervals size (" << intervals.size() << ") must match paddings size ("
                       << paddings.size() << ")";
  if (intervals.empty())
    return emitError() << "must have at least one interval-padding pair";
  if (!llvm::all_of(intervals, llvm::isPowerOf2_32))
    return emitError() << "interval values must all be power of two";
  if (!llvm::all_of(paddings, llvm::isPowerOf2_32))
    return emitError() << "padding values must all be power of two";
  if (llvm::SmallSet<unsigned, 4>(intervals.begin(), intervals.end()).size() != intervals.size())
    return emitError() << "interval values cannot have duplicates";
  if (rank == 0)
    return emitError() << "linearComponent cannot be empty";
  // No broadcasting and no repeated bases: every basis a distinct single bit.
  SmallVector<int32_t> all(offsetBases);
  all.append(blockBases.begin(), blockBases.end());
  std::set<std::pair<unsigned, int32_t>> seen;
  bool broadcast = false;
  for (size_t i = 0; i < all.size(); i += rank) {
    ArrayRef<int32_t> basis(all.data() + i, rank);
    if (llvm::count_if(basis, [](int32_t v) { return v != 0; }) > 1)
      return emitError() << "Each offset basis must move in at most one dimension.";
    if (!llvm::all_of(basis, [](int32_t v) { return v == 0 || llvm::isPowerOf2_32(v); }))
      return emitError() << "Each offset basis must be 0 or a power of two.";
    auto nonZero = llvm::find_if(basis, [](int32_t v) { return v != 0; });
    if (nonZero == basis.end() || !seen.insert({nonZero - basis.begin(), *nonZero}).second)
      broadcast = true;
  }
  // Distinct single bits cover the tensor exactly when each dimension's bits
  // are 1, 2, 4, ... up to its size.
  SmallVector<int64_t> size(rank, 1);
  for (auto [dim, value] : seen)
    size[dim] = std::max<int64_t>(size[dim], int64_t(value) * 2);
  size_t bits = 0;
  for (int64_t s : size)
    bits += llvm::Log2_64(s);
  if (broadcast || bits != seen.size())
    return emitError() << "Broadcasting is not supported.";
  return success();
}

//===----------------------------------------------------------------------===//
// #ttg.nvmma_shared
//===----------------------------------------------------------------------===//

Attribute NVMMASharedEncodingAttr::parse(AsmParser &parser, Type) {
  LayoutDictParser dict(parser);
  unsigned swizzlingByteWidth = 0, elementBitWidth = 0;
  bool transposed = false, fp4Padded = false;
  SmallVector<int32_t> cgaBases;
  unsigned rank = 2;
  std::optional<unsigned> cgaRank;
  if (dict.parse() ||
      dict.checkKeys({"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank",
                      "CGALayout"}) ||
      dict.getUInt("swizzlingByteWidth", swizzlingByteWidth) ||
      dict.getBool("transposed", transposed, /*required=*/false) ||
      // Missing means 0, "unknown": upstream reads an uninitialised value there.
      dict.getUInt("elementBitWidth", elementBitWidth, /*required=*/false) ||
      dict.getBool("fp4Padded", fp4Padded, /*required=*/false) ||
      dict.getUInt("rank", rank, /*required=*/false) ||
      dict.getBases("CGALayout", cgaRank, cgaBases))
    return {};
  if (cgaRank) {
    if (dict.get("rank") && *cgaRank != rank) {
      (void)dict.error("'rank' disagrees with the rank of 'CGALayout'");
      return {};
    }
    rank = *cgaRank;
  }
  return parser.getChecked<NVMMASharedEncodingAttr>(parser.getContext(), swizzlingByteWidth,
                                                    transposed, elementBitWidth, fp4Padded, rank,
                                                    cgaBases);
}

void NVMMASharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{swizzlingByteWidth = " << getSwizzlingByteWidth()
          << ", transposed = " << (getTransposed() ? "true" : "false")
          << ", elementBitWidth = " << getElementBitWidth();
  if (getFp4Padded())
    printer << ", fp4Padded = true";
  if (getCgaBases().empty() && getRank() != 2)
    printer << ", rank = " << getRank();
  printCgaLayout(printer, getCgaBases(), getRank());
  printer << "}>";
}

LogicalResult NVMMASharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                              unsigned swizzlingByteWidth, bool transposed,
                                              unsigned elementBitWidth, bool fp4Padded,
                                              unsigned rank, ArrayRef<int32_t> cgaBases) {
  if (!llvm::is_contained({0u, 32u, 64u, 128u}, swizzlingByteWidth))
    return emitError() << "swizzlingByteWidth must be 0, 32, 64 or 128, got " << swizzlingByteWidth;
  // 0 (as upstream's lit tests write it) leaves the width to the element type.
  if (!llvm::is_contained({0u, 4u, 8u, 16u, 32u, 64u}, elementBitWidth))
    return emitError() << "elementBitWidth must be 4, 8, 16, 32 or 64, got " << elementBitWidth;
  if (rank == 0)
    return emitError() << "nvmma_shared layout must have rank at least 1";
  return verifyBases(emitError, "CGALayout", cgaBases, rank);
}

//===----------------------------------------------------------------------===//
// !ttg.memdesc
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape, allocShape;
  Type elementType;
  Attribute encoding, memorySpace;
  bool mutableMemory = false;
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() || parser.parseAttribute(encoding) ||
      parser.parseComma() || parser.parseAttribute(memorySpace))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("mutable"))) {
      mutableMemory = true;
      if (succeeded(parser.parseOptionalComma()) &&
          parser.parseDimensionList(allocShape, /*allowDynamic=*/false, /*withTrailingX=*/false))
        return {};
    } else if (parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                         /*withTrailingX=*/false)) {
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  if (allocShape.empty())
    allocShape = shape;
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), shape,
                    elementType, encoding, memorySpace, mutableMemory, allocShape);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType();
  if (getEncoding())
    printer << ", " << getEncoding();
  if (getMemorySpace())
    printer << ", " << getMemorySpace();
  if (getMutableMemory())
    printer << ", mutable";
  if (getAllocShape() != getShape()) {
    printer << ", ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType, Attribute encoding,
                                  Attribute memorySpace, bool mutableMemory,
                                  ArrayRef<int64_t> allocShape) {
  if (shape.empty())
    return emitError() << "rank 0 memdesc is not allowed";
  // The leading dimension may count pipeline buffers; the others are tile sizes.
  for (int64_t dim : shape.drop_front())
    if (dim <= 0 || !llvm::isPowerOf2_64(dim))
      return emitError() << "memdesc dimensions after the first must be powers of two, got "
                         << shape;
  if (shape.front() <= 0)
    return emitError() << "memdesc dimensions must be positive";
  if (allocShape.size() < shape.size())
    return emitError() << "memdesc alloc shape must have at least the rank of its shape";
  for (auto [dim, allocDim] : llvm::zip(shape, allocShape.take_back(shape.size())))
    if (dim > allocDim)
      return emitError() << "memdesc shape " << shape << " exceeds its alloc shape " << allocShape;
  if (!elementType.isIntOrFloat() && !isa<tt::PointerType>(elementType))
    return emitError() << "memdesc element type must be an integer or a float, got " << elementType;
  // Blackwell's tensor memory: a TMEM layout describes the 2-D tile (a
  // leading dimension may count buffers), over TMEM's 128 lanes.
  // Upstream also checks the allocation against the TMEM layout's linear
  // layout (its size and column count); Tritium has no TMEM linear layouts yet.
  if (auto tmem = dyn_cast_or_null<ttng::TensorMemoryEncodingAttr>(encoding)) {
    if (!isa_and_nonnull<ttng::TensorMemorySpaceAttr>(memorySpace))
      return emitError() << "memorySpace must be TensorMemorySpace";
    if (shape.size() != 2 && shape.size() != 3)
      return emitError() << "rank must be 2 or 3";
    unsigned bitwidth = elementType.getIntOrFloatBitWidth();
    if (bitwidth * tmem.getColStride() > 32)
      return emitError() << "bitwidth * colStride must be less than or equal to 32. Got "
                         << bitwidth << " and " << tmem.getColStride();
    auto alloc = allocShape.take_back(2);
    unsigned rows = tmem.getBlockM() * tmem.getCTASplitM();
    unsigned cols = tmem.getBlockN() * tmem.getCTASplitN();
    if (alloc[0] < rows || alloc[1] < cols)
      return emitError() << "the allocation shape must be at least " << rows << "x" << cols
                         << ". Got " << alloc;
    return success();
  }
  if (isa_and_nonnull<ttng::TensorMemoryScalesEncodingAttr>(encoding)) {
    if (!isa_and_nonnull<ttng::TensorMemorySpaceAttr>(memorySpace))
      return emitError() << "memorySpace must be TensorMemorySpace";
    if (allocShape.size() != 2)
      return emitError() << "Scales don't currently support multibuffering";
    if (elementType.getIntOrFloatBitWidth() != 8)
      return emitError() << "bitwidth must be 8";
    return success();
  }
  if (isa_and_nonnull<ttng::TensorMemorySpaceAttr>(memorySpace))
    return emitError() << "memdesc in #ttng.tensor_memory must have a tensor memory layout, got "
                       << encoding;
  if (!isa_and_nonnull<SharedEncoding>(encoding))
    return emitError() << "memdesc layout must be a shared-memory layout, got " << encoding;
  if (!isa_and_nonnull<SharedMemorySpaceAttr>(memorySpace))
    return emitError() << "memdesc of a shared-memory layout must be in #ttg.shared_memory, got "
                       << memorySpace;
  // The layout describes the tile; a leading dimension may count buffers.
  unsigned rank = cast<LayoutEncoding>(encoding).getRank();
  if (rank != shape.size() && rank + 1 != shape.size())
    return emitError() << "rank must be equal to or one less than the shape size. Got " << rank
                       << " and " << shape.size() << " (layout " << encoding << ")";
  // A padded layout's linear component covers the allocation (less a
  // pipelining dimension) exactly.
  if (auto padded = dyn_cast<PaddedSharedEncodingAttr>(encoding)) {
    SmallVector<int64_t> covered = padded.getShape();
    ArrayRef<int64_t> expected = allocShape.take_back(rank);
    for (unsigned d = 0; d < rank; ++d)
      if (covered[d] != expected[d])
        return emitError() << "Mismatch in expected shape for dimension " << d
                           << ". Expected: " << expected[d] << ", got: " << covered[d];
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Op verifiers and canonicalization
//===----------------------------------------------------------------------===//

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *) {
  addRustCanonicalizationPatterns(patterns, getOperationName());
}
void LocalAllocOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void MemDescTransOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void MemDescReinterpretOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }
void WarpSpecializeOp::getCanonicalizationPatterns(RewritePatternSet &p, MLIRContext *) { addRustCanonicalizationPatterns(p, getOperationName()); }

void WarpSpecializeOp::getSuccessorRegions(RegionBranchPoint point,
                                           SmallVectorImpl<RegionSuccessor> &successors) {
  if (point.isParent()) {
    successors.emplace_back(&getDefaultRegion());
    return;
  }
  successors.emplace_back(getOperation(), getResults());
}

static LogicalResult verifyTileMatchesBuffer(Operation *op, RankedTensorType tensor,
                                             MemDescType buffer) {
  if (tensor.getShape() != buffer.getShape() || tensor.getElementType() != buffer.getElementType())
    return op->emitOpError() << "tensor " << tensor << " does not match buffer " << buffer;
  return success();
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto srcType = getSrc().getType();
  auto dstType = getResult().getType();
  if (!dstType.getMutableMemory())
    return emitOpError() << "cannot copy into immutable memory";
  if (srcType.getShape() != dstType.getShape() ||
      tt::getPointeeType(srcType.getElementType()) != dstType.getElementType())
    return emitOpError() << "source " << srcType << " does not match destination " << dstType;
  return success();
}

void LocalAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  // An immutable buffer initialised from a tensor behaves like a value, so it
  // may be CSE'd and dropped when dead; a mutable one is real state.
  Operation *op = getOperation();
  if (getSrc() && !getType().getMutableMemory())
    return;
  effects.emplace_back(MemoryEffects::Allocate::get(), op->getOpResult(0), SharedMemory::get());
  if (getSrc())
    effects.emplace_back(MemoryEffects::Write::get(), op->getOpResult(0), SharedMemory::get());
}

LogicalResult LocalAllocOp::verify() {
  auto type = getType();
  if (!getSrc()) {
    if (!type.getMutableMemory())
      return emitOpError() << "an allocation without an initial value must be mutable";
    return success();
  }
  auto srcShape = getSrc().getType().getShape();
  if (srcShape != type.getShape() || getSrc().getType().getElementType() != type.getElementType())
    return emitOpError() << "initial value " << getSrc().getType() << " does not match buffer "
                         << type;
  if (type.getAllocShape() != type.getShape())
    return emitOpError() << "an initialised allocation cannot be a view of a larger buffer";
  return success();
}

// The messages are upstream's (its tests match them).
LogicalResult MemDescIndexOp::verify() {
  auto srcType = getSrc().getType(), dstType = getType();
  if (srcType.getElementType() != dstType.getElementType())
    return emitOpError() << "result element type must match desc element type";
  if (srcType.getRank() != dstType.getRank() + 1)
    return emitOpError() << "result rank must be input rank - 1";
  if (dstType.getShape() != srcType.getShape().drop_front())
    return emitOpError() << "result shape must equal to srcShape[1:]";
  // As in Triton: index whole buffers only, and the result is a buffer of its own.
  if (srcType.getAllocShape() != srcType.getShape() || dstType.getAllocShape() != dstType.getShape())
    return emitOpError() << "alloc shape must match shape for both result and src";
  // A view may drop write access, not gain it.
  if ((dstType.getMutableMemory() && !srcType.getMutableMemory()) ||
      srcType.getMemorySpace() != dstType.getMemorySpace())
    return emitOpError() << "result must keep the source's memory space, and cannot make "
                            "immutable memory mutable";
  return success();
}

// Shared layouts split over the CTAs of a cluster (a non-empty CGALayout).
static bool splitOverCtas(Attribute encoding) {
  if (auto swizzled = dyn_cast_or_null<SwizzledSharedEncodingAttr>(encoding))
    return !swizzled.getCgaBases().empty();
  if (auto nvmma = dyn_cast_or_null<NVMMASharedEncodingAttr>(encoding))
    return !nvmma.getCgaBases().empty();
  return false;
}

LogicalResult MemDescSubsliceOp::verify() {
  auto srcType = getSrc().getType(), dstType = getType();
  auto offsets = getOffsets();
  if (srcType.getElementType() != dstType.getElementType())
    return emitOpError() << "result element type must match desc element type";
  if (int64_t(offsets.size()) != srcType.getRank())
    return emitOpError() << "offsets must have the same rank as input";
  if (dstType.getRank() != srcType.getRank())
    return emitOpError() << "result rank must equal to input rank";
  bool split = false;
  for (int64_t d = 0; d < srcType.getRank(); ++d) {
    int64_t size = dstType.getShape()[d];
    if (offsets[d] < 0 || offsets[d] + size > srcType.getShape()[d])
      return emitOpError() << "subslice along dimension " << d << " is out of bounds";
    if (size == srcType.getShape()[d]) {
      if (offsets[d] != 0)
        return emitOpError() << "A non zero offset found in a dimension that is not being split";
      continue;
    }
    split = true;
    // Tiles of a power-of-two size, at multiples of it.
    if (offsets[d] & (size - 1))
      return emitOpError() << "The split offset may not touch the tile";
  }
  if (split && splitOverCtas(srcType.getEncoding()))
    return emitOpError() << "non-trivial block dimension not supported";
  if (auto padded = dyn_cast_or_null<PaddedSharedEncodingAttr>(srcType.getEncoding());
      split && padded && padded.getRank() < srcType.getRank())
    return emitOpError() << "SubSlice of low rank PaddedSharedEncoding from higher rank tensors is not "
                            "supported yet";
  if (!split)
    return success();
  // A slice must start at a whole number of swizzling patterns: each step
  // along a split dim must move by one basis of the layout (linear layouts:
  // Rust).
  SmallVector<int64_t> shapes(srcType.getShape());
  llvm::append_range(shapes, dstType.getShape());
  auto allocShape = srcType.getAllocShape().take_back(srcType.getRank());
  if (checkLayouts(LayoutQuery::Subslice, srcType.getEncoding(), {}, allocShape, shapes, getLoc()) ==
      LayoutVerdict::Incompatible)
    return emitOpError() << "We don't support splitting along the swizzling pattern";
  return success();
}

LogicalResult MemDescTransOp::verify() {
  auto srcShape = getSrc().getType().getShape();
  auto order = getOrder();
  if (order.size() != srcShape.size())
    return emitOpError() << "order must have one entry per dimension";
  SmallVector<bool> seen(order.size(), false);
  for (int32_t dim : order) {
    if (dim < 0 || size_t(dim) >= order.size() || seen[dim])
      return emitOpError() << "order must be a permutation";
    seen[dim] = true;
  }
  auto dstShape = getType().getShape();
  if (dstShape.size() != srcShape.size())
    return emitOpError() << "result must have the rank of the source";
  for (auto [i, dim] : llvm::enumerate(order))
    if (dstShape[i] != srcShape[dim])
      return emitOpError() << "result shape must be the source shape permuted by order";
  // Upstream infers the result type: the view's shape and the allocation's
  // last dims permuted, the layout transposed (equivalent layouts accepted).
  auto srcType = getSrc().getType(), dstType = getType();
  auto allocShape = srcType.getAllocShape();
  if (allocShape.size() < order.size())
    allocShape = srcShape;
  size_t batch = allocShape.size() - order.size();
  SmallVector<int64_t> inferredAlloc(allocShape.take_front(batch));
  for (int32_t dim : order)
    inferredAlloc.push_back(allocShape[batch + dim]);
  auto inferredWith = [&](Attribute encoding) {
    return MemDescType::get(getContext(), dstShape, srcType.getElementType(), encoding,
                            srcType.getMemorySpace(), srcType.getMutableMemory(), inferredAlloc);
  };
  Attribute srcEnc = srcType.getEncoding(), dstEnc = dstType.getEncoding();
  if (dstType.getAllocShape() != ArrayRef<int64_t>(inferredAlloc) ||
      dstType.getMemorySpace() != srcType.getMemorySpace() ||
      dstType.getMutableMemory() != srcType.getMutableMemory() || bool(srcEnc) != bool(dstEnc))
    return emitInferredTypeMismatch(*this, inferredWith(srcEnc && dstEnc ? dstEnc : Attribute()),
                                    dstType);
  if (!srcEnc)
    return success();
  SmallVector<int64_t> permutation(order.begin(), order.end());
  Attribute inferred;
  switch (checkLayouts(LayoutQuery::Trans, srcEnc, dstEnc, srcShape, permutation, getLoc(), &inferred)) {
  case LayoutVerdict::Rejected:
    return emitOpError() << "failed to infer returned types";
  case LayoutVerdict::Incompatible:
    if (!inferred)
      return emitOpError() << "failed to infer returned types";
    return emitInferredTypeMismatch(*this, inferredWith(inferred), dstType);
  default:
    return success();
  }
}

LogicalResult MemDescReshapeOp::verify() {
  auto srcType = getSrc().getType(), dstType = getType();
  if (srcType.getNumElements() != dstType.getNumElements())
    return emitOpError() << "requires the same number of elements in source and result";
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return verifyTileMatchesBuffer(*this, getType(), getSrc().getType());
}

LogicalResult LocalStoreOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError() << "cannot store into immutable memory";
  return verifyTileMatchesBuffer(*this, getSrc().getType(), getDst().getType());
}

LogicalResult Fp4ToFpOp::verify() {
  auto srcType = getSrc().getType(), dstType = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= srcType.getRank() || srcType.getRank() != dstType.getRank())
    return emitOpError() << "axis " << axis << " is out of range";
  for (int64_t d = 0; d < srcType.getRank(); ++d) {
    int64_t expected = srcType.getShape()[d] * (d == axis ? 2 : 1);
    if (dstType.getShape()[d] != expected)
      return emitOpError() << "result must have twice as many elements as the source along axis "
                           << axis;
  }
  // Upstream infers the source layout back from the result's (two results
  // per source element along `axis`) and compares linear layouts.
  Attribute srcEnc = srcType.getEncoding(), dstEnc = dstType.getEncoding();
  if (bool(srcEnc) != bool(dstEnc))
    return emitOpError() << "source and result must both have an encoding, or neither";
  if (!dstEnc)
    return success();
  switch (checkLayouts(LayoutQuery::Fp4ToFp, dstEnc, srcEnc, dstType.getShape(), {axis}, getLoc())) {
  case LayoutVerdict::Rejected:
    return emitOpError() << "failed to infer encoding";
  case LayoutVerdict::Incompatible:
    return emitOpError() << "Src and Dst encodings are not compatible";
  default:
    return success();
  }
}

//===----------------------------------------------------------------------===//
// ttg.warp_specialize
//===----------------------------------------------------------------------===//

// ttg.warp_specialize(%a, %b) attributes {...}
// default { ... ttg.warp_yield ... }
// partition0(%arg0: T0, %arg1: T1) num_warps(4) { ... ttg.warp_return }
// ... : (T0, T1) -> (R...)
ParseResult WarpSpecializeOp::parse(OpAsmParser &parser, OperationState &result) {
  // Both states are destroyed when the parse fails (`partitions` here, its
  // regions one after the other): their uses go first.
  OperationState partitions(parser.getEncodedSourceLoc(parser.getCurrentLocation()),
                            WarpSpecializePartitionsOp::getOperationName());
  bool parsed = false;
  auto dropReferences = llvm::make_scope_exit([&] {
    if (!parsed) {
      dropStateReferences(partitions);
      dropStateReferences(result);
    }
  });
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  SMLoc capturesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(captures, AsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) || parser.parseKeyword("default") ||
      parser.parseRegion(*result.addRegion()))
    return failure();

  // The partitions op is located where the partitions start.
  partitions.location = parser.getEncodedSourceLoc(parser.getCurrentLocation());
  SmallVector<int32_t> numWarps;
  while (succeeded(parser.parseOptionalKeyword(("partition" + Twine(numWarps.size())).str()))) {
    SmallVector<OpAsmParser::Argument> arguments;
    if (parser.parseArgumentList(arguments, AsmParser::Delimiter::Paren, /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(numWarps.emplace_back()) || parser.parseRParen() ||
        parser.parseRegion(*partitions.addRegion(), arguments))
      return failure();
  }

  FunctionType types;
  if (parser.parseColon() || parser.parseType(types) ||
      parser.resolveOperands(captures, types.getInputs(), capturesLoc, result.operands))
    return failure();
  result.addTypes(types.getResults());
  result.addAttribute(getPartitionNumWarpsAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(numWarps));

  Block &holder = result.addRegion()->emplaceBlock();
  OpBuilder builder(parser.getContext());
  builder.setInsertionPointToStart(&holder);
  builder.create(partitions);
  parsed = true;
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &printer) {
  printer << "(";
  printer.printOperands(getOperands());
  printer << ")";
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(), {getPartitionNumWarpsAttrName()});
  printer.printNewline();
  printer << "default ";
  printer.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false);
  auto partitions = getPartitionOpHolder().front().empty()
                        ? nullptr
                        : dyn_cast<WarpSpecializePartitionsOp>(getPartitionOpHolder().front().front());
  if (partitions) {
    for (auto [i, region] : llvm::enumerate(partitions.getPartitionRegions())) {
      printer.printNewline();
      printer << "partition" << i << "(";
      llvm::interleaveComma(region.getArguments(), printer,
                            [&](BlockArgument arg) { printer.printRegionArgument(arg); });
      int32_t warps = i < getPartitionNumWarps().size() ? getPartitionNumWarps()[i] : 0;
      printer << ") num_warps(" << warps << ") ";
      printer.printRegion(region, /*printEntryBlockArgs=*/false);
    }
  }
  printer << " : ";
  printer.printFunctionalType(*this);
}

// The messages are upstream's (its tests match them).
LogicalResult WarpSpecializeOp::verify() {
  Block &holder = getPartitionOpHolder().front();
  auto partitions = holder.empty() ? nullptr : dyn_cast<WarpSpecializePartitionsOp>(holder.front());
  if (!partitions)
    return emitOpError()
           << "expected to find only a `ttg.warp_specialize.partitions` op inside its second region";
  auto numWarps = getPartitionNumWarps();
  if (partitions.getNumRegions() != numWarps.size())
    return emitOpError() << "has " << partitions.getNumRegions() << " partitions but `partitionNumWarps` has "
                         << numWarps.size() << " elements";
  for (auto [i, warps] : llvm::enumerate(numWarps))
    if (warps <= 0 || !llvm::isPowerOf2_32(warps))
      return emitOpError() << "partition #" << i << " number of warps (" << warps << ") must be a power of 2";
  auto startIds = getWarpGroupStartIds();
  if (startIds && startIds->size() != numWarps.size())
    return emitOpError() << "has " << startIds->size() << " warp group start IDs but expected "
                         << numWarps.size();
  for (auto [i, region] : llvm::enumerate(partitions.getPartitionRegions())) {
    if (region.getNumArguments() != getNumOperands())
      return emitOpError() << "partition region #" << i << " has " << region.getNumArguments()
                           << " arguments but expected " << getNumOperands();
    for (auto [j, pair] : llvm::enumerate(llvm::zip(region.getArguments(), getOperands()))) {
      auto [arg, capture] = pair;
      if (arg.getType() != capture.getType())
        return emitOpError() << "partition region #" << i << " argument #" << j << " has type "
                             << arg.getType() << " but corresponding capture has type " << capture.getType();
    }
  }
  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError() << "cannot be nested inside another `ttg.warp_specialize` op";
  return success();
}

LogicalResult WarpYieldOp::verify() {
  auto parent = cast<WarpSpecializeOp>((*this)->getParentOp());
  if (getNumOperands() != parent.getNumResults())
    return emitOpError() << "has " << getNumOperands() << " operands but parent op expected "
                         << parent.getNumResults();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getValues().getTypes(), parent.getResultTypes()))) {
    auto [type, expected] = pair;
    if (type != expected)
      return emitOpError() << "operand #" << i << " has type " << type << " but parent op expected "
                           << expected;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Layout attributes <-> dictionaries
//===----------------------------------------------------------------------===//

namespace {

class DictionaryBuilder {
public:
  DictionaryBuilder(MLIRContext *context, StringRef kind) : builder(context) {
    add("kind", builder.getStringAttr(kind));
  }
  DictionaryBuilder &add(StringRef key, Attribute value) {
    entries.emplace_back(builder.getStringAttr(key), value);
    return *this;
  }
  DictionaryBuilder &integer(StringRef key, int64_t value) {
    return add(key, builder.getI64IntegerAttr(value));
  }
  DictionaryBuilder &boolean(StringRef key, bool value) { return add(key, builder.getBoolAttr(value)); }
  template <typename T> DictionaryBuilder &array(StringRef key, ArrayRef<T> values) {
    SmallVector<Attribute> elements;
    for (T v : values)
      elements.push_back(builder.getI64IntegerAttr(v));
    return add(key, builder.getArrayAttr(elements));
  }
  DictionaryAttr get() { return builder.getDictionaryAttr(entries); }

private:
  Builder builder;
  SmallVector<NamedAttribute> entries;
};

} // namespace

Attribute layoutToDictionary(Attribute attr) {
  MLIRContext *ctx = attr.getContext();
  if (auto a = dyn_cast<BlockedEncodingAttr>(attr))
    return DictionaryBuilder(ctx, "blocked")
        .array("sizePerThread", a.getSizePerThread())
        .array("threadsPerWarp", a.getThreadsPerWarp())
        .array("warpsPerCTA", a.getWarpsPerCTA())
        .array("order", a.getOrder())
        .array("cgaBases", a.getCgaBases())
        .get();
  if (auto a = dyn_cast<SliceEncodingAttr>(attr))
    return DictionaryBuilder(ctx, "slice").integer("dim", a.getDim()).add("parent", a.getParent()).get();
  if (auto a = dyn_cast<DotOperandEncodingAttr>(attr))
    return DictionaryBuilder(ctx, "dot_op")
        .integer("opIdx", a.getOpIdx())
        .add("parent", a.getParent())
        .integer("kWidth", a.getKWidth())
        .get();
  if (auto a = dyn_cast<NvidiaMmaEncodingAttr>(attr))
    return DictionaryBuilder(ctx, "nvidia_mma")
        .integer("versionMajor", a.getVersionMajor())
        .integer("versionMinor", a.getVersionMinor())
        .array("warpsPerCTA", a.getWarpsPerCTA())
        .array("cgaBases", a.getCgaBases())
        .array("instrShape", a.getInstrShape())
        .get();
  if (auto a = dyn_cast<LinearEncodingAttr>(attr))
    return DictionaryBuilder(ctx, "linear")
        .integer("rank", a.getRank())
        .array("register", a.getRegisterBases())
        .array("lane", a.getLaneBases())
        .array("warp", a.getWarpBases())
        .array("block", a.getBlockBases())
        .get();
  if (auto a = dyn_cast<SwizzledSharedEncodingAttr>(attr))
    return DictionaryBuilder(ctx, "swizzled_shared")
        .integer("vec", a.getVec())
        .integer("perPhase", a.getPerPhase())
        .integer("maxPhase", a.getMaxPhase())
        .array("order", a.getOrder())
        .array("cgaBases", a.getCgaBases())
        .get();
  if (auto a = dyn_cast<NVMMASharedEncodingAttr>(attr))
    return DictionaryBuilder(ctx, "nvmma_shared")
        .integer("swizzlingByteWidth", a.getSwizzlingByteWidth())
        .boolean("transposed", a.getTransposed())
        .integer("elementBitWidth", a.getElementBitWidth())
        .boolean("fp4Padded", a.getFp4Padded())
        .integer("rank", a.getRank())
        .array("cgaBases", a.getCgaBases())
        .get();
  if (auto a = dyn_cast<PaddedSharedEncodingAttr>(attr))
    return DictionaryBuilder(ctx, "padded_shared")
        .array("intervals", a.getIntervals())
        .array("paddings", a.getPaddings())
        .integer("rank", a.getRank())
        .get();
  if (isa<SharedMemorySpaceAttr>(attr))
    return DictionaryBuilder(ctx, "shared_memory").get();
  return {};
}

namespace {
// Reads fields of a layout dictionary, reporting the first problem at `loc`.
class DictionaryReader {
public:
  DictionaryReader(Location loc, DictionaryAttr dict) : loc(loc), dict(dict) {}

  bool ok() const { return !failed; }

  Attribute attribute(StringRef key) {
    Attribute value = dict.get(key);
    if (!value)
      fail("missing '" + key + "'");
    return value;
  }

  int64_t integer(StringRef key) {
    if (auto value = dyn_cast_or_null<IntegerAttr>(attribute(key)))
      return value.getInt();
    fail("'" + key + "' must be an integer");
    return 0;
  }

  bool boolean(StringRef key) {
    if (auto value = dyn_cast_or_null<BoolAttr>(attribute(key)))
      return value.getValue();
    fail("'" + key + "' must be a boolean");
    return false;
  }

  template <typename T> SmallVector<T> array(StringRef key) {
    SmallVector<T> result;
    auto value = dyn_cast_or_null<ArrayAttr>(attribute(key));
    if (!value) {
      fail("'" + key + "' must be an array of integers");
      return result;
    }
    for (Attribute element : value) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer || integer.getInt() < 0 ||
          integer.getInt() > int64_t(std::numeric_limits<int32_t>::max())) {
        fail("'" + key + "' must be an array of non-negative 32-bit integers");
        return result;
      }
      result.push_back(integer.getInt());
    }
    return result;
  }

  void fail(const Twine &message) {
    if (!failed)
      emitError(loc) << "invalid layout dictionary: " << message;
    failed = true;
  }

  Location loc;

private:
  DictionaryAttr dict;
  bool failed = false;
};

} // namespace

Attribute layoutFromDictionary(Location loc, DictionaryAttr dict) {
  MLIRContext *ctx = loc.getContext();
  auto kindAttr = dyn_cast_or_null<StringAttr>(dict.get("kind"));
  DictionaryReader r(loc, dict);
  if (!kindAttr) {
    r.fail("missing string 'kind'");
    return {};
  }
  StringRef kind = kindAttr.getValue();
  auto emitFn = [&] { return emitError(loc); };
  function_ref<InFlightDiagnostic()> emit = emitFn;
  Attribute result;
  if (kind == "blocked") {
    auto spt = r.array<unsigned>("sizePerThread"), tpw = r.array<unsigned>("threadsPerWarp"),
         wpc = r.array<unsigned>("warpsPerCTA"), order = r.array<unsigned>("order");
    auto cga = r.array<int32_t>("cgaBases");
    if (r.ok())
      result = BlockedEncodingAttr::getChecked(emit, ctx, spt, tpw, wpc, order, cga);
  } else if (kind == "slice") {
    int64_t dim = r.integer("dim");
    auto parent = dyn_cast_or_null<DistributedEncoding>(r.attribute("parent"));
    if (!parent)
      r.fail("'parent' must be a distributed layout");
    if (r.ok())
      result = SliceEncodingAttr::getChecked(emit, ctx, dim, parent);
  } else if (kind == "dot_op") {
    int64_t opIdx = r.integer("opIdx"), kWidth = r.integer("kWidth");
    Attribute parent = r.attribute("parent");
    if (r.ok())
      result = DotOperandEncodingAttr::getChecked(emit, ctx, opIdx, parent, kWidth);
  } else if (kind == "nvidia_mma") {
    int64_t major = r.integer("versionMajor"), minor = r.integer("versionMinor");
    auto wpc = r.array<unsigned>("warpsPerCTA"), instr = r.array<unsigned>("instrShape");
    auto cga = r.array<int32_t>("cgaBases");
    if (r.ok())
      result = NvidiaMmaEncodingAttr::getChecked(emit, ctx, major, minor, wpc, cga, instr);
  } else if (kind == "linear") {
    int64_t rank = r.integer("rank");
    auto reg = r.array<int32_t>("register"), lane = r.array<int32_t>("lane"),
         warp = r.array<int32_t>("warp"), block = r.array<int32_t>("block");
    if (r.ok())
      result = LinearEncodingAttr::getChecked(emit, ctx, rank, reg, lane, warp, block);
  } else if (kind == "swizzled_shared") {
    int64_t vec = r.integer("vec"), perPhase = r.integer("perPhase"), maxPhase = r.integer("maxPhase");
    auto order = r.array<unsigned>("order");
    auto cga = r.array<int32_t>("cgaBases");
    if (r.ok())
      result = SwizzledSharedEncodingAttr::getChecked(emit, ctx, vec, perPhase, maxPhase, order, cga);
  } else if (kind == "nvmma_shared") {
    int64_t swizzle = r.integer("swizzlingByteWidth"), bits = r.integer("elementBitWidth"),
            rank = r.integer("rank");
    bool transposed = r.boolean("transposed"), fp4Padded = r.boolean("fp4Padded");
    auto cga = r.array<int32_t>("cgaBases");
    if (r.ok())
      result = NVMMASharedEncodingAttr::getChecked(emit, ctx, swizzle, transposed, bits, fp4Padded,
                                                   rank, cga);
  } else if (kind == "shared_memory") {
    result = SharedMemorySpaceAttr::get(ctx);
  } else {
    r.fail("unknown kind '" + kind + "'");
  }
  return result;
}
MemDescType memDescTypeGetChecked(Location loc, ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding, Attribute memorySpace, bool mutableMemory,
                                  ArrayRef<int64_t> allocShape) {
  return MemDescType::getChecked([&] { return emitError(loc); }, loc.getContext(), shape,
                                 elementType, encoding, memorySpace, mutableMemory, allocShape);
}

} // namespace tritium::ttg
