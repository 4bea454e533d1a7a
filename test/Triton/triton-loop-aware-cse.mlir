// RUN: tt-opt %s -split-input-file --triton-loop-aware-cse | FileCheck %s

// Two iter_args that start equal and are updated the same way are one.
// CHECK-LABEL: tt.func @equal_iter_args(%arg0: tensor<64x!tt.ptr<f32>>, %arg1: i32) -> (tensor<64xf32>, tensor<64xf32>) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant dense<4> : tensor<64xi32>
// CHECK-NEXT: %cst_0 = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-NEXT: %0:3 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg3 = %arg0, %arg4 = %cst_0, %arg5 = %cst_0) -> (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xf32>)  : i32 {
// CHECK-NEXT: %1 = tt.load %arg3 : tensor<64x!tt.ptr<f32>>
// CHECK-NEXT: %2 = tt.addptr %arg3, %cst : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
// CHECK-NEXT: %3 = arith.addf %arg4, %1 : tensor<64xf32>
// CHECK-NEXT: %4 = arith.addf %arg5, %1 : tensor<64xf32>
// CHECK-NEXT: scf.yield %2, %3, %4 : tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %0#1, %0#2 : tensor<64xf32>, tensor<64xf32>
// CHECK-NEXT: }
tt.func @equal_iter_args(%p: tensor<64x!tt.ptr<f32>>, %n: i32) -> (tensor<64xf32>, tensor<64xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant dense<4> : tensor<64xi32>
  %z = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %p, %b = %p, %x = %z, %y = %z) -> (tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xf32>) : i32 {
    %va = tt.load %a : tensor<64x!tt.ptr<f32>>
    %vb = tt.load %b : tensor<64x!tt.ptr<f32>>
    %na = tt.addptr %a, %step : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %nb = tt.addptr %b, %step : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %nx = arith.addf %x, %va : tensor<64xf32>
    %ny = arith.addf %y, %vb : tensor<64xf32>
    scf.yield %na, %nb, %nx, %ny : tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xf32>
  }
  tt.return %r#2, %r#3 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Iter_args that start from different values, or are updated differently
// (another constant, the induction variable), stay apart.
// CHECK-LABEL: tt.func @different(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %0:4 = scf.for %arg2 = %c0_i32 to %arg0 step %c1_i32 iter_args(%arg3 = %c0_i32, %arg4 = %c1_i32, %arg5 = %arg1, %arg6 = %arg1) -> (i32, i32, i32, i32)  : i32 {
// CHECK-NEXT: %1 = arith.addi %arg3, %c2_i32 : i32
// CHECK-NEXT: %2 = arith.addi %arg4, %c2_i32 : i32
// CHECK-NEXT: %3 = arith.addi %arg5, %arg2 : i32
// CHECK-NEXT: %4 = arith.addi %arg6, %c2_i32 : i32
// CHECK-NEXT: scf.yield %1, %2, %3, %4 : i32, i32, i32, i32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %0#0, %0#1, %0#2, %0#3 : i32, i32, i32, i32
// CHECK-NEXT: }
tt.func @different(%n: i32, %s: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c1, %x = %s, %y = %s) -> (i32, i32, i32, i32) : i32 {
    %na = arith.addi %a, %c2 : i32
    %nb = arith.addi %b, %c2 : i32
    %nx = arith.addi %x, %i : i32
    %ny = arith.addi %y, %c2 : i32
    scf.yield %na, %nb, %nx, %ny : i32, i32, i32, i32
  }
  tt.return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}

// -----

// Equal values outside loops are merged first (plain CSE), which makes the
// iter_args equal; nested loops are handled inner first.
// CHECK-LABEL: tt.func @outer_cse(%arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = arith.muli %arg1, %arg1 : i32
// CHECK-NEXT: %1:2 = scf.for %arg2 = %c0_i32 to %arg0 step %c1_i32 iter_args(%arg3 = %0, %arg4 = %0) -> (i32, i32)  : i32 {
// CHECK-NEXT: %2:2 = scf.for %arg5 = %c0_i32 to %arg0 step %c1_i32 iter_args(%arg6 = %arg3, %arg7 = %arg4) -> (i32, i32)  : i32 {
// CHECK-NEXT: %3 = arith.xori %arg6, %arg5 : i32
// CHECK-NEXT: %4 = arith.xori %arg7, %arg5 : i32
// CHECK-NEXT: scf.yield %3, %4 : i32, i32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %2#0, %2#1 : i32, i32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %1#0, %1#1 : i32, i32
// CHECK-NEXT: }
tt.func @outer_cse(%n: i32, %s: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a0 = arith.muli %s, %s : i32
  %b0 = arith.muli %s, %s : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0) -> (i32, i32) : i32 {
    %in:2 = scf.for %j = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (i32, i32) : i32 {
      %nx = arith.xori %x, %j : i32
      %ny = arith.xori %y, %j : i32
      scf.yield %nx, %ny : i32, i32
    }
    scf.yield %in#0, %in#1 : i32, i32
  }
  tt.return %r#0, %r#1 : i32, i32
}
