// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// A 2-D mask `(rows < m) & (cols < n)` (the masked-fill shape of
// bench/large_tiles) with m and n multiples of 16: each thread holds rows
// r, r+8, r+16, r+24 and 4 consecutive columns (16 registers). The row
// compare is constant over blocks of 16 rows (two values for the four rows),
// the column compare over the 4 columns (one value), and the `and` of their
// broadcasts over 16x16 blocks: two `and`s, not sixteen. make_range adds its
// start even when it is 0, as upstream does (LLVM folds it).
// CHECK-LABEL: llvm.func @masked_tile
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-COUNT-4: llvm.add %{{.*}}, %[[ZERO]] : i32
// CHECK: %[[ROW0:.*]] = llvm.icmp "slt" %{{.*}}, %arg1 : i32
// CHECK-NEXT: %[[ROW2:.*]] = llvm.icmp "slt" %{{.*}}, %arg1 : i32
// CHECK-NEXT: %[[COL:.*]] = llvm.icmp "slt" %{{.*}}, %arg2 : i32
// CHECK-NEXT: llvm.and %[[ROW0]], %[[COL]] : i1
// CHECK-NEXT: llvm.and %[[ROW2]], %[[COL]] : i1
// CHECK-NOT: llvm.icmp
// CHECK-NOT: llvm.and %{{.*}} : i1
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @masked_tile(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi32, #blocked>
    %mb = tt.splat %m : i32 -> tensor<32x1xi32, #blocked>
    %nb = tt.splat %n : i32 -> tensor<1x16xi32, #blocked>
    %rin = arith.cmpi slt, %r, %mb : tensor<32x1xi32, #blocked>
    %cin = arith.cmpi slt, %c, %nb : tensor<1x16xi32, #blocked>
    %rin2 = tt.broadcast %rin : tensor<32x1xi1, #blocked> -> tensor<32x16xi1, #blocked>
    %cin2 = tt.broadcast %cin : tensor<1x16xi1, #blocked> -> tensor<32x16xi1, #blocked>
    %mask = arith.andi %rin2, %cin2 : tensor<32x16xi1, #blocked>
    %ns = tt.splat %n : i32 -> tensor<32x1xi32, #blocked>
    %ro = arith.muli %r, %ns : tensor<32x1xi32, #blocked>
    %ro2 = tt.broadcast %ro : tensor<32x1xi32, #blocked> -> tensor<32x16xi32, #blocked>
    %c2 = tt.broadcast %c : tensor<1x16xi32, #blocked> -> tensor<32x16xi32, #blocked>
    %off = arith.addi %ro2, %c2 : tensor<32x16xi32, #blocked>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %p, %off : tensor<32x16x!tt.ptr<f32>, #blocked>, tensor<32x16xi32, #blocked>
    %zero = arith.constant dense<0.0> : tensor<32x16xf32, #blocked>
    tt.store %a, %zero, %mask : tensor<32x16x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Shared-memory addresses are byte offsets (an i8 GEP), as upstream's
// lowerLdSt computes them: each thread-id term is shifted straight to its
// byte position, ((tid & 127) << 4) ^ ((tid & 24) << 1) for this 64-byte
// swizzled f16 tile, rather than an element offset scaled by the GEP at
// the end. As element offsets the terms (tid << 3, tid & 24) were shared
// with the kernel's element coordinates and LLVM kept them live across the
// main loop (matmul_naive_f16: 71 registers against upstream's 64).
// CHECK-LABEL: llvm.func @store_tile
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-DAG: %[[C127:.*]] = llvm.mlir.constant(127 : i32) : i32
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[C24:.*]] = llvm.mlir.constant(24 : i32) : i32
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[LOW:.*]] = llvm.and %[[TID]], %[[C127]] : i32
// CHECK-NEXT: %[[ROWS:.*]] = llvm.shl %[[LOW]], %[[C4]] : i32
// CHECK-NEXT: %[[MID:.*]] = llvm.and %[[TID]], %[[C24]] : i32
// CHECK-NEXT: %[[SWIZZLE:.*]] = llvm.shl %[[MID]], %[[C1]] : i32
// CHECK-NEXT: %[[BYTES:.*]] = llvm.xor %[[ROWS]], %[[SWIZZLE]] : i32
// CHECK-NEXT: %[[ADDRESS:.*]] = llvm.getelementptr %{{.*}}[%[[BYTES]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %{{.*}}, %[[ADDRESS]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @store_tile(%x: tensor<64x32xf16, #blocked>) {
    %buffer = ttg.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    tt.return
  }
}
