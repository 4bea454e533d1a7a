//! Element-wise ops: each register of the result is the op applied to the
//! same register of the operands. Where upstream Triton uses a fast PTX
//! instruction (ex2.approx for exp, div.full for f32 division, sqrt.approx
//! for sqrt) Tritium does too, so results and speed match.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
};
use melior::ir::{
    operation::OperationLike, r#type::ShapedTypeLike, Attribute, BlockLike, OperationRef, Type, TypeLike, ValueLike,
};
use tritium_dialects::access::{float_attribute, ranked_tensor, OpAccess};
use tritium_dialects::views::{ClampFOp, SelectOp, SubOp};

/// The element-wise ops (`arith.*`, `math.*` and the `tt` ones the op table
/// names): the op's name picks the scalar instruction in [`scalar`].
pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let name = super::name_of(&op);
    let name = name.as_str();
    let result = op.result_at(0).map_err(|e| LowerError::at(&op, e.to_string()))?;
    let result_type = l.lower_type(result.r#type());
    let count =
        if result.r#type().is_ranked_tensor() { l.tensor_layout(&op, result.r#type())?.num_registers() } else { 1 };
    let mut operands: Vec<Vec<V>> = (0..op.operand_count()).map(|i| l.operand(&op, i)).collect::<Result<_>>()?;
    // `arith.select` may pick between whole tensors with one scalar condition
    // (the pipeliner's and scf-to-cf's selects of loop-carried tensors).
    let scalar_condition = SelectOp::of(op).is_some_and(|select| !select.condition().r#type().is_ranked_tensor());
    if scalar_condition {
        operands[0] = vec![operands[0][0]; count];
    }
    if operands.iter().any(|o| o.len() != count) {
        let counts: Vec<usize> = operands.iter().map(|o| o.len()).collect();
        return Err(LowerError::at(
            &op,
            format!("operands and result are distributed differently (registers: operands {counts:?}, result {count})"),
        ));
    }
    if name == "arith.sitofp" && count % 4 == 0 && result_type.to_string() == "bf16" {
        if let Some(registers) = int8_to_bf16_by_fours(l, &operands[0]) {
            l.set_result(&op, 0, registers);
            return Ok(());
        }
    }
    let attributes: Vec<(String, Attribute<'c>)> =
        op.attributes().map(|(k, v)| (tritium_dialects::access::identifier_text(k), v)).collect();
    let representatives = constant_block_representatives(l, &op, name, result.into())?;
    let mut registers: Vec<V> = Vec::with_capacity(count);
    for i in 0..count {
        // A register in the same block of equal elements as an earlier one
        // (axis-info constancy) takes that register's value: one compare per
        // block of rows instead of one per row for a broadcast mask, as
        // upstream's maybeDeduplicate does.
        if let Some(&first) = representatives.as_ref().and_then(|r| r.get(i)).filter(|&&r| r < i) {
            registers.push(registers[first]);
            continue;
        }
        let args: Vec<V> = operands.iter().map(|o| o[i]).collect();
        registers.push(scalar(l, &op, name, &args, result_type, &attributes)?);
    }
    l.set_result(&op, 0, registers);
    Ok(())
}

/// i8 -> bf16 four registers (one packed word) at a time, as upstream: there
/// is no cvt from s8 to bf16, and one cvt per element is slow. Before Hopper
/// each byte goes through f32, whose high half is the bf16 (exact: |x| <=
/// 128 needs 8 significant bits); on Hopper without cvt at all: a byte b
/// under the high byte 0x43 is the bf16 128 + (b & 127) once the exponent's
/// last bit (b's sign bit) is cleared, and subtracting that bit's own value
/// (128, or 256 when it was set) leaves the signed byte.
/// None when `inputs` are not bytes.
fn int8_to_bf16_by_fours<'c>(l: &mut Lowering<'c>, inputs: &[V]) -> Option<Vec<V>> {
    if type_of(*inputs.first()?).to_string() != "i8" {
        return None;
    }
    let asm = if l.target.capability >= 90 {
        "{\n\t.reg .b32 lo, hi, lo_value, hi_value, lo_bias, hi_bias;\n\t\
         prmt.b32 lo, $2, 0x43, 0x4140;\n\tprmt.b32 hi, $2, 0x43, 0x4342;\n\t\
         and.b32 lo_value, lo, 0xff7fff7f;\n\tand.b32 hi_value, hi, 0xff7fff7f;\n\t\
         and.b32 lo_bias, lo, 0xff80ff80;\n\tand.b32 hi_bias, hi, 0xff80ff80;\n\t\
         sub.bf16x2 $0, lo_value, lo_bias;\n\tsub.bf16x2 $1, hi_value, hi_bias;\n\t}"
    } else {
        "{\n\t.reg .s8 b<4>;\n\t.reg .f32 x<4>;\n\tmov.b32 {b0, b1, b2, b3}, $2;\n\t\
         cvt.rn.f32.s8 x0, b0;\n\tcvt.rn.f32.s8 x1, b1;\n\tcvt.rn.f32.s8 x2, b2;\n\tcvt.rn.f32.s8 x3, b3;\n\t\
         prmt.b32 $0, x0, x1, 0x7632;\n\tprmt.b32 $1, x2, x3, 0x7632;\n\t}"
    };
    let packed = super::fp8::Packed::new(asm, 32, 32, 4);
    let bf16 = Type::parse(l.context(), "bf16")?;
    Some(inputs.chunks(4).flat_map(|four| super::fp8::run_packed(l, &packed, four, bf16, 8, 16)).collect())
}

/// For each register of the result, the first register of the thread in the
/// same aligned block of equal elements (the axis info's constancy per dim),
/// when the op is pure and some block spans several registers. Registers `i`
/// and `j` hold elements of one block exactly when their coordinates differ
/// only below log2(constancy) in every dim: the lane and warp parts of both
/// coordinates are the same, so they cancel in the comparison.
fn constant_block_representatives<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef,
    name: &str,
    result: melior::ir::Value<'c, '_>,
) -> Result<Option<Vec<usize>>> {
    let has_side_effects =
        name == "tt.extern_elementwise" && !op.attribute("pure").is_ok_and(|p| p.to_string() == "true");
    if has_side_effects || op.result_count() != 1 || !result.r#type().is_ranked_tensor() {
        return Ok(None);
    }
    let Some(constancy) = l.axis_info.as_ref().and_then(|a| a.get(result)).map(|i| i.constancy.clone()) else {
        return Ok(None);
    };
    if constancy.iter().all(|&c| c <= 1) {
        return Ok(None);
    }
    let layout = l.tensor_layout(op, result.r#type())?;
    let low_bits: Vec<u32> =
        constancy.iter().map(|&c| if c > 1 && (c as u64).is_power_of_two() { c.trailing_zeros() } else { 0 }).collect();
    let mut first_of_block: std::collections::HashMap<Vec<u32>, usize> = std::collections::HashMap::new();
    let representatives = layout
        .register_coords
        .iter()
        .enumerate()
        .map(|(i, coords)| {
            let block: Vec<u32> = coords.iter().zip(&low_bits).map(|(c, bits)| c >> bits).collect();
            *first_of_block.entry(block).or_insert(i)
        })
        .collect::<Vec<_>>();
    Ok(representatives.iter().enumerate().any(|(i, &r)| r != i).then_some(representatives))
}

fn is_f32(ty: Type) -> bool {
    ty.to_string() == "f32"
}

fn float_bits(ty: Type) -> Option<u32> {
    match ty.to_string().as_str() {
        "f16" | "bf16" => Some(16),
        "f32" => Some(32),
        "f64" => Some(64),
        _ => None,
    }
}

/// One element of an element-wise op.
fn scalar<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef,
    name: &str,
    args: &[V],
    result_type: Type<'c>,
    attributes: &[(String, Attribute<'c>)],
) -> Result<V> {
    let b = &mut l.b;
    let in_type = args.first().map(|a| type_of(*a));
    // Fast paths for f32, with the NVVM intrinsics upstream's lowering (or
    // the libdevice function it calls) ends in. Intrinsics, not inline asm:
    // LLVM knows them to be pure, so it can merge, hoist and schedule them.
    if is_f32(result_type) {
        let ftz = if l.reflect_ftz { ".ftz" } else { "" };
        let intrinsic = match name {
            "math.exp" => {
                let log2e = b.f32_const(std::f32::consts::LOG2_E);
                let scaled = b.op1("arith.mulf", &[args[0], log2e], result_type, &[]);
                // Upstream's ExpOpConversionApprox: no .ftz, whatever the flag.
                return Ok(call_intrinsic(b, "llvm.nvvm.ex2.approx.f32", &[scaled], result_type));
            }
            // Upstream's exp2 is libdevice's exp2f, sqrt and rsqrt its sqrtf
            // and rsqrtf: approximations whose denormal flushing follows
            // enable_reflect_ftz (without .ftz ptxas wraps every ex2 in a
            // range check and two scalings).
            "math.exp2" => format!("llvm.nvvm.ex2.approx{ftz}.f32"),
            "math.sqrt" => format!("llvm.nvvm.sqrt.approx{ftz}.f"),
            "math.rsqrt" => format!("llvm.nvvm.rsqrt.approx{ftz}.f"),
            "arith.divf" => "llvm.nvvm.div.full".to_string(),
            "tt.precise_sqrt" => "llvm.nvvm.sqrt.rn.f".to_string(),
            "tt.precise_divf" => "llvm.nvvm.div.rn.f".to_string(),
            // No fast path for math.log / math.log2: upstream lowers them to
            // libdevice's __nv_logf / __nv_log2f (1 ulp), not lg2.approx,
            // whose absolute error makes log(x) near 1 wrong in relative terms
            // (log-likelihoods, softplus, KL terms).
            _ => String::new(),
        };
        if !intrinsic.is_empty() {
            return Ok(call_intrinsic(b, &intrinsic, args, result_type));
        }
    }
    // 16-bit floats: compute in f32 like upstream.
    if float_bits(result_type) == Some(16)
        && matches!(name, "math.exp" | "math.exp2" | "math.log" | "math.log2" | "math.sqrt" | "math.rsqrt")
    {
        let f32 = b.context_f32();
        let wide: Vec<V> = args.iter().map(|a| b.op1("arith.extf", &[*a], f32, &[])).collect();
        let value = scalar(l, op, name, &wide, f32, &[])?;
        return Ok(l.b.op1("arith.truncf", &[value], result_type, &[]));
    }
    match name {
        "tt.precise_sqrt" => return Ok(b.op1("math.sqrt", args, result_type, &[])),
        "tt.precise_divf" => return Ok(b.op1("arith.divf", args, result_type, &[])),
        "tt.mulhiui" => {
            // Upstream calls libdevice's __nv_umulhi / __nv_umul64hi, which
            // are these intrinsics.
            let intrinsic = if result_type.to_string() == "i64" { "llvm.nvvm.mulhi.ull" } else { "llvm.nvvm.mulhi.ui" };
            return Ok(call_intrinsic(b, intrinsic, args, result_type));
        }
        "tt.clampf" => {
            // clamp(x, lo, hi) = min(max(x, lo), hi); propagateNan = all keeps NaNs.
            let propagate = attributes.iter().any(|(k, v)| k == "propagateNan" && v.to_string().contains("65535"));
            if let Some(intrinsic) = symmetric_clamp_intrinsic(l.target.capability, op, result_type, propagate) {
                return Ok(call_intrinsic(&l.b, &intrinsic, &[args[0], args[2]], result_type));
            }
            let (max, min) =
                if propagate { ("arith.maximumf", "arith.minimumf") } else { ("arith.maxnumf", "arith.minnumf") };
            let low = b.op1(max, &[args[0], args[1]], result_type, &[]);
            return Ok(b.op1(min, &[low, args[2]], result_type, &[]));
        }
        "tt.bitcast" => {
            let from_ptr = in_type.is_some_and(|t| t.to_string().starts_with("!llvm.ptr"));
            let to_ptr = result_type.to_string().starts_with("!llvm.ptr");
            let kind = match (from_ptr, to_ptr) {
                (true, true) => "llvm.addrspacecast",
                (true, false) => "llvm.ptrtoint",
                (false, true) => "llvm.inttoptr",
                (false, false) => "llvm.bitcast",
            };
            if from_ptr && to_ptr && in_type == Some(result_type) {
                return Ok(args[0]);
            }
            return Ok(b.op1(kind, args, result_type, &[]));
        }
        // fp8 elements are bytes here (LLVM has no fp8 arithmetic): |x|
        // clears the sign bit, as upstream's lowering does.
        "math.absf" if result_type.to_string().starts_with('i') => {
            let bits: u32 = result_type.to_string()[1..].parse().unwrap_or(8);
            let mask = b.int(result_type, (1i64 << (bits - 1)) - 1);
            return Ok(b.op1("arith.andi", &[args[0], mask], result_type, &[]));
        }
        "tt.int_to_ptr" => return Ok(b.op1("llvm.inttoptr", args, result_type, &[])),
        "tt.ptr_to_int" => return Ok(b.op1("llvm.ptrtoint", args, result_type, &[])),
        "tt.extern_elementwise" => {
            // A call of the library function per element. libdevice's
            // (`__nv_*`) are linked from the bitcode file by ptx.rs, as
            // upstream links the `libpath` it names.
            let symbol = attributes
                .iter()
                .find(|(k, _)| k == "symbol")
                .and_then(|(_, v)| melior::ir::attribute::StringAttribute::try_from(*v).ok())
                .map(|s| s.value().to_string())
                .ok_or_else(|| LowerError::at(op, "has no symbol"))?;
            if !symbol.starts_with("__nv_") {
                return Err(LowerError::at(
                    op,
                    format!("calls {symbol}: only libdevice functions (__nv_*) can be linked"),
                ));
            }
            return Ok(call_libdevice(l, &symbol, args, result_type));
        }
        _ => {}
    }
    if let Some(function) = libdevice_function(name, result_type) {
        return Ok(crate::ops::elementwise::call_libdevice(l, &function, args, result_type));
    }
    // Everything else in arith and math maps one to one onto scalars.
    let mut attributes: Vec<(&str, Attribute<'c>)> = attributes.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    if l.fp_fusion && matches!(name, "arith.addf" | "arith.subf" | "arith.mulf") {
        // Upstream compiles with LLVM's FP fusion on: multiply-adds become fma.
        attributes.retain(|(k, _)| *k != "fastmath");
        attributes.push(("fastmath", contract(l.context())));
    }
    Ok(l.b.op1(name, args, result_type, &attributes))
}

/// Hopper's `min.xorsign.abs` for `clampf(x, -limit, limit)`, as upstream:
/// min(|x|, |limit|) with x's sign (limit's sign bit is clear for a limit
/// that can bound anything) is the clamp in one instruction. The pattern is
/// upstream's: `-limit` is `0.0 - limit`, or both bounds are constants of
/// opposite value. The intrinsic's name, or None where it does not apply.
fn symmetric_clamp_intrinsic(capability: u32, op: &OperationRef, ty: Type, propagate_nan: bool) -> Option<String> {
    let suffix = match ty.to_string().as_str() {
        "f32" => "f",
        "f16" => "f16",
        _ => return None,
    };
    if capability < 90 {
        return None;
    }
    let clamp = ClampFOp::of(*op)?;
    let (low, high) = (clamp.min(), clamp.max());
    let negated_high = tritium_dialects::ir::defining_op(low).and_then(SubOp::of).is_some_and(|sub| {
        super::name_of(&sub) == "arith.subf" && sub.rhs() == high && float_constant(sub.lhs()) == Some(0.0)
    });
    let opposite_constants = matches!((float_constant(low), float_constant(high)), (Some(l), Some(h)) if l == -h);
    if !negated_high && !opposite_constants {
        return None;
    }
    let nan = if propagate_nan { ".nan" } else { "" };
    Some(format!("llvm.nvvm.fmin{nan}.xorsign.abs.{suffix}"))
}

/// The value of a float `arith.constant`, scalar or splat.
fn float_constant(value: melior::ir::Value) -> Option<f64> {
    let constant = tritium_dialects::ir::defining_op(value)?;
    if super::name_of(&constant) != "arith.constant" {
        return None;
    }
    let attribute = constant.attribute("value").ok()?;
    let element = tritium_dialects::ir::splat_value(attribute).unwrap_or(attribute);
    melior::ir::attribute::FloatAttribute::try_from(element).ok().map(|f| f.value())
}

/// `llvm.call_intrinsic "name"(args)`: an LLVM intrinsic the LLVM dialect
/// has no op for.
pub(crate) fn call_intrinsic<'c>(b: &crate::builder::Builder<'c>, name: &str, args: &[V], result: Type<'c>) -> V {
    let segments = melior::ir::attribute::DenseI32ArrayAttribute::new(b.context, &[args.len() as i32, 0]).into();
    let bundles = melior::ir::attribute::DenseI32ArrayAttribute::new(b.context, &[]).into();
    b.op1(
        "llvm.call_intrinsic",
        args,
        result,
        &[("intrin", b.str_attr(name)), ("operandSegmentSizes", segments), ("op_bundle_sizes", bundles)],
    )
}

/// `#arith.fastmath<contract>`: the multiply and add may fuse.
pub(crate) fn contract(context: &melior::Context) -> Attribute<'_> {
    Attribute::parse(context, "#arith.fastmath<contract>").expect("valid attribute")
}

/// libdevice implements the math functions that have no PTX instruction.
fn libdevice_function(name: &str, ty: Type) -> Option<String> {
    let base = match name {
        "math.sin" => "sin",
        "math.cos" => "cos",
        "math.tan" => "tan",
        "math.tanh" => "tanh",
        "math.erf" => "erf",
        "math.atan2" => "atan2",
        "math.powf" => "pow",
        "math.exp" => "exp",
        "math.log" => "log",
        "math.log2" => "log2",
        "math.exp2" => "exp2",
        "math.sqrt" => "sqrt",
        "math.rsqrt" => "rsqrt",
        "math.log1p" => "log1p",
        "math.expm1" => "expm1",
        "math.asin" => "asin",
        "math.acos" => "acos",
        "math.atan" => "atan",
        "math.sinh" => "sinh",
        "math.cosh" => "cosh",
        _ => return None,
    };
    match float_bits(ty) {
        Some(32) => Some(format!("__nv_{base}f")),
        Some(64) => Some(format!("__nv_{base}")),
        _ => None,
    }
}

/// Calls a libdevice function, declaring it in the module on first use.
pub fn call_libdevice<'c>(l: &mut Lowering<'c>, function: &str, args: &[V], result_type: Type<'c>) -> V {
    let arg_types: Vec<Type> = args.iter().map(|a| type_of(*a)).collect();
    crate::ops::elementwise::declare_function(l, function, &arg_types, result_type);
    let callee = melior::ir::attribute::FlatSymbolRefAttribute::new(l.context(), function);
    let segments = l.attr_i32_array(&[args.len() as i32, 0]);
    l.b.op1(
        "llvm.call",
        args,
        result_type,
        &[("callee", callee.into()), ("operandSegmentSizes", segments), ("op_bundle_sizes", l.attr_i32_array(&[]))],
    )
}

/// Declares `llvm.func @name(args) -> result` at module level, once.
pub fn declare_function<'c>(l: &mut Lowering<'c>, name: &str, args: &[Type<'c>], result: Type<'c>) {
    if !l.declared_functions.insert(name.to_string()) {
        return;
    }
    let function_type = melior::dialect::llvm::r#type::function(result, args, false);
    let context = l.context();
    let sym = l.b.str_attr(name);
    let ty = l.b.type_attr(function_type);
    // A declaration: an llvm.func whose one region is empty.
    let declaration = melior::ir::operation::OperationBuilder::new("llvm.func", l.b.location)
        .add_attributes(&[
            (melior::ir::Identifier::new(context, "sym_name"), sym),
            (melior::ir::Identifier::new(context, "function_type"), ty),
        ])
        .add_regions([melior::ir::Region::new()])
        .build()
        .expect("llvm.func declaration");
    let function = unsafe { OperationRef::from_raw(l.function_op) };
    function.block().expect("the kernel is in the module").insert_operation_before(function, declaration);
}

/// `arith.constant`: fp8 constants (no LLVM type) are `fp8`'s; the others
/// as [`constant`].
pub fn lower_constant<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    if super::fp8::is_fp8_constant(&op) {
        super::fp8::lower_constant(l, op)
    } else {
        constant(l, op)
    }
}

/// The registers of a non-splat dense tensor constant: register `i` holds
/// the element at its coordinates. Only where lanes and warps add nothing to
/// the coordinates (every thread holds the whole tensor, as upstream
/// requires), so that the registers are the same constants in every thread.
fn per_register_constants<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef,
    value: Attribute<'c>,
    layout: &crate::layout::TensorLayout,
    element_type: Type<'c>,
) -> Result<Vec<V>> {
    let is_zero = |bases: &[Vec<u32>]| bases.iter().all(|b| b.iter().all(|&x| x == 0));
    if !is_zero(&layout.lane_bases) || !is_zero(&layout.warp_bases) {
        return Err(LowerError::at(
            op,
            "a non-splat tensor constant is supported only in a layout where every thread holds all its elements",
        ));
    }
    layout
        .register_coords
        .iter()
        .map(|coords| {
            let index: Vec<u64> = coords.iter().map(|&c| u64::from(c)).collect();
            let element = tritium_dialects::ir::element_at(value, &index)
                .ok_or_else(|| LowerError::at(op, "a dense constant without an element at a register's coordinates"))?;
            Ok(l.in_prologue(|b| b.op1("arith.constant", &[], element_type, &[("value", element)])))
        })
        .collect()
}

/// `ub.poison` (the value of a function that returns nothing on some path):
/// LLVM's poison, in every register of a tensor.
pub fn lower_poison<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let result = op.result_at(0).map_err(|e| LowerError::at(&op, e.to_string()))?;
    let count =
        if result.r#type().is_ranked_tensor() { l.tensor_layout(&op, result.r#type())?.num_registers() } else { 1 };
    let element = l.lower_type(result.r#type());
    let value = l.b.op1("llvm.mlir.poison", &[], element, &[]);
    l.set_result(&op, 0, vec![value; count]);
    Ok(())
}

/// A non-fp8 `arith.constant`: scalars are copied; a splat tensor becomes
/// one scalar shared by all registers; other dense tensors, one constant per
/// register where every thread holds the same elements (see
/// [`per_register_constants`]).
fn constant<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let result = op.result_at(0).map_err(|e| LowerError::at(&op, e.to_string()))?;
    let value = op.attribute("value").map_err(|_| LowerError::at(&op, "has no value"))?;
    if !result.r#type().is_ranked_tensor() {
        let ty = result.r#type();
        let v = l.in_prologue(|b| b.op1("arith.constant", &[], ty, &[("value", value)]));
        l.set_result(&op, 0, vec![v]);
        return Ok(());
    }
    let layout = l.tensor_layout(&op, result.r#type())?;
    let element_type = ranked_tensor(result.r#type()).unwrap().element();
    let Some(splat) = tritium_dialects::ir::splat_value(value) else {
        let registers = per_register_constants(l, &op, value, &layout, element_type)?;
        l.set_result(&op, 0, registers);
        return Ok(());
    };
    let _ = float_attribute(splat);
    let v = l.in_prologue(|b| b.op1("arith.constant", &[], element_type, &[("value", splat)]));
    l.set_result(&op, 0, vec![v; layout.num_registers()]);
    Ok(())
}
