// RUN: tt-opt %s -split-input-file -verify-diagnostics --tritongpu-global-scratch-memory-allocation

// Alignment must be a power of two.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bad() {
    // expected-error @+1 {{global scratch alignment 3 is not a power of two}}
    %a = ttg.global_scratch_alloc {alignment = 3 : i32, nbytes = 16 : i32} : !tt.ptr<i8>
    tt.return
  }
}
