//! The sanitizer's helper functions: each check or update of its state is a
//! private `tt.func` (`__triton_consan_<what>_nw<warps>_<types>`) that works
//! on whole state tensors loaded from global scratch, called at the
//! instrumented op. One function per name and set of types, created on
//! first use.
//!
//! State encodings (shared with `state.rs`):
//! - barrier state (i32 per barrier): bit 0 the phase, bits 1..8 the
//!   arrival count set at init, bits 9..16 the arrivals still expected;
//! - waiting (i32 per barrier): two bits per base thread, bit 0 "waiting",
//!   bit 1 the phase waited for;
//! - visibility: per buffer, a bit mask of the threads that see its last
//!   write (1-D) or, per thread column, the reads it sees (2-D);
//! - tracking: per buffer and barrier, whether the barrier carries its
//!   writes (i8) or which reads (i64 thread mask);
//! - commits: per buffer and base thread, -1 for an access not yet
//!   committed, else how many commit groups were issued since (0: none).
use super::text::{Body, Ty, V};

/// Threads the sanitizer tells apart: partitions (0 = default), plus
/// the TMA and tensor-core engines acting for each.
pub const NUM_THREADS: i64 = 16;
pub const TMA_THREAD_OFFSET: i64 = NUM_THREADS;
pub const TC_THREAD_OFFSET: i64 = 2 * NUM_THREADS;
/// Columns of the read-visibility tensor: all threads, rounded up to a
/// power of two.
pub const THREAD_COLUMNS: i64 = 64;

const INIT_COUNT_LSB: i64 = 1;
const CURRENT_COUNT_LSB: i64 = 9;
const COUNT_MASK: i64 = 0xff;

/// Writes a helper's body into a [`Body`] from its arguments; returns the
/// value it checks, if it is a check.
pub type BodyFn<'f> = Box<dyn Fn(&mut Body, &[V]) -> Option<V> + 'f>;

/// A helper: its name, arguments, what else its body depends on (for the
/// mangled name), the i1 value it returns for an assert, and its body
/// (which gets the arguments and returns that value).
pub struct Helper<'f> {
    pub base: &'static str,
    pub arguments: Vec<Ty>,
    pub specialization: Vec<String>,
    pub assert: Option<Ty>,
    pub body: BodyFn<'f>,
}

impl Helper<'_> {
    pub fn mangled_name(&self, num_warps: i64) -> String {
        let mut name = format!("__triton_consan_{}_nw{num_warps}", self.base);
        for ty in &self.arguments {
            name += &type_tag(ty);
        }
        for extra in &self.specialization {
            name += extra;
        }
        if let Some(ty) = &self.assert {
            name += &type_tag(ty);
        }
        name
    }

    /// The function's text.
    pub fn function_text(&self, name: &str, num_warps: i64) -> String {
        let arguments: Vec<V> =
            self.arguments.iter().enumerate().map(|(i, ty)| V { name: format!("%a{i}"), ty: ty.clone() }).collect();
        let mut body = Body::new();
        let result = (self.body)(&mut body, &arguments);
        let signature: Vec<String> = arguments.iter().map(|a| format!("{}: {}", a.name, a.ty)).collect();
        let (results, ret) = match &result {
            Some(r) => (format!(" -> {}", r.ty), format!("tt.return {} : {}", r.name, r.ty)),
            None => (String::new(), "tt.return".to_string()),
        };
        format!(
            "tt.func private @{name}({}){results} attributes {{\"ttg.num-warps\" = {num_warps} : i32}} {{\n{}\n  {ret}\n}}",
            signature.join(", "),
            body.text()
        )
    }
}

/// A type in a mangled name: a hash of its text (stable across runs).
pub fn type_tag(ty: &Ty) -> String {
    let mut hash: u64 = 0xcbf29ce484222325;
    for byte in ty.to_string().bytes() {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x100000001b3);
    }
    format!("_T{hash:X}")
}

pub fn int_tag(value: i64) -> String {
    format!("_I{value}")
}

fn i1() -> Ty {
    Ty::scalar("i1")
}
fn i32() -> Ty {
    Ty::scalar("i32")
}
fn i64() -> Ty {
    Ty::scalar("i64")
}

/// Runs `f` only where the predicate `pred` holds.
fn guarded(b: &mut Body, pred: &V, f: impl FnOnce(&mut Body)) -> Option<V> {
    let after = b.begin_if(pred);
    f(b);
    b.end_if(after);
    None
}

/// The state tensor of a pointer argument, for the mangled name.
fn tags(types: &[&Ty]) -> Vec<String> {
    types.iter().map(|t| type_tag(t)).collect()
}

// ---- barriers -------------------------------------------------------------

pub fn init_barrier_state<'f>(barriers: &'f Ty, states: &'f Ty) -> Helper<'f> {
    Helper {
        base: "init_barrier_state",
        arguments: vec![i64(), i32(), barriers.clone(), states.pointer_to()],
        specialization: tags(&[barriers, states]),
        assert: None,
        body: Box::new(move |b, a| {
            let (barrier, count, all, states_ptr) = (&a[0], &a[1], &a[2], &a[3]);
            let current = b.load(states_ptr, states);
            let is_barrier = b.cmp_with_scalar("eq", all, barrier);
            let mask = b.int(COUNT_MASK, 32);
            let count = b.and(count, &mask);
            let count = b.splat(&count, states);
            let init_shift = b.splat_constant(INIT_COUNT_LSB, states);
            let current_shift = b.splat_constant(CURRENT_COUNT_LSB, states);
            let init_field = b.binary("shli", &count, &init_shift);
            let current_field = b.binary("shli", &count, &current_shift);
            let state = b.or(&init_field, &current_field);
            let updated = b.select(&is_barrier, &state, &current);
            b.store(states_ptr, &updated);
            None
        }),
    }
}

/// Arrivals still expected at `barrier` after `count` more, per barrier.
fn remaining_after_arrival(b: &mut Body, a: &[V], states: &Ty) -> (V, V, V, V) {
    let (barrier, count, all, states_ptr) = (&a[0], &a[1], &a[3], &a[4]);
    let current = b.load(states_ptr, states);
    let is_barrier = b.cmp_with_scalar("eq", all, barrier);
    let mask = b.splat_constant(COUNT_MASK, states);
    let shift = b.splat_constant(CURRENT_COUNT_LSB, states);
    let expected = b.binary("shrui", &current, &shift);
    let expected = b.and(&expected, &mask);
    let count_mask = b.int(COUNT_MASK, 32);
    let count = b.and(count, &count_mask);
    let count = b.splat(&count, states);
    let remaining = b.binary("subi", &expected, &count);
    (current, is_barrier, expected, remaining)
}

pub fn verify_barrier_arrive<'f>(barriers: &'f Ty, states: &'f Ty) -> Helper<'f> {
    Helper {
        base: "verify_barrier_arrive",
        arguments: vec![i64(), i32(), i1(), barriers.clone(), states.pointer_to()],
        specialization: tags(&[barriers, states]),
        assert: Some(states.with_element("i1")),
        body: Box::new(move |b, a| {
            let (_, is_barrier, _, remaining) = remaining_after_arrival(b, a, states);
            let zero = b.splat_constant(0, states);
            let remaining = b.select(&is_barrier, &remaining, &zero);
            let ok = b.cmp("sge", &remaining, &zero);
            let all_true = b.splat_constant(1, &ok.ty);
            Some(b.select(&a[2], &ok, &all_true))
        }),
    }
}

pub fn update_barrier_state<'f>(barriers: &'f Ty, states: &'f Ty) -> Helper<'f> {
    Helper {
        base: "update_barrier_state",
        arguments: vec![i64(), i32(), i1(), barriers.clone(), states.pointer_to()],
        specialization: tags(&[barriers, states]),
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[2], |b| {
                let (current, is_barrier, expected, remaining) = remaining_after_arrival(b, a, states);
                let one = b.splat_constant(1, states);
                let zero = b.splat_constant(0, states);
                let mask = b.splat_constant(COUNT_MASK, states);
                let init_shift = b.splat_constant(INIT_COUNT_LSB, states);
                let current_shift = b.splat_constant(CURRENT_COUNT_LSB, states);
                let phase = b.and(&current, &one);
                let init = b.binary("shrui", &current, &init_shift);
                let init = b.and(&init, &mask);
                let remaining = b.select(&is_barrier, &remaining, &expected);
                // The last arrival flips the phase and re-arms the count.
                let completes = b.cmp("eq", &remaining, &zero);
                let completes = b.and(&completes, &is_barrier);
                let flip = b.resize(&completes, "i32");
                let phase = b.xor(&phase, &flip);
                let remaining = b.select(&completes, &init, &remaining);
                let init_field = b.binary("shli", &init, &init_shift);
                let current_field = b.binary("shli", &remaining, &current_shift);
                let state = b.or(&phase, &init_field);
                let state = b.or(&state, &current_field);
                let updated = b.select(&is_barrier, &state, &current);
                b.store(&a[4], &updated);
            })
        }),
    }
}

/// Sets (`waiting`) or clears this thread's waiting bits of `barrier`.
fn waiting_update<'f>(base: &'static str, barriers: &'f Ty, waiting: &'f Ty, set: bool) -> Helper<'f> {
    let mut arguments = vec![i64(), i32()];
    if set {
        arguments.push(i32());
    }
    arguments.extend([i1(), barriers.clone(), waiting.pointer_to()]);
    Helper {
        base,
        arguments,
        specialization: tags(&[barriers, waiting]),
        assert: None,
        body: Box::new(move |b, a| {
            let (barrier, thread) = (&a[0], &a[1]);
            let rest = if set { &a[3..] } else { &a[2..] };
            let (pred, all, waiting_ptr) = (&rest[0], &rest[1], &rest[2]);
            guarded(b, pred, |b| {
                let current = b.load(waiting_ptr, waiting);
                let is_barrier = b.cmp_with_scalar("eq", all, barrier);
                let two = b.int(2, 32);
                let one = b.int(1, 32);
                let flag_shift = b.binary("muli", thread, &two);
                let phase_shift = b.binary("addi", &flag_shift, &one);
                let flag_bit = b.binary("shli", &one, &flag_shift);
                let phase_bit = b.binary("shli", &one, &phase_shift);
                let both = b.or(&flag_bit, &phase_bit);
                let all_ones = b.int(-1, 32);
                let clear = b.xor(&both, &all_ones);
                let clear = b.splat(&clear, waiting);
                let cleared = b.and(&current, &clear);
                let updated = if set {
                    let flag = b.splat(&flag_bit, waiting);
                    let flagged = b.or(&cleared, &flag);
                    let phase = b.and(&a[2], &one);
                    let phase = b.splat(&phase, waiting);
                    let shift = b.splat(&phase_shift, waiting);
                    let phase = b.binary("shli", &phase, &shift);
                    let pending = b.or(&flagged, &phase);
                    let pred = b.splat(pred, &is_barrier.ty);
                    let selected = b.and(&is_barrier, &pred);
                    b.select(&selected, &pending, &current)
                } else {
                    b.select(&is_barrier, &cleared, &current)
                };
                b.store(waiting_ptr, &updated);
            })
        }),
    }
}

pub fn set_waiting<'f>(barriers: &'f Ty, waiting: &'f Ty) -> Helper<'f> {
    waiting_update("set_waiting", barriers, waiting, true)
}

pub fn clear_waiting<'f>(barriers: &'f Ty, waiting: &'f Ty) -> Helper<'f> {
    waiting_update("clear_waiting", barriers, waiting, false)
}

/// Bits of the waiting word for each thread of `active_mask` (bit 0 of
/// each thread's pair).
pub fn waiting_flags(active_mask: i64) -> i64 {
    (0..NUM_THREADS).filter(|t| active_mask & (1 << t) != 0).map(|t| 1i64 << (2 * t)).sum()
}

/// Fails (returns false) when every active thread waits on a barrier for
/// a phase that has not completed: nobody is left to complete it.
pub fn check_all_active_waiting<'f>(waiting: &'f Ty, states: &'f Ty) -> Helper<'f> {
    Helper {
        base: "check_all_active_waiting",
        arguments: vec![i32(), i1(), waiting.pointer_to(), states.pointer_to()],
        specialization: tags(&[waiting, states]),
        assert: Some(i1()),
        body: Box::new(move |b, a| {
            let (active, pred) = (&a[0], &a[1]);
            let current = b.load(&a[2], waiting);
            let barrier_states = b.load(&a[3], states);
            let flag_mask = b.splat_constant(waiting_flags(0xffff), waiting);
            let phase_mask = b.splat_constant(waiting_flags(0xffff) << 1, waiting);
            let flags = b.and(&current, &flag_mask);
            let phases = b.and(&current, &phase_mask);
            let one = b.splat_constant(1, waiting);
            let phases = b.binary("shrui", &phases, &one);
            let not_phases = b.xor(&phases, &flag_mask);
            let waiting_phase0 = b.and(&flags, &not_phases);
            let waiting_phase1 = b.and(&flags, &phases);
            let one_state = b.splat_constant(1, states);
            let barrier_phase = b.and(&barrier_states, &one_state);
            let phase_is_one = b.cmp("eq", &barrier_phase, &one_state);
            let stuck = b.select(&phase_is_one, &waiting_phase1, &waiting_phase0);
            let stuck = b.or_reduce(&stuck, 0);
            let stuck_active = b.and(&stuck, active);
            let all_stuck = b.cmp("eq", &stuck_active, active);
            let t = b.int(1, 1);
            let ok = b.xor(&all_stuck, &t);
            Some(b.select(pred, &ok, &t))
        }),
    }
}

// ---- visibility ---------------------------------------------------------

/// `buffers == buffer`, per buffer.
fn is_buffer(b: &mut Body, buffers: &V, buffer: &V) -> V {
    b.cmp_with_scalar("eq", buffers, buffer)
}

pub fn set_write_visibility<'f>(buffers: &'f Ty, visibility: &'f Ty, mem: i64) -> Helper<'f> {
    Helper {
        base: "set_write_visibility",
        arguments: vec![i64(), i1(), i64(), buffers.clone(), visibility.pointer_to()],
        specialization: vec![type_tag(buffers), type_tag(visibility), int_tag(mem)],
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[1], |b| {
                let current = b.load(&a[4], visibility);
                let selected = is_buffer(b, &a[3], &a[0]);
                let mask = b.splat(&a[2], visibility);
                let updated = b.select(&selected, &mask, &current);
                b.store(&a[4], &updated);
            })
        }),
    }
}

pub fn set_read_visibility<'f>(buffers: &'f Ty, visibility: &'f Ty, mem: i64) -> Helper<'f> {
    Helper {
        base: "set_read_visibility",
        arguments: vec![i64(), i1(), i64(), buffers.clone(), visibility.pointer_to()],
        specialization: vec![type_tag(buffers), type_tag(visibility), int_tag(mem)],
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[1], |b| {
                let current = b.load(&a[4], visibility);
                let selected = is_buffer(b, &a[3], &a[0]);
                let rows = b.spread(&selected, 1, visibility);
                let mask = b.splat(&a[2], visibility);
                let columns = b.thread_columns_mask(&a[2], visibility);
                let with_reader = b.or(&current, &mask);
                let cells = b.and(&rows, &columns);
                let updated = b.select(&cells, &with_reader, &current);
                b.store(&a[4], &updated);
            })
        }),
    }
}

/// Zeroes the rows of `buffer` in a 2-D state tensor (tracking, read
/// visibility).
pub fn clear_rows<'f>(base: &'static str, buffers: &'f Ty, state: &'f Ty, mem: i64) -> Helper<'f> {
    Helper {
        base,
        arguments: vec![i64(), i1(), buffers.clone(), state.pointer_to()],
        specialization: vec![type_tag(buffers), type_tag(state), int_tag(mem)],
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[1], |b| {
                let current = b.load(&a[3], state);
                let selected = is_buffer(b, &a[2], &a[0]);
                let rows = b.spread(&selected, 1, state);
                let zero = b.splat_constant(0, state);
                let updated = b.select(&rows, &zero, &current);
                b.store(&a[3], &updated);
            })
        }),
    }
}

/// Which update of the visibility state a barrier helper makes.
#[derive(Clone, Copy)]
pub enum BarrierStep {
    /// At an arrive on the barrier by `thread`: the barrier starts carrying
    /// what `thread` sees.
    Track,
    /// After a wait on the barrier: the threads of `mask` see what it
    /// carries.
    Transfer,
}

/// The helper of `step` for the writes (`writes`) or the reads. Arguments:
/// barrier, predicate, the thread (`Track`, i32) or the mask of threads
/// (`Transfer`, i64), barriers, visibility, tracking.
///
/// - Track, writes: marks, for the barrier, the buffers whose last write
///   `thread` sees;
/// - Track, reads: adds the reads `thread` sees to those the barrier tracks;
/// - Transfer, writes: the threads of `mask` see the writes the barrier
///   tracks;
/// - Transfer, reads: the threads of `mask` see the reads it tracks.
pub fn barrier_visibility<'f>(
    step: BarrierStep,
    writes: bool,
    barriers: &'f Ty,
    visibility: &'f Ty,
    tracking: &'f Ty,
    mem: i64,
) -> Helper<'f> {
    let (base, who) = match (step, writes) {
        (BarrierStep::Track, true) => ("track_visible_writes", i32()),
        (BarrierStep::Track, false) => ("track_visible_reads", i32()),
        (BarrierStep::Transfer, true) => ("transfer_visible_writes", i64()),
        (BarrierStep::Transfer, false) => ("transfer_visible_reads", i64()),
    };
    Helper {
        base,
        arguments: vec![i64(), i1(), who, barriers.clone(), visibility.pointer_to(), tracking.pointer_to()],
        specialization: vec![type_tag(barriers), type_tag(visibility), type_tag(tracking), int_tag(mem)],
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[1], |b| {
                let seen = b.load(&a[4], visibility);
                let current = b.load(&a[5], tracking);
                // The barrier's column of the tracking tensor, spread over it.
                let is_barrier = is_buffer(b, &a[3], &a[0]);
                let columns = b.spread(&is_barrier, 0, tracking);
                let frame = Frame { a, seen: &seen, current: &current, columns: &columns, visibility, tracking };
                match step {
                    BarrierStep::Track => {
                        let updated = track(b, &frame, writes);
                        b.store(&a[5], &updated);
                    }
                    BarrierStep::Transfer => {
                        let updated = transfer(b, &frame, writes);
                        b.store(&a[4], &updated);
                    }
                }
            })
        }),
    }
}

/// What the update of a barrier helper reads: its arguments, the loaded
/// visibility (`seen`) and tracking (`current`), and the barrier's cells of
/// the tracking tensor (`columns`).
#[derive(Clone, Copy)]
struct Frame<'v> {
    a: &'v [V],
    seen: &'v V,
    current: &'v V,
    columns: &'v V,
    visibility: &'v Ty,
    tracking: &'v Ty,
}

/// The tracking tensor after an arrive by thread `a[2]` (see
/// [`barrier_visibility`]).
fn track(b: &mut Body, frame: &Frame, writes: bool) -> V {
    let Frame { a, seen, current, columns, visibility, tracking } = *frame;
    if writes {
        let thread = b.resize(&a[2], "i64");
        let one = b.int(1, 64);
        let bit = b.binary("shli", &one, &thread);
        let bit = b.splat(&bit, visibility);
        let seen = b.and(seen, &bit);
        let seen = b.cmp("eq", &seen, &bit);
        let rows = b.spread(&seen, 1, tracking);
        let cells = b.and(columns, &rows);
        let ones = b.splat_constant(1, tracking);
        b.select(&cells, &ones, current)
    } else {
        let column = b.column_mask(&a[2], visibility);
        let zero = b.splat_constant(0, visibility);
        let seen = b.select(&column, seen, &zero);
        let seen = b.or_reduce(&seen, 1);
        let seen = b.spread(&seen, 1, tracking);
        let added = b.or(current, &seen);
        b.select(columns, &added, current)
    }
}

/// The visibility tensor after a wait by the threads of mask `a[2]` (see
/// [`barrier_visibility`]).
fn transfer(b: &mut Body, frame: &Frame, writes: bool) -> V {
    let Frame { a, seen, current, columns, visibility, tracking } = *frame;
    // What the barrier tracks, per buffer.
    let zero = b.splat_constant(0, tracking);
    let tracked = b.select(columns, current, &zero);
    let tracked = b.or_reduce(&tracked, 1);
    if writes {
        let tracked = b.convert_layout(&tracked, visibility.layout.as_ref().unwrap());
        let one = b.splat_constant(1, &tracked.ty);
        let tracked = b.cmp("eq", &tracked, &one);
        let mask = b.splat(&a[2], visibility);
        let none = b.splat_constant(0, visibility);
        let added = b.select(&tracked, &mask, &none);
        b.or(seen, &added)
    } else {
        let tracked = b.spread(&tracked, 1, visibility);
        let added = b.or(seen, &tracked);
        let threads = b.thread_columns_mask(&a[2], visibility);
        b.select(&threads, &added, seen)
    }
}

/// Per buffer: true unless it is `buffer` and its last write is not
/// visible to `thread`.
pub fn verify_write_visibility<'f>(buffers: &'f Ty, visibility: &'f Ty, mem: i64) -> Helper<'f> {
    Helper {
        base: "verify_write_visibility",
        arguments: vec![i64(), i1(), i32(), buffers.clone(), visibility.pointer_to()],
        specialization: vec![type_tag(buffers), type_tag(visibility), int_tag(mem)],
        assert: Some(buffers.with_element("i1")),
        body: Box::new(move |b, a| {
            let writes = b.load(&a[4], visibility);
            let selected = is_buffer(b, &a[3], &a[0]);
            let zero = b.splat_constant(0, visibility);
            let row = b.select(&selected, &writes, &zero);
            let unwritten = b.cmp("eq", &row, &zero);
            let thread = b.resize(&a[2], "i64");
            let thread = b.splat(&thread, visibility);
            let selected_bits = b.resize(&selected, "i64");
            let bit = b.binary("shli", &selected_bits, &thread);
            let seen = b.and(&row, &bit);
            let seen = b.cmp("eq", &seen, &bit);
            let ok = b.or(&unwritten, &seen);
            let all_true = b.splat_constant(1, &ok.ty);
            Some(b.select(&a[1], &ok, &all_true))
        }),
    }
}

/// Per buffer: true unless it is `buffer` and some read of it is not
/// visible to `thread`.
pub fn verify_read_visibility<'f>(buffers: &'f Ty, visibility: &'f Ty, mem: i64) -> Helper<'f> {
    Helper {
        base: "verify_read_visibility",
        arguments: vec![i64(), i1(), i32(), buffers.clone(), visibility.pointer_to()],
        specialization: vec![type_tag(buffers), type_tag(visibility), int_tag(mem)],
        assert: Some(buffers.with_element("i1")),
        body: Box::new(move |b, a| {
            let reads = b.load(&a[4], visibility);
            let selected = is_buffer(b, &a[3], &a[0]);
            let rows = b.spread(&selected, 1, visibility);
            let zero = b.splat_constant(0, visibility);
            let row = b.select(&rows, &reads, &zero);
            let all_reads = b.or_reduce(&row, 1);
            let column = b.column_mask(&a[2], visibility);
            let mine = b.select(&column, &row, &zero);
            let mine = b.or_reduce(&mine, 1);
            let seen = b.and(&mine, &all_reads);
            let ok = b.cmp("eq", &seen, &all_reads);
            let all_true = b.splat_constant(1, &ok.ty);
            let ok = b.select(&a[1], &ok, &all_true);
            Some(b.convert_layout(&ok, buffers.layout.as_ref().unwrap()))
        }),
    }
}

/// At a warp_specialize: the partitions (`destinations`) start seeing the
/// writes `source` sees.
pub fn copy_write_visibility<'f>(visibility: &'f Ty, mem: i64) -> Helper<'f> {
    Helper {
        base: "copy_write_visibility",
        arguments: vec![i32(), i64(), i1(), visibility.pointer_to()],
        specialization: vec![type_tag(visibility), int_tag(mem)],
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[2], |b| {
                let writes = b.load(&a[3], visibility);
                let zero = b.splat_constant(0, visibility);
                let all_ones = b.int(-1, 64);
                let keep = b.xor(&a[1], &all_ones);
                let destinations = b.splat(&a[1], visibility);
                let keep = b.splat(&keep, visibility);
                let cleared = b.and(&writes, &keep);
                let one = b.int(1, 64);
                let source = b.resize(&a[0], "i64");
                let source = b.binary("shli", &one, &source);
                let source = b.splat(&source, visibility);
                let seen = b.and(&writes, &source);
                let seen = b.cmp("ne", &seen, &zero);
                let copied = b.select(&seen, &destinations, &zero);
                let updated = b.or(&cleared, &copied);
                b.store(&a[3], &updated);
            })
        }),
    }
}

/// At a warp_specialize: the partitions' read columns become `source`'s.
pub fn copy_read_visibility<'f>(visibility: &'f Ty, mem: i64, destinations: u64) -> Helper<'f> {
    Helper {
        base: "copy_read_visibility",
        arguments: vec![i32(), i64(), i1(), visibility.pointer_to()],
        // The destinations are built into the body: part of the name.
        specialization: vec![type_tag(visibility), int_tag(mem), int_tag(destinations as i64)],
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[2], |b| {
                let reads = b.load(&a[3], visibility);
                let zero = b.splat_constant(0, visibility);
                let columns = b.constant_columns_mask(destinations, visibility);
                let cleared = b.select(&columns, &zero, &reads);
                let source = b.column_mask(&a[0], visibility);
                let source = b.select(&source, &reads, &zero);
                let source = b.or_reduce(&source, 1);
                let source = b.spread(&source, 1, visibility);
                let copied = b.select(&columns, &source, &zero);
                let updated = b.or(&cleared, &copied);
                b.store(&a[3], &updated);
            })
        }),
    }
}

// ---- commit counting (cp.async, wgmma, TMA stores) ------------------------

/// Marks `buffer` as accessed by `thread` in the commit group being built.
pub fn stage_access_for_commit<'f>(buffers: &'f Ty, commits: &'f Ty) -> Helper<'f> {
    Helper {
        base: "stage_access_for_commit",
        arguments: vec![i64(), i1(), i32(), buffers.clone(), commits.pointer_to()],
        specialization: tags(&[buffers, commits]),
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[1], |b| {
                let current = b.load(&a[4], commits);
                let selected = is_buffer(b, &a[3], &a[0]);
                let rows = b.spread(&selected, 1, commits);
                let column = b.column_mask(&a[2], commits);
                let cells = b.and(&rows, &column);
                let staged = b.splat_constant(-1, commits);
                let updated = b.select(&cells, &staged, &current);
                b.store(&a[4], &updated);
            })
        }),
    }
}

/// A commit by `thread`: its earlier groups age by one, its staged
/// accesses become the newest group.
pub fn commit_accesses(commits: &Ty) -> Helper<'_> {
    Helper {
        base: "commit_accesses",
        arguments: vec![i32(), i1(), commits.pointer_to()],
        specialization: tags(&[commits]),
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[1], |b| {
                let current = b.load(&a[2], commits);
                let column = b.column_mask(&a[0], commits);
                let zero = b.int(0, commits.bits());
                let staged = b.int(-1, commits.bits());
                let ones = b.splat_constant(1, commits);
                let older = b.cmp_with_scalar("sgt", &current, &zero);
                let older = b.and(&older, &column);
                let aged = b.binary("addi", &current, &ones);
                let current = b.select(&older, &aged, &current);
                let newest = b.cmp_with_scalar("eq", &current, &staged);
                let newest = b.and(&newest, &column);
                let updated = b.select(&newest, &ones, &current);
                b.store(&a[2], &updated);
            })
        }),
    }
}

/// A wait for all but `pending` of `thread`'s commit groups: the accesses
/// of the older groups complete; what they wrote (`writes`) or read
/// becomes visible to the threads of `mask`.
pub fn clear_outstanding_commits<'f>(commits: &'f Ty, visibility: &'f Ty, writes: bool) -> Helper<'f> {
    Helper {
        base: if writes {
            "clear_outstanding_commits_transfer_writes"
        } else {
            "clear_outstanding_commits_transfer_reads"
        },
        arguments: vec![i32(), i64(), i32(), i1(), commits.pointer_to(), visibility.pointer_to()],
        specialization: tags(&[commits, visibility]),
        assert: None,
        body: Box::new(move |b, a| {
            guarded(b, &a[3], |b| {
                let current = b.load(&a[4], commits);
                let seen = b.load(&a[5], visibility);
                let pending = b.resize(&a[2], &commits.element);
                let column = b.column_mask(&a[0], commits);
                let done = b.cmp_with_scalar("sgt", &current, &pending);
                let done = b.and(&done, &column);
                let rows = b.or_reduce(&done, 1);
                let rows = if writes {
                    b.convert_layout(&rows, visibility.layout.as_ref().unwrap())
                } else {
                    b.spread(&rows, 1, visibility)
                };
                let mask = b.splat(&a[1], visibility);
                let with_mask = b.or(&seen, &mask);
                let updated = b.select(&rows, &with_mask, &seen);
                b.store(&a[5], &updated);
                let zero = b.splat_constant(0, commits);
                let remaining = b.select(&done, &zero, &current);
                b.store(&a[4], &remaining);
            })
        }),
    }
}

/// Per cell: true unless `buffer` has an access in flight (staged or
/// committed and not waited for).
pub fn check_outstanding_commits<'f>(buffers: &'f Ty, commits: &'f Ty, thread: i64) -> Helper<'f> {
    Helper {
        base: "check_outstanding_commits",
        arguments: vec![i64(), i1(), i32(), buffers.clone(), commits.pointer_to()],
        specialization: vec![type_tag(buffers), type_tag(commits), int_tag(thread)],
        assert: Some(commits.with_element("i1")),
        body: Box::new(move |b, a| {
            let current = b.load(&a[4], commits);
            let selected = is_buffer(b, &a[3], &a[0]);
            let rows = b.spread(&selected, 1, commits);
            let zero = b.splat_constant(0, commits);
            let row = b.select(&rows, &current, &zero);
            let ok = b.cmp("eq", &row, &zero);
            let all_true = b.splat_constant(1, &ok.ty);
            Some(b.select(&a[1], &ok, &all_true))
        }),
    }
}
