//! Bad input to the pipeline builder and the driver: errors, never a
//! silently different compilation (see RELIABILITY.md for the whole table).
use tritium_passes::pipeline::{registered_only, ttgir_pipeline};

#[test]
fn unknown_pass_flags_are_errors_and_missing_upstream_passes_are_left_out() {
    let flag = |f: &str| (f.to_string(), String::new());
    // cse is MLIR's; tritongpu-optimize-partition-warps is upstream's
    // (Blackwell), not Tritium's yet.
    let kept = registered_only(vec![flag("cse"), flag("tritongpu-optimize-partition-warps")]).unwrap();
    assert_eq!(kept, vec![flag("cse")]);
    let error = registered_only(vec![flag("tritongpu-coalese")]).unwrap_err();
    assert!(error.contains("'tritongpu-coalese'"), "{error}");
}

#[test]
fn bad_launch_options_are_errors() {
    for (capability, warps, ctas, expected) in [
        (90, 3, 1, "num-warps"),
        (90, 64, 1, "num-warps"),
        (90, 0, 1, "num-warps"),
        (90, 4, 0, "num-ctas"),
        (90, 4, 3, "num-ctas"),
        (75, 4, 1, "sm_80"),
    ] {
        let error = ttgir_pipeline(capability, warps, ctas, 3).unwrap_err();
        assert!(error.contains(expected), "cuda:{capability} warps {warps} ctas {ctas}: {error}");
    }
    for capability in [80, 90] {
        assert!(ttgir_pipeline(capability, 4, 1, 3).is_ok());
    }
}

/// `ContextRef::to_ref` returns a `&Context` that points into the
/// `ContextRef` itself, so `let c = unsafe { op.context().to_ref() };` keeps
/// a reference to a dropped temporary: debug builds happen to work, release
/// builds crash (the Python wheel segfaulted in tritongpu-allocate-warp-groups
/// this way). Keep the ContextRef in a variable of its own first.
#[test]
fn no_context_reference_outlives_its_context_ref() {
    let mut offenders = Vec::new();
    let mut stack: Vec<std::path::PathBuf> =
        ["dialects/src", "passes/src", "lowering/src", "python/src", "capi/src", "tools"]
            .iter()
            .map(|d| crate::common::repo_root().join(d))
            .collect();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            for (number, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
                let line = line.trim();
                if line.starts_with("let ") && line.contains(".context().to_ref()") {
                    offenders.push(format!("{}:{}: {line}", path.display(), number + 1));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "dangling &Context (keep the ContextRef in a variable):\n{}", offenders.join("\n"));
}
