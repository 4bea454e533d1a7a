//! Tritium's TTIR -> TTGIR pipeline, in upstream Triton's order (make_ttir
//! and make_ttgir of the NVIDIA backend, software pipelining included).
//! Passes Tritium does not have yet are listed under their upstream flags
//! and left out when the pipeline is built.
use crate::registry::PASSES;

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
pub fn ttgir_passes(capability: u32, num_warps: u32, num_ctas: u32, num_stages: u32) -> Vec<(String, String)> {
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
            format!("target=cuda:{capability} num-warps={num_warps} threads-per-warp=32 num-ctas={num_ctas}"),
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
    let upstream_mlir = ["inline", "canonicalize", "cse", "symbol-dce", "sccp"];
    passes.retain(|(flag, _)| upstream_mlir.contains(&flag.as_str()) || PASSES.iter().any(|p| p.argument == flag));
    passes
}

/// The pipeline as a `--pass-pipeline` string. Fails while a pass without
/// which the result cannot be lowered (the conversion to TTGIR) is missing.
pub fn ttgir_pipeline(capability: u32, num_warps: u32, num_ctas: u32, num_stages: u32) -> Result<String, String> {
    let passes = ttgir_passes(capability, num_warps, num_ctas, num_stages);
    if !passes.iter().any(|(flag, _)| flag == "convert-triton-to-tritongpu") {
        return Err("compiling TTIR needs the convert-triton-to-tritongpu pass, which Tritium does not have yet; give TTGIR".into());
    }
    let items: Vec<String> = passes
        .iter()
        .map(|(flag, options)| if options.is_empty() { flag.clone() } else { format!("{flag}{{{options}}}") })
        .collect();
    Ok(format!("builtin.module({})", items.join(",")))
}
