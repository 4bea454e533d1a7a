//! `tritium-ttgir-pipeline`: Tritium's whole TTIR -> TTGIR pipeline
//! (`pipeline::ttgir_pipeline`: upstream's make_ttir and make_ttgir order,
//! software pipelining included) as one pass with the launch options, so that
//! `tt-opt kernel.ttir --tritium-ttgir-pipeline='target=cuda:90 num-warps=8'`
//! gives what `tritium compile` lowers.
use crate::{ir::fail, pattern_driver::run_pipeline, pipeline::ttgir_pipeline};
use melior::ir::OperationRef;
use tritium_dialects::pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritium-ttgir-pipeline",
    description: "Tritium's TTIR -> TTGIR pipeline in upstream's order (make_ttir + make_ttgir)",
    anchor: "builtin.module",
    options: &[
        PassOption {
            name: "target",
            description: "Target, as Triton writes it",
            kind: OptionKind::String,
            default: "cuda:90",
        },
        PassOption { name: "num-warps", description: "Warps per CTA", kind: OptionKind::Int, default: "4" },
        PassOption { name: "num-ctas", description: "CTAs per cluster", kind: OptionKind::Int, default: "1" },
        PassOption {
            name: "num-stages",
            description: "Software-pipelining stages",
            kind: OptionKind::Int,
            default: "3",
        },
    ],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let target = options.string("target");
    let Some(capability) = tritium_dialects::target::parse_capability(target) else {
        return Err(fail(&module, format!("unknown target '{target}' (expected cuda:80, cuda:90, ...)")));
    };
    let count = |name: &str| u32::try_from(options.int(name)).ok().filter(|n| *n > 0);
    let (Some(warps), Some(ctas), Some(stages)) = (count("num-warps"), count("num-ctas"), count("num-stages")) else {
        return Err(fail(&module, "num-warps, num-ctas and num-stages must be positive"));
    };
    let pipeline = ttgir_pipeline(capability, warps, ctas, stages).map_err(|e| fail(&module, e))?;
    run_pipeline(module, &pipeline)
}
