//! `tritongpu-optimize-accumulator-init` (upstream OptimizeAccumulatorInit):
//! a `ttng.warp_group_dot` in a loop whose accumulator is sometimes reset to
//! zero (by an `arith.select` or `scf.if` choosing a zero tensor, in this
//! iteration or the previous one, or by a zero initial value of the loop)
//! stops reading it then, through its `useC` flag, instead of the loop
//! materialising zeros:
//!
//! - a constant zero accumulator: `useC = false`;
//! - otherwise a new i1 iter_arg says whether the accumulator is live (it
//!   starts false when the loop's initial accumulator is zero); the reset
//!   becomes an `arith.select` on the flag at the same condition, and the
//!   select or branch that chose zeros passes the old accumulator on.
//!
//! The module is then folded, as upstream's closing greedy rewrite does.
//!
//! Dots that already have a non-constant (or false) flag are left alone, as
//! are dots that accumulate in two parts (fp8 with few imprecise
//! accumulations, where the flag would need a select of its own).
//! Blackwell's tcgen05 MMAs (which upstream also handles, through their
//! tensor-memory accumulators) are not Tritium targets.
use crate::ir::{collect_ops, create, fail, name_of, Order};
use crate::tritongpu_pipeline::loops::add_iter_args;
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, AttributeLike, BlockLike, OperationRef,
    RegionLike, Value, ValueLike,
};
use tritium_dialects::access::{integer_attribute, OpAccess};
use tritium_dialects::ir::{
    argument_number, argument_owner, block_ops, constant_attribute, defining_op, insert_before, int_attribute, is_zero,
    replace_all_uses, set_operand, set_operands,
};
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};
use tritium_dialects::types::MemDesc;
use tritium_dialects::views::{IfOp, SelectOp, WarpGroupDotOp};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-optimize-accumulator-init",
    description: "Turn zero-resets of wgmma accumulators in loops into the dot's use-accumulator flag",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let dots: Vec<OperationRef> = collect_ops(module, Order::Pre)
        .into_iter()
        .filter(|op| name_of(op) == "ttng.warp_group_dot" && !needs_partial_accumulator(op))
        .collect();
    for dot in dots {
        optimize(dot)?;
    }
    // Upstream ends with the greedy driver (for a tensor-memory pattern),
    // which folds what this made (`select %c, true, false` is `%c`) and
    // drops constants left unused.
    tritium_dialects::ir::apply_patterns_greedily(module, &[]);
    Ok(())
}

/// Upstream's `needsPartialAccumulator`: fp8 operands into f32 with at most
/// K imprecise accumulations are summed in two parts.
fn needs_partial_accumulator(dot: &OperationRef) -> bool {
    let Some(dot) = WarpGroupDotOp::of(*dot) else { return false };
    let a_type = dot.a().r#type();
    let (a_shape, a_element) = match MemDesc::of(a_type) {
        Some(memdesc) => (memdesc.shape, memdesc.element_type),
        None => match crate::ir::tensor_parts(a_type) {
            Some((shape, element, _)) => (shape, element),
            None => return false,
        },
    };
    let is_fp8 = matches!(a_element.to_string().as_str(), "f8E5M2" | "f8E4M3FN" | "f8E5M2FNUZ" | "f8E4M3FNUZ");
    let accumulates_f32 =
        crate::ir::tensor_parts(dot.result_at(0).unwrap().r#type()).is_some_and(|(_, e, _)| e.to_string() == "f32");
    let imprecise = int_attribute(&dot, "maxNumImpreciseAcc").unwrap_or(0);
    is_fp8 && accumulates_f32 && a_shape.get(1).is_some_and(|k| imprecise <= *k)
}

/// The value of an i1 `arith.constant`.
fn constant_bool(value: Value) -> Option<bool> {
    let attribute = constant_attribute(value)?;
    let integer = integer_attribute(attribute).ok()?;
    (tritium_dialects::ir::integer_width(attribute.r#type()) == Some(1)).then(|| integer.value() != 0)
}

/// The op that sets the accumulator to zero, and which of its results.
struct ZeroInit<'c, 'a> {
    op: OperationRef<'c, 'a>,
    result: usize,
}

/// Where the accumulator `use_` of a dot in `for_op` is set to zero: by a
/// select or an if producing it (directly, or as the value the loop carries
/// into it). Sets `initially_zero` when the loop starts from zero.
fn find_zero_init<'c, 'a>(
    use_: Value<'c, 'a>,
    for_op: &OperationRef<'c, 'a>,
    initially_zero: &mut bool,
) -> Option<ZeroInit<'c, 'a>> {
    let body = for_op.region_at(0).ok()?.first_block()?;
    let mut value = use_;
    if argument_owner(value).is_some() {
        if argument_owner(value) != Some(body) {
            return None;
        }
        let number = argument_number(value)?;
        if number == 0 {
            return None; // the induction variable
        }
        if is_zero(for_op.operand_at(3 + number - 1).ok()?) {
            *initially_zero = true;
        }
        value = body.terminator()?.operand_at(number - 1).ok()?;
    }
    let op = defining_op(value)?;
    match name_of(&op).as_str() {
        "arith.select" => {
            let select = SelectOp::of(op)?;
            let scalar_condition = tritium_dialects::ir::integer_width(select.condition().r#type()) == Some(1);
            let chooses_zero = is_zero(select.true_value()) || is_zero(select.false_value());
            (scalar_condition && chooses_zero).then_some(ZeroInit { op, result: 0 })
        }
        "scf.if" => {
            let result = tritium_dialects::ir::result_number(value)?;
            let (then_value, else_value) = branch_values(&op, result)?;
            if !(is_zero(then_value) || is_zero(else_value)) {
                return None;
            }
            // The other value must come from outside the if.
            let defined_in_if = |v: Value| {
                tritium_dialects::ir::parent_block(v).and_then(|b| b.parent_operation()).is_some_and(|p| p == op)
            };
            (!defined_in_if(then_value) && !defined_in_if(else_value)).then_some(ZeroInit { op, result })
        }
        _ => None,
    }
}

/// What the branches of `if_op` yield as its result `index`.
fn branch_values<'c, 'a>(if_op: &OperationRef<'c, 'a>, index: usize) -> Option<(Value<'c, 'a>, Value<'c, 'a>)> {
    let yielded = |region: usize| -> Option<Value<'c, 'a>> {
        if_op.region_at(region).ok()?.first_block()?.terminator()?.operand_at(index).ok()
    };
    Some((yielded(0)?, yielded(1)?))
}

/// Whether `a` comes before `b` in the block they share.
fn is_before_in_block(a: &OperationRef, b: &OperationRef) -> bool {
    let Some(block) = a.block() else { return false };
    if b.block() != Some(block) {
        return false;
    }
    let ops = block_ops(&block);
    let position = |op: &OperationRef| ops.iter().position(|o| o == op);
    matches!((position(a), position(b)), (Some(x), Some(y)) if x < y)
}

/// Sets the dot's `useC` operand (adding it when the dot has none).
fn set_use_accumulator<'c, 'a>(dot: &OperationRef<'c, 'a>, flag: Value<'c, 'a>) {
    if dot.operand_count() > 3 {
        set_operand(dot, 3, flag);
    } else {
        let mut operands: Vec<Value> = dot.operands().collect();
        operands.push(flag);
        set_operands(dot, &operands);
    }
}

fn optimize(dot: OperationRef) -> PassResult {
    let Some(for_op) = dot.parent_operation().filter(|p| name_of(p) == "scf.for") else { return Ok(()) };
    let location = dot.location();
    let context = tritium_dialects::ir::context_of(location);
    let i1 = IntegerType::new(context, 1).into();
    let boolean = |value: bool| {
        let constant = create(
            "arith.constant",
            location,
            &[],
            &[i1],
            &[("value", IntegerAttribute::new(i1, value as i64).into())],
        );
        insert_before(&for_op, constant).result_at(0).unwrap().into()
    };
    let wgmma = WarpGroupDotOp::of(dot).ok_or_else(|| fail(&dot, "is no ttng.warp_group_dot"))?;
    let accumulator = wgmma.c();
    if is_zero(accumulator) {
        set_use_accumulator(&dot, boolean(false));
        return Ok(());
    }
    let mut initially_zero = false;
    let zero_init = find_zero_init(accumulator, &for_op, &mut initially_zero);
    if zero_init.is_none() && !initially_zero {
        return Ok(());
    }
    // A flag already there: this pass ran, or the dot never reads its
    // accumulator (a peeled first iteration).
    if wgmma.use_c().is_some_and(|flag| constant_bool(flag) != Some(true)) {
        return Ok(());
    }
    let (v_true, v_false): (Value, Value) = (boolean(true), boolean(false));
    let for_op = add_iter_args(for_op, &[if initially_zero { v_false } else { v_true }]);
    let body = for_op.region_at(0).ok().and_then(|r| r.first_block()).ok_or_else(|| fail(&for_op, "has no body"))?;
    let flag: Value = *tritium_dialects::ir::block_arguments(&body).last().unwrap();
    let terminator = body.terminator().ok_or_else(|| fail(&for_op, "has no yield"))?;
    // What the loop yields for the flag.
    let next_flag = match zero_init {
        Some(ZeroInit { op, result }) => {
            let is_select = SelectOp::of(op).is_some();
            let (condition, then_value, else_value) = match SelectOp::of(op) {
                Some(select) => (select.condition(), select.true_value(), select.false_value()),
                None => {
                    let (then_value, else_value) =
                        branch_values(&op, result).ok_or_else(|| fail(&op, "has a branch without a yield"))?;
                    let condition = IfOp::of(op).ok_or_else(|| fail(&op, "is no arith.select or scf.if"))?.condition();
                    (condition, then_value, else_value)
                }
            };
            let then_zeroes = is_zero(then_value);
            let old_value = if then_zeroes { else_value } else { then_value };
            // Zeroing before the dot: the flag says whether this iteration's
            // dot reads its accumulator; after it, whether the next one does.
            let zeroing_before = is_before_in_block(&op, &dot);
            let previous = if zeroing_before { flag } else { v_true };
            let (when_then, when_else) = if then_zeroes { (v_false, previous) } else { (previous, v_false) };
            let select = create("arith.select", location, &[condition, when_then, when_else], &[i1], &[]);
            let select: Value = insert_before(&op, select).result_at(0).unwrap().into();
            set_use_accumulator(&dot, if zeroing_before { select } else { flag });
            // Stop zeroing the accumulator.
            if is_select {
                replace_all_uses(op.result_at(0).unwrap().into(), old_value);
                crate::ir::erase(op);
            } else {
                let zeroing_region = if then_zeroes { 0 } else { 1 };
                let zeroing_yield = op
                    .region_at(zeroing_region)
                    .ok()
                    .and_then(|r| r.first_block())
                    .and_then(|b| b.terminator())
                    .ok_or_else(|| fail(&op, "has a branch without a yield"))?;
                set_operand(&zeroing_yield, result, old_value);
            }
            if zeroing_before {
                v_true
            } else {
                select
            }
        }
        None => {
            set_use_accumulator(&dot, flag);
            v_true
        }
    };
    let mut yielded: Vec<Value> = terminator.operands().collect();
    yielded.push(next_flag);
    set_operands(&terminator, &yielded);
    Ok(())
}
