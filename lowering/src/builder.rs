//! A cursor-based IR builder over raw MLIR handles. The lowering creates many
//! small scalar ops; raw `ValueHandle`s (Copy, no borrow lifetimes) keep the
//! code that does so short.
use melior::{
    ir::{
        attribute::{IntegerAttribute, StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, BlockLike, BlockRef, Identifier, Location, Operation, OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::handles::{BlockHandle, OpHandle, ValueHandle};

/// A value of the lowered IR (a register of a thread).
pub type V = ValueHandle;

/// Where new operations go.
#[derive(Clone, Copy)]
pub enum Cursor {
    /// At the end of the block.
    End(BlockHandle),
    /// Right before the operation.
    Before(OpHandle),
}

pub struct Builder<'c> {
    pub context: &'c Context,
    pub location: Location<'c>,
    pub cursor: Cursor,
    constants: HashMap<(String, i64), V>,
    /// Where hoisted constants go (the function's entry block, before its
    /// first real op); `None` while that anchor does not exist yet.
    pub constant_anchor: Option<OpHandle>,
}

pub fn value<'c, 'a>(v: V) -> Value<'c, 'a> {
    unsafe { Value::from_raw(v) }
}

pub fn type_of<'c>(v: V) -> Type<'c> {
    value(v).r#type()
}

impl<'c> Builder<'c> {
    pub fn new(context: &'c Context, location: Location<'c>, cursor: Cursor) -> Self {
        Builder { context, location, cursor, constants: HashMap::new(), constant_anchor: None }
    }

    pub(crate) fn insert(&self, operation: Operation<'c>, cursor: Cursor) -> OperationRef<'c, 'c> {
        unsafe {
            match cursor {
                Cursor::End(block) => BlockRef::from_raw(block).append_operation(operation),
                Cursor::Before(op) => {
                    let op = OperationRef::from_raw(op);
                    op.block().expect("anchored op is in a block").insert_operation_before(op, operation)
                }
            }
        }
    }

    /// Creates an op at the cursor and returns it.
    pub fn op_ref(
        &self,
        name: &str,
        operands: &[V],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> OperationRef<'c, 'c> {
        let operands: Vec<Value> = operands.iter().map(|v| value(*v)).collect();
        let attributes: Vec<(Identifier, Attribute)> =
            attributes.iter().map(|(k, v)| (Identifier::new(self.context, k), *v)).collect();
        let operation = OperationBuilder::new(name, self.location)
            .add_operands(&operands)
            .add_results(results)
            .add_attributes(&attributes)
            .build()
            .unwrap_or_else(|e| panic!("building {name}: {e}"));
        self.insert(operation, self.cursor)
    }

    /// Creates an op at the cursor and returns its results.
    pub fn op(&self, name: &str, operands: &[V], results: &[Type<'c>], attributes: &[(&str, Attribute<'c>)]) -> Vec<V> {
        let op = self.op_ref(name, operands, results, attributes);
        (0..op.result_count()).map(|i| op.result_at(i).unwrap().to_raw()).collect()
    }

    /// A single-result op.
    pub fn op1(&self, name: &str, operands: &[V], result: Type<'c>, attributes: &[(&str, Attribute<'c>)]) -> V {
        self.op(name, operands, &[result], attributes)[0]
    }

    // Types.
    pub fn int_type(&self, bits: u32) -> Type<'c> {
        IntegerType::new(self.context, bits).into()
    }
    pub fn i1(&self) -> Type<'c> {
        self.int_type(1)
    }
    pub fn i32(&self) -> Type<'c> {
        self.int_type(32)
    }
    pub fn i64(&self) -> Type<'c> {
        self.int_type(64)
    }
    pub fn ptr(&self, address_space: u32) -> Type<'c> {
        melior::dialect::llvm::r#type::pointer(self.context, address_space)
    }

    // Attributes.
    pub fn int_attr(&self, ty: Type<'c>, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(ty, value).into()
    }
    pub fn str_attr(&self, text: &str) -> Attribute<'c> {
        StringAttribute::new(self.context, text).into()
    }
    pub fn type_attr(&self, ty: Type<'c>) -> Attribute<'c> {
        TypeAttribute::new(ty).into()
    }

    /// An integer constant, created once per function where it dominates
    /// every use (the entry block) when an anchor is set.
    pub fn int(&mut self, ty: Type<'c>, value: i64) -> V {
        let key = (ty.to_string(), value);
        if let Some(v) = self.constants.get(&key) {
            return *v;
        }
        let cursor = self.constant_anchor.map(Cursor::Before).unwrap_or(self.cursor);
        let attribute = self.int_attr(ty, value);
        let operation = OperationBuilder::new("arith.constant", self.location)
            .add_results(&[ty])
            .add_attributes(&[(Identifier::new(self.context, "value"), attribute)])
            .build()
            .expect("constant");
        let v = self.insert(operation, cursor).result_at(0).unwrap().to_raw();
        if self.constant_anchor.is_some() {
            self.constants.insert(key, v);
        }
        v
    }

    pub fn context_f32(&self) -> Type<'c> {
        Type::float32(self.context)
    }

    pub fn f32_const(&mut self, value: f32) -> V {
        let ty = self.context_f32();
        let attribute = melior::ir::attribute::FloatAttribute::new(self.context, ty, value as f64).into();
        let cursor = self.constant_anchor.map(Cursor::Before).unwrap_or(self.cursor);
        let operation = OperationBuilder::new("arith.constant", self.location)
            .add_results(&[ty])
            .add_attributes(&[(Identifier::new(self.context, "value"), attribute)])
            .build()
            .expect("constant");
        self.insert(operation, cursor).result_at(0).unwrap().to_raw()
    }

    /// Swaps the cache of hoisted constants (a region isolated from the
    /// function's entry block needs its own).
    pub fn swap_constants(&mut self, constants: HashMap<(String, i64), V>) -> HashMap<(String, i64), V> {
        std::mem::replace(&mut self.constants, constants)
    }

    pub fn i32_const(&mut self, value: i64) -> V {
        let ty = self.i32();
        self.int(ty, value)
    }

    // Integer arithmetic on i32 (or any integer type).
    pub fn binary(&self, name: &str, a: V, b: V) -> V {
        self.op1(name, &[a, b], type_of(a), &[])
    }
    pub fn add(&self, a: V, b: V) -> V {
        self.binary("arith.addi", a, b)
    }
    pub fn mul(&self, a: V, b: V) -> V {
        self.binary("arith.muli", a, b)
    }
    pub fn xor(&self, a: V, b: V) -> V {
        self.binary("arith.xori", a, b)
    }
    pub fn and(&self, a: V, b: V) -> V {
        self.binary("arith.andi", a, b)
    }
    pub fn or(&self, a: V, b: V) -> V {
        self.binary("arith.ori", a, b)
    }
    pub fn shl(&self, a: V, b: V) -> V {
        self.binary("arith.shli", a, b)
    }
    pub fn lshr(&self, a: V, b: V) -> V {
        self.binary("arith.shrui", a, b)
    }

    /// `arith.cmpi` with a predicate number (0 eq, 1 ne, 2 slt, ... as arith).
    pub fn icmp(&self, predicate: i64, a: V, b: V) -> V {
        let p = self.int_attr(self.i64(), predicate);
        self.op1("arith.cmpi", &[a, b], self.i1(), &[("predicate", p)])
    }

    pub fn select(&self, condition: V, a: V, b: V) -> V {
        self.op1("arith.select", &[condition, a, b], type_of(a), &[])
    }

    /// Reads a PTX special register, e.g. `tid.x`, `ctaid.y`.
    pub fn special_register(&self, name: &str) -> V {
        self.op1(&format!("nvvm.read.ptx.sreg.{name}"), &[], self.i32(), &[])
    }

    /// `llvm.getelementptr inbounds? base[index]` over elements of `element`.
    pub fn gep(&self, base: V, index: V, element: Type<'c>) -> V {
        let indices = melior::ir::attribute::DenseI32ArrayAttribute::new(self.context, &[i32::MIN]);
        let element = self.gep_element(element);
        self.op1(
            "llvm.getelementptr",
            &[base, index],
            type_of(base),
            &[("rawConstantIndices", indices.into()), ("elem_type", self.type_attr(element))],
        )
    }

    /// The element type a GEP steps over, as LLVM can represent it: only its
    /// size matters to the address, and LLVM has no 8-bit (or narrower) float
    /// types, so `f8E4M3FN` & co. step as bytes. (An fp8 element type reached
    /// LLVM translation through `tt.addptr` on fp8 pointers and crashed it
    /// inside `IRBuilder::CreateGEP`.)
    fn gep_element(&self, element: Type<'c>) -> Type<'c> {
        // The MLIR names of the 8-, 6- and 4-bit float types (f8E4M3FN,
        // f6E2M3FN, f4E2M1FN, ...); `f64` must not match.
        let text = element.to_string();
        if ["f8E", "f6E", "f4E"].iter().any(|prefix| text.starts_with(prefix)) {
            self.int_type(8)
        } else {
            element
        }
    }

    /// Inline PTX with side effects, in the shape upstream's PTXBuilder
    /// gives it (an explicit AT&T dialect, which is LLVM's default, and no
    /// operand attributes), so that the LLVM dialect reads the same.
    pub fn inline_asm(&self, asm: &str, constraints: &str, operands: &[V], result: Option<Type<'c>>) -> Option<V> {
        let unit: Attribute = Attribute::unit(self.context);
        let attributes = [
            ("asm_string", self.str_attr(asm)),
            ("constraints", self.str_attr(constraints)),
            ("has_side_effects", unit),
            ("asm_dialect", self.att_asm_dialect()),
            ("operand_attrs", melior::ir::attribute::ArrayAttribute::new(self.context, &[]).into()),
        ];
        // Without a result the op still has one, of type `!llvm.void`, as
        // upstream's PTXBuilder makes it (the translation emits a void call).
        let result_type = result.unwrap_or_else(|| melior::dialect::llvm::r#type::void(self.context));
        let values = self.op("llvm.inline_asm", operands, &[result_type], &attributes);
        result.and(values.first().copied())
    }

    /// `asm_dialect = att` (the i64 enum value 0): the dialect PTX inline
    /// asm is written in.
    pub fn att_asm_dialect(&self) -> Attribute<'c> {
        self.int_attr(self.i64(), 0)
    }

    /// `bar.warp.sync -1`: the lanes of this warp, and their shared-memory
    /// accesses.
    pub fn warp_barrier(&mut self) {
        let all_lanes = self.i32_const(-1);
        self.op("nvvm.bar.warp.sync", &[all_lanes], &[], &[]);
    }

    /// `bar.sync 0`: all threads of the CTA, and their shared-memory accesses.
    pub fn barrier(&self) {
        self.op("nvvm.barrier0", &[], &[], &[]);
    }
}
