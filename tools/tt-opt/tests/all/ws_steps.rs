//! The port of upstream's Hopper warp specialization, step by step, against
//! upstream's own intermediate IR (test/fixtures/ws-reference, see its
//! README): each step runs under upstream's test flag on upstream's input of
//! that step, and its output must equal upstream's (both printed by tt-opt;
//! any of the variants where upstream is not deterministic). The report
//! gives the matches per step:
//!
//!     cargo test -p tt-opt --test all ws_steps -- --nocapture
//!
//! `STEPS` holds each step's floor, the matches it has reached; the test
//! fails if a step falls below it (raise it when a step improves). A step
//! whose flag is not registered yet is reported, not failed.
//! `scripts/ws_step_diff.sh` does the same from the shell, with diffs.
use crate::common::{repo_root, tt_opt};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Which of the driver's attempts a step is checked on. The driver tries 3
/// warp groups, then 2 when the data partition fails; such a kernel
/// (`ws_host_desc_matmul_m64`) has its first attempt's dumps as
/// `NAME.attempt1.mlir`, the plain names being the retry's.
#[derive(Clone, Copy, PartialEq)]
enum Attempt {
    /// Every kernel, plain names (the whole pass).
    All,
    /// The first attempt (3 warp groups): `NAME.attempt1.mlir` where the
    /// kernel has one; a retried kernel's first attempt has only those (and
    /// 0-input). When it has the step's input but not its output, upstream's
    /// step failed there: the step must fail too.
    First,
    /// The retry (2 warp groups) of the kernels that have one.
    Retried,
}

struct Step {
    flag: &'static str,
    input: &'static str,
    output: &'static str,
    options: &'static str,
    attempt: Attempt,
    floor: usize,
}

const STEPS: &[Step] = &[
    Step {
        flag: "nvgpu-test-ws-task-partition",
        input: "0-input",
        output: "1-task-partition",
        options: "num-warp-groups=3",
        attempt: Attempt::First,
        floor: 9,
    },
    // The retry finds the first attempt's ids and leaves the function alone.
    Step {
        flag: "nvgpu-test-ws-task-partition",
        input: "2-taskid-propagate.attempt1",
        output: "1-task-partition",
        options: "num-warp-groups=2",
        attempt: Attempt::Retried,
        floor: 1,
    },
    Step {
        flag: "nvgpu-test-taskid-propagate",
        input: "1-task-partition",
        output: "2-taskid-propagate",
        options: "num-warp-groups=3",
        attempt: Attempt::First,
        floor: 9,
    },
    Step {
        flag: "nvgpu-test-taskid-propagate",
        input: "1-task-partition",
        output: "2-taskid-propagate",
        options: "num-warp-groups=2",
        attempt: Attempt::Retried,
        floor: 1,
    },
    Step {
        flag: "nvgpu-test-ws-data-partition",
        input: "2-taskid-propagate",
        output: "3-data-partition",
        options: "num-warp-groups=3",
        attempt: Attempt::First,
        floor: 9,
    },
    Step {
        flag: "nvgpu-test-ws-data-partition",
        input: "2-taskid-propagate",
        output: "3-data-partition",
        options: "num-warp-groups=2",
        attempt: Attempt::Retried,
        floor: 1,
    },
    Step {
        flag: "nvgpu-test-ws-code-partition",
        input: "3-data-partition",
        output: "4-code-partition",
        options: "num-buffers=3 num-warp-groups=3",
        attempt: Attempt::First,
        floor: 8,
    },
    Step {
        flag: "nvgpu-test-ws-code-partition",
        input: "3-data-partition",
        output: "4-code-partition",
        options: "num-buffers=3 num-warp-groups=2",
        attempt: Attempt::Retried,
        floor: 1,
    },
    // The whole pass (the corpus kernels' num-stages is 3).
    Step {
        flag: "nvgpu-warp-specialization",
        input: "0-input",
        output: "5-output",
        options: "num-stages=3",
        attempt: Attempt::All,
        floor: 10,
    },
];

/// Upstream's dumps are not verified (4-code-partition does not verify):
/// tt-opt reads them without verifying, and prints an op that does not
/// verify in the generic form, the same way on both sides.
const LAX: &[&str] = &["--mlir-very-unsafe-disable-verifier-on-parsing", "--verify-each=false"];

/// tt-opt's output for `path` with `args`, or its error.
fn tt_opt_output(args: &[String], path: &Path) -> Result<String, String> {
    let output = Command::new(tt_opt()).args(LAX).args(args).arg(path).output().map_err(|e| e.to_string())?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        let error = String::from_utf8_lossy(&output.stderr);
        Err(error.lines().find(|l| l.contains("error")).unwrap_or("failed").to_string())
    }
}

/// What upstream's step gave: its printed outputs (the variants too), or
/// that it failed.
enum Expected {
    Outputs(Vec<PathBuf>),
    Failure,
}

/// The input and the expected result of `step` on the kernel in `dir`;
/// `None` when the step is not checked on it.
fn case(step: &Step, dir: &Path) -> Option<(PathBuf, Expected)> {
    let file = |name: &str| dir.join(format!("{name}.mlir"));
    let retried =
        std::fs::read_dir(dir).unwrap().any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".attempt1.mlir"));
    let (input, output) = match step.attempt {
        Attempt::All => (file(step.input), file(step.output)),
        Attempt::Retried if !retried => return None,
        Attempt::Retried => (file(step.input), file(step.output)),
        Attempt::First if !retried => (file(step.input), file(step.output)),
        Attempt::First => {
            let input = file(&format!("{}.attempt1", step.input));
            let input = if input.exists() || step.input != "0-input" { input } else { file(step.input) };
            (input, file(&format!("{}.attempt1", step.output)))
        }
    };
    if !input.exists() {
        return None;
    }
    if !output.exists() {
        return (step.attempt == Attempt::First && retried).then_some((input, Expected::Failure));
    }
    let stem = output.file_stem().unwrap().to_string_lossy().into_owned();
    let mut outputs = vec![output];
    let mut variants: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.strip_prefix(&format!("{stem}.variant")).is_some_and(|rest| rest.ends_with(".mlir"))
        })
        .collect();
    variants.sort();
    outputs.extend(variants);
    Some((input, Expected::Outputs(outputs)))
}

#[test]
fn ws_steps_match_upstream() {
    let root = repo_root().join("test/fixtures/ws-reference");
    let mut kernels: Vec<PathBuf> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    kernels.sort();
    let registered: Vec<&str> = tritium_passes::PASSES.iter().map(|p| p.argument).collect();
    let mut normalized: HashMap<PathBuf, Result<String, String>> = HashMap::new();
    let label = |step: &Step| format!("{} {} -> {} [{}]", step.flag, step.input, step.output, step.options);
    let width = STEPS.iter().map(|s| label(s).len()).max().unwrap_or(0);
    let mut table = format!("\n{:width$} matched / total (floor)\n", "step");
    let mut below = Vec::new();
    let mut details = Vec::new();
    for step in STEPS {
        let label = label(step);
        if !registered.contains(&step.flag) {
            table += &format!("{label:width$} (not registered)\n");
            continue;
        }
        let pass = vec![format!("--{}={}", step.flag, step.options)];
        let (mut matched, mut total) = (0, 0);
        for dir in &kernels {
            let Some((input, expected)) = case(step, dir) else { continue };
            let kernel = dir.file_name().unwrap().to_string_lossy().into_owned();
            total += 1;
            let actual = tt_opt_output(&pass, &input);
            match (expected, actual) {
                (Expected::Failure, Err(_)) => matched += 1,
                (Expected::Failure, Ok(_)) => {
                    details.push(format!("{label}: {kernel}: upstream's step failed here, this one did not"))
                }
                (Expected::Outputs(_), Err(error)) => details.push(format!("{label}: {kernel}: {error}")),
                (Expected::Outputs(outputs), Ok(actual)) => {
                    let texts: Vec<String> = outputs
                        .iter()
                        .map(|o| {
                            normalized
                                .entry(o.clone())
                                .or_insert_with(|| tt_opt_output(&[], o))
                                .clone()
                                .unwrap_or_else(|error| panic!("upstream's {} does not parse: {error}", o.display()))
                        })
                        .collect();
                    if texts.contains(&actual) {
                        matched += 1;
                    } else {
                        details.push(format!(
                            "{label}: {kernel}:\n{}",
                            crate::corpus_roundtrip::first_difference(&texts[0], &actual)
                        ));
                    }
                }
            }
        }
        table += &format!("{label:width$} {matched:7} / {total:5} ({})\n", step.floor);
        if matched < step.floor {
            below.push(format!("{label}: {matched} matches, below the floor of {}", step.floor));
        }
    }
    println!("{table}");
    for detail in details.iter().take(12) {
        println!("{detail}\n");
    }
    assert!(below.is_empty(), "{}\n{table}", below.join("\n"));
}
