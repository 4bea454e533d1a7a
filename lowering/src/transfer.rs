//! Moving a distributed tensor through shared memory: which instructions
//! (vectorised `ld/st.shared`, `ldmatrix`, `stmatrix`) move which registers,
//! what they cost in shared-memory wavefronts, and, for ttg.convert_layout,
//! the layout of the scratch buffer, chosen so that both the writes and the
//! reads are vectorised and free of bank conflicts where the two layouts
//! allow it. Everything here is arithmetic on linear layouts over GF(2)
//! (offsets are XORs of per-bit offsets); nothing touches MLIR, so the
//! element-level checks in the tests run in milliseconds.
use crate::layout::{SharedAccess, TensorLayout};
use tritium_layout::{Dim, LinearLayout};

/// How one side of a transfer moves its registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `ld/st.shared` of `1 << bits.len()` consecutive elements: the register
    /// bits whose offsets are 1, 2, 4, ... (element `i` of the vector is the
    /// register with those bits set as in `i`).
    Vector { bits: Vec<usize> },
    /// `ldmatrix` / `stmatrix` (`.b16`). An 8x8 matrix of 16-bit elements
    /// is eight 16-byte rows; lanes `8j .. 8j + 7` give the row addresses of
    /// matrix `j`. Thread `T` holds, in its b32 register of matrix `j`, bytes
    /// `4 (T % 4) .. + 3` of row `T / 4`: for elements of `b` bytes, the
    /// `4 / b` elements from `(4 / b) (T % 4)`, walked by the register bits
    /// `word` (offsets 1, 2, ...: one bit for 16-bit elements, two for 8-bit,
    /// none for 32-bit). So without `trans` the `word` bits and lane bits
    /// 0-1 walk a row and lane bits 2-4 pick it. `trans` (16-bit elements
    /// only) transposes each matrix: thread `T` holds element `T / 4` of rows
    /// `2 (T % 4)` and `+1`, so lane bits 2-4 walk a row and the `word` bit,
    /// lane bits 0-1 pick it. `matrices` are the register bits that pick
    /// the matrix (`.x1`, `.x2`, `.x4`).
    Matrix { trans: bool, word: Vec<usize>, matrices: Vec<usize> },
}

impl Mode {
    /// Elements one thread moves per instruction.
    pub fn registers_per_instruction(&self) -> usize {
        match self {
            Mode::Vector { bits } => 1 << bits.len(),
            Mode::Matrix { word, matrices, .. } => 1 << (word.len() + matrices.len()),
        }
    }

    fn used_bits(&self) -> Vec<usize> {
        match self {
            Mode::Vector { bits } => bits.clone(),
            Mode::Matrix { word, matrices, .. } => word.iter().chain(matrices).copied().collect(),
        }
    }
}

/// One instruction of a side: its first register (the others' offsets are
/// this one's XOR the mode's bits) and its registers in operand order (for
/// vectors, element order; for matrices, matrix-major, then the elements of
/// the thread's word in order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub base: usize,
    pub registers: Vec<usize>,
}

/// The register bits (at most `log2(max_elements)`) that make the longest
/// vector of consecutive, aligned offsets: the bit with offset 1, then 2, ...
/// while no other register, lane or warp bit touches the vector's offsets.
pub fn vector_bits(access: &SharedAccess, max_elements: usize) -> Vec<usize> {
    let mut bits: Vec<usize> = Vec::new();
    while 2usize << bits.len() <= max_elements {
        let want = 1u32 << bits.len();
        let Some(bit) = access.register_bases.iter().position(|o| *o == want) else { break };
        let mask = (want << 1) - 1;
        let aligned = access
            .register_bases
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != bit && !bits.contains(i))
            .map(|(_, o)| o)
            .chain(&access.lane_offsets)
            .chain(&access.warp_offsets)
            .all(|o| o & mask == 0);
        if !aligned {
            break;
        }
        bits.push(bit);
    }
    bits
}

/// Register bits that change the element (non-zero offset) and that `mode`
/// does not use: each of their combinations is one instruction.
fn free_bits(access: &SharedAccess, mode: &Mode) -> Vec<usize> {
    let used = mode.used_bits();
    (0..access.register_bases.len()).filter(|b| access.register_bases[*b] != 0 && !used.contains(b)).collect()
}

/// Registers that differ from an earlier one only in bits that do not
/// change the element: `register & mask` is the register that holds it.
pub fn canonical_mask(access: &SharedAccess) -> usize {
    access.register_bases.iter().enumerate().filter(|(_, o)| **o != 0).fold(0, |m, (b, _)| m | 1 << b)
}

/// The instructions of `mode`, one per combination of the free register bits.
pub fn instructions(access: &SharedAccess, mode: &Mode) -> Vec<Instruction> {
    let free = free_bits(access, mode);
    let deposit = |bits: &[usize], value: usize| -> usize {
        bits.iter().enumerate().filter(|(i, _)| value >> i & 1 == 1).fold(0, |r, (_, b)| r | 1 << b)
    };
    (0..1usize << free.len())
        .map(|combination| {
            let base = deposit(&free, combination);
            let registers = match mode {
                Mode::Vector { bits } => (0..1usize << bits.len()).map(|i| base | deposit(bits, i)).collect(),
                Mode::Matrix { word, matrices, .. } => (0..1usize << matrices.len())
                    .flat_map(|j| {
                        let matrix = base | deposit(matrices, j);
                        (0..1usize << word.len()).map(move |i| matrix | deposit(word, i))
                    })
                    .collect(),
            };
            Instruction { base, registers }
        })
        .collect()
}

/// For a matrix mode: the offsets of the bits that walk a row (must be 1, 2,
/// 4, ..., a 16-byte row) and of those that pick it (row bits 0-2, as lanes
/// 0-2 of the lane that gives the row's address), from the receiving
/// thread's bases.
fn matrix_roles(access: &SharedAccess, trans: bool, word: &[usize]) -> Option<(Vec<u32>, [u32; 3])> {
    let lane = |i: usize| access.lane_offsets.get(i).copied();
    let word_offsets = word.iter().map(|b| access.register_bases.get(*b).copied()).collect::<Option<Vec<u32>>>()?;
    if trans {
        let [half] = word_offsets[..] else { return None };
        Some((vec![lane(2)?, lane(3)?, lane(4)?], [half, lane(0)?, lane(1)?]))
    } else {
        let mut walk = word_offsets;
        walk.extend([lane(0)?, lane(1)?]);
        Some((walk, [lane(2)?, lane(3)?, lane(4)?]))
    }
}

/// Whether `mode` moves exactly the elements `access` says: vectors of
/// consecutive aligned offsets, or matrix rows of 8 elements at 16-byte
/// aligned addresses walked by the right bits.
pub fn mode_fits(access: &SharedAccess, mode: &Mode) -> bool {
    match mode {
        Mode::Vector { bits } => {
            let width = bits.len();
            bits.iter().enumerate().all(|(i, b)| access.register_bases.get(*b) == Some(&(1 << i)))
                && vector_bits_are_aligned(access, bits, width)
        }
        Mode::Matrix { trans, word, matrices } => {
            if access.lane_offsets.len() != 5 || matrices.len() > 2 || matrices.iter().any(|b| word.contains(b)) {
                return false;
            }
            let Some((walk, pick)) = matrix_roles(access, *trans, word) else { return false };
            if walk.iter().enumerate().any(|(i, o)| *o != 1 << i) {
                return false;
            }
            // Elements in a 16-byte row.
            let row = 1u32 << walk.len();
            let walkers: &[usize] = if *trans { &[] } else { word };
            let lanes_walking: &[usize] = if *trans { &[2, 3, 4] } else { &[0, 1] };
            // Everything else must keep row addresses 16-byte aligned.
            let others_aligned = access
                .register_bases
                .iter()
                .enumerate()
                .filter(|(b, _)| !walkers.contains(b))
                .map(|(_, o)| o)
                .chain(
                    access.lane_offsets.iter().enumerate().filter(|(i, _)| !lanes_walking.contains(i)).map(|(_, o)| o),
                )
                .chain(&access.warp_offsets)
                .chain(&pick)
                .all(|o| o % row == 0);
            others_aligned && matrices.iter().all(|b| *b < access.register_bases.len())
        }
    }
}

fn vector_bits_are_aligned(access: &SharedAccess, bits: &[usize], width: usize) -> bool {
    let mask = (1u32 << width) - 1;
    access
        .register_bases
        .iter()
        .enumerate()
        .filter(|(i, _)| !bits.contains(i))
        .map(|(_, o)| o)
        .chain(&access.lane_offsets)
        .chain(&access.warp_offsets)
        .all(|o| o & mask == 0)
}

/// For a matrix mode, the linear map from the address-giving lane (bits 0-4)
/// and warp to the offset of the row it gives, relative to the instruction's
/// base register: lane bits 0-2 pick the row, bits 3-4 the matrix.
pub fn matrix_row_offsets(access: &SharedAccess, mode: &Mode) -> Option<(Vec<u32>, Vec<u32>)> {
    let Mode::Matrix { trans, word, matrices } = mode else { return None };
    let (_, pick) = matrix_roles(access, *trans, word)?;
    let mut lanes = pick.to_vec();
    lanes.extend(matrices.iter().map(|b| access.register_bases[*b]));
    lanes.resize(5, 0);
    Some((lanes, access.warp_offsets.clone()))
}

/// Checks, thread by thread, that the instructions of `mode` move every
/// register of `access` to or from exactly its offset: the instructions'
/// semantics (vectors of consecutive elements; ldmatrix/stmatrix rows whose
/// addresses other lanes give, split over the threads as the PTX ISA says)
/// are simulated and compared with the layout's offsets. The lowering runs
/// it on every access it plans, so a planning mistake is a diagnostic, not
/// wrong data.
pub fn verify(access: &SharedAccess, mode: &Mode) -> Result<(), String> {
    if !mode_fits(access, mode) {
        return Err(format!("{mode:?} does not fit the offsets"));
    }
    // The XOR of the lane (warp) offsets of every lane (warp) index, so the
    // simulation below is table look-ups: the planner calls this on every
    // candidate it scores.
    let table = |offsets: &[u32], count: usize| -> Vec<u32> { (0..count).map(|i| xor_of(offsets, i)).collect() };
    let lane_xor = table(&access.lane_offsets, 32);
    let warp_xor = table(&access.warp_offsets, 1usize << access.warp_offsets.len());
    // Matrix modes: the XOR part of the row address each lane gives, by
    // row index (8 * matrix + row), and by warp.
    let rows = match mode {
        Mode::Vector { .. } => None,
        Mode::Matrix { trans, word, .. } => {
            let (lanes, warp_values) = matrix_row_offsets(access, mode).ok_or("no row offsets")?;
            Some((*trans, 1usize << word.len(), table(&lanes, 32), table(&warp_values, warp_xor.len())))
        }
    };
    let mut covered = vec![false; access.register_offsets.len()];
    for instruction in instructions(access, mode) {
        let constant = access.register_offsets[instruction.base];
        for (warp, &warp_part) in warp_xor.iter().enumerate() {
            for (lane, &lane_part) in lane_xor.iter().enumerate() {
                let thread = lane_part ^ warp_part;
                for (i, register) in instruction.registers.iter().enumerate() {
                    let actual = match &rows {
                        None => (thread ^ constant) + i as u32,
                        Some((trans, per_word, row_xor, row_warp_xor)) => {
                            let (j, h) = (i / per_word, i % per_word);
                            let (row, column) = if *trans {
                                (2 * (lane % 4) + h, lane / 4)
                            } else {
                                (lane / 4, per_word * (lane % 4) + h)
                            };
                            (row_xor[8 * j + row] ^ row_warp_xor[warp] ^ constant) + column as u32
                        }
                    };
                    if actual != access.register_offsets[*register] ^ thread {
                        return Err(format!(
                            "{mode:?}: register {register} of lane {lane}, warp {warp} goes to {actual}"
                        ));
                    }
                    covered[*register] = true;
                }
            }
        }
    }
    let mask = canonical_mask(access);
    if (0..covered.len()).any(|r| !covered[r & mask]) {
        return Err(format!("{mode:?} leaves registers out"));
    }
    Ok(())
}

/// Shared-memory work of a side: wavefronts (128-byte rounds the banks
/// serve), instructions, and address registers (one per distinct part of
/// the instructions' offsets that overlaps the thread's: the rest is an
/// immediate), summed over its instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cost {
    pub wavefronts: u32,
    pub instructions: u32,
    pub addresses: u32,
    /// 32-bit words whose two halves are not registers `2i, 2i + 1`: the
    /// ops around (packed f16x2 conversions, mma operands) pair those, so
    /// each such word costs a byte permute.
    pub repacks: u32,
}

impl Cost {
    pub fn score(&self) -> u32 {
        // An extra address costs an XOR and an add, about two instructions.
        self.wavefronts + self.instructions + 2 * self.addresses + self.repacks
    }
}

/// Rounds one request takes: the most distinct 4-byte words any bank holds
/// among `(address, bytes)` accesses (the same word read twice is one).
fn wavefronts(accesses: impl Iterator<Item = (u32, u32)>) -> u32 {
    let mut banks: Vec<Vec<u32>> = vec![Vec::new(); 32];
    for (address, bytes) in accesses {
        for word in address / 4..(address + bytes.max(1) - 1) / 4 + 1 {
            let bank = &mut banks[(word % 32) as usize];
            if !bank.contains(&word) {
                bank.push(word);
            }
        }
    }
    banks.iter().map(|b| b.len() as u32).max().unwrap_or(0).max(1)
}

fn xor_of(values: &[u32], bits: usize) -> u32 {
    values.iter().enumerate().filter(|(i, _)| bits >> i & 1 == 1).fold(0, |a, (_, v)| a ^ v)
}

/// The cost of moving every register of `access` with `mode` (warp 0; the
/// other warps' addresses differ by an XOR, which permutes banks).
pub fn cost(access: &SharedAccess, mode: &Mode, element_bytes: u32) -> Cost {
    let list = instructions(access, mode);
    let per_instruction = match mode {
        Mode::Vector { bits } => {
            let Some(first) = list.first() else {
                return Cost { wavefronts: 0, instructions: 0, addresses: 0, repacks: 0 };
            };
            let constant = access.register_offsets[first.base];
            let bytes = element_bytes << bits.len();
            wavefronts((0..32).map(|lane| ((xor_of(&access.lane_offsets, lane) ^ constant) * element_bytes, bytes)))
        }
        Mode::Matrix { matrices, .. } => {
            let Some((lanes, _)) = matrix_row_offsets(access, mode) else {
                return Cost { wavefronts: u32::MAX / 4, instructions: 0, addresses: 0, repacks: 0 };
            };
            (0..1usize << matrices.len())
                .map(|j| wavefronts((0..8).map(|row| (xor_of(&lanes, 8 * j + row) * element_bytes, 16))))
                .sum()
        }
    };
    let thread_mask = match matrix_row_offsets(access, mode) {
        Some((lanes, warps)) => lanes.iter().chain(&warps).fold(0, |m, o| m | o),
        None => access.thread_mask(),
    };
    let mut overlaps: Vec<u32> = list.iter().map(|i| access.register_offsets[i.base] & thread_mask).collect();
    overlaps.sort();
    overlaps.dedup();
    // The register bit that pairs 16-bit (or smaller) elements in a word.
    let pairing = match mode {
        Mode::Vector { bits } => bits.first().copied(),
        Mode::Matrix { word, .. } => word.first().copied(),
    };
    let bit0_distinct = access.register_bases.first().is_some_and(|o| *o != 0);
    let repacks = if element_bytes < 4 && bit0_distinct && pairing != Some(0) {
        (list.len() * mode.registers_per_instruction()) as u32 * element_bytes / 4
    } else {
        0
    };
    Cost {
        wavefronts: per_instruction * list.len() as u32,
        instructions: list.len() as u32,
        addresses: overlaps.len() as u32,
        repacks,
    }
}

/// The modes a side may use on `access` (plain vectors always; ldmatrix on
/// sm_75+ and stmatrix on sm_90+ where the offsets allow), and the cheapest
/// of them by simulated wavefronts.
pub fn best_mode(access: &SharedAccess, element_bytes: u32, capability: u32, store: bool) -> Mode {
    let vector = Mode::Vector { bits: vector_bits(access, (16 / element_bytes.min(16)) as usize) };
    let mut best = (cost(access, &vector, element_bytes).score(), vector);
    if capability < if store { 90 } else { 75 } || access.lane_offsets.len() != 5 {
        return best.1;
    }
    for mode in matrix_candidates(access, element_bytes) {
        if verify(access, &mode).is_ok() {
            let score = cost(access, &mode, element_bytes).score();
            if score < best.0 {
                best = (score, mode);
            }
        }
    }
    best.1
}

/// The matrix modes worth trying on `access`. 16-bit elements: either
/// transposition, any register bit as the word's second element. 8- and
/// 32-bit elements: `.b16` matrices move bytes, so ldmatrix and stmatrix
/// move any element size whose rows are 16 contiguous bytes; the word is
/// the register bits of offsets 1, 2, ... (four bytes, two bytes or one
/// word) and there is no transposed form, which would swap 16-bit halves.
fn matrix_candidates(access: &SharedAccess, element_bytes: u32) -> Vec<Mode> {
    let nonzero: Vec<usize> = (0..access.register_bases.len()).filter(|b| access.register_bases[*b] != 0).collect();
    let matrices_beside = |word: &[usize], row: u32| -> Vec<usize> {
        nonzero
            .iter()
            .copied()
            .filter(|b| !word.contains(b) && access.register_bases[*b].is_multiple_of(row))
            .take(2)
            .collect()
    };
    match element_bytes {
        2 => [false, true]
            .into_iter()
            .flat_map(|trans| nonzero.iter().map(move |half| (trans, *half)))
            .map(|(trans, half)| Mode::Matrix { trans, word: vec![half], matrices: matrices_beside(&[half], 8) })
            .collect(),
        1 | 4 => {
            let per_word = 4 / element_bytes;
            let word: Option<Vec<usize>> = (0..per_word.trailing_zeros())
                .map(|i| access.register_bases.iter().position(|o| *o == 1 << i))
                .collect();
            match word {
                Some(word) => {
                    let matrices = matrices_beside(&word, 16 / element_bytes);
                    vec![Mode::Matrix { trans: false, word, matrices }]
                }
                None => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

// ----- the scratch layout of a conversion --------------------------------------

/// A set of GF(2) vectors kept in echelon form (distinct leading bits, in
/// decreasing order), for independence tests.
#[derive(Clone, Default)]
struct Span {
    rows: Vec<u32>,
}

impl Span {
    fn reduce(&self, mut v: u32) -> u32 {
        for row in &self.rows {
            if v ^ row < v {
                v ^= row;
            }
        }
        v
    }

    /// Adds `v`; false (and nothing added) when it is already in the span.
    fn insert(&mut self, v: u32) -> bool {
        let r = self.reduce(v);
        if r == 0 {
            return false;
        }
        // `r` is zero at every row's leading bit, so its own is new: the
        // rows keep distinct leading bits, in decreasing order.
        self.rows.push(r);
        self.rows.sort_by(|a, b| b.cmp(a));
        true
    }

    fn contains(&self, v: u32) -> bool {
        self.reduce(v) == 0
    }

    fn dim(&self) -> usize {
        self.rows.len()
    }
}

/// The vectors of `candidates`, in order, that are independent of `span`
/// and of each other (added to `span`).
fn independent(span: &mut Span, candidates: impl IntoIterator<Item = u32>) -> Vec<u32> {
    candidates.into_iter().filter(|v| span.insert(*v)).collect()
}

/// A subspace meeting both `c1` and `c2` (independent sets of the same size
/// `t` in an `n`-bit space) only in 0, of dimension `n - t`: with
/// `I = c1 ∩ c2`, `c1 = I + A`, `c2 = I + B`, it is a complement `X` of
/// `c1 + c2` plus the "diagonal" `{a_i ^ b_i}`. This is the XOR swizzle:
/// the rows of the buffer are chosen so that both sides' lanes land in
/// distinct banks.
fn common_complement(c1: &[u32], c2: &[u32], n: u32) -> Vec<u32> {
    let mut span2 = Span::default();
    for v in c2 {
        span2.insert(*v);
    }
    let mut intersection = Span::default();
    for combination in 1..1u32 << c1.len() {
        let v = xor_of(c1, combination as usize);
        if span2.contains(v) {
            intersection.insert(v);
        }
    }
    let mut with_i = intersection.clone();
    let a = independent(&mut with_i, c1.iter().copied());
    let mut with_i = intersection.clone();
    let b = independent(&mut with_i, c2.iter().copied());
    let mut all = Span::default();
    independent(&mut all, c1.iter().chain(c2).copied());
    let x = independent(&mut all, (0..n).map(|i| 1u32 << i));
    x.into_iter().chain(a.iter().zip(&b).map(|(a, b)| a ^ b)).collect()
}

/// One side of a conversion as flat element indices (row-major bits) of its
/// register, lane and warp bases.
struct Side {
    registers: Vec<u32>,
    lanes: Vec<u32>,
}

fn flatten(layout: &TensorLayout) -> Side {
    let [registers, lanes, _] = flat_bases(layout);
    Side { registers, lanes }
}

/// The shared layout whose offset bit `i` holds flat index bit-vector
/// `columns[i]`, as a linear layout offset -> (dim0, dim1, ...).
fn shared_layout(columns: &[u32], shape: &[i64]) -> Result<LinearLayout, String> {
    let rank = shape.len();
    let bits: Vec<u32> = shape.iter().map(|s| (*s as u32).trailing_zeros()).collect();
    let mut shifts = vec![0u32; rank];
    for d in (0..rank.saturating_sub(1)).rev() {
        shifts[d] = shifts[d + 1] + bits[d + 1];
    }
    let bases = columns.iter().map(|c| (0..rank).map(|d| c >> shifts[d] & ((1u32 << bits[d]) - 1)).collect()).collect();
    let outs = (0..rank).map(|d| (Dim::Axis(d), shape[d] as u32)).collect();
    LinearLayout::new(vec![(Dim::Offset, bases)], outs, true).map_err(|e| e.to_string())
}

/// What one side of a candidate needs from the scratch layout: the first
/// `vector` offset bits are the candidate's low columns, and `phase` (the
/// vectors its simultaneously served lanes add) should reach distinct banks.
struct SideNeeds {
    vector: usize,
    phase: Vec<u32>,
    mode: Option<Mode>,
}

/// The scratch layout's columns (offset bit -> flat index): `low` first,
/// then bank bits and rows chosen so that each side's phase lanes land in
/// distinct 16-byte (or narrower) bank groups.
fn swizzled_columns(low: &[u32], sides: [&SideNeeds; 2], n: u32, row_bits: u32) -> Option<Vec<u32>> {
    let row_bits = row_bits.min(n) as usize;
    if low.len() > row_bits {
        return None;
    }
    // C_s: the side's vector bits and phase lanes, completed to `row_bits`.
    let mut sets: Vec<Vec<u32>> = sides
        .iter()
        .map(|side| {
            let mut span = Span::default();
            let mut set = independent(&mut span, low[..side.vector].iter().copied());
            if set.len() != side.vector {
                return Vec::new();
            }
            set.extend(independent(&mut span, side.phase.iter().copied()));
            set.truncate(row_bits);
            set
        })
        .collect();
    if sets.iter().any(|s| s.is_empty() && row_bits > 0) {
        return None;
    }
    for s in 0..2 {
        let mut span = Span::default();
        for v in &sets[s] {
            span.insert(*v);
        }
        let extra: Vec<u32> = sets[1 - s].iter().chain(low).copied().chain((0..n).map(|i| 1 << i)).collect();
        for v in extra {
            if span.dim() >= row_bits {
                break;
            }
            if span.insert(v) {
                sets[s].push(v);
            }
        }
    }
    let rows = common_complement(&sets[0], &sets[1], n);
    let mut span = Span::default();
    let mut columns = independent(&mut span, low.iter().copied());
    if columns.len() != low.len() {
        return None;
    }
    for v in &rows {
        span.insert(*v);
    }
    let bank_candidates: Vec<u32> =
        sides.iter().flat_map(|s| s.phase.iter().copied()).chain((0..n).map(|i| 1 << i)).collect();
    let mut banks = Vec::new();
    for v in bank_candidates {
        if columns.len() + banks.len() + rows.len() >= n as usize {
            break;
        }
        if span.insert(v) {
            banks.push(v);
        }
    }
    columns.extend(banks);
    columns.extend(rows);
    (columns.len() == n as usize).then_some(columns)
}

/// How a ttg.convert_layout goes through its scratch.
pub struct Conversion {
    /// The scratch's layout (offset -> tensor coordinates), for the whole
    /// tensor; with rounds, the buffer holds one round of it at a time.
    pub shared: LinearLayout,
    pub write: Mode,
    pub read: Mode,
    pub write_access: SharedAccess,
    pub read_access: SharedAccess,
    pub rounds: Rounds,
}

/// A conversion in rounds (upstream's `reps`): register bits that both
/// layouts hold a tensor bit in, and that no other register, lane or warp
/// touches, pick the round. Each round moves the sub-tensor those bits fix
/// through a buffer that many times smaller than the tensor, with the same
/// plan: the plan is made for the layouts with the round bits taken out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rounds {
    /// The round bits among the source's / destination's register bits.
    pub src_bits: Vec<usize>,
    pub dst_bits: Vec<usize>,
}

impl Rounds {
    pub fn count(&self) -> usize {
        1 << self.src_bits.len()
    }

    /// The registers of a side (`count` in all, round bits `bits`) that
    /// `round` moves, in the register order of the round's layout.
    pub fn registers(bits: &[usize], count: usize, round: usize) -> Vec<usize> {
        let deposit = |positions: &[usize], value: usize| -> usize {
            positions.iter().enumerate().filter(|(i, _)| value >> i & 1 == 1).fold(0, |r, (_, p)| r | 1 << p)
        };
        let others: Vec<usize> = (0..count.trailing_zeros() as usize).filter(|b| !bits.contains(b)).collect();
        (0..1usize << others.len()).map(|s| deposit(&others, s) | deposit(bits, round)).collect()
    }
}

/// A layout's register, lane and warp bases as flat (row-major) indices.
fn flat_bases(layout: &TensorLayout) -> [Vec<u32>; 3] {
    let rank = layout.rank();
    let mut shifts = vec![0u32; rank];
    for d in (0..rank.saturating_sub(1)).rev() {
        shifts[d] = shifts[d + 1] + (layout.shape[d + 1] as u32).trailing_zeros();
    }
    let flat = |basis: &Vec<u32>| basis.iter().zip(&shifts).fold(0u32, |a, (c, s)| a | c << s);
    let registers = layout.linear.bases(&Dim::Register).map(|b| b.iter().map(flat).collect()).unwrap_or_default();
    [registers, layout.lane_bases.iter().map(flat).collect(), layout.warp_bases.iter().map(flat).collect()]
}

/// `rounds_log2` round bits for converting `src` to `dst`, and both
/// layouts with them taken out, as 1-D layouts of the round's sub-tensor.
fn split_rounds(
    src: &TensorLayout,
    dst: &TensorLayout,
    rounds_log2: u32,
) -> Result<(Rounds, TensorLayout, TensorLayout), String> {
    let n: u32 = src.shape.iter().map(|s| (*s as u32).trailing_zeros()).sum();
    let (s, d) = (flat_bases(src), flat_bases(dst));
    let register_of = |side: &[Vec<u32>; 3], unit: u32| -> Option<usize> {
        let own = side[0].iter().position(|b| *b == unit)?;
        let others = side[0].iter().enumerate().filter(|(i, _)| *i != own).map(|(_, b)| b);
        others.chain(&side[1]).chain(&side[2]).all(|b| b & unit == 0).then_some(own)
    };
    // The source's last registers first: its first ones are what the plan
    // vectorises (as upstream keeps its vector out of its reps).
    let mut bits: Vec<(u32, usize, usize)> = s[0]
        .iter()
        .rev()
        .filter(|unit| unit.is_power_of_two())
        .filter_map(|unit| Some((unit.trailing_zeros(), register_of(&s, *unit)?, register_of(&d, *unit)?)))
        .take(rounds_log2 as usize)
        .collect();
    if bits.len() < rounds_log2 as usize {
        return Err(format!("the layouts do not split the conversion into {} rounds", 1u32 << rounds_log2));
    }
    bits.sort_unstable();
    let removed: Vec<u32> = bits.iter().map(|(bit, _, _)| *bit).collect();
    let compress = |v: u32| removed.iter().rev().fold(v, |o, bit| (o & ((1 << bit) - 1)) | (o >> (bit + 1)) << bit);
    let size = 1u32 << (n - rounds_log2);
    let sub = |side: &[Vec<u32>; 3], round_registers: &[usize]| -> Result<TensorLayout, String> {
        let bases = |values: Vec<u32>| -> Vec<Vec<u32>> { values.into_iter().map(|v| vec![compress(v)]).collect() };
        let registers =
            side[0].iter().enumerate().filter(|(i, _)| !round_registers.contains(i)).map(|(_, b)| *b).collect();
        let linear = LinearLayout::new(
            vec![
                (Dim::Register, bases(registers)),
                (Dim::Lane, bases(side[1].clone())),
                (Dim::Warp, bases(side[2].clone())),
                (Dim::Block, Vec::new()),
            ],
            vec![(Dim::Axis(0), size)],
            false,
        )
        .map_err(|e| e.to_string())?;
        TensorLayout::new(tritium_layout::Layout::Linear(linear), &[size as i64])
    };
    let rounds = Rounds {
        src_bits: bits.iter().map(|(_, r, _)| *r).collect(),
        dst_bits: bits.iter().map(|(_, _, r)| *r).collect(),
    };
    let (sub_src, sub_dst) = (sub(&s, &rounds.src_bits)?, sub(&d, &rounds.dst_bits)?);
    Ok((rounds, sub_src, sub_dst))
}

impl Conversion {
    pub fn cost(&self, element_bytes: u32) -> Cost {
        let w = cost(&self.write_access, &self.write, element_bytes);
        let r = cost(&self.read_access, &self.read, element_bytes);
        Cost {
            wavefronts: w.wavefronts + r.wavefronts,
            instructions: w.instructions + r.instructions,
            addresses: w.addresses + r.addresses,
            repacks: w.repacks + r.repacks,
        }
    }

    /// Mask-and-shift terms of both sides' per-thread offsets: the address
    /// arithmetic done once per thread (and the registers it holds), which
    /// breaks ties between plans that move data equally well.
    pub fn address_terms(&self) -> usize {
        [(&self.write_access, &self.write), (&self.read_access, &self.read)]
            .iter()
            .map(|(access, mode)| {
                let (lanes, warps) = matrix_row_offsets(access, mode)
                    .unwrap_or_else(|| (access.lane_offsets.clone(), access.warp_offsets.clone()));
                let mut values = lanes;
                values.resize(5, 0);
                values.extend(warps);
                crate::layout::linear_terms(&values).len()
            })
            .sum()
    }
}

/// Matrix modes a side could use, with the scratch offsets that walk a
/// 16-byte row (`walk`, offsets 1, 2, ...) and that pick it (row bits 0-2).
/// `.b16` matrices move 16-byte rows, so ldmatrix/stmatrix serve 8-, 16-
/// and 32-bit elements alike (see [`Mode::Matrix`]): the thread's word is
/// `4 / element_bytes` elements (register bits, any order), lanes 0-1 walk
/// the row, lanes 2-4 pick it; 16-bit elements also have the transposed
/// form. The register bits after the word pick the matrices.
fn matrix_options(side: &Side, element_bytes: u32) -> Vec<(Mode, Vec<u32>, Vec<u32>)> {
    let mut options = Vec::new();
    if side.lanes.len() != 5 || !matches!(element_bytes, 1 | 2 | 4) {
        return options;
    }
    let nonzero: Vec<usize> = (0..side.registers.len()).filter(|b| side.registers[*b] != 0).collect();
    let l = &side.lanes;
    let mut words: Vec<Vec<usize>> = vec![Vec::new()];
    for _ in 0..(4 / element_bytes).trailing_zeros() {
        words = words
            .iter()
            .flat_map(|w| nonzero.iter().filter(|b| !w.contains(b)).map(move |b| [w.clone(), vec![*b]].concat()))
            .collect();
    }
    for word in words {
        let matrices: Vec<usize> = nonzero.iter().copied().filter(|b| !word.contains(b)).take(2).collect();
        let mut walk: Vec<u32> = word.iter().map(|b| side.registers[*b]).collect();
        walk.extend([l[0], l[1]]);
        let pick = vec![l[2], l[3], l[4]];
        options.push((Mode::Matrix { trans: false, word: word.clone(), matrices: matrices.clone() }, walk, pick));
        if let [half] = word[..] {
            let (walk, pick) = (vec![l[2], l[3], l[4]], vec![side.registers[half], l[0], l[1]]);
            options.push((Mode::Matrix { trans: true, word, matrices }, walk, pick));
        }
    }
    options
}

/// Chooses the scratch layout and the instructions of a conversion from
/// `src` to `dst`: candidates are vectors as wide as both layouts allow
/// (the wider side's extra register bits next), and ldmatrix (sm_75+) /
/// stmatrix (sm_90+) for 8-, 16- and 32-bit elements, each with the XOR
/// swizzle that spreads both sides' lanes over the banks, and the plain
/// row-major layout; the cheapest in simulated wavefronts and instructions
/// wins, except that stmatrix must take fewer wavefronts than plain stores
/// to be chosen.
///
/// With `rounds_log2 > 0` the plan is for one round of the conversion (see
/// [`Rounds`]): its accesses move the registers [`Rounds::registers`] lists.
///
/// `source_pairs_free`: the source's elements are made one by one (e.g. by
/// `arith.truncf` from f32), so the writes may pair any two of them in a
/// 32-bit word at no cost (LLVM forms `cvt.rn.f16x2.f32` of that pair): the
/// write side's repacks are not counted.
pub fn plan_conversion(
    src: &TensorLayout,
    dst: &TensorLayout,
    element_bytes: u32,
    capability: u32,
    rounds_log2: u32,
    source_pairs_free: bool,
) -> Result<Conversion, String> {
    if rounds_log2 == 0 {
        return plan_whole(src, dst, element_bytes, capability, source_pairs_free);
    }
    let (rounds, sub_src, sub_dst) = split_rounds(src, dst, rounds_log2)?;
    let mut plan = plan_whole(&sub_src, &sub_dst, element_bytes, capability, source_pairs_free)?;
    plan.rounds = rounds;
    Ok(plan)
}

fn plan_whole(
    src: &TensorLayout,
    dst: &TensorLayout,
    element_bytes: u32,
    capability: u32,
    source_pairs_free: bool,
) -> Result<Conversion, String> {
    let shape = &src.shape;
    let n: u32 = shape.iter().map(|s| (*s as u32).trailing_zeros()).sum();
    let (s, d) = (flatten(src), flatten(dst));
    let max_vector = if element_bytes <= 16 { (16 / element_bytes).trailing_zeros() as usize } else { 0 };
    // Elements in 128 bytes: offset bits below this share a wavefront.
    let row_bits = (128 / element_bytes.min(128)).trailing_zeros();
    let phase = |side: &Side, vector: usize| -> Vec<u32> {
        let lanes = (row_bits as usize).saturating_sub(vector).min(side.lanes.len());
        side.lanes[..lanes].to_vec()
    };
    let nonzero = |v: &[u32]| -> Vec<u32> { v.iter().copied().filter(|x| *x != 0).collect() };
    let (s_regs, d_regs) = (nonzero(&s.registers), nonzero(&d.registers));

    // (low columns, write needs, read needs)
    let mut candidates: Vec<(Vec<u32>, SideNeeds, SideNeeds)> = Vec::new();
    let mut span = Span::default();
    let common: Vec<u32> = independent(&mut span, s_regs.iter().copied().filter(|v| d_regs.contains(v)))
        .into_iter()
        .take(max_vector)
        .collect();
    for writer_wider in [true, false] {
        let extra_from = if writer_wider { &s_regs } else { &d_regs };
        let mut span = Span::default();
        independent(&mut span, common.iter().copied());
        let mut low = common.clone();
        low.extend(independent(&mut span, extra_from.iter().copied()).into_iter().take(max_vector - common.len()));
        let (wk, rk) = if writer_wider { (low.len(), common.len()) } else { (common.len(), low.len()) };
        let write = SideNeeds { vector: wk, phase: phase(&s, wk), mode: None };
        let read = SideNeeds { vector: rk, phase: phase(&d, rk), mode: None };
        candidates.push((low, write, read));
    }
    {
        let prefix = |walk: &[u32], regs: &[u32]| walk.iter().take_while(|v| regs.contains(v)).count();
        // 8- and 32-bit elements take a matrix side only where the other
        // side moves whole 16-byte rows too, as upstream (whose tiles need
        // full vectors on both sides): against narrower accesses upstream
        // keeps ld/st.shared, and ldmatrix there is untimed.
        let whole_rows = |walk: &[u32], other: &[u32]| element_bytes == 2 || prefix(walk, other) == walk.len();
        let loads: Vec<_> = if capability >= 75 { matrix_options(&d, element_bytes) } else { Vec::new() }
            .into_iter()
            .filter(|(_, walk, _)| whole_rows(walk, &s_regs))
            .collect();
        let stores: Vec<_> = if capability >= 90 { matrix_options(&s, element_bytes) } else { Vec::new() }
            .into_iter()
            .filter(|(_, walk, _)| whole_rows(walk, &d_regs))
            .collect();
        for (mode, walk, pick) in &loads {
            let k = prefix(walk, &s_regs);
            let write = SideNeeds { vector: k, phase: phase(&s, k), mode: None };
            let read = SideNeeds { vector: walk.len(), phase: pick.clone(), mode: Some(mode.clone()) };
            candidates.push((walk.clone(), write, read));
        }
        for (mode, walk, pick) in &stores {
            let k = prefix(walk, &d_regs);
            let write = SideNeeds { vector: walk.len(), phase: pick.clone(), mode: Some(mode.clone()) };
            let read = SideNeeds { vector: k, phase: phase(&d, k), mode: None };
            candidates.push((walk.clone(), write, read));
            for (load, load_walk, load_pick) in &loads {
                if load_walk == walk {
                    let write = SideNeeds { vector: walk.len(), phase: pick.clone(), mode: Some(mode.clone()) };
                    let read = SideNeeds { vector: walk.len(), phase: load_pick.clone(), mode: Some(load.clone()) };
                    candidates.push((walk.clone(), write, read));
                }
            }
        }
    }

    let evaluate = |columns: &[u32], write: Option<&Mode>, read: Option<&Mode>| -> Option<Conversion> {
        let shared = shared_layout(columns, shape).ok()?;
        if !shared.is_invertible() {
            return None;
        }
        let write_access = SharedAccess::new(&shared, src).ok()?;
        let read_access = SharedAccess::new(&shared, dst).ok()?;
        let vector = |access: &SharedAccess| Mode::Vector { bits: vector_bits(access, 1 << max_vector) };
        let write = write.cloned().unwrap_or_else(|| vector(&write_access));
        let read = read.cloned().unwrap_or_else(|| vector(&read_access));
        if verify(&write_access, &write).is_err() || verify(&read_access, &read).is_err() {
            return None;
        }
        Some(Conversion { shared, write, read, write_access, read_access, rounds: Rounds::default() })
    };

    // The row-major layout always works: the fallback.
    let identity: Vec<u32> = (0..n).map(|i| 1 << i).collect();
    let fallback = evaluate(&identity, None, None).ok_or("the tensor does not fit a row-major scratch")?;
    let score_of = |plan: &Conversion| {
        let mut cost = plan.cost(element_bytes);
        if source_pairs_free {
            cost.repacks -= self::cost(&plan.write_access, &plan.write, element_bytes).repacks;
        }
        (cost.score(), plan.address_terms())
    };
    // The cheapest plan that writes with plain stores, and the cheapest that
    // writes with stmatrix.
    let mut best: [((u32, usize), Option<Conversion>); 2] =
        [(score_of(&fallback), Some(fallback)), ((u32::MAX, usize::MAX), None)];
    for (low, write, read) in &candidates {
        let Some(columns) = swizzled_columns(low, [write, read], n, row_bits) else { continue };
        let Some(plan) = evaluate(&columns, write.mode.as_ref(), read.mode.as_ref()) else { continue };
        let score = score_of(&plan);
        let slot = &mut best[usize::from(write.mode.is_some())];
        if score < slot.0 {
            *slot = (score, Some(plan));
        }
    }
    let [(_, plain), (_, stmatrix)] = best;
    let plain = plain.expect("the fallback writes with plain stores");
    // stmatrix only where it takes fewer shared-memory wavefronts (fewer
    // bank conflicts) than plain stores: upstream's rule (optimalSwizzling
    // minimises bank conflicts and, on a tie, takes st.shared before
    // stmatrix). Where both are conflict-free our score prefers stmatrix for
    // its fewer address registers, but the tutorial matmul's epilogue
    // (tut03_matmul_64x256x32_s4w4, 4096^3, H200) ran 1.065x upstream's time
    // with stmatrix + ld.shared.v4 and 1.011-1.014x with upstream's
    // st.shared.v4 + ldmatrix (bench/gpu_session12.sh PART=2).
    Ok(match stmatrix {
        Some(stmatrix) if stmatrix.cost(element_bytes).wavefronts < plain.cost(element_bytes).wavefronts => stmatrix,
        _ => plain,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tritium_layout::kinds::{Blocked, DotOperand, NvidiaMma, SwizzledShared};
    use tritium_layout::Bases;
    use tritium_layout::Layout;

    fn tensor(layout: impl Into<Layout>, shape: &[i64]) -> TensorLayout {
        TensorLayout::new(layout.into(), shape).unwrap()
    }

    fn warps(layout: &TensorLayout) -> usize {
        1 << layout.warp_bases.len()
    }

    /// The element (flat row-major index) `layout` puts in (register, lane, warp).
    fn element(layout: &TensorLayout, register: usize, lane: usize, warp: usize) -> u32 {
        let side = flatten(layout);
        let warp_flat: Vec<u32> = {
            let rank = layout.rank();
            let mut shifts = vec![0u32; rank];
            for d in (0..rank.saturating_sub(1)).rev() {
                shifts[d] = shifts[d + 1] + (layout.shape[d + 1] as u32).trailing_zeros();
            }
            layout.warp_bases.iter().map(|b| b.iter().zip(&shifts).fold(0, |a, (c, s)| a | c << s)).collect()
        };
        xor_of(&side.registers, register) ^ xor_of(&side.lanes, lane) ^ xor_of(&warp_flat, warp)
    }

    /// Runs the instructions the lowering emits for `mode` as the hardware
    /// would, on a memory of elements: stores put each thread's registers
    /// where the instruction semantics say; loads return, per thread, the
    /// registers in the order the lowering assigns them.
    fn run(
        access: &SharedAccess,
        mode: &Mode,
        memory: &mut [Option<u32>],
        threads: &mut [Vec<Option<u32>>],
        store: bool,
    ) {
        let lanes_of = |warp: usize, lane: usize| warp * 32 + lane;
        let warps = threads.len() / 32;
        for instruction in instructions(access, mode) {
            let constant = access.register_offsets[instruction.base];
            for warp in 0..warps {
                match mode {
                    Mode::Vector { .. } => {
                        for lane in 0..32 {
                            let thread = xor_of(&access.lane_offsets, lane) ^ xor_of(&access.warp_offsets, warp);
                            let start = thread ^ constant;
                            for (i, r) in instruction.registers.iter().enumerate() {
                                let slot = &mut threads[lanes_of(warp, lane)][*r];
                                let cell = &mut memory[start as usize + i];
                                if store {
                                    if let (Some(old), Some(new)) = (*cell, *slot) {
                                        assert_eq!(old, new, "two different elements at one offset");
                                    }
                                    *cell = *slot;
                                } else {
                                    *slot = *cell;
                                }
                            }
                        }
                    }
                    Mode::Matrix { trans, word, matrices } => {
                        let (lanes, warp_values) = matrix_row_offsets(access, mode).unwrap();
                        let row_address =
                            |l: usize| (xor_of(&lanes, l) ^ xor_of(&warp_values, warp) ^ constant) as usize;
                        let per_word = 1usize << word.len();
                        for t in 0..32 {
                            for j in 0..1usize << matrices.len() {
                                for h in 0..per_word {
                                    let (row, column) =
                                        if *trans { (2 * (t % 4) + h, t / 4) } else { (t / 4, per_word * (t % 4) + h) };
                                    let address = row_address(8 * j + row) + column;
                                    let r = instruction.registers[per_word * j + h];
                                    let slot = &mut threads[lanes_of(warp, t)][r];
                                    if store {
                                        memory[address] = *slot;
                                    } else {
                                        *slot = memory[address];
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Simulates the conversion element by element: every register of every
    /// destination thread must end up with the element `dst` puts there.
    fn check(src: &TensorLayout, dst: &TensorLayout, element_bytes: u32, capability: u32) -> Conversion {
        check_in_rounds(src, dst, element_bytes, capability, 0)
    }

    /// [`check`] of a conversion in `2^rounds_log2` rounds through a buffer
    /// that many times smaller than the tensor, each round's buffer filled
    /// completely before it is read.
    fn check_in_rounds(
        src: &TensorLayout,
        dst: &TensorLayout,
        element_bytes: u32,
        capability: u32,
        rounds_log2: u32,
    ) -> Conversion {
        let plan = plan_conversion(src, dst, element_bytes, capability, rounds_log2, false).unwrap();
        assert_eq!(plan.rounds.count(), 1 << rounds_log2);
        let numel: usize = src.shape.iter().product::<i64>() as usize;
        let threads = 32 * warps(src);
        let source: Vec<Vec<Option<u32>>> = (0..threads)
            .map(|t| (0..src.num_registers()).map(|r| Some(element(src, r, t % 32, t / 32))).collect())
            .collect();
        let mut result: Vec<Vec<Option<u32>>> = (0..threads).map(|_| vec![None; dst.num_registers()]).collect();
        let mask = canonical_mask(&plan.read_access);
        for round in 0..plan.rounds.count() {
            let written = Rounds::registers(&plan.rounds.src_bits, src.num_registers(), round);
            let read = Rounds::registers(&plan.rounds.dst_bits, dst.num_registers(), round);
            let mut memory = vec![None; numel >> rounds_log2];
            let mut round_source: Vec<Vec<Option<u32>>> =
                source.iter().map(|registers| written.iter().map(|r| registers[*r]).collect()).collect();
            run(&plan.write_access, &plan.write, &mut memory, &mut round_source, true);
            assert!(memory.iter().all(|m| m.is_some()), "some element of round {round} was never written");
            let mut round_result: Vec<Vec<Option<u32>>> = (0..threads).map(|_| vec![None; read.len()]).collect();
            run(&plan.read_access, &plan.read, &mut memory, &mut round_result, false);
            for (t, registers) in round_result.iter().enumerate() {
                for (s, r) in read.iter().enumerate() {
                    result[t][*r] = registers[s & mask];
                }
            }
        }
        for (t, registers) in result.iter().enumerate() {
            for r in 0..dst.num_registers() {
                assert_eq!(registers[r], Some(element(dst, r, t % 32, t / 32)), "thread {t} register {r}");
            }
        }
        plan
    }

    /// Every instruction takes the fewest rounds its bytes need (32 lanes,
    /// 128 bytes a round; ldmatrix/stmatrix one round per matrix).
    fn conflict_free(access: &SharedAccess, mode: &Mode, bytes: u32) -> bool {
        let c = cost(access, mode, bytes);
        let per_instruction = match mode {
            Mode::Vector { bits } => (32 * (bytes << bits.len())).div_ceil(128),
            Mode::Matrix { matrices, .. } => 1 << matrices.len(),
        };
        c.wavefronts == c.instructions * per_instruction
    }

    fn hopper_mma(warps: &[u32], n: u32) -> NvidiaMma {
        NvidiaMma::new(3, 0, warps, &[16, n, 16])
    }

    #[test]
    fn wgmma_accumulator_to_blocked_is_vectorised_and_conflict_free() {
        // The matmul epilogue: f16 accumulator to the store's blocked layout.
        let src = tensor(hopper_mma(&[4, 1], 64), &[64, 64]);
        let dst = tensor(Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]), &[64, 64]);
        for capability in [80, 90] {
            let plan = check(&src, &dst, 2, capability);
            assert!(
                conflict_free(&plan.write_access, &plan.write, 2) && conflict_free(&plan.read_access, &plan.read, 2)
            );
            let cost = plan.cost(2);
            // 4 x 16-byte stores and 4 ldmatrix.x4 (or the reverse), 4 rounds each.
            assert_eq!((cost.wavefronts, cost.instructions), (32, 8), "{:?} {:?}", plan.write, plan.read);
        }
    }

    #[test]
    fn stmatrix_is_chosen_only_where_it_saves_wavefronts() {
        let is_matrix = |mode: &Mode| matches!(mode, Mode::Matrix { .. });
        // (Each in the rounds upstream's scratch takes, as the lowering's.)
        // tutorial 03's 64x256 epilogue: both ways are conflict-free, so the
        // plain stores (and ldmatrix reads), as upstream.
        let src = tensor(hopper_mma(&[4, 1], 256), &[64, 256]);
        let dst = tensor(Blocked::new(&[1, 8], &[1, 32], &[4, 1], &[1, 0]), &[64, 256]);
        let rounds = tritium_layout::swizzling::conversion_rounds_log2(&src.linear, &dst.linear, 16, 90).unwrap();
        let plan = check_in_rounds(&src, &dst, 2, 90, rounds);
        assert!(!is_matrix(&plan.write) && is_matrix(&plan.read), "{:?} {:?}", plan.write, plan.read);
        // tutorial 08's epilogue: one element per thread on the read side;
        // stmatrix takes fewer wavefronts than any plain store.
        let src = tensor(hopper_mma(&[4, 1], 128), &[128, 128]);
        let dst = tensor(Blocked::new(&[1, 1], &[1, 32], &[1, 4], &[1, 0]), &[128, 128]);
        let rounds = tritium_layout::swizzling::conversion_rounds_log2(&src.linear, &dst.linear, 16, 90).unwrap();
        let plan = check_in_rounds(&src, &dst, 2, 90, rounds);
        assert!(is_matrix(&plan.write), "{rounds}: {:?} {:?}", plan.write, plan.read);
    }

    #[test]
    fn ldmatrix_reads_32_bit_elements() {
        // A thread holding a whole row of f32 to a thread holding 4x8
        // blocks (one warp): the rows written as 16-byte vectors, read back
        // with ldmatrix (each b32 one element: lanes 0-1 walk a 16-byte row,
        // lanes 2-4 pick it), conflict-free both ways, as upstream does.
        let src = tensor(Blocked::new(&[1, 32], &[32, 1], &[1, 1], &[1, 0]), &[32, 32]);
        let dst = tensor(Blocked::new(&[4, 8], &[8, 4], &[1, 1], &[1, 0]), &[32, 32]);
        let rounds = tritium_layout::swizzling::conversion_rounds_log2(&src.linear, &dst.linear, 32, 90).unwrap();
        let plan = check_in_rounds(&src, &dst, 4, 90, rounds);
        assert!(matches!(plan.read, Mode::Matrix { ref word, .. } if word.is_empty()), "{:?}", plan.read);
        assert!(conflict_free(&plan.write_access, &plan.write, 4) && conflict_free(&plan.read_access, &plan.read, 4));
    }

    #[test]
    fn conversions_in_rounds_move_every_element_once() {
        // The sm_80 int8 / tf32 matmul epilogues: upstream converts the
        // 128x128 accumulator in rounds (tritium_layout::swizzling); every
        // round's buffer is filled and read back whole.
        let mma = NvidiaMma::new(2, 0, &[2, 4], &[16, 8]);
        let blocked = Blocked::new(&[1, 4], &[2, 16], &[8, 1], &[1, 0]);
        let (src, dst) = (tensor(mma.clone(), &[128, 128]), tensor(blocked, &[128, 128]));
        let rounds = tritium_layout::swizzling::conversion_rounds_log2(&src.linear, &dst.linear, 32, 80).unwrap();
        assert!(rounds > 0, "upstream splits this conversion");
        for log2 in 1..=rounds {
            check_in_rounds(&src, &dst, 4, 80, log2);
        }
        let hopper = tensor(hopper_mma(&[4, 1], 64), &[128, 64]);
        let store = tensor(Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]), &[128, 64]);
        check_in_rounds(&hopper, &store, 2, 90, 1);
    }

    #[test]
    fn every_conversion_moves_in_upstreams_rounds() {
        // Blocked, Ampere and Hopper MMA layouts of 8 warps over several
        // shapes and element sizes: whatever number of rounds upstream sizes
        // the scratch for, the lowering's plan moves every element right.
        let layouts: Vec<Layout> = vec![
            Blocked::new(&[1, 8], &[8, 4], &[8, 1], &[1, 0]).into(),
            Blocked::new(&[4, 1], &[8, 4], &[2, 4], &[1, 0]).into(),
            Blocked::new(&[2, 2], &[1, 32], &[8, 1], &[0, 1]).into(),
            Blocked::new(&[1, 1], &[32, 1], &[1, 8], &[0, 1]).into(),
            NvidiaMma::new(2, 0, &[2, 4], &[16, 8]).into(),
            NvidiaMma::new(3, 0, &[8, 1], &[16, 64, 16]).into(),
        ];
        let mut split = 0;
        for shape in [[64, 64], [256, 64]] {
            for src in &layouts {
                for dst in layouts.iter().filter(|d| !matches!(d, Layout::NvidiaMma(_))) {
                    let (src, dst) = (tensor(src.clone(), &shape), tensor(dst.clone(), &shape));
                    if src.lane_bases == dst.lane_bases && src.warp_bases == dst.warp_bases {
                        continue;
                    }
                    for bytes in [1, 2, 4] {
                        for capability in [80, 90] {
                            let rounds = tritium_layout::swizzling::conversion_rounds_log2(
                                &src.linear,
                                &dst.linear,
                                8 * bytes,
                                capability,
                            )
                            .unwrap();
                            split += (rounds > 0) as usize;
                            check_in_rounds(&src, &dst, bytes, capability, rounds);
                        }
                    }
                }
            }
        }
        assert!(split > 80, "only {split} conversions in rounds");
    }

    #[test]
    fn round_registers_fix_the_round_bits() {
        assert_eq!(Rounds::registers(&[1], 8, 0), vec![0, 1, 4, 5]);
        assert_eq!(Rounds::registers(&[1], 8, 1), vec![2, 3, 6, 7]);
        assert_eq!(Rounds::registers(&[0, 2], 8, 2), vec![4, 6]);
        assert_eq!(Rounds::registers(&[], 4, 0), vec![0, 1, 2, 3]);
    }

    #[test]
    fn attention_epilogue_and_grouped_matmul() {
        let src = tensor(hopper_mma(&[4, 1], 64), &[128, 64]);
        let dst = tensor(Blocked::new(&[1, 8], &[4, 8], &[4, 1], &[1, 0]), &[128, 64]);
        let plan = check(&src, &dst, 2, 90);
        assert_eq!(plan.cost(2).wavefronts, 4 * plan.cost(2).instructions);
        let src = tensor(hopper_mma(&[8, 1], 128), &[128, 128]);
        let dst = tensor(Blocked::new(&[1, 8], &[2, 16], &[8, 1], &[1, 0]), &[128, 128]);
        let plan = check(&src, &dst, 2, 90);
        assert_eq!(plan.cost(2).wavefronts, 4 * plan.cost(2).instructions);
    }

    #[test]
    fn ampere_layouts_and_other_element_sizes() {
        let mma = NvidiaMma::new(2, 0, &[2, 4], &[16, 8]);
        let blocked = Blocked::new(&[1, 8], &[2, 16], &[8, 1], &[1, 0]);
        for bytes in [1, 2, 4, 8] {
            let plan = check(&tensor(mma.clone(), &[128, 128]), &tensor(blocked.clone(), &[128, 128]), bytes, 80);
            assert!(conflict_free(&plan.write_access, &plan.write, bytes), "{bytes}-byte writes");
            assert!(conflict_free(&plan.read_access, &plan.read, bytes), "{bytes}-byte reads");
        }
        // Transposing blocked layouts, a dot operand, and broadcast lanes.
        let a = Blocked::new(&[1, 4], &[8, 4], &[4, 1], &[1, 0]);
        let b = Blocked::new(&[4, 1], &[4, 8], &[1, 4], &[0, 1]);
        check(&tensor(a.clone(), &[64, 64]), &tensor(b.clone(), &[64, 64]), 4, 80);
        check(&tensor(b, &[64, 64]), &tensor(a.clone(), &[64, 64]), 2, 90);
        let dot = DotOperand::new(0, Layout::NvidiaMma(mma.clone()), 2);
        check(&tensor(a.clone(), &[64, 64]), &tensor(dot, &[64, 64]), 2, 80);
        check(&tensor(a, &[16, 16]), &tensor(mma, &[16, 16]), 4, 80);
    }

    #[test]
    fn ampere_dot_operands_load_with_ldmatrix() {
        // The sm_80 matmul's operands: swizzled buffers (vec 8, 8 phases),
        // A read as is, B (N contiguous) read transposed; 16-bit elements.
        let mma = NvidiaMma::new(2, 0, &[2, 4], &[16, 8]);
        let buffer = SwizzledShared::new(8, 1, 8, &[1, 0]);
        for (index, shape, trans) in [(0, [128i64, 64], false), (1, [64, 128], true)] {
            let dot = tensor(DotOperand::new(index, Layout::NvidiaMma(mma.clone()), 2), &shape);
            let shared = Layout::SwizzledShared(buffer.clone()).to_linear(&shape).unwrap();
            let access = SharedAccess::new(&shared, &dot).unwrap();
            let mode = best_mode(&access, 2, 80, false);
            assert!(
                matches!(mode, Mode::Matrix { trans: t, ref matrices, .. } if t == trans && matrices.len() == 2),
                "{mode:?}"
            );
            verify(&access, &mode).unwrap();
            assert!(conflict_free(&access, &mode, 2));
            // Without ldmatrix (sm < 75 rules), plain loads still verify.
            let plain = best_mode(&access, 2, 70, false);
            verify(&access, &plain).unwrap();
        }
    }

    /// Loads `dot` from a buffer laid out as `buffer` with the mode
    /// best_mode picks, simulated element by element: every register of
    /// every thread must get the element the layout puts there.
    fn load_through(buffer: Layout, dot: &TensorLayout, bytes: u32, capability: u32) -> (SharedAccess, Mode) {
        let shape = dot.shape.clone();
        let shared = buffer.to_linear(&shape).unwrap();
        let access = SharedAccess::new(&shared, dot).unwrap();
        let mode = best_mode(&access, bytes, capability, false);
        verify(&access, &mode).unwrap();
        let numel: usize = shape.iter().product::<i64>() as usize;
        let flat = |coords: &[(Dim, u32)]| {
            coords.iter().fold(0u32, |index, (dim, c)| match dim {
                Dim::Axis(d) => index * shape[*d] as u32 + c,
                _ => index,
            })
        };
        let mut memory: Vec<Option<u32>> = (0..numel as u32)
            .map(|offset| Some(flat(&shared.apply(&[(Dim::Offset, offset), (Dim::Block, 0)]).unwrap())))
            .collect();
        let threads = 32 * warps(dot);
        let mut result: Vec<Vec<Option<u32>>> = (0..threads).map(|_| vec![None; dot.num_registers()]).collect();
        run(&access, &mode, &mut memory, &mut result, false);
        let mask = canonical_mask(&access);
        for (t, registers) in result.iter().enumerate() {
            for r in 0..dot.num_registers() {
                assert_eq!(registers[r & mask], Some(element(dot, r, t % 32, t / 32)), "thread {t} register {r}");
            }
        }
        (access, mode)
    }

    #[test]
    fn int8_and_tf32_dot_operands_load_with_ldmatrix_where_rows_are_k() {
        // The sm_80 int8 matmul (kWidth 4): A's rows are 16 bytes of K, one
        // b16 ldmatrix.x4 moves four bytes to each thread; B is N-contiguous,
        // so its bytes are strided and load one by one.
        let mma = NvidiaMma::new(2, 0, &[2, 4], &[16, 8]);
        let a = tensor(DotOperand::new(0, Layout::NvidiaMma(mma.clone()), 4), &[128, 64]);
        let (access, mode) = load_through(Layout::SwizzledShared(SwizzledShared::new(16, 2, 4, &[1, 0])), &a, 1, 80);
        assert!(
            matches!(&mode, Mode::Matrix { trans: false, word, matrices } if word.len() == 2 && matrices.len() == 2),
            "{mode:?}"
        );
        assert!(conflict_free(&access, &mode, 1));
        let b = tensor(DotOperand::new(1, Layout::NvidiaMma(mma.clone()), 4), &[64, 128]);
        let (_, mode) = load_through(Layout::SwizzledShared(SwizzledShared::new(8, 1, 16, &[1, 0])), &b, 1, 80);
        assert_eq!(mode, Mode::Vector { bits: vec![] });
        // B stored K-contiguous: its rows are K too.
        let (_, mode) = load_through(Layout::SwizzledShared(SwizzledShared::new(16, 2, 4, &[0, 1])), &b, 1, 80);
        assert!(matches!(&mode, Mode::Matrix { trans: false, word, .. } if word.len() == 2), "{mode:?}");
        // tf32 (kWidth 1): a thread's word is one element.
        let a = tensor(DotOperand::new(0, Layout::NvidiaMma(mma.clone()), 1), &[128, 32]);
        let (access, mode) = load_through(Layout::SwizzledShared(SwizzledShared::new(4, 1, 8, &[1, 0])), &a, 4, 80);
        assert!(
            matches!(&mode, Mode::Matrix { trans: false, word, matrices } if word.is_empty() && matrices.len() == 2),
            "{mode:?}"
        );
        assert!(conflict_free(&access, &mode, 4));
        let b = tensor(DotOperand::new(1, Layout::NvidiaMma(mma), 1), &[32, 128]);
        let (_, mode) = load_through(Layout::SwizzledShared(SwizzledShared::new(8, 1, 4, &[1, 0])), &b, 4, 80);
        assert_eq!(mode, Mode::Vector { bits: vec![] });
    }

    /// A distributed layout given by its bases (rows, columns).
    fn linear(registers: Bases, lanes: Bases, warps: Bases, shape: &[i64]) -> TensorLayout {
        let ins = vec![(Dim::Register, registers), (Dim::Lane, lanes), (Dim::Warp, warps), (Dim::Block, vec![])];
        let outs = vec![(Dim::Axis(0), shape[0] as u32), (Dim::Axis(1), shape[1] as u32)];
        tensor(LinearLayout::new(ins, outs, true).unwrap(), shape)
    }

    /// Stores `layout` into a row-major buffer with the mode best_mode picks
    /// on sm_90, simulated element by element: every offset must get the
    /// element the buffer's layout puts there.
    fn store_through(layout: &TensorLayout, bytes: u32) -> Mode {
        let shape = layout.shape.clone();
        let row_major = Layout::SwizzledShared(SwizzledShared::new(1, 1, 1, &[1, 0]));
        let shared = row_major.to_linear(&shape).unwrap();
        let access = SharedAccess::new(&shared, layout).unwrap();
        let mode = best_mode(&access, bytes, 90, true);
        verify(&access, &mode).unwrap();
        let numel: usize = shape.iter().product::<i64>() as usize;
        let mut memory = vec![None; numel];
        let threads = 32 * warps(layout);
        let mut source: Vec<Vec<Option<u32>>> = (0..threads)
            .map(|t| (0..layout.num_registers()).map(|r| Some(element(layout, r, t % 32, t / 32))).collect())
            .collect();
        run(&access, &mode, &mut memory, &mut source, true);
        // Row-major: the element at each offset is the offset itself.
        for (offset, cell) in memory.iter().enumerate() {
            assert_eq!(*cell, Some(offset as u32), "offset {offset}");
        }
        mode
    }

    #[test]
    fn int8_and_f32_tensors_store_with_stmatrix_where_rows_are_16_bytes() {
        // 8-bit: each thread's four consecutive bytes (register bits 0-1)
        // are its b32 of a matrix row; lanes 0-1 walk the row's 16 bytes,
        // lanes 2-4 pick the row; register bits 2-3 pick the matrix (x4).
        let bytes8 = linear(
            vec![vec![0, 1], vec![0, 2], vec![8, 0], vec![0, 16]],
            vec![vec![0, 4], vec![0, 8], vec![1, 0], vec![2, 0], vec![4, 0]],
            vec![vec![16, 0], vec![0, 32]],
            &[32, 64],
        );
        let mode = store_through(&bytes8, 1);
        assert!(
            matches!(&mode, Mode::Matrix { trans: false, word, matrices } if word.len() == 2 && matrices.len() == 2),
            "{mode:?}"
        );
        // 32-bit: a thread's word is one element; lanes 0-1 walk four of
        // them (16 bytes); two register bits pick the matrix.
        let words = linear(
            vec![vec![0, 4], vec![8, 0], vec![16, 0]],
            vec![vec![0, 1], vec![0, 2], vec![1, 0], vec![2, 0], vec![4, 0]],
            vec![vec![0, 8], vec![0, 16]],
            &[32, 32],
        );
        let mode = store_through(&words, 4);
        assert!(
            matches!(&mode, Mode::Matrix { trans: false, word, matrices } if word.is_empty() && matrices.len() == 2),
            "{mode:?}"
        );
    }

    #[test]
    fn verify_rejects_a_wrong_mode() {
        let dot = tensor(DotOperand::new(0, Layout::NvidiaMma(NvidiaMma::new(2, 0, &[2, 4], &[16, 8])), 2), &[128, 64]);
        let shared = Layout::SwizzledShared(SwizzledShared::new(8, 1, 8, &[1, 0])).to_linear(&[128, 64]).unwrap();
        let access = SharedAccess::new(&shared, &dot).unwrap();
        let Mode::Matrix { word, matrices, .. } = best_mode(&access, 2, 80, false) else { panic!("expected ldmatrix") };
        assert!(verify(&access, &Mode::Matrix { trans: true, word: word.clone(), matrices: matrices.clone() }).is_err());
        assert!(verify(&access, &Mode::Vector { bits: vec![word[0], matrices[0]] }).is_err());
    }
}
