// RUN: tt-opt %s -split-input-file --tritongpu-optimize-thread-locality | FileCheck %s

// A row sum accumulated across a loop: each thread first sums its own
// elements of a row (a 3-D view whose last dim is what one thread holds),
// the loop carries these partial sums, and the rows are reduced across
// threads once, after the loop.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func @row_sum(%arg0: tensor<64x128x!tt.ptr<f32>, #blocked>, %arg1: tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>, %arg2: i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x8xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: %0:2 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %cst, %arg5 = %cst_0) -> (tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64x8xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>)  : i32 {
// CHECK-NEXT: %4 = tt.load %arg0 : tensor<64x128x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %5 = "tt.reduce"(%4) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg6: f32, %arg7: f32):
// CHECK-NEXT: %10 = arith.addf %arg6, %arg7 : f32
// CHECK-NEXT: tt.reduce.return %10 : f32
// CHECK-NEXT: }) : (tensor<64x128xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %6 = tt.reshape %4 allow_reorder efficient_layout : tensor<64x128xf32, #blocked> -> tensor<64x8x16xf32, #blocked1>
// CHECK-NEXT: %7 = "tt.reduce"(%6) <{axis = 2 : i32}> ({
// CHECK-NEXT: ^bb0(%arg6: f32, %arg7: f32):
// CHECK-NEXT: %10 = arith.addf %arg6, %arg7 : f32
// CHECK-NEXT: tt.reduce.return %10 : f32
// CHECK-NEXT: }) : (tensor<64x8x16xf32, #blocked1>) -> tensor<64x8xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: %8 = arith.addf %arg5, %7 : tensor<64x8xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: %9 = arith.addf %arg4, %5 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: scf.yield %arg4, %8 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64x8xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = "tt.reduce"(%0#1) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg3: f32, %arg4: f32):
// CHECK-NEXT: %4 = arith.addf %arg3, %arg4 : f32
// CHECK-NEXT: tt.reduce.return %4 : f32
// CHECK-NEXT: }) : (tensor<64x8xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>>
// CHECK-NEXT: %2 = ttg.convert_layout %1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %3 = arith.addf %cst, %2 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: tt.store %arg1, %3 : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_sum(%p: tensor<64x128x!tt.ptr<f32>, #blocked>, %out: tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %x = tt.load %p : tensor<64x128x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<64x128xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u = arith.addf %acc, %s : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %u : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.store %out, %r : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return
  }
}

// -----

// A row maximum with the reduction on the left of the update.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [8, 4, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func @row_max(%arg0: tensor<32x64x!tt.ptr<f16>, #blocked>, %arg1: tensor<32x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #blocked}>>, %arg2: i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant dense<0xFC00> : tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %cst_0 = arith.constant dense<0xFC00> : tensor<32x8xf16, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: %0:2 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %cst, %arg5 = %cst_0) -> (tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32x8xf16, #ttg.slice<{dim = 2, parent = #blocked1}>>)  : i32 {
// CHECK-NEXT: %4 = tt.load %arg0 : tensor<32x64x!tt.ptr<f16>, #blocked>
// CHECK-NEXT: %5 = "tt.reduce"(%4) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg6: f16, %arg7: f16):
// CHECK-NEXT: %10 = arith.maxnumf %arg6, %arg7 : f16
// CHECK-NEXT: tt.reduce.return %10 : f16
// CHECK-NEXT: }) : (tensor<32x64xf16, #blocked>) -> tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %6 = tt.reshape %4 allow_reorder efficient_layout : tensor<32x64xf16, #blocked> -> tensor<32x8x8xf16, #blocked1>
// CHECK-NEXT: %7 = "tt.reduce"(%6) <{axis = 2 : i32}> ({
// CHECK-NEXT: ^bb0(%arg6: f16, %arg7: f16):
// CHECK-NEXT: %10 = arith.maxnumf %arg6, %arg7 : f16
// CHECK-NEXT: tt.reduce.return %10 : f16
// CHECK-NEXT: }) : (tensor<32x8x8xf16, #blocked1>) -> tensor<32x8xf16, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: %8 = arith.maxnumf %arg5, %7 : tensor<32x8xf16, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: %9 = arith.maxnumf %5, %arg4 : tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: scf.yield %arg4, %8 : tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32x8xf16, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = "tt.reduce"(%0#1) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg3: f16, %arg4: f16):
// CHECK-NEXT: %4 = arith.maxnumf %arg3, %arg4 : f16
// CHECK-NEXT: tt.reduce.return %4 : f16
// CHECK-NEXT: }) : (tensor<32x8xf16, #ttg.slice<{dim = 2, parent = #blocked1}>>) -> tensor<32xf16, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>>
// CHECK-NEXT: %2 = ttg.convert_layout %1 : tensor<32xf16, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>> -> tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %3 = arith.maxnumf %cst, %2 : tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: tt.store %arg1, %3 : tensor<32x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_max(%p: tensor<32x64x!tt.ptr<f16>, #blocked>, %out: tensor<32x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #blocked}>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0xFC00> : tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %x = tt.load %p : tensor<32x64x!tt.ptr<f16>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f16, %b: f16):
        %t = arith.maxnumf %a, %b : f16
        tt.reduce.return %t : f16
      }) : (tensor<32x64xf16, #blocked>) -> tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u = arith.maxnumf %s, %acc : tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %u : tensor<32xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.store %out, %r : tensor<32x!tt.ptr<f16>, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return
  }
}

// -----

// Reductions that stay: one element per thread along the axis, an operand
// that is not loaded, an integer sum.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @kept(%arg0: tensor<4x32x!tt.ptr<f32>, #blocked>, %arg1: tensor<64x128xf32, #blocked1>, %arg2: i32) -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NEXT: %0:2 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %cst, %arg5 = %cst_0) -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>)  : i32 {
// CHECK-NEXT: %1 = tt.load %arg0 : tensor<4x32x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %2 = "tt.reduce"(%1) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg6: f32, %arg7: f32):
// CHECK-NEXT: %7 = arith.addf %arg6, %arg7 : f32
// CHECK-NEXT: tt.reduce.return %7 : f32
// CHECK-NEXT: }) : (tensor<4x32xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %3 = arith.addf %arg4, %2 : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %4 = math.exp %arg1 : tensor<64x128xf32, #blocked1>
// CHECK-NEXT: %5 = "tt.reduce"(%4) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg6: f32, %arg7: f32):
// CHECK-NEXT: %7 = arith.addf %arg6, %arg7 : f32
// CHECK-NEXT: tt.reduce.return %7 : f32
// CHECK-NEXT: }) : (tensor<64x128xf32, #blocked1>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NEXT: %6 = arith.addf %arg5, %5 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NEXT: scf.yield %3, %6 : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %0#0, %0#1 : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @kept(%p: tensor<4x32x!tt.ptr<f32>, #blocked>, %q: tensor<64x128xf32, #blocked1>, %n: i32) -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cst1 = arith.constant dense<0.000000e+00> : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst, %acc1 = %cst1) -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>) : i32 {
      %x = tt.load %p : tensor<4x32x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<4x32xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u = arith.addf %acc, %s : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %e = math.exp %q : tensor<64x128xf32, #blocked1>
      %s1 = "tt.reduce"(%e) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<64x128xf32, #blocked1>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %u1 = arith.addf %acc1, %s1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      scf.yield %u, %u1 : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    }
    tt.return %r#0, %r#1 : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
  }
}

// -----

// A reshape that may reorder, feeding a reduction, gets a layout that keeps
// the reduced dim in each thread.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @reshape(%arg0: tensor<4096xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> {
// CHECK-NEXT: %0 = tt.reshape %arg0 allow_reorder efficient_layout : tensor<4096xf32, #blocked> -> tensor<32x128xf32, #blocked2>
// CHECK-NEXT: %1 = ttg.convert_layout %0 : tensor<32x128xf32, #blocked2> -> tensor<32x128xf32, #blocked1>
// CHECK-NEXT: %2 = "tt.reduce"(%1) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg1: f32, %arg2: f32):
// CHECK-NEXT: %3 = arith.addf %arg1, %arg2 : f32
// CHECK-NEXT: tt.reduce.return %3 : f32
// CHECK-NEXT: }) : (tensor<32x128xf32, #blocked1>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NEXT: tt.return %2 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reshape(%x: tensor<4096xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> {
    %r = tt.reshape %x allow_reorder : tensor<4096xf32, #blocked> -> tensor<32x128xf32, #blocked1>
    %s = "tt.reduce"(%r) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<32x128xf32, #blocked1>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    tt.return %s : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
  }
}

// -----

// A gather gets a warp-local layout for its source and indices.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @gather(%arg0: tensor<64x32xf32, #blocked>, %arg1: tensor<64x16xi32, #blocked>) -> tensor<64x16xf32, #blocked> {
// CHECK-NEXT: %0 = ttg.convert_layout %arg0 : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked1>
// CHECK-NEXT: %1 = ttg.convert_layout %arg1 : tensor<64x16xi32, #blocked> -> tensor<64x16xi32, #blocked1>
// CHECK-NEXT: %2 = tt.gather %0[%1] {axis = 1 : i32, efficient_layout} : (tensor<64x32xf32, #blocked1>, tensor<64x16xi32, #blocked1>) -> tensor<64x16xf32, #blocked1>
// CHECK-NEXT: %3 = ttg.convert_layout %2 : tensor<64x16xf32, #blocked1> -> tensor<64x16xf32, #blocked>
// CHECK-NEXT: tt.return %3 : tensor<64x16xf32, #blocked>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather(%src: tensor<64x32xf32, #blocked>, %idx: tensor<64x16xi32, #blocked>) -> tensor<64x16xf32, #blocked> {
    %g = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<64x32xf32, #blocked>, tensor<64x16xi32, #blocked>) -> tensor<64x16xf32, #blocked>
    tt.return %g : tensor<64x16xf32, #blocked>
  }
}

// -----

// A 3-D product: the partial products start from 1. (Upstream rewrites
// several such reductions of one loop in an arbitrary order; each is alone
// in its loop here.)
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [2, 2, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 1, 4], threadsPerWarp = [2, 2, 8, 1], warpsPerCTA = [2, 2, 1, 1], order = [3, 2, 1, 0]}>
// CHECK-LABEL: tt.func @product(%arg0: tensor<4x4x64x!tt.ptr<f32>, #blocked>, %arg1: i32) -> tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>> {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant dense<1.000000e+00> : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
// CHECK-NEXT: %cst_0 = arith.constant dense<1.000000e+00> : tensor<4x4x8xf32, #ttg.slice<{dim = 3, parent = #blocked1}>>
// CHECK-NEXT: %0:2 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg3 = %cst, %arg4 = %cst_0) -> (tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>, tensor<4x4x8xf32, #ttg.slice<{dim = 3, parent = #blocked1}>>)  : i32 {
// CHECK-NEXT: %4 = tt.load %arg0 : tensor<4x4x64x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %5 = "tt.reduce"(%4) <{axis = 2 : i32}> ({
// CHECK-NEXT: ^bb0(%arg5: f32, %arg6: f32):
// CHECK-NEXT: %10 = arith.mulf %arg5, %arg6 : f32
// CHECK-NEXT: tt.reduce.return %10 : f32
// CHECK-NEXT: }) : (tensor<4x4x64xf32, #blocked>) -> tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
// CHECK-NEXT: %6 = tt.reshape %4 allow_reorder efficient_layout : tensor<4x4x64xf32, #blocked> -> tensor<4x4x8x8xf32, #blocked1>
// CHECK-NEXT: %7 = "tt.reduce"(%6) <{axis = 3 : i32}> ({
// CHECK-NEXT: ^bb0(%arg5: f32, %arg6: f32):
// CHECK-NEXT: %10 = arith.mulf %arg5, %arg6 : f32
// CHECK-NEXT: tt.reduce.return %10 : f32
// CHECK-NEXT: }) : (tensor<4x4x8x8xf32, #blocked1>) -> tensor<4x4x8xf32, #ttg.slice<{dim = 3, parent = #blocked1}>>
// CHECK-NEXT: %8 = arith.mulf %arg4, %7 : tensor<4x4x8xf32, #ttg.slice<{dim = 3, parent = #blocked1}>>
// CHECK-NEXT: %9 = arith.mulf %arg3, %5 : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
// CHECK-NEXT: scf.yield %arg3, %8 : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>, tensor<4x4x8xf32, #ttg.slice<{dim = 3, parent = #blocked1}>>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = "tt.reduce"(%0#1) <{axis = 2 : i32}> ({
// CHECK-NEXT: ^bb0(%arg2: f32, %arg3: f32):
// CHECK-NEXT: %4 = arith.mulf %arg2, %arg3 : f32
// CHECK-NEXT: tt.reduce.return %4 : f32
// CHECK-NEXT: }) : (tensor<4x4x8xf32, #ttg.slice<{dim = 3, parent = #blocked1}>>) -> tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #ttg.slice<{dim = 3, parent = #blocked1}>}>>
// CHECK-NEXT: %2 = ttg.convert_layout %1 : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #ttg.slice<{dim = 3, parent = #blocked1}>}>> -> tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
// CHECK-NEXT: %3 = arith.mulf %cst, %2 : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
// CHECK-NEXT: tt.return %3 : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [2, 2, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @product(%p: tensor<4x4x64x!tt.ptr<f32>, #blocked>, %n: i32) -> tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> (tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>) : i32 {
      %x = tt.load %p : tensor<4x4x64x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 2 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.mulf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<4x4x64xf32, #blocked>) -> tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
      %u = arith.mulf %acc, %s : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
      scf.yield %u : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
    }
    tt.return %r : tensor<4x4xf32, #ttg.slice<{dim = 2, parent = #blocked}>>
  }
}

// -----

// A minimum without infinities: the partial minima start from the largest
// finite value.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func @finite_minimum(%arg0: tensor<32x32x!tt.ptr<f32>, #blocked>, %arg1: i32) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant dense<1.000000e+30> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %cst_0 = arith.constant dense<3.40282347E+38> : tensor<32x4xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: %0:2 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg3 = %cst, %arg4 = %cst_0) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32x4xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>)  : i32 {
// CHECK-NEXT: %4 = tt.load %arg0 : tensor<32x32x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %5 = "tt.reduce"(%4) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg5: f32, %arg6: f32):
// CHECK-NEXT: %10 = arith.minimumf %arg5, %arg6 fastmath<ninf> : f32
// CHECK-NEXT: tt.reduce.return %10 : f32
// CHECK-NEXT: }) : (tensor<32x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %6 = tt.reshape %4 allow_reorder efficient_layout : tensor<32x32xf32, #blocked> -> tensor<32x4x8xf32, #blocked1>
// CHECK-NEXT: %7 = "tt.reduce"(%6) <{axis = 2 : i32}> ({
// CHECK-NEXT: ^bb0(%arg5: f32, %arg6: f32):
// CHECK-NEXT: %10 = arith.minimumf %arg5, %arg6 fastmath<ninf> : f32
// CHECK-NEXT: tt.reduce.return %10 : f32
// CHECK-NEXT: }) : (tensor<32x4x8xf32, #blocked1>) -> tensor<32x4xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: %8 = arith.minimumf %arg4, %7 : tensor<32x4xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: %9 = arith.minimumf %arg3, %5 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: scf.yield %arg3, %8 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32x4xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = "tt.reduce"(%0#1) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg2: f32, %arg3: f32):
// CHECK-NEXT: %4 = arith.minimumf %arg2, %arg3 fastmath<ninf> : f32
// CHECK-NEXT: tt.reduce.return %4 : f32
// CHECK-NEXT: }) : (tensor<32x4xf32, #ttg.slice<{dim = 2, parent = #blocked1}>>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>>
// CHECK-NEXT: %2 = ttg.convert_layout %1 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>> -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: %3 = arith.minimumf %cst, %2 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: tt.return %3 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @finite_minimum(%q: tensor<32x32x!tt.ptr<f32>, #blocked>, %n: i32) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %big = arith.constant dense<1.000000e+30> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %big) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %y = tt.load %q : tensor<32x32x!tt.ptr<f32>, #blocked>
      %t = "tt.reduce"(%y) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %v = arith.minimumf %a, %b fastmath<ninf> : f32
        tt.reduce.return %v : f32
      }) : (tensor<32x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %w = arith.minimumf %m, %t : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %w : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %r : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// A maximum that may see infinities (no fastmath flags): the partial maxima
// start from minus infinity.
// CHECK-LABEL: tt.func @maximum_with_infinities
// CHECK: arith.constant dense<0xFF800000> : tensor<32x4xf32
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @maximum_with_infinities(%q: tensor<32x32x!tt.ptr<f32>, #blocked>, %n: i32) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %low = arith.constant dense<-1.000000e+30> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %low) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %y = tt.load %q : tensor<32x32x!tt.ptr<f32>, #blocked>
      %t = "tt.reduce"(%y) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %v = arith.maximumf %a, %b : f32
        tt.reduce.return %v : f32
      }) : (tensor<32x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %w = arith.maximumf %m, %t : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %w : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %r : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}
