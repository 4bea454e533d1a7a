// RUN: tt-opt %s --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s

// Two kernel modules in one file (no split-input-file) parse inside an
// outer module: each is lowered with its own target and warps, and a module
// that declares @global_smem already keeps its one declaration.
// CHECK: module attributes {{.*}}"ttg.num-warps" = 4 : i32{{.*}}ttg.target = "cuda:80"
// CHECK-COUNT-1: llvm.mlir.global external @global_smem()
// CHECK: llvm.func @first_kernel({{.*}}nvvm.reqntid = array<i32: 128>
// CHECK: module attributes {{.*}}"ttg.num-warps" = 2 : i32{{.*}}ttg.target = "cuda:90"
// CHECK-COUNT-1: llvm.mlir.global external @global_smem()
// CHECK-NOT: @global_smem()
// CHECK: llvm.func @second_kernel({{.*}}nvvm.reqntid = array<i32: 64>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  tt.func public @first_kernel(%p: !tt.ptr<f32>, %v: f32) {
    tt.store %p, %v : !tt.ptr<f32>
    tt.return
  }
}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @second_kernel(%p: !tt.ptr<f32>, %v: f32) {
    tt.store %p, %v : !tt.ptr<f32>
    tt.return
  }
}
