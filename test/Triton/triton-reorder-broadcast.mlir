// RUN: tt-opt %s -split-input-file --triton-reorder-broadcast | FileCheck %s

// Element-wise ops of splats work on the scalars, then splat the result;
// constant splats become scalar constants.
// CHECK-LABEL: tt.func @splats(%arg0: f32, %arg1: f32) -> (tensor<128xf32>, tensor<128xi1>) {
// CHECK-NEXT: %cst = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : f32
// CHECK-NEXT: %1 = arith.mulf %0, %cst : f32
// CHECK-NEXT: %2 = tt.splat %1 : f32 -> tensor<128xf32>
// CHECK-NEXT: %3 = arith.cmpf olt, %arg0, %cst : f32
// CHECK-NEXT: %4 = tt.splat %3 : i1 -> tensor<128xi1>
// CHECK-NEXT: tt.return %2, %4 : tensor<128xf32>, tensor<128xi1>
// CHECK-NEXT: }
tt.func @splats(%x: f32, %y: f32) -> (tensor<128xf32>, tensor<128xi1>) {
  %sx = tt.splat %x : f32 -> tensor<128xf32>
  %sy = tt.splat %y : f32 -> tensor<128xf32>
  %two = arith.constant dense<2.000000e+00> : tensor<128xf32>
  %a = arith.addf %sx, %sy : tensor<128xf32>
  %m = arith.mulf %a, %two : tensor<128xf32>
  %c = arith.cmpf olt, %sx, %two : tensor<128xf32>
  tt.return %m, %c : tensor<128xf32>, tensor<128xi1>
}

// -----

// Element-wise ops of a broadcast (and splats) work on the broadcast's
// source; broadcasts from different shapes stay.
// CHECK-LABEL: tt.func @broadcasts(%arg0: tensor<1x64xf32>, %arg1: tensor<32x1xf32>, %arg2: f32, %arg3: !tt.ptr<f32>, %arg4: tensor<1x64xi32>) -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64x!tt.ptr<f32>>) {
// CHECK-NEXT: %cst = arith.constant dense<1.000000e+00> : tensor<1x64xf32>
// CHECK-NEXT: %0 = tt.broadcast %arg0 : tensor<1x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT: %1 = tt.splat %arg2 : f32 -> tensor<1x64xf32>
// CHECK-NEXT: %2 = arith.addf %arg0, %1 : tensor<1x64xf32>
// CHECK-NEXT: %3 = arith.subf %2, %cst : tensor<1x64xf32>
// CHECK-NEXT: %4 = tt.broadcast %3 : tensor<1x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT: %5 = tt.broadcast %arg1 : tensor<32x1xf32> -> tensor<32x64xf32>
// CHECK-NEXT: %6 = arith.mulf %0, %5 : tensor<32x64xf32>
// CHECK-NEXT: %7 = tt.splat %arg3 : !tt.ptr<f32> -> tensor<1x64x!tt.ptr<f32>>
// CHECK-NEXT: %8 = tt.addptr %7, %arg4 : tensor<1x64x!tt.ptr<f32>>, tensor<1x64xi32>
// CHECK-NEXT: %9 = tt.broadcast %8 : tensor<1x64x!tt.ptr<f32>> -> tensor<32x64x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %4, %6, %9 : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64x!tt.ptr<f32>>
// CHECK-NEXT: }
tt.func @broadcasts(%r: tensor<1x64xf32>, %c: tensor<32x1xf32>, %x: f32, %p: !tt.ptr<f32>, %o: tensor<1x64xi32>) -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64x!tt.ptr<f32>>) {
  %br = tt.broadcast %r : tensor<1x64xf32> -> tensor<32x64xf32>
  %sx = tt.splat %x : f32 -> tensor<32x64xf32>
  %one = arith.constant dense<1.000000e+00> : tensor<32x64xf32>
  %a = arith.addf %br, %sx : tensor<32x64xf32>
  %b = arith.subf %a, %one : tensor<32x64xf32>
  %bc = tt.broadcast %c : tensor<32x1xf32> -> tensor<32x64xf32>
  %d = arith.mulf %br, %bc : tensor<32x64xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %bo = tt.broadcast %o : tensor<1x64xi32> -> tensor<32x64xi32>
  %ptrs = tt.addptr %ps, %bo : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
  tt.return %b, %d, %ptrs : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64x!tt.ptr<f32>>
}

// -----

// Broadcasts brought together merge; expand_dims of a broadcast moves the
// broadcast out.
// CHECK-LABEL: tt.func @merge(%arg0: tensor<1xi32>, %arg1: i32) -> tensor<16x8xi32> {
// CHECK-NEXT: %0 = tt.splat %arg1 : i32 -> tensor<1xi32>
// CHECK-NEXT: %1 = arith.addi %arg0, %0 : tensor<1xi32>
// CHECK-NEXT: %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<1xi32> -> tensor<1x1xi32>
// CHECK-NEXT: %3 = tt.broadcast %2 : tensor<1x1xi32> -> tensor<16x8xi32>
// CHECK-NEXT: tt.return %3 : tensor<16x8xi32>
// CHECK-NEXT: }
tt.func @merge(%v: tensor<1xi32>, %x: i32) -> tensor<16x8xi32> {
  %b = tt.broadcast %v : tensor<1xi32> -> tensor<16xi32>
  %sx = tt.splat %x : i32 -> tensor<16xi32>
  %s = arith.addi %b, %sx : tensor<16xi32>
  %e = tt.expand_dims %s {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %b2 = tt.broadcast %e : tensor<16x1xi32> -> tensor<16x8xi32>
  tt.return %b2 : tensor<16x8xi32>
}

// -----

// Ops with memory effects stay: an impure external function.
// CHECK-LABEL: tt.func @impure(%arg0: f32) -> tensor<64xf32> {
// CHECK-NEXT: %0 = tt.splat %arg0 : f32 -> tensor<64xf32>
// CHECK-NEXT: %1 = tt.extern_elementwise %0 {libname = "", libpath = "", pure = false, symbol = "rand"} : (tensor<64xf32>) -> tensor<64xf32>
// CHECK-NEXT: %2 = tt.extern_elementwise %arg0 {libname = "", libpath = "", pure = true, symbol = "sin"} : (f32) -> f32
// CHECK-NEXT: %3 = tt.splat %2 : f32 -> tensor<64xf32>
// CHECK-NEXT: %4 = arith.addf %1, %3 : tensor<64xf32>
// CHECK-NEXT: tt.return %4 : tensor<64xf32>
// CHECK-NEXT: }
tt.func @impure(%x: f32) -> tensor<64xf32> {
  %sx = tt.splat %x : f32 -> tensor<64xf32>
  %r = tt.extern_elementwise %sx {libname = "", libpath = "", pure = false, symbol = "rand"} : (tensor<64xf32>) -> tensor<64xf32>
  %q = tt.extern_elementwise %sx {libname = "", libpath = "", pure = true, symbol = "sin"} : (tensor<64xf32>) -> tensor<64xf32>
  %s = arith.addf %r, %q : tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// -----

// With layouts: the narrow op keeps the broadcast source's layout.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @layouts(%arg0: tensor<1x64xf16, #blocked>, %arg1: f16) -> tensor<32x64xf16, #blocked> {
// CHECK-NEXT: %0 = tt.splat %arg1 : f16 -> tensor<1x64xf16, #blocked>
// CHECK-NEXT: %1 = arith.mulf %arg0, %0 : tensor<1x64xf16, #blocked>
// CHECK-NEXT: %2 = math.exp %1 : tensor<1x64xf16, #blocked>
// CHECK-NEXT: %3 = tt.broadcast %2 : tensor<1x64xf16, #blocked> -> tensor<32x64xf16, #blocked>
// CHECK-NEXT: tt.return %3 : tensor<32x64xf16, #blocked>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @layouts(%r: tensor<1x64xf16, #blocked>, %x: f16) -> tensor<32x64xf16, #blocked> {
    %br = tt.broadcast %r : tensor<1x64xf16, #blocked> -> tensor<32x64xf16, #blocked>
    %sx = tt.splat %x : f16 -> tensor<32x64xf16, #blocked>
    %a = arith.mulf %br, %sx : tensor<32x64xf16, #blocked>
    %e = math.exp %a : tensor<32x64xf16, #blocked>
    tt.return %e : tensor<32x64xf16, #blocked>
  }
}
