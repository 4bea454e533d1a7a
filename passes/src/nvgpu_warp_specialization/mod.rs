//! `nvgpu-warp-specialization` (upstream's Hopper pass, third_party/nvidia/
//! hopper): a kernel with a loop marked `tt.warp_specialize`
//! (`tl.range(..., warp_specialize=True)`) is split into async tasks that run
//! on their own warp groups, in upstream's steps (each under upstream's test
//! flag, and checked step by step against upstream's own intermediate IR:
//! test/fixtures/ws-reference, scripts/ws_step_diff.sh):
//!
//! 1. task partition ([`task_partition`], `nvgpu-test-ws-task-partition`):
//!    the loads feeding the dots go to task 0 (the producer), the dots and
//!    what follows them to the consumer tasks (`async_task_id`);
//! 2. task-id propagation ([`task_id_propagation`],
//!    `nvgpu-test-taskid-propagate`): every other op gets the tasks that use
//!    its results (a backward dataflow analysis);
//! 3. data partition ([`data_partition`], `nvgpu-test-ws-data-partition`):
//!    with two consumer groups, each takes half of the dots' tile (and of
//!    everything sliced with it); when that is impossible, one warp group
//!    fewer is tried;
//! 4. code partition ([`code_partition`], `nvgpu-test-ws-code-partition`):
//!    the values crossing tasks go through multi-buffered shared memory
//!    (TMA loads completing mbarriers), guarded by NVWS tokens, with buffer
//!    indices and phases from counters the loops carry; then
//!    [`specialize::specialize_region`] builds the `ttg.warp_specialize`
//!    (the producer in the default region, one partition per consumer);
//! 5. token lowering ([`lower_token`]): the tokens become mbarriers;
//!
//! then every loop gets `tt.num_stages = 0` (the buffers are the pipeline).
//! Upstream runs this for num_warps = 4 only and skips kernels with an
//! `scf.if` else block; those loops, and those on targets other than sm_90,
//! are reported by `tritium-warn-unspecialized-loops`. Where upstream's pass
//! fails (no data partition for 3 or 2 warp groups, a step that upstream
//! would crash in), Tritium compiles the kernel unspecialized with a located
//! warning saying why; where the data partition would cut a descriptor's
//! block (upstream makes invalid IR there), it tries one consumer group
//! fewer. Upstream's code
//! partition is not deterministic (it iterates maps keyed by pointers); this
//! one is, and gives one of the outputs upstream gives.
pub(crate) mod code_partition;
pub(crate) mod data_partition;
pub(crate) mod lower_token;
pub(crate) mod specialize;
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
    Type,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{emit_warning, OptionKind, PassDefinition, PassOption, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvgpu-warp-specialization",
    description: "Automatic warp specialization for NVIDIA Hopper (upstream's task, data and code partition)",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "num-stages",
        description: "number of buffers for warp specialization",
        kind: OptionKind::Int,
        default: "0",
    }],
    run,
};

/// Whether upstream leaves the function alone: num_warps other than 4, an
/// `scf.if` with an else block (any op in it, its yield included), or a
/// target other than sm_90 (upstream's pass finds nothing to specialize
/// there).
fn upstream_declines(module: &OperationRef, function: OperationRef) -> bool {
    let num_warps = int_attribute(&function, "ttg.num-warps").or_else(|| int_attribute(module, "ttg.num-warps"));
    if module_capability(module) / 10 != 9 || num_warps != Some(4) {
        return true;
    }
    collect_ops(function, Order::Pre).iter().any(|o| {
        name_of(o) == "scf.if"
            && o.region_at(1).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation()).is_some()
    })
}

/// Steps 1-3 for 3, then 2 warp groups: the number of warp groups that
/// partitioned, if any did. `function` is replaced by a copy when an
/// attempt is undone.
fn partition_tasks<'c, 'a>(function: &mut OperationRef<'c, 'a>) -> Result<Option<u32>, String> {
    for num_warp_groups in [3u32, 2] {
        let before = tritium_dialects::ir::clone_op(function);
        task_partition::do_task_partition(*function, num_warp_groups)?;
        if task_id_propagation::do_task_id_propagate(*function)? == -1 {
            continue;
        }
        if !data_partition::do_data_partition(*function, num_warp_groups - 1)? {
            continue;
        }
        if slices_a_descriptor_block(*function) {
            // Upstream produces invalid IR here (and fails); Tritium undoes
            // the attempt (its task ids too, which upstream's own retry keeps)
            // and tries one consumer group fewer.
            let restored = tritium_dialects::ir::insert_before(function, before);
            crate::ir::erase(*function);
            *function = restored;
            continue;
        }
        return Ok(Some(num_warp_groups));
    }
    Ok(None)
}

/// Whether a descriptor load or store moves a part of its descriptor's
/// block: the data partition cut its tile, and a host-side descriptor
/// cannot be re-made for half a tile.
fn slices_a_descriptor_block(function: OperationRef) -> bool {
    use melior::ir::ValueLike;
    use tritium_dialects::views::{DescriptorLoadOp, DescriptorStoreOp};
    let shape = |t: melior::ir::Type| crate::ir::tensor_parts(t).map(|(shape, _, _)| shape);
    collect_ops(function, Order::Pre).into_iter().any(|op| {
        let (desc, tile) = if let Some(load) = DescriptorLoadOp::of(op) {
            (load.desc(), op.result(0).map(|r| r.r#type()).ok())
        } else if let Some(store) = DescriptorStoreOp::of(op) {
            (store.desc(), Some(store.src().r#type()))
        } else {
            return false;
        };
        let block = tritium_dialects::types::tensor_descriptor_block(desc.r#type());
        matches!((tile.and_then(shape), block.and_then(shape)), (Some(t), Some(b)) if t != b)
    })
}

fn marked_loops<'c, 'a>(function: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    collect_ops(function, Order::Pre)
        .into_iter()
        .filter(|o| name_of(o) == "scf.for" && o.attribute("tt.warp_specialize").is_ok())
        .collect()
}

/// Steps 1-5 on `function` (replaced by a copy when an attempt is undone);
/// why it cannot be specialized, if it cannot.
fn specialize_function(function: &mut OperationRef, num_stages: u32) -> Result<(), String> {
    let num_warp_groups = partition_tasks(function)?.ok_or(
        "its dots cannot be partitioned among 1 or 2 consumer warp groups (upstream Triton's nvgpu-warp-specialization fails on this kernel)",
    )?;
    code_partition::do_code_partition(*function, num_stages)?;
    lower_token::do_token_lowering(*function, num_warp_groups - 1)
}

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let module = enclosing_module(module).unwrap_or(module);
    let num_stages = options.int("num-stages").max(0) as u32;
    let functions: Vec<OperationRef> =
        collect_ops(module, Order::Pre).into_iter().filter(|o| name_of(o) == "tt.func").collect();
    for function in functions {
        if marked_loops(function).is_empty() || upstream_declines(&module, function) {
            continue;
        }
        let original = tritium_dialects::ir::clone_op(&function);
        let mut function = function;
        if let Err(reason) = specialize_function(&mut function, num_stages) {
            // Where upstream's pass fails (or Tritium's port of it refuses
            // what upstream would crash on), the kernel is compiled as it
            // was: it computes the same without specialization.
            let restored = tritium_dialects::ir::insert_before(&function, original);
            crate::ir::erase(function);
            for lp in marked_loops(restored) {
                emit_warning(
                    lp.location(),
                    &format!("this loop asks for warp specialization (warp_specialize=True) but is compiled without it: {reason}"),
                );
                tritium_dialects::ir::remove_attribute(&lp, "tt.warp_specialize");
            }
            continue;
        }
        // No software pipelining on top, as upstream.
        let context = tritium_dialects::ir::context_of(function.location());
        let i32: Type = IntegerType::new(context, 32).into();
        for lp in collect_ops(function, Order::Pre).into_iter().filter(|o| name_of(o) == "scf.for") {
            set_attribute(&lp, "tt.num_stages", IntegerAttribute::new(i32, 0).into());
        }
    }
    Ok(())
}
