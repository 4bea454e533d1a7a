// RUN: tt-opt %s -split-input-file --triton-loop-unroll | FileCheck %s

// Constant bounds, 10 iterations by 4: a main loop of 8 (step 4 times the
// step), and an epilogue loop of 2, which is not to be pipelined.
// CHECK-LABEL: tt.func @constant_bounds(%arg0: !tt.ptr<f32>) -> f32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c10_i32 = arith.constant 10 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %c8_i32 = arith.constant 8 : i32
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %0 = scf.for %arg1 = %c0_i32 to %c8_i32 step %c4_i32 iter_args(%arg2 = %cst) -> (f32)  : i32 {
// CHECK-NEXT: %2 = tt.addptr %arg0, %arg1 : !tt.ptr<f32>, i32
// CHECK-NEXT: %3 = tt.load %2 : !tt.ptr<f32>
// CHECK-NEXT: %4 = arith.addf %arg2, %3 : f32
// CHECK-NEXT: %c1_i32_0 = arith.constant 1 : i32
// CHECK-NEXT: %5 = arith.muli %c1_i32, %c1_i32_0 : i32
// CHECK-NEXT: %6 = arith.addi %arg1, %5 : i32
// CHECK-NEXT: %7 = tt.addptr %arg0, %6 : !tt.ptr<f32>, i32
// CHECK-NEXT: %8 = tt.load %7 : !tt.ptr<f32>
// CHECK-NEXT: %9 = arith.addf %4, %8 : f32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %10 = arith.muli %c1_i32, %c2_i32 : i32
// CHECK-NEXT: %11 = arith.addi %arg1, %10 : i32
// CHECK-NEXT: %12 = tt.addptr %arg0, %11 : !tt.ptr<f32>, i32
// CHECK-NEXT: %13 = tt.load %12 : !tt.ptr<f32>
// CHECK-NEXT: %14 = arith.addf %9, %13 : f32
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %15 = arith.muli %c1_i32, %c3_i32 : i32
// CHECK-NEXT: %16 = arith.addi %arg1, %15 : i32
// CHECK-NEXT: %17 = tt.addptr %arg0, %16 : !tt.ptr<f32>, i32
// CHECK-NEXT: %18 = tt.load %17 : !tt.ptr<f32>
// CHECK-NEXT: %19 = arith.addf %14, %18 : f32
// CHECK-NEXT: scf.yield %19 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %1 = scf.for %arg1 = %c8_i32 to %c10_i32 step %c1_i32 iter_args(%arg2 = %0) -> (f32)  : i32 {
// CHECK-NEXT: %2 = tt.addptr %arg0, %arg1 : !tt.ptr<f32>, i32
// CHECK-NEXT: %3 = tt.load %2 : !tt.ptr<f32>
// CHECK-NEXT: %4 = arith.addf %arg2, %3 : f32
// CHECK-NEXT: scf.yield %4 : f32
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.return %1 : f32
// CHECK-NEXT: }
tt.func @constant_bounds(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c10 = arith.constant 10 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %f0) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : f32
}

// -----

// 8 iterations by 2: no epilogue.
// CHECK-LABEL: tt.func @exact(%arg0: !tt.ptr<f32>) -> f32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c16_i32 = arith.constant 16 : i32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %0 = scf.for %arg1 = %c0_i32 to %c16_i32 step %c4_i32 iter_args(%arg2 = %cst) -> (f32)  : i32 {
// CHECK-NEXT: %1 = tt.addptr %arg0, %arg1 : !tt.ptr<f32>, i32
// CHECK-NEXT: %2 = tt.load %1 : !tt.ptr<f32>
// CHECK-NEXT: %3 = arith.addf %arg2, %2 : f32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %4 = arith.muli %c2_i32, %c1_i32 : i32
// CHECK-NEXT: %5 = arith.addi %arg1, %4 : i32
// CHECK-NEXT: %6 = tt.addptr %arg0, %5 : !tt.ptr<f32>, i32
// CHECK-NEXT: %7 = tt.load %6 : !tt.ptr<f32>
// CHECK-NEXT: %8 = arith.addf %3, %7 : f32
// CHECK-NEXT: scf.yield %8 : f32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %0 : f32
// CHECK-NEXT: }
tt.func @exact(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c2 = arith.constant 2 : i32
  %f0 = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %c16 step %c2 iter_args(%acc = %f0) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %r : f32
}

// -----

// Bounds known at run time: the unrolled trip count is computed.
// CHECK-LABEL: tt.func @dynamic(%arg0: !tt.ptr<f32>, %arg1: i32, %arg2: i32, %arg3: i32) -> f32 {
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %0 = arith.subi %arg2, %arg1 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %1 = arith.subi %arg3, %c1_i32 : i32
// CHECK-NEXT: %2 = arith.addi %0, %1 : i32
// CHECK-NEXT: %3 = arith.divui %2, %arg3 : i32
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %4 = arith.remsi %3, %c3_i32 : i32
// CHECK-NEXT: %5 = arith.subi %3, %4 : i32
// CHECK-NEXT: %6 = arith.muli %5, %arg3 : i32
// CHECK-NEXT: %7 = arith.addi %arg1, %6 : i32
// CHECK-NEXT: %8 = arith.muli %arg3, %c3_i32 : i32
// CHECK-NEXT: %9 = scf.for %arg4 = %arg1 to %7 step %8 iter_args(%arg5 = %cst) -> (f32)  : i32 {
// CHECK-NEXT: %11 = tt.addptr %arg0, %arg4 : !tt.ptr<f32>, i32
// CHECK-NEXT: %12 = tt.load %11 : !tt.ptr<f32>
// CHECK-NEXT: %13 = arith.addf %arg5, %12 : f32
// CHECK-NEXT: %c1_i32_0 = arith.constant 1 : i32
// CHECK-NEXT: %14 = arith.muli %arg3, %c1_i32_0 : i32
// CHECK-NEXT: %15 = arith.addi %arg4, %14 : i32
// CHECK-NEXT: %16 = tt.addptr %arg0, %15 : !tt.ptr<f32>, i32
// CHECK-NEXT: %17 = tt.load %16 : !tt.ptr<f32>
// CHECK-NEXT: %18 = arith.addf %13, %17 : f32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %19 = arith.muli %arg3, %c2_i32 : i32
// CHECK-NEXT: %20 = arith.addi %arg4, %19 : i32
// CHECK-NEXT: %21 = tt.addptr %arg0, %20 : !tt.ptr<f32>, i32
// CHECK-NEXT: %22 = tt.load %21 : !tt.ptr<f32>
// CHECK-NEXT: %23 = arith.addf %18, %22 : f32
// CHECK-NEXT: scf.yield %23 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %10 = scf.for %arg4 = %7 to %arg2 step %arg3 iter_args(%arg5 = %9) -> (f32)  : i32 {
// CHECK-NEXT: %11 = tt.addptr %arg0, %arg4 : !tt.ptr<f32>, i32
// CHECK-NEXT: %12 = tt.load %11 : !tt.ptr<f32>
// CHECK-NEXT: %13 = arith.addf %arg5, %12 : f32
// CHECK-NEXT: scf.yield %13 : f32
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.return %10 : f32
// CHECK-NEXT: }
tt.func @dynamic(%p: !tt.ptr<f32>, %lb: i32, %ub: i32, %st: i32) -> f32 {
  %f0 = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %f0) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 3 : i32}
  tt.return %r : f32
}

// -----

// A factor of 1, or none, leaves the loop (a factor of 1 is removed).
// CHECK-LABEL: tt.func @no_unroll(%arg0: !tt.ptr<f32>, %arg1: i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32  : i32 {
// CHECK-NEXT: %0 = tt.addptr %arg0, %arg2 : !tt.ptr<f32>, i32
// CHECK-NEXT: tt.store %0, %cst : !tt.ptr<f32>
// CHECK-NEXT: } {tt.loop_unroll_factor = 1 : i32}
// CHECK-NEXT: scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32  : i32 {
// CHECK-NEXT: %0 = tt.addptr %arg0, %arg2 : !tt.ptr<f32>, i32
// CHECK-NEXT: tt.store %0, %cst : !tt.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
tt.func @no_unroll(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f = arith.constant 1.000000e+00 : f32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %f : !tt.ptr<f32>
  } {tt.loop_unroll_factor = 1 : i32}
  scf.for %i = %c0 to %n step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %f : !tt.ptr<f32>
  }
  tt.return
}

// -----

// A loop without results whose body does not use the induction variable.
// CHECK-LABEL: tt.func @no_results(%arg0: !tt.ptr<f32>, %arg1: i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %0 = arith.subi %arg1, %c0_i32 : i32
// CHECK-NEXT: %c1_i32_0 = arith.constant 1 : i32
// CHECK-NEXT: %1 = arith.subi %c1_i32, %c1_i32_0 : i32
// CHECK-NEXT: %2 = arith.addi %0, %1 : i32
// CHECK-NEXT: %3 = arith.divui %2, %c1_i32 : i32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %4 = arith.remsi %3, %c2_i32 : i32
// CHECK-NEXT: %5 = arith.subi %3, %4 : i32
// CHECK-NEXT: %6 = arith.muli %5, %c1_i32 : i32
// CHECK-NEXT: %7 = arith.addi %c0_i32, %6 : i32
// CHECK-NEXT: %8 = arith.muli %c1_i32, %c2_i32 : i32
// CHECK-NEXT: scf.for %arg2 = %c0_i32 to %7 step %8  : i32 {
// CHECK-NEXT: tt.store %arg0, %cst : !tt.ptr<f32>
// CHECK-NEXT: tt.store %arg0, %cst : !tt.ptr<f32>
// CHECK-NEXT: } {tt.num_stages = 3 : i32}
// CHECK-NEXT: scf.for %arg2 = %7 to %arg1 step %c1_i32  : i32 {
// CHECK-NEXT: tt.store %arg0, %cst : !tt.ptr<f32>
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
tt.func @no_results(%p: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f = arith.constant 1.000000e+00 : f32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %f : !tt.ptr<f32>
  } {tt.loop_unroll_factor = 2 : i32, tt.num_stages = 3 : i32}
  tt.return
}

// -----

// 9 iterations by 4: the epilogue runs once and is inlined.
// CHECK-LABEL: tt.func @single_epilogue(%arg0: !tt.ptr<f32>) -> f32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c9_i32 = arith.constant 9 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %c8_i32 = arith.constant 8 : i32
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %0 = scf.for %arg1 = %c0_i32 to %c8_i32 step %c4_i32 iter_args(%arg2 = %cst) -> (f32)  : i32 {
// CHECK-NEXT: %4 = tt.addptr %arg0, %arg1 : !tt.ptr<f32>, i32
// CHECK-NEXT: %5 = tt.load %4 : !tt.ptr<f32>
// CHECK-NEXT: %6 = arith.addf %arg2, %5 : f32
// CHECK-NEXT: %c1_i32_0 = arith.constant 1 : i32
// CHECK-NEXT: %7 = arith.muli %c1_i32, %c1_i32_0 : i32
// CHECK-NEXT: %8 = arith.addi %arg1, %7 : i32
// CHECK-NEXT: %9 = tt.addptr %arg0, %8 : !tt.ptr<f32>, i32
// CHECK-NEXT: %10 = tt.load %9 : !tt.ptr<f32>
// CHECK-NEXT: %11 = arith.addf %6, %10 : f32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %12 = arith.muli %c1_i32, %c2_i32 : i32
// CHECK-NEXT: %13 = arith.addi %arg1, %12 : i32
// CHECK-NEXT: %14 = tt.addptr %arg0, %13 : !tt.ptr<f32>, i32
// CHECK-NEXT: %15 = tt.load %14 : !tt.ptr<f32>
// CHECK-NEXT: %16 = arith.addf %11, %15 : f32
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %17 = arith.muli %c1_i32, %c3_i32 : i32
// CHECK-NEXT: %18 = arith.addi %arg1, %17 : i32
// CHECK-NEXT: %19 = tt.addptr %arg0, %18 : !tt.ptr<f32>, i32
// CHECK-NEXT: %20 = tt.load %19 : !tt.ptr<f32>
// CHECK-NEXT: %21 = arith.addf %16, %20 : f32
// CHECK-NEXT: scf.yield %21 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %1 = tt.addptr %arg0, %c8_i32 : !tt.ptr<f32>, i32
// CHECK-NEXT: %2 = tt.load %1 : !tt.ptr<f32>
// CHECK-NEXT: %3 = arith.addf %0, %2 : f32
// CHECK-NEXT: tt.return %3 : f32
// CHECK-NEXT: }
tt.func @single_epilogue(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c9 = arith.constant 9 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %f0) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : f32
}

// -----

// 4 iterations by 4: the unrolled loop runs once and is inlined.
// CHECK-LABEL: tt.func @single_main(%arg0: !tt.ptr<f32>) -> f32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %c4_i32_0 = arith.constant 4 : i32
// CHECK-NEXT: %0 = tt.addptr %arg0, %c0_i32 : !tt.ptr<f32>, i32
// CHECK-NEXT: %1 = tt.load %0 : !tt.ptr<f32>
// CHECK-NEXT: %2 = arith.addf %cst, %1 : f32
// CHECK-NEXT: %c1_i32_1 = arith.constant 1 : i32
// CHECK-NEXT: %3 = arith.muli %c1_i32, %c1_i32_1 : i32
// CHECK-NEXT: %4 = arith.addi %c0_i32, %3 : i32
// CHECK-NEXT: %5 = tt.addptr %arg0, %4 : !tt.ptr<f32>, i32
// CHECK-NEXT: %6 = tt.load %5 : !tt.ptr<f32>
// CHECK-NEXT: %7 = arith.addf %2, %6 : f32
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %8 = arith.muli %c1_i32, %c2_i32 : i32
// CHECK-NEXT: %9 = arith.addi %c0_i32, %8 : i32
// CHECK-NEXT: %10 = tt.addptr %arg0, %9 : !tt.ptr<f32>, i32
// CHECK-NEXT: %11 = tt.load %10 : !tt.ptr<f32>
// CHECK-NEXT: %12 = arith.addf %7, %11 : f32
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %13 = arith.muli %c1_i32, %c3_i32 : i32
// CHECK-NEXT: %14 = arith.addi %c0_i32, %13 : i32
// CHECK-NEXT: %15 = tt.addptr %arg0, %14 : !tt.ptr<f32>, i32
// CHECK-NEXT: %16 = tt.load %15 : !tt.ptr<f32>
// CHECK-NEXT: %17 = arith.addf %12, %16 : f32
// CHECK-NEXT: tt.return %17 : f32
// CHECK-NEXT: }
tt.func @single_main(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %f0) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : f32
}

// -----

// 3 iterations by 4: no unrolled iteration at all.
// CHECK-LABEL: tt.func @too_few(%arg0: !tt.ptr<f32>) -> f32 {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c3_i32 = arith.constant 3 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %c0_i32_0 = arith.constant 0 : i32
// CHECK-NEXT: %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT: %0 = scf.for %arg1 = %c0_i32_0 to %c3_i32 step %c1_i32 iter_args(%arg2 = %cst) -> (f32)  : i32 {
// CHECK-NEXT: %1 = tt.addptr %arg0, %arg1 : !tt.ptr<f32>, i32
// CHECK-NEXT: %2 = tt.load %1 : !tt.ptr<f32>
// CHECK-NEXT: %3 = arith.addf %arg2, %2 : f32
// CHECK-NEXT: scf.yield %3 : f32
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.return %0 : f32
// CHECK-NEXT: }
tt.func @too_few(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %f0) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %v = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : f32
}

// -----

// An inner loop unrolled inside an outer one; values of the body nested in
// an scf.if are cloned with it.
// CHECK-LABEL: tt.func @nested(%arg0: !tt.ptr<f32>, %arg1: i32, %arg2: i1) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c6_i32 = arith.constant 6 : i32
// CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: scf.for %arg3 = %c0_i32 to %arg1 step %c1_i32  : i32 {
// CHECK-NEXT: %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT: %0 = scf.for %arg4 = %c0_i32 to %c6_i32 step %c2_i32 iter_args(%arg5 = %cst) -> (f32)  : i32 {
// CHECK-NEXT: %2 = arith.addi %arg3, %arg4 : i32
// CHECK-NEXT: %3 = scf.if %arg2 -> (f32) {
// CHECK-NEXT: %10 = tt.addptr %arg0, %2 : !tt.ptr<f32>, i32
// CHECK-NEXT: %11 = tt.load %10 : !tt.ptr<f32>
// CHECK-NEXT: scf.yield %11 : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg5 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %4 = arith.mulf %arg5, %3 : f32
// CHECK-NEXT: %c1_i32_0 = arith.constant 1 : i32
// CHECK-NEXT: %5 = arith.muli %c1_i32, %c1_i32_0 : i32
// CHECK-NEXT: %6 = arith.addi %arg4, %5 : i32
// CHECK-NEXT: %7 = arith.addi %arg3, %6 : i32
// CHECK-NEXT: %8 = scf.if %arg2 -> (f32) {
// CHECK-NEXT: %10 = tt.addptr %arg0, %7 : !tt.ptr<f32>, i32
// CHECK-NEXT: %11 = tt.load %10 : !tt.ptr<f32>
// CHECK-NEXT: scf.yield %11 : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %4 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %9 = arith.mulf %4, %8 : f32
// CHECK-NEXT: scf.yield %9 : f32
// CHECK-NEXT: }
// CHECK-NEXT: %1 = tt.addptr %arg0, %arg3 : !tt.ptr<f32>, i32
// CHECK-NEXT: tt.store %1, %0 : !tt.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
tt.func @nested(%p: !tt.ptr<f32>, %n: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  %f = arith.constant 1.000000e+00 : f32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %r = scf.for %j = %c0 to %c6 step %c1 iter_args(%acc = %f) -> (f32) : i32 {
      %k = arith.addi %i, %j : i32
      %v = scf.if %c -> (f32) {
        %q = tt.addptr %p, %k : !tt.ptr<f32>, i32
        %l = tt.load %q : !tt.ptr<f32>
        scf.yield %l : f32
      } else {
        scf.yield %acc : f32
      }
      %s = arith.mulf %acc, %v : f32
      scf.yield %s : f32
    } {tt.loop_unroll_factor = 2 : i32}
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %r : !tt.ptr<f32>
  }
  tt.return
}
