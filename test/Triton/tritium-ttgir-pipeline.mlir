// RUN: tt-opt %s --tritium-ttgir-pipeline='target=cuda:90 num-warps=8' | FileCheck %s
// RUN: not tt-opt %s --tritium-ttgir-pipeline='target=gfx942' 2>&1 | FileCheck %s --check-prefix=BAD

// The whole TTIR -> TTGIR pipeline: the module gets the launch attributes,
// and coalescing gives each thread 4 consecutive f32 (16 bytes) of the
// 16-byte aligned, contiguous accesses, over 8 warps.
// CHECK: #[[BLOCKED:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[BLOCKED]]>
// CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[BLOCKED]]>
// BAD: error: unknown target 'gfx942' (expected cuda:80, cuda:90, ...)
module {
  tt.func public @add(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %starts = tt.splat %start : i32 -> tensor<1024xi32>
    %offsets = arith.addi %starts, %range : tensor<1024xi32>
    %limit = tt.splat %n : i32 -> tensor<1024xi32>
    %mask = arith.cmpi slt, %offsets, %limit : tensor<1024xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %offsets : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %a = tt.load %xp, %mask : tensor<1024x!tt.ptr<f32>>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %offsets : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %b = tt.load %yp, %mask : tensor<1024x!tt.ptr<f32>>
    %sum = arith.addf %a, %b : tensor<1024xf32>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %op = tt.addptr %os, %offsets : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %op, %sum, %mask : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}
