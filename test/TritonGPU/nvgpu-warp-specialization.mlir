// RUN: tt-opt %s -split-input-file --nvgpu-warp-specialization='num-stages=3' --verify-diagnostics | FileCheck %s

// nvgpu-warp-specialization is upstream Triton 3.6's Hopper algorithm (task
// partition, task-id propagation, data partition, code partition,
// specialization, token lowering). The producer (async task 0) becomes the
// default region of ttg.warp_specialize: TMA copies into rings of
// num-stages buffers, each completing a "full" mbarrier (barrier_expect with
// the byte count) after waiting on the consumers' "empty" mbarriers. Each
// consumer group (tasks 1 and 2: partition0 and partition1, 4 warps,
// requestedRegisters 232 each) waits on the full barriers, runs the wgmma
// dots and releases the buffers (arrive_barrier, count 128). Every loop of
// the function gets tt.num_stages = 0. Where upstream's pass fails, the
// function is compiled unspecialized with a located warning.

// A 64x128 tile is too small to split between two consumer groups (upstream
// needs 64 rows or 128 columns each), but upstream's retry keeps the dot's
// two consumer task ids: both groups (232 registers each) compute and store
// the whole tile, the producer waits for both before refilling a buffer.

// CHECK-LABEL: tt.func public @matmul
// CHECK: %[[FULL:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared1, #smem, mutable>
// CHECK-COUNT-3: ttng.init_barrier %{{.*}}, 1 :
// CHECK: ttng.init_barrier %{{.*}}, 128 :
// CHECK: gpu.barrier
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: ttg.warp_specialize(%{{.*}}, %{{.*}}, %[[FULL]], %[[A]], %[[B]], %arg2, {{.*}}) attributes {requestedRegisters = array<i32: 232, 232>}
// CHECK-NEXT: default {
// CHECK: scf.for {{.*}} -> (i64)
// CHECK: ttng.wait_barrier
// CHECK: ttng.wait_barrier
// CHECK: %[[F:.*]] = ttg.memdesc_index %[[FULL]]
// CHECK: ttng.barrier_expect %[[F]], 24576
// CHECK: %[[AS:.*]] = ttg.memdesc_index %[[A]]
// CHECK: ttng.async_tma_copy_global_to_local %arg0[%{{.*}}, %{{.*}}] %[[AS]], %[[F]]
// CHECK: %[[BS:.*]] = ttg.memdesc_index %[[B]]
// CHECK: ttng.async_tma_copy_global_to_local %arg1[%{{.*}}, %{{.*}}] %[[BS]], %[[F]]
// CHECK: } {async_task_id = array<i32: 0>, tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK: partition0(
// CHECK-SAME: num_warps(4)
// CHECK: scf.for {{.*}} -> (tensor<64x128xf32, #mma>, i64)
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot {{.*}}async_task_id = array<i32: 1>{{.*}} -> tensor<64x128xf32, #mma>
// CHECK: ttng.arrive_barrier %{{.*}}, 128
// CHECK: } {async_task_id = array<i32: 1>, tt.num_stages = 0 : i32}
// CHECK: arith.truncf
// CHECK: tt.descriptor_store {{.*}} : !tt.tensordesc<tensor<64x128xf16, #shared>>, tensor<64x128xf16, #blocked1>
// CHECK-NEXT: ttg.warp_return
// CHECK: partition1(
// CHECK-SAME: num_warps(4)
// CHECK: scf.for {{.*}} -> (tensor<64x128xf32, #mma>, i64)
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot {{.*}}async_task_id = array<i32: 2>{{.*}} -> tensor<64x128xf32, #mma>
// CHECK: ttng.arrive_barrier %{{.*}}, 128
// CHECK: } {async_task_id = array<i32: 2>, tt.num_stages = 0 : i32}
// CHECK: tt.descriptor_store {{.*}} : !tt.tensordesc<tensor<64x128xf16, #shared>>, tensor<64x128xf16, #blocked1>
// CHECK-NEXT: ttg.warp_return
// CHECK-NOT: partition2(
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

// A marked loop without a dot: task partition finds nothing to specialize,
// so nothing changes and this pass says nothing (the loop keeps its mark);
// as upstream, the loop still gets tt.num_stages = 0.

// CHECK-LABEL: tt.func public @pointer_loads
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.load
// CHECK: } {tt.num_stages = 0 : i32, tt.warp_specialize}

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pointer_loads(%p: tensor<128x!tt.ptr<f32>, #blocked>, %n: i32) -> tensor<128xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128xf32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32, #blocked>) : i32 {
      %x = tt.load %p : tensor<128x!tt.ptr<f32>, #blocked>
      %s = arith.addf %acc, %x : tensor<128xf32, #blocked>
      scf.yield %s : tensor<128xf32, #blocked>
    } {tt.warp_specialize}
    tt.return %r : tensor<128xf32, #blocked>
  }
}

// -----

// A dot fed by pointer loads (tt.load, no TMA): upstream's token lowering
// handles only tokens committed by TMA loads, so the function is restored
// and compiled unspecialized (the mark removed, no tt.num_stages), with the
// warning.

// CHECK-LABEL: tt.func public @pointer_matmul
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.load
// CHECK: tt.load
// CHECK: ttng.warp_group_dot
// CHECK-NOT: tt.warp_specialize
// CHECK-NOT: tt.num_stages
// CHECK: tt.store

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pointer_matmul(%a: tensor<128x64x!tt.ptr<f16>, #blocked>, %b: tensor<128x64x!tt.ptr<f16>, #blocked>, %c: tensor<128x128x!tt.ptr<f32>, #mma>, %K: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    // expected-warning @below {{compiled without it: producer_commit of a token not fed by TMA loads is not supported}}
    %r = scf.for %k = %c0_i32 to %K step %c1_i32 iter_args(%acc = %cst) -> (tensor<128x128xf32, #mma>)  : i32 {
      %x = tt.load %a : tensor<128x64x!tt.ptr<f16>, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %y = tt.load %b : tensor<128x64x!tt.ptr<f16>, #blocked>
      %ys = ttg.local_alloc %y : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %xs, %yt, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.warp_specialize}
    tt.store %c, %r : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// num_warps 8: upstream leaves the function alone, and so does this pass,
// without a warning (tritium-warn-unspecialized-loops gives it later) and
// without tt.num_stages.

// CHECK-LABEL: tt.func public @eight_warps
// CHECK-NOT: ttg.warp_specialize
// CHECK: scf.for
// CHECK: } {tt.warp_specialize}

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @eight_warps(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

// Data partition of a 128-row tile stored through a device-side
// descriptor: two consumer groups (232 registers each) take 64 rows each.
// The producer loads A in two 64-row halves (own descriptors, rings and
// full barriers, 8192 bytes each, the second at row + 64) and B whole
// (16384 bytes, after waiting for both groups); each group has its own
// 64x128 accumulator and a 64x128 store descriptor, group 1 storing at
// row + 64.

// CHECK-LABEL: tt.func public @split_matmul
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 232, 232>}
// CHECK-NEXT: default {
// CHECK: %[[DA0:.*]] = tt.make_tensor_descriptor %arg0, {{.*}} : <f16>, <tensor<64x64xf16, #shared1>>
// CHECK: %[[DA1:.*]] = tt.make_tensor_descriptor %arg0, {{.*}} : <f16>, <tensor<64x64xf16, #shared1>>
// CHECK: %[[DB:.*]] = tt.make_tensor_descriptor %arg1, {{.*}} : <f16>, <tensor<128x64xf16, #shared1>>
// CHECK: %[[ROW1:.*]] = arith.addi %[[ROW0:.*]], %c64_i32
// CHECK: scf.for {{.*}} -> (i64)
// CHECK: ttng.wait_barrier
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local %[[DA0]][%[[ROW0]], %{{.*}}]
// CHECK: ttng.wait_barrier
// CHECK: ttng.wait_barrier
// CHECK: ttng.barrier_expect %{{.*}}, 16384
// CHECK: ttng.async_tma_copy_global_to_local %[[DB]][
// CHECK: ttng.wait_barrier
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local %[[DA1]][%[[ROW1]], %{{.*}}]
// CHECK: } {async_task_id = array<i32: 0>, tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK: partition0(
// CHECK: %[[D0:.*]] = tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x128xf16, #shared1>>
// CHECK: scf.for {{.*}} -> (tensor<64x128xf32, #mma>, i64)
// CHECK: ttng.wait_barrier
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<64x64xf16, #shared1, #smem> * !ttg.memdesc<64x128xf16, #shared2, #smem> -> tensor<64x128xf32, #mma>
// CHECK: ttng.arrive_barrier %{{.*}}, 128
// CHECK: ttng.arrive_barrier %{{.*}}, 128
// CHECK: } {async_task_id = array<i32: 1>, tt.num_stages = 0 : i32}
// CHECK: tt.descriptor_store %[[D0]][{{.*}}], %{{.*}} {async_task_id = array<i32: 1>} : !tt.tensordesc<tensor<64x128xf16, #shared1>>, tensor<64x128xf16, #blocked1>
// CHECK-NEXT: ttg.warp_return
// CHECK: partition1(
// CHECK: %[[D1:.*]] = tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x128xf16, #shared1>>
// CHECK: %[[R1:.*]] = arith.addi %{{.*}}, %c64_i32
// CHECK: ttng.warp_group_dot {{.*}}async_task_id = array<i32: 2>{{.*}} -> tensor<64x128xf32, #mma>
// CHECK: } {async_task_id = array<i32: 2>, tt.num_stages = 0 : i32}
// CHECK: tt.descriptor_store %[[D1]][%[[R1]], %{{.*}}]
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

// The same tile stored through a host-side descriptor: two groups would cut
// its 128-row block, so one group is tried; that one fails on the input's
// dead tt.make_tensor_descriptor (%4, whose operand moves into the
// partitions): the function is restored, unspecialized, with the warning.

// CHECK-LABEL: tt.func public @host_store_matmul(
// CHECK-NOT: ttg.warp_specialize
// CHECK: scf.for
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<128x128xf32, #mma>
// CHECK-NOT: tt.warp_specialize
// CHECK-NOT: tt.num_stages
// CHECK: tt.descriptor_store %arg0[

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
    // expected-warning @below {{compiled without it: an op being specialized is still used: its result #0 is still used by 'tt.make_tensor_descriptor'}}
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

// host_store_matmul without the dead descriptor: the retry with one
// consumer group (232 registers) succeeds; it keeps the whole 128x128 tile
// (32768 bytes a stage) and stores it through the host-side descriptor.

// CHECK-LABEL: tt.func public @host_store_matmul_one_group
// CHECK-COUNT-3: ttng.init_barrier %{{.*}}, 128
// CHECK-NOT: ttng.init_barrier
// CHECK: ttg.warp_specialize({{.*}}%arg0{{.*}}) attributes {requestedRegisters = array<i32: 232>}
// CHECK-NEXT: default {
// CHECK: scf.for {{.*}} -> (i64)
// CHECK: ttng.wait_barrier
// CHECK: ttng.barrier_expect %{{.*}}, 32768
// CHECK: ttng.async_tma_copy_global_to_local {{.*}} -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local {{.*}} -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK: } {async_task_id = array<i32: 0>, tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK: partition0(
// CHECK: scf.for {{.*}} -> (tensor<128x128xf32, #mma>, i64)
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<128x128xf32, #mma>
// CHECK: ttng.arrive_barrier %{{.*}}, 128
// CHECK: } {async_task_id = array<i32: 1>, tt.num_stages = 0 : i32}
// CHECK: tt.descriptor_store %{{.*}} : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
// CHECK-NEXT: ttg.warp_return
// CHECK-NOT: partition1(
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @host_store_matmul_one_group(%c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
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

// A persistent tile loop holding the K loop: the producer and both consumer
// groups run both loops, the rings' i64 counter carried across tiles
// (through the K loop and the tile loop); the tile loop's own i32 (the
// epilogue's tile counter) only in the consumers, which store their 64 rows
// (group 1 at row + 64). The unused result after the loop is dropped.

// CHECK-LABEL: tt.func public @persistent_matmul
// CHECK: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 232, 232>}
// CHECK-NEXT: default {
// CHECK: scf.for {{.*}} step %c132_i32 iter_args(%[[PT:arg[0-9]+]] = %{{.*}}) -> (i64)
// CHECK: %[[PK:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[PT]]) -> (i64)
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttng.barrier_expect %{{.*}}, 16384
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: } {async_task_id = array<i32: 0>, tt.num_stages = 0 : i32}
// CHECK-NEXT: scf.yield {async_task_id = array<i32: 0>} %[[PK]] : i64
// CHECK-NEXT: } {async_task_id = array<i32: 0>, tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK: partition0(
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[CT:arg[0-9]+]] = %{{.*}}) -> (i32, i64)
// CHECK-NEXT: %[[CK:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[CT]]) -> (tensor<64x128xf32, #mma>, i64)
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x128xf32, #mma>
// CHECK: ttng.arrive_barrier %{{.*}}, 128
// CHECK: } {async_task_id = array<i32: 1>, tt.num_stages = 0 : i32}
// CHECK: arith.truncf %[[CK]]#0
// CHECK: tt.descriptor_store
// CHECK-NEXT: scf.yield {async_task_id = array<i32: 1>} %{{.*}}, %[[CK]]#1 : i32, i64
// CHECK-NEXT: } {async_task_id = array<i32: 1>, tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_return
// CHECK: partition1(
// CHECK: scf.for {{.*}} -> (i32, i64)
// CHECK: %[[R1:.*]] = arith.addi %{{.*}}, %c64_i32
// CHECK: tt.descriptor_store %{{.*}}[%[[R1]], %{{.*}}]
// CHECK-NEXT: scf.yield {async_task_id = array<i32: 2>}
// CHECK-NEXT: } {async_task_id = array<i32: 2>, tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_return
// CHECK-NOT: arith.addi
// CHECK: tt.return

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

// -----

// An attention loop (tutorial 06's forward on Hopper, causal in one masked
// loop): the producer loads Q's two 64-row halves once (TMA, 8192 bytes
// each) and, in the loop, K and V (one ring and full barrier each), at the
// K/V row offset it carries. The two consumer groups (64 rows each) wait for
// their half of Q, run QK^T, the mask, the online softmax and PV, release
// Q after the loop, and store their rows of M (pointers) and O (a 64x64
// descriptor); group 1's row ranges start at 64 and its O store at row + 64.

// CHECK-LABEL: tt.func public @attention_causal
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 232, 232>}
// CHECK-NEXT: default {
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local {{.*}} -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local {{.*}} -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
// CHECK: scf.for {{.*}} step %c64_i32 iter_args(%[[KV:arg[0-9]+]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i64)
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%[[KV]], %{{.*}}]
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%[[KV]], %{{.*}}]
// CHECK: } {async_task_id = array<i32: 0>, tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK: partition0(
// CHECK: tt.make_range {{.*}}end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #mma}>>
// CHECK: ttng.wait_barrier
// CHECK: %[[Q0:.*]] = ttg.memdesc_index {{.*}} : !ttg.memdesc<1x64x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>, i64)
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot %[[Q0]], {{.*}} -> tensor<64x64xf32, #mma>
// CHECK: ttng.arrive_barrier %{{.*}}, 128
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : tensor<64x64xi32, #mma>
// CHECK: "tt.reduce"
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot {{.*}} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
// CHECK: ttng.arrive_barrier %{{.*}}, 128
// CHECK: } {async_task_id = array<i32: 1>, tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.memdesc_index
// CHECK-NEXT: ttng.arrive_barrier %{{.*}}, 128
// CHECK: tt.store {{.*}} : tensor<64x!tt.ptr<f32>, #blocked>
// CHECK: tt.descriptor_store {{.*}} : !tt.tensordesc<tensor<64x64xf16, #shared1>>, tensor<64x64xf16, #blocked1>
// CHECK-NEXT: ttg.warp_return
// CHECK: partition1(
// CHECK: %[[R1:.*]] = arith.addi %{{.*}}, %c64_i32
// CHECK-NEXT: tt.make_range {{.*}}end = 128 : i32, start = 64 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #mma}>>
// CHECK-NEXT: tt.make_range {{.*}}end = 128 : i32, start = 64 : i32} : tensor<64xi32, #blocked>
// CHECK: ttng.warp_group_dot {{.*}}async_task_id = array<i32: 2>{{.*}} -> tensor<64x64xf32, #mma>
// CHECK: } {async_task_id = array<i32: 2>, tt.num_stages = 0 : i32}
// CHECK: tt.store {{.*}} : tensor<64x!tt.ptr<f32>, #blocked>
// CHECK: tt.descriptor_store %{{.*}}[%[[R1]], %{{.*}}]
// CHECK-NEXT: ttg.warp_return

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @attention_causal(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg4: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg5: f32, %arg6: i32, %arg7: i32, %arg8: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<1.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %cst_0 = arith.constant dense<0xFF800000> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c64_i64 = arith.constant 64 : i64
    %c1_i64 = arith.constant 1 : i64
    %c128_i32 = arith.constant 128 : i32
    %cst_2 = arith.constant 1.44269502 : f32
    %c0_i32 = arith.constant 0 : i32
    %cst_3 = arith.constant dense<-1.000000e+06> : tensor<128x64xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %arg6, %arg7 : i32
    %3 = arith.muli %2, %arg8 : i32
    %4 = tt.make_tensor_descriptor %arg0, [%3, %c64_i32], [%c64_i64, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>>
    %5 = tt.make_tensor_descriptor %arg1, [%3, %c64_i32], [%c64_i64, %c1_i64] : <f16>, <tensor<64x64xf16, #shared>>
    %6 = tt.make_tensor_descriptor %arg2, [%3, %c64_i32], [%c64_i64, %c1_i64] : <f16>, <tensor<64x64xf16, #shared>>
    %7 = tt.make_tensor_descriptor %arg3, [%3, %c64_i32], [%c64_i64, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>>
    %8 = arith.muli %1, %arg8 : i32
    %9 = arith.muli %0, %c128_i32 : i32
    %10 = arith.addi %8, %9 : i32
    %11 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %12 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %13 = tt.splat %9 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %14 = tt.splat %9 : i32 -> tensor<128xi32, #blocked>
    %15 = arith.addi %13, %11 : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %16 = arith.addi %14, %12 : tensor<128xi32, #blocked>
    %17 = arith.mulf %arg5, %cst_2 : f32
    %18 = tt.descriptor_load %4[%10, %c0_i32] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked1>
    %19 = ttg.local_alloc %18 : (tensor<128x64xf16, #blocked1>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %20 = arith.addi %0, %c1_i32 : i32
    %21 = arith.muli %20, %c128_i32 : i32
    %22 = tt.expand_dims %15 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xi32, #mma>
    %23 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %24 = tt.expand_dims %23 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
    %25 = tt.broadcast %22 : tensor<128x1xi32, #mma> -> tensor<128x64xi32, #mma>
    %26 = tt.splat %17 : f32 -> tensor<128x64xf32, #mma>
    %27:4 = scf.for %arg9 = %c0_i32 to %21 step %c64_i32 iter_args(%arg10 = %cst_1, %arg11 = %cst, %arg12 = %cst_0, %arg13 = %8) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, i32)  : i32 {
      %39 = tt.descriptor_load %5[%arg13, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked1>
      %40 = ttg.local_alloc %39 : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %41 = ttg.memdesc_trans %40 {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
      %42 = ttng.warp_group_dot %19, %41, %cst_1 {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<128x64xf32, #mma>
      %43 = tt.splat %arg9 : i32 -> tensor<1x64xi32, #mma>
      %44 = arith.addi %43, %24 : tensor<1x64xi32, #mma>
      %45 = tt.broadcast %44 : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
      %46 = arith.cmpi sge, %25, %45 : tensor<128x64xi32, #mma>
      %47 = arith.mulf %42, %26 : tensor<128x64xf32, #mma>
      %48 = arith.select %46, %cst_1, %cst_3 : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
      %49 = arith.addf %47, %48 : tensor<128x64xf32, #mma>
      %50 = "tt.reduce"(%49) <{axis = 1 : i32}> ({
      ^bb0(%arg14: f32, %arg15: f32):
        %70 = arith.maxnumf %arg14, %arg15 : f32
        tt.reduce.return %70 : f32
      }) : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %51 = arith.maxnumf %arg12, %50 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %52 = tt.expand_dims %51 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %53 = tt.broadcast %52 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %54 = arith.subf %49, %53 : tensor<128x64xf32, #mma>
      %55 = math.exp2 %54 : tensor<128x64xf32, #mma>
      %56 = arith.subf %arg12, %51 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %57 = math.exp2 %56 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %58 = arith.truncf %55 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %59 = tt.descriptor_load %6[%arg13, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked1>
      %60 = ttg.local_alloc %59 : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %61 = tt.expand_dims %57 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %62 = tt.broadcast %61 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %63 = arith.mulf %arg10, %62 : tensor<128x64xf32, #mma>
      %64 = ttg.convert_layout %58 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %65 = ttng.warp_group_dot %64, %60, %63 {inputPrecision = 0 : i32} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      %66 = arith.mulf %arg11, %57 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %67 = "tt.reduce"(%55) <{axis = 1 : i32}> ({
      ^bb0(%arg14: f32, %arg15: f32):
        %70 = arith.addf %arg14, %arg15 : f32
        tt.reduce.return %70 : f32
      }) : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %68 = arith.addf %66, %67 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %69 = arith.addi %arg13, %c64_i32 : i32
      scf.yield %65, %68, %51, %69 : tensor<128x64xf32, #mma>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, i32
    } {tt.warp_specialize}
    %28 = math.log2 %27#1 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %29 = arith.addf %27#2, %28 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %30 = tt.addptr %arg4, %8 : !tt.ptr<f32>, i32
    %31 = tt.splat %30 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %32 = tt.addptr %31, %16 : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %33 = ttg.convert_layout %29 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128xf32, #blocked>
    tt.store %32, %33 : tensor<128x!tt.ptr<f32>, #blocked>
    %34 = tt.expand_dims %27#1 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
    %35 = tt.broadcast %34 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %36 = arith.divf %27#0, %35 : tensor<128x64xf32, #mma>
    %37 = arith.truncf %36 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    %38 = ttg.convert_layout %37 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked1>
    tt.descriptor_store %7[%10, %c0_i32], %38 : !tt.tensordesc<tensor<128x64xf16, #shared>>, tensor<128x64xf16, #blocked1>
    tt.return
  }
}

// -----

// The same attention loop storing O through a host-side descriptor (whose
// box the host fixes at 128 rows): no split, one consumer group (232
// registers) takes the whole tile, Q in one 128-row buffer (16384 bytes).

// CHECK-LABEL: tt.func public @attention_host_store
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x128x64xf16, #shared, #smem, mutable>
// CHECK: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 232>}
// CHECK-NEXT: default {
// CHECK: ttng.barrier_expect %{{.*}}, 16384
// CHECK: ttng.async_tma_copy_global_to_local {{.*}} -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK: scf.for {{.*}} -> (i32, i64)
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: } {async_task_id = array<i32: 0>, tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_yield
// CHECK: partition0(
// CHECK: scf.for {{.*}} -> (tensor<128x64xf32, #mma>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, i64)
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<128x64xf32, #mma>
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<128x64xf32, #mma>
// CHECK: } {async_task_id = array<i32: 1>, tt.num_stages = 0 : i32}
// CHECK: tt.descriptor_store %{{.*}} : !tt.tensordesc<tensor<128x64xf16, #shared>>, tensor<128x64xf16, #blocked1>
// CHECK-NEXT: ttg.warp_return
// CHECK-NOT: partition1(
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @attention_host_store(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg4: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg5: f32, %arg6: i32, %arg7: i32, %arg8: i32 {tt.divisibility = 16 : i32}, %o: !tt.tensordesc<tensor<128x64xf16, #shared>>) attributes {noinline = false} {
    %cst = arith.constant dense<1.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %cst_0 = arith.constant dense<0xFF800000> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c64_i64 = arith.constant 64 : i64
    %c1_i64 = arith.constant 1 : i64
    %c128_i32 = arith.constant 128 : i32
    %cst_2 = arith.constant 1.44269502 : f32
    %c0_i32 = arith.constant 0 : i32
    %cst_3 = arith.constant dense<-1.000000e+06> : tensor<128x64xf32, #mma>
    %0 = tt.get_program_id x : i32
    %1 = tt.get_program_id y : i32
    %2 = arith.muli %arg6, %arg7 : i32
    %3 = arith.muli %2, %arg8 : i32
    %4 = tt.make_tensor_descriptor %arg0, [%3, %c64_i32], [%c64_i64, %c1_i64] : <f16>, <tensor<128x64xf16, #shared>>
    %5 = tt.make_tensor_descriptor %arg1, [%3, %c64_i32], [%c64_i64, %c1_i64] : <f16>, <tensor<64x64xf16, #shared>>
    %6 = tt.make_tensor_descriptor %arg2, [%3, %c64_i32], [%c64_i64, %c1_i64] : <f16>, <tensor<64x64xf16, #shared>>
    %8 = arith.muli %1, %arg8 : i32
    %9 = arith.muli %0, %c128_i32 : i32
    %10 = arith.addi %8, %9 : i32
    %11 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %12 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %13 = tt.splat %9 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %14 = tt.splat %9 : i32 -> tensor<128xi32, #blocked>
    %15 = arith.addi %13, %11 : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %16 = arith.addi %14, %12 : tensor<128xi32, #blocked>
    %17 = arith.mulf %arg5, %cst_2 : f32
    %18 = tt.descriptor_load %4[%10, %c0_i32] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked1>
    %19 = ttg.local_alloc %18 : (tensor<128x64xf16, #blocked1>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %20 = arith.addi %0, %c1_i32 : i32
    %21 = arith.muli %20, %c128_i32 : i32
    %22 = tt.expand_dims %15 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xi32, #mma>
    %23 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>>
    %24 = tt.expand_dims %23 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
    %25 = tt.broadcast %22 : tensor<128x1xi32, #mma> -> tensor<128x64xi32, #mma>
    %26 = tt.splat %17 : f32 -> tensor<128x64xf32, #mma>
    %27:4 = scf.for %arg9 = %c0_i32 to %21 step %c64_i32 iter_args(%arg10 = %cst_1, %arg11 = %cst, %arg12 = %cst_0, %arg13 = %8) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, i32)  : i32 {
      %39 = tt.descriptor_load %5[%arg13, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked1>
      %40 = ttg.local_alloc %39 : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %41 = ttg.memdesc_trans %40 {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
      %42 = ttng.warp_group_dot %19, %41, %cst_1 {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<128x64xf32, #mma>
      %43 = tt.splat %arg9 : i32 -> tensor<1x64xi32, #mma>
      %44 = arith.addi %43, %24 : tensor<1x64xi32, #mma>
      %45 = tt.broadcast %44 : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
      %46 = arith.cmpi sge, %25, %45 : tensor<128x64xi32, #mma>
      %47 = arith.mulf %42, %26 : tensor<128x64xf32, #mma>
      %48 = arith.select %46, %cst_1, %cst_3 : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
      %49 = arith.addf %47, %48 : tensor<128x64xf32, #mma>
      %50 = "tt.reduce"(%49) <{axis = 1 : i32}> ({
      ^bb0(%arg14: f32, %arg15: f32):
        %70 = arith.maxnumf %arg14, %arg15 : f32
        tt.reduce.return %70 : f32
      }) : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %51 = arith.maxnumf %arg12, %50 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %52 = tt.expand_dims %51 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %53 = tt.broadcast %52 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %54 = arith.subf %49, %53 : tensor<128x64xf32, #mma>
      %55 = math.exp2 %54 : tensor<128x64xf32, #mma>
      %56 = arith.subf %arg12, %51 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %57 = math.exp2 %56 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %58 = arith.truncf %55 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %59 = tt.descriptor_load %6[%arg13, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked1>
      %60 = ttg.local_alloc %59 : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %61 = tt.expand_dims %57 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %62 = tt.broadcast %61 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %63 = arith.mulf %arg10, %62 : tensor<128x64xf32, #mma>
      %64 = ttg.convert_layout %58 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %65 = ttng.warp_group_dot %64, %60, %63 {inputPrecision = 0 : i32} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      %66 = arith.mulf %arg11, %57 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %67 = "tt.reduce"(%55) <{axis = 1 : i32}> ({
      ^bb0(%arg14: f32, %arg15: f32):
        %70 = arith.addf %arg14, %arg15 : f32
        tt.reduce.return %70 : f32
      }) : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %68 = arith.addf %66, %67 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %69 = arith.addi %arg13, %c64_i32 : i32
      scf.yield %65, %68, %51, %69 : tensor<128x64xf32, #mma>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, i32
    } {tt.warp_specialize}
    %28 = math.log2 %27#1 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %29 = arith.addf %27#2, %28 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %30 = tt.addptr %arg4, %8 : !tt.ptr<f32>, i32
    %31 = tt.splat %30 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %32 = tt.addptr %31, %16 : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %33 = ttg.convert_layout %29 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128xf32, #blocked>
    tt.store %32, %33 : tensor<128x!tt.ptr<f32>, #blocked>
    %34 = tt.expand_dims %27#1 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
    %35 = tt.broadcast %34 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %36 = arith.divf %27#0, %35 : tensor<128x64xf32, #mma>
    %37 = arith.truncf %36 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    %38 = ttg.convert_layout %37 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked1>
    tt.descriptor_store %o[%10, %c0_i32], %38 : !tt.tensordesc<tensor<128x64xf16, #shared>>, tensor<128x64xf16, #blocked1>
    tt.return
  }
}

// -----

// Two marked loops without dots: nothing to specialize and no warning from
// this pass (both keep their mark); both get tt.num_stages = 0.

// CHECK-LABEL: tt.func public @two_loops
// CHECK-NOT: ttg.warp_specialize
// CHECK: } {tt.num_stages = 0 : i32, tt.warp_specialize}
// CHECK: } {tt.num_stages = 0 : i32, tt.warp_specialize}

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_loops(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
    } {tt.warp_specialize}
    scf.for %i = %c0 to %n step %c1 : i32 {
    } {tt.warp_specialize}
    tt.return
  }
}
