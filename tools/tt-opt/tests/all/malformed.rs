//! Malformed input gives a located diagnostic and exit code 1 from tt-opt, and
//! an error value from the library; never a panic, an abort or a crash.
use crate::common::{context, corpus, tt_opt};
use std::process::Command;
use tritium_dialects::io::parse_module;

const MODULE_ATTRS: &str = r#"module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}"#;

/// (name, input, a phrase the error must contain)
fn cases() -> Vec<(&'static str, String, &'static str)> {
    let blocked =
        "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>";
    let tt_func = |body: &str| format!("tt.func @f(%p: !tt.ptr<f32>, %i: i32, %f: f32) {{\n{body}\n  tt.return\n}}\n");
    let ttg_module = |defs: &str, body: &str| format!("{defs}\n{MODULE_ATTRS} {{\n{}}}\n", tt_func(body));
    let softmax = corpus().into_iter().find(|e| e.kernel == "softmax" && e.stage == "ttir").unwrap().text();
    vec![
        // Where the cut lands decides the message; any located error will do.
        ("truncated file", softmax[..softmax.len() / 2].to_string(), ""),
        ("garbage bytes", "\u{1}\u{7f}\u{3}#!%%%\n@@@ \u{2}\u{1b}[0m".into(), ""),
        ("unknown tt op", tt_func("  %x = tt.frobnicate %i : i32"), "tt.frobnicate"),
        ("undefined value", tt_func("  %x = tt.splat %nope : i32 -> tensor<4xi32>"), "undeclared SSA value"),
        ("unbalanced braces", "tt.func @f() {\n  tt.return\n".into(), "expected"),
        ("addptr with a float offset", tt_func("  %q = tt.addptr %p, %f : !tt.ptr<f32>, f32"), "must be integer"),
        ("load mask of the wrong shape", tt_func(
            "  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n  %m = arith.constant dense<true> : tensor<8xi1>\n  %x = tt.load %ps, %m : tensor<4x!tt.ptr<f32>>"),
            "expects different type"),
        ("store of the wrong type", tt_func("  tt.store %p, %i : !tt.ptr<f32>"), "f32"),
        ("make_range without end", tt_func("  %r = tt.make_range {start = 0 : i32} : tensor<4xi32>"), "end"),
        ("make_range of the wrong size", tt_func("  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<4xi32>"), "elements"),
        ("bad program axis", tt_func("  %x = tt.get_program_id w : i32"), "w"),
        ("pointer without pointee", tt_func("  %x = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<>"), "expected"),
        ("dot of mismatched shapes", tt_func(
            "  %a = arith.constant dense<0.0> : tensor<16x32xf16>\n  %b = arith.constant dense<0.0> : tensor<16x16xf16>\n  %c = arith.constant dense<0.0> : tensor<16x16xf32>\n  %d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>"),
            "expected the last dimension of the first operand"),
        ("reduce combiner of the wrong type", tt_func(
            "  %a = arith.constant dense<1.0> : tensor<4xf32>\n  %s = \"tt.reduce\"(%a) <{axis = 0 : i32}> ({\n  ^bb0(%x: i32, %y: i32):\n    %z = arith.addi %x, %y : i32\n    tt.reduce.return %z : i32\n  }) : (tensor<4xf32>) -> f32"),
            "combiner"),
        ("call of an unknown function", tt_func("  tt.call @missing(%i) : (i32) -> ()"), "does not reference a valid function"),
        ("return of the wrong type", "tt.func @f(%i: i32) -> f32 {\n  tt.return %i : i32\n}\n".into(), "doesn't match function result type"),
        ("unknown layout parameter", ttg_module(
            "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], colour = [1]}>",
            "  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>"),
            "unexpected key 'colour'"),
        ("missing layout parameter", ttg_module(
            "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4]}>",
            "  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>"),
            "missing 'order'"),
        ("warps per CTA not a power of two", ttg_module(
            "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [3], order = [0]}>",
            "  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>"),
            "powers of two"),
        ("layout over the wrong number of warps", ttg_module(
            "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>",
            "  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>"),
            "the context requires 4 warps per CTA"),
        ("layout of the wrong rank", ttg_module(blocked, "  %c = arith.constant dense<0> : tensor<4x4xi32, #blocked>\n  %d = tt.broadcast %c : tensor<4x4xi32, #blocked> -> tensor<4x4xi32, #blocked>"), "rank"),
        ("slice dim out of range", ttg_module(
            "#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>",
            "  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 2, parent = #blocked}>>"),
            "slice dim=2"),
        ("mma of an unknown version", ttg_module(
            "#mma = #ttg.nvidia_mma<{versionMajor = 4, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>",
            "  %c = arith.constant dense<0.0> : tensor<64x64xf32, #mma>"),
            "versionMajor"),
        ("dot operand of an mma without kWidth", ttg_module(
            "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>",
            "  %c = arith.constant dense<0.0> : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma}>>"),
            "kWidth"),
        ("memdesc of rank 0", ttg_module(
            "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n#smem = #ttg.shared_memory",
            "  %a = ttg.local_alloc : () -> !ttg.memdesc<f32, #shared, #smem, mutable>"),
            "rank 0 memdesc is not allowed"),
        ("memdesc larger than its allocation", ttg_module(
            "#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n#smem = #ttg.shared_memory",
            "  %a = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable, 32>"),
            "exceeds its alloc shape"),
        ("store into immutable shared memory", ttg_module(
            &format!("{blocked}\n#shared = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>\n#smem = #ttg.shared_memory"),
            "  %c = arith.constant dense<0.0> : tensor<128xf32, #blocked>\n  %a = ttg.local_alloc %c : (tensor<128xf32, #blocked>) -> !ttg.memdesc<128xf32, #shared, #smem>\n  ttg.local_store %c, %a : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem>"),
            "immutable"),
        ("unterminated string", tt_func("  tt.print \"x = : %i : i32"), "expected"),
    ]
}

fn is_located(stderr: &str, file: &str) -> bool {
    // `<file>:<line>:<col>: error:`
    stderr.lines().any(|l| {
        l.strip_prefix(file)
            .and_then(|rest| rest.strip_prefix(':'))
            .map(|rest| {
                let parts: Vec<&str> = rest.splitn(3, ':').collect();
                parts.len() == 3
                    && parts[0].chars().all(|c| c.is_ascii_digit())
                    && parts[1].chars().all(|c| c.is_ascii_digit())
                    && parts[2].trim_start().starts_with("error:")
            })
            .unwrap_or(false)
    })
}

#[test]
fn malformed_input_gets_a_located_error_and_exit_code_1() {
    let dir = std::env::temp_dir().join(format!("tritium-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases();
    assert!(cases.len() >= 20);
    let mut failures = Vec::new();
    for (i, (name, input, phrase)) in cases.iter().enumerate() {
        let file = dir.join(format!("case{i}.mlir"));
        std::fs::write(&file, input).unwrap();
        let file = file.to_string_lossy().into_owned();
        for extra in [&[][..], &["--pass-pipeline=builtin.module(canonicalize,cse)"][..]] {
            let output = Command::new(tt_opt()).arg(&file).args(extra).output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            let crashed = ["Stack dump", "PLEASE submit", "LLVM ERROR", "Assertion", "panicked"]
                .iter()
                .any(|s| stderr.contains(s));
            if output.status.code() != Some(1) || crashed || !is_located(&stderr, &file) || !stderr.contains(phrase) {
                failures
                    .push(format!("{name} {extra:?}: status {:?}, expected '{phrase}' in:\n{stderr}", output.status));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn malformed_input_is_an_error_value_in_the_library() {
    let context = context();
    for (name, input, phrase) in cases() {
        match parse_module(&context, &input, "input.mlir") {
            Ok(_) => panic!("{name}: accepted"),
            Err(errors) => assert!(
                errors.iter().any(|e| e.starts_with("input.mlir:") && e.contains("error:"))
                    && errors.join("\n").contains(phrase),
                "{name}: {errors:?}"
            ),
        }
    }
}

#[test]
fn bad_pass_pipelines_are_errors_not_crashes() {
    let softmax = corpus().into_iter().find(|e| e.kernel == "softmax" && e.stage == "ttir").unwrap();
    for pipeline in
        ["builtin.module(no-such-pass)", "builtin.module(test-print-linear-layouts{bogus=1})", "builtin.module(cse"]
    {
        let output =
            Command::new(tt_opt()).arg(&softmax.path).arg(format!("--pass-pipeline={pipeline}")).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{pipeline}: {stderr}");
        assert!(stderr.contains("error"), "{pipeline}: {stderr}");
    }
}
