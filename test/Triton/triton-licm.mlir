// RUN: tt-opt %s -split-input-file --triton-licm | FileCheck %s

// Pure invariant ops leave the loop, and then their users; a load leaves a
// loop that only reads, with the guard lb < ub and its own mask.
// CHECK-LABEL: tt.func @hoist(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128xi1>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32) -> tensor<128xf32> {
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK-NEXT: %0 = arith.muli %arg2, %arg2 : i32
// CHECK-NEXT: %1 = tt.splat %0 : i32 -> tensor<128xi32>
// CHECK-NEXT: %2 = tt.addptr %arg0, %1 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
// CHECK-NEXT: %3 = arith.cmpi slt, %arg3, %arg4 : i32
// CHECK-NEXT: %4 = tt.splat %3 : i1 -> tensor<128xi1>
// CHECK-NEXT: %5 = arith.andi %4, %arg1 : tensor<128xi1>
// CHECK-NEXT: %6 = tt.load %2, %5 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %7 = arith.cmpi slt, %arg3, %arg4 : i32
// CHECK-NEXT: %8 = tt.splat %7 : i1 -> tensor<128xi1>
// CHECK-NEXT: %9 = tt.load %arg0, %8 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %10 = math.exp %6 : tensor<128xf32>
// CHECK-NEXT: %11 = scf.for %arg6 = %arg3 to %arg4 step %arg5 iter_args(%arg7 = %cst) -> (tensor<128xf32>)  : i32 {
// CHECK-NEXT: %12 = arith.addf %arg7, %10 : tensor<128xf32>
// CHECK-NEXT: %13 = arith.addf %12, %9 : tensor<128xf32>
// CHECK-NEXT: scf.yield %13 : tensor<128xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %11 : tensor<128xf32>
// CHECK-NEXT: }
tt.func @hoist(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %x: i32, %lb: i32, %ub: i32, %st: i32) -> tensor<128xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<128xf32>
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %zero) -> (tensor<128xf32>) : i32 {
    %off = arith.muli %x, %x : i32
    %s = tt.splat %off : i32 -> tensor<128xi32>
    %ptrs = tt.addptr %p, %s : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %ptrs, %m : tensor<128x!tt.ptr<f32>>
    %w = tt.load %p : tensor<128x!tt.ptr<f32>>
    %e = math.exp %v : tensor<128xf32>
    %a = arith.addf %acc, %e : tensor<128xf32>
    %b = arith.addf %a, %w : tensor<128xf32>
    scf.yield %b : tensor<128xf32>
  }
  tt.return %r : tensor<128xf32>
}

// -----

// A loop that stores keeps its loads; pure ops still leave it. Ops using the
// induction variable or values of the iteration stay.
// CHECK-LABEL: tt.func @stores(%arg0: tensor<128x!tt.ptr<f32>>, %arg1: tensor<128x!tt.ptr<f32>>, %arg2: f32, %arg3: i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = tt.splat %arg2 : f32 -> tensor<128xf32>
// CHECK-NEXT: scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32  : i32 {
// CHECK-NEXT: %1 = tt.load %arg0 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %2 = arith.addf %1, %0 : tensor<128xf32>
// CHECK-NEXT: %3 = tt.splat %arg4 : i32 -> tensor<128xi32>
// CHECK-NEXT: %4 = tt.addptr %arg1, %3 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
// CHECK-NEXT: tt.store %4, %2 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
tt.func @stores(%p: tensor<128x!tt.ptr<f32>>, %q: tensor<128x!tt.ptr<f32>>, %x: f32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %v = tt.load %p : tensor<128x!tt.ptr<f32>>
    %s = tt.splat %x : f32 -> tensor<128xf32>
    %a = arith.addf %v, %s : tensor<128xf32>
    %is = tt.splat %i : i32 -> tensor<128xi32>
    %ptrs = tt.addptr %q, %is : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %ptrs, %a : tensor<128x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Nested loops: what leaves the inner loop may leave the outer one too; a
// division by a value that may be zero is not speculated.
// CHECK-LABEL: tt.func @nested(%arg0: !tt.ptr<f32>, %arg1: i32, %arg2: i32, %arg3: i32) -> f32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %0 = arith.divsi %arg1, %c4_i32 : i32
// CHECK-NEXT: %1 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst) -> (f32)  : i32 {
// CHECK-NEXT: %2 = scf.for %arg6 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg7 = %arg5) -> (f32)  : i32 {
// CHECK-NEXT: %3 = arith.divsi %arg1, %arg2 : i32
// CHECK-NEXT: %4 = arith.addi %3, %0 : i32
// CHECK-NEXT: %5 = tt.addptr %arg0, %4 : !tt.ptr<f32>, i32
// CHECK-NEXT: %6 = tt.load %5 : !tt.ptr<f32>
// CHECK-NEXT: %7 = arith.addf %arg7, %6 : f32
// CHECK-NEXT: scf.yield %7 : f32
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %2 : f32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %1 : f32
// CHECK-NEXT: }
tt.func @nested(%p: !tt.ptr<f32>, %x: i32, %y: i32, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %f0 = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f0) -> (f32) : i32 {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> (f32) : i32 {
      %q = arith.divsi %x, %y : i32
      %d = arith.divsi %x, %c4 : i32
      %sum = arith.addi %q, %d : i32
      %ptr = tt.addptr %p, %sum : !tt.ptr<f32>, i32
      %v = tt.load %ptr : !tt.ptr<f32>
      %a = arith.addf %acc2, %v : f32
      scf.yield %a : f32
    }
    scf.yield %in : f32
  }
  tt.return %r : f32
}

// -----

// While loops: pure invariant ops leave, loads stay.
// CHECK-LABEL: tt.func @while(%arg0: !tt.ptr<i32>, %arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %0 = arith.muli %arg2, %arg2 : i32
// CHECK-NEXT: %1 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT: %2 = scf.while (%arg3 = %c0_i32) : (i32) -> i32 {
// CHECK-NEXT: %3 = arith.cmpi slt, %arg3, %0 : i32
// CHECK-NEXT: scf.condition(%3) %arg3 : i32
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%arg3: i32):
// CHECK-NEXT: %3 = tt.load %arg0 : !tt.ptr<i32>
// CHECK-NEXT: %4 = arith.addi %arg3, %3 : i32
// CHECK-NEXT: %5 = arith.addi %4, %1 : i32
// CHECK-NEXT: scf.yield %5 : i32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %2 : i32
// CHECK-NEXT: }
tt.func @while(%p: !tt.ptr<i32>, %x: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %lim = arith.muli %n, %n : i32
    %c = arith.cmpi slt, %i, %lim : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i: i32):
    %v = tt.load %p : !tt.ptr<i32>
    %s = arith.addi %x, %x : i32
    %a = arith.addi %i, %v : i32
    %b = arith.addi %a, %s : i32
    scf.yield %b : i32
  }
  tt.return %r : i32
}

// -----

// With layouts: the guard is splat in the pointers' layout.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @layouts(%arg0: tensor<512x!tt.ptr<f16>, #blocked>, %arg1: tensor<512xf16, #blocked>, %arg2: tensor<512xi1, #blocked>, %arg3: i32) -> tensor<512xf16, #blocked> {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = arith.cmpi slt, %c0_i32, %arg3 : i32
// CHECK-NEXT: %1 = tt.splat %0 : i1 -> tensor<512xi1, #blocked>
// CHECK-NEXT: %2 = arith.andi %1, %arg2 : tensor<512xi1, #blocked>
// CHECK-NEXT: %3 = tt.load %arg0, %2, %arg1 : tensor<512x!tt.ptr<f16>, #blocked>
// CHECK-NEXT: %4 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %arg1) -> (tensor<512xf16, #blocked>)  : i32 {
// CHECK-NEXT: %5 = arith.addf %arg5, %3 : tensor<512xf16, #blocked>
// CHECK-NEXT: scf.yield %5 : tensor<512xf16, #blocked>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %4 : tensor<512xf16, #blocked>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @layouts(%p: tensor<512x!tt.ptr<f16>, #blocked>, %o: tensor<512xf16, #blocked>, %m: tensor<512xi1, #blocked>, %n: i32) -> tensor<512xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %o) -> (tensor<512xf16, #blocked>) : i32 {
      %v = tt.load %p, %m, %o : tensor<512x!tt.ptr<f16>, #blocked>
      %a = arith.addf %acc, %v : tensor<512xf16, #blocked>
      scf.yield %a : tensor<512xf16, #blocked>
    }
    tt.return %r : tensor<512xf16, #blocked>
  }
}
