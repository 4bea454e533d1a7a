// RUN: tt-opt %s -split-input-file --tritongpu-allocate-warp-groups | FileCheck %s

// Upstream's Hopper matmul split: two consumer groups of 4 warps asking for
// 232 registers; 64K registers over 12 warps is 168 each, so the 4 producer
// warps keep (168*4 + (168-232)*8)/4 = 40.
// CHECK: module attributes {ttg.maxnreg = 168 : i32, {{.*}}"ttg.total-num-warps" = 12 : i32}
// CHECK: ttg.warp_specialize{{.*}}actualRegisters = array<i32: 40, 232, 232>{{.*}}warpGroupStartIds = array<i32: 4, 8>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @hopper(%n: i32) {
    ttg.warp_specialize(%n) attributes {requestedRegisters = array<i32: 232, 232>}
    default {
      ttg.warp_yield
    }
    partition0(%a: i32) num_warps(4) {
      ttg.warp_return
    }
    partition1(%a: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// Partitions of 2 and 1 warps are padded to a whole warp group with a
// 1-warp partition that only returns (its captures as arguments); the
// largest partition gets the first warps.
// CHECK: module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 8 : i32}
// CHECK-LABEL: tt.func @pad
// CHECK: ttg.warp_specialize(%{{.*}}) attributes {{{.*}}warpGroupStartIds = array<i32: 6, 4, 7>}
// CHECK: partition0(%{{.*}}: i32) num_warps(1)
// CHECK: partition1(%{{.*}}: i32) num_warps(2)
// CHECK: partition2(%[[ARG:.*]]: i32) num_warps(1) {
// CHECK-NEXT: ttg.warp_return
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @pad(%n: i32) {
    ttg.warp_specialize(%n)
    default {
      ttg.warp_yield
    }
    partition0(%a: i32) num_warps(1) {
      ttg.warp_return
    }
    partition1(%a: i32) num_warps(2) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// No warp specialization: the launch is the kernel's own warps; nothing else changes.
// CHECK: module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 8 : i32}
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @plain() {
    tt.return
  }
}
