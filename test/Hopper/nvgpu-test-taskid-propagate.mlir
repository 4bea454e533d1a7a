// RUN: tt-opt %s -split-input-file --nvgpu-test-taskid-propagate=num-warp-groups=3 --verify-diagnostics | FileCheck %s
// RUN: tt-opt %s -split-input-file --nvgpu-test-taskid-propagate=num-warp-groups=0 | FileCheck %s --check-prefix=ZERO
// RUN: tt-opt %s -split-input-file --nvgpu-test-ws-task-partition=num-warp-groups=3 --nvgpu-test-taskid-propagate=num-warp-groups=3 --verify-diagnostics | FileCheck %s --check-prefix=BOTH

// The anchors' ids flow backwards to what they use: the load's (task 0) to
// its indices and the loop's bounds; the dot's (tasks 1 and 2, given
// unsorted: the test pass sorts them) to its operands, through the loop's
// iter_args to the init value, through the scf.if's results to its yields,
// and to the conditions and bounds of the enclosing if and loop. Ops without
// ids get the union of their results' (or, without results, operands') ids;
// their enclosing ops get those added. The loop thus gets only 1 and 2: the
// load inside it has its own ids and labels no parent, and the loop's result
// is unused. A constant's ids are not an anchor: they are replaced.
// With num-warp-groups=0 the pass only removes the ids.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @if_in_loop
  // CHECK: %[[C0:.*]] = arith.constant {async_task_id = array<i32: 0, 1, 2>} 0 : i32
  // CHECK-NEXT: %[[C1:.*]] = arith.constant {async_task_id = array<i32: 0, 1, 2>} 1 : i32
  // CHECK-NEXT: %[[CST:.*]] = arith.constant {async_task_id = array<i32: 1, 2>} dense<0.000000e+00>
  // CHECK-NEXT: %[[UNUSED:.*]] = arith.constant 7 : i32
  // CHECK-NEXT: scf.for %[[I:.*]] = %[[C0]] to %arg1 step %[[C1]] iter_args(%[[ACC:.*]] = %[[CST]])
  // CHECK-NEXT: %[[A:.*]] = tt.descriptor_load %arg0[%[[I]], %[[C0]]] {async_task_id = array<i32: 0>}
  // CHECK-NEXT: %[[AS:.*]] = ttg.local_alloc %[[A]] {async_task_id = array<i32: 1, 2>}
  // CHECK-NEXT: %[[COND:.*]] = arith.cmpi slt, %[[I]], %arg2 {async_task_id = array<i32: 1, 2>}
  // CHECK-NEXT: %[[R:.*]] = scf.if %[[COND]]
  // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[AS]], %[[AS]], %[[ACC]] {async_task_id = array<i32: 1, 2>, inputPrecision = 0 : i32}
  // CHECK-NEXT: scf.yield {async_task_id = array<i32: 1, 2>} %[[D]]
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield {async_task_id = array<i32: 1, 2>} %[[ACC]]
  // CHECK-NEXT: } {async_task_id = array<i32: 1, 2>}
  // CHECK-NEXT: scf.yield {async_task_id = array<i32: 1, 2>} %[[R]]
  // CHECK-NEXT: } {async_task_id = array<i32: 1, 2>}
  // CHECK-NEXT: tt.return
  // ZERO-LABEL: @if_in_loop
  // ZERO-NOT: async_task_id
  // ZERO: tt.return
  tt.func public @if_in_loop(%arg0: !tt.tensordesc<tensor<64x64xf16, #shared>>, %n: i32, %bound: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant {async_task_id = array<i32: 0>} dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c7_i32 = arith.constant 7 : i32
    %0 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32, #mma>)  : i32 {
      %a = tt.descriptor_load %arg0[%i, %c0_i32] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %a_s = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %cond = arith.cmpi slt, %i, %bound : i32
      %r = scf.if %cond -> (tensor<64x64xf32, #mma>) {
        %d = ttng.warp_group_dot %a_s, %a_s, %acc {async_task_id = array<i32: 2, 1>, inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
        scf.yield %d : tensor<64x64xf32, #mma>
      } else {
        scf.yield %acc : tensor<64x64xf32, #mma>
      }
      scf.yield %r : tensor<64x64xf32, #mma>
    }
    tt.return
  }
}

// -----

// A reduction's ids reach its combine region: the terminator's operands
// take the reduction's results' ids.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @reduce
  // CHECK: ttng.warp_group_dot {{.*}} {async_task_id = array<i32: 1>
  // CHECK: tt.reduce
  // CHECK: arith.maxnumf {{.*}} {async_task_id = array<i32: 2>}
  // CHECK: tt.reduce.return {{.*}} {async_task_id = array<i32: 2>}
  // CHECK: {async_task_id = array<i32: 2>}
  // CHECK: tt.splat %arg1 {async_task_id = array<i32: 2>}
  // CHECK: tt.store {{.*}} {async_task_id = array<i32: 2>}
  // CHECK: scf.yield {async_task_id = array<i32: 1, 2>}
  // CHECK-NEXT: } {async_task_id = array<i32: 0, 1, 2>}
  tt.func public @reduce(%arg0: !tt.tensordesc<tensor<64x64xf16, #shared>>, %out: !tt.ptr<f32>, %n: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32, #mma>)  : i32 {
      %off = arith.addi %i, %c1_i32 : i32
      %a = tt.descriptor_load %arg0[%off, %c0_i32] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %a_s = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %a_s, %a_s, %acc {async_task_id = array<i32: 1>, inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %m = "tt.reduce"(%d) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tt.reduce.return %mx : f32
      }) : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #mma}>>
      tt.store %p, %m {async_task_id = array<i32: 2>} : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #mma}>>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return
  }
}

// -----

// Only constants carry ids: no anchor, nothing propagates (the ids are
// sorted all the same).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @constants_only
  // CHECK: arith.constant {async_task_id = array<i32: 1, 2>} 0 : i32
  // CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} : i32
  tt.func public @constants_only(%arg0: i32) -> i32 {
    %c0_i32 = arith.constant {async_task_id = array<i32: 2, 1>} 0 : i32
    %0 = arith.addi %arg0, %c0_i32 : i32
    tt.return %0 : i32
  }
}

// -----

// Upstream's analysis stops on an op nested in a region it does not model.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @below {{task-id propagation does not support}}
  tt.func public @scan(%arg0: tensor<128xf32, #blocked>, %p: tensor<128x!tt.ptr<f32>, #blocked>) {
    %0 = "tt.scan"(%arg0) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tt.scan.return %s : f32
    }) : (tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    tt.store %p, %0 {async_task_id = array<i32: 1>} : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Nor does it take conditional branches (a function with an early return)
// or calls: upstream asserts.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @below {{task-id propagation does not support 'cf.cond_br'}}
  tt.func public @early_return(%arg0: i1, %p: !tt.ptr<i32>, %v: i32) {
    cf.cond_br %arg0, ^bb1, ^bb2
  ^bb1:
    tt.store %p, %v {async_task_id = array<i32: 1>} : !tt.ptr<i32>
    tt.return
  ^bb2:
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @helper(%x: i32) -> i32 attributes {noinline = true} {
    tt.return %x : i32
  }
  // expected-error @below {{task-id propagation does not support calls}}
  tt.func public @call(%p: !tt.ptr<i32>, %v: i32) {
    %0 = tt.call @helper(%v) : (i32) -> i32
    tt.store %p, %0 {async_task_id = array<i32: 1>} : !tt.ptr<i32>
    tt.return
  }
}

// -----

// Both steps, as the driver runs them (this output is upstream's, checked
// with its driver's dumps). The first dot operand is loop-carried: its
// backward slice is the inner loop's, so only the descriptor load before the
// loop joins the producer; the one in the loop, which feeds that operand on
// the next iteration, goes to the consumers. The tile-sized pointer load
// (B) is expensive: producer. The scalar load is cheap and stays with its
// users. The outer loop's third value is used by nothing: no ids.
// BOTH-LABEL: @nested
// BOTH: tt.descriptor_load {{.*}} {async_task_id = array<i32: 0>}
// BOTH: tt.load %arg2 {async_task_id = array<i32: 1, 2>}
// BOTH: scf.for
// BOTH: arith.muli {{.*}} {async_task_id = array<i32: 1, 2>}
// BOTH: scf.for
// BOTH-NEXT: tt.splat %arg1 {async_task_id = array<i32: 0>}
// BOTH-NEXT: tt.load {{.*}} {async_task_id = array<i32: 0>}
// BOTH-NEXT: ttg.local_alloc {{.*}} {async_task_id = array<i32: 1, 2>}
// BOTH-NEXT: ttng.warp_group_dot {{.*}} {async_task_id = array<i32: 1, 2>, inputPrecision = 0 : i32}
// BOTH-NEXT: tt.descriptor_load {{.*}} {async_task_id = array<i32: 1, 2>}
// BOTH-NEXT: ttg.local_alloc {{.*}} {async_task_id = array<i32: 1, 2>}
// BOTH-NEXT: arith.addi {{.*}} {async_task_id = array<i32: 1, 2>}
// BOTH-NEXT: scf.yield {async_task_id = array<i32: 1, 2>}
// BOTH-NEXT: } {async_task_id = array<i32: 0, 1, 2>}
// BOTH-NEXT: tt.splat %arg3 {async_task_id = array<i32: 1, 2>}
// BOTH-NEXT: tt.store {{.*}} {async_task_id = array<i32: 1, 2>}
// BOTH-NEXT: arith.addi %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : i32
// BOTH-NEXT: scf.yield {async_task_id = array<i32: 1, 2>}
// BOTH-NEXT: } {async_task_id = array<i32: 0, 1, 2>}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nested(%arg0: !tt.tensordesc<tensor<64x64xf16, #shared>>, %pa: !tt.ptr<f16>, %pi: !tt.ptr<i32>, %out: !tt.ptr<f32>, %n: i32, %m: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i32 = arith.constant 3 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %first = tt.descriptor_load %arg0[%c0_i32, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
    %first_s = ttg.local_alloc %first : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %off = tt.load %pi : !tt.ptr<i32>
    %r:3 = scf.for %t = %c0_i32 to %m step %c1_i32 iter_args(%cnt = %c0_i32, %last = %cst, %unused = %c3_i32) -> (i32, tensor<64x64xf32, #mma>, i32)  : i32 {
      %tt = arith.muli %t, %off : i32
      %0:3 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%acc = %cst, %a_c = %first_s, %c = %cnt) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>, i32)  : i32 {
        %b_p = tt.splat %pa : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
        %b = tt.load %b_p : tensor<64x64x!tt.ptr<f16>, #blocked>
        %b_s = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
        %d = ttng.warp_group_dot %a_c, %b_s, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
        %a2 = tt.descriptor_load %arg0[%tt, %i] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
        %a2_s = ttg.local_alloc %a2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
        %c2 = arith.addi %c, %c1_i32 : i32
        scf.yield %d, %a2_s, %c2 : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>, i32
      }
      %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
      tt.store %p, %0#0 : tensor<64x64x!tt.ptr<f32>, #mma>
      %u = arith.addi %unused, %c1_i32 : i32
      scf.yield %0#2, %0#0, %u : i32, tensor<64x64xf32, #mma>, i32
    }
    %x = tt.splat %r#0 : i32 -> tensor<64x64xi32, #mma>
    %y = arith.sitofp %x : tensor<64x64xi32, #mma> to tensor<64x64xf32, #mma>
    %z = arith.addf %y, %r#1 : tensor<64x64xf32, #mma>
    %p3 = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %p3, %z : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
