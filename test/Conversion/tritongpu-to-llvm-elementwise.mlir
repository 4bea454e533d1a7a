// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// Element-wise ops compute one value per block of equal elements (the axis
// info's constancy), as upstream's maybeDeduplicate: `range < n` with n a
// multiple of 16 is constant over aligned blocks of 16, so a thread's 4
// consecutive elements need one compare, not 4.
// CHECK-LABEL: llvm.func @mask_of_a_multiple_of_16
// CHECK-COUNT-1: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp "slt"
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mask_of_a_multiple_of_16(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %bound = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %mask = arith.cmpi slt, %range, %bound : tensor<128xi32, #blocked>
    %zero = arith.constant dense<0.0> : tensor<128xf32, #blocked>
    %pointers = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %addresses = tt.addptr %pointers, %range : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %addresses, %zero, %mask : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Without the divisibility, every element has its own compare.
// CHECK-LABEL: llvm.func @mask_of_any_bound
// CHECK-COUNT-4: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp "slt"
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mask_of_any_bound(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %bound = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %mask = arith.cmpi slt, %range, %bound : tensor<128xi32, #blocked>
    %zero = arith.constant dense<0.0> : tensor<128xf32, #blocked>
    %pointers = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %addresses = tt.addptr %pointers, %range : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %addresses, %zero, %mask : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// math.log and math.log2 on f32 call libdevice's __nv_logf / __nv_log2f, as
// upstream's lowering does; lg2.approx would lose the relative precision of
// log(x) near 1. 16-bit floats go through the same f32 functions.
// CHECK-LABEL: llvm.func @logarithms
// CHECK-NOT: lg2.approx
// CHECK-DAG: llvm.call @__nv_logf(
// CHECK-DAG: llvm.call @__nv_log2f(
// CHECK-DAG: llvm.fpext {{.*}} : f16 to f32
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @logarithms(%x: tensor<32xf32, #blocked>, %h: tensor<32xf16, #blocked>, %out: tensor<32x!tt.ptr<f32>, #blocked>, %out16: tensor<32x!tt.ptr<f16>, #blocked>) {
    %ln = math.log %x : tensor<32xf32, #blocked>
    %lg = math.log2 %ln : tensor<32xf32, #blocked>
    %h_ln = math.log %h : tensor<32xf16, #blocked>
    tt.store %out, %lg : tensor<32x!tt.ptr<f32>, #blocked>
    tt.store %out16, %h_ln : tensor<32x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
