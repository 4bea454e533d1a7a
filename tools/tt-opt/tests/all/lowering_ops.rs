//! The lowering of the ops the corpus kernels do not use: scans (forward,
//! reverse, several operands), argmax/argmin reductions, atomics (every RMW
//! kind, CAS, scalar and tensor, sm_80 and sm_90 forms), gather, histogram,
//! print, assert, 3-D grids, byte loads and stores, int8 and tf32 dots with
//! the operand orders the corpus matmuls lack. Each fixture of
//! test/fixtures/lowering/ is upstream Triton 3.6's TTGIR of a small kernel
//! (`<kernel>_sm80.mlir` or `_sm90`); it must compile to PTX that ptxas
//! accepts, containing the instructions the op's lowering is made of, with
//! the shared memory upstream allocates (where Tritium's layout conversions
//! need no more).
use crate::common::{context, repo_root};
use std::{path::PathBuf, process::Command};
use tritium_dialects::io::parse_module;
use tritium_lowering::{compile, CompileOptions};

struct Case {
    fixture: &'static str,
    /// Upstream's `shared` bytes, when Tritium's allocation must match it.
    shared: Option<usize>,
    /// Text the PTX must contain.
    instructions: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        fixture: "cumsum_rows_sm90",
        shared: Some(128),
        instructions: &["shfl.sync.up.b32", "@%p", "st.shared.b32", "bar.sync"],
    },
    Case {
        fixture: "cumprod_rev_sm80",
        shared: Some(16),
        instructions: &["shfl.sync.down.b32", "mul.f32", "bar.sync"],
    },
    Case {
        fixture: "cumsum_1warp_rev_sm90",
        shared: Some(0),
        instructions: &["shfl.sync.down.b32", "shfl.sync.idx.b32"],
    },
    Case {
        fixture: "scan_noncomm_rev_sm90",
        shared: None,
        instructions: &["shfl.sync.down.b32", "st.shared.b64", "st.shared.b16"],
    },
    Case { fixture: "cumsum_2d_sm80", shared: Some(0), instructions: &["shfl.sync.up.b32"] },
    Case { fixture: "argmax_rows_sm90", shared: Some(32), instructions: &["shfl.sync.bfly.b32", "bar.sync"] },
    Case { fixture: "argmin_2d_sm80", shared: Some(128), instructions: &["shfl.sync.bfly.b32"] },
    Case { fixture: "atomic_add_hist_sm90", shared: Some(8192), instructions: &["atom.global.gpu.acq_rel.add.u32"] },
    Case {
        fixture: "atomic_kinds_sm90",
        shared: Some(0),
        instructions: &[
            "atom.global.gpu.acq_rel.max.s32",
            "atom.global.cta.relaxed.min.s32",
            "atom.global.sys.acq_rel.max.u32",
            "atom.global.gpu.release.min.u32",
            "atom.global.gpu.acq_rel.and.b32",
            "atom.global.gpu.acquire.or.b32",
            "atom.global.gpu.acq_rel.xor.b32",
            "atom.global.gpu.acq_rel.add.u64",
            "atom.global.gpu.acq_rel.exch.b32",
            "atom.global.acq_rel.gpu.cas.b32",
        ],
    },
    Case {
        fixture: "atomic_add_f16_sm90",
        shared: Some(4096),
        instructions: &[
            "atom.global.gpu.acq_rel.add.noftz.v8.f16",
            "atom.global.gpu.acq_rel.add.noftz.v8.bf16",
            "atom.global.gpu.acq_rel.add.v4.f32",
        ],
    },
    // bf16 adds below sm_90 are LLVM's compare-and-swap loops.
    Case {
        fixture: "atomic_add_f16_sm80",
        shared: Some(4096),
        instructions: &["atom.global.gpu.acq_rel.add.noftz.f16x2", "cas.b32", "atom.global.gpu.acq_rel.add.f32"],
    },
    Case {
        fixture: "atomic_counter_sm80",
        shared: Some(4),
        instructions: &["atom.global.gpu.acq_rel.add.u32", "st.shared.b32", "bar.sync", "ld.shared.b32"],
    },
    Case {
        fixture: "atomic_cas_lock_sm90",
        shared: Some(4),
        instructions: &["atom.global.acquire.gpu.cas.b32", "atom.global.gpu.release.exch.b32"],
    },
    Case {
        fixture: "atomic_add_ret_sm90",
        shared: Some(128),
        instructions: &["atom.global.gpu.acq_rel.add.f32", "st.shared.b32", "ld.shared.b32"],
    },
    Case {
        fixture: "atomic_scalar_kinds_sm80",
        shared: Some(4),
        instructions: &[
            "atom.global.gpu.acq_rel.max.s32",
            "atom.global.gpu.relaxed.add.f32",
            "atom.global.gpu.acq_rel.add.noftz.f16",
            "atom.global.acq_rel.gpu.cas.b32",
        ],
    },
    Case { fixture: "gather_rows_sm90", shared: None, instructions: &["shfl.sync.idx.b32"] },
    Case { fixture: "gather_big_sm80", shared: Some(16384), instructions: &["st.shared", "bar.sync", "ld.shared"] },
    Case {
        fixture: "histogram_sm90",
        shared: Some(256),
        instructions: &["vote.sync.ballot.b32", "popc.b32", "atom.shared.add.u32"],
    },
    Case {
        fixture: "hist_masked_sm80",
        shared: Some(1024),
        instructions: &["vote.sync.ballot.b32", "popc.b32", "atom.shared.add.u32"],
    },
    Case {
        fixture: "device_assert_sm80",
        shared: Some(0),
        instructions: &["__assertfail", "assertMessage_", "bar.sync"],
    },
    Case {
        fixture: "device_print_sm90",
        shared: Some(0),
        instructions: &["vprintf", "printfFormat_0", "printfFormat_1"],
    },
    Case { fixture: "program_ids_3d_sm80", shared: Some(0), instructions: &["%ctaid.z", "%nctaid.y", "%nctaid.z"] },
    Case { fixture: "transpose_3d_sm90", shared: None, instructions: &["st.global"] },
    // Byte loads and stores: 8-byte vectors, byte pairs, and single masked
    // bytes with an `other` (a mov.b16 into the byte's 16-bit register).
    Case {
        fixture: "bytes_copy_sm80",
        shared: Some(0),
        instructions: &["ld.global.v2.b32", "ld.global.b16", "ld.global.b8", "mov.b16", "st.global.b16"],
    },
    // int8 and tf32 dots with A stored M-major and B K-major (the corpus
    // matmuls have the other orders): on sm_80 A is read bytewise (no
    // transposed ldmatrix below 16 bits) and B through ldmatrix; on sm_90
    // both are transposed into K-major buffers for wgmma. The sm_80 int8
    // epilogue's layout conversion takes a whole-tile scratch (16 KiB), where
    // upstream's takes 8.
    Case {
        fixture: "dot_i8_tn_sm80",
        shared: None,
        instructions: &[
            "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32",
            "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
            "ld.shared.b8",
        ],
    },
    Case {
        fixture: "dot_tf32_tn_sm80",
        shared: Some(16384),
        instructions: &[
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
            "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
            "ld.shared.b32",
        ],
    },
    Case {
        fixture: "dot_i8_tn_sm90",
        shared: Some(16384),
        instructions: &["wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8", "st.shared.b8"],
    },
    Case {
        fixture: "dot_tf32_tn_sm90",
        shared: Some(16384),
        instructions: &["wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32", "st.shared.b32"],
    },
    // f64 dots: m16n8k16 on sm_90 (as upstream), pairs of m8n8k4 before
    // (test/Conversion/tritium-compile-dot-f64.mlir counts them).
    Case {
        fixture: "dot_f64_sm90",
        shared: Some(16384),
        instructions: &["mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64"],
    },
    Case {
        fixture: "dot_f64_sm80",
        shared: Some(16384),
        instructions: &["mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"],
    },
    // wgmma with A in registers (`}, {%r`: a register list after D's): a
    // tf32 word holds one k, an fp8 word four.
    Case {
        fixture: "dot_chain_tf32_sm90",
        shared: Some(49152),
        instructions: &["wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32", "}, {%r"],
    },
    Case {
        fixture: "dot_chain_e4m3_sm90",
        shared: Some(65536),
        instructions: &["wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3", "}, {%r"],
    },
    // tf32x3 (three wgmmas per K step on the split A and B, A in registers),
    // with one warpgroup and with two (8 warps, 128 rows); an A scaled in
    // registers before a tf32 and an e5m2 dot.
    Case {
        fixture: "dot_tf32x3_sm90",
        shared: Some(8192),
        instructions: &["wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32", "}, {%r", "cvt.rna.tf32.f32"],
    },
    Case {
        fixture: "dot_tf32x3_w8_sm90",
        shared: Some(32768),
        instructions: &["wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32", "}, {%r", "cvt.rna.tf32.f32"],
    },
    Case {
        fixture: "dot_scaled_a_tf32_sm90",
        shared: Some(16384),
        instructions: &["wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32", "}, {%r"],
    },
    Case {
        fixture: "dot_scaled_a_e5m2_sm90",
        shared: Some(8192),
        instructions: &["wgmma.mma_async.sync.aligned.m64n32k32.f32.e5m2.e5m2", "}, {%r"],
    },
    // fp8 operands accumulating in f16 (`tl.dot(..., out_dtype=tl.float16)`):
    // wgmma's f16 D, two elements per register.
    Case {
        fixture: "dot_e4m3_f16_acc_sm90",
        shared: Some(8192),
        instructions: &["wgmma.mma_async.sync.aligned.m64n64k32.f16.e4m3.e4m3"],
    },
    // A 2x32x64 descriptor block loaded and reshaped to 64x64 before a wgmma:
    // ttg.memdesc_reshape is a view of the same bytes.
    Case {
        fixture: "memdesc_reshape_dot_sm90",
        shared: Some(41008),
        instructions: &["wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", "cp.async.bulk.tensor.3d"],
    },
    // Dots smaller than mma.sync's 16x8 tile: the fragments' rows and
    // columns beyond the tensor wrap onto it, as upstream feeds them.
    // (Tritium's convert_layout scratch is 256 bytes here, upstream's 128.)
    Case {
        fixture: "dot_tiny_f16_sm90",
        shared: None,
        instructions: &["mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"],
    },
    Case {
        fixture: "dot_tiny_e5m2_sm90",
        shared: Some(64),
        instructions: &["mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"],
    },
    // tl.sum of a whole 3-D tile: tt.reshape allow_reorder to 1-D keeps each
    // thread's registers (a permutation), as upstream.
    Case {
        fixture: "reduce_all_3d_sm90",
        shared: Some(16),
        instructions: &["shfl.sync.bfly.b32", "min.f32", "max.f32"],
    },
    // |x| of fp8 bytes: the sign bit cleared.
    Case { fixture: "abs_e4m3_sm90", shared: Some(0), instructions: &["and.b"] },
    // max_num_imprecise_acc: each partial wgmma sum is added with add.f32
    // (upstream's count, which test_dot_max_num_imprecise_acc checks), not
    // add.rn.f32.
    Case {
        fixture: "matmul_split_acc_e5m2_sm90",
        shared: Some(16384),
        instructions: &["wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2", "add.f32"],
    },
];

/// ptxas: $PTXAS, else the one scripts/setup.sh installs under .tools/.
fn ptxas() -> PathBuf {
    if let Some(path) = std::env::var_os("PTXAS") {
        return PathBuf::from(path);
    }
    let lib = repo_root().join(".tools/venv/lib");
    std::fs::read_dir(&lib)
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("site-packages/nvidia/cuda_nvcc/bin/ptxas"))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("no ptxas: run scripts/setup.sh (installs one under .tools/) or set PTXAS"))
}

/// The problems of one fixture.
fn check(case: &Case) -> Vec<String> {
    let path = repo_root().join(format!("test/fixtures/lowering/{}.mlir", case.fixture));
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => return vec![format!("cannot read {}: {e}", path.display())],
    };
    let context = context();
    let mut module = match parse_module(&context, &text, case.fixture) {
        Ok(module) => module,
        Err(e) => return vec![e.join("; ")],
    };
    // A TTGIR module carries its target and warps; the options do not matter.
    let bundle = match compile(&context, &mut module, &CompileOptions::default()) {
        Ok(bundle) => bundle,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    if let Some(shared) = case.shared {
        if bundle.info.shared_bytes != shared {
            problems.push(format!("shared {} bytes, upstream {shared}", bundle.info.shared_bytes));
        }
    }
    for instruction in case.instructions {
        if !bundle.ptx.contains(instruction) {
            problems.push(format!("no {instruction} in the PTX"));
        }
    }
    let directory = std::env::temp_dir().join(format!("tritium-lowering-ops-{}-{}", std::process::id(), case.fixture));
    std::fs::create_dir_all(&directory).unwrap();
    let ptx = directory.join("kernel.ptx");
    std::fs::write(&ptx, &bundle.ptx).unwrap();
    match Command::new(ptxas())
        .arg(format!("-arch={}", bundle.target.cpu()))
        .arg(&ptx)
        .arg("-o")
        .arg(directory.join("kernel.cubin"))
        .output()
    {
        Ok(output) if output.status.success() => {}
        Ok(output) => problems.push(format!("ptxas: {}", String::from_utf8_lossy(&output.stderr))),
        Err(e) => problems.push(format!("cannot run ptxas: {e}")),
    }
    std::fs::remove_dir_all(&directory).ok();
    problems
}

#[test]
fn new_ops_lower_to_ptx_that_ptxas_accepts() {
    let failures: Vec<String> = CASES
        .iter()
        .filter_map(|case| {
            let problems = check(case);
            (!problems.is_empty()).then(|| format!("{}: {}", case.fixture, problems.join("; ")))
        })
        .collect();
    assert!(failures.is_empty(), "{} fixtures failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_fixture_is_checked() {
    let directory = repo_root().join("test/fixtures/lowering");
    for entry in std::fs::read_dir(&directory).unwrap() {
        let name = entry.unwrap().path().file_stem().unwrap().to_string_lossy().into_owned();
        assert!(
            CASES.iter().any(|c| c.fixture == name),
            "test/fixtures/lowering/{name}.mlir is not in lowering_ops.rs's CASES"
        );
    }
}
