//! `tt.elementwise_inline_asm`: the PTX string runs once per
//! `packed_element` elements of each thread (in register order), as
//! upstream's lowering runs it. Operands narrower than 32 bits are packed
//! into vectors of up to 32 bits (so that `$1` is, e.g., a pair of f16 in
//! one `.b32` register), results likewise; several results, or several
//! 32-bit groups of one result, come back as a struct. A scalar result with
//! no operands (as `tl.extra.cuda.gdc_wait` makes) is one call.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
};
use melior::ir::{
    attribute::DenseI64ArrayAttribute, operation::OperationLike, Attribute, OperationRef, Type, TypeLike, ValueLike,
};

fn string_attribute(op: &OperationRef, name: &str) -> Result<String> {
    // Not melior's StringAttribute::value: it panics on an empty string.
    op.attribute(name)
        .ok()
        .and_then(tritium_dialects::access::string_attribute_value)
        .ok_or_else(|| LowerError::at(op, format!("has no {name}")))
}

/// Bits of one element in a register (pointers are 64-bit).
fn bits(ty: Type) -> u32 {
    let text = ty.to_string();
    match text.as_str() {
        "f16" | "bf16" => 16,
        "f32" => 32,
        "f64" => 64,
        _ if text.starts_with('i') => text[1..].parse().unwrap_or(64),
        _ => 64,
    }
}

/// How many elements share one register: as many as fit in 32 bits, at most `packed`.
fn per_register(ty: Type, packed: usize) -> usize {
    ((32 / bits(ty).max(1)).max(1) as usize).min(packed)
}

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let asm = string_attribute(&op, "asm_string")?;
    let constraints = string_attribute(&op, "constraints")?;
    let pure = op.attribute("pure").is_ok_and(|a| a.to_string() == "true");
    let packed = crate::int_attribute(&op, "packed_element").unwrap_or(1).max(1) as usize;
    // Elements per thread: those of the tensors (operands and results share a layout).
    let mut count = 1;
    for ty in op.results().map(|r| r.r#type()).chain(op.operands().map(|o| o.r#type())) {
        if ty.is_ranked_tensor() {
            count = l.tensor_layout(&op, ty)?.num_registers();
            break;
        }
    }
    if count % packed != 0 {
        return Err(LowerError::at(
            &op,
            format!("{count} elements per thread are not a multiple of packed_element {packed}"),
        ));
    }
    let mut operands = Vec::new();
    for i in 0..op.operand_count() {
        let registers = l.operand(&op, i)?;
        let registers = match registers.len() {
            n if n == count => registers,
            1 => vec![registers[0]; count],
            _ => return Err(LowerError::at(&op, "operands and results are distributed differently")),
        };
        operands.push(registers);
    }
    let result_types: Vec<Type<'c>> = op.results().map(|r| l.lower_type(r.r#type())).collect();
    // The asm's return types: per result, packed / per_register values.
    let mut return_types = Vec::new();
    for ty in &result_types {
        let n = per_register(*ty, packed);
        let register = if n > 1 { vector_type(l, *ty, n) } else { *ty };
        return_types.extend(std::iter::repeat_n(register, packed / n));
    }
    let argument_count: usize =
        operands.iter().map(|registers| packed / per_register(type_of(registers[0]), packed)).sum();
    check_constraints(&op, &constraints, packed, return_types.len(), argument_count)?;
    check_operand_references(&op, &asm, return_types.len() + argument_count)?;
    let return_type = match return_types.len() {
        0 => None,
        1 => Some(return_types[0]),
        _ => Some(melior::dialect::llvm::r#type::r#struct(l.context(), &return_types, false)),
    };
    let mut results: Vec<Vec<V>> = vec![Vec::with_capacity(count); result_types.len()];
    for start in (0..count).step_by(packed) {
        let mut arguments = Vec::new();
        for registers in &operands {
            let ty = type_of(registers[0]);
            let n = per_register(ty, packed);
            for j in (0..packed).step_by(n) {
                if n == 1 {
                    arguments.push(registers[start + j]);
                    continue;
                }
                let vector = vector_type(l, ty, n);
                let mut value = l.b.op1("llvm.mlir.undef", &[], vector, &[]);
                for k in 0..n {
                    let position = l.b.i32_const(k as i64);
                    value = l.b.op1("llvm.insertelement", &[value, registers[start + j + k], position], vector, &[]);
                }
                arguments.push(value);
            }
        }
        let unit = Attribute::unit(l.context());
        let mut attributes = vec![
            ("asm_string", l.b.str_attr(&asm)),
            ("constraints", l.b.str_attr(&constraints)),
            ("asm_dialect", l.b.att_asm_dialect()),
        ];
        if !pure {
            attributes.push(("has_side_effects", unit));
        }
        let returned: Vec<Type> = return_type.into_iter().collect();
        let value = l.b.op("llvm.inline_asm", &arguments, &returned, &attributes).first().copied();
        let mut field = 0;
        for (r, ty) in result_types.iter().enumerate() {
            let n = per_register(*ty, packed);
            for _ in 0..packed / n {
                let value = value.expect("a result");
                let part = if return_types.len() > 1 {
                    let position = DenseI64ArrayAttribute::new(l.context(), &[field as i64]).into();
                    l.b.op1("llvm.extractvalue", &[value], return_types[field], &[("position", position)])
                } else {
                    value
                };
                field += 1;
                if n == 1 {
                    results[r].push(part);
                } else {
                    for k in 0..n {
                        let position = l.b.i32_const(k as i64);
                        results[r].push(l.b.op1("llvm.extractelement", &[part, position], *ty, &[]));
                    }
                }
            }
        }
    }
    for (r, registers) in results.into_iter().enumerate() {
        l.set_result(&op, r, registers);
    }
    Ok(())
}

/// LLVM's code generator takes an inline-asm call whose constraint string
/// names another number of outputs or inputs than the call has for granted
/// (NVPTX instruction selection crashes on it), so it is checked here: one
/// output constraint (`=r`, `=&r`) per returned register, one input
/// constraint per argument register, clobbers (`~{...}`) aside.
fn check_constraints(op: &OperationRef, constraints: &str, packed: usize, outputs: usize, inputs: usize) -> Result<()> {
    let entries: Vec<&str> = constraints.split(',').map(str::trim).filter(|c| !c.is_empty()).collect();
    let named_outputs = entries.iter().filter(|c| c.starts_with('=')).count();
    let named_inputs = entries.iter().filter(|c| !c.starts_with('=') && !c.starts_with('~')).count();
    if named_outputs == outputs && named_inputs == inputs {
        return Ok(());
    }
    Err(LowerError::at(
        op,
        format!(
            "constraints \"{constraints}\" name {named_outputs} output and {named_inputs} input registers, \
             but with packed_element {packed} the asm has {outputs} output and {inputs} input registers \
             (elements narrower than 32 bits share a register)"
        ),
    ))
}

/// LLVM's asm printer aborts the process ("Bad $ operand number in inline
/// asm string", a fatal error) on a `$` that names no operand, so the asm
/// string is checked here with its rules: `$$` is a `$`; `$(`, `$|` and `$)`
/// mark dialect variants; `$N` and `${N}` / `${N:modifier}` name operand N,
/// which must be one of the call's `operands` (outputs first, then inputs).
fn check_operand_references(op: &OperationRef, asm: &str, operands: usize) -> Result<()> {
    let bytes = asm.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        let rest = &asm[i + 1..];
        let (digits, used) = match rest.as_bytes().first() {
            Some(b'$' | b'(' | b'|' | b')') => {
                i += 2;
                continue;
            }
            Some(b'{') => {
                let inner = rest[1..].split('}').next().filter(|_| rest[1..].contains('}')).unwrap_or("");
                let number = inner.split(':').next().unwrap_or("");
                (number, inner.len() + 2)
            }
            _ => {
                let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
                (&rest[..end], end)
            }
        };
        match digits.parse::<usize>() {
            Ok(n) if n < operands && !digits.is_empty() => {}
            Ok(n) => {
                return Err(LowerError::at(
                    op,
                    format!(
                        "the asm string names operand ${n}, but the asm has {operands} operands ($0 to ${})",
                        operands.max(1) - 1
                    ),
                ))
            }
            Err(_) => {
                let shown: String = asm[i..].chars().take(12).collect();
                return Err(LowerError::at(
                    op,
                    format!("the asm string has a '$' that names no operand at \"{shown}\" (write $$ for a '$')"),
                ));
            }
        }
        i += 1 + used;
    }
    Ok(())
}

fn vector_type<'c>(l: &Lowering<'c>, element: Type<'c>, n: usize) -> Type<'c> {
    Type::parse(l.context(), &format!("vector<{n}x{element}>")).expect("a vector type")
}
