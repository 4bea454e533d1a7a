// RUN: tt-opt %s --allocate-shared-memory-nv='compute-capability=80' --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// A layout conversion in rounds (the sm_80 int8 matmul's epilogue): upstream
// sizes its scratch for a quarter of the 128x128 i32 tensor, so the lowering
// moves it in four rounds, each 16-byte stores to shared memory, a barrier,
// 16-byte loads, and a barrier before the next round's stores.
// CHECK: ttg.shared = 16384 : i32
// CHECK-LABEL: llvm.func @conversion_in_rounds
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NOT: nvvm.barrier0
// CHECK: st.global
// CHECK: llvm.return


#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @conversion_in_rounds(%p: !tt.ptr<i32>) {
    %acc = arith.constant dense<1> : tensor<128x128xi32, #mma>
    %0 = ttg.convert_layout %acc : tensor<128x128xi32, #mma> -> tensor<128x128xi32, #blocked2>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x128x!tt.ptr<i32>, #blocked2>
    tt.store %ps, %0 : tensor<128x128x!tt.ptr<i32>, #blocked2>
    tt.return
  }
}