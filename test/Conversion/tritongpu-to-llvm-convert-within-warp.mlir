// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --convert-triton-gpu-to-llvm | FileCheck %s

// Layout conversions that keep data within warps and need at most one
// exchange of a register bit with a lane bit go through warp shuffles, as
// upstream's: no shared memory is allocated for them, and none is touched.

// One register bit (rows 8-15) exchanged with lane bit 0 (odd columns),
// lanes otherwise in place: each lane ships half of each register pair to
// its neighbour. Two f16 rows 0/1 share a register (register bit 0 stays).
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @exchange_one_bit
// CHECK-NOT: llvm.store
// CHECK: %[[LOW:.+]] = llvm.bitcast %{{.+}} : vector<2xi16> to i32
// CHECK: %[[HIGH:.+]] = llvm.bitcast %{{.+}} : vector<2xi16> to i32
// CHECK: %[[BIT:.+]] = llvm.and %{{.+}}, %{{.+}} : i32
// CHECK: %[[CLEAR:.+]] = llvm.icmp "eq" %[[BIT]]
// CHECK: %[[OUT:.+]] = llvm.select %[[CLEAR]], %[[HIGH]], %[[LOW]]
// CHECK: %[[IN:.+]] = nvvm.shfl.sync bfly %{{.+}}, %[[OUT]]
// CHECK: llvm.select %[[CLEAR]], %[[LOW]], %[[IN]]
// CHECK: llvm.select %[[CLEAR]], %[[IN]], %[[HIGH]]
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.load
// CHECK: llvm.return
#src = #ttg.linear<{register = [[1, 0], [8, 0]], lane = [[0, 1], [0, 2], [0, 4], [2, 0], [4, 0]], warp = [[0, 8], [0, 16]], block = []}>
#dst = #ttg.linear<{register = [[1, 0], [0, 1]], lane = [[8, 0], [0, 2], [0, 4], [2, 0], [4, 0]], warp = [[0, 8], [0, 16]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @exchange_one_bit(%x: tensor<16x32xf16, #src>, %out: tensor<16x32x!tt.ptr<f16>, #dst>) {
    %y = ttg.convert_layout %x : tensor<16x32xf16, #src> -> tensor<16x32xf16, #dst>
    tt.store %out, %y : tensor<16x32x!tt.ptr<f16>, #dst>
    tt.return
  }
}

// -----

// Lane bits permuted (rows and columns trade places among the lanes): one
// indexed shuffle per register, from the lane the inverse permutation names.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @permute_lanes
// CHECK-COUNT-2: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
#src = #ttg.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2], [0, 4], [2, 0], [4, 0]], warp = [], block = []}>
#dst = #ttg.linear<{register = [[1, 0]], lane = [[2, 0], [0, 1], [0, 2], [0, 4], [4, 0]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @permute_lanes(%x: tensor<8x8xi32, #src>, %out: tensor<8x8x!tt.ptr<i32>, #dst>) {
    %y = ttg.convert_layout %x : tensor<8x8xi32, #src> -> tensor<8x8xi32, #dst>
    tt.store %out, %y : tensor<8x8x!tt.ptr<i32>, #dst>
    tt.return
  }
}

// -----

// Two register/lane exchanges are more than upstream does with shuffles:
// the conversion goes through shared memory (a warp barrier between):
// 16-byte stores, ldmatrix reads, as upstream's PTX has them.
// CHECK: ttg.shared = 512 : i32
// CHECK-LABEL: llvm.func @two_exchanges
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.ldmatrix
#src = #ttg.linear<{register = [[1, 0], [2, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0]], warp = [], block = []}>
#dst = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [0, 4], [0, 8], [4, 0]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_exchanges(%x: tensor<8x16xf32, #src>, %out: tensor<8x16x!tt.ptr<f32>, #dst>) {
    %y = ttg.convert_layout %x : tensor<8x16xf32, #src> -> tensor<8x16xf32, #dst>
    tt.store %out, %y : tensor<8x16x!tt.ptr<f32>, #dst>
    tt.return
  }
}
