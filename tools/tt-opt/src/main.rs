//! tt-opt: MLIR's mlir-opt driver over Tritium's dialects and passes. It takes
//! every mlir-opt flag (-o, --split-input-file, --verify-diagnostics,
//! --pass-pipeline, --mlir-print-ir-after-all, ...) and one flag per pass.
//! Exit codes: 0 success, 1 bad input (diagnostics say where), 2 an internal
//! error (a panic in a Rust pass or pattern, reported as a diagnostic).
fn main() {
    tritium_dialects::internal_error::install_panic_hook();
    tritium_lowering::register_all_passes();
    let code = tritium_dialects::opt_main(std::env::args_os());
    if tritium_dialects::internal_error::count() > 0 {
        std::process::exit(2);
    }
    std::process::exit(code);
}
