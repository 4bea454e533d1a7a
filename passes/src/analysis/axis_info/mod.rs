//! Axis info (upstream `AxisInfo.cpp`, `ModuleAxisInfoAnalysis`): for every
//! integer and pointer value, per dimension, how long its runs of
//! consecutive values are (contiguity), which power of two divides the
//! start of each run (divisibility) and how long its runs of equal values
//! are (constancy), plus its value when it is one known integer. Memory
//! passes use it to pick vector widths and coalesced layouts.
//!
//! - [`lattice`]: the lattice and its join (no MLIR);
//! - [`rules`]: per-op transfer functions (no MLIR);
//! - `solver`: the dataflow fixpoint over one function;
//! - this module: the whole module, functions analyzed callers first.
mod attributes;
pub mod lattice;
pub mod rules;
mod solver;

pub use lattice::AxisInfo;

use crate::analysis::type_facts::{access_bit_width, element_type};
use crate::ir::{collect_ops, fail, name_of, Order};
use attributes::{argument_attribute, i64_attribute, set_argument_attribute};
use lattice::{gcd, MAX_DIVISOR};
use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};
use solver::{analyze_function, key, ValueKey};
use std::collections::HashMap;
use tritium_dialects::access::{integer_attribute, ranked_tensor};
use tritium_dialects::{
    layout::layout_of,
    pass::PassFailed,
    types::{is_pointer, static_shape},
};

/// The axis info of every value in the functions of a module. Values are
/// keyed by their MLIR handles: query it before changing the IR it was
/// computed on (as upstream's passes do: analyze, decide, then rewrite).
pub struct ModuleAxisInfo {
    infos: HashMap<ValueKey, AxisInfo>,
}

impl ModuleAxisInfo {
    /// Analyzes every `tt.func` of `module`, callers before callees. Like
    /// upstream, a callee's arguments then get `tt.contiguity`,
    /// `tt.divisibility` and `tt.constancy` attributes holding what is true
    /// at all of its call sites (for scalars and 1-D tensors), which the
    /// callee's analysis starts from: this changes the IR. Recursive calls
    /// are an error.
    pub fn analyze(module: OperationRef) -> Result<Self, PassFailed> {
        let functions = functions_callers_first(module)?;
        let by_name = functions_by_name(module);
        let mut infos = HashMap::new();
        for function in functions {
            let function_infos = analyze_function(function)?;
            for call in collect_ops(function, Order::Post).into_iter().filter(is_call) {
                if let Some(callee) = callee_of(&call).and_then(|name| by_name.get(&name)) {
                    forward_call_site_facts(call, *callee, &function_infos);
                }
            }
            infos.extend(function_infos);
        }
        Ok(ModuleAxisInfo { infos })
    }

    /// The axis info of `value`; `None` for values outside functions.
    pub fn get(&self, value: Value) -> Option<&AxisInfo> {
        self.infos.get(&key(value))
    }

    /// How many elements of a tensor of pointers one thread may access with
    /// one vector along its layout's fastest dim: the aligned run, capped by
    /// what the layout gives each thread contiguously (upstream
    /// `getContiguity(value)`). 1 when nothing is known.
    pub fn contiguity(&self, pointers: Value) -> u32 {
        access_bit_width(pointers.r#type()).map_or(1, |bits| self.contiguity_of(pointers, bits))
    }

    /// [`Self::contiguity`] of offsets into elements of `element_bits`
    /// (upstream `getContiguity(offsets, elementBitWidth)`), for accesses
    /// through a scalar base and a tensor of offsets.
    pub fn contiguity_of(&self, value: Value, element_bits: u32) -> u32 {
        let Some((shape, layout)) = distributed_layout(value) else { return 1 };
        let (Ok(order), Ok(per_thread)) = (layout.order(&shape), layout.contig_per_thread(&shape)) else {
            return 1;
        };
        let Some(&per_thread) = order.first().and_then(|&d| per_thread.get(d as usize)) else { return 1 };
        self.alignment_of(value, element_bits).min(per_thread)
    }

    /// How many elements along the fastest dim of a tensor of pointers'
    /// layout are contiguous and aligned to a vector of them (upstream
    /// `getAlignment(value)`). 1 when nothing is known.
    pub fn alignment(&self, pointers: Value) -> u32 {
        access_bit_width(pointers.r#type()).map_or(1, |bits| self.alignment_of(pointers, bits))
    }

    /// [`Self::alignment`] of pointers or offsets to elements of
    /// `element_bits` (upstream `getAlignment(offsets, elementBitWidth)`):
    /// pointers are divisible in bytes, offsets in elements.
    pub fn alignment_of(&self, value: Value, element_bits: u32) -> u32 {
        let (Some(info), Some((shape, layout))) = (self.get(value), distributed_layout(value)) else { return 1 };
        let Some(dim) = layout.order(&shape).ok().and_then(|o| o.first().copied()).map(|d| d as usize) else {
            return 1;
        };
        let (Some(&divisibility), Some(&contiguity)) = (info.divisibility.get(dim), info.contiguity.get(dim)) else {
            return 1;
        };
        let element_bytes = i64::from((element_bits / 8).max(1));
        let multiple =
            if is_pointer(element_type(value.r#type())) { (divisibility / element_bytes).max(1) } else { divisibility };
        // Upstream keeps the result in 32 bits.
        multiple.min(contiguity) as u32
    }

    /// How many elements along the fastest dim of a mask's layout share one
    /// mask value (upstream `getMaskAlignment`). 1 when nothing is known.
    pub fn mask_alignment(&self, mask: Value) -> u32 {
        let (Some(info), Some((shape, layout))) = (self.get(mask), distributed_layout(mask)) else { return 1 };
        let dim = layout.order(&shape).ok().and_then(|o| o.first().copied()).map(|d| d as usize);
        dim.and_then(|d| info.constancy.get(d)).map_or(1, |&c| (c as u32).max(1))
    }
}

/// Shape and layout of a tensor value with a distributed layout.
fn distributed_layout(value: Value) -> Option<(Vec<i64>, tritium_layout::Layout)> {
    let tensor = ranked_tensor(value.r#type()).ok()?;
    let layout = layout_of(tensor.encoding()?).ok().filter(|l| l.is_distributed())?;
    Some((static_shape(value.r#type())?, layout))
}

fn is_call(op: &OperationRef) -> bool {
    name_of(op) == "tt.call"
}

/// The symbol a `tt.call` calls.
fn callee_of(call: &OperationRef) -> Option<String> {
    tritium_dialects::ir::flat_symbol(call.attribute("callee").ok()?)
}

use crate::ir::module_functions as functions;

fn functions_by_name<'c, 'a>(module: OperationRef<'c, 'a>) -> HashMap<String, OperationRef<'c, 'a>> {
    functions(module)
        .into_iter()
        .filter_map(|f| {
            let name = tritium_dialects::access::string_attribute_value(f.attribute("sym_name").ok()?)?;
            Some((name, f))
        })
        .collect()
}

/// The functions of `module` ordered so that every caller comes before its
/// callees (upstream: the reverse of a post-order walk of the call graph
/// from its roots, the functions nothing calls).
fn functions_callers_first<'c, 'a>(module: OperationRef<'c, 'a>) -> Result<Vec<OperationRef<'c, 'a>>, PassFailed> {
    let functions = functions(module);
    let by_name = functions_by_name(module);
    let index_of = |f: &OperationRef| functions.iter().position(|g| g == f);
    let callees: Vec<Vec<usize>> = functions
        .iter()
        .map(|f| {
            collect_ops(*f, Order::Post)
                .iter()
                .filter(|op| is_call(op))
                .filter_map(|call| callee_of(call).and_then(|n| by_name.get(&n)).and_then(index_of))
                .collect()
        })
        .collect();
    let called: Vec<bool> = (0..functions.len()).map(|i| callees.iter().any(|c| c.contains(&i))).collect();

    fn post_order(
        node: usize,
        callees: &[Vec<usize>],
        on_stack: &mut Vec<bool>,
        order: &mut Vec<usize>,
    ) -> Result<(), usize> {
        if on_stack[node] {
            return Err(node);
        }
        on_stack[node] = true;
        for &callee in &callees[node] {
            post_order(callee, callees, on_stack, order)?;
        }
        on_stack[node] = false;
        if !order.contains(&node) {
            order.push(node);
        }
        Ok(())
    }
    let mut order = Vec::new();
    let mut on_stack = vec![false; functions.len()];
    for root in (0..functions.len()).filter(|&i| !called[i]) {
        post_order(root, &callees, &mut on_stack, &mut order)
            .map_err(|f| fail(&functions[f], "recursive calls are not supported by the axis info analysis"))?;
    }
    if order.len() < functions.len() {
        // Functions only reachable from themselves: a cycle without a root.
        let cyclic = (0..functions.len()).find(|i| !order.contains(i)).expect("some function is missing");
        return Err(fail(&functions[cyclic], "recursive calls are not supported by the axis info analysis"));
    }
    Ok(order.into_iter().rev().map(|i| functions[i]).collect())
}

/// Lowers the callee's argument hints to what holds for `call`'s operands
/// (rank-1 values only: scalars and 1-D tensors).
fn forward_call_site_facts(call: OperationRef, callee: OperationRef, caller_infos: &HashMap<ValueKey, AxisInfo>) {
    for (index, operand) in call.operands().enumerate() {
        let Some(info) = caller_infos.get(&key(operand)).filter(|i| i.rank() == 1) else { continue };
        for (name, value) in [
            ("tt.contiguity", info.contiguity[0]),
            ("tt.divisibility", info.divisibility[0]),
            ("tt.constancy", info.constancy[0]),
        ] {
            let current = argument_attribute(&callee, index, name)
                .and_then(|a| integer_attribute(a).ok())
                .map_or(MAX_DIVISOR, |a| a.value());
            set_argument_attribute(&callee, index, name, i64_attribute(&callee, gcd(value, current)));
        }
    }
}
