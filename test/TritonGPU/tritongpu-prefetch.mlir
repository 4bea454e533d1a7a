// RUN: tt-opt %s --tritongpu-prefetch | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: @prefetch_f16
// CHECK: [[A0:%.*]] = ttg.memdesc_subslice %arg1[0, 0] : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x16xf16, #shared, #smem, 64x64>
// CHECK-NEXT: [[A0_REGS:%.*]] = ttg.local_load [[A0]] : {{.*}} -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: [[B0:%.*]] = ttg.memdesc_subslice %arg2[0, 0] : {{.*}} -> !ttg.memdesc<16x64xf16, #shared, #smem, 64x64>
// CHECK-NEXT: [[B0_REGS:%.*]] = ttg.local_load [[B0]]
// CHECK-NEXT: scf.for {{.*}} iter_args([[A:%arg[0-9]+]] = %arg1, [[B:%arg[0-9]+]] = %arg2, [[ACC:%arg[0-9]+]] = %cst, [[A_PRE:%arg[0-9]+]] = [[A0_REGS]], [[B_PRE:%arg[0-9]+]] = [[B0_REGS]])
// CHECK: ttg.memdesc_subslice [[A]][0, 16]
// CHECK: ttg.memdesc_subslice [[B]][16, 0]
// CHECK: [[D0:%.*]] = tt.dot [[A_PRE]], [[B_PRE]], [[ACC]]
// CHECK: ttg.memdesc_subslice [[A]][0, 32]
// CHECK: ttg.memdesc_subslice [[B]][32, 0]
// CHECK: [[D1:%.*]] = tt.dot %{{.*}}, %{{.*}}, [[D0]]
// CHECK: ttg.memdesc_subslice [[A]][0, 48]
// CHECK: ttg.memdesc_subslice [[B]][48, 0]
// CHECK: [[D2:%.*]] = tt.dot %{{.*}}, %{{.*}}, [[D1]]
// The next iteration's slices are loaded before the last dot.
// CHECK: [[NA:%.*]] = ttg.local_alloc
// CHECK: [[NB:%.*]] = ttg.local_alloc
// CHECK: ttg.memdesc_subslice [[NA]][0, 0]
// CHECK: [[NA_REGS:%.*]] = ttg.local_load
// CHECK: ttg.memdesc_subslice [[NB]][0, 0]
// CHECK: [[NB_REGS:%.*]] = ttg.local_load
// CHECK-NEXT: [[D3:%.*]] = tt.dot %{{.*}}, %{{.*}}, [[D2]]
// CHECK-NEXT: scf.yield [[NA]], [[NB]], [[D3]], [[NA_REGS]], [[NB_REGS]]
// The rebuilt loop has none of the old one's attributes.
// CHECK-NEXT: }{{$}}
// Both operands come from shared memory carried by the loop: the first 16
// of K (8 * kWidth) are loaded before the loop and for the next iteration,
// the rest in three more dots.
tt.func @prefetch_f16(%n: i32, %a0: !ttg.memdesc<64x64xf16, #shared, #smem>, %b0: !ttg.memdesc<64x64xf16, #shared, #smem>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %zero) -> (!ttg.memdesc<64x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>) : i32 {
    %av = ttg.local_load %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %bv = ttg.local_load %b : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %av, %bv, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %x = tt.load %p : tensor<64x64x!tt.ptr<f16>, #blocked>
    %na = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %nb = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    scf.yield %na, %nb, %d : !ttg.memdesc<64x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>
  } {tt.num_stages = 1 : i32}
  tt.return %r#2 : tensor<64x64xf32, #mma>
}

// CHECK-LABEL: @prefetch_through_conversion
// CHECK: ttg.local_load
// CHECK-NEXT: [[A0:%.*]] = tt.fp_to_fp
// CHECK: [[B0:%.*]] = ttg.local_load
// CHECK-NEXT: scf.for {{.*}} iter_args({{.*}}, [[A_PRE:%arg[0-9]+]] = [[A0]], [[B_PRE:%arg[0-9]+]] = [[B0]])
// CHECK: ttg.memdesc_subslice
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: [[NA:%.*]] = tt.fp_to_fp
// CHECK-NEXT: ttg.memdesc_subslice
// CHECK-NEXT: [[NB:%.*]] = ttg.local_load
// CHECK-NEXT: [[D:%.*]] = tt.dot [[A_PRE]], [[B_PRE]]
// CHECK-NEXT: scf.yield %{{.*}}, %{{.*}}, [[D]], [[NA]], [[NB]]
// An fp8 operand converted after its load: the conversion is applied to
// every slice. K = 16 is one slice: the dot is not split.
tt.func @prefetch_through_conversion(%n: i32, %a0: !ttg.memdesc<64x16xf8E5M2, #shared, #smem>, %b0: !ttg.memdesc<16x64xf16, #shared, #smem>) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0, %acc = %zero) -> (!ttg.memdesc<64x16xf8E5M2, #shared, #smem>, !ttg.memdesc<16x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>) : i32 {
    %a8 = ttg.local_load %a : !ttg.memdesc<64x16xf8E5M2, #shared, #smem> -> tensor<64x16xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %av = tt.fp_to_fp %a8 : tensor<64x16xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %bv = ttg.local_load %b : !ttg.memdesc<16x64xf16, #shared, #smem> -> tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %av, %bv, %acc : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    scf.yield %a, %b, %d : !ttg.memdesc<64x16xf8E5M2, #shared, #smem>, !ttg.memdesc<16x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>
  }
  tt.return %r#2 : tensor<64x64xf32, #mma>
}

// CHECK-LABEL: @not_loop_carried
// CHECK-NOT: memdesc_subslice
// CHECK: tt.dot
// CHECK: scf.yield
// CHECK-NEXT: }{{$}}
// Operands read from a buffer indexed in the loop (as the pipeliner makes
// them): nothing to prefetch, but the loop is rebuilt without its
// attributes, as upstream does.
tt.func @not_loop_carried(%n: i32, %buf: !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %s = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %av = ttg.local_load %s : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %bv = ttg.local_load %s : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %av, %bv, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  } {tt.divisibility_arg1 = dense<16> : tensor<2xi32>}
  tt.return %r : tensor<64x64xf32, #mma>
}

// CHECK-LABEL: @two_dots
// CHECK-NOT: memdesc_subslice
// CHECK: } {tt.num_stages = 1 : i32}
// Two dots in the loop: left as it is.
tt.func @two_dots(%n: i32, %a0: !ttg.memdesc<64x64xf16, #shared, #smem>) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %acc = %zero) -> (!ttg.memdesc<64x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>) : i32 {
    %av = ttg.local_load %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %bv = ttg.local_load %a : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %av, %bv, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    %e = tt.dot %av, %bv, %d : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    scf.yield %a, %e : !ttg.memdesc<64x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>
  } {tt.num_stages = 1 : i32}
  tt.return %r#1 : tensor<64x64xf32, #mma>
}
}
