// RUN: tt-opt %s -allow-unregistered-dialect --tritongpu-global-scratch-memory-allocation --convert-triton-gpu-to-llvm | FileCheck %s

// Each ttg.global_scratch_alloc is the scratch parameter plus program * size
// + offset, with program * size passed through its own `mov` (inline asm that
// LLVM cannot see through): otherwise LLVM 22's straight-line strength
// reduction computes the second tensormap's address from the first's, and
// ptxas then keeps the addresses in vector registers and moves them to
// uniform ones before every TMA copy (persist_device_desc_matmul_f16: 54
// R2UR instead of 30).
// CHECK-LABEL: llvm.func @two_tensormaps
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK: %[[START0:.*]] = llvm.mul %{{.*}}, %[[SIZE]] : i32
// CHECK-NEXT: %[[COPY0:.*]] = llvm.inline_asm has_side_effects {{.*}}"mov.b32 $0, $1;", "=r,r" %[[START0]] : (i32) -> i32
// CHECK-NEXT: llvm.getelementptr %arg0[%[[COPY0]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
// CHECK: %[[START1:.*]] = llvm.mul %{{.*}}, %[[SIZE]] : i32
// CHECK-NEXT: %[[COPY1:.*]] = llvm.inline_asm has_side_effects {{.*}}"mov.b32 $0, $1;", "=r,r" %[[START1]] : (i32) -> i32
// CHECK-NEXT: %[[AT1:.*]] = llvm.add %[[COPY1]], %{{.*}} : i32
// CHECK-NEXT: llvm.getelementptr %arg0[%[[AT1]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_tensormaps() {
    %0 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    %1 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    "use"(%0, %1) : (!tt.ptr<i8>, !tt.ptr<i8>) -> ()
    tt.return
  }
}
