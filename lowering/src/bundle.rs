//! The compile command's core: a module of Triton IR (TTIR or TTGIR) to a
//! kernel bundle: PTX plus what a launcher needs (name, parameters, warps,
//! shared memory).
use crate::{
    emit, ptx,
    target::{ModuleConfig, Target},
};
use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
    utility::parse_pass_pipeline,
    Context,
};
use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

#[derive(Clone, Debug)]
pub struct CompileOptions {
    pub target: Target,
    pub num_warps: u32,
    pub num_stages: u32,
    pub num_ctas: u32,
    /// libdevice.10.bc, linked when the kernel calls `__nv_*` functions.
    pub libdevice: Option<PathBuf>,
    /// Keep the optimised LLVM IR in the bundle.
    pub keep_llvm_ir: bool,
    /// Keep the TTGIR Tritium's pipeline makes of a TTIR input in the bundle.
    pub keep_ttgir: bool,
    /// Verify the module after every pass (as mlir-opt does), not only after
    /// each stage: slower, for finding which pass broke the IR.
    pub verify_each_pass: bool,
    /// Test only: make a bug happen on purpose, to check how internal errors
    /// are reported: `pass` or `pattern` (a panic in a pass or one of its
    /// rewrite patterns, after the TTGIR stage), `lowering` (in the lowering).
    pub test_internal_error: Option<String>,
    /// Upstream Triton's kernel ABI: two trailing scratch pointers (global and
    /// profile scratch) after the kernel's arguments, which Triton's launcher
    /// always passes. Off for the standalone bundles (README: kernel ABI).
    pub scratch_parameters: bool,
    /// Code generation as upstream's options of these names.
    pub codegen: CodegenOptions,
    /// What the kernel is instrumented with (upstream's `instrumentation_mode`).
    pub instrumentation: Instrumentation,
    /// Upstream's TRITON_REPRODUCER_PATH: before each pass pipeline runs, its
    /// input and the pipeline are written to `PREFIX.STAGE.repro.mlir`
    /// (STAGE: `make_ttgir`, `make_llir`) in MLIR's reproducer format, which
    /// `tt-opt FILE --run-reproducer` replays. The file of a stage that fails
    /// holds the failing pipeline and its input.
    pub reproducer: Option<PathBuf>,
}

/// Instrumentation compiled into the kernel: upstream Triton's
/// `instrumentation_mode` (its knob `triton.knobs.compilation.instrumentation_mode`,
/// TRITON_INSTRUMENTATION_MODE).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Instrumentation {
    #[default]
    None,
    /// `consan`: upstream's concurrency sanitizer
    /// (`tritoninstrument-concurrency-sanitizer`): races on shared and tensor
    /// memory and mbarrier deadlocks stop the kernel with an assert.
    ConcurrencySanitizer,
}

impl Instrumentation {
    /// The modes by upstream's names: `""` or `none` (none), `consan`.
    pub const MODES: &'static str = "consan";

    /// An instrumentation mode by upstream's name; unknown ones are errors.
    pub fn parse(mode: &str) -> Result<Self, String> {
        match mode {
            "" | "none" => Ok(Instrumentation::None),
            "consan" => Ok(Instrumentation::ConcurrencySanitizer),
            other => Err(format!("unknown instrumentation mode '{other}' (known: {})", Self::MODES)),
        }
    }
}

/// Upstream Triton's code-generation options (its `CUDAOptions`).
#[derive(Clone, Copy, Debug)]
pub struct CodegenOptions {
    /// `maxnreg`: at most this many registers per thread (`.maxnreg` on the
    /// kernel, through the module's `ttg.maxnreg` as upstream sets it).
    pub maxnreg: Option<u32>,
    /// `enable_fp_fusion`: multiplies and adds may fuse into fma.
    pub fp_fusion: bool,
    /// `enable_reflect_ftz`: f32 denormals flush in exp2 and in libdevice
    /// (`nvvm-reflect-ftz`).
    pub reflect_ftz: bool,
    /// Line tables in the PTX (`.file`/`.loc`, the `enable-line-info` pass);
    /// upstream's default, off with its `TRITON_DISABLE_LINE_INFO`.
    pub line_info: bool,
    /// Source variables in the PTX's DWARF for cuda-gdb (`extract-variable-info`
    /// after `enable-line-info{variables=true}`, and `.target ..., debug`, so
    /// that ptxas keeps them): upstream's `LLVM_EXTRACT_DI_LOCAL_VARIABLES`.
    pub debug_variables: bool,
}

impl Default for CodegenOptions {
    fn default() -> Self {
        CodegenOptions { maxnreg: None, fp_fusion: true, reflect_ftz: true, line_info: true, debug_variables: false }
    }
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            target: Target { capability: 90 },
            num_warps: 4,
            num_stages: 3,
            num_ctas: 1,
            libdevice: None,
            keep_llvm_ir: false,
            keep_ttgir: false,
            verify_each_pass: false,
            test_internal_error: None,
            scratch_parameters: false,
            codegen: CodegenOptions::default(),
            instrumentation: Instrumentation::None,
            reproducer: None,
        }
    }
}

pub struct Bundle {
    pub info: emit::KernelInfo,
    pub target: Target,
    /// The optimised LLVM IR (when `keep_llvm_ir`).
    pub llvm_ir: Option<String>,
    /// The TTGIR of a TTIR input (when `keep_ttgir`).
    pub ttgir: Option<String>,
    pub ptx: String,
    /// Wall time of each compilation step, in order.
    pub timings: Vec<(&'static str, Duration)>,
}

impl Bundle {
    /// `{name, target, num_warps, threads_per_block, shared, parameters,
    /// tensordesc_meta, global_scratch_size, global_scratch_align}`.
    pub fn metadata_json(&self) -> String {
        let parameters: Vec<String> = self
            .info
            .parameters
            .iter()
            .map(|(name, ty)| format!("    {{\"name\": {:?}, \"type\": {:?}}}", name, ty))
            .collect();
        format!(
            "{{\n  \"name\": {:?},\n  \"target\": {:?},\n  \"num_warps\": {},\n  \"threads_per_block\": {},\n  \"shared\": {},\n  \"parameters\": [\n{}\n  ],\n  \"tensordesc_meta\": [{}],\n  \"global_scratch_size\": {},\n  \"global_scratch_align\": {}\n}}\n",
            self.info.name,
            self.target.name(),
            self.info.num_warps,
            self.info.num_warps * self.info.threads_per_warp,
            self.info.shared_bytes,
            parameters.join(",\n"),
            self.info.tensordesc_meta.join(", "),
            self.info.global_scratch_size,
            self.info.global_scratch_align
        )
    }

    /// Writes `DIR/NAME.ptx` and `DIR/NAME.json`.
    pub fn write(&self, directory: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(directory)?;
        std::fs::write(directory.join(format!("{}.ptx", self.info.name)), &self.ptx)?;
        std::fs::write(directory.join(format!("{}.json", self.info.name)), self.metadata_json())
    }
}

/// Runs `pipeline` over `module`, a part of upstream's `stage` (for
/// reproducers). Unless `verify_each_pass`, the module is
/// verified once at the end rather than after every pass: verification after
/// each of the ~35 TTGIR passes was a fifth of their time, and a stage's
/// output is still checked before the next stage reads it.
fn run_pipeline(
    context: &Context,
    module: &mut Module,
    pipeline: &str,
    options: &CompileOptions,
    stage: &str,
) -> Result<(), String> {
    let verify_each_pass = options.verify_each_pass;
    if let Some(prefix) = &options.reproducer {
        write_reproducer(module, pipeline, prefix, stage)?;
    }
    let manager = PassManager::new(context);
    manager.enable_verifier(verify_each_pass);
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline)
        .map_err(|e| format!("pipeline {pipeline}: {e}"))?;
    let internal_errors = tritium_dialects::internal_error::count();
    manager.run(module).map_err(|_| format!("the passes {pipeline} failed"))?;
    // A pattern of an upstream pass (canonicalize) that panicked did not fail
    // that pass, but its IR is not to be trusted.
    if tritium_dialects::internal_error::count() != internal_errors {
        return Err(format!("internal error in the passes {pipeline}"));
    }
    if !verify_each_pass && !module.as_operation().verify() {
        return Err(format!("the passes {pipeline} produced IR that does not verify"));
    }
    Ok(())
}

/// Writes `PREFIX.STAGE.repro.mlir`: the module (with its locations) and, as
/// MLIR's crash reproducers carry it, the pipeline about to run over it.
fn write_reproducer(module: &Module, pipeline: &str, prefix: &Path, stage: &str) -> Result<(), String> {
    let mut path = prefix.as_os_str().to_owned();
    path.push(format!(".{stage}.repro.mlir"));
    let ir = tritium_dialects::io::print(&module.as_operation(), tritium_dialects::io::PrintOptions::TRITON);
    let text = format!(
        "{ir}\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n      pipeline: {pipeline:?},\n      \
         disable_threading: true,\n      verify_each: true\n    }}\n  }}\n#-}}\n"
    );
    std::fs::write(&path, text).map_err(|e| format!("cannot write the reproducer {}: {e}", Path::new(&path).display()))
}

/// The debug-information passes after the lowering, as upstream's make_llir
/// runs them: line tables (`enable-line-info`), and source variables
/// (`extract-variable-info`, with full debug information) when asked for.
fn debug_info_passes(codegen: &CodegenOptions) -> &'static str {
    match (codegen.line_info, codegen.debug_variables) {
        (true, false) => ",enable-line-info",
        (true, true) => ",enable-line-info{variables=true},extract-variable-info",
        (false, true) => ",extract-variable-info",
        (false, false) => "",
    }
}

/// Compiles a kernel module in place. TTGIR (a module with `ttg.num-warps`)
/// is lowered as it is; TTIR first goes through Tritium's TTGIR pipeline.
/// Errors were emitted as diagnostics; the string says which stage failed.
pub fn compile(context: &Context, module: &mut Module, options: &CompileOptions) -> Result<Bundle, String> {
    let mut timings = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |name: &'static str| {
        timings.push((name, clock.elapsed()));
        clock = Instant::now();
    };
    let mut ttgir = None;
    if let Some(registers) = options.codegen.maxnreg {
        // As upstream's make_ttgir: the kernel's register limit rides on the
        // module (warp specialization's register budgets read it too).
        let i32 = melior::ir::r#type::IntegerType::new(context, 32).into();
        let limit = melior::ir::attribute::IntegerAttribute::new(i32, i64::from(registers)).into();
        melior::ir::operation::OperationMutLike::set_discardable_attribute(
            &mut module.as_operation_mut(),
            "ttg.maxnreg",
            limit,
        );
    }
    let config = ModuleConfig::of(&module.as_operation()).map_err(|error| {
        tritium_dialects::pass::emit_error(module.as_operation().location(), &error.0);
        error.0
    })?;
    let is_ttgir = config.num_warps.is_some();
    let target = if is_ttgir {
        match Target::of_module(&module.as_operation()) {
            Some(target) => target.map_err(|message| {
                tritium_dialects::pass::emit_error(module.as_operation().location(), &format!("ttg.target: {message}"));
                message
            })?,
            None => options.target,
        }
    } else {
        // num_ctas > 1: the TTGIR is made for one CTA, and the first CTA of
        // each cluster runs the program (emit::CTAS_PER_CLUSTER says why).
        let pipeline = tritium_passes::pipeline::ttgir_pipeline(
            options.target.capability,
            options.num_warps,
            1,
            options.num_stages,
        )?;
        run_pipeline(context, module, &pipeline, options, "make_ttgir")?;
        if options.num_ctas > 1 {
            let location = module.as_operation().location();
            tritium_dialects::pass::emit_warning(
                location,
                &format!(
                    "num_ctas={}: Tritium runs each program on the first CTA of its cluster (the others exit at once); \
                     layouts split over a cluster's CTAs are not implemented yet",
                    options.num_ctas
                ),
            );
            let i32 = melior::ir::r#type::IntegerType::new(context, 32).into();
            let ctas = melior::ir::attribute::IntegerAttribute::new(i32, i64::from(options.num_ctas)).into();
            melior::ir::operation::OperationMutLike::set_discardable_attribute(
                &mut module.as_operation_mut(),
                crate::emit::CTAS_PER_CLUSTER,
                ctas,
            );
        }
        lap("TTIR -> TTGIR passes");
        if options.keep_ttgir {
            ttgir = Some(module.as_operation().to_string());
        }
        options.target
    };
    match options.test_internal_error.as_deref() {
        Some(place @ ("pass" | "pattern")) => {
            let pipeline = format!("builtin.module(test-tritium-internal-error{{in={place}}})");
            run_pipeline(context, module, &pipeline, options, "make_llir")?;
        }
        Some("lowering") | None => {}
        Some(other) => return Err(format!("unknown internal-error test '{other}' (pass, pattern, lowering)")),
    }
    // make_llir starts by merging tensor selects into the `scf.if`s on the
    // same condition (a fused persistent loop's accumulator reset).
    run_pipeline(context, module, "builtin.module(tritongpu-combine-tensor-select-and-if)", options, "make_llir")?;
    // Shared memory is laid out and synchronised by passes, as upstream's
    // make_llir does; a module that already carries `ttg.shared` was. The
    // proxy fences (sm_90: generic-proxy writes before a TMA load over the
    // same bytes) go in before the barriers, as upstream's membar runs after
    // them: each thread fences its own writes, then the barrier, then the
    // copy.
    if module.as_operation().attribute("ttg.shared").is_err() {
        let pipeline = format!(
            "builtin.module(tritongpu-allocate-warp-groups,allocate-shared-memory-nv{{compute-capability={cc} ptx-version={ptx}}},\
             triton-nvidia-gpu-proxy-fence-insertion{{compute-capability={cc}}},tritongpu-membar)",
            cc = target.capability,
            ptx = target.ptx_version()
        );
        run_pipeline(context, module, &pipeline, options, "make_llir")?;
        lap("shared memory allocation and barriers");
    }
    // Upstream's concurrency sanitizer (instrumentation mode `consan`):
    // after shared memory is laid out (it tracks buffers by offset), before
    // global scratch (its state lives there).
    if options.instrumentation == Instrumentation::ConcurrencySanitizer {
        let pipeline = "builtin.module(tritoninstrument-concurrency-sanitizer)";
        run_pipeline(context, module, pipeline, options, "make_llir")?;
        lap("concurrency sanitizer");
    }
    // Global scratch (device-side descriptors' tensormaps), as upstream's
    // make_llir lays it out.
    if module.as_operation().attribute("ttg.global_scratch_memory_size").is_err() {
        run_pipeline(
            context,
            module,
            "builtin.module(tritongpu-global-scratch-memory-allocation)",
            options,
            "make_llir",
        )?;
    }
    // A module that came with its allocation was not checked by the pass.
    let shared = crate::int_attribute(&module.as_operation(), "ttg.shared").unwrap_or(0);
    let limit = tritium_passes::max_shared_bytes(target.capability);
    if usize::try_from(shared).is_err() || shared as usize > limit {
        let message =
            format!("the kernel needs {shared} bytes of shared memory (ttg.shared), more than the {limit} bytes a CTA can have on sm_{}", target.capability);
        tritium_dialects::pass::emit_error(module.as_operation().location(), &message);
        return Err(message);
    }
    let info = emit::find_kernel(module, options.scratch_parameters)
        .map_err(|e| {
            e.emit();
            format!("lowering failed at {}: {}", e.location, e.message)
        })?
        .info;
    // The lowering is a registered pass (a panic in it is an internal-error
    // diagnostic naming it, as in every pass).
    let test_panic = options.test_internal_error.as_deref() == Some("lowering");
    let lowering = format!(
        "builtin.module(convert-triton-gpu-to-llvm{{compute-capability={} scratch-parameters={} reflect-ftz={} \
         fp-fusion={} test-internal-error={test_panic}}},convert-nv-gpu-to-llvm,convert-warp-specialize-to-llvm{})",
        target.capability,
        options.scratch_parameters,
        options.codegen.reflect_ftz,
        options.codegen.fp_fusion,
        debug_info_passes(&options.codegen)
    );
    run_pipeline(context, module, &lowering, options, "make_llir")?;
    lap("TTGIR -> LLVM dialect");
    let assembly =
        ptx::module_to_ptx(module, &target, options.libdevice.as_deref(), options.keep_llvm_ir, &options.codegen)?;
    timings.extend(assembly.timings);
    Ok(Bundle { info, target, llvm_ir: assembly.llvm_ir, ttgir, ptx: assembly.ptx, timings })
}
