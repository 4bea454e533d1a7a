//! Copyable IR handles without borrow lifetimes, for code that keeps many
//! values, blocks and ops in maps and cursors while it builds IR (the
//! lowering's builder and value map). They are MLIR's C handles: what
//! melior's `to_raw` gives and its `from_raw` takes back; naming them here
//! keeps users off `mlir_sys`.
pub type ValueHandle = mlir_sys::MlirValue;
pub type BlockHandle = mlir_sys::MlirBlock;
pub type OpHandle = mlir_sys::MlirOperation;
pub type LocationHandle = mlir_sys::MlirLocation;
