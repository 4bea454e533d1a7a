// RUN: tt-opt %s --allocate-shared-memory-nv --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// `tl.range(..., disable_licm=True)` and `tl.condition(..., disable_licm=True)`
// annotate the loop; the annotation ends on the back edge's llvm.br as its own
// loop_annotation (LLVM's !llvm.loop metadata with llvm.licm.disable), not
// as a discardable attribute LLVM translation ignores. A loop without it
// gets none.
// CHECK: #[[$ANNOTATION:.*]] = #llvm.loop_annotation<licm = #{{.*}}>
// CHECK-LABEL: llvm.func @for_no_licm
// CHECK: llvm.br ^{{.*}}(%{{.*}} : i32) {loop_annotation = #[[$ANNOTATION]]}
// CHECK-LABEL: llvm.func @while_no_licm
// CHECK: llvm.br ^{{.*}}(%{{.*}} : i32) {loop_annotation = #[[$ANNOTATION]]}
// CHECK-LABEL: llvm.func @for_default
// CHECK-NOT: loop_annotation
// CHECK: llvm.return
#loop_licm = #llvm.loop_licm<disable = true, versioningDisable = true>
#loop_annotation = #llvm.loop_annotation<licm = #loop_licm>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @for_no_licm(%x: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    scf.for %i = %c0_i32 to %n step %c1_i32  : i32 {
      %p = tt.addptr %x, %i : !tt.ptr<i32>, i32
      tt.store %p, %i : !tt.ptr<i32>
    } {llvm.loop_annotation = #loop_annotation}
    tt.return
  }
  tt.func public @while_no_licm(%x: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %r = scf.while (%i = %c0_i32) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %n : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i: i32):
      %j = arith.addi %i, %c1_i32 : i32
      %p = tt.addptr %x, %j : !tt.ptr<i32>, i32
      tt.store %p, %j : !tt.ptr<i32>
      scf.yield %j : i32
    } attributes {llvm.loop_annotation = #loop_annotation}
    tt.return
  }
  tt.func public @for_default(%x: !tt.ptr<i32>, %n: i32) {
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    scf.for %i = %c0_i32 to %n step %c1_i32  : i32 {
      %p = tt.addptr %x, %i : !tt.ptr<i32>, i32
      tt.store %p, %i : !tt.ptr<i32>
    }
    tt.return
  }
}
