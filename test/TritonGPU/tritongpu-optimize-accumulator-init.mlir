// RUN: tt-opt %s -split-input-file -tritongpu-optimize-accumulator-init | FileCheck %s

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#a = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#a8 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#b8 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // The accumulator is reset every fourth iteration, before the dot: the
  // reset clears the flag, the loop sets it again; the select no longer
  // makes zeros.
  // CHECK-LABEL: @reset_every_fourth
  // CHECK-DAG: %[[TRUE:.*]] = arith.constant true
  // CHECK-DAG: %[[FALSE:.*]] = arith.constant false
  // CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[USE:.*]] = %[[TRUE]]) -> (tensor<64x32xf32, #mma>, i1)
  // CHECK:   %[[RESET:.*]] = arith.cmpi eq
  // CHECK:   %[[FLAG:.*]] = arith.select %[[RESET]], %[[FALSE]], %[[USE]] : i1
  // CHECK-NOT: arith.select
  // CHECK:   %[[D:.*]] = ttng.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]], %[[FLAG]]
  // CHECK:   scf.yield %[[D]], %[[TRUE]] : tensor<64x32xf32, #mma>, i1
  tt.func @reset_every_fourth(%a: !ttg.memdesc<64x32xf16, #a, #smem>, %b: !ttg.memdesc<32x32xf16, #b, #smem>, %n: i32) -> tensor<64x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x32xf32, #mma>) : i32 {
      %m = arith.remsi %i, %c4 : i32
      %reset = arith.cmpi eq, %m, %c0 : i32
      %c = arith.select %reset, %zero, %acc : tensor<64x32xf32, #mma>
      %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x32xf16, #a, #smem> * !ttg.memdesc<32x32xf16, #b, #smem> -> tensor<64x32xf32, #mma>
      scf.yield %d : tensor<64x32xf32, #mma>
    }
    tt.return %r : tensor<64x32xf32, #mma>
  }

  // Only a zero start: the first iteration does not read the accumulator.
  // CHECK-LABEL: @zero_start
  // CHECK-DAG: %[[TRUE:.*]] = arith.constant true
  // CHECK-DAG: %[[FALSE:.*]] = arith.constant false
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[USE:.*]] = %[[FALSE]])
  // CHECK:   %[[D:.*]] = ttng.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]], %[[USE]]
  // CHECK:   scf.yield %[[D]], %[[TRUE]]
  tt.func @zero_start(%a: !ttg.memdesc<64x32xf16, #a, #smem>, %b: !ttg.memdesc<32x32xf16, #b, #smem>, %n: i32) -> tensor<64x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x32xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc : !ttg.memdesc<64x32xf16, #a, #smem> * !ttg.memdesc<32x32xf16, #b, #smem> -> tensor<64x32xf32, #mma>
      scf.yield %d : tensor<64x32xf32, #mma>
    }
    tt.return %r : tensor<64x32xf32, #mma>
  }

  // Left alone: fp8 into f32 with few imprecise accumulations (summed in
  // two parts), and a dot whose flag is not a constant true.
  // CHECK-LABEL: @left_alone
  // CHECK-NOT: arith.constant true
  // CHECK: scf.for {{.*}} -> (tensor<64x32xf32, #mma>, tensor<64x32xf32, #mma>)
  // CHECK: ttng.warp_group_dot %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}} :
  // CHECK: ttng.warp_group_dot %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %{{[a-z0-9]+}} :
  tt.func @left_alone(%a: !ttg.memdesc<64x32xf8E4M3FN, #a8, #smem>, %b: !ttg.memdesc<32x32xf8E4M3FN, #b8, #smem>, %a16: !ttg.memdesc<64x32xf16, #a, #smem>, %b16: !ttg.memdesc<32x32xf16, #b, #smem>, %n: i32, %use: i1) -> tensor<64x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %acc2 = %zero) -> (tensor<64x32xf32, #mma>, tensor<64x32xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc {maxNumImpreciseAcc = 0 : i32} : !ttg.memdesc<64x32xf8E4M3FN, #a8, #smem> * !ttg.memdesc<32x32xf8E4M3FN, #b8, #smem> -> tensor<64x32xf32, #mma>
      %e = ttng.warp_group_dot %a16, %b16, %acc2, %use : !ttg.memdesc<64x32xf16, #a, #smem> * !ttg.memdesc<32x32xf16, #b, #smem> -> tensor<64x32xf32, #mma>
      scf.yield %d, %e : tensor<64x32xf32, #mma>, tensor<64x32xf32, #mma>
    }
    tt.return %r#0 : tensor<64x32xf32, #mma>
  }
}
