//! tt-opt: MLIR's mlir-opt driver over Tritium's dialects and passes. It takes
//! every mlir-opt flag (-o, --split-input-file, --verify-diagnostics,
//! --pass-pipeline, --mlir-print-ir-after-all, ...) and one flag per pass.
fn main() {
    tritium_passes::register_all();
    std::process::exit(tritium_dialects::opt_main(std::env::args_os()));
}
