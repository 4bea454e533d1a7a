//! `test-print-alias`: upstream's test pass for its shared-memory alias
//! analysis (`analysis::alias`). For every function, it remarks, at each op,
//! `NAME -> ALLOCS` for each of the op's results that may alias buffers
//! (an `scf.for` first names its iter_args with what their inits alias; a
//! `cf` branch names the arguments of the block it ends), with values named
//! as the printed module names them and the allocations sorted by name.
use crate::analysis::alias::Aliases;
use crate::ir::{collect_ops, name_of, Order};
use melior::ir::{operation::OperationLike, OperationRef, RegionLike, Value};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::{block_arguments, enclosing_module, ValueNames};
use tritium_dialects::pass::{emit_remark, PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "test-print-alias",
    description: "Print the shared-memory alias analysis as remarks (upstream's test flag)",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    for function in collect_ops(module, Order::Pre) {
        if name_of(&function) != "tt.func" {
            continue;
        }
        let names = ValueNames::new(&enclosing_module(function).unwrap_or(module));
        let aliases = Aliases::of(function);
        // `named` named as printed, with the allocations `value` may be.
        let remark = |op: &OperationRef, named: Value, value: Value| {
            let mut allocations: Vec<String> =
                aliases.allocations_of(value).into_iter().map(|a| names.name(a)).collect();
            if !allocations.is_empty() {
                allocations.sort();
                emit_remark(op.location(), &format!("{} -> {}", names.name(named), allocations.join(",")));
            }
        };
        for op in collect_ops(function, Order::Pre) {
            if op.result_count() == 0 {
                // A branch: the arguments of the block it ends.
                if op.successor_count() > 0 {
                    for argument in op.block().map(|b| block_arguments(&b)).unwrap_or_default() {
                        remark(&op, argument, argument);
                    }
                }
                continue;
            }
            if name_of(&op) == "scf.for" {
                // Each iter_arg, with what its init aliases.
                let body = op.region_at(0).ok().and_then(|r| r.first_block());
                let carried = body.map(|b| block_arguments(&b)).unwrap_or_default();
                for (index, argument) in carried.into_iter().skip(1).enumerate() {
                    remark(&op, argument, op.operand_at(3 + index).unwrap());
                }
            }
            for result in op.results() {
                remark(&op, result.into(), result.into());
            }
        }
    }
    Ok(())
}
