// RUN: tt-opt %s -test-print-alias -verify-diagnostics -o /dev/null

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared_t = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:90"} {

// Views of views keep their buffer; a while loop carries either buffer.
tt.func @views_and_while(%n : i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{%0 -> %0}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<2x8x8xf16, #shared, #smem, mutable>
  // expected-remark @below {{%1 -> %1}}
  %b = ttg.local_alloc : () -> !ttg.memdesc<2x8x8xf16, #shared, #smem, mutable>
  // expected-remark @below {{%2 -> %0}}
  %slot = ttg.memdesc_index %a[%c0] : !ttg.memdesc<2x8x8xf16, #shared, #smem, mutable> -> !ttg.memdesc<8x8xf16, #shared, #smem, mutable>
  // expected-remark @below {{%3 -> %0}}
  %t = ttg.memdesc_trans %slot {order = array<i32: 1, 0>} : !ttg.memdesc<8x8xf16, #shared, #smem, mutable> -> !ttg.memdesc<8x8xf16, #shared_t, #smem, mutable>
  // expected-remark @below {{%4#0 -> %0,%1}}
  %w:2 = scf.while (%x = %a, %i = %c0) : (!ttg.memdesc<2x8x8xf16, #shared, #smem, mutable>, i32) -> (!ttg.memdesc<2x8x8xf16, #shared, #smem, mutable>, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %x, %i : !ttg.memdesc<2x8x8xf16, #shared, #smem, mutable>, i32
  } do {
  ^bb0(%y: !ttg.memdesc<2x8x8xf16, #shared, #smem, mutable>, %j: i32):
    %k = arith.addi %j, %c1 : i32
    scf.yield %b, %k : !ttg.memdesc<2x8x8xf16, #shared, #smem, mutable>, i32
  }
  tt.return
}

// Partitions of a warp_specialize alias the buffers they capture; a buffer
// passed to a block aliases there (named at the branch that ends the block).
tt.func @captures_and_blocks(%c : i1) {
  // expected-remark @below {{%0 -> %0}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<8x8xf16, #shared, #smem, mutable>
  ttg.warp_specialize(%a)
  default {
    ttg.warp_yield
  }
  partition0(%p: !ttg.memdesc<8x8xf16, #shared, #smem, mutable>) num_warps(4) {
    %c0 = arith.constant 0 : i32
    // Nested regions are numbered after their parent's blocks (^bb1's argument is %1).
    // expected-remark @below {{%2 -> %0}}
    %v = ttg.memdesc_subslice %p [0, 0] : !ttg.memdesc<8x8xf16, #shared, #smem, mutable> -> !ttg.memdesc<4x8xf16, #shared, #smem, mutable>
    ttg.warp_return
  } : (!ttg.memdesc<8x8xf16, #shared, #smem, mutable>) -> ()
  cf.cond_br %c, ^bb1(%a : !ttg.memdesc<8x8xf16, #shared, #smem, mutable>), ^bb2
^bb1(%x: !ttg.memdesc<8x8xf16, #shared, #smem, mutable>):
  // expected-remark @below {{%1 -> %0}}
  cf.br ^bb2
^bb2:
  tt.return
}
}
