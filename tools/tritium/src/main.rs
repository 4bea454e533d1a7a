//! `tritium compile KERNEL.ttir|.ttgir [options] -o DIR`: compiles one
//! Triton kernel to `DIR/NAME.ptx` and `DIR/NAME.json`.
use std::{path::PathBuf, process::ExitCode};
use tritium_dialects::io::parse_module;
use tritium_lowering::{compile, CompileOptions, Instrumentation, Target};

const USAGE: &str = "usage: tritium compile INPUT [--target cuda:90] [--num-warps N] [--num-stages N] [--num-ctas N]
                       [--libdevice PATH] [--emit-llvm] [--emit-ttgir] [--verify-each-pass] [--timing [--warm-up N]]
                       [--triton-abi] [--maxnreg N] [--no-fp-fusion] [--no-reflect-ftz] [--no-line-info]
                       [--debug-variables] [--reproducer PREFIX]
                       [--instrumentation-mode consan] -o DIR

Exit code: 0 success, 1 bad or unsupported input (diagnostics say where),
2 internal compiler error (a bug; nothing is written).
INPUT is TTIR (then Tritium's TTGIR pipeline runs with the options) or TTGIR
(its module attributes give target and warps). Writes DIR/NAME.ptx and
DIR/NAME.json (name, target, num_warps, threads_per_block, shared bytes,
parameters: the non-constexpr arguments of the kernel, in order).
--libdevice defaults to $LIBDEVICE; it is needed only by kernels that call
libdevice functions (scripts/setup.sh installs one under .tools/).
--emit-llvm also writes DIR/NAME.ll (the optimised LLVM IR); --emit-ttgir writes
DIR/NAME.ttgir (the TTGIR Tritium made from a TTIR input).
The IR is verified after each stage; --verify-each-pass verifies it after
every pass too (slower; says which pass broke it).
--triton-abi gives the kernel upstream Triton's ABI: two trailing pointer
parameters (global and profile scratch, passed by Triton's launcher, unused).
--maxnreg N, --no-fp-fusion, --no-reflect-ftz are upstream's maxnreg,
enable_fp_fusion=False and enable_reflect_ftz=False.
--no-line-info leaves the line tables (.file/.loc, from the IR's locations) out
of the PTX, as upstream's TRITON_DISABLE_LINE_INFO=1 does.
--debug-variables describes the source variables (values of named locations)
in the PTX's DWARF and keeps `debug` on its .target line, so that cuda-gdb
prints them (ptxas then does not optimise), as upstream's
LLVM_EXTRACT_DI_LOCAL_VARIABLES=1 does.
--reproducer PREFIX writes, before each pass pipeline, its input IR and the
pipeline to PREFIX.make_ttgir.repro.mlir / PREFIX.make_llir.repro.mlir (upstream's
TRITON_REPRODUCER_PATH); `tt-opt FILE --run-reproducer` replays one.
--instrumentation-mode consan is upstream's instrumentation_mode (its
TRITON_INSTRUMENTATION_MODE): the concurrency sanitizer instruments the kernel
(races on shared and tensor memory, mbarrier deadlocks stop it with an assert).
--timing prints the wall time of each step to stderr; --warm-up N compiles the
input N times first, so that the times are those of a process that has compiled
before (as a library embedding Tritium is), without one-time initialisation.";

struct Arguments {
    input: PathBuf,
    output: PathBuf,
    options: CompileOptions,
    emit_llvm: bool,
    emit_ttgir: bool,
    timing: bool,
    warm_up: u32,
}

fn parse_arguments(args: &[String]) -> Result<Arguments, String> {
    let mut args = args.iter();
    match args.next().map(String::as_str) {
        Some("compile") => {}
        Some("--help") | Some("-h") | None => return Err(USAGE.into()),
        Some(other) => return Err(format!("unknown command '{other}'\n{USAGE}")),
    }
    let mut input = None;
    let mut output = None;
    let mut options =
        CompileOptions { libdevice: std::env::var_os("LIBDEVICE").map(PathBuf::from), ..CompileOptions::default() };
    let mut emit_llvm = false;
    let mut emit_ttgir = false;
    let mut timing = false;
    let mut warm_up = 0;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        let number = |text: String, name: &str| {
            text.parse::<u32>().map_err(|_| format!("{name} must be a number, got '{text}'"))
        };
        match arg.as_str() {
            "-o" => output = Some(PathBuf::from(value("-o")?)),
            "--target" => options.target = Target::parse(&value("--target")?)?,
            "--num-warps" => options.num_warps = number(value("--num-warps")?, "--num-warps")?,
            "--num-stages" => options.num_stages = number(value("--num-stages")?, "--num-stages")?,
            "--num-ctas" => options.num_ctas = number(value("--num-ctas")?, "--num-ctas")?,
            "--libdevice" => options.libdevice = Some(PathBuf::from(value("--libdevice")?)),
            "--emit-llvm" => {
                emit_llvm = true;
                options.keep_llvm_ir = true;
            }
            "--emit-ttgir" => {
                emit_ttgir = true;
                options.keep_ttgir = true;
            }
            "--verify-each-pass" => options.verify_each_pass = true,
            "--triton-abi" => options.scratch_parameters = true,
            "--maxnreg" => options.codegen.maxnreg = Some(number(value("--maxnreg")?, "--maxnreg")?),
            "--no-fp-fusion" => options.codegen.fp_fusion = false,
            "--no-reflect-ftz" => options.codegen.reflect_ftz = false,
            "--no-line-info" => options.codegen.line_info = false,
            "--debug-variables" => options.codegen.debug_variables = true,
            "--reproducer" => options.reproducer = Some(PathBuf::from(value("--reproducer")?)),
            "--instrumentation-mode" => {
                options.instrumentation = Instrumentation::parse(&value("--instrumentation-mode")?)
                    .map_err(|e| format!("--instrumentation-mode: {e}"))?
            }
            "--timing" => timing = true,
            "--warm-up" => warm_up = number(value("--warm-up")?, "--warm-up")?,
            "--help" | "-h" => return Err(USAGE.into()),
            // Test only (RELIABILITY.md): a panic on purpose in a pass, a pattern or the lowering.
            flag if flag.starts_with("--test-internal-error=") => {
                options.test_internal_error = Some(flag["--test-internal-error=".len()..].to_string());
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option '{flag}'\n{USAGE}")),
            path => input = Some(PathBuf::from(path)),
        }
    }
    if !options.num_warps.is_power_of_two() || options.num_warps > 32 {
        return Err(format!("--num-warps must be a power of two from 1 to 32, got {}", options.num_warps));
    }
    if !options.num_ctas.is_power_of_two() || options.num_ctas > 16 {
        return Err(format!("--num-ctas must be a power of two from 1 to 16, got {}", options.num_ctas));
    }
    Ok(Arguments {
        input: input.ok_or_else(|| format!("no input file\n{USAGE}"))?,
        output: output.unwrap_or_else(|| PathBuf::from(".")),
        options,
        emit_llvm,
        emit_ttgir,
        timing,
        warm_up,
    })
}

/// `file:line:col` of a printed location: a file location, or the file
/// position inside a name or call site (Triton's frontend names values:
/// `loc("acc"("k.py":14:27))`); other locations are kept as they print.
fn source_position(location: &str) -> String {
    tritium_lowering::embed::file_position(location).unwrap_or_else(|| location.to_string())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arguments = match parse_arguments(&args) {
        Ok(a) => a,
        Err(message) => {
            if args.iter().any(|a| a == "--help" || a == "-h") {
                eprintln!("{message}");
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {message}");
            return ExitCode::from(1);
        }
    };
    tritium_dialects::internal_error::install_panic_hook();
    let start = std::time::Instant::now();
    tritium_lowering::register_all_passes();
    let context = tritium_dialects::create_context();
    let context_time = start.elapsed();
    let source = match std::fs::read_to_string(&arguments.input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", arguments.input.display());
            return ExitCode::from(1);
        }
    };
    let name = arguments.input.display().to_string();
    for _ in 0..arguments.warm_up {
        if let Ok(mut module) = parse_module(&context, &source, &name) {
            let _ = compile(&context, &mut module, &arguments.options);
        }
    }
    let parse_start = std::time::Instant::now();
    let mut module = match parse_module(&context, &source, &name) {
        Ok(m) => m,
        Err(errors) => {
            for e in errors {
                eprintln!("{e}");
            }
            return ExitCode::from(1);
        }
    };
    let parse_time = parse_start.elapsed();
    // Diagnostics of the passes and the lowering go to stderr with their location.
    let reported = std::cell::Cell::new(false);
    let handler = context.attach_diagnostic_handler(|d| {
        reported.set(true);
        let severity = match d.severity() {
            melior::diagnostic::DiagnosticSeverity::Error => "error",
            melior::diagnostic::DiagnosticSeverity::Warning => "warning",
            melior::diagnostic::DiagnosticSeverity::Note => "note",
            melior::diagnostic::DiagnosticSeverity::Remark => "remark",
        };
        eprintln!("{}: {severity}: {d}", source_position(&d.location().to_string()));
        true
    });
    let internal_errors = tritium_dialects::internal_error::count();
    // Passes and the lowering catch their own panics; this is the last resort
    // for one anywhere else (the module is then not to be used either).
    let result =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compile(&context, &mut module, &arguments.options)))
            .unwrap_or_else(|panic| {
                tritium_dialects::internal_error::record();
                let detail = tritium_dialects::internal_error::describe(panic.as_ref());
                Err(format!("internal error in tritium compile: {detail}"))
            });
    context.detach_diagnostic_handler(handler);
    if tritium_dialects::internal_error::count() != internal_errors {
        // A compiler bug, not bad input: exit code 2, and no bundle is written.
        if let Some(message) = result.as_ref().map(|_| ()).err().filter(|_| !reported.get()) {
            eprintln!("error: {message}");
        }
        eprintln!(
            "error: internal compiler error (a bug in Tritium); nothing was written. Please report it with the input."
        );
        return ExitCode::from(2);
    }
    match result {
        Ok(bundle) => {
            if let Err(e) = bundle.write(&arguments.output) {
                eprintln!("error: cannot write the bundle to {}: {e}", arguments.output.display());
                return ExitCode::from(1);
            }
            if arguments.timing {
                let steps = [("MLIR context and registration", context_time), ("parse", parse_time)];
                for (step, time) in steps.iter().chain(bundle.timings.iter()) {
                    eprintln!("{:8.2} ms  {step}", time.as_secs_f64() * 1e3);
                }
                let total = context_time + parse_start.elapsed();
                eprintln!("{:8.2} ms  total", total.as_secs_f64() * 1e3);
            }
            if arguments.emit_llvm {
                let llvm_ir = bundle.llvm_ir.as_deref().unwrap_or_default();
                let _ = std::fs::write(arguments.output.join(format!("{}.ll", bundle.info.name)), llvm_ir);
            }
            if let Some(ttgir) = bundle.ttgir.as_deref().filter(|_| arguments.emit_ttgir) {
                let _ = std::fs::write(arguments.output.join(format!("{}.ttgir", bundle.info.name)), ttgir);
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            // Diagnostics, when there were any, already said what failed and where.
            if !reported.get() {
                eprintln!("error: {message}");
            }
            ExitCode::from(1)
        }
    }
}
