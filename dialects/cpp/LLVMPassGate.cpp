//===- LLVMPassGate.cpp - skip named LLVM passes for one LLVMContext ------===//
//
// LLVM 22's straight-line strength reduction (the `slsr` pass of the NVPTX
// code-generation pipeline) is quadratic in the number of candidates sharing
// a base in one basic block: a 512x512 tile kernel spent >90% of its NVPTX
// time there. Its pass pipeline cannot be edited through the C API, and
// `-opt-disable=slsr` would disable it for every kernel of the process, so
// the lowering installs this gate on the LLVMContext of the kernels that are
// that large (see lowering/src/ptx.rs) and only for them.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/OptBisect.h"

#include <set>
#include <string>

namespace {

/// Runs every pass except those named (by argument, e.g. `slsr`, or by name).
class SkipNamedPasses final : public llvm::OptPassGate {
public:
  explicit SkipNamedPasses(llvm::StringRef commaSeparated) {
    llvm::SmallVector<llvm::StringRef, 4> names;
    commaSeparated.split(names, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef name : names)
      skipped.insert(name.trim().str());
  }

  bool shouldRunPass(llvm::StringRef pass, llvm::StringRef) const override {
    return skipped.count(pass.str()) == 0;
  }

  bool isEnabled() const override { return true; }

private:
  std::set<std::string> skipped;
};

} // namespace

extern "C" {

/// Makes `context` skip the passes named in `passes` (comma-separated). The
/// returned gate must outlive the context's use and is freed with
/// tritiumLLVMPassGateDestroy after the context is disposed.
void *tritiumLLVMContextSkipPasses(void *context, const char *passes) {
  auto *gate = new SkipNamedPasses(passes);
  static_cast<llvm::LLVMContext *>(context)->setOptPassGate(*gate);
  return gate;
}

void tritiumLLVMPassGateDestroy(void *gate) {
  delete static_cast<SkipNamedPasses *>(gate);
}

} // extern "C"
