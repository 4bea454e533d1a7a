//! `tt.elementwise_inline_asm`: the PTX string runs once per
//! `packed_element` elements of each thread (in register order), as
//! upstream's lowering runs it; a thread whose element count is not a
//! multiple of `packed_element` pads its operands with undef for the last
//! call and drops the padding's results, as upstream does. Operands narrower than 32 bits are packed
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
    // A thread with fewer elements than a pack (or a count that is not a
    // multiple of it) runs the asm on operands padded with undef, and drops
    // the padding's results, as upstream does.
    let padded = count.div_ceil(packed) * packed;
    let mut operands = Vec::new();
    for i in 0..op.operand_count() {
        let registers = l.operand(&op, i)?;
        let mut registers = match registers.len() {
            n if n == count => registers,
            1 => vec![registers[0]; count],
            _ => return Err(LowerError::at(&op, "operands and results are distributed differently")),
        };
        if padded > count {
            let undef = l.b.op1("llvm.mlir.undef", &[], type_of(registers[0]), &[]);
            registers.resize(padded, undef);
        }
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
    // The width of each register the asm call returns and takes.
    let output_widths: Vec<u32> = result_types
        .iter()
        .flat_map(|ty| {
            let n = per_register(*ty, packed);
            std::iter::repeat_n(n as u32 * bits(*ty), packed / n)
        })
        .collect();
    let input_widths: Vec<u32> = operands
        .iter()
        .flat_map(|registers| {
            let ty = type_of(registers[0]);
            let n = per_register(ty, packed);
            std::iter::repeat_n(n as u32 * bits(ty), packed / n)
        })
        .collect();
    let argument_count = input_widths.len();
    check_constraints(&op, &constraints, packed, &output_widths, &input_widths)?;
    let constraints: String = constraints.split(',').map(str::trim).collect::<Vec<_>>().join(",");
    check_operand_references(&op, &asm, return_types.len() + argument_count)?;
    let return_type = match return_types.len() {
        0 => None,
        1 => Some(return_types[0]),
        _ => Some(melior::dialect::llvm::r#type::r#struct(l.context(), &return_types, false)),
    };
    let mut results: Vec<Vec<V>> = vec![Vec::with_capacity(padded); result_types.len()];
    for start in (0..padded).step_by(packed) {
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
    for (r, mut registers) in results.into_iter().enumerate() {
        registers.truncate(count);
        l.set_result(&op, r, registers);
    }
    Ok(())
}

/// One entry of a constraint string, as [`check_constraints`] accepts it.
#[derive(Debug, PartialEq)]
enum Constraint {
    /// `=r`, `=&r`: an output register of that letter's class.
    Output { letter: char, early_clobber: bool },
    /// `r`: an input register.
    Input(char),
    /// `0`: an input in the same register as output 0.
    Tied(usize),
    /// `~{memory}`: something the asm changes besides its outputs.
    Clobber,
}

/// The bits of the NVPTX register class a constraint letter names (`c` is
/// a byte, `b` a predicate).
fn register_width(letter: char) -> Option<u32> {
    match letter {
        'b' => Some(1),
        'c' => Some(8),
        'h' => Some(16),
        'r' | 'f' => Some(32),
        'l' | 'd' => Some(64),
        _ => None,
    }
}

fn parse_constraint(entry: &str) -> Option<Constraint> {
    let single_letter = |text: &str| {
        let mut chars = text.chars();
        let letter = chars.next()?;
        (chars.next().is_none() && register_width(letter).is_some()).then_some(letter)
    };
    if let Some(output) = entry.strip_prefix('=') {
        let (early_clobber, letter) = match output.strip_prefix('&') {
            Some(rest) => (true, rest),
            None => (false, output),
        };
        return single_letter(letter).map(|letter| Constraint::Output { letter, early_clobber });
    }
    if let Some(name) = entry.strip_prefix("~{").and_then(|rest| rest.strip_suffix('}')) {
        let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "_%.".contains(c));
        return valid.then_some(Constraint::Clobber);
    }
    if !entry.is_empty() && entry.len() <= 3 && entry.chars().all(|c| c.is_ascii_digit()) {
        return entry.parse().ok().map(Constraint::Tied);
    }
    single_letter(entry).map(Constraint::Input)
}

/// The user's constraint string goes to LLVM's code generator as it is, and
/// LLVM (a release build, without its assertions) trusts it: a constraint
/// string that does not match the call crashed NVPTX instruction selection
/// (segfaults in `SelectionDAGBuilder::visitInlineAsm` and the peephole
/// optimiser: an empty entry as in `"=r,r,"`, an input tied to an output that
/// does not exist or is tied twice, `=m`), stopped the process with
/// `exit(1)` (`i`, `n`, `X`, unknown letters), or aborted it (`{r1}`, "Copy
/// one register into another with a different width"). So it is checked
/// here against the call: outputs (`=r`, `=&r`), then inputs (a letter, or
/// the number of an output to share its register), then clobbers
/// (`~{memory}`), one letter each of the register classes `b` (1 bit), `c`
/// (8), `h` (16), `r`, `f` (32), `l`, `d` (64), whose width must be the
/// register's: one output per returned register and one input per argument
/// register. Anything else is a located error.
fn check_constraints(
    op: &OperationRef,
    constraints: &str,
    packed: usize,
    outputs: &[u32],
    inputs: &[u32],
) -> Result<()> {
    let fail = |message: String| Err(LowerError::at(op, format!("constraints \"{constraints}\": {message}")));
    let mut parsed = Vec::new();
    // Spaces around an entry are not part of it (upstream's test_core writes "=r,r, r, r").
    for entry in constraints.split(',').map(str::trim) {
        match parse_constraint(entry) {
            Some(constraint) => parsed.push(constraint),
            None => {
                return fail(format!(
                    "'{entry}' is not a constraint Tritium passes to LLVM (outputs '=r' or '=&r', inputs 'r' or an \
                     output's number, clobbers '~{{memory}}'; register letters b, c, h, r, f, l, d)"
                ))
            }
        }
    }
    // LLVM's order: outputs, then inputs, then clobbers.
    let rank = |c: &Constraint| match c {
        Constraint::Output { .. } => 0,
        Constraint::Input(_) | Constraint::Tied(_) => 1,
        Constraint::Clobber => 2,
    };
    if parsed.windows(2).any(|pair| rank(&pair[0]) > rank(&pair[1])) {
        return fail("outputs must come first, then inputs, then clobbers".into());
    }
    let named_outputs: Vec<&Constraint> = parsed.iter().filter(|c| rank(c) == 0).collect();
    let named_inputs: Vec<&Constraint> = parsed.iter().filter(|c| rank(c) == 1).collect();
    if named_outputs.len() != outputs.len() || named_inputs.len() != inputs.len() {
        return Err(LowerError::at(
            op,
            format!(
                "constraints \"{constraints}\" name {} output and {} input registers, but with packed_element \
                 {packed} the asm has {} output and {} input registers (elements narrower than 32 bits share a \
                 register)",
                named_outputs.len(),
                named_inputs.len(),
                outputs.len(),
                inputs.len()
            ),
        ));
    }
    let width_of = |letter: char| register_width(letter).unwrap_or(0);
    // A value fits a register class as wide as it or, for integers of 8 and 16 bits, a wider
    // integer class (`=r` for an i8 result: upstream's test_inline_asm_with_pointers; LLVM
    // extends and truncates); a value wider than its class crashed LLVM's code generator.
    let fits = |width: u32, letter: char| {
        width == width_of(letter)
            || (matches!(width, 8 | 16) && matches!(letter, 'h' | 'r' | 'l') && width < width_of(letter))
    };
    for (index, (constraint, width)) in named_outputs.iter().zip(outputs).enumerate() {
        if let Constraint::Output { letter, .. } = constraint {
            if !fits(*width, *letter) {
                return fail(format!(
                    "output {index} is a {width}-bit register, '{letter}' names {}-bit ones",
                    width_of(*letter)
                ));
            }
        }
    }
    let mut tied = vec![false; outputs.len()];
    for (index, (constraint, width)) in named_inputs.iter().zip(inputs).enumerate() {
        match constraint {
            Constraint::Input(letter) if !fits(*width, *letter) => {
                return fail(format!(
                    "input {index} is a {width}-bit register, '{letter}' names {}-bit ones",
                    width_of(*letter)
                ));
            }
            Constraint::Tied(output) => {
                let Some(Constraint::Output { early_clobber, .. }) = named_outputs.get(*output) else {
                    return fail(format!("input {index} shares the register of output {output}, which does not exist"));
                };
                if *early_clobber || tied[*output] || outputs[*output] != *width {
                    return fail(format!(
                        "input {index} cannot share the register of output {output} (an early-clobber output, \
                         one another input shares already, or of another width)"
                    ));
                }
                tied[*output] = true;
            }
            _ => {}
        }
    }
    Ok(())
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
