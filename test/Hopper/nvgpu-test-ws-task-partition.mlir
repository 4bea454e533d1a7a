// RUN: tt-opt %s -split-input-file --nvgpu-test-ws-task-partition=num-warp-groups=3 | FileCheck %s
// RUN: tt-opt %s -split-input-file --nvgpu-test-ws-task-partition=num-warp-groups=2 | FileCheck %s --check-prefix=TWO
// RUN: tt-opt %s -split-input-file --nvgpu-test-ws-task-partition=num-warp-groups=1 | FileCheck %s --check-prefix=ONE

// The loads the dot's operands come from go to the producer (task 0): a
// descriptor load, and a pointer load of a tile large enough to be expensive
// (128x64 elements for 128 threads). The scalar load feeding an offset is in
// the dot's backward slice, but cheap: it stays unlabelled. The dot and every
// store go to the consumers (1..num-warp-groups-1); nothing else is labelled
// here (the propagation step does that).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @loads_and_stores
  // CHECK: %[[OFF:.*]] = tt.load %arg2 : !tt.ptr<i32>
  // CHECK: scf.for
  // CHECK-NEXT: tt.descriptor_load %arg0[%[[OFF]], %{{.*}}] {async_task_id = array<i32: 0>}
  // CHECK-NEXT: ttg.local_alloc %{{[0-9]+}} :
  // CHECK-NEXT: tt.splat %arg1 :
  // CHECK-NEXT: tt.load %{{[0-9]+}} {async_task_id = array<i32: 0>}
  // CHECK-NEXT: ttg.local_alloc %{{[0-9]+}} :
  // CHECK-NEXT: ttng.warp_group_dot {{.*}} {async_task_id = array<i32: 1, 2>, inputPrecision = 0 : i32}
  // CHECK-NEXT: scf.yield %{{[0-9]+}} :
  // CHECK-NEXT: }
  // CHECK-NEXT: arith.truncf %{{[0-9]+}} :
  // CHECK-NEXT: tt.splat
  // CHECK-NEXT: tt.store {{.*}} {async_task_id = array<i32: 1, 2>}
  // TWO-LABEL: @loads_and_stores
  // TWO: tt.descriptor_load {{.*}} {async_task_id = array<i32: 0>}
  // TWO: tt.load {{.*}} {async_task_id = array<i32: 0>}
  // TWO: ttng.warp_group_dot {{.*}} {async_task_id = array<i32: 1>, inputPrecision = 0 : i32}
  // TWO: tt.store {{.*}} {async_task_id = array<i32: 1>}
  // ONE-LABEL: @loads_and_stores
  // ONE-NOT: async_task_id
  tt.func public @loads_and_stores(%arg0: !tt.tensordesc<tensor<64x64xf16, #shared>>, %arg1: !tt.ptr<f16>, %arg2: !tt.ptr<i32>, %arg3: !tt.ptr<f16>, %arg4: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %off = tt.load %arg2 : !tt.ptr<i32>
    %0 = scf.for %i = %c0_i32 to %arg4 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32, #mma>)  : i32 {
      %a = tt.descriptor_load %arg0[%off, %i] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %a_s = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b_p = tt.splat %arg1 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
      %b = tt.load %b_p : tensor<64x64x!tt.ptr<f16>, #blocked>
      %b_s = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_s, %b_s, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    %1 = arith.truncf %0 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %c_p = tt.splat %arg3 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #mma>
    tt.store %c_p, %1 : tensor<64x64x!tt.ptr<f16>, #mma>
    tt.return
  }
}

// -----

// A dot operand that is a loop-carried value: its backward slice is the
// loop's (the loop op and what its operands come from), which reaches the
// descriptor load before the loop.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @loop_carried_operand
  // ONE-LABEL: @loop_carried_operand
  // CHECK: tt.descriptor_load {{.*}} {async_task_id = array<i32: 0>}
  // CHECK: scf.for
  // CHECK: tt.descriptor_load {{.*}} {async_task_id = array<i32: 0>}
  // CHECK: ttng.warp_group_dot {{.*}} {async_task_id = array<i32: 1, 2>
  tt.func public @loop_carried_operand(%arg0: !tt.tensordesc<tensor<64x64xf16, #shared>>, %arg4: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %a = tt.descriptor_load %arg0[%c0_i32, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
    %a_s = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %0:2 = scf.for %i = %c0_i32 to %arg4 step %c1_i32 iter_args(%acc = %cst, %a_c = %a_s) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>)  : i32 {
      %b = tt.descriptor_load %arg0[%i, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %b_s = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_c, %b_s, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d, %a_c : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>
    }
    tt.return
  }
}

// -----

// Task ids already there (the user's, or the driver's first attempt): the
// function is left as it is.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @annotated
  // CHECK: %[[C0:.*]] = arith.constant {async_task_id = array<i32: 1>} 0 : i32
  // CHECK: tt.descriptor_load {{.*}} : !tt.tensordesc
  // CHECK: ttng.warp_group_dot {{.*}} {inputPrecision = 0 : i32}
  tt.func public @annotated(%arg0: !tt.tensordesc<tensor<64x64xf16, #shared>>, %arg4: i32) {
    %c0_i32 = arith.constant {async_task_id = array<i32: 1>} 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = scf.for %i = %c0_i32 to %arg4 step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32, #mma>)  : i32 {
      %a = tt.descriptor_load %arg0[%i, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %a_s = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_s, %a_s, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return
  }
}

// -----

// No loop: nothing to partition.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @no_loop
  // CHECK-NOT: async_task_id
  // CHECK: tt.return
  tt.func public @no_loop(%arg0: !tt.tensordesc<tensor<64x64xf16, #shared>>) {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %a = tt.descriptor_load %arg0[%c0_i32, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
    %a_s = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %d = ttng.warp_group_dot %a_s, %a_s, %cst {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}
