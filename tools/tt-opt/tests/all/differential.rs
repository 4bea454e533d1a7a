//! Differential tests against upstream Triton 3.6: for every corpus kernel
//! and target, each of Tritium's passes runs on upstream's input of that pass
//! (`passes/NN-<flag>.mlir`) and its output is compared with upstream's output
//! (the next dump), both parsed and printed without locations. The report
//! gives the match rate per pass:
//!
//!     cargo test -p tt-opt differential -- --nocapture
//!
//! Passes upstream runs that Tritium does not have yet are listed as such.
//! With `DIFFERENTIAL_KERNELS=a,b` it also prints, for the corpus kernels
//! whose names contain one of a, b, whether each pass matched.
//! `FLOORS` holds the number of exact matches each pass has reached; the test
//! fails if a pass falls below it (raise it when a pass improves).
use crate::common::{context, corpus, repo_root, CorpusEntry};
use melior::{ir::Module, pass::PassManager, utility::parse_pass_pipeline, Context};
use std::collections::BTreeMap;
use tritium_dialects::io::{parse_module, print, PrintOptions};

/// Passes of upstream MLIR in Triton's pipelines; their results on tt/ttg IR
/// depend on Tritium's dialects (traits, folders, canonicalization patterns).
const UPSTREAM_MLIR_PASSES: &[&str] = &["canonicalize", "cse", "sccp", "symbol-dce", "inline", "convert-scf-to-cf"];

/// Stages `tritongpu-pipeline` dumps of its own steps (lowering and
/// expanding the loops), between its input and its output.
const PIPELINER_DUMPS: &[&str] = &["lowerloops", "expandloops"];

/// (pass flag, minimum number of (kernel, target) pairs that must match).
const FLOORS: &[(&str, usize)] = &[
    ("tritongpu-coalesce", 169),
    ("convert-triton-to-tritongpu", 169),
    ("tritongpu-remove-layout-conversions", 506),
    ("allocate-shared-memory-nv", 169),
    ("triton-nvidia-gpu-fence-insertion", 169),
    ("triton-nvidia-gpu-proxy-fence-insertion", 169),
    ("triton-rewrite-tensor-descriptor-to-pointer", 69),
    ("triton-nvidia-mma-lowering", 169),
    ("triton-combine", 169),
    ("triton-reorder-broadcast", 169),
    ("triton-licm", 169),
    ("triton-loop-aware-cse", 505),
    ("tritongpu-accelerate-matmul", 169),
    ("tritongpu-F32DotTC", 169),
    ("tritongpu-optimize-dot-operands", 337),
    ("triton-rewrite-tensor-pointer", 169),
    ("triton-loop-unroll", 169),
    ("tritongpu-reduce-data-duplication", 169),
    ("tritongpu-reorder-instructions", 169),
    ("tritongpu-optimize-thread-locality", 169),
    ("tritongpu-assign-latencies", 169),
    ("tritongpu-schedule-loops", 169),
    ("tritongpu-pipeline", 169),
    ("tritongpu-fuse-nested-loops", 169),
    ("tritongpu-combine-tensor-select-and-if", 338),
    ("tritongpu-prefetch", 169),
    ("tritongpu-coalesce-async-copy", 169),
    ("triton-nvidia-optimize-descriptor-encoding", 169),
    ("triton-nvidia-tma-lowering", 100),
    ("tritongpu-allocate-warp-groups", 169),
    ("tritongpu-global-scratch-memory-allocation", 169),
    // Upstream MLIR's sccp: equal since ttg.warp_specialize is a region
    // branch op as upstream's (its partitions are no successor).
    ("sccp", 169),
    // Every pair. Upstream's code partition is not deterministic (maps
    // keyed by pointers); where its runs differ (test/fixtures/ws-reference
    // keeps the variants), the corpus holds one of them: ws_steps.rs checks
    // the whole pass against every variant.
    ("nvgpu-warp-specialization", 169),
];

/// Upstream's options for a pass, as make_ttgir passes them.
pub(crate) fn pass_options(flag: &str, entry: &CorpusEntry) -> String {
    let meta: String = std::fs::read_to_string(
        repo_root().join(format!("test/fixtures/corpus/meta/{}/{}.json", entry.target, entry.kernel)),
    )
    .unwrap();
    let field = |key: &str| -> String {
        let start = meta.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
        meta[start..].trim_start().split([',', '\n']).next().unwrap().trim().trim_matches('"').to_string()
    };
    let capability: u32 = entry.target.trim_start_matches("cuda").parse().unwrap();
    match flag {
        "convert-triton-to-tritongpu" => format!(
            "{{target=cuda:{capability} num-warps={} threads-per-warp=32 num-ctas={}}}",
            field("num_warps"),
            field("num_ctas")
        ),
        "allocate-shared-memory-nv" => format!("{{compute-capability={capability} ptx-version=87}}"),
        "triton-nvidia-gpu-fence-insertion" | "triton-nvidia-gpu-proxy-fence-insertion" => {
            format!("{{compute-capability={capability}}}")
        }
        "tritongpu-F32DotTC" => format!("{{emu-tf32={}}}", capability >= 80),
        "tritongpu-optimize-dot-operands" => format!("{{hoist-layout-conversion={}}}", capability >= 80),
        "tritongpu-assign-latencies" | "tritongpu-pipeline" | "nvgpu-warp-specialization" => {
            format!("{{num-stages={}}}", field("num_stages"))
        }
        _ => String::new(),
    }
}

/// Upstream pass flag of a dump stage `NN-<flag>`.
pub(crate) fn stage_flag(stage: &str) -> Option<&str> {
    stage.split_once('-').filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit())).map(|(_, f)| f)
}

/// tritongpu-optimize-dot-operands runs a canonicalizer inside, before its
/// own patterns, which upstream dumps as a stage of its own: the pass is
/// compared as a whole with the stage after that dump, and the dump is no
/// stage of its own (what follows it includes the pass's patterns).
fn is_nested_canonicalize(stages: &[&CorpusEntry], index: usize) -> bool {
    index > 0
        && stage_flag(&stages[index].stage) == Some("canonicalize")
        && stage_flag(&stages[index - 1].stage) == Some("tritongpu-optimize-dot-operands")
}

/// Upstream's outputs of `flag` for `kernel` other than the corpus's, where
/// upstream's pass is nondeterministic: nvgpu-warp-specialization's outputs
/// of several upstream runs (scripts/ws_reference.py), in
/// test/fixtures/ws-reference/<kernel>/5-output*.mlir.
pub(crate) fn upstream_variants(flag: &str, kernel: &str) -> Vec<String> {
    if flag != "nvgpu-warp-specialization" {
        return Vec::new();
    }
    let directory = repo_root().join("test/fixtures/ws-reference").join(kernel);
    let Ok(entries) = std::fs::read_dir(&directory) else { return Vec::new() };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("5-output")))
        .collect();
    files.sort();
    files.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect()
}

#[derive(Default)]
struct PassReport {
    matched: usize,
    total: usize,
    failures: Vec<String>,
}

fn normalized(context: &Context, module: &Module) -> String {
    let _ = context;
    print(&module.as_operation(), PrintOptions::default())
}

pub(crate) fn run_pass(context: &Context, input: &str, pipeline: &str) -> Result<String, String> {
    let mut module = parse_module(context, input, "input").map_err(|e| e.join("; "))?;
    let manager = PassManager::new(context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline).map_err(|e| e.to_string())?;
    manager.run(&mut module).map_err(|_| "the pass failed".to_string())?;
    Ok(normalized(context, &module))
}

fn differential_report() -> BTreeMap<String, PassReport> {
    let context = context();
    let mut registered: Vec<&str> = tritium_passes::PASSES.iter().map(|p| p.argument).collect();
    // Upstream MLIR's own passes, which Triton's pipelines also run.
    registered.extend(UPSTREAM_MLIR_PASSES);
    let entries = corpus();
    let mut by_kernel: BTreeMap<(String, String), Vec<&CorpusEntry>> = BTreeMap::new();
    for entry in &entries {
        if stage_flag(&entry.stage).is_some() {
            by_kernel.entry((entry.target.clone(), entry.kernel.clone())).or_default().push(entry);
        }
    }
    let mut report: BTreeMap<String, PassReport> = BTreeMap::new();
    let detail: Vec<String> = std::env::var("DIFFERENTIAL_KERNELS")
        .map(|v| v.split(',').filter(|k| !k.is_empty()).map(String::from).collect())
        .unwrap_or_default();
    for ((target, kernel), stages) in &by_kernel {
        for (index, input) in stages.iter().enumerate() {
            let flag = stage_flag(&input.stage).unwrap();
            // The pipeliner's internal dumps are snapshots inside
            // tritongpu-pipeline, which is compared as a whole with the
            // first stage after them.
            if PIPELINER_DUMPS.contains(&flag) || is_nested_canonicalize(stages, index) {
                continue;
            }
            let Some(output) = stages[index + 1..]
                .iter()
                .enumerate()
                .find(|(i, s)| {
                    !PIPELINER_DUMPS.contains(&stage_flag(&s.stage).unwrap())
                        && !is_nested_canonicalize(stages, index + 1 + i)
                })
                .map(|(_, s)| s)
            else {
                continue;
            };
            let (input, output) = (*input, *output);
            if !registered.contains(&flag) {
                report.entry(flag.to_string()).or_default();
                continue;
            }
            let pipeline = format!("builtin.module({flag}{})", pass_options(flag, input));
            let expected = parse_module(&context, &output.text(), "expected")
                .map(|m| normalized(&context, &m))
                .expect("upstream output parses");
            // Upstream's other outputs for the same input, where it has more
            // than one (test/fixtures/ws-reference: its nondeterministic
            // warp-specialization code partition).
            let alternatives: Vec<String> = upstream_variants(flag, kernel)
                .iter()
                .filter_map(|text| parse_module(&context, text, "variant").ok().map(|m| normalized(&context, &m)))
                .collect();
            let upstream_gives = |actual: &String| *actual == expected || alternatives.contains(actual);
            let row = report.entry(flag.to_string()).or_default();
            row.total += 1;
            let result = run_pass(&context, &input.text(), &pipeline);
            if detail.iter().any(|d| kernel.contains(d.as_str())) {
                let verdict = match &result {
                    Ok(actual) if upstream_gives(actual) => "matches",
                    Ok(_) => "differs",
                    Err(_) => "fails",
                };
                println!("{target}/{kernel} {}: {verdict}", input.stage);
            }
            match result {
                Ok(actual) if upstream_gives(&actual) => row.matched += 1,
                Ok(actual) => row.failures.push(format!(
                    "{target}/{kernel} {}:\n{}",
                    input.stage,
                    crate::corpus_roundtrip::first_difference(&expected, &actual)
                )),
                Err(error) => row.failures.push(format!("{target}/{kernel} {}: {error}", input.stage)),
            }
        }
    }
    report
}

#[test]
fn differential_against_upstream() {
    let report = differential_report();
    let mut table = String::from("\npass                                     matched / total\n");
    for (flag, row) in &report {
        if row.total == 0 {
            table += &format!("{flag:40} (not implemented)\n");
        } else {
            table += &format!("{flag:40} {:3} / {:3}\n", row.matched, row.total);
        }
    }
    println!("{table}");
    for (flag, row) in &report {
        for failure in row.failures.iter().take(3) {
            println!("{flag}: {failure}\n");
        }
    }
    for (flag, floor) in FLOORS {
        let matched = report.get(*flag).map_or(0, |r| r.matched);
        assert!(matched >= *floor, "{flag}: {matched} matches, below the floor of {floor}\n{table}");
    }
}
