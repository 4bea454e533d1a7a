//! `test-print-alignment`: the axis info of every op result in every
//! function, as a remark on the op (upstream's `TestAxisInfo.cpp`), e.g.
//! `%0 = tt.make_range ... => contiguity = [128], divisibility =
//! [1073741824], constancy = [1], constant_value = <none>`. A test pass for
//! the axis-info analysis.
use crate::analysis::axis_info::ModuleAxisInfo;
use crate::ir::{collect_ops, name_of, Order};
use melior::ir::{operation::OperationLike, OperationRef, Value};
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{emit_remark, PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "test-print-alignment",
    description: "Print the axis info (contiguity, divisibility, constancy) of every op result",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let axis = ModuleAxisInfo::analyze(module)?;
    // Nested ops first, as upstream's walk reports them.
    let functions = collect_ops(module, Order::Post).into_iter().filter(|op| name_of(op) == "tt.func");
    for function in functions {
        for op in collect_ops(function, Order::Post) {
            for index in 0..op.result_count() {
                let Ok(result) = op.result_at(index) else { continue };
                let value = Value::from(result);
                let info = axis.get(value).map(ToString::to_string).unwrap_or_default();
                emit_remark(op.location(), &format!("{value} => {info}"));
            }
        }
    }
    Ok(())
}
