//! Blocks and regions: their ops and arguments, moving a region's body.
use crate::access::{block_argument_at, OpAccess};
use melior::ir::{operation::OperationLike, BlockLike, BlockRef, OperationRef, RegionLike, Value};

/// The ops of `block`, in order. A snapshot: ops may be moved or erased
/// while the list is used, as long as the erased ones are not used again.
pub fn block_ops<'c, 'a>(block: &BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        ops.push(op);
        next = op.next_in_block();
    }
    ops
}

/// The ops directly inside `op`'s regions (not those nested deeper), region
/// by region, block by block.
pub fn ops_in_regions<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            ops.extend(block_ops(&b));
            block = b.next_in_region();
        }
    }
    ops
}

/// The arguments of `block`.
pub fn block_arguments<'c, 'a>(block: &BlockRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    (0..block.argument_count()).filter_map(|i| block_argument_at(*block, i).ok().map(Into::into)).collect()
}

/// The entry block of region `index` of `op`.
pub fn entry_block<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> Option<BlockRef<'c, 'a>> {
    op.region_at(index).ok()?.first_block()
}

/// Whether `op` is its block's terminator (MLIR's `IsTerminator` trait:
/// the C API hands out a block's last op as its terminator only when the op
/// has the trait).
pub fn is_terminator(op: &OperationRef) -> bool {
    let Some(block) = op.block() else { return false };
    block.terminator().is_some_and(|t| t == *op)
}

/// Moves every block of region `from` into region `to`, which must be empty
/// (MLIR's `Region::takeBody`). Both regions must be live.
pub fn take_body<'c, 'a, 'b>(to: &impl RegionLike<'c, 'a>, from: &impl RegionLike<'c, 'b>) {
    // SAFETY: both regions are live; the target is empty.
    unsafe { mlir_sys::mlirRegionTakeBody(to.to_raw(), from.to_raw()) };
}

/// Moves the body of region `index` of `from` into the (empty) region
/// `index` of `to`; `None` if either op has no such region.
pub fn take_region_body(to: &OperationRef, from: &OperationRef, index: usize) -> Option<()> {
    let (target, source) = (to.region_at(index).ok()?, from.region_at(index).ok()?);
    // SAFETY: both regions are live; the target is empty.
    unsafe { mlir_sys::mlirRegionTakeBody(target.to_raw(), source.to_raw()) };
    Some(())
}

/// Erases argument `index` of `block`; it must have no uses. Handles to that
/// argument are dangling afterwards.
pub fn erase_block_argument(block: &BlockRef, index: usize) {
    assert!(index < block.argument_count(), "block argument #{index} out of range");
    // MLIR's release builds do not check this; a use left behind would point
    // into the freed argument (see `erase`).
    let argument = block.argument(index).expect("in range");
    assert!(!crate::ir::has_uses(argument.into()), "erasing block argument #{index} that is still used");
    // SAFETY: a live block and an argument in range without uses.
    unsafe { block.erase_argument(index) };
}

/// A hashable identity of the region holding `block`.
pub fn parent_region_key(block: &BlockRef) -> usize {
    // SAFETY: the parent region of a live block is live (or null).
    unsafe { mlir_sys::mlirBlockGetParentRegion(block.to_raw()) }.ptr as usize
}

/// Moves every op of `from` to the end of `to`, in order.
pub fn move_ops_to_end(from: &BlockRef, to: &BlockRef) {
    for op in block_ops(from) {
        super::move_to_end(&op, to);
    }
}

/// The blocks of `region`, in order. A snapshot: blocks may be moved while
/// the list is used.
pub fn region_blocks<'c, 'a>(region: &impl RegionLike<'c, 'a>) -> Vec<BlockRef<'c, 'a>> {
    std::iter::successors(region.first_block(), |block| block.next_in_region()).collect()
}

/// Moves `block` (out of whatever region holds it) right after `after`, in
/// `after`'s region. Handles to the block stay valid.
pub fn move_block_after(block: BlockRef, after: BlockRef) {
    let region = after.parent_region().expect("the anchor block is in a region");
    // SAFETY: both blocks are live; the moved block is unlinked before the
    // region takes it.
    unsafe {
        mlir_sys::mlirBlockDetach(block.to_raw());
        mlir_sys::mlirRegionInsertOwnedBlockAfter(region.to_raw(), after.to_raw(), block.to_raw());
    }
}

/// Moves the ops of `from` to the end of `into` (after its last op), then
/// erases `from`, which must have no arguments and no predecessors left.
pub fn merge_block_into(from: BlockRef, into: BlockRef) {
    assert_eq!(from.argument_count(), 0, "a merged block has no arguments");
    for op in block_ops(&from) {
        super::move_to_end(&op, &into);
    }
    // SAFETY: the block is live, empty and unreferenced; once detached its
    // region no longer owns it, so destroying it frees it once.
    unsafe {
        mlir_sys::mlirBlockDetach(from.to_raw());
        mlir_sys::mlirBlockDestroy(from.to_raw());
    }
}
