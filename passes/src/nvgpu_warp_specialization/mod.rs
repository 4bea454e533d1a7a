//! `nvgpu-warp-specialization` (upstream's flag; upstream's Hopper pass in
//! third_party/nvidia/hopper): a loop marked `tt.warp_specialize`
//! (`tl.range(..., warp_specialize=True)`) becomes a `ttg.warp_specialize`
//! whose default region (the kernel's 4 warps) is the *producer*, issuing
//! the loop's TMA loads into a ring of `num-stages` shared-memory buffers,
//! and whose partitions (one warp group each) are the *consumers*, running
//! the wgmma dots and everything after them. They hand the buffers over
//! through mbarriers, as upstream's code partition does:
//!
//! - `full[s]` (count 1): the producer waits until `empty[s]` is released,
//!   sets the bytes to expect (`barrier_expect`) and issues the TMA copies of
//!   iteration i into buffer s = i mod S; the copies complete it;
//! - `empty[s]` (count: the consumer groups): each consumer waits on
//!   `full[s]` (phase (i / S) mod 2), runs the iteration on the buffers
//!   (its wgmma dots synchronous: they have finished reading them at its
//!   end), and arrives on `empty[s]`; the producer waits on it with the opposite phase, so the
//!   first S waits pass at once.
//!
//! Task partition ([`shape`]): the marked loop's descriptor loads go to the
//! producer, everything else to the consumers. The loop is either a loop of
//! wgmma dots itself (tutorial 09's `matmul_kernel_tma` K loop; tutorial
//! 06's attention loop: QK^T, the online softmax, PV, carrying m_i, l_i and
//! the accumulator, which live in the consumers) or a persistent tile loop
//! holding one (tutorial 09's `matmul_kernel_descriptor_persistent`,
//! `flatten=False`); in the latter the ring's counter runs across tiles.
//! Data partition ([`split`]): when the dots' tile has at least 128 rows (a
//! multiple of 128) and the wgmma layout puts the 4 warps along them, two
//! consumer groups each take half the rows of everything that shares them
//! (a subslice of the left operand's shared-memory tile, the accumulators
//! and row statistics, the epilogue down to a half-tile store descriptor),
//! with 232 registers each and 40 for the producer, as upstream does;
//! otherwise (or when the split reaches something that must stay whole,
//! such as a store through a host-side descriptor) one consumer group takes
//! the whole tile. Then the loops get `tt.num_stages = 0` (no software
//! pipelining on top: the ring is the pipeline), as upstream does.
//!
//! Upstream differs in the details (its own barriers per buffer and
//! consumer, Q loaded by the producer too, i64 ring counters) and, with a
//! 64-row tile, runs two consumer groups that both compute the whole tile.
//! A loop this pass cannot specialize (a kernel with more than one marked
//! loop, as tutorial 06's causal forward, on which upstream's pass fails;
//! pointer loads in the loop) gets a located warning saying why, and is
//! compiled unspecialized (the results are the same). Loops upstream itself
//! leaves alone (num_warps other than 4, kernels with an `scf.if` else
//! block, before sm_90) are left to `tritium-warn-unspecialized-loops`,
//! which says so.
pub(crate) mod data_partition;
mod emit;
pub(crate) mod code_partition;
pub(crate) mod lower_token;
mod partitions;
mod shape;
pub(crate) mod specialize;
mod split;
pub(crate) mod task_ids;
pub(crate) mod task_id_propagation;
pub(crate) mod task_ids;
pub(crate) mod task_partition;

use crate::{
    analysis::scratch::module_capability,
    ir::{collect_ops, enclosing_module, int_attribute, name_of, Order},
    ssa::set_attribute,
};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, BlockLike, OperationRef, RegionLike,
    Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{emit_warning, OptionKind, PassDefinition, PassOption, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvgpu-warp-specialization",
    description: "Split tt.warp_specialize loops into a TMA producer and one or two wgmma consumer warp groups (sm_90)",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "num-stages",
        description: "Shared-memory buffers between the producer and the consumers",
        kind: OptionKind::Int,
        default: "3",
    }],
    run,
};

fn key(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

fn value_key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

fn name_of_op(op: &OperationRef) -> String {
    name_of(op)
}

/// Why upstream itself would leave the kernel's loops unspecialized (the
/// warn pass reports those), if it would.
fn upstream_declines(module: &OperationRef, function: OperationRef) -> bool {
    if module_capability(module) / 10 != 9 || int_attribute(module, "ttg.num-warps") != Some(4) {
        return true;
    }
    collect_ops(function, Order::Pre).iter().any(|o| {
        name_of(o) == "scf.if"
            && o.region_at(1).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation()).is_some()
    })
}

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let module = enclosing_module(module).unwrap_or(module);
    let stages = options.int("num-stages").max(1);
    // The functions first: specializing destroys ops a lazy walk would visit.
    let functions: Vec<OperationRef> =
        collect_ops(module, Order::Pre).into_iter().filter(|o| name_of(o) == "tt.func").collect();
    for function in functions {
        let loops: Vec<OperationRef> = collect_ops(function, Order::Pre)
            .into_iter()
            .filter(|o| name_of(o) == "scf.for" && o.attribute("tt.warp_specialize").is_ok())
            .collect();
        if loops.is_empty() || upstream_declines(&module, function) {
            continue;
        }
        let entry = function.region_at(0).unwrap().first_block().unwrap();
        let decline = |lp: &OperationRef, reason: &str| {
            emit_warning(
                lp.location(),
                &format!("this loop asks for warp specialization (warp_specialize=True) but is compiled without it: {reason} (Tritium's nvgpu-warp-specialization handles loops of wgmma dots fed by descriptor loads, such as TMA-matmul K loops and attention loops, and persistent tile loops holding one)"),
            );
            // Said once: the later warning pass need not repeat it.
            tritium_dialects::ir::remove_attribute(lp, "tt.warp_specialize");
        };
        if loops.len() > 1 {
            for lp in &loops {
                decline(lp, "the kernel has more than one such loop");
            }
            continue;
        }
        match shape::analyze(loops[0], &entry).and_then(|plan| partitions::specialize(&plan, stages)) {
            Ok(()) => {
                // As upstream: no software pipelining of any loop of the kernel on top.
                let context = tritium_dialects::ir::context_of(function.location());
                let i32: Type = IntegerType::new(context, 32).into();
                for lp in collect_ops(function, Order::Pre).into_iter().filter(|o| name_of(o) == "scf.for") {
                    set_attribute(&lp, "tt.num_stages", IntegerAttribute::new(i32, 0).into());
                }
            }
            Err(reason) => decline(&loops[0], &reason),
        }
    }
    Ok(())
}
