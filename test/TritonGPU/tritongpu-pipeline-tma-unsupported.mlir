// RUN: tt-opt %s -split-input-file --tritongpu-pipeline=num-stages=3 -verify-diagnostics | FileCheck %s

// A descriptor made directly in the loop body, in a stage before the last:
// the expander would have to predicate the ops writing its tensormap, which
// upstream's pipeliner cannot ("pipeliner doesn't know how to predicate this
// op", a fatal error). Tritium runs the loop unpipelined instead, with a
// remark: the load stays for triton-nvidia-tma-lowering (synchronous TMA),
// the descriptor is made in place; the store through the host-side
// descriptor still becomes asynchronous, as in any loop with stages.
// (Descriptors made in an `scf.if` of the loop are pipelined:
// tritongpu-pipeline-tma-descriptors.mlir.)
// CHECK-LABEL: tt.func public @descriptor_made_in_loop
// CHECK-NOT: ttng.async_tma_copy_global_to_local
// CHECK-NOT: ttg.global_scratch_alloc
// CHECK: scf.for
// CHECK: tt.make_tensor_descriptor
// CHECK: tt.descriptor_load
// CHECK-NOT: loop.stage
// CHECK: ttg.local_store
// CHECK: ttng.async_tma_copy_local_to_global %arg1
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @descriptor_made_in_loop(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.tensordesc<tensor<32x64xf16, #shared1>>, %n: i32, %scale: f32) {
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %0 = tt.get_program_id x : i32
    %1 = arith.muli %0, %n : i32
    %2 = tt.splat %scale : f32 -> tensor<32x64xf32, #blocked>
    // expected-remark @+1 {{loop not pipelined: Tritium does not pipeline a tensor descriptor made at the top level of the loop body before its last stage}}
    scf.for %i = %c0_i32 to %n step %c1_i32  : i32 {
      %3 = arith.addi %1, %i {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %4 = arith.muli %3, %c32_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %d = tt.make_tensor_descriptor %x, [%n, %c64_i32], [%c64_i64, %c1_i64] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : <f32>, <tensor<32x64xf32, #shared>>
      %5 = tt.descriptor_load %d[%4, %c0_i32] {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<32x64xf32, #shared>> -> tensor<32x64xf32, #blocked>
      %6 = arith.mulf %5, %2 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf32, #blocked>
      %7 = arith.truncf %6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf32, #blocked> to tensor<32x64xf16, #blocked>
      %8 = ttg.convert_layout %7 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #blocked1>
      tt.descriptor_store %y[%4, %c0_i32], %8 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !tt.tensordesc<tensor<32x64xf16, #shared1>>, tensor<32x64xf16, #blocked1>
    } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}
