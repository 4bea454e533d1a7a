// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv --verify-diagnostics

// Shared memory is allocated per function, callees first: a recursive call
// has no finite allocation.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @forever(%x: i32) -> i32 {
    // expected-error @+1 {{recursive calls are not supported}}
    %y = tt.call @forever(%x) : (i32) -> i32
    tt.return %y : i32
  }
  tt.func public @kernel(%x: i32) {
    %y = tt.call @forever(%x) : (i32) -> i32
    tt.return
  }
}
