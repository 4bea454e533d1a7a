//! `tritongpu-pipeline` (upstream `SoftwarePipeliner.cpp`): the last step of
//! software pipelining, after `tritongpu-assign-latencies` and
//! `tritongpu-schedule-loops`. For every loop with a schedule:
//!
//! 1. [`lower_loops`]: loads used stages later become asynchronous copies
//!    into multi-buffered shared memory (`cp.async`, or TMA with mbarriers
//!    for descriptor loads: [`tma`]), and descriptors made in the loop
//!    get rotating tensormap slots in global scratch ([`descriptors`]);
//! 2. [`expander`]: the loop is expanded into a prologue and a kernel loop
//!    whose iterations overlap the stages; [`mask`] then predicates the ops
//!    of stages that must not run;
//! 3. the schedule attributes are removed, [`wgmma`] makes the loops'
//!    wgmmas asynchronous, [`waits`] sets how many copy groups each wait
//!    leaves in flight, and the IR is folded;
//! 4. [`tma_stores`]: the descriptor stores of loops with stages become
//!    asynchronous TMA stores from a shared buffer (and, through
//!    device-side descriptors, the descriptors made in the loop get slots).
//!
//! With `dump-intermediate-steps`, the IR after steps 1 and 2 goes to
//! stderr, as upstream's dumps.
pub(crate) mod builder;
mod descriptors;
mod expander;
pub(crate) mod loops;
pub(crate) mod lower_loops;

pub(crate) use lower_loops::lower_loops;
mod mask;
pub(crate) mod schedule;
pub(crate) mod shared;
mod split_rs_dot;
pub(crate) mod tma;
mod tma_stores;
mod waits;
mod wgmma;

use crate::greedy::apply_with_folds;
use crate::ir::{collect_ops, Order};
use loops::{is_for, num_stages_or_default, remove_attribute};
use melior::ir::OperationRef;
use schedule::{Schedule, CLUSTER, MAX_STAGE, STAGE};
use tritium_dialects::pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-pipeline",
    description: "Software-pipeline scheduled loops: asynchronous copies, prologue and kernel",
    anchor: "builtin.module",
    options: &[
        PassOption {
            name: "num-stages",
            description: "The number of pipeline stages",
            kind: OptionKind::Int,
            default: "3",
        },
        PassOption {
            name: "dump-intermediate-steps",
            description: "Print the IR after lowering and after expanding the loops",
            kind: OptionKind::Bool,
            default: "false",
        },
    ],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let dump = options.bool("dump-intermediate-steps");
    lower_loops::lower_loops(module)?;
    if dump {
        eprint!("// -----// SoftwarePipeliner internal IR Dump After: LowerLoops\n{}\n\n\n", module);
    }
    expand_loops(module)?;
    if dump {
        eprint!("// -----// SoftwarePipeliner internal IR Dump After: ExpandLoops\n{}\n\n\n", module);
    }
    for op in collect_ops(module, Order::Pre) {
        for name in [STAGE, CLUSTER, MAX_STAGE] {
            remove_attribute(&op, name);
        }
    }
    // Upstream makes the wgmmas of every loop asynchronous, pipelined or not,
    // except in loops that ask for no stages (`tt.num_stages = 0`): the
    // consumer loops of warp specialization, whose `ttng.arrive_barrier`
    // hands the operands' buffer back to the producer right after the dot,
    // which must then have finished reading it.
    let default_stages = options.int("num-stages");
    for lp in collect_ops(module, Order::Post).into_iter().filter(is_for) {
        if num_stages_or_default(&lp, default_stages) >= 1 {
            wgmma::async_launch_dots(lp)?;
        }
    }
    waits::update_waits(module);
    apply_with_folds(module, &[])?;
    // Upstream pipelines the descriptor stores of every loop with stages
    // after the rest, scheduled or not.
    let default_stages = options.int("num-stages");
    for lp in collect_ops(module, Order::Post).into_iter().filter(is_for) {
        if loops::num_stages_or_default(&lp, default_stages) > 1 {
            tma_stores::pipeline_tma_stores(lp)?;
        }
    }
    Ok(())
}

/// Upstream `expandLoops`: expands every scheduled loop, then resolves the
/// masks of the predicated ops.
fn expand_loops(module: OperationRef) -> PassResult {
    for lp in collect_ops(module, Order::Post).into_iter().filter(is_for) {
        let Some(schedule) = Schedule::deserialize(&lp) else { continue };
        let order: Vec<(OperationRef, usize)> =
            schedule.ops_in_order(&lp).into_iter().map(|(op, stage, _)| (op, stage as usize)).collect();
        expander::pipeline_for_loop(lp, order)?;
    }
    mask::resolve_masks(module)
}
