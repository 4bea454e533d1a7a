//! `triton-rewrite-tensor-pointer` (upstream RewriteTensorPointer.cpp):
//! replaces block pointers (`!tt.ptr<tensor<...>>` made by
//! `tt.make_tensor_ptr`) by what they stand for: a base pointer, the shape
//! and strides, and i64 offsets that `tt.advance` moves. Loads and stores
//! through a block pointer become accesses through a tensor of pointers
//! `base + sum_i (offset_i + range_i) * stride_i`, masked by their boundary
//! check (`0 <= offset_i + range_i < shape_i`) and padded as asked.
//!
//! Block pointers may flow through `scf.for` (as iter_args: one i64 per
//! dimension instead) and out of `scf.if` (as results, likewise); other
//! control flow with block pointers is not supported, as upstream.
use crate::{
    ir::{create, fail, name_of, replace_all_uses, tensor_parts, tensor_type},
    ssa::{
        argument_number, argument_owner, block_arguments, block_ops, defining_op, entry_block, insert_before,
        move_to_end, result_number, set_operands, value_key, Key,
    },
};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
    r#type::IntegerType,
    Attribute, Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type, TypeLike, Value,
    ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::{integer_attribute, OpAccess};
use tritium_dialects::views::{AdvanceOp, IfOp, LoadOp, StoreOp};
use tritium_dialects::{
    pass::{PassDefinition, PassFailed, PassOptions, PassResult},
    types::pointer_parts,
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-rewrite-tensor-pointer",
    description: "Rewrite block pointers (tt.make_tensor_ptr) into tensors of pointers",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let mut rewrite = Rewrite { pointers: HashMap::new(), dead: Vec::new() };
    rewrite.visit(module)?;
    // The replaced ops are erased last, users first: until now later ops
    // could still read the values they defined.
    for op in rewrite.dead.into_iter().rev() {
        if op.results().any(|r| crate::ssa::has_uses(r.into())) {
            return Err(fail(&op, "a block pointer is used by an op this pass cannot rewrite"));
        }
        crate::ir::erase(op);
    }
    Ok(())
}

/// Whether `ty` is a block pointer, `!tt.ptr<tensor<...>>`.
fn is_block_pointer(ty: Type) -> bool {
    pointer_parts(ty).is_some_and(|(pointee, _)| pointee.is_ranked_tensor())
}

/// What a block pointer value stands for (also the block a tensor
/// descriptor access reads, in triton-rewrite-tensor-descriptor-to-pointer).
#[derive(Clone)]
pub(crate) struct BlockPointer<'c, 'a> {
    pub(crate) base: Value<'c, 'a>,
    /// i64 for descriptors; the type they were made with for block pointers.
    pub(crate) shape: Vec<Value<'c, 'a>>,
    pub(crate) strides: Vec<Value<'c, 'a>>,
    /// i64 offsets, one per dimension.
    pub(crate) offsets: Vec<Value<'c, 'a>>,
    /// The shape of the block.
    pub(crate) block: Vec<i64>,
}

struct Rewrite<'c, 'a> {
    pointers: HashMap<Key, BlockPointer<'c, 'a>>,
    /// Replaced ops, in the order they were replaced.
    dead: Vec<OperationRef<'c, 'a>>,
}

/// Builds ops right before one op.
pub(crate) struct Builder<'c, 'a> {
    before: OperationRef<'c, 'a>,
    location: Location<'c>,
}

impl<'c, 'a> Builder<'c, 'a> {
    pub(crate) fn at(op: &OperationRef<'c, 'a>) -> Self {
        Self { before: *op, location: op.location() }
    }

    pub(crate) fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Value<'c, 'a> {
        let op = insert_before(&self.before, create(name, self.location, operands, &[result], attributes));
        op.result_at(0).unwrap().into()
    }

    pub(crate) fn integer(&self, width: u32) -> Type<'c> {
        tritium_dialects::ir::integer_type(self.location, width)
    }

    pub(crate) fn float_attribute(&self, ty: Type<'c>, value: f64) -> Attribute<'c> {
        tritium_dialects::ir::float_attribute(self.location, ty, value)
    }

    pub(crate) fn i32_array(&self, values: &[i32]) -> Attribute<'c> {
        tritium_dialects::ir::dense_i32_array(self.location, values)
    }

    pub(crate) fn constant(&self, value: Attribute<'c>, ty: Type<'c>) -> Value<'c, 'a> {
        self.op("arith.constant", &[], ty, &[("value", value)])
    }

    pub(crate) fn extsi_i64(&self, value: Value<'c, 'a>) -> Value<'c, 'a> {
        self.op("arith.extsi", &[value], self.integer(64), &[])
    }

    pub(crate) fn splat(&self, value: Value<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
        self.op("tt.splat", &[value], ty, &[])
    }

    fn cmpi(&self, predicate: i64, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        let i1 = self.integer(1);
        let ty = tensor_parts(lhs.r#type()).map_or(i1, |(shape, _, encoding)| tensor_type(&shape, i1, encoding));
        let predicate = IntegerAttribute::new(self.integer(64), predicate).into();
        self.op("arith.cmpi", &[lhs, rhs], ty, &[("predicate", predicate)])
    }

    pub(crate) fn binary(&self, name: &str, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.op(name, &[lhs, rhs], lhs.r#type(), &[])
    }
}

/// `arith.cmpi` predicates.
const SLT: i64 = 2;
const SGE: i64 = 5;

/// The pieces of a load or store generated for one block pointer, sharing
/// the per-dimension offsets of the block's elements (upstream's cache).
pub(crate) struct Access<'p, 'c, 'a> {
    pub(crate) pointer: &'p BlockPointer<'c, 'a>,
    pub(crate) builder: Builder<'c, 'a>,
    /// Per dimension: the i64 offsets of the block's elements, expanded to
    /// the block's rank (see `element_offsets`); a caller may set them.
    pub(crate) element_offsets: HashMap<usize, Value<'c, 'a>>,
}

impl<'p, 'c, 'a> Access<'p, 'c, 'a> {
    /// `offset_i + [0, 1, ..., block_i)`, as i64, expanded to a tensor of the
    /// block's rank with size 1 in every other dimension.
    fn element_offsets(&mut self, i: usize) -> Value<'c, 'a> {
        if let Some(value) = self.element_offsets.get(&i) {
            return *value;
        }
        let b = &self.builder;
        let size = self.pointer.block[i];
        let i64_row = tensor_type(&[size], b.integer(64), None);
        let splat = b.splat(self.pointer.offsets[i], i64_row);
        let start = IntegerAttribute::new(b.integer(32), 0).into();
        let end = IntegerAttribute::new(b.integer(32), size).into();
        let range =
            b.op("tt.make_range", &[], tensor_type(&[size], b.integer(32), None), &[("start", start), ("end", end)]);
        let range = b.op("arith.extsi", &[range], i64_row, &[]);
        let mut offsets = b.binary("arith.addi", splat, range);
        let mut shape = vec![size];
        for axis in (0..self.pointer.block.len()).filter(|j| *j != i) {
            shape.insert(axis, 1);
            let axis_attribute = IntegerAttribute::new(b.integer(32), axis as i64).into();
            let ty = tensor_type(&shape, b.integer(64), None);
            offsets = b.op("tt.expand_dims", &[offsets], ty, &[("axis", axis_attribute)]);
        }
        self.element_offsets.insert(i, offsets);
        offsets
    }

    /// The tensor of pointers to the block's elements.
    pub(crate) fn pointers(&mut self) -> Value<'c, 'a> {
        let block = self.pointer.block.clone();
        let b = &self.builder;
        let pointer_tensor = tensor_type(&block, self.pointer.base.r#type(), None);
        let index_tensor = tensor_type(&block, b.integer(64), None);
        let mut pointers = b.splat(self.pointer.base, pointer_tensor);
        for i in 0..block.len() {
            let offsets = self.element_offsets(i);
            let b = &self.builder;
            // The stride is splat to the expanded shape, not a row, so that
            // its divisibility stays visible.
            let stride = b.splat(self.pointer.strides[i], offsets.r#type());
            let scaled = b.binary("arith.muli", offsets, stride);
            let broadcast = b.op("tt.broadcast", &[scaled], index_tensor, &[]);
            pointers = b.op("tt.addptr", &[pointers, broadcast], pointer_tensor, &[]);
        }
        pointers
    }

    /// The conjunction of `0 <= element offset < shape` over the checked
    /// dimensions; `None` when none is checked.
    pub(crate) fn mask(&mut self, checked: &[i32]) -> Option<Value<'c, 'a>> {
        let mut mask: Option<Value> = None;
        for &i in checked {
            let offsets = self.element_offsets(i as usize);
            let b = &self.builder;
            let i64_type = b.integer(64);
            let zero = b.constant(IntegerAttribute::new(i64_type, 0).into(), i64_type);
            let lower = b.splat(zero, offsets.r#type());
            let above = b.cmpi(SGE, offsets, lower);
            let upper = b.splat(self.pointer.shape[i as usize], offsets.r#type());
            let below = b.cmpi(SLT, offsets, upper);
            let inside = b.binary("arith.andi", above, below);
            let mask_type = tensor_type(&self.pointer.block, b.integer(1), None);
            let broadcast = b.op("tt.broadcast", &[inside], mask_type, &[]);
            mask = Some(match mask {
                None => broadcast,
                Some(mask) => b.binary("arith.andi", mask, broadcast),
            });
        }
        mask
    }

    /// The value of elements out of bounds: zeros or NaNs.
    fn padding(&self, padding: i64, load: &OperationRef) -> Result<Value<'c, 'a>, PassFailed> {
        let b = &self.builder;
        let element = pointer_parts(self.pointer.base.r#type()).expect("a pointer").0;
        let value: Attribute = if element.is_integer() || element.is_index() {
            if padding == PAD_NAN {
                return Err(fail(load, "NaN padding needs a floating-point element type"));
            }
            IntegerAttribute::new(element, 0).into()
        } else {
            let value = if padding == PAD_NAN { f64::NAN } else { 0.0 };
            b.float_attribute(element, value)
        };
        let constant = b.constant(value, element);
        Ok(b.splat(constant, tensor_type(&self.pointer.block, element, None)))
    }
}

/// The block pointer `op`, a `tt.make_tensor_ptr`, makes, with its offsets
/// as they are (i32).
fn made_by<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<BlockPointer<'c, 'a>> {
    let operands: Vec<Value> = op.operands().collect();
    let rank = (operands.len().checked_sub(1)?) / 3;
    let result = op.result_at(0).ok()?;
    let (block, _, _) = pointer_parts(result.r#type()).and_then(|(pointee, _)| tensor_parts(pointee))?;
    Some(BlockPointer {
        base: operands[0],
        shape: operands[1..1 + rank].to_vec(),
        strides: operands[1 + rank..1 + 2 * rank].to_vec(),
        offsets: operands[1 + 2 * rank..].to_vec(),
        block,
    })
}

/// `padding` values of `tt.load`.
const PAD_NAN: i64 = 2;

/// The i32 elements of a dense array attribute of `op`.
fn i32_array(op: &OperationRef, name: &str) -> Vec<i32> {
    op.attribute(name)
        .ok()
        .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
        .map(|a| (0..a.len()).filter_map(|i| a.element(i).ok()).collect())
        .unwrap_or_default()
}

impl<'c, 'a> Rewrite<'c, 'a> {
    fn visit(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        visit_rewriting(op, &mut |nested| self.rewrite(nested))
    }

    /// Rewrites `op` if it deals with block pointers; returns the op whose
    /// regions to visit next (`op` itself, what replaced it, or none).
    fn rewrite(&mut self, op: OperationRef<'c, 'a>) -> Result<Option<OperationRef<'c, 'a>>, PassFailed> {
        let name = name_of(&op);
        match name.as_str() {
            "tt.make_tensor_ptr" => self.make_tensor_ptr(op).map(|_| None),
            "tt.advance" => self.advance(op).map(|_| None),
            "tt.load" | "tt.store" => self.access(op).map(|_| None),
            "scf.if" => self.rewrite_if(op).map(Some),
            _ if name.starts_with("scf.") || name.starts_with("cf.") => {
                if !op.operands().any(|v| is_block_pointer(v.r#type())) {
                    return Ok(Some(op));
                }
                match name.as_str() {
                    "scf.for" => self.rewrite_for(op).map(Some),
                    "scf.yield" => self.rewrite_yield(op).map(|_| None),
                    _ => Err(fail(
                        &op,
                        format!("block pointers through '{name}' are not supported (only scf.for and scf.if)"),
                    )),
                }
            }
            _ => Ok(Some(op)),
        }
    }

    fn pointer(&self, value: Value<'c, 'a>, user: &OperationRef) -> Result<BlockPointer<'c, 'a>, PassFailed> {
        self.pointers
            .get(&value_key(value))
            .cloned()
            .ok_or_else(|| fail(user, "block pointer not made by tt.make_tensor_ptr in this function"))
    }

    fn make_tensor_ptr(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let Some(mut pointer) = made_by(&op) else {
            return Err(fail(&op, "a block pointer must point to a tensor"));
        };
        let builder = Builder::at(&op);
        pointer.offsets = pointer.offsets.iter().map(|o| builder.extsi_i64(*o)).collect();
        self.pointers.insert(value_key(op.result_at(0).unwrap().into()), pointer);
        self.dead.push(op);
        Ok(())
    }

    fn advance(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let advance = AdvanceOp::of(op).ok_or_else(|| fail(&op, "is no tt.advance"))?;
        let mut pointer = self.pointer(advance.ptr(), &op)?;
        let steps = advance.offsets();
        if steps.len() != pointer.offsets.len() {
            return Err(fail(&op, "tt.advance needs one offset per dimension of the block"));
        }
        let builder = Builder::at(&op);
        for (offset, step) in pointer.offsets.iter_mut().zip(steps) {
            let step = builder.extsi_i64(step);
            *offset = builder.binary("arith.addi", *offset, step);
        }
        self.pointers.insert(value_key(op.result_at(0).unwrap().into()), pointer);
        self.dead.push(op);
        Ok(())
    }

    fn access(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let (address, stored, masked) = match LoadOp::of(op) {
            Some(load) => (load.ptr(), None, load.mask().is_some() || load.other().is_some()),
            None => {
                let store = StoreOp::of(op).ok_or_else(|| fail(&op, "is no tt.load or tt.store"))?;
                (store.ptr(), Some(store.value()), store.mask().is_some())
            }
        };
        if !is_block_pointer(address.r#type()) {
            return Ok(());
        }
        let pointer = self.pointer(address, &op)?;
        let is_load = stored.is_none();
        if masked {
            return Err(fail(&op, "an access through a block pointer takes no mask or other value"));
        }
        let mut access = Access { pointer: &pointer, builder: Builder::at(&op), element_offsets: HashMap::new() };
        let pointers = access.pointers();
        let mask = access.mask(&i32_array(&op, "boundaryCheck"));
        let padding = op.attribute("padding").ok().and_then(|a| integer_attribute(a).ok()).map(|a| a.value());
        let other = match (is_load, padding) {
            (true, Some(padding)) => Some(access.padding(padding, &op)?),
            _ => None,
        };
        let kept: Vec<(&str, Attribute)> =
            ["cache", "evict", "isVolatile"].into_iter().filter_map(|k| op.attribute(k).ok().map(|a| (k, a))).collect();
        if is_load {
            let mut attributes = kept;
            let sizes = [1, mask.is_some() as i32, other.is_some() as i32];
            attributes.push(("operandSegmentSizes", access.builder.i32_array(&sizes)));
            let operands: Vec<Value> = [Some(pointers), mask, other].into_iter().flatten().collect();
            let result = op.result_at(0).unwrap();
            let load = insert_before(&op, create("tt.load", op.location(), &operands, &[result.r#type()], &attributes));
            replace_all_uses(result.into(), load.result_at(0).unwrap().into());
        } else {
            let attributes: Vec<_> = kept.into_iter().filter(|(k, _)| *k != "isVolatile").collect();
            let operands: Vec<Value> = [Some(pointers), stored, mask].into_iter().flatten().collect();
            insert_before(&op, create("tt.store", op.location(), &operands, &[], &attributes));
        }
        self.dead.push(op);
        Ok(())
    }

    /// The values standing for `values`: a block pointer's offsets, anything
    /// else itself.
    fn expanded(&self, values: &[Value<'c, 'a>], user: &OperationRef) -> Result<Vec<Value<'c, 'a>>, PassFailed> {
        let mut expanded = Vec::new();
        for value in values {
            if is_block_pointer(value.r#type()) {
                expanded.extend(self.pointer(*value, user)?.offsets);
            } else {
                expanded.push(*value);
            }
        }
        Ok(expanded)
    }

    fn rewrite_yield(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let operands: Vec<Value> = op.operands().collect();
        let expanded = self.expanded(&operands, &op)?;
        set_operands(&op, &expanded);
        Ok(())
    }

    /// A new loop whose iter_args carry the offsets of the block pointers;
    /// the body moves into it.
    fn rewrite_for(&mut self, op: OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, PassFailed> {
        let operands: Vec<Value> = op.operands().collect();
        let inits = &operands[3..];
        let new_inits = self.expanded(inits, &op)?;
        let NewLoop { new_for, old_arguments, new_arguments } = loop_with_inits(&op, &new_inits)?;
        // Iter_args and results: a block pointer's offsets become i64 ones;
        // other values map one to one.
        let mut next = 0;
        for (index, init) in inits.iter().enumerate() {
            let old_argument = old_arguments[index + 1];
            let old_result: Value = op.result_at(index).unwrap().into();
            if is_block_pointer(init.r#type()) {
                let mut pointer = self.pointer(*init, &op)?;
                let rank = pointer.offsets.len();
                pointer.offsets = new_arguments[1 + next..1 + next + rank].to_vec();
                self.pointers.insert(value_key(old_argument), pointer.clone());
                pointer.offsets = (next..next + rank).map(|i| new_for.result_at(i).unwrap().into()).collect();
                self.pointers.insert(value_key(old_result), pointer);
                next += rank;
            } else {
                replace_all_uses(old_argument, new_arguments[1 + next]);
                replace_all_uses(old_result, new_for.result_at(next).unwrap().into());
                next += 1;
            }
        }
        self.dead.push(op);
        Ok(new_for)
    }

    /// A new `scf.if` whose results carry the offsets of the block pointers
    /// it yields; the branches move into it. Ifs without block-pointer
    /// results stay.
    fn rewrite_if(&mut self, op: OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, PassFailed> {
        let then_block = entry_block(&op, 0).ok_or_else(|| fail(&op, "scf.if without a then region"))?;
        let yielded: Vec<Value> = then_block.terminator().map(|t| t.operands().collect()).unwrap_or_default();
        if !yielded.iter().any(|v| is_block_pointer(v.r#type())) {
            return Ok(op);
        }
        // `to_ref` borrows the ContextRef: keep it alive in a local.
        let context_ref = op.context();
        let context = unsafe { context_ref.to_ref() };
        let i64_type: Type = IntegerType::new(context, 64).into();
        // The block pointers' base, shape and strides come from where they
        // were made; their branches are not rewritten yet.
        let mut origins: Vec<Option<BlockPointer>> = Vec::new();
        let mut result_types: Vec<Type> = Vec::new();
        for value in &yielded {
            if is_block_pointer(value.r#type()) {
                let origin = self.origin(*value, &op)?;
                result_types.extend(std::iter::repeat_n(i64_type, origin.offsets.len()));
                origins.push(Some(origin));
            } else {
                result_types.push(value.r#type());
                origins.push(None);
            }
        }
        let else_block = entry_block(&op, 1);
        let location = op.location();
        let then_region = Region::new();
        then_region.append_block(Block::new(&[]));
        let else_region = Region::new();
        if else_block.is_some() {
            else_region.append_block(Block::new(&[]));
        }
        let new_if = melior::ir::operation::OperationBuilder::new("scf.if", location)
            .add_operands(&[IfOp::of(op).ok_or_else(|| fail(&op, "is no scf.if"))?.condition()])
            .add_results(&result_types)
            .add_regions([then_region, else_region])
            .build()
            .map_err(|_| fail(&op, "cannot build the new scf.if"))?;
        let new_if = insert_before(&op, new_if);
        for (index, old) in [Some(then_block), else_block].into_iter().enumerate() {
            let (Some(old), Some(new)) = (old, entry_block(&new_if, index)) else { continue };
            for nested in block_ops(&old) {
                move_to_end(&nested, &new);
            }
        }
        let mut next = 0;
        for (index, origin) in origins.into_iter().enumerate() {
            let old_result: Value = op.result_at(index).unwrap().into();
            match origin {
                Some(mut pointer) => {
                    let rank = pointer.offsets.len();
                    pointer.offsets = (next..next + rank).map(|i| new_if.result_at(i).unwrap().into()).collect();
                    self.pointers.insert(value_key(old_result), pointer);
                    next += rank;
                }
                None => {
                    replace_all_uses(old_result, new_if.result_at(next).unwrap().into());
                    next += 1;
                }
            }
        }
        self.dead.push(op);
        Ok(new_if)
    }

    /// The block pointer made by the `tt.make_tensor_ptr` that `value` comes
    /// from (through advances, loops and ifs), as it was made (upstream's
    /// `getMakeTensorPtrOp`).
    fn origin(&self, value: Value<'c, 'a>, user: &OperationRef) -> Result<BlockPointer<'c, 'a>, PassFailed> {
        let unsupported = || fail(user, "cannot find the tt.make_tensor_ptr of a block pointer");
        if let Some(op) = defining_op(value) {
            return match name_of(&op).as_str() {
                "tt.make_tensor_ptr" => made_by(&op).ok_or_else(unsupported),
                "tt.advance" => self.origin(AdvanceOp::of(op).ok_or_else(unsupported)?.ptr(), user),
                "scf.for" | "scf.if" | "scf.while" => {
                    let index = result_number(value).unwrap();
                    let yielded = entry_block(&op, if name_of(&op) == "scf.while" { 1 } else { 0 })
                        .and_then(|b| b.terminator())
                        .and_then(|t| t.operand_at(index).ok())
                        .ok_or_else(unsupported)?;
                    self.origin(yielded, user)
                }
                _ => Err(unsupported()),
            };
        }
        let owner = argument_owner(value).and_then(|b| b.parent_operation()).ok_or_else(unsupported)?;
        if name_of(&owner) != "scf.for" {
            return Err(unsupported());
        }
        // Iter_arg k (block argument k + 1) starts as init k (operand k + 3).
        let init = owner.operand_at(argument_number(value).unwrap() + 2).map_err(|_| unsupported())?;
        self.origin(init, user)
    }
}

/// What [`loop_with_inits`] made: the new loop, and the block arguments of
/// the old body and of the new one (induction variable first).
pub(crate) struct NewLoop<'c, 'a> {
    pub new_for: OperationRef<'c, 'a>,
    pub old_arguments: Vec<Value<'c, 'a>>,
    pub new_arguments: Vec<Value<'c, 'a>>,
}

/// A copy of the `scf.for` `op` (same bounds and attributes) whose
/// iter_args are `inits`, inserted before it; the old body's ops move into
/// it and its induction variable's uses go to the new one. The other old
/// block arguments and results are left for the caller to map.
pub(crate) fn loop_with_inits<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    inits: &[Value<'c, 'a>],
) -> Result<NewLoop<'c, 'a>, PassFailed> {
    let bounds: Vec<Value> = op.operands().take(3).collect();
    let body = entry_block(op, 0).ok_or_else(|| fail(op, "scf.for without a body"))?;
    let old_arguments = block_arguments(&body);
    let location = op.location();
    let mut argument_types = vec![(bounds[0].r#type(), location)];
    argument_types.extend(inits.iter().map(|v| (v.r#type(), location)));
    let region = Region::new();
    region.append_block(Block::new(&argument_types));
    let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
    let result_types: Vec<Type> = inits.iter().map(|v| v.r#type()).collect();
    let mut all_operands = bounds;
    all_operands.extend(inits);
    let new_for = melior::ir::operation::OperationBuilder::new("scf.for", location)
        .add_operands(&all_operands)
        .add_results(&result_types)
        .add_attributes(&attributes)
        .add_regions([region])
        .build()
        .map_err(|_| fail(op, "cannot build the new scf.for"))?;
    let new_for = insert_before(op, new_for);
    let new_body = entry_block(&new_for, 0).unwrap();
    let new_arguments = block_arguments(&new_body);
    replace_all_uses(old_arguments[0], new_arguments[0]);
    for nested in block_ops(&body) {
        move_to_end(&nested, &new_body);
    }
    Ok(NewLoop { new_for, old_arguments, new_arguments })
}

/// Rewrites the ops nested in `op`, in order, with `rewrite`, and visits the
/// regions of the op it returns for each (itself, what replaced it, or none)
/// the same way.
pub(crate) fn visit_rewriting<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewrite: &mut dyn FnMut(OperationRef<'c, 'a>) -> Result<Option<OperationRef<'c, 'a>>, PassFailed>,
) -> PassResult {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            for nested in block_ops(&b) {
                if let Some(next) = rewrite(nested)? {
                    visit_rewriting(next, rewrite)?;
                }
            }
            block = b.next_in_region();
        }
    }
    Ok(())
}
