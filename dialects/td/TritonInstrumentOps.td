// The `tti` dialect (upstream's TritonInstrument): the ops upstream's
// concurrency sanitizer inserts. Syntax only: Tritium has no sanitizer and
// does not lower them.
#ifndef TRITIUM_TTI_OPS
#define TRITIUM_TTI_OPS

include "TritonGPUBase.td"
include "AuxEnums.td"

def TTI_Dialect : Dialect {
  let name = "tti";
  let cppNamespace = "::tritium::tti";
  let summary = "upstream Triton's instrumentation ops (syntax only)";
  let usePropertiesForAttributes = 1;
}

class TTI_Op<string mnemonic, list<Trait> traits = []> : Op<TTI_Dialect, mnemonic, traits>;

def TTI_ExperimentalAssertInThreadOp : TTI_Op<"experimental_assert_in_thread",
    [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "abort with `message` unless the condition holds in this thread (any or all values)";
  let arguments = (ins AnyTypeOf<[I1, I1Tensor]>:$condition, StrAttr:$message, BoolAttr:$check_any);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def TTI_ExperimentalBufferPointersOp : TTI_Op<"experimental_buffer_pointers", [Pure]> {
  let summary = "a tensor of the addresses of buffers at these offsets in shared or tensor memory";
  let arguments = (ins DenseI32ArrayAttr:$offsets, TTI_MemTypeAttr:$memType);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$offsets `,` $memType attr-dict `:` type($result)";
}

def TTI_ExperimentalMemDescToI64Op : TTI_Op<"experimental_memdesc_to_i64", [Pure]> {
  let summary = "the base address of a memdesc as an i64";
  let arguments = (ins TTG_MemDescType:$memdesc);
  let results = (outs I64:$result);
  let assemblyFormat = "$memdesc attr-dict `:` type($memdesc)";
}

def TTI_ExperimentalLockAcquireOp : TTI_Op<"experimental_lock_acquire",
    [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "enter a critical section (one thread takes the lock)";
  let arguments = (ins TT_PtrLike:$lock, Optional<I1>:$pred);
  let assemblyFormat = "$lock (`,` $pred^)? attr-dict `:` type($lock)";
}

def TTI_ExperimentalLockReleaseOp : TTI_Op<"experimental_lock_release",
    [MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "leave a critical section";
  let arguments = (ins TT_PtrLike:$lock, Optional<I1>:$pred);
  let assemblyFormat = "$lock (`,` $pred^)? attr-dict `:` type($lock)";
}

#endif // TRITIUM_TTI_OPS
