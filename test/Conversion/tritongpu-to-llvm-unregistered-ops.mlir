// RUN: tt-opt %s -allow-unregistered-dialect --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm | FileCheck %s

// An op of an unregistered dialect (upstream's tests use them as "some
// use") is kept: its operands are cast back to their types from their
// lowered values (a tensor from the struct of its registers), its results
// are cast to their lowered form.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {ttg.target = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @uses
  // CHECK: %[[P:.*]] = builtin.unrealized_conversion_cast %arg0 : !llvm.ptr<1> to !tt.ptr<f32>
  // CHECK: %[[S:.*]] = llvm.insertvalue %{{.*}}[1] : !llvm.struct<(i32, i32)>
  // CHECK: %[[T:.*]] = builtin.unrealized_conversion_cast %[[S]] : !llvm.struct<(i32, i32)> to tensor<64xi32, #{{.*}}>
  // CHECK: %[[R:.*]] = "test.use"(%[[P]], %[[T]], %arg2) : (!tt.ptr<f32>, tensor<64xi32, #{{.*}}>, i32) -> tensor<64xi32, #{{.*}}>
  // CHECK: %[[U:.*]] = builtin.unrealized_conversion_cast %[[R]] : tensor<64xi32, #{{.*}}> to !llvm.struct<(i32, i32)>
  // CHECK: llvm.extractvalue %[[U]][0]
  tt.func public @uses(%p: !tt.ptr<f32>, %x: tensor<64xi32, #blocked>, %n: i32, %out: tensor<64x!tt.ptr<i32>, #blocked>) {
    %r = "test.use"(%p, %x, %n) : (!tt.ptr<f32>, tensor<64xi32, #blocked>, i32) -> tensor<64xi32, #blocked>
    tt.store %out, %r : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}
