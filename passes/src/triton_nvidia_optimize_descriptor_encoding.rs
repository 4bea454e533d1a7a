//! `triton-nvidia-optimize-descriptor-encoding`: gives every tensor
//! descriptor's block type the shared encoding its TMA copies will use
//! (upstream `OptimizeDescriptorEncoding.cpp`).
//!
//! Descriptors tied together by control flow (an `scf.for` init, iter arg,
//! yield and result; an `scf.if` result and its yields) get one encoding.
//! For each such group, every use contributes:
//! - a load (`tt.descriptor_load`/`gather`): the encoding of the first
//!   `ttg.local_alloc`/`ttg.local_store` fed by it when that is a
//!   non-transposed `nvmma_shared` (the buffer the data goes to anyway), and
//!   the shape loaded;
//! - a store (`descriptor_store`/`reduce`/`scatter`): the shape stored;
//! - a call, return or `ttng.reinterpret_tensor_descriptor`, or a parameter
//!   of a function that is not a kernel: the default encoding, whatever else.
//!
//! Two different wanted encodings also fall back to the default. The default
//! is the `nvmma_shared` layout of the (smallest used) shape in row-major
//! order: the widest swizzle the contiguous dim fills.
//! The kernel's signature is updated with its parameters' new types.
use crate::{
    dot_operand_layouts::nvmma_shared_for,
    ir::{collect_ops, fail, name_of, tensor_parts, tensor_type, Order},
    ssa::{argument_number, argument_owner, defining_op, result_number, users, value_key, Key},
};
use melior::ir::{
    attribute::TypeAttribute, operation::OperationLike, r#type::FunctionType, Attribute, BlockLike, BlockRef,
    OperationRef, RegionLike, Type, Value, ValueLike,
};
use std::collections::HashMap;
use tritium_dialects::views::{DescriptorOp, DescriptorScatterOp, DescriptorStoreOp, LocalStoreOp};
use tritium_dialects::{
    access::{block_argument_at, OpAccess},
    layout::{attribute_of, layout_of},
    pass::{PassDefinition, PassOptions, PassResult},
    types,
};
use tritium_layout::{CtaLayout, Layout};

pub static PASS: PassDefinition = PassDefinition {
    argument: "triton-nvidia-optimize-descriptor-encoding",
    description: "Set the shared encoding of tensor descriptors from their uses (TMA)",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn is_descriptor(value: Value) -> bool {
    types::tensor_descriptor_block(value.r#type()).is_some()
}

/// What the uses of one group of descriptors ask for.
#[derive(Default, Clone)]
struct Wanted<'c> {
    encoding: Option<Attribute<'c>>,
    shape: Option<Vec<i64>>,
    forced_default: bool,
}

impl<'c> Wanted<'c> {
    fn combine(&mut self, other: Wanted<'c>) {
        self.forced_default |= other.forced_default;
        self.shape = match (self.shape.take(), other.shape) {
            (Some(a), Some(b)) => Some(a.iter().zip(&b).map(|(x, y)| *x.min(y)).collect()),
            (a, b) => a.or(b),
        };
        match (self.encoding, other.encoding) {
            (Some(a), Some(b)) if a != b => self.forced_default = true,
            (None, b) => self.encoding = b,
            _ => {}
        }
    }
}

/// Union-find over value keys.
struct Groups {
    parent: HashMap<Key, Key>,
}

impl Groups {
    fn find(&mut self, key: Key) -> Key {
        let parent = *self.parent.entry(key).or_insert(key);
        if parent == key {
            return key;
        }
        let root = self.find(parent);
        self.parent.insert(key, root);
        root
    }
    fn union(&mut self, a: Key, b: Key) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent.insert(a, b);
        }
    }
}

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    for function in collect_ops(module, Order::Pre).into_iter().filter(|op| name_of(op) == "tt.func") {
        assign(function)?;
    }
    Ok(())
}

/// Every descriptor value of the function: block arguments and results.
fn descriptor_values<'c, 'a>(function: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let mut values = Vec::new();
    let add_block = |block: melior::ir::BlockRef<'c, 'a>, values: &mut Vec<Value<'c, 'a>>| {
        for i in 0..block.argument_count() {
            let argument: Value = block_argument_at(block, i).unwrap().into();
            if is_descriptor(argument) {
                values.push(argument);
            }
        }
    };
    if let Some(entry) = function.region_at(0).ok().and_then(|r| r.first_block()) {
        add_block(entry, &mut values);
    }
    for op in collect_ops(function, Order::Pre) {
        for r in 0..op.region_count() {
            let mut block = op.region_at(r).ok().and_then(|region| region.first_block());
            while let Some(b) = block {
                if op_key_of(&op) != op_key_of(&function) {
                    add_block(b, &mut values);
                }
                block = b.next_in_region();
            }
        }
        for i in 0..op.result_count() {
            let result: Value = op.result_at(i).unwrap().into();
            if is_descriptor(result) {
                values.push(result);
            }
        }
    }
    values
}

fn op_key_of(op: &OperationRef) -> Key {
    crate::ssa::op_key(op)
}

/// Ties a descriptor value to those control flow makes it equal to.
fn tie<'c, 'a>(value: Value<'c, 'a>, groups: &mut Groups) -> Result<(), String> {
    let key = value_key(value);
    // As a result of scf.for / scf.if: the yields, and the for's init.
    if let Some(op) = defining_op(value) {
        let index = result_number(value).unwrap();
        match name_of(&op).as_str() {
            "scf.for" => {
                groups.union(key, value_key(op.operand_at(3 + index).unwrap()));
                let body = op.region_at(0).unwrap().first_block().unwrap();
                groups.union(key, value_key(block_argument_at(body, 1 + index).unwrap().into()));
                let terminator = body.terminator().unwrap();
                groups.union(key, value_key(terminator.operand_at(index).unwrap()));
            }
            "scf.if" => {
                for r in 0..op.region_count() {
                    if let Some(terminator) =
                        op.region_at(r).ok().and_then(|region| region.first_block()).and_then(|b| b.terminator())
                    {
                        groups.union(key, value_key(terminator.operand_at(index).unwrap()));
                    }
                }
            }
            // Result i is what `scf.condition` passes on as i, which the
            // after region receives as its argument i.
            "scf.while" => {
                let (before, after) = while_blocks(&op)?;
                let condition = before.terminator().ok_or("scf.while without scf.condition")?;
                groups.union(key, value_key(condition.operand_at(1 + index).map_err(|e| e.to_string())?));
                groups.union(key, value_key(block_argument_at(after, index).map_err(|e| e.to_string())?.into()));
            }
            _ => {}
        }
    }
    if let Some(block) = argument_owner(value) {
        let owner = block.parent_operation();
        if let Some(owner) = owner {
            match name_of(&owner).as_str() {
                "scf.for" => {
                    let index = argument_number(value).unwrap() - 1;
                    groups.union(key, value_key(owner.result_at(index).unwrap().into()));
                }
                "scf.while" => {
                    let index = argument_number(value).unwrap();
                    let (before, after) = while_blocks(&owner)?;
                    if block == before {
                        // The before region's argument i: the init, then what
                        // the after region yields as i.
                        groups.union(key, value_key(owner.operand_at(index).map_err(|e| e.to_string())?));
                        let yield_op = after.terminator().ok_or("scf.while without scf.yield")?;
                        groups.union(key, value_key(yield_op.operand_at(index).map_err(|e| e.to_string())?));
                    } else {
                        // The after region's argument i is the while's result i.
                        groups.union(key, value_key(owner.result_at(index).map_err(|e| e.to_string())?.into()));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The entry blocks of an scf.while's before and after regions.
fn while_blocks<'c, 'a>(op: &OperationRef<'c, 'a>) -> Result<(BlockRef<'c, 'a>, BlockRef<'c, 'a>), String> {
    let entry = |r: usize| op.region_at(r).ok().and_then(|region| region.first_block());
    entry(0).zip(entry(1)).ok_or_else(|| "scf.while without its two regions".to_string())
}

/// What one use asks for.
fn wanted_by_use<'c>(user: &OperationRef<'c, '_>, descriptor: Value<'c, '_>) -> Wanted<'c> {
    let rank =
        types::tensor_descriptor_block(descriptor.r#type()).and_then(types::static_shape).map(|s| s.len()).unwrap_or(0);
    let expand = |shape: Vec<i64>| -> Vec<i64> {
        let mut full = vec![1; rank.saturating_sub(shape.len())];
        full.extend(shape);
        full
    };
    let is_descriptor_operand = DescriptorOp::of(*user).is_some_and(|op| value_key(op.desc()) == value_key(descriptor));
    match name_of(user).as_str() {
        "tt.descriptor_load" | "tt.descriptor_gather" if is_descriptor_operand => {
            let result: Value = user.result_at(0).unwrap().into();
            let shape = tensor_parts(result.r#type()).map(|(s, _, _)| expand(s));
            Wanted { encoding: encoding_from_users(result), shape, forced_default: false }
        }
        "tt.descriptor_store" | "tt.descriptor_reduce" | "tt.descriptor_scatter" if is_descriptor_operand => {
            let source = match DescriptorScatterOp::of(*user) {
                Some(scatter) => scatter.src(),
                None => DescriptorStoreOp::of(*user).expect("a descriptor store or reduce").src(),
            };
            Wanted {
                encoding: None,
                shape: tensor_parts(source.r#type()).map(|(s, _, _)| expand(s)),
                forced_default: false,
            }
        }
        "tt.call" | "tt.return" | "ttng.reinterpret_tensor_descriptor" => {
            Wanted { forced_default: true, ..Wanted::default() }
        }
        _ => Wanted::default(),
    }
}

/// The shared encoding of the first buffer a loaded value goes to, when a
/// TMA copy can write that layout (non-transposed nvmma_shared).
fn encoding_from_users<'c>(loaded: Value<'c, '_>) -> Option<Attribute<'c>> {
    for user in users(loaded) {
        let memdesc = match name_of(&user).as_str() {
            "ttg.local_alloc" => user.result_at(0).ok().map(|r| r.r#type()),
            "ttg.local_store" => LocalStoreOp::of(user).map(|store| store.dst().r#type()),
            _ => None,
        };
        let Some(memdesc) = memdesc.and_then(types::MemDesc::of) else { continue };
        if let Ok(Layout::NvmmaShared(nvmma)) = layout_of(memdesc.encoding) {
            if !nvmma.transposed {
                return Some(memdesc.encoding);
            }
        }
    }
    None
}

fn default_encoding<'c>(value: Value<'c, '_>, block: Type<'c>, shape: Option<&[i64]>) -> Option<Attribute<'c>> {
    let (block_shape, element, _) = tensor_parts(block)?;
    let shape = shape.unwrap_or(&block_shape);
    let rank = shape.len();
    let order: Vec<u32> = (0..rank as u32).rev().collect();
    let bits = crate::ir::element_bits(element);
    let layout = nvmma_shared_for(shape, &order, CtaLayout::single_cta(rank), bits, false);
    attribute_of(&Layout::NvmmaShared(layout), value.location_or_unknown())
}

trait LocationOf<'c> {
    fn location_or_unknown(&self) -> melior::ir::Location<'c>;
}

impl<'c> LocationOf<'c> for Value<'c, '_> {
    fn location_or_unknown(&self) -> melior::ir::Location<'c> {
        use melior::ir::TypeLike;
        let context_ref = self.r#type().context();
        melior::ir::Location::unknown(unsafe { context_ref.to_ref() })
    }
}

fn assign(function: OperationRef) -> PassResult {
    let is_kernel = function.attribute("sym_visibility").map(|v| v.to_string() == "\"public\"").unwrap_or(true);
    let values = descriptor_values(function);
    if values.is_empty() {
        return Ok(());
    }
    let mut groups = Groups { parent: HashMap::new() };
    for value in &values {
        tie(*value, &mut groups).map_err(|message| fail(&function, message))?;
    }
    let entry = function.region_at(0).ok().and_then(|r| r.first_block());
    let mut wanted: HashMap<Key, Wanted> = HashMap::new();
    for value in &values {
        let root = groups.find(value_key(*value));
        let mut here = Wanted::default();
        if !is_kernel && argument_owner(*value).is_some_and(|b| Some(b) == entry) {
            here.forced_default = true;
        }
        for user in users(*value) {
            here.combine(wanted_by_use(&user, *value));
        }
        wanted.entry(root).or_default().combine(here);
    }
    for value in &values {
        let root = groups.find(value_key(*value));
        let want = &wanted[&root];
        let Some(block) = types::tensor_descriptor_block(value.r#type()) else { continue };
        let encoding = match (want.forced_default, want.encoding) {
            (false, Some(encoding)) => Some(encoding),
            (true, _) => default_encoding(*value, block, None),
            (false, None) => default_encoding(*value, block, want.shape.as_deref()),
        };
        let Some(encoding) = encoding else {
            return Err(fail(&function, "cannot build the shared encoding of a tensor descriptor"));
        };
        let Some((shape, element, _)) = tensor_parts(block) else { continue };
        let new_block = tensor_type(&shape, element, Some(encoding));
        let Some(descriptor) = types::tensor_descriptor(new_block) else { continue };
        crate::ir::set_type(*value, descriptor);
    }
    // The signature follows the entry block's arguments.
    if let Some(entry) = entry {
        let context_ref = function.context();
        let context = unsafe { context_ref.to_ref() };
        let inputs: Vec<Type> =
            (0..entry.argument_count()).map(|i| block_argument_at(entry, i).unwrap().r#type()).collect();
        let results: Vec<Type> = function
            .attribute("function_type")
            .ok()
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .and_then(|t| FunctionType::try_from(t.value()).ok())
            .map(|f| (0..f.result_count()).filter_map(|i| f.result(i).ok()).collect())
            .unwrap_or_default();
        let function_type = FunctionType::new(context, &inputs, &results);
        crate::ssa::set_attribute(&function, "function_type", TypeAttribute::new(function_type.into()).into());
    }
    Ok(())
}
