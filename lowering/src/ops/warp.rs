//! What the scan, gather, histogram and atomic lowerings share: warp
//! shuffles and ballots of any scalar, the predicate that picks one thread
//! among those holding the same elements, predicated shared-memory stores,
//! `scf.if` around ops lowered at the cursor, and row-major element indices
//! (where scratch buffers keep a whole tensor).
use crate::{
    builder::{type_of, value, Cursor, V},
    emit::{Lowering, Result},
    layout::TensorLayout,
};
use melior::ir::{
    operation::{OperationBuilder, OperationLike},
    Attribute, Block, BlockLike, BlockRef, Region, RegionLike, Type, ValueLike,
};
use tritium_dialects::access::OpAccess;

/// Where a shuffle reads from.
#[derive(Clone, Copy)]
pub enum Shuffle {
    /// Lane `lane - delta` (a lane below 0 reads its own value).
    Up(u32),
    /// Lane `lane + delta` (a lane past 31 reads its own value).
    Down(u32),
    /// Lane `lane ^ mask`.
    Xor(u32),
    /// The given lane.
    Idx(V),
}

/// Bits of a scalar type as registers hold it (pointers: 64).
pub fn bit_width(ty: Type) -> Option<u32> {
    let text = ty.to_string();
    match text.as_str() {
        "f16" | "bf16" => Some(16),
        "f32" => Some(32),
        "f64" => Some(64),
        _ if text.starts_with("!llvm.ptr") => Some(64),
        _ if text.starts_with('i') => text[1..].parse().ok(),
        _ if text.starts_with("f8") => Some(8),
        _ => None,
    }
}

/// Converts `v` to the integer of its width (floats bitcast, pointers to i64).
pub fn to_int<'c>(l: &Lowering<'c>, v: V) -> Option<V> {
    let ty = type_of(v);
    let bits = bit_width(ty)?;
    let int = l.b.int_type(bits);
    Some(if ty == int {
        v
    } else if ty.to_string().starts_with("!llvm.ptr") {
        l.b.op1("llvm.ptrtoint", &[v], int, &[])
    } else {
        l.b.op1("llvm.bitcast", &[v], int, &[])
    })
}

/// The inverse of [`to_int`].
pub fn from_int<'c>(l: &Lowering<'c>, v: V, ty: Type<'c>) -> V {
    if type_of(v) == ty {
        v
    } else if ty.to_string().starts_with("!llvm.ptr") {
        l.b.op1("llvm.inttoptr", &[v], ty, &[])
    } else {
        l.b.op1("llvm.bitcast", &[v], ty, &[])
    }
}

/// `shfl.sync` of one 32-bit register over the whole warp.
fn shuffle32<'c>(l: &mut Lowering<'c>, v: V, how: Shuffle) -> V {
    // The clamp: the last lane of the warp (lanes past it read their own
    // value), or for `up` the first.
    let last_lane = i64::from(l.threads_per_warp - 1);
    let (kind, offset, clamp) = match how {
        Shuffle::Up(delta) => ("up", l.b.i32_const(delta as i64), 0),
        Shuffle::Down(delta) => ("down", l.b.i32_const(delta as i64), last_lane),
        Shuffle::Xor(mask) => ("bfly", l.b.i32_const(mask as i64), last_lane),
        Shuffle::Idx(lane) => ("idx", lane, last_lane),
    };
    let all = l.b.i32_const(-1);
    let clamp = l.b.i32_const(clamp);
    let kind = Attribute::parse(l.context(), &format!("#nvvm<shfl_kind {kind}>")).expect("shuffle kind");
    l.b.op1("nvvm.shfl.sync", &[all, v, offset, clamp], type_of(v), &[("kind", kind)])
}

/// A warp shuffle of any scalar up to 64 bits: narrower values travel in
/// the low bits of one 32-bit register, 64-bit ones as two.
pub fn shuffle<'c>(l: &mut Lowering<'c>, v: V, how: Shuffle) -> Option<V> {
    let ty = type_of(v);
    let text = ty.to_string();
    if text == "i32" || text == "f32" {
        return Some(shuffle32(l, v, how));
    }
    let bits = bit_width(ty)?;
    let int = to_int(l, v)?;
    let i32 = l.b.i32();
    let moved = if bits <= 32 {
        let wide = l.b.op1("arith.extui", &[int], i32, &[]);
        let moved = shuffle32(l, wide, how);
        let narrow = l.b.int_type(bits);
        l.b.op1("arith.trunci", &[moved], narrow, &[])
    } else if bits == 64 {
        let i64 = l.b.i64();
        let thirty_two = l.b.int(i64, 32);
        let low = l.b.op1("arith.trunci", &[int], i32, &[]);
        let high = l.b.op1("arith.shrui", &[int, thirty_two], i64, &[]);
        let high = l.b.op1("arith.trunci", &[high], i32, &[]);
        let (low, high) = (shuffle32(l, low, how), shuffle32(l, high, how));
        let low = l.b.op1("arith.extui", &[low], i64, &[]);
        let high = l.b.op1("arith.extui", &[high], i64, &[]);
        let high = l.b.op1("arith.shli", &[high, thirty_two], i64, &[]);
        l.b.op1("arith.ori", &[low, high], i64, &[])
    } else {
        return None;
    };
    Some(from_int(l, moved, ty))
}

/// `vote.sync.ballot.b32` over the whole warp: bit `i` is lane `i`'s `bit`.
pub fn ballot<'c>(l: &mut Lowering<'c>, bit: V) -> V {
    let all = l.b.i32_const(-1);
    let kind = Attribute::parse(l.context(), "#nvvm<vote_sync_kind ballot>").expect("vote kind");
    let i32 = l.b.i32();
    l.b.op1("nvvm.vote.sync", &[all, bit], i32, &[("kind", kind)])
}

/// True in one thread among those that hold the same elements of `layout`
/// (`None`: every thread holds its own).
pub fn representative<'c>(l: &mut Lowering<'c>, layout: &TensorLayout) -> Option<V> {
    crate::ops::memory::owner_predicate(l, layout.free_lane_mask(), layout.free_warp_mask())
}

/// True in thread 0: the one that acts for the CTA on a scalar.
pub fn first_thread<'c>(l: &mut Lowering<'c>) -> V {
    let tid = l.tid;
    l.in_prologue(|b| {
        let zero = b.i32_const(0);
        b.icmp(0, tid, zero)
    })
}

/// `a && b` where `None` stands for true.
pub fn and_predicates<'c>(l: &Lowering<'c>, a: Option<V>, b: Option<V>) -> Option<V> {
    match (a, b) {
        (Some(a), Some(b)) => Some(l.b.and(a, b)),
        (a, b) => a.or(b),
    }
}

/// The type a scalar is kept as in shared memory: i1 as i8 (the byte that
/// the scratch sizes count), everything else as itself.
pub fn stored_type<'c>(l: &Lowering<'c>, ty: Type<'c>) -> Type<'c> {
    if ty.to_string() == "i1" {
        l.b.int_type(8)
    } else {
        ty
    }
}

/// Stores `v` at the shared-memory address `pointer` where `predicate`
/// holds (a predicated `st.shared`, as upstream emits it).
pub fn store_shared<'c>(l: &mut Lowering<'c>, pointer: V, v: V, predicate: Option<V>) -> Option<()> {
    let stored = stored_type(l, type_of(v));
    let v = if stored != type_of(v) { l.b.op1("arith.extui", &[v], stored, &[]) } else { v };
    let Some(predicate) = predicate else {
        l.b.op("llvm.store", &[v, pointer], &[], &[]);
        return Some(());
    };
    let bits = bit_width(stored)?;
    let int = to_int(l, v)?;
    // PTX moves bytes through 16-bit registers.
    let (int, class) = match bits {
        8 => (l.b.op1("arith.extui", &[int], l.b.int_type(16), &[]), "h"),
        16 => (int, "h"),
        32 => (int, "r"),
        64 => (int, "l"),
        _ => return None,
    };
    let i32 = l.b.i32();
    let address = l.b.op1("llvm.ptrtoint", &[pointer], i32, &[]);
    l.b.inline_asm(
        &format!("@$2 st.shared.b{bits} [ $0 + 0 ], $1;"),
        &format!("r,{class},b"),
        &[address, int, predicate],
        None,
    );
    Some(())
}

/// Loads a `ty` stored by [`store_shared`].
pub fn load_shared<'c>(l: &mut Lowering<'c>, pointer: V, ty: Type<'c>) -> V {
    let stored = stored_type(l, ty);
    let v = l.b.op1("llvm.load", &[pointer], stored, &[]);
    if stored != ty {
        l.b.op1("arith.trunci", &[v], ty, &[])
    } else {
        v
    }
}

/// `scf.if condition` whose then-region is filled by `then` (lowered at a
/// cursor inside it) and yields what it returns; the else-region yields
/// `otherwise`. Returns the results (one per value of `otherwise`).
pub fn if_then<'c>(
    l: &mut Lowering<'c>,
    condition: V,
    otherwise: &[V],
    then: impl FnOnce(&mut Lowering<'c>) -> Result<Vec<V>>,
) -> Result<Vec<V>> {
    let location = l.b.location;
    let types: Vec<Type> = otherwise.iter().map(|v| type_of(*v)).collect();
    let regions = [Region::new(), Region::new()];
    for region in &regions {
        region.append_block(Block::new(&[]));
    }
    let [then_region, else_region] = regions;
    let operation = OperationBuilder::new("scf.if", location)
        .add_operands(&[value(condition)])
        .add_results(&types)
        .add_regions([then_region, else_region])
        .build()
        .expect("scf.if");
    let new = match l.b.cursor {
        Cursor::End(block) => unsafe { BlockRef::from_raw(block) }.append_operation(operation),
        Cursor::Before(anchor) => {
            let anchor = unsafe { melior::ir::OperationRef::from_raw(anchor) };
            anchor.block().expect("anchored op is in a block").insert_operation_before(anchor, operation)
        }
    };
    let then_block = new.region_at(0).unwrap().first_block().unwrap();
    let else_block = new.region_at(1).unwrap().first_block().unwrap();
    let saved = l.b.cursor;
    l.b.cursor = Cursor::End(then_block.to_raw());
    let yielded = then(l);
    if let Ok(yielded) = &yielded {
        l.b.op("scf.yield", yielded, &[], &[]);
    }
    l.b.cursor = Cursor::End(else_block.to_raw());
    l.b.op("scf.yield", otherwise, &[], &[]);
    l.b.cursor = saved;
    yielded?;
    Ok((0..new.result_count()).map(|i| new.result_at(i).unwrap().to_raw()).collect())
}

/// The row-major index of register `r`'s element in this thread.
pub fn row_major_index<'c>(l: &mut Lowering<'c>, layout: &TensorLayout, r: usize) -> V {
    row_major_index_without(l, layout, r, None)
}

/// The row-major index of register `r`'s element over the dimensions other
/// than `dropped` (the index into a reduction's output when `dropped` is its axis).
pub fn row_major_index_without<'c>(l: &mut Lowering<'c>, layout: &TensorLayout, r: usize, dropped: Option<usize>) -> V {
    let mut index: Option<V> = None;
    for d in (0..layout.rank()).filter(|d| Some(*d) != dropped) {
        let coordinate = l.coordinate(layout, r, d);
        index = Some(match index {
            None => coordinate,
            Some(acc) => {
                let size = l.b.i32_const(layout.shape[d]);
                let scaled = l.b.mul(acc, size);
                l.b.add(scaled, coordinate)
            }
        });
    }
    index.unwrap_or_else(|| l.b.i32_const(0))
}
