//! Tritium's TTIR -> TTGIR pipeline against upstream Triton 3.6's, end to
//! end: for every corpus kernel and target, the part of
//! `tritium_passes::pipeline::ttgir_pipeline` before software pipelining,
//! run on upstream's TTIR, must give the IR upstream had at the input of its
//! first pipelining pass (the stage `NN-tritongpu-assign-latencies`), both
//! parsed and printed without locations, as differential.rs compares.
//!
//! Upstream runs passes there that Tritium does not have (plan-cta and the
//! canonicalize after optimize-dot-operands). Where they change the IR, the
//! kernel is listed in `NOT_EXACT` with the reason, and the test compares
//! the layouts of its memory, dot, reduction, scan and conversion ops
//! instead (the op, its operand and result types with their layouts, in
//! program order). The report prints, per kernel and target, which bar it
//! met:
//!
//!     cargo test -p tt-opt --test all pipeline -- --nocapture
use crate::common::{context, corpus, repo_root, CorpusEntry};
use melior::{
    ir::{operation::OperationLike, BlockLike, Module, OperationRef, RegionLike, ValueLike},
    pass::PassManager,
    utility::parse_pass_pipeline,
    Context,
};
use std::collections::BTreeMap;
use tritium_dialects::io::{parse_module, print, PrintOptions};

/// Kernels whose IR before pipelining differs from upstream's only through
/// an upstream pass Tritium lacks, with the pass and what it does there.
/// Their layouts must still match. (kernel, targets as "cuda80,cuda90",
/// reason.) Empty: on the 24 corpus kernels none of the missing passes
/// changes the IR (upstream's dumps before and after each of them are the
/// same for every kernel and target).
const NOT_EXACT: &[(&str, &str, &str)] = &[];

/// Kernels whose loop structure before pipelining differs from upstream's
/// because Tritium lacks a pass that restructures loops, with the reason;
/// their layouts are not compared (ops move between loops), but the test
/// fails once they match, so that they leave the list. Empty since
/// nvgpu-warp-specialization is upstream's algorithm (the ws_* kernels were
/// here).
const RESTRUCTURED_BY_MISSING_PASS: &[(&str, &str, &str)] = &[];

/// Pipeline passes from where upstream starts software pipelining (or, if
/// Tritium's pipeline has no pipelining yet, the first pass upstream runs
/// after it): the test runs Tritium's pipeline up to the first of them.
const FROM_PIPELINING: &[&str] = &[
    "tritongpu-assign-latencies",
    "tritongpu-schedule-loops",
    "tritongpu-pipeline",
    "tritongpu-prefetch",
    "tritongpu-reduce-data-duplication",
];

/// The ops whose layouts the weaker bar compares.
const LAYOUT_OPS: &[&str] = &[
    "tt.load",
    "tt.store",
    "tt.dot",
    "ttng.warp_group_dot",
    "tt.reduce",
    "tt.scan",
    "ttg.convert_layout",
    "ttg.local_alloc",
    "ttg.local_load",
    "tt.atomic_rmw",
    "tt.atomic_cas",
];

fn meta_field(entry: &CorpusEntry, key: &str) -> u32 {
    let meta = std::fs::read_to_string(
        repo_root().join(format!("test/fixtures/corpus/meta/{}/{}.json", entry.target, entry.kernel)),
    )
    .unwrap();
    let start = meta.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
    meta[start..].trim_start().split([',', '\n']).next().unwrap().trim().parse().unwrap()
}

/// The top-level items of a `builtin.module(a,b{x=1 y=2},c)` pipeline.
fn pipeline_items(pipeline: &str) -> Vec<String> {
    let inner =
        pipeline.strip_prefix("builtin.module(").and_then(|p| p.strip_suffix(')')).expect("a builtin.module pipeline");
    let (mut items, mut current, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in inner.chars() {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.is_empty() {
        items.push(current);
    }
    items
}

/// Tritium's pipeline for the entry's target and launch shape, up to software
/// pipelining.
fn before_pipelining(entry: &CorpusEntry) -> String {
    let capability: u32 = entry.target.trim_start_matches("cuda").parse().unwrap();
    let pipeline = tritium_passes::pipeline::ttgir_pipeline(
        capability,
        meta_field(entry, "num_warps"),
        meta_field(entry, "num_ctas"),
        meta_field(entry, "num_stages"),
    )
    .expect("Tritium has a TTIR -> TTGIR pipeline");
    let items: Vec<String> = pipeline_items(&pipeline)
        .into_iter()
        .take_while(|item| !FROM_PIPELINING.contains(&item.split('{').next().unwrap()))
        .collect();
    format!("builtin.module({})", items.join(","))
}

fn normalized(module: &Module) -> String {
    print(&module.as_operation(), PrintOptions::default())
}

/// Every op of `LAYOUT_OPS` in program order, with its operand and result
/// types written out in full (layouts inline, not as aliases).
fn layout_signature(module: &Module) -> Vec<String> {
    fn walk(op: OperationRef, out: &mut Vec<String>) {
        let name = op.name().as_string_ref().as_str().unwrap().to_string();
        if LAYOUT_OPS.contains(&name.as_str()) {
            let operands: Vec<String> = op.operands().map(|v| v.r#type().to_string()).collect();
            let results: Vec<String> = op.results().map(|v| v.r#type().to_string()).collect();
            out.push(format!("{name}({}) -> ({})", operands.join(", "), results.join(", ")));
        }
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut child = b.first_operation();
                while let Some(c) = child {
                    walk(c, out);
                    child = c.next_in_block();
                }
                block = b.next_in_region();
            }
        }
    }
    let mut out = Vec::new();
    walk(module.as_operation(), &mut out);
    out
}

fn run<'c>(context: &'c Context, input: &str, pipeline: &str) -> Result<Module<'c>, String> {
    let mut module = parse_module(context, input, "ttir").map_err(|e| e.join("; "))?;
    let manager = PassManager::new(context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline).map_err(|e| e.to_string())?;
    manager.run(&mut module).map_err(|_| "the pipeline failed".to_string())?;
    Ok(module)
}

enum Outcome {
    Exact,
    Layouts(String),
    Differs(String),
}

#[test]
fn ttgir_pipeline_matches_upstream_before_pipelining() {
    let context = context();
    let entries = corpus();
    // (kernel, target) -> its TTIR and TTGIR.
    type Stages<'a> = (Option<&'a CorpusEntry>, Option<&'a CorpusEntry>);
    let mut by_kernel: BTreeMap<(String, String), Stages> = BTreeMap::new();
    for entry in &entries {
        let slot = by_kernel.entry((entry.kernel.clone(), entry.target.clone())).or_default();
        if entry.stage == "ttir" {
            slot.0 = Some(entry);
        } else if entry.stage.ends_with("-tritongpu-assign-latencies") {
            slot.1 = Some(entry);
        }
    }
    let mut report = String::from("\nkernel                     target  result\n");
    let mut failures = Vec::new();
    for ((kernel, target), (ttir, expected)) in &by_kernel {
        let (Some(ttir), Some(expected)) = (ttir, expected) else {
            failures.push(format!("{target}/{kernel}: no ttir or assign-latencies stage in the manifest"));
            continue;
        };
        let pipeline = before_pipelining(ttir);
        let expected = parse_module(&context, &expected.text(), "expected").expect("upstream's IR parses");
        // Every kernel loads or stores: the layout bar always has ops to compare.
        assert!(!layout_signature(&expected).is_empty(), "{target}/{kernel}: no ops of LAYOUT_OPS");
        // The IR there is nvgpu-warp-specialization's output, of which
        // upstream gives several for some kernels (its nondeterministic code
        // partition): any of them is upstream's.
        let variants: Vec<String> = if target == "cuda90" {
            crate::differential::upstream_variants("nvgpu-warp-specialization", kernel)
                .iter()
                .filter_map(|text| parse_module(&context, text, "variant").ok().map(|m| normalized(&m)))
                .collect()
        } else {
            Vec::new()
        };
        let outcome = match run(&context, &ttir.text(), &pipeline) {
            Err(e) => Outcome::Differs(e),
            Ok(actual) if normalized(&actual) == normalized(&expected) || variants.contains(&normalized(&actual)) => {
                Outcome::Exact
            }
            Ok(actual) => {
                let first = crate::corpus_roundtrip::first_difference(&normalized(&expected), &normalized(&actual));
                let (want, got) = (layout_signature(&expected), layout_signature(&actual));
                if want == got {
                    Outcome::Layouts(first)
                } else {
                    let at = want.iter().zip(&got).position(|(a, b)| a != b).unwrap_or(want.len().min(got.len()));
                    Outcome::Differs(format!(
                        "layouts differ at op {at} of {}/{}:\n  expected: {}\n  actual:   {}",
                        want.len(),
                        got.len(),
                        want.get(at).map_or("(none)", |s| s.as_str()),
                        got.get(at).map_or("(none)", |s| s.as_str())
                    ))
                }
            }
        };
        let listed = NOT_EXACT.iter().find(|(k, t, _)| k == kernel && t.split(',').any(|t| t == target));
        let restructured =
            RESTRUCTURED_BY_MISSING_PASS.iter().find(|(k, t, _)| k == kernel && t.split(',').any(|t| t == target));
        let result = match (&outcome, listed) {
            (Outcome::Differs(_), _) if restructured.is_some() => {
                format!("loops differ ({})", restructured.unwrap().2)
            }
            _ if restructured.is_some() => {
                failures.push(format!(
                    "{target}/{kernel}: now matches upstream; remove it from RESTRUCTURED_BY_MISSING_PASS"
                ));
                "matches (listed in RESTRUCTURED_BY_MISSING_PASS)".to_string()
            }
            (Outcome::Exact, None) => "same IR".to_string(),
            (Outcome::Exact, Some(_)) => {
                failures.push(format!("{target}/{kernel}: now gives upstream's IR exactly; remove it from NOT_EXACT"));
                "same IR (listed in NOT_EXACT)".to_string()
            }
            (Outcome::Layouts(_), Some((_, _, reason))) => format!("same layouts ({reason})"),
            (Outcome::Layouts(first), None) => {
                failures.push(format!("{target}/{kernel}: IR differs from upstream's (layouts agree):\n{first}"));
                "same layouts, IR differs".to_string()
            }
            (Outcome::Differs(why), _) => {
                failures.push(format!("{target}/{kernel}: {why}"));
                "DIFFERS".to_string()
            }
        };
        report += &format!("{kernel:26} {target:7} {result}\n");
    }
    println!("{report}");
    assert!(by_kernel.len() >= 22, "{} (kernel, target) pairs", by_kernel.len());
    assert!(failures.is_empty(), "{} failures:\n{}\n{report}", failures.len(), failures.join("\n\n"));
}
