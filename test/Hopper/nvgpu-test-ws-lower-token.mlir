// RUN: tt-opt %s -split-input-file --nvgpu-test-ws-lower-token=num-consumer-groups=1 --verify-diagnostics | FileCheck %s

// Tritium's flag for the token lowering step of nvgpu-warp-specialization
// (upstream's WSLowerToken, which has no flag of its own). A token of two
// buffers fed by TMA loads: full barriers count 1, empty ones 128 (a warp
// group's threads), initialised before it, then a gpu.barrier. The producer
// (default region) waits on empty[i] with the phase flipped and arrives on
// full[i]; the consumer waits on full[i] and arrives on empty[i]; each new
// op carries its user's async_task_id. The token leaves the captures; the
// two barrier arrays are appended to them.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @one_token
  // CHECK:      %[[FULL:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #[[BAR:.*]], #smem, mutable>
  // CHECK-NEXT: %[[EMPTY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #[[BAR]], #smem, mutable>
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[F0:.*]] = ttg.memdesc_index %[[FULL]][%[[C0]]]
  // CHECK-NEXT: ttng.init_barrier %[[F0]], 1 :
  // CHECK-NEXT: %[[E0:.*]] = ttg.memdesc_index %[[EMPTY]][%[[C0]]]
  // CHECK-NEXT: ttng.init_barrier %[[E0]], 128 :
  // CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[F1:.*]] = ttg.memdesc_index %[[FULL]][%[[C1]]]
  // CHECK-NEXT: ttng.init_barrier %[[F1]], 1 :
  // CHECK-NEXT: %[[E1:.*]] = ttg.memdesc_index %[[EMPTY]][%[[C1]]]
  // CHECK-NEXT: ttng.init_barrier %[[E1]], 128 :
  // CHECK-NEXT: gpu.barrier
  // CHECK-NOT:  nvws.create_token
  // CHECK:      ttg.warp_specialize(%arg0, %[[FULL]], %[[EMPTY]])
  // CHECK-NEXT: default {
  // CHECK:        %[[E:.*]] = ttg.memdesc_index %[[EMPTY]][%[[I:.*]]] {async_task_id = array<i32: 0>}
  // CHECK-NEXT:   %[[TRUE:.*]] = arith.constant true
  // CHECK-NEXT:   %[[FLIP:.*]] = arith.xori %[[P:.*]], %[[TRUE]] : i1
  // CHECK-NEXT:   %[[P32:.*]] = arith.extui %[[FLIP]] : i1 to i32
  // CHECK-NEXT:   ttng.wait_barrier %[[E]], %[[P32]] {async_task_id = array<i32: 0>}
  // CHECK-NEXT:   %[[F:.*]] = ttg.memdesc_index %[[FULL]][%[[I]]] {async_task_id = array<i32: 0>}
  // CHECK-NEXT:   ttng.arrive_barrier %[[F]], 1 {async_task_id = array<i32: 0>}
  // CHECK-NOT:    nvws.
  // CHECK:      partition0(%[[ARG:.*]]: !tt.ptr<i32>, %[[PFULL:.*]]: !ttg.memdesc<2x1xi64, {{.*}}>, %[[PEMPTY:.*]]: !ttg.memdesc<2x1xi64, {{.*}}>) num_warps(4)
  // CHECK:        %[[F:.*]] = ttg.memdesc_index %[[PFULL]][%[[J:.*]]] {async_task_id = array<i32: 1>}
  // CHECK-NEXT:   %[[Q32:.*]] = arith.extui %[[Q:.*]] : i1 to i32
  // CHECK-NEXT:   ttng.wait_barrier %[[F]], %[[Q32]] {async_task_id = array<i32: 1>}
  // CHECK-NEXT:   %[[E:.*]] = ttg.memdesc_index %[[PEMPTY]][%[[J]]] {async_task_id = array<i32: 1>}
  // CHECK-NEXT:   ttng.arrive_barrier %[[E]], 128 {async_task_id = array<i32: 1>}
  // CHECK-NOT:    nvws.
  // CHECK:        ttg.warp_return
  tt.func public @one_token(%arg0: !tt.ptr<i32>, %i: i32, %p: i1) {
    %t = nvws.create_token {loadType = 2 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
    ttg.warp_specialize(%arg0, %t) attributes {requestedRegisters = array<i32: 232>}
    default {
      %c0 = arith.constant {async_task_id = array<i32: 0>} 0 : i32
      %true = arith.constant {async_task_id = array<i32: 0>} true
      nvws.producer_acquire %t, %c0, %true {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32, i1
      nvws.producer_commit %t, %c0 {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32
      ttg.warp_yield
    }
    partition0(%a: !tt.ptr<i32>, %tok: tensor<2x!nvws.token>) num_warps(4) {
      %c0 = arith.constant {async_task_id = array<i32: 1>} 0 : i32
      %false = arith.constant {async_task_id = array<i32: 1>} false
      nvws.consumer_wait %tok, %c0, %false {async_task_id = array<i32: 1>} : tensor<2x!nvws.token>, i32, i1
      nvws.consumer_release %tok, %c0 {async_task_id = array<i32: 1>} : tensor<2x!nvws.token>, i32
      ttg.warp_return
    } : (!tt.ptr<i32>, tensor<2x!nvws.token>) -> ()
    tt.return
  }
}

// -----

// Two tokens captured by one warp_specialize: each leaves its place among
// the captures and its barrier arrays are appended, in the order of the
// tokens; a partition's arguments follow.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @two_tokens
  // CHECK:      %[[FULL1:.*]] = ttg.local_alloc
  // CHECK-NEXT: %[[EMPTY1:.*]] = ttg.local_alloc
  // CHECK:      gpu.barrier
  // CHECK-NEXT: %[[FULL2:.*]] = ttg.local_alloc
  // CHECK-NEXT: %[[EMPTY2:.*]] = ttg.local_alloc
  // CHECK:      gpu.barrier
  // CHECK-NEXT: ttg.warp_specialize(%arg0, %[[FULL1]], %[[EMPTY1]], %[[FULL2]], %[[EMPTY2]])
  // CHECK:      partition0(%{{.*}}: i32, %[[A:.*]]: !ttg.memdesc<2x1xi64, {{.*}}>, %[[B:.*]]: !ttg.memdesc<2x1xi64, {{.*}}>, %[[C:.*]]: !ttg.memdesc<2x1xi64, {{.*}}>, %[[D:.*]]: !ttg.memdesc<2x1xi64, {{.*}}>)
  // CHECK:        ttg.memdesc_index %[[D]]
  // CHECK:        ttng.arrive_barrier {{.*}}, 128 {async_task_id = array<i32: 1>}
  // CHECK:        ttg.memdesc_index %[[B]]
  // CHECK:        ttng.arrive_barrier {{.*}}, 128 {async_task_id = array<i32: 1>}
  tt.func public @two_tokens(%arg0: i32) {
    %t1 = nvws.create_token {loadType = 2 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
    %t2 = nvws.create_token {loadType = 2 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
    ttg.warp_specialize(%t1, %arg0, %t2) attributes {requestedRegisters = array<i32: 232>}
    default {
      ttg.warp_yield
    }
    partition0(%a: tensor<2x!nvws.token>, %n: i32, %b: tensor<2x!nvws.token>) num_warps(4) {
      nvws.consumer_release %b, %n {async_task_id = array<i32: 1>} : tensor<2x!nvws.token>, i32
      nvws.consumer_release %a, %n {async_task_id = array<i32: 1>} : tensor<2x!nvws.token>, i32
      ttg.warp_return
    } : (tensor<2x!nvws.token>, i32, tensor<2x!nvws.token>) -> ()
    tt.return
  }
}

// -----

// Only tokens fed by TMA loads have a producer_commit upstream lowers.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @below {{producer_commit of a token not fed by TMA loads is not supported}}
  tt.func public @not_tma(%i: i32) {
    %t = nvws.create_token {loadType = 1 : i32, numBuffers = 2 : i32} : tensor<2x!nvws.token>
    nvws.producer_commit %t, %i {async_task_id = array<i32: 0>} : tensor<2x!nvws.token>, i32
    tt.return
  }
}
