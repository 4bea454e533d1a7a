// RUN: tt-opt %s -split-input-file --triton-combine | FileCheck %s

// A dot with a zero accumulator whose only use is an addition takes the
// other addend as accumulator, on either side, for floats and integers.
// CHECK-LABEL: tt.func @dot_add(%arg0: tensor<64x32xf16>, %arg1: tensor<32x64xf16>, %arg2: tensor<64x64xf32>, %arg3: tensor<64x32xi8>, %arg4: tensor<32x64xi8>, %arg5: tensor<64x64xi32>) -> (tensor<64x64xf32>, tensor<64x64xi32>) {
// CHECK-NEXT: %0 = tt.dot %arg0, %arg1, %arg2 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: %1 = tt.dot %arg3, %arg4, %arg5 : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
// CHECK-NEXT: tt.return %0, %1 : tensor<64x64xf32>, tensor<64x64xi32>
// CHECK-NEXT: }
tt.func @dot_add(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %d: tensor<64x64xf32>, %ai: tensor<64x32xi8>, %bi: tensor<32x64xi8>, %di: tensor<64x64xi32>) -> (tensor<64x64xf32>, tensor<64x64xi32>) {
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %zi = arith.constant dense<0> : tensor<64x64xi32>
  %dot = tt.dot %a, %b, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %sum = arith.addf %d, %dot : tensor<64x64xf32>
  %doti = tt.dot %ai, %bi, %zi : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
  %sumi = arith.addi %doti, %di : tensor<64x64xi32>
  tt.return %sum, %sumi : tensor<64x64xf32>, tensor<64x64xi32>
}

// -----

// The dot stays when its result has another use, when its accumulator is not
// zero, or when it accumulates imprecisely.
// CHECK-LABEL: tt.func @dot_add_kept(%arg0: tensor<64x32xf16>, %arg1: tensor<32x64xf16>, %arg2: tensor<64x64xf32>, %arg3: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
// CHECK-NEXT: %0 = tt.dot %arg0, %arg1, %cst : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: %1 = arith.addf %arg2, %0 : tensor<64x64xf32>
// CHECK-NEXT: %2 = tt.dot %arg0, %arg1, %arg3 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: %3 = arith.addf %2, %arg2 : tensor<64x64xf32>
// CHECK-NEXT: %4 = tt.dot %arg0, %arg1, %cst {maxNumImpreciseAcc = 32 : i32} : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: %5 = arith.addf %4, %arg2 : tensor<64x64xf32>
// CHECK-NEXT: tt.return %0, %1, %3, %5 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
// CHECK-NEXT: }
tt.func @dot_add_kept(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %d: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %dot = tt.dot %a, %b, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %sum = arith.addf %d, %dot : tensor<64x64xf32>
  %dot2 = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %sum2 = arith.addf %dot2, %d : tensor<64x64xf32>
  %dot3 = tt.dot %a, %b, %zero {maxNumImpreciseAcc = 32 : i32} : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %sum3 = arith.addf %dot3, %d : tensor<64x64xf32>
  tt.return %dot, %sum, %sum2, %sum3 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// A select on the condition that masks a load becomes the load's `other`.
// CHECK-LABEL: tt.func @select_masked_load(%arg0: tensor<64x!tt.ptr<f32>>, %arg1: i1, %arg2: tensor<64xf32>, %arg3: i1) -> (tensor<64xf32>, tensor<64xf32>) {
// CHECK-NEXT: %0 = tt.splat %arg1 : i1 -> tensor<64xi1>
// CHECK-NEXT: %1 = tt.load %arg0, %0, %arg2 evictionPolicy = evict_first : tensor<64x!tt.ptr<f32>>
// CHECK-NEXT: %2 = tt.load %arg0, %0 : tensor<64x!tt.ptr<f32>>
// CHECK-NEXT: %3 = arith.select %arg3, %2, %arg2 : tensor<64xf32>
// CHECK-NEXT: tt.return %1, %3 : tensor<64xf32>, tensor<64xf32>
// CHECK-NEXT: }
tt.func @select_masked_load(%ptrs: tensor<64x!tt.ptr<f32>>, %c: i1, %x: tensor<64xf32>, %d: i1) -> (tensor<64xf32>, tensor<64xf32>) {
  %mask = tt.splat %c : i1 -> tensor<64xi1>
  %v = tt.load %ptrs, %mask evictionPolicy = evict_first : tensor<64x!tt.ptr<f32>>
  %s = arith.select %c, %v, %x : tensor<64xf32>
  %w = tt.load %ptrs, %mask : tensor<64x!tt.ptr<f32>>
  %t = arith.select %d, %w, %x : tensor<64xf32>
  tt.return %s, %t : tensor<64xf32>, tensor<64xf32>
}

// -----

// addptr(addptr(p, i), j) is addptr(p, i + j) for 64-bit offsets, and for
// narrower ones when both are constants whose sum fits; the outer addptr's
// hints stay.
// CHECK-LABEL: tt.func @addptr_chains(%arg0: tensor<64x!tt.ptr<f32>>, %arg1: tensor<64xi64>, %arg2: tensor<64xi64>, %arg3: tensor<64xi32>, %arg4: !tt.ptr<f16>) -> (tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, !tt.ptr<f16>) {
// CHECK-NEXT: %c6_i32 = arith.constant 6 : i32
// CHECK-NEXT: %cst = arith.constant dense<12> : tensor<64xi32>
// CHECK-NEXT: %cst_0 = arith.constant dense<2147483647> : tensor<64xi32>
// CHECK-NEXT: %cst_1 = arith.constant dense<4> : tensor<64xi32>
// CHECK-NEXT: %0 = arith.addi %arg1, %arg2 : tensor<64xi64>
// CHECK-NEXT: %1 = tt.addptr %arg0, %0 {tt.divisibility = dense<16> : tensor<1xi32>} : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
// CHECK-NEXT: %2 = tt.addptr %arg0, %cst : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
// CHECK-NEXT: %3 = tt.addptr %arg0, %arg3 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
// CHECK-NEXT: %4 = tt.addptr %3, %cst_1 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
// CHECK-NEXT: %5 = tt.addptr %arg0, %cst_0 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
// CHECK-NEXT: %6 = tt.addptr %5, %cst_1 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
// CHECK-NEXT: %7 = tt.addptr %arg4, %c6_i32 : !tt.ptr<f16>, i32
// CHECK-NEXT: tt.return %1, %2, %4, %6, %7 : tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, !tt.ptr<f16>
// CHECK-NEXT: }
tt.func @addptr_chains(%p: tensor<64x!tt.ptr<f32>>, %i: tensor<64xi64>, %j: tensor<64xi64>, %k: tensor<64xi32>, %s: !tt.ptr<f16>) -> (tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, !tt.ptr<f16>) {
  %a = tt.addptr %p, %i : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
  %b = tt.addptr %a, %j {tt.divisibility = dense<16> : tensor<1xi32>, tt.other = 1 : i32} : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
  %c4 = arith.constant dense<4> : tensor<64xi32>
  %c8 = arith.constant 8 : i32
  %s8 = tt.splat %c8 : i32 -> tensor<64xi32>
  %c = tt.addptr %p, %c4 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %d = tt.addptr %c, %s8 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %e = tt.addptr %p, %k : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %f = tt.addptr %e, %c4 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %big = arith.constant dense<2147483647> : tensor<64xi32>
  %g = tt.addptr %p, %big : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %h = tt.addptr %g, %c4 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %c3 = arith.constant 3 : i32
  %x = tt.addptr %s, %c3 : !tt.ptr<f16>, i32
  %y = tt.addptr %x, %c3 : !tt.ptr<f16>, i32
  tt.return %b, %d, %f, %h, %y : tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, !tt.ptr<f16>
}

// -----

// A sum over the middle axis of a broadcast product is a dot.
// CHECK-LABEL: tt.func @broadcast_mul_reduce(%arg0: tensor<16x32xf32>, %arg1: tensor<32x16xf32>) -> tensor<16x16xf32> {
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK-NEXT: %0 = tt.dot %arg0, %arg1, %cst, inputPrecision = tf32 : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT: tt.return %0 : tensor<16x16xf32>
// CHECK-NEXT: }
tt.func @broadcast_mul_reduce(%x: tensor<16x32xf32>, %y: tensor<32x16xf32>) -> tensor<16x16xf32> {
  %ex = tt.expand_dims %x {axis = 2 : i32} : tensor<16x32xf32> -> tensor<16x32x1xf32>
  %bx = tt.broadcast %ex : tensor<16x32x1xf32> -> tensor<16x32x16xf32>
  %ey = tt.expand_dims %y {axis = 0 : i32} : tensor<32x16xf32> -> tensor<1x32x16xf32>
  %by = tt.broadcast %ey : tensor<1x32x16xf32> -> tensor<16x32x16xf32>
  %m = arith.mulf %bx, %by : tensor<16x32x16xf32>
  %r = "tt.reduce"(%m) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x32x16xf32>) -> tensor<16x16xf32>
  tt.return %r : tensor<16x16xf32>
}

// -----

// A 1-D reshape used only by reductions and histograms may reorder; one
// with another user may not.
// CHECK-LABEL: tt.func @reshape_for_reduce(%arg0: tensor<8x16xi32>) -> (i32, tensor<4xi32>, tensor<128xi32>) {
// CHECK-NEXT: %0 = tt.reshape %arg0 allow_reorder : tensor<8x16xi32> -> tensor<128xi32>
// CHECK-NEXT: %1 = "tt.reduce"(%0) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0(%arg1: i32, %arg2: i32):
// CHECK-NEXT: %6 = arith.maxsi %arg1, %arg2 : i32
// CHECK-NEXT: tt.reduce.return %6 : i32
// CHECK-NEXT: }) : (tensor<128xi32>) -> i32
// CHECK-NEXT: %2 = tt.histogram %0 : tensor<128xi32> -> tensor<4xi32>
// CHECK-NEXT: %3 = tt.reshape %arg0 : tensor<8x16xi32> -> tensor<128xi32>
// CHECK-NEXT: %4 = "tt.reduce"(%3) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0(%arg1: i32, %arg2: i32):
// CHECK-NEXT: %6 = arith.addi %arg1, %arg2 : i32
// CHECK-NEXT: tt.reduce.return %6 : i32
// CHECK-NEXT: }) : (tensor<128xi32>) -> i32
// CHECK-NEXT: %5 = arith.addi %1, %4 : i32
// CHECK-NEXT: tt.return %5, %2, %3 : i32, tensor<4xi32>, tensor<128xi32>
// CHECK-NEXT: }
tt.func @reshape_for_reduce(%t: tensor<8x16xi32>) -> (i32, tensor<4xi32>, tensor<128xi32>) {
  %r = tt.reshape %t : tensor<8x16xi32> -> tensor<128xi32>
  %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %m = arith.maxsi %a, %b : i32
    tt.reduce.return %m : i32
  }) : (tensor<128xi32>) -> i32
  %h = tt.histogram %r : tensor<128xi32> -> tensor<4xi32>
  %u = tt.reshape %t : tensor<8x16xi32> -> tensor<128xi32>
  %s2 = "tt.reduce"(%u) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %m = arith.addi %a, %b : i32
    tt.reduce.return %m : i32
  }) : (tensor<128xi32>) -> i32
  %sum = arith.addi %s, %s2 : i32
  tt.return %sum, %h, %u : i32, tensor<4xi32>, tensor<128xi32>
}

// -----

// A reshape that drops leading unit dims of a descriptor load makes the load
// produce the reduced shape.
// CHECK-LABEL: tt.func @rank_reduced_load(%arg0: !tt.tensordesc<tensor<1x64x32xf16>>, %arg1: i32) -> tensor<64x32xf16> {
// CHECK-NEXT: %0 = tt.descriptor_load %arg0[%arg1, %arg1, %arg1] : !tt.tensordesc<tensor<1x64x32xf16>> -> tensor<64x32xf16>
// CHECK-NEXT: tt.return %0 : tensor<64x32xf16>
// CHECK-NEXT: }
tt.func @rank_reduced_load(%desc: !tt.tensordesc<tensor<1x64x32xf16>>, %i: i32) -> tensor<64x32xf16> {
  %l = tt.descriptor_load %desc[%i, %i, %i] : !tt.tensordesc<tensor<1x64x32xf16>> -> tensor<1x64x32xf16>
  %r = tt.reshape %l : tensor<1x64x32xf16> -> tensor<64x32xf16>
  tt.return %r : tensor<64x32xf16>
}
