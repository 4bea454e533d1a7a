// RUN: tt-opt %s -split-input-file | tt-opt -split-input-file | FileCheck %s
// nvws ops print as upstream's do and parse back. nvws.warp_group's custom form
// writes no result types (upstream's form); the parser takes them from what the
// first region yields, so a printed warp group with results reads back.

module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @warp_group_with_results
  // CHECK:      [[R:%.*]]:2 = nvws.warp_group
  // CHECK-NEXT: partition0 num_warps(4) {
  // CHECK:        nvws.warp_group.yield {{.*}} : i32, f32
  // CHECK:      partition1 num_warps(2) {
  // CHECK:        nvws.warp_group.return
  // CHECK:      tt.return [[R]]#0, [[R]]#1 : i32, f32
  tt.func @warp_group_with_results(%n: i32, %x: f32) -> (i32, f32) {
    %r:2 = "nvws.warp_group"() ({
      %v = arith.addi %n, %n : i32
      nvws.warp_group.yield %v, %x : i32, f32
    }, {
      nvws.warp_group.return
    }) {numWarps = array<i32: 4, 2>} : () -> (i32, f32)
    tt.return %r#0, %r#1 : i32, f32
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @warp_group_without_results
  // CHECK:      nvws.warp_group
  // CHECK-NEXT: partition0 num_warps(4) {
  // CHECK-NEXT:   nvws.warp_group.return
  tt.func @warp_group_without_results() {
    nvws.warp_group
    partition0 num_warps(4) {
      nvws.warp_group.return
    }
    tt.return
  }
}
