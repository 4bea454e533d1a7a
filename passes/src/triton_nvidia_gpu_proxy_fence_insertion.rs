//! `triton-nvidia-gpu-proxy-fence-insertion`: from Hopper on, TMA loads write
//! shared memory through the async proxy, which does not see the accesses
//! threads made through the generic proxy (`ld.shared`, `st.shared`) unless a
//! `fence.proxy.async` comes between. This inserts `ttng.fence_async_shared
//! {bCluster = false}` before a TMA load (or gather) whose destination bytes
//! overlap a generic read or write since the last fence, as upstream's pass
//! does after shared memory is allocated (it needs `allocation.offset`).
//!
//! The walk over blocks, loops and branches is membar's (`tritongpu_membar`):
//! only the rules differ. Ops that work through the async proxy or on
//! mbarriers (wgmma, TMA loads, scatters and reductions, mbarrier init,
//! inval, arrive and wait) leave nothing pending; a TMA store's read of its
//! source is a generic access, as upstream counts it. Reads by the async
//! proxy are fenced where they are made (`triton-nvidia-gpu-fence-insertion`).
use crate::ir::name_of;
use crate::tritongpu_membar::{accesses, buffer_of, run_analysis, Callees, Pending, Rules, Sync, EVERYTHING};
use melior::ir::{attribute::BoolAttribute, operation::OperationLike, Location, Operation, OperationRef, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{OptionKind, PassDefinition, PassFailed, PassOption, PassOptions, PassResult};
use tritium_dialects::types::MemDesc;

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-nvidia-gpu-proxy-fence-insertion",
    description: "Insert fence.proxy.async between generic-proxy shared-memory accesses and TMA loads over them",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "compute-capability",
        description: "Target compute capability (the async proxy exists from 90 on)",
        kind: OptionKind::Int,
        default: "90",
    }],
    run,
};

/// TMA loads: the async proxy writes their destination.
const ASYNC_PROXY_WRITES: &[&str] = &["ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather"];

/// Ops whose shared-memory accesses need no proxy fence: the async proxy's
/// own, and the mbarrier operations.
const IGNORED: &[&str] = &[
    "ttng.warp_group_dot",
    "ttng.tc_gen5_mma",
    "ttng.tc_gen5_mma_scaled",
    "ttng.async_tma_copy_global_to_local",
    "ttng.async_tma_gather",
    "ttng.async_tma_scatter",
    "ttng.async_tma_reduce",
    "ttng.arrive_barrier",
    "ttng.tmem_copy",
    "ttng.wait_barrier",
    "ttng.init_barrier",
    "ttng.inval_barrier",
];

const FENCE: &str = "ttng.fence_async_shared";

struct ProxyFence;

impl Rules for ProxyFence {
    fn sync_op<'c>(&self, location: Location<'c>) -> Operation<'c> {
        let context = tritium_dialects::ir::context_of(location);
        crate::ir::create(FENCE, location, &[], &[], &[("bCluster", BoolAttribute::new(context, false).into())])
    }

    fn step(
        &self,
        op: &OperationRef,
        _next: Option<OperationRef>,
        state: &mut Pending,
        callees: &Callees,
    ) -> Result<Sync, PassFailed> {
        let name = name_of(op);
        if name == FENCE {
            *state = Pending::default();
            return Ok(Sync::None);
        }
        if ASYNC_PROXY_WRITES.contains(&name.as_str()) {
            // The destination is the last memdesc operand (the mbarrier comes before it).
            let destination = (0..op.operand_count())
                .rev()
                .filter_map(|i| op.operand_at(i).ok())
                .find(|v| MemDesc::of(v.r#type()).is_some());
            let bytes = destination.and_then(buffer_of).unwrap_or(EVERYTHING);
            if state.touches(&[bytes]) {
                *state = Pending::default();
                return Ok(Sync::Before);
            }
            return Ok(Sync::None);
        }
        if !IGNORED.contains(&name.as_str()) {
            state.record(accesses(op, callees)?);
        }
        Ok(Sync::None)
    }
}

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    if options.int("compute-capability") < 90 {
        return Ok(());
    }
    run_analysis(module, &ProxyFence)
}
