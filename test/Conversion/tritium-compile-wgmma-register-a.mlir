// wgmma with A in registers on sm_90: a tl.dot(x, y, input_precision="tf32x3")
// of f32 64x16 by 16x32 tiles (upstream Triton 3.6's TTIR and TTGIR of
// test/fixtures/extra/fragment_kernels.py's dot_tile, 4 warps) and an e5m2
// dot whose A is scaled in registers (dot_scaled_a). tf32x3 splits A and B
// into a tf32 "big" part (cvt.rna.tf32.f32) and the rest, and sums three
// dots (small x big, big x small, big x big); upstream's TTGIR gives the
// wgmmas A as a #ttg.dot_op tensor (kWidth 1): registers of one tf32 each,
// four to an m64nNk8 instruction ({a0, a1, a2, a3}: rows g and g + 8 of k =
// t and t + 4, PTX ISA "Register Fragments" of wgmma; lowering/src/ops/
// wgmma.rs's unit tests check the order). Two K steps of 8 per dot: six
// wgmmas, each with a register list for A and a descriptor for B, none
// reading A from shared memory. The fp8 A is four e5m2 to a register, one
// m64n32k32. Both from upstream's TTGIR (the lowering) and, for tf32x3, from
// the TTIR (Tritium's whole pipeline).
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/tf32x3.ttgir.mlir -o %t/ttgir && FileCheck %s --check-prefix=TF32X3 --input-file %t/ttgir/tf32x3_tile.ptx
// RUN: tritium compile %t/tf32x3.ttir.mlir --target cuda:90 --num-warps 4 -o %t/ttir && FileCheck %s --check-prefix=TF32X3 --input-file %t/ttir/tf32x3_tile.ptx
// RUN: tritium compile %t/e5m2.ttgir.mlir -o %t/e5m2 && FileCheck %s --check-prefix=E5M2 --input-file %t/e5m2/fp8_scaled_tile.ptx

// TF32X3: cvt.rna.tf32.f32
// TF32X3-COUNT-6: wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 {{[{](%r[0-9]+,){15}%r[0-9]+[}]}}, {%r{{[0-9]+}},%r{{[0-9]+}},%r{{[0-9]+}},%r{{[0-9]+}}}, %rd{{[0-9]+}},
// TF32X3-NOT: wgmma.mma_async

// E5M2: wgmma.mma_async.sync.aligned.m64n32k32.f32.e5m2.e5m2 {{[{](%r[0-9]+,){15}%r[0-9]+[}]}}, {%r{{[0-9]+}},%r{{[0-9]+}},%r{{[0-9]+}},%r{{[0-9]+}}}, %rd{{[0-9]+}},
// E5M2-NOT: wgmma.mma_async

//--- tf32x3.ttgir.mlir
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 8]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tf32x3_tile(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %Z: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #mma>
    %cst_0 = arith.constant dense<32> : tensor<64x1xi32, #blocked>
    %cst_1 = arith.constant dense<32> : tensor<16x1xi32, #blocked>
    %cst_2 = arith.constant dense<16> : tensor<64x1xi32, #blocked1>
    %x = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %x_3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %x_4 = tt.expand_dims %x {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %x_5 = tt.expand_dims %x_3 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %x_6 = arith.muli %x_4, %cst_2 : tensor<64x1xi32, #blocked1>
    %x_7 = tt.splat %X : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked1>
    %x_8 = tt.addptr %x_7, %x_6 : tensor<64x1x!tt.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %x_9 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %x_10 = tt.expand_dims %x_9 {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x16xi32, #blocked1>
    %x_11 = tt.broadcast %x_8 : tensor<64x1x!tt.ptr<f32>, #blocked1> -> tensor<64x16x!tt.ptr<f32>, #blocked1>
    %x_12 = tt.broadcast %x_10 : tensor<1x16xi32, #blocked1> -> tensor<64x16xi32, #blocked1>
    %x_13 = tt.addptr %x_11, %x_12 : tensor<64x16x!tt.ptr<f32>, #blocked1>, tensor<64x16xi32, #blocked1>
    %x_14 = tt.load %x_13 : tensor<64x16x!tt.ptr<f32>, #blocked1>
    %z = ttg.local_alloc %x_14 : (tensor<64x16xf32, #blocked1>) -> !ttg.memdesc<64x16xf32, #shared, #smem>
    %z_15 = ttg.local_load %z : !ttg.memdesc<64x16xf32, #shared, #smem> -> tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %y = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %y_16 = tt.expand_dims %y {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %y_17 = arith.muli %y_16, %cst_1 : tensor<16x1xi32, #blocked>
    %y_18 = tt.splat %Y : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>, #blocked>
    %y_19 = tt.addptr %y_18, %y_17 : tensor<16x1x!tt.ptr<f32>, #blocked>, tensor<16x1xi32, #blocked>
    %y_20 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %y_21 = tt.expand_dims %y_20 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %y_22 = tt.broadcast %y_19 : tensor<16x1x!tt.ptr<f32>, #blocked> -> tensor<16x32x!tt.ptr<f32>, #blocked>
    %y_23 = tt.broadcast %y_21 : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %y_24 = tt.addptr %y_22, %y_23 : tensor<16x32x!tt.ptr<f32>, #blocked>, tensor<16x32xi32, #blocked>
    %y_25 = tt.load %y_24 : tensor<16x32x!tt.ptr<f32>, #blocked>
    %z_26 = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %z_15 : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %z_27 = arith.subf %z_15, %z_26 : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %z_28 = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %y_25 : tensor<16x32xf32, #blocked> -> tensor<16x32xf32, #blocked>
    %z_29 = ttg.local_alloc %z_28 : (tensor<16x32xf32, #blocked>) -> !ttg.memdesc<16x32xf32, #shared1, #smem>
    %z_30 = arith.subf %y_25, %z_28 : tensor<16x32xf32, #blocked>
    %z_31 = ttg.local_alloc %z_30 : (tensor<16x32xf32, #blocked>) -> !ttg.memdesc<16x32xf32, #shared1, #smem>
    ttng.fence_async_shared {bCluster = false}
    %z_32 = ttng.warp_group_dot %z_27, %z_29, %cst {inputPrecision = 0 : i32} : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * !ttg.memdesc<16x32xf32, #shared1, #smem> -> tensor<64x32xf32, #mma>
    ttng.fence_async_shared {bCluster = false}
    %z_33 = ttng.warp_group_dot %z_26, %z_31, %z_32 {inputPrecision = 0 : i32} : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * !ttg.memdesc<16x32xf32, #shared1, #smem> -> tensor<64x32xf32, #mma>
    %z_34 = arith.cmpf uno, %z_33, %z_33 : tensor<64x32xf32, #mma>
    %z_35 = arith.select %z_34, %cst, %z_33 : tensor<64x32xi1, #mma>, tensor<64x32xf32, #mma>
    ttng.fence_async_shared {bCluster = false}
    %z_36 = ttng.warp_group_dot %z_26, %z_29, %z_35 {inputPrecision = 0 : i32} : tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * !ttg.memdesc<16x32xf32, #shared1, #smem> -> tensor<64x32xf32, #mma>
    %z_37 = arith.addf %z_36, %cst : tensor<64x32xf32, #mma>
    %0 = arith.muli %x_5, %cst_0 : tensor<64x1xi32, #blocked>
    %1 = tt.splat %Z : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %3 = tt.broadcast %2 : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x32x!tt.ptr<f32>, #blocked>
    %4 = tt.broadcast %y_21 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %5 = tt.addptr %3, %4 : tensor<64x32x!tt.ptr<f32>, #blocked>, tensor<64x32xi32, #blocked>
    %6 = ttg.convert_layout %z_37 : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    tt.store %5, %6 : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
//--- tf32x3.ttir.mlir
module {
  tt.func public @tf32x3_tile(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %Z: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<32> : tensor<64x1xi32>
    %z = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
    %y = arith.constant dense<32> : tensor<16x1xi32>
    %x = arith.constant dense<16> : tensor<64x1xi32>
    %om = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %on = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %ok = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %x_0 = tt.expand_dims %om {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %x_1 = arith.muli %x_0, %x : tensor<64x1xi32>
    %x_2 = tt.splat %X : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>>
    %x_3 = tt.addptr %x_2, %x_1 : tensor<64x1x!tt.ptr<f32>>, tensor<64x1xi32>
    %x_4 = tt.expand_dims %ok {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %x_5 = tt.broadcast %x_3 : tensor<64x1x!tt.ptr<f32>> -> tensor<64x16x!tt.ptr<f32>>
    %x_6 = tt.broadcast %x_4 : tensor<1x16xi32> -> tensor<64x16xi32>
    %x_7 = tt.addptr %x_5, %x_6 : tensor<64x16x!tt.ptr<f32>>, tensor<64x16xi32>
    %x_8 = tt.load %x_7 : tensor<64x16x!tt.ptr<f32>>
    %y_9 = tt.expand_dims %ok {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %y_10 = arith.muli %y_9, %y : tensor<16x1xi32>
    %y_11 = tt.splat %Y : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
    %y_12 = tt.addptr %y_11, %y_10 : tensor<16x1x!tt.ptr<f32>>, tensor<16x1xi32>
    %y_13 = tt.expand_dims %on {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %y_14 = tt.broadcast %y_12 : tensor<16x1x!tt.ptr<f32>> -> tensor<16x32x!tt.ptr<f32>>
    %y_15 = tt.broadcast %y_13 : tensor<1x32xi32> -> tensor<16x32xi32>
    %y_16 = tt.addptr %y_14, %y_15 : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
    %y_17 = tt.load %y_16 : tensor<16x32x!tt.ptr<f32>>
    %z_18 = tt.dot %x_8, %y_17, %z, inputPrecision = tf32x3 : tensor<64x16xf32> * tensor<16x32xf32> -> tensor<64x32xf32>
    %0 = arith.muli %x_0, %cst : tensor<64x1xi32>
    %1 = tt.splat %Z : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>>
    %2 = tt.addptr %1, %0 : tensor<64x1x!tt.ptr<f32>>, tensor<64x1xi32>
    %3 = tt.broadcast %2 : tensor<64x1x!tt.ptr<f32>> -> tensor<64x32x!tt.ptr<f32>>
    %4 = tt.broadcast %y_13 : tensor<1x32xi32> -> tensor<64x32xi32>
    %5 = tt.addptr %3, %4 : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    tt.store %5, %z_18 : tensor<64x32x!tt.ptr<f32>>
    tt.return
  }
}
//--- e5m2.ttgir.mlir
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 32]}>
#shared = #ttg.swizzled_shared<{vec = 16, perPhase = 4, maxPhase = 2, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_scaled_tile(%X: !tt.ptr<f8E5M2>, %Y: !tt.ptr<f8E5M2>, %Z: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<7.500000e-01> : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #mma>
    %cst_1 = arith.constant dense<32> : tensor<32x1xi32, #blocked>
    %cst_2 = arith.constant dense<32> : tensor<64x1xi32, #blocked>
    %x = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %x_3 = tt.expand_dims %x {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %x_4 = arith.muli %x_3, %cst_2 : tensor<64x1xi32, #blocked>
    %x_5 = tt.splat %X : !tt.ptr<f8E5M2> -> tensor<64x1x!tt.ptr<f8E5M2>, #blocked>
    %x_6 = tt.addptr %x_5, %x_4 : tensor<64x1x!tt.ptr<f8E5M2>, #blocked>, tensor<64x1xi32, #blocked>
    %x_7 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %x_8 = tt.expand_dims %x_7 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %x_9 = tt.broadcast %x_6 : tensor<64x1x!tt.ptr<f8E5M2>, #blocked> -> tensor<64x32x!tt.ptr<f8E5M2>, #blocked>
    %x_10 = tt.broadcast %x_8 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %x_11 = tt.addptr %x_9, %x_10 : tensor<64x32x!tt.ptr<f8E5M2>, #blocked>, tensor<64x32xi32, #blocked>
    %x_12 = tt.load %x_11 : tensor<64x32x!tt.ptr<f8E5M2>, #blocked>
    %x_13 = ttg.local_alloc %x_12 : (tensor<64x32xf8E5M2, #blocked>) -> !ttg.memdesc<64x32xf8E5M2, #shared, #smem>
    %x_14 = ttg.local_load %x_13 : !ttg.memdesc<64x32xf8E5M2, #shared, #smem> -> tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %y = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %y_15 = tt.expand_dims %y {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %y_16 = arith.muli %y_15, %cst_1 : tensor<32x1xi32, #blocked>
    %y_17 = tt.splat %Y : !tt.ptr<f8E5M2> -> tensor<32x1x!tt.ptr<f8E5M2>, #blocked>
    %y_18 = tt.addptr %y_17, %y_16 : tensor<32x1x!tt.ptr<f8E5M2>, #blocked>, tensor<32x1xi32, #blocked>
    %y_19 = tt.broadcast %y_18 : tensor<32x1x!tt.ptr<f8E5M2>, #blocked> -> tensor<32x32x!tt.ptr<f8E5M2>, #blocked>
    %y_20 = tt.broadcast %x_8 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %y_21 = tt.addptr %y_19, %y_20 : tensor<32x32x!tt.ptr<f8E5M2>, #blocked>, tensor<32x32xi32, #blocked>
    %y_22 = tt.load %y_21 : tensor<32x32x!tt.ptr<f8E5M2>, #blocked>
    %y_23 = ttg.local_alloc %y_22 : (tensor<32x32xf8E5M2, #blocked>) -> !ttg.memdesc<32x32xf8E5M2, #shared1, #smem>
    %x_24 = tt.fp_to_fp %x_14 : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %x_25 = arith.mulf %x_24, %cst : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %x_26 = tt.fp_to_fp %x_25, rounding = rtne : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    ttng.fence_async_shared {bCluster = false}
    %z = ttng.warp_group_dot %x_26, %y_23, %cst_0 {inputPrecision = 0 : i32, maxNumImpreciseAcc = 1073741824 : i32} : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * !ttg.memdesc<32x32xf8E5M2, #shared1, #smem> -> tensor<64x32xf32, #mma>
    %0 = tt.splat %Z : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %1 = tt.addptr %0, %x_4 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %2 = tt.broadcast %1 : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x32x!tt.ptr<f32>, #blocked>
    %3 = tt.addptr %2, %x_10 : tensor<64x32x!tt.ptr<f32>, #blocked>, tensor<64x32xi32, #blocked>
    %4 = ttg.convert_layout %z : tensor<64x32xf32, #mma> -> tensor<64x32xf32, #blocked>
    tt.store %3, %4 : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
