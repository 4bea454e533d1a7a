// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of the tti dialect (the ops of upstream's concurrency
// sanitizer), which Tritium parses, verifies and prints only.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
// CHECK-LABEL: tt.func @tti
tt.func @tti(%lock: !tt.ptr<i32>, %pred: i1, %c: tensor<2xi1, #blocked>, %m: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
  // CHECK: tti.experimental_buffer_pointers [0, 42], shared_mem : tensor<2xi64, #{{.*}}>
  %0 = tti.experimental_buffer_pointers [0, 42], shared_mem : tensor<2xi64, #blocked>
  // CHECK: tti.experimental_buffer_pointers [8], tensor_mem : tensor<1xi64, #{{.*}}>
  %1 = tti.experimental_buffer_pointers [8], tensor_mem : tensor<1xi64, #blocked>
  // CHECK: tti.experimental_memdesc_to_i64 %{{.*}} : <1xi64, #{{.*}}, #smem, mutable>
  %2 = tti.experimental_memdesc_to_i64 %m : !ttg.memdesc<1xi64, #bar, #smem, mutable>
  // CHECK: tti.experimental_assert_in_thread %{{.*}}, "all set" {check_any = false} : tensor<2xi1, #{{.*}}>
  tti.experimental_assert_in_thread %c, "all set" {check_any = false} : tensor<2xi1, #blocked>
  // CHECK: tti.experimental_assert_in_thread %{{.*}}, "one" {check_any = true} : i1
  tti.experimental_assert_in_thread %pred, "one" {check_any = true} : i1
  // CHECK: tti.experimental_lock_acquire %{{.*}}, %{{.*}} : !tt.ptr<i32>
  tti.experimental_lock_acquire %lock, %pred : !tt.ptr<i32>
  // CHECK: tti.experimental_lock_release %{{.*}} : !tt.ptr<i32>
  tti.experimental_lock_release %lock : !tt.ptr<i32>
  tt.return
}
}
