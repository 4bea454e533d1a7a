//! `ttg.convert_layout` within a warp through shuffles, as upstream's
//! `transferWithinWarp`: no shared memory and no barrier.
//!
//! The conversion is a permutation `P` of register and lane index bits,
//! factored (`tritium_layout::convert::warp_conversion_decomposition`) as
//! `P = P_mixed ∘ P_lane ∘ P_reg`: `P_reg` renames registers (free),
//! `P_mixed` is a product of disjoint transpositions `(r_i l_j)` between a
//! register bit and a lane bit, `P_lane` permutes lane bits. A transposition
//! `(r_i l_j)` is a 2x2 block transpose: over GF(2), `r_i ^= l_j` (a select
//! on lane bit j), `l_j ^= r_i` (a shuffle to the lane differing in bit j,
//! for the registers whose bit i is set), `r_i ^= l_j` again. All
//! transpositions' three stages are applied together (`swap`); a single
//! one without a lane permutation moves half the registers instead
//! (`ship`).
//!
//! Elements narrower than 32 bits travel packed, up to four to a 32-bit
//! register: the register bits no transposition moves are renamed to the
//! lowest (a renaming is free on either side of the transpositions), and
//! the elements they index share a register, as upstream packs them.
//!
//! The algorithm is written against [`WarpMachine`] so that the same code
//! emits the IR and, in the tests, runs on a model of a warp.
use crate::{
    builder::V,
    emit::Lowering,
    layout::apply_linear,
    ops::warp::{from_int, to_int, Shuffle},
};
use melior::ir::Type;
use tritium_layout::{convert::warp_conversion_decomposition, Dim, LinearLayout};

/// What the conversion does, worked out from the two layouts.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The source registers that hold distinct elements (broadcast copies
    /// dropped), in order: the registers the permutation acts on.
    source_registers: Vec<usize>,
    /// `P_reg`: register `i` of the (padded) distinct registers goes to
    /// `register_permutation[i]`.
    register_permutation: Vec<usize>,
    /// `P_lane⁻¹` as the lane each lane bit maps to.
    lane_inverse: Vec<u32>,
    lane_permuted: bool,
    /// `(register bit, lane bit)` of each mixed transposition, the register
    /// bit counted in packed registers.
    transpositions: Vec<(u32, u32)>,
    /// log2 of the elements packed into one 32-bit register.
    pack_log2: u32,
    /// For each destination register, its index among the distinct ones.
    destination_registers: Vec<usize>,
}

/// The operations a warp offers the algorithm: values are one register of
/// every lane.
pub trait WarpMachine {
    type Value: Clone;
    /// Per lane: `if_clear` where bit `bit` of the lane id is 0, else `if_set`.
    fn select_by_lane_bit(&mut self, bit: u32, if_clear: &Self::Value, if_set: &Self::Value) -> Self::Value;
    /// Per lane: the value of lane `lane ^ mask`.
    fn shuffle_xor(&mut self, value: &Self::Value, mask: u32) -> Self::Value;
    /// Per lane: the value of lane `L(lane) ^ mask`, `L` the linear map with
    /// `lane_bases` as the images of the lane bits.
    fn shuffle_from(&mut self, value: &Self::Value, lane_bases: &[u32], mask: u32) -> Self::Value;
    /// `2^log2` elements as one 32-bit register.
    fn pack(&mut self, elements: &[Self::Value]) -> Self::Value;
    /// The inverse of `pack`.
    fn unpack(&mut self, word: &Self::Value, count: usize) -> Vec<Self::Value>;
}

/// The registers of `layout` holding distinct elements: those whose index
/// has no bit whose register basis is zero.
fn distinct_registers(layout: &LinearLayout) -> Vec<usize> {
    let bases = layout.bases(&Dim::Register).cloned().unwrap_or_default();
    let broadcast: usize =
        bases.iter().enumerate().filter(|(_, b)| b.iter().all(|v| *v == 0)).map(|(i, _)| 1 << i).sum();
    (0..1usize << bases.len()).filter(|r| r & broadcast == 0).collect()
}

/// Of each register index, its index among the distinct registers (the
/// bits with a zero basis removed).
fn compressed_index(layout: &LinearLayout, register: usize) -> usize {
    let bases = layout.bases(&Dim::Register).cloned().unwrap_or_default();
    let mut index = 0;
    let mut position = 0;
    for (bit, basis) in bases.iter().enumerate() {
        if basis.iter().all(|v| *v == 0) {
            continue;
        }
        index |= (register >> bit & 1) << position;
        position += 1;
    }
    index
}

impl Plan {
    /// The plan for a conversion between the tensors' linear layouts (which
    /// differ only within warps), for elements of `bits` bits.
    pub fn new(src: &LinearLayout, dst: &LinearLayout, bits: u32) -> Result<Plan, String> {
        let decomposition = warp_conversion_decomposition(src, dst).map_err(|e| e.to_string())?;
        let register_bases: Vec<u32> = single_dim_bases(&decomposition.p_reg, &Dim::Register);
        let lane_inverse_layout = decomposition.p_lane.invert().map_err(|e| e.to_string())?;
        let lane_inverse = single_dim_bases(&lane_inverse_layout, &Dim::Lane);
        let lane_permuted = lane_inverse.iter().enumerate().any(|(i, b)| *b != 1 << i);
        // Pack the lowest register bits that no transposition moves
        // (upstream packs up to 32 bits, at most four elements). A renaming
        // of the register bits (σ) is free before the transpositions and
        // after them (on the destination's registers): where the
        // transpositions' register bits are among the lowest, σ moves them
        // to the top so that more elements share a register.
        let most = (32 / bits.max(1)).clamp(1, 4).trailing_zeros();
        let count = register_bases.len() as u32;
        let moved: Vec<u32> = decomposition.mixed_transpositions.iter().map(|(r, _)| *r).collect();
        let packable = |order: &[u32]| order.iter().take(most as usize).take_while(|b| !moved.contains(b)).count();
        let identity: Vec<u32> = (0..count).collect();
        let mut order: Vec<u32> = identity.iter().copied().filter(|b| !moved.contains(b)).collect();
        order.extend(identity.iter().copied().filter(|b| moved.contains(b)));
        // Only where it packs more: otherwise the registers keep their order.
        if packable(&order) <= packable(&identity) {
            order = identity;
        }
        let pack_log2 = packable(&order) as u32;
        // σ: register bit `order[k]` becomes bit k.
        let sigma_bit = |bit: u32| order.iter().position(|b| *b == bit).unwrap_or(bit as usize) as u32;
        let sigma = |index: usize| (0..count).filter(|b| index >> b & 1 == 1).fold(0, |a, b| a | 1 << sigma_bit(b));
        let register_permutation = (0..1usize << count)
            .map(|i| {
                sigma((0..count).filter(|b| i >> b & 1 == 1).fold(0, |a, b| a ^ register_bases[b as usize] as usize))
            })
            .collect();
        let transpositions =
            decomposition.mixed_transpositions.iter().map(|(r, l)| (sigma_bit(*r) - pack_log2, *l)).collect();
        let dst_registers = 1usize << dst.in_dim_size_log2(&Dim::Register);
        let destination_registers = (0..dst_registers).map(|r| sigma(compressed_index(dst, r))).collect();
        Ok(Plan {
            source_registers: distinct_registers(src),
            register_permutation,
            lane_inverse,
            lane_permuted,
            transpositions,
            pack_log2,
            destination_registers,
        })
    }

    /// The destination registers from the source registers.
    pub fn run<M: WarpMachine>(&self, machine: &mut M, source: &[M::Value]) -> Vec<M::Value> {
        let permuted_count = self.register_permutation.len();
        // The distinct source registers, repeated where the destination has
        // more registers, then renamed by P_reg.
        let distinct: Vec<M::Value> = self.source_registers.iter().map(|r| source[*r].clone()).collect();
        let mut permuted: Vec<Option<M::Value>> = vec![None; permuted_count];
        for i in 0..permuted_count {
            permuted[self.register_permutation[i]] = Some(distinct[i % distinct.len()].clone());
        }
        let permuted: Vec<M::Value> = permuted.into_iter().map(|v| v.expect("P_reg is a permutation")).collect();
        let group = 1usize << self.pack_log2;
        let words: Vec<M::Value> =
            if group == 1 { permuted } else { permuted.chunks(group).map(|chunk| machine.pack(chunk)).collect() };
        let words = if self.transpositions.len() == 1 && !self.lane_permuted {
            self.ship(machine, &words)
        } else {
            self.swap(machine, &words)
        };
        let elements: Vec<M::Value> =
            if group == 1 { words } else { words.iter().flat_map(|w| machine.unpack(w, group)).collect() };
        self.destination_registers.iter().map(|i| elements[*i].clone()).collect()
    }

    /// `r_i ^= l_j` for every register pair differing in bit `i`: each lane
    /// keeps or exchanges the pair by its bit `j`.
    fn exchange_pairs<M: WarpMachine>(
        machine: &mut M,
        values: &[M::Value],
        register_bit: u32,
        lane_bit: u32,
    ) -> Vec<M::Value> {
        let mut out = values.to_vec();
        for low in (0..values.len()).filter(|r| r >> register_bit & 1 == 0) {
            let high = low | 1 << register_bit;
            out[low] = machine.select_by_lane_bit(lane_bit, &values[low], &values[high]);
            out[high] = machine.select_by_lane_bit(lane_bit, &values[high], &values[low]);
        }
        out
    }

    /// All transpositions at once: selects, one shuffle per register that
    /// moves (every register when lanes are also permuted), selects.
    fn swap<M: WarpMachine>(&self, machine: &mut M, words: &[M::Value]) -> Vec<M::Value> {
        let mut values = words.to_vec();
        // Before the shuffle the lane bits are those of P_lane⁻¹'s images.
        for (r, l) in &self.transpositions {
            let lane_bit = self.lane_inverse[*l as usize].trailing_zeros();
            values = Self::exchange_pairs(machine, &values, *r, lane_bit);
        }
        for (index, value) in values.iter_mut().enumerate() {
            let mask = self
                .transpositions
                .iter()
                .filter(|(r, _)| index >> r & 1 == 1)
                .fold(0, |m, (_, l)| m | self.lane_inverse[*l as usize]);
            if self.lane_permuted {
                *value = machine.shuffle_from(value, &self.lane_inverse, mask);
            } else if mask != 0 {
                *value = machine.shuffle_xor(value, mask);
            }
        }
        for (r, l) in &self.transpositions {
            values = Self::exchange_pairs(machine, &values, *r, *l);
        }
        values
    }

    /// One transposition `(r_i l_j)`, lanes otherwise in place: each lane
    /// ships the half of each register pair the partner lane needs, in one
    /// shuffle per pair.
    fn ship<M: WarpMachine>(&self, machine: &mut M, words: &[M::Value]) -> Vec<M::Value> {
        let (register_bit, lane_bit) = self.transpositions[0];
        let mut out = words.to_vec();
        for low in (0..words.len()).filter(|r| r >> register_bit & 1 == 0) {
            let high = low | 1 << register_bit;
            let outgoing = machine.select_by_lane_bit(lane_bit, &words[high], &words[low]);
            let incoming = machine.shuffle_xor(&outgoing, 1 << lane_bit);
            out[low] = machine.select_by_lane_bit(lane_bit, &words[low], &incoming);
            out[high] = machine.select_by_lane_bit(lane_bit, &incoming, &words[high]);
        }
        out
    }
}

/// The warp of the kernel being lowered: selects, shuffles and packing as
/// IR, on registers of `element` type.
pub struct Emitter<'l, 'c> {
    pub l: &'l mut Lowering<'c>,
    pub element: Type<'c>,
    /// Whether each lane bit is clear, made once per bit.
    lane_bit_clear: Vec<(u32, V)>,
    /// `L(lane)` of `shuffle_from`, made once.
    lane_image: Option<V>,
}

impl<'l, 'c> Emitter<'l, 'c> {
    pub fn new(l: &'l mut Lowering<'c>, element: Type<'c>) -> Self {
        Emitter { l, element, lane_bit_clear: Vec::new(), lane_image: None }
    }

    fn bits(&self) -> u32 {
        crate::ops::warp::bit_width(self.element).unwrap_or(32)
    }
}

impl<'c> WarpMachine for Emitter<'_, 'c> {
    type Value = V;

    fn select_by_lane_bit(&mut self, bit: u32, if_clear: &V, if_set: &V) -> V {
        let clear = match self.lane_bit_clear.iter().find(|(b, _)| *b == bit) {
            Some((_, v)) => *v,
            None => {
                let mask = self.l.b.i32_const(1 << bit);
                let zero = self.l.b.i32_const(0);
                let masked = self.l.b.and(self.l.lane, mask);
                let clear = self.l.b.icmp(0, masked, zero);
                self.lane_bit_clear.push((bit, clear));
                clear
            }
        };
        self.l.b.select(clear, *if_clear, *if_set)
    }

    fn shuffle_xor(&mut self, value: &V, mask: u32) -> V {
        shuffle(self.l, *value, Shuffle::Xor(mask))
    }

    fn shuffle_from(&mut self, value: &V, lane_bases: &[u32], mask: u32) -> V {
        let image = match self.lane_image {
            Some(v) => v,
            None => {
                let lane = self.l.lane;
                let v = apply_linear(&mut self.l.b, lane, lane_bases);
                self.lane_image = Some(v);
                v
            }
        };
        let source = if mask == 0 {
            image
        } else {
            let mask = self.l.b.i32_const(mask as i64);
            self.l.b.xor(image, mask)
        };
        shuffle(self.l, *value, Shuffle::Idx(source))
    }

    fn pack(&mut self, elements: &[V]) -> V {
        let lane_bits = 32 / elements.len() as u32;
        let lane_type = self.l.b.int_type(lane_bits);
        let vector_type = Type::vector(&[elements.len() as u64], lane_type);
        let mut vector = self.l.b.op1("llvm.mlir.undef", &[], vector_type, &[]);
        for (i, element) in elements.iter().enumerate() {
            let mut int = to_int(self.l, *element).expect("a scalar of known width");
            if self.bits() < lane_bits {
                int = self.l.b.op1("arith.extui", &[int], lane_type, &[]);
            }
            let position = self.l.b.i32_const(i as i64);
            vector = self.l.b.op1("llvm.insertelement", &[vector, int, position], vector_type, &[]);
        }
        let i32 = self.l.b.i32();
        self.l.b.op1("llvm.bitcast", &[vector], i32, &[])
    }

    fn unpack(&mut self, word: &V, count: usize) -> Vec<V> {
        let lane_bits = 32 / count as u32;
        let lane_type = self.l.b.int_type(lane_bits);
        let vector_type = Type::vector(&[count as u64], lane_type);
        let vector = self.l.b.op1("llvm.bitcast", &[*word], vector_type, &[]);
        let bits = self.bits();
        (0..count)
            .map(|i| {
                let position = self.l.b.i32_const(i as i64);
                let mut int = self.l.b.op1("llvm.extractelement", &[vector, position], lane_type, &[]);
                if bits < lane_bits {
                    let narrow = self.l.b.int_type(bits);
                    int = self.l.b.op1("arith.trunci", &[int], narrow, &[]);
                }
                from_int(self.l, int, self.element)
            })
            .collect()
    }
}

/// A shuffle of a value whose type the caller checked ([`supported`]).
fn shuffle<'c>(l: &mut Lowering<'c>, value: V, how: Shuffle) -> V {
    crate::ops::warp::shuffle(l, value, how).expect("a scalar of at most 64 bits")
}

/// Whether registers of `element` type can be shuffled (scalars of at most
/// 64 bits).
pub fn supported(element: Type) -> bool {
    crate::ops::warp::bit_width(element).is_some_and(|bits| bits <= 64)
}

/// The bases of a one-dimensional permutation layout as plain integers.
fn single_dim_bases(layout: &LinearLayout, dim: &Dim) -> Vec<u32> {
    layout.bases(dim).map(|bases| bases.iter().map(|b| b[0]).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tritium_layout::convert::cvt_needs_warp_shuffle;

    /// A warp of 32 lanes; a value is, per lane, the elements it holds
    /// (more than one when packed).
    struct Model;

    type Lanes = Vec<Vec<u64>>;

    impl WarpMachine for Model {
        type Value = Lanes;
        fn select_by_lane_bit(&mut self, bit: u32, if_clear: &Lanes, if_set: &Lanes) -> Lanes {
            (0..32)
                .map(|lane| if lane >> bit & 1 == 0 { if_clear[lane].clone() } else { if_set[lane].clone() })
                .collect()
        }
        fn shuffle_xor(&mut self, value: &Lanes, mask: u32) -> Lanes {
            (0..32).map(|lane| value[lane ^ mask as usize].clone()).collect()
        }
        fn shuffle_from(&mut self, value: &Lanes, lane_bases: &[u32], mask: u32) -> Lanes {
            (0..32)
                .map(|lane| {
                    let source = (0..lane_bases.len()).filter(|b| lane >> b & 1 == 1).fold(0, |a, b| a ^ lane_bases[b]);
                    value[(source ^ mask) as usize].clone()
                })
                .collect()
        }
        fn pack(&mut self, elements: &[Lanes]) -> Lanes {
            (0..32).map(|lane| elements.iter().flat_map(|e| e[lane].clone()).collect()).collect()
        }
        fn unpack(&mut self, word: &Lanes, count: usize) -> Vec<Lanes> {
            (0..count).map(|i| (0..32).map(|lane| vec![word[lane][i]]).collect()).collect()
        }
    }

    /// A layout of a 2-d tensor from register and lane bases (one warp).
    fn layout(register: &[[u32; 2]], lane: &[[u32; 2]], shape: [u32; 2]) -> LinearLayout {
        let to_bases = |b: &[[u32; 2]]| b.iter().map(|v| v.to_vec()).collect();
        LinearLayout::new(
            vec![(Dim::Register, to_bases(register)), (Dim::Lane, to_bases(lane)), (Dim::Warp, vec![])],
            vec![(Dim::Axis(0), shape[0]), (Dim::Axis(1), shape[1])],
            false,
        )
        .unwrap()
    }

    /// The element (flattened coordinates) each lane holds in each register.
    fn contents(layout: &LinearLayout) -> Vec<Lanes> {
        let registers = layout.in_dim_size(&Dim::Register) as u32;
        (0..registers)
            .map(|r| {
                (0..32)
                    .map(|lane| {
                        let out = layout.apply(&[(Dim::Register, r), (Dim::Lane, lane), (Dim::Warp, 0)]).unwrap();
                        vec![(out[0].1 as u64) << 16 | out[1].1 as u64]
                    })
                    .collect()
            })
            .collect()
    }

    /// Runs the conversion on the model and checks every lane's registers;
    /// returns the plan for the caller to check which path it took.
    fn check(src: LinearLayout, dst: LinearLayout, bits: u32) -> Plan {
        assert!(cvt_needs_warp_shuffle(&src, &dst).unwrap(), "not a warp-shuffle conversion");
        let plan = Plan::new(&src, &dst, bits).unwrap();
        let moved = plan.run(&mut Model, &contents(&src));
        assert_eq!(moved, contents(&dst), "{plan:?}");
        plan
    }

    fn blocked_32x32(size_per_thread: [u32; 2], threads_per_warp: [u32; 2]) -> LinearLayout {
        // order [1, 0]: registers along dim 1 first, then dim 0; lanes likewise.
        let mut register = Vec::new();
        for (dim, count) in [(1, size_per_thread[1]), (0, size_per_thread[0])] {
            for b in 0..count.trailing_zeros() {
                let mut v = [0, 0];
                v[dim] = 1 << b;
                register.push(v);
            }
        }
        let mut lane = Vec::new();
        for (dim, count) in [(1, threads_per_warp[1]), (0, threads_per_warp[0])] {
            for b in 0..count.trailing_zeros() {
                let mut v = [0, 0];
                v[dim] = size_per_thread[dim] << b;
                lane.push(v);
            }
        }
        layout(&register, &lane, [32, 32])
    }

    #[test]
    fn blocked_transpose_in_a_warp() {
        // Upstream's 32x32 [32, 1] -> [16, 2] case: one transposition and a
        // lane permutation, so every register is shuffled.
        let plan = check(blocked_32x32([32, 1], [1, 32]), blocked_32x32([16, 2], [2, 16]), 32);
        assert_eq!((plan.transpositions.len(), plan.lane_permuted), (1, true));
        check(blocked_32x32([32, 1], [1, 32]), blocked_32x32([16, 2], [2, 16]), 8);
    }

    #[test]
    fn one_transposition_ships_packed() {
        // Register bit 1 and lane bit 0 exchange; register bit 0 stays, so
        // two bytes travel in one register.
        let src = layout(&[[8, 0], [1, 0]], &[[0, 1], [0, 2], [0, 4], [2, 0], [4, 0]], [16, 8]);
        let dst = layout(&[[8, 0], [0, 1]], &[[1, 0], [0, 2], [0, 4], [2, 0], [4, 0]], [16, 8]);
        let plan = check(src.clone(), dst.clone(), 32);
        assert_eq!((plan.transpositions.len(), plan.lane_permuted, plan.pack_log2), (1, false, 0));
        let plan = check(src, dst, 8);
        assert_eq!((plan.transpositions.len(), plan.lane_permuted, plan.pack_log2), (1, false, 1));
    }

    #[test]
    fn renamed_low_register_bits_still_pack() {
        // A wgmma accumulator tile to the register-A operand of 8-bit
        // elements (kWidth 4): register bit 1 is renamed (P_reg) and then
        // exchanged with lane bit 1; no transposition moves the two lowest
        // bits after the renaming, so four bytes travel in one register.
        let src = layout(&[[0, 1], [8, 0], [0, 8]], &[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [16, 16]);
        let dst = layout(&[[0, 1], [0, 2], [8, 0]], &[[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], [16, 16]);
        let plan = check(src.clone(), dst.clone(), 8);
        assert_eq!((plan.transpositions.len(), plan.pack_log2), (1, 2), "{plan:?}");
        let plan = check(src, dst, 16);
        assert_eq!(plan.pack_log2, 1, "{plan:?}");
    }

    #[test]
    fn lane_permutation_alone() {
        // Lanes 0-7 of one row become the columns' lane bits in another order.
        let src = layout(&[[1, 0]], &[[0, 1], [0, 2], [0, 4], [2, 0], [4, 0]], [8, 8]);
        let dst = layout(&[[1, 0]], &[[2, 0], [0, 1], [0, 2], [0, 4], [4, 0]], [8, 8]);
        let plan = check(src, dst, 32);
        assert_eq!((plan.transpositions.len(), plan.lane_permuted), (0, true));
    }

    #[test]
    fn transposition_with_a_lane_permutation_swaps() {
        // Lane bits 0 and 1 exchanged, and register bit 0 with lane bit 2.
        let src = layout(&[[1, 0], [2, 0]], &[[0, 1], [0, 2], [4, 0], [0, 4], [0, 8]], [8, 16]);
        let dst = layout(&[[4, 0], [2, 0]], &[[0, 2], [0, 1], [1, 0], [0, 4], [0, 8]], [8, 16]);
        let plan = check(src.clone(), dst.clone(), 32);
        assert_eq!((plan.transpositions.len(), plan.lane_permuted), (1, true));
        check(src, dst, 16);
    }

    #[test]
    fn destination_with_more_registers() {
        // The source broadcasts over lane bit 4; the destination holds the
        // rows of lane bit 3 in a register and broadcasts over lanes 3 and 4.
        let src = layout(&[[1, 0]], &[[0, 1], [0, 2], [0, 4], [2, 0], [0, 0]], [4, 8]);
        let dst = layout(&[[1, 0], [2, 0]], &[[0, 1], [0, 2], [0, 4], [0, 0], [0, 0]], [4, 8]);
        check(src, dst, 32);
    }

    #[test]
    fn broadcast_registers_are_dropped_and_restored() {
        // The source holds each element twice (register bit 2 broadcasts).
        let src = layout(&[[1, 0], [2, 0], [0, 0]], &[[0, 1], [0, 2], [4, 0], [0, 4], [0, 8]], [8, 16]);
        let dst = layout(&[[4, 0], [2, 0]], &[[0, 1], [0, 2], [1, 0], [0, 4], [0, 8]], [8, 16]);
        check(src, dst, 32);
    }
}
