// Invalid or unsupported input to `tritium compile`: a diagnostic at the
// offending op and exit code 1, never a crash or a bundle.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: not tritium compile %t/unsupported-op.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not tritium compile %t/tensor-parameter.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=SIG
// RUN: not tritium compile %t/returns-value.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=RET
// RUN: not tritium compile %t/no-kernel.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not tritium compile %t/several-ctas.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=CTAS
// RUN: not tritium compile %t/parse-error.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not tritium compile %t/no-kernel.mlir --target cuda:70 -o %t/out 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not ls %t/out

// OP: unsupported-op.mlir:6:5: error: 'ttng.cluster_wait': the lowering does not support this op yet
// SIG: tensor-parameter.mlir:3:3: error: 'tt.func': kernel parameters must be scalars or pointers
// RET: returns-value.mlir:2:3: error: 'tt.func': a kernel returns nothing
// NONE: no-kernel.mlir:1:1: error: 'builtin.module': expected one public tt.func (the kernel), found 0
// CTAS: several-ctas.mlir:1:1: error: 'builtin.module': kernels over several CTAs (num-ctas > 1) are not supported yet
// PARSE: parse-error.mlir:1:12: error: expected non-function type
// TARGET: target 'cuda:70' is older than sm_80, which Tritium does not support

//--- unsupported-op.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%p: !tt.ptr<f32>) {
    %c = arith.constant 1 : i32
    // Thread-block clusters (num-ctas > 1) are not lowered yet.
    ttng.cluster_wait
    tt.return
  }
}
//--- tensor-parameter.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%t: tensor<128xf32, #blocked>) {
    tt.return
  }
}
//--- returns-value.mlir
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%a: i32) -> i32 {
    tt.return %a : i32
  }
}
//--- no-kernel.mlir
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
}
//--- several-ctas.mlir
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%p: !tt.ptr<f32>) {
    tt.return
  }
}
//--- parse-error.mlir
tt.func @f( {
