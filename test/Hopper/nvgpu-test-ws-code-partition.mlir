// RUN: tt-opt %s -split-input-file --nvgpu-test-ws-code-partition=num-buffers=2 2>/dev/null | FileCheck %s
// RUN: tt-opt %s -split-input-file --nvgpu-test-ws-code-partition=num-buffers=0 | FileCheck %s --check-prefix=OFF

// Two TMA loads of the producer (task 0) feed one dot of the consumer
// (task 1): one channel group, so one ring of 2 mbarriers, one token, and
// a buffer of 2 stages per load. The loop carries an i64 count; the
// producer waits for a free stage, expects the bytes of both tiles and
// issues both copies; the consumer waits on the stage's barrier, reads the
// stages (the local_alloc of the load is folded away) and releases them
// after the dot.
// OFF-LABEL: @tma_loads
// OFF-NOT: ttg.warp_specialize
// CHECK-LABEL: @tma_loads
// CHECK: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>
// CHECK-COUNT-2: ttng.init_barrier
// CHECK: %[[TOK:.*]] = nvws.create_token {loadType = 2 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
// CHECK: %[[BUFA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
// CHECK: %[[BUFB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
// CHECK: ttg.warp_specialize(%[[BARS]], %[[BUFA]], %[[BUFB]], %[[TOK]]
// CHECK: default
// CHECK: scf.for {{.*}} iter_args(%[[CNT:.*]] = %c0_i64) -> (i64)
// CHECK: arith.divui %[[CNT]]
// CHECK: nvws.producer_acquire %[[TOK]], %[[IDX:.*]], %{{.*}} {async_task_id = array<i32: 0>}
// CHECK: %[[BAR:.*]] = ttg.memdesc_index %[[BARS]][%[[IDX]]]
// CHECK: ttng.barrier_expect %[[BAR]], 16384
// CHECK: %[[SA:.*]] = ttg.memdesc_index %[[BUFA]][%[[IDX]]] {{.*}} -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %arg0[{{.*}}] %[[SA]], %[[BAR]]
// CHECK: ttng.async_tma_copy_global_to_local %arg1
// CHECK-NOT: nvws.producer_commit
// CHECK: arith.addi %[[CNT]], %c1_i64
// CHECK: partition0
// CHECK: scf.for
// CHECK: ttng.wait_barrier
// CHECK: %[[VA:.*]] = ttg.memdesc_index {{.*}} -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: %[[VB:.*]] = ttg.memdesc_index {{.*}} -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: ttng.warp_group_dot %[[VA]], %[[VB]]
// CHECK-NEXT: nvws.consumer_release
// CHECK-NOT: nvws.consumer_wait
// CHECK: warp_return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_loads(%desc_a: !tt.tensordesc<tensor<64x64xf16, #shared>>, %desc_b: !tt.tensordesc<tensor<64x64xf16, #shared>>, %out: !tt.ptr<f16>, %n: i32) {
    %c0_i32 = arith.constant {async_task_id = array<i32: 0, 1>} 0 : i32
    %c1_i32 = arith.constant {async_task_id = array<i32: 0, 1>} 1 : i32
    %cst = arith.constant {async_task_id = array<i32: 1>} dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32, #mma>)  : i32 {
      %a = tt.descriptor_load %desc_a[%i, %c0_i32] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %a_s = ttg.local_alloc %a {async_task_id = array<i32: 1>} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %desc_b[%i, %c0_i32] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %b_s = ttg.local_alloc %b {async_task_id = array<i32: 1>} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_s, %b_s, %acc {async_task_id = array<i32: 1>, inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield {async_task_id = array<i32: 1>} %d : tensor<64x64xf32, #mma>
    } {async_task_id = array<i32: 0, 1>}
    %t = arith.truncf %0 {async_task_id = array<i32: 1>} : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %outs = tt.splat %out {async_task_id = array<i32: 1>} : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #mma>
    tt.store %outs, %t {async_task_id = array<i32: 1>} : tensor<64x64x!tt.ptr<f16>, #mma>
    tt.return
  }
}

// -----

// A pointer load of the producer becomes a cp.async into a 2-stage buffer
// between producer_acquire and producer_commit (token of load type 1); the
// consumer waits for it, reads it back with local_load, and releases it
// after the dot.
// CHECK-LABEL: @pointer_load
// CHECK: %[[TOK:.*]] = nvws.create_token {loadType = 1 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
// CHECK: default
// CHECK: scf.for
// CHECK: %[[S:.*]] = ttg.memdesc_index %[[BUF]][%{{.*}}]
// CHECK: nvws.producer_acquire %[[TOK]], %[[IDX:.*]], %{{.*}} {async_task_id = array<i32: 0>}
// CHECK-NEXT: ttg.async_copy_global_to_local %{{.*}}, %[[S]] {async_task_id = array<i32: 0>}
// CHECK: nvws.producer_commit %[[TOK]], %[[IDX]] {async_task_id = array<i32: 0>}
// CHECK: partition0
// CHECK: scf.for
// CHECK: %[[V:.*]] = ttg.memdesc_index
// CHECK: nvws.consumer_wait %{{.*}}, %[[CIDX:.*]], %{{.*}} {async_task_id = array<i32: 1>}
// CHECK: ttg.local_load %[[V]]
// CHECK: ttng.warp_group_dot
// CHECK-NEXT: nvws.consumer_release %{{.*}}, %[[CIDX]] {async_task_id = array<i32: 1>}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pointer_load(%ptr: !tt.ptr<f16>, %out: !tt.ptr<f16>, %n: i32) {
    %c0_i32 = arith.constant {async_task_id = array<i32: 0, 1>} 0 : i32
    %c1_i32 = arith.constant {async_task_id = array<i32: 0, 1>} 1 : i32
    %cst = arith.constant {async_task_id = array<i32: 1>} dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32, #mma>)  : i32 {
      %ptrs = tt.splat %ptr {async_task_id = array<i32: 0>} : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
      %b = tt.load %ptrs {async_task_id = array<i32: 0>} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %b_s = ttg.local_alloc %b {async_task_id = array<i32: 1>} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %b_s, %b_s, %acc {async_task_id = array<i32: 1>, inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield {async_task_id = array<i32: 1>} %d : tensor<64x64xf32, #mma>
    } {async_task_id = array<i32: 0, 1>}
    %t = arith.truncf %0 {async_task_id = array<i32: 1>} : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %outs = tt.splat %out {async_task_id = array<i32: 1>} : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #mma>
    tt.store %outs, %t {async_task_id = array<i32: 1>} : tensor<64x64x!tt.ptr<f16>, #mma>
    tt.return
  }
}

// -----

// A load before the loop has a single-stage buffer and token, at index 0
// and phase false; the consumer releases it after the loop that uses it. A
// dot result of task 1 read by task 2 goes through a 2-stage buffer with a
// local_store (token of load type 3): task 1 acquires, stores and commits,
// task 2 waits, loads and releases.
// CHECK-LABEL: @load_before_loop_and_dot_to_other_task
// CHECK: nvws.create_token {loadType = 2 : i32, numBuffers = 1 : i32} : tensor<1x!nvws.token>
// CHECK: nvws.create_token {loadType = 3 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16, #shared, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf32, #shared2, #smem, mutable>
// CHECK: default
// CHECK: %[[Z:.*]] = arith.constant {async_task_id = array<i32: 0>} 0 : i32
// CHECK: %[[F:.*]] = arith.constant {async_task_id = array<i32: 0>} false
// CHECK: nvws.producer_acquire %{{.*}}, %[[Z]], %[[F]]
// CHECK: ttng.barrier_expect %{{.*}}, 8192
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: scf.for
// CHECK: partition0
// CHECK: ttng.wait_barrier
// CHECK: scf.for
// CHECK: ttng.warp_group_dot
// CHECK: nvws.producer_acquire
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: nvws.producer_commit
// CHECK: } {async_task_id = array<i32: 1>}
// CHECK-NEXT: nvws.consumer_release
// CHECK: partition1
// CHECK: scf.for
// CHECK: nvws.consumer_wait
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: nvws.consumer_release
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @load_before_loop_and_dot_to_other_task(%desc: !tt.tensordesc<tensor<64x64xf16, #shared>>, %out: !tt.ptr<f32>, %n: i32) {
    %c0_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 0 : i32
    %c1_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 1 : i32
    %cst = arith.constant {async_task_id = array<i32: 1, 2>} dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %q = tt.descriptor_load %desc[%c0_i32, %c0_i32] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
    %q_s = ttg.local_alloc %q {async_task_id = array<i32: 1>} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %0 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32, #mma>)  : i32 {
      %d = ttng.warp_group_dot %q_s, %q_s, %cst {async_task_id = array<i32: 1>, inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %s = arith.addf %acc, %d {async_task_id = array<i32: 2>} : tensor<64x64xf32, #mma>
      scf.yield {async_task_id = array<i32: 1, 2>} %s : tensor<64x64xf32, #mma>
    } {async_task_id = array<i32: 0, 1, 2>}
    %outs = tt.splat %out {async_task_id = array<i32: 2>} : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %outs, %0 {async_task_id = array<i32: 2>} : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Nothing crosses tasks: the function is left alone.
// CHECK-LABEL: @no_channel
// CHECK-NOT: ttg.warp_specialize
// CHECK-NOT: nvws.create_token
// CHECK: tt.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_channel(%ptr: !tt.ptr<f32>, %v: f32) {
    %x = arith.addf %v, %v {async_task_id = array<i32: 0>} : f32
    tt.store %ptr, %x {async_task_id = array<i32: 0>} : !tt.ptr<f32>
    tt.return
  }
}
