// RUN: tt-opt %s -split-input-file --tritongpu-accelerate-matmul -verify-diagnostics

// The instruction depends on the target.
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{the module must specify its target (ttg.target = "cuda:<capability>")}}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @no_target(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// Only NVIDIA targets have these instructions.
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{expected an NVIDIA target "cuda:<capability>", got "hip:gfx942"}}
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942"} {
  tt.func @amd(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// Blackwell's tcgen05 MMA is not supported yet.
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @sm100(%a: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>, %c: tensor<128x64xf32, #acc>) -> tensor<128x64xf32, #acc> {
    // expected-error @below {{Blackwell's tcgen05 MMA (MMA v5) is not supported yet}}
    %d = tt.dot %a, %b, %c : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x64xf32, #acc>
    tt.return %d : tensor<128x64xf32, #acc>
  }
}

// -----

// sm_90: a dot wgmma cannot compute falls back to mma.sync, with a remark.
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @small(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>, %c: tensor<16x16xf32, #acc>) -> tensor<16x16xf32, #acc> {
    // expected-remark @below {{MMA version 3 acceleration not applied due to unsupported shapes or data types.}}
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<16x16xf32, #acc>
    tt.return %d : tensor<16x16xf32, #acc>
  }
}

// -----

// sm_75: mma.sync is deprecated there; FMA, with a remark.
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:75"} {
  tt.func @sm75(%a: tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #acc}>>, %b: tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #acc}>>, %c: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
    // expected-remark @below {{Dot op using MMA for compute capability 75 has been deprecated. It falls back to the FMA path.}}
    %d = tt.dot %a, %b, %c : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
}

// -----

// sm_90, int8 wgmma needs K contiguous in shared memory: B, N-contiguous in
// registers, is transposed on its way there, with a remark.
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @i8_row_major_b(%a: tensor<64x64xi8, #ld>, %b: tensor<64x64xi8, #ld>, %c: tensor<64x64xi32, #acc>) -> tensor<64x64xi32, #acc> {
    %ca = ttg.convert_layout %a : tensor<64x64xi8, #ld> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<64x64xi8, #ld> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    // expected-warning @below {{Warning: Forcing a different order [0, 1] on SMEM than the register order for the operand 1.}}
    %d = tt.dot %ca, %cb, %c : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xi32, #acc>
    tt.return %d : tensor<64x64xi32, #acc>
  }
}
