//! Fallible IR accessors that cost nothing when they fail.
//!
//! melior's `operand(i)`, `result(i)`, `region(i)`, `Block::argument(i)`,
//! `BlockArgument::try_from` and `OperationResult::try_from` build their error
//! by printing the operation, block or value. Printing a value or an op sets up
//! an `AsmState` over the whole enclosing module (and verifies it), so a
//! pattern or analysis that merely *asks* "is this value an op result?" on
//! every op becomes quadratic in the size of the kernel: that was more than a
//! quarter of the compile time of the attention kernels. Use these wherever a
//! miss is an expected answer rather than a bug.

use melior::ir::{
    attribute::{AttributeLike, DenseElementsAttribute, FloatAttribute, IntegerAttribute},
    block::BlockArgument,
    operation::{OperationLike, OperationResult},
    r#type::{RankedTensorType, TypeLike},
    Attribute, BlockLike, BlockRef, RegionRef, Type, Value, ValueLike,
};
use std::fmt;

/// The position asked for is not there (no message is built from the IR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missing {
    pub what: &'static str,
    pub index: usize,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no {} #{}", self.what, self.index)
    }
}

impl std::error::Error for Missing {}

/// Cheap positional access for operations.
pub trait OpAccess<'c, 'a> {
    /// Operand `index`, or `Missing` without printing the op.
    fn operand_at(&self, index: usize) -> Result<Value<'c, 'a>, Missing>;
    /// Result `index`, or `Missing` without printing the op.
    fn result_at(&self, index: usize) -> Result<OperationResult<'c, 'a>, Missing>;
    /// Region `index`, or `Missing` without printing the op.
    fn region_at(&self, index: usize) -> Result<RegionRef<'c, 'a>, Missing>;
}

impl<'c: 'a, 'a, T: OperationLike<'c, 'a>> OpAccess<'c, 'a> for T {
    fn operand_at(&self, index: usize) -> Result<Value<'c, 'a>, Missing> {
        if index < self.operand_count() {
            self.operand(index).map_err(|_| Missing { what: "operand", index })
        } else {
            Err(Missing { what: "operand", index })
        }
    }

    fn result_at(&self, index: usize) -> Result<OperationResult<'c, 'a>, Missing> {
        if index < self.result_count() {
            self.result(index).map_err(|_| Missing { what: "result", index })
        } else {
            Err(Missing { what: "result", index })
        }
    }

    fn region_at(&self, index: usize) -> Result<RegionRef<'c, 'a>, Missing> {
        if index < self.region_count() {
            self.region(index).map_err(|_| Missing { what: "region", index })
        } else {
            Err(Missing { what: "region", index })
        }
    }
}

/// Argument `index` of `block`, or `Missing` without printing the block.
pub fn block_argument_at<'c, 'a>(block: BlockRef<'c, 'a>, index: usize) -> Result<BlockArgument<'c, 'a>, Missing> {
    if index < block.argument_count() {
        block.argument(index).map_err(|_| Missing { what: "block argument", index })
    } else {
        Err(Missing { what: "block argument", index })
    }
}

/// `value` as a block argument, if it is one.
pub fn as_block_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockArgument<'c, 'a>> {
    // SAFETY: a live value; the kind test is what `try_from` would do, minus
    // printing the value when it fails.
    let is_argument = unsafe { mlir_sys::mlirValueIsABlockArgument(value.to_raw()) };
    if is_argument {
        BlockArgument::try_from(value).ok()
    } else {
        None
    }
}

/// `value` as an op result, if it is one.
pub fn as_op_result<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationResult<'c, 'a>> {
    // SAFETY: as in `as_block_argument`.
    let is_result = unsafe { mlir_sys::mlirValueIsAOpResult(value.to_raw()) };
    if is_result {
        OperationResult::try_from(value).ok()
    } else {
        None
    }
}

/// The type or attribute is not of the kind asked for (nothing printed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotA(pub &'static str);

impl fmt::Display for NotA {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a {}", self.0)
    }
}

impl std::error::Error for NotA {}

/// Casts that test the kind first: melior's `try_from` prints the type or
/// attribute into its error, which made "is this a tensor?" cost a print.
macro_rules! cheap_cast {
    ($name:ident, $from:ident, $to:ty, $is:ident, $what:literal) => {
        #[doc = concat!("`value` as ", $what, ", without printing it when it is not one.")]
        pub fn $name<'c>(value: $from<'c>) -> Result<$to, NotA> {
            if value.$is() {
                <$to>::try_from(value).map_err(|_| NotA($what))
            } else {
                Err(NotA($what))
            }
        }
    };
}

cheap_cast!(ranked_tensor, Type, RankedTensorType<'c>, is_ranked_tensor, "ranked tensor type");
cheap_cast!(integer_attribute, Attribute, IntegerAttribute<'c>, is_integer, "integer attribute");
cheap_cast!(float_attribute, Attribute, FloatAttribute<'c>, is_float, "float attribute");
cheap_cast!(dense_elements, Attribute, DenseElementsAttribute<'c>, is_dense_elements, "dense elements attribute");

/// The text of an `MlirStringRef`. melior's `StringRef::as_str` indexes the
/// last byte to strip a NUL and so panics on an empty string (an empty
/// `tt.assert` message, an empty symbol name): read the bytes here instead.
pub fn string_ref_text(raw: mlir_sys::MlirStringRef) -> String {
    if raw.data.is_null() || raw.length == 0 {
        return String::new();
    }
    // SAFETY: MLIR hands out a pointer to `length` live bytes.
    let bytes = unsafe { std::slice::from_raw_parts(raw.data as *const u8, raw.length) };
    String::from_utf8_lossy(bytes.strip_suffix(&[0]).unwrap_or(bytes)).into_owned()
}

/// The value of a string attribute (empty strings included), or `None` when
/// `attribute` is not a string.
pub fn string_attribute_value(attribute: Attribute) -> Option<String> {
    let raw = attribute.to_raw();
    // SAFETY: a live attribute, read as a string only when it is one.
    unsafe { mlir_sys::mlirAttributeIsAString(raw).then(|| string_ref_text(mlir_sys::mlirStringAttrGetValue(raw))) }
}

/// The text of an identifier (an attribute name), empty ones included.
pub fn identifier_text(identifier: melior::ir::Identifier) -> String {
    string_ref_text(identifier.as_string_ref().to_raw())
}
