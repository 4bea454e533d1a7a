// RUN: tt-opt %s -split-input-file --tritongpu-pipeline=num-stages=3 | FileCheck %s

// The CHECK lines are upstream Triton 3.6's output for these inputs (its pass run
// through libtriton, printed by tt-opt).

// sm_80 matmul, 3 stages: two copies in flight into double buffers (prologue
// of two iterations), a wait and a local_load per operand in the loop.
// CHECK-LABEL: tt.func @matmul
// CHECK: %10 = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
// CHECK: %11 = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #shared1, #smem, mutable>
// CHECK: %13 = ttg.memdesc_index %10[%c0_i32] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %15 = ttg.async_copy_global_to_local %4, %13 mask %14 {contiguity = 8 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// CHECK: %16 = ttg.async_commit_group tokens %15
// CHECK: %17 = ttg.memdesc_index %11[%c0_i32] : !ttg.memdesc<2x32x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %19 = ttg.async_copy_global_to_local %9, %17 mask %18 {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1> -> <32x64xf16, #shared1, #smem, mutable>
// CHECK: %20 = ttg.async_commit_group tokens %19
// CHECK: %24 = ttg.memdesc_index %10[%c1_i32] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %26 = ttg.async_copy_global_to_local %22, %24 mask %25 {contiguity = 8 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// CHECK: %27 = ttg.async_commit_group tokens %26
// CHECK: %28 = ttg.memdesc_index %11[%c1_i32] : !ttg.memdesc<2x32x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %30 = ttg.async_copy_global_to_local %23, %28 mask %29 {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1> -> <32x64xf16, #shared1, #smem, mutable>
// CHECK: %31 = ttg.async_commit_group tokens %30
// CHECK: %32:11 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %22, %arg5 = %23, %arg6 = %cst, %arg7 = %c1_i32, %arg8 = %c-1_i32, %arg9 = %c2_i32, %arg10 = %c2_i32, %arg11 = %16, %arg12 = %27, %arg13 = %20, %arg14 = %31) -> (tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, !ttg.async.token, !ttg.async.token)  : i32 {
// CHECK: %38 = arith.select %37, %c0_i32, %36 : i32
// CHECK: %39 = ttg.async_wait %arg11, %arg13 {num = 2 : i32}
// CHECK: %40 = ttg.memdesc_index %10[%38] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %41 = ttg.local_load %40 token %39 : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #blocked>
// CHECK: %43 = ttg.memdesc_index %11[%38] : !ttg.memdesc<2x32x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %44 = ttg.local_load %43 token %39 : !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<32x64xf16, #blocked1>
// CHECK: %46 = tt.dot %42, %45, %arg6 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
// CHECK: %51 = arith.select %50, %c0_i32, %49 : i32
// CHECK: %52 = ttg.memdesc_index %10[%51] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %54 = ttg.async_copy_global_to_local %47, %52 mask %53 {contiguity = 8 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
// CHECK: %55 = ttg.async_commit_group tokens %54
// CHECK: %56 = ttg.memdesc_index %11[%51] : !ttg.memdesc<2x32x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %58 = ttg.async_copy_global_to_local %48, %56 mask %57 {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1> -> <32x64xf16, #shared1, #smem, mutable>
// CHECK: %59 = ttg.async_commit_group tokens %58
// CHECK: scf.yield %47, %48, %46, %51, %38, %arg10, %c2_i32, %arg12, %55, %arg14, %59 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, !ttg.async.token, !ttg.async.token
// CHECK: %33 = ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %11 : !ttg.memdesc<2x32x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.local_dealloc %10 : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
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
      %11 = tt.load %arg4 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>
      %12 = ttg.convert_layout %11 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %13 = tt.load %arg5 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1>
      %14 = ttg.convert_layout %13 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %15 = tt.dot %12, %14, %arg6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %16 = tt.addptr %arg4, %cst_0 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %17 = tt.addptr %arg5, %cst_1 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
      scf.yield %16, %17, %15 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %10#2 : tensor<64x64xf32, #mma>
  }
}

// -----

// sm_90 matmul: the buffers read by the wgmma get one more stage, the wgmma
// runs asynchronously with one in flight, a wait after the loop.
// CHECK-LABEL: tt.func @wgmma_basic
// CHECK: %7 = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: %8 = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: %10 = ttg.memdesc_index %7[%c0_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %12 = ttg.async_copy_global_to_local %4, %10 mask %11 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %13 = ttg.async_commit_group tokens %12
// CHECK: %14 = ttg.memdesc_index %8[%c0_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %16 = ttg.async_copy_global_to_local %6, %14 mask %15 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %17 = ttg.async_commit_group tokens %16
// CHECK: %21 = ttg.memdesc_index %7[%c1_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %23 = ttg.async_copy_global_to_local %19, %21 mask %22 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %24 = ttg.async_commit_group tokens %23
// CHECK: %25 = ttg.memdesc_index %8[%c1_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %27 = ttg.async_copy_global_to_local %20, %25 mask %26 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %28 = ttg.async_commit_group tokens %27
// CHECK: %29:11 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %19, %arg5 = %20, %arg6 = %cst_0, %arg7 = %c1_i32, %arg8 = %c-1_i32, %arg9 = %c3_i32, %arg10 = %c3_i32, %arg11 = %13, %arg12 = %24, %arg13 = %17, %arg14 = %28) -> (tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, !ttg.async.token, !ttg.async.token)  : i32 {
// CHECK: %36 = arith.select %35, %c0_i32, %34 : i32
// CHECK: %37 = ttg.async_wait %arg11, %arg13 {num = 2 : i32}
// CHECK: %38 = ttg.memdesc_index %7[%36] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %39 = ttg.memdesc_index %8[%36] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %40 = ttng.warp_group_dot %38, %39, %arg6 {isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
// CHECK: %41:3 = ttng.warp_group_dot_wait %40, %38, %39 {pendings = 1 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %46 = arith.select %45, %c0_i32, %44 : i32
// CHECK: %47 = ttg.memdesc_index %7[%46] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %49 = ttg.async_copy_global_to_local %42, %47 mask %48 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %50 = ttg.async_commit_group tokens %49
// CHECK: %51 = ttg.memdesc_index %8[%46] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %53 = ttg.async_copy_global_to_local %43, %51 mask %52 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %54 = ttg.async_commit_group tokens %53
// CHECK: scf.yield %42, %43, %41#0, %46, %36, %arg10, %c3_i32, %arg12, %50, %arg14, %54 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, !ttg.async.token, !ttg.async.token
// CHECK: %30 = ttng.warp_group_dot_wait %29#2 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
// CHECK: %31 = ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %8 : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: ttg.local_dealloc %7 : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_basic(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32) -> tensor<64x64xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %2 = tt.broadcast %1 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %5 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %6 = tt.addptr %5, %2 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %7:3 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %4, %arg5 = %6, %arg6 = %cst) -> (tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>)  : i32 {
      %8 = tt.load %arg4 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %9 = ttg.local_alloc %8 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %10 = tt.load %arg5 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %11 = ttg.local_alloc %10 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %12 = ttng.warp_group_dot %9, %11, %arg6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %13 = tt.addptr %arg4, %cst_0 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %14 = tt.addptr %arg5, %cst_0 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %13, %14, %12 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %7#2 : tensor<64x64xf32, #mma>
  }
}

// -----

// A wgmma whose result is used in the loop waits for itself (pendings 0).
// CHECK-LABEL: tt.func @wgmma_used
// CHECK: %7 = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: %8 = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: %10 = ttg.memdesc_index %7[%c0_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %12 = ttg.async_copy_global_to_local %4, %10 mask %11 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %13 = ttg.async_commit_group tokens %12
// CHECK: %14 = ttg.memdesc_index %8[%c0_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %16 = ttg.async_copy_global_to_local %6, %14 mask %15 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %17 = ttg.async_commit_group tokens %16
// CHECK: %21 = ttg.memdesc_index %7[%c1_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %23 = ttg.async_copy_global_to_local %19, %21 mask %22 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %24 = ttg.async_commit_group tokens %23
// CHECK: %25 = ttg.memdesc_index %8[%c1_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %27 = ttg.async_copy_global_to_local %20, %25 mask %26 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %28 = ttg.async_commit_group tokens %27
// CHECK: %29:11 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %19, %arg5 = %20, %arg6 = %cst_0, %arg7 = %c1_i32, %arg8 = %c-1_i32, %arg9 = %c3_i32, %arg10 = %c3_i32, %arg11 = %13, %arg12 = %24, %arg13 = %17, %arg14 = %28) -> (tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, !ttg.async.token, !ttg.async.token)  : i32 {
// CHECK: %35 = arith.select %34, %c0_i32, %33 : i32
// CHECK: %36 = ttg.async_wait %arg11, %arg13 {num = 2 : i32}
// CHECK: %37 = ttg.memdesc_index %7[%35] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %38 = ttg.memdesc_index %8[%35] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %39 = ttng.warp_group_dot %37, %38, %arg6 {isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
// CHECK: %40:3 = ttng.warp_group_dot_wait %39, %37, %38 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %46 = arith.select %45, %c0_i32, %44 : i32
// CHECK: %47 = ttg.memdesc_index %7[%46] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %49 = ttg.async_copy_global_to_local %42, %47 mask %48 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %50 = ttg.async_commit_group tokens %49
// CHECK: %51 = ttg.memdesc_index %8[%46] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %53 = ttg.async_copy_global_to_local %43, %51 mask %52 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %54 = ttg.async_commit_group tokens %53
// CHECK: scf.yield %42, %43, %41, %46, %35, %arg10, %c3_i32, %arg12, %50, %arg14, %54 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, !ttg.async.token, !ttg.async.token
// CHECK: %30 = ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %8 : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: ttg.local_dealloc %7 : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_used(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32) -> tensor<64x64xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %2 = tt.broadcast %1 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %5 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %6 = tt.addptr %5, %2 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %7:3 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %4, %arg5 = %6, %arg6 = %cst) -> (tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>)  : i32 {
      %8 = tt.load %arg4 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %9 = ttg.local_alloc %8 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %10 = tt.load %arg5 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %11 = ttg.local_alloc %10 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %12 = ttng.warp_group_dot %9, %11, %arg6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %13 = arith.mulf %12, %12 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x64xf32, #mma>
      %14 = tt.addptr %arg4, %cst_0 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %15 = tt.addptr %arg5, %cst_0 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %14, %15, %13 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %7#2 : tensor<64x64xf32, #mma>
  }
}

// -----

// A wgmma with A in registers, and no wait for all in the loop, is split
// along K into instruction-sized wgmmas.
// CHECK-LABEL: tt.func @wgmma_regs
// CHECK: %9 = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: %11 = ttg.memdesc_index %9[%c0_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %13 = ttg.async_copy_global_to_local %6, %11 mask %12 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %14 = ttg.async_commit_group tokens %13
// CHECK: %17 = ttg.memdesc_index %9[%c1_i32] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %19 = ttg.async_copy_global_to_local %16, %17 mask %18 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %20 = ttg.async_commit_group tokens %19
// CHECK: %21:9 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %4, %arg5 = %16, %arg6 = %cst_0, %arg7 = %c1_i32, %arg8 = %c-1_i32, %arg9 = %c3_i32, %arg10 = %c3_i32, %arg11 = %14, %arg12 = %20) -> (tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token)  : i32 {
// CHECK: %28 = arith.select %27, %c0_i32, %26 : i32
// CHECK: %29 = ttg.async_wait %arg11 {num = 1 : i32}
// CHECK: %30 = ttg.memdesc_index %9[%28] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %31 = tt.reshape %8 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> -> tensor<64x2x2x16xf16, #linear>
// CHECK: %32 = tt.trans %31 {order = array<i32: 0, 3, 2, 1>} : tensor<64x2x2x16xf16, #linear> -> tensor<64x16x2x2xf16, #linear1>
// CHECK: %outLHS, %outRHS = tt.split %32 : tensor<64x16x2x2xf16, #linear1> -> tensor<64x16x2xf16, #linear2>
// CHECK: %outLHS_1, %outRHS_2 = tt.split %outLHS : tensor<64x16x2xf16, #linear2> -> tensor<64x16xf16, #linear3>
// CHECK: %outLHS_3, %outRHS_4 = tt.split %outRHS : tensor<64x16x2xf16, #linear2> -> tensor<64x16xf16, #linear3>
// CHECK: %37 = ttg.memdesc_subslice %30[0, 0] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, 64x64>
// CHECK: %38 = ttg.memdesc_subslice %30[16, 0] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, 64x64>
// CHECK: %39 = ttg.memdesc_subslice %30[32, 0] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, 64x64>
// CHECK: %40 = ttg.memdesc_subslice %30[48, 0] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, 64x64>
// CHECK: %41 = ttng.warp_group_dot %33, %37, %arg6 {isAsync = true} : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<16x64xf16, #shared, #smem, 64x64> -> tensor<64x64xf32, #mma>
// CHECK: %42:2 = ttng.warp_group_dot_wait %41, %37 {pendings = 3 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<16x64xf16, #shared, #smem, 64x64>
// CHECK: %43 = ttng.warp_group_dot %34, %38, %42#0, %true {isAsync = true} : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<16x64xf16, #shared, #smem, 64x64> -> tensor<64x64xf32, #mma>
// CHECK: %44:2 = ttng.warp_group_dot_wait %43, %38 {pendings = 3 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<16x64xf16, #shared, #smem, 64x64>
// CHECK: %45 = ttng.warp_group_dot %35, %39, %44#0, %true {isAsync = true} : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<16x64xf16, #shared, #smem, 64x64> -> tensor<64x64xf32, #mma>
// CHECK: %46:2 = ttng.warp_group_dot_wait %45, %39 {pendings = 3 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<16x64xf16, #shared, #smem, 64x64>
// CHECK: %47 = ttng.warp_group_dot %36, %40, %46#0, %true {isAsync = true} : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<16x64xf16, #shared, #smem, 64x64> -> tensor<64x64xf32, #mma>
// CHECK: %48:2 = ttng.warp_group_dot_wait %47, %40 {pendings = 3 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<16x64xf16, #shared, #smem, 64x64>
// CHECK: %53 = arith.select %52, %c0_i32, %51 : i32
// CHECK: %54 = ttg.memdesc_index %9[%53] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: %56 = ttg.async_copy_global_to_local %50, %54 mask %55 {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK: %57 = ttg.async_commit_group tokens %56
// CHECK: scf.yield %49, %50, %48#0, %53, %28, %arg10, %c3_i32, %arg12, %57 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token
// CHECK: %22 = ttng.warp_group_dot_wait %21#2 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
// CHECK: %23 = ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %9 : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_regs(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: i32) -> tensor<64x64xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %2 = tt.broadcast %1 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %4 = tt.addptr %3, %2 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %5 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    %6 = tt.addptr %5, %2 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %7 = tt.load %4 : tensor<64x64x!tt.ptr<f16>, #blocked>
    %8 = ttg.convert_layout %7 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %9:3 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %4, %arg5 = %6, %arg6 = %cst) -> (tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>)  : i32 {
      %10 = tt.load %arg5 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %11 = ttg.local_alloc %10 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %12 = ttng.warp_group_dot %8, %11, %arg6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %13 = tt.addptr %arg4, %cst_0 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %14 = tt.addptr %arg5, %cst_0 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %13, %14, %12 : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %9#2 : tensor<64x64xf32, #mma>
  }
}

// -----

// A masked load with a non-zero `other` selects it after the local_load; a
// loop result from an early stage is selected in the prologue and the kernel.
// CHECK-LABEL: tt.func @masked
// CHECK: %10 = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
// CHECK: %12 = ttg.memdesc_index %10[%c0_i32] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
// CHECK: %14 = ttg.async_copy_global_to_local %9, %12 mask %13 {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1> -> <32x64xf16, #shared, #smem, mutable>
// CHECK: %15 = ttg.async_commit_group tokens %14
// CHECK: %18 = ttg.memdesc_index %10[%c1_i32] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
// CHECK: %20 = ttg.async_copy_global_to_local %17, %18 mask %19 {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1> -> <32x64xf16, #shared, #smem, mutable>
// CHECK: %21 = ttg.async_commit_group tokens %20
// CHECK: %22:9 = scf.for %arg5 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg6 = %4, %arg7 = %17, %arg8 = %cst, %arg9 = %c1_i32, %arg10 = %c-1_i32, %arg11 = %c2_i32, %arg12 = %c2_i32, %arg13 = %15, %arg14 = %21) -> (tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token)  : i32 {
// CHECK: %28 = arith.select %27, %c0_i32, %26 : i32
// CHECK: %34 = ttg.async_wait %arg13 {num = 1 : i32}
// CHECK: %35 = ttg.memdesc_index %10[%28] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
// CHECK: %36 = ttg.local_load %35 token %34 : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #blocked1>
// CHECK: %38 = tt.dot %33, %37, %arg8 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
// CHECK: %43 = arith.select %42, %c0_i32, %41 : i32
// CHECK: %44 = ttg.memdesc_index %10[%43] : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
// CHECK: %46 = ttg.async_copy_global_to_local %40, %44 mask %45 {contiguity = 8 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1> -> <32x64xf16, #shared, #smem, mutable>
// CHECK: %47 = ttg.async_commit_group tokens %46
// CHECK: scf.yield %39, %40, %38, %43, %28, %arg12, %c2_i32, %arg14, %47 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token
// CHECK: %23 = ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %10 : !ttg.memdesc<2x32x64xf16, #shared, #smem, mutable>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @masked(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32, %arg4: i32) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %cst_1 = arith.constant dense<32> : tensor<64x32xi32, #blocked>
    %cst_2 = arith.constant dense<2048> : tensor<32x64xi32, #blocked1>
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
    %10:3 = scf.for %arg5 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg6 = %4, %arg7 = %9, %arg8 = %cst) -> (tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>)  : i32 {
      %11 = tt.splat %arg4 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : i32 -> tensor<1x32xi32, #blocked>
      %12 = arith.cmpi slt, %1, %11 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<1x32xi32, #blocked>
      %13 = tt.broadcast %12 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<1x32xi1, #blocked> -> tensor<64x32xi1, #blocked>
      %14 = tt.load %arg6, %13, %cst_0 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>
      %15 = ttg.convert_layout %14 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %16 = tt.load %arg7 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1>
      %17 = ttg.convert_layout %16 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf16, #blocked1> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %18 = tt.dot %15, %17, %arg8 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %19 = arith.cmpi eq, %arg5, %arg4 {loop.cluster = 5 : i32, loop.stage = 2 : i32} : i32
      scf.if %19 {
        %22 = tt.addptr %arg2, %arg5 : !tt.ptr<f32>, i32
        %23 = arith.sitofp %arg5 : i32 to f32
        tt.store %22, %23 : !tt.ptr<f32>
      } {loop.cluster = 5 : i32, loop.stage = 2 : i32}
      %20 = tt.addptr %arg6, %cst_1 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
      %21 = tt.addptr %arg7, %cst_2 {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
      scf.yield %20, %21, %18 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %10#2, %10#0 : tensor<64x64xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>
  }
}

// -----

// A scalar load is copied as a one-element tensor and read back with
// tt.unsplat.
// CHECK-LABEL: tt.func @nodot
// CHECK: %3 = ttg.local_alloc : () -> !ttg.memdesc<2x512xf32, #shared, #smem, mutable>
// CHECK: %4 = ttg.local_alloc : () -> !ttg.memdesc<2x1xf32, #shared, #smem, mutable>
// CHECK: %7 = ttg.memdesc_index %3[%c0_i32] : !ttg.memdesc<2x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
// CHECK: %9 = ttg.async_copy_global_to_local %6, %7 mask %8 {contiguity = 4 : i32} : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
// CHECK: %10 = ttg.async_commit_group tokens %9
// CHECK: %12 = ttg.memdesc_index %4[%c0_i32] : !ttg.memdesc<2x1xf32, #shared, #smem, mutable> -> !ttg.memdesc<1xf32, #shared, #smem, mutable>
// CHECK: %14 = ttg.async_copy_global_to_local %11, %12 mask %13 : tensor<1x!tt.ptr<f32>, #blocked1> -> <1xf32, #shared, #smem, mutable>
// CHECK: %15 = ttg.async_commit_group tokens %14
// CHECK: %19 = ttg.memdesc_index %3[%c1_i32] : !ttg.memdesc<2x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
// CHECK: %21 = ttg.async_copy_global_to_local %18, %19 mask %20 {contiguity = 4 : i32} : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
// CHECK: %22 = ttg.async_commit_group tokens %21
// CHECK: %25 = ttg.memdesc_index %4[%c1_i32] : !ttg.memdesc<2x1xf32, #shared, #smem, mutable> -> !ttg.memdesc<1xf32, #shared, #smem, mutable>
// CHECK: %27 = ttg.async_copy_global_to_local %24, %25 mask %26 : tensor<1x!tt.ptr<f32>, #blocked1> -> <1xf32, #shared, #smem, mutable>
// CHECK: %28 = ttg.async_commit_group tokens %27
// CHECK: %29:12 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst_0, %arg6 = %cst_1, %arg7 = %c1_i32, %arg8 = %c-1_i32, %arg9 = %c2_i32, %arg10 = %c2_i32, %arg11 = %10, %arg12 = %22, %arg13 = %15, %arg14 = %28, %arg15 = %0, %arg16 = %17) -> (tensor<512xf32, #blocked>, f32, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, !ttg.async.token, !ttg.async.token, tensor<512xi32, #blocked>, tensor<512xi32, #blocked>)  : i32 {
// CHECK: %35 = arith.select %34, %c0_i32, %33 : i32
// CHECK: %36 = ttg.async_wait %arg11, %arg13 {num = 2 : i32}
// CHECK: %37 = ttg.memdesc_index %3[%35] : !ttg.memdesc<2x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
// CHECK: %38 = ttg.local_load %37 token %36 : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512xf32, #blocked>
// CHECK: %39 = ttg.memdesc_index %4[%35] : !ttg.memdesc<2x1xf32, #shared, #smem, mutable> -> !ttg.memdesc<1xf32, #shared, #smem, mutable>
// CHECK: %40 = ttg.local_load %39 token %36 : !ttg.memdesc<1xf32, #shared, #smem, mutable> -> tensor<1xf32, #blocked1>
// CHECK: %41 = tt.unsplat %40 : tensor<1xf32, #blocked1>
// CHECK: %49 = arith.select %48, %c0_i32, %47 : i32
// CHECK: %55 = ttg.memdesc_index %3[%49] : !ttg.memdesc<2x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
// CHECK: %57 = ttg.async_copy_global_to_local %54, %55 mask %56 {contiguity = 4 : i32} : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
// CHECK: %58 = ttg.async_commit_group tokens %57
// CHECK: %62 = ttg.memdesc_index %4[%49] : !ttg.memdesc<2x1xf32, #shared, #smem, mutable> -> !ttg.memdesc<1xf32, #shared, #smem, mutable>
// CHECK: %64 = ttg.async_copy_global_to_local %61, %62 mask %63 : tensor<1x!tt.ptr<f32>, #blocked1> -> <1xf32, #shared, #smem, mutable>
// CHECK: %65 = ttg.async_commit_group tokens %64
// CHECK: scf.yield %45, %42, %49, %35, %arg10, %c2_i32, %arg12, %58, %arg14, %65, %arg16, %53 : tensor<512xf32, #blocked>, f32, i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, !ttg.async.token, !ttg.async.token, tensor<512xi32, #blocked>, tensor<512xi32, #blocked>
// CHECK: %30 = ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %4 : !ttg.memdesc<2x1xf32, #shared, #smem, mutable>
// CHECK: ttg.local_dealloc %3 : !ttg.memdesc<2x512xf32, #shared, #smem, mutable>
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nodot(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32) -> (tensor<512xf32, #blocked>, f32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c512_i32 = arith.constant 512 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<512xf32, #blocked>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %2 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %3:2 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst, %arg6 = %cst_0) -> (tensor<512xf32, #blocked>, f32)  : i32 {
      %4 = arith.muli %arg4, %c512_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %5 = tt.splat %4 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<512xi32, #blocked>
      %6 = arith.addi %5, %0 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512xi32, #blocked>
      %7 = tt.addptr %1, %6 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %8 = tt.load %7 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
      %9 = tt.addptr %arg2, %arg4 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %10 = tt.load %9 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      %11 = arith.addf %arg6, %10 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : f32
      %12 = tt.splat %10 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : f32 -> tensor<512xf32, #blocked>
      %13 = arith.mulf %8, %12 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<512xf32, #blocked>
      %14 = arith.addf %arg5, %13 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<512xf32, #blocked>
      %15 = tt.addptr %2, %6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      tt.store %15, %13 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
      scf.yield %14, %11 : tensor<512xf32, #blocked>, f32
    } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
    tt.return %3#0, %3#1 : tensor<512xf32, #blocked>, f32
  }
}

// -----

// A load used by conditional code at the end of the loop gets a third buffer.
// CHECK-LABEL: tt.func @epilogue_if_only
// CHECK: %3 = ttg.local_alloc : () -> !ttg.memdesc<3x512xf32, #shared, #smem, mutable>
// CHECK: %6 = ttg.memdesc_index %3[%c0_i32] : !ttg.memdesc<3x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
// CHECK: %8 = ttg.async_copy_global_to_local %5, %6 mask %7 {contiguity = 4 : i32} : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
// CHECK: %9 = ttg.async_commit_group tokens %8
// CHECK: %13 = ttg.memdesc_index %3[%c1_i32] : !ttg.memdesc<3x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
// CHECK: %15 = ttg.async_copy_global_to_local %12, %13 mask %14 {contiguity = 4 : i32} : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
// CHECK: %16 = ttg.async_commit_group tokens %15
// CHECK: %17:8 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %c1_i32, %arg5 = %c-1_i32, %arg6 = %c3_i32, %arg7 = %c3_i32, %arg8 = %9, %arg9 = %16, %arg10 = %0, %arg11 = %11) -> (i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, tensor<512xi32, #blocked>, tensor<512xi32, #blocked>)  : i32 {
// CHECK: %23 = arith.select %22, %c0_i32, %21 : i32
// CHECK: %29 = ttg.memdesc_index %3[%23] : !ttg.memdesc<3x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
// CHECK: %31 = ttg.async_copy_global_to_local %28, %29 mask %30 {contiguity = 4 : i32} : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
// CHECK: %32 = ttg.async_commit_group tokens %31
// CHECK: %35 = arith.select %34, %c0_i32, %33 : i32
// CHECK: %36 = ttg.async_wait %arg8 {num = 2 : i32}
// CHECK: %37 = ttg.memdesc_index %3[%35] : !ttg.memdesc<3x512xf32, #shared, #smem, mutable> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
// CHECK: %38 = ttg.local_load %37 token %36 : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512xf32, #blocked>
// CHECK: scf.yield %23, %35, %arg7, %c3_i32, %arg9, %32, %arg11, %27 : i32, i32, i32, i32, !ttg.async.token, !ttg.async.token, tensor<512xi32, #blocked>, tensor<512xi32, #blocked>
// CHECK: %18 = ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %3 : !ttg.memdesc<3x512xf32, #shared, #smem, mutable>
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
      %3 = arith.muli %arg3, %c512_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %4 = tt.splat %3 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<512xi32, #blocked>
      %5 = arith.addi %4, %0 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512xi32, #blocked>
      %6 = tt.addptr %1, %5 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %7 = tt.load %6 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
      %8 = tt.addptr %2, %5 {loop.cluster = 3 : i32, loop.stage = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
      %9 = arith.cmpi ne, %arg3, %c1_i32 {loop.cluster = 3 : i32, loop.stage = 2 : i32} : i32
      scf.if %9 {
        tt.store %8, %7 : tensor<512x!tt.ptr<f32>, #blocked>
      } {loop.cluster = 3 : i32, loop.stage = 2 : i32}
    } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A loop that asks for no stages (the consumer loop of a warp-specialized
// matmul, whose arrive_barrier gives the operands' buffer back right after
// the dot) keeps its wgmma synchronous; an unscheduled loop without the
// attribute gets the asynchronous wgmma and its wait.
// CHECK-LABEL: tt.func @wgmma_in_loop_without_stages
// CHECK: scf.for
// CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = 0 : i32} :
// CHECK-NOT: ttng.warp_group_dot_wait
// CHECK: tt.num_stages = 0
// CHECK-LABEL: tt.func @wgmma_in_loop_with_default_stages
// CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = 0 : i32, isAsync = true}
// CHECK: ttng.warp_group_dot_wait
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_in_loop_without_stages(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %acc = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>)  : i32 {
      %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.num_stages = 0 : i32}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
  tt.func @wgmma_in_loop_with_default_stages(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %acc = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>)  : i32 {
      %d = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}

// -----

// sm_90 matmul through two tensor descriptors, 3 stages: each load becomes a TMA copy into
// a 3-buffer ring (2 stages apart, +1 for the asynchronous wgmma); the two loads of a stage share
// one mbarrier (8192 bytes expected), the loop carries the barrier phase, flipped when the read
// index wraps; the wgmma reads the buffers directly.
// CHECK-LABEL: tt.func public @desc_dot
// CHECK: %4 = ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable>
// CHECK: %5 = ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf16, #shared1, #smem, mutable>
// CHECK: %6 = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared2, #smem, mutable>
// CHECK: %7 = ttg.memdesc_index %6[%c0_i32] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.init_barrier %7, 1 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %8 = ttg.memdesc_index %6[%c1_i32] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.init_barrier %8, 1 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %9 = ttg.memdesc_index %6[%c2_i32] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.init_barrier %9, 1 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %11 = ttg.memdesc_index %6[%c0_i32] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.barrier_expect %11, 8192, %10 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %12 = ttg.memdesc_index %4[%c0_i32] : !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%2, %c0_i32] %12, %11, %10 : !tt.tensordesc<tensor<64x32xf16, #shared>>, !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %13 = ttg.memdesc_index %5[%c0_i32] : !ttg.memdesc<3x32x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg5[%c0_i32, %3] %13, %11, %10 : !tt.tensordesc<tensor<32x64xf16, #shared1>>, !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %15 = ttg.memdesc_index %6[%c1_i32] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.barrier_expect %15, 8192, %14 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %16 = ttg.memdesc_index %4[%c1_i32] : !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%2, %c32_i32] %16, %15, %14 : !tt.tensordesc<tensor<64x32xf16, #shared>>, !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %17 = ttg.memdesc_index %5[%c1_i32] : !ttg.memdesc<3x32x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg5[%c32_i32, %3] %17, %15, %14 : !tt.tensordesc<tensor<32x64xf16, #shared1>>, !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %18:6 = scf.for %arg12 = %c0_i32 to %arg11 step %c32_i32 iter_args(%arg13 = %cst_0, %arg14 = %c1_i32, %arg15 = %c-1_i32, %arg16 = %c0_i32, %arg17 = %c3_i32, %arg18 = %c3_i32) -> (tensor<64x64xf32, #mma>, i32, i32, i32, i32, i32)  : i32 {
// CHECK: %45 = arith.xori %arg16, %c1_i32 : i32
// CHECK: %47 = ttg.memdesc_index %6[%44] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.wait_barrier %47, %46 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %48 = ttg.memdesc_index %5[%44] : !ttg.memdesc<3x32x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %49 = ttg.memdesc_index %4[%44] : !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %50 = ttng.warp_group_dot %49, %48, %arg13 {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
// CHECK: %51:3 = ttng.warp_group_dot_wait %50, %49, %48 {pendings = 1 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %55 = ttg.memdesc_index %6[%54] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.barrier_expect %55, 8192, %41 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %56 = ttg.memdesc_index %4[%54] : !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%2, %57] %56, %55, %41 : !tt.tensordesc<tensor<64x32xf16, #shared>>, !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
// CHECK: %58 = ttg.memdesc_index %5[%54] : !ttg.memdesc<3x32x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg5[%59, %3] %58, %55, %41 : !tt.tensordesc<tensor<32x64xf16, #shared1>>, !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: scf.yield %51#0, %54, %44, %46, %arg18, %c3_i32 : tensor<64x64xf32, #mma>, i32, i32, i32, i32, i32
// CHECK: %19 = ttng.warp_group_dot_wait %18#0 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
// CHECK: %20 = ttg.memdesc_index %6[%c0_i32] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.inval_barrier %20 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %21 = ttg.memdesc_index %6[%c1_i32] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.inval_barrier %21 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %22 = ttg.memdesc_index %6[%c2_i32] : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.inval_barrier %22 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttg.local_dealloc %6 : !ttg.memdesc<3x1xi64, #shared2, #smem, mutable>
// CHECK: ttg.local_dealloc %5 : !ttg.memdesc<3x32x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.local_dealloc %4 : !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable>
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
      %22 = tt.descriptor_load %arg0[%2, %arg12] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<64x32xf16, #shared>> -> tensor<64x32xf16, #blocked1>
      %23 = ttg.local_alloc %22 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x32xf16, #blocked1>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %24 = tt.descriptor_load %arg5[%arg12, %3] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<32x64xf16, #shared1>> -> tensor<32x64xf16, #blocked2>
      %25 = ttg.local_alloc %24 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<32x64xf16, #blocked2>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
      %26 = ttng.warp_group_dot %23, %25, %arg13 {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %26 : tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
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

// A loop of tt.num_stages = 3 without dot: the descriptor load is copied by TMA two stages
// ahead into a 2-buffer ring and read back with local_load after the wait; the descriptor store
// in the loop becomes an asynchronous TMA store from one shared buffer, waited for before the
// buffer is written again and after the loop.
// CHECK-LABEL: tt.func public @desc_scale_rows
// CHECK: %3 = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf32, #shared, #smem, mutable>
// CHECK: %4 = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared2, #smem, mutable>
// CHECK: %5 = ttg.memdesc_index %4[%c0_i32] : !ttg.memdesc<2x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.init_barrier %5, 1 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %6 = ttg.memdesc_index %4[%c1_i32] : !ttg.memdesc<2x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.init_barrier %6, 1 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %9 = ttg.memdesc_index %4[%c0_i32] : !ttg.memdesc<2x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.barrier_expect %9, 8192, %7 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %10 = ttg.memdesc_index %3[%c0_i32] : !ttg.memdesc<2x32x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf32, #shared, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%8, %c0_i32] %10, %9, %7 : !tt.tensordesc<tensor<32x64xf32, #shared>>, !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<32x64xf32, #shared, #smem, mutable>
// CHECK: %14 = ttg.memdesc_index %4[%c1_i32] : !ttg.memdesc<2x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.barrier_expect %14, 8192, %11 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %15 = ttg.memdesc_index %3[%c1_i32] : !ttg.memdesc<2x32x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf32, #shared, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%13, %c0_i32] %15, %14, %11 : !tt.tensordesc<tensor<32x64xf32, #shared>>, !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<32x64xf32, #shared, #smem, mutable>
// CHECK: %16 = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %17:7 = scf.for %arg12 = %c0_i32 to %arg10 step %c1_i32 iter_args(%arg13 = %c1_i32, %arg14 = %c-1_i32, %arg15 = %c0_i32, %arg16 = %c2_i32, %arg17 = %c2_i32, %arg18 = %8, %arg19 = %13) -> (i32, i32, i32, i32, i32, i32, i32)  : i32 {
// CHECK: %25 = arith.xori %arg15, %c1_i32 : i32
// CHECK: %27 = ttg.memdesc_index %4[%24] : !ttg.memdesc<2x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.wait_barrier %27, %26 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %28 = ttg.memdesc_index %3[%24] : !ttg.memdesc<2x32x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf32, #shared, #smem, mutable>
// CHECK: %29 = ttg.local_load %28 : !ttg.memdesc<32x64xf32, #shared, #smem, mutable> -> tensor<32x64xf32, #blocked>
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: ttg.local_store %32, %16 : tensor<32x64xf16, #blocked1> -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: ttng.fence_async_shared {bCluster = false}
// CHECK: ttng.async_tma_copy_local_to_global %arg5[%arg18, %c0_i32] %16 : !tt.tensordesc<tensor<32x64xf16, #shared1>>, !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %39 = ttg.memdesc_index %4[%35] : !ttg.memdesc<2x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.barrier_expect %39, 8192, %21 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %40 = ttg.memdesc_index %3[%35] : !ttg.memdesc<2x32x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf32, #shared, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%38, %c0_i32] %40, %39, %21 : !tt.tensordesc<tensor<32x64xf32, #shared>>, !ttg.memdesc<1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<32x64xf32, #shared, #smem, mutable>
// CHECK: scf.yield %35, %24, %26, %arg17, %c2_i32, %arg19, %38 : i32, i32, i32, i32, i32, i32, i32
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: ttg.local_dealloc %16 : !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
// CHECK: %18 = ttg.memdesc_index %4[%c0_i32] : !ttg.memdesc<2x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.inval_barrier %18 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: %19 = ttg.memdesc_index %4[%c1_i32] : !ttg.memdesc<2x1xi64, #shared2, #smem, mutable> -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttng.inval_barrier %19 : !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK: ttg.local_dealloc %4 : !ttg.memdesc<2x1xi64, #shared2, #smem, mutable>
// CHECK: ttg.local_dealloc %3 : !ttg.memdesc<2x32x64xf32, #shared, #smem, mutable>
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
      %3 = arith.addi %1, %arg12 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %4 = arith.muli %3, %c32_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %5 = tt.descriptor_load %arg0[%4, %c0_i32] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<32x64xf32, #shared>> -> tensor<32x64xf32, #blocked>
      %6 = arith.mulf %5, %2 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf32, #blocked>
      %7 = arith.truncf %6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf32, #blocked> to tensor<32x64xf16, #blocked>
      %8 = ttg.convert_layout %7 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #blocked1>
      tt.descriptor_store %arg5[%4, %c0_i32], %8 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !tt.tensordesc<tensor<32x64xf16, #shared1>>, tensor<32x64xf16, #blocked1>
    } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A wgmma reading registers the loop computes, whose result reaches the
// yield through a transpose: split along K into one wgmma per instruction
// K, each followed by a wait for its previous iteration (pendings = number
// of slices - 1), which also guards the result's other uses; no wait at
// the top of the body (the result is not defined there yet).
// CHECK-LABEL: @rs_dot_result_transposed
// CHECK: scf.for
// CHECK-NOT: ttng.warp_group_dot_wait
// CHECK: ttng.warp_group_dot
// CHECK-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// CHECK-NEXT: ttng.warp_group_dot
// CHECK-NEXT: ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// CHECK-NEXT: tt.trans
// CHECK-NEXT: scf.yield
// CHECK: ttng.warp_group_dot_wait {{.*}} {pendings = 0 : i32}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#lin = #ttg.linear<{register = [[1, 0], [0, 8], [8, 0], [16, 0], [32, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 16], [0, 32]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @rs_dot_result_transposed(%n: i32, %x: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: !ttg.memdesc<32x64xf16, #nvmma, #ttg.shared_memory>, %zero: tensor<64x64xf32, #lin>) -> tensor<64x64xf32, #lin> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #lin>) : i32 {
      %a = arith.addf %x, %x : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %back = tt.trans %acc {order = array<i32: 1, 0>} : tensor<64x64xf32, #lin> -> tensor<64x64xf32, #mma>
      %d = ttng.warp_group_dot %a, %b, %back {inputPrecision = 0 : i32} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<32x64xf16, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
      %t = tt.trans %d {order = array<i32: 1, 0>} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #lin>
      scf.yield %t : tensor<64x64xf32, #lin>
    }
    tt.return %r : tensor<64x64xf32, #lin>
  }
}

// -----

// With the test attribute __test_keep_predicate_stage, the kernel loop's
// stage predicates stay ttg.predicate_stage ops (here only stage 0's is
// used: the load's copy).
// CHECK-LABEL: @stage_predicates_kept
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %[[UB:.*]] step %[[STEP:.*]] iter_args
// CHECK: ttg.predicate_stage %[[IV]], %[[UB]], %[[STEP]] maxStage 2 stage 0 : i32 -> i1
#b1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @stage_predicates_kept(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %dst: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c512 = arith.constant 512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b1>
    %srcs = tt.splat %src : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1>
    %dsts = tt.splat %dst : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b1>
    scf.for %i = %c0 to %n step %c512 : i32 {
      %off = tt.splat %i {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<512xi32, #b1>
      %idx = arith.addi %off, %range {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512xi32, #b1>
      %p = tt.addptr %srcs, %idx {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #b1>, tensor<512xi32, #b1>
      %v = tt.load %p {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #b1>
      %w = arith.addf %v, %v {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<512xf32, #b1>
      %q = tt.addptr %dsts, %idx {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<512x!tt.ptr<f32>, #b1>, tensor<512xi32, #b1>
      tt.store %q, %w {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<512x!tt.ptr<f32>, #b1>
    } {tt.scheduled_max_stage = 2 : i32, __test_keep_predicate_stage}
    tt.return
  }
}

// -----

// Descriptor reductions and scatters in a loop are pipelined like stores:
// each waits for the previous TMA store, stores its value into the shared
// buffer, fences, and goes out asynchronously; one wait after the loop.
// CHECK-LABEL: @reduce_and_scatter_stores
// CHECK: %[[ROWS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<8x64xf32
// CHECK: scf.for
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_store %{{.*}}, %[[ROWS]]
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: ttng.async_tma_reduce add, %{{.*}}[%{{.*}}, %{{.*}}] %[[ROWS]]
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_store %{{.*}}, %[[ROWS]]
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: ttng.async_tma_scatter %{{.*}}[%{{.*}}, %{{.*}}] %[[ROWS]]
// CHECK-NEXT: }
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[ROWS]]
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#offs = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reduce_and_scatter_stores(%v: tensor<8x64xf32, #rows>, %block: !tt.tensordesc<tensor<8x64xf32, #nv>>, %row: !tt.tensordesc<tensor<1x64xf32, #nv>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_reduce add, %block[%i, %c0], %v : !tt.tensordesc<tensor<8x64xf32, #nv>>, tensor<8x64xf32, #rows>
      %x = tt.splat %i : i32 -> tensor<8xi32, #offs>
      tt.descriptor_scatter %row[%x, %c0], %v : !tt.tensordesc<tensor<1x64xf32, #nv>>, tensor<8xi32, #offs>, i32, tensor<8x64xf32, #rows>
    }
    tt.return
  }
}
