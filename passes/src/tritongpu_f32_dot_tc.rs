//! `tritongpu-F32DotTC` (upstream `F32DotTC.cpp`): f32 dots whose
//! `inputPrecision` asks for more precision than one tensor-core pass gives
//! become several tensor-core dots on split operands.
//!
//! - `tf32x3` (only with `emu-tf32`, i.e. on NVIDIA): each operand x is split
//!   into big = tf32(x) (`cvt.rna.tf32.f32`) and small = x - big, and
//!   a.b ~ big(a).big(b) + (small(a).big(b) + big(a).small(b)), three tf32
//!   dots (https://github.com/NVIDIA/cutlass/discussions/385).
//! - `bf16x3` / `bf16x6`: each operand is split into 2 or 3 bf16 parts
//!   (hi = bf16(x), mid = bf16(x - hi), lo = ...) and the products of the
//!   parts that matter are summed smallest first, in bf16 dots
//!   (https://arxiv.org/abs/1904.06376).
//!
//! The small products are summed first and their NaNs zeroed: with x = 1.0
//! and y = inf, small(x) = 0 and 0 * inf = NaN, which must not spoil the
//! big product. The accumulator is added last. The rewrite runs as patterns
//! in MLIR's greedy driver, as upstream's, so the zero accumulators become
//! one hoisted constant.
use crate::greedy::apply_with_folds;
use crate::ir::{create, int_attribute, tensor_parts, tensor_type};
use melior::{
    dialect::arith::CmpfPredicate,
    ir::{
        attribute::{BoolAttribute, DenseElementsAttribute, FloatAttribute, IntegerAttribute, StringAttribute},
        operation::OperationLike,
        r#type::IntegerType,
        Attribute, Location, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    ContextRef,
};
use std::marker::PhantomData;
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::DotOp;
use tritium_dialects::{
    pass::{OptionKind, PassDefinition, PassOption, PassOptions, PassResult},
    rewrite::{Pattern, Rewriter},
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-F32DotTC",
    description: "Emulate precise f32 dots with several tf32 or bf16 tensor-core dots",
    anchor: "builtin.module",
    options: &[PassOption {
        name: "emu-tf32",
        description: "whether to handle InputPrecision TF32xN for Nvidia GPUs",
        kind: OptionKind::Bool,
        default: "false",
    }],
    run,
};

/// `tt.dot`'s `inputPrecision` values (upstream `InputPrecision`).
mod precision {
    pub const TF32: i64 = 0;
    pub const TF32X3: i64 = 1;
    pub const IEEE: i64 = 2;
    pub const BF16X3: i64 = 3;
    pub const BF16X6: i64 = 4;
}

static TF32X3: Pattern =
    Pattern { root: "tt.dot", benefit: 1, rewrite: |dot, rewriter| rewrite(dot, rewriter, tf32x3) };
static BF16XN: Pattern =
    Pattern { root: "tt.dot", benefit: 1, rewrite: |dot, rewriter| rewrite(dot, rewriter, bf16xn) };

fn run(module: OperationRef, options: &PassOptions) -> PassResult {
    if options.bool("emu-tf32") {
        apply_with_folds(module, &[&TF32X3, &BF16XN])
    } else {
        apply_with_folds(module, &[&BF16XN])
    }
}

type Decomposition = for<'c, 'a> fn(&Dot<'c, 'a>, &Emitter<'_, 'c, 'a>) -> Option<Value<'c, 'a>>;

/// Runs `decompose` on a dot of two f32 operands; it returns the value that
/// replaces the dot, or `None` when the dot's precision is not its to handle.
fn rewrite(op: OperationRef, rewriter: &Rewriter, decompose: Decomposition) -> bool {
    let Some(dot) = Dot::of(op) else { return false };
    if !(is_f32_tensor(dot.a) && is_f32_tensor(dot.b) && dot.c.r#type().is_ranked_tensor()) {
        return false;
    }
    rewriter.set_insertion_point_before(&op);
    let emitter = Emitter { rewriter, context: op.location().context(), location: op.location(), values: PhantomData };
    let Some(result) = decompose(&dot, &emitter) else { return false };
    rewriter.replace_op_with_values(&op, &[result]);
    true
}

fn is_f32_tensor(value: Value) -> bool {
    tensor_parts(value.r#type()).is_some_and(|(_, element, _)| tritium_dialects::ir::is_f32(element))
}

struct Dot<'c, 'a> {
    a: Value<'c, 'a>,
    b: Value<'c, 'a>,
    c: Value<'c, 'a>,
    precision: i64,
    max_num_imprecise_acc: i64,
}

impl<'c, 'a> Dot<'c, 'a> {
    fn of(op: OperationRef<'c, 'a>) -> Option<Self> {
        let dot = DotOp::of(op)?;
        Some(Dot {
            a: dot.a(),
            b: dot.b(),
            c: dot.c(),
            precision: int_attribute(&op, "inputPrecision").unwrap_or(precision::IEEE),
            max_num_imprecise_acc: int_attribute(&op, "maxNumImpreciseAcc").unwrap_or(0),
        })
    }
}

/// tf32x3: three tf32 dots on the tf32 parts and remainders of a and b.
fn tf32x3<'c, 'a>(dot: &Dot<'c, 'a>, emit: &Emitter<'_, 'c, 'a>) -> Option<Value<'c, 'a>> {
    if dot.precision != precision::TF32X3 {
        return None;
    }
    let a_big = emit.round_to_tf32(dot.a);
    let a_small = emit.binary("arith.subf", dot.a, a_big);
    let b_big = emit.round_to_tf32(dot.b);
    let b_small = emit.binary("arith.subf", dot.b, b_big);
    let zero = emit.zeros_like(dot.c);
    let tf32_dot = |a, b, acc| emit.dot(a, b, acc, precision::TF32, dot.max_num_imprecise_acc);
    let small = tf32_dot(a_small, b_big, zero);
    let small = tf32_dot(a_big, b_small, small);
    let small = emit.zero_nans(small);
    let sum = tf32_dot(a_big, b_big, small);
    Some(emit.binary("arith.addf", sum, dot.c))
}

/// bf16x3 / bf16x6: bf16 dots on the bf16 parts of a and b.
fn bf16xn<'c, 'a>(dot: &Dot<'c, 'a>, emit: &Emitter<'_, 'c, 'a>) -> Option<Value<'c, 'a>> {
    // bf16x3 needs the hi and mid parts, bf16x6 also lo.
    let parts = match dot.precision {
        precision::BF16X3 => 2,
        precision::BF16X6 => 3,
        _ => return None,
    };
    let (hi, mid, lo) = (0, 1, 2);
    let a = emit.split_into_bf16(dot.a, parts);
    let b = emit.split_into_bf16(dot.b, parts);
    let bf16_dot = |x, y, acc| emit.dot(x, y, acc, precision::IEEE, 0);
    let mut result = emit.zeros_like(dot.c);
    if dot.precision == precision::BF16X6 {
        result = bf16_dot(a[mid], b[mid], result);
        result = bf16_dot(a[lo], b[hi], result);
        result = bf16_dot(a[hi], b[lo], result);
    }
    result = bf16_dot(a[mid], b[hi], result);
    result = bf16_dot(a[hi], b[mid], result);
    result = emit.zero_nans(result);
    result = bf16_dot(a[hi], b[hi], result);
    Some(emit.binary("arith.addf", result, dot.c))
}

/// Builds the decomposition's ops before the dot, through the rewriter.
struct Emitter<'r, 'c: 'a, 'a> {
    rewriter: &'r Rewriter,
    /// Kept alive for `to_ref`.
    context: ContextRef<'c>,
    location: Location<'c>,
    values: PhantomData<Value<'c, 'a>>,
}

impl<'c: 'a, 'a> Emitter<'_, 'c, 'a> {
    /// Inserts op `name` with one result of type `result`.
    fn emit(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Value<'c, 'a> {
        let op: OperationRef<'c, 'a> =
            self.rewriter.insert(create(name, self.location, operands, &[result], attributes));
        op.result_at(0).expect("built with one result").into()
    }

    fn with_element(&self, value: Value<'c, '_>, element: Type<'c>) -> Type<'c> {
        match tensor_parts(value.r#type()) {
            Some((shape, _, layout)) => tensor_type(&shape, element, layout),
            None => element,
        }
    }

    fn binary(&self, name: &str, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.emit(name, &[lhs, rhs], lhs.r#type(), &[])
    }

    /// `x` rounded to tf32 (kept in an f32).
    fn round_to_tf32(&self, x: Value<'c, 'a>) -> Value<'c, 'a> {
        let context = unsafe { self.context.to_ref() };
        let i32 = IntegerType::new(context, 32).into();
        self.emit(
            "tt.elementwise_inline_asm",
            &[x],
            x.r#type(),
            &[
                ("asm_string", StringAttribute::new(context, "cvt.rna.tf32.f32 $0, $1;").into()),
                ("constraints", StringAttribute::new(context, "=r,r").into()),
                ("pure", BoolAttribute::new(context, true).into()),
                ("packed_element", IntegerAttribute::new(i32, 1).into()),
            ],
        )
    }

    /// `x` as `parts` bf16 values whose sum approximates it: each is the
    /// bf16 rounding of what the previous ones leave.
    fn split_into_bf16(&self, x: Value<'c, 'a>, parts: usize) -> Vec<Value<'c, 'a>> {
        let context = unsafe { self.context.to_ref() };
        let bf16 = self.with_element(x, Type::bfloat16(context));
        let f32 = self.with_element(x, Type::float32(context));
        let mut rest = x;
        let mut split = Vec::with_capacity(parts);
        for i in 0..parts {
            let part = self.emit("arith.truncf", &[rest], bf16, &[]);
            if i != parts - 1 {
                let widened = self.emit("arith.extf", &[part], f32, &[]);
                rest = self.binary("arith.subf", rest, widened);
            }
            split.push(part);
        }
        split
    }

    /// A constant of zeros of `like`'s type (an f32 tensor): what upstream's
    /// splat of a 0.0 folds to.
    fn zeros_like(&self, like: Value<'c, 'a>) -> Value<'c, 'a> {
        let context = unsafe { self.context.to_ref() };
        let zero = FloatAttribute::new(context, Type::float32(context), 0.0).into();
        let zeros = DenseElementsAttribute::new(like.r#type(), &[zero]).expect("dot operands are tensors");
        self.emit("arith.constant", &[], like.r#type(), &[("value", zeros.into())])
    }

    /// `x` with its NaNs replaced by zeros.
    fn zero_nans(&self, x: Value<'c, 'a>) -> Value<'c, 'a> {
        let context = unsafe { self.context.to_ref() };
        let i64 = IntegerType::new(context, 64).into();
        let unordered = IntegerAttribute::new(i64, CmpfPredicate::Uno as i64).into();
        let is_nan_type = self.with_element(x, IntegerType::new(context, 1).into());
        let is_nan = self.emit("arith.cmpf", &[x, x], is_nan_type, &[("predicate", unordered)]);
        let zero = self.zeros_like(x);
        self.emit("arith.select", &[is_nan, zero, x], x.r#type(), &[])
    }

    fn dot(
        &self,
        a: Value<'c, 'a>,
        b: Value<'c, 'a>,
        acc: Value<'c, 'a>,
        precision: i64,
        max_num_imprecise_acc: i64,
    ) -> Value<'c, 'a> {
        let context = unsafe { self.context.to_ref() };
        let i32 = IntegerType::new(context, 32).into();
        self.emit(
            "tt.dot",
            &[a, b, acc],
            acc.r#type(),
            &[
                ("inputPrecision", IntegerAttribute::new(i32, precision).into()),
                ("maxNumImpreciseAcc", IntegerAttribute::new(i32, max_num_imprecise_acc).into()),
            ],
        )
    }
}
