// The C interface Rust uses: dialect registration, passes written in Rust
// registered into MLIR's pass registry, the tt-opt driver, and conversions of
// Tritium's attributes and types to and from values Rust can read.
#ifndef TRITIUM_CAPI_H
#define TRITIUM_CAPI_H

#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TT, tt);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TTG, ttg);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TTNG, ttng);

/// Inserts tt, ttg, ttng and the upstream dialects Tritium uses (arith, math,
/// scf, cf, func, llvm, nvvm, gpu, ub, index) with their LLVM translations.
void tritiumRegisterDialects(MlirDialectRegistry registry);

/// Registers, by name, the upstream passes Tritium pipelines use. Idempotent.
void tritiumRegisterUpstreamPasses(void);

typedef enum { TritiumOptionString = 0, TritiumOptionInt = 1, TritiumOptionBool = 2 } TritiumOptionKind;

typedef struct {
  const char *name;
  const char *description;
  TritiumOptionKind kind;
  const char *defaultValue; // in the textual form of `kind`
} TritiumPassOption;

/// Runs the pass on `op`. `values[i]` is option i in textual form. Returns
/// false to signal failure (after emitting diagnostics on the op).
typedef bool (*TritiumPassRun)(void *userData, MlirOperation op, const char *const *values,
                               size_t numValues);

typedef struct {
  const char *argument;    // the flag: `tritongpu-coalesce`
  const char *description; // one line for --help
  const char *anchor;      // operation name it runs on, e.g. "builtin.module"
  const TritiumPassOption *options;
  size_t numOptions;
  TritiumPassRun run;
  void *userData;
} TritiumPassSpec;

/// Registers a pass implemented in Rust under `spec->argument`. The spec and
/// every string it points to must live until the process ends.
void tritiumRegisterPass(const TritiumPassSpec *spec);

/// Rust's source of canonicalization patterns: called with the name of an op
/// whose canonicalization patterns MLIR collects and the set to add them to
/// (an `mlir::RewritePatternSet *`, as the C API's MlirRewritePatternSet).
typedef void (*TritiumPatternProvider)(MlirStringRef opName, MlirContext context,
                                       MlirRewritePatternSet patterns);
void tritiumSetCanonicalizationProvider(TritiumPatternProvider provider);

/// Rust's answers to the layout questions of op verifiers (tt.trans, tt.split,
/// tt.join, ttg.memdesc_trans, ttg.memdesc_subslice, ttg.fp4_to_fp), which need linear layouts. `query` is a
/// TRITIUM_LAYOUT_QUERY_*; `source`/`result` the layouts (`result` may be
/// null), `shape` and `extra` the query's integers (see tritium::checkLayouts
/// in Dialects.h). Returns a TRITIUM_LAYOUT_*; on INCOMPATIBLE, `*inferred`
/// is the layout the op's rule gives (or null), on REJECTED the reason was
/// emitted at `location`.
enum {
  TRITIUM_LAYOUT_QUERY_TRANS = 0,
  TRITIUM_LAYOUT_QUERY_SPLIT = 1,
  TRITIUM_LAYOUT_QUERY_JOIN = 2,
  TRITIUM_LAYOUT_QUERY_SUBSLICE = 3,
  TRITIUM_LAYOUT_QUERY_FP4_TO_FP = 4,
};
enum {
  TRITIUM_LAYOUT_COMPATIBLE = 0,
  TRITIUM_LAYOUT_INCOMPATIBLE = 1,
  TRITIUM_LAYOUT_REJECTED = 2,
  TRITIUM_LAYOUT_UNKNOWN = 3,
};
typedef int (*TritiumLayoutChecker)(int query, MlirAttribute source, MlirAttribute result,
                                    const int64_t *shape, intptr_t rank, const int64_t *extra,
                                    intptr_t extraSize, MlirLocation location,
                                    MlirAttribute *inferred);
void tritiumSetLayoutChecker(TritiumLayoutChecker checker);

/// Parses a module like mlir-opt does: top-level ops that are not a module get
/// an implicit one, diagnostics name `sourceName`. Null on failure (the
/// diagnostics went to the context's handlers).
MlirOperation tritiumParseSourceString(MlirContext context, MlirStringRef source,
                                       MlirStringRef sourceName);

/// The C API has mlirEmitError but no remark.
void tritiumEmitRemark(MlirLocation location, const char *message);
/// And no warning.
void tritiumEmitWarning(MlirLocation location, const char *message);

/// mlir-opt's main (MlirOptMain) over Tritium's dialects and every registered
/// pass. Returns the process exit code.
int tritiumOptMain(int argc, char **argv);

/// Layout attributes <-> builtin dictionaries {kind = "blocked", ...}:
/// integers are i64 attributes, arrays are ArrayAttrs, a parent layout is the
/// attribute itself. Returns a null attribute when `attr` is not a ttg layout
/// or the dictionary does not describe a valid one (diagnostics go to `loc`).
MlirAttribute tritiumLayoutToDictionary(MlirAttribute attr);
MlirAttribute tritiumLayoutFromDictionary(MlirLocation loc, MlirAttribute dictionary);

/// Types.
MlirType tritiumPointerTypeGet(MlirType pointee, int addressSpace);
bool tritiumTypeIsPointer(MlirType type);
MlirType tritiumPointerTypeGetPointee(MlirType type);
int tritiumPointerTypeGetAddressSpace(MlirType type);
MlirType tritiumTensorDescTypeGet(MlirType blockType);
bool tritiumTypeIsTensorDesc(MlirType type);
MlirType tritiumTensorDescTypeGetBlockType(MlirType type);
MlirType tritiumAsyncTokenTypeGet(MlirContext context);
bool tritiumTypeIsMemDesc(MlirType type);
/// Null when the parameters are invalid (diagnostics go to `loc`).
MlirType tritiumMemDescTypeGet(MlirLocation loc, intptr_t rank, const int64_t *shape,
                               MlirType elementType, MlirAttribute encoding,
                               MlirAttribute memorySpace, bool mutableMemory, intptr_t allocRank,
                               const int64_t *allocShape);
intptr_t tritiumMemDescTypeGetRank(MlirType type);
int64_t tritiumMemDescTypeGetDim(MlirType type, intptr_t dim);
intptr_t tritiumMemDescTypeGetAllocRank(MlirType type);
int64_t tritiumMemDescTypeGetAllocDim(MlirType type, intptr_t dim);
MlirType tritiumMemDescTypeGetElementType(MlirType type);
MlirAttribute tritiumMemDescTypeGetEncoding(MlirType type);
MlirAttribute tritiumMemDescTypeGetMemorySpace(MlirType type);
bool tritiumMemDescTypeIsMutable(MlirType type);
MlirAttribute tritiumSharedMemorySpaceGet(MlirContext context);

#ifdef __cplusplus
}
#endif

#endif // TRITIUM_CAPI_H
