// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=80' --convert-triton-gpu-to-llvm | FileCheck %s

// The forms of cp.async, as upstream's PTX builder spells them: cp-size and
// src-size in hexadecimal; a masked copy reads src-size = mask ? cp-size : 0
// bytes (the rest is zero-filled); where several threads hold the same
// elements only one of them copies (a predicate on the thread id); the op's
// `contiguity` hint widens the copy beyond what the axis analysis proves.

// CHECK-LABEL: llvm.func @masked_copy
// CHECK: %[[FULL:.+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[SIZE:.+]] = llvm.select %{{.+}}, %[[FULL]], %{{.+}} : i1, i32
// CHECK: "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, $2;", "r,l,r" %{{.+}}, %{{.+}}, %[[SIZE]]
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @masked_copy(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %range, %ns : tensor<512xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %range : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %buffer = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %token = ttg.async_copy_global_to_local %xa, %buffer mask %mask : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Warps 2 and 3 hold the elements warps 0 and 1 hold (warp bit 1 is free):
// only threads whose warp bit 1 is clear copy.
// CHECK-LABEL: llvm.func @redundant_threads
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[FREE:.+]] = llvm.mlir.constant(64 : i32) : i32
// CHECK: %[[BITS:.+]] = llvm.and %[[TID]], %[[FREE]]
// CHECK: %[[OWNER:.+]] = llvm.icmp "eq" %[[BITS]], %{{.+}}
// CHECK: "@$2 cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x8, 0x8;", "r,l,b" %{{.+}}, %{{.+}}, %[[OWNER]]
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @redundant_threads(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %range : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %buffer = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %token = ttg.async_copy_global_to_local %xa, %buffer : tensor<128x!tt.ptr<f32>, #blocked> -> <128xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Pointers passed in as a tensor prove no contiguity; the hint says 8
// elements (16 bytes of f16) are contiguous.
// CHECK-LABEL: llvm.func @contiguity_hint
// CHECK-COUNT-2: cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, 0x10;
// CHECK-NOT: cp.async.c
#blocked = #ttg.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @contiguity_hint(%pointers: tensor<2048x!tt.ptr<f16>, #blocked>) {
    %buffer = ttg.local_alloc : () -> !ttg.memdesc<2048xf16, #shared, #smem, mutable>
    %token = ttg.async_copy_global_to_local %pointers, %buffer {contiguity = 8 : i32} : tensor<2048x!tt.ptr<f16>, #blocked> -> <2048xf16, #shared, #smem, mutable>
    tt.return
  }
}
