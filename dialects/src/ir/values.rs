//! Values: uses, definitions, block arguments' owners, retyping, RAUW,
//! identity keys and value maps.
use crate::access::{as_op_result, float_attribute, integer_attribute, OpAccess};
use melior::ir::{
    operation::OperationLike, Attribute, BlockLike, BlockRef, Location, OperationRef, Type, TypeLike, Value, ValueLike,
};

/// A hashable identity of a value, op or block (its pointer).
pub type Key = usize;

/// The identity of `value`.
pub fn value_key(value: Value) -> Key {
    value.to_raw().ptr as Key
}

/// The op defining `value`; `None` for a block argument.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    as_op_result(value).map(|result| result.owner())
}

/// The index of `value` among its defining op's results.
pub fn result_number(value: Value) -> Option<usize> {
    as_op_result(value).map(|result| result.result_number())
}

/// The value of a constant: the `value` attribute of the `arith.constant`
/// defining it (what MLIR's folders receive as a constant operand,
/// `m_Constant`; Tritium's IR has one constant-like op).
pub fn constant_attribute<'c>(value: Value<'c, '_>) -> Option<Attribute<'c>> {
    defining_op(value).filter(|op| super::name_of(op) == "arith.constant")?.attribute("value").ok()
}

/// Upstream's `isZero`: an integer or float constant zero (either sign),
/// scalar or splat.
pub fn is_zero(value: Value) -> bool {
    let Some(attribute) = constant_attribute(value).map(super::scalar_of) else { return false };
    if let Ok(integer) = integer_attribute(attribute) {
        return integer.value() == 0;
    }
    float_attribute(attribute).is_ok_and(|f| f.value() == 0.0)
}

/// Whether `value` is a block argument (else it is an op result).
pub fn is_block_argument(value: Value) -> bool {
    // SAFETY: a kind query on a live value.
    unsafe { mlir_sys::mlirValueIsABlockArgument(value.to_raw()) }
}

/// The block whose argument `value` is; `None` for an op result.
pub fn argument_owner<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    // SAFETY: a live value; only block arguments are asked for their block.
    unsafe {
        mlir_sys::mlirValueIsABlockArgument(value.to_raw())
            .then(|| BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw())))
    }
}

/// The position of block argument `value` in its block.
pub fn argument_number(value: Value) -> Option<usize> {
    // SAFETY: a live value; only block arguments are asked for their number.
    unsafe {
        mlir_sys::mlirValueIsABlockArgument(value.to_raw())
            .then(|| mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw()) as usize)
    }
}

/// The block `value` is defined in (its op's block, or its own block).
pub fn parent_block<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    match defining_op(value) {
        Some(op) => op.block(),
        None => argument_owner(value),
    }
}

/// The op whose region holds the definition of `value`.
pub fn parent_op_of_value<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    parent_block(value)?.parent_operation()
}

/// The op whose block has argument `value`; `None` for an op result or an
/// argument of a block not (yet) in an op.
pub fn argument_parent_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    argument_owner(value)?.parent_operation()
}

/// The values that flow into block argument `value` where its op says so:
/// for an `scf.for` iteration argument, its initial value and the value the
/// body yields for it; for a warp-specialized partition's argument, the
/// `ttg.warp_specialize`'s explicit capture of the same number (the
/// partitions op sits in the warp_specialize). `None` for the loop's
/// induction variable, arguments of other blocks and op results.
pub fn incoming_values<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<Vec<Value<'c, 'a>>> {
    let block = argument_owner(value)?;
    let number = argument_number(value)?;
    let owner = block.parent_operation()?;
    match super::name_of(&owner).as_str() {
        "scf.for" if number > 0 => {
            // scf.for's operands: lower, upper, step, then the initial values.
            let initial = owner.operand_at(3 + number - 1).ok();
            let yielded = block.terminator().and_then(|t| t.operand_at(number - 1).ok());
            Some(initial.into_iter().chain(yielded).collect())
        }
        "ttg.warp_specialize.partitions" => {
            Some(owner.parent_operation()?.operand_at(number).ok().into_iter().collect())
        }
        _ => None,
    }
}

/// Where `value` was defined (upstream `Value::getLoc`).
pub fn location_of<'c>(value: Value<'c, '_>) -> Location<'c> {
    // SAFETY: a live value has a live location.
    unsafe { Location::from_raw(mlir_sys::mlirValueGetLocation(value.to_raw())) }
}

/// One use of a value: the op using it and the operand's position.
#[derive(Clone, Copy)]
pub struct Use<'c, 'a> {
    pub owner: OperationRef<'c, 'a>,
    pub index: usize,
}

/// The uses of `value`, in use-list order (most recent use first). A
/// snapshot: the caller may rewire the uses while it goes through them.
pub fn uses<'c, 'a>(value: Value<'c, 'a>) -> Vec<Use<'c, 'a>> {
    let mut result = Vec::new();
    // SAFETY: walking the use list of a live value without changing it.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(operand) {
            result.push(Use {
                owner: OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand)),
                index: mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize,
            });
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    result
}

/// The ops using `value`, in use-list order (an op using it twice appears
/// twice). A snapshot, as [`uses`].
pub fn users<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    uses(value).into_iter().map(|u| u.owner).collect()
}

/// Whether `value` has any use.
pub fn has_uses(value: Value) -> bool {
    // SAFETY: a live value.
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// Changes the type of a value in place (results and block arguments).
pub fn set_type(value: Value, ty: Type) {
    // SAFETY: both handles are live.
    unsafe { mlir_sys::mlirValueSetType(value.to_raw(), ty.to_raw()) };
}

/// Replaces every use of `old` with `new`.
pub fn replace_all_uses(old: Value, new: Value) {
    // SAFETY: both handles are live.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
}

/// Replaces every use of `old` with `new`, except the uses by `except`.
pub fn replace_all_uses_except(old: Value, new: Value, except: &OperationRef) {
    let mut except = [except.to_raw()];
    // SAFETY: live handles; MLIR only reads the one-element list.
    unsafe { mlir_sys::mlirValueReplaceAllUsesExcept(old.to_raw(), new.to_raw(), 1, except.as_mut_ptr()) };
}

/// A mapping from old values to new ones, as MLIR's `IRMapping`.
#[derive(Default)]
pub struct ValueMap {
    values: std::collections::HashMap<Key, mlir_sys::MlirValue>,
}

impl ValueMap {
    pub fn map(&mut self, from: Value, to: Value) {
        self.values.insert(value_key(from), to.to_raw());
    }

    /// What `value` maps to, or `value` itself.
    pub fn lookup<'c, 'a>(&self, value: Value<'c, 'a>) -> Value<'c, 'a> {
        match self.values.get(&value_key(value)) {
            // SAFETY: the mapped value lives in the same IR as `value`.
            Some(raw) => unsafe { Value::from_raw(*raw) },
            None => value,
        }
    }

    pub fn contains(&self, value: Value) -> bool {
        self.values.contains_key(&value_key(value))
    }
}

/// The names the printer gives values in an op and what it holds (`%0`,
/// `%arg3`, `%5#1`, `%cst`), as MLIR's `AsmState` numbers them: tests and
/// diagnostics can then name values as the printed IR does.
pub struct ValueNames {
    state: mlir_sys::MlirAsmState,
    flags: mlir_sys::MlirOpPrintingFlags,
}

impl ValueNames {
    /// Names as printing `root` (usually the module) would give them.
    pub fn new(root: &OperationRef) -> Self {
        // SAFETY: a live op; the flags outlive the state (both freed in Drop).
        unsafe {
            let flags = mlir_sys::mlirOpPrintingFlagsCreate();
            let state = mlir_sys::mlirAsmStateCreateForOperation(root.to_raw(), flags);
            ValueNames { state, flags }
        }
    }

    /// The printed name of `value`, a value inside the root op.
    pub fn name(&self, value: Value) -> String {
        unsafe extern "C" fn append(text: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
            // SAFETY: `data` is the Vec below; MLIR passes valid byte ranges.
            let out = unsafe { &mut *(data as *mut Vec<u8>) };
            out.extend_from_slice(unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) });
        }
        let mut out = Vec::<u8>::new();
        // SAFETY: a live value and state; the callback only appends to `out`.
        unsafe {
            mlir_sys::mlirValuePrintAsOperand(value.to_raw(), self.state, Some(append), &mut out as *mut Vec<u8> as _)
        };
        String::from_utf8_lossy(&out).into_owned()
    }
}

impl Drop for ValueNames {
    fn drop(&mut self) {
        // SAFETY: created in `new`, freed once.
        unsafe {
            mlir_sys::mlirAsmStateDestroy(self.state);
            mlir_sys::mlirOpPrintingFlagsDestroy(self.flags);
        }
    }
}
