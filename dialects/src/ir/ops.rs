//! Operations: names, operands, placement, cloning, erasing, attributes, and
//! the enclosing ops of an op.
use crate::access::integer_attribute;
use melior::{
    ir::{
        operation::{OperationBuilder, OperationLike},
        Attribute, AttributeLike, BlockLike, BlockRef, Identifier, Location, Operation, OperationRef, RegionLike, Type,
        Value, ValueLike,
    },
    Context,
};

/// The name of an operation, e.g. `"tt.load"`.
pub fn name_of(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
}

/// The context of `location` as the `&'c Context` melior's constructors take.
///
/// `ContextRef::to_ref` borrows the `ContextRef` itself, so a reference made
/// from a temporary one dangles (debug builds happen to work, release builds
/// crash). Each context gets one cell holding its handle, kept for the
/// process; the handle is its own key, so a cell is right for any context
/// that ever has that address.
pub fn context_of<'c>(location: Location<'c>) -> &'c Context {
    use std::{collections::BTreeMap, sync::Mutex};
    static CELLS: Mutex<BTreeMap<usize, usize>> = Mutex::new(BTreeMap::new());
    // SAFETY: a live location has a live context.
    let raw = unsafe { mlir_sys::mlirLocationGetContext(location.to_raw()) };
    let mut cells = CELLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let cell = *cells.entry(raw.ptr as usize).or_insert_with(|| {
        let leaked: &'static mut mlir_sys::MlirContext = Box::leak(Box::new(raw));
        leaked as *mut mlir_sys::MlirContext as usize
    });
    // SAFETY: melior's Context is a single MlirContext field (as
    // ContextRef::to_ref relies on too), and the cell lives for the rest of
    // the process.
    unsafe { &*(cell as *const Context) }
}

/// Sets operand `index` of `op`. The index must be in range.
pub fn set_operand<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize, value: Value<'c, 'a>) {
    assert!(index < op.operand_count(), "operand #{index} out of range");
    // SAFETY: both handles are live and the index is in range.
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) };
}

/// Replaces all operands of `op` (their number may change).
pub fn set_operands<'c, 'a>(op: &OperationRef<'c, 'a>, values: &[Value<'c, 'a>]) {
    let raw: Vec<mlir_sys::MlirValue> = values.iter().map(|v| v.to_raw()).collect();
    // SAFETY: live handles; MLIR copies the list.
    unsafe { mlir_sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr()) };
}

/// Erases `op` (with its regions). Its results must have no uses left; every
/// handle to `op` and to what it holds is dangling afterwards.
///
/// Panics, erasing nothing, when an op outside `op` still uses a value that
/// `op` defines (a result, a nested op's result or a block argument of its
/// regions). MLIR's release builds do not check that: the user would keep a
/// pointer into the freed op, and its next use-list update (its own erasure,
/// a new operand) would write into freed memory, heap corruption that shows
/// up much later. A panic is reported as an internal error instead.
pub fn erase(op: OperationRef) {
    if let Some(escape) = escaping_use(&op) {
        panic!("erasing '{}' while {escape}", name_of(&op));
    }
    // SAFETY: the op is live and owned by its block (or by nothing), and no
    // op outside it uses what it defines (checked above).
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
}

/// A value that `op` defines (its results, the results of the ops nested in
/// it, the arguments of its regions' blocks) and an op outside `op` uses,
/// described; None when erasing `op` leaves no use dangling.
pub fn escaping_use(op: &OperationRef) -> Option<String> {
    // The name of an op outside `op` that uses `value`.
    let outside =
        |value: Value| crate::ir::users(value).into_iter().find(|user| !is_ancestor(op, *user)).map(|u| name_of(&u));
    for (index, result) in op.results().enumerate() {
        if let Some(user) = outside(result.into()) {
            return Some(format!("its result #{index} is still used by '{user}'"));
        }
    }
    for nested in std::iter::once(*op).chain(collect_ops(*op, Order::Pre)) {
        for region in nested.regions() {
            for block in crate::ir::region_blocks(&region) {
                for (index, argument) in crate::ir::block_arguments(&block).into_iter().enumerate() {
                    if let Some(user) = outside(argument) {
                        return Some(format!(
                            "argument #{index} of a block of '{}' is still used by '{user}' outside it",
                            name_of(&nested),
                        ));
                    }
                }
            }
        }
        if nested == *op {
            continue;
        }
        for (index, result) in nested.results().enumerate() {
            if let Some(user) = outside(result.into()) {
                return Some(format!(
                    "result #{index} of the nested '{}' is still used by '{user}' outside it",
                    name_of(&nested),
                ));
            }
        }
    }
    None
}

/// Moves `op` right before `before` (possibly into another block).
pub fn move_before(op: &OperationRef, before: &OperationRef) {
    // SAFETY: both ops are live and in blocks.
    unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), before.to_raw()) };
}

/// Moves `op` right after `after` (possibly into another block).
pub fn move_after(op: &OperationRef, after: &OperationRef) {
    // SAFETY: both ops are live and in blocks.
    unsafe { mlir_sys::mlirOperationMoveAfter(op.to_raw(), after.to_raw()) };
}

/// Moves `op` to the end of `block`.
pub fn move_to_end(op: &OperationRef, block: &BlockRef) {
    // SAFETY: the op is live; it is unlinked before its new block takes it.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirBlockAppendOwnedOperation(block.to_raw(), op.to_raw());
    }
}

/// Where new ops go (MLIR's `OpBuilder::InsertPoint`): before an op, or at
/// the end of a block.
#[derive(Clone, Copy)]
pub enum InsertionPoint<'c, 'a> {
    Before(OperationRef<'c, 'a>),
    End(BlockRef<'c, 'a>),
}

impl<'c, 'a> InsertionPoint<'c, 'a> {
    /// Right after `op` (the end of its block when it is the last op).
    pub fn after(op: OperationRef<'c, 'a>) -> Self {
        match op.next_in_block() {
            Some(next) => Self::Before(next),
            None => Self::End(op.block().expect("an op in a block")),
        }
    }

    /// The start of `block` (its end when it is empty).
    pub fn start(block: BlockRef<'c, 'a>) -> Self {
        match block.first_operation() {
            Some(first) => Self::Before(first),
            None => Self::End(block),
        }
    }

    /// Inserts `op` here and returns it.
    pub fn insert(self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        match self {
            Self::Before(next) => insert_before(&next, op),
            Self::End(block) => block.append_operation(op),
        }
    }
}

/// Inserts `op` before `before` and returns it. `before` must be in a block.
pub fn insert_before<'c, 'a>(before: &OperationRef<'c, 'a>, op: Operation<'c>) -> OperationRef<'c, 'a> {
    let block = before.block().expect("an op in a block");
    block.insert_operation_before(*before, op)
}

/// A deep copy of `op` (regions included), not inserted anywhere; its
/// operands are `op`'s.
pub fn clone_op<'c>(op: &OperationRef<'c, '_>) -> Operation<'c> {
    // SAFETY: cloning a live op gives a new, unlinked op owned by the handle.
    unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) }
}

/// Sets attribute `name` of `op` (inherent or discardable).
pub fn set_attribute<'c>(op: &OperationRef<'c, '_>, name: &str, value: Attribute<'c>) {
    let name = mlir_sys::MlirStringRef { data: name.as_ptr().cast(), length: name.len() };
    // SAFETY: live op and attribute; MLIR copies the name.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), name, value.to_raw()) };
}

/// Removes attribute `name` of `op`; `false` when it had none.
pub fn remove_attribute(op: &OperationRef, name: &str) -> bool {
    let name = mlir_sys::MlirStringRef { data: name.as_ptr().cast(), length: name.len() };
    // SAFETY: a live op; MLIR only reads the name.
    unsafe { mlir_sys::mlirOperationRemoveAttributeByName(op.to_raw(), name) }
}

/// An integer attribute of `op`, inherent or discardable.
pub fn int_attribute(op: &OperationRef, name: &str) -> Option<i64> {
    op.attribute(name).ok().and_then(|a| integer_attribute(a).ok()).map(|i| i.value())
}

/// The nearest enclosing op (or `op` itself) that carries integer attribute
/// `name`, e.g. "ttg.num-warps" on the module.
pub fn enclosing_int_attribute(op: OperationRef, name: &str) -> Option<i64> {
    let mut current = Some(op);
    while let Some(op) = current {
        if let Some(value) = int_attribute(&op, name) {
            return Some(value);
        }
        current = op.parent_operation();
    }
    None
}

/// The `builtin.module` that holds `op` (or `op` itself).
pub fn enclosing_module<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    enclosing_named(op, "builtin.module")
}

/// The nearest op named `name` that holds `op` (or `op` itself).
pub fn enclosing_named<'c, 'a>(op: OperationRef<'c, 'a>, name: &str) -> Option<OperationRef<'c, 'a>> {
    let mut current = op;
    while name_of(&current) != name {
        current = current.parent_operation()?;
    }
    Some(current)
}

/// Whether `ancestor` is `op` or contains it.
pub fn is_ancestor(ancestor: &OperationRef, op: OperationRef) -> bool {
    let mut current = Some(op);
    while let Some(op) = current {
        if op == *ancestor {
            return true;
        }
        current = op.parent_operation();
    }
    false
}

/// The op of `block` that is `op` or contains it (MLIR's
/// `Block::findAncestorOpInBlock`).
pub fn ancestor_in_block<'c, 'a>(block: &BlockRef<'c, 'a>, op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut current = Some(op);
    while let Some(op) = current {
        if op.block().as_ref() == Some(block) {
            return Some(op);
        }
        current = op.parent_operation();
    }
    None
}

/// Order of [`collect_ops`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Parents before the ops nested in them.
    Pre,
    /// Nested ops before their parents.
    Post,
}

/// All operations nested in `root` (not `root` itself), in program order.
/// A snapshot: the IR may be changed while the list is used, as long as the
/// ops still in use were not erased.
pub fn collect_ops<'c, 'a>(root: OperationRef<'c, 'a>, order: Order) -> Vec<OperationRef<'c, 'a>> {
    fn visit<'c, 'a>(op: OperationRef<'c, 'a>, order: Order, out: &mut Vec<OperationRef<'c, 'a>>) {
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut next = b.first_operation();
                while let Some(inner) = next {
                    if order == Order::Pre {
                        out.push(inner);
                    }
                    visit(inner, order, out);
                    if order == Order::Post {
                        out.push(inner);
                    }
                    next = inner.next_in_block();
                }
                block = b.next_in_region();
            }
        }
    }
    let mut ops = Vec::new();
    visit(root, order, &mut ops);
    ops
}

/// The `tt.func`s directly in `module`, in order.
pub fn module_functions<'c, 'a>(module: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    crate::ir::ops_in_regions(&module).into_iter().filter(|op| name_of(op) == "tt.func").collect()
}

/// The `builtin.module` ops directly inside `module` (a file of several
/// modules parses as one implicit module holding them, as upstream's lit
/// tests have it): passes that work module by module visit each.
pub fn nested_modules<'c, 'a>(module: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    crate::ir::ops_in_regions(&module).into_iter().filter(|op| name_of(op) == "builtin.module").collect()
}

/// Builds an operation by name with operands, result types and attributes.
/// Panics when MLIR refuses to build it (an unregistered name).
pub fn create<'c>(
    name: &str,
    location: Location<'c>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(&str, Attribute<'c>)],
) -> Operation<'c> {
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = location.context();
    let context = unsafe { context_ref.to_ref() };
    let attributes: Vec<(Identifier, Attribute)> =
        attributes.iter().map(|(k, v)| (Identifier::new(context, k), *v)).collect();
    OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_results(results)
        .add_attributes(&attributes)
        .build()
        .expect("operation with a registered name and valid parts")
}

/// A hashable identity of an op (its pointer).
pub fn op_key(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// A deep copy of `op`, not yet inserted, whose operands (its own and those
/// of the ops inside it) defined outside it are looked up in `map` (MLIR's
/// `OpBuilder::clone(op, mapping)`, but the caller maps the results).
pub fn clone_with<'c>(op: &OperationRef<'c, '_>, map: &super::ValueMap) -> Operation<'c> {
    let clone = clone_op(op);
    // SAFETY: the clone is live while `clone` is; only its operands are rewired.
    remap_operands(unsafe { OperationRef::from_raw(clone.to_raw()) }, map);
    clone
}

/// Rewires the operands of `op` and of every op inside it through `map`.
fn remap_operands(op: OperationRef, map: &super::ValueMap) {
    use crate::access::OpAccess;
    for index in 0..op.operand_count() {
        let operand = op.operand_at(index).expect("index in range");
        if map.contains(operand) {
            set_operand(&op, index, map.lookup(operand));
        }
    }
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            for inner in super::block_ops(&b) {
                remap_operands(inner, map);
            }
            block = b.next_in_region();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    const KERNEL: &str = "module {
  tt.func @f(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %next = arith.addi %acc, %i : i32
      scf.yield %next : i32
    }
    tt.return %sum : i32
  }
}";

    fn find<'c, 'a>(root: OperationRef<'c, 'a>, name: &str) -> OperationRef<'c, 'a> {
        collect_ops(root, Order::Pre).into_iter().find(|op| name_of(op) == name).expect(name)
    }

    fn panic_text(body: impl FnOnce()) -> String {
        let panic = catch_unwind(AssertUnwindSafe(body)).expect_err("a panic");
        crate::internal_error::describe(panic.as_ref())
    }

    /// Erasing an op that something outside it still uses would leave that
    /// user pointing into freed memory (MLIR's release builds do not check):
    /// `erase` refuses, and the IR stays as it was.
    #[test]
    fn erase_refuses_to_leave_a_use_dangling() {
        let context = crate::create_context();
        let module = crate::io::parse_module(&context, KERNEL, "erase.mlir").unwrap();
        let root = module.as_operation();
        let root = unsafe { OperationRef::from_raw(root.to_raw()) };

        // A result still used.
        let message = panic_text(|| erase(find(root, "scf.for")));
        assert!(message.contains("erasing 'scf.for' while its result #0 is still used by 'tt.return'"), "{message}");

        // A block argument used by an op moved out of the loop (the loop's
        // result no longer used).
        let for_op = find(root, "scf.for");
        let ret = find(root, "tt.return");
        let c1 = find(root, "arith.constant").next_in_block().unwrap();
        set_operand(&ret, 0, c1.result(0).unwrap().into());
        let add = find(root, "arith.addi");
        move_before(&add, &for_op);
        let message = panic_text(|| erase(for_op));
        assert!(
            message.contains("argument #0 of a block of 'scf.for' is still used by 'arith.addi' outside it"),
            "{message}"
        );

        // A nested op's result used outside.
        move_before(&add, &find(root, "scf.yield"));
        set_operand(&ret, 0, add.result(0).unwrap().into());
        let message = panic_text(|| erase(for_op));
        assert!(
            message.contains("result #0 of the nested 'arith.addi' is still used by 'tt.return' outside it"),
            "{message}"
        );

        // Nothing was erased: with the loop's result returned again, the IR verifies.
        set_operand(&ret, 0, for_op.result(0).unwrap().into());
        assert!(unsafe { mlir_sys::mlirOperationVerify(root.to_raw()) });
    }
}
