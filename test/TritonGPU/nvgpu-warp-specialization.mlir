// RUN: tt-opt %s -split-input-file --nvgpu-warp-specialization='num-stages=3' --verify-diagnostics | FileCheck %s

// A TMA matmul's K loop (upstream's TTGIR at this point of its pipeline)
// becomes a producer (the default region: TMA loads into rings of 3
// buffers, on full/empty mbarriers) and one consumer warp group (the
// wgmma dot and the epilogue).

// CHECK-LABEL: tt.func public @matmul
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[FULL:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #[[BAR:shared[0-9]*]], #smem, mutable>
// CHECK: %[[EMPTY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #[[BAR]], #smem, mutable>
// CHECK-COUNT-6: ttng.init_barrier %{{.*}}, 1
// CHECK: gpu.barrier
// CHECK: ttg.warp_specialize(%{{.*}}, %arg2, %[[A]], %[[B]], %[[FULL]], %[[EMPTY]])
// CHECK-NEXT: default {
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[IT:.*]] = %{{.*}}) -> (i32)
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %{{.*}} : i32
// CHECK: %[[ROUND:.*]] = arith.divui %[[IT]]
// CHECK: %[[PHASE:.*]] = arith.andi %[[ROUND]]
// CHECK: %[[FREE:.*]] = arith.xori %[[PHASE]]
// CHECK: %[[E:.*]] = ttg.memdesc_index %[[EMPTY]][%[[SLOT]]]
// CHECK: ttng.wait_barrier %[[E]], %[[FREE]]
// CHECK: %[[F:.*]] = ttg.memdesc_index %[[FULL]][%[[SLOT]]]
// CHECK: ttng.barrier_expect %[[F]], 24576
// CHECK: %[[AS:.*]] = ttg.memdesc_index %[[A]][%[[SLOT]]]
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%{{.*}}, %{{.*}}] %[[AS]], %[[F]]
// CHECK: %[[BS:.*]] = ttg.memdesc_index %[[B]][%[[SLOT]]]
// CHECK: ttng.async_tma_copy_global_to_local %arg1[%{{.*}}, %{{.*}}] %[[BS]], %[[F]]
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK: partition0(
// CHECK-SAME: num_warps(4)
// CHECK: arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
// CHECK: scf.for {{.*}} -> (tensor<64x128xf32, #mma>, i32)
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot
// CHECK: ttng.arrive_barrier %{{.*}}, 1
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK: arith.truncf
// CHECK: tt.descriptor_store
// CHECK-NEXT: ttg.warp_return
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul(%a_desc: !tt.tensordesc<tensor<64x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<64x128xf16, #shared>>, %M: i32, %N: i32, %K: i32) {
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c127_i32 = arith.constant 127 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = arith.addi %N, %c127_i32 : i32
    %2 = arith.divsi %1, %c128_i32 : i32
    %3 = arith.divsi %0, %2 : i32
    %4 = arith.remsi %0, %2 : i32
    %5 = arith.addi %K, %c63_i32 : i32
    %6 = arith.divsi %5, %c64_i32 : i32
    %7 = arith.muli %3, %c64_i32 : i32
    %8 = arith.muli %4, %c128_i32 : i32
    %9 = scf.for %k = %c0_i32 to %6 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x128xf32, #mma>)  : i32 {
      %14 = arith.muli %k, %c64_i32 : i32
      %15 = tt.descriptor_load %a_desc[%7, %14] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %16 = ttg.local_alloc %15 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %17 = tt.descriptor_load %b_desc[%8, %14] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %18 = ttg.local_alloc %17 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %19 = ttg.memdesc_trans %18 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %20 = ttng.warp_group_dot %16, %19, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<64x128xf32, #mma>
      scf.yield %20 : tensor<64x128xf32, #mma>
    } {tt.warp_specialize}
    %10 = arith.muli %3, %c64_i32 : i32
    %11 = arith.muli %4, %c128_i32 : i32
    %12 = arith.truncf %9 : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
    %13 = ttg.convert_layout %12 : tensor<64x128xf16, #mma> -> tensor<64x128xf16, #blocked1>
    tt.descriptor_store %c_desc[%10, %11], %13 : !tt.tensordesc<tensor<64x128xf16, #shared>>, tensor<64x128xf16, #blocked1>
    tt.return
  }
}

// -----

// A loop this pass cannot specialize yet: a located warning, the loop as it was.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @pointer_loads
  // CHECK-NOT: ttg.warp_specialize
  tt.func public @pointer_loads(%p: tensor<128x!tt.ptr<f32>, #blocked>, %n: i32) -> tensor<128xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128xf32, #blocked>
    // expected-warning @below {{compiled without it: the loop body has 'tt.load'}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32, #blocked>) : i32 {
      %x = tt.load %p : tensor<128x!tt.ptr<f32>, #blocked>
      %s = arith.addf %acc, %x : tensor<128xf32, #blocked>
      scf.yield %s : tensor<128xf32, #blocked>
    } {tt.warp_specialize}
    tt.return %r : tensor<128xf32, #blocked>
  }
}

// -----

// num_warps 8: upstream leaves the loop alone, and so does this pass
// (tritium-warn-unspecialized-loops says so later).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @eight_warps
  // CHECK: scf.for
  // CHECK: } {tt.warp_specialize}
  tt.func public @eight_warps(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
    } {tt.warp_specialize}
    tt.return
  }
}
