//! `triton-loop-unroll` (upstream LoopUnroll.cpp): unrolls every `scf.for`
//! marked `tt.loop_unroll_factor = N` (N > 1) N times, as MLIR's
//! `loopUnrollByFactor`: the loop steps N times as far and its body holds N
//! copies of the original one (copy `i` sees the induction variable plus
//! `i * step`), up to the last multiple of N iterations; an epilogue loop
//! runs what is left. The epilogue is marked `tt.num_stages = 1` so that it
//! is not pipelined. A loop left with one iteration is replaced by its body,
//! one left with none by its initial values.
use crate::{
    ir::{collect_ops, create, erase, fail, int_attribute, name_of, replace_all_uses, Order},
    op_traits::constant_integer,
    ssa::{
        block_arguments, block_ops, clone_with, entry_block, has_uses, insert_before, move_before, set_attribute,
        set_operand, ValueMap,
    },
};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, BlockLike, OperationRef, Type, Value,
    ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::pass::{PassDefinition, PassOptions, PassResult};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-loop-unroll",
    description: "Unroll scf.for loops marked with tt.loop_unroll_factor",
    anchor: "builtin.module",
    options: &[],
    run,
};

const UNROLL_FACTOR: &str = "tt.loop_unroll_factor";
const NUM_STAGES: &str = "tt.num_stages";

/// Operand positions of `scf.for`.
const LOWER: usize = 0;
const UPPER: usize = 1;
const STEP: usize = 2;
const FIRST_INIT: usize = 3;

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let loops: Vec<(OperationRef, i64)> = collect_ops(module, Order::Post)
        .into_iter()
        .filter(|op| name_of(op) == "scf.for")
        .filter_map(|op| int_attribute(&op, UNROLL_FACTOR).filter(|f| *f > 1).map(|f| (op, f)))
        .collect();
    for (lp, factor) in loops {
        tritium_dialects::ir::remove_attribute(&lp, UNROLL_FACTOR);
        if let Some(epilogue) = unroll(lp, factor as u64)? {
            let context_ref = lp.context();
            let i32_type: Type = IntegerType::new(unsafe { context_ref.to_ref() }, 32).into();
            set_attribute(&epilogue, NUM_STAGES, IntegerAttribute::new(i32_type, 1).into());
        }
    }
    Ok(())
}

/// Builds integer constants and arithmetic right before an op.
struct Arith<'c, 'a> {
    before: OperationRef<'c, 'a>,
}

impl<'c, 'a> Arith<'c, 'a> {
    fn constant(&self, value: i64, ty: Type<'c>) -> Value<'c, 'a> {
        let op = self.before;
        let attribute = IntegerAttribute::new(ty, value).into();
        insert_before(&op, create("arith.constant", op.location(), &[], &[ty], &[("value", attribute)]))
            .result_at(0)
            .unwrap()
            .into()
    }

    fn binary(&self, name: &str, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        let op = self.before;
        insert_before(&op, create(name, op.location(), &[lhs, rhs], &[lhs.r#type()], &[])).result_at(0).unwrap().into()
    }
}

/// `ceil(a / b)` for b > 0, as MLIR's `ceilDiv`.
fn ceil_div(a: i64, b: i64) -> i64 {
    let quotient = a / b;
    if a % b != 0 && (a > 0) == (b > 0) {
        quotient + 1
    } else {
        quotient
    }
}

/// Unrolls `lp` by `factor`; returns the epilogue loop, if one is left.
fn unroll<'c, 'a>(
    lp: OperationRef<'c, 'a>,
    factor: u64,
) -> Result<Option<OperationRef<'c, 'a>>, tritium_dialects::pass::PassFailed> {
    let body = entry_block(&lp, 0).ok_or_else(|| fail(&lp, "scf.for without a body"))?;
    // Nothing to unroll in a body that only yields.
    if block_ops(&body).len() <= 1 {
        return Ok(None);
    }
    let (lower, upper, step) =
        (lp.operand_at(LOWER).unwrap(), lp.operand_at(UPPER).unwrap(), lp.operand_at(STEP).unwrap());
    let factor = factor as i64;
    let arith = Arith { before: lp };
    let (unrolled_upper, unrolled_step, has_epilogue) =
        match (constant_integer(lower), constant_integer(upper), constant_integer(step)) {
            (Some(lb), Some(ub), Some(st)) => {
                let trip_count = ceil_div(ub - lb, st);
                let even = trip_count - trip_count % factor;
                let upper_value = lb + even * st;
                let has_epilogue = upper_value < ub;
                let unrolled_upper = if has_epilogue { arith.constant(upper_value, upper.r#type()) } else { upper };
                let step_value = st * factor;
                let unrolled_step = if step_value == st { step } else { arith.constant(step_value, step.r#type()) };
                (unrolled_upper, unrolled_step, has_epilogue)
            }
            _ => {
                // trip count = ceil((ub - lb) / step), computed at run time.
                let difference = arith.binary("arith.subi", upper, lower);
                let one = arith.constant(1, step.r#type());
                let step_less_one = arith.binary("arith.subi", step, one);
                let sum = arith.binary("arith.addi", difference, step_less_one);
                let trip_count = arith.binary("arith.divui", sum, step);
                let factor_value = arith.constant(factor, trip_count.r#type());
                let remainder = arith.binary("arith.remsi", trip_count, factor_value);
                let even = arith.binary("arith.subi", trip_count, remainder);
                let span = arith.binary("arith.muli", even, step);
                let unrolled_upper = arith.binary("arith.addi", lower, span);
                let unrolled_step = arith.binary("arith.muli", step, factor_value);
                (unrolled_upper, unrolled_step, true)
            }
        };
    let mut epilogue = None;
    if has_epilogue {
        // The epilogue is the original loop, from where the unrolled one
        // stops, on its results.
        let copy = clone_with(&lp, &ValueMap::default());
        let block = lp.block().expect("a loop in a block");
        let copy = block.insert_operation_after(lp, copy);
        set_operand(&copy, LOWER, unrolled_upper);
        for (index, result) in lp.results().enumerate() {
            let result: Value = result.into();
            replace_all_uses(result, copy.result_at(index).unwrap().into());
            set_operand(&copy, FIRST_INIT + index, result);
        }
        if !promote_if_at_most_one_iteration(copy) {
            epilogue = Some(copy);
        }
    }
    set_operand(&lp, UPPER, unrolled_upper);
    set_operand(&lp, STEP, unrolled_step);
    unroll_body(&lp, factor, step);
    promote_if_at_most_one_iteration(lp);
    Ok(epilogue)
}

/// Appends `factor - 1` copies of the body of `lp` before its yield, each
/// fed by what the previous copy yields; the yield returns the last copy's.
fn unroll_body(lp: &OperationRef, factor: i64, original_step: Value) {
    let body = entry_block(lp, 0).unwrap();
    let terminator = body.terminator().expect("scf.for's body ends with a yield");
    let originals: Vec<OperationRef> = block_ops(&body).into_iter().filter(|op| *op != terminator).collect();
    let arguments = block_arguments(&body);
    let (induction, iter_args) = arguments.split_first().unwrap();
    let yielded: Vec<Value> = terminator.operands().collect();
    let mut last: Vec<Value> = yielded.clone();
    let arith = Arith { before: terminator };
    for i in 1..factor {
        let mut map = ValueMap::default();
        for (argument, value) in iter_args.iter().zip(&last) {
            map.map(*argument, *value);
        }
        // Copy i runs at induction variable + i * step.
        if has_uses(*induction) {
            let index = arith.constant(i, induction.r#type());
            let stride = arith.binary("arith.muli", original_step, index);
            map.map(*induction, arith.binary("arith.addi", *induction, stride));
        }
        for op in &originals {
            let copy = insert_before(&terminator, clone_with(op, &map));
            for (old, new) in op.results().zip(copy.results()) {
                map.map(old.into(), new.into());
            }
        }
        last = yielded.iter().map(|v| map.lookup(*v)).collect();
    }
    for (index, value) in last.into_iter().enumerate() {
        set_operand(&terminator, index, value);
    }
}

/// The number of iterations of `lp` when its bounds are constants (or equal).
fn static_trip_count(lp: &OperationRef) -> Option<i64> {
    let (lower, upper, step) = (lp.operand_at(LOWER).ok()?, lp.operand_at(UPPER).ok()?, lp.operand_at(STEP).ok()?);
    let st = constant_integer(step)?;
    if st <= 0 {
        return None;
    }
    if lower == upper {
        return Some(0);
    }
    let (lb, ub) = (constant_integer(lower)?, constant_integer(upper)?);
    Some(if ub <= lb { 0 } else { ceil_div(ub - lb, st) })
}

/// MLIR's `ForOp::promoteIfSingleIteration`: a loop that runs once becomes
/// its body (at the lower bound, on the initial values), one that never
/// runs its initial values. `true` when the loop is gone.
fn promote_if_at_most_one_iteration(lp: OperationRef) -> bool {
    let Some(trip_count) = static_trip_count(&lp).filter(|n| *n <= 1) else { return false };
    let inits: Vec<Value> = lp.operands().skip(FIRST_INIT).collect();
    let body = entry_block(&lp, 0).unwrap();
    let terminator = body.terminator().expect("scf.for's body ends with a yield");
    if trip_count == 0 {
        for (result, init) in lp.results().zip(&inits) {
            replace_all_uses(result.into(), *init);
        }
    } else {
        let yielded: Vec<Value> = terminator.operands().collect();
        for (result, value) in lp.results().zip(yielded) {
            replace_all_uses(result.into(), value);
        }
        let arguments = block_arguments(&body);
        replace_all_uses(arguments[0], lp.operand_at(LOWER).unwrap());
        for (argument, init) in arguments[1..].iter().zip(&inits) {
            replace_all_uses(*argument, *init);
        }
        for op in block_ops(&body) {
            if op != terminator {
                move_before(&op, &lp);
            }
        }
    }
    erase(lp);
    true
}
