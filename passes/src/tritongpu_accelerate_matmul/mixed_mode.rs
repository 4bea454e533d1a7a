//! Operands the chosen instruction cannot take as they are get upcast
//! (upstream `decomposeMixedModeDotOp`): fp8 operands of `mma.sync` become
//! f16 where the target has no fp8 `mma.sync`, and the operands of an FMA
//! dot become its result's type.
use super::elements::{element_bits, element_kind};
use crate::ir::{collect_ops, create, fail, name_of, tensor_parts, tensor_type, Order};
use melior::ir::{operation::OperationLike, BlockLike, OperationRef, Type, TypeLike, Value, ValueLike};
use tritium_dialects::access::OpAccess;
use tritium_dialects::ir::ScalarKind;
use tritium_dialects::views::DotOp;
use tritium_dialects::{layout::layout_of, pass::PassFailed};
use tritium_layout::Layout;

/// Targets whose `mma.sync` takes fp8 in hardware (sm_89, sm_120); on sm_90
/// and sm_100 the PTX exists but is emulated.
fn mma_v2_has_fp8(capability: u32) -> bool {
    capability == 89 || capability == 120
}

pub fn promote_unsupported_operands(module: OperationRef, capability: u32) -> Result<(), PassFailed> {
    for dot in collect_ops(module, Order::Post).into_iter().filter(|op| name_of(op) == "tt.dot") {
        let result_type = dot.result_at(0).map_err(|_| fail(&dot, "result expected"))?.r#type();
        let a = DotOp::of(dot).ok_or_else(|| fail(&dot, "tt.dot expected"))?.a();
        let Some((_, result_element, encoding)) = tensor_parts(result_type) else { continue };
        let Some((_, a_element, _)) = tensor_parts(a.r#type()) else { continue };
        let mma = encoding.and_then(|e| layout_of(e).ok()).and_then(|l| match l {
            Layout::NvidiaMma(mma) => Some(mma),
            _ => None,
        });
        let promoted = match mma {
            Some(mma) => {
                let native = element_kind(a_element) == ScalarKind::NativeFp8;
                if !native || mma_v2_has_fp8(capability) || mma.is_hopper() {
                    continue;
                }
                let context = a_element.context();
                Type::float16(unsafe { context.to_ref() })
            }
            None if a_element == result_element => continue,
            None => result_element,
        };
        for index in 0..2 {
            let operand = dot.operand_at(index).map_err(|_| fail(&dot, "operand expected"))?;
            let upcast = upcast(&dot, operand, promoted)?;
            tritium_dialects::ir::set_operand(&dot, index, upcast);
        }
    }
    Ok(())
}

/// `operand` converted to elements of `to`, right before `dot`: fp8 through
/// `tt.fp_to_fp`, other floats through `arith.extf`.
fn upcast<'c, 'a>(
    dot: &OperationRef<'c, 'a>,
    operand: Value<'c, 'a>,
    to: Type<'c>,
) -> Result<Value<'c, 'a>, PassFailed> {
    let (shape, element, encoding) =
        tensor_parts(operand.r#type()).ok_or_else(|| fail(dot, "tensor operands expected"))?;
    let from = element_kind(element);
    let is_float = |s: ScalarKind| matches!(s, ScalarKind::F16 | ScalarKind::BF16 | ScalarKind::F32 | ScalarKind::F64);
    let name = if from.is_fp8() {
        "tt.fp_to_fp"
    } else if is_float(from) && is_float(element_kind(to)) && element_bits(to) > element_bits(element) {
        "arith.extf"
    } else {
        return Err(fail(dot, format!("cannot compute a dot of {element} operands with {to} results on this target")));
    };
    let block = dot.block().ok_or_else(|| fail(dot, "dot in a block expected"))?;
    let op = create(name, dot.location(), &[operand], &[tensor_type(&shape, to, encoding)], &[]);
    let op = block.insert_operation_before(*dot, op);
    op.result_at(0).map(Value::from).map_err(|_| fail(dot, "upcast result expected"))
}
