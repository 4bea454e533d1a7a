//! Where each element of a distributed tensor lives: for a layout and a shape,
//! the coordinates of every register of every thread. Everything the lowering
//! knows about layouts comes from the linear layout here.
use crate::builder::{Builder, V};
use tritium_layout::{Dim, Layout, LinearLayout};

/// A tensor's distribution over the threads of a CTA.
pub struct TensorLayout {
    pub layout: Layout,
    pub linear: LinearLayout,
    pub shape: Vec<i64>,
    /// Coordinates of each register when lane = warp = 0.
    pub register_coords: Vec<Vec<u32>>,
    /// Lane and warp bases: the coordinates they add (XOR) per set bit.
    pub lane_bases: Vec<Vec<u32>>,
    pub warp_bases: Vec<Vec<u32>>,
}

fn bases(linear: &LinearLayout, dim: Dim) -> Vec<Vec<u32>> {
    linear.bases(&dim).cloned().unwrap_or_default()
}

fn xor_into(acc: &mut [u32], basis: &[u32]) {
    for (a, b) in acc.iter_mut().zip(basis) {
        *a ^= b;
    }
}

impl TensorLayout {
    pub fn new(layout: Layout, shape: &[i64]) -> Result<TensorLayout, String> {
        let linear = layout.to_linear(shape).map_err(|e| e.to_string())?;
        let rank = shape.len();
        if !bases(&linear, Dim::Block).iter().all(|b| b.iter().all(|x| *x == 0)) {
            return Err("layouts split over several CTAs are not supported yet".into());
        }
        let register_bases = bases(&linear, Dim::Register);
        let count = 1usize << register_bases.len();
        let register_coords = (0..count)
            .map(|r| {
                let mut coords = vec![0u32; rank];
                for (bit, basis) in register_bases.iter().enumerate() {
                    if r >> bit & 1 == 1 {
                        xor_into(&mut coords, basis);
                    }
                }
                coords
            })
            .collect();
        Ok(TensorLayout {
            lane_bases: bases(&linear, Dim::Lane),
            warp_bases: bases(&linear, Dim::Warp),
            layout,
            linear,
            shape: shape.to_vec(),
            register_coords,
        })
    }

    pub fn num_registers(&self) -> usize {
        self.register_coords.len()
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Bits of the lane id that do not change which element a thread holds
    /// (the tensor is replicated across them).
    pub fn free_lane_mask(&self) -> u32 {
        free_mask(&self.lane_bases)
    }

    pub fn free_warp_mask(&self) -> u32 {
        free_mask(&self.warp_bases)
    }

    /// Registers holding an element some earlier register already holds.
    pub fn is_duplicate_register(&self, register: usize) -> bool {
        self.register_coords[..register].contains(&self.register_coords[register])
    }
}

fn free_mask(bases: &[Vec<u32>]) -> u32 {
    bases.iter().enumerate().filter(|(_, b)| b.iter().all(|x| *x == 0)).fold(0, |mask, (bit, _)| mask | 1 << bit)
}

/// The thread's ids as the lowering uses them: `tid` (lanes are its bits 0-4,
/// warps the bits above, all zero past the CTA's size), and the warp id made
/// warp-uniform (a `shfl.sync.idx` from lane 0), so that ptxas keeps values
/// that depend only on the warp in uniform registers.
#[derive(Clone, Copy)]
pub struct ThreadIds {
    pub tid: V,
    pub warp: V,
}

/// `XOR` over the set bits `i` of `id` of `values[i]`: a linear map over GF(2).
/// Bits that move by the same distance share one mask-and-shift term, so a
/// run of id bits that lands on a run of result bits costs two instructions.
pub fn apply_linear(b: &mut Builder, id: V, values: &[u32]) -> V {
    let mut acc: Option<(V, u32)> = None;
    for (shift, mask) in linear_terms(values) {
        let term = if shift >= 0 {
            let m = b.i32_const(mask as i64);
            let masked = b.and(id, m);
            if shift == 0 {
                masked
            } else {
                let s = b.i32_const(shift);
                b.shl(masked, s)
            }
        } else {
            // Masked first, as upstream's applyLinearLayout: the `id & mask`
            // is then the same value as a test of those bits elsewhere.
            let m = b.i32_const(mask as i64);
            let masked = b.and(id, m);
            let s = b.i32_const(-shift);
            b.lshr(masked, s)
        };
        let bits = if shift >= 0 { mask << shift } else { mask >> -shift };
        acc = Some(match acc {
            // Terms over disjoint result bits combine with `or`, which LLVM
            // treats as an add and folds into addresses.
            Some((a, used)) if used & bits == 0 => (b.or(a, term), used | bits),
            Some((a, used)) => (b.xor(a, term), used | bits),
            None => (term, bits),
        });
    }
    acc.map(|(v, _)| v).unwrap_or_else(|| b.i32_const(0))
}

/// The terms of `apply_linear`: `(shift, input mask)`, each contributing
/// `(id & mask) << shift` (a right shift when negative), XORed together.
pub fn linear_terms(values: &[u32]) -> Vec<(i64, u32)> {
    let mut terms: Vec<(i64, u32)> = Vec::new();
    for (bit, value) in values.iter().enumerate() {
        let mut rest = *value;
        while rest != 0 {
            let target = rest.trailing_zeros();
            rest &= rest - 1;
            let shift = target as i64 - bit as i64;
            match terms.iter_mut().find(|(s, _)| *s == shift) {
                Some((_, mask)) => *mask |= 1 << bit,
                None => terms.push((shift, 1 << bit)),
            }
        }
    }
    terms
}

/// A linear function of the thread's lane and warp bits. It reads the
/// uniform warp id when no lane bit matters, else `tid` (one id for both, so
/// that runs crossing from lane to warp bits stay one term).
pub fn thread_linear(b: &mut Builder, ids: ThreadIds, lane_values: &[u32], warp_values: &[u32]) -> V {
    if lane_values.iter().all(|v| *v == 0) {
        return apply_linear(b, ids.warp, warp_values);
    }
    let mut values = lane_values.to_vec();
    values.resize(5, 0);
    values.extend_from_slice(warp_values);
    apply_linear(b, ids.tid, &values)
}

/// The per-dimension coordinate contributed by the thread's lane and warp ids.
pub fn runtime_coords(b: &mut Builder, layout: &TensorLayout, ids: ThreadIds) -> Vec<V> {
    (0..layout.rank())
        .map(|dim| {
            let lanes: Vec<u32> = layout.lane_bases.iter().map(|basis| basis[dim]).collect();
            let warps: Vec<u32> = layout.warp_bases.iter().map(|basis| basis[dim]).collect();
            thread_linear(b, ids, &lanes, &warps)
        })
        .collect()
}

/// Where each register of a distributed tensor lives in a shared-memory
/// buffer: the shared layout (offset -> coordinates) inverted and composed
/// with the distributed one gives, linearly, an element offset per register
/// and per lane and warp bit.
pub struct SharedAccess {
    /// Element offset of each register when lane = warp = 0.
    pub register_offsets: Vec<u32>,
    /// Offset (XOR) contributed by each register bit; 0 where the registers
    /// differing in that bit hold the same element.
    pub register_bases: Vec<u32>,
    /// Offset (XOR) contributed by each lane bit and each warp bit.
    pub lane_offsets: Vec<u32>,
    pub warp_offsets: Vec<u32>,
}

impl SharedAccess {
    pub fn new(shared: &LinearLayout, distributed: &TensorLayout) -> Result<SharedAccess, String> {
        // C with shared(C(x)) = distributed(x): (register, lane, warp) -> offset.
        let composed = distributed
            .linear
            .invert_and_compose(shared)
            .map_err(|e| format!("the shared layout does not hold this tensor: {e}"))?;
        let offsets = |dim: Dim| -> Vec<u32> {
            composed
                .bases(&dim)
                .map(|bases| bases.iter().map(|b| offset_of(&composed, b)).collect())
                .unwrap_or_default()
        };
        let register_bases = offsets(Dim::Register);
        let count = 1usize << register_bases.len();
        let register_offsets = (0..count)
            .map(|r| {
                register_bases.iter().enumerate().filter(|(bit, _)| r >> bit & 1 == 1).fold(0, |acc, (_, o)| acc ^ o)
            })
            .collect();
        Ok(SharedAccess {
            register_offsets,
            register_bases,
            lane_offsets: offsets(Dim::Lane),
            warp_offsets: offsets(Dim::Warp),
        })
    }

    /// Every bit a lane or warp can set in the thread's part of an offset.
    pub fn thread_mask(&self) -> u32 {
        self.lane_offsets.iter().chain(&self.warp_offsets).fold(0, |m, o| m | o)
    }

    /// The largest power-of-two run of registers with consecutive offsets,
    /// aligned, at most `max` long.
    pub fn vector_width(&self, max: usize) -> usize {
        let mut width = max.max(1);
        while width > 1 {
            let aligned =
                self.lane_offsets.iter().chain(&self.warp_offsets).all(|o| (*o as usize).is_multiple_of(width));
            let runs = self.register_offsets.len().is_multiple_of(width)
                && self.register_offsets.chunks(width).all(|chunk| {
                    (chunk[0] as usize).is_multiple_of(width)
                        && chunk.iter().enumerate().all(|(i, o)| *o == chunk[0] + i as u32)
                });
            if aligned && runs {
                break;
            }
            width /= 2;
        }
        width
    }
}

/// The offset a basis of the composed layout names (its `offset` component).
fn offset_of(layout: &LinearLayout, basis: &[u32]) -> u32 {
    let index = layout.out_dim_index(&Dim::Offset).unwrap_or(0);
    basis.get(index).copied().unwrap_or(0)
}

/// This thread's part of the offsets: XOR of the lane and warp bits' offsets.
pub fn runtime_offset(b: &mut Builder, access: &SharedAccess, ids: ThreadIds) -> V {
    thread_linear(b, ids, &access.lane_offsets, &access.warp_offsets)
}

/// `thread ^ constant` as `(thread ^ overlap) + rest`, where `rest` holds
/// the bits of `constant` that no thread bit can set: the XOR of those is an
/// add, which LLVM folds into the address as an immediate, so registers whose
/// offsets differ only there share one address register.
pub fn xor_offset(b: &mut Builder, thread: V, thread_mask: u32, constant: u32) -> V {
    let overlap = constant & thread_mask;
    let rest = constant & !thread_mask;
    let mut v = thread;
    if overlap != 0 {
        let c = b.i32_const(overlap as i64);
        v = b.xor(v, c);
    }
    if rest != 0 {
        let c = b.i32_const(rest as i64);
        v = b.add(v, c);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_terms_compute_the_xor_of_the_set_bits_values() {
        let cases: [&[u32]; 4] =
            [&[2, 4, 8, 16, 32], &[72, 144, 1, 0, 1032, 3], &[0, 0, 16, 32], &[1 << 20, 5, 1 << 9]];
        for values in cases {
            let terms = linear_terms(values);
            for id in 0u32..1 << values.len() {
                let expected = values.iter().enumerate().filter(|(i, _)| id >> i & 1 == 1).fold(0, |a, (_, v)| a ^ v);
                let actual = terms.iter().fold(0u32, |a, (shift, mask)| {
                    let masked = id & mask;
                    a ^ if *shift >= 0 { masked << shift } else { masked >> -shift }
                });
                assert_eq!(actual, expected, "{values:?} at {id}");
            }
        }
    }
}
