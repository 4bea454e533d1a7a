// tt.dot_scaled before Blackwell: upstream's DecomposeScaledBlocked (upcast, scale multiply, NaN
// mask, ordinary tt.dot, then BlockedToMMA) and transposeDots (only B scaled). The output of these
// rewrites equals upstream's on the scaled kernels of bench/fp8_kernels.py (corpus fixtures).
// RUN: tt-opt %s --tritongpu-accelerate-matmul | FileCheck %s

// e2m1 operands unpack along K; the e8m0 scales become bf16 2^(s-127) (shift by bf16's 7 mantissa
// bits), are broadcast over 32 elements of K and multiplied in; 0xff scales give NaN.
// CHECK-LABEL: tt.func @mxfp4
// CHECK-DAG: arith.constant dense<0x7FC0> : tensor<128x128xbf16
// CHECK-DAG: %[[FF:.*]] = arith.constant dense<-1> : tensor<128x4xi8
// CHECK-DAG: %[[SEVEN:.*]] = arith.constant dense<7> : tensor<128x4xi16
// CHECK: %[[A:.*]] = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<128x64xi8, {{.*}}> -> tensor<128x128xbf16, #[[A_UP:blocked[0-9]*]]>
// CHECK: %[[EXT:.*]] = arith.extui %arg1 : {{.*}} to tensor<128x4xi16
// CHECK: %[[SHL:.*]] = arith.shli %[[EXT]], %[[SEVEN]]
// CHECK: tt.bitcast %[[SHL]] : {{.*}} -> tensor<128x4xbf16
// CHECK: tt.expand_dims {{.*}} {axis = 2 : i32}
// CHECK: tt.broadcast {{.*}} -> tensor<128x4x32xbf16
// CHECK: tt.reshape {{.*}} -> tensor<128x128xbf16, #linear>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[A]], {{.*}} : tensor<128x128xbf16, #[[A_UP]]>
// CHECK: arith.cmpi eq, %arg1, %[[FF]]
// CHECK: arith.select {{.*}}, %[[SCALED]] : tensor<128x128xi1, #[[A_UP]]>, tensor<128x128xbf16, #[[A_UP]]>
// B's scale [N, K/32] is transposed to [K/32, N] and broadcast along K (dim 0) with a trans.
// CHECK: ttg.fp4_to_fp %arg2 {axis = 0 : i32} : tensor<64x128xi8, {{.*}}> -> tensor<128x128xbf16
// CHECK: tt.trans %arg3 {order = array<i32: 1, 0>} : tensor<128x4xi8, {{.*}}> -> tensor<4x128xi8
// CHECK: tt.trans {{.*}} {order = array<i32: 0, 2, 1>} : tensor<4x128x32xbf16, {{.*}}> -> tensor<4x32x128xbf16
// CHECK: ttg.local_alloc {{.*}} -> !ttg.memdesc<128x128xbf16
// CHECK: ttng.warp_group_dot {{.*}} : tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<128x128xbf16

// fp8 operands upcast with tt.fp_to_fp; fastMath drops the NaN masks.
// CHECK-LABEL: tt.func @mxfp8_fast_math
// CHECK: tt.fp_to_fp %arg0 : tensor<128x128xf8E5M2, {{.*}}> -> tensor<128x128xbf16
// CHECK-NOT: arith.select
// CHECK: ttng.warp_group_dot

// Only B scaled: the dot is transposed so that the scaled operand is A. An f16 operand makes the
// compute type f16: the scale is made as an f32 (shift by 23) and truncated.
// CHECK-LABEL: tt.func @only_b_scaled
// CHECK: %[[AT:.*]] = tt.trans %arg0 {order = array<i32: 1, 0>}
// CHECK: %[[BT:.*]] = tt.trans %arg1 {order = array<i32: 1, 0>} : tensor<64x128xi8, {{.*}}> -> tensor<128x64xi8
// CHECK: %[[CT:.*]] = tt.trans %arg3 {order = array<i32: 1, 0>}
// CHECK: ttg.fp4_to_fp %[[BT]] {axis = 1 : i32} : tensor<128x64xi8, {{.*}}> -> tensor<128x128xf16
// CHECK: arith.extui %arg2 : {{.*}} to tensor<128x4xi32
// CHECK: tt.bitcast {{.*}} -> tensor<128x4xf32
// CHECK: arith.truncf {{.*}} to tensor<128x4xf16
// CHECK: ttg.local_alloc %[[AT]]
// CHECK: %[[D:.*]] = ttng.warp_group_dot
// CHECK: tt.trans {{.*}} {order = array<i32: 1, 0>} : tensor<128x128xf32, {{.*}}> -> tensor<128x128xf32

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mxfp4(%a: tensor<128x64xi8, #blocked1>, %a_scale: tensor<128x4xi8, #blocked2>, %b: tensor<64x128xi8, #blocked>, %b_scale: tensor<128x4xi8, #blocked2>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot_scaled %a scale %a_scale, %b scale %b_scale, %c lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<128x64xi8, #blocked1>, tensor<128x4xi8, #blocked2> * tensor<64x128xi8, #blocked>, tensor<128x4xi8, #blocked2> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
  tt.func @mxfp8_fast_math(%a: tensor<128x128xf8E5M2, #blocked>, %a_scale: tensor<128x4xi8, #blocked2>, %b: tensor<128x128xf8E5M2, #blocked>, %b_scale: tensor<128x4xi8, #blocked2>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot_scaled %a scale %a_scale, %b scale %b_scale, %c lhs = e5m2 rhs = e5m2 {fastMath = true} : tensor<128x128xf8E5M2, #blocked>, tensor<128x4xi8, #blocked2> * tensor<128x128xf8E5M2, #blocked>, tensor<128x4xi8, #blocked2> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
  tt.func @only_b_scaled(%a: tensor<128x128xf16, #blocked>, %b: tensor<64x128xi8, #blocked>, %b_scale: tensor<128x4xi8, #blocked2>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot_scaled %a, %b scale %b_scale, %c lhs = fp16 rhs = e2m1 {fastMath = false} : tensor<128x128xf16, #blocked> * tensor<64x128xi8, #blocked>, tensor<128x4xi8, #blocked2> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}
