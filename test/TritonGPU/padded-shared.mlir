// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Round trips of #ttg.padded_shared, parsed, verified and printed as upstream
// does: an identity element order prints as `order`/`shape`, any other as
// its `offset`/`block` bases.

// CHECK-DAG: #[[$P1:shared[0-9]*]] = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [256, 128]}>
// CHECK-DAG: #[[$P2:shared[0-9]*]] = #ttg.padded_shared<[64:+2, 128:+4, 256:+8] {order = [1, 0], shape = [16, 256]}>
// CHECK-DAG: #[[$P3:shared[0-9]*]] = #ttg.padded_shared<[4:+4] {order = [1, 2, 0], shape = [1, 2, 4]}>
// CHECK-DAG: #[[$P4:shared[0-9]*]] = #ttg.padded_shared<[2:+1, 4:+2] {order = [0, 1], shape = [4, 2]}>
// CHECK-DAG: #[[$P5:shared[0-9]*]] = #ttg.padded_shared<[256:+8] {offset = {{\[\[}}0, 1], [1, 0]], block = {{\[\[}}2, 0]]}>
// CHECK-DAG: #[[$P6:shared[0-9]*]] = #ttg.padded_shared<[8:+2] {offset = {{\[\[}}2, 0], [1, 0], [0, 1]], block = []}>

#p1 = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [256, 128]}>
#p2 = #ttg.padded_shared<[64:+2, 128:+4, 256:+8] {order = [1, 0], shape = [16, 256]}>
#p3 = #ttg.padded_shared<[4:+4] {shape=[1, 2, 4], order=[1, 0, 2]}>
#p4 = #ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [2, 0], [0, 1]], block = []}>
#p5 = #ttg.padded_shared<[256:+8] {offset = [[0, 1], [1, 0]], block = [[2, 0]]}>
#p6 = #ttg.padded_shared<[8:+2] {offset = [[2, 0], [1, 0], [0, 1]], block = []}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32} {
// CHECK-LABEL: tt.func @padded
// CHECK-SAME: !ttg.memdesc<256x128xf16, #[[$P1]], #smem>, %{{.*}}: !ttg.memdesc<2x16x256xf16, #[[$P2]], #smem>, %{{.*}}: !ttg.memdesc<1x2x4xf16, #[[$P3]], #smem>
// CHECK-SAME: !ttg.memdesc<4x2xf16, #[[$P4]], #smem>, %{{.*}}: !ttg.memdesc<4x2xf16, #[[$P5]], #smem>, %{{.*}}: !ttg.memdesc<4x2xf16, #[[$P6]], #smem>
tt.func @padded(%a: !ttg.memdesc<256x128xf16, #p1, #smem>, %b: !ttg.memdesc<2x16x256xf16, #p2, #smem>, %c: !ttg.memdesc<1x2x4xf16, #p3, #smem>,
                %d: !ttg.memdesc<4x2xf16, #p4, #smem>, %e: !ttg.memdesc<4x2xf16, #p5, #smem>, %f: !ttg.memdesc<4x2xf16, #p6, #smem>) {
  tt.return
}
}
