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

// -----

// Data partition: a 128-row tile stored through a device-side descriptor.
// Two consumer warp groups (232 registers each) each take 64 rows: their
// rows of A's buffer (a subslice), B's whole buffer, an accumulator of
// 64x128, and a half-tile store descriptor at their first row. The
// producer's empty barriers wait for both groups (count 2).

// CHECK-LABEL: tt.func public @split_matmul
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: ttng.init_barrier %{{.*}}, 1 :
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttng.init_barrier %{{.*}}, 2 :
// CHECK: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 232, 232>}
// CHECK: default {
// CHECK: ttng.barrier_expect %{{.*}}, 32768
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttg.warp_yield
// CHECK: partition0(
// CHECK: %[[D0:.*]] = tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x128xf16, #shared>>
// CHECK: arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
// CHECK: ttng.wait_barrier
// CHECK: %[[A0:.*]] = ttg.memdesc_subslice %{{.*}}[0, 0] : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared, #smem, 128x64>
// CHECK: ttng.warp_group_dot %[[A0]], {{.*}} -> tensor<64x128xf32, #mma>
// CHECK: ttng.arrive_barrier %{{.*}}, 1
// CHECK: arith.truncf {{.*}} : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
// CHECK: tt.descriptor_store %[[D0]][%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x128xf16, #shared>>, tensor<64x128xf16, #blocked{{[0-9]*}}>
// CHECK-NEXT: ttg.warp_return
// CHECK: partition1(
// CHECK: %[[D1:.*]] = tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x128xf16, #shared>>
// CHECK: %[[A1:.*]] = ttg.memdesc_subslice %{{.*}}[64, 0]
// CHECK: ttng.warp_group_dot %[[A1]]
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %c64_i32{{.*}} : i32
// CHECK-NEXT: tt.descriptor_store %[[D1]][%[[ROW]], %{{.*}}]
// CHECK-NEXT: ttg.warp_return

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @split_matmul(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i64 = arith.constant 1 : i64
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c127_i32 = arith.constant 127 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %0 = arith.extsi %arg5 : i32 to i64
    %1 = tt.make_tensor_descriptor %arg0, [%arg3, %arg5], [%0, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>>
    %2 = tt.make_tensor_descriptor %arg1, [%arg4, %arg5], [%0, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>>
    %3 = arith.extsi %arg4 : i32 to i64
    %4 = tt.make_tensor_descriptor %arg2, [%arg3, %arg4], [%3, %c1_i64] : <f16>, <tensor<128x128xf16, #shared>>
    %5 = arith.addi %arg4, %c127_i32 : i32
    %6 = arith.divsi %5, %c128_i32 : i32
    %7 = tt.get_program_id x : i32
    %8 = arith.divsi %7, %6 : i32
    %9 = arith.muli %8, %c128_i32 : i32
    %10 = arith.remsi %7, %6 : i32
    %11 = arith.muli %10, %c128_i32 : i32
    %12 = arith.addi %arg5, %c63_i32 : i32
    %13 = arith.divsi %12, %c64_i32 : i32
    %14 = scf.for %arg6 = %c0_i32 to %13 step %c1_i32 iter_args(%arg7 = %cst) -> (tensor<128x128xf32, #mma>)  : i32 {
      %17 = arith.muli %arg6, %c64_i32 : i32
      %18 = tt.descriptor_load %1[%9, %17] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %19 = ttg.local_alloc %18 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %20 = tt.descriptor_load %2[%11, %17] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %21 = ttg.local_alloc %20 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %22 = ttg.memdesc_trans %21 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %23 = ttng.warp_group_dot %19, %22, %arg7 {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %23 : tensor<128x128xf32, #mma>
    } {tt.warp_specialize}
    %15 = arith.truncf %14 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %16 = ttg.convert_layout %15 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %4[%9, %11], %16 : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    tt.return
  }
}

// -----

// The same tile stored through a host-side descriptor: its box (128 rows)
// is fixed by the host, so the tile is not split; one consumer group.

// CHECK-LABEL: tt.func public @host_store_matmul
// CHECK: ttng.init_barrier %{{.*}}, 1
// CHECK-NOT: ttng.init_barrier %{{.*}}, 2
// CHECK: ttg.warp_specialize(
// CHECK-NOT: requestedRegisters
// CHECK: partition0(
// CHECK-NOT: partition1(
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<128x128xf32, #mma>
// CHECK: tt.descriptor_store %{{.*}} : !tt.tensordesc<tensor<128x128xf16, #shared>>

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @host_store_matmul(%c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i64 = arith.constant 1 : i64
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c127_i32 = arith.constant 127 : i32
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %0 = arith.extsi %arg5 : i32 to i64
    %1 = tt.make_tensor_descriptor %arg0, [%arg3, %arg5], [%0, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>>
    %2 = tt.make_tensor_descriptor %arg1, [%arg4, %arg5], [%0, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>>
    %3 = arith.extsi %arg4 : i32 to i64
    %4 = tt.make_tensor_descriptor %arg2, [%arg3, %arg4], [%3, %c1_i64] : <f16>, <tensor<128x128xf16, #shared>>
    %5 = arith.addi %arg4, %c127_i32 : i32
    %6 = arith.divsi %5, %c128_i32 : i32
    %7 = tt.get_program_id x : i32
    %8 = arith.divsi %7, %6 : i32
    %9 = arith.muli %8, %c128_i32 : i32
    %10 = arith.remsi %7, %6 : i32
    %11 = arith.muli %10, %c128_i32 : i32
    %12 = arith.addi %arg5, %c63_i32 : i32
    %13 = arith.divsi %12, %c64_i32 : i32
    %14 = scf.for %arg6 = %c0_i32 to %13 step %c1_i32 iter_args(%arg7 = %cst) -> (tensor<128x128xf32, #mma>)  : i32 {
      %17 = arith.muli %arg6, %c64_i32 : i32
      %18 = tt.descriptor_load %1[%9, %17] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %19 = ttg.local_alloc %18 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %20 = tt.descriptor_load %2[%11, %17] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %21 = ttg.local_alloc %20 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %22 = ttg.memdesc_trans %21 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %23 = ttng.warp_group_dot %19, %22, %arg7 {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %23 : tensor<128x128xf32, #mma>
    } {tt.warp_specialize}
    %15 = arith.truncf %14 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %16 = ttg.convert_layout %15 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %c_desc[%9, %11], %16 : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    tt.return
  }
}

// -----

// A persistent tile loop (flatten=False) holding the K loop: the producer
// and both consumers run the tile loop, the ring's counter carried across
// tiles (through the K loop and the tile loop); the loop's own scalar (the
// epilogue's tile counter) is carried by every side, and the consumers
// give it to what follows the loop.

// CHECK-LABEL: tt.func public @persistent_matmul
// CHECK: ttg.warp_specialize(
// CHECK: default {
// CHECK: %[[TILES:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[PIT:.*]] = %{{.*}}) -> (i32, i32)
// CHECK: %[[PK:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[PIT]]) -> (i32)
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK: scf.yield %{{.*}}, %[[PK]] : i32, i32
// CHECK: } {tt.num_stages = 0 : i32}
// CHECK: ttg.warp_yield
// CHECK: partition0(
// CHECK: scf.for {{.*}} -> (i32, i32)
// CHECK: %[[CK:.*]]:2 = scf.for {{.*}} -> (tensor<64x128xf32, #mma>, i32)
// CHECK: ttg.memdesc_subslice %{{.*}}[0, 0]
// CHECK: arith.truncf %[[CK]]#0
// CHECK: tt.descriptor_store
// CHECK: scf.yield %{{.*}}, %[[CK]]#1 : i32, i32
// CHECK: arith.addi %[[T:.*]]#0, %[[T]]#0 : i32
// CHECK-NEXT: ttg.warp_return
// CHECK: partition1(
// CHECK: ttg.memdesc_subslice %{{.*}}[64, 0]

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @persistent_matmul(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i64 = arith.constant 1 : i64
    %c132_i32 = arith.constant 132 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c127_i32 = arith.constant 127 : i32
    %c63_i32 = arith.constant 63 : i32
    %c8_i32 = arith.constant 8 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %0 = arith.extsi %arg5 : i32 to i64
    %1 = tt.make_tensor_descriptor %arg0, [%arg3, %arg5], [%0, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>>
    %2 = tt.make_tensor_descriptor %arg1, [%arg4, %arg5], [%0, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>>
    %3 = arith.extsi %arg4 : i32 to i64
    %4 = tt.make_tensor_descriptor %arg2, [%arg3, %arg4], [%3, %c1_i64] : <f16>, <tensor<128x128xf16, #shared>>
    %5 = arith.addi %arg3, %c127_i32 : i32
    %6 = arith.divsi %5, %c128_i32 : i32
    %7 = arith.addi %arg4, %c127_i32 : i32
    %8 = arith.divsi %7, %c128_i32 : i32
    %9 = arith.addi %arg5, %c63_i32 : i32
    %10 = arith.divsi %9, %c64_i32 : i32
    %11 = tt.get_program_id x : i32
    %12 = arith.subi %11, %c132_i32 : i32
    %13 = arith.muli %6, %8 : i32
    %14 = arith.muli %8, %c8_i32 : i32
    %15 = scf.for %arg6 = %11 to %13 step %c132_i32 iter_args(%arg7 = %12) -> (i32)  : i32 {
      %16 = arith.divsi %arg6, %14 : i32
      %17 = arith.muli %16, %c8_i32 : i32
      %18 = arith.subi %6, %17 : i32
      %19 = arith.minsi %18, %c8_i32 : i32
      %20 = arith.remsi %arg6, %14 : i32
      %21 = arith.remsi %20, %19 : i32
      %22 = arith.addi %17, %21 : i32
      %23 = arith.divsi %20, %19 : i32
      %24 = arith.muli %22, %c128_i32 : i32
      %25 = arith.muli %23, %c128_i32 : i32
      %26 = scf.for %arg8 = %c0_i32 to %10 step %c1_i32 iter_args(%arg9 = %cst) -> (tensor<128x128xf32, #mma>)  : i32 {
        %40 = arith.muli %arg8, %c64_i32 : i32
        %41 = tt.descriptor_load %1[%24, %40] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %42 = ttg.local_alloc %41 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %43 = tt.descriptor_load %2[%25, %40] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %44 = ttg.local_alloc %43 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %45 = ttg.memdesc_trans %44 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
        %46 = ttng.warp_group_dot %42, %45, %arg9 {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
        scf.yield %46 : tensor<128x128xf32, #mma>
      }
      %27 = arith.addi %arg7, %c132_i32 : i32
      %28 = arith.divsi %27, %14 : i32
      %29 = arith.muli %28, %c8_i32 : i32
      %30 = arith.subi %6, %29 : i32
      %31 = arith.minsi %30, %c8_i32 : i32
      %32 = arith.remsi %27, %14 : i32
      %33 = arith.remsi %32, %31 : i32
      %34 = arith.addi %29, %33 : i32
      %35 = arith.divsi %32, %31 : i32
      %36 = arith.muli %34, %c128_i32 : i32
      %37 = arith.muli %35, %c128_i32 : i32
      %38 = arith.truncf %26 : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %39 = ttg.convert_layout %38 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
      tt.descriptor_store %4[%36, %37], %39 : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
      scf.yield %27 : i32
    } {tt.warp_specialize}
    %after = arith.addi %15, %15 : i32
    tt.return
  }
}
