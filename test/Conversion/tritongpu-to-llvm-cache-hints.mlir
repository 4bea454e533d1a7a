// RUN: tt-opt %s -split-input-file --allocate-shared-memory-nv='compute-capability=90' --tritongpu-membar --convert-triton-gpu-to-llvm | FileCheck %s

// Cache modifiers, eviction policies and volatility of global loads and
// stores become the PTX qualifiers upstream emits: .ca/.cg on loads,
// .wb/.cg/.cs/.wt on stores, .L1::evict_first/last with an L2 cache hint made
// by createpolicy.fractional (sm_80+; one per instruction, in upstream's form:
// ptxas keeps one), ld.volatile. (ptxas rejects some combinations, e.g. .cg
// with an eviction priority, for upstream too.)

// CHECK-LABEL: llvm.func @ld_cg
// CHECK: ld.global.cg.v4.b32
// CHECK: st.global.v4.b32
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ld_cg(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %c512 = arith.constant 512 : i32
    %start = arith.muli %pid, %c512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<512xi32, #blocked>
    %offs = arith.addi %s, %range : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %xa, %mask cacheModifier = cg : tensor<512x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<512xf32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ya = tt.addptr %yp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %ya, %w, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// CHECK-LABEL: llvm.func @ld_evict_last
// CHECK: "mov.u64 $0, 0x0;\0A\09createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"
// CHECK: ld.global.L1::evict_last.L2::cache_hint.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ], $5;
// CHECK: st.global.v4.b32
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ld_evict_last(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %c512 = arith.constant 512 : i32
    %start = arith.muli %pid, %c512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<512xi32, #blocked>
    %offs = arith.addi %s, %range : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %xa, %mask evictionPolicy = evict_last : tensor<512x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<512xf32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ya = tt.addptr %yp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %ya, %w, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// CHECK-LABEL: llvm.func @ld_volatile
// CHECK: ld.volatile.global.v4.b32
// CHECK: st.global.v4.b32
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ld_volatile(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %c512 = arith.constant 512 : i32
    %start = arith.muli %pid, %c512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<512xi32, #blocked>
    %offs = arith.addi %s, %range : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %xa, %mask {isVolatile = true} : tensor<512x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<512xf32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ya = tt.addptr %yp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %ya, %w, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// CHECK-LABEL: llvm.func @st_cs
// CHECK: ld.global.v4.b32
// CHECK: st.global.cs.v4.b32
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @st_cs(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %c512 = arith.constant 512 : i32
    %start = arith.muli %pid, %c512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<512xi32, #blocked>
    %offs = arith.addi %s, %range : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %xa, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<512xf32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ya = tt.addptr %yp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %ya, %w, %mask cacheModifier = cs : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// CHECK-LABEL: llvm.func @st_evict_first
// CHECK: ld.global.v4.b32
// CHECK: createpolicy.fractional.L2::evict_first.b64 $0, 1.0;
// CHECK: st.global.L1::evict_first.L2::cache_hint.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 }, $5;
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @st_evict_first(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %c512 = arith.constant 512 : i32
    %start = arith.muli %pid, %c512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<512xi32, #blocked>
    %offs = arith.addi %s, %range : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %xa, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<512xf32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ya = tt.addptr %yp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %ya, %w, %mask evictionPolicy = evict_first : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// CHECK-LABEL: llvm.func @st_wt
// CHECK: ld.global.v4.b32
// CHECK: st.global.wt.v4.b32
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @st_wt(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %c512 = arith.constant 512 : i32
    %start = arith.muli %pid, %c512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<512xi32, #blocked>
    %offs = arith.addi %s, %range : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #blocked>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xa = tt.addptr %xp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %xa, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<512xf32, #blocked>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %ya = tt.addptr %yp, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %ya, %w, %mask cacheModifier = wt : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
