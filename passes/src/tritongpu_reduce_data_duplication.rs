//! `tritongpu-reduce-data-duplication` (upstream ReduceDataDuplication.cpp):
//! a conversion to a dot-operand layout that has to go through shared
//! memory anyway is made explicit as `ttg.local_alloc` + `ttg.local_load`
//! through a swizzled buffer laid out for the dot operand, so that each
//! thread reads its (duplicated) operand elements without bank conflicts and
//! later passes can place or share the buffer.
use crate::{
    analysis::type_facts::bit_width,
    dot_operand_layouts::{order_for_memory, swizzled_shared_for_dot_operand},
    ir::{collect_ops, create, erase, fail, name_of, replace_all_uses, tensor_parts, Order},
    ssa::insert_before,
};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::ConvertLayoutOp;
use tritium_dialects::{
    layout::{attribute_of, layout_of},
    pass::{PassDefinition, PassFailed, PassOptions, PassResult},
    types::{shared_memory_space, MemDesc},
};
use tritium_layout::{convert::cvt_needs_shared_memory, Layout};

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-reduce-data-duplication",
    description: "Route conversions to dot operands through a swizzled shared-memory buffer",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    for op in collect_ops(module, Order::Post) {
        if name_of(&op) == "ttg.convert_layout" {
            route_through_shared_memory(op)?;
        }
    }
    Ok(())
}

fn route_through_shared_memory(convert: OperationRef) -> PassResult {
    let source = ConvertLayoutOp::of(convert).ok_or_else(|| fail(&convert, "is no ttg.convert_layout"))?.src();
    let result = convert.result_at(0).unwrap();
    let (Some((shape, element, Some(source_encoding))), Some((_, _, Some(result_encoding)))) =
        (tensor_parts(source.r#type()), tensor_parts(result.r#type()))
    else {
        return Ok(());
    };
    let layout_error = |e: &dyn std::fmt::Display| fail(&convert, format!("cannot read the conversion's layouts: {e}"));
    let source_layout = layout_of(source_encoding).map_err(|e| layout_error(&e))?;
    let Layout::DotOperand(dot) = layout_of(result_encoding).map_err(|e| layout_error(&e))? else {
        return Ok(());
    };
    if source_layout.is_shared() {
        return Ok(());
    }
    let (source_linear, result_linear) = (
        source_layout.to_linear(&shape).map_err(|e| layout_error(&e))?,
        Layout::DotOperand(dot.clone()).to_linear(&shape).map_err(|e| layout_error(&e))?,
    );
    if !cvt_needs_shared_memory(&source_linear, &result_linear).map_err(|e| layout_error(&e))? {
        return Ok(());
    }
    let order = order_for_memory(&source_layout, &shape).map_err(|e| layout_error(&e))?;
    let cta = source_layout.cta_layout().map_err(|e| layout_error(&e))?;
    let bits = bit_width(element).ok_or_else(|| fail(&convert, "a dot operand needs a numeric element type"))?;
    let swizzled =
        swizzled_shared_for_dot_operand(&dot, &shape, &order, cta, bits, false).map_err(|e| fail(&convert, e))?;
    let location = convert.location();
    let encoding = attribute_of(&Layout::SwizzledShared(swizzled), location).ok_or(PassFailed)?;
    let context_ref = convert.context();
    // SAFETY: `context_ref` outlives the reference.
    let context = unsafe { context_ref.to_ref() };
    let buffer = MemDesc {
        shape: shape.clone(),
        element_type: element,
        encoding,
        memory_space: shared_memory_space(context),
        mutable: false,
        alloc_shape: shape,
    }
    .to_type(location)
    .ok_or(PassFailed)?;
    let alloc = insert_before(&convert, create("ttg.local_alloc", location, &[source], &[buffer], &[]));
    let load = insert_before(
        &convert,
        create("ttg.local_load", location, &[alloc.result_at(0).unwrap().into()], &[result.r#type()], &[]),
    );
    replace_all_uses(result.into(), load.result_at(0).unwrap().into());
    erase(convert);
    Ok(())
}
