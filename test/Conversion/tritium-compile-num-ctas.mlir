// num_ctas > 1 from TTIR: Triton's launcher runs num_ctas CTAs per program
// as one thread-block cluster. Tritium makes the TTGIR for one CTA (single-CTA
// layouts, ttg.num-ctas = 1, tritium.ctas-per-cluster = 2), the program ids
// are the cluster's, and every CTA but the cluster's first exits at once,
// with a warning that says so. (Without a cluster launch each CTA is a
// cluster of one: the same PTX is right too.) TTGIR that splits its layouts
// over several CTAs (upstream's, num-ctas = 2) is refused.
// REQUIRES: tritium
// RUN: rm -rf %t && split-file %s %t
// RUN: tritium compile %t/copy.mlir --num-ctas 2 --emit-ttgir -o %t/two 2> %t/two.stderr
// RUN: FileCheck %s --check-prefix=WARN < %t/two.stderr
// RUN: FileCheck %s --check-prefix=TTGIR < %t/two/copy.ttgir
// RUN: FileCheck %s --check-prefix=PTX < %t/two/copy.ptx
// RUN: tritium compile %t/copy.mlir -o %t/one
// RUN: FileCheck %s --check-prefix=ONE < %t/one/copy.ptx
// RUN: not tritium compile %t/split.mlir -o %t/split 2>&1 | FileCheck %s --check-prefix=SPLIT
// WARN: warning: num_ctas=2: Tritium runs each program on the first CTA of its cluster (the others exit at once)
// TTGIR: module attributes {"tritium.ctas-per-cluster" = 2 : i32, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// TTGIR-NOT: CGALayout
// PTX: mov.u32 {{.*}}, %cluster_ctarank;
// PTX: @not_first exit;
// PTX: mov.u32 {{.*}}, %clusterid.x;
// PTX-NOT: %ctaid
// ONE-NOT: cluster
// ONE: mov.u32 {{.*}}, %ctaid.x;
// SPLIT: error: 'builtin.module': kernels over several CTAs (num-ctas > 1) are not supported yet: layouts split over a cluster's CTAs are not lowered

//--- copy.mlir
module {
  tt.func public @copy(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %c256 = arith.constant 256 : i32
    %start = arith.muli %pid, %c256 : i32
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %s = tt.splat %start : i32 -> tensor<256xi32>
    %offs = arith.addi %s, %range : tensor<256xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %v = tt.load %xa : tensor<256x!tt.ptr<f32>>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %ya, %v : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}

//--- split.mlir
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[128]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @split(%x: !tt.ptr<f32>) {
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %range : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %v = tt.load %xa : tensor<256x!tt.ptr<f32>, #blocked>
    tt.store %xa, %v : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
