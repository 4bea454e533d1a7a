// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-test-pipeline-lower-loop | FileCheck %s

// The lowering step of the pipeliner alone: the load becomes a copy into a
// multi-buffered allocation, the schedule stays on the loop and the loop is
// not expanded (no prologue). Its value lives from stage 0 to stage 1: one
// buffer.
// CHECK-LABEL: tt.func @lowered_not_expanded
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf16
// CHECK: scf.for
// CHECK: ttg.async_copy_global_to_local {{.*}}loop.stage = 0 : i32
// CHECK: ttg.async_wait {{.*}}loop.stage = 1 : i32
// CHECK: ttg.local_load {{.*}}loop.stage = 1 : i32
// CHECK: "consume"
// CHECK: } {tt.scheduled_max_stage = 1 : i32}
// CHECK-NOT: scf.for
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @lowered_not_expanded(%n: i32, %ptrs: tensor<64x64x!tt.ptr<f16>, #blocked> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %ptrs {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      "consume"(%x) {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (tensor<64x64xf16, #blocked>) -> ()
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}

// -----

// A barrier wait that depends on the loaded tile holds its buffer up to the
// wait's stage (4), not only up to the tile's first use (stage 1): four
// buffers instead of one.
// CHECK-LABEL: tt.func @buffer_held_by_barrier_wait
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<4x64x64xf16
// CHECK: scf.for
// CHECK: ttng.wait_barrier {{.*}}loop.stage = 4 : i32
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @buffer_held_by_barrier_wait(%n: i32, %ptrs: tensor<64x64x!tt.ptr<f16>, #blocked> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>}, %barrier: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>, %phase: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %ptrs {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %tile = ttg.local_alloc %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>
      ttng.wait_barrier %barrier, %phase deps %tile {loop.cluster = 0 : i32, loop.stage = 4 : i32} : !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>, !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>
    } {tt.scheduled_max_stage = 4 : i32}
    tt.return
  }
}

// -----

// A TMA gather used two stages later becomes ttng.async_tma_gather into one
// of two buffers, completed through the mbarrier of that buffer (all 16
// rows of 64 f16: 2048 bytes), then read after the wait.
// CHECK-LABEL: @gather_pipelined
// CHECK-DAG: %[[ROWS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x16x64xf16
// CHECK-DAG: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK: scf.for
// CHECK: %[[BAR:.*]] = ttg.memdesc_index %[[BARS]]
// CHECK: ttng.barrier_expect %[[BAR]], 2048
// CHECK: %[[SLOT:.*]] = ttg.memdesc_index %[[ROWS]]
// CHECK: ttng.async_tma_gather %{{.*}}[%{{.*}}, %{{.*}}] %[[SLOT]], %[[BAR]], %{{.*}} {loop.cluster = 1 : i32, loop.stage = 0 : i32}
// CHECK: ttng.wait_barrier
// CHECK: ttg.local_load
// CHECK: "use"
#gl = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#xo = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nv16 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
  tt.func @gather_pipelined(%lb: index, %ub: index, %step: index, %d: !tt.tensordesc<tensor<1x64xf16, #nv16>>, %x: tensor<16xi32, #xo>, %y: i32) {
    scf.for %i = %lb to %ub step %step : index {
      %rows = tt.descriptor_gather %d[%x, %y] {loop.cluster = 1 : i32, loop.stage = 0 : i32} : (!tt.tensordesc<tensor<1x64xf16, #nv16>>, tensor<16xi32, #xo>, i32) -> tensor<16x64xf16, #gl>
      "use"(%rows) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<16x64xf16, #gl>) -> ()
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}
