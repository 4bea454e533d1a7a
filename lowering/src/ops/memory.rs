//! Pointer arithmetic, loads and stores of global memory, one register at a
//! time with predicated PTX (as upstream Triton emits it).
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::TensorLayout,
};
use melior::ir::{operation::OperationLike, OperationRef, Type, TypeLike, ValueLike};
use tritium_dialects::access::{ranked_tensor, OpAccess};
use tritium_dialects::types;
use tritium_dialects::views::{LoadOp, StoreOp};

/// The element type a (tensor of) pointer(s) points to, lowered.
fn pointee<'c>(l: &Lowering<'c>, op: &OperationRef, ty: Type<'c>) -> Result<Type<'c>> {
    let element = ranked_tensor(ty)
        .map(|t| {
            use melior::ir::r#type::ShapedTypeLike;
            t.element()
        })
        .unwrap_or(ty);
    let (pointee, _) =
        types::pointer_parts(element).ok_or_else(|| LowerError::at(op, format!("{ty} is not a pointer")))?;
    if pointee.is_ranked_tensor() {
        return Err(LowerError::at(op, "block pointers must be rewritten first (triton-rewrite-tensor-pointer)"));
    }
    Ok(l.lower_type(pointee))
}

fn registers_of<'c>(l: &mut Lowering<'c>, op: &OperationRef<'c, '_>, index: usize) -> Result<Vec<V>> {
    l.operand(op, index)
}

pub fn lower_addptr<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let element = pointee(l, &op, op.result_at(0).unwrap().r#type())?;
    let (pointers, offsets) = (registers_of(l, &op, 0)?, registers_of(l, &op, 1)?);
    if pointers.len() != offsets.len() {
        return Err(LowerError::at(&op, "pointer and offset are distributed differently"));
    }
    let result = pointers.iter().zip(&offsets).map(|(p, o)| l.b.gep(*p, *o, element)).collect();
    l.set_result(&op, 0, result);
    Ok(())
}

/// Bits one element of `ty` occupies in global memory (i1 is a byte there,
/// as Triton stores booleans).
fn access_bits(op: &OperationRef, ty: Type) -> Result<u32> {
    if ty.to_string().starts_with("!llvm.ptr") {
        return Ok(64);
    }
    Ok(match ty.to_string().as_str() {
        "f64" | "i64" => 64,
        "f32" | "i32" => 32,
        "f16" | "bf16" | "i16" => 16,
        "i8" | "i1" => 8,
        _ => return Err(LowerError::at(op, format!("loads and stores of {ty} are not supported yet"))),
    })
}

/// The type an element is moved as: itself, except i1, which moves as the
/// byte that holds it.
fn moved_type<'c>(l: &Lowering<'c>, element: Type<'c>) -> Type<'c> {
    if element.to_string() == "i1" {
        l.b.int_type(8)
    } else {
        element
    }
}

/// A loaded byte as the boolean it holds.
fn byte_to_bool<'c>(l: &Lowering<'c>, byte: V, element: Type<'c>) -> V {
    if type_of(byte) == element {
        byte
    } else {
        l.b.op1("arith.trunci", &[byte], element, &[])
    }
}

/// A boolean as the byte that stores it (0 or 1).
fn bool_to_byte<'c>(l: &Lowering<'c>, value: V, moved: Type<'c>) -> V {
    if type_of(value) == moved {
        value
    } else {
        l.b.op1("arith.extui", &[value], moved, &[])
    }
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

/// How many consecutive elements one access of `op` may move: as upstream,
/// the pointer's contiguity and alignment (axis info), the mask's constancy,
/// and 128 bits; and the layout must keep them in consecutive registers.
fn vector_width(l: &Lowering, op: &OperationRef, layout: Option<&TensorLayout>, bits: u32) -> usize {
    let (Some(axis), Some(layout)) = (l.axis_info.as_ref(), layout) else { return 1 };
    let (pointer, mask) = match LoadOp::of(*op) {
        Some(load) => (load.ptr(), load.mask()),
        None => StoreOp::of(*op).map(|store| (store.ptr(), store.mask())).expect("a tt.load or tt.store"),
    };
    let mut width = axis.contiguity_of(pointer, bits) as usize;
    if let Some(mask) = mask {
        width = width.min(axis.mask_alignment(mask) as usize);
    }
    width = width.min((128 / bits) as usize).max(1);
    width = 1 << (usize::BITS - 1 - width.leading_zeros());
    while width > 1 && !registers_are_consecutive(layout, width) {
        width /= 2;
    }
    width
}

/// Registers `r..r + width` (r a multiple of width) hold consecutive elements
/// along one dimension, the same for every group.
fn registers_are_consecutive(layout: &TensorLayout, width: usize) -> bool {
    let coords = &layout.register_coords;
    if !coords.len().is_multiple_of(width) || coords.len() < 2 {
        return false;
    }
    let Some(dim) = (0..coords[0].len()).find(|&d| coords[1][d] != coords[0][d]) else { return false };
    (0..coords.len()).step_by(width).all(|start| {
        (1..width).all(|i| {
            let mut expected = coords[start].clone();
            expected[dim] += i as u32;
            coords[start + i] == expected
        })
    })
}

/// The words one access of `width` elements of `bits` moves: (word bits,
/// word count).
fn words(width: usize, bits: u32) -> (u32, usize) {
    let total = width as u32 * bits;
    if total >= 32 {
        let word = bits.max(32);
        (word, (total / word) as usize)
    } else {
        (total, 1)
    }
}

/// The inline-asm constraint of a word of `bits` (`c`: a byte, which PTX
/// keeps in a 16-bit register).
fn class(bits: u32) -> &'static str {
    match bits {
        8 => "c",
        16 => "h",
        32 => "r",
        _ => "l",
    }
}

/// Packs elements (little end first) into words of `word_bits`: several
/// elements to a word as a vector bitcast to the word (LLVM then emits
/// packed conversions such as `cvt.rn.f16x2.f32` and byte permutes rather
/// than shifts and ors of each element).
pub(crate) fn pack<'c>(l: &mut Lowering<'c>, elements: &[V], bits: u32, word_bits: u32) -> Vec<V> {
    let element_int = l.b.int_type(bits);
    let word_type = l.b.int_type(word_bits);
    let per_word = (word_bits / bits) as usize;
    elements
        .chunks(per_word)
        .map(|chunk| {
            if per_word == 1 {
                return to_bits(l, chunk[0], word_type);
            }
            // Pointers and other non-numeric elements go through integers.
            let element_type = type_of(chunk[0]);
            let lane_type = if element_type.to_string().starts_with("!llvm.ptr") { element_int } else { element_type };
            let vector_type = Type::vector(&[per_word as u64], lane_type);
            let mut vector = l.b.op1("llvm.mlir.undef", &[], vector_type, &[]);
            for (i, element) in chunk.iter().enumerate() {
                let lane = if lane_type == element_type { *element } else { to_bits(l, *element, element_int) };
                let position = l.b.i32_const(i as i64);
                vector = l.b.op1("llvm.insertelement", &[vector, lane, position], vector_type, &[]);
            }
            l.b.op1("llvm.bitcast", &[vector], word_type, &[])
        })
        .collect()
}

/// Splits words into elements of `element_type` (the inverse of `pack`).
pub(crate) fn unpack<'c>(
    l: &mut Lowering<'c>,
    words: &[V],
    word_bits: u32,
    bits: u32,
    element_type: Type<'c>,
) -> Vec<V> {
    let element_int = l.b.int_type(bits);
    let per_word = (word_bits / bits) as usize;
    let is_pointer = element_type.to_string().starts_with("!llvm.ptr");
    let lane_type = if is_pointer { element_int } else { element_type };
    let mut elements = Vec::new();
    for word in words {
        if per_word == 1 {
            elements.push(from_bits(l, *word, element_type));
            continue;
        }
        let vector_type = Type::vector(&[per_word as u64], lane_type);
        let vector = l.b.op1("llvm.bitcast", &[*word], vector_type, &[]);
        for i in 0..per_word {
            let position = l.b.i32_const(i as i64);
            let lane = l.b.op1("llvm.extractelement", &[vector, position], lane_type, &[]);
            elements.push(if is_pointer { from_bits(l, lane, element_type) } else { lane });
        }
    }
    elements
}

/// `{ $a, $b, ... }` for operands `first..first + count`.
pub(crate) fn register_list(first: usize, count: usize) -> String {
    let names: Vec<String> = (first..first + count).map(|i| format!("${i}")).collect();
    format!("{{ {} }}", names.join(", "))
}

fn vector_suffix(count: usize) -> String {
    if count == 1 {
        String::new()
    } else {
        format!(".v{count}")
    }
}

pub fn lower_load<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let result_type = op.result_at(0).unwrap().r#type();
    let element = l.lower_type(result_type);
    let bits = access_bits(&op, element)?;
    let moved = moved_type(l, element);
    let layout = if result_type.is_ranked_tensor() { Some(l.tensor_layout(&op, result_type)?) } else { None };
    let width = vector_width(l, &op, layout.as_deref(), bits);
    let (word_bits, count) = words(width, bits);
    let word_class = class(word_bits);
    let pointers = registers_of(l, &op, 0)?;
    // Operands: ptr, then the optional mask, then `other` (which needs a mask).
    let masks = if op.operand_count() >= 2 { Some(registers_of(l, &op, 1)?) } else { None };
    let others = if op.operand_count() >= 3 { Some(registers_of(l, &op, 2)?) } else { None };
    let volatile = op.attribute("isVolatile").map(|a| a.to_string() == "true").unwrap_or(false);
    let hints = CacheHints::of(l, &op, Access::Load);
    let instruction = format!(
        "ld{}.global{}.b{word_bits}",
        if volatile { ".volatile" } else { "" },
        hints.qualifiers(vector_suffix(count)),
    );
    let word_type = l.b.int_type(word_bits);
    let result_words_type = if count == 1 {
        word_type
    } else {
        melior::dialect::llvm::r#type::r#struct(l.context(), &vec![word_type; count], false)
    };
    let outputs = vec![format!("={word_class}"); count].join(",");
    // A byte lives in a 16-bit register, which `mov` sets whole (PTX has no mov.u8).
    let move_bits = word_bits.max(16);
    let mut result = Vec::with_capacity(pointers.len());
    for start in (0..pointers.len()).step_by(width) {
        // Operands as upstream's PTX builder numbers them: the loaded words,
        // `other`'s words, the address, the L2 policy, the mask. Each
        // destination starts as `other` (or zero), which the load, where
        // its predicate holds, overwrites.
        let mut text = String::new();
        let mut operands = Vec::new();
        let mut constraints = outputs.clone();
        match &others {
            Some(others) => {
                let other_bytes: Vec<V> =
                    others[start..start + width].iter().map(|v| bool_to_byte(l, *v, moved)).collect();
                let other_words = pack(l, &other_bytes, bits, word_bits);
                for (i, word) in other_words.iter().enumerate() {
                    text += &format!("mov.u{move_bits} ${i}, ${};\n\t", count + i);
                    operands.push(*word);
                    constraints += &format!(",{word_class}");
                }
            }
            None => {
                for i in 0..count {
                    text += &format!("mov.u{move_bits} ${i}, 0x0;\n\t");
                }
            }
        }
        let address = count + operands.len();
        operands.push(pointers[start]);
        constraints += ",l";
        let (policy, policy_constraint, policy_operands) = hints.operand(l, address + 1);
        operands.extend(policy_operands);
        constraints += &policy_constraint;
        let predicate = match &masks {
            Some(masks) => {
                operands.push(masks[start]);
                constraints += ",b";
                format!("@${} ", count + operands.len() - 1)
            }
            None => String::new(),
        };
        let destinations = register_list(0, count);
        text += &format!("{predicate}{instruction} {destinations}, [ ${address} + 0 ]{policy};");
        let asm = text;
        let loaded = l.b.inline_asm(&asm, &constraints, &operands, Some(result_words_type)).unwrap();
        let loaded_words: Vec<V> = if count == 1 {
            vec![loaded]
        } else {
            (0..count)
                .map(|i| {
                    let position = melior::ir::attribute::DenseI64ArrayAttribute::new(l.context(), &[i as i64]);
                    l.b.op1("llvm.extractvalue", &[loaded], word_type, &[("position", position.into())])
                })
                .collect()
        };
        for value in unpack(l, &loaded_words, word_bits, bits, moved) {
            result.push(byte_to_bool(l, value, element));
        }
    }
    l.set_result(&op, 0, result);
    Ok(())
}

pub fn lower_store<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let pointer_type = crate::ops::view(op, StoreOp::of)?.ptr().r#type();
    let pointers = registers_of(l, &op, 0)?;
    let values = registers_of(l, &op, 1)?;
    let masks = if op.operand_count() >= 3 { Some(registers_of(l, &op, 2)?) } else { None };
    let element = type_of(values[0]);
    let bits = access_bits(&op, element)?;
    let moved = moved_type(l, element);
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
    let width = vector_width(l, &op, layout.as_deref(), bits);
    let (word_bits, count) = words(width, bits);
    let word_class = class(word_bits);
    let hints = CacheHints::of(l, &op, Access::Store);
    let instruction = format!("st.global{}.b{word_bits}", hints.qualifiers(vector_suffix(count)));
    for start in (0..pointers.len()).step_by(width) {
        if layout.as_ref().is_some_and(|layout| layout.is_duplicate_register(start)) {
            continue;
        }
        let bytes_or_values: Vec<V> = values[start..start + width].iter().map(|v| bool_to_byte(l, *v, moved)).collect();
        let value_words = pack(l, &bytes_or_values, bits, word_bits);
        let predicate = match (&masks, owner) {
            (Some(m), Some(o)) => Some(l.b.and(m[start], o)),
            (Some(m), None) => Some(m[start]),
            (None, o) => o,
        };
        // Operands as upstream's PTX builder numbers them: the stored words,
        // the address, the L2 policy, the predicate.
        let sources = register_list(0, count);
        let mut operands = value_words;
        let mut constraints = vec![word_class; count].join(",");
        operands.push(pointers[start]);
        constraints += ",l";
        let (policy, policy_constraint, policy_operands) = hints.operand(l, count + 1);
        operands.extend(policy_operands);
        constraints += &policy_constraint;
        let guard = match predicate {
            Some(p) => {
                operands.push(p);
                constraints += ",b";
                format!("@${} ", operands.len() - 1)
            }
            None => String::new(),
        };
        let asm = format!("{guard}{instruction} [ ${count} + 0 ], {sources}{policy};");
        l.b.inline_asm(&asm, &constraints, &operands, None);
    }
    Ok(())
}

/// True in the one thread among those that hold the same elements (the lanes
/// and warps whose ids differ only in bits the layout ignores).
pub fn owner_predicate(l: &mut Lowering, free_lanes: u32, free_warps: u32) -> Option<V> {
    if free_lanes == 0 && free_warps == 0 {
        return None;
    }
    // Lanes are tid's bits 0-4 and warps the bits above: one test of tid.
    let tid = l.tid;
    Some(l.in_prologue(|b| {
        let zero = b.i32_const(0);
        let m = b.i32_const((free_lanes | free_warps << 5) as i64);
        let bits = b.and(tid, m);
        b.icmp(0, bits, zero)
    }))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Load,
    Store,
}

/// A global access's cache modifier and eviction policy, as upstream turns
/// `cacheModifier = ...` and `evictionPolicy = ...` into PTX: `.ca`/`.cg` on
/// loads, `.wb`/`.cg`/`.cs`/`.wt` on stores (others are ignored, as
/// upstream ignores them), `.L1::evict_first`/`.L1::evict_last`, and on
/// sm_80+ an L2 cache hint made by `createpolicy.fractional` (one per
/// instruction, as upstream's; ptxas keeps one).
struct CacheHints {
    cache: &'static str,
    evict: &'static str,
    /// The L2 eviction priority of the cache hint (`L2::evict_first`...),
    /// empty without one.
    l2: &'static str,
}

impl CacheHints {
    fn of<'c>(l: &mut Lowering<'c>, op: &OperationRef<'c, '_>, access: Access) -> CacheHints {
        // tt.CacheModifier and tt.EvictionPolicy are I32EnumAttrs (ODS order).
        let cache = match (crate::int_attribute(op, "cache").unwrap_or(1), access) {
            (2, Access::Load) => ".ca",
            (3, _) => ".cg",
            (4, Access::Store) => ".wb",
            (5, Access::Store) => ".cs",
            (6, Access::Store) => ".wt",
            _ => "",
        };
        let (evict, l2) = match crate::int_attribute(op, "evict").unwrap_or(1) {
            2 => (".L1::evict_first", "L2::evict_first"),
            3 => (".L1::evict_last", "L2::evict_last"),
            _ => ("", ""),
        };
        let l2 = if l.target.capability >= 80 { l2 } else { "" };
        CacheHints { cache, evict, l2 }
    }

    /// The qualifiers between the state space and the type, in upstream's
    /// order: cache operator, L1 eviction priority, L2 cache hint, vector.
    fn qualifiers(&self, vector: String) -> String {
        let hint = if self.l2.is_empty() { "" } else { ".L2::cache_hint" };
        format!("{}{}{hint}{vector}", self.cache, self.evict)
    }

    /// The cache-policy operand of one instruction as the asm operand
    /// `$index`: its text after the address or sources, its constraint and
    /// its value (a policy made for it, in upstream's form).
    fn operand(&self, l: &mut Lowering, index: usize) -> (String, String, Vec<V>) {
        if self.l2.is_empty() {
            return (String::new(), String::new(), Vec::new());
        }
        let i64 = l.b.i64();
        let text = format!("mov.u64 $0, 0x0;\n\tcreatepolicy.fractional.{}.b64 $0, 1.0;", self.l2);
        let policy = l.b.inline_asm(&text, "=l", &[], Some(i64)).expect("one result");
        (format!(", ${index}"), ",l".to_string(), vec![policy])
    }
}
