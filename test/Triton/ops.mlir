// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of every tt op, in each of its optional forms.

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {

// Pointer types: address space 1 (global) is not printed, others are; pointers
// to pointers, to block tensors, and tensor descriptors.
// CHECK-LABEL: tt.func @types
// CHECK-SAME: !tt.ptr<!tt.ptr<f32>>, %{{.*}}: !tt.ptr<f32, 0>, %{{.*}}: tensor<8x!tt.ptr<i8, 3>>, %{{.*}}: !tt.ptr<tensor<8x16xf16>>, %{{.*}}: !tt.tensordesc<tensor<1x64xi8>>, %{{.*}}: !tt.ptr<f8E5M2>, %{{.*}}: !tt.ptr<bf16>)
tt.func @types(%a: !tt.ptr<!tt.ptr<f32>>, %b: !tt.ptr<f32, 0>, %c: tensor<8x!tt.ptr<i8, 3>>, %d: !tt.ptr<tensor<8x16xf16>, 1>, %e: !tt.tensordesc<tensor<1x64xi8>>, %f: !tt.ptr<f8E5M2>, %h: !tt.ptr<bf16, 1>) {
  tt.return
}

// CHECK-LABEL: tt.func @casts
tt.func @casts(%p: !tt.ptr<f32>, %i: i64, %f: f32, %ti: tensor<16xi64>, %tp: tensor<16x!tt.ptr<f32>>, %tf: tensor<16xf16>) {
  // CHECK: tt.int_to_ptr %{{.*}} : i64 -> !tt.ptr<f32>
  %0 = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
  // CHECK: tt.int_to_ptr %{{.*}} : tensor<16xi64> -> tensor<16x!tt.ptr<f32>>
  %1 = tt.int_to_ptr %ti : tensor<16xi64> -> tensor<16x!tt.ptr<f32>>
  // CHECK: tt.ptr_to_int %{{.*}} : !tt.ptr<f32> -> i64
  %2 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  // CHECK: tt.ptr_to_int %{{.*}} : tensor<16x!tt.ptr<f32>> -> tensor<16xi64>
  %3 = tt.ptr_to_int %tp : tensor<16x!tt.ptr<f32>> -> tensor<16xi64>
  // CHECK: tt.bitcast %{{.*}} : f32 -> i32
  %4 = tt.bitcast %f : f32 -> i32
  // CHECK: tt.bitcast %{{.*}} : !tt.ptr<f32> -> !tt.ptr<i8>
  %5 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i8>
  // CHECK: tt.bitcast %{{.*}} : tensor<16xf16> -> tensor<16xi16>
  %6 = tt.bitcast %tf : tensor<16xf16> -> tensor<16xi16>
  // CHECK: tt.fp_to_fp %{{.*}} : tensor<16xf16> -> tensor<16xf32>
  %7 = tt.fp_to_fp %tf : tensor<16xf16> -> tensor<16xf32>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<16xf16> -> tensor<16xf8E5M2>
  %8 = tt.fp_to_fp %tf, rounding = rtne : tensor<16xf16> -> tensor<16xf8E5M2>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtz : f32 -> bf16
  %9 = tt.fp_to_fp %f, rounding = rtz : f32 -> bf16
  // CHECK: tt.fp_to_fp %{{.*}} : f8E4M3FN -> f16
  %10 = tt.fp_to_fp %9 : bf16 -> f32
  %11 = tt.fp_to_fp %f, rounding = rtne : f32 -> f8E4M3FN
  %12 = tt.fp_to_fp %11 : f8E4M3FN -> f16
  tt.return
}

// CHECK-LABEL: tt.func @zero_rank_tensors
tt.func @zero_rank_tensors(%p: !tt.ptr<f32>, %i: i64) {
  // CHECK: tt.splat %{{.*}} : !tt.ptr<f32> -> tensor<!tt.ptr<f32>>
  %0 = tt.splat %p : !tt.ptr<f32> -> tensor<!tt.ptr<f32>>
  // CHECK: tt.splat %{{.*}} : i64 -> tensor<i64>
  %1 = tt.splat %i : i64 -> tensor<i64>
  // CHECK: tt.int_to_ptr %{{.*}} : tensor<i64> -> tensor<!tt.ptr<f32>>
  %2 = tt.int_to_ptr %1 : tensor<i64> -> tensor<!tt.ptr<f32>>
  tt.return
}

// CHECK-LABEL: tt.func @arithmetic
tt.func @arithmetic(%x: tensor<32xf32>, %lo: tensor<32xf32>, %hi: tensor<32xf32>, %s: f32, %a: tensor<32xi32>, %b: i64) {
  // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = none : tensor<32xf32>
  %0 = tt.clampf %x, %lo, %hi, propagateNan = none : tensor<32xf32>
  // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : f32
  %1 = tt.clampf %s, %s, %s, propagateNan = all : f32
  // CHECK: tt.precise_sqrt %{{.*}} : tensor<32xf32>
  %2 = tt.precise_sqrt %x : tensor<32xf32>
  // CHECK: tt.precise_sqrt %{{.*}} : f32
  %3 = tt.precise_sqrt %s : f32
  // CHECK: tt.precise_divf %{{.*}}, %{{.*}} : tensor<32xf32>
  %4 = tt.precise_divf %x, %lo : tensor<32xf32>
  // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : tensor<32xi32>
  %5 = tt.mulhiui %a, %a : tensor<32xi32>
  // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : i64
  %6 = tt.mulhiui %b, %b : i64
  tt.return
}

// CHECK-LABEL: tt.func @pointers
tt.func @pointers(%p: !tt.ptr<f16>, %q: !tt.ptr<i8, 3>, %i: i32, %j: i64, %offs: tensor<64xi32>, %offs64: tensor<64xi64>) {
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : !tt.ptr<f16>, i32
  %0 = tt.addptr %p, %i : !tt.ptr<f16>, i32
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : !tt.ptr<i8, 3>, i64
  %1 = tt.addptr %q, %j : !tt.ptr<i8, 3>, i64
  %2 = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  %3 = tt.addptr %2, %offs : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<f16>>, tensor<64xi64>
  %4 = tt.addptr %3, %offs64 : tensor<64x!tt.ptr<f16>>, tensor<64xi64>
  tt.return
}

// CHECK-LABEL: tt.func @loads_and_stores
tt.func @loads_and_stores(%ptrs: tensor<128x!tt.ptr<f32>>, %mask: tensor<128xi1>, %other: tensor<128xf32>, %p: !tt.ptr<f32>, %m: i1) {
  // CHECK: tt.load %{{.*}} : tensor<128x!tt.ptr<f32>>
  %0 = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f32>>
  %1 = tt.load %ptrs, %mask : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f32>>
  %2 = tt.load %ptrs, %mask, %other : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = ca : tensor<128x!tt.ptr<f32>>
  %3 = tt.load %ptrs, %mask, %other cacheModifier = ca : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}} evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
  %4 = tt.load %ptrs evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}} cacheModifier = cg evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
  %5 = tt.load %ptrs cacheModifier = cg evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}} cacheModifier = cv {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  %6 = tt.load %ptrs cacheModifier = cv {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}} : !tt.ptr<f32>
  %7 = tt.load %p, %m : !tt.ptr<f32>
  // CHECK: tt.store %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %0 : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %1, %mask : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = wb evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %2, %mask cacheModifier = wb evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} cacheModifier = cs : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %3 cacheModifier = cs : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} cacheModifier = wt : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %4 cacheModifier = wt : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : !tt.ptr<f32>
  tt.store %p, %7, %m : !tt.ptr<f32>
  tt.return
}

// CHECK-LABEL: tt.func @block_pointers
tt.func @block_pointers(%base: !tt.ptr<f16>, %m: i64, %n: i64, %i: i32, %j: i32) {
  %c1 = arith.constant 1 : i64
  // CHECK: tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
  %0 = tt.make_tensor_ptr %base, [%m, %n], [%n, %c1], [%i, %j] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
  // CHECK: tt.advance %{{.*}}, [%{{.*}}, %{{.*}}] : <tensor<64x32xf16>>
  %1 = tt.advance %0, [%i, %j] : <tensor<64x32xf16>>
  // CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
  %2 = tt.load %1 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
  // CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>
  %3 = tt.load %1 {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>
  // CHECK: tt.load %{{.*}} : !tt.ptr<tensor<64x32xf16>>
  %4 = tt.load %1 : !tt.ptr<tensor<64x32xf16>>
  // CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x32xf16>>
  tt.store %1, %2 {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x32xf16>>
  // CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<tensor<64x32xf16>>
  tt.store %1, %3 : !tt.ptr<tensor<64x32xf16>>
  tt.return
}

// CHECK-LABEL: tt.func @atomics
tt.func @atomics(%ptrs: tensor<64x!tt.ptr<f32>>, %iptrs: tensor<64x!tt.ptr<i32>>, %v: tensor<64xf32>, %iv: tensor<64xi32>, %mask: tensor<64xi1>, %p: !tt.ptr<i64>, %s: i64) {
  // CHECK: tt.atomic_rmw and, acquire, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  %0 = tt.atomic_rmw and, acquire, gpu, %iptrs, %iv : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK: tt.atomic_rmw or, release, cta, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi1>) -> tensor<64xi32>
  %1 = tt.atomic_rmw or, release, cta, %iptrs, %iv, %mask : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi1>) -> tensor<64xi32>
  // CHECK: tt.atomic_rmw xor, relaxed, sys, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  %2 = tt.atomic_rmw xor, relaxed, sys, %iptrs, %iv : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK: tt.atomic_rmw add, acq_rel, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  %3 = tt.atomic_rmw add, acq_rel, gpu, %iptrs, %iv : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  %4 = tt.atomic_rmw fadd, acq_rel, gpu, %ptrs, %v, %mask : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  // CHECK: tt.atomic_rmw max, acq_rel, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  %5 = tt.atomic_rmw max, acq_rel, gpu, %iptrs, %iv : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK: tt.atomic_rmw min, acq_rel, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  %6 = tt.atomic_rmw min, acq_rel, gpu, %iptrs, %iv : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK: tt.atomic_rmw umax, acq_rel, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  %7 = tt.atomic_rmw umax, acq_rel, gpu, %iptrs, %iv : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK: tt.atomic_rmw umin, acq_rel, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  %8 = tt.atomic_rmw umin, acq_rel, gpu, %iptrs, %iv : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK: tt.atomic_rmw exch, acq_rel, gpu, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  %9 = tt.atomic_rmw exch, acq_rel, gpu, %ptrs, %v : (tensor<64x!tt.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  // CHECK: tt.atomic_rmw add, relaxed, gpu, %{{.*}}, %{{.*}} : (!tt.ptr<i64>, i64) -> i64
  %10 = tt.atomic_rmw add, relaxed, gpu, %p, %s : (!tt.ptr<i64>, i64) -> i64
  // CHECK: tt.atomic_cas acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  %11 = tt.atomic_cas acq_rel, gpu, %iptrs, %iv, %0 : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  // CHECK: tt.atomic_cas relaxed, sys, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i64>, i64, i64) -> i64
  %12 = tt.atomic_cas relaxed, sys, %p, %s, %10 : (!tt.ptr<i64>, i64, i64) -> i64
  tt.return
}

// CHECK-LABEL: tt.func @shapes
tt.func @shapes(%s: f32, %t: tensor<1x1xf32>, %v: tensor<32xf32>, %w: tensor<32x2xf32>, %m: tensor<16x32xf32>) {
  // CHECK: tt.splat %{{.*}} : f32 -> tensor<16x32xf32>
  %0 = tt.splat %s : f32 -> tensor<16x32xf32>
  // CHECK: tt.unsplat %{{.*}} : tensor<1x1xf32>
  %1 = tt.unsplat %t : tensor<1x1xf32>
  // CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  %2 = tt.expand_dims %v {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  // CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  %3 = tt.expand_dims %v {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  // CHECK: tt.broadcast %{{.*}} : tensor<1x32xf32> -> tensor<16x32xf32>
  %4 = tt.broadcast %2 : tensor<1x32xf32> -> tensor<16x32xf32>
  // CHECK: tt.reshape %{{.*}} : tensor<16x32xf32> -> tensor<512xf32>
  %5 = tt.reshape %m : tensor<16x32xf32> -> tensor<512xf32>
  // CHECK: tt.reshape %{{.*}} allow_reorder : tensor<16x32xf32> -> tensor<32x16xf32>
  %6 = tt.reshape %m allow_reorder : tensor<16x32xf32> -> tensor<32x16xf32>
  // CHECK: tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<16x32xf32> -> tensor<8x64xf32>
  %7 = tt.reshape %m allow_reorder efficient_layout : tensor<16x32xf32> -> tensor<8x64xf32>
  // CHECK: tt.reshape %{{.*}} efficient_layout : tensor<16x32xf32> -> tensor<4x128xf32>
  %8 = tt.reshape %m efficient_layout : tensor<16x32xf32> -> tensor<4x128xf32>
  // CHECK: tt.cat %{{.*}}, %{{.*}} : tensor<32xf32> -> tensor<64xf32>
  %9 = tt.cat %v, %v : tensor<32xf32> -> tensor<64xf32>
  // CHECK: tt.join %{{.*}}, %{{.*}} : tensor<32xf32> -> tensor<32x2xf32>
  %10 = tt.join %v, %v : tensor<32xf32> -> tensor<32x2xf32>
  // CHECK: %{{.*}}, %{{.*}} = tt.split %{{.*}} : tensor<32x2xf32> -> tensor<32xf32>
  %11, %12 = tt.split %w : tensor<32x2xf32> -> tensor<32xf32>
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %13 = tt.trans %m {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %14 = tt.reshape %m : tensor<16x32xf32> -> tensor<2x8x32xf32>
  // CHECK: tt.trans %{{.*}} {order = array<i32: 2, 0, 1>} : tensor<2x8x32xf32> -> tensor<32x2x8xf32>
  %15 = tt.trans %14 {order = array<i32: 2, 0, 1>} : tensor<2x8x32xf32> -> tensor<32x2x8xf32>
  tt.return
}

// CHECK-LABEL: tt.func @program_ids
tt.func @program_ids() -> (i32, i32, i32, i32) {
  // CHECK: tt.get_program_id x : i32
  %0 = tt.get_program_id x : i32
  // CHECK: tt.get_program_id y : i32
  %1 = tt.get_program_id y : i32
  // CHECK: tt.get_program_id z : i32
  %2 = tt.get_program_id z : i32
  // CHECK: tt.get_num_programs x : i32
  %3 = tt.get_num_programs x : i32
  // CHECK: tt.get_num_programs y : i32
  %4 = tt.get_num_programs y : i32
  // CHECK: tt.get_num_programs z : i32
  %5 = tt.get_num_programs z : i32
  tt.return %0, %1, %4, %5 : i32, i32, i32, i32
}

// CHECK-LABEL: tt.func @dots
tt.func @dots(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>, %c: tensor<64x128xf32>, %af: tensor<64x32xf32>, %bf: tensor<32x128xf32>, %ai: tensor<64x32xi8>, %bi: tensor<32x128xi8>, %ci: tensor<64x128xi32>, %a3: tensor<2x64x32xf16>, %b3: tensor<2x32x128xf16>, %c3: tensor<2x64x128xf32>) {
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x128xf32>
  %0 = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x128xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  %1 = tt.dot %af, %bf, %c, inputPrecision = tf32 : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32x3 : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  %2 = tt.dot %af, %bf, %c, inputPrecision = tf32x3 : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  %3 = tt.dot %af, %bf, %c, inputPrecision = ieee : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = bf16x3 : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  %4 = tt.dot %af, %bf, %c, inputPrecision = bf16x3 : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = bf16x6 : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  %5 = tt.dot %af, %bf, %c, inputPrecision = bf16x6 : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  %6 = tt.dot %af, %bf, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32} : tensor<64x32xf32> * tensor<32x128xf32> -> tensor<64x128xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xi8> * tensor<32x128xi8> -> tensor<64x128xi32>
  %7 = tt.dot %ai, %bi, %ci : tensor<64x32xi8> * tensor<32x128xi8> -> tensor<64x128xi32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x64x32xf16> * tensor<2x32x128xf16> -> tensor<2x64x128xf32>
  %8 = tt.dot %a3, %b3, %c3 : tensor<2x64x32xf16> * tensor<2x32x128xf16> -> tensor<2x64x128xf32>
  tt.return
}

// CHECK-LABEL: tt.func @dot_scaled
tt.func @dot_scaled(%a: tensor<128x64xf8E4M3FN>, %as: tensor<128x2xi8>, %b: tensor<32x128xi8>, %bs: tensor<128x2xi8>, %c: tensor<128x128xf32>, %bh: tensor<64x128xbf16>, %ah: tensor<128x64xbf16>) {
  // CHECK: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}} scale %{{.*}}, %{{.*}} lhs = e4m3 rhs = e2m1 {fastMath = false} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
  %0 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e4m3 rhs = e2m1 {fastMath = false} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<32x128xi8>, tensor<128x2xi8> -> tensor<128x128xf32>
  // CHECK: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}}, %{{.*}} lhs = e4m3 rhs = bf16 {fastMath = true} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x128xbf16> -> tensor<128x128xf32>
  %1 = tt.dot_scaled %a scale %as, %bh, %c lhs = e4m3 rhs = bf16 {fastMath = true} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x128xbf16> -> tensor<128x128xf32>
  // CHECK: tt.dot_scaled %{{.*}}, %{{.*}}, %{{.*}} lhs = bf16 rhs = bf16 {fastMath = false} : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
  %2 = tt.dot_scaled %ah, %bh, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
  tt.return
}

// CHECK-LABEL: tt.func @reductions
tt.func @reductions(%v: tensor<16x32xf32>, %i: tensor<16x32xi32>, %r: tensor<32xf32>) {
  // CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
  // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
  // CHECK: tt.reduce.return %{{.*}} : f32
  // CHECK: }) : (tensor<16x32xf32>) -> tensor<16xf32>
  %0 = "tt.reduce"(%v) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  // A reduction of a 1-D tensor gives a scalar.
  // CHECK: "tt.reduce"(%{{.*}}) <{axis = 0 : i32}> ({
  // CHECK: }) : (tensor<32xf32>) -> f32
  %1 = "tt.reduce"(%r) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<32xf32>) -> f32
  // An argmax: two operands, a combiner of four arguments, two results.
  // CHECK: "tt.reduce"(%{{.*}}, %{{.*}}) <{axis = 0 : i32}> ({
  // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
  // CHECK: tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
  // CHECK: }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<32xf32>, tensor<32xi32>)
  %2:2 = "tt.reduce"(%v, %i) <{axis = 0 : i32}> ({
  ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
    %gt = arith.cmpf ogt, %av, %bv : f32
    %mv = arith.select %gt, %av, %bv : f32
    %mi = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %mv, %mi : f32, i32
  }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<32xf32>, tensor<32xi32>)
  // CHECK: "tt.scan"(%{{.*}}) <{axis = 1 : i32, reverse = false}> ({
  // CHECK: tt.scan.return %{{.*}} : f32
  // CHECK: }) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %3 = "tt.scan"(%v) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  // CHECK: "tt.scan"(%{{.*}}, %{{.*}}) <{axis = 0 : i32, reverse = true}> ({
  // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
  // CHECK: tt.scan.return %{{.*}}, %{{.*}} : f32, i32
  // CHECK: }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16x32xf32>, tensor<16x32xi32>)
  %4:2 = "tt.scan"(%v, %i) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
    %s = arith.addf %av, %bv : f32
    %t = arith.addi %ai, %bi : i32
    tt.scan.return %s, %t : f32, i32
  }) : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<16x32xf32>, tensor<16x32xi32>)
  tt.return
}

// CHECK-LABEL: tt.func @map_elementwise
tt.func @map_elementwise(%x: tensor<128xf32>, %y: tensor<128xi32>) {
  // CHECK: "tt.map_elementwise"(%{{.*}}, %{{.*}}) <{pack = 1 : i32}> ({
  // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: i32):
  // CHECK: tt.map_elementwise.return %{{.*}} : f32
  // CHECK: }) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  %0 = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
  ^bb0(%a: f32, %b: i32):
    %f = arith.sitofp %b : i32 to f32
    %s = arith.addf %a, %f : f32
    tt.map_elementwise.return %s : f32
  }) : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  // Two elements at a time, two results, and control flow in the region.
  // CHECK: "tt.map_elementwise"(%{{.*}}) <{pack = 2 : i32}> ({
  // CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: i32):
  // CHECK: cf.cond_br
  // CHECK: tt.map_elementwise.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, i32, f32, f32
  // CHECK: }) : (tensor<128xi32>) -> (tensor<128xi32>, tensor<128xf32>)
  %1:2 = "tt.map_elementwise"(%y) <{pack = 2 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %c0 = arith.constant 0 : i32
    %neg = arith.cmpi slt, %a, %c0 : i32
    cf.cond_br %neg, ^bb1, ^bb2
  ^bb1:
    %z = arith.constant 0.0 : f32
    tt.map_elementwise.return %c0, %c0, %z, %z : i32, i32, f32, f32
  ^bb2:
    %fa = arith.sitofp %a : i32 to f32
    %fb = arith.sitofp %b : i32 to f32
    tt.map_elementwise.return %a, %b, %fa, %fb : i32, i32, f32, f32
  }) : (tensor<128xi32>) -> (tensor<128xi32>, tensor<128xf32>)
  tt.return
}

// CHECK-LABEL: tt.func @external_code
tt.func @external_code(%x: tensor<64xf32>, %y: tensor<64xf32>, %b: tensor<64xi8>, %s: i32) {
  // CHECK: tt.extern_elementwise %{{.*}}, %{{.*}} {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_powf"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %0 = tt.extern_elementwise %x, %y {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_powf"} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  // CHECK: tt.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = false, symbol = "__nv_nanosleep"} : (i32) -> i32
  %1 = tt.extern_elementwise %s {libname = "", libpath = "", pure = false, symbol = "__nv_nanosleep"} : (i32) -> i32
  // CHECK: tt.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %{{.*}} : tensor<64xi8> -> tensor<64xi8>
  %2 = tt.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %b : tensor<64xi8> -> tensor<64xi8>
  // Two operands of different types, two results.
  // CHECK: tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = false} %{{.*}}, %{{.*}} : tensor<64xf32>, tensor<64xf32> -> tensor<64xi32>, tensor<64xi32>
  %3:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = false} %x, %y : tensor<64xf32>, tensor<64xf32> -> tensor<64xi32>, tensor<64xi32>
  // CHECK: tt.elementwise_inline_asm "mov.u32 $0, %clock;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  %4 = tt.elementwise_inline_asm "mov.u32 $0, %clock;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  // CHECK: tt.elementwise_inline_asm "add.s32 $0, $1, 1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : i32 -> i32
  %5 = tt.elementwise_inline_asm "add.s32 $0, $1, 1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %s : i32 -> i32
  tt.return
}

// CHECK-LABEL: tt.func @creation
tt.func @creation(%src: tensor<128x16xf32>, %idx: tensor<64x16xi32>, %h: tensor<256xi32>, %hm: tensor<256xi1>) {
  // CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // CHECK: tt.make_range {end = 48 : i32, start = 16 : i32} : tensor<32xi32>
  %1 = tt.make_range {end = 48 : i32, start = 16 : i32} : tensor<32xi32>
  // CHECK: tt.histogram %{{.*}} : tensor<256xi32> -> tensor<16xi32>
  %2 = tt.histogram %h : tensor<256xi32> -> tensor<16xi32>
  // CHECK: tt.histogram %{{.*}}, %{{.*}} : tensor<256xi32> -> tensor<32xi32>
  %3 = tt.histogram %h, %hm : tensor<256xi32> -> tensor<32xi32>
  // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : (tensor<128x16xf32>, tensor<64x16xi32>) -> tensor<64x16xf32>
  %4 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<128x16xf32>, tensor<64x16xi32>) -> tensor<64x16xf32>
  // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32, efficient_layout} : (tensor<128x16xf32>, tensor<64x16xi32>) -> tensor<64x16xf32>
  %5 = tt.gather %src[%idx] {axis = 0 : i32, efficient_layout} : (tensor<128x16xf32>, tensor<64x16xi32>) -> tensor<64x16xf32>
  tt.return
}

// CHECK-LABEL: tt.func @debugging
tt.func @debugging(%x: tensor<32xf32>, %y: tensor<32xi32>, %s: i64, %c: tensor<32xi1>, %b: i1) {
  // CHECK: tt.print "no args" {hex = false, isSigned = array<i32>}
  tt.print "no args" {hex = false, isSigned = array<i32>}
  // CHECK: tt.print ": x = " {hex = false, isSigned = array<i32: 0>} : %{{.*}} : tensor<32xf32>
  tt.print ": x = " {hex = false, isSigned = array<i32: 0>} : %x : tensor<32xf32>
  // CHECK: tt.print ": " {hex = true, isSigned = array<i32: 1, 0>} : %{{.*}}, %{{.*}} : tensor<32xi32>, i64
  tt.print ": " {hex = true, isSigned = array<i32: 1, 0>} : %y, %s : tensor<32xi32>, i64
  // CHECK: tt.assert %{{.*}}, "x must be positive" : tensor<32xi1>
  tt.assert %c, "x must be positive" : tensor<32xi1>
  // CHECK: tt.assert %{{.*}}, "scalar" : i1
  tt.assert %b, "scalar" : i1
  tt.return
}

// CHECK-LABEL: tt.func @tensor_descriptors
tt.func @tensor_descriptors(%base: !tt.ptr<bf16>, %m: i32, %n: i32, %sm: i64, %i: i32, %j: i32, %rows: tensor<32xi32>, %tile: tensor<64x128xbf16>, %gtile: tensor<32x128xbf16>) {
  %c1 = arith.constant 1 : i64
  // CHECK: tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <bf16>, <tensor<64x128xbf16>>
  %0 = tt.make_tensor_descriptor %base, [%m, %n], [%sm, %c1] : <bf16>, <tensor<64x128xbf16>>
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<64x128xbf16>> -> tensor<64x128xbf16>
  %1 = tt.descriptor_load %0[%i, %j] : !tt.tensordesc<tensor<64x128xbf16>> -> tensor<64x128xbf16>
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x128xbf16>> -> tensor<64x128xbf16>
  %2 = tt.descriptor_load %0[%i, %j] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<64x128xbf16>> -> tensor<64x128xbf16>
  // CHECK: tt.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x128xbf16>>, tensor<64x128xbf16>
  tt.descriptor_store %0[%i, %j], %tile : !tt.tensordesc<tensor<64x128xbf16>>, tensor<64x128xbf16>
  // CHECK: tt.descriptor_reduce add, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x128xbf16>>, tensor<64x128xbf16>
  tt.descriptor_reduce add, %0[%i, %j], %tile : !tt.tensordesc<tensor<64x128xbf16>>, tensor<64x128xbf16>
  // CHECK: tt.descriptor_reduce max, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x128xbf16>>, tensor<64x128xbf16>
  tt.descriptor_reduce max, %0[%i, %j], %tile : !tt.tensordesc<tensor<64x128xbf16>>, tensor<64x128xbf16>
  %3 = tt.make_tensor_descriptor %base, [%m, %n], [%sm, %c1] : <bf16>, <tensor<1x128xbf16>>
  // CHECK: tt.descriptor_gather %{{.*}}[%{{.*}}, %{{.*}}] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
  %4 = tt.descriptor_gather %3[%rows, %j] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
  // CHECK: tt.descriptor_scatter %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
  tt.descriptor_scatter %3[%rows, %j], %gtile : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
  tt.return
}

// CHECK-LABEL: tt.func @descriptor_reduce_kinds
tt.func @descriptor_reduce_kinds(%d: !tt.tensordesc<tensor<32x32xi32>>, %t: tensor<32x32xi32>, %i: i32) {
  // CHECK: tt.descriptor_reduce min, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}
  tt.descriptor_reduce min, %d[%i, %i], %t : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce inc, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}
  tt.descriptor_reduce inc, %d[%i, %i], %t : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce dec, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}
  tt.descriptor_reduce dec, %d[%i, %i], %t : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce and, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}
  tt.descriptor_reduce and, %d[%i, %i], %t : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce or, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}
  tt.descriptor_reduce or, %d[%i, %i], %t : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce xor, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}
  tt.descriptor_reduce xor, %d[%i, %i], %t : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  tt.return
}

// CHECK-LABEL: tt.func private @declaration(!tt.ptr<f32>, i32) -> f32
tt.func private @declaration(!tt.ptr<f32>, i32) -> f32

// CHECK-LABEL: tt.func public @kernel
// CHECK-SAME: (%{{.*}}: !tt.ptr<f32> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}, %{{.*}}: i32 {tt.divisibility = 16 : i32}, %{{.*}}: !tt.ptr<f32>)
// CHECK-SAME: attributes {noinline = false}
tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}, %n: i32 {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32>) attributes {noinline = false} {
  // CHECK: tt.call @helper(%{{.*}}, %{{.*}}) : (!tt.ptr<f32>, i32) -> f32
  %0 = tt.call @helper(%p, %n) : (!tt.ptr<f32>, i32) -> f32
  // CHECK: tt.call @declaration(%{{.*}}, %{{.*}}) : (!tt.ptr<f32>, i32) -> f32
  %1 = tt.call @declaration(%q, %n) : (!tt.ptr<f32>, i32) -> f32
  // CHECK: tt.call @nothing() : () -> ()
  tt.call @nothing() : () -> ()
  // CHECK: tt.call @pair(%{{.*}}) : (i32) -> (i32, i32)
  %2:2 = tt.call @pair(%n) : (i32) -> (i32, i32)
  tt.store %q, %0 : !tt.ptr<f32>
  // CHECK: tt.return{{$}}
  tt.return
}

// CHECK-LABEL: tt.func private @helper
// CHECK-SAME: (%{{.*}}: !tt.ptr<f32>, %{{.*}}: i32) -> f32 attributes {noinline = true}
tt.func private @helper(%p: !tt.ptr<f32>, %n: i32) -> f32 attributes {noinline = true} {
  %0 = tt.load %p : !tt.ptr<f32>
  // CHECK: tt.return %{{.*}} : f32
  tt.return %0 : f32
}

// CHECK-LABEL: tt.func @nothing()
tt.func @nothing() {
  tt.return
}

// CHECK-LABEL: tt.func @pair
// CHECK-SAME: -> (i32 {tt.result_attr}, i32)
tt.func @pair(%n: i32) -> (i32 {tt.result_attr}, i32) {
  // CHECK: tt.return %{{.*}}, %{{.*}} : i32, i32
  tt.return %n, %n : i32, i32
}

}
