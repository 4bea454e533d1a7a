//! `test-print-linear-layouts`: for every tensor result with a ttg layout,
//! emit a remark with the linear layout (register/lane/warp/block -> dims)
//! that the layout means for the tensor's shape. A test pass, like upstream's
//! `test-print-*` passes: it checks the attribute -> Rust layout -> linear
//! layout path end to end.
use crate::ir::{collect_ops, Order};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};
use tritium_dialects::access::{ranked_tensor, OpAccess};
use tritium_dialects::{
    layout::layout_of,
    pass::{emit_error, emit_remark, PassDefinition, PassFailed, PassOptions, PassResult},
    types::static_shape,
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "test-print-linear-layouts",
    description: "Print the linear layout of every tensor result that has a ttg layout",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let mut failed = false;
    for op in collect_ops(module, Order::Pre) {
        for i in 0..op.result_count() {
            let Ok(result) = op.result_at(i) else { continue };
            let Ok(tensor) = ranked_tensor(result.r#type()) else { continue };
            let Some(encoding) = tensor.encoding() else { continue };
            let Some(shape) = static_shape(result.r#type()) else { continue };
            match layout_of(encoding)
                .map_err(|e| e.to_string())
                .and_then(|l| l.to_linear(&shape).map_err(|e| e.to_string()))
            {
                Ok(linear) => emit_remark(op.location(), &format!("result #{i}: {}", linear.to_upstream_string())),
                Err(message) => {
                    emit_error(op.location(), &format!("result #{i}: {message}"));
                    failed = true;
                }
            }
        }
    }
    if failed {
        Err(PassFailed)
    } else {
        Ok(())
    }
}
