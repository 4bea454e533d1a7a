// RUN: tt-opt %s -split-input-file --convert-triton-gpu-to-llvm='compute-capability=90' | FileCheck %s

// ttng.warp_group_dot_wait {pendings = 1} (the software pipeliner's: one
// group of wgmmas stays in flight into the next iteration) waits for all
// (pendings 0) where an SM holds four warpgroups of the kernel or more (CTAs
// by shared memory, threads and an estimate of registers, times warpgroups
// per CTA): the other warpgroups keep the tensor cores busy, and the overlap
// only costs power (ops/wgmma.rs, WAIT_FOR_ALL_FROM_WARPGROUPS).

// 8 warps, 96 KiB of shared memory: two CTAs per SM (64 accumulator
// registers per thread allow that too), four warpgroups.
// CHECK-LABEL: @two_ctas_of_two_warpgroups
// CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 0 : i32}
#mma8 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.shared = 98304 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_ctas_of_two_warpgroups(%acc: tensor<128x128xf32, #mma8>) {
    %0 = ttng.warp_group_dot_wait %acc {pendings = 1 : i32} : tensor<128x128xf32, #mma8>
    tt.return
  }
}

// -----

// 144 KiB of shared memory: one CTA per SM, two warpgroups: the
// pipeliner's wait stays.
// CHECK-LABEL: @one_cta_of_two_warpgroups
// CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 1 : i32}
#mma8 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.shared = 147456 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @one_cta_of_two_warpgroups(%acc: tensor<128x128xf32, #mma8>) {
    %0 = ttng.warp_group_dot_wait %acc {pendings = 1 : i32} : tensor<128x128xf32, #mma8>
    tt.return
  }
}

// -----

// 4 warps with a 128x128 accumulator (128 registers per thread): three CTAs
// by registers (and by 64 KiB of shared memory), three warpgroups: the wait
// stays (tutorial 03's 128x128 matmul ran 1.06x upstream's time waiting for
// all).
// CHECK-LABEL: @three_ctas_of_one_warpgroup
// CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 1 : i32}
#mma4 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 65536 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @three_ctas_of_one_warpgroup(%acc: tensor<128x128xf32, #mma4>) {
    %0 = ttng.warp_group_dot_wait %acc {pendings = 1 : i32} : tensor<128x128xf32, #mma4>
    tt.return
  }
}
