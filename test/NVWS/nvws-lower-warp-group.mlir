// RUN: tt-opt %s -split-input-file --nvws-lower-warp-group --verify-diagnostics | FileCheck %s

// The first group has the kernel's 4 warps: it becomes the default region and
// its yielded value the result. The second group becomes partition0 and
// captures explicitly: the tensor argument %t through a shared-memory buffer
// (local_alloc outside, local_load inside), the constant and the splats
// (pure, tensor-producing) cloned in, and what the splats read (%n, %p) as
// arguments, each once. The constant moves to the top (the greedy driver's
// folding).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @default_and_partition
  // CHECK-NOT: nvws.warp_group
  // CHECK: [[BUF:%.*]] = ttg.local_alloc %arg1 : (tensor<128xi32, #blocked>) -> !ttg.memdesc<128xi32, #shared, #smem>
  // CHECK: [[R:%.*]] = ttg.warp_specialize([[BUF]], %arg0, %arg2)
  // CHECK-NEXT: default {
  // CHECK-NEXT:   [[V:%.*]] = arith.addi %arg0, %arg0 : i32
  // CHECK-NEXT:   ttg.warp_yield [[V]] : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: partition0([[B:%.*]]: !ttg.memdesc<128xi32, #shared, #smem>, [[N:%.*]]: i32, [[P:%.*]]: !tt.ptr<i32>) num_warps(4) {
  // CHECK-NEXT:   [[C:%.*]] = arith.constant 7 : i32
  // CHECK-NEXT:   [[T:%.*]] = ttg.local_load [[B]]
  // CHECK-NEXT:   [[S:%.*]] = tt.splat [[N]]
  // CHECK-NEXT:   [[PS:%.*]] = tt.splat [[P]]
  // CHECK-NEXT:   [[SUM:%.*]] = arith.addi [[T]], [[S]]
  // CHECK-NEXT:   [[K:%.*]] = arith.addi [[N]], [[C]] : i32
  // CHECK-NEXT:   tt.store [[PS]], [[SUM]]
  // CHECK-NEXT:   tt.store [[P]], [[K]]
  // CHECK-NEXT:   ttg.warp_return
  // CHECK-NEXT: } : (!ttg.memdesc<128xi32, #shared, #smem>, i32, !tt.ptr<i32>) -> i32
  // CHECK-NEXT: tt.return [[R]]
  tt.func @default_and_partition(%n: i32, %t: tensor<128xi32, #blocked>, %p: !tt.ptr<i32>) -> i32 {
    %c7 = arith.constant 7 : i32
    %s = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked>
    // nvws.warp_group's custom syntax has no result types (as upstream's).
    %r = "nvws.warp_group"() ({
      %v = arith.addi %n, %n : i32
      nvws.warp_group.yield %v : i32
    }, {
      %sum = arith.addi %t, %s : tensor<128xi32, #blocked>
      %k = arith.addi %n, %c7 : i32
      tt.store %ps, %sum : tensor<128x!tt.ptr<i32>, #blocked>
      tt.store %p, %k : !tt.ptr<i32>
      nvws.warp_group.return
    }) {numWarps = array<i32: 4, 4>} : () -> i32
    tt.return %r : i32
  }
}

// -----

// No group has the kernel's warp count: the default region only yields, and
// every group is a partition.
module attributes {"ttg.num-warps" = 8 : i32} {
  // CHECK-LABEL: @partitions_only
  // CHECK: ttg.warp_specialize(%arg0)
  // CHECK-NEXT: default {
  // CHECK-NEXT:   ttg.warp_yield
  // CHECK-NEXT: }
  // CHECK-NEXT: partition0([[A:%.*]]: !tt.ptr<i32>) num_warps(4) {
  // CHECK-NEXT:   [[C:%.*]] = arith.constant 1 : i32
  // CHECK-NEXT:   tt.store [[A]], [[C]]
  // CHECK-NEXT:   ttg.warp_return
  // CHECK-NEXT: }
  // CHECK-NEXT: partition1([[B:%.*]]: !tt.ptr<i32>) num_warps(1) {
  // CHECK-NEXT:   [[C2:%.*]] = arith.constant 2 : i32
  // CHECK-NEXT:   tt.store [[B]], [[C2]]
  // CHECK-NEXT:   ttg.warp_return
  // CHECK-NEXT: }
  tt.func @partitions_only(%p: !tt.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    nvws.warp_group
    partition0 num_warps(4) {
      tt.store %p, %c1 : !tt.ptr<i32>
      nvws.warp_group.return
    }
    partition1 num_warps(1) {
      tt.store %p, %c2 : !tt.ptr<i32>
      nvws.warp_group.return
    }
    tt.return
  }
}

// -----

// Results come from a default region, which needs the kernel's warp count.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @results_without_default(%n: i32) -> i32 {
    // expected-error @below {{an nvws.warp_group with results needs one}}
    %r = "nvws.warp_group"() ({
      nvws.warp_group.yield %n : i32
    }) {numWarps = array<i32: 2>} : () -> i32
    tt.return %r : i32
  }
}
