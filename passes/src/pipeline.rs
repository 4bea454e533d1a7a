//! Tritium's TTIR -> TTGIR pipeline, in upstream Triton's order (make_ttir
//! and make_ttgir of the NVIDIA backend, software pipelining included).
//! Passes Tritium does not have yet are listed under their upstream flags
//! and left out when the pipeline is built; any other flag Tritium does not
//! know is an error (a misspelt flag must not silently drop a pass).
use crate::registry::PASSES;
use tritium_dialects::target;

/// The passes of MLIR itself that the pipeline uses.
const UPSTREAM_MLIR: [&str; 5] = ["inline", "canonicalize", "cse", "symbol-dce", "sccp"];

/// Upstream Triton passes of make_ttir/make_ttgir (NVIDIA) that Tritium does
/// not have yet: left out of the pipeline on purpose. A flag leaves this list
/// when its pass is registered (it is then kept automatically).
const NOT_YET_IMPLEMENTED: &[&str] = &[
    "triton-nvidia-gpu-plan-cta",
    "triton-nvidia-gpu-promote-lhs-to-tmem",
    "triton-nvidia-gpu-remove-tmem-tokens",
    "triton-nvidia-interleave-tmem",
    "triton-nvidia-mma-lowering",
    "triton-nvidia-optimize-tmem-layouts",
    "tritongpu-automatic-warp-specialization",
    "tritongpu-hoist-tmem-alloc",
    "tritongpu-optimize-accumulator-init",
    "tritongpu-optimize-partition-warps",
];

/// Keeps the passes Tritium has, leaves out those of [`NOT_YET_IMPLEMENTED`],
/// and rejects any other flag.
pub fn registered_only(passes: Vec<(String, String)>) -> Result<Vec<(String, String)>, String> {
    let mut kept = Vec::with_capacity(passes.len());
    for (flag, options) in passes {
        let registered = UPSTREAM_MLIR.contains(&flag.as_str()) || PASSES.iter().any(|p| p.argument == flag);
        if registered {
            kept.push((flag, options));
        } else if !NOT_YET_IMPLEMENTED.contains(&flag.as_str()) {
            return Err(format!(
                "the TTGIR pipeline names pass '{flag}', which is neither registered nor a known upstream pass"
            ));
        }
    }
    Ok(kept)
}

/// The launch options a pipeline can be built for, checked as upstream's
/// CUDAOptions checks them.
fn check_options(capability: u32, num_warps: u32, num_ctas: u32) -> Result<(), String> {
    if !num_warps.is_power_of_two() || num_warps > 32 {
        return Err(format!("num-warps must be a power of two from 1 to 32, got {num_warps}"));
    }
    if !num_ctas.is_power_of_two() || num_ctas > 16 {
        return Err(format!("num-ctas must be a power of two from 1 to 16, got {num_ctas}"));
    }
    if capability < 80 {
        return Err(format!("compute capability {capability} is older than sm_80, which Tritium does not support"));
    }
    Ok(())
}

/// A pass without options.
fn plain(flag: &str) -> (String, String) {
    (flag.into(), String::new())
}

/// A pass with options (`name=value ...`).
fn with(flag: &str, options: String) -> (String, String) {
    (flag.into(), options)
}

/// The passes, as (flag, options) in order, for a target and launch shape;
/// loops are software-pipelined over `num_stages` stages.
pub fn ttgir_passes(
    capability: u32,
    num_warps: u32,
    num_ctas: u32,
    num_stages: u32,
) -> Result<Vec<(String, String)>, String> {
    check_options(capability, num_warps, num_ctas)?;
    let hoist = format!("hoist-layout-conversion={}", capability >= 80);
    let mut passes: Vec<(String, String)> = vec![
        // make_ttir
        plain("inline"),
        plain("triton-rewrite-tensor-pointer"),
        plain("canonicalize"),
        plain("triton-combine"),
        plain("triton-reorder-broadcast"),
        plain("cse"),
        plain("symbol-dce"),
        plain("triton-loop-unroll"),
        // make_ttgir
        with(
            "convert-triton-to-tritongpu",
            format!(
                "target={} num-warps={num_warps} threads-per-warp={} num-ctas={num_ctas}",
                target::target_name(capability),
                target::THREADS_PER_WARP
            ),
        ),
        plain("tritongpu-coalesce"),
        with("tritongpu-F32DotTC", format!("emu-tf32={}", capability >= 80)),
        plain("triton-nvidia-gpu-plan-cta"),
        plain("tritongpu-remove-layout-conversions"),
        plain("tritongpu-optimize-thread-locality"),
        plain("tritongpu-accelerate-matmul"),
        plain("tritongpu-remove-layout-conversions"),
        with("tritongpu-optimize-dot-operands", hoist.clone()),
        plain("triton-nvidia-optimize-descriptor-encoding"),
        plain("triton-loop-aware-cse"),
    ];
    let stages = format!("num-stages={num_stages}");
    match capability / 10 {
        8 | 9 => passes.extend([
            plain("tritongpu-fuse-nested-loops"),
            plain("canonicalize"),
            plain("triton-licm"),
            plain("canonicalize"),
            plain("tritongpu-combine-tensor-select-and-if"),
            with("nvgpu-warp-specialization", stages.clone()),
            // Loops upstream's pass leaves alone (or Tritium's cannot specialize yet): said at the loop.
            plain("tritium-warn-unspecialized-loops"),
            with("tritongpu-assign-latencies", stages.clone()),
            plain("tritongpu-schedule-loops"),
            with("tritongpu-pipeline", stages),
        ]),
        major if major >= 10 => passes.extend([
            plain("tritongpu-fuse-nested-loops"),
            plain("canonicalize"),
            plain("triton-licm"),
            plain("tritongpu-optimize-accumulator-init"),
            plain("tritongpu-hoist-tmem-alloc"),
            plain("triton-nvidia-gpu-promote-lhs-to-tmem"),
            with("tritongpu-assign-latencies", stages.clone()),
            plain("tritongpu-schedule-loops"),
            with("tritongpu-automatic-warp-specialization", stages.clone()),
            plain("tritium-warn-unspecialized-loops"),
            with("tritongpu-pipeline", stages),
            plain("tritongpu-optimize-partition-warps"),
            plain("tritongpu-combine-tensor-select-and-if"),
            plain("tritongpu-hoist-tmem-alloc"),
            plain("triton-nvidia-gpu-remove-tmem-tokens"),
        ]),
        _ => passes.push(plain("triton-licm")),
    }
    passes.extend([
        plain("canonicalize"),
        plain("triton-loop-aware-cse"),
        plain("tritongpu-prefetch"),
        with("tritongpu-optimize-dot-operands", hoist),
        plain("tritongpu-coalesce-async-copy"),
        plain("triton-nvidia-optimize-tmem-layouts"),
    ]);
    if capability >= 90 {
        passes.push(plain("triton-nvidia-tma-lowering"));
    }
    passes.extend([
        plain("tritongpu-remove-layout-conversions"),
        plain("triton-nvidia-interleave-tmem"),
        plain("tritongpu-reduce-data-duplication"),
        plain("tritongpu-reorder-instructions"),
        plain("triton-loop-aware-cse"),
        plain("symbol-dce"),
        with("triton-nvidia-gpu-fence-insertion", format!("compute-capability={capability}")),
        plain("triton-nvidia-mma-lowering"),
        plain("sccp"),
        plain("cse"),
        plain("canonicalize"),
    ]);
    registered_only(passes)
}

/// The pipeline as a `--pass-pipeline` string. Fails while a pass without
/// which the result cannot be lowered (the conversion to TTGIR) is missing.
pub fn ttgir_pipeline(capability: u32, num_warps: u32, num_ctas: u32, num_stages: u32) -> Result<String, String> {
    let passes = ttgir_passes(capability, num_warps, num_ctas, num_stages)?;
    if !passes.iter().any(|(flag, _)| flag == "convert-triton-to-tritongpu") {
        return Err(
            "compiling TTIR needs the convert-triton-to-tritongpu pass, which Tritium does not have yet; give TTGIR"
                .into(),
        );
    }
    let items: Vec<String> = passes
        .iter()
        .map(|(flag, options)| if options.is_empty() { flag.clone() } else { format!("{flag}{{{options}}}") })
        .collect();
    Ok(format!("builtin.module({})", items.join(",")))
}
