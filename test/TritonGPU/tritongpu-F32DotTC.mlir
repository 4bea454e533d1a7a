// RUN: tt-opt %s -split-input-file --tritongpu-F32DotTC=emu-tf32=true | FileCheck %s
// RUN: tt-opt %s -split-input-file --tritongpu-F32DotTC | FileCheck %s --check-prefix=NOEMU

// The CHECK lines are upstream Triton 3.6's output for these inputs (its pass run
// through libtriton, printed by tt-opt).

// tf32x3 (with emu-tf32, i.e. NVIDIA targets only): three tf32 dots on the tf32 roundings (cvt.rna.tf32.f32) and remainders of the operands; the two small products first, their NaNs zeroed, the accumulator added last.
// NOEMU-LABEL: tt.func @tf32x3
// NOEMU-NOT: tt.elementwise_inline_asm
// NOEMU: %0 = tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32x3
// CHECK-LABEL: tt.func @tf32x3
// CHECK: %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
// CHECK: %0 = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg0 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %1 = arith.subf %arg0, %0 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %2 = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg1 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %3 = arith.subf %arg1, %2 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %4 = tt.dot %1, %2, %cst, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %5 = tt.dot %0, %3, %4, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %6 = arith.cmpf uno, %5, %5 : tensor<64x64xf32, #blocked>
// CHECK: %7 = arith.select %6, %cst, %5 : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
// CHECK: %8 = tt.dot %0, %2, %7, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %9 = arith.addf %8, %arg2 : tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tf32x3(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// bf16x3: operands split into hi and mid bf16 parts; mid*hi + hi*mid, NaNs zeroed, then hi*hi. The zero accumulator is the existing constant.
// NOEMU-LABEL: tt.func @bf16x3
// NOEMU: arith.truncf
// CHECK-LABEL: tt.func @bf16x3
// CHECK: %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
// CHECK: %0 = arith.truncf %arg0 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %1 = arith.extf %0 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %2 = arith.subf %arg0, %1 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %3 = arith.truncf %2 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %4 = arith.truncf %arg1 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %5 = arith.extf %4 : tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %6 = arith.subf %arg1, %5 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %7 = arith.truncf %6 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %8 = tt.dot %3, %4, %cst : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %9 = tt.dot %0, %7, %8 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %10 = arith.cmpf uno, %9, %9 : tensor<64x64xf32, #blocked>
// CHECK: %11 = arith.select %10, %cst, %9 : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
// CHECK: %12 = tt.dot %0, %4, %11 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %13 = arith.addf %12, %cst : tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bf16x3(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %d = tt.dot %a, %b, %zero, inputPrecision = bf16x3 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// bf16x6: hi, mid and lo parts; mid*mid, lo*hi, hi*lo, mid*hi, hi*mid, NaNs zeroed, hi*hi.
// CHECK-LABEL: tt.func @bf16x6
// CHECK: %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
// CHECK: %0 = arith.truncf %arg0 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %1 = arith.extf %0 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %2 = arith.subf %arg0, %1 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %3 = arith.truncf %2 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %4 = arith.extf %3 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %5 = arith.subf %2, %4 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %6 = arith.truncf %5 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> to tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %7 = arith.truncf %arg1 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %8 = arith.extf %7 : tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %9 = arith.subf %arg1, %8 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %10 = arith.truncf %9 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %11 = arith.extf %10 : tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %12 = arith.subf %9, %11 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %13 = arith.truncf %12 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> to tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %14 = tt.dot %3, %10, %cst : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %15 = tt.dot %6, %7, %14 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %16 = tt.dot %0, %13, %15 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %17 = tt.dot %3, %7, %16 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %18 = tt.dot %0, %10, %17 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %19 = arith.cmpf uno, %18, %18 : tensor<64x64xf32, #blocked>
// CHECK: %20 = arith.select %19, %cst, %18 : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
// CHECK: %21 = tt.dot %0, %7, %20 : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xbf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %22 = arith.addf %21, %arg2 : tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bf16x6(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = bf16x6 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
}

// -----

// A dot in a loop: the zero accumulator is hoisted to the function's entry.
// CHECK-LABEL: tt.func @in_loop
// CHECK: %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
// CHECK: %c0_i32 = arith.constant 0 : i32
// CHECK: %c1_i32 = arith.constant 1 : i32
// CHECK: %0 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %arg2) -> (tensor<64x64xf32, #blocked>)  : i32 {
// CHECK: %1 = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg0 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %2 = arith.subf %arg0, %1 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
// CHECK: %3 = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg1 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %4 = arith.subf %arg1, %3 : tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK: %5 = tt.dot %2, %3, %cst, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %6 = tt.dot %1, %4, %5, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %7 = arith.cmpf uno, %6, %6 : tensor<64x64xf32, #blocked>
// CHECK: %8 = arith.select %7, %cst, %6 : tensor<64x64xi1, #blocked>, tensor<64x64xf32, #blocked>
// CHECK: %9 = tt.dot %1, %3, %8, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %10 = arith.addf %9, %arg5 : tensor<64x64xf32, #blocked>
// CHECK: scf.yield %10 : tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @in_loop(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>, %n: i32) -> tensor<64x64xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #blocked>)  : i32 {
      %d = tt.dot %a, %b, %acc, inputPrecision = tf32x3 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
      scf.yield %d : tensor<64x64xf32, #blocked>
    }
    tt.return %r : tensor<64x64xf32, #blocked>
  }
}

// -----

// Dots that one tensor-core pass computes, or that are not f32, stay as they are.
// CHECK-LABEL: tt.func @unchanged
// CHECK: %0 = tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %1 = tt.dot %arg0, %arg1, %0 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
// CHECK: %2 = tt.dot %arg3, %arg4, %1, inputPrecision = bf16x3 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unchanged(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<64x64xf32, #blocked>, %h: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %g: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> tensor<64x64xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %e = tt.dot %a, %b, %d : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    %f = tt.dot %h, %g, %e, inputPrecision = bf16x3 : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<64x64xf32, #blocked>
    tt.return %f : tensor<64x64xf32, #blocked>
  }
}
