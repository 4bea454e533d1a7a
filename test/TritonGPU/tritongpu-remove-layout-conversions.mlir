// RUN: tt-opt %s -split-input-file --tritongpu-remove-layout-conversions | FileCheck %s
//
// Expected outputs are upstream Triton 3.6's (libtriton) on the same inputs.

// Forward propagation from an expensive load through elementwise ops, a
// reduction, expand_dims and broadcast: everything takes the load's layout.
// CHECK-DAG: [[$C0_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @forward_through_reduce(
// CHECK-SAME: %arg0: tensor<64x64x!tt.ptr<f32>, [[$C0_BLOCKED]]>, %arg1: tensor<64x64x!tt.ptr<f32>, [[$C0_BLOCKED]]>) {
// CHECK-NEXT: %0 = tt.load %arg0 : tensor<64x64x!tt.ptr<f32>, [[$C0_BLOCKED]]>
// CHECK-NEXT: %1 = math.exp2 %0 : tensor<64x64xf32, [[$C0_BLOCKED]]>
// CHECK-NEXT: %2 = "tt.reduce"(%1) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg2: f32, %arg3: f32):
// CHECK-NEXT: %6 = arith.addf %arg2, %arg3 : f32
// CHECK-NEXT: tt.reduce.return %6 : f32
// CHECK-NEXT: }) : (tensor<64x64xf32, [[$C0_BLOCKED]]>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = [[$C0_BLOCKED]]}>>
// CHECK-NEXT: %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = [[$C0_BLOCKED]]}>> -> tensor<64x1xf32, [[$C0_BLOCKED]]>
// CHECK-NEXT: %4 = tt.broadcast %3 : tensor<64x1xf32, [[$C0_BLOCKED]]> -> tensor<64x64xf32, [[$C0_BLOCKED]]>
// CHECK-NEXT: %5 = arith.divf %1, %4 : tensor<64x64xf32, [[$C0_BLOCKED]]>
// CHECK-NEXT: tt.store %arg1, %5 : tensor<64x64x!tt.ptr<f32>, [[$C0_BLOCKED]]>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @forward_through_reduce(%in: tensor<64x64x!tt.ptr<f32>, #row>, %out: tensor<64x64x!tt.ptr<f32>, #row>) {
    %x = tt.load %in : tensor<64x64x!tt.ptr<f32>, #row>
    %c = ttg.convert_layout %x : tensor<64x64xf32, #row> -> tensor<64x64xf32, #col>
    %e = math.exp2 %c : tensor<64x64xf32, #col>
    %s = "tt.reduce"(%e) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.addf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<64x64xf32, #col>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #col}>>
    %d = tt.expand_dims %s {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<64x1xf32, #col>
    %b = tt.broadcast %d : tensor<64x1xf32, #col> -> tensor<64x64xf32, #col>
    %q = arith.divf %e, %b : tensor<64x64xf32, #col>
    %r = ttg.convert_layout %q : tensor<64x64xf32, #col> -> tensor<64x64xf32, #row>
    tt.store %out, %r : tensor<64x64x!tt.ptr<f32>, #row>
    tt.return
  }
}

// -----

// A loop-carried accumulator takes the layout of the values added to it.
// CHECK-DAG: [[$C1_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @loop_carried(
// CHECK-SAME: %arg0: tensor<1024x!tt.ptr<f32>, [[$C1_BLOCKED]]>, %arg1: tensor<1024x!tt.ptr<f32>, [[$C1_BLOCKED]]>, %arg2: i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32, [[$C1_BLOCKED]]>
// CHECK-NEXT: %0 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %cst) -> (tensor<1024xf32, [[$C1_BLOCKED]]>)  : i32 {
// CHECK-NEXT: %1 = tt.load %arg0 : tensor<1024x!tt.ptr<f32>, [[$C1_BLOCKED]]>
// CHECK-NEXT: %2 = arith.addf %arg4, %1 : tensor<1024xf32, [[$C1_BLOCKED]]>
// CHECK-NEXT: scf.yield %2 : tensor<1024xf32, [[$C1_BLOCKED]]>
// CHECK-NEXT: }
// CHECK-NEXT: tt.store %arg1, %0 : tensor<1024x!tt.ptr<f32>, [[$C1_BLOCKED]]>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_carried(%in: tensor<1024x!tt.ptr<f32>, #a>, %out: tensor<1024x!tt.ptr<f32>, #a>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #b>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero) -> (tensor<1024xf32, #b>) : i32 {
      %x = tt.load %in : tensor<1024x!tt.ptr<f32>, #a>
      %y = ttg.convert_layout %x : tensor<1024xf32, #a> -> tensor<1024xf32, #b>
      %z = arith.addf %sum, %y : tensor<1024xf32, #b>
      scf.yield %z : tensor<1024xf32, #b>
    }
    %r = ttg.convert_layout %acc : tensor<1024xf32, #b> -> tensor<1024xf32, #a>
    tt.store %out, %r : tensor<1024x!tt.ptr<f32>, #a>
    tt.return
  }
}

// -----

// Both branches of an scf.if yield values computed from the load: the if
// result takes the load's layout.
// CHECK-DAG: [[$C2_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @if_branches(
// CHECK-SAME: %arg0: tensor<1024x!tt.ptr<f32>, [[$C2_BLOCKED]]>, %arg1: tensor<1024x!tt.ptr<f32>, [[$C2_BLOCKED]]>, %arg2: i1) {
// CHECK-NEXT: %0 = tt.load %arg0 : tensor<1024x!tt.ptr<f32>, [[$C2_BLOCKED]]>
// CHECK-NEXT: %1 = scf.if %arg2 -> (tensor<1024xf32, [[$C2_BLOCKED]]>) {
// CHECK-NEXT: %2 = math.exp %0 : tensor<1024xf32, [[$C2_BLOCKED]]>
// CHECK-NEXT: scf.yield %2 : tensor<1024xf32, [[$C2_BLOCKED]]>
// CHECK-NEXT: } else {
// CHECK-NEXT: %2 = arith.negf %0 : tensor<1024xf32, [[$C2_BLOCKED]]>
// CHECK-NEXT: scf.yield %2 : tensor<1024xf32, [[$C2_BLOCKED]]>
// CHECK-NEXT: }
// CHECK-NEXT: tt.store %arg1, %1 : tensor<1024x!tt.ptr<f32>, [[$C2_BLOCKED]]>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @if_branches(%in: tensor<1024x!tt.ptr<f32>, #a>, %out: tensor<1024x!tt.ptr<f32>, #a>, %cond: i1) {
    %x = tt.load %in : tensor<1024x!tt.ptr<f32>, #a>
    %y = ttg.convert_layout %x : tensor<1024xf32, #a> -> tensor<1024xf32, #b>
    %r = scf.if %cond -> (tensor<1024xf32, #b>) {
      %e = math.exp %y : tensor<1024xf32, #b>
      scf.yield %e : tensor<1024xf32, #b>
    } else {
      %n = arith.negf %y : tensor<1024xf32, #b>
      scf.yield %n : tensor<1024xf32, #b>
    }
    %s = ttg.convert_layout %r : tensor<1024xf32, #b> -> tensor<1024xf32, #a>
    tt.store %out, %s : tensor<1024x!tt.ptr<f32>, #a>
    tt.return
  }
}

// -----

// Backward rematerialisation: the offsets feeding a store are cheap to
// recompute in the store's layout, so the conversion goes.
// CHECK-DAG: [[$C3_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @rematerialize_offsets(
// CHECK-SAME: %arg0: !tt.ptr<f32>, %arg1: tensor<1024xf32, [[$C3_BLOCKED]]>, %arg2: i32) {
// CHECK-NEXT: %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, [[$C3_BLOCKED]]>
// CHECK-NEXT: %1 = tt.splat %arg2 : i32 -> tensor<1024xi32, [[$C3_BLOCKED]]>
// CHECK-NEXT: %2 = arith.addi %1, %0 : tensor<1024xi32, [[$C3_BLOCKED]]>
// CHECK-NEXT: %3 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, [[$C3_BLOCKED]]>
// CHECK-NEXT: %4 = tt.addptr %3, %2 : tensor<1024x!tt.ptr<f32>, [[$C3_BLOCKED]]>, tensor<1024xi32, [[$C3_BLOCKED]]>
// CHECK-NEXT: tt.store %4, %arg1 : tensor<1024x!tt.ptr<f32>, [[$C3_BLOCKED]]>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @rematerialize_offsets(%base: !tt.ptr<f32>, %v: tensor<1024xf32, #a>, %start: i32) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %s = tt.splat %start : i32 -> tensor<1024xi32, #b>
    %offsets = arith.addi %s, %range : tensor<1024xi32, #b>
    %p = tt.splat %base : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %p, %offsets : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %c = ttg.convert_layout %ptrs : tensor<1024x!tt.ptr<f32>, #b> -> tensor<1024x!tt.ptr<f32>, #a>
    tt.store %c, %v : tensor<1024x!tt.ptr<f32>, #a>
    tt.return
  }
}

// -----

// The conversion of a widened value moves before the widening cast, where
// the data is half the size.
// CHECK-DAG: [[$C4_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$C4_BLOCKED1:#[^ ]+]] = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @hoist_over_extf(
// CHECK-SAME: %arg0: tensor<64x64x!tt.ptr<f16>, [[$C4_BLOCKED]]>, %arg1: tensor<64x64x!tt.ptr<f32>, [[$C4_BLOCKED1]]>) {
// CHECK-NEXT: %0 = tt.load %arg0 : tensor<64x64x!tt.ptr<f16>, [[$C4_BLOCKED]]>
// CHECK-NEXT: %1 = ttg.convert_layout %0 : tensor<64x64xf16, [[$C4_BLOCKED]]> -> tensor<64x64xf16, [[$C4_BLOCKED1]]>
// CHECK-NEXT: %2 = arith.extf %1 : tensor<64x64xf16, [[$C4_BLOCKED1]]> to tensor<64x64xf32, [[$C4_BLOCKED1]]>
// CHECK-NEXT: tt.store %arg1, %2 : tensor<64x64x!tt.ptr<f32>, [[$C4_BLOCKED1]]>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_over_extf(%in: tensor<64x64x!tt.ptr<f16>, #a>, %out: tensor<64x64x!tt.ptr<f32>, #b>) {
    %x = tt.load %in : tensor<64x64x!tt.ptr<f16>, #a>
    %y = arith.extf %x : tensor<64x64xf16, #a> to tensor<64x64xf32, #a>
    %z = ttg.convert_layout %y : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    tt.store %out, %z : tensor<64x64x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// A conversion to a dot operand moves up to the load it comes from, across
// the elementwise cast, so that the pipeliner finds it next to the load.
// CHECK-DAG: [[$C5_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$C5_MMA:#[^ ]+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @dot_operand_next_to_load(
// CHECK-SAME: %arg0: tensor<64x32x!tt.ptr<f8E5M2>, [[$C5_BLOCKED]]>, %arg1: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = [[$C5_MMA]], kWidth = 2}>>, %arg2: i32) -> tensor<64x64xf32, [[$C5_MMA]]> {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, [[$C5_MMA]]>
// CHECK-NEXT: %0 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %cst) -> (tensor<64x64xf32, [[$C5_MMA]]>)  : i32 {
// CHECK-NEXT: %1 = tt.load %arg0 : tensor<64x32x!tt.ptr<f8E5M2>, [[$C5_BLOCKED]]>
// CHECK-NEXT: %2 = ttg.convert_layout %1 : tensor<64x32xf8E5M2, [[$C5_BLOCKED]]> -> tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = [[$C5_MMA]], kWidth = 2}>>
// CHECK-NEXT: %3 = tt.fp_to_fp %2 : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = [[$C5_MMA]], kWidth = 2}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = [[$C5_MMA]], kWidth = 2}>>
// CHECK-NEXT: %4 = tt.dot %3, %arg1, %arg4 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = [[$C5_MMA]], kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = [[$C5_MMA]], kWidth = 2}>> -> tensor<64x64xf32, [[$C5_MMA]]>
// CHECK-NEXT: scf.yield %4 : tensor<64x64xf32, [[$C5_MMA]]>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %0 : tensor<64x64xf32, [[$C5_MMA]]>
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_operand_next_to_load(%a_ptrs: tensor<64x32x!tt.ptr<f8E5M2>, #blocked>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a8 = tt.load %a_ptrs : tensor<64x32x!tt.ptr<f8E5M2>, #blocked>
      %a16 = tt.fp_to_fp %a8 : tensor<64x32xf8E5M2, #blocked> -> tensor<64x32xf16, #blocked>
      %a = ttg.convert_layout %a16 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %a, %b, %sum : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

// -----

// The dot's MMA layout wins over the blocked one where both reach a value,
// and the elementwise epilogue is computed in it.
// CHECK-DAG: [[$C6_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$C6_MMA:#[^ ]+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @dot_epilogue(
// CHECK-SAME: %arg0: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = [[$C6_MMA]], kWidth = 2}>>, %arg1: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = [[$C6_MMA]], kWidth = 2}>>, %arg2: tensor<64x64xf32, [[$C6_BLOCKED]]>, %arg3: tensor<64x64x!tt.ptr<f16>, [[$C6_BLOCKED]]>) {
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, [[$C6_MMA]]>
// CHECK-NEXT: %0 = ttg.convert_layout %arg2 : tensor<64x64xf32, [[$C6_BLOCKED]]> -> tensor<64x64xf32, [[$C6_MMA]]>
// CHECK-NEXT: %1 = tt.dot %arg0, %arg1, %cst : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = [[$C6_MMA]], kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = [[$C6_MMA]], kWidth = 2}>> -> tensor<64x64xf32, [[$C6_MMA]]>
// CHECK-NEXT: %2 = arith.addf %1, %0 : tensor<64x64xf32, [[$C6_MMA]]>
// CHECK-NEXT: %3 = arith.truncf %2 : tensor<64x64xf32, [[$C6_MMA]]> to tensor<64x64xf16, [[$C6_MMA]]>
// CHECK-NEXT: %4 = ttg.convert_layout %3 : tensor<64x64xf16, [[$C6_MMA]]> -> tensor<64x64xf16, [[$C6_BLOCKED]]>
// CHECK-NEXT: tt.store %arg3, %4 : tensor<64x64x!tt.ptr<f16>, [[$C6_BLOCKED]]>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_epilogue(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %bias: tensor<64x64xf32, #blocked>, %out: tensor<64x64x!tt.ptr<f16>, #blocked>) {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %d = tt.dot %a, %b, %zero : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %c = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %s = arith.addf %c, %bias : tensor<64x64xf32, #blocked>
    %h = arith.truncf %s : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tt.store %out, %h : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Layouts go through tt.trans (a permuted blocked layout) and a reshape
// without reordering (a linear layout where no blocked one fits).
// CHECK-DAG: [[$C7_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: [[$C7_BLOCKED1:#[^ ]+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: [[$C7_BLOCKED2:#[^ ]+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: [[$C7_BLOCKED3:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: [[$C7_LINEAR:#[^ ]+]] = #ttg.linear<{register = {{\[\[}}1], [2], [16], [1024]], lane = {{\[\[}}4], [8], [32], [64], [128]], warp = {{\[\[}}256], [512]], block = []}>
// CHECK-LABEL: tt.func @trans_and_reshape(
// CHECK-SAME: %arg0: tensor<64x32x!tt.ptr<f32>, [[$C7_BLOCKED]]>) -> (tensor<32x64xf32, [[$C7_BLOCKED1]]>, tensor<2048xf32, [[$C7_BLOCKED2]]>) {
// CHECK-NEXT: %0 = tt.load %arg0 : tensor<64x32x!tt.ptr<f32>, [[$C7_BLOCKED]]>
// CHECK-NEXT: %1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<64x32xf32, [[$C7_BLOCKED]]> -> tensor<32x64xf32, [[$C7_BLOCKED3]]>
// CHECK-NEXT: %2 = arith.negf %1 : tensor<32x64xf32, [[$C7_BLOCKED3]]>
// CHECK-NEXT: %3 = ttg.convert_layout %2 : tensor<32x64xf32, [[$C7_BLOCKED3]]> -> tensor<32x64xf32, [[$C7_BLOCKED1]]>
// CHECK-NEXT: %4 = tt.reshape %0 : tensor<64x32xf32, [[$C7_BLOCKED]]> -> tensor<2048xf32, [[$C7_LINEAR]]>
// CHECK-NEXT: %5 = ttg.convert_layout %4 : tensor<2048xf32, [[$C7_LINEAR]]> -> tensor<2048xf32, [[$C7_BLOCKED2]]>
// CHECK-NEXT: tt.return %3, %5 : tensor<32x64xf32, [[$C7_BLOCKED1]]>, tensor<2048xf32, [[$C7_BLOCKED2]]>
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#d2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#t2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#d1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_and_reshape(%in: tensor<64x32x!tt.ptr<f32>, #a>) -> (tensor<32x64xf32, #t2>, tensor<2048xf32, #d1>) {
    %x = tt.load %in : tensor<64x32x!tt.ptr<f32>, #a>
    %y = ttg.convert_layout %x : tensor<64x32xf32, #a> -> tensor<64x32xf32, #d2>
    %t = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x32xf32, #d2> -> tensor<32x64xf32, #t2>
    %n = arith.negf %t : tensor<32x64xf32, #t2>
    %r = tt.reshape %y : tensor<64x32xf32, #d2> -> tensor<2048xf32, #d1>
    tt.return %n, %r : tensor<32x64xf32, #t2>, tensor<2048xf32, #d1>
  }
}

// -----

// join and split infer their layouts from each other's.
// CHECK-DAG: [[$C8_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: [[$C8_BLOCKED1:#[^ ]+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: [[$C8_BLOCKED2:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @join_split(
// CHECK-SAME: %arg0: tensor<512x!tt.ptr<f32>, [[$C8_BLOCKED]]>, %arg1: tensor<512x!tt.ptr<f32>, [[$C8_BLOCKED]]>) -> (tensor<512xf32, [[$C8_BLOCKED1]]>, tensor<512xf32, [[$C8_BLOCKED1]]>) {
// CHECK-NEXT: %0 = tt.load %arg0 : tensor<512x!tt.ptr<f32>, [[$C8_BLOCKED]]>
// CHECK-NEXT: %1 = tt.load %arg1 : tensor<512x!tt.ptr<f32>, [[$C8_BLOCKED]]>
// CHECK-NEXT: %2 = tt.join %0, %1 : tensor<512xf32, [[$C8_BLOCKED]]> -> tensor<512x2xf32, [[$C8_BLOCKED2]]>
// CHECK-NEXT: %3 = arith.mulf %2, %2 : tensor<512x2xf32, [[$C8_BLOCKED2]]>
// CHECK-NEXT: %outLHS, %outRHS = tt.split %3 : tensor<512x2xf32, [[$C8_BLOCKED2]]> -> tensor<512xf32, [[$C8_BLOCKED]]>
// CHECK-NEXT: %4 = ttg.convert_layout %outRHS : tensor<512xf32, [[$C8_BLOCKED]]> -> tensor<512xf32, [[$C8_BLOCKED1]]>
// CHECK-NEXT: %5 = ttg.convert_layout %outLHS : tensor<512xf32, [[$C8_BLOCKED]]> -> tensor<512xf32, [[$C8_BLOCKED1]]>
// CHECK-NEXT: tt.return %5, %4 : tensor<512xf32, [[$C8_BLOCKED1]]>, tensor<512xf32, [[$C8_BLOCKED1]]>
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#j = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_split(%p: tensor<512x!tt.ptr<f32>, #a>, %q: tensor<512x!tt.ptr<f32>, #a>) -> (tensor<512xf32, #b>, tensor<512xf32, #b>) {
    %x = tt.load %p : tensor<512x!tt.ptr<f32>, #a>
    %y = tt.load %q : tensor<512x!tt.ptr<f32>, #a>
    %xb = ttg.convert_layout %x : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %yb = ttg.convert_layout %y : tensor<512xf32, #a> -> tensor<512xf32, #b>
    %j = tt.join %xb, %yb : tensor<512xf32, #b> -> tensor<512x2xf32, #j>
    %m = arith.mulf %j, %j : tensor<512x2xf32, #j>
    %l, %h = tt.split %m : tensor<512x2xf32, #j> -> tensor<512xf32, #b>
    tt.return %l, %h : tensor<512xf32, #b>, tensor<512xf32, #b>
  }
}

// -----

// An scf.while carries the layout through its before and after regions.
// CHECK-DAG: [[$C9_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @while_loop(
// CHECK-SAME: %arg0: tensor<1024x!tt.ptr<f32>, [[$C9_BLOCKED]]>, %arg1: tensor<1024x!tt.ptr<f32>, [[$C9_BLOCKED]]>, %arg2: f32) {
// CHECK-NEXT: %0 = tt.load %arg0 : tensor<1024x!tt.ptr<f32>, [[$C9_BLOCKED]]>
// CHECK-NEXT: %1 = scf.while (%arg3 = %0) : (tensor<1024xf32, [[$C9_BLOCKED]]>) -> tensor<1024xf32, [[$C9_BLOCKED]]> {
// CHECK-NEXT: %2 = "tt.reduce"(%arg3) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0(%arg4: f32, %arg5: f32):
// CHECK-NEXT: %4 = arith.maxnumf %arg4, %arg5 : f32
// CHECK-NEXT: tt.reduce.return %4 : f32
// CHECK-NEXT: }) : (tensor<1024xf32, [[$C9_BLOCKED]]>) -> f32
// CHECK-NEXT: %3 = arith.cmpf olt, %2, %arg2 : f32
// CHECK-NEXT: scf.condition(%3) %arg3 : tensor<1024xf32, [[$C9_BLOCKED]]>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%arg3: tensor<1024xf32, [[$C9_BLOCKED]]>):
// CHECK-NEXT: %2 = arith.addf %arg3, %arg3 : tensor<1024xf32, [[$C9_BLOCKED]]>
// CHECK-NEXT: scf.yield %2 : tensor<1024xf32, [[$C9_BLOCKED]]>
// CHECK-NEXT: }
// CHECK-NEXT: tt.store %arg1, %1 : tensor<1024x!tt.ptr<f32>, [[$C9_BLOCKED]]>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @while_loop(%in: tensor<1024x!tt.ptr<f32>, #a>, %out: tensor<1024x!tt.ptr<f32>, #a>, %limit: f32) {
    %x = tt.load %in : tensor<1024x!tt.ptr<f32>, #a>
    %y = ttg.convert_layout %x : tensor<1024xf32, #a> -> tensor<1024xf32, #b>
    %r = scf.while (%v = %y) : (tensor<1024xf32, #b>) -> tensor<1024xf32, #b> {
      %m = "tt.reduce"(%v) <{axis = 0 : i32}> ({
      ^bb0(%l: f32, %h: f32):
        %mx = arith.maxnumf %l, %h : f32
        tt.reduce.return %mx : f32
      }) : (tensor<1024xf32, #b>) -> f32
      %go = arith.cmpf olt, %m, %limit : f32
      scf.condition(%go) %v : tensor<1024xf32, #b>
    } do {
    ^bb0(%w: tensor<1024xf32, #b>):
      %d = arith.addf %w, %w : tensor<1024xf32, #b>
      scf.yield %d : tensor<1024xf32, #b>
    }
    %s = ttg.convert_layout %r : tensor<1024xf32, #b> -> tensor<1024xf32, #a>
    tt.store %out, %s : tensor<1024x!tt.ptr<f32>, #a>
    tt.return
  }
}

// -----

// Inside a loop, only the branch that loads needs a conversion: it moves
// into that branch.
// CHECK-DAG: [[$C10_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: [[$C10_BLOCKED1:#[^ ]+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @hoist_into_branch(
// CHECK-SAME: %arg0: tensor<1024x!tt.ptr<f32>, [[$C10_BLOCKED]]>, %arg1: tensor<1024x!tt.ptr<f32>, [[$C10_BLOCKED1]]>, %arg2: i32, %arg3: i32) {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32, [[$C10_BLOCKED1]]>
// CHECK-NEXT: scf.for %arg4 = %c0_i32 to %arg2 step %c1_i32  : i32 {
// CHECK-NEXT: %0 = arith.cmpi slt, %arg4, %arg3 : i32
// CHECK-NEXT: %1 = scf.if %0 -> (tensor<1024xf32, [[$C10_BLOCKED1]]>) {
// CHECK-NEXT: %3 = tt.load %arg0 : tensor<1024x!tt.ptr<f32>, [[$C10_BLOCKED]]>
// CHECK-NEXT: %4 = ttg.convert_layout %3 : tensor<1024xf32, [[$C10_BLOCKED]]> -> tensor<1024xf32, [[$C10_BLOCKED1]]>
// CHECK-NEXT: scf.yield %4 : tensor<1024xf32, [[$C10_BLOCKED1]]>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %cst : tensor<1024xf32, [[$C10_BLOCKED1]]>
// CHECK-NEXT: }
// CHECK-NEXT: %2 = math.exp %1 : tensor<1024xf32, [[$C10_BLOCKED1]]>
// CHECK-NEXT: tt.store %arg1, %2 : tensor<1024x!tt.ptr<f32>, [[$C10_BLOCKED1]]>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hoist_into_branch(%in: tensor<1024x!tt.ptr<f32>, #a>, %out: tensor<1024x!tt.ptr<f32>, #b>, %n: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #a>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %take = arith.cmpi slt, %i, %k : i32
      %v = scf.if %take -> (tensor<1024xf32, #a>) {
        %x = tt.load %in : tensor<1024x!tt.ptr<f32>, #a>
        scf.yield %x : tensor<1024xf32, #a>
      } else {
        scf.yield %zero : tensor<1024xf32, #a>
      }
      %e = math.exp %v : tensor<1024xf32, #a>
      %c = ttg.convert_layout %e : tensor<1024xf32, #a> -> tensor<1024xf32, #b>
      tt.store %out, %c : tensor<1024x!tt.ptr<f32>, #b>
    }
    tt.return
  }
}

// -----

// Rematerialisation through a loop: the loop-carried pointers are recomputed
// in the load's layout (a new iter_arg replaces the old one).
// CHECK-DAG: [[$C11_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @remat_loop_pointer(
// CHECK-SAME: %arg0: !tt.ptr<f32>, %arg1: tensor<1024x!tt.ptr<f32>, [[$C11_BLOCKED]]>, %arg2: i32) {
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32, [[$C11_BLOCKED]]>
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %cst_0 = arith.constant dense<1024> : tensor<1024xi32, [[$C11_BLOCKED]]>
// CHECK-NEXT: %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, [[$C11_BLOCKED]]>
// CHECK-NEXT: %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, [[$C11_BLOCKED]]>
// CHECK-NEXT: %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<f32>, [[$C11_BLOCKED]]>, tensor<1024xi32, [[$C11_BLOCKED]]>
// CHECK-NEXT: %3:2 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %cst, %arg5 = %2) -> (tensor<1024xf32, [[$C11_BLOCKED]]>, tensor<1024x!tt.ptr<f32>, [[$C11_BLOCKED]]>)  : i32 {
// CHECK-NEXT: %4 = tt.load %arg5 : tensor<1024x!tt.ptr<f32>, [[$C11_BLOCKED]]>
// CHECK-NEXT: %5 = arith.addf %arg4, %4 : tensor<1024xf32, [[$C11_BLOCKED]]>
// CHECK-NEXT: %6 = tt.addptr %arg5, %cst_0 : tensor<1024x!tt.ptr<f32>, [[$C11_BLOCKED]]>, tensor<1024xi32, [[$C11_BLOCKED]]>
// CHECK-NEXT: scf.yield %5, %6 : tensor<1024xf32, [[$C11_BLOCKED]]>, tensor<1024x!tt.ptr<f32>, [[$C11_BLOCKED]]>
// CHECK-NEXT: }
// CHECK-NEXT: tt.store %arg1, %3#0 : tensor<1024x!tt.ptr<f32>, [[$C11_BLOCKED]]>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @remat_loop_pointer(%base: !tt.ptr<f32>, %out: tensor<1024x!tt.ptr<f32>, #a>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<1024> : tensor<1024xi32, #b>
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %p = tt.splat %base : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %p, %range : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #a>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%q = %ptrs, %acc = %zero) -> (tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xf32, #a>) : i32 {
      %qa = ttg.convert_layout %q : tensor<1024x!tt.ptr<f32>, #b> -> tensor<1024x!tt.ptr<f32>, #a>
      %x = tt.load %qa : tensor<1024x!tt.ptr<f32>, #a>
      %s = arith.addf %acc, %x : tensor<1024xf32, #a>
      %next = tt.addptr %q, %step : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
      scf.yield %next, %s : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xf32, #a>
    }
    tt.store %out, %r#1 : tensor<1024x!tt.ptr<f32>, #a>
    tt.return
  }
}

// -----

// Rematerialisation through an scf.if: both branches yield offsets in the
// store's layout.
// CHECK-DAG: [[$C12_BLOCKED:#[^ ]+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @remat_through_if(
// CHECK-SAME: %arg0: !tt.ptr<f32>, %arg1: tensor<1024xf32, [[$C12_BLOCKED]]>, %arg2: i1, %arg3: i32) {
// CHECK-NEXT: %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, [[$C12_BLOCKED]]>
// CHECK-NEXT: %1 = scf.if %arg2 -> (tensor<1024xi32, [[$C12_BLOCKED]]>) {
// CHECK-NEXT: %4 = tt.splat %arg3 : i32 -> tensor<1024xi32, [[$C12_BLOCKED]]>
// CHECK-NEXT: %5 = arith.addi %0, %4 : tensor<1024xi32, [[$C12_BLOCKED]]>
// CHECK-NEXT: scf.yield %5 : tensor<1024xi32, [[$C12_BLOCKED]]>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %0 : tensor<1024xi32, [[$C12_BLOCKED]]>
// CHECK-NEXT: }
// CHECK-NEXT: %2 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, [[$C12_BLOCKED]]>
// CHECK-NEXT: %3 = tt.addptr %2, %1 : tensor<1024x!tt.ptr<f32>, [[$C12_BLOCKED]]>, tensor<1024xi32, [[$C12_BLOCKED]]>
// CHECK-NEXT: tt.store %3, %arg1 : tensor<1024x!tt.ptr<f32>, [[$C12_BLOCKED]]>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @remat_through_if(%base: !tt.ptr<f32>, %v: tensor<1024xf32, #a>, %c: i1, %o: i32) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %off = scf.if %c -> (tensor<1024xi32, #b>) {
      %s = tt.splat %o : i32 -> tensor<1024xi32, #b>
      %t = arith.addi %range, %s : tensor<1024xi32, #b>
      scf.yield %t : tensor<1024xi32, #b>
    } else {
      scf.yield %range : tensor<1024xi32, #b>
    }
    %p = tt.splat %base : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %p, %off : tensor<1024x!tt.ptr<f32>, #b>, tensor<1024xi32, #b>
    %pa = ttg.convert_layout %ptrs : tensor<1024x!tt.ptr<f32>, #b> -> tensor<1024x!tt.ptr<f32>, #a>
    tt.store %pa, %v : tensor<1024x!tt.ptr<f32>, #a>
    tt.return
  }
}

// -----

// The clean-ups run only the conversions' patterns (and folds), as
// upstream: a load's all-true mask and its other value stay.
// CHECK-LABEL: tt.func @masks_left_alone
// CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f32>, #blocked>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @masks_left_alone(%p: tensor<64x!tt.ptr<f32>, #b4>, %q: tensor<64x!tt.ptr<f32>, #b4>) {
    %all = arith.constant dense<true> : tensor<64xi1, #b1>
    %zero = arith.constant dense<0.000000e+00> : tensor<64xf32, #b1>
    %pp = ttg.convert_layout %p : tensor<64x!tt.ptr<f32>, #b4> -> tensor<64x!tt.ptr<f32>, #b1>
    %v = tt.load %pp, %all, %zero : tensor<64x!tt.ptr<f32>, #b1>
    %w = ttg.convert_layout %v : tensor<64xf32, #b1> -> tensor<64xf32, #b4>
    tt.store %q, %w : tensor<64x!tt.ptr<f32>, #b4>
    tt.return
  }
}
