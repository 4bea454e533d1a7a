// RUN: tt-opt %s -split-input-file --tritium-warn-unspecialized-loops --verify-diagnostics | FileCheck %s
// Loops still marked tt.warp_specialize after the warp specialization passes
// are compiled without it: a located warning says so, and why; the IR is
// unchanged. (The first loop has no load feeding a dot:
// nvgpu-warp-specialization finds nothing to split in it.)

// CHECK-LABEL: @hopper_four_warps
// CHECK: scf.for
// CHECK: tt.warp_specialize
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hopper_four_warps(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-warning @below {{compiled without it: nvgpu-warp-specialization (upstream's algorithm) finds nothing to split between warp groups in it}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %s = arith.addi %acc, %i : i32
      scf.yield %s : i32
    } {tt.warp_specialize}
    // An unmarked loop gets no warning.
    %q = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (i32) : i32 {
      %s = arith.addi %acc, %i : i32
      scf.yield %s : i32
    }
    tt.return %q : i32
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hopper_eight_warps(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-warning @below {{upstream Triton does not specialize it on sm_90 with num_warps=8 either (it needs num_warps=4)}}
    scf.for %i = %c0 to %n step %c1 : i32 {
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @else_block(%n: i32, %p: i1) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-warning @below {{upstream Triton does not specialize it either: the kernel has an scf.if with an else block}}
    scf.for %i = %c0 to %n step %c1 : i32 {
    } {tt.warp_specialize}
    %v = scf.if %p -> i32 {
      scf.yield %c0 : i32
    } else {
      scf.yield %c1 : i32
    }
    tt.return %v : i32
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ampere(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-warning @below {{warp specialization needs sm_90 or newer, the target is sm_80}}
    scf.for %i = %c0 to %n step %c1 : i32 {
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @blackwell(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-warning @below {{Tritium does not have upstream's warp specialization for sm_100 (tritongpu-automatic-warp-specialization) yet}}
    scf.for %i = %c0 to %n step %c1 : i32 {
    } {tt.warp_specialize}
    tt.return
  }
}
