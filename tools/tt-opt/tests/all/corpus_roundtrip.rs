//! Every IR file upstream Triton 3.6 wrote for the corpus kernels (TTIR,
//! TTGIR, and the input of every upstream pass, for sm_90 and sm_80) parses,
//! verifies, and prints back exactly as upstream prints it; and print -> parse
//! -> print is the identity in the custom and in the generic form.
use crate::common::{context, corpus, distinct_corpus_files};
use tritium_dialects::io::{parse_module, print, PrintOptions};

#[test]
fn corpus_covers_both_targets_and_every_kernel() {
    let entries = corpus();
    let kernels = |target: &str| -> std::collections::BTreeSet<String> {
        entries.iter().filter(|e| e.target == target).map(|e| e.kernel.clone()).collect()
    };
    // The shared corpus's 11 kernels and those of more_cases.py and
    // language_cases.py, on both targets, except the sm_90-only ones:
    // language_cases.py's programmatic dependent launch, and the kernels of
    // bench/fp8_kernels.py that need sm_89+ (e4m3, and f16 scaled dots, whose
    // sm_80 PTX upstream cannot assemble), and hopper_cases.py's tensor
    // descriptor kernels (TMA), its warp-specialized ones (ws_*) and batched
    // ones (batched_desc_*, descriptors made in the loop) among them.
    let sm90_only = |k: &String| {
        k == "tut11_add_pdl"
            || k.contains("e4m3")
            || k == "dot_scaled_fp16_e2m1"
            || k.contains("_tma")
            || k.contains("device_desc")
            || k.starts_with("ws_")
            || k.starts_with("batched_desc")
    };
    let cuda90_both: std::collections::BTreeSet<String> =
        kernels("cuda90").into_iter().filter(|k| !sm90_only(k)).collect();
    assert_eq!(kernels("cuda80"), cuda90_both);
    assert!(kernels("cuda90").len() >= 24, "{:?}", kernels("cuda90"));
    assert!(entries.len() > 2900, "{} entries", entries.len());
}

#[test]
fn corpus_prints_exactly_as_upstream() {
    let context = context();
    let mut failures = Vec::new();
    let files = distinct_corpus_files();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let module = match parse_module(&context, &text, &name) {
            Ok(m) => m,
            Err(errors) => {
                failures.push(format!("{name}: does not parse/verify: {}", errors.join("; ")));
                continue;
            }
        };
        let printed = print(&module.as_operation(), PrintOptions::TRITON);
        if printed.trim_end() != text.trim_end() {
            failures
                .push(format!("{name}: printed text differs from upstream's:\n{}", first_difference(&text, &printed)));
        }
    }
    assert!(failures.is_empty(), "{} of {} files:\n{}", failures.len(), files.len(), failures.join("\n"));
}

#[test]
fn corpus_round_trips_in_custom_and_generic_form() {
    let context = context();
    let mut failures = Vec::new();
    for path in distinct_corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let module = parse_module(&context, &text, &name).expect("checked by corpus_prints_exactly_as_upstream");
        for generic in [false, true] {
            let options = PrintOptions { generic, debug_info: true, ..Default::default() };
            let once = print(&module.as_operation(), options);
            let twice = match parse_module(&context, &once, &name) {
                Ok(reparsed) => print(&reparsed.as_operation(), options),
                Err(errors) => {
                    failures.push(format!("{name} (generic={generic}): reprint does not parse: {}", errors.join("; ")));
                    continue;
                }
            };
            if once != twice {
                failures.push(format!("{name} (generic={generic}):\n{}", first_difference(&once, &twice)));
            }
        }
        // The generic form carries the same IR: printing it in custom syntax
        // gives the original text back.
        let generic = print(&module.as_operation(), PrintOptions { generic: true, ..PrintOptions::TRITON });
        let back = parse_module(&context, &generic, &name).map(|m| print(&m.as_operation(), PrintOptions::TRITON));
        if back.as_deref().map(str::trim_end) != Ok(text.trim_end()) {
            failures.push(format!("{name}: generic -> custom does not give the original text back"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

pub fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!("  line {}:\n  expected: {e}\n  actual:   {a}", i + 1);
        }
    }
    format!("  line counts differ: {} vs {}", expected.lines().count(), actual.lines().count())
}
