//! Snapshot tests (insta): for every registered pass, its output on a few
//! representative corpus kernels, as reviewed snapshots under
//! `tests/all/snapshots/`. They complement the differential test (which
//! compares with upstream's output, and says only whether it matches): any
//! change of a pass's output shows up here as a diff to review.
//!
//!     cargo test -p tt-opt --test all snapshots            # check
//!     cargo insta test -p tt-opt --test all -- snapshots   # record every change (.snap.new)
//!     cargo insta review                                   # accept or reject them
//!
//! The input of a pass is upstream's IR right before that pass
//! (`NN-<flag>` in the corpus manifest), with upstream's options.
use crate::common::{context, corpus, CorpusEntry};
use crate::differential::{pass_options, run_pass, stage_flag};

/// The kernels each pass is shown on: a reduction (Hopper), and a matmul with
/// software pipelining on Hopper (wgmma) and Ampere (mma.sync).
const KERNELS: &[(&str, &str)] = &[("cuda90", "softmax"), ("cuda90", "matmul_ref_s3"), ("cuda80", "matmul_ref_s3")];

/// Passes whose output is large (the LLVM dialect of a whole kernel) are
/// shown on one small kernel only.
const SMALL_KERNEL: (&str, &str) = ("cuda90", "vector_add");
const LARGE_OUTPUT: &[&str] = &["convert-triton-gpu-to-llvm"];

/// Registered passes without snapshots, and why.
const NOT_SNAPSHOTTED: &[(&str, &str)] = &[
    ("test-print-alignment", "prints an analysis as remarks; test/Analysis lit tests check it"),
    ("test-print-alias", "prints an analysis as remarks; test/Analysis lit tests check it"),
    (
        "test-print-allocation",
        "prints allocate-shared-memory-nv's allocation (its snapshots) as remarks; test/Analysis lit tests check it",
    ),
    ("test-print-linear-layouts", "prints layouts as remarks; lit tests check it"),
    ("test-tritium-internal-error", "panics on purpose"),
    (
        "nvgpu-test-ws-task-partition",
        "a step of nvgpu-warp-specialization under upstream's test flag (no corpus stage; ws_steps.rs compares it with upstream's dumps); lit tests check it",
    ),
    (
        "nvgpu-test-taskid-propagate",
        "a step of nvgpu-warp-specialization under upstream's test flag (no corpus stage; ws_steps.rs compares it with upstream's dumps); lit tests check it",
    ),
    (
        "nvgpu-test-ws-data-partition",
        "a step of nvgpu-warp-specialization under upstream's test flag (no corpus stage; ws_steps.rs compares it with upstream's dumps); lit tests check it",
    ),
    (
        "nvgpu-test-ws-code-partition",
        "a step of nvgpu-warp-specialization under upstream's test flag (no corpus stage; ws_steps.rs compares it with upstream's dumps); lit tests check it",
    ),
    (
        "nvgpu-test-ws-lower-token",
        "a step of nvgpu-warp-specialization under Tritium's test flag (no corpus stage; ws_steps.rs compares it with upstream's dumps); lit tests check it",
    ),
    (
        "test-print-membar",
        "tritongpu-membar under upstream's test flag (its snapshots); upstream's Analysis lit tests check it",
    ),
    (
        "allocate-shared-memory",
        "allocate-shared-memory-nv's allocation for the module's own target (its snapshots); upstream's lit tests check it",
    ),
    (
        "tritongpu-test-pipeline-lower-loop",
        "the first step of tritongpu-pipeline (its snapshots) under upstream's test flag; no corpus stage precedes it, upstream's pipeline-lower-loop lit test checks it",
    ),
    (
        "triton-test-loop-peeling",
        "upstream's test flag for loop peeling (only loops marked __test_peel_epilogue); lit tests check it",
    ),
    (
        "tritongpu-optimize-accumulator-init",
        "not in upstream's pipeline for sm_80/sm_90 (no corpus stage); lit tests and upstream's pipeline-loop-nest test check it",
    ),
    (
        "tritoninstrument-concurrency-sanitizer",
        "upstream runs it only under TRITON_INSTRUMENTATION_MODE=consan, so the corpus has no stage before it; upstream's consan lit tests and test/TritonInstrument check it",
    ),
    (
        "nvws-lower-warp-group",
        "not in upstream's sm_80/sm_90 pipeline (no corpus stage precedes it); upstream's NVWS lit tests and test/NVWS check it",
    ),
    (
        "nvws-assign-stage-phase",
        "not in upstream's sm_80/sm_90 pipeline (no corpus stage precedes it); upstream's NVWS lit tests and test/NVWS check it",
    ),
    (
        "nvws-insert-aref",
        "not in upstream's sm_80/sm_90 pipeline (no corpus stage precedes it); upstream's NVWS lit tests and test/NVWS check it",
    ),
    (
        "nvws-lower-aref",
        "not in upstream's sm_80/sm_90 pipeline (no corpus stage precedes it); upstream's NVWS lit tests and test/NVWS check it",
    ),
    (
        "tritium-warn-unspecialized-loops",
        "only warns (no IR change); the warp_specialize tests and TritonGPU lit tests check its diagnostics",
    ),
];

/// The corpus entry a pass takes as input for a kernel: upstream's IR right
/// before the pass; the TTIR for Tritium's whole TTGIR pipeline; for
/// tritongpu-membar (not one of upstream's dumped stages) the IR before
/// the lowering, whose shared memory is allocated.
fn input<'a>(entries: &'a [CorpusEntry], target: &str, kernel: &str, flag: &str) -> Option<&'a CorpusEntry> {
    let stage_of = match flag {
        "tritium-ttgir-pipeline" => {
            return entries.iter().find(|e| e.target == target && e.kernel == kernel && e.stage == "ttir")
        }
        "tritongpu-membar" => "convert-triton-gpu-to-llvm",
        _ => flag,
    };
    entries.iter().find(|e| e.target == target && e.kernel == kernel && stage_flag(&e.stage) == Some(stage_of))
}

fn options(flag: &str, entry: &CorpusEntry) -> String {
    match flag {
        "tritium-ttgir-pipeline" => {
            let pipeline_options = pass_options("convert-triton-to-tritongpu", entry);
            let stages = pass_options("tritongpu-pipeline", entry);
            // {target=cuda:90 num-warps=4 threads-per-warp=32 num-ctas=1} + {num-stages=3}
            let geometry = pipeline_options.trim_matches(['{', '}']).replace(" threads-per-warp=32", "");
            format!("{{{geometry} {}}}", stages.trim_matches(['{', '}']))
        }
        "convert-triton-gpu-to-llvm" => String::new(),
        _ => pass_options(flag, entry),
    }
}

#[test]
fn snapshots_of_every_pass() {
    let context = context();
    let entries = corpus();
    let mut flags: Vec<&str> = tritium_passes::PASSES.iter().map(|p| p.argument).collect();
    flags.push(tritium_lowering::convert_triton_gpu_to_llvm::PASS.argument);
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_snapshot_path("snapshots");
    let _guard = settings.bind_to_scope();
    let mut without_input = Vec::new();
    for flag in flags {
        if NOT_SNAPSHOTTED.iter().any(|(f, _)| *f == flag) {
            continue;
        }
        let kernels: &[(&str, &str)] = if LARGE_OUTPUT.contains(&flag) { &[SMALL_KERNEL] } else { KERNELS };
        let mut shown = 0;
        for (target, kernel) in kernels {
            let Some(entry) = input(&entries, target, kernel, flag) else { continue };
            let pipeline = format!("builtin.module({flag}{})", options(flag, entry));
            let output = match run_pass(&context, &entry.text(), &pipeline) {
                Ok(text) => text,
                Err(error) => format!("error: {error}"),
            };
            insta::assert_snapshot!(
                format!("{flag}@{target}_{kernel}"),
                output,
                &format!("{pipeline} on {}", entry.stage)
            );
            shown += 1;
        }
        if shown == 0 {
            without_input.push(flag);
        }
    }
    assert!(without_input.is_empty(), "passes without a corpus input for a snapshot: {without_input:?}");
}
