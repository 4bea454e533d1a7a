//! tt.dot. With blocked layouts (no tensor cores: the FMA path) every thread
//! holds, for each accumulator element it owns, the whole row of A and column
//! of B it needs, so the dot is a chain of fused multiply-adds per register.
//! With an Ampere nvidia_mma accumulator (sm_80) it is mma.sync: m16n8k16 of
//! f16/bf16, m16n8k32 of i8 or fp8 and m16n8k8 of tf32, which differ only in how
//! many operand elements share a 32-bit register; f64 is m16n8k16 on sm_90
//! and four pairs of m8n8k4 per 16-deep K tile before.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::TensorLayout,
};
use melior::ir::{OperationRef, Value, ValueLike};
use std::collections::HashMap;
use tritium_dialects::views::DotOp;
use tritium_layout::Layout;

pub fn lower<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let c_type = crate::ops::view(op, DotOp::of)?.c().r#type();
    let c_layout = l.tensor_layout(&op, c_type)?;
    match &c_layout.layout {
        Layout::Blocked(_) => fma_dot(l, op, &c_layout),
        Layout::NvidiaMma(mma) if mma.is_ampere() => mma_v2(l, op, &c_layout),
        Layout::NvidiaMma(_) => Err(LowerError::at(&op, "wgmma (nvidia_mma v3) dots go through ttng.warp_group_dot")),
        other => Err(LowerError::at(&op, format!("a dot with accumulator layout {other:?} is not supported"))),
    }
}

/// Registers by coordinates, for lookups.
fn by_coordinates(layout: &TensorLayout) -> HashMap<&[u32], usize> {
    let mut map = HashMap::new();
    for (r, coords) in layout.register_coords.iter().enumerate() {
        map.entry(coords.as_slice()).or_insert(r);
    }
    map
}

fn fma_dot<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, c_layout: &TensorLayout) -> Result<()> {
    let dot = crate::ops::view(op, DotOp::of)?;
    let a_layout = l.tensor_layout(&op, dot.a().r#type())?;
    let b_layout = l.tensor_layout(&op, dot.b().r#type())?;
    let (a, b, c) = (l.operand(&op, 0)?, l.operand(&op, 1)?, l.operand(&op, 2)?);
    let rank = c_layout.rank();
    let k_size = a_layout.shape[rank - 1] as u32;
    // The threads holding A's rows and B's columns must be those of C's.
    let project = |keep: usize| {
        move |coords: &[u32]| -> Vec<u32> {
            let mut out = coords.to_vec();
            out[keep] = 0;
            out
        }
    };
    for (which, operand, column) in [("A", &a_layout, rank - 1), ("B", &b_layout, rank - 2)] {
        let lanes_ok =
            operand.lane_bases.iter().zip(&c_layout.lane_bases).all(|(o, c)| project(column)(o) == project(column)(c));
        let warps_ok =
            operand.warp_bases.iter().zip(&c_layout.warp_bases).all(|(o, c)| project(column)(o) == project(column)(c));
        if !lanes_ok || !warps_ok {
            return Err(LowerError::at(
                &op,
                format!("operand {which}'s layout does not give each thread the data of its accumulator"),
            ));
        }
    }
    let (a_index, b_index) = (by_coordinates(&a_layout), by_coordinates(&b_layout));
    let element = type_of(c[0]);
    let is_float = !element.to_string().starts_with('i');
    let operand_element = type_of(a[0]);
    let mut result = Vec::with_capacity(c.len());
    for (r, coords) in c_layout.register_coords.iter().enumerate() {
        let mut accumulator = c[r];
        for k in 0..k_size {
            let mut a_coords = coords.clone();
            a_coords[rank - 1] = k;
            let mut b_coords = coords.clone();
            b_coords[rank - 2] = k;
            let (Some(&ar), Some(&br)) = (a_index.get(a_coords.as_slice()), b_index.get(b_coords.as_slice())) else {
                return Err(LowerError::at(
                    &op,
                    "a thread lacks the A or B elements of one of its accumulator elements",
                ));
            };
            let (mut x, mut y) = (a[ar], b[br]);
            if operand_element != element {
                let cast = if is_float { "arith.extf" } else { "arith.extsi" };
                x = l.b.op1(cast, &[x], element, &[]);
                y = l.b.op1(cast, &[y], element, &[]);
            }
            accumulator = if is_float {
                // fmuladd, as upstream: LLVM fuses it (NVPTX's fma.rn) unless
                // FP fusion is forbidden altogether.
                l.b.op1("llvm.intr.fmuladd", &[x, y, accumulator], element, &[])
            } else {
                let product = l.b.op1("arith.muli", &[x, y], element, &[]);
                l.b.op1("arith.addi", &[product, accumulator], element, &[])
            };
        }
        result.push(accumulator);
    }
    l.set_result(&op, 0, result);
    Ok(())
}

/// One mma.sync instruction, m16n8kK: A is 16xK, B Kx8 and the
/// accumulator 16x8, held by a warp as 32-bit registers of
/// `elements_per_word` operand elements each (2 for f16/bf16, 4 for s8, 1
/// for tf32). K is 8 words deep, so k = 8 * elements_per_word.
struct MmaSync {
    operand: &'static str,
    /// B's PTX type where it differs from A's (fp8: e4m3 by e5m2 and back).
    b_operand: &'static str,
    accumulator: &'static str,
    elements_per_word: u32,
}

impl MmaSync {
    /// The instruction for operands of `operand_type` accumulated in
    /// `accumulator_type`; f32 operands go through the tensor cores only as
    /// tf32 (`input_precision` 0). fp8 operands (held as bytes, so
    /// `operand_type` is i8) are named by `fp8_types`, A's and B's PTX
    /// types: m16n8k32 into f32, each operand e4m3 or e5m2 (the
    /// instruction needs sm_89; upstream's accelerate-matmul upcasts fp8
    /// below that, and its lowering, like this one, does not check).
    fn of(
        op: &OperationRef,
        operand_type: &str,
        accumulator_type: &str,
        input_precision: i64,
        fp8_types: Option<(&'static str, &'static str)>,
    ) -> Result<MmaSync> {
        if let Some((a, b)) = fp8_types {
            if accumulator_type != "f32" {
                let message = format!("mma.sync of fp8 operands accumulates in f32, not {accumulator_type}");
                return Err(LowerError::at(op, message));
            }
            return Ok(MmaSync { operand: a, b_operand: b, accumulator: "f32", elements_per_word: 4 });
        }
        let (operand, elements_per_word, accumulator) = match (operand_type, accumulator_type) {
            ("f16", "f32") => ("f16", 2, "f32"),
            ("f16", "f16") => ("f16", 2, "f16"),
            // m16n8k16 on sm_90, four pairs of m8n8k4 before (see `f64_tile`).
            ("f64", "f64") => ("f64", 1, "f64"),
            ("bf16", "f32") => ("bf16", 2, "f32"),
            ("i8", "i32") => ("s8", 4, "s32"),
            ("f32", "f32") if input_precision == TF32 => ("tf32", 1, "f32"),
            ("f32", "f32") => {
                return Err(LowerError::at(op, "f32 dots reach mma.sync only with inputPrecision = tf32"));
            }
            (operand, accumulator) => {
                return Err(LowerError::at(
                    op,
                    format!(
                        "mma.sync of {operand} operands into {accumulator} is not supported yet \
                         (f16/bf16 into f32, f16 into f16, f64, i8 into i32, fp8 into f32 and tf32 are)"
                    ),
                ));
            }
        };
        Ok(MmaSync { operand, b_operand: operand, accumulator, elements_per_word })
    }

    fn k(&self) -> u32 {
        if self.operand == "f64" {
            return 16;
        }
        8 * self.elements_per_word
    }

    fn operand_bits(&self) -> u32 {
        32 / self.elements_per_word
    }

    /// The PTX: D, A (4 words), B (2 words), C tied to D. Integer products
    /// saturate on overflow (`.satfinite`), as upstream's int8 dots do. An
    /// f16 accumulator is two f16x2 words (rows g and g + 8).
    fn asm(&self) -> String {
        let (k, a, b, c) = (self.k(), self.operand, self.b_operand, self.accumulator);
        let saturate = if self.accumulator == "s32" { ".satfinite" } else { "" };
        if self.accumulator_words() == 2 {
            return format!(
                "mma.sync.aligned.m16n8k{k}.row.col.{c}.{a}.{b}.{c} {{$0, $1}}, {{$2, $3, $4, $5}}, {{$6, $7}}, {{$8, $9}};"
            );
        }
        format!(
            "mma.sync.aligned.m16n8k{k}.row.col{saturate}.{c}.{a}.{b}.{c} \
             {{$0, $1, $2, $3}}, {{$4, $5, $6, $7}}, {{$8, $9}}, {{$10, $11, $12, $13}};"
        )
    }

    fn constraints(&self) -> &'static str {
        match self.accumulator {
            "f32" => "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3",
            "f16" => "=r,=r,r,r,r,r,r,r,0,1",
            _ => "=r,=r,=r,=r,r,r,r,r,r,r,0,1,2,3",
        }
    }

    /// 32-bit registers holding a thread's four accumulator elements.
    fn accumulator_words(&self) -> usize {
        if self.accumulator == "f16" {
            2
        } else {
            4
        }
    }

    /// (row, k) of element `i` of A's word `word` in the instruction `part`
    /// of a K tile, from the thread's origin: words 1 and 3 are 8 rows down,
    /// words 2 and 3 half the tile further. A thread holds `k_width`
    /// consecutive k (a multiple of a word's elements) where the instruction
    /// reads one word: a tile of `8 * k_width` is then `k_width /
    /// elements_per_word` instructions, instruction `part` reading word
    /// `part` of each run. This only permutes k, the same way for A and B, so
    /// the sum is unchanged (upstream's fp8 upcasts give f16 with k_width 4).
    fn a_element(&self, k_width: u32, part: u32, word: u32, i: u32) -> (u32, u32) {
        (8 * (word % 2), 4 * k_width * (word / 2) + part * self.elements_per_word + i)
    }

    /// k of element `i` of B's word `word` (0 or 1) in instruction `part`,
    /// from the thread's origin.
    fn b_element(&self, k_width: u32, part: u32, word: u32, i: u32) -> u32 {
        4 * k_width * word + part * self.elements_per_word + i
    }
}

/// `tt.dot`'s `inputPrecision` values for tf32 and for full f32 (upstream's
/// `InputPrecision`; absent means ieee).
const TF32: i64 = 0;
const IEEE: i64 = 2;

/// The lane bases an mma.sync fragment assumes: lanes 0-1 (the thread in its
/// quad) step the column by `step` and `2 * step`, lanes 2-4 (the quad) step
/// the row by 1, 2 and 4. For A the column is K and `step` the elements of a
/// word; for B rows are N and columns K; for the accumulator `step` is 2.
fn quad_lanes(row: usize, column: usize, rank: usize, step: u32) -> Vec<Vec<u32>> {
    let basis = |dim: usize, step: u32| {
        let mut b = vec![0u32; rank];
        b[dim] = step;
        b
    };
    vec![basis(column, step), basis(column, 2 * step), basis(row, 1), basis(row, 2), basis(row, 4)]
}

/// Bases of a tensor smaller than the instruction's tile: a step beyond the
/// tensor's extent along a dim is no step (the linear layout of a 2x4 tensor
/// in a 16x8 mma layout broadcasts rows 2-15 onto rows 0-1), as upstream's
/// mma.sync lowering of tiny dots feeds the same elements to several rows.
fn wrapped(bases: Vec<Vec<u32>>, shape: &[i64]) -> Vec<Vec<u32>> {
    bases.into_iter().map(|b| b.iter().zip(shape).map(|(x, s)| x % *s as u32).collect()).collect()
}

/// A layout's registers by coordinates, where coordinates of the
/// instruction's tile beyond the tensor wrap around it (see `wrapped`).
struct Fragments<'a> {
    index: HashMap<&'a [u32], usize>,
    shape: Vec<u32>,
}

impl<'a> Fragments<'a> {
    fn of(layout: &'a TensorLayout) -> Fragments<'a> {
        Fragments { index: by_coordinates(layout), shape: layout.shape.iter().map(|s| *s as u32).collect() }
    }

    fn get(&self, coords: &[u32]) -> Option<usize> {
        let inside: Vec<u32> = coords.iter().zip(&self.shape).map(|(c, s)| c % s).collect();
        self.index.get(inside.as_slice()).copied()
    }
}

/// Each warp holds the operand rows (A) or columns (B) of the accumulator
/// tiles it holds, and all of K: the operand's warp bases are the
/// accumulator's, with nothing along `k_dim` (K's position in the operand,
/// which for the accumulator is the dim the operand does not have).
fn warps_follow_accumulator(operand: &TensorLayout, accumulator: &TensorLayout, k_dim: usize) -> bool {
    operand.warp_bases.len() == accumulator.warp_bases.len()
        && operand
            .warp_bases
            .iter()
            .zip(&accumulator.warp_bases)
            .all(|(o, c)| (0..o.len()).all(|d| if d == k_dim { o[d] == 0 } else { o[d] == c[d] }))
}

/// mma.sync (sm_80): for each 16x8 accumulator tile a thread holds and each
/// K step of the instruction, the fragment registers are found by their
/// coordinates in the three layouts and packed into the instruction's words.
fn mma_v2<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>, c_layout: &TensorLayout) -> Result<()> {
    let dot = crate::ops::view(op, DotOp::of)?;
    let a_layout = l.tensor_layout(&op, dot.a().r#type())?;
    let b_layout = l.tensor_layout(&op, dot.b().r#type())?;
    let (a, b, c) = (l.operand(&op, 0)?, l.operand(&op, 1)?, l.operand(&op, 2)?);
    let rank = c_layout.rank();
    let (m, n) = (rank - 2, rank - 1);
    let (a_type, b_type) = (type_of(a[0]).to_string(), type_of(b[0]).to_string());
    if a_type != b_type {
        return Err(LowerError::at(&op, format!("mma.sync of {a_type} by {b_type} is not supported")));
    }
    let input_precision = crate::int_attribute(&op, "inputPrecision").unwrap_or(IEEE);
    let fp8_types = match (fp8_ptx_type(&op, dot.a())?, fp8_ptx_type(&op, dot.b())?) {
        (Some(a), Some(b)) => Some((a, b)),
        (None, None) => None,
        _ => return Err(LowerError::at(&op, "mma.sync of fp8 by a non-fp8 operand is not supported")),
    };
    if fp8_types.is_some() && l.ptx_version < 84 {
        return Err(LowerError::at(&op, "mma.sync of fp8 operands needs PTX 8.4 (ptx-version is lower)"));
    }
    let mma = MmaSync::of(&op, &a_type, &type_of(c[0]).to_string(), input_precision, fp8_types)?;
    let step = mma.elements_per_word;
    // The consecutive k a thread holds (the dot operand's kWidth): lane 1's k.
    let k_width = a_layout.lane_bases.first().map_or(0, |b| b[n]);
    if k_width == 0
        || k_width % step != 0
        || !k_width.is_power_of_two()
        || c_layout.lane_bases != wrapped(quad_lanes(m, n, rank, 2), &c_layout.shape)
        || a_layout.lane_bases != wrapped(quad_lanes(m, n, rank, k_width), &a_layout.shape)
        || b_layout.lane_bases != wrapped(quad_lanes(n, m, rank, k_width), &b_layout.shape)
    {
        return Err(LowerError::at(&op, "the operand and accumulator layouts are not mma.sync's fragments"));
    }
    if !warps_follow_accumulator(&a_layout, c_layout, n) || !warps_follow_accumulator(&b_layout, c_layout, m) {
        return Err(LowerError::at(&op, "the operands' warps do not hold their accumulator tiles' rows and columns"));
    }
    let k_size = a_layout.shape[n] as u32;
    // f64: four slots of k per thread and instruction (m16n8k16, or four
    // pairs of m8n8k4), so a tile is twice as deep as the 32-bit words'.
    let k_tile = if mma.operand == "f64" { 16 * k_width } else { 8 * k_width };
    // A K shallower than one instruction (fp8 or i8 with K = 16 under
    // m16n8k32) is padded with zeros, which add nothing to the sum.
    let padded = k_size < k_tile && k_tile.is_multiple_of(k_size);
    if !k_size.is_multiple_of(k_tile) && !padded {
        let message = format!("K must be a multiple of {k_tile} for mma.sync.m16n8k{} with kWidth {k_width}", mma.k());
        return Err(LowerError::at(&op, message));
    }
    let (a_index, b_index, c_index) = (Fragments::of(&a_layout), Fragments::of(&b_layout), Fragments::of(c_layout));
    let lookup = |index: &Fragments, coords: &[u32]| {
        index.get(coords).ok_or_else(|| LowerError::at(&op, "a thread lacks part of an mma.sync fragment"))
    };
    let at = |base: &[u32], row: u32, column: u32, row_dim: usize, column_dim: usize| {
        let mut coords = base.to_vec();
        coords[row_dim] += row;
        coords[column_dim] += column;
        coords
    };
    let accumulator_type = type_of(c[0]);
    let words = mma.accumulator_words();
    let word_type = if words == 4 { accumulator_type } else { l.b.i32() };
    let results_type = melior::dialect::llvm::r#type::r#struct(l.context(), &vec![word_type; words], false);
    let mut result = c.clone();
    let (asm, constraints, bits) = (mma.asm(), mma.constraints(), mma.operand_bits());
    // The 16x8 accumulator tiles a thread holds, in register order (N, then
    // M), each with its four registers.
    let mut tiles: Vec<(&[u32], Vec<usize>)> = Vec::new();
    for (r, coords) in c_layout.register_coords.iter().enumerate() {
        if coords[m] % 16 != 0 || coords[n] % 8 != 0 || c_layout.is_duplicate_register(r) {
            continue;
        }
        let tile: Vec<usize> = [(0, 0), (0, 1), (8, 0), (8, 1)]
            .iter()
            .map(|(dr, dc)| lookup(&c_index, &at(coords, *dr, *dc, m, n)))
            .collect::<Result<_>>()?;
        tiles.push((coords, tile));
    }
    let mut accumulators: Vec<Vec<V>> =
        tiles.iter().map(|(_, tile)| tile.iter().map(|t| result[*t]).collect()).collect();
    // K outermost, then the tiles, as upstream orders the instructions: each
    // K step's operand registers die once its tiles are done (with K
    // innermost every operand register stays live to the last tile, and
    // ptxas spills: the sm_80 fp8 matmul, 255 registers and 136 bytes of
    // stack against upstream's 240).
    let parts = if mma.operand == "f64" { k_width } else { k_width / step };
    for (k0, part) in (0..k_size).step_by(k_tile as usize).flat_map(|k0| (0..parts).map(move |p| (k0, p))) {
        for ((coords, _), accumulator) in tiles.iter().zip(accumulators.iter_mut()) {
            let mut a_base = coords.to_vec();
            a_base[n] = k0;
            let mut b_base = coords.to_vec();
            b_base[m] = k0;
            if mma.operand == "f64" {
                let slot = |s: u32| f64_k_offset(k_width, 4 * part + s);
                let a_of = |row: u32, s: u32| lookup(&a_index, &at(&a_base, row, slot(s), m, n)).map(|r| a[r]);
                let b_of = |s: u32| lookup(&b_index, &at(&b_base, slot(s), 0, m, n)).map(|r| b[r]);
                let a_slots = (0..4).map(|s| Ok([a_of(0, s)?, a_of(8, s)?])).collect::<Result<Vec<[V; 2]>>>()?;
                let b_slots = (0..4).map(b_of).collect::<Result<Vec<V>>>()?;
                *accumulator = f64_tile(l, l.target.capability, &a_slots, &b_slots, accumulator, accumulator_type);
                continue;
            }
            let mut operands = Vec::new();
            for word in 0..4 {
                let elements = (0..step)
                    .map(|i| {
                        let (dr, dk) = mma.a_element(k_width, part, word, i);
                        if k0 + dk >= k_size {
                            return Ok(zero_of(l, type_of(a[0])));
                        }
                        lookup(&a_index, &at(&a_base, dr, dk, m, n)).map(|r| a[r])
                    })
                    .collect::<Result<Vec<V>>>()?;
                operands.extend(crate::ops::memory::pack(l, &elements, bits, 32));
            }
            for word in 0..2 {
                let elements = (0..step)
                    .map(|i| {
                        let k = mma.b_element(k_width, part, word, i);
                        if k0 + k >= k_size {
                            return Ok(zero_of(l, type_of(b[0])));
                        }
                        lookup(&b_index, &at(&b_base, k, 0, m, n)).map(|r| b[r])
                    })
                    .collect::<Result<Vec<V>>>()?;
                operands.extend(crate::ops::memory::pack(l, &elements, bits, 32));
            }
            if words == 4 {
                operands.extend(accumulator.iter().copied());
            } else {
                operands.extend(crate::ops::memory::pack(l, accumulator, 16, 32));
            }
            let out = l.b.inline_asm(&asm, constraints, &operands, Some(results_type)).unwrap();
            let out: Vec<V> = (0..words as i64)
                .map(|i| {
                    let position = melior::ir::attribute::DenseI64ArrayAttribute::new(l.context(), &[i]);
                    l.b.op1("llvm.extractvalue", &[out], word_type, &[("position", position.into())])
                })
                .collect();
            *accumulator = if words == 4 { out } else { crate::ops::memory::unpack(l, &out, 32, 16, accumulator_type) };
        }
    }
    for ((_, tile), accumulator) in tiles.iter().zip(accumulators) {
        for (t, v) in tile.iter().zip(accumulator) {
            result[*t] = v;
        }
    }
    // Registers repeating an element (a tensor smaller than the layout's
    // tile) were skipped: they take the sum of their first copy.
    for r in 0..result.len() {
        if let Some(first) = c_layout.register_coords[..r].iter().position(|c| *c == c_layout.register_coords[r]) {
            result[r] = result[first];
        }
    }
    l.set_result(&op, 0, result);
    Ok(())
}

/// A zero register of the integer or float type `ty`.
fn zero_of<'c>(l: &mut Lowering<'c>, ty: melior::ir::Type<'c>) -> V {
    if melior::ir::TypeLike::is_integer(&ty) {
        return l.b.int(ty, 0);
    }
    let attribute = melior::ir::attribute::FloatAttribute::new(l.context(), ty, 0.0).into();
    l.b.op1("llvm.mlir.constant", &[], ty, &[("value", attribute)])
}

/// The PTX type of `operand` of the dot `op` when its elements are fp8
/// (e4m3 or e5m2, the two mma.sync takes); None for other element types.
fn fp8_ptx_type(op: &OperationRef, operand: Value) -> Result<Option<&'static str>> {
    let ty = operand.r#type();
    let element = tritium_dialects::access::ranked_tensor(ty)
        .map(|t| melior::ir::r#type::ShapedTypeLike::element(&t))
        .unwrap_or(ty);
    if !crate::ops::fp8::is_fp8(element) {
        return Ok(None);
    }
    match element.to_string().as_str() {
        "f8E4M3FN" => Ok(Some("e4m3")),
        "f8E5M2" => Ok(Some("e5m2")),
        other => {
            Err(LowerError::at(op, format!("mma.sync takes fp8 as e4m3 (f8E4M3FN) or e5m2 (f8E5M2), not {other}")))
        }
    }
}

/// k of a thread's f64 operand slot `slot`, from its origin in the K tile:
/// a thread holds runs of `k_width` consecutive k, one run every
/// `4 * k_width` (its quad's three other threads hold the runs between).
/// The same for A and B, so a slot pairs equal k.
fn f64_k_offset(k_width: u32, slot: u32) -> u32 {
    (slot / k_width) * 4 * k_width + slot % k_width
}

/// One 16x8 f64 accumulator tile through a K tile of four slots per thread:
/// `a[s]` holds A's rows g and g + 8 at slot s, `b[s]` B's column at slot
/// s, `c` the accumulator (rows g, g, g + 8, g + 8). sm_90 has
/// mma.sync.m16n8k16 for f64 (upstream uses it on exactly sm_90); before,
/// each slot is an m8n8k4 for rows 0-7 and one for rows 8-15, in
/// upstream's order.
fn f64_tile<'c>(
    l: &mut Lowering<'c>,
    capability: u32,
    a: &[[V; 2]],
    b: &[V],
    c: &[V],
    element: melior::ir::Type<'c>,
) -> Vec<V> {
    let extract = |l: &mut Lowering<'c>, out: V, count: i64| -> Vec<V> {
        (0..count)
            .map(|i| {
                let position = melior::ir::attribute::DenseI64ArrayAttribute::new(l.context(), &[i]);
                l.b.op1("llvm.extractvalue", &[out], element, &[("position", position.into())])
            })
            .collect()
    };
    if capability == 90 {
        let operands: Vec<V> = a.iter().flatten().chain(b).chain(c).copied().collect();
        let quad = melior::dialect::llvm::r#type::r#struct(l.context(), &[element; 4], false);
        let out =
            l.b.inline_asm(
                "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {$0, $1, $2, $3}, \
                 {$4, $5, $6, $7, $8, $9, $10, $11}, {$12, $13, $14, $15}, {$16, $17, $18, $19};",
                "=d,=d,=d,=d,d,d,d,d,d,d,d,d,d,d,d,d,0,1,2,3",
                &operands,
                Some(quad),
            )
            .unwrap();
        return extract(l, out, 4);
    }
    let pair = melior::dialect::llvm::r#type::r#struct(l.context(), &[element; 2], false);
    let mut accumulator = c.to_vec();
    for (rows, column) in a.iter().zip(b) {
        for half in 0..2 {
            let operands = [rows[half], *column, accumulator[2 * half], accumulator[2 * half + 1]];
            let out =
                l.b.inline_asm(
                    "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {$0, $1}, {$2}, {$3}, {$4, $5};",
                    "=d,=d,d,d,0,1",
                    &operands,
                    Some(pair),
                )
                .unwrap();
            let out = extract(l, out, 2);
            accumulator[2 * half..2 * half + 2].copy_from_slice(&out);
        }
    }
    accumulator
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (row, k) of A's element `i` and k of B's element `i` for lane
    /// (group g, thread t in group), as the PTX ISA's fragment tables for
    /// m16n8k16 (f16), m16n8k32 (s8) and m16n8k8 (tf32) state them.
    fn isa_a(operand: &str, g: u32, t: u32, i: u32) -> (u32, u32) {
        match operand {
            "f16" => {
                (if i < 2 || (4..6).contains(&i) { g } else { g + 8 }, t * 2 + (i & 1) + if i >= 4 { 8 } else { 0 })
            }
            "s8" => {
                (if i < 4 || (8..12).contains(&i) { g } else { g + 8 }, t * 4 + (i & 3) + if i >= 8 { 16 } else { 0 })
            }
            _ => (if i.is_multiple_of(2) { g } else { g + 8 }, t + if i >= 2 { 4 } else { 0 }),
        }
    }

    fn isa_b(operand: &str, t: u32, i: u32) -> u32 {
        match operand {
            "f16" => t * 2 + (i & 1) + if i >= 2 { 8 } else { 0 },
            "s8" => t * 4 + (i & 3) + if i >= 4 { 16 } else { 0 },
            _ => t + if i >= 1 { 4 } else { 0 },
        }
    }

    #[test]
    fn fragments_with_the_quad_lanes_are_the_isa_tables() {
        for (operand, elements_per_word) in [("f16", 2), ("s8", 4), ("tf32", 1)] {
            let mma = MmaSync { operand, b_operand: operand, accumulator: "f32", elements_per_word };
            // What the layouts' lane bases add: (row, k) for A, k for B.
            let lanes = quad_lanes(0, 1, 2, elements_per_word);
            let lane_part = |lane: u32| {
                lanes
                    .iter()
                    .enumerate()
                    .filter(|(bit, _)| lane >> bit & 1 == 1)
                    .fold((0, 0), |(r, k), (_, b)| (r ^ b[0], k ^ b[1]))
            };
            for lane in 0..32 {
                let (g, t) = (lane / 4, lane % 4);
                let (row0, k0) = lane_part(lane);
                for i in 0..4 * elements_per_word {
                    let (dr, dk) = mma.a_element(elements_per_word, 0, i / elements_per_word, i % elements_per_word);
                    assert_eq!((row0 + dr, k0 + dk), isa_a(operand, g, t, i), "{operand} A lane {lane} element {i}");
                }
                for i in 0..2 * elements_per_word {
                    let dk = mma.b_element(elements_per_word, 0, i / elements_per_word, i % elements_per_word);
                    assert_eq!(k0 + dk, isa_b(operand, t, i), "{operand} B lane {lane} element {i}");
                }
            }
            assert_eq!(mma.k(), 8 * elements_per_word);
        }
    }

    /// With k_width > elements per word (f16 upcast from fp8: 4), the
    /// instructions of a K tile use every k of the tile once, and A's and
    /// B's elements in the same instruction slot are the same k.
    #[test]
    fn wide_k_width_permutes_k_consistently() {
        let mma = MmaSync { operand: "f16", b_operand: "f16", accumulator: "f32", elements_per_word: 2 };
        for k_width in [2u32, 4, 8] {
            let mut used = vec![0u32; 8 * k_width as usize];
            for t in 0..4 {
                for part in 0..k_width / 2 {
                    for half in 0..2 {
                        for i in 0..2 {
                            let (_, a_k) = mma.a_element(k_width, part, 2 * half, i);
                            assert_eq!(a_k, mma.b_element(k_width, part, half, i));
                            assert_eq!(mma.a_element(k_width, part, 2 * half + 1, i), (8, a_k));
                            used[(t * k_width + a_k) as usize] += 1;
                        }
                    }
                }
            }
            assert!(used.iter().all(|u| *u == 1), "k_width {k_width}: {used:?}");
        }
    }

    /// f64 (m16n8k16, PTX ISA): lane (g, t) holds A's a_i at row g + 8 * (i %
    /// 2), k = t + 4 * (i / 2), and B's b_i at k = t + 4 * i; `f64_tile`
    /// takes A's slot s as registers 2s (row g) and 2s + 1 (row g + 8), B's
    /// as register s, and `f64_k_offset` must give those k from the lane's
    /// origin (k = t with kWidth 1).
    #[test]
    fn f64_slots_are_the_isa_tables() {
        for t in 0..4 {
            for i in 0..8 {
                assert_eq!(t + f64_k_offset(1, i / 2), t + 4 * (i / 2), "A lane t={t} register {i}");
            }
            for i in 0..4 {
                assert_eq!(t + f64_k_offset(1, i), t + 4 * i, "B lane t={t} register {i}");
            }
        }
    }

    /// The f64 instructions of a K tile (`16 * k_width` deep, `k_width`
    /// instructions of four slots) use every k of the tile exactly once
    /// across the quad's four threads.
    #[test]
    fn f64_slots_cover_the_k_tile_once() {
        for k_width in [1u32, 2, 4] {
            let mut used = vec![0u32; 16 * k_width as usize];
            for t in 0..4 {
                for part in 0..k_width {
                    for s in 0..4 {
                        used[(t * k_width + f64_k_offset(k_width, 4 * part + s)) as usize] += 1;
                    }
                }
            }
            assert!(used.iter().all(|u| *u == 1), "k_width {k_width}: {used:?}");
        }
    }
}
