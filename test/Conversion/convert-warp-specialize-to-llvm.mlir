// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect --convert-warp-specialize-to-llvm -canonicalize --verify-diagnostics | FileCheck %s

// The shape of upstream's Hopper matmul: 4 producer warps (the default
// region), two consumer warp groups; registers moved with setmaxnreg.
// ttg.maxnreg 168 (64K registers over 12 warps): 4 x 40 + 8 x 232 while
// specialized, 4 x 256 + 8 x 120 outside.

module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 12 : i32, ttg.maxnreg = 168 : i32} {
llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

// CHECK-LABEL: llvm.func @hopper_matmul(
// CHECK-SAME: [[A:%[a-z0-9]+]]: !llvm.ptr<1>, [[N:%[a-z0-9]+]]: i32)
// CHECK-DAG: [[C0:%.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG: [[C2:%.*]] = llvm.mlir.constant(2 : i32)
// CHECK-DAG: [[C3:%.*]] = llvm.mlir.constant(3 : i32)
// CHECK-DAG: [[C128:%.*]] = llvm.mlir.constant(128 : i32)
// Every warp reads its (uniform) warp id; the first four run the kernel.
// CHECK: [[TID:%.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: [[WID:%.*]] = llvm.udiv [[TID]]
// CHECK: [[UNIFORM:%.*]] = nvvm.shfl.sync idx {{.*}}, [[WID]]
// CHECK: [[IS_DEFAULT:%.*]] = llvm.icmp "ult" [[UNIFORM]]
// CHECK: llvm.cond_br [[IS_DEFAULT]], [[ENTRY:\^bb[0-9]+]], [[LOOP:\^bb[0-9]+]]
// The other warps give registers back and wait for work.
// CHECK: [[LOOP]]:
// CHECK-NEXT: nvvm.setmaxregister decrease 120
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK: [[STATE:%.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> i8
// CHECK: llvm.switch [[STATE]] : i8, [[IDLE:\^bb[0-9]+]] [
// CHECK-NEXT: 0: [[P0:\^bb[0-9]+]],
// CHECK-NEXT: 1: [[P1:\^bb[0-9]+]],
// CHECK-NEXT: 2: [[EXIT:\^bb[0-9]+]]
// CHECK: [[IDLE]]:
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: llvm.br [[LOOP]] {loop_annotation = #{{.*}}}
// CHECK: [[EXIT]]:
// CHECK-NEXT: llvm.return
// Consumer 0: its budget, its captures (the kernel arguments are used
// directly, the produced value comes through shared memory), its own
// named barrier over its 128 threads.
// CHECK: [[P0]]:
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK: [[CAPTURE:%.*]] = llvm.load {{.*}} {alignment = 1 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: "consume"([[A]], [[CAPTURE]], [[N]])
// CHECK-NEXT: nvvm.barrier id = [[C2]] number_of_threads = [[C128]]
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: nvvm.setmaxregister decrease 120
// CHECK-NEXT: llvm.br [[LOOP]]
// CHECK: [[P1]]:
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK: nvvm.barrier id = [[C3]] number_of_threads = [[C128]]
// The default warps: the full budget first, then their own share.
// CHECK: [[ENTRY]]:
// CHECK-NEXT: nvvm.setmaxregister increase 256
// CHECK: [[PRODUCED:%.*]] = "produce"()
// Warps 4-7 run partition 0, 8-11 partition 1.
// CHECK-COUNT-8: llvm.store {{.*}} : i8, !llvm.ptr<3>
// CHECK: llvm.store [[PRODUCED]], {{.*}} {alignment = 1 : i64} : i32, !llvm.ptr<3>
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK: "load"()
// CHECK-NEXT: nvvm.barrier id = [[C0]] number_of_threads = [[C128]]
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: nvvm.setmaxregister increase 256
// CHECK: "after"
// At the return, every worker warp is sent to the exit.
// CHECK-COUNT-8: llvm.store {{.*}} : i8, !llvm.ptr<3>
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: llvm.return
llvm.func @hopper_matmul(%a: !llvm.ptr<1>, %n: i32) attributes {allocation.offset = 0 : i32} {
  %produced = "produce"() : () -> i32
  ttg.warp_specialize(%a, %produced, %n) attributes {allocation.offset = 16 : i32, warpGroupStartIds = array<i32: 4, 8>, requestedRegisters = array<i32: 232, 232>, actualRegisters = array<i32: 40, 232, 232>}
  default {
    "load"() : () -> ()
    nvvm.barrier0
    ttg.warp_yield
  }
  partition0(%pa: !llvm.ptr<1>, %pl: i32, %pn: i32) num_warps(4) {
    "consume"(%pa, %pl, %pn) : (!llvm.ptr<1>, i32, i32) -> ()
    nvvm.barrier0
    ttg.warp_return
  }
  partition1(%pa: !llvm.ptr<1>, %pl: i32, %pn: i32) num_warps(4) {
    "consume"(%pa, %pl, %pn) : (!llvm.ptr<1>, i32, i32) -> ()
    nvvm.barrier0
    ttg.warp_return
  } : (!llvm.ptr<1>, i32, i32) -> ()
  "after"() : () -> ()
  llvm.return
}
}

// -----

// Values flow out of the default region as the op's results; a one-warp
// partition syncs with bar.warp.sync.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 5 : i32} {
llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @results
// CHECK: nvvm.bar.warp.sync
// CHECK: [[V:%.*]] = "value"()
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: llvm.br [[AFTER:\^bb[0-9]+]]([[V]] : f32)
// CHECK: [[AFTER]]([[R:%.*]]: f32):
// CHECK-NEXT: "use"([[R]])
llvm.func @results() attributes {allocation.offset = 0 : i32} {
  %r = ttg.warp_specialize() attributes {allocation.offset = 0 : i32, warpGroupStartIds = array<i32: 4>}
  default {
    %v = "value"() : () -> f32
    ttg.warp_yield %v : f32
  }
  partition0() num_warps(1) {
    nvvm.barrier0
    ttg.warp_return
  } : () -> f32
  "use"(%r) : (f32) -> ()
  llvm.return
}
}

// -----

// Without the attributes of tritongpu-allocate-warp-groups: an error, not a guess.
// expected-error @below {{module missing 'ttg.total-num-warps' attribute}}
module attributes {"ttg.num-warps" = 4 : i32} {
llvm.func @no_total() {
  ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}
  default {
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    ttg.warp_return
  } : () -> ()
  llvm.return
}
}
