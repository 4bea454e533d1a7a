//! Small IR builders for the partitions: ops at an insertion point, the
//! ring's slot and phase of an iteration, a loop like another one.
use crate::{
    ir::create,
    ssa::{insert_before, ValueMap},
};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Attribute, Block, BlockLike, BlockRef, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::access::OpAccess;

/// Small IR-building helpers over one insertion point.
pub(super) struct Build<'c> {
    pub context: &'c melior::Context,
    pub location: Location<'c>,
}

impl<'c> Build<'c> {
    pub fn i32_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 32).into()
    }
    pub fn i1_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 1).into()
    }
    pub fn int_attr(&self, ty: Type<'c>, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(ty, value).into()
    }
    pub fn ty(&self, text: &str) -> Type<'c> {
        Type::parse(self.context, text).unwrap_or_else(|| panic!("type {text}"))
    }
    /// Appends `name(operands) -> results` to `block` (or before `before`).
    pub fn op<'a>(
        &self,
        at: &At<'c, 'a>,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> OperationRef<'c, 'a> {
        let operation = create(name, self.location, operands, results, attributes);
        match at {
            At::End(block) => block.append_operation(operation),
            At::Before(op) => insert_before(op, operation),
        }
    }
    pub fn value<'a>(
        &self,
        at: &At<'c, 'a>,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        self.op(at, name, operands, &[result], &[]).result(0).unwrap().into()
    }
    pub fn constant<'a>(&self, at: &At<'c, 'a>, ty: Type<'c>, value: i64) -> Value<'c, 'a> {
        self.op(at, "arith.constant", &[], &[ty], &[("value", self.int_attr(ty, value))]).result(0).unwrap().into()
    }
    /// `ttg.memdesc_index %source[%index]` as `result`.
    pub fn index<'a>(
        &self,
        at: &At<'c, 'a>,
        source: Value<'c, '_>,
        index: Value<'c, '_>,
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        self.value(at, "ttg.memdesc_index", &[source, index], result)
    }
    pub fn wait(&self, at: &At<'c, '_>, barrier: Value<'c, '_>, phase: Value<'c, '_>) {
        let segments = DenseI32ArrayAttribute::new(self.context, &[1, 1, 0, 0]).into();
        self.op(at, "ttng.wait_barrier", &[barrier, phase], &[], &[("operandSegmentSizes", segments)]);
    }
}

#[derive(Clone, Copy)]
pub(super) enum At<'c, 'a> {
    End(BlockRef<'c, 'a>),
    Before(OperationRef<'c, 'a>),
}

/// Slot and phase of iteration counter `it` over `stages` buffers:
/// (it mod S, (it / S) mod 2).
pub(super) fn slot_and_phase<'c, 'a>(
    b: &Build<'c>,
    at: &At<'c, 'a>,
    it: Value<'c, '_>,
    stages: i64,
) -> (Value<'c, 'a>, Value<'c, 'a>) {
    let i32 = b.i32_type();
    let s = b.constant(at, i32, stages);
    let one = b.constant(at, i32, 1);
    let slot = b.value(at, "arith.remui", &[it, s], i32);
    let round = b.value(at, "arith.divui", &[it, s], i32);
    let phase = b.value(at, "arith.andi", &[round, one], i32);
    (slot, phase)
}

/// A new `scf.for` like `old` (same bounds, mapped) carrying `inits`, at `at`;
/// returns it and its body block (induction variable mapped to the old one's).
pub(super) fn new_loop<'c, 'a>(
    b: &Build<'c>,
    at: &At<'c, 'a>,
    old: &OperationRef<'c, '_>,
    map: &mut ValueMap,
    inits: &[Value<'c, '_>],
) -> (OperationRef<'c, 'a>, BlockRef<'c, 'a>) {
    let bounds: Vec<Value> = (0..3).map(|i| map.lookup(old.operand(i).unwrap())).collect();
    let induction = old.region_at(0).unwrap().first_block().unwrap().argument(0).unwrap();
    let mut block_types = vec![(induction.r#type(), b.location)];
    block_types.extend(inits.iter().map(|v| (v.r#type(), b.location)));
    let region = Region::new();
    region.append_block(Block::new(&block_types));
    let mut operands = bounds.clone();
    operands.extend_from_slice(inits);
    let result_types: Vec<Type> = inits.iter().map(|v| v.r#type()).collect();
    let operation = OperationBuilder::new("scf.for", b.location)
        .add_operands(&operands)
        .add_results(&result_types)
        .add_regions([region])
        .build()
        .expect("scf.for");
    let lp = match at {
        At::End(block) => block.append_operation(operation),
        At::Before(op) => insert_before(op, operation),
    };
    let body = lp.region_at(0).unwrap().first_block().unwrap();
    map.map(induction.into(), body.argument(0).unwrap().into());
    (lp, body)
}
