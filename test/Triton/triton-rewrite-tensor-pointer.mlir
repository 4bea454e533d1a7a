// RUN: tt-opt %s -split-input-file --triton-rewrite-tensor-pointer | FileCheck %s

// A load and a store through a block pointer: pointers from the offsets and
// strides, a mask from the boundary check, zero or NaN padding.
// CHECK-LABEL: tt.func @load_store(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>, %arg2: i64, %arg3: i64, %arg4: i32, %arg5: i32) {
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %0 = arith.extsi %arg4 : i32 to i64
// CHECK-NEXT: %1 = arith.extsi %arg5 : i32 to i64
// CHECK-NEXT: %2 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: %3 = tt.splat %0 : i64 -> tensor<32xi64>
// CHECK-NEXT: %4 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT: %5 = arith.extsi %4 : tensor<32xi32> to tensor<32xi64>
// CHECK-NEXT: %6 = arith.addi %3, %5 : tensor<32xi64>
// CHECK-NEXT: %7 = tt.expand_dims %6 {axis = 1 : i32} : tensor<32xi64> -> tensor<32x1xi64>
// CHECK-NEXT: %8 = tt.splat %arg3 : i64 -> tensor<32x1xi64>
// CHECK-NEXT: %9 = arith.muli %7, %8 : tensor<32x1xi64>
// CHECK-NEXT: %10 = tt.broadcast %9 : tensor<32x1xi64> -> tensor<32x64xi64>
// CHECK-NEXT: %11 = tt.addptr %2, %10 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: %12 = tt.splat %1 : i64 -> tensor<64xi64>
// CHECK-NEXT: %13 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT: %14 = arith.extsi %13 : tensor<64xi32> to tensor<64xi64>
// CHECK-NEXT: %15 = arith.addi %12, %14 : tensor<64xi64>
// CHECK-NEXT: %16 = tt.expand_dims %15 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
// CHECK-NEXT: %17 = tt.splat %c1_i64 : i64 -> tensor<1x64xi64>
// CHECK-NEXT: %18 = arith.muli %16, %17 : tensor<1x64xi64>
// CHECK-NEXT: %19 = tt.broadcast %18 : tensor<1x64xi64> -> tensor<32x64xi64>
// CHECK-NEXT: %20 = tt.addptr %11, %19 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT: %21 = tt.splat %c0_i64 : i64 -> tensor<32x1xi64>
// CHECK-NEXT: %22 = arith.cmpi sge, %7, %21 : tensor<32x1xi64>
// CHECK-NEXT: %23 = tt.splat %arg2 : i64 -> tensor<32x1xi64>
// CHECK-NEXT: %24 = arith.cmpi slt, %7, %23 : tensor<32x1xi64>
// CHECK-NEXT: %25 = arith.andi %22, %24 : tensor<32x1xi1>
// CHECK-NEXT: %26 = tt.broadcast %25 : tensor<32x1xi1> -> tensor<32x64xi1>
// CHECK-NEXT: %c0_i64_0 = arith.constant 0 : i64
// CHECK-NEXT: %27 = tt.splat %c0_i64_0 : i64 -> tensor<1x64xi64>
// CHECK-NEXT: %28 = arith.cmpi sge, %16, %27 : tensor<1x64xi64>
// CHECK-NEXT: %29 = tt.splat %arg3 : i64 -> tensor<1x64xi64>
// CHECK-NEXT: %30 = arith.cmpi slt, %16, %29 : tensor<1x64xi64>
// CHECK-NEXT: %31 = arith.andi %28, %30 : tensor<1x64xi1>
// CHECK-NEXT: %32 = tt.broadcast %31 : tensor<1x64xi1> -> tensor<32x64xi1>
// CHECK-NEXT: %33 = arith.andi %26, %32 : tensor<32x64xi1>
// CHECK-NEXT: %cst = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %34 = tt.splat %cst : f16 -> tensor<32x64xf16>
// CHECK-NEXT: %35 = tt.load %20, %33, %34 : tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: %36 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: %37 = tt.splat %0 : i64 -> tensor<32xi64>
// CHECK-NEXT: %38 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT: %39 = arith.extsi %38 : tensor<32xi32> to tensor<32xi64>
// CHECK-NEXT: %40 = arith.addi %37, %39 : tensor<32xi64>
// CHECK-NEXT: %41 = tt.expand_dims %40 {axis = 1 : i32} : tensor<32xi64> -> tensor<32x1xi64>
// CHECK-NEXT: %42 = tt.splat %arg3 : i64 -> tensor<32x1xi64>
// CHECK-NEXT: %43 = arith.muli %41, %42 : tensor<32x1xi64>
// CHECK-NEXT: %44 = tt.broadcast %43 : tensor<32x1xi64> -> tensor<32x64xi64>
// CHECK-NEXT: %45 = tt.addptr %36, %44 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: %46 = tt.splat %1 : i64 -> tensor<64xi64>
// CHECK-NEXT: %47 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT: %48 = arith.extsi %47 : tensor<64xi32> to tensor<64xi64>
// CHECK-NEXT: %49 = arith.addi %46, %48 : tensor<64xi64>
// CHECK-NEXT: %50 = tt.expand_dims %49 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
// CHECK-NEXT: %51 = tt.splat %c1_i64 : i64 -> tensor<1x64xi64>
// CHECK-NEXT: %52 = arith.muli %50, %51 : tensor<1x64xi64>
// CHECK-NEXT: %53 = tt.broadcast %52 : tensor<1x64xi64> -> tensor<32x64xi64>
// CHECK-NEXT: %54 = tt.addptr %45, %53 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: %c0_i64_1 = arith.constant 0 : i64
// CHECK-NEXT: %55 = tt.splat %c0_i64_1 : i64 -> tensor<1x64xi64>
// CHECK-NEXT: %56 = arith.cmpi sge, %50, %55 : tensor<1x64xi64>
// CHECK-NEXT: %57 = tt.splat %arg3 : i64 -> tensor<1x64xi64>
// CHECK-NEXT: %58 = arith.cmpi slt, %50, %57 : tensor<1x64xi64>
// CHECK-NEXT: %59 = arith.andi %56, %58 : tensor<1x64xi1>
// CHECK-NEXT: %60 = tt.broadcast %59 : tensor<1x64xi1> -> tensor<32x64xi1>
// CHECK-NEXT: %cst_2 = arith.constant 0x7E00 : f16
// CHECK-NEXT: %61 = tt.splat %cst_2 : f16 -> tensor<32x64xf16>
// CHECK-NEXT: %62 = tt.load %54, %60, %61 : tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: %63 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: %64 = tt.splat %0 : i64 -> tensor<32xi64>
// CHECK-NEXT: %65 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT: %66 = arith.extsi %65 : tensor<32xi32> to tensor<32xi64>
// CHECK-NEXT: %67 = arith.addi %64, %66 : tensor<32xi64>
// CHECK-NEXT: %68 = tt.expand_dims %67 {axis = 1 : i32} : tensor<32xi64> -> tensor<32x1xi64>
// CHECK-NEXT: %69 = tt.splat %arg3 : i64 -> tensor<32x1xi64>
// CHECK-NEXT: %70 = arith.muli %68, %69 : tensor<32x1xi64>
// CHECK-NEXT: %71 = tt.broadcast %70 : tensor<32x1xi64> -> tensor<32x64xi64>
// CHECK-NEXT: %72 = tt.addptr %63, %71 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: %73 = tt.splat %1 : i64 -> tensor<64xi64>
// CHECK-NEXT: %74 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT: %75 = arith.extsi %74 : tensor<64xi32> to tensor<64xi64>
// CHECK-NEXT: %76 = arith.addi %73, %75 : tensor<64xi64>
// CHECK-NEXT: %77 = tt.expand_dims %76 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
// CHECK-NEXT: %78 = tt.splat %c1_i64 : i64 -> tensor<1x64xi64>
// CHECK-NEXT: %79 = arith.muli %77, %78 : tensor<1x64xi64>
// CHECK-NEXT: %80 = tt.broadcast %79 : tensor<1x64xi64> -> tensor<32x64xi64>
// CHECK-NEXT: %81 = tt.addptr %72, %80 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: %82 = tt.load %81 cacheModifier = cg : tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: %83 = arith.addf %35, %62 : tensor<32x64xf16>
// CHECK-NEXT: %84 = arith.addf %83, %82 : tensor<32x64xf16>
// CHECK-NEXT: %85 = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %86 = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %87 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: %88 = tt.splat %85 : i64 -> tensor<32xi64>
// CHECK-NEXT: %89 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT: %90 = arith.extsi %89 : tensor<32xi32> to tensor<32xi64>
// CHECK-NEXT: %91 = arith.addi %88, %90 : tensor<32xi64>
// CHECK-NEXT: %92 = tt.expand_dims %91 {axis = 1 : i32} : tensor<32xi64> -> tensor<32x1xi64>
// CHECK-NEXT: %93 = tt.splat %arg3 : i64 -> tensor<32x1xi64>
// CHECK-NEXT: %94 = arith.muli %92, %93 : tensor<32x1xi64>
// CHECK-NEXT: %95 = tt.broadcast %94 : tensor<32x1xi64> -> tensor<32x64xi64>
// CHECK-NEXT: %96 = tt.addptr %87, %95 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: %97 = tt.splat %86 : i64 -> tensor<64xi64>
// CHECK-NEXT: %98 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT: %99 = arith.extsi %98 : tensor<64xi32> to tensor<64xi64>
// CHECK-NEXT: %100 = arith.addi %97, %99 : tensor<64xi64>
// CHECK-NEXT: %101 = tt.expand_dims %100 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
// CHECK-NEXT: %102 = tt.splat %c1_i64 : i64 -> tensor<1x64xi64>
// CHECK-NEXT: %103 = arith.muli %101, %102 : tensor<1x64xi64>
// CHECK-NEXT: %104 = tt.broadcast %103 : tensor<1x64xi64> -> tensor<32x64xi64>
// CHECK-NEXT: %105 = tt.addptr %96, %104 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi64>
// CHECK-NEXT: %c0_i64_3 = arith.constant 0 : i64
// CHECK-NEXT: %106 = tt.splat %c0_i64_3 : i64 -> tensor<32x1xi64>
// CHECK-NEXT: %107 = arith.cmpi sge, %92, %106 : tensor<32x1xi64>
// CHECK-NEXT: %108 = tt.splat %arg2 : i64 -> tensor<32x1xi64>
// CHECK-NEXT: %109 = arith.cmpi slt, %92, %108 : tensor<32x1xi64>
// CHECK-NEXT: %110 = arith.andi %107, %109 : tensor<32x1xi1>
// CHECK-NEXT: %111 = tt.broadcast %110 : tensor<32x1xi1> -> tensor<32x64xi1>
// CHECK-NEXT: tt.store %105, %84, %111 : tensor<32x64x!tt.ptr<f16>>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
tt.func @load_store(%base: !tt.ptr<f16>, %out: !tt.ptr<f16>, %m: i64, %n: i64, %i: i32, %j: i32) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %p = tt.make_tensor_ptr %base, [%m, %n], [%n, %c1], [%i, %j] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  %v = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
  %w = tt.load %p {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<32x64xf16>>
  %u = tt.load %p cacheModifier = cg : !tt.ptr<tensor<32x64xf16>>
  %s = arith.addf %v, %w : tensor<32x64xf16>
  %t = arith.addf %s, %u : tensor<32x64xf16>
  %q = tt.make_tensor_ptr %out, [%m, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  tt.store %q, %t {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// -----

// tt.advance moves the offsets.
// CHECK-LABEL: tt.func @advance(%arg0: !tt.ptr<f32>, %arg1: i64, %arg2: i32) -> tensor<128xf32> {
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT: %c16_i32 = arith.constant 16 : i32
// CHECK-NEXT: %0 = arith.extsi %arg2 : i32 to i64
// CHECK-NEXT: %1 = arith.extsi %c16_i32 : i32 to i64
// CHECK-NEXT: %2 = arith.addi %0, %1 : i64
// CHECK-NEXT: %3 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %4 = tt.splat %2 : i64 -> tensor<128xi64>
// CHECK-NEXT: %5 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT: %6 = arith.extsi %5 : tensor<128xi32> to tensor<128xi64>
// CHECK-NEXT: %7 = arith.addi %4, %6 : tensor<128xi64>
// CHECK-NEXT: %8 = tt.splat %c1_i64 : i64 -> tensor<128xi64>
// CHECK-NEXT: %9 = arith.muli %7, %8 : tensor<128xi64>
// CHECK-NEXT: %10 = tt.broadcast %9 : tensor<128xi64> -> tensor<128xi64>
// CHECK-NEXT: %11 = tt.addptr %3, %10 : tensor<128x!tt.ptr<f32>>, tensor<128xi64>
// CHECK-NEXT: %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT: %12 = tt.splat %c0_i64 : i64 -> tensor<128xi64>
// CHECK-NEXT: %13 = arith.cmpi sge, %7, %12 : tensor<128xi64>
// CHECK-NEXT: %14 = tt.splat %arg1 : i64 -> tensor<128xi64>
// CHECK-NEXT: %15 = arith.cmpi slt, %7, %14 : tensor<128xi64>
// CHECK-NEXT: %16 = arith.andi %13, %15 : tensor<128xi1>
// CHECK-NEXT: %17 = tt.broadcast %16 : tensor<128xi1> -> tensor<128xi1>
// CHECK-NEXT: %18 = tt.load %11, %17 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %18 : tensor<128xf32>
// CHECK-NEXT: }
tt.func @advance(%base: !tt.ptr<f32>, %n: i64, %i: i32) -> tensor<128xf32> {
  %c1 = arith.constant 1 : i64
  %c16 = arith.constant 16 : i32
  %p = tt.make_tensor_ptr %base, [%n], [%c1], [%i] {order = array<i32: 0>} : <tensor<128xf32>>
  %a = tt.advance %p, [%c16] : <tensor<128xf32>>
  %v = tt.load %a {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<128xf32>>
  tt.return %v : tensor<128xf32>
}

// -----

// A block pointer carried by a loop becomes its offsets, one i64 iter_arg
// per dimension.
// CHECK-LABEL: tt.func @loop(%arg0: !tt.ptr<f16>, %arg1: i64, %arg2: i64, %arg3: i32) -> tensor<64x32xf32> {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c32_i32 = arith.constant 32 : i32
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
// CHECK-NEXT: %0 = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %1 = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %2:3 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %0, %arg6 = %1, %arg7 = %cst) -> (i64, i64, tensor<64x32xf32>)  : i32 {
// CHECK-NEXT: %25 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
// CHECK-NEXT: %26 = tt.splat %arg5 : i64 -> tensor<64xi64>
// CHECK-NEXT: %27 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT: %28 = arith.extsi %27 : tensor<64xi32> to tensor<64xi64>
// CHECK-NEXT: %29 = arith.addi %26, %28 : tensor<64xi64>
// CHECK-NEXT: %30 = tt.expand_dims %29 {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
// CHECK-NEXT: %31 = tt.splat %arg2 : i64 -> tensor<64x1xi64>
// CHECK-NEXT: %32 = arith.muli %30, %31 : tensor<64x1xi64>
// CHECK-NEXT: %33 = tt.broadcast %32 : tensor<64x1xi64> -> tensor<64x32xi64>
// CHECK-NEXT: %34 = tt.addptr %25, %33 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi64>
// CHECK-NEXT: %35 = tt.splat %arg6 : i64 -> tensor<32xi64>
// CHECK-NEXT: %36 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT: %37 = arith.extsi %36 : tensor<32xi32> to tensor<32xi64>
// CHECK-NEXT: %38 = arith.addi %35, %37 : tensor<32xi64>
// CHECK-NEXT: %39 = tt.expand_dims %38 {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
// CHECK-NEXT: %40 = tt.splat %c1_i64 : i64 -> tensor<1x32xi64>
// CHECK-NEXT: %41 = arith.muli %39, %40 : tensor<1x32xi64>
// CHECK-NEXT: %42 = tt.broadcast %41 : tensor<1x32xi64> -> tensor<64x32xi64>
// CHECK-NEXT: %43 = tt.addptr %34, %42 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi64>
// CHECK-NEXT: %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT: %44 = tt.splat %c0_i64 : i64 -> tensor<1x32xi64>
// CHECK-NEXT: %45 = arith.cmpi sge, %39, %44 : tensor<1x32xi64>
// CHECK-NEXT: %46 = tt.splat %arg2 : i64 -> tensor<1x32xi64>
// CHECK-NEXT: %47 = arith.cmpi slt, %39, %46 : tensor<1x32xi64>
// CHECK-NEXT: %48 = arith.andi %45, %47 : tensor<1x32xi1>
// CHECK-NEXT: %49 = tt.broadcast %48 : tensor<1x32xi1> -> tensor<64x32xi1>
// CHECK-NEXT: %cst_0 = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %50 = tt.splat %cst_0 : f16 -> tensor<64x32xf16>
// CHECK-NEXT: %51 = tt.load %43, %49, %50 : tensor<64x32x!tt.ptr<f16>>
// CHECK-NEXT: %52 = arith.extf %51 : tensor<64x32xf16> to tensor<64x32xf32>
// CHECK-NEXT: %53 = arith.addf %arg7, %52 : tensor<64x32xf32>
// CHECK-NEXT: %54 = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %55 = arith.addi %arg5, %54 : i64
// CHECK-NEXT: %56 = arith.extsi %c32_i32 : i32 to i64
// CHECK-NEXT: %57 = arith.addi %arg6, %56 : i64
// CHECK-NEXT: scf.yield %55, %57, %53 : i64, i64, tensor<64x32xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
// CHECK-NEXT: %4 = tt.splat %2#0 : i64 -> tensor<64xi64>
// CHECK-NEXT: %5 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT: %6 = arith.extsi %5 : tensor<64xi32> to tensor<64xi64>
// CHECK-NEXT: %7 = arith.addi %4, %6 : tensor<64xi64>
// CHECK-NEXT: %8 = tt.expand_dims %7 {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
// CHECK-NEXT: %9 = tt.splat %arg2 : i64 -> tensor<64x1xi64>
// CHECK-NEXT: %10 = arith.muli %8, %9 : tensor<64x1xi64>
// CHECK-NEXT: %11 = tt.broadcast %10 : tensor<64x1xi64> -> tensor<64x32xi64>
// CHECK-NEXT: %12 = tt.addptr %3, %11 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi64>
// CHECK-NEXT: %13 = tt.splat %2#1 : i64 -> tensor<32xi64>
// CHECK-NEXT: %14 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT: %15 = arith.extsi %14 : tensor<32xi32> to tensor<32xi64>
// CHECK-NEXT: %16 = arith.addi %13, %15 : tensor<32xi64>
// CHECK-NEXT: %17 = tt.expand_dims %16 {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
// CHECK-NEXT: %18 = tt.splat %c1_i64 : i64 -> tensor<1x32xi64>
// CHECK-NEXT: %19 = arith.muli %17, %18 : tensor<1x32xi64>
// CHECK-NEXT: %20 = tt.broadcast %19 : tensor<1x32xi64> -> tensor<64x32xi64>
// CHECK-NEXT: %21 = tt.addptr %12, %20 : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi64>
// CHECK-NEXT: %22 = tt.load %21 : tensor<64x32x!tt.ptr<f16>>
// CHECK-NEXT: %23 = arith.extf %22 : tensor<64x32xf16> to tensor<64x32xf32>
// CHECK-NEXT: %24 = arith.addf %2#2, %23 : tensor<64x32xf32>
// CHECK-NEXT: tt.return %24 : tensor<64x32xf32>
// CHECK-NEXT: }
tt.func @loop(%a: !tt.ptr<f16>, %m: i64, %k: i64, %n: i32) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
  %p = tt.make_tensor_ptr %a, [%m, %k], [%k, %one], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%ptr = %p, %acc = %zero) -> (!tt.ptr<tensor<64x32xf16>>, tensor<64x32xf32>) : i32 {
    %v = tt.load %ptr {boundaryCheck = array<i32: 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    %e = arith.extf %v : tensor<64x32xf16> to tensor<64x32xf32>
    %s = arith.addf %acc, %e : tensor<64x32xf32>
    %next = tt.advance %ptr, [%c0, %c32] : <tensor<64x32xf16>>
    scf.yield %next, %s : !tt.ptr<tensor<64x32xf16>>, tensor<64x32xf32>
  }
  %last = tt.load %r#0 : !tt.ptr<tensor<64x32xf16>>
  %le = arith.extf %last : tensor<64x32xf16> to tensor<64x32xf32>
  %res = arith.addf %r#1, %le : tensor<64x32xf32>
  tt.return %res : tensor<64x32xf32>
}

// -----

// A block pointer chosen by an scf.if becomes its offsets too.
// CHECK-LABEL: tt.func @branch(%arg0: !tt.ptr<f32>, %arg1: i64, %arg2: i1, %arg3: i32) -> tensor<16xf32> {
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT: %c8_i32 = arith.constant 8 : i32
// CHECK-NEXT: %0 = arith.extsi %arg3 : i32 to i64
// CHECK-NEXT: %1:2 = scf.if %arg2 -> (i64, i32) {
// CHECK-NEXT: %12 = arith.extsi %c8_i32 : i32 to i64
// CHECK-NEXT: %13 = arith.addi %0, %12 : i64
// CHECK-NEXT: scf.yield %13, %c8_i32 : i64, i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %0, %arg3 : i64, i32
// CHECK-NEXT: }
// CHECK-NEXT: %2 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: %3 = tt.splat %1#0 : i64 -> tensor<16xi64>
// CHECK-NEXT: %4 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK-NEXT: %5 = arith.extsi %4 : tensor<16xi32> to tensor<16xi64>
// CHECK-NEXT: %6 = arith.addi %3, %5 : tensor<16xi64>
// CHECK-NEXT: %7 = tt.splat %c1_i64 : i64 -> tensor<16xi64>
// CHECK-NEXT: %8 = arith.muli %6, %7 : tensor<16xi64>
// CHECK-NEXT: %9 = tt.broadcast %8 : tensor<16xi64> -> tensor<16xi64>
// CHECK-NEXT: %10 = tt.addptr %2, %9 : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
// CHECK-NEXT: %11 = tt.load %10 : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %11 : tensor<16xf32>
// CHECK-NEXT: }
tt.func @branch(%a: !tt.ptr<f32>, %n: i64, %c: i1, %i: i32) -> tensor<16xf32> {
  %one = arith.constant 1 : i64
  %c8 = arith.constant 8 : i32
  %p = tt.make_tensor_ptr %a, [%n], [%one], [%i] {order = array<i32: 0>} : <tensor<16xf32>>
  %q, %x = scf.if %c -> (!tt.ptr<tensor<16xf32>>, i32) {
    %adv = tt.advance %p, [%c8] : <tensor<16xf32>>
    scf.yield %adv, %c8 : !tt.ptr<tensor<16xf32>>, i32
  } else {
    scf.yield %p, %i : !tt.ptr<tensor<16xf32>>, i32
  }
  %v = tt.load %q : !tt.ptr<tensor<16xf32>>
  tt.return %v : tensor<16xf32>
}

// -----

// An scf.if inside a loop advancing the loop's block pointer.
// CHECK-LABEL: tt.func @loop_with_branch(%arg0: !tt.ptr<f32>, %arg1: i64, %arg2: i32, %arg3: i1) -> tensor<16xf32> {
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c16_i32 = arith.constant 16 : i32
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK-NEXT: %0 = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT: %1:2 = scf.for %arg4 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg5 = %0, %arg6 = %cst) -> (i64, tensor<16xf32>)  : i32 {
// CHECK-NEXT: %2 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: %3 = tt.splat %arg5 : i64 -> tensor<16xi64>
// CHECK-NEXT: %4 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK-NEXT: %5 = arith.extsi %4 : tensor<16xi32> to tensor<16xi64>
// CHECK-NEXT: %6 = arith.addi %3, %5 : tensor<16xi64>
// CHECK-NEXT: %7 = tt.splat %c1_i64 : i64 -> tensor<16xi64>
// CHECK-NEXT: %8 = arith.muli %6, %7 : tensor<16xi64>
// CHECK-NEXT: %9 = tt.broadcast %8 : tensor<16xi64> -> tensor<16xi64>
// CHECK-NEXT: %10 = tt.addptr %2, %9 : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
// CHECK-NEXT: %c0_i64 = arith.constant 0 : i64
// CHECK-NEXT: %11 = tt.splat %c0_i64 : i64 -> tensor<16xi64>
// CHECK-NEXT: %12 = arith.cmpi sge, %6, %11 : tensor<16xi64>
// CHECK-NEXT: %13 = tt.splat %arg1 : i64 -> tensor<16xi64>
// CHECK-NEXT: %14 = arith.cmpi slt, %6, %13 : tensor<16xi64>
// CHECK-NEXT: %15 = arith.andi %12, %14 : tensor<16xi1>
// CHECK-NEXT: %16 = tt.broadcast %15 : tensor<16xi1> -> tensor<16xi1>
// CHECK-NEXT: %17 = tt.load %10, %16 : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: %18 = arith.addf %arg6, %17 : tensor<16xf32>
// CHECK-NEXT: %19 = scf.if %arg3 -> (i64) {
// CHECK-NEXT: %20 = arith.extsi %c16_i32 : i32 to i64
// CHECK-NEXT: %21 = arith.addi %arg5, %20 : i64
// CHECK-NEXT: scf.yield %21 : i64
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg5 : i64
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %19, %18 : i64, tensor<16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %1#1 : tensor<16xf32>
// CHECK-NEXT: }
tt.func @loop_with_branch(%a: !tt.ptr<f32>, %n: i64, %k: i32, %c: i1) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %p = tt.make_tensor_ptr %a, [%n], [%one], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  %r:2 = scf.for %i = %c0 to %k step %c1 iter_args(%ptr = %p, %acc = %zero) -> (!tt.ptr<tensor<16xf32>>, tensor<16xf32>) : i32 {
    %v = tt.load %ptr {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
    %s = arith.addf %acc, %v : tensor<16xf32>
    %next = scf.if %c -> (!tt.ptr<tensor<16xf32>>) {
      %adv = tt.advance %ptr, [%c16] : <tensor<16xf32>>
      scf.yield %adv : !tt.ptr<tensor<16xf32>>
    } else {
      scf.yield %ptr : !tt.ptr<tensor<16xf32>>
    }
    scf.yield %next, %s : !tt.ptr<tensor<16xf32>>, tensor<16xf32>
  }
  tt.return %r#1 : tensor<16xf32>
}
