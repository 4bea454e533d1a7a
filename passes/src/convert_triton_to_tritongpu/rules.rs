//! What each op's conversion does once its operands are remapped to the
//! converted form of their original types: the types its results get, and
//! the conversions some ops need on their operands (upstream's per-op
//! patterns in TritonToTritonGPUPass.cpp).
use super::{
    driver::{function_signature, insert_before, set_attribute, set_operand, Conversion},
    layouts,
};
use crate::ir::{create, int_attribute, tensor_parts, tensor_type};
use melior::ir::{
    attribute::{DenseI32ArrayAttribute, TypeAttribute},
    operation::OperationLike,
    r#type::FunctionType,
    Attribute, BlockLike, OperationRef, RegionLike, Type, Value, ValueLike,
};
use tritium_dialects::access::{block_argument_at, ranked_tensor, OpAccess};
use tritium_dialects::layout::layout_of;
use tritium_dialects::target::lookup_num_warps;
use tritium_layout::{Blocked, DotOperand, Layout, Slice};

/// Ops whose results just take their converted types (upstream's
/// GenericOpPattern and the patterns that behave like it). Their region, if
/// any, holds scalars only.
#[rustfmt::skip]
const CONVERT_RESULTS: &[&str] = &[
    // arith
    "arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.divsi", "arith.ceildivui",
    "arith.ceildivsi", "arith.floordivsi", "arith.remui", "arith.remsi", "arith.andi", "arith.ori",
    "arith.xori", "arith.shli", "arith.shrui", "arith.shrsi", "arith.addf", "arith.subf", "arith.maximumf",
    "arith.maxnumf", "arith.maxsi", "arith.maxui", "arith.minimumf", "arith.minnumf", "arith.minsi",
    "arith.minui", "arith.mulf", "arith.divf", "arith.remf", "arith.cmpi", "arith.cmpf", "arith.select",
    "arith.trunci", "arith.truncf", "arith.extui", "arith.extsi", "arith.extf", "arith.sitofp",
    "arith.fptosi", "arith.fptoui", "arith.uitofp",
    // math
    "math.exp", "math.exp2", "math.floor", "math.ceil", "math.cos", "math.sin", "math.log", "math.log2",
    "math.erf", "math.absf", "math.absi", "math.sqrt", "math.rsqrt", "math.fma",
    // tt
    "tt.advance", "tt.make_tensor_ptr", "tt.reshape", "tt.bitcast", "tt.fp_to_fp", "tt.int_to_ptr",
    "tt.ptr_to_int", "tt.splat", "tt.unsplat", "tt.addptr", "tt.clampf", "tt.precise_sqrt",
    "tt.precise_divf", "tt.mulhiui", "tt.elementwise_inline_asm", "tt.reduce.return", "tt.scan.return",
    "tt.make_range", "tt.load", "tt.store", "tt.histogram", "tt.gather", "tt.extern_elementwise",
    "tt.print", "tt.assert", "tt.atomic_cas", "tt.atomic_rmw", "tt.descriptor_load", "tt.descriptor_store",
    "tt.descriptor_reduce", "tt.dot_scaled", "tt.call", "tt.return", "tt.map_elementwise",
    // scf, ub
    "scf.yield", "scf.if", "scf.condition", "ub.poison",
];

/// How an illegal op is converted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rule {
    ConvertResults,
    Constant,
    Broadcast,
    Cat,
    Join,
    Split,
    Trans,
    Reduce,
    Scan,
    ExpandDims,
    Dot,
    GatherScatter,
    /// scf.for, scf.while: results and the block arguments of their regions.
    Loop,
    /// cf.br, cf.cond_br: the block arguments of the region they branch in.
    Branch,
    Function,
}

impl Rule {
    pub(super) fn of(name: &str) -> Option<Rule> {
        Some(match name {
            "arith.constant" => Rule::Constant,
            "tt.broadcast" => Rule::Broadcast,
            "tt.cat" => Rule::Cat,
            "tt.join" => Rule::Join,
            "tt.split" => Rule::Split,
            "tt.trans" => Rule::Trans,
            "tt.reduce" => Rule::Reduce,
            "tt.scan" => Rule::Scan,
            "tt.expand_dims" => Rule::ExpandDims,
            "tt.dot" => Rule::Dot,
            "tt.descriptor_gather" | "tt.descriptor_scatter" => Rule::GatherScatter,
            "scf.for" | "scf.while" => Rule::Loop,
            "cf.br" | "cf.cond_br" => Rule::Branch,
            "tt.func" => Rule::Function,
            _ if CONVERT_RESULTS.contains(&name) => Rule::ConvertResults,
            _ => return None,
        })
    }
}

type Outcome = Result<(), String>;

impl<'c: 'a, 'a> Conversion<'c, 'a> {
    pub(super) fn apply(&mut self, rule: Rule, op: OperationRef<'c, 'a>) -> Outcome {
        match rule {
            Rule::ConvertResults => self.convert_results(op),
            Rule::Constant => self.constant(op),
            Rule::Broadcast => self.broadcast(op),
            Rule::Cat => self.cat(op),
            Rule::Join => self.join(op),
            Rule::Split => self.split(op),
            Rule::Trans => self.trans(op),
            Rule::Reduce => self.reduce(op),
            Rule::Scan => self.scan(op),
            Rule::ExpandDims => self.expand_dims(op),
            Rule::Dot => self.dot(op),
            Rule::GatherScatter => self.gather_scatter(op),
            Rule::Loop => {
                self.convert_results(op)?;
                for region in op.regions() {
                    self.convert_region_arguments(&region)?;
                }
                Ok(())
            }
            Rule::Branch => self.branch(op),
            Rule::Function => self.function(op),
        }
    }

    fn convert_results(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        for result in op.results() {
            let converted = self.convert_type(result.r#type())?;
            self.retype(result.into(), converted);
        }
        Ok(())
    }

    /// A tensor constant keeps its elements, retyped with the layout.
    fn constant(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let result = first_result(op)?;
        let converted = self.convert_type(result.r#type())?;
        if ranked_tensor(converted).is_ok() {
            let value = op.attribute("value").map_err(|e| e.to_string())?;
            // Reshaped to a type with the same shape.
            let Some(reshaped) = tritium_dialects::ir::reshape_dense(value, converted) else {
                return Err(format!("cannot give a layout to the tensor constant {value}"));
            };
            set_attribute(op, "value", reshaped);
        }
        self.retype(result, converted);
        Ok(())
    }

    /// The result keeps the source's layout.
    fn broadcast(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let (_, _, layout) = parts(operand(op, 0)?.r#type())?;
        self.retype_with_layout(first_result(op)?, layout.ok_or("the source has no layout")?)
    }

    /// The default layout of the result, with room in each thread for its
    /// elements of both operands.
    fn cat(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let result = first_result(op)?;
        let converted = self.convert_type(result.r#type())?;
        let (shape, _, layout) = parts(converted)?;
        let Layout::Blocked(default) = layout_from(layout)? else {
            return Err("the result of tt.cat must have a blocked layout".into());
        };
        let elements = |ty: Type<'c>| -> Result<u64, String> {
            let (shape, _, layout) = parts(ty)?;
            layout_from(layout)?.total_elems_per_thread(&shape).map_err(|e| e.to_string())
        };
        let (lhs, rhs) = (elements(operand(op, 0)?.r#type())?, elements(operand(op, 1)?.r#type())?);
        let total = Layout::Blocked(default.clone()).total_elems_per_thread(&shape).map_err(|e| e.to_string())?;
        let layout = layouts::cat(&default, lhs, rhs, total);
        self.retype_with_blocked(op, result, layout)
    }

    /// The operands' layout with a fastest dim of two registers.
    fn join(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let source = self.blocked_operand(op, 0, "tt.join")?;
        let layout = layouts::join(&source)?;
        self.retype_with_blocked(op, first_result(op)?, layout)
    }

    /// The source must hold each pair in one thread; if it does not, it is
    /// converted to a layout that does.
    fn split(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let source = operand(op, 0)?;
        let (shape, element, layout) = parts(source.r#type())?;
        let blocked = match layout_from(layout)? {
            Layout::Blocked(blocked) if layouts::splits_in_registers(&blocked) => blocked,
            _ => {
                let (half, _, _) = parts(first_result(op)?.r#type())?;
                let blocked = self.grid.split_source(&half)?;
                let converted = self.convert_before(op, source, &shape, element, &Layout::Blocked(blocked.clone()))?;
                set_operand(&op, 0, converted);
                blocked
            }
        };
        let layout = layouts::split(&blocked).ok_or("cannot split a layout that spreads the pairs over threads")?;
        let attribute = self.layout_attribute(&Layout::Blocked(layout), op.location())?;
        for result in op.results() {
            self.retype_with_layout(result.into(), attribute)?;
        }
        Ok(())
    }

    /// The source's layout, permuted like the dims.
    fn trans(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let source = self.blocked_operand(op, 0, "tt.trans")?;
        let order = op
            .attribute("order")
            .ok()
            .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
            .ok_or("tt.trans needs an 'order' array")?;
        let order: Vec<u32> = (0..order.len()).filter_map(|i| order.element(i).ok()).map(|d| d as u32).collect();
        let layout = layouts::transpose(&source, &order)?;
        self.retype_with_blocked(op, first_result(op)?, layout)
    }

    /// Each tensor result is a slice, along the reduced axis, of its operand's
    /// layout.
    fn reduce(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let axis = axis_of(op)?;
        for (index, result) in op.results().enumerate() {
            if ranked_tensor(result.r#type()).is_err() {
                continue;
            }
            let (_, _, layout) = parts(operand(op, index)?.r#type())?;
            let slice = Layout::Slice(Slice::new(axis as u32, layout_from(layout)?));
            let attribute = self.layout_attribute(&slice, op.location())?;
            self.retype_with_layout(result.into(), attribute)?;
        }
        Ok(())
    }

    /// Results have their operands' types.
    fn scan(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        for (index, result) in op.results().enumerate() {
            self.retype(result.into(), operand(op, index)?.r#type());
        }
        Ok(())
    }

    /// The result gets the source's layout with a unit dim, and the source is
    /// converted to the slice of that layout that expand_dims takes.
    fn expand_dims(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let axis = axis_of(op)?;
        let source = self.blocked_operand(op, 0, "tt.expand_dims")?;
        let expanded = layouts::expand_dims(&source, axis)?;
        let value = operand(op, 0)?;
        let (shape, element, _) = parts(value.r#type())?;
        let slice = Layout::Slice(Slice::new(axis as u32, Layout::Blocked(expanded.clone())));
        let converted = self.convert_before(op, value, &shape, element, &slice)?;
        set_operand(&op, 0, converted);
        self.retype_with_blocked(op, first_result(op)?, expanded)
    }

    /// The result and accumulator get the dot layout, A and B the dot operand
    /// layouts of it; C is converted even when it is in that layout already.
    fn dot(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let result = first_result(op)?;
        let (shape, element, _) = parts(result.r#type())?;
        let layout = self.grid.dot_result(&shape)?;
        for index in 0..2 {
            let value = operand(op, index)?;
            let (operand_shape, operand_element, current) = parts(value.r#type())?;
            if matches!(layout_from(current), Ok(Layout::DotOperand(_))) {
                continue;
            }
            let wanted = Layout::DotOperand(DotOperand::new(index as u32, Layout::Blocked(layout.clone()), 0));
            let converted = self.convert_before(op, value, &operand_shape, operand_element, &wanted)?;
            set_operand(&op, index, converted);
        }
        let accumulator = operand(op, 2)?;
        let (c_shape, c_element, _) = parts(accumulator.r#type())?;
        let layout = Layout::Blocked(layout);
        let converted = self.convert_before(op, accumulator, &c_shape, c_element, &layout)?;
        set_operand(&op, 2, converted);
        let attribute = self.layout_attribute(&layout, op.location())?;
        self.retype(result, tensor_type(&shape, element, Some(attribute)));
        Ok(())
    }

    /// Results take their converted types; the row offsets (operand 1) get
    /// the layout TMA gather4/scatter4 need.
    fn gather_scatter(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        self.convert_results(op)?;
        let mut grid = self.grid;
        if let Ok(Some(warps)) = lookup_num_warps(&op) {
            grid.num_warps = warps;
        }
        let offsets = operand(op, 1)?;
        let (shape, element, current) = parts(offsets.r#type())?;
        let wanted = Layout::Slice(grid.gather_offsets());
        if current.is_some_and(|c| layout_of(c).is_ok_and(|c| c == wanted)) {
            return Ok(());
        }
        let converted = self.convert_before(op, offsets, &shape, element, &wanted)?;
        set_operand(&op, 1, converted);
        Ok(())
    }

    fn branch(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        for successor in op.successors() {
            if let Some(region) = successor.parent_region() {
                self.convert_region_arguments(&region)?;
            }
        }
        Ok(())
    }

    /// Tensors in the signature get their converted types, in the function
    /// type and on the entry block. (Upstream leaves the function type as it
    /// is and so cannot convert functions that take or return tensors; they
    /// only occur there when inlining is off.)
    fn function(&mut self, op: OperationRef<'c, 'a>) -> Outcome {
        let (inputs, results) = function_signature(op).ok_or("tt.func needs a function type")?;
        let convert_all = |this: &mut Self, types: Vec<Type<'c>>| -> Result<Vec<Type<'c>>, String> {
            types.into_iter().map(|ty| this.convert_type(ty)).collect()
        };
        let inputs = convert_all(self, inputs)?;
        let results = convert_all(self, results)?;
        // SAFETY: `context_ref` (which `to_ref` borrows) and the context outlive its use.
        let context_ref = op.context();
        let context = unsafe { context_ref.to_ref() };
        let function = FunctionType::new(context, &inputs, &results);
        set_attribute(op, "function_type", TypeAttribute::new(function.into()).into());
        if let Some(entry) = op.region_at(0).ok().and_then(|region| region.first_block()) {
            for (index, ty) in inputs.iter().enumerate() {
                if let Ok(argument) = block_argument_at(entry, index) {
                    self.retype(argument.into(), *ty);
                }
            }
        }
        Ok(())
    }

    /// The blocked layout of operand `index`, which `what` requires.
    fn blocked_operand(&self, op: OperationRef<'c, 'a>, index: usize, what: &str) -> Result<Blocked, String> {
        let (_, _, layout) = parts(operand(op, index)?.r#type())?;
        match layout_from(layout)? {
            Layout::Blocked(blocked) => Ok(blocked),
            other => Err(format!("{what} supports blocked source layouts only, not {other:?}")),
        }
    }

    /// `value` converted to `layout` by a `ttg.convert_layout` right before `op`.
    fn convert_before(
        &mut self,
        op: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
        shape: &[i64],
        element: Type<'c>,
        layout: &Layout,
    ) -> Result<Value<'c, 'a>, String> {
        let attribute = self.layout_attribute(layout, op.location())?;
        let ty = tensor_type(shape, element, Some(attribute));
        insert_before(op, create("ttg.convert_layout", op.location(), &[value], &[ty], &[]))
    }

    fn retype_with_blocked(&mut self, op: OperationRef<'c, 'a>, value: Value<'c, 'a>, layout: Blocked) -> Outcome {
        let attribute = self.layout_attribute(&Layout::Blocked(layout), op.location())?;
        self.retype_with_layout(value, attribute)
    }

    /// Gives the tensor `value` the layout `layout`, keeping shape and element.
    fn retype_with_layout(&mut self, value: Value<'c, 'a>, layout: Attribute<'c>) -> Outcome {
        let (shape, element, _) = parts(value.r#type())?;
        self.retype(value, tensor_type(&shape, element, Some(layout)));
        Ok(())
    }
}

fn operand<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Result<Value<'c, 'a>, String> {
    op.operand_at(index).map_err(|e| e.to_string())
}

fn first_result<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    op.result_at(0).map(Value::from).map_err(|e| e.to_string())
}

/// Shape, element type and layout of a ranked tensor type.
fn parts(ty: Type) -> Result<(Vec<i64>, Type, Option<Attribute>), String> {
    tensor_parts(ty).ok_or_else(|| format!("expected a ranked tensor with a static shape, got {ty}"))
}

fn layout_from(attribute: Option<Attribute>) -> Result<Layout, String> {
    layout_of(attribute.ok_or("expected a tensor with a layout")?).map_err(|e| e.to_string())
}

/// The non-negative `axis` attribute of `op`.
fn axis_of(op: OperationRef) -> Result<usize, String> {
    int_attribute(&op, "axis")
        .and_then(|axis| usize::try_from(axis).ok())
        .ok_or_else(|| "expected a non-negative 'axis' attribute".to_string())
}
