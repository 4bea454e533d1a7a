// RUN: tt-opt %s -split-input-file -verify-diagnostics --nvgpu-test-ws-data-partition=num-warp-groups=3 | FileCheck %s
// RUN: tt-opt %s -split-input-file --nvgpu-test-ws-data-partition=num-warp-groups=2 | FileCheck %s --check-prefix=ONE

// Upstream's data partition of the Hopper warp specialization: two consumer
// groups (async tasks 1 and 2) each take one half of the dots' tile. The
// inputs are upstream's own task-id propagation output on small kernels.

// M = 128: cut along the rows. The A tile's descriptor, load and buffer are
// split (the second load's row moved by 64), the loop carries one
// accumulator per group (the counter nothing reads is dropped, the loop
// rebuilt: its yield's task ids are those of the accumulators), and the epilogue (store through the C descriptor,
// a row sum stored through pointers) is cut along the rows too: the second
// group's range starts at 64.
// CHECK-LABEL: @rows_with_epilogue
// CHECK: %cst = arith.constant {async_task_id = array<i32: 1, 2>} dense<0.000000e+00> : tensor<64x128xf32, #mma>
// CHECK: %[[A0:.*]] = tt.make_tensor_descriptor %arg0{{.*}} : <f16>, <tensor<64x64xf16, #shared>>
// CHECK: %[[A1:.*]] = tt.make_tensor_descriptor %arg0{{.*}} : <f16>, <tensor<64x64xf16, #shared>>
// CHECK: %[[B:.*]] = tt.make_tensor_descriptor %arg1{{.*}} : <f16>, <tensor<128x64xf16, #shared>>
// CHECK: tt.make_tensor_descriptor %arg2{{.*}} {async_task_id = array<i32: 1>} : <f16>, <tensor<64x128xf16, #shared>>
// CHECK: tt.make_tensor_descriptor %arg2{{.*}} {async_task_id = array<i32: 2>} : <f16>, <tensor<64x128xf16, #shared>>
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c128_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
// CHECK-NEXT: arith.addi %[[ROW]], %c64_i32 {async_task_id = array<i32: 2>} : i32
// CHECK-NEXT: %[[ROW1:.*]] = arith.addi %[[ROW]], %c64_i32 {async_task_id = array<i32: 0>} : i32
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC0:.*]] = %cst, %[[ACC1:.*]] = %cst) -> (tensor<64x128xf32, #mma>, tensor<64x128xf32, #mma>)
// CHECK: %[[LA0:.*]] = tt.descriptor_load %[[A0]][%[[ROW]], {{.*}}] {async_task_id = array<i32: 0>} {{.*}} -> tensor<64x64xf16, #blocked>
// CHECK: %[[LA1:.*]] = tt.descriptor_load %[[A1]][%[[ROW1]], {{.*}}] {async_task_id = array<i32: 0>} {{.*}} -> tensor<64x64xf16, #blocked>
// CHECK: %[[SA0:.*]] = ttg.local_alloc %[[LA0]] {async_task_id = array<i32: 1>}
// CHECK: %[[SA1:.*]] = ttg.local_alloc %[[LA1]] {async_task_id = array<i32: 2>}
// CHECK: tt.descriptor_load %[[B]]{{.*}} -> tensor<128x64xf16, #blocked>
// CHECK: ttg.local_alloc {{.*}} {async_task_id = array<i32: 1, 2>}
// CHECK: %[[BT:.*]] = ttg.memdesc_trans {{.*}} -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK: %[[D0:.*]] = ttng.warp_group_dot %[[SA0]], %[[BT]], %[[ACC0]] {async_task_id = array<i32: 1>{{.*}} -> tensor<64x128xf32, #mma>
// CHECK: %[[D1:.*]] = ttng.warp_group_dot %[[SA1]], %[[BT]], %[[ACC1]] {async_task_id = array<i32: 2>{{.*}} -> tensor<64x128xf32, #mma>
// CHECK: scf.yield {async_task_id = array<i32: 1, 2>} %[[D0]], %[[D1]]
// CHECK: tt.descriptor_store {{.*}} {async_task_id = array<i32: 1>} : !tt.tensordesc<tensor<64x128xf16, #shared>>, tensor<64x128xf16, #blocked1>
// CHECK: tt.descriptor_store {{.*}} {async_task_id = array<i32: 2>} : !tt.tensordesc<tensor<64x128xf16, #shared>>, tensor<64x128xf16, #blocked1>
// CHECK: "tt.reduce"(%[[LOOP]]#0)
// CHECK: }) {async_task_id = array<i32: 1>} : (tensor<64x128xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
// CHECK: "tt.reduce"(%[[LOOP]]#1)
// CHECK: }) {async_task_id = array<i32: 2>} : (tensor<64x128xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
// CHECK: tt.make_range {async_task_id = array<i32: 1>, end = 64 : i32, start = 0 : i32} : tensor<64xi32
// CHECK: tt.make_range {async_task_id = array<i32: 2>, end = 128 : i32, start = 64 : i32} : tensor<64xi32
// CHECK-COUNT-2: tt.splat %arg6 {{.*}} -> tensor<64x!tt.ptr<f32>
// CHECK-COUNT-2: tt.addptr
// CHECK: tt.store {{.*}} {async_task_id = array<i32: 1>} : tensor<64x!tt.ptr<f32>
// CHECK: tt.store {{.*}} {async_task_id = array<i32: 2>} : tensor<64x!tt.ptr<f32>
// CHECK-NOT: tensor<128x128xf32

// With one consumer group (num-warp-groups=2) the test pass does nothing.
// ONE-LABEL: @rows_with_epilogue
// ONE: ttng.warp_group_dot {{.*}} -> tensor<128x128xf32, #mma>
// ONE-LABEL: @columns
// ONE: ttng.warp_group_dot {{.*}} -> tensor<64x256xf32, #mma>
// ONE-LABEL: @too_narrow

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rows_with_epilogue(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}, %arg6: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i64 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 1 : i64
    %c128_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 128 : i32
    %c64_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 64 : i32
    %c0_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 0 : i32
    %c1_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 1 : i32
    %c127_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 127 : i32
    %c63_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 63 : i32
    %cst = arith.constant {async_task_id = array<i32: 1, 2>} dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %0 = arith.extsi %arg5 {async_task_id = array<i32: 0>} : i32 to i64
    %1 = tt.make_tensor_descriptor %arg0, [%arg3, %arg5], [%0, %c1_i64] {async_task_id = array<i32: 0>} : <f16>, <tensor<128x64xf16, #shared>>
    %2 = tt.make_tensor_descriptor %arg1, [%arg4, %arg5], [%0, %c1_i64] {async_task_id = array<i32: 0>} : <f16>, <tensor<128x64xf16, #shared>>
    %3 = arith.extsi %arg4 {async_task_id = array<i32: 1, 2>} : i32 to i64
    %4 = tt.make_tensor_descriptor %arg2, [%arg3, %arg4], [%3, %c1_i64] {async_task_id = array<i32: 1, 2>} : <f16>, <tensor<128x128xf16, #shared>>
    %5 = arith.addi %arg4, %c127_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %6 = arith.divsi %5, %c128_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %7 = tt.get_program_id x {async_task_id = array<i32: 0, 1, 2>} : i32
    %8 = arith.divsi %7, %6 {async_task_id = array<i32: 0, 1, 2>} : i32
    %9 = arith.muli %8, %c128_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %10 = arith.remsi %7, %6 {async_task_id = array<i32: 0, 1, 2>} : i32
    %11 = arith.muli %10, %c128_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %12 = arith.addi %arg5, %c63_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %13 = arith.divsi %12, %c64_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %14:2 = scf.for %arg7 = %c0_i32 to %13 step %c1_i32 iter_args(%arg8 = %cst, %arg9 = %c0_i32) -> (tensor<128x128xf32, #mma>, i32)  : i32 {
      %21 = arith.muli %arg7, %c64_i32 {async_task_id = array<i32: 0>} : i32
      %22 = tt.descriptor_load %1[%9, %21] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %23 = ttg.local_alloc %22 {async_task_id = array<i32: 1, 2>} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %24 = tt.descriptor_load %2[%11, %21] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %25 = ttg.local_alloc %24 {async_task_id = array<i32: 1, 2>} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %26 = ttg.memdesc_trans %25 {async_task_id = array<i32: 1, 2>, order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %27 = ttng.warp_group_dot %23, %26, %arg8 {async_task_id = array<i32: 1, 2>, inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      %28 = arith.addi %arg9, %c1_i32 : i32
      scf.yield {async_task_id = array<i32: 1, 2>} %27, %28 : tensor<128x128xf32, #mma>, i32
    } {async_task_id = array<i32: 0, 1, 2>, tt.warp_specialize}
    %15 = arith.truncf %14#0 {async_task_id = array<i32: 1, 2>} : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %16 = ttg.convert_layout %15 {async_task_id = array<i32: 1, 2>} : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
    tt.descriptor_store %4[%9, %11], %16 {async_task_id = array<i32: 1, 2>} : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    %17 = "tt.reduce"(%14#0) <{axis = 1 : i32}> ({
    ^bb0(%arg7: f32, %arg8: f32):
      %21 = arith.addf %arg7, %arg8 {async_task_id = array<i32: 1, 2>} : f32
      tt.reduce.return %21 {async_task_id = array<i32: 1, 2>} : f32
    }) {async_task_id = array<i32: 1, 2>} : (tensor<128x128xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %18 = tt.make_range {async_task_id = array<i32: 1, 2>, end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    %19 = tt.splat %arg6 {async_task_id = array<i32: 1, 2>} : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #mma}>>
    %20 = tt.addptr %19, %18 {async_task_id = array<i32: 1, 2>} : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>
    tt.store %20, %17 {async_task_id = array<i32: 1, 2>} : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #mma}>>
    tt.return
  }
}


// -----

// M = 64, N = 256: too few rows for two groups, cut along the columns. The
// B tile is cut along its rows (the transpose flips the dimension), the A
// tile is shared, and the C store's column moves by 128.
// CHECK-LABEL: @columns
// CHECK: %[[A:.*]] = tt.make_tensor_descriptor %arg0{{.*}} : <f16>, <tensor<64x64xf16, #shared>>
// CHECK: %[[B0:.*]] = tt.make_tensor_descriptor %arg1{{.*}} : <f16>, <tensor<128x64xf16, #shared>>
// CHECK: %[[B1:.*]] = tt.make_tensor_descriptor %arg1{{.*}} : <f16>, <tensor<128x64xf16, #shared>>
// CHECK: %[[C0:.*]] = tt.make_tensor_descriptor %arg2{{.*}} {async_task_id = array<i32: 1>} : <f16>, <tensor<64x128xf16, #shared>>
// CHECK: %[[C1:.*]] = tt.make_tensor_descriptor %arg2{{.*}} {async_task_id = array<i32: 2>} : <f16>, <tensor<64x128xf16, #shared>>
// CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %c256_i32
// CHECK-NEXT: %[[COLC:.*]] = arith.addi %[[COL]], %c128_i32 {async_task_id = array<i32: 2>} : i32
// CHECK-NEXT: %[[COLB:.*]] = arith.addi %[[COL]], %c128_i32 {async_task_id = array<i32: 0>} : i32
// CHECK: scf.for {{.*}} -> (tensor<64x128xf32, #mma>, tensor<64x128xf32, #mma>)
// CHECK: %[[SA:.*]] = ttg.local_alloc {{.*}} {async_task_id = array<i32: 1, 2>} {{.*}} -> !ttg.memdesc<64x64xf16
// CHECK: tt.descriptor_load %[[B0]][%[[COL]], {{.*}}] {async_task_id = array<i32: 0>}
// CHECK: tt.descriptor_load %[[B1]][%[[COLB]], {{.*}}] {async_task_id = array<i32: 0>}
// CHECK: %[[T0:.*]] = ttg.memdesc_trans {{.*}} {async_task_id = array<i32: 1>{{.*}} -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK: %[[T1:.*]] = ttg.memdesc_trans {{.*}} {async_task_id = array<i32: 2>{{.*}} -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK: ttng.warp_group_dot %[[SA]], %[[T0]], {{.*}} -> tensor<64x128xf32, #mma>
// CHECK: ttng.warp_group_dot %[[SA]], %[[T1]], {{.*}} -> tensor<64x128xf32, #mma>
// CHECK: tt.descriptor_store %[[C0]][%{{.*}}, %[[COL]]]
// CHECK: tt.descriptor_store %[[C1]][%{{.*}}, %[[COLC]]]

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @columns(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg3: i32 {tt.divisibility = 16 : i32}, %arg4: i32 {tt.divisibility = 16 : i32}, %arg5: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c1_i64 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 1 : i64
    %c128_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 128 : i32
    %c256_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 256 : i32
    %c64_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 64 : i32
    %c0_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 0 : i32
    %c1_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 1 : i32
    %c255_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 255 : i32
    %c63_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 63 : i32
    %cst = arith.constant {async_task_id = array<i32: 1, 2>} dense<0.000000e+00> : tensor<64x256xf32, #mma>
    %0 = arith.extsi %arg5 {async_task_id = array<i32: 0>} : i32 to i64
    %1 = tt.make_tensor_descriptor %arg0, [%arg3, %arg5], [%0, %c1_i64] {async_task_id = array<i32: 0>} : <f16>, <tensor<64x64xf16, #shared>>
    %2 = tt.make_tensor_descriptor %arg1, [%arg4, %arg5], [%0, %c1_i64] {async_task_id = array<i32: 0>} : <f16>, <tensor<256x64xf16, #shared>>
    %3 = arith.extsi %arg4 {async_task_id = array<i32: 1, 2>} : i32 to i64
    %4 = tt.make_tensor_descriptor %arg2, [%arg3, %arg4], [%3, %c1_i64] {async_task_id = array<i32: 1, 2>} : <f16>, <tensor<64x256xf16, #shared>>
    %5 = arith.addi %arg4, %c255_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %6 = arith.divsi %5, %c256_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %7 = tt.get_program_id x {async_task_id = array<i32: 0, 1, 2>} : i32
    %8 = arith.divsi %7, %6 {async_task_id = array<i32: 0, 1, 2>} : i32
    %9 = arith.muli %8, %c128_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %10 = arith.remsi %7, %6 {async_task_id = array<i32: 0, 1, 2>} : i32
    %11 = arith.muli %10, %c256_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %12 = arith.addi %arg5, %c63_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %13 = arith.divsi %12, %c64_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %14 = scf.for %arg6 = %c0_i32 to %13 step %c1_i32 iter_args(%arg7 = %cst) -> (tensor<64x256xf32, #mma>)  : i32 {
      %17 = arith.muli %arg6, %c64_i32 {async_task_id = array<i32: 0>} : i32
      %18 = tt.descriptor_load %1[%9, %17] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %19 = ttg.local_alloc %18 {async_task_id = array<i32: 1, 2>} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %20 = tt.descriptor_load %2[%11, %17] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<256x64xf16, #shared>> -> tensor<256x64xf16, #blocked>
      %21 = ttg.local_alloc %20 {async_task_id = array<i32: 1, 2>} : (tensor<256x64xf16, #blocked>) -> !ttg.memdesc<256x64xf16, #shared, #smem>
      %22 = ttg.memdesc_trans %21 {async_task_id = array<i32: 1, 2>, order = array<i32: 1, 0>} : !ttg.memdesc<256x64xf16, #shared, #smem> -> !ttg.memdesc<64x256xf16, #shared1, #smem>
      %23 = ttng.warp_group_dot %19, %22, %arg7 {async_task_id = array<i32: 1, 2>, inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x256xf16, #shared1, #smem> -> tensor<64x256xf32, #mma>
      scf.yield {async_task_id = array<i32: 1, 2>} %23 : tensor<64x256xf32, #mma>
    } {async_task_id = array<i32: 0, 1, 2>, tt.warp_specialize}
    %15 = arith.truncf %14 {async_task_id = array<i32: 1, 2>} : tensor<64x256xf32, #mma> to tensor<64x256xf16, #mma>
    %16 = ttg.convert_layout %15 {async_task_id = array<i32: 1, 2>} : tensor<64x256xf16, #mma> -> tensor<64x256xf16, #blocked1>
    tt.descriptor_store %4[%9, %11], %16 {async_task_id = array<i32: 1, 2>} : !tt.tensordesc<tensor<64x256xf16, #shared>>, tensor<64x256xf16, #blocked1>
    tt.return
  }
}


// -----

// M = 64, N = 128: 32 rows or 64 columns per group are too few; the
// partition fails (upstream's driver then retries with one group).

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{data partition failed}}
  tt.func public @too_narrow(%arg0: !tt.tensordesc<tensor<64x64xf16, #shared>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tt.tensordesc<tensor<128x64xf16, #shared>>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: !tt.tensordesc<tensor<64x128xf16, #shared>>, %arg11: i32, %arg12: i32, %arg13: i64, %arg14: i64, %arg15: i32 {tt.divisibility = 16 : i32}, %arg16: i32 {tt.divisibility = 16 : i32}, %arg17: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c127_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 127 : i32
    %c64_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 64 : i32
    %c128_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 128 : i32
    %c0_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 0 : i32
    %c1_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 1 : i32
    %c63_i32 = arith.constant {async_task_id = array<i32: 0, 1, 2>} 63 : i32
    %cst = arith.constant {async_task_id = array<i32: 1, 2>} dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %0 = arith.addi %arg16, %c127_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %1 = arith.divsi %0, %c128_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %2 = tt.get_program_id x {async_task_id = array<i32: 0, 1, 2>} : i32
    %3 = arith.divsi %2, %1 {async_task_id = array<i32: 0, 1, 2>} : i32
    %4 = arith.muli %3, %c64_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %5 = arith.remsi %2, %1 {async_task_id = array<i32: 0, 1, 2>} : i32
    %6 = arith.muli %5, %c128_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %7 = arith.addi %arg17, %c63_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %8 = arith.divsi %7, %c64_i32 {async_task_id = array<i32: 0, 1, 2>} : i32
    %9 = scf.for %arg18 = %c0_i32 to %8 step %c1_i32 iter_args(%arg19 = %cst) -> (tensor<64x128xf32, #mma>)  : i32 {
      %12 = arith.muli %arg18, %c64_i32 {async_task_id = array<i32: 0>} : i32
      %13 = tt.descriptor_load %arg0[%4, %12] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %14 = ttg.local_alloc %13 {async_task_id = array<i32: 1, 2>} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %15 = tt.descriptor_load %arg5[%6, %12] {async_task_id = array<i32: 0>} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %16 = ttg.local_alloc %15 {async_task_id = array<i32: 1, 2>} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %17 = ttg.memdesc_trans %16 {async_task_id = array<i32: 1, 2>, order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %18 = ttng.warp_group_dot %14, %17, %arg19 {async_task_id = array<i32: 1, 2>, inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<64x128xf32, #mma>
      scf.yield {async_task_id = array<i32: 1, 2>} %18 : tensor<64x128xf32, #mma>
    } {async_task_id = array<i32: 0, 1, 2>, tt.warp_specialize}
    %10 = arith.truncf %9 {async_task_id = array<i32: 1, 2>} : tensor<64x128xf32, #mma> to tensor<64x128xf16, #mma>
    %11 = ttg.convert_layout %10 {async_task_id = array<i32: 1, 2>} : tensor<64x128xf16, #mma> -> tensor<64x128xf16, #blocked1>
    tt.descriptor_store %arg10[%4, %6], %11 {async_task_id = array<i32: 1, 2>} : !tt.tensordesc<tensor<64x128xf16, #shared>>, tensor<64x128xf16, #blocked1>
    tt.return
  }
}

