// RUN: tt-opt %s --split-input-file --tritongpu-combine-tensor-select-and-if | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
// The reset of an accumulator under the condition of the store of a tile
// (a fused persistent loop's epilogue): the select becomes a result of the
// scf.if, which gets an else branch.
// CHECK-LABEL: @accumulator_reset
// CHECK-NOT: arith.select
// CHECK: [[ACC:%.*]] = scf.if %arg0 -> (tensor<128xf32, #blocked>) {
// CHECK-NEXT: tt.store %arg2, %arg1
// CHECK-NEXT: scf.yield %cst : tensor<128xf32, #blocked>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg1 : tensor<128xf32, #blocked>
// CHECK: tt.return [[ACC]]
tt.func @accumulator_reset(%last: i1, %acc: tensor<128xf32, #blocked>, %ptrs: tensor<128x!tt.ptr<f32>, #blocked>) -> tensor<128xf32, #blocked> {
  %zero = arith.constant dense<0.0> : tensor<128xf32, #blocked>
  %next = arith.select %last, %zero, %acc : i1, tensor<128xf32, #blocked>
  scf.if %last {
    tt.store %ptrs, %acc : tensor<128x!tt.ptr<f32>, #blocked>
  }
  tt.return %next : tensor<128xf32, #blocked>
}

// Uses of the select inside the scf.if take the branch's value; the select
// then joins the if, after its existing results.
// CHECK-LABEL: @uses_inside_branches
// CHECK: [[R:%.*]]:2 = scf.if %arg0 -> (i32, tensor<128xf32, #blocked>) {
// CHECK-NEXT: tt.store %arg3, %arg1
// CHECK-NEXT: scf.yield %c1_i32, %arg1
// CHECK-NEXT: } else {
// CHECK-NEXT: tt.store %arg3, %arg2
// CHECK-NEXT: scf.yield %c2_i32, %arg2
// CHECK: tt.return [[R]]#1, [[R]]#0
tt.func @uses_inside_branches(%c: i1, %a: tensor<128xf32, #blocked>, %b: tensor<128xf32, #blocked>, %ptrs: tensor<128x!tt.ptr<f32>, #blocked>) -> (tensor<128xf32, #blocked>, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %s = arith.select %c, %a, %b : i1, tensor<128xf32, #blocked>
  %r = scf.if %c -> (i32) {
    tt.store %ptrs, %s : tensor<128x!tt.ptr<f32>, #blocked>
    scf.yield %c1 : i32
  } else {
    tt.store %ptrs, %s : tensor<128x!tt.ptr<f32>, #blocked>
    scf.yield %c2 : i32
  }
  tt.return %s, %r : tensor<128xf32, #blocked>, i32
}

// Scalars are cheap to select: they stay.
// CHECK-LABEL: @scalar_select
// CHECK: arith.select
// CHECK: scf.if %arg0 {
tt.func @scalar_select(%c: i1, %a: f32, %b: f32, %p: !tt.ptr<f32>) -> f32 {
  %s = arith.select %c, %a, %b : f32
  scf.if %c {
    tt.store %p, %a : !tt.ptr<f32>
  }
  tt.return %s : f32
}

// A user before the scf.if: the if cannot provide the value.
// CHECK-LABEL: @used_before_if
// CHECK: [[S:%.*]] = arith.select
// CHECK-NEXT: tt.store %arg3, [[S]]
// CHECK-NEXT: scf.if %arg0 {
tt.func @used_before_if(%c: i1, %a: tensor<128xf32, #blocked>, %b: tensor<128xf32, #blocked>, %ptrs: tensor<128x!tt.ptr<f32>, #blocked>) {
  %s = arith.select %c, %a, %b : i1, tensor<128xf32, #blocked>
  tt.store %ptrs, %s : tensor<128x!tt.ptr<f32>, #blocked>
  scf.if %c {
    tt.store %ptrs, %a : tensor<128x!tt.ptr<f32>, #blocked>
  }
  tt.return
}
}
