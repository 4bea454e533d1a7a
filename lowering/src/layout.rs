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
    bases
        .iter()
        .enumerate()
        .filter(|(_, b)| b.iter().all(|x| *x == 0))
        .fold(0, |mask, (bit, _)| mask | 1 << bit)
}

/// The per-dimension coordinate contributed by the thread's lane and warp ids,
/// `xor` of `((id >> bit) & 1) << log2(basis)` over the bits.
pub fn runtime_coords(b: &mut Builder, layout: &TensorLayout, lane: V, warp: V) -> Vec<V> {
    (0..layout.rank())
        .map(|dim| {
            let mut acc: Option<V> = None;
            for (id, bases) in [(lane, &layout.lane_bases), (warp, &layout.warp_bases)] {
                for (bit, basis) in bases.iter().enumerate() {
                    let step = basis[dim];
                    if step == 0 {
                        continue;
                    }
                    let target = step.trailing_zeros() as i64;
                    let moved = if target >= bit as i64 {
                        let shift = b.i32_const(target - bit as i64);
                        b.shl(id, shift)
                    } else {
                        let shift = b.i32_const(bit as i64 - target);
                        b.lshr(id, shift)
                    };
                    let mask = b.i32_const(step as i64);
                    let term = b.and(moved, mask);
                    acc = Some(match acc {
                        Some(a) => b.xor(a, term),
                        None => term,
                    });
                }
            }
            acc.unwrap_or_else(|| b.i32_const(0))
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
            .map(|r| register_bases.iter().enumerate().filter(|(bit, _)| r >> bit & 1 == 1).fold(0, |acc, (_, o)| acc ^ o))
            .collect();
        Ok(SharedAccess { register_offsets, lane_offsets: offsets(Dim::Lane), warp_offsets: offsets(Dim::Warp) })
    }

    /// The largest power-of-two run of registers with consecutive offsets,
    /// aligned, at most `max` long.
    pub fn vector_width(&self, max: usize) -> usize {
        let mut width = max.max(1);
        while width > 1 {
            let aligned = self.lane_offsets.iter().chain(&self.warp_offsets).all(|o| *o as usize % width == 0);
            let runs = self.register_offsets.len() % width == 0
                && self.register_offsets.chunks(width).all(|chunk| {
                    chunk[0] as usize % width == 0 && chunk.iter().enumerate().all(|(i, o)| *o == chunk[0] + i as u32)
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
pub fn runtime_offset(b: &mut Builder, access: &SharedAccess, lane: V, warp: V) -> V {
    let mut acc: Option<V> = None;
    for (id, offsets) in [(lane, &access.lane_offsets), (warp, &access.warp_offsets)] {
        for (bit, offset) in offsets.iter().enumerate() {
            if *offset == 0 {
                continue;
            }
            let one = b.i32_const(1);
            let shift = b.i32_const(bit as i64);
            let moved = b.lshr(id, shift);
            let set = b.and(moved, one);
            let value = b.i32_const(*offset as i64);
            let term = b.mul(set, value);
            acc = Some(match acc {
                Some(a) => b.xor(a, term),
                None => term,
            });
        }
    }
    acc.unwrap_or_else(|| b.i32_const(0))
}
