// RUN: tt-opt %s -split-input-file --tritongpu-global-scratch-memory-allocation | FileCheck %s

// Offsets in program order, each rounded up to its alignment, no reuse; the
// size is rounded up to the largest alignment, and the kernel's size and
// alignment go on the module too.
// CHECK: module attributes {{.*}}ttg.global_scratch_memory_alignment = 128 : i32, ttg.global_scratch_memory_size = 384 : i32
// CHECK-LABEL: tt.func public @three
// CHECK-SAME: ttg.global_scratch_memory_alignment = 128 : i32, ttg.global_scratch_memory_size = 384 : i32
// CHECK: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32, ttg.global_scratch_memory_offset = 0 : i32}
// CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 12 : i32, ttg.global_scratch_memory_offset = 128 : i32}
// CHECK: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 100 : i32, ttg.global_scratch_memory_offset = 256 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @three() {
    %a = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    %b = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 12 : i32} : !tt.ptr<i8>
    %c = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    tt.return
  }
}

// -----

// Allocations nested in regions are laid out in program order too; a kernel
// without any gets size 0 and alignment 1.
// CHECK-LABEL: tt.func public @nested
// CHECK-SAME: ttg.global_scratch_memory_alignment = 16 : i32, ttg.global_scratch_memory_size = 32 : i32
// CHECK: scf.if
// CHECK: ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 16 : i32, ttg.global_scratch_memory_offset = 0 : i32}
// CHECK: ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32, ttg.global_scratch_memory_offset = 16 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nested(%p: i1) {
    scf.if %p {
      %a = ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 16 : i32} : !tt.ptr<i8>
    }
    %b = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32} : !tt.ptr<i8>
    tt.return
  }
}

// -----

// CHECK: module attributes {{.*}}ttg.global_scratch_memory_alignment = 1 : i32, ttg.global_scratch_memory_size = 0 : i32
// CHECK-LABEL: tt.func public @none
// CHECK-SAME: ttg.global_scratch_memory_alignment = 1 : i32, ttg.global_scratch_memory_size = 0 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @none() {
    tt.return
  }
}
