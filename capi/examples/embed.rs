//! Tritium embedded in a Rust program: `embed KERNEL.ttir OUT.ptx [NUM_WARPS] [NUM_STAGES] [--triton-abi]`.
use tritium_lowering::{compile_source, CompileOptions, Target};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let ttir = std::fs::read_to_string(&args[1]).map_err(|e| e.to_string())?;
    let number =
        |i: usize, default: u32| args.get(i).map_or(Ok(default), |a| a.parse().map_err(|_| format!("bad number {a}")));
    let options = CompileOptions {
        target: Target::parse("cuda:90")?,
        num_warps: number(3, 4)?,
        num_stages: number(4, 3)?,
        libdevice: std::env::var_os("LIBDEVICE").map(Into::into),
        scratch_parameters: args.iter().any(|a| a == "--triton-abi"),
        ..CompileOptions::default()
    };
    // One MLIR context per thread, reused by later compiles; Err holds the located diagnostics.
    let compiled = compile_source(&ttir, &args[1], &options, false)?;
    std::fs::write(&args[2], &compiled.bundle.ptx).map_err(|e| e.to_string())?;
    println!("{}", compiled.bundle.metadata_json());
    Ok(())
}
