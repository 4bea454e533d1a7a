//! Op builders generated from the dialects' ODS by melior (one module per
//! dialect). Passes match ops by name (`op.name()`); these are for building.
melior::dialect! {
    name: "tt",
    files: ["TritonOps.td"],
    include_directory_env_vars: ["TRITIUM_TD_DIR"],
}

melior::dialect! {
    name: "ttg",
    files: ["TritonGPUOps.td"],
    include_directory_env_vars: ["TRITIUM_TD_DIR"],
}

melior::dialect! {
    name: "ttng",
    files: ["TritonNvidiaGPUOps.td"],
    include_directory_env_vars: ["TRITIUM_TD_DIR"],
}

use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    operation::{OperationLike, OperationMutLike},
    Operation,
};

/// Sets the operand segment sizes of an op with several optional or variadic
/// operand groups (tt.load's ptr/mask/other, ...). melior 0.27's generated
/// builders do not set them, so call this on what they build:
/// `with_operand_segments(tt::LoadOperation::builder(..)...build().into(), &[1, 1, 0])`.
pub fn with_operand_segments<'c>(mut operation: Operation<'c>, sizes: &[i32]) -> Operation<'c> {
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = operation.context();
    let context = unsafe { context_ref.to_ref() };
    operation.set_attribute("operandSegmentSizes", DenseI32ArrayAttribute::new(context, sizes).into());
    operation
}
