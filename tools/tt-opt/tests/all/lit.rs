//! Runs the lit suite (test/**/*.mlir: RUN lines with tt-opt and FileCheck,
//! like MLIR's and Triton's own tests) against the tt-opt cargo just built.
use crate::common::{repo_root, tt_opt};
use std::process::Command;

#[test]
fn lit_suite_passes() {
    let lit = std::env::var("LIT").unwrap_or_else(|_| "/usr/lib/llvm-22/bin/lit".into());
    let output = Command::new(&lit)
        .arg("-sv")
        .arg(repo_root().join("test"))
        .env("TT_OPT_DIR", tt_opt().parent().unwrap())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {lit}: {e}"));
    let log = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "lit failed:\n{log}");
    assert!(log.contains("Passed"), "lit ran no test:\n{log}");
}
