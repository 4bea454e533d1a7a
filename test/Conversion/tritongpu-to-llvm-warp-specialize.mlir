// RUN: tt-opt %s --tritongpu-allocate-warp-groups --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm='scratch-parameters=false' | FileCheck %s --check-prefix=LLVM
// RUN: tt-opt %s --tritongpu-allocate-warp-groups --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm='scratch-parameters=false' --convert-warp-specialize-to-llvm --canonicalize | FileCheck %s

// A ttg.warp_specialize from TTGIR to the LLVM dialect. The kernel's 4 warps
// run the default region; one partition of 4 warps (warps 4-7) stores a
// 128-element range through a captured pointer, with thread ids relative to
// its first warp (tid.x - 128), and syncs on its own named barrier.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @store_in_partition(%out: !tt.ptr<i32>, %flag: !tt.ptr<i32>, %n: i32) {
    %pid = tt.get_program_id x : i32
    %base = tt.addptr %out, %pid : !tt.ptr<i32>, i32
    ttg.warp_specialize(%base, %n) attributes {requestedRegisters = array<i32: 128>}
    default {
      tt.store %flag, %n : !tt.ptr<i32>
      gpu.barrier
      ttg.warp_yield
    }
    partition0(%p: !tt.ptr<i32>, %m: i32) num_warps(4) {
      %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
      %ptrs = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked>
      %at = tt.addptr %ptrs, %range : tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
      %values = tt.splat %m : i32 -> tensor<128xi32, #blocked>
      gpu.barrier
      tt.store %at, %values : tensor<128x!tt.ptr<i32>, #blocked>
      ttg.warp_return
    } : (!tt.ptr<i32>, i32) -> ()
    tt.return
  }
}

// The lowering keeps the op, on the registers of its captures; the
// partition computes its own thread id and shared-memory base, with the
// partition's warps for layouts.
// LLVM: llvm.func @store_in_partition({{.*}}) attributes {allocation.offset = {{[0-9]+}} : i32, nvvm.kernel = 1 : ui1, nvvm.maxnreg = 256 : i32, nvvm.reqntid = array<i32: 256>}
// Thread ids are masked to the warps that run the code (upstream's
// getThreadId): the kernel launches 256 threads, its body (and default
// region) runs on the first 128, and ptxas needs the mask to see it (one
// thread per warp group, e.g. for mbarrier inits).
// LLVM: %[[KTID:.*]] = nvvm.read.ptx.sreg.tid.x
// LLVM-NEXT: %[[K127:.*]] = llvm.mlir.constant(127 : i32)
// LLVM-NEXT: %[[KMASKED:.*]] = llvm.and %[[KTID]], %[[K127]] : i32
// LLVM: %[[FIRST:.*]] = llvm.icmp "eq" %[[KMASKED]], %{{.*}} : i32
// 64K registers over 8 warps: 256 each; the partition asks for 128, which
// would leave the default warps 384 (setmaxnreg caps it at 256, as upstream).
// LLVM: ttg.warp_specialize(%{{.*}}, %{{.*}}) attributes {actualRegisters = array<i32: 384, 128>, allocation.offset = {{[0-9]+}} : i32, requestedRegisters = array<i32: 128>, warpGroupStartIds = array<i32: 4>}
// LLVM: default {
// LLVM: nvvm.barrier0
// LLVM: ttg.warp_yield
// LLVM: partition0(%[[P:.*]]: !llvm.ptr<1>, %[[M:.*]]: i32) num_warps(4) {
// LLVM: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// LLVM: %[[REL:.*]] = llvm.sub %[[TID]], %{{.*}} : i32
// LLVM: llvm.and %[[REL]], %{{.*}} : i32
// LLVM: nvvm.barrier0
// LLVM: st.global
// LLVM: ttg.warp_return
// LLVM: } : (!llvm.ptr<1>, i32) -> ()

// Then the dispatch: warps 4-7 reach partition 0 through the switch loop;
// its barrier becomes bar.sync 2, 128 and the default region's bar.sync 0, 128.
// CHECK-LABEL: llvm.func @store_in_partition
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32)
// CHECK-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : i32)
// CHECK: llvm.cond_br %{{.*}}, ^[[ENTRY:bb[0-9]+]], ^[[LOOP:bb[0-9]+]]
// CHECK: ^[[LOOP]]:
// CHECK-NEXT: nvvm.setmaxregister increase 256
// CHECK: llvm.switch
// CHECK-NEXT: 0: ^[[PARTITION:bb[0-9]+]],
// CHECK-NEXT: 1: ^[[EXIT:bb[0-9]+]]
// CHECK: ^[[PARTITION]]:
// CHECK-NEXT: nvvm.setmaxregister decrease 128
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// The captured pointer (a kernel argument plus the program id: pure) is
// recomputed in the partition rather than passed through shared memory.
// CHECK-NEXT: %[[PID:.*]] = nvvm.read.ptx.sreg.ctaid.x
// CHECK-NEXT: %[[BASE:.*]] = llvm.getelementptr %arg0[%[[PID]]]
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: %[[REL:.*]] = llvm.sub %[[TID]], %[[C128]]
// CHECK: nvvm.barrier id = %[[C2]] number_of_threads = %[[C128]]
// CHECK-NEXT: st.global
// CHECK-NEXT: "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: nvvm.setmaxregister increase 256
// CHECK-NEXT: llvm.br ^[[LOOP]]
// The default warps publish the workers' states (warps 4-7: partition 0).
// CHECK: ^[[ENTRY]]:
// CHECK-COUNT-4: llvm.store %{{.*}} : i8, !llvm.ptr<3>
// CHECK: st.global
// CHECK-NEXT: nvvm.barrier id = %[[C0]] number_of_threads = %[[C128]]
