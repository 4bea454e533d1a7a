// RUN: tt-opt %s -split-input-file -canonicalize | FileCheck %s

// expand_dims(broadcast(x)) becomes broadcast(expand_dims(x)): the new
// expand_dims takes x's slice layout to its parent.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @expand_broadcast(%arg0: tensor<1xi32, #ttg.slice<{dim = 1, parent = #blocked}>>) -> tensor<64x32xi32, #blocked> {
// CHECK-NEXT: %0 = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<1xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<1x1xi32, #blocked>
// CHECK-NEXT: %1 = tt.broadcast %0 : tensor<1x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
// CHECK-NEXT: tt.return %1 : tensor<64x32xi32, #blocked>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @expand_broadcast(%x: tensor<1xi32, #ttg.slice<{dim = 1, parent = #blocked}>>) -> tensor<64x32xi32, #blocked> {
    %b = tt.broadcast %x : tensor<1xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %e = tt.expand_dims %b {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %r = tt.broadcast %e : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    tt.return %r : tensor<64x32xi32, #blocked>
  }
}

// -----

// Masks and splats with layouts: an all-true mask goes, a splat of a
// constant and a one-element range become constants of the same layout.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @layouts(%arg0: tensor<512x!tt.ptr<f32>, #blocked>) -> (tensor<512xf32, #blocked>, tensor<1xi32, #blocked>) {
// CHECK-NEXT: %cst = arith.constant dense<0> : tensor<1xi32, #blocked>
// CHECK-NEXT: %cst_0 = arith.constant dense<2.000000e+00> : tensor<512xf32, #blocked>
// CHECK-NEXT: %0 = tt.load %arg0 : tensor<512x!tt.ptr<f32>, #blocked>
// CHECK-NEXT: %1 = arith.addf %0, %cst_0 : tensor<512xf32, #blocked>
// CHECK-NEXT: tt.return %1, %cst : tensor<512xf32, #blocked>, tensor<1xi32, #blocked>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @layouts(%ptrs: tensor<512x!tt.ptr<f32>, #blocked>) -> (tensor<512xf32, #blocked>, tensor<1xi32, #blocked>) {
    %true = arith.constant dense<true> : tensor<512xi1, #blocked>
    %c = arith.constant 2.000000e+00 : f32
    %v = tt.load %ptrs, %true : tensor<512x!tt.ptr<f32>, #blocked>
    %s = tt.splat %c : f32 -> tensor<512xf32, #blocked>
    %sum = arith.addf %v, %s : tensor<512xf32, #blocked>
    %r = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32, #blocked>
    tt.return %sum, %r : tensor<512xf32, #blocked>, tensor<1xi32, #blocked>
  }
}

// -----

// Shared-memory views: memdesc_trans of memdesc_trans is one transpose,
// memdesc_trans by the identity and memdesc_reinterpret to the same type are
// their source, an immutable copy of a buffer just loaded is the buffer.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @memdesc_views(%arg0: tensor<64x64xf16, #blocked>) -> (tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>) {
// CHECK-NEXT: %0 = ttg.local_alloc %arg0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK-NEXT: %1 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: %2 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: %3 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: %4 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: tt.return %1, %2, %3, %4 : tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared_t = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @memdesc_views(%x: tensor<64x64xf16, #blocked>) -> (tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>) {
    %a = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %t1 = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared_t, #smem>
    %t2 = ttg.memdesc_trans %t1 {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared_t, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %l1 = ttg.local_load %t2 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    %id = ttg.memdesc_trans %a {order = array<i32: 0, 1>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %l2 = ttg.local_load %id : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    %re = ttg.memdesc_reinterpret %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %l3 = ttg.local_load %re : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    %copy = ttg.local_alloc %l3 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %l4 = ttg.local_load %copy : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
    tt.return %l1, %l2, %l3, %l4 : tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xf16, #blocked>
  }
}

// -----

// A mutable allocation is not folded into the buffer it copies.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @mutable_copy(%arg0: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) -> tensor<64x64xf16, #blocked> {
// CHECK-NEXT: %0 = ttg.local_load %arg0 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: %1 = ttg.local_alloc %0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: %2 = ttg.local_load %1 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT: tt.return %2 : tensor<64x64xf16, #blocked>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mutable_copy(%buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) -> tensor<64x64xf16, #blocked> {
    %l = ttg.local_load %buf : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %copy = ttg.local_alloc %l : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %r = ttg.local_load %copy : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    tt.return %r : tensor<64x64xf16, #blocked>
  }
}

// -----

// Conversions folded into what produces them: a splat, a range, a constant,
// another conversion.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK: #blocked2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @conversions(%arg0: f32, %arg1: tensor<64x64xf32, #blocked>) -> (tensor<64x64xf32, #blocked1>, tensor<256xi32, #blocked2>, tensor<64x64xf32, #blocked1>, tensor<64x64xf32, #blocked>) {
// CHECK-NEXT: %cst = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #blocked1>
// CHECK-NEXT: %0 = tt.splat %arg0 : f32 -> tensor<64x64xf32, #blocked1>
// CHECK-NEXT: %1 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked2>
// CHECK-NEXT: tt.return %0, %1, %cst, %arg1 : tensor<64x64xf32, #blocked1>, tensor<256xi32, #blocked2>, tensor<64x64xf32, #blocked1>, tensor<64x64xf32, #blocked>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @conversions(%x: f32, %t: tensor<64x64xf32, #blocked>) -> (tensor<64x64xf32, #blocked1>, tensor<256xi32, #blocked3>, tensor<64x64xf32, #blocked1>, tensor<64x64xf32, #blocked>) {
    %s = tt.splat %x : f32 -> tensor<64x64xf32, #blocked>
    %a = ttg.convert_layout %s : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked2>
    %b = ttg.convert_layout %r : tensor<256xi32, #blocked2> -> tensor<256xi32, #blocked3>
    %cst = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #blocked>
    %c = ttg.convert_layout %cst : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %c1 = ttg.convert_layout %t : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %c2 = ttg.convert_layout %c1 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked>
    tt.return %a, %b, %c, %c2 : tensor<64x64xf32, #blocked1>, tensor<256xi32, #blocked3>, tensor<64x64xf32, #blocked1>, tensor<64x64xf32, #blocked>
  }
}

// -----

// split(convert_layout(x)) is split(x) when x's layout splits into the
// results' layout; otherwise the conversion stays.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK: #blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #blocked3 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @split(%arg0: tensor<128x2xf32, #blocked>, %arg1: tensor<128x2xf32, #blocked1>) -> (tensor<128xf32, #blocked2>, tensor<128xf32, #blocked2>) {
// CHECK-NEXT: %0 = ttg.convert_layout %arg0 : tensor<128x2xf32, #blocked> -> tensor<128x2xf32, #blocked3>
// CHECK-NEXT: %outLHS, %outRHS = tt.split %0 : tensor<128x2xf32, #blocked3> -> tensor<128xf32, #blocked2>
// CHECK-NEXT: %outLHS_0, %outRHS_1 = tt.split %arg1 : tensor<128x2xf32, #blocked1> -> tensor<128xf32, #blocked2>
// CHECK-NEXT: %1 = arith.addf %outLHS, %outLHS_0 : tensor<128xf32, #blocked2>
// CHECK-NEXT: %2 = arith.addf %outRHS, %outRHS_1 : tensor<128xf32, #blocked2>
// CHECK-NEXT: tt.return %1, %2 : tensor<128xf32, #blocked2>, tensor<128xf32, #blocked2>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split(%x: tensor<128x2xf32, #blocked1>, %y: tensor<128x2xf32, #blocked3>) -> (tensor<128xf32, #blocked2>, tensor<128xf32, #blocked2>) {
    %c = ttg.convert_layout %y : tensor<128x2xf32, #blocked3> -> tensor<128x2xf32, #blocked>
    %d = ttg.convert_layout %x : tensor<128x2xf32, #blocked1> -> tensor<128x2xf32, #blocked>
    %a, %b = tt.split %d : tensor<128x2xf32, #blocked> -> tensor<128xf32, #blocked2>
    %e, %f = tt.split %c : tensor<128x2xf32, #blocked> -> tensor<128xf32, #blocked2>
    %s = arith.addf %a, %e : tensor<128xf32, #blocked2>
    %t = arith.addf %b, %f : tensor<128xf32, #blocked2>
    tt.return %s, %t : tensor<128xf32, #blocked2>, tensor<128xf32, #blocked2>
  }
}

// -----

// Warp specialization: unused and repeated captures, and unused results,
// are dropped.
// CHECK-LABEL: tt.func @warp_specialize(%arg0: i32, %arg1: !tt.ptr<i32>, %arg2: f32) -> i32 {
// CHECK-NEXT: %0 = ttg.warp_specialize(%arg0, %arg1)
// CHECK-NEXT: default {
// CHECK-NEXT: ttg.warp_yield %arg0 : i32
// CHECK-NEXT: }
// CHECK-NEXT: partition0(%arg3: i32, %arg4: !tt.ptr<i32>) num_warps(4) {
// CHECK-NEXT: %1 = arith.addi %arg3, %arg3 : i32
// CHECK-NEXT: tt.store %arg4, %1 : !tt.ptr<i32>
// CHECK-NEXT: ttg.warp_return
// CHECK-NEXT: }
// CHECK-NEXT: partition1(%arg3: i32, %arg4: !tt.ptr<i32>) num_warps(4) {
// CHECK-NEXT: tt.store %arg4, %arg3 : !tt.ptr<i32>
// CHECK-NEXT: ttg.warp_return
// CHECK-NEXT: } : (i32, !tt.ptr<i32>) -> i32
// CHECK-NEXT: tt.return %0 : i32
// CHECK-NEXT: }
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @warp_specialize(%a: i32, %b: !tt.ptr<i32>, %c: f32) -> i32 {
    %0:2 = ttg.warp_specialize(%a, %b, %a, %c)
    default {
      ttg.warp_yield %c, %a : f32, i32
    }
    partition0(%x: i32, %p: !tt.ptr<i32>, %y: i32, %z: f32) num_warps(4) {
      %s = arith.addi %x, %y : i32
      tt.store %p, %s : !tt.ptr<i32>
      ttg.warp_return
    }
    partition1(%x: i32, %p: !tt.ptr<i32>, %y: i32, %z: f32) num_warps(4) {
      tt.store %p, %y : !tt.ptr<i32>
      ttg.warp_return
    } : (i32, !tt.ptr<i32>, i32, f32) -> (f32, i32)
    tt.return %0#1 : i32
  }
}
