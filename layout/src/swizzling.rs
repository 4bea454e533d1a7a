//! How many rounds a layout conversion through shared memory takes, as
//! upstream Triton 3.6 decides it for NVIDIA GPUs (`optimalSwizzling` with
//! the instruction tiles of `getSrcDstTiles`, `optimalSwizzlingLdSt` and
//! `buildReps` in `lib/Tools/GenericSwizzling.cpp`, sized by the NVIDIA
//! allocation's `getNumScratchElemsSwizzledCvt`): the scratch buffer is split into
//! vector, bank and segment bits; a segment bit that both layouts hold in
//! registers need not be in shared memory at the same time as the rest, so
//! it becomes a *rep* and the conversion moves the tensor in `2^reps` rounds
//! through a buffer `2^reps` times smaller than the tensor.
//!
//! Only the number of reps is computed here: the allocation sizes the scratch
//! with it, and the lowering plans its own (swizzled) buffer of that size.
//! All vectors are flat element indices, the first output dim the most minor
//! (upstream's `flattenOuts`).
use crate::{Dim, LinearLayout, Result};

/// The flat basis vectors of `dim` of a layout with a single output dim.
fn flat_bases(flat: &LinearLayout, dim: &Dim) -> Vec<u32> {
    flat.bases(dim).map(|bases| bases.iter().map(|b| b[0]).collect()).unwrap_or_default()
}

/// The rows of `vectors` in reduced row echelon form, the pivot of a row
/// being its lowest set bit (the form upstream's f2reduce produces).
fn reduced_echelon(vectors: &[u32], dim: u32) -> Vec<u32> {
    let mut rows: Vec<u32> = vectors.to_vec();
    let mut rank = 0;
    for column in 0..dim {
        let bit = 1u32 << column;
        let Some(pivot) = (rank..rows.len()).find(|&r| rows[r] & bit != 0) else {
            continue;
        };
        rows.swap(rank, pivot);
        for r in 0..rows.len() {
            if r != rank && rows[r] & bit != 0 {
                rows[r] ^= rows[rank];
            }
        }
        rank += 1;
    }
    rows.truncate(rank);
    rows
}

/// A basis of the vectors orthogonal (over GF(2)) to every one of `vectors`.
fn nullspace(vectors: &[u32], dim: u32) -> Vec<u32> {
    let rows = reduced_echelon(vectors, dim);
    let pivots: Vec<u32> = rows.iter().map(|r| r.trailing_zeros()).collect();
    (0..dim)
        .filter(|column| !pivots.contains(column))
        .map(|free| {
            rows.iter()
                .zip(&pivots)
                .filter(|(row, _)| *row >> free & 1 == 1)
                .fold(1u32 << free, |v, (_, p)| v ^ (1 << p))
        })
        .collect()
}

/// A basis of the intersection of two spans; for unit vectors (the usual
/// case) the common ones in the order of `b1`.
fn intersection(b1: &[u32], b2: &[u32], dim: u32) -> Vec<u32> {
    if b1.iter().chain(b2).all(|v| v.is_power_of_two()) {
        return b1.iter().copied().filter(|v| *v != 0 && b2.contains(v)).collect();
    }
    let mut joint = nullspace(b1, dim);
    joint.extend(nullspace(b2, dim));
    nullspace(&joint, dim)
}

/// The segment bits of the buffer: first the unit vectors neither side's
/// bank bits use, then, pairing the two sides' own bank bits, their XORs
/// (conflict-free), then the bits that cost conflicts.
fn segment(bank_src: &[u32], bank_dst: &[u32], dim: u32, length: usize) -> Vec<u32> {
    let src: Vec<u32> = bank_src.iter().copied().filter(|v| *v != 0).collect();
    let dst: Vec<u32> = bank_dst.iter().copied().filter(|v| *v != 0).collect();
    let mut segment: Vec<u32> =
        (0..dim).map(|b| 1u32 << b).filter(|unit| !src.contains(unit) && !dst.contains(unit)).collect();
    if segment.len() >= length {
        segment.truncate(length);
        return segment;
    }
    let mut a: Vec<u32> = src.iter().copied().filter(|v| !dst.contains(v)).collect();
    let mut b: Vec<u32> = dst.iter().copied().filter(|v| !src.contains(v)).collect();
    a.sort_unstable();
    a.dedup();
    b.sort_unstable();
    b.dedup();
    if a.len() > b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    let conflicts = (length as i64 - a.len() as i64 - segment.len() as i64).max(0).min(a.len() as i64) as usize;
    segment.extend((conflicts..a.len()).map(|i| a[i] ^ b[i]));
    segment.extend(&a[..conflicts]);
    segment.extend(&b[..conflicts]);
    segment.truncate(length);
    segment
}

/// The vector bits of the buffer: registers both sides hold (at most 128
/// bits), padded towards a 32-bit bank word with register bits one side
/// holds where the other has warps, then with warp bits.
fn vector_basis(src: &LinearLayout, dst: &LinearLayout, dim: u32, bitwidth: u32) -> Vec<u32> {
    let (reg_src, reg_dst) = (flat_bases(src, &Dim::Register), flat_bases(dst, &Dim::Register));
    let mut vector = intersection(&reg_src, &reg_dst, dim);
    vector.truncate((128 / bitwidth).trailing_zeros() as usize);
    if (1u32 << vector.len()) * bitwidth >= 32 {
        return vector;
    }
    let bases_per_bank = (32 / bitwidth).trailing_zeros() as usize;
    let nonzero = |v: Vec<u32>| -> Vec<u32> { v.into_iter().filter(|x| *x != 0).collect() };
    let warp_src = nonzero(flat_bases(src, &Dim::Warp));
    let warp_dst = nonzero(flat_bases(dst, &Dim::Warp));
    let without_vector = |regs: &[u32]| -> Vec<u32> { regs.iter().copied().filter(|r| !vector.contains(r)).collect() };
    let src_regs_dst_warps = intersection(&without_vector(&reg_src), &warp_dst, dim);
    let dst_regs_src_warps = intersection(&without_vector(&reg_dst), &warp_src, dim);
    let src_fills = if src_regs_dst_warps.len() == dst_regs_src_warps.len() && !src_regs_dst_warps.is_empty() {
        src_regs_dst_warps.iter().min() < dst_regs_src_warps.iter().min()
    } else {
        src_regs_dst_warps.len() > dst_regs_src_warps.len()
    };
    vector.extend(if src_fills { src_regs_dst_warps } else { dst_regs_src_warps });
    if vector.len() < bases_per_bank {
        vector.extend(intersection(&warp_src, &warp_dst, dim));
    }
    let mut i = 0;
    while vector.len() < bases_per_bank && (i < warp_src.len() || i < warp_dst.len()) {
        if i < warp_src.len() && !vector.contains(&warp_src[i]) {
            vector.push(warp_src[i]);
        }
        if vector.len() < bases_per_bank && i < warp_dst.len() && !vector.contains(&warp_dst[i]) {
            vector.push(warp_dst[i]);
        }
        i += 1;
    }
    vector.truncate(bases_per_bank);
    vector
}

/// The segment bits of the buffer for a vector basis and the two sides'
/// bank tiles, and the number of them both sides hold in registers, past the
/// first `leave` (kept for vectorising ldmatrix/stmatrix): the reps.
fn reps(
    src: &LinearLayout,
    dst: &LinearLayout,
    bitwidth: u32,
    vector: &[u32],
    tiles: [&[u32]; 2],
    leave: usize,
) -> (Vec<u32>, u32) {
    let dim = src.total_out_size_log2();
    let bank_src: Vec<u32> = vector.iter().chain(tiles[0]).copied().collect();
    let bank_dst: Vec<u32> = vector.iter().chain(tiles[1]).copied().collect();
    let vector_bits = (1u32 << vector.len()) * bitwidth;
    let rest = dim as usize - vector.len();
    let bank_length = ((32 * 32 / vector_bits).max(1).ilog2() as usize).min(rest);
    let segment = segment(&bank_src, &bank_dst, dim, rest - bank_length);
    let (reg_src, reg_dst) = (flat_bases(src, &Dim::Register), flat_bases(dst, &Dim::Register));
    let common = segment.iter().filter(|s| reg_src.contains(s) && reg_dst.contains(s)).count();
    (segment, common.saturating_sub(leave) as u32)
}

/// log2 of the rounds of `optimalSwizzlingLdSt`: plain `ld/st.shared`.
fn ld_st_reps(src: &LinearLayout, dst: &LinearLayout, bitwidth: u32) -> u32 {
    let vector = vector_basis(src, dst, src.total_out_size_log2(), bitwidth);
    let wide_log2 = ((1u32 << vector.len()) * bitwidth / 32).max(1).trailing_zeros() as usize;
    let tile = |layout: &LinearLayout| -> Vec<u32> {
        let lanes = flat_bases(layout, &Dim::Lane);
        lanes[..lanes.len().saturating_sub(wide_log2)].to_vec()
    };
    reps(src, dst, bitwidth, &vector, [&tile(src), &tile(dst)], 0).1
}

/// An instruction's 128-bit tile (upstream's `LocalMemOpTile`): the lanes
/// that hold its contiguous part (the registers before them make up the
/// rest) and the lanes that give its row addresses (after registers).
struct InstructionTile {
    lane_contiguous: &'static [usize],
    lane_address: &'static [usize],
}

const LD_ST_SHARED: InstructionTile = InstructionTile { lane_contiguous: &[], lane_address: &[0, 1, 2] };
const LD_ST_MATRIX: InstructionTile = InstructionTile { lane_contiguous: &[0, 1], lane_address: &[2, 3, 4] };
const LD_ST_MATRIX_TRANS: InstructionTile = InstructionTile { lane_contiguous: &[2, 3, 4], lane_address: &[0, 1] };

/// The tiles the writes (`stmatrix` from sm_90) and the reads (`ldmatrix`
/// from sm_75) of a conversion may use.
fn instruction_tiles(capability: u32, bitwidth: u32) -> (Vec<&'static InstructionTile>, Vec<&'static InstructionTile>) {
    let (mut writes, mut reads) = (vec![&LD_ST_SHARED], vec![&LD_ST_SHARED]);
    let (stmatrix, ldmatrix) = (capability >= 90, capability >= 75);
    for (tile, fits) in [(&LD_ST_MATRIX, bitwidth <= 32), (&LD_ST_MATRIX_TRANS, bitwidth == 16)] {
        if fits && stmatrix {
            writes.push(tile);
        }
        if fits && ldmatrix {
            reads.push(tile);
        }
    }
    (writes, reads)
}

/// The vector basis of a pair of instruction tiles (upstream's
/// `optimalSwizzlingTile`): `registers_b` registers both sides hold, then
/// `b`'s contiguous lanes, which must be `a`'s registers and lanes in order.
fn tile_vector(
    a: &LinearLayout,
    b: &LinearLayout,
    registers_a: usize,
    registers_b: usize,
    lanes_a: &[usize],
    lanes_b: &[usize],
) -> Option<Vec<u32>> {
    if registers_a < registers_b {
        return tile_vector(b, a, registers_b, registers_a, lanes_b, lanes_a);
    }
    let dim = a.total_out_size_log2();
    let cvt = b.invert_and_compose(a).ok()?;
    let mut vector = intersection(&flat_bases(a, &Dim::Register), &flat_bases(b, &Dim::Register), dim);
    if vector.len() < registers_b {
        return None;
    }
    vector.truncate(registers_b);
    let (lane_a, lane_b) = (flat_bases(a, &Dim::Lane), flat_bases(b, &Dim::Lane));
    let tile_a: Vec<u32> = lanes_a.iter().map(|i| lane_a[*i]).collect();
    let tile_b: Vec<u32> = lanes_b.iter().map(|i| lane_b[*i]).collect();
    if tile_a.iter().chain(&tile_b).any(|v| *v == 0) {
        return None;
    }
    let component = |lane: usize, dim: &Dim| -> u32 {
        cvt.out_dim_index(dim).and_then(|o| cvt.basis(&Dim::Lane, lane).map(|b| b[o])).unwrap_or(0)
    };
    if lanes_b[..registers_a - registers_b].iter().any(|lane| component(*lane, &Dim::Register) == 0) {
        return None;
    }
    let tail = &lanes_b[lanes_b.len() - lanes_a.len()..];
    if lanes_a.iter().zip(tail).any(|(lane_of_a, lane_of_b)| component(*lane_of_b, &Dim::Lane) != 1 << lane_of_a) {
        return None;
    }
    vector.extend(tile_b);
    Some(vector)
}

/// An instruction's bank tile: the side's first registers outside `vector`
/// that its rows need, then its address lanes.
fn bank_tile(tile: &InstructionTile, layout: &LinearLayout, vector: &[u32]) -> Option<Vec<u32>> {
    let needed = 3 - tile.lane_address.len();
    let mut bases: Vec<u32> =
        flat_bases(layout, &Dim::Register).into_iter().filter(|r| !vector.contains(r)).take(needed).collect();
    if bases.len() < needed {
        return None;
    }
    let lanes = flat_bases(layout, &Dim::Lane);
    bases.extend(tile.lane_address.iter().map(|i| lanes[*i]));
    Some(bases)
}

/// log2 of the number of rounds upstream converts `src` to `dst` in on an
/// NVIDIA GPU of `capability` (both distributed layouts of the same tensor,
/// elements of `bitwidth` bits: 8 for i1, 64 for pointers). The scratch
/// holds `numel >> rounds_log2` elements.
pub fn conversion_rounds_log2(src: &LinearLayout, dst: &LinearLayout, bitwidth: u32, capability: u32) -> Result<u32> {
    let prepare = |layout: &LinearLayout| -> Result<LinearLayout> {
        let outs = layout.out_dim_names();
        let present: Vec<Dim> =
            [Dim::Register, Dim::Lane, Dim::Warp].into_iter().filter(|d| layout.has_in_dim(d)).collect();
        layout.sublayout(&present, &outs)?.remove_zero_bases_along_dim(&Dim::Register)?.flatten_outs()
    };
    let (src, dst) = (prepare(src)?, prepare(dst)?);
    let bitwidth = bitwidth.max(8);
    let rank = src.total_out_size_log2();
    let total = (128 / bitwidth).trailing_zeros() as usize;
    let (writes, reads) = instruction_tiles(capability, bitwidth);
    // (bank conflicts, reps) of every pair of instructions that fits.
    let mut best: Option<(u32, u32)> = None;
    for write in &writes {
        for read in &reads {
            let (Some(registers_w), Some(registers_r)) =
                (total.checked_sub(write.lane_contiguous.len()), total.checked_sub(read.lane_contiguous.len()))
            else {
                continue;
            };
            let Some(vector) =
                tile_vector(&src, &dst, registers_w, registers_r, write.lane_contiguous, read.lane_contiguous)
            else {
                continue;
            };
            let (Some(tile_src), Some(tile_dst)) = (bank_tile(write, &src, &vector), bank_tile(read, &dst, &vector))
            else {
                continue;
            };
            let missing = |t: &InstructionTile| t.lane_contiguous.len() + t.lane_address.len() - 3;
            let leave = missing(write).min(missing(read));
            let (segment, reps) = reps(&src, &dst, bitwidth, &vector, [&tile_src, &tile_dst], leave);
            let conflicts = |tile: &[u32]| (1u32 << intersection(&segment, tile, rank).len()) - 1;
            let cost = conflicts(&tile_src) + conflicts(&tile_dst);
            // Fewest conflicts, then most rounds; the first such pair.
            if best.is_none_or(|(c, r)| cost < c || (cost == c && reps > r)) {
                best = Some((cost, reps));
            }
        }
    }
    Ok(match best {
        Some((_, reps)) => reps,
        None => ld_st_reps(&src, &dst, bitwidth),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullspace_is_orthogonal_and_complete() {
        let vectors = [0b0110, 0b0011];
        let null = nullspace(&vectors, 4);
        assert_eq!(null.len(), 2);
        for n in &null {
            for v in &vectors {
                assert_eq!((n & v).count_ones() % 2, 0, "{n:b} . {v:b}");
            }
        }
    }

    #[test]
    fn intersection_of_general_spans() {
        // span{011, 100} and span{111, 010}: both contain 111 ^ 100 = 011? no:
        // {011,100,111} and {111,010,101}: the common non-zero vector is 111.
        let common = intersection(&[0b011, 0b100], &[0b111, 0b010], 3);
        assert_eq!(common.len(), 1);
        assert_eq!(common[0], 0b111);
    }

    #[test]
    fn segment_prefers_unused_unit_bits() {
        assert_eq!(segment(&[1, 2], &[1, 4], 4, 1), vec![8]);
        // No unused bit: pair 2 with 4 (their XOR serves both sides).
        assert_eq!(segment(&[1, 2, 8], &[1, 4, 8], 4, 1), vec![6]);
    }
}
