//! What the three libFuzzer targets share: one MLIR context per process
//! (renewed now and then, so that the types and attributes random inputs
//! intern do not grow without bound), the compile options an input asks for,
//! and ptxas.
//!
//! A finding is a panic (libfuzzer-sys aborts the process in its panic hook,
//! before Tritium's own `catch_unwind` could turn the panic into an
//! internal-error diagnostic), a signal, a timeout, or one of the checks
//! below failing (a printed module that does not parse back, a pipeline
//! output that does not verify, PTX that ptxas rejects). Bad input that gets
//! a diagnostic is not a finding.
use melior::{ir::Module, Context};
use std::cell::RefCell;
use tritium_lowering::{CompileOptions, Target};

/// Inputs compiled with one context before it is replaced.
const INPUTS_PER_CONTEXT: u32 = 2000;

thread_local! {
    static CONTEXT: RefCell<(Context, u32)> = RefCell::new((new_context(), 0));
}

fn new_context() -> Context {
    tritium_lowering::register_all_passes();
    let context = tritium_dialects::create_context();
    // One process per fuzzer, one input at a time: MLIR's thread pool would
    // only compete with the other fuzzers for the cores.
    context.enable_multi_threading(false);
    // Diagnostics of bad inputs are expected; keep them off stderr.
    context.attach_diagnostic_handler(|_| true);
    context
}

/// Runs `body` with this thread's context.
pub fn with_context<R>(body: impl FnOnce(&Context) -> R) -> R {
    CONTEXT.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.1 >= INPUTS_PER_CONTEXT {
            *cell = (new_context(), 0);
        }
        cell.1 += 1;
        body(&cell.0)
    })
}

/// The input as text, or None for bytes that are not UTF-8 (`tritium`
/// refuses those before parsing; nothing to fuzz there).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Parses and verifies; None when the input is not valid IR.
pub fn parse<'c>(context: &'c Context, text: &str) -> Option<Module<'c>> {
    tritium_dialects::io::parse_module(context, text, "fuzz.mlir").ok()
}

/// The compile options an input asks for in a first-line comment
/// `// fuzz: target=cuda:80 num-warps=8 num-stages=2` (what the kernel
/// generator writes; any subset, in any order); defaults sm_90, 4 warps, 3
/// stages. Values out of the ranges `tritium compile` accepts are clamped,
/// as its option checks would refuse them before compiling.
pub fn options(text: &str) -> CompileOptions {
    let mut options = CompileOptions {
        // Kernels calling libdevice functions need it (scripts/fuzz.sh sets it).
        libdevice: std::env::var_os("LIBDEVICE").map(Into::into),
        ..CompileOptions::default()
    };
    let Some(header) = text.lines().next().and_then(|l| l.strip_prefix("// fuzz:")) else {
        return options;
    };
    for (key, value) in header.split_whitespace().filter_map(|w| w.split_once('=')) {
        match key {
            "target" => {
                if let Ok(target) = Target::parse(value) {
                    options.target = target;
                }
            }
            "num-warps" => {
                if let Ok(n @ (1 | 2 | 4 | 8 | 16 | 32)) = value.parse::<u32>() {
                    options.num_warps = n;
                }
            }
            "num-stages" => {
                if let Ok(n @ 0..=6) = value.parse::<u32>() {
                    options.num_stages = n;
                }
            }
            _ => {}
        }
    }
    options
}

/// ptxas, when `TRITIUM_FUZZ_PTXAS` names it (scripts/fuzz.sh sets it from
/// scripts/cuda-tools.sh); compile checks its PTX with it then.
pub fn ptxas() -> Option<std::path::PathBuf> {
    std::env::var_os("TRITIUM_FUZZ_PTXAS").map(Into::into)
}

/// Assembles `ptx` for `arch` (`sm_90a`); panics (a finding) when ptxas
/// rejects PTX that Tritium produced without an error.
pub fn assemble(ptxas: &std::path::Path, ptx: &str, arch: &str) {
    let directory = std::env::temp_dir().join(format!("tritium-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("temporary directory");
    let input = directory.join("kernel.ptx");
    std::fs::write(&input, ptx).expect("write the PTX");
    let output = std::process::Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg(&input)
        .arg("-o")
        .arg(directory.join("kernel.cubin"))
        .output()
        .expect("run ptxas");
    if !output.status.success() {
        let kept = std::env::temp_dir().join(format!("tritium-fuzz-rejected-{}.ptx", std::process::id()));
        std::fs::write(&kept, ptx).ok();
        panic!(
            "ptxas rejected Tritium's PTX (kept in {}): {}",
            kept.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// An alternate signal stack, and SA_ONSTACK on SIGSEGV/SIGBUS, before
/// libFuzzer installs its crash handler (it keeps that flag): on a stack
/// overflow (MLIR's recursive parser on deeply nested input) its handler
/// can then run, report the crash and keep the input, instead of the
/// process dying silently as it did on the first such finding.
pub fn install_alternate_signal_stack() {
    const SIZE: usize = 1 << 20;
    let stack: &'static mut [u8] = Box::leak(vec![0u8; SIZE].into_boxed_slice());
    // SAFETY: the stack lives for the rest of the process; the actions are plain
    // default dispositions with one flag added.
    unsafe {
        let alternate = libc::stack_t { ss_sp: stack.as_mut_ptr().cast(), ss_flags: 0, ss_size: SIZE };
        libc::sigaltstack(&alternate, std::ptr::null_mut());
        for signal in [libc::SIGSEGV, libc::SIGBUS] {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = libc::SIG_DFL;
            action.sa_flags = libc::SA_ONSTACK;
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// The process entry point of a fuzz target: libFuzzer's driver over the
/// target's `LLVMFuzzerTestOneInput` (what `fuzz_target!` defines).
///
/// libFuzzer brings its own `main`, but Debian's `libMLIRMlirOptMain.a`
/// (which tt-opt's driver needs) holds mlir-opt's `main` as well, and the
/// linker took that one: the fuzz binaries ran as mlir-opt and refused
/// libFuzzer's flags. A `main` in the target's own object file comes before
/// both archives.
#[macro_export]
macro_rules! libfuzzer_main {
    () => {
        extern "C" {
            fn LLVMFuzzerRunDriver(
                argc: *mut std::os::raw::c_int,
                argv: *mut *mut *mut std::os::raw::c_char,
                callback: unsafe extern "C" fn(*const u8, usize) -> std::os::raw::c_int,
            ) -> std::os::raw::c_int;
            fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> std::os::raw::c_int;
        }

        #[no_mangle]
        pub extern "C" fn main(mut argc: std::os::raw::c_int, mut argv: *mut *mut std::os::raw::c_char) -> std::os::raw::c_int {
            $crate::install_alternate_signal_stack();
            // SAFETY: argc/argv are the process's, as the C runtime passed them.
            unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, LLVMFuzzerTestOneInput) }
        }
    };
}
