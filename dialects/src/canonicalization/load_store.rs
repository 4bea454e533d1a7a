//! Loads and stores behind a constant mask (upstream's
//! CanonicalizeMaskedLoadPattern and CanonicalizeMaskedStorePattern): an
//! all-true mask is dropped; an all-false one makes a load its `other` value
//! and a store nothing.
use super::support::{build, constant_of, integer_value, kept, splat_element};
use crate::access::OpAccess;
use crate::rewrite::{Pattern, Rewriter};
use melior::ir::{attribute::DenseI32ArrayAttribute, operation::OperationLike, OperationRef, Value, ValueLike};

pub static LOAD_PATTERNS: &[Pattern] = &[Pattern { root: "tt.load", benefit: 1, rewrite: load_with_constant_mask }];

pub static STORE_PATTERNS: &[Pattern] = &[Pattern { root: "tt.store", benefit: 1, rewrite: store_with_constant_mask }];

/// `Some(all_true)` when `mask` is a constant splat tensor. (Scalar constant
/// masks are left alone, as upstream does.)
fn constant_mask(mask: Value) -> Option<bool> {
    let element = splat_element(constant_of(mask)?)?;
    Some(integer_value(element)? != 0)
}

/// Operand `index` of `op` when the op has that many operands.
fn operand<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    op.operand_at(index).ok()
}

/// The size of each operand group of `op`'s `operandSegmentSizes`.
fn segments(op: &OperationRef) -> Option<Vec<i32>> {
    let attribute = op.attribute("operandSegmentSizes").ok()?;
    super::support::i32_array(attribute)
}

fn load_with_constant_mask(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(sizes) = segments(&op).filter(|s| s.len() == 3 && s[1] == 1) else { return false };
    let Some(mask) = operand(&op, 1) else { return false };
    let Some(all_true) = constant_mask(mask) else { return false };
    if all_true {
        let (Some(pointer), Ok(result)) = (operand(&op, 0), op.result_at(0)) else { return false };
        // `to_ref` borrows the ContextRef: keep it alive in a local.
        let context_ref = op.context();
        let context = unsafe { context_ref.to_ref() };
        let mut attributes = kept(&op, &["boundaryCheck", "padding", "cache", "evict", "isVolatile"]);
        attributes.push(("operandSegmentSizes", DenseI32ArrayAttribute::new(context, &[1, 0, 0]).into()));
        let load = build("tt.load", op.location(), &[pointer], &[result.r#type()], &attributes);
        rewriter.replace_op_with_new(&op, load);
        return true;
    }
    // Without `other` the loaded value is undefined; upstream keeps the load.
    if sizes[2] != 1 {
        return false;
    }
    let Some(other) = operand(&op, 2) else { return false };
    rewriter.replace_op_with_values(&op, &[other]);
    true
}

fn store_with_constant_mask(op: OperationRef, rewriter: &Rewriter) -> bool {
    let Some(mask) = operand(&op, 2) else { return false };
    let Some(all_true) = constant_mask(mask) else { return false };
    if all_true {
        let (Some(pointer), Some(value)) = (operand(&op, 0), operand(&op, 1)) else { return false };
        // As upstream's builder: the new store keeps the cache and eviction
        // policies only.
        let attributes = kept(&op, &["cache", "evict"]);
        rewriter.replace_op_with_new(&op, build("tt.store", op.location(), &[pointer, value], &[], &attributes));
    } else {
        rewriter.erase_op(&op);
    }
    true
}
