//! Tritium's TTIR -> TTGIR pipeline, in upstream Triton's order (make_ttir
//! and make_ttgir of the NVIDIA backend) up to, not including, software
//! pipelining. Passes Tritium does not have yet are left out, and say so.
use crate::registry::PASSES;

/// The passes, as (flag, options) in order, for a target and launch shape.
pub fn ttgir_passes(capability: u32, num_warps: u32, num_ctas: u32) -> Vec<(String, String)> {
    let mut passes: Vec<(String, String)> = vec![
        ("inline".into(), String::new()),
        ("triton-rewrite-tensor-pointer".into(), String::new()),
        ("canonicalize".into(), String::new()),
        ("triton-combine".into(), String::new()),
        ("triton-reorder-broadcast".into(), String::new()),
        ("cse".into(), String::new()),
        ("symbol-dce".into(), String::new()),
        ("triton-loop-unroll".into(), String::new()),
        (
            "convert-triton-to-tritongpu".into(),
            format!("target=cuda:{capability} num-warps={num_warps} threads-per-warp=32 num-ctas={num_ctas}"),
        ),
        ("tritongpu-coalesce".into(), String::new()),
        ("tritongpu-F32DotTC".into(), format!("emu-tf32={}", capability >= 80)),
        ("tritongpu-remove-layout-conversions".into(), String::new()),
        ("tritongpu-optimize-thread-locality".into(), String::new()),
        ("tritongpu-accelerate-matmul".into(), String::new()),
        ("tritongpu-remove-layout-conversions".into(), String::new()),
        ("tritongpu-optimize-dot-operands".into(), format!("hoist-layout-conversion={}", capability >= 80)),
        ("triton-loop-aware-cse".into(), String::new()),
        ("canonicalize".into(), String::new()),
        ("triton-licm".into(), String::new()),
        ("canonicalize".into(), String::new()),
        ("tritongpu-reduce-data-duplication".into(), String::new()),
        ("tritongpu-reorder-instructions".into(), String::new()),
        ("triton-loop-aware-cse".into(), String::new()),
        ("symbol-dce".into(), String::new()),
        ("triton-nvidia-gpu-fence-insertion".into(), format!("compute-capability={capability}")),
        ("sccp".into(), String::new()),
        ("cse".into(), String::new()),
        ("canonicalize".into(), String::new()),
    ];
    let upstream_mlir = ["inline", "canonicalize", "cse", "symbol-dce", "sccp"];
    passes.retain(|(flag, _)| upstream_mlir.contains(&flag.as_str()) || PASSES.iter().any(|p| p.argument == flag));
    passes
}

/// The pipeline as a `--pass-pipeline` string. Fails while a pass without
/// which the result cannot be lowered (the conversion to TTGIR) is missing.
pub fn ttgir_pipeline(capability: u32, num_warps: u32, num_ctas: u32) -> Result<String, String> {
    let passes = ttgir_passes(capability, num_warps, num_ctas);
    if !passes.iter().any(|(flag, _)| flag == "convert-triton-to-tritongpu") {
        return Err("compiling TTIR needs the convert-triton-to-tritongpu pass, which Tritium does not have yet; give TTGIR".into());
    }
    let items: Vec<String> = passes
        .iter()
        .map(|(flag, options)| if options.is_empty() { flag.clone() } else { format!("{flag}{{{options}}}") })
        .collect();
    Ok(format!("builtin.module({})", items.join(",")))
}
