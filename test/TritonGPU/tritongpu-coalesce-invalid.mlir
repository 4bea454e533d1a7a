// RUN: tt-opt %s -split-input-file --tritongpu-coalesce -verify-diagnostics

// Layouts depend on the number of warps.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{the module must specify its number of warps (ttg.num-warps)}}
module attributes {"ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_warps(%x: tensor<128x!tt.ptr<f32>, #blocked>) {
    %v = tt.load %x : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// An axis-info hint needs one value per dim.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @below {{'tt.contiguity' has 1 values for a value of rank 2}}
  tt.func public @hint_rank(%x: tensor<4x128x!tt.ptr<f32>, #blocked> {tt.contiguity = 128 : i32}) {
    %v = tt.load %x : tensor<4x128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Recursion has no order in which to analyze callers before callees.
module attributes {"ttg.num-warps" = 4 : i32} {
  // expected-error @below {{recursive calls are not supported by the axis info analysis}}
  tt.func @recursive(%x: i32) -> i32 {
    %y = tt.call @recursive(%x) : (i32) -> i32
    tt.return %y : i32
  }
}
