// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// tt.addptr steps by the pointee's size: f64 pointers by 8 bytes (a GEP over
// f64; once f64 was taken for an fp6/fp4 type and stepped by bytes, which
// faulted every f64 kernel with a misaligned address), fp8 pointers by bytes
// (a GEP over i8: LLVM has no fp8 type).
// CHECK-LABEL: llvm.func @f64_copy
// CHECK: llvm.getelementptr %arg0[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f64
// CHECK: llvm.getelementptr %arg1[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f64
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f64_copy(%x: !tt.ptr<f64> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f64> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f64> -> tensor<128x!tt.ptr<f64>, #blocked>
    %xa = tt.addptr %xp, %range : tensor<128x!tt.ptr<f64>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %xa : tensor<128x!tt.ptr<f64>, #blocked>
    %yp = tt.splat %y : !tt.ptr<f64> -> tensor<128x!tt.ptr<f64>, #blocked>
    %ya = tt.addptr %yp, %range : tensor<128x!tt.ptr<f64>, #blocked>, tensor<128xi32, #blocked>
    tt.store %ya, %v : tensor<128x!tt.ptr<f64>, #blocked>
    tt.return
  }
}

// -----

// CHECK-LABEL: llvm.func @fp8_copy
// CHECK: llvm.getelementptr %arg0[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_copy(%x: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f8E4M3FN> -> tensor<128x!tt.ptr<f8E4M3FN>, #blocked>
    %xa = tt.addptr %xp, %range : tensor<128x!tt.ptr<f8E4M3FN>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %xa : tensor<128x!tt.ptr<f8E4M3FN>, #blocked>
    %yp = tt.splat %y : !tt.ptr<f8E4M3FN> -> tensor<128x!tt.ptr<f8E4M3FN>, #blocked>
    %ya = tt.addptr %yp, %range : tensor<128x!tt.ptr<f8E4M3FN>, #blocked>, tensor<128xi32, #blocked>
    tt.store %ya, %v : tensor<128x!tt.ptr<f8E4M3FN>, #blocked>
    tt.return
  }
}
