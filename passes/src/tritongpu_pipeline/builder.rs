//! Building ops at an insertion point, as MLIR's `OpBuilder` does: every op
//! goes right before a fixed op (or at the end of a block), so ops created
//! one after the other stay in creation order. The pipeliner reproduces
//! upstream's IR op for op, and the order ops are created in is part of
//! that (the greedy clean-up hoists constants in the order it meets them).
//!
//! A builder may also carry a pipeline stage and cluster: the ops it creates
//! are then logged, for the caller to add to its schedule (upstream's
//! `OpBuilderForStage`).
use super::schedule::Cluster;
use crate::ir::create;
use crate::ssa::{op_key, Key};
use melior::ir::{
    attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, Attribute, BlockRef, Location,
    Operation, OperationRef, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;

/// Where new ops go (the IR layer's insertion point).
pub type Point<'c, 'a> = tritium_dialects::ir::InsertionPoint<'c, 'a>;

pub struct Builder<'c, 'a> {
    point: Point<'c, 'a>,
    pub location: Location<'c>,
    /// The stage and cluster of the ops created, if they are scheduled.
    stage_cluster: Option<(i64, Cluster)>,
    /// Ops created with a stage and cluster, for the schedule.
    scheduled: Vec<(Key, i64, Cluster)>,
}

/// `arith.cmpi` predicates (MLIR's `arith::CmpIPredicate`).
#[derive(Clone, Copy)]
pub enum CmpI {
    Eq = 0,
    Slt = 2,
    Sge = 5,
}

impl<'c, 'a> Builder<'c, 'a> {
    /// New ops go right before `op`.
    pub fn before(op: OperationRef<'c, 'a>) -> Self {
        Self { point: Point::Before(op), location: op.location(), stage_cluster: None, scheduled: Vec::new() }
    }

    /// New ops go right after `op` (before the op following it).
    pub fn after(op: OperationRef<'c, 'a>) -> Self {
        let mut builder = Self::before(op);
        builder.set_after(op);
        builder
    }

    /// New ops go at the end of `block`.
    pub fn at_end(block: BlockRef<'c, 'a>, location: Location<'c>) -> Self {
        Self { point: Point::End(block), location, stage_cluster: None, scheduled: Vec::new() }
    }

    pub fn set_before(&mut self, op: OperationRef<'c, 'a>) {
        self.point = Point::Before(op);
    }

    pub fn set_after(&mut self, op: OperationRef<'c, 'a>) {
        self.point = Point::after(op);
    }

    /// The start of `block` (its end when it is empty).
    pub fn set_at_start(&mut self, block: BlockRef<'c, 'a>) {
        self.point = Point::start(block);
    }

    /// The insertion point, to restore later (`saveInsertionPoint`).
    pub fn point(&self) -> Point<'c, 'a> {
        self.point
    }

    pub fn set_point(&mut self, point: Point<'c, 'a>) {
        self.point = point;
    }

    /// Ops created from now on are scheduled at `stage` in `cluster`.
    pub fn set_stage_cluster(&mut self, stage_cluster: Option<(i64, Cluster)>) {
        self.stage_cluster = stage_cluster;
    }

    /// The ops created with a stage and cluster since the last call.
    pub fn take_scheduled(&mut self) -> Vec<(Key, i64, Cluster)> {
        std::mem::take(&mut self.scheduled)
    }

    /// Inserts `op` at the insertion point.
    pub fn insert(&mut self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        let inserted = self.point.insert(op);
        if let Some((stage, cluster)) = self.stage_cluster {
            self.scheduled.push((op_key(&inserted), stage, cluster));
        }
        inserted
    }

    /// Creates and inserts an op by name.
    pub fn create(
        &mut self,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> OperationRef<'c, 'a> {
        self.insert(create(name, self.location, operands, results, attributes))
    }

    /// The one result of a new op.
    pub fn value(
        &mut self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Value<'c, 'a> {
        self.create(name, operands, &[result], attributes).result_at(0).expect("one result").into()
    }

    pub fn integer_type(&self, bits: u32) -> Type<'c> {
        // `to_ref` borrows the ContextRef: keep it alive in a local.
        let context_ref = self.location.context();
        IntegerType::new(unsafe { context_ref.to_ref() }, bits).into()
    }

    /// `arith.constant value : ty` (an integer type).
    pub fn constant(&mut self, value: i64, ty: Type<'c>) -> Value<'c, 'a> {
        let attribute = IntegerAttribute::new(ty, value).into();
        self.value("arith.constant", &[], ty, &[("value", attribute)])
    }

    /// An `i32` constant.
    pub fn constant_i32(&mut self, value: i64) -> Value<'c, 'a> {
        let ty = self.integer_type(32);
        self.constant(value, ty)
    }

    /// A binary arith op whose result has the type of `lhs`.
    pub fn binary(&mut self, name: &str, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(name, &[lhs, rhs], lhs.r#type(), &[])
    }

    pub fn cmpi(&mut self, predicate: CmpI, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        let i64_type = self.integer_type(64);
        let predicate = IntegerAttribute::new(i64_type, predicate as i64).into();
        let i1 = i1_like(lhs.r#type(), self.integer_type(1));
        self.value("arith.cmpi", &[lhs, rhs], i1, &[("predicate", predicate)])
    }

    pub fn select(&mut self, condition: Value<'c, 'a>, yes: Value<'c, 'a>, no: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value("arith.select", &[condition, yes, no], yes.r#type(), &[])
    }

    /// Upstream `createIncrementModulo`: `counter + 1`, wrapped to zero at
    /// `modulus`; also returns the wrap condition.
    pub fn increment_modulo(
        &mut self,
        counter: Value<'c, 'a>,
        modulus: Value<'c, 'a>,
        zero: Value<'c, 'a>,
        one: Value<'c, 'a>,
    ) -> (Value<'c, 'a>, Value<'c, 'a>) {
        let plus_one = self.binary("arith.addi", counter, one);
        let wraps = self.cmpi(CmpI::Sge, plus_one, modulus);
        (self.select(wraps, zero, plus_one), wraps)
    }
}

/// `i1`, or a tensor of `i1` shaped as `ty` when it is a tensor.
fn i1_like<'c>(ty: Type<'c>, i1: Type<'c>) -> Type<'c> {
    match crate::ir::tensor_parts(ty) {
        Some((shape, _, layout)) => crate::ir::tensor_type(&shape, i1, layout),
        None => i1,
    }
}
