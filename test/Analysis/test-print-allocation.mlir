// RUN: tt-opt %s -split-input-file -test-print-allocation -verify-diagnostics -o /dev/null
// RUN: tt-opt %s -split-input-file -test-print-allocation=get-scratch-size-function=ValidConstant 2>&1 | FileCheck %s --check-prefix=CONSTANT

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:90"} {

// Two buffers alive together sit side by side; a third, allocated after
// the first one's last use, takes its place. A reduction across warps has
// scratch of its own.
// With 128 bytes of scratch for every op (upstream's test hook):
// CONSTANT-LABEL: reuse
// CONSTANT: scratch offset = {{[0-9]+}}, size = 128
// expected-remark @below {{reuse}}
// expected-remark @below {{size = 8192}}
tt.func @reuse(%x: tensor<32x32xf32, #blocked>) {
  // expected-remark @below {{offset = 0, size = 4096}}
  %a = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
  // expected-remark @below {{offset = 4096, size = 4096}}
  %b = ttg.local_alloc %x : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
  %va = ttg.local_load %a : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #blocked>
  // expected-remark @below {{offset = 0, size = 4096}}
  %c = ttg.local_alloc %va : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
  %vb = ttg.local_load %b : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #blocked>
  %vc = ttg.local_load %c : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #blocked>
  // expected-remark @below {{scratch offset = 0, size = 512}}
  %r = "tt.reduce"(%vc) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %m: f32):
    %s = arith.addf %l, %m : f32
    tt.reduce.return %s : f32
  }) : (tensor<32x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  tt.return
}
}
