// RUN: tt-opt %s -split-input-file -canonicalize | FileCheck %s

// Loads behind a constant mask: all true drops the mask, all false gives the
// `other` value; without `other`, or with a scalar mask, the load stays.
// CHECK-LABEL: tt.func @masked_loads(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xf32>, %arg2: !tt.ptr<f32>) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, f32) {
// CHECK-NEXT: %cst = arith.constant dense<false> : tensor<128xi1>
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %0 = tt.load %arg0 cacheModifier = ca : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %1 = tt.load %arg0, %cst : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %2 = tt.load %arg2, %true : !tt.ptr<f32>
// CHECK-NEXT: tt.return %0, %arg1, %1, %2 : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, f32
// CHECK-NEXT: }
tt.func @masked_loads(%ptrs: tensor<128x!tt.ptr<f32>>, %other: tensor<128xf32>, %p: !tt.ptr<f32>) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, f32) {
  %true = arith.constant dense<true> : tensor<128xi1>
  %false = arith.constant dense<false> : tensor<128xi1>
  %t = arith.constant true
  %a = tt.load %ptrs, %true, %other cacheModifier = ca : tensor<128x!tt.ptr<f32>>
  %b = tt.load %ptrs, %false, %other : tensor<128x!tt.ptr<f32>>
  %c = tt.load %ptrs, %false : tensor<128x!tt.ptr<f32>>
  %d = tt.load %p, %t : !tt.ptr<f32>
  tt.return %a, %b, %c, %d : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, f32
}

// -----

// Stores behind a constant mask: all true drops the mask, all false the store.
// CHECK-LABEL: tt.func @masked_stores(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xf32>) {
// CHECK-NEXT: tt.store %arg0, %arg1 evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
tt.func @masked_stores(%ptrs: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf32>) {
  %true = arith.constant dense<true> : tensor<128xi1>
  %false = arith.constant dense<false> : tensor<128xi1>
  tt.store %ptrs, %v, %true evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %v, %false : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// Splats of constants are constants; make_range of one element too.
// CHECK-LABEL: tt.func @constant_splats(%arg0: i32) -> (tensor<16xi32>, tensor<16xf16>, tensor<16xi32>, tensor<1xi32>, tensor<4xi32>) {
// CHECK-NEXT: %cst = arith.constant dense<4> : tensor<1xi32>
// CHECK-NEXT: %cst_0 = arith.constant dense<7> : tensor<16xi32>
// CHECK-NEXT: %cst_1 = arith.constant dense<1.500000e+00> : tensor<16xf16>
// CHECK-NEXT: %0 = tt.splat %arg0 : i32 -> tensor<16xi32>
// CHECK-NEXT: %1 = tt.make_range {end = 8 : i32, start = 4 : i32} : tensor<4xi32>
// CHECK-NEXT: tt.return %cst_0, %cst_1, %0, %cst, %1 : tensor<16xi32>, tensor<16xf16>, tensor<16xi32>, tensor<1xi32>, tensor<4xi32>
// CHECK-NEXT: }
tt.func @constant_splats(%x: i32) -> (tensor<16xi32>, tensor<16xf16>, tensor<16xi32>, tensor<1xi32>, tensor<4xi32>) {
  %c7 = arith.constant 7 : i32
  %h = arith.constant 1.500000e+00 : f16
  %a = tt.splat %c7 : i32 -> tensor<16xi32>
  %b = tt.splat %h : f16 -> tensor<16xf16>
  %c = tt.splat %x : i32 -> tensor<16xi32>
  %r = tt.make_range {end = 5 : i32, start = 4 : i32} : tensor<1xi32>
  %s = tt.make_range {end = 8 : i32, start = 4 : i32} : tensor<4xi32>
  tt.return %a, %b, %c, %r, %s : tensor<16xi32>, tensor<16xf16>, tensor<16xi32>, tensor<1xi32>, tensor<4xi32>
}

// -----

// broadcast(splat) is a splat, broadcast(broadcast) one broadcast, a
// broadcast to its own type nothing, a broadcast of a constant splat a
// constant.
// CHECK-LABEL: tt.func @broadcasts(%arg0: f32, %arg1: tensor<1x64xf32>, %arg2: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<16x32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) {
// CHECK-NEXT: %cst = arith.constant dense<2.000000e+00> : tensor<32x64xf32>
// CHECK-NEXT: %0 = tt.splat %arg0 : f32 -> tensor<32x64xf32>
// CHECK-NEXT: %1 = tt.reshape %arg1 : tensor<1x64xf32> -> tensor<1x1x64xf32>
// CHECK-NEXT: %2 = tt.broadcast %1 : tensor<1x1x64xf32> -> tensor<16x32x64xf32>
// CHECK-NEXT: tt.return %0, %2, %arg2, %cst : tensor<32x64xf32>, tensor<16x32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>
// CHECK-NEXT: }
tt.func @broadcasts(%x: f32, %t: tensor<1x64xf32>, %u: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<16x32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) {
  %s = tt.splat %x : f32 -> tensor<1x64xf32>
  %a = tt.broadcast %s : tensor<1x64xf32> -> tensor<32x64xf32>
  %t3 = tt.reshape %t : tensor<1x64xf32> -> tensor<1x1x64xf32>
  %b1 = tt.broadcast %t3 : tensor<1x1x64xf32> -> tensor<1x32x64xf32>
  %b2 = tt.broadcast %b1 : tensor<1x32x64xf32> -> tensor<16x32x64xf32>
  %same = tt.broadcast %u : tensor<32x64xf32> -> tensor<32x64xf32>
  %cst = arith.constant dense<2.000000e+00> : tensor<1x64xf32>
  %c = tt.broadcast %cst : tensor<1x64xf32> -> tensor<32x64xf32>
  tt.return %a, %b2, %same, %c : tensor<32x64xf32>, tensor<16x32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>
}

// -----

// expand_dims(splat) is a splat; expand_dims(broadcast(x)) becomes
// broadcast(expand_dims(x)), so that the broadcasts around it merge;
// expand_dims of a constant is a constant, splat or not.
// CHECK-LABEL: tt.func @expand_dims(%arg0: i32, %arg1: tensor<1xf32>) -> (tensor<1x32xi32>, tensor<8x1x16xf32>, tensor<4x1xi32>, tensor<1x4xi32>) {
// CHECK-NEXT: %cst = arith.constant dense<{{\[\[}}1, 2, 3, 4]]> : tensor<1x4xi32>
// CHECK-NEXT: %cst_0 = arith.constant dense<3> : tensor<4x1xi32>
// CHECK-NEXT: %0 = tt.splat %arg0 : i32 -> tensor<1x32xi32>
// CHECK-NEXT: %1 = tt.expand_dims %arg1 {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
// CHECK-NEXT: %2 = tt.expand_dims %1 {axis = 2 : i32} : tensor<1x1xf32> -> tensor<1x1x1xf32>
// CHECK-NEXT: %3 = tt.broadcast %2 : tensor<1x1x1xf32> -> tensor<8x1x16xf32>
// CHECK-NEXT: tt.return %0, %3, %cst_0, %cst : tensor<1x32xi32>, tensor<8x1x16xf32>, tensor<4x1xi32>, tensor<1x4xi32>
// CHECK-NEXT: }
tt.func @expand_dims(%x: i32, %v: tensor<1xf32>) -> (tensor<1x32xi32>, tensor<8x1x16xf32>, tensor<4x1xi32>, tensor<1x4xi32>) {
  %s = tt.splat %x : i32 -> tensor<32xi32>
  %a = tt.expand_dims %s {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %b = tt.broadcast %v : tensor<1xf32> -> tensor<8xf32>
  %e = tt.expand_dims %b {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  %e2 = tt.expand_dims %e {axis = 2 : i32} : tensor<8x1xf32> -> tensor<8x1x1xf32>
  %b2 = tt.broadcast %e2 : tensor<8x1x1xf32> -> tensor<8x1x16xf32>
  %cst = arith.constant dense<3> : tensor<4xi32>
  %c = tt.expand_dims %cst {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %dense = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %d = tt.expand_dims %dense {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  tt.return %a, %b2, %c, %d : tensor<1x32xi32>, tensor<8x1x16xf32>, tensor<4x1xi32>, tensor<1x4xi32>
}

// -----

// reshape(reshape) is one reshape (reordering if either did),
// reshape(splat) a splat, a reshape to its own type nothing unless it may
// reorder, a reshape of a constant a constant; efficient_layout keeps it.
// CHECK-LABEL: tt.func @reshapes(%arg0: tensor<4x8xf32>, %arg1: f32, %arg2: tensor<32xf32>) -> (tensor<2x16xf32>, tensor<32xf32>, tensor<8x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<2x2xi32>, tensor<4x8xf32>, tensor<32xf32>) {
// CHECK-NEXT: %cst = arith.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT: %0 = tt.reshape %arg0 : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-NEXT: %1 = tt.reshape %arg0 allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-NEXT: %2 = tt.splat %arg1 : f32 -> tensor<8x4xf32>
// CHECK-NEXT: %3 = tt.reshape %arg2 allow_reorder : tensor<32xf32> -> tensor<32xf32>
// CHECK-NEXT: %4 = tt.reshape %arg2 : tensor<32xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %5 = tt.reshape %4 efficient_layout : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-NEXT: tt.return %0, %1, %2, %arg2, %3, %cst, %4, %5 : tensor<2x16xf32>, tensor<32xf32>, tensor<8x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<2x2xi32>, tensor<4x8xf32>, tensor<32xf32>
// CHECK-NEXT: }
tt.func @reshapes(%t: tensor<4x8xf32>, %x: f32, %u: tensor<32xf32>) -> (tensor<2x16xf32>, tensor<32xf32>, tensor<8x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<2x2xi32>, tensor<4x8xf32>, tensor<32xf32>) {
  %r1 = tt.reshape %t : tensor<4x8xf32> -> tensor<32xf32>
  %r2 = tt.reshape %r1 : tensor<32xf32> -> tensor<2x16xf32>
  %q1 = tt.reshape %t allow_reorder : tensor<4x8xf32> -> tensor<8x4xf32>
  %q2 = tt.reshape %q1 : tensor<8x4xf32> -> tensor<32xf32>
  %s = tt.splat %x : f32 -> tensor<32xf32>
  %rs = tt.reshape %s : tensor<32xf32> -> tensor<8x4xf32>
  %same = tt.reshape %u : tensor<32xf32> -> tensor<32xf32>
  %keep = tt.reshape %u allow_reorder : tensor<32xf32> -> tensor<32xf32>
  %dense = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %c = tt.reshape %dense : tensor<4xi32> -> tensor<2x2xi32>
  %e1 = tt.reshape %u : tensor<32xf32> -> tensor<4x8xf32>
  %e2 = tt.reshape %e1 efficient_layout : tensor<4x8xf32> -> tensor<32xf32>
  tt.return %r2, %q2, %rs, %same, %keep, %c, %e1, %e2 : tensor<2x16xf32>, tensor<32xf32>, tensor<8x4xf32>, tensor<32xf32>, tensor<32xf32>, tensor<2x2xi32>, tensor<4x8xf32>, tensor<32xf32>
}

// -----

// trans(trans) is one trans by the composed order, trans by the identity
// nothing, trans of a constant splat a constant.
// CHECK-LABEL: tt.func @transposes(%arg0: tensor<2x4x8xf32>) -> (tensor<8x2x4xf32>, tensor<2x4x8xf32>, tensor<8x4xi32>) {
// CHECK-NEXT: %cst = arith.constant dense<5> : tensor<8x4xi32>
// CHECK-NEXT: %0 = tt.trans %arg0 {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT: tt.return %0, %arg0, %cst : tensor<8x2x4xf32>, tensor<2x4x8xf32>, tensor<8x4xi32>
// CHECK-NEXT: }
tt.func @transposes(%t: tensor<2x4x8xf32>) -> (tensor<8x2x4xf32>, tensor<2x4x8xf32>, tensor<8x4xi32>) {
  %a = tt.trans %t {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %b = tt.trans %a {order = array<i32: 1, 2, 0>} : tensor<4x8x2xf32> -> tensor<8x2x4xf32>
  %id = tt.trans %t {order = array<i32: 0, 1, 2>} : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %cst = arith.constant dense<5> : tensor<4x8xi32>
  %c = tt.trans %cst {order = array<i32: 1, 0>} : tensor<4x8xi32> -> tensor<8x4xi32>
  tt.return %b, %id, %c : tensor<8x2x4xf32>, tensor<2x4x8xf32>, tensor<8x4xi32>
}

// -----

// Pointer arithmetic by zero is the pointer itself.
// CHECK-LABEL: tt.func @zero_offsets(%arg0: !tt.ptr<f16>, %arg1: tensor<64x!tt.ptr<f16>>, %arg2: i64, %arg3: i64, %arg4: i32) -> (!tt.ptr<f16>, tensor<64x!tt.ptr<f16>>, tensor<64x!tt.ptr<f16>>, !tt.ptr<tensor<16x16xf16>>, !tt.ptr<tensor<16x16xf16>>) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT: %cst = arith.constant dense<1> : tensor<64xi32>
// CHECK-NEXT: %0 = tt.addptr %arg1, %cst : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
// CHECK-NEXT: %1 = tt.make_tensor_ptr %arg0, [%arg2, %arg3], [%arg3, %c1_i64], [%arg4, %arg4] {order = array<i32: 1, 0>} : <tensor<16x16xf16>>
// CHECK-NEXT: %2 = tt.advance %1, [%c0_i32, %arg4] : <tensor<16x16xf16>>
// CHECK-NEXT: tt.return %arg0, %arg1, %0, %1, %2 : !tt.ptr<f16>, tensor<64x!tt.ptr<f16>>, tensor<64x!tt.ptr<f16>>, !tt.ptr<tensor<16x16xf16>>, !tt.ptr<tensor<16x16xf16>>
// CHECK-NEXT: }
tt.func @zero_offsets(%p: !tt.ptr<f16>, %ptrs: tensor<64x!tt.ptr<f16>>, %m: i64, %n: i64, %i: i32) -> (!tt.ptr<f16>, tensor<64x!tt.ptr<f16>>, tensor<64x!tt.ptr<f16>>, !tt.ptr<tensor<16x16xf16>>, !tt.ptr<tensor<16x16xf16>>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %zeros = arith.constant dense<0> : tensor<64xi64>
  %ones = arith.constant dense<1> : tensor<64xi32>
  %a = tt.addptr %p, %c0 : !tt.ptr<f16>, i32
  %b = tt.addptr %ptrs, %zeros : tensor<64x!tt.ptr<f16>>, tensor<64xi64>
  %c = tt.addptr %ptrs, %ones : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  %bp = tt.make_tensor_ptr %p, [%m, %n], [%n, %c1], [%i, %i] {order = array<i32: 1, 0>} : <tensor<16x16xf16>>
  %d = tt.advance %bp, [%c0, %c0] : <tensor<16x16xf16>>
  %e = tt.advance %bp, [%c0, %i] : <tensor<16x16xf16>>
  tt.return %a, %b, %c, %d, %e : !tt.ptr<f16>, tensor<64x!tt.ptr<f16>>, tensor<64x!tt.ptr<f16>>, !tt.ptr<tensor<16x16xf16>>, !tt.ptr<tensor<16x16xf16>>
}

// -----

// fp_to_fp of a constant +0.0 or -0.0 is that zero in the new type; of other
// constants it stays.
// CHECK-LABEL: tt.func @float_casts() -> (f16, tensor<8xbf16>, tensor<8xf32>, f16) {
// CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %cst_0 = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %cst_1 = arith.constant dense<-0.000000e+00> : tensor<8xbf16>
// CHECK-NEXT: %cst_2 = arith.constant dense<0.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %0 = tt.fp_to_fp %cst, rounding = rtne : f32 -> f16
// CHECK-NEXT: tt.return %cst_0, %cst_1, %cst_2, %0 : f16, tensor<8xbf16>, tensor<8xf32>, f16
// CHECK-NEXT: }
tt.func @float_casts() -> (f16, tensor<8xbf16>, tensor<8xf32>, f16) {
  %z = arith.constant 0.000000e+00 : f32
  %nz = arith.constant dense<-0.000000e+00> : tensor<8xf32>
  %hz = arith.constant dense<0.000000e+00> : tensor<8xf16>
  %one = arith.constant 1.000000e+00 : f32
  %a = tt.fp_to_fp %z, rounding = rtne : f32 -> f16
  %b = tt.fp_to_fp %nz, rounding = rtz : tensor<8xf32> -> tensor<8xbf16>
  %c = tt.fp_to_fp %hz : tensor<8xf16> -> tensor<8xf32>
  %d = tt.fp_to_fp %one, rounding = rtne : f32 -> f16
  tt.return %a, %b, %c, %d : f16, tensor<8xbf16>, tensor<8xf32>, f16
}
