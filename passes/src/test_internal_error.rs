//! `test-tritium-internal-error`: a test pass that panics on purpose, so that
//! the tests can check what a bug in a pass looks like from outside: an
//! "internal error in pass ..." diagnostic, exit code 2, no output IR.
//! `in=pass` panics in the pass itself, `in=pattern` in a rewrite pattern the
//! pass applies (on every `tt.func`). Not part of any pipeline.
use crate::pattern_driver::apply_greedily;
use melior::ir::OperationRef;
use tritium_dialects::{
    pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult},
    rewrite::{Pattern, Rewriter},
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "test-tritium-internal-error",
    description: "Test only: panic inside the pass (in=pass) or inside a rewrite pattern (in=pattern)",
    anchor: "builtin.module",
    options: &[PassOption { name: "in", description: "pass or pattern", kind: OptionKind::String, default: "pass" }],
    run,
};

fn panicking_rewrite(_op: OperationRef, _rewriter: &Rewriter) -> bool {
    panic!("test-tritium-internal-error: a pattern panicked on purpose")
}

static PANICKING_PATTERN: Pattern = Pattern { root: "tt.func", benefit: 1, rewrite: panicking_rewrite };

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    if options.string("in") == "pattern" {
        return apply_greedily(module, &[&PANICKING_PATTERN]);
    }
    panic!("test-tritium-internal-error: the pass panicked on purpose")
}
