// RUN: tt-opt %s -split-input-file --tritongpu-pipeline=num-stages=3 | FileCheck %s

// Tensor descriptors made inside pipelined loops (upstream
// `lowerTMADescriptors`): each `tt.make_tensor_descriptor` of the loop gets a
// ring of 128-byte tensormap slots in global scratch, as many as the loop's
// last stage (plus one with a wgmma), and a loop-carried slot counter. The
// outputs of both cases are upstream's (triton 3.6.0's add_pipeline), op for op.

// A descriptor made in an `scf.if` of stage 0 (a new batch starts), read by a
// descriptor load pipelined over two stages: two slots. The if of each
// prologue iteration writes its slot (the first the ring's start), and the
// kernel loop's if writes slot `counter`, fences it for the TMA unit, passes
// the reinterpreted slot on as the descriptor and the advanced counter out
// through a new result; the loads stay TMA copies with mbarriers.
// CHECK-LABEL: tt.func public @descriptor_made_in_if
// CHECK: %[[SCRATCH:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32} : !tt.ptr<i8>
// CHECK: scf.if %{{.*}} -> (!tt.tensordesc<tensor<64x64xf16, #shared>>, i32) {
// CHECK: ttng.tensormap_create %[[SCRATCH]], %{{.*}}, [%c64_i32, %c64_i32], [%arg2, %arg1], [%{{.*}}], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[SCRATCH]] : !tt.ptr<i8>
// CHECK-NEXT: %[[FIRST:.*]] = ttng.reinterpret_tensor_descriptor %[[SCRATCH]] : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
// CHECK-NEXT: scf.yield %[[FIRST]], %c1_i32
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: scf.if
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: scf.for {{.*}} iter_args(
// CHECK: scf.if %{{.*}} -> (!tt.tensordesc<tensor<64x64xf16, #shared>>, i32) {
// CHECK: %[[OFFSET:.*]] = arith.muli %[[COUNTER:arg[0-9]+]], %c128_i32 : i32
// CHECK-NEXT: %[[SLOT:.*]] = tt.addptr %[[SCRATCH]], %[[OFFSET]] : !tt.ptr<i8>, i32
// CHECK: ttng.tensormap_create %[[SLOT]],
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[SLOT]] : !tt.ptr<i8>
// CHECK-NEXT: %[[DESC:.*]] = ttng.reinterpret_tensor_descriptor %[[SLOT]]
// CHECK-NEXT: %[[INC:.*]] = arith.addi %[[COUNTER]], %c1_i32 : i32
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi sge, %[[INC]], %c2_i32 : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.select %[[WRAP]], %c0_i32, %[[INC]] : i32
// CHECK-NEXT: scf.yield %[[DESC]], %[[NEXT]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.*}}, %[[COUNTER]]
// CHECK: ttng.wait_barrier
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @descriptor_made_in_if(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}, %steps: i32, %tiles: i32, %col: i32) -> tensor<64x64xf32, #blocked> {
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %stride = arith.extsi %n : i32 to i64
    %first = tt.make_tensor_descriptor %x, [%m, %n], [%stride, %c1_i64] : <f16>, <tensor<64x64xf16, #shared>>
    %res:2 = scf.for %i = %c0_i32 to %steps step %c1_i32 iter_args(%desc = %first, %acc = %zero) -> (!tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf32, #blocked>)  : i32 {
      %tile = arith.remsi %i, %tiles {loop.cluster = 0 : i32, loop.stage = 0 : i32} : i32
      %starts = arith.cmpi eq, %tile, %c0_i32 {loop.cluster = 0 : i32, loop.stage = 0 : i32} : i32
      %next = scf.if %starts -> (!tt.tensordesc<tensor<64x64xf16, #shared>>) {
        %batch = arith.divsi %i, %tiles : i32
        %b0 = arith.muli %batch, %m : i32
        %b1 = arith.muli %b0, %n : i32
        %base = tt.addptr %x, %b1 : !tt.ptr<f16>, i32
        %made = tt.make_tensor_descriptor %base, [%m, %n], [%stride, %c1_i64] : <f16>, <tensor<64x64xf16, #shared>>
        scf.yield %made : !tt.tensordesc<tensor<64x64xf16, #shared>>
      } else {
        scf.yield %desc : !tt.tensordesc<tensor<64x64xf16, #shared>>
      } {loop.cluster = 0 : i32, loop.stage = 0 : i32}
      %row = arith.muli %tile, %c64_i32 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : i32
      %v = tt.descriptor_load %next[%row, %col] {loop.cluster = 3 : i32, loop.stage = 0 : i32} : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %w = arith.extf %v {loop.cluster = 1 : i32, loop.stage = 2 : i32} : tensor<64x64xf16, #blocked> to tensor<64x64xf32, #blocked>
      %sum = arith.addf %acc, %w {loop.cluster = 1 : i32, loop.stage = 2 : i32} : tensor<64x64xf32, #blocked>
      scf.yield %next, %sum : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf32, #blocked>
    } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
    tt.return %res#1 : tensor<64x64xf32, #blocked>
  }
}

// -----

// A loop without a schedule whose descriptor store goes through a
// descriptor made in it: the store becomes asynchronous and the descriptor
// gets the slots of a three-stage schedule (two, no wgmma). Nothing folds
// after this step: the constants stay where they were made, and so does the
// unused `tt.make_tensor_descriptor`, for the next clean-up.
// CHECK-LABEL: tt.func public @descriptor_store_made_in_if
// CHECK: %[[BUFFER:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16
// CHECK: %[[SCRATCH:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32} : !tt.ptr<i8>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[COUNTER:.*]] = %c0_i32{{.*}}) -> (!tt.tensordesc<tensor<64x64xf16, #shared>>, i32)
// CHECK: scf.if %{{.*}} -> (!tt.tensordesc<tensor<64x64xf16, #shared>>, i32) {
// CHECK: %[[OFFSET:.*]] = arith.muli %c128_i32, %[[COUNTER]] : i32
// CHECK-NEXT: %[[SLOT:.*]] = tt.addptr %[[SCRATCH]], %[[OFFSET]] : !tt.ptr<i8>, i32
// CHECK: ttng.tensormap_create %[[SLOT]],
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[SLOT]] : !tt.ptr<i8>
// CHECK-NEXT: %[[DESC:.*]] = ttng.reinterpret_tensor_descriptor %[[SLOT]]
// CHECK: arith.cmpi sge, %{{.*}}, %c2_i32 : i32
// CHECK: tt.make_tensor_descriptor
// CHECK-NEXT: scf.yield %[[DESC]],
// CHECK: ttng.async_tma_copy_local_to_global %{{.*}}#0[%{{.*}}, %c0_i32] %[[BUFFER]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @descriptor_store_made_in_if(%y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}, %steps: i32, %tiles: i32, %value: tensor<64x64xf16, #blocked>) {
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %stride = arith.extsi %n : i32 to i64
    %first = tt.make_tensor_descriptor %y, [%m, %n], [%stride, %c1_i64] : <f16>, <tensor<64x64xf16, #shared>>
    %last = scf.for %i = %c0_i32 to %steps step %c1_i32 iter_args(%desc = %first) -> (!tt.tensordesc<tensor<64x64xf16, #shared>>)  : i32 {
      %tile = arith.remsi %i, %tiles : i32
      %starts = arith.cmpi eq, %tile, %c0_i32 : i32
      %next = scf.if %starts -> (!tt.tensordesc<tensor<64x64xf16, #shared>>) {
        %batch = arith.divsi %i, %tiles : i32
        %b0 = arith.muli %batch, %m : i32
        %b1 = arith.muli %b0, %n : i32
        %base = tt.addptr %y, %b1 : !tt.ptr<f16>, i32
        %made = tt.make_tensor_descriptor %base, [%m, %n], [%stride, %c1_i64] : <f16>, <tensor<64x64xf16, #shared>>
        scf.yield %made : !tt.tensordesc<tensor<64x64xf16, #shared>>
      } else {
        scf.yield %desc : !tt.tensordesc<tensor<64x64xf16, #shared>>
      }
      %row = arith.muli %tile, %c64_i32 : i32
      tt.descriptor_store %next[%row, %c0_i32], %value : !tt.tensordesc<tensor<64x64xf16, #shared>>, tensor<64x64xf16, #blocked>
      scf.yield %next : !tt.tensordesc<tensor<64x64xf16, #shared>>
    }
    tt.return
  }
}
