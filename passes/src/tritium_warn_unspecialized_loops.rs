//! `tritium-warn-unspecialized-loops` (Tritium's own; upstream has no such
//! pass): a loop still marked `tt.warp_specialize` (`tl.range(...,
//! warp_specialize=True)`) after the warp specialization passes was not
//! specialized: upstream itself leaves it (sm_90 with num_warps other than
//! 4, a kernel with an `scf.if` else block, before sm_90; on sm_90 a loop in
//! which upstream's algorithm finds nothing to split), or Tritium lacks the
//! pass (sm_100's `tritongpu-automatic-warp-specialization`). (Loops
//! `nvgpu-warp-specialization` gives up on, where upstream's pass fails, get
//! their warning there, with the reason.) The loop still computes the same
//! results (specialization only reorganises which warps issue the loads and
//! the dots), so this is a warning at the loop, not an error: the kernel
//! compiles, and the user (`tritium compile` on stderr, the Python plug-in
//! as a Python warning) learns that the request was not honoured, and why.
use crate::{
    analysis::scratch::module_capability,
    ir::{collect_ops, enclosing_module, fail, name_of, Order},
};
use melior::ir::{operation::OperationLike, BlockLike, RegionLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{emit_warning, PassDefinition, PassOptions, PassResult};
use tritium_dialects::target::ModuleConfig;

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritium-warn-unspecialized-loops",
    description: "Warn at each loop marked tt.warp_specialize that is compiled without warp specialization",
    anchor: "builtin.module",
    options: &[],
    run,
};

/// Whether the function holding `op` has an `scf.if` with an else block: upstream's Hopper warp specialization gives up on such kernels.
fn function_has_else(op: melior::ir::OperationRef) -> bool {
    let mut function = op.parent_operation();
    while let Some(f) = function {
        if name_of(&f) == "tt.func" {
            break;
        }
        function = f.parent_operation();
    }
    let Some(function) = function else {
        return false;
    };
    // Upstream counts any op of an else block, its scf.yield included.
    collect_ops(function, Order::Pre).iter().any(|o| {
        name_of(o) == "scf.if"
            && o.region_at(1).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation()).is_some()
    })
}

/// Why upstream Triton 3.6 would not specialize the loop either, if it would
/// not; `None` when upstream would have.
fn upstream_leaves_unspecialized(capability: u32, num_warps: Option<i64>, has_else: bool) -> Option<String> {
    if capability < 90 {
        return Some(format!("warp specialization needs sm_90 or newer, the target is sm_{capability}"));
    }
    if capability / 10 == 9 {
        if let Some(n) = num_warps.filter(|n| *n != 4) {
            return Some(format!(
                "upstream Triton does not specialize it on sm_90 with num_warps={n} either (it needs num_warps=4)"
            ));
        }
        if has_else {
            return Some(
                "upstream Triton does not specialize it either: the kernel has an scf.if with an else block".into(),
            );
        }
    }
    None
}

fn run(module: melior::ir::OperationRef, _options: &PassOptions) -> PassResult {
    let module = enclosing_module(module).unwrap_or(module);
    let capability = module_capability(&module);
    let config = ModuleConfig::of(&module).map_err(|e| fail(&module, e.0))?;
    let num_warps = config.num_warps.map(i64::from);
    for op in collect_ops(module, Order::Pre) {
        if name_of(&op) != "scf.for" || op.attribute("tt.warp_specialize").is_err() {
            continue;
        }
        let message = match upstream_leaves_unspecialized(capability, num_warps, function_has_else(op)) {
            Some(reason) => format!("this loop asks for warp specialization (warp_specialize=True) but is compiled without it: {reason}"),
            // nvgpu-warp-specialization ran (it drops the mark of what it
            // specializes): as upstream's, it found no value to hand from a
            // producer task to a consumer task.
            None if capability / 10 == 9 => "this loop asks for warp specialization (warp_specialize=True) but is \
                 compiled without it: nvgpu-warp-specialization (upstream's algorithm) finds nothing to split between \
                 warp groups in it (no load feeding a dot); upstream Triton leaves it so too"
                .to_string(),
            None => format!(
                "this loop asks for warp specialization (warp_specialize=True) but is compiled without it: Tritium does not \
                 have upstream's warp specialization for sm_{capability} (tritongpu-automatic-warp-specialization) yet; \
                 the results are the same, the speed may not be"
            ),
        };
        emit_warning(op.location(), &message);
    }
    Ok(())
}
