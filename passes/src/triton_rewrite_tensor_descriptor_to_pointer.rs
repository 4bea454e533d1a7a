//! `triton-rewrite-tensor-descriptor-to-pointer` (upstream
//! RewriteTensorDescriptorToPointer.cpp): for targets without TMA, replaces
//! every tensor descriptor (`!tt.tensordesc<tensor<...>>`) by the values it
//! stands for, `1 + 2 * rank + 1` of them: the base pointer, the shape and
//! the strides as i64, and whether out-of-bounds elements read as NaN (i1).
//! Accesses through a descriptor become accesses through a tensor of
//! pointers `base + sum_i (index_i + range_i) * stride_i`, masked by
//! `0 <= index_i + range_i < shape_i` (the pointer and mask arithmetic of
//! `triton-rewrite-tensor-pointer`):
//!
//! - `tt.descriptor_load` / `descriptor_gather` -> `tt.load` with zeros (or
//!   NaNs) out of bounds; `descriptor_store` / `descriptor_scatter` ->
//!   `tt.store`; `descriptor_reduce` -> `tt.atomic_rmw` (release, gpu).
//! - Descriptors cross function boundaries (arguments, results, `tt.call`,
//!   `tt.return`: one descriptor argument becomes its values, with no
//!   argument attributes), loops (`scf.for` iter_args and results), `scf.if`
//!   results and `scf.yield`s. Other ops on descriptors are refused with a
//!   diagnostic.
use crate::{
    ir::{create, fail, name_of, replace_all_uses, tensor_parts, tensor_type},
    ssa::{block_arguments, block_ops, entry_block, insert_before, move_to_end, set_operands, value_key, Key},
    triton_rewrite_tensor_pointer::{loop_with_inits, visit_rewriting, Access, BlockPointer, Builder, NewLoop},
};
use melior::ir::{
    attribute::{ArrayAttribute, IntegerAttribute, TypeAttribute},
    operation::{OperationBuilder, OperationLike},
    r#type::FunctionType,
    Attribute, Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type, TypeLike,
    Value, ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::integer_type;
use tritium_dialects::pass::{PassDefinition, PassFailed, PassOptions, PassResult};
use tritium_dialects::types::{pointer, tensor_descriptor_block};
use tritium_dialects::views::{
    DescriptorGatherOp, DescriptorLoadOp, DescriptorScatterOp, DescriptorStoreOp, IfOp, MakeTensorDescOp,
};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-rewrite-tensor-descriptor-to-pointer",
    description: "Rewrite tensor descriptors into tensors of pointers (for targets without TMA)",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let mut rewrite = Rewrite { parts: HashMap::new(), dead: Vec::new(), old_arguments: Vec::new() };
    for function in tritium_dialects::ir::collect_ops(module, crate::ir::Order::Pre) {
        if name_of(&function) == "tt.func" {
            rewrite.signature(function)?;
        }
    }
    rewrite.visit(module)?;
    // Users first: until now later ops could still read what these defined.
    for op in rewrite.dead.into_iter().rev() {
        if op.results().any(|r| crate::ssa::has_uses(r.into())) {
            return Err(fail(&op, "a tensor descriptor is used by an op this pass cannot rewrite"));
        }
        crate::ir::erase(op);
    }
    for (body, count) in rewrite.old_arguments {
        for _ in 0..count {
            tritium_dialects::ir::erase_block_argument(&body, 0);
        }
    }
    Ok(())
}

/// The block tensor type of a descriptor type; None for other types.
fn block_type(ty: Type) -> Option<Type> {
    tensor_descriptor_block(ty)
}

/// The types a value of type `ty` becomes: a descriptor's pointer, shape,
/// strides and padding flag; any other type itself.
fn expanded_types<'c>(ty: Type<'c>, location: Location<'c>) -> Vec<Type<'c>> {
    let Some((shape, element, _)) = block_type(ty).and_then(tensor_parts) else { return vec![ty] };
    let mut types = vec![pointer(element, 1)];
    types.extend(std::iter::repeat_n(integer_type(location, 64), 2 * shape.len()));
    types.push(integer_type(location, 1));
    types
}

/// The values of one descriptor.
struct Descriptor<'c, 'a> {
    base: Value<'c, 'a>,
    shape: Vec<Value<'c, 'a>>,
    strides: Vec<Value<'c, 'a>>,
    pad_nan: Value<'c, 'a>,
    block: Vec<i64>,
    element: Type<'c>,
}

struct Rewrite<'c, 'a> {
    /// Each descriptor value's replacement values, in `expanded_types` order.
    parts: HashMap<Key, Vec<Value<'c, 'a>>>,
    /// Replaced ops, in the order they were replaced.
    dead: Vec<OperationRef<'c, 'a>>,
    /// Function bodies whose first arguments are the old ones (their
    /// descriptors are used until the users are rewritten).
    old_arguments: Vec<(BlockRef<'c, 'a>, usize)>,
}

impl<'c, 'a> Rewrite<'c, 'a> {
    /// The values standing for `values`: a descriptor's parts, anything else itself.
    fn expanded(&self, values: &[Value<'c, 'a>], user: &OperationRef) -> Result<Vec<Value<'c, 'a>>, PassFailed> {
        let mut expanded = Vec::new();
        for value in values {
            if block_type(value.r#type()).is_some() {
                let parts = self
                    .parts
                    .get(&value_key(*value))
                    .ok_or_else(|| fail(user, "uses a tensor descriptor whose origin this pass could not rewrite"))?;
                expanded.extend(parts.iter().copied());
            } else {
                expanded.push(*value);
            }
        }
        Ok(expanded)
    }

    fn descriptor(&self, value: Value<'c, 'a>, user: &OperationRef) -> Result<Descriptor<'c, 'a>, PassFailed> {
        let parts = self.expanded(&[value], user)?;
        let (block, element, _) =
            block_type(value.r#type()).and_then(tensor_parts).ok_or_else(|| fail(user, "needs a tensor descriptor"))?;
        let rank = block.len();
        Ok(Descriptor {
            base: parts[0],
            shape: parts[1..1 + rank].to_vec(),
            strides: parts[1 + rank..1 + 2 * rank].to_vec(),
            pad_nan: parts[1 + 2 * rank],
            block,
            element,
        })
    }

    /// Maps the results of `old` (with types `old_types`) to the results of
    /// `new`, whose types are their expansion.
    fn map_results(&mut self, old: &OperationRef<'c, 'a>, new: &OperationRef<'c, 'a>) {
        let mut next = 0;
        for index in 0..old.result_count() {
            let result: Value = old.result_at(index).unwrap().into();
            let count = expanded_types(result.r#type(), old.location()).len();
            let values: Vec<Value> = (next..next + count).map(|i| new.result_at(i).unwrap().into()).collect();
            self.map_value(result, values);
            next += count;
        }
    }

    /// `old` now stands for `values`: its parts if it is a descriptor, else
    /// the one value that replaces it.
    fn map_value(&mut self, old: Value<'c, 'a>, values: Vec<Value<'c, 'a>>) {
        if block_type(old.r#type()).is_some() {
            self.parts.insert(value_key(old), values);
        } else {
            replace_all_uses(old, values[0]);
        }
    }

    /// Expands the descriptor arguments and results of `function`.
    fn signature(&mut self, function: OperationRef<'c, 'a>) -> PassResult {
        let Some(function_type) = function
            .attribute("function_type")
            .ok()
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .and_then(|a| FunctionType::try_from(a.value()).ok())
        else {
            return Err(fail(&function, "has no function type"));
        };
        let inputs: Vec<Type> = (0..function_type.input_count()).map(|i| function_type.input(i).unwrap()).collect();
        let results: Vec<Type> = (0..function_type.result_count()).map(|i| function_type.result(i).unwrap()).collect();
        if !inputs.iter().chain(&results).any(|t| block_type(*t).is_some()) {
            return Ok(());
        }
        let context = tritium_dialects::ir::context_of(function.location());
        let new_inputs: Vec<Type> = inputs.iter().flat_map(|t| expanded_types(*t, function.location())).collect();
        let new_results: Vec<Type> = results.iter().flat_map(|t| expanded_types(*t, function.location())).collect();
        let new_type = FunctionType::new(context, &new_inputs, &new_results);
        tritium_dialects::ir::set_attribute(&function, "function_type", TypeAttribute::new(new_type.into()).into());
        for (name, types) in [("arg_attrs", &inputs), ("res_attrs", &results)] {
            if let Some(attributes) = expanded_attributes(&function, name, types) {
                tritium_dialects::ir::set_attribute(&function, name, attributes);
            }
        }
        // The body's arguments: new ones appended in the new order, the old
        // ones' uses moved to them, the old ones erased.
        let Some(body) = entry_block(&function, 0) else { return Ok(()) };
        let old_arguments = block_arguments(&body);
        for argument in &old_arguments {
            let location = tritium_dialects::ir::location_of(*argument);
            let values: Vec<Value> = expanded_types(argument.r#type(), location)
                .into_iter()
                .map(|t| body.add_argument(t, location))
                .collect();
            self.map_value(*argument, values);
        }
        self.old_arguments.push((body, old_arguments.len()));
        Ok(())
    }

    fn visit(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        visit_rewriting(op, &mut |nested| self.rewrite(nested))
    }

    /// Rewrites `op` if it deals with descriptors; returns the op whose
    /// regions to visit next (`op` itself, what replaced it, or none).
    fn rewrite(&mut self, op: OperationRef<'c, 'a>) -> Result<Option<OperationRef<'c, 'a>>, PassFailed> {
        let name = name_of(&op);
        let touches_descriptors =
            op.operands().chain(op.results().map(Into::into)).any(|v| block_type(v.r#type()).is_some());
        match name.as_str() {
            "tt.make_tensor_descriptor" => self.make(op).map(|_| None),
            "tt.descriptor_load" | "tt.descriptor_store" | "tt.descriptor_reduce" => self.access(op).map(|_| None),
            "tt.descriptor_gather" | "tt.descriptor_scatter" => self.gather_scatter(op).map(|_| None),
            "scf.if" => self.rewrite_if(op).map(Some),
            _ if !touches_descriptors => Ok(Some(op)),
            "scf.for" => self.rewrite_for(op).map(Some),
            "scf.yield" | "tt.return" => {
                let operands: Vec<Value> = op.operands().collect();
                let expanded = self.expanded(&operands, &op)?;
                set_operands(&op, &expanded);
                Ok(None)
            }
            "tt.call" => self.call(op).map(|_| None),
            _ => Err(fail(&op, format!("tensor descriptors through '{name}' cannot be rewritten into pointers"))),
        }
    }

    fn make(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let b = Builder::at(&op);
        let rank = (op.operand_count() - 1) / 2;
        let make = MakeTensorDescOp::of(op).ok_or_else(|| fail(&op, "is no tt.make_tensor_descriptor"))?;
        let mut parts = vec![make.base()];
        for i in 0..rank {
            parts.push(b.extsi_i64(op.operand_at(1 + i).unwrap()));
        }
        parts.extend((0..rank).map(|i| op.operand_at(1 + rank + i).unwrap()));
        // Upstream's PaddingOption: PAD_NAN is 2 (the default pads zeros).
        let pad_nan = tritium_dialects::ir::int_attribute(&op, "padding") == Some(2);
        let i1 = b.integer(1);
        parts.push(b.constant(IntegerAttribute::new(i1, pad_nan as i64).into(), i1));
        self.parts.insert(value_key(op.result_at(0).unwrap().into()), parts);
        self.dead.push(op);
        Ok(())
    }

    /// Loads, stores and reductions of a block at `indices`.
    fn access(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let name = name_of(&op);
        let (desc, source, indices) = match DescriptorStoreOp::of(op) {
            Some(store) => (store.desc(), Some(store.src()), store.indices()),
            None => {
                let load = DescriptorLoadOp::of(op).ok_or_else(|| fail(&op, "is no descriptor load or store"))?;
                (load.desc(), None, load.indices())
            }
        };
        let descriptor = self.descriptor(desc, &op)?;
        let b = Builder::at(&op);
        let offsets: Vec<Value> = indices.into_iter().map(|index| b.extsi_i64(index)).collect();
        if offsets.len() != descriptor.block.len() {
            return Err(fail(&op, "needs one index per dimension of the descriptor's block"));
        }
        let block_pointer = BlockPointer {
            base: descriptor.base,
            shape: descriptor.shape.clone(),
            strides: descriptor.strides.clone(),
            offsets,
            block: descriptor.block.clone(),
        };
        let mut access = Access { pointer: &block_pointer, builder: Builder::at(&op), element_offsets: HashMap::new() };
        let pointers = access.pointers();
        let all: Vec<i32> = (0..descriptor.block.len() as i32).collect();
        let mask = access.mask(&all).expect("a block of rank 1 or more");
        match name.as_str() {
            "tt.descriptor_load" => self.load(&op, &descriptor, pointers, mask),
            "tt.descriptor_store" => self.store(&op, pointers, source.unwrap(), mask),
            _ => self.reduce(&op, &descriptor, pointers, source.unwrap(), mask),
        }
    }

    /// Gathers and scatters: rows at `x_offsets` (a tensor), columns from
    /// `y_offset` on.
    fn gather_scatter(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let (desc, rows, y_offset, source) = match DescriptorScatterOp::of(op) {
            Some(scatter) => (scatter.desc(), scatter.x_offsets(), scatter.y_offset(), Some(scatter.src())),
            None => {
                let gather =
                    DescriptorGatherOp::of(op).ok_or_else(|| fail(&op, "is no descriptor gather or scatter"))?;
                (gather.desc(), gather.x_offsets(), gather.y_offset(), None)
            }
        };
        let descriptor = self.descriptor(desc, &op)?;
        let is_gather = source.is_none();
        let block_tensor = if is_gather { op.result_at(0).unwrap().r#type() } else { source.unwrap().r#type() };
        let (block, _, _) = tensor_parts(block_tensor).ok_or_else(|| fail(&op, "needs a ranked tensor"))?;
        if block.len() != 2 || descriptor.block.len() != 2 {
            return Err(fail(&op, "gathers and scatters rows of a 2-d descriptor"));
        }
        let b = Builder::at(&op);
        let (row_shape, _, row_layout) = tensor_parts(rows.r#type()).ok_or_else(|| fail(&op, "needs row offsets"))?;
        // The row offsets as a column: [rows] -> [rows, 1], i64.
        let mut column_shape = row_shape.clone();
        column_shape.push(1);
        let axis = IntegerAttribute::new(b.integer(32), 1).into();
        let column =
            b.op("tt.expand_dims", &[rows], tensor_type(&column_shape, b.integer(32), row_layout), &[("axis", axis)]);
        let column = b.op("arith.extsi", &[column], tensor_type(&column_shape, b.integer(64), row_layout), &[]);
        let y = b.extsi_i64(y_offset);
        let zero = b.constant(IntegerAttribute::new(b.integer(64), 0).into(), b.integer(64));
        let block_pointer = BlockPointer {
            base: descriptor.base,
            shape: descriptor.shape.clone(),
            strides: descriptor.strides.clone(),
            offsets: vec![zero, y],
            block: block.clone(),
        };
        let mut access = Access { pointer: &block_pointer, builder: Builder::at(&op), element_offsets: HashMap::new() };
        access.element_offsets.insert(0, column);
        let pointers = access.pointers();
        let mask = access.mask(&[0, 1]).expect("two dimensions");
        let gathered = Descriptor { block, ..descriptor };
        if is_gather {
            self.load(&op, &gathered, pointers, mask)
        } else {
            self.store(&op, pointers, source.unwrap(), mask)
        }
    }

    /// The value of out-of-bounds elements: zeros, or NaNs when the
    /// descriptor says so (floating-point elements only).
    fn other(&self, op: &OperationRef<'c, 'a>, descriptor: &Descriptor<'c, 'a>) -> Value<'c, 'a> {
        let b = Builder::at(op);
        let element = descriptor.element;
        let block_type = tensor_type(&descriptor.block, element, None);
        let splat_of = |value: Attribute<'c>| b.splat(b.constant(value, element), block_type);
        if element.is_integer() || element.is_index() {
            return splat_of(IntegerAttribute::new(element, 0).into());
        }
        let zeros = splat_of(b.float_attribute(element, 0.0));
        let nans = splat_of(b.float_attribute(element, f64::NAN));
        b.op("arith.select", &[descriptor.pad_nan, nans, zeros], block_type, &[])
    }

    fn load(
        &mut self,
        op: &OperationRef<'c, 'a>,
        descriptor: &Descriptor<'c, 'a>,
        pointers: Value<'c, 'a>,
        mask: Value<'c, 'a>,
    ) -> PassResult {
        let other = self.other(op, descriptor);
        let mut attributes = copied_attributes(op);
        attributes.push(("operandSegmentSizes".into(), Builder::at(op).i32_array(&[1, 1, 1])));
        let result = op.result_at(0).unwrap();
        let load = insert_before(
            op,
            create_named("tt.load", op.location(), &[pointers, mask, other], &[result.r#type()], &attributes),
        );
        replace_all_uses(result.into(), load.result_at(0).unwrap().into());
        self.dead.push(*op);
        Ok(())
    }

    fn store(
        &mut self,
        op: &OperationRef<'c, 'a>,
        pointers: Value<'c, 'a>,
        source: Value<'c, 'a>,
        mask: Value<'c, 'a>,
    ) -> PassResult {
        let attributes = copied_attributes(op);
        insert_before(op, create_named("tt.store", op.location(), &[pointers, source, mask], &[], &attributes));
        self.dead.push(*op);
        Ok(())
    }

    fn reduce(
        &mut self,
        op: &OperationRef<'c, 'a>,
        descriptor: &Descriptor<'c, 'a>,
        pointers: Value<'c, 'a>,
        source: Value<'c, 'a>,
        mask: Value<'c, 'a>,
    ) -> PassResult {
        let kind = tritium_dialects::ir::int_attribute(op, "kind").unwrap_or(0);
        let element = descriptor.element;
        let is_float = !(element.is_integer() || element.is_index());
        let unsigned = tritium_dialects::ir::integer_signedness(element).is_some_and(|(_, _, unsigned)| unsigned);
        // DescriptorReduceKind -> RMWOp (enum values of both). Signless
        // integers compare as signed, as Triton reads them everywhere else.
        let rmw = match (kind, is_float, unsigned) {
            (1, false, _) => 4,     // add
            (1, true, _) => 5,      // fadd
            (2, false, false) => 7, // min
            (2, false, true) => 9,  // umin
            (3, false, false) => 6, // max
            (3, false, true) => 8,  // umax
            (6, false, _) => 1,     // and
            (7, false, _) => 2,     // or
            (8, false, _) => 3,     // xor
            _ => {
                return Err(fail(op, format!("cannot fall back to an atomic for this reduction of {element} elements")))
            }
        };
        let b = Builder::at(op);
        let i32 = b.integer(32);
        let attributes = [
            ("atomic_rmw_op", IntegerAttribute::new(i32, rmw).into()),
            ("sem", IntegerAttribute::new(i32, 3).into()),   // release
            ("scope", IntegerAttribute::new(i32, 1).into()), // gpu
        ];
        let block_type = tensor_type(&descriptor.block, element, None);
        insert_before(
            op,
            create("tt.atomic_rmw", op.location(), &[pointers, source, mask], &[block_type], &attributes),
        );
        self.dead.push(*op);
        Ok(())
    }

    fn call(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let operands: Vec<Value> = op.operands().collect();
        let expanded = self.expanded(&operands, &op)?;
        let result_types: Vec<Type> = op.results().flat_map(|r| expanded_types(r.r#type(), op.location())).collect();
        let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
        let call = OperationBuilder::new("tt.call", op.location())
            .add_operands(&expanded)
            .add_results(&result_types)
            .add_attributes(&attributes)
            .build()
            .map_err(|_| fail(&op, "cannot build the new call"))?;
        let call = insert_before(&op, call);
        self.map_results(&op, &call);
        self.dead.push(op);
        Ok(())
    }

    /// A new loop whose iter_args carry the descriptors' values; the body
    /// moves into it.
    fn rewrite_for(&mut self, op: OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, PassFailed> {
        let operands: Vec<Value> = op.operands().collect();
        let new_inits = self.expanded(&operands[3..], &op)?;
        let NewLoop { new_for, old_arguments, new_arguments } = loop_with_inits(&op, &new_inits)?;
        let location = op.location();
        let mut next = 1;
        for argument in &old_arguments[1..] {
            let count = expanded_types(argument.r#type(), location).len();
            self.map_value(*argument, new_arguments[next..next + count].to_vec());
            next += count;
        }
        self.map_results(&op, &new_for);
        self.dead.push(op);
        Ok(new_for)
    }

    /// A new `scf.if` whose results carry the descriptors' values; the
    /// branches move into it (their yields are rewritten when visited).
    fn rewrite_if(&mut self, op: OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, PassFailed> {
        let old_types: Vec<Type> = op.results().map(|r| r.r#type()).collect();
        if !old_types.iter().any(|t| block_type(*t).is_some()) {
            return Ok(op);
        }
        let result_types: Vec<Type> = old_types.iter().flat_map(|t| expanded_types(*t, op.location())).collect();
        let regions = [Region::new(), Region::new()];
        for (index, region) in regions.iter().enumerate() {
            if entry_block(&op, index).is_some() {
                region.append_block(Block::new(&[]));
            }
        }
        let new_if = OperationBuilder::new("scf.if", op.location())
            .add_operands(&[IfOp::of(op).ok_or_else(|| fail(&op, "is no scf.if"))?.condition()])
            .add_results(&result_types)
            .add_regions(regions)
            .build()
            .map_err(|_| fail(&op, "cannot build the new scf.if"))?;
        let new_if = insert_before(&op, new_if);
        for index in 0..2 {
            let (Some(old), Some(new)) = (entry_block(&op, index), entry_block(&new_if, index)) else { continue };
            for nested in block_ops(&old) {
                move_to_end(&nested, &new);
            }
        }
        self.map_results(&op, &new_if);
        self.dead.push(op);
        Ok(new_if)
    }
}

/// `op`'s attributes, but its operand segment sizes (which belong to its
/// own operands), for the op that replaces it.
fn copied_attributes<'c>(op: &OperationRef<'c, '_>) -> Vec<(String, Attribute<'c>)> {
    op.attributes()
        .filter(|(name, _)| name.as_string_ref().as_str() != Ok("operandSegmentSizes"))
        .map(|(name, value)| (name.as_string_ref().as_str().unwrap_or_default().to_string(), value))
        .collect()
}

fn create_named<'c>(
    name: &str,
    location: Location<'c>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(String, Attribute<'c>)],
) -> melior::ir::Operation<'c> {
    let attributes: Vec<(&str, Attribute)> = attributes.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    create(name, location, operands, results, &attributes)
}

/// The `arg_attrs`/`res_attrs` of `function` for its expanded signature:
/// a descriptor's values get no attributes. None when it has none.
fn expanded_attributes<'c>(function: &OperationRef<'c, '_>, name: &str, types: &[Type<'c>]) -> Option<Attribute<'c>> {
    let attributes = function.attribute(name).ok()?;
    let old = tritium_dialects::ir::array_elements(attributes)?;
    let context = tritium_dialects::ir::context_of(function.location());
    let empty = Attribute::parse(context, "{}")?;
    let mut new = Vec::new();
    for (ty, attribute) in types.iter().zip(old) {
        if block_type(*ty).is_some() {
            new.extend(std::iter::repeat_n(empty, expanded_types(*ty, function.location()).len()));
        } else {
            new.push(attribute);
        }
    }
    Some(ArrayAttribute::new(context, &new).into())
}
