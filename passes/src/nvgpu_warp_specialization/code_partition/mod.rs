//! Upstream's `doCodePartition` (Hopper warp specialization, WSCodePartition.cpp
//! with WSLowerMem.cpp, WSBuffer.cpp and CodePartitionUtility.cpp), under its
//! test flag `nvgpu-test-ws-code-partition`: the values that cross async
//! tasks (channels, [`channels`]) go through multi-buffered shared memory
//! ([`comm::create_buffers`], [`lower_mem`]), guarded by NVWS tokens and, for
//! TMA loads, mbarriers ([`comm`]); buffer index and phase derive from
//! accumulation counters carried by the loops ([`accum_counts`]). Then the
//! function is split into a `ttg.warp_specialize` (`specialize_region`).
//! Blackwell's TMEM channels are not supported (an error says so).
mod accum_counts;
mod build;
mod channels;
mod comm;
mod lower_mem;

use crate::ir::{collect_ops, enclosing_module, fail, name_of, Order};
use melior::ir::OperationRef;
use tritium_dialects::pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "nvgpu-test-ws-code-partition",
    description: "test warp specialization code partition",
    anchor: "builtin.module",
    options: &[
        PassOption {
            name: "num-buffers",
            description: "number of buffering for producer-consumer",
            kind: OptionKind::Int,
            default: "0",
        },
        PassOption {
            name: "num-warp-groups",
            description: "number of warp groups for warp specialization",
            kind: OptionKind::Int,
            default: "0",
        },
        PassOption {
            name: "requested-registers",
            description: "number of register requested for computation group",
            kind: OptionKind::Int,
            default: "232",
        },
    ],
    run,
};

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    let module = enclosing_module(module).unwrap_or(module);
    let num_buffers = options.int("num-buffers");
    if num_buffers <= 0 {
        return Ok(());
    }
    let functions: Vec<OperationRef> =
        collect_ops(module, Order::Pre).into_iter().filter(|o| name_of(o) == "tt.func").collect();
    for function in functions {
        if let Err(reason) = do_code_partition(function, num_buffers as u32) {
            return Err(fail(&function, reason));
        }
    }
    Ok(())
}

/// Upstream's `doCodePartition(funcOp, numBuffers)`.
pub fn do_code_partition(function: OperationRef, num_buffers: u32) -> Result<(), String> {
    // Step 1: the channels.
    let channels = channels::collect_async_channels(function, num_buffers)?;
    if channels.is_empty() {
        return Ok(());
    }
    // Upstream would build buffer arrays of no element (and fail later).
    if channels.iter().any(|c| c.num_buffers == 0) {
        return Err("warp specialization needs at least one buffer per channel: num_stages (or the loop's tt.num_stages) must be at least 1".into());
    }
    // Step 2: grouped by producer and by consumer.
    let groups = channels::group_channels(&channels);
    // Step 3: producers interleaved by consumer.
    channels::reorder_producer_ops(&channels);
    // Upstream walks its consumer groups in a pointer-keyed map's order;
    // here in the program order of their (first) producers, which is one of
    // the orders upstream's runs show.
    let program_order: Vec<usize> = collect_ops(function, Order::Pre).iter().map(crate::ssa::op_key).collect();
    let position = |c: usize| {
        let key = crate::ssa::op_key(&channels[c].src_op());
        program_order.iter().position(|&k| k == key).unwrap_or(usize::MAX)
    };
    let mut order: Vec<usize> = (0..groups.by_consumer.len()).collect();
    order.sort_by_key(|&g| position(groups.by_consumer[g].0));
    // Step 4: accumulation counters on the regions holding channels.
    let mut top_ops = channels::task_top_regions(function, &channels);
    let dst_ops: Vec<OperationRef> = channels.iter().map(|c| c.dst_op()).collect();
    let mut regions = accum_counts::regions_with_channels(&dst_ops);
    accum_counts::append_accum_cnts_for_ops(&mut top_ops, &mut regions)?;
    // Step 5: buffers.
    let buffers = comm::create_buffers(function, &channels, &groups)?;
    // Step 6: producers lowered to copies into the buffers.
    let copies = lower_mem::insert_async_copy(&channels, &groups, &buffers, &regions)?;
    // Step 7: tokens.
    let comm_channels = comm::create_tokens(function, &channels, &groups, &copies)?;
    // Step 8: synchronisation, TMA loads lowered.
    comm::insert_async_comm(function, &channels, &groups, &comm_channels, &buffers, &copies, &regions, &order)?;
    comm::fold_local_loads(function);
    super::specialize::specialize_region(function, 0)
}
