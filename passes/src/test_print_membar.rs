//! `test-print-membar`: upstream's test pass for its membar analysis, which
//! inserts the barriers the analysis finds (upstream's Analysis lit tests
//! check them after `allocate-shared-memory`). The analysis is
//! `tritongpu-membar`'s; this flag runs it as upstream's tests name it.
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "test-print-membar",
    description: "Run the shared-memory barrier analysis and insert its barriers (upstream's test flag)",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: melior::ir::OperationRef, options: &PassOptions) -> PassResult {
    crate::tritongpu_membar::run(module, options)
}
