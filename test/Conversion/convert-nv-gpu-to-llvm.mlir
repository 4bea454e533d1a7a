// RUN: tt-opt %s --convert-nv-gpu-to-llvm -allow-unregistered-dialect -split-input-file -verify-diagnostics | FileCheck %s

// Warp ids: relative to the partition's first thread, uniform by a shuffle;
// constants at the top of the function or partition, made once.
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: @ids
// CHECK-DAG: %[[W32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WARP:.*]] = llvm.udiv %[[TID]], %[[W32]] : i32
// CHECK: %[[UNIFORM:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: "use"(%[[UNIFORM]])
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: "use"(%[[RANK]])
// CHECK: partition0() num_warps(2)
// CHECK: llvm.mlir.constant(32 : i32)
// CHECK-NEXT: llvm.mlir.constant(256 : i32)
// CHECK: %[[PTID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[REL:.*]] = llvm.sub %[[PTID]], %{{.*}}
// CHECK: llvm.udiv %[[REL]]
// CHECK: nvvm.shfl.sync idx
// CHECK: partition1() num_warps(1)
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-NEXT: "use"(%[[ZERO]])
llvm.func @ids() {
  %0 = nvg.warp_id
  "use"(%0) : (i32) -> ()
  %1 = nvg.cluster_id
  "use"(%1) : (i32) -> ()
  ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 8, 10>}
  default {
    ttg.warp_yield
  }
  partition0() num_warps(2) {
    %2 = nvg.warp_id
    "use"(%2) : (i32) -> ()
    ttg.warp_return
  }
  partition1() num_warps(1) {
    %3 = nvg.warp_id
    "use"(%3) : (i32) -> ()
    ttg.warp_return
  } : () -> ()
  llvm.return
}
}

// -----

!acc = !llvm.struct<(f32, f32, f32, f32)>
!a_regs = !llvm.struct<(i32, i32, i32, i32)>

// wgmma: the accumulator tied to the results, A from shared memory (with
// transpose flags for f16) or from registers; the wait passes every
// register through the asm.
// CHECK-LABEL: @mma
// CHECK: "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0,$1,$2,$3}, $8, $9, $10, 1, 1, 1, 0;", "=f,=f,=f,=f,0,1,2,3,l,l,b"
// CHECK: "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1,$2,$3}, {$4,$5,$6,$7}, $8, 0, 1, 1, 0;", "=f,=f,=f,=f,r,r,r,r,l"
// CHECK: "// wait for regs: $0,$1,$2,$3\0A\09wgmma.wait_group.sync.aligned 1;", "=f,=f,=f,=f,0,1,2,3"
llvm.func @mma(%desc: i64, %a: !a_regs, %acc: !acc, %use: i1) -> !acc {
  %0 = nvg.wgmma %desc, %desc, %use, %acc {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 1 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1, !acc) -> !acc
  %1 = nvg.wgmma %a, %desc, %use {eltTypeA = 5 : i32, eltTypeB = 5 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (!a_regs, i64, i1) -> !acc
  %2 = nvg.wgmma_wait_group %1 {pendings = 1 : i32} : !acc
  llvm.return %2 : !acc
}

// -----

// A wait on one register: the asm returns that register (LLVM has no
// inline asm of one output returning a struct), put back into the struct.
// CHECK-LABEL: @wait_one
// CHECK: %[[R:.*]] = llvm.inline_asm has_side_effects {{.*}}"// wait for regs: $0\0A\09wgmma.wait_group.sync.aligned 0;", "=f,0" %{{.*}} : (f32) -> f32
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(f32)>
// CHECK: llvm.insertvalue %[[R]], %[[U]][0] : !llvm.struct<(f32)>
llvm.func @wait_one(%acc: !llvm.struct<(f32)>) -> !llvm.struct<(f32)> {
  %0 = nvg.wgmma_wait_group %acc {pendings = 0 : i32} : !llvm.struct<(f32)>
  llvm.return %0 : !llvm.struct<(f32)>
}

// -----

// CHECK-LABEL: @acquire
// CHECK: "mov.u32 $0, 0x0;\0A\09@$2 ld.global.gpu.acquire.b32 $0, [ $1 + 0 ];", "=r,l,b"
// CHECK: llvm.bitcast %{{.*}} : i32 to f32
llvm.func @acquire(%p: !llvm.ptr<1>, %mask: i1) -> f32 {
  %0 = nvg.ld_acquire acquire, gpu, %p, %mask : (!llvm.ptr<1>) -> f32
  llvm.return %0 : f32
}

// -----

// Shapes wgmma does not have, and Blackwell's tensor memory, are errors.
llvm.func @bad(%desc: i64) {
  %false = llvm.mlir.constant(false) : i1
  // expected-error @+1 {{has no wgmma form: m64n8k32 f32 += f16 * f16}}
  %0 = nvg.wgmma %desc, %desc, %false {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 32 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
  llvm.return
}

// -----

llvm.func @tmem() {
  // expected-error @+1 {{needs Blackwell's tensor memory}}
  %0 = nvg.tensor_memory_base
  llvm.return
}

// -----

// An accumulator packed by a chain of insertvalues that sets every field
// (as the lowering packs one) reaches the asm as the inserted values, and
// the chain is erased; a chain with another use stays.
!acc4 = !llvm.struct<(f32, f32, f32, f32)>
// CHECK-LABEL: @packed_accumulator
// CHECK-SAME: (%[[DESC:.*]]: i64, %[[USE:.*]]: i1, %[[X0:.*]]: f32, %[[X1:.*]]: f32, %[[X2:.*]]: f32, %[[X3:.*]]: f32)
// CHECK-NOT: llvm.insertvalue
// CHECK: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0,$1,$2,$3}
// CHECK-SAME: "=f,=f,=f,=f,0,1,2,3,l,l,b" %[[X0]], %[[X1]], %[[X2]], %[[X3]], %[[DESC]], %[[DESC]], %[[USE]]
// CHECK: llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK-NEXT: %[[KEPT:.*]] = llvm.insertvalue %[[X1]], %{{.*}}[1]
// CHECK-NEXT: llvm.inline_asm {{.*}}wgmma.mma_async{{.*}} %[[X0]], %[[X1]], %[[X2]], %[[X3]],
// CHECK-NEXT: "use"(%[[KEPT]])
llvm.func @packed_accumulator(%desc: i64, %use: i1, %x0: f32, %x1: f32, %x2: f32, %x3: f32) {
  %u = llvm.mlir.undef : !acc4
  %a0 = llvm.insertvalue %x0, %u[0] : !acc4
  %a1 = llvm.insertvalue %x1, %a0[1] : !acc4
  %a2 = llvm.insertvalue %x2, %a1[2] : !acc4
  %a3 = llvm.insertvalue %x3, %a2[3] : !acc4
  %0 = nvg.wgmma %desc, %desc, %use, %a3 {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1, !acc4) -> !acc4
  %b0 = llvm.insertvalue %x0, %u[0] : !acc4
  %b1 = llvm.insertvalue %x1, %b0[1] : !acc4
  %b2 = llvm.insertvalue %x2, %b1[2] : !acc4
  %b3 = llvm.insertvalue %x3, %b2[3] : !acc4
  %1 = nvg.wgmma %desc, %desc, %use, %b3 {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1, !acc4) -> !acc4
  "use"(%b1) : (!acc4) -> ()
  llvm.return
}
