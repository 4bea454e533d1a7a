// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of the nvg dialect (upstream's NVGPU: the ops of its lowering
// to LLVM), which Tritium parses, verifies and prints only.

// CHECK-LABEL: llvm.func @nvg
llvm.func @nvg(%a: i64, %b: i64, %acc: !llvm.struct<(f32, f32, f32, f32)>, %p: !llvm.ptr<1>, %m: i1) {
  // CHECK: nvg.cluster_id
  %0 = nvg.cluster_id
  // CHECK: nvg.warp_id
  %1 = nvg.warp_id
  // CHECK: nvg.tensor_memory_base
  %2 = nvg.tensor_memory_base
  %true = llvm.mlir.constant(true) : i1
  // CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32} : (i64, i64, i1, !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32)>
  %3 = nvg.wgmma %a, %b, %true, %acc {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32} : (i64, i64, i1, !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 0 : i32} : !llvm.struct<(f32, f32, f32, f32)>
  %4 = nvg.wgmma_wait_group %3 {pendings = 0 : i32} : !llvm.struct<(f32, f32, f32, f32)>
  // CHECK: nvg.ld_acquire acquire, gpu, %{{.*}} : (!llvm.ptr<1>) -> i32
  %5 = nvg.ld_acquire acquire, gpu, %p : (!llvm.ptr<1>) -> i32
  // CHECK: nvg.ld_acquire relaxed, sys, %{{.*}}, %{{.*}} : (!llvm.ptr<1>) -> f32
  %6 = nvg.ld_acquire relaxed, sys, %p, %m : (!llvm.ptr<1>) -> f32
  llvm.return
}
