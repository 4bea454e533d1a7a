//! Pointer arithmetic, loads and stores of global memory, one register at a
//! time with predicated PTX (as upstream Triton emits it).
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
};
use melior::ir::{operation::OperationLike, OperationRef, Type, TypeLike, ValueLike};
use tritium_dialects::types;

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, name: &str) -> Result<()> {
    match name {
        "tt.addptr" => addptr(l, op),
        "tt.load" => load(l, op),
        "tt.store" => store(l, op),
        _ => Err(LowerError::at(&op, "atomics are not supported by the lowering yet")),
    }
}

/// The element type a (tensor of) pointer(s) points to, lowered.
fn pointee<'c>(l: &Lowering<'c>, op: &OperationRef, ty: Type<'c>) -> Result<Type<'c>> {
    let element = melior::ir::r#type::RankedTensorType::try_from(ty).map(|t| {
        use melior::ir::r#type::ShapedTypeLike;
        t.element()
    }).unwrap_or(ty);
    let (pointee, _) = types::pointer_parts(element).ok_or_else(|| LowerError::at(op, format!("{ty} is not a pointer")))?;
    if pointee.is_ranked_tensor() {
        return Err(LowerError::at(op, "block pointers must be rewritten first (triton-rewrite-tensor-pointer)"));
    }
    Ok(l.lower_type(pointee))
}

fn registers_of<'c>(l: &mut Lowering<'c>, op: &OperationRef<'c, '_>, index: usize) -> Result<Vec<V>> {
    l.operand(op, index)
}

fn addptr<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let element = pointee(l, &op, op.result(0).unwrap().r#type())?;
    let (pointers, offsets) = (registers_of(l, &op, 0)?, registers_of(l, &op, 1)?);
    if pointers.len() != offsets.len() {
        return Err(LowerError::at(&op, "pointer and offset are distributed differently"));
    }
    let result = pointers.iter().zip(&offsets).map(|(p, o)| l.b.gep(*p, *o, element)).collect();
    l.set_result(&op, 0, result);
    Ok(())
}

/// PTX register class, width suffix and integer type of an element type.
fn access<'c>(l: &Lowering<'c>, op: &OperationRef, ty: Type<'c>) -> Result<(&'static str, u32, Type<'c>)> {
    let bits = if ty.to_string().starts_with("!llvm.ptr") {
        64
    } else {
        match ty.to_string().as_str() {
            "f32" | "i32" => 32,
            "f16" | "bf16" | "i16" => 16,
            "f64" | "i64" => 64,
            _ => return Err(LowerError::at(op, format!("loads and stores of {ty} are not supported yet"))),
        }
    };
    let class = match bits {
        16 => "h",
        32 => "r",
        _ => "l",
    };
    Ok((class, bits, l.b.int_type(bits)))
}

/// Converts between an element and the integer of the same width that PTX
/// moves.
fn to_bits<'c>(l: &Lowering<'c>, v: V, bits_type: Type<'c>) -> V {
    let ty = type_of(v);
    if ty == bits_type {
        v
    } else if ty.to_string().starts_with("!llvm.ptr") {
        l.b.op1("llvm.ptrtoint", &[v], bits_type, &[])
    } else {
        l.b.op1("llvm.bitcast", &[v], bits_type, &[])
    }
}

fn from_bits<'c>(l: &Lowering<'c>, v: V, ty: Type<'c>) -> V {
    if type_of(v) == ty {
        v
    } else if ty.to_string().starts_with("!llvm.ptr") {
        l.b.op1("llvm.inttoptr", &[v], ty, &[])
    } else {
        l.b.op1("llvm.bitcast", &[v], ty, &[])
    }
}

fn load<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let result_type = op.result(0).unwrap().r#type();
    let element = l.lower_type(result_type);
    let (class, bits, bits_type) = access(l, &op, element)?;
    let pointers = registers_of(l, &op, 0)?;
    // Operands: ptr, then the optional mask, then `other` (which needs a mask).
    let has_mask = op.operand_count() >= 2;
    let has_other = op.operand_count() >= 3;
    let masks = if has_mask { Some(registers_of(l, &op, 1)?) } else { None };
    let others = if has_other { Some(registers_of(l, &op, 2)?) } else { None };
    let volatile = op.attribute("isVolatile").map(|a| a.to_string() == "true").unwrap_or(false);
    let instruction = format!("ld.global{}.b{bits}", if volatile { ".volatile" } else { "" });
    let mut result = Vec::with_capacity(pointers.len());
    for (i, pointer) in pointers.iter().enumerate() {
        let loaded = match (&masks, &others) {
            (None, _) => {
                let asm = format!("{instruction} {{ $0 }}, [ $1 + 0 ];");
                l.b.inline_asm(&asm, &format!("={class},l"), &[*pointer], Some(bits_type)).unwrap()
            }
            (Some(masks), None) => {
                let asm = format!("mov.b{bits} $0, 0;\n\t@$2 {instruction} {{ $0 }}, [ $1 + 0 ];");
                l.b.inline_asm(&asm, &format!("={class},l,b"), &[*pointer, masks[i]], Some(bits_type)).unwrap()
            }
            (Some(masks), Some(others)) => {
                let other = to_bits(l, others[i], bits_type);
                let asm = format!("mov.b{bits} $0, $3;\n\t@$2 {instruction} {{ $0 }}, [ $1 + 0 ];");
                l.b.inline_asm(&asm, &format!("={class},l,b,{class}"), &[*pointer, masks[i], other], Some(bits_type)).unwrap()
            }
        };
        result.push(from_bits(l, loaded, element));
    }
    l.set_result(&op, 0, result);
    Ok(())
}

fn store<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pointer_type = op.operand(0).unwrap().r#type();
    let pointers = registers_of(l, &op, 0)?;
    let values = registers_of(l, &op, 1)?;
    let masks = if op.operand_count() >= 3 { Some(registers_of(l, &op, 2)?) } else { None };
    let element = type_of(values[0]);
    let (class, bits, bits_type) = access(l, &op, element)?;
    // Only one of the threads (and registers) holding an element stores it.
    let layout = if pointer_type.is_ranked_tensor() { Some(l.tensor_layout(&op, pointer_type)?) } else { None };
    let owner = match &layout {
        Some(layout) => owner_predicate(l, layout.free_lane_mask(), layout.free_warp_mask()),
        None => {
            let zero = l.b.i32_const(0);
            let tid = l.tid;
            Some(l.in_prologue(|b| b.icmp(0, tid, zero)))
        }
    };
    for (i, pointer) in pointers.iter().enumerate() {
        if layout.as_ref().is_some_and(|layout| layout.is_duplicate_register(i)) {
            continue;
        }
        let value = to_bits(l, values[i], bits_type);
        let predicate = match (&masks, owner) {
            (Some(m), Some(o)) => Some(l.b.and(m[i], o)),
            (Some(m), None) => Some(m[i]),
            (None, o) => o,
        };
        match predicate {
            Some(p) => {
                let asm = format!("@$2 st.global.b{bits} [ $0 + 0 ], {{ $1 }};");
                l.b.inline_asm(&asm, &format!("l,{class},b"), &[*pointer, value, p], None);
            }
            None => {
                let asm = format!("st.global.b{bits} [ $0 + 0 ], {{ $1 }};");
                l.b.inline_asm(&asm, &format!("l,{class}"), &[*pointer, value], None);
            }
        }
    }
    Ok(())
}

/// True in the one thread among those that hold the same elements (the lanes
/// and warps whose ids differ only in bits the layout ignores).
pub fn owner_predicate(l: &mut Lowering, free_lanes: u32, free_warps: u32) -> Option<V> {
    if free_lanes == 0 && free_warps == 0 {
        return None;
    }
    let (lane, warp) = (l.lane, l.warp);
    Some(l.in_prologue(|b| {
        let zero = b.i32_const(0);
        let mut conditions = Vec::new();
        for (id, mask) in [(lane, free_lanes), (warp, free_warps)] {
            if mask != 0 {
                let m = b.i32_const(mask as i64);
                let bits = b.and(id, m);
                conditions.push(b.icmp(0, bits, zero));
            }
        }
        conditions.into_iter().reduce(|a, c| b.and(a, c)).unwrap()
    }))
}
