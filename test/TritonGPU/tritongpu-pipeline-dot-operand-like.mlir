// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-test-pipeline-lower-loop -verify-diagnostics | FileCheck %s

// Shared layouts of pipelined loads whose users convert them to dot operands
// or to layouts tiled like them. First, a pipelined load whose only user converts it to a
// layout tiled like an MMA operand (upstream `swizzleDotOperandLike`), as
// the packed fp4 bytes of a bf16 x mxfp4 dot_scaled on their way to
// ttg.fp4_to_fp. Here the linear layout has its lanes along dim 0 first:
// operand B's order with K contiguous, kWidth 1; staged K-major, a row-major
// register tile would copy single bytes, too few for cp.async, so the load is
// pipelined in registers (upstream's remark and choice). Once Tritium staged
// it in an unswizzled row-major buffer with cp.async instead.
// CHECK-LABEL: tt.func @fp4_bytes_pipelined_in_registers
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: tt.load
// CHECK-NOT: ttg.async_copy_global_to_local
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 8], [4, 0], [8, 0], [16, 0]], lane = [[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 16], [0, 32]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fp4_bytes_pipelined_in_registers(%n: i32, %ptrs: tensor<32x64x!tt.ptr<i8>, #blocked> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      // expected-remark @+1 {{Pipelining load that cannot use vectorized copy}}
      %x = tt.load %ptrs {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32x64x!tt.ptr<i8>, #blocked>
      %y = ttg.convert_layout %x {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xi8, #blocked> -> tensor<32x64xi8, #linear>
      "consume"(%y) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<32x64xi8, #linear>) -> ()
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// Converted to a blocked layout tiled like operand A (threads K-major, 4
// elements of K per thread, then 4 lanes along K and 8 across): the buffer
// gets operand A's swizzle for kWidth 4, and the 16-byte rows go through
// cp.async.
// CHECK: #[[$SHARED:.*]] = #ttg.swizzled_shared<{vec = 16, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-LABEL: tt.func @bytes_staged_like_operand_a
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x32x64xi8, #[[$SHARED]]
// CHECK: ttg.async_copy_global_to_local
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bytes_staged_like_operand_a(%n: i32, %ptrs: tensor<32x64x!tt.ptr<i8>, #blocked> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 64]> : tensor<2xi32>}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %ptrs {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32x64x!tt.ptr<i8>, #blocked>
      %y = ttg.convert_layout %x {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<32x64xi8, #blocked> -> tensor<32x64xi8, #blocked1>
      "consume"(%y) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<32x64xi8, #blocked1>) -> ()
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A load feeding operand A straight from a row-major tile whose rows repeat
// in registers (one element per thread along the lanes' dim 1): the buffer
// takes the order the tile is best stored in (upstream `getOrderForMemory`:
// the lanes' order, [1, 0]), not the order of the repeated registers
// ([0, 1]), so each thread still copies along the contiguous dim. Once the
// tf32 GEMMs on sm_80 got column-major buffers and one-element copies.
// CHECK: #[[$ROW_MAJOR:.*]] = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tt.func @operand_a_from_row_repeats
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf32, #[[$ROW_MAJOR]]
// CHECK: ttg.async_copy_global_to_local
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @operand_a_from_row_repeats(%n: i32, %ptrs: tensor<64x32x!tt.ptr<f32>, #blocked> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %ptrs {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<64x32x!tt.ptr<f32>, #blocked>
      %y = ttg.convert_layout %x {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
      "consume"(%y) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) -> ()
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}
