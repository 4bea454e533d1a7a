// RUN: tt-opt %s -split-input-file --tritongpu-accelerate-matmul | FileCheck %s

// The CHECK lines are upstream Triton 3.6's output for these inputs (its pass run
// through libtriton, printed by tt-opt).

// sm_80, f16: mma.sync (v2); 64x64 over 4 warps balances the register tiles: warps [2, 2]; kWidth 2 (32 bits of f16).
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @f16_sm80
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %7 = tt.dot %5, %6, %4, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_sm80(%pa: tensor<64x32x!tt.ptr<f16>, #ld>, %pb: tensor<32x64x!tt.ptr<f16>, #ld>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #ld>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_80, int8 with an i32 accumulator: kWidth 4.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @i8_sm80
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %7 = tt.dot %5, %6, %4, inputPrecision = tf32 : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xi32, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<64x64xi32, #mma> -> tensor<64x64xi32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @i8_sm80(%pa: tensor<64x64x!tt.ptr<i8>, #ld>, %pb: tensor<64x64x!tt.ptr<i8>, #ld>, %acc: tensor<64x64xi32, #acc>) -> tensor<64x64xi32, #acc> {
    %a = tt.load %pa : tensor<64x64x!tt.ptr<i8>, #ld>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<i8>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x64xi8, #ld> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<64x64xi8, #ld> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xi32, #acc>
    tt.return %d : tensor<64x64xi32, #acc>
  }
}

// -----

// sm_80, bf16 on 8 warps, 128x128: warps [4, 2].
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @bf16_w8_sm80
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<128x128xf32, #blocked1> -> tensor<128x128xf32, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %7 = tt.dot %5, %6, %4, inputPrecision = tf32 : tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bf16_w8_sm80(%pa: tensor<128x32x!tt.ptr<bf16>, #ld>, %pb: tensor<32x128x!tt.ptr<bf16>, #ld>, %acc: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
    %a = tt.load %pa : tensor<128x32x!tt.ptr<bf16>, #ld>
    %b = tt.load %pb : tensor<32x128x!tt.ptr<bf16>, #ld>
    %ca = ttg.convert_layout %a : tensor<128x32xbf16, #ld> -> tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x128xbf16, #ld> -> tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x128xf32, #acc>
    tt.return %d : tensor<128x128xf32, #acc>
  }
}

// -----

// sm_80, f32 with tf32 precision: kWidth 1.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @tf32_sm80
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
// CHECK: %7 = tt.dot %5, %6, %4, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<64x64xf32, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tf32_sm80(%pa: tensor<64x32x!tt.ptr<f32>, #ld>, %pb: tensor<32x64x!tt.ptr<f32>, #ld>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f32>, #ld>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f32>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x32xf32, #ld> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x64xf32, #ld> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_80, f32 with ieee precision: no tensor core; the dot stays an FMA dot.
// CHECK-LABEL: tt.func @ieee_sm80
// CHECK: %4 = tt.dot %2, %3, %arg2 : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x32xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @ieee_sm80(%pa: tensor<32x16x!tt.ptr<f32>, #ld>, %pb: tensor<16x32x!tt.ptr<f32>, #ld>, %acc: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
    %a = tt.load %pa : tensor<32x16x!tt.ptr<f32>, #ld>
    %b = tt.load %pb : tensor<16x32x!tt.ptr<f32>, #ld>
    %ca = ttg.convert_layout %a : tensor<32x16xf32, #ld> -> tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<16x32xf32, #ld> -> tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
}

// -----

// sm_80, f64: mma.sync has f64.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @f64_sm80
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<32x32xf64, #blocked1> -> tensor<32x32xf64, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
// CHECK: %7 = tt.dot %5, %6, %4 : tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<32x32xf64, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<32x32xf64, #mma> -> tensor<32x32xf64, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f64_sm80(%pa: tensor<32x16x!tt.ptr<f64>, #ld>, %pb: tensor<16x32x!tt.ptr<f64>, #ld>, %acc: tensor<32x32xf64, #acc>) -> tensor<32x32xf64, #acc> {
    %a = tt.load %pa : tensor<32x16x!tt.ptr<f64>, #ld>
    %b = tt.load %pb : tensor<16x32x!tt.ptr<f64>, #ld>
    %ca = ttg.convert_layout %a : tensor<32x16xf64, #ld> -> tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<16x32xf64, #ld> -> tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc : tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<32x32xf64, #acc>
    tt.return %d : tensor<32x32xf64, #acc>
  }
}

// -----

// sm_80, fp8e5: mma.sync after an upcast of the operands to f16 (sm_80 has no fp8 mma).
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @fp8e5_sm80
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %7 = tt.fp_to_fp %5 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %8 = tt.fp_to_fp %6 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %9 = tt.dot %7, %8, %4, inputPrecision = tf32 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
// CHECK: %10 = ttg.convert_layout %9 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8e5_sm80(%pa: tensor<64x64x!tt.ptr<f8E5M2>, #ld>, %pb: tensor<64x64x!tt.ptr<f8E5M2>, #ld>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %a = tt.load %pa : tensor<64x64x!tt.ptr<f8E5M2>, #ld>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<f8E5M2>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x64xf8E5M2, #ld> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<64x64xf8E5M2, #ld> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_80, fp8e4m3fnuz: mma.sync takes it as it is (only e5m2 and e4m3fn are upcast).
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @fp8e4fnuz_sm80
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<32x32xf32, #blocked1> -> tensor<32x32xf32, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %7 = tt.dot %5, %6, %4, inputPrecision = tf32 : tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<32x32xf32, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8e4fnuz_sm80(%pa: tensor<32x32x!tt.ptr<f8E4M3FNUZ>, #ld>, %pb: tensor<32x32x!tt.ptr<f8E4M3FNUZ>, #ld>, %acc: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
    %a = tt.load %pa : tensor<32x32x!tt.ptr<f8E4M3FNUZ>, #ld>
    %b = tt.load %pb : tensor<32x32x!tt.ptr<f8E4M3FNUZ>, #ld>
    %ca = ttg.convert_layout %a : tensor<32x32xf8E4M3FNUZ, #ld> -> tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x32xf8E4M3FNUZ, #ld> -> tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x32xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
}

// -----

// sm_80, an f16 operand loaded as fp8: kWidth counts the 8 loaded bits (4), for wider loads.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @upcast_a_sm80
// CHECK: %5 = ttg.convert_layout %arg2 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #mma>
// CHECK: %6 = ttg.convert_layout %3 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %7 = ttg.convert_layout %4 : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %8 = tt.dot %6, %7, %5, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf16, #mma>
// CHECK: %9 = ttg.convert_layout %8 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @upcast_a_sm80(%pa: tensor<64x32x!tt.ptr<f8E5M2>, #ld>, %pb: tensor<32x64x!tt.ptr<f16>, #ld>, %acc: tensor<64x64xf16, #acc>) -> tensor<64x64xf16, #acc> {
    %a8 = tt.load %pa : tensor<64x32x!tt.ptr<f8E5M2>, #ld>
    %a = tt.fp_to_fp %a8 : tensor<64x32xf8E5M2, #ld> -> tensor<64x32xf16, #ld>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf16, #acc>
    tt.return %d : tensor<64x64xf16, #acc>
  }
}

// -----

// sm_80, 3-D batched dot: all warps along the batch, instrShape [1, 16, 8].
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [1, 16, 8]}>
// CHECK-LABEL: tt.func @batched_sm80
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<2x32x32xf32, #blocked1> -> tensor<2x32x32xf32, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %7 = tt.dot %5, %6, %4, inputPrecision = tf32 : tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<2x32x32xf32, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<2x32x32xf32, #mma> -> tensor<2x32x32xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 8, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @batched_sm80(%pa: tensor<2x32x16x!tt.ptr<f16>, #ld>, %pb: tensor<2x16x32x!tt.ptr<f16>, #ld>, %acc: tensor<2x32x32xf32, #acc>) -> tensor<2x32x32xf32, #acc> {
    %a = tt.load %pa : tensor<2x32x16x!tt.ptr<f16>, #ld>
    %b = tt.load %pb : tensor<2x16x32x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<2x32x16xf16, #ld> -> tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<2x16x32xf16, #ld> -> tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<2x32x32xf32, #acc>
    tt.return %d : tensor<2x32x32xf32, #acc>
  }
}

// -----

// sm_75: mma.sync for sm_75 is deprecated: FMA (with a remark), f16 operands upcast to f32.
// CHECK-LABEL: tt.func @f16_sm75
// CHECK: %4 = arith.extf %2 : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> to tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
// CHECK: %5 = arith.extf %3 : tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> to tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
// CHECK: %6 = tt.dot %4, %5, %arg2, inputPrecision = tf32 : tensor<32x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<16x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x32xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_sm75(%pa: tensor<32x16x!tt.ptr<f16>, #ld>, %pb: tensor<16x32x!tt.ptr<f16>, #ld>, %acc: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
    %a = tt.load %pa : tensor<32x16x!tt.ptr<f16>, #ld>
    %b = tt.load %pb : tensor<16x32x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<32x16xf16, #ld> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<16x32xf16, #ld> -> tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<32x32xf32, #acc>
    tt.return %d : tensor<32x32xf32, #acc>
  }
}

// -----

// sm_90, f16 from loads: wgmma (v3) with both operands in shared memory (NVMMA layouts), instrShape [16, 64, 16], warps [4, 1].
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @f16_sm90
// CHECK: %1 = ttg.local_alloc %0 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
// CHECK: %3 = ttg.local_alloc %2 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttng.warp_group_dot %1, %3, %4 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
// CHECK: %6 = ttg.convert_layout %5 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_sm90(%pa: tensor<64x32x!tt.ptr<f16>, #ld>, %pb: tensor<32x64x!tt.ptr<f16>, #ld>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #ld>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_90, B loaded K-contiguous (order [0, 1]): stored transposed (wgmma transposes 16-bit operands).
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @f16_kmajor_b_sm90
// CHECK: %1 = ttg.local_alloc %0 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
// CHECK: %3 = ttg.local_alloc %2 : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttng.warp_group_dot %1, %3, %4 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
// CHECK: %6 = ttg.convert_layout %5 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked2>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#ldT = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_kmajor_b_sm90(%pa: tensor<64x32x!tt.ptr<f16>, #ld>, %pb: tensor<32x64x!tt.ptr<f16>, #ldT>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #ld>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #ldT>
    %ca = ttg.convert_layout %a : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x64xf16, #ldT> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_90, A upcast from fp8 in registers: A stays in registers as a dot_op of the v3 layout (kWidth 2).
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @registers_a_sm90
// CHECK: %3 = ttg.local_alloc %2 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
// CHECK: %5 = ttg.convert_layout %arg2 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #mma>
// CHECK: %6 = ttg.convert_layout %4 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %7 = ttng.warp_group_dot %6, %3, %5 {inputPrecision = 0 : i32} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<64x64xf16, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @registers_a_sm90(%pa: tensor<64x32x!tt.ptr<f8E5M2>, #ld>, %pb: tensor<32x64x!tt.ptr<f16>, #ld>, %acc: tensor<64x64xf16, #acc>) -> tensor<64x64xf16, #acc> {
    %a8 = tt.load %pa : tensor<64x32x!tt.ptr<f8E5M2>, #ld>
    %a = tt.fp_to_fp %a8 : tensor<64x32xf8E5M2, #ld> -> tensor<64x32xf16, #ld>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf16, #acc>
    tt.return %d : tensor<64x64xf16, #acc>
  }
}

// -----

// sm_90, int8: K must be contiguous in shared memory; B loaded N-contiguous is transposed on store (with a remark).
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @i8_sm90
// CHECK: %1 = ttg.local_alloc %0 : (tensor<64x64xi8, #blocked>) -> !ttg.memdesc<64x64xi8, #shared, #smem>
// CHECK: %3 = ttg.local_alloc %2 : (tensor<64x64xi8, #blocked>) -> !ttg.memdesc<64x64xi8, #shared1, #smem>
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xi32, #blocked1> -> tensor<64x64xi32, #mma>
// CHECK: %5 = ttng.warp_group_dot %1, %3, %4 {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xi8, #shared, #smem> * !ttg.memdesc<64x64xi8, #shared1, #smem> -> tensor<64x64xi32, #mma>
// CHECK: %6 = ttg.convert_layout %5 : tensor<64x64xi32, #mma> -> tensor<64x64xi32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @i8_sm90(%pa: tensor<64x64x!tt.ptr<i8>, #ld>, %pb: tensor<64x64x!tt.ptr<i8>, #ld>, %acc: tensor<64x64xi32, #acc>) -> tensor<64x64xi32, #acc> {
    %a = tt.load %pa : tensor<64x64x!tt.ptr<i8>, #ld>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<i8>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x64xi8, #ld> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<64x64xi8, #ld> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xi32, #acc>
    tt.return %d : tensor<64x64xi32, #acc>
  }
}

// -----

// sm_90, f32 with tf32 precision: wgmma, K 8.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @tf32_sm90
// CHECK: %1 = ttg.local_alloc %0 : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf32, #shared, #smem>
// CHECK: %3 = ttg.local_alloc %2 : (tensor<32x64xf32, #blocked>) -> !ttg.memdesc<32x64xf32, #shared1, #smem>
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttng.warp_group_dot %1, %3, %4 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf32, #shared, #smem> * !ttg.memdesc<32x64xf32, #shared1, #smem> -> tensor<64x64xf32, #mma>
// CHECK: %6 = ttg.convert_layout %5 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tf32_sm90(%pa: tensor<64x32x!tt.ptr<f32>, #ld>, %pb: tensor<32x64x!tt.ptr<f32>, #ld>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f32>, #ld>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f32>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x32xf32, #ld> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x64xf32, #ld> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_90, bf16 on 8 warps, 128x128: warps [8, 1], instrShape N 128.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @bf16_w8_sm90
// CHECK: %1 = ttg.local_alloc %0 : (tensor<128x32xbf16, #blocked>) -> !ttg.memdesc<128x32xbf16, #shared, #smem>
// CHECK: %3 = ttg.local_alloc %2 : (tensor<32x128xbf16, #blocked>) -> !ttg.memdesc<32x128xbf16, #shared1, #smem>
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<128x128xf32, #blocked1> -> tensor<128x128xf32, #mma>
// CHECK: %5 = ttng.warp_group_dot %1, %3, %4 {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xbf16, #shared, #smem> * !ttg.memdesc<32x128xbf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
// CHECK: %6 = ttg.convert_layout %5 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bf16_w8_sm90(%pa: tensor<128x32x!tt.ptr<bf16>, #ld>, %pb: tensor<32x128x!tt.ptr<bf16>, #ld>, %acc: tensor<128x128xf32, #acc>) -> tensor<128x128xf32, #acc> {
    %a = tt.load %pa : tensor<128x32x!tt.ptr<bf16>, #ld>
    %b = tt.load %pb : tensor<32x128x!tt.ptr<bf16>, #ld>
    %ca = ttg.convert_layout %a : tensor<128x32xbf16, #ld> -> tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x128xbf16, #ld> -> tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<128x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<128x128xf32, #acc>
    tt.return %d : tensor<128x128xf32, #acc>
  }
}

// -----

// sm_90, f16 32x128 on 8 warps: M is not a multiple of 64, so wgmma does not apply (remark): mma.sync.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 8], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @odd_w8_sm90
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<32x128xf16, #blocked1> -> tensor<32x128xf16, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<16x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %7 = tt.dot %5, %6, %4, inputPrecision = tf32 : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x128xf16, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<32x128xf16, #mma> -> tensor<32x128xf16, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @odd_w8_sm90(%pa: tensor<32x16x!tt.ptr<f16>, #ld>, %pb: tensor<16x128x!tt.ptr<f16>, #ld>, %acc: tensor<32x128xf16, #acc>) -> tensor<32x128xf16, #acc> {
    %a = tt.load %pa : tensor<32x16x!tt.ptr<f16>, #ld>
    %b = tt.load %pb : tensor<16x128x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<32x16xf16, #ld> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<16x128xf16, #ld> -> tensor<16x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<16x128xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<32x128xf16, #acc>
    tt.return %d : tensor<32x128xf16, #acc>
  }
}

// -----

// sm_90, 16x16x16: too small for wgmma: mma.sync.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @small_sm90
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<16x16xf16, #blocked1> -> tensor<16x16xf16, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %7 = tt.dot %5, %6, %4, inputPrecision = tf32 : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf16, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<16x16xf16, #mma> -> tensor<16x16xf16, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @small_sm90(%pa: tensor<16x16x!tt.ptr<f16>, #ld>, %pb: tensor<16x16x!tt.ptr<f16>, #ld>, %acc: tensor<16x16xf16, #acc>) -> tensor<16x16xf16, #acc> {
    %a = tt.load %pa : tensor<16x16x!tt.ptr<f16>, #ld>
    %b = tt.load %pb : tensor<16x16x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<16x16xf16, #ld> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<16x16xf16, #ld> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<16x16xf16, #acc>
    tt.return %d : tensor<16x16xf16, #acc>
  }
}

// -----

// sm_90, fp8e5 accumulating in f32 at every step (maxNumImpreciseAcc 0): not wgmma; mma.sync on operands upcast to f16.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @fp8e5_precise_sm90
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %7 = tt.fp_to_fp %5 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %8 = tt.fp_to_fp %6 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %9 = tt.dot %7, %8, %4, inputPrecision = tf32 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
// CHECK: %10 = ttg.convert_layout %9 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8e5_precise_sm90(%pa: tensor<64x64x!tt.ptr<f8E5M2>, #ld>, %pb: tensor<64x64x!tt.ptr<f8E5M2>, #ld>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %a = tt.load %pa : tensor<64x64x!tt.ptr<f8E5M2>, #ld>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<f8E5M2>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x64xf8E5M2, #ld> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<64x64xf8E5M2, #ld> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_90, fp8e5 with maxNumImpreciseAcc 32: wgmma on fp8, K-contiguous operands.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @fp8e5_sm90
// CHECK: %1 = ttg.local_alloc %0 : (tensor<64x64xf8E5M2, #blocked>) -> !ttg.memdesc<64x64xf8E5M2, #shared, #smem>
// CHECK: %3 = ttg.local_alloc %2 : (tensor<64x64xf8E5M2, #blocked>) -> !ttg.memdesc<64x64xf8E5M2, #shared1, #smem>
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttng.warp_group_dot %1, %3, %4 {inputPrecision = 0 : i32, maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<64x64xf8E5M2, #shared, #smem> * !ttg.memdesc<64x64xf8E5M2, #shared1, #smem> -> tensor<64x64xf32, #mma>
// CHECK: %6 = ttg.convert_layout %5 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp8e5_sm90(%pa: tensor<64x64x!tt.ptr<f8E5M2>, #ld>, %pb: tensor<64x64x!tt.ptr<f8E5M2>, #ld>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %a = tt.load %pa : tensor<64x64x!tt.ptr<f8E5M2>, #ld>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<f8E5M2>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x64xf8E5M2, #ld> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<64x64xf8E5M2, #ld> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_90, f64: wgmma has no f64: mma.sync.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @f64_sm90
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<32x32xf64, #blocked1> -> tensor<32x32xf64, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
// CHECK: %7 = tt.dot %5, %6, %4 : tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<32x32xf64, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<32x32xf64, #mma> -> tensor<32x32xf64, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f64_sm90(%pa: tensor<32x16x!tt.ptr<f64>, #ld>, %pb: tensor<16x32x!tt.ptr<f64>, #ld>, %acc: tensor<32x32xf64, #acc>) -> tensor<32x32xf64, #acc> {
    %a = tt.load %pa : tensor<32x16x!tt.ptr<f64>, #ld>
    %b = tt.load %pb : tensor<16x32x!tt.ptr<f64>, #ld>
    %ca = ttg.convert_layout %a : tensor<32x16xf64, #ld> -> tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<16x32xf64, #ld> -> tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc : tensor<32x16xf64, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<16x32xf64, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<32x32xf64, #acc>
    tt.return %d : tensor<32x32xf64, #acc>
  }
}

// -----

// sm_90, 3-D batched dot: mma.sync, warps along the batch.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [1, 16, 8]}>
// CHECK-LABEL: tt.func @batched_sm90
// CHECK: %4 = ttg.convert_layout %arg2 : tensor<2x32x32xf32, #blocked1> -> tensor<2x32x32xf32, #mma>
// CHECK: %5 = ttg.convert_layout %2 : tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %6 = ttg.convert_layout %3 : tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %7 = tt.dot %5, %6, %4, inputPrecision = tf32 : tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<2x32x32xf32, #mma>
// CHECK: %8 = ttg.convert_layout %7 : tensor<2x32x32xf32, #mma> -> tensor<2x32x32xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 8, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @batched_sm90(%pa: tensor<2x32x16x!tt.ptr<f16>, #ld>, %pb: tensor<2x16x32x!tt.ptr<f16>, #ld>, %acc: tensor<2x32x32xf32, #acc>) -> tensor<2x32x32xf32, #acc> {
    %a = tt.load %pa : tensor<2x32x16x!tt.ptr<f16>, #ld>
    %b = tt.load %pb : tensor<2x16x32x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<2x32x16xf16, #ld> -> tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<2x16x32xf16, #ld> -> tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<2x32x32xf32, #acc>
    tt.return %d : tensor<2x32x32xf32, #acc>
  }
}

// -----

// sm_90, operands that are block arguments count as loads: stored to shared memory at the start of the function.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @block_args_sm90
// CHECK: %0 = ttg.local_alloc %arg0 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
// CHECK: %2 = ttg.local_alloc %1 : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
// CHECK: %3 = ttg.convert_layout %arg2 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %4 = ttng.warp_group_dot %0, %2, %3 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttg.convert_layout %4 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @block_args_sm90(%a: tensor<64x32xf16, #ld>, %pb: tensor<32x64x!tt.ptr<f16>, #ld>, %acc: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #ld>
    %ca = ttg.convert_layout %a : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cb = ttg.convert_layout %b : tensor<32x64xf16, #ld> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %d = tt.dot %ca, %cb, %acc, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_80, chained dots (the first's result feeds the second, as in attention): every warp along M so that row reductions stay within a warp: warps [4, 1] (a lone 64x32 dot would get [2, 2]).
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @chained_sm80
// CHECK: %2 = ttg.convert_layout %cst : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #mma>
// CHECK: %3 = ttg.convert_layout %0 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %4 = ttg.convert_layout %1 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %5 = tt.dot %3, %4, %2, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x32xf32, #mma>
// CHECK: %6 = ttg.convert_layout %5 : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked1>
// CHECK: %10 = ttg.convert_layout %cst : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #mma>
// CHECK: %11 = ttg.convert_layout %8 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %12 = ttg.convert_layout %9 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %13 = tt.dot %11, %12, %10, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x32xf32, #mma>
// CHECK: %14 = ttg.convert_layout %13 : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chained_sm80(%q: tensor<64x32xf16, #ld>, %k: tensor<32x32xf16, #ld>, %v: tensor<32x32xf16, #ld>) -> tensor<64x32xf32, #acc> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #acc>
    %cq = ttg.convert_layout %q : tensor<64x32xf16, #ld> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %ck = ttg.convert_layout %k : tensor<32x32xf16, #ld> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %s = tt.dot %cq, %ck, %zero, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x32xf32, #acc>
    %p = arith.truncf %s : tensor<64x32xf32, #acc> to tensor<64x32xf16, #acc>
    %cp = ttg.convert_layout %p : tensor<64x32xf16, #acc> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cv = ttg.convert_layout %v : tensor<32x32xf16, #ld> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %o = tt.dot %cp, %cv, %zero, inputPrecision = tf32 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x32xf32, #acc>
    tt.return %o : tensor<64x32xf32, #acc>
  }
}

// -----

// sm_90, chained dots on 8 warps: warps [8, 1] (a lone 64x64 wgmma on 8 warps gets [4, 2]); the second dot's A, computed in registers, stays there.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 32, 16]}>
// CHECK: #mma1 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @chained_w8_sm90
// CHECK: %0 = ttg.local_alloc %arg1 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: %1 = ttg.local_alloc %arg0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: %2 = ttg.local_alloc %arg2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: %3 = ttg.convert_layout %cst : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %4 = ttng.warp_group_dot %1, %0, %3 {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
// CHECK: %5 = ttg.convert_layout %4 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
// CHECK: %8 = ttg.convert_layout %cst : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma1>
// CHECK: %9 = ttg.convert_layout %7 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
// CHECK: %10 = ttng.warp_group_dot %9, %2, %8 {inputPrecision = 0 : i32} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma1>
// CHECK: %11 = ttg.convert_layout %10 : tensor<64x64xf32, #mma1> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chained_w8_sm90(%q: tensor<64x64xf16, #ld>, %k: tensor<64x64xf16, #ld>, %v: tensor<64x64xf16, #ld>) -> tensor<64x64xf32, #acc> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #acc>
    %cq = ttg.convert_layout %q : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %ck = ttg.convert_layout %k : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %s = tt.dot %cq, %ck, %zero, inputPrecision = tf32 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    %p = arith.truncf %s : tensor<64x64xf32, #acc> to tensor<64x64xf16, #acc>
    %cp = ttg.convert_layout %p : tensor<64x64xf16, #acc> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %cv = ttg.convert_layout %v : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %o = tt.dot %cp, %cv, %zero, inputPrecision = tf32 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %o : tensor<64x64xf32, #acc>
  }
}

// -----

// sm_90, a lone 64x64 wgmma on 8 warps: warps [4, 2].
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 32, 16]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @lone_w8_sm90
// CHECK: %0 = ttg.local_alloc %arg1 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: %1 = ttg.local_alloc %arg0 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: %2 = ttg.convert_layout %cst : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
// CHECK: %3 = ttng.warp_group_dot %1, %0, %2 {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
// CHECK: %4 = ttg.convert_layout %3 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
#acc = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#ld = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @lone_w8_sm90(%q: tensor<64x64xf16, #ld>, %k: tensor<64x64xf16, #ld>) -> tensor<64x64xf32, #acc> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #acc>
    %cq = ttg.convert_layout %q : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>>
    %ck = ttg.convert_layout %k : tensor<64x64xf16, #ld> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>>
    %s = tt.dot %cq, %ck, %zero, inputPrecision = tf32 : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #acc}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #acc}>> -> tensor<64x64xf32, #acc>
    tt.return %s : tensor<64x64xf32, #acc>
  }
}
