//! `triton-test-loop-peeling`: upstream's test pass for its loop peeling,
//! which peels the last iteration off every `scf.for` marked
//! `__test_peel_epilogue` (see `loop_peeling`).
use crate::ir::{collect_ops, name_of, Order};
use melior::ir::operation::OperationLike;
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-test-loop-peeling",
    description: "Peel the last iteration off the scf.for loops marked __test_peel_epilogue (test)",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: melior::ir::OperationRef, _options: &PassOptions) -> PassResult {
    for op in collect_ops(module, Order::Post) {
        if name_of(&op) == "scf.for" && op.attribute("__test_peel_epilogue").is_ok() {
            crate::loop_peeling::peel_epilogue(op).ok_or_else(|| crate::ir::fail(&op, "could not be peeled"))?;
        }
    }
    Ok(())
}
