//! Hopper's warpgroup MMA: ttng.warp_group_dot (`wgmma.mma_async`),
//! ttng.warp_group_dot_wait (`wgmma.wait_group`) and ttng.fence_async_shared
//! (`fence.proxy.async`).
//!
//! A warp_group_dot is, per warpgroup, one `wgmma.mma_async.m64nNkK` for each
//! 64xN tile of the accumulator and each K step. B, and A unless it is in
//! registers, are read from shared memory through 64-bit matrix descriptors
//! (start address, leading and stride byte offsets, swizzle mode, base
//! offset). The descriptor of a buffer is found from its shared layout (a
//! linear layout, offset <-> coordinates) the way upstream does, then checked
//! element by element: every element of every instruction tile must be where
//! the hardware's canonical layout for that descriptor puts it. Accumulator
//! and register-A fragments are matched to the layouts' registers by
//! coordinates, after checking that the lane and warp bases are wgmma's.
use crate::{
    builder::{type_of, V},
    emit::{LowerError, Lowering, Result},
    layout::TensorLayout,
};
use melior::ir::{attribute::DenseI64ArrayAttribute, operation::OperationLike, OperationRef, Type, ValueLike};
use std::collections::HashMap;
use tritium_dialects::access::ranked_tensor;
use tritium_dialects::views::WarpGroupDotOp;
use tritium_dialects::{layout::layout_of, types::MemDesc};
use tritium_layout::{Dim, Layout, LinearLayout};

/// The ops of this family exist on sm_90 only.
fn require_sm90(l: &Lowering, op: &OperationRef) -> Result<()> {
    if l.target.capability < 90 {
        return Err(LowerError::at(op, format!("needs sm_90 (wgmma), the target is {}", l.target.name())));
    }
    Ok(())
}

pub fn lower_fence_async_shared<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    require_sm90(l, &op)?;
    let cluster = op.attribute("bCluster").map(|a| a.to_string() == "true").unwrap_or(false);
    let space = if cluster { "cluster" } else { "cta" };
    // The barrier between the fence and the wgmma that reads what
    // other threads wrote is tritongpu-membar's (a ttg.local_barrier).
    l.b.inline_asm(&format!("fence.proxy.async.shared::{space};"), "", &[], None);
    Ok(())
}

pub fn lower_warp_group_dot<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    require_sm90(l, &op)?;
    dot(l, op)
}

/// Warpgroups resident on an SM from which a kernel's warpgroups wait for
/// all their wgmmas (`wgmma.wait_group 0`) where the TTGIR lets one group
/// stay in flight (`pendings = 1`, the software pipeliner's). Waiting for
/// less is the pipeliner's way to overlap a warpgroup's wgmmas with its next
/// iteration; with four warpgroups or more on the SM the others keep the
/// tensor cores busy meanwhile, and the overlap only costs power: on the
/// H200 at its 700 W limit (bench/gpu_session12.sh PART=4-6, back-to-back
/// launches, nvidia-smi), tma_matmul 8192^3 (8 warps, 2 CTAs per SM) ran
/// at 1,065-1,132 MHz and 2.15-2.23 ms with `wait_group 1`, at 1,245-1,252
/// MHz and 1.92-1.94 ms with `wait_group 0` (upstream's, which ptxas
/// serializes (C7515), 1,230-1,245 MHz and 1.98-1.99 ms), and 1.08-1.10x
/// upstream's time in the harness's interleaved timing against 0.97 with
/// 0 (0.985-1.054 on other machines). With this rule (PART=7, two timings):
/// tma_matmul 0.971-0.975 (4096^3 and 8192^3), device_desc_matmul 0.968
/// (0.937 before), matmul_bf16 0.994, matmul_grouped_f16 0.990, matmul_tf32
/// 1.013 and 0.995 masked (1.005 and 0.975 before: 2 CTAs by shared memory,
/// 1 by ptxas's registers). At 2 or 3 warpgroups per SM waiting for all
/// cost 3-16% (tut03_matmul 64x256 and 128x128, tut08_grouped_matmul) and
/// 32-53% (matmul_ref_s3, persist_tma_matmul_f16, one CTA of 8 warps), so
/// those keep the pipeliner's wait. Warp-specialized kernels keep it too.
const WAIT_FOR_ALL_FROM_WARPGROUPS: u32 = 4;

/// Registers per thread a wgmma kernel needs at least besides its
/// accumulator (addresses, indices, loop state), for [`resident_warpgroups`]:
/// ptxas gave the harness's sm_90 matmuls 26 (tma_matmul) to 92
/// (matmul_tf32) more than their accumulators; the low end, so that the
/// estimate does not rule out a kernel that fits.
const REGISTERS_BESIDES_ACCUMULATOR: u32 = 40;

/// The kernel's warpgroups an SM holds at once: its CTAs by shared memory and
/// threads ([`Lowering::resident_ctas`]) and by registers, estimated as the
/// accumulator's `accumulator_registers` per thread plus
/// [`REGISTERS_BESIDES_ACCUMULATOR`] (ptxas decides the real count later);
/// times the CTA's warpgroups.
fn resident_warpgroups(l: &Lowering, accumulator_registers: usize) -> u32 {
    let threads = l.num_warps * l.threads_per_warp;
    let registers = (accumulator_registers as u32 + REGISTERS_BESIDES_ACCUMULATOR).next_multiple_of(8);
    let by_registers = 65_536 / (registers * threads).max(1);
    l.resident_ctas.min(by_registers) * (l.num_warps / 4)
}

pub fn lower_warp_group_dot_wait<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    require_sm90(l, &op)?;
    let mut pendings = crate::int_attribute(&op, "pendings").unwrap_or(0);
    let mut all = Vec::new();
    let mut counts = Vec::new();
    for i in 0..op.operand_count() {
        let registers = l.operand(&op, i)?;
        counts.push(registers.len());
        all.extend(registers);
    }
    if pendings > 0 && resident_warpgroups(l, counts.first().copied().unwrap_or(0)) >= WAIT_FOR_ALL_FROM_WARPGROUPS {
        pendings = 0;
    }
    let mut waited = wait_group(l, &all, pendings).into_iter();
    for (i, count) in counts.into_iter().enumerate() {
        let registers: Vec<V> = waited.by_ref().take(count).collect();
        l.set_result(&op, i, registers);
    }
    // No barrier: as upstream, tritongpu-membar puts a
    // ttg.local_barrier before any later write to the buffers the
    // wgmmas read, and such writes come after this wait.
    Ok(())
}

/// `wgmma.wait_group.sync.aligned pendings` (an nvg.wgmma_wait_group), with
/// `values` passed through it (outputs tied to inputs) so that their later
/// uses are ordered after the wait. Values are given to it as f32, i32, i64
/// or i16 (the PTX register classes f, r, l, h); values of types without a
/// register class of their own (i1, i8) are not wgmma results and pass
/// around it.
fn wait_group(l: &mut Lowering, values: &[V], pendings: i64) -> Vec<V> {
    let i64_type = l.b.i64();
    let i16_type = l.b.int_type(16);
    // (index in values, value given to the wait)
    let mut passed: Vec<(usize, V)> = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let ty = type_of(*v);
        let text = ty.to_string();
        let entry = match text.as_str() {
            "f32" | "i32" | "i64" | "i16" => Some(*v),
            "f64" => Some(l.b.op1("llvm.bitcast", &[*v], i64_type, &[])),
            "f16" | "bf16" => Some(l.b.op1("llvm.bitcast", &[*v], i16_type, &[])),
            _ if text.starts_with("!llvm.ptr") => Some(l.b.op1("llvm.ptrtoint", &[*v], i64_type, &[])),
            _ => None,
        };
        if let Some(value) = entry {
            passed.push((i, value));
        }
    }
    if passed.is_empty() {
        l.b.inline_asm(&format!("wgmma.wait_group.sync.aligned {pendings};"), "", &[], None);
        return values.to_vec();
    }
    // As upstream, one nvg.wgmma_wait_group on a struct of the values
    // (convert-nv-gpu-to-llvm ties its outputs to its inputs).
    let operands: Vec<V> = passed.iter().map(|(_, v)| *v).collect();
    let types: Vec<Type> = operands.iter().map(|v| type_of(*v)).collect();
    let struct_type = melior::dialect::llvm::r#type::r#struct(l.context(), &types, false);
    let packed = crate::function_abi::pack(&l.b, &operands, struct_type);
    let i32_type = l.b.i32();
    let pendings_attribute = l.b.int_attr(i32_type, pendings);
    let waited = l.b.op1("nvg.wgmma_wait_group", &[packed], struct_type, &[("pendings", pendings_attribute)]);
    let outputs = extract_all(l, waited, &types);
    let mut result = values.to_vec();
    for ((i, _), output) in passed.iter().zip(outputs) {
        let original = type_of(values[*i]);
        result[*i] = if type_of(output) == original {
            output
        } else if original.to_string().starts_with("!llvm.ptr") {
            l.b.op1("llvm.inttoptr", &[output], original, &[])
        } else {
            l.b.op1("llvm.bitcast", &[output], original, &[])
        };
    }
    result
}

fn extract_all(l: &mut Lowering, aggregate: V, types: &[Type]) -> Vec<V> {
    types
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let position = DenseI64ArrayAttribute::new(l.context(), &[i as i64]);
            l.b.op1("llvm.extractvalue", &[aggregate], *ty, &[("position", position.into())])
        })
        .collect()
}

/// The lane bases of wgmma's accumulator and register-A fragments, as
/// (row, column): lanes 0-1 step the column by 2 and 4, lanes 2-4 the row by
/// 1, 2 and 4. Warps 0-1 of a warpgroup step the row by 16 and 32.
fn fragment_lanes() -> Vec<Vec<u32>> {
    vec![vec![0, 2], vec![0, 4], vec![1, 0], vec![2, 0], vec![4, 0]]
}

/// The lane bases of a register-A fragment of elements `per_word` to a
/// 32-bit register: lanes 0-1 step k by one and two registers' elements,
/// lanes 2-4 the row (for 16-bit elements, `fragment_lanes`).
fn register_a_lanes(per_word: u32) -> Vec<Vec<u32>> {
    vec![vec![0, per_word], vec![0, 2 * per_word], vec![1, 0], vec![2, 0], vec![4, 0]]
}

/// (row, k) of the first element of register `word` (0-3) of a thread's
/// register-A fragment of an `m64nNk{instr_k}` wgmma, from the thread's
/// origin (what its lane and warp add, `register_a_lanes` and rows 16 and
/// 32): registers 0 and 2 are on the thread's row, 1 and 3 eight rows
/// down; 0 and 1 hold k in the first half of the instruction's K, 2 and 3
/// in the second. Element j of a register (low bits first) is k + j. This
/// is the PTX ISA's "Register Fragments" of wgmma.mma_async (section
/// 9.7.15.5.1.1: the figures "WGMMA .m64nNk16 / .m64nNk8 / .m64nNk32
/// register fragment layout for matrix A", f16/bf16, tf32, e4m3/e5m2/s8/u8);
/// the unit tests below check every thread and element against them.
fn register_a_word(instr_k: u32, word: u32) -> (u32, u32) {
    (8 * (word % 2), instr_k / 2 * (word / 2))
}

fn by_coordinates(layout: &TensorLayout) -> HashMap<Vec<u32>, usize> {
    let mut map = HashMap::new();
    for (r, coords) in layout.register_coords.iter().enumerate() {
        map.entry(coords.clone()).or_insert(r);
    }
    map
}

/// The value of a wgmma type name in nvg's WGMMAEltType enum.
fn wgmma_element_type(kind: &str) -> i64 {
    ["s8", "s32", "e4m3", "e5m2", "f16", "bf16", "tf32", "f32"].iter().position(|k| *k == kind).unwrap_or(0) as i64
}

/// The wgmma type name of an operand element type.
fn operand_kind(ty: Type, input_precision: i64) -> Option<(&'static str, u32)> {
    Some(match ty.to_string().as_str() {
        "f16" => ("f16", 16),
        "bf16" => ("bf16", 16),
        // inputPrecision 0 is TF32.
        "f32" if input_precision == 0 => ("tf32", 32),
        "i8" => ("s8", 8),
        "f8E5M2" => ("e5m2", 8),
        "f8E4M3FN" => ("e4m3", 8),
        _ => return None,
    })
}

// ----- shared-memory matrix descriptors ------------------------------------

/// A 2-D shared-memory buffer: the element offset of each coordinate bit.
pub struct SharedMatrix {
    /// Offsets (in elements) of coordinate 2^i along dim 0 and dim 1.
    bases: [Vec<u32>; 2],
    pub shape: [u32; 2],
    pub bits: u32,
}

impl SharedMatrix {
    /// From a shared layout (offset -> coordinates) over `shape`.
    pub fn new(shared: &LinearLayout, shape: [u32; 2], bits: u32) -> std::result::Result<SharedMatrix, String> {
        let inverse = shared.invert().map_err(|e| format!("the shared layout is not invertible: {e}"))?;
        let offset = inverse.out_dim_index(&Dim::Offset).ok_or("the shared layout has no offset dimension")?;
        let mut bases: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        for (d, out) in bases.iter_mut().enumerate() {
            let dim_bases = inverse.bases(&Dim::Axis(d)).cloned().unwrap_or_default();
            if 1u32 << dim_bases.len() != shape[d] {
                return Err(format!("the shared layout does not cover dimension {d} of size {}", shape[d]));
            }
            for basis in dim_bases {
                for (i, component) in basis.iter().enumerate() {
                    if i != offset && *component != 0 {
                        return Err("the shared layout spreads the buffer over several CTAs".into());
                    }
                }
                out.push(basis[offset]);
            }
        }
        Ok(SharedMatrix { bases, shape, bits })
    }

    /// Element offset of `coords` (which must be in the buffer).
    pub fn offset(&self, coords: [u32; 2]) -> u32 {
        let mut offset = 0;
        for d in 0..2 {
            for (bit, basis) in self.bases[d].iter().enumerate() {
                if coords[d] >> bit & 1 == 1 {
                    offset ^= basis;
                }
            }
        }
        offset
    }

    fn bytes(&self, elements: u32) -> u32 {
        elements * self.bits / 8
    }
}

/// What a wgmma matrix descriptor says about its matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Descriptor {
    /// 0 (interleaved), 32, 64 or 128 bytes.
    pub swizzle: u32,
    /// The contiguous dimension is dim 0 (M for A, K for B).
    pub transposed: bool,
    /// Leading and stride dimension byte offsets.
    pub lbo: u32,
    pub sbo: u32,
}

impl Descriptor {
    fn mode(&self) -> u64 {
        match self.swizzle {
            0 => 0,
            32 => 3,
            64 => 2,
            _ => 1,
        }
    }

    /// The descriptor of a tile starting `offset_bytes` into the buffer,
    /// without the buffer's address (added at run time): fields, base offset
    /// and the tile's offset in 16-byte units, as upstream computes them.
    pub fn constant(&self, offset_bytes: u32) -> u64 {
        let mask = (self.swizzle >> 4).wrapping_sub(1);
        let base_offset = ((offset_bytes / 128) & mask & 7) as u64;
        let fields =
            ((self.lbo >> 4) as u64) << 16 | ((self.sbo >> 4) as u64) << 32 | base_offset << 49 | self.mode() << 62;
        fields + (offset_bytes >> 4) as u64
    }

    /// The unswizzled byte offset the hardware reads element (mn, k) of an
    /// instruction tile from, relative to the tile's start address (PTX ISA,
    /// "shared memory matrix layout"; LBO and SBO as upstream sets them).
    fn canonical(&self, k_major: bool, bits: u32, mn: u32, k: u32) -> u32 {
        // (row, column) of the tile in memory: rows of `unit` bytes, 8 rows
        // to a core matrix / swizzle atom; columns are the contiguous dim.
        let (row, column) = if k_major { (mn, k) } else { (k, mn) };
        let column_bytes = column * bits / 8;
        let unit = self.swizzle.max(16);
        let inside = (row % 8) * unit + column_bytes % unit;
        let (column_stride, row_stride) =
            if self.swizzle == 0 && !k_major { (self.sbo, self.lbo) } else { (self.lbo, self.sbo) };
        inside + (column_bytes / unit) * column_stride + (row / 8) * row_stride
    }

    /// The swizzle applied to shared addresses (bits 4-6 XOR bits 7-9).
    fn swizzled(&self, address: u32) -> u32 {
        if self.swizzle == 0 {
            return address;
        }
        let mask = self.swizzle / 16 - 1;
        address ^ ((address >> 7 & mask) << 4)
    }
}

/// One operand's instruction tiles in a shared buffer.
pub struct TileSet<'a> {
    pub matrix: &'a SharedMatrix,
    /// The instruction's tile shape, (M, K) for A, (K, N) for B.
    pub instr: [u32; 2],
    /// The M or N dim of the operand: 0 for A, 1 for B.
    pub mn_dim: usize,
    /// Tile origins of warpgroup 0.
    pub origins: Vec<[u32; 2]>,
    /// Coordinates and element offsets each warpgroup bit adds.
    pub warp_steps: Vec<([u32; 2], u32)>,
}

impl TileSet<'_> {
    /// Upstream's candidate descriptor for a swizzle and transposition.
    fn candidate(&self, transposed: bool, swizzle: u32) -> Option<Descriptor> {
        let m = self.matrix;
        let contiguous = if transposed { 0 } else { 1 };
        let other = 1 - contiguous;
        let width = 8 * swizzle.max(16) / m.bits;
        if width == 0 {
            return None;
        }
        let step = |d: usize, n: u32| -> Option<u32> {
            if n >= m.shape[d] {
                return None;
            }
            let mut coords = [0, 0];
            coords[d] = n;
            Some(m.bytes(m.offset(coords)))
        };
        let along_contiguous = if self.instr[contiguous] > width { step(contiguous, width)? } else { 0 };
        let along_other = if self.instr[other] > 8 { step(other, 8)? } else { 0 };
        let k_major = contiguous != self.mn_dim;
        let (lbo, sbo) =
            if swizzle == 0 && !k_major { (along_other, along_contiguous) } else { (along_contiguous, along_other) };
        let fits = |x: u32| x.is_multiple_of(16) && x >> 4 < 1 << 14;
        if !fits(lbo) || !fits(sbo) {
            return None;
        }
        Some(Descriptor { swizzle, transposed, lbo, sbo })
    }

    /// Every element of every tile (of every warpgroup) is where `d` says.
    fn holds(&self, d: &Descriptor) -> bool {
        let m = self.matrix;
        let k_major = (if d.transposed { 0 } else { 1 }) != self.mn_dim;
        let groups = 1usize << self.warp_steps.len();
        for group in 0..groups {
            let (mut shift, mut warp_offset) = ([0u32; 2], 0u32);
            for (bit, (coords, offset)) in self.warp_steps.iter().enumerate() {
                if group >> bit & 1 == 1 {
                    shift = [shift[0] ^ coords[0], shift[1] ^ coords[1]];
                    warp_offset ^= offset;
                }
            }
            for origin in &self.origins {
                // The start address as emitted: the warpgroup-0 tile offset
                // plus the warpgroup's offset.
                let start = m.bytes(m.offset(*origin)) + m.bytes(warp_offset);
                let first = [origin[0] ^ shift[0], origin[1] ^ shift[1]];
                if first[0] + self.instr[0] > m.shape[0] || first[1] + self.instr[1] > m.shape[1] {
                    return false;
                }
                for i in 0..self.instr[0] {
                    for j in 0..self.instr[1] {
                        let (mn, k) = if self.mn_dim == 0 { (i, j) } else { (j, i) };
                        let expected = m.bytes(m.offset([first[0] + i, first[1] + j]));
                        let address = d.swizzled(start + d.canonical(k_major, m.bits, mn, k));
                        if address != expected {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// The descriptor (upstream's search order: not transposed first, then
    /// swizzle 0, 32, 64, 128) under which the buffer holds every tile.
    pub fn descriptor(&self) -> Option<Descriptor> {
        if self.matrix.bits < 8 {
            return None;
        }
        for transposed in [false, true] {
            for swizzle in [0, 32, 64, 128] {
                if let Some(d) = self.candidate(transposed, swizzle) {
                    if self.holds(&d) {
                        return Some(d);
                    }
                }
            }
        }
        None
    }
}

/// A shared operand ready for the instructions: its descriptor and the
/// run-time part of its descriptors (the buffer's address in 16-byte units,
/// plus this warpgroup's offset, masked to 14 bits, as i64).
struct SharedOperand {
    matrix: SharedMatrix,
    descriptor: Descriptor,
    base: V,
}

impl SharedOperand {
    /// The descriptor of the tile at `origin` (warpgroup 0's coordinates).
    fn tile(&self, l: &mut Lowering, origin: [u32; 2]) -> V {
        let offset_bytes = self.matrix.bytes(self.matrix.offset(origin));
        let i64_type = l.b.i64();
        let constant = l.b.int(i64_type, self.descriptor.constant(offset_bytes) as i64);
        l.b.add(constant, self.base)
    }
}

#[allow(clippy::too_many_arguments)]
fn shared_operand<'c>(
    l: &mut Lowering<'c>,
    op: &OperationRef<'c, '_>,
    which: &str,
    ty: Type<'c>,
    pointer: V,
    instr: [u32; 2],
    mn_dim: usize,
    origins: Vec<[u32; 2]>,
    warp_coords: &[[u32; 2]],
) -> Result<SharedOperand> {
    let memdesc =
        MemDesc::of(ty).ok_or_else(|| LowerError::at(op, format!("operand {which} is not in shared memory")))?;
    if memdesc.shape.len() != 2 {
        return Err(LowerError::at(op, format!("operand {which}: only 2-D wgmma operands are supported")));
    }
    let bits = crate::ops::shared::element_bytes(memdesc.element_type) as u32 * 8;
    // As upstream, the layout of the whole allocation: a view's pointer
    // already points at its origin.
    let alloc = &memdesc.alloc_shape[memdesc.alloc_shape.len() - 2..];
    let layout = layout_of(memdesc.encoding).map_err(|e| LowerError::at(op, e.to_string()))?;
    let linear = layout.to_linear(alloc).map_err(|e| LowerError::at(op, e.to_string()))?;
    let shape = [alloc[0] as u32, alloc[1] as u32];
    let matrix =
        SharedMatrix::new(&linear, shape, bits).map_err(|e| LowerError::at(op, format!("operand {which}: {e}")))?;
    let warp_steps: Vec<([u32; 2], u32)> = warp_coords.iter().map(|c| (*c, matrix.offset(*c))).collect();
    for (_, offset) in &warp_steps {
        if matrix.bytes(*offset) % 16 != 0 {
            return Err(LowerError::at(op, format!("operand {which}: a warpgroup's tiles do not start on 16 bytes")));
        }
    }
    let tiles = TileSet { matrix: &matrix, instr, mn_dim, origins, warp_steps: warp_steps.clone() };
    let descriptor = tiles.descriptor().ok_or_else(|| {
        LowerError::at(
            op,
            format!(
                "operand {which}: the shared layout {} of {ty} is not one a wgmma descriptor can describe",
                memdesc.encoding
            ),
        )
    })?;
    // base = ((address >> 4) + warpgroup offset) & 0x3FFF, as i64.
    let i32_type = l.b.i32();
    let address = l.b.op1("llvm.ptrtoint", &[pointer], i32_type, &[]);
    let four = l.b.i32_const(4);
    let mut base = l.b.lshr(address, four);
    if warp_steps.iter().any(|(_, o)| *o != 0) {
        let ids = l.ids();
        // Warp bits 0-1 pick the warp in its warpgroup; the others pick the
        // warpgroup, whose tiles start `unit` 16-byte units further.
        let mut warp_values = vec![0, 0];
        warp_values.extend(warp_steps.iter().map(|(_, o)| matrix.bytes(*o) / 16));
        let offset = l.in_prologue(|b| crate::layout::thread_linear(b, ids, &[], &warp_values));
        base = l.b.add(base, offset);
    }
    let mask = l.b.i32_const(0x3FFF);
    let base = l.b.and(base, mask);
    let i64_type = l.b.i64();
    let base = l.b.op1("arith.extui", &[base], i64_type, &[]);
    Ok(SharedOperand { matrix, descriptor, base })
}

// ----- the dot ---------------------------------------------------------------

/// Packs 16-bit elements two to a b32 (the first in the low half), as
/// upstream: a 2-vector bitcast to i32.
fn pack_pair(l: &mut Lowering, low: V, high: V) -> V {
    let element = type_of(low);
    let vector_type = Type::vector(&[2], element);
    let mut vector = l.b.op1("llvm.mlir.undef", &[], vector_type, &[]);
    for (i, v) in [low, high].into_iter().enumerate() {
        let position = l.b.i32_const(i as i64);
        vector = l.b.op1("llvm.insertelement", &[vector, v, position], vector_type, &[]);
    }
    let i32_type = l.b.i32();
    l.b.op1("llvm.bitcast", &[vector], i32_type, &[])
}

enum OperandA {
    Shared(SharedOperand),
    /// The four b32 fragment registers of each (m0, k0) tile.
    Registers(HashMap<[u32; 2], Vec<V>>),
}

fn dot<'c>(l: &mut Lowering<'c>, op: OperationRef<'c, '_>) -> Result<()> {
    let dot = crate::ops::view(op, WarpGroupDotOp::of)?;
    let (a_value, b_value, c_value) = (dot.a(), dot.b(), dot.c());
    let (a_type, b_type, c_type) = (a_value.r#type(), b_value.r#type(), c_value.r#type());
    let c_layout = l.tensor_layout(&op, c_type)?;
    let Layout::NvidiaMma(mma) = &c_layout.layout else {
        return Err(LowerError::at(&op, "the accumulator's layout is not #ttg.nvidia_mma"));
    };
    if !mma.is_hopper() || mma.instr_shape.len() != 3 {
        return Err(LowerError::at(&op, "the accumulator's layout is not a version 3 (wgmma) #ttg.nvidia_mma"));
    }
    if c_layout.rank() != 2 {
        return Err(LowerError::at(&op, "batched wgmma dots are not supported"));
    }
    let (instr_n, instr_k) = (mma.instr_shape[1], mma.instr_shape[2]);

    // Types.
    let input_precision = crate::int_attribute(&op, "inputPrecision").unwrap_or(2);
    let a_memdesc = MemDesc::of(a_type);
    let a_element = match &a_memdesc {
        Some(m) => m.element_type,
        None => ranked_tensor(a_type)
            .map(|t| {
                use melior::ir::r#type::ShapedTypeLike;
                t.element()
            })
            .map_err(|_| LowerError::at(&op, "operand A is neither a tensor nor a memdesc"))?,
    };
    let b_memdesc = MemDesc::of(b_type).ok_or_else(|| LowerError::at(&op, "operand B must be in shared memory"))?;
    let a_shape: Vec<i64> = match &a_memdesc {
        Some(m) => m.shape.clone(),
        None => tritium_dialects::types::static_shape(a_type).unwrap_or_default(),
    };
    let unsupported = |ty: Type| {
        LowerError::at(&op, format!("wgmma of {ty} operands is not supported (f16, bf16, tf32, i8, fp8 are)"))
    };
    let (a_kind, bits) = operand_kind(a_element, input_precision).ok_or_else(|| unsupported(a_element))?;
    let (b_kind, b_bits) =
        operand_kind(b_memdesc.element_type, input_precision).ok_or_else(|| unsupported(b_memdesc.element_type))?;
    if bits != b_bits || (a_kind == "s8") != (b_kind == "s8") || (bits == 16 && a_kind != b_kind) {
        return Err(LowerError::at(&op, format!("wgmma of {a_kind} by {b_kind} is not supported")));
    }
    let c = l.operand(&op, 2)?;
    let accumulator_type = type_of(c[0]);
    let c_kind = match (accumulator_type.to_string().as_str(), a_kind) {
        ("f32", "s8") | ("i32", "f16" | "bf16" | "tf32" | "e5m2" | "e4m3") => {
            return Err(LowerError::at(&op, format!("wgmma of {a_kind} into {accumulator_type} is not supported")))
        }
        ("f32", _) => "f32",
        ("i32", _) => "s32",
        // Two f16 elements to a 32-bit register (f16x2), as wgmma's D; f16
        // and fp8 operands may accumulate in f16 (bf16 and tf32 may not).
        ("f16", "f16" | "e4m3" | "e5m2") => "f16",
        (other, _) => {
            return Err(LowerError::at(
                &op,
                format!("wgmma into {other} accumulators is not supported yet (f32, i32, and f16 of f16 or fp8 are)"),
            ))
        }
    };
    if instr_k * bits != 256 {
        return Err(LowerError::at(
            &op,
            format!("instrShape K is {instr_k}, but wgmma of {a_kind} is k{}", 256 / bits),
        ));
    }
    if !(8..=256).contains(&instr_n) || instr_n % 8 != 0 || (a_kind == "s8" && instr_n > 224) {
        return Err(LowerError::at(&op, format!("wgmma has no n{instr_n} shape for {a_kind}")));
    }
    let k_size = *a_shape.get(1).ok_or_else(|| LowerError::at(&op, "operand A is not 2-D"))? as u32;
    if k_size == 0 || !k_size.is_multiple_of(instr_k) {
        return Err(LowerError::at(&op, format!("K ({k_size}) is not a multiple of the instruction's k{instr_k}")));
    }
    let k_steps: Vec<u32> = (0..k_size).step_by(instr_k as usize).collect();

    // The accumulator must be wgmma's D fragment: checked on the lane and
    // warp bases, then each instruction's registers are found by coordinates.
    if c_layout.lane_bases != fragment_lanes()
        || c_layout.warp_bases.len() < 2
        || c_layout.warp_bases[0] != [16, 0]
        || c_layout.warp_bases[1] != [32, 0]
    {
        return Err(LowerError::at(
            &op,
            "the accumulator's layout does not give each warpgroup wgmma's fragments (lanes and warps are not wgmma's)",
        ));
    }
    let c_index = by_coordinates(&c_layout);
    let mut origins: Vec<[u32; 2]> = c_layout
        .register_coords
        .iter()
        .filter(|c| c[0] % 16 == 0 && c[1] % instr_n == 0)
        .map(|c| [c[0], c[1]])
        .collect();
    origins.sort();
    origins.dedup();
    // Register i of an instruction's D fragment is at row 8 * (i / 2 % 2),
    // column 8 * (i / 4) + i % 2 of the tile, from the thread's own origin.
    let per_instruction = (instr_n / 2) as usize;
    let mut covered = vec![false; c.len()];
    let mut tiles: Vec<([u32; 2], Vec<usize>)> = Vec::new();
    for origin in &origins {
        let mut registers = Vec::with_capacity(per_instruction);
        for i in 0..per_instruction as u32 {
            let coords = vec![origin[0] + 8 * (i / 2 % 2), origin[1] + 8 * (i / 4) + i % 2];
            let r = *c_index.get(&coords).ok_or_else(|| {
                LowerError::at(&op, "the accumulator's registers do not hold whole wgmma tiles (64 x instrShape N)")
            })?;
            if std::mem::replace(&mut covered[r], true) {
                return Err(LowerError::at(&op, "an accumulator register belongs to two wgmma tiles"));
            }
            registers.push(r);
        }
        tiles.push((*origin, registers));
    }
    if covered.iter().any(|c| !c) {
        return Err(LowerError::at(&op, "some accumulator registers are in no wgmma tile"));
    }
    // Warp bits above the warpgroup's two: where the other warpgroups' tiles are.
    let group_steps: Vec<[u32; 2]> = c_layout.warp_bases[2..].iter().map(|b| [b[0], b[1]]).collect();
    let mut m_origins: Vec<u32> = origins.iter().map(|o| o[0]).collect();
    m_origins.dedup();
    let mut n_origins: Vec<u32> = origins.iter().map(|o| o[1]).collect();
    n_origins.sort();
    n_origins.dedup();

    // Operand A: a descriptor, or fragment registers packed before the fence.
    let a = match &a_memdesc {
        Some(_) => {
            let pointer = l.operand(&op, 0)?[0];
            let a_origins = m_origins.iter().flat_map(|m| k_steps.iter().map(move |k| [*m, *k])).collect();
            let steps: Vec<[u32; 2]> = group_steps.iter().map(|s| [s[0], 0]).collect();
            OperandA::Shared(shared_operand(l, &op, "A", a_type, pointer, [64, instr_k], 0, a_origins, &steps)?)
        }
        None => {
            // A 32-bit register holds `per_word` consecutive k (two f16/bf16,
            // one tf32, four fp8/s8): wgmma's fragment is mma.sync's A.
            let per_word = 32 / bits;
            let a_layout = l.tensor_layout(&op, a_type)?;
            let warps_match = a_layout.warp_bases.len() == c_layout.warp_bases.len()
                && a_layout.warp_bases.iter().zip(&c_layout.warp_bases).all(|(a, c)| a[0] == c[0] && a[1] == 0);
            if a_layout.lane_bases != register_a_lanes(per_word) || !warps_match {
                return Err(LowerError::at(&op, "operand A's layout is not wgmma's register fragment"));
            }
            let a_registers = l.operand(&op, 0)?;
            let a_index = by_coordinates(&a_layout);
            let mut fragments = HashMap::new();
            for m0 in &m_origins {
                for k0 in &k_steps {
                    let mut words = Vec::with_capacity(4);
                    // a0..a3: rows +0/+8 and k +0/+instr_k/2, `per_word` consecutive k each.
                    for word in 0..4 {
                        let (dr, dk) = register_a_word(instr_k, word);
                        let elements = (0..per_word)
                            .map(|j| {
                                let coords = vec![m0 + dr, k0 + dk + j];
                                a_index
                                    .get(&coords)
                                    .map(|r| a_registers[*r])
                                    .ok_or_else(|| LowerError::at(&op, "a thread lacks part of its wgmma A fragment"))
                            })
                            .collect::<Result<Vec<V>>>()?;
                        words.push(match bits {
                            16 => pack_pair(l, elements[0], elements[1]),
                            _ => crate::ops::memory::pack(l, &elements, bits, 32)[0],
                        });
                    }
                    fragments.insert([*m0, *k0], words);
                }
            }
            OperandA::Registers(fragments)
        }
    };
    let b_pointer = l.operand(&op, 1)?[0];
    let b_origins = k_steps.iter().flat_map(|k| n_origins.iter().map(move |n| [*k, *n])).collect();
    let b_steps: Vec<[u32; 2]> = group_steps.iter().map(|s| [0, s[1]]).collect();
    let b = shared_operand(l, &op, "B", b_type, b_pointer, [instr_k, instr_n], 1, b_origins, &b_steps)?;

    // Transpositions: A is M-major when its buffer is transposed; B is
    // K-major when its buffer is transposed.
    let trans_a = matches!(&a, OperandA::Shared(s) if s.descriptor.transposed);
    let trans_b = !b.descriptor.transposed;
    // f16 accumulators: register i of the fragment is half of word i / 2.
    let packed = c_kind == "f16";
    let words = if packed { per_instruction / 2 } else { per_instruction };
    let needs_trans_args = bits == 16;
    if !needs_trans_args && (trans_a || trans_b) {
        return Err(LowerError::at(&op, format!("wgmma of {a_kind} needs K-major A and B in shared memory")));
    }
    // A zero constant accumulator (upstream's `isZeroConst`, scalar or splat).
    let zero_accumulator = tritium_dialects::ir::is_zero(c_value);
    let use_c_operand = if op.operand_count() > 3 { Some(l.operand(&op, 3)?[0]) } else { None };
    let is_fp8 = matches!(a_kind, "e5m2" | "e4m3");
    let max_imprecise = crate::int_attribute(&op, "maxNumImpreciseAcc").unwrap_or(0) as u32;
    let needs_partial = is_fp8 && c_kind == "f32" && max_imprecise <= k_size;

    let i1 = l.b.i1();
    let truth = l.b.int(i1, 1);
    let word_type = if packed { l.b.i32() } else { accumulator_type };
    let accumulator_types = vec![word_type; words];
    let result_type = melior::dialect::llvm::r#type::r#struct(l.context(), &accumulator_types, false);

    // As upstream, the NVVM ops (llvm.nvvm.wgmma.* intrinsics) for the fence
    // and the commit; the mmas and the waits are nvg ops.
    l.b.op("nvvm.wgmma.fence.aligned", &[], &[], &[]);
    let mut result = c.clone();
    for (origin, registers) in &tiles {
        let mut d: Option<Vec<V>> =
            if zero_accumulator { None } else { Some(registers.iter().map(|r| c[*r]).collect()) };
        let mut partial: Option<Vec<V>> = None;
        let mut low_precision = 0u32;
        for (step, k0) in k_steps.iter().enumerate() {
            low_precision += instr_k;
            let add_partial = needs_partial && (low_precision >= max_imprecise || step == k_steps.len() - 1);
            let accumulator = if needs_partial { partial.clone() } else { d.clone() };
            let scale_d = accumulator.as_ref().map(|_| match (step, use_c_operand) {
                (0, Some(u)) => u,
                _ => truth,
            });
            // As upstream, one nvg.wgmma on LLVM values (convert-nv-gpu-to-llvm
            // makes it the `wgmma.mma_async` inline asm): A is a descriptor
            // or a struct of four b32 fragment registers, B a descriptor,
            // C (absent: D is not read, scale-d 0) a struct of D's words.
            let operand_a = match &a {
                OperandA::Shared(shared) => shared.tile(l, [origin[0], *k0]),
                OperandA::Registers(fragments) => {
                    let words = &fragments[&[origin[0], *k0]];
                    let i32_type = l.b.i32();
                    let struct_type = melior::dialect::llvm::r#type::r#struct(l.context(), &[i32_type; 4], false);
                    crate::function_abi::pack(&l.b, words, struct_type)
                }
            };
            let operand_b = b.tile(l, [*k0, origin[1]]);
            let accumulator_struct = accumulator.as_ref().map(|acc| {
                let words: Vec<V> = if packed { crate::ops::memory::pack(l, acc, 16, 32) } else { acc.to_vec() };
                crate::function_abi::pack(&l.b, &words, result_type)
            });
            let use_c = match scale_d {
                Some(p) => p,
                None => l.b.int(i1, 0),
            };
            let mut operands = vec![operand_a, operand_b, use_c];
            operands.extend(accumulator_struct);
            let i32_type = l.b.i32();
            let attributes = [
                ("m", l.b.int_attr(i32_type, 64)),
                ("n", l.b.int_attr(i32_type, instr_n as i64)),
                ("k", l.b.int_attr(i32_type, instr_k as i64)),
                ("eltTypeC", l.b.int_attr(i32_type, wgmma_element_type(c_kind))),
                ("eltTypeA", l.b.int_attr(i32_type, wgmma_element_type(a_kind))),
                ("eltTypeB", l.b.int_attr(i32_type, wgmma_element_type(b_kind))),
                // nvg's WGMMALayout: row 0, col 1 (A col: M-major; B row: K-major).
                ("layoutA", l.b.int_attr(i32_type, trans_a as i64)),
                ("layoutB", l.b.int_attr(i32_type, !trans_b as i64)),
            ];
            let out = l.b.op1("nvg.wgmma", &operands, result_type, &attributes);
            let out = extract_all(l, out, &accumulator_types);
            let out = if packed { crate::ops::memory::unpack(l, &out, 32, 16, accumulator_type) } else { out };
            if needs_partial {
                partial = Some(out);
            } else {
                d = Some(out);
            }
            if add_partial {
                let p = partial.take().unwrap();
                // Contractable, as upstream's adds (compiled with FP fusion
                // on): `add.f32`, not the `add.rn.f32` that forbids fusion.
                let contract = crate::ops::elementwise::contract(l.context());
                d = Some(match d {
                    Some(d) => d
                        .iter()
                        .zip(&p)
                        .map(|(x, y)| l.b.op1("arith.addf", &[*x, *y], accumulator_type, &[("fastmath", contract)]))
                        .collect(),
                    None => p,
                });
                low_precision = 0;
            }
        }
        for (r, v) in registers.iter().zip(d.unwrap()) {
            result[*r] = v;
        }
    }
    l.b.op("nvvm.wgmma.commit.group.sync.aligned", &[], &[], &[]);
    let is_async = op.attribute("isAsync").map(|a| a.to_string() == "true").unwrap_or(false);
    if !is_async {
        result = wait_group(l, &result, 0);
    }
    l.set_result(&op, 0, result);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (row, k) in the instruction's 64 x K tile of element a_i of thread
    /// `thread` (0-127) of a warpgroup, as the PTX ISA lays out wgmma's
    /// register fragments of A (section 9.7.15.5.1.1, "Register Fragments",
    /// which gives them as figures; read off here as formulas): warp w of the
    /// warpgroup holds rows 16w to 16w + 15; in it, with g = groupID =
    /// %laneid >> 2 and t = threadID_in_group = %laneid % 4, a_i is at
    ///   m64nNk16, f16/bf16 (a0-a7, two to a .f16x2 register):
    ///     row g + 8 * (i / 2 % 2), col 2t + i % 2 + 8 * (i / 4)
    ///   m64nNk8, tf32 (a0-a3, one to a .b32 register):
    ///     row g + 8 * (i % 2), col t + 4 * (i / 2)
    ///   m64nNk32, e4m3/e5m2/s8/u8 (a0-a15, four to a .b32 register):
    ///     row g + 8 * (i / 4 % 2), col 4t + i % 4 + 16 * (i / 8)
    /// (the figures "WGMMA .m64nNk16 / .m64nNk8 / .m64nNk32 register fragment
    /// layout for matrix A"; CUTLASS's cute GMMA ALayout_64x16, ALayout_64x8
    /// and ALayout_64x32 say the same). Written out per type, not from
    /// `per_word`, so that they check `register_a_word` independently.
    fn isa_a(kind: &str, thread: u32, i: u32) -> (u32, u32) {
        let (warp, lane) = (thread / 32, thread % 32);
        let (g, t) = (lane >> 2, lane % 4);
        let (row, col) = match kind {
            "f16" => (g + 8 * (i / 2 % 2), 2 * t + i % 2 + 8 * (i / 4)),
            "tf32" => (g + 8 * (i % 2), t + 4 * (i / 2)),
            "e4m3" => (g + 8 * (i / 4 % 2), 4 * t + i % 4 + 16 * (i / 8)),
            _ => unreachable!(),
        };
        (16 * warp + row, col)
    }

    /// Every element of every thread's fragment, as the lowering assembles it
    /// (the lane bases it requires of A's layout, the warps' rows 16 and 32,
    /// then `register_a_word` and k + j within a register), is where the PTX
    /// ISA puts a_i, i = register * per_word + j; and the 128 threads cover
    /// the 64 x K tile once.
    #[test]
    fn register_a_fragments_are_the_isa_tables() {
        for (kind, bits) in [("f16", 16u32), ("tf32", 32), ("e4m3", 8)] {
            let per_word = 32 / bits;
            let instr_k = 256 / bits;
            let lanes = register_a_lanes(per_word);
            let warps = [[16u32, 0], [32, 0]];
            let mut covered = vec![0u32; (64 * instr_k) as usize];
            for thread in 0..128u32 {
                let (lane, warp) = (thread % 32, thread / 32);
                let mut origin = (0u32, 0u32);
                for (bit, basis) in lanes.iter().enumerate() {
                    if lane >> bit & 1 == 1 {
                        origin = (origin.0 ^ basis[0], origin.1 ^ basis[1]);
                    }
                }
                for (bit, basis) in warps.iter().enumerate() {
                    if warp >> bit & 1 == 1 {
                        origin = (origin.0 ^ basis[0], origin.1 ^ basis[1]);
                    }
                }
                for word in 0..4 {
                    let (dr, dk) = register_a_word(instr_k, word);
                    for j in 0..per_word {
                        let i = word * per_word + j;
                        let at = (origin.0 + dr, origin.1 + dk + j);
                        assert_eq!(at, isa_a(kind, thread, i), "{kind}: thread {thread}, a{i}");
                        covered[(at.0 * instr_k + at.1) as usize] += 1;
                    }
                }
            }
            assert!(covered.iter().all(|c| *c == 1), "{kind}: the fragments do not cover the tile once");
        }
    }

    /// For 16-bit elements the register-A lanes are the accumulator's (A's
    /// k16 fragment is laid out as D's first 16 columns), as
    /// `register_a_lanes` says.
    #[test]
    fn sixteen_bit_register_a_lanes_are_the_accumulators() {
        assert_eq!(register_a_lanes(2), fragment_lanes());
    }
}
