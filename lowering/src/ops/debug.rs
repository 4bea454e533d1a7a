//! tt.print and tt.assert, as upstream's PrintOpToLLVM and AssertOpToLLVM.
//!
//! A print is a `vprintf` per element the thread holds, with a format
//! string global (`printfFormat_N`): "pid (%u, %u, %u) idx (%3u, ...)" then
//! the prefix and the element; its arguments go in a stack buffer, floats
//! promoted to double and narrow integers to 32 bits, as C varargs are.
//! An assert calls `__assertfail(message, file, line, function, 1)` in the
//! threads where some element of the condition is false, then (for a
//! tensor) waits for the whole CTA, so that no thread runs on past a
//! failing one.
use crate::{
    builder::{type_of, Cursor, V},
    emit::{LowerError, Lowering, Result},
    ops::warp::{bit_width, if_then},
};
use melior::ir::{
    attribute::{FlatSymbolRefAttribute, StringAttribute},
    operation::OperationLike,
    Attribute, BlockLike, Location, OperationRef, Type, TypeLike, ValueLike,
};
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::AssertOp;

/// At most this many printf arguments reach the output (nvptx's limit).
const MAX_PRINTF_OPERANDS: usize = 32;

fn string_attribute(op: &OperationRef, name: &str) -> Option<String> {
    op.attribute(name).ok().and_then(tritium_dialects::access::string_attribute_value)
}

pub fn lower_print<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let prefix = string_attribute(&op, "prefix").unwrap_or_default();
    let hex = op.attribute("hex").is_ok_and(|a| a.to_string() == "true");
    let signed = crate::dense_i32_attribute(&op, "isSigned").unwrap_or_default();
    let pids: Vec<V> = (0..3).map(|axis| l.program_id(axis, false)).collect();
    let pid_format = "pid (%u, %u, %u)";
    if op.operand_count() == 0 {
        let format = format!("{pid_format}{prefix}");
        let global = format_string(l, &format);
        return printf(l, global, &pids, false);
    }
    let operands = op.operand_count();
    for i in 0..operands {
        let is_signed = signed.get(i).is_some_and(|s| *s > 0);
        let registers = l.operand(&op, i)?;
        let ty = op.operand_at(i).unwrap().r#type();
        // The element's coordinates, and the digits each needs.
        let (indices, widths): (Vec<Vec<V>>, Vec<usize>) = if ty.is_ranked_tensor() {
            let layout = l.tensor_layout(&op, ty)?;
            let indices = (0..layout.num_registers())
                .map(|r| (0..layout.rank()).map(|d| l.coordinate(&layout, r, d)).collect())
                .collect();
            let widths =
                layout.shape.iter().map(|d| if *d > 0 { (*d as f64).log10().ceil() as usize } else { 0 }).collect();
            (indices, widths)
        } else {
            (vec![Vec::new()], Vec::new())
        };
        let element_format = element_format(type_of(registers[0]), hex, is_signed)
            .ok_or_else(|| LowerError::at(&op, format!("cannot print values of type {}", type_of(registers[0]))))?;
        // One format for all the elements of this operand.
        let max_rank = MAX_PRINTF_OPERANDS - pids.len() - 2;
        let mut format = format!("{pid_format} idx (");
        for (d, width) in widths.iter().enumerate() {
            if d != 0 {
                format += ", ";
            }
            if d == max_rank {
                format += "... (truncated)";
                break;
            }
            format += &format!("%{width}u");
        }
        format += ")";
        format += &prefix;
        if operands > 1 {
            format += &format!("(operand {i}) ");
        }
        format += &element_format;
        let global = format_string(l, &format);
        for (register, index) in registers.iter().zip(&indices) {
            let mut arguments = pids.clone();
            arguments.extend(index.iter().take(max_rank));
            arguments.push(*register);
            printf(l, global, &arguments, is_signed)?;
        }
    }
    Ok(())
}

/// The printf conversion of one element (upstream's getFormatSubstr).
fn element_format(ty: Type, hex: bool, signed: bool) -> Option<String> {
    let text = ty.to_string();
    if text.starts_with("!llvm.ptr") {
        return Some("%p".into());
    }
    let bits = bit_width(ty)?;
    if hex {
        return Some(format!("0x%0{}{}x", bits / 4, if bits > 32 { "ll" } else { "" }));
    }
    Some(match text.as_str() {
        "f16" | "bf16" | "f32" | "f64" => "%f".into(),
        _ if bits == 64 => (if signed { "%lli" } else { "%llu" }).into(),
        _ => (if signed { "%i" } else { "%u" }).into(),
    })
}

/// The format string as a global, `\n`-terminated.
fn format_string<'c>(l: &mut Lowering<'c>, format: &str) -> V {
    string_global(l, "printfFormat_", &format!("{format}\n"))
}

/// `vprintf(format, &{arguments...})`, the arguments promoted as varargs.
fn printf<'c>(l: &mut Lowering<'c>, format: V, arguments: &[V], signed: bool) -> Result<()> {
    let promoted: Vec<V> = arguments.iter().map(|a| promote(l, *a, signed)).collect();
    let pointer = l.b.ptr(0);
    let buffer = if promoted.is_empty() {
        l.b.op1("llvm.mlir.zero", &[], pointer, &[])
    } else {
        let types: Vec<Type> = promoted.iter().map(|v| type_of(*v)).collect();
        let buffer_type = melior::dialect::llvm::r#type::r#struct(l.context(), &types, false);
        let buffer = entry_alloca(l, buffer_type);
        for (i, v) in promoted.iter().enumerate() {
            let indices = l.attr_i32_array(&[0, i as i32]);
            let field = l.b.op1(
                "llvm.getelementptr",
                &[buffer],
                pointer,
                &[("rawConstantIndices", indices), ("elem_type", l.b.type_attr(buffer_type))],
            );
            l.b.op("llvm.store", &[*v, field], &[], &[]);
        }
        buffer
    };
    let i32 = l.b.i32();
    declare(l, "vprintf", &[pointer, pointer], Some(i32), false);
    call(l, "vprintf", &[format, buffer], Some(i32));
    Ok(())
}

/// C's default argument promotions, as upstream's printfPromoteValue.
fn promote<'c>(l: &mut Lowering<'c>, v: V, signed: bool) -> V {
    let ty = type_of(v);
    let text = ty.to_string();
    match text.as_str() {
        "f16" | "bf16" | "f32" => {
            let f64 = Type::float64(l.context());
            l.b.op1("arith.extf", &[v], f64, &[])
        }
        _ if text.starts_with('i') && bit_width(ty).is_some_and(|b| b < 32) => {
            let i32 = l.b.i32();
            l.b.op1(if signed { "arith.extsi" } else { "arith.extui" }, &[v], i32, &[])
        }
        _ => v,
    }
}

/// A stack slot in the function's entry block, so that it is allocated once
/// whatever loop the print sits in.
fn entry_alloca<'c>(l: &mut Lowering<'c>, ty: Type<'c>) -> V {
    let one = l.b.i32_const(1);
    let pointer = l.b.ptr(0);
    let saved = l.b.cursor;
    if let Some(anchor) = l.b.constant_anchor {
        l.b.cursor = Cursor::Before(anchor);
    }
    let slot = l.b.op1("llvm.alloca", &[one], pointer, &[("elem_type", l.b.type_attr(ty))]);
    l.b.cursor = saved;
    slot
}

pub fn lower_assert<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let message = string_attribute(&op, "message").unwrap_or_default();
    let conditions = l.operand(&op, 0)?;
    // Fails where any element this thread holds is false.
    let mut failed: Option<V> = None;
    for c in &conditions {
        let zero = l.b.int(type_of(*c), 0);
        let false_here = l.b.icmp(0, *c, zero);
        failed = Some(match failed {
            None => false_here,
            Some(f) => l.b.or(f, false_here),
        });
    }
    let failed = failed.ok_or_else(|| LowerError::at(&op, "has no condition"))?;
    assert_fail_if(l, failed, &message, op.location())?;
    // Tensors of different layouts may follow: every thread must be past
    // the assert before any goes on.
    if crate::ops::view(op, AssertOp::of)?.condition().r#type().is_ranked_tensor() {
        l.b.barrier();
    }
    Ok(())
}

/// Calls `__assertfail(message, file, line, "unknown", 1)` where `failed`
/// holds; the file and line are `location`'s innermost source position
/// (upstream follows call sites to their callee and names to their child).
pub(crate) fn assert_fail_if<'c>(l: &mut Lowering<'c>, failed: V, message: &str, location: Location<'c>) -> Result<()> {
    let (file, line) = tritium_dialects::ir::file_and_line(location).unwrap_or_else(|| ("unknown".into(), 0));
    if_then(l, failed, &[], |l| {
        let message = string_global(l, "assertMessage_", message);
        let file = string_global(l, "assertFile_", &file);
        let function = string_global(l, "assertFunc_", "unknown");
        let line = l.b.i32_const(line as i64);
        let i64 = l.b.i64();
        let char_size = l.b.int(i64, 1);
        let pointer = l.b.ptr(0);
        let i32 = l.b.i32();
        declare(l, "__assertfail", &[pointer, pointer, i32, pointer, i64], None, true);
        call(l, "__assertfail", &[message, file, line, function, char_size], None);
        Ok(Vec::new())
    })?;
    Ok(())
}

/// A NUL-terminated constant string global `<prefix><n>` (n: the first free
/// number), and its address.
fn string_global<'c>(l: &mut Lowering<'c>, prefix: &str, text: &str) -> V {
    let function = unsafe { OperationRef::from_raw(l.function_op) };
    let module_block = function.block().expect("the kernel is in a module");
    let mut count = 0;
    let mut next = module_block.first_operation();
    while let Some(o) = next {
        if o.attribute("sym_name")
            .ok()
            .and_then(tritium_dialects::access::string_attribute_value)
            .is_some_and(|s| s.starts_with(prefix))
        {
            count += 1;
        }
        next = o.next_in_block();
    }
    let name = format!("{prefix}{count}");
    let bytes = format!("{text}\0");
    let i8 = l.b.int_type(8);
    let array = melior::dialect::llvm::r#type::array(i8, bytes.len() as u32);
    let context = l.context();
    let unit = Attribute::unit(context);
    let linkage =
        melior::dialect::llvm::attributes::linkage(context, melior::dialect::llvm::attributes::Linkage::Internal);
    let global = melior::ir::operation::OperationBuilder::new("llvm.mlir.global", l.b.location)
        .add_attributes(&[
            (melior::ir::Identifier::new(context, "global_type"), l.b.type_attr(array)),
            (melior::ir::Identifier::new(context, "sym_name"), l.b.str_attr(&name)),
            (melior::ir::Identifier::new(context, "linkage"), linkage),
            (melior::ir::Identifier::new(context, "constant"), unit),
            (melior::ir::Identifier::new(context, "value"), StringAttribute::new(context, &bytes).into()),
            (melior::ir::Identifier::new(context, "addr_space"), l.b.int_attr(l.b.i32(), 0)),
        ])
        .add_regions([melior::ir::Region::new()])
        .build()
        .expect("string global");
    module_block.insert_operation_before(function, global);
    let pointer = l.b.ptr(0);
    l.b.op1("llvm.mlir.addressof", &[], pointer, &[("global_name", FlatSymbolRefAttribute::new(context, &name).into())])
}

/// Declares `llvm.func @name(arguments) -> result` once.
fn declare<'c>(l: &mut Lowering<'c>, name: &str, arguments: &[Type<'c>], result: Option<Type<'c>>, no_return: bool) {
    if !l.declared_functions.insert(name.to_string()) {
        return;
    }
    let context = l.context();
    let result = result.unwrap_or_else(|| melior::dialect::llvm::r#type::void(context));
    let function_type = melior::dialect::llvm::r#type::function(result, arguments, false);
    let mut attributes = vec![("sym_name", l.b.str_attr(name)), ("function_type", l.b.type_attr(function_type))];
    if no_return {
        attributes.push(("passthrough", Attribute::parse(context, "[\"noreturn\"]").expect("passthrough")));
    }
    let attributes: Vec<_> =
        attributes.into_iter().map(|(k, v)| (melior::ir::Identifier::new(context, k), v)).collect();
    let declaration = melior::ir::operation::OperationBuilder::new("llvm.func", l.b.location)
        .add_attributes(&attributes)
        .add_regions([melior::ir::Region::new()])
        .build()
        .expect("function declaration");
    let function = unsafe { OperationRef::from_raw(l.function_op) };
    function.block().expect("the kernel is in a module").insert_operation_before(function, declaration);
}

fn call<'c>(l: &mut Lowering<'c>, name: &str, arguments: &[V], result: Option<Type<'c>>) {
    let callee = FlatSymbolRefAttribute::new(l.context(), name);
    let attributes = [
        ("callee", callee.into()),
        ("operandSegmentSizes", l.attr_i32_array(&[arguments.len() as i32, 0])),
        ("op_bundle_sizes", l.attr_i32_array(&[])),
    ];
    let results: Vec<Type> = result.into_iter().collect();
    l.b.op("llvm.call", arguments, &results, &attributes);
}
