//! `tritongpu-test-pipeline-lower-loop`: upstream's test pass for the first
//! step of `tritongpu-pipeline`. It lowers the loops that already carry a
//! schedule (asynchronous copies into multi-buffered shared memory, TMA
//! barriers, descriptor slots) and stops there: no expansion into prologue
//! and kernel, and the schedule stays on the loop. The step is
//! `tritongpu-pipeline`'s own; this flag runs it as upstream's tests name it.
use melior::ir::OperationRef;
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-test-pipeline-lower-loop",
    description:
        "Lower scheduled loops as the pipeliner's first step does, without expanding them (upstream's test flag)",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    crate::tritongpu_pipeline::lower_loops(module)
}
