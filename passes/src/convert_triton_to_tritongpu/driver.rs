//! The conversion driver, replaying what MLIR's partial dialect conversion
//! does for upstream's pass, with values retyped in place instead of ops
//! replaced:
//!
//! - ops are visited in pre-order (parents before the ops nested in them, in
//!   program order), each op once; an op is converted when it is illegal:
//!   in one of the dialects upstream constrains (arith, math, tt, scf, cf,
//!   ub) with a type the converter would change, judged on the types the IR
//!   had before the pass;
//! - before an op's rule runs, each operand is "remapped": the rule wants it
//!   in the converted form of its original type, and where the value was
//!   given another layout (a reduce result, an expand_dims or dot result,
//!   ...) a `ttg.convert_layout` to that type is materialized right after
//!   the value's definition: one per value and type, reused by every later
//!   user; when two results of one op need one, the one made later goes
//!   first, as upstream's driver inserts them;
//! - legal ops keep their operands; where one of them was retyped, upstream
//!   needs a "source materialization" back to the old type, which it only
//!   builds (an `unrealized_conversion_cast`) with `enable-source-remat`.
use super::{layouts::Grid, rules::Rule};
use crate::ir::{collect_ops, fail, name_of, Order};
use melior::ir::{
    operation::OperationLike, Attribute, BlockLike, Operation, OperationRef, RegionLike, Type, TypeLike, Value,
    ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::{as_op_result, block_argument_at, ranked_tensor, OpAccess};
use tritium_dialects::pass::{emit_error, PassFailed, PassResult};

/// The dialects whose ops upstream's conversion target makes legal only
/// once their types are converted.
const CONSTRAINED_DIALECTS: &[&str] = &["arith", "math", "tt", "scf", "cf", "ub"];

/// Ops upstream's target marks illegal whatever their types.
const ALWAYS_ILLEGAL: &[&str] = &["scf.execute_region", "scf.parallel", "scf.reduce", "scf.reduce.return"];

/// Identity of a value or type (both are uniqued handles).
type Key = usize;

fn value_key(value: Value) -> Key {
    value.to_raw().ptr as Key
}

fn type_key(ty: Type) -> Key {
    ty.to_raw().ptr as Key
}

pub(super) struct Conversion<'c, 'a> {
    pub(super) grid: Grid,
    source_remat: bool,
    /// Default layout attribute per shape.
    pub(super) default_layouts: HashMap<Vec<i64>, Attribute<'c>>,
    /// The type each retyped value had before the pass.
    original_types: HashMap<Key, Type<'c>>,
    /// Materialized conversions, by (value, type converted to).
    conversions: HashMap<(Key, Key), Value<'c, 'a>>,
    /// Source materializations back to the original type, by value.
    source_casts: HashMap<Key, Value<'c, 'a>>,
}

impl<'c: 'a, 'a> Conversion<'c, 'a> {
    pub(super) fn new(grid: Grid, source_remat: bool) -> Self {
        Conversion {
            grid,
            source_remat,
            default_layouts: HashMap::new(),
            original_types: HashMap::new(),
            conversions: HashMap::new(),
            source_casts: HashMap::new(),
        }
    }

    /// Converts every op nested in `module`; stops at the first failure, as
    /// upstream's conversion does.
    pub(super) fn run(mut self, module: OperationRef<'c, 'a>) -> PassResult {
        // A snapshot: the conversions inserted on the way are legal already.
        for op in collect_ops(module, Order::Pre) {
            self.visit(op)?;
        }
        Ok(())
    }

    fn visit(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let name = name_of(&op);
        if !self.is_illegal(op, &name) {
            return self.keep_legal(op);
        }
        let Some(rule) = Rule::of(&name) else {
            return Err(fail(
                &op,
                format!("failed to legalize operation '{name}': convert-triton-to-tritongpu has no rule for it"),
            ));
        };
        self.remap_operands(op).and_then(|()| self.apply(rule, op)).map_err(|message| fail(&op, message))
    }

    /// Whether upstream's conversion target would have `op` converted.
    fn is_illegal(&mut self, op: OperationRef<'c, 'a>, name: &str) -> bool {
        let dialect = name.split_once('.').map_or(name, |(dialect, _)| dialect);
        if !CONSTRAINED_DIALECTS.contains(&dialect) {
            return false;
        }
        if ALWAYS_ILLEGAL.contains(&name) {
            return true;
        }
        match name {
            // Legal once both operands are in dot operand layouts, whatever C is.
            "tt.dot" => !(0..2).all(|i| op.operand_at(i).is_ok_and(|v| has_dot_operand_layout(self.original_type(v)))),
            "tt.func" => function_signature(op)
                .is_some_and(|(inputs, results)| !inputs.into_iter().chain(results).all(|ty| self.is_legal_type(ty))),
            _ => {
                let operands: Vec<Type> = op.operands().map(|v| self.original_type(v)).collect();
                let results: Vec<Type> = op.results().map(|v| v.r#type()).collect();
                let arguments = op.regions().flat_map(|region| region_arguments(&region)).map(|v| v.r#type());
                let types: Vec<Type> = operands.into_iter().chain(results).chain(arguments).collect();
                !types.into_iter().all(|ty| self.is_legal_type(ty))
            }
        }
    }

    /// The type `value` had before the pass.
    pub(super) fn original_type(&self, value: Value<'c, '_>) -> Type<'c> {
        self.original_types.get(&value_key(value)).copied().unwrap_or_else(|| value.r#type())
    }

    /// Gives `value` the type `ty`, remembering the type it had before.
    pub(super) fn retype(&mut self, value: Value<'c, '_>, ty: Type<'c>) {
        let current = value.r#type();
        if current != ty {
            self.original_types.entry(value_key(value)).or_insert(current);
            crate::ir::set_type(value, ty);
        }
    }

    /// Gives every block argument of `region` its converted type.
    pub(super) fn convert_region_arguments(&mut self, region: &impl RegionLike<'c, 'a>) -> Result<(), String> {
        for argument in region_arguments(region) {
            let converted = self.convert_type(self.original_type(argument))?;
            self.retype(argument, converted);
        }
        Ok(())
    }

    /// Makes each operand of `op` have the converted form of its original
    /// type, through a materialized conversion where its value has another.
    fn remap_operands(&mut self, op: OperationRef<'c, 'a>) -> Result<(), String> {
        for index in 0..op.operand_count() {
            let value = op.operand_at(index).map_err(|e| e.to_string())?;
            let wanted = self.convert_type(self.original_type(value))?;
            if value.r#type() != wanted {
                let converted = self.materialize(value, wanted, op)?;
                set_operand(&op, index, converted);
            }
        }
        Ok(())
    }

    /// The conversion of `value` to `ty` that upstream's driver materializes
    /// for `user`: made once, right after the value's definition.
    fn materialize(
        &mut self,
        value: Value<'c, 'a>,
        ty: Type<'c>,
        user: OperationRef<'c, 'a>,
    ) -> Result<Value<'c, 'a>, String> {
        if let Some(converted) = self.conversions.get(&(value_key(value), type_key(ty))) {
            return Ok(*converted);
        }
        if ranked_tensor(ty).is_err() {
            return Err(format!("cannot convert an operand of type {} to {ty}", value.r#type()));
        }
        let conversion = crate::ir::create("ttg.convert_layout", user.location(), &[value], &[ty], &[]);
        let converted = insert_after_definition(value, conversion)?;
        self.conversions.insert((value_key(value), type_key(ty)), converted);
        Ok(converted)
    }

    /// A legal op keeps its operands; one that was retyped needs a cast back
    /// to its old type, which upstream makes only with source remat.
    fn keep_legal(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        for index in 0..op.operand_count() {
            let Ok(value) = op.operand_at(index) else { continue };
            let original = self.original_type(value);
            if original == value.r#type() {
                continue;
            }
            if !self.source_remat {
                // Reported at the definition, as upstream does.
                let at = as_op_result(value).map_or(op.location(), |r| r.owner().location());
                emit_error(
                    at,
                    &format!(
                        "failed to legalize unresolved materialization from ('{}') to ('{original}') that remained \
                         live after conversion: its user '{}' is not converted (enable-source-remat casts back)",
                        value.r#type(),
                        name_of(&op)
                    ),
                );
                return Err(PassFailed);
            }
            let cast = match self.source_casts.get(&value_key(value)) {
                Some(cast) => *cast,
                None => {
                    let cast = crate::ir::create(
                        "builtin.unrealized_conversion_cast",
                        value.location(),
                        &[value],
                        &[original],
                        &[],
                    );
                    let cast = insert_after_definition(value, cast).map_err(|message| fail(&op, message))?;
                    self.source_casts.insert(value_key(value), cast);
                    cast
                }
            };
            set_operand(&op, index, cast);
        }
        Ok(())
    }
}

/// Inserts `new` right before `op` and returns its first result.
pub(super) fn insert_before<'c: 'a, 'a>(op: OperationRef<'c, 'a>, new: Operation<'c>) -> Result<Value<'c, 'a>, String> {
    let block = op.block().ok_or("the op is not in a block")?;
    let inserted = block.insert_operation_before(op, new);
    inserted.result_at(0).map(Value::from).map_err(|e| e.to_string())
}

/// Inserts `new` right after the definition of `value` (at the start of its
/// block for a block argument) and returns its first result.
fn insert_after_definition<'c: 'a, 'a>(value: Value<'c, 'a>, new: Operation<'c>) -> Result<Value<'c, 'a>, String> {
    let inserted = if let Some(result) = as_op_result(value) {
        let owner = result.owner();
        owner.block().ok_or("the definition is not in a block")?.insert_operation_after(owner, new)
    } else {
        let block = tritium_dialects::ir::argument_owner(value).ok_or("a value neither result nor argument")?;
        block.insert_operation(0, new)
    };
    inserted.result_at(0).map(Value::from).map_err(|e| e.to_string())
}

/// The block arguments of every block of `region`.
fn region_arguments<'c: 'a, 'a>(region: &impl RegionLike<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let mut arguments = Vec::new();
    let mut block = region.first_block();
    while let Some(b) = block {
        arguments.extend((0..b.argument_count()).filter_map(|i| block_argument_at(b, i).ok()).map(Value::from));
        block = b.next_in_region();
    }
    arguments
}

/// Input and result types of a function-like op's `function_type`.
pub(super) fn function_signature<'c>(op: OperationRef<'c, '_>) -> Option<(Vec<Type<'c>>, Vec<Type<'c>>)> {
    let attribute = op.attribute("function_type").ok()?;
    let ty = melior::ir::attribute::TypeAttribute::try_from(attribute).ok()?.value();
    let function = melior::ir::r#type::FunctionType::try_from(ty).ok()?;
    let inputs = (0..function.input_count()).filter_map(|i| function.input(i).ok()).collect();
    let results = (0..function.result_count()).filter_map(|i| function.result(i).ok()).collect();
    Some((inputs, results))
}

fn has_dot_operand_layout(ty: Type) -> bool {
    ranked_tensor(ty).ok().and_then(|tensor| tensor.encoding()).is_some_and(|layout| {
        matches!(tritium_dialects::layout::layout_of(layout), Ok(tritium_layout::Layout::DotOperand(_)))
    })
}

/// Sets operand `index` of `op`.
pub(super) use tritium_dialects::ir::set_operand;

/// Sets attribute `name` of `op` (inherent or discardable).
pub(super) fn set_attribute<'c>(op: OperationRef<'c, '_>, name: &str, value: Attribute<'c>) {
    tritium_dialects::ir::set_attribute(&op, name, value);
}
