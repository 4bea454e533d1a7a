// RUN: tt-opt %s --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s
// RUN: tt-opt %s --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm='scratch-parameters=false' | FileCheck %s --check-prefix=NOSCRATCH

// Global loads and stores: 4 contiguous, 16-byte aligned f32 per thread (the
// axis info proves it: tt.divisibility on the pointers and on n) become one
// predicated v4 access each; the kernel takes upstream's two trailing scratch
// pointers unless asked not to, and runs 128 threads.
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.func @add(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: i32, %arg3: !llvm.ptr<1>, %arg4: !llvm.ptr<1>) attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 128>}
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: llvm.icmp "slt"
// CHECK: mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];
// CHECK-COUNT-4: llvm.fadd
// CHECK: @$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };
// CHECK-NOT: ld.global
// CHECK: llvm.return
// NOSCRATCH: llvm.func @add(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: i32) attributes
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @add(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %c512 = arith.constant 512 : i32
    %start = arith.muli %pid, %c512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<512xi32, #blocked>
    %offs = arith.addi %s, %range : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %xa, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<512xf32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ya = tt.addptr %yp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %ya, %w, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
