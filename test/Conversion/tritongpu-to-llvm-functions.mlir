// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm='scratch-parameters=false' | FileCheck %s --check-prefix=NOSCRATCH

// Device functions and calls, with upstream's calling convention: a tensor
// crosses a call as a struct of the registers one thread holds of it,
// several results come back in one struct, and a device function takes
// three trailing pointers: its shared-memory base (the caller's base plus
// the call's allocation.offset), global and profile scratch.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: llvm.mlir.global external @global_smem()
  // CHECK: llvm.func internal @twice(%[[X:.*]]: !llvm.struct<(f32, f32)>, %[[S:.*]]: f32, %{{.*}}: !llvm.ptr<3>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>) -> !llvm.struct<(struct<(f32, f32)>, f32)>
  // CHECK-SAME: nvvm.reqntid = array<i32: 128>
  // CHECK-SAME: passthrough = ["noinline"]
  // CHECK-DAG: %[[X0:.*]] = llvm.extractvalue %[[X]][0] : !llvm.struct<(f32, f32)>
  // CHECK-DAG: %[[X1:.*]] = llvm.extractvalue %[[X]][1] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.fadd %[[X0]], %[[X0]]
  // CHECK: llvm.fadd %[[X1]], %[[X1]]
  // CHECK: llvm.insertvalue {{.*}}[0] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.insertvalue {{.*}}[1] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.insertvalue {{.*}}[0] : !llvm.struct<(struct<(f32, f32)>, f32)>
  // CHECK: llvm.insertvalue %[[S]], {{.*}}[1] : !llvm.struct<(struct<(f32, f32)>, f32)>
  // CHECK: llvm.return {{.*}} : !llvm.struct<(struct<(f32, f32)>, f32)>
  tt.func private @twice(%x: tensor<256xf32, #blocked>, %s: f32) -> (tensor<256xf32, #blocked>, f32) {
    %y = arith.addf %x, %x : tensor<256xf32, #blocked>
    tt.return %y, %s : tensor<256xf32, #blocked>, f32
  }

  // The kernel has upstream's two scratch pointers, and hands them on.
  // CHECK: llvm.func @kernel(%{{.*}}: !llvm.ptr<1>, %{{.*}}: f32, %[[GS:.*]]: !llvm.ptr<1>, %[[PS:.*]]: !llvm.ptr<1>)
  // CHECK-SAME: nvvm.kernel
  // CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem
  // CHECK: %[[PACKED:.*]] = llvm.insertvalue {{.*}}[1] : !llvm.struct<(f32, f32)>
  // CHECK: %[[R:.*]] = llvm.call @twice(%[[PACKED]], %{{.*}}, %[[SMEM]], %[[GS]], %[[PS]]) : (!llvm.struct<(f32, f32)>, f32, !llvm.ptr<3>, !llvm.ptr<1>, !llvm.ptr<1>) -> !llvm.struct<(struct<(f32, f32)>, f32)>
  // CHECK: %[[T:.*]] = llvm.extractvalue %[[R]][0]
  // CHECK: llvm.extractvalue %[[R]][1]
  // CHECK: llvm.extractvalue %[[T]][0] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.extractvalue %[[T]][1] : !llvm.struct<(f32, f32)>
  // Tritium's own kernel ABI has no scratch pointers: callees get null ones.
  // NOSCRATCH: llvm.func @kernel(%{{.*}}: !llvm.ptr<1>, %{{.*}}: f32) attributes
  // NOSCRATCH: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr<1>
  // NOSCRATCH: llvm.call @twice(%{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]], %[[NULL]])
  tt.func public @kernel(%p: !tt.ptr<f32>, %s: f32) {
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %x = arith.sitofp %range : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    %y:2 = tt.call @twice(%x, %s) : (tensor<256xf32, #blocked>, f32) -> (tensor<256xf32, #blocked>, f32)
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %at = tt.addptr %ptrs, %range : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    tt.store %at, %y#0 : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A callee that needs shared memory (a reduction's scratch) gets it at the
// call's offset (allocate-shared-memory-nv allocates each function on its
// own, callees first, and gives the call a buffer of the callee's size): the
// caller's 512-byte buffer, alive across the call, stays apart.
// CHECK-LABEL: llvm.func internal @sum(
// CHECK-SAME: %[[BASE:[^:]*]]: !llvm.ptr<3>
// CHECK: llvm.getelementptr %[[BASE]]
// CHECK: llvm.func @caller(
// CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem
// CHECK-DAG: %[[C512:.*]] = llvm.mlir.constant(512 : i32) : i32
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[SMEM]][%[[C512]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.call @sum(%{{.*}}, %[[AT]], %{{.*}}, %{{.*}})
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @sum(%x: tensor<128xf32, #blocked1>) -> f32 {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<128xf32, #blocked1>) -> f32
    tt.return %s : f32
  }
  tt.func public @caller(%p: !tt.ptr<f32>) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>
    %x = arith.sitofp %range : tensor<128xi32, #blocked1> to tensor<128xf32, #blocked1>
    %buffer = ttg.local_alloc %x : (tensor<128xf32, #blocked1>) -> !ttg.memdesc<128xf32, #shared, #smem>
    %s = tt.call @sum(%x) : (tensor<128xf32, #blocked1>) -> f32
    %back = ttg.local_load %buffer : !ttg.memdesc<128xf32, #shared, #smem> -> tensor<128xf32, #blocked1>
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked1>
    %at = tt.addptr %ptrs, %range : tensor<128x!tt.ptr<f32>, #blocked1>, tensor<128xi32, #blocked1>
    tt.store %at, %back : tensor<128x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}
