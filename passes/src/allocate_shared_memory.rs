//! `allocate-shared-memory`: upstream's target-independent form of
//! `allocate-shared-memory-nv` (upstream's analysis tests run it before
//! `test-print-membar`): the same liveness-based offsets, for the module's
//! own `ttg.target` (sm_80 when it has none), without a device limit, as
//! upstream's pass has none.
use crate::allocate_shared_memory_nv::allocate_module;
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "allocate-shared-memory",
    description: "Assign shared-memory offsets to buffers and scratch by liveness, for the module's target",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: melior::ir::OperationRef, _options: &PassOptions) -> PassResult {
    let capability = tritium_dialects::target::module_capability(&module).unwrap_or(80);
    allocate_module(module, capability, None)
}
