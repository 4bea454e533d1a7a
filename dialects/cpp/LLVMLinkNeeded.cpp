//===- LLVMLinkNeeded.cpp - link only what a module uses from a library ---===//
//
// The C API's LLVMLinkModules2 links every definition of the source module:
// with libdevice, ~500 functions whose bodies are parsed, copied and then
// deleted again by O3. Upstream Triton links libdevice with the linker's
// LinkOnlyNeeded flag; with a lazily read library (LLVMGetBitcodeModule*),
// only the functions the kernel calls, and what they call, are even read.
//
//===----------------------------------------------------------------------===//

#include "llvm-c/Core.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"

#include <memory>

extern "C" {

/// Links into `destination` the definitions of `source` it needs, consuming
/// `source` (as LLVMLinkModules2). Returns nonzero on error.
int tritiumLinkModulesOnlyNeeded(LLVMModuleRef destination, LLVMModuleRef source) {
  std::unique_ptr<llvm::Module> library(llvm::unwrap(source));
  return llvm::Linker::linkModules(*llvm::unwrap(destination), std::move(library),
                                   llvm::Linker::Flags::LinkOnlyNeeded)
             ? 1
             : 0;
}

} // extern "C"
