// RUN: tt-opt %s -split-input-file --tritongpu-schedule-loops | FileCheck %s

// The CHECK lines are upstream Triton 3.6's output for these inputs (its pass run
// through libtriton, printed by tt-opt).

// Loads of latency 2 in stage 0, the dot and what follows in stage 2; the
// pointer increments they need from the previous iteration go to stage 1, in
// a cluster before the loads'.
// CHECK-LABEL: tt.func @matmul
// CHECK: %11 = tt.load %arg4 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>
// CHECK: %12 = ttg.convert_layout %11 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %13 = tt.load %arg5 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1>
// CHECK: %14 = ttg.convert_layout %13 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %15 = tt.dot %12, %14, %arg6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
// CHECK: %16 = tt.addptr %arg4, %cst_0 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
// CHECK: %17 = tt.addptr %arg5, %cst_1 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
// CHECK: } {tt.scheduled_max_stage = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @matmul(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32) -> tensor<64x64xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %cst_0 = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %cst_1 = arith.constant dense<2048> : tensor<32x64xi32, #blocked1>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %2 = tt.broadcast %1 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %5 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %6 = tt.expand_dims %5 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %7 = tt.broadcast %6 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %8 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
    %9 = tt.addptr %8, %7 : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
    %10:3 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %4, %arg5 = %9, %arg6 = %cst) -> (tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>)  : i32 {
      %11 = tt.load %arg4 {tt.latency = 2 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>
      %12 = ttg.convert_layout %11 : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %13 = tt.load %arg5 {tt.latency = 2 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1>
      %14 = ttg.convert_layout %13 : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %15 = tt.dot %12, %14, %arg6 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %16 = tt.addptr %arg4, %cst_0 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %17 = tt.addptr %arg5, %cst_1 : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
      scf.yield %16, %17, %15 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>
    }
    tt.return %10#2 : tensor<64x64xf32, #mma>
  }
}

// -----

// Latency 1 per load of an indirect chain (4 stages): the index load in stage
// 0, the loads using it in stage 1, the dot in stage 2.
// CHECK-LABEL: tt.func @indirect
// CHECK: %14 = tt.load %arg5 {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64x!tt.ptr<i32>, #blocked2>
// CHECK: %15 = ttg.convert_layout %14 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64xi32, #blocked2> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK: %16 = tt.expand_dims %15 {axis = 1 : i32, loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
// CHECK: %17 = arith.muli %16, %cst_2 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x1xi32, #blocked1>
// CHECK: %18 = tt.broadcast %17 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
// CHECK: %19 = tt.addptr %4, %18 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
// CHECK: %20 = tt.load %19 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked1>
// CHECK: %21 = ttg.convert_layout %20 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %22 = tt.load %arg6 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked>
// CHECK: %23 = ttg.convert_layout %22 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %24 = tt.dot %21, %23, %arg7 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
// CHECK: %25 = tt.addptr %arg5, %cst_1 {loop.cluster = 3 : i32, loop.stage = 1 : i32} : tensor<64x!tt.ptr<i32>, #blocked2>, tensor<64xi32, #blocked2>
// CHECK: %26 = tt.addptr %arg6, %cst_0 {loop.cluster = 1 : i32, loop.stage = 2 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
// CHECK: } {tt.scheduled_max_stage = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @indirect(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg3: i32) -> tensor<64x64xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %cst_0 = arith.constant dense<2048> : tensor<32x64xi32, #blocked>
    %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %2 = tt.broadcast %1 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked1>
    %4 = tt.addptr %3, %2 : tensor<64x32x!tt.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %5 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %6 = tt.expand_dims %5 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %7 = tt.broadcast %6 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %8 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #blocked>
    %9 = tt.addptr %8, %7 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %10 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked2>
    %11 = tt.splat %arg2 : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked2>
    %12 = tt.addptr %11, %10 : tensor<64x!tt.ptr<i32>, #blocked2>, tensor<64xi32, #blocked2>
    %cst_1 = arith.constant dense<64> : tensor<64xi32, #blocked2>
    %cst_2 = arith.constant dense<4096> : tensor<64x1xi32, #blocked1>
    %13:3 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %12, %arg6 = %9, %arg7 = %cst) -> (tensor<64x!tt.ptr<i32>, #blocked2>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>)  : i32 {
      %14 = tt.load %arg5 {tt.latency = 1 : i32} : tensor<64x!tt.ptr<i32>, #blocked2>
      %15 = ttg.convert_layout %14 : tensor<64xi32, #blocked2> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %16 = tt.expand_dims %15 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
      %17 = arith.muli %16, %cst_2 : tensor<64x1xi32, #blocked1>
      %18 = tt.broadcast %17 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
      %19 = tt.addptr %4, %18 : tensor<64x32x!tt.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %20 = tt.load %19 {tt.latency = 1 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked1>
      %21 = ttg.convert_layout %20 : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %22 = tt.load %arg6 {tt.latency = 1 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked>
      %23 = ttg.convert_layout %22 : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %24 = tt.dot %21, %23, %arg7 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %25 = tt.addptr %arg5, %cst_1 : tensor<64x!tt.ptr<i32>, #blocked2>, tensor<64xi32, #blocked2>
      %26 = tt.addptr %arg6, %cst_0 : tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %25, %26, %24 : tensor<64x!tt.ptr<i32>, #blocked2>, tensor<32x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>
    }
    tt.return %13#2 : tensor<64x64xf32, #mma>
  }
}

// -----

// An scf.if the loads depend on opens the loop (a cluster at the front).
// CHECK-LABEL: tt.func @prologue_if
// CHECK: %5 = scf.if %4 -> (i32) {
// CHECK: } {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK: %9 = tt.load %8 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
// CHECK: %11 = tt.load %10 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
// CHECK: } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @prologue_if(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32) -> (tensor<512xf32, #blocked>, f32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c512_i32 = arith.constant 512 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<512xf32, #blocked>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %2 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %3:2 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst, %arg6 = %cst_0) -> (tensor<512xf32, #blocked>, f32)  : i32 {
      %4 = arith.cmpi slt, %arg4, %c1_i32 : i32
      %5 = scf.if %4 -> (i32) {
        scf.yield %c0_i32 : i32
      } else {
        %17 = arith.muli %arg4, %c512_i32 : i32
        scf.yield %17 : i32
      }
      %6 = tt.splat %5 : i32 -> tensor<512xi32, #blocked>
      %7 = arith.addi %6, %0 : tensor<512xi32, #blocked>
      %8 = tt.addptr %1, %7 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %9 = tt.load %8 {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
      %10 = tt.addptr %arg2, %arg4 : !tt.ptr<f32>, i32
      %11 = tt.load %10 {tt.latency = 2 : i32} : !tt.ptr<f32>
      %12 = arith.addf %arg6, %11 : f32
      %13 = tt.splat %11 : f32 -> tensor<512xf32, #blocked>
      %14 = arith.mulf %9, %13 : tensor<512xf32, #blocked>
      %15 = arith.addf %arg5, %14 : tensor<512xf32, #blocked>
      %16 = tt.addptr %2, %7 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      tt.store %16, %14 : tensor<512x!tt.ptr<f32>, #blocked>
      scf.yield %15, %12 : tensor<512xf32, #blocked>, f32
    } {tt.num_stages = 3 : i32}
    tt.return %3#0, %3#1 : tensor<512xf32, #blocked>, f32
  }
}

// -----

// An scf.if depending on a load but needed by nothing scheduled closes the
// loop (a cluster at the back).
// CHECK-LABEL: tt.func @epilogue_if_only
// CHECK: %7 = tt.load %6 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
// CHECK: scf.if %9 {
// CHECK: } {loop.cluster = 3 : i32, loop.stage = 2 : i32}
// CHECK: } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @epilogue_if_only(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c512_i32 = arith.constant 512 : i32
    %0 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %2 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32  : i32 {
      %3 = arith.muli %arg3, %c512_i32 : i32
      %4 = tt.splat %3 : i32 -> tensor<512xi32, #blocked>
      %5 = arith.addi %4, %0 : tensor<512xi32, #blocked>
      %6 = tt.addptr %1, %5 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %7 = tt.load %6 {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
      %8 = tt.addptr %2, %5 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %9 = arith.cmpi ne, %arg3, %c1_i32 : i32
      scf.if %9 {
        tt.store %8, %7 : tensor<512x!tt.ptr<f32>, #blocked>
      }
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}

// -----

// A load the next iteration's load depends on (distance 1) joins its stage.
// CHECK-LABEL: tt.func @chase
// CHECK: %3 = tt.splat %arg4 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<512xi32, #blocked>
// CHECK: %4 = arith.addi %3, %0 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512xi32, #blocked>
// CHECK: %5 = tt.addptr %1, %4 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>
// CHECK: %6 = tt.load %5 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<i32>, #blocked>
// CHECK: %7 = arith.addi %arg3, %6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<512xi32, #blocked>
// CHECK: %8 = tt.addptr %arg0, %arg4 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<i32>, i32
// CHECK: %9 = tt.load %8 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<i32>
// CHECK: } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chase(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: i32) -> tensor<512xi32, #blocked> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0> : tensor<512xi32, #blocked>
    %0 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #blocked>
    %2:2 = scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg3 = %cst, %arg4 = %c0_i32) -> (tensor<512xi32, #blocked>, i32)  : i32 {
      %3 = tt.splat %arg4 : i32 -> tensor<512xi32, #blocked>
      %4 = arith.addi %3, %0 : tensor<512xi32, #blocked>
      %5 = tt.addptr %1, %4 : tensor<512x!tt.ptr<i32>, #blocked>, tensor<512xi32, #blocked>
      %6 = tt.load %5 {tt.latency = 2 : i32} : tensor<512x!tt.ptr<i32>, #blocked>
      %7 = arith.addi %arg3, %6 : tensor<512xi32, #blocked>
      %8 = tt.addptr %arg0, %arg4 : !tt.ptr<i32>, i32
      %9 = tt.load %8 : !tt.ptr<i32>
      scf.yield %7, %9 : tensor<512xi32, #blocked>, i32
    } {tt.num_stages = 3 : i32}
    tt.return %2#0 : tensor<512xi32, #blocked>
  }
}

// -----

// Descriptor loads of latency 2 go to stage 0, the dot and the allocs of the loaded tiles to stage 2.
// CHECK-LABEL: tt.func public @desc_dot
// CHECK: %22 = tt.descriptor_load %arg0[%2, %arg12] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<64x32xf16, #shared>> -> tensor<64x32xf16, #blocked1>
// CHECK: %23 = ttg.local_alloc %22 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x32xf16, #blocked1>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
// CHECK: %24 = tt.descriptor_load %arg5[%arg12, %3] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<32x64xf16, #shared1>> -> tensor<32x64xf16, #blocked2>
// CHECK: %25 = ttg.local_alloc %24 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<32x64xf16, #blocked2>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
// CHECK: %26 = ttng.warp_group_dot %23, %25, %arg13 {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
// CHECK: } {tt.scheduled_max_stage = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @desc_dot(%arg0: !tt.tensordesc<tensor<64x32xf16, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<32x64xf16, #shared1>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg11: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %0, %c64_i32 : i32
    %3 = arith.muli %1, %c64_i32 : i32
    %4 = scf.for %arg12 = %c0_i32 to %arg11 step %c32_i32 iter_args(%arg13 = %cst_0) -> (tensor<64x64xf32, #mma>)  : i32 {
      %22 = tt.descriptor_load %arg0[%2, %arg12] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<64x32xf16, #shared>> -> tensor<64x32xf16, #blocked1>
      %23 = ttg.local_alloc %22 : (tensor<64x32xf16, #blocked1>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %24 = tt.descriptor_load %arg5[%arg12, %3] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<32x64xf16, #shared1>> -> tensor<32x64xf16, #blocked2>
      %25 = ttg.local_alloc %24 : (tensor<32x64xf16, #blocked2>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
      %26 = ttng.warp_group_dot %23, %25, %arg13 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %26 : tensor<64x64xf32, #mma>
    }
    %5 = arith.muli %0, %c64_i32 : i32
    %6 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.splat %5 : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %9 = arith.addi %8, %6 : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %10 = arith.muli %1, %c64_i32 : i32
    %11 = tt.splat %10 : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %12 = arith.addi %11, %7 : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %13 = tt.expand_dims %9 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %14 = arith.muli %13, %cst : tensor<64x1xi32, #blocked>
    %15 = tt.splat %arg10 : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %16 = tt.addptr %15, %14 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %17 = tt.expand_dims %12 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %18 = tt.broadcast %16 : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %19 = tt.broadcast %17 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %20 = tt.addptr %18, %19 : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %21 = ttg.convert_layout %4 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    tt.store %20, %21 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A descriptor load of latency 2 in a loop without dot: its users and the descriptor store in stage 2.
// CHECK-LABEL: tt.func public @desc_scale_rows
// CHECK: %3 = arith.addi %1, %arg12 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
// CHECK: %4 = arith.muli %3, %c32_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
// CHECK: %5 = tt.descriptor_load %arg0[%4, %c0_i32] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<32x64xf32, #shared>> -> tensor<32x64xf32, #blocked>
// CHECK: %6 = arith.mulf %5, %2 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf32, #blocked>
// CHECK: %7 = arith.truncf %6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf32, #blocked> to tensor<32x64xf16, #blocked>
// CHECK: %8 = ttg.convert_layout %7 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #blocked1>
// CHECK: tt.descriptor_store %arg5[%4, %c0_i32], %8 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !tt.tensordesc<tensor<32x64xf16, #shared1>>, tensor<32x64xf16, #blocked1>
// CHECK: } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @desc_scale_rows(%arg0: !tt.tensordesc<tensor<32x64xf32, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<32x64xf16, #shared1>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: i32, %arg11: f32) attributes {noinline = false} {
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %arg10 : i32
    %2 = tt.splat %arg11 : f32 -> tensor<32x64xf32, #blocked>
    scf.for %arg12 = %c0_i32 to %arg10 step %c1_i32  : i32 {
      %3 = arith.addi %1, %arg12 : i32
      %4 = arith.muli %3, %c32_i32 : i32
      %5 = tt.descriptor_load %arg0[%4, %c0_i32] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<32x64xf32, #shared>> -> tensor<32x64xf32, #blocked>
      %6 = arith.mulf %5, %2 : tensor<32x64xf32, #blocked>
      %7 = arith.truncf %6 : tensor<32x64xf32, #blocked> to tensor<32x64xf16, #blocked>
      %8 = ttg.convert_layout %7 : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #blocked1>
      tt.descriptor_store %arg5[%4, %c0_i32], %8 : !tt.tensordesc<tensor<32x64xf16, #shared1>>, tensor<32x64xf16, #blocked1>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}

// -----

// A loop split off a warp-specialized loop keeps no latencies, only the
// schedule it was given; its memory ops all sit in stage 2, so nothing is
// left to overlap: the whole body goes to stage 0 of a one-stage schedule.
// CHECK-LABEL: @partition_in_one_stage
// CHECK: tt.load {{.*}}loop.cluster = 0 : i32, loop.stage = 0 : i32
// CHECK: ttg.local_alloc {{.*}}loop.cluster = 0 : i32, loop.stage = 0 : i32
// CHECK: ttg.local_load {{.*}}loop.cluster = 0 : i32, loop.stage = 0 : i32
// CHECK: tt.scheduled_max_stage = 2 : i32
#bl = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @partition_in_one_stage(%n: i32, %p: tensor<32x32x!tt.ptr<f32>, #bl>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p {loop.cluster = 1 : i32, loop.stage = 2 : i32} : tensor<32x32x!tt.ptr<f32>, #bl>
      %s = ttg.local_alloc %v : (tensor<32x32xf32, #bl>) -> !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory>
      %w = ttg.local_load %s {loop.cluster = 1 : i32, loop.stage = 2 : i32} : !ttg.memdesc<32x32xf32, #sw, #ttg.shared_memory> -> tensor<32x32xf32, #bl>
      tt.store %p, %w {loop.cluster = 1 : i32, loop.stage = 2 : i32} : tensor<32x32x!tt.ptr<f32>, #bl>
    } {tt.scheduled_max_stage = 2 : i32, tt.warp_specialize}
    tt.return
  }
}
