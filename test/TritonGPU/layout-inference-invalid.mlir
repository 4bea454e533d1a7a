// RUN: tt-opt --split-input-file --verify-diagnostics %s

// Results of tt.trans, tt.split and tt.join whose layouts differ from what the
// ops' inference gives, splits the inference rejects, and subslices through a
// swizzling pattern.

#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_keeps_source_layout(%x: tensor<32x2xf32, #pair>) {
    // The transposed layout would be sizePerThread = [2, 1], threadsPerWarp = [1, 32].
    // expected-error @+2 {{'tt.trans' op inferred type(s) 'tensor<2x32xf32, #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>>' are incompatible with return type(s) of operation 'tensor<2x32xf32, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>>'}}
    // expected-error @+1 {{'tt.trans' op failed to infer returned types}}
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x2xf32, #pair> -> tensor<2x32xf32, #pair>
    tt.return
  }
}

// -----

#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_drops_layout(%x: tensor<32x2xf32, #pair>) {
    // expected-error @+2 {{op inferred type(s)}}
    // expected-error @+1 {{op failed to infer returned types}}
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<32x2xf32, #pair> -> tensor<2x32xf32>
    tt.return
  }
}

// -----

#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
// Two elements per thread: 64 places for 32 elements.
#twice = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_wrong_halves(%x: tensor<32x2xf32, #pair>) {
    // expected-error @+2 {{op inferred type(s)}}
    // expected-error @+1 {{op failed to infer returned types}}
    %a, %b = tt.split %x : tensor<32x2xf32, #pair> -> tensor<32xf32, #twice>
    tt.return
  }
}

// -----

// Each pair is spread over two lanes.
#lanes = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_pair_over_lanes(%x: tensor<16x2xf32, #lanes>) {
    // expected-error @+2 {{Fp4ToFpOp/SplitOp requires at least 2 elements per thread in the axis/last dimension}}
    // expected-error @+1 {{op failed to infer returned types}}
    %a, %b = tt.split %x : tensor<16x2xf32, #lanes> -> tensor<16xf32, #row>
    tt.return
  }
}

// -----

#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#twice = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_wrong_operands(%x: tensor<32xf32, #twice>) {
    // expected-error @+1 {{'tt.join' op incompatible join layout}}
    %j = tt.join %x, %x : tensor<32xf32, #twice> -> tensor<32x2xf32, #pair>
    tt.return
  }
}

// -----

#lanes = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#row = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @join_pair_over_lanes(%x: tensor<16xf32, #row>) {
    // expected-error @+1 {{Fp4ToFpOp/SplitOp requires at least 2 elements per thread in the axis/last dimension}}
    %j = tt.join %x, %x : tensor<16xf32, #row> -> tensor<16x2xf32, #lanes>
    tt.return
  }
}

// -----

// The phase changes every row, with 8 phases: a slice of 4 rows starts inside
// the pattern.
#swizzled = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @subslice_inside_pattern(%m: !ttg.memdesc<16x16xf32, #swizzled, #smem, mutable>) {
    // expected-error @+1 {{'ttg.memdesc_subslice' op We don't support splitting along the swizzling pattern}}
    %rows = ttg.memdesc_subslice %m [4, 0] : !ttg.memdesc<16x16xf32, #swizzled, #smem, mutable> -> !ttg.memdesc<4x16xf32, #swizzled, #smem, mutable, 16x16>
    tt.return
  }
}

// -----

#sw = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @memdesc_trans_keeps_order(%s: !ttg.memdesc<32x64xf16, #sw, #smem>) {
    // expected-error @+2 {{'ttg.memdesc_trans' op inferred type(s) '!ttg.memdesc<64x32xf16, #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1]}>, #ttg.shared_memory>' are incompatible}}
    // expected-error @+1 {{op failed to infer returned types}}
    %0 = ttg.memdesc_trans %s {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #sw, #smem> -> !ttg.memdesc<64x32xf16, #sw, #smem>
    tt.return
  }
}

// -----

#sw = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#swT = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @memdesc_trans_allocation(%v: !ttg.memdesc<32x128xf16, #sw, #smem, mutable, 64x128>) {
    // The allocation's shape is permuted too: 128x64.
    // expected-error @+2 {{op inferred type(s) '!ttg.memdesc<128x32xf16, #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1]}>, #ttg.shared_memory, mutable, 128x64>'}}
    // expected-error @+1 {{op failed to infer returned types}}
    %0 = ttg.memdesc_trans %v {order = array<i32: 1, 0>} : !ttg.memdesc<32x128xf16, #sw, #smem, mutable, 64x128> -> !ttg.memdesc<128x32xf16, #swT, #smem, mutable, 128x128>
    tt.return
  }
}

// -----

#wide = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp4_to_fp_source_not_halved(%x: tensor<64x32xi8, #wide>) {
    // expected-error @+1 {{'ttg.fp4_to_fp' op Src and Dst encodings are not compatible}}
    %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<64x32xi8, #wide> -> tensor<64x64xbf16, #wide>
    tt.return
  }
}

// -----

#one = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp4_to_fp_one_element_per_thread(%x: tensor<64x32xi8, #one>) {
    // expected-error @+1 {{'ttg.fp4_to_fp' op failed to infer encoding}}
    %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<64x32xi8, #one> -> tensor<64x64xbf16, #one>
    tt.return
  }
}
