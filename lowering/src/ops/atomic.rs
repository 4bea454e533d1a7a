//! tt.atomic_rmw and tt.atomic_cas, as upstream's LoadStoreOpToLLVM: one
//! predicated `atom.global` per element (the predicate: the element's mask,
//! and one thread among those holding the element), with the op's memory
//! semantics and scope (`atom.global.gpu.acq_rel.add.f32`). On sm_90 (with
//! PTX 8.1), float adds of contiguous elements are vectorised (`.v8.f16`, `.v4.f32`);
//! below, f16 adds go in pairs (`.f16x2`) and bf16 adds, which PTX lacks
//! there, become LLVM's `atomicrmw` (a compare-and-swap loop).
//!
//! The old values: a scalar atomic is done by thread 0, which passes the
//! value to the others through the op's scratch; a tensor whose layout
//! gives an element to several threads updates it once, and when the old
//! values are used they reach the other threads through scratch too.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::TensorLayout,
    ops::{
        memory::{pack, register_list, unpack},
        warp::{
            and_predicates, bit_width, first_thread, from_int, if_then, load_shared, representative, row_major_index,
            store_shared, to_int,
        },
    },
};
use melior::ir::{operation::OperationLike, OperationRef, Type, TypeLike, ValueLike};
use std::rc::Rc;
use tritium_dialects::access::OpAccess;
use tritium_dialects::views::{AtomicOp, AtomicRMWOp};

/// Upstream's RMWOp values (TT_AtomicRMWAttr).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rmw {
    And,
    Or,
    Xor,
    Add,
    FAdd,
    Max,
    Min,
    UMax,
    UMin,
    Xchg,
}

impl Rmw {
    fn from_attribute(value: i64) -> Option<Rmw> {
        Some(match value {
            1 => Rmw::And,
            2 => Rmw::Or,
            3 => Rmw::Xor,
            4 => Rmw::Add,
            5 => Rmw::FAdd,
            6 => Rmw::Max,
            7 => Rmw::Min,
            8 => Rmw::UMax,
            9 => Rmw::UMin,
            10 => Rmw::Xchg,
            _ => return None,
        })
    }
}

/// `.sem` and `.scope` of the PTX instruction, from the op's attributes.
fn ordering(op: &OperationRef) -> Result<(&'static str, &'static str)> {
    let sem = match crate::int_attribute(op, "sem") {
        Some(1) => "relaxed",
        Some(2) => "acquire",
        Some(3) => "release",
        Some(4) => "acq_rel",
        _ => return Err(LowerError::at(op, "has no valid memory semantics")),
    };
    let scope = match crate::int_attribute(op, "scope") {
        Some(1) => "gpu",
        Some(2) => "cta",
        Some(3) => "sys",
        _ => return Err(LowerError::at(op, "has no valid memory scope")),
    };
    Ok((sem, scope))
}

/// PTX register class of a width.
fn class(bits: u32) -> &'static str {
    match bits {
        16 => "h",
        32 => "r",
        _ => "l",
    }
}

/// The operation and type parts of `atom` for one element, as upstream
/// names them (`add.u32`, `add.noftz.f16`, `max.s64`, `exch.b32`, ...).
fn rmw_instruction(kind: Rmw, element: Type, bits: u32) -> std::result::Result<(String, String), String> {
    let text = element.to_string();
    let is_float = matches!(text.as_str(), "f16" | "bf16" | "f32" | "f64");
    let supported_int = !is_float && (bits == 32 || bits == 64);
    let (operation, ty) = match kind {
        Rmw::And | Rmw::Or | Rmw::Xor | Rmw::Xchg if bits == 32 || bits == 64 => {
            let name = match kind {
                Rmw::And => "and",
                Rmw::Or => "or",
                Rmw::Xor => "xor",
                _ => "exch",
            };
            (name.to_string(), format!("b{bits}"))
        }
        Rmw::Add if supported_int => ("add".into(), format!("u{bits}")),
        Rmw::Max | Rmw::Min if supported_int => {
            ((if kind == Rmw::Max { "max" } else { "min" }).into(), format!("s{bits}"))
        }
        Rmw::UMax | Rmw::UMin if supported_int => {
            ((if kind == Rmw::UMax { "max" } else { "min" }).into(), format!("u{bits}"))
        }
        Rmw::FAdd if is_float => {
            let operation = if bits == 16 { "add.noftz" } else { "add" };
            (operation.into(), text.clone())
        }
        _ => return Err(format!("atomic {kind:?} of {text} is not supported")),
    };
    Ok((operation, ty))
}

/// How many consecutive elements of a tensor one `tt.atomic_rmw` may cover: the
/// pointers' contiguity and the mask's constancy (axis info), at most 128
/// bits, over registers that hold consecutive elements.
fn contiguous_elements(l: &Lowering, op: &OperationRef, layout: &TensorLayout, bits: u32) -> usize {
    let Some(axis) = l.axis_info.as_ref() else {
        return 1;
    };
    let rmw = AtomicRMWOp::of(*op).expect("a tt.atomic_rmw");
    let mut width = axis.contiguity(rmw.ptr()) as usize;
    if let Some(mask) = rmw.mask() {
        width = width.min(axis.mask_alignment(mask) as usize);
    }
    width = width.min((128 / bits) as usize).max(1);
    width = 1 << (usize::BITS - 1 - width.leading_zeros());
    let coords = &layout.register_coords;
    while width > 1 {
        let consecutive = coords.len().is_multiple_of(width)
            && (0..coords.len()).step_by(width).all(|start| {
                (1..width).all(|i| {
                    let (a, b) = (&coords[start], &coords[start + i]);
                    let differing: Vec<usize> = (0..a.len()).filter(|d| a[*d] != b[*d]).collect();
                    differing.len() == 1 && b[differing[0]] == a[differing[0]] + i as u32
                })
            });
        if consecutive {
            break;
        }
        width /= 2;
    }
    width
}

/// `mov` of zero into each output, then the predicated instruction: the
/// outputs are defined where the predicate is false.
fn predicated(instruction: &str, outputs: &[String], bits: u32, predicate: Option<usize>) -> String {
    let mut text = String::new();
    for output in outputs {
        text += &format!("mov.u{bits} {output}, 0x0;\n\t");
    }
    match predicate {
        Some(p) => text + &format!("@${p} {instruction};"),
        None => text + &format!("{instruction};"),
    }
}

pub fn lower_rmw<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    lower(l, op, Atomic::Rmw)
}

pub fn lower_cas<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    lower(l, op, Atomic::Cas)
}

/// `tt.atomic_rmw` or `tt.atomic_cas`, which share everything but the PTX
/// instruction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Atomic {
    Rmw,
    Cas,
}

fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, kind: Atomic) -> Result<()> {
    let result_type = op.result_at(0).map_err(|e| LowerError::at(&op, e.to_string()))?.r#type();
    let element = l.lower_type(result_type);
    let bits =
        bit_width(element).ok_or_else(|| LowerError::at(&op, format!("atomics on {element} are not supported")))?;
    let pointer_type = crate::ops::view(op, AtomicOp::of)?.ptr().r#type();
    let layout = if pointer_type.is_ranked_tensor() { Some(l.tensor_layout(&op, pointer_type)?) } else { None };
    // One thread among those holding each element (thread 0 for a scalar).
    let owner = match &layout {
        Some(layout) => representative(l, layout),
        None => Some(first_thread(l)),
    };
    let old = if kind == Atomic::Cas {
        cas(l, &op, element, bits, owner, layout.as_deref())?
    } else {
        rmw(l, &op, element, bits, owner, layout.as_deref())?
    };
    let old = share_results(l, &op, old, owner, layout)?;
    l.set_result(&op, 0, old);
    Ok(())
}

fn rmw<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    element: Type<'c>,
    bits: u32,
    owner: Option<V>,
    layout: Option<&TensorLayout>,
) -> Result<Vec<V>> {
    let kind = crate::int_attribute(op, "atomic_rmw_op")
        .and_then(Rmw::from_attribute)
        .ok_or_else(|| LowerError::at(op, "has no valid atomic_rmw_op"))?;
    let (sem, scope) = ordering(op)?;
    let pointers = l.operand(op, 0)?;
    let values = l.operand(op, 1)?;
    let masks = if op.operand_count() > 2 { Some(l.operand(op, 2)?) } else { None };
    let text = element.to_string();
    if layout.is_none() && adds_zero(op, kind, sem) {
        // Adding zero changes nothing: a load with the atomic's ordering
        // reads the same value without writing. As upstream, an
        // `nvg.ld_acquire` (convert-nv-gpu-to-llvm makes it the predicated
        // `ld.global.<scope>.<sem>.b<N>`), with the atomic's own semantic
        // and scope attributes (nvg numbers them as tt does).
        let predicate = and_predicates(l, owner, masks.as_ref().map(|m| m[0]));
        let mut operands = vec![pointers[0]];
        operands.extend(predicate);
        let mut attributes = Vec::new();
        for name in ["sem", "scope"] {
            let attribute = op.attribute(name).map_err(|_| LowerError::at(op, format!("has no {name}")))?;
            attributes.push((name, attribute));
        }
        return Ok(vec![l.b.op1("nvg.ld_acquire", &operands, element, &attributes)]);
    }
    if kind == Rmw::FAdd && text == "bf16" && l.target.capability < 90 {
        return rmw_by_llvm(l, sem, scope, &pointers, &values, masks.as_deref(), owner, layout);
    }
    let (operation, ty) = rmw_instruction(kind, element, bits).map_err(|e| LowerError::at(op, e))?;

    // Several elements per instruction: vectors on sm_90, f16 pairs below.
    let (mut vector, mut packed) = (1, 1);
    if let Some(layout) = layout {
        let width = contiguous_elements(l, op, layout, bits);
        let vectorisable = kind == Rmw::FAdd && matches!(text.as_str(), "f16" | "bf16" | "f32");
        // Vector atomics need sm_90 and PTX 8.1.
        if vectorisable && l.target.capability >= 90 && l.ptx_version >= 81 {
            vector = width;
        } else if kind == Rmw::FAdd && text == "f16" {
            packed = width.min(2);
        }
    }
    let step = vector * packed;
    let mut old = vec![None; pointers.len()];
    for start in (0..pointers.len()).step_by(step) {
        if layout.is_some_and(|layout| layout.is_duplicate_register(start)) {
            continue;
        }
        let predicate = and_predicates(l, owner, masks.as_ref().map(|m| m[start]));
        let prefix = format!("atom.global.{scope}.{sem}.{operation}");
        let results = if vector > 1 {
            // atom.global.gpu.acq_rel.add.noftz.v8.f16 {$0..$7}, [$8 + 0], {$9..$16}
            let c = class(bits);
            let outputs: Vec<String> = (0..vector).map(|i| format!("${i}")).collect();
            let instruction = format!(
                "{prefix}.v{vector}.{ty} {}, [ ${vector} + 0 ], {}",
                register_list(0, vector),
                register_list(vector + 1, vector)
            );
            let mut operands = vec![pointers[start]];
            for v in &values[start..start + vector] {
                operands.push(to_int(l, *v).ok_or_else(|| LowerError::at(op, "unsupported value type"))?);
            }
            let mut constraints =
                format!("{},l{}", vec![format!("={c}"); vector].join(","), format!(",{c}").repeat(vector));
            let p = predicate.map(|p| {
                operands.push(p);
                constraints += ",b";
                2 * vector + 1
            });
            let int = l.b.int_type(bits);
            let struct_type = melior::dialect::llvm::r#type::r#struct(l.context(), &vec![int; vector], false);
            let asm = predicated(&instruction, &outputs, bits, p);
            let result = l.b.inline_asm(&asm, &constraints, &operands, Some(struct_type)).unwrap();
            (0..vector)
                .map(|i| {
                    let position = melior::ir::attribute::DenseI64ArrayAttribute::new(l.context(), &[i as i64]);
                    let word = l.b.op1("llvm.extractvalue", &[result], int, &[("position", position.into())]);
                    from_int(l, word, element)
                })
                .collect::<Vec<V>>()
        } else if packed > 1 {
            // atom.global.gpu.acq_rel.add.noftz.f16x2 $0, [$1 + 0], $2
            let word = pack(l, &values[start..start + 2], 16, 32)[0];
            let instruction = format!("{prefix}.{ty}x2 $0, [ $1 + 0 ], $2");
            let mut operands = vec![pointers[start], word];
            let mut constraints = "=r,l,r".to_string();
            let p = predicate.map(|p| {
                operands.push(p);
                constraints += ",b";
                3
            });
            let i32 = l.b.i32();
            let asm = predicated(&instruction, &["$0".to_string()], 32, p);
            let result = l.b.inline_asm(&asm, &constraints, &operands, Some(i32)).unwrap();
            unpack(l, &[result], 32, 16, element)
        } else {
            vec![single(l, op, &format!("{prefix}.{ty}"), bits, element, pointers[start], &[values[start]], predicate)?]
        };
        for (i, v) in results.into_iter().enumerate() {
            old[start + i] = Some(v);
        }
    }
    Ok(fill_duplicates(old, layout))
}

/// Whether a scalar `tt.atomic_rmw` adds the constant zero (integer or
/// float, either sign) with relaxed or acquire ordering: it only reads.
fn adds_zero(op: &OperationRef, kind: Rmw, sem: &str) -> bool {
    if !matches!(kind, Rmw::Add | Rmw::FAdd) || !matches!(sem, "relaxed" | "acquire") {
        return false;
    }
    let Some(constant) = AtomicRMWOp::of(*op)
        .and_then(|rmw| tritium_dialects::ir::values::defining_op(rmw.val()))
        .filter(|def| crate::ops::name_of(def) == "arith.constant")
    else {
        return false;
    };
    let Ok(value) = constant.attribute("value") else { return false };
    if let Ok(float) = melior::ir::attribute::FloatAttribute::try_from(value) {
        return float.value() == 0.0;
    }
    melior::ir::attribute::IntegerAttribute::try_from(value).is_ok_and(|int| int.value() == 0)
}

/// One element: `mov.uN $0, 0x0; @$p atom... $0, [ $1 + 0 ], $2 (, $3);`
/// (no value operands: a load).
#[allow(clippy::too_many_arguments)]
fn single<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef,
    instruction: &str,
    bits: u32,
    element: Type<'c>,
    pointer: V,
    values: &[V],
    predicate: Option<V>,
) -> Result<V> {
    let c = class(bits);
    let sources: Vec<String> = (0..values.len()).map(|i| format!("${}", i + 2)).collect();
    let text = if sources.is_empty() {
        format!("{instruction} $0, [ $1 + 0 ]")
    } else {
        format!("{instruction} $0, [ $1 + 0 ], {}", sources.join(", "))
    };
    let mut operands = vec![pointer];
    for v in values {
        operands.push(to_int(l, *v).ok_or_else(|| LowerError::at(op, "unsupported value type"))?);
    }
    let mut constraints = format!("={c},l{}", format!(",{c}").repeat(values.len()));
    let p = predicate.map(|p| {
        operands.push(p);
        constraints += ",b";
        values.len() + 2
    });
    let int = l.b.int_type(bits);
    let asm = predicated(&text, &["$0".to_string()], bits, p);
    let result = l.b.inline_asm(&asm, &constraints, &operands, Some(int)).unwrap();
    Ok(from_int(l, result, element))
}

/// bf16 adds below sm_90: LLVM's `atomicrmw fadd`, which the NVPTX backend
/// expands into a compare-and-swap loop, under the predicate (as upstream).
#[allow(clippy::too_many_arguments)]
fn rmw_by_llvm<'c>(
    l: &mut Lowering<'c>,
    sem: &str,
    scope: &str,
    pointers: &[V],
    values: &[V],
    masks: Option<&[V]>,
    owner: Option<V>,
    layout: Option<&TensorLayout>,
) -> Result<Vec<V>> {
    // LLVM's AtomicOrdering and NVPTX's sync scopes.
    let ordering = match sem {
        "relaxed" => 2,
        "acquire" => 4,
        "release" => 5,
        _ => 6,
    };
    let syncscope = match scope {
        "cta" => "block",
        "gpu" => "device",
        _ => "",
    };
    let mut old = vec![None; pointers.len()];
    for r in 0..pointers.len() {
        if layout.is_some_and(|layout| layout.is_duplicate_register(r)) {
            continue;
        }
        let (pointer, value) = (pointers[r], values[r]);
        let atomic = move |l: &mut Lowering<'c>| -> Result<Vec<V>> {
            let i64 = l.b.i64();
            let mut attributes = vec![("bin_op", l.b.int_attr(i64, 11)), ("ordering", l.b.int_attr(i64, ordering))];
            if !syncscope.is_empty() {
                attributes.push(("syncscope", l.b.str_attr(syncscope)));
            }
            Ok(vec![l.b.op1("llvm.atomicrmw", &[pointer, value], type_of(value), &attributes)])
        };
        let result = match and_predicates(l, owner, masks.map(|m| m[r])) {
            Some(predicate) => {
                let zero = l.b.op1("llvm.mlir.zero", &[], type_of(value), &[]);
                if_then(l, predicate, &[zero], atomic)?[0]
            }
            None => atomic(l)?[0],
        };
        old[r] = Some(result);
    }
    Ok(fill_duplicates(old, layout))
}

fn cas<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    element: Type<'c>,
    bits: u32,
    owner: Option<V>,
    layout: Option<&TensorLayout>,
) -> Result<Vec<V>> {
    let (sem, scope) = ordering(op)?;
    if !matches!(bits, 16 | 32 | 64) {
        return Err(LowerError::at(op, format!("compare-and-swap of {element} is not supported")));
    }
    let pointers = l.operand(op, 0)?;
    let compares = l.operand(op, 1)?;
    let values = l.operand(op, 2)?;
    // Upstream writes the semantics before the scope here.
    let instruction = format!("atom.global.{sem}.{scope}.cas.b{bits}");
    let mut old = vec![None; pointers.len()];
    for r in 0..pointers.len() {
        if layout.is_some_and(|layout| layout.is_duplicate_register(r)) {
            continue;
        }
        old[r] = Some(single(l, op, &instruction, bits, element, pointers[r], &[compares[r], values[r]], owner)?);
    }
    Ok(fill_duplicates(old, layout))
}

/// Registers the layout repeats take the value of the first register
/// holding the same element.
fn fill_duplicates(old: Vec<Option<V>>, layout: Option<&TensorLayout>) -> Vec<V> {
    (0..old.len())
        .map(|r| {
            let source = layout
                .and_then(|layout| layout.register_coords.iter().position(|c| *c == layout.register_coords[r]))
                .unwrap_or(r);
            old[source].or(old[r]).expect("every element is updated by its first register")
        })
        .collect()
}

/// When the old values are used and other threads hold the same elements
/// (or the atomic is a scalar one), the threads that did the atomics pass
/// the values on through the op's scratch: each element at its row-major
/// index, then a barrier, then every thread reads its elements.
fn share_results<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    old: Vec<V>,
    owner: Option<V>,
    layout: Option<Rc<TensorLayout>>,
) -> Result<Vec<V>> {
    let needs_scratch = tritium_passes::analysis::scratch::atomic_scratch_bytes(op) > 0;
    let shared_between_threads = match &layout {
        Some(layout) => layout.free_lane_mask() != 0 || layout.free_warp_mask() != 0,
        None => true,
    };
    if !needs_scratch || !shared_between_threads {
        return Ok(old);
    }
    let base = l.scratch_base(op)?;
    let element = type_of(old[0]);
    let stored = super::warp::stored_type(l, element);
    let Some(layout) = layout else {
        store_shared(l, base, old[0], owner)
            .ok_or_else(|| LowerError::at(op, "cannot keep the old value in shared memory"))?;
        l.b.barrier();
        return Ok(vec![load_shared(l, base, element)]);
    };
    let indices: Vec<V> = (0..layout.num_registers()).map(|r| row_major_index(l, &layout, r)).collect();
    for (r, v) in old.iter().enumerate() {
        if layout.is_duplicate_register(r) {
            continue;
        }
        let address = l.b.gep(base, indices[r], stored);
        store_shared(l, address, *v, owner)
            .ok_or_else(|| LowerError::at(op, "cannot keep the old values in shared memory"))?;
    }
    l.b.barrier();
    Ok(indices
        .iter()
        .map(|index| {
            let address = l.b.gep(base, *index, stored);
            load_shared(l, address, element)
        })
        .collect())
}
