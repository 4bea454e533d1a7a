//! Property tests: every algebra operation on random small layouts is checked
//! against brute-force enumeration of all inputs.  A fixed-seed xorshift
//! generator keeps the runs deterministic and dependency-free.

mod common;

use std::collections::HashSet;

use common::XorShift;
use tritium_layout::linear::divide_left;
use tritium_layout::{Dim, LinearLayout};

const ITERATIONS: u64 = 300;
const IN_POOL: [&str; 4] = ["register", "lane", "warp", "block"];
const OUT_POOL: [&str; 3] = ["dim0", "dim1", "dim2"];

fn shuffled<'a>(rng: &mut XorShift, names: &[&'a str]) -> Vec<&'a str> {
    let mut v = names.to_vec();
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u64 + 1) as usize);
    }
    v
}

/// Random dims with random sizes: (name, log2 size), 1..=max_dims of them.
fn random_dims(rng: &mut XorShift, pool: &[&str], max_dims: usize, max_log2: u64) -> Vec<(Dim, u32)> {
    let n = 1 + rng.below(max_dims as u64) as usize;
    shuffled(rng, pool).into_iter().take(n).map(|name| (Dim::named(name), rng.below(max_log2 + 1) as u32)).collect()
}

/// A random layout on the given dims; `out` sizes are log2.
fn random_layout_on(rng: &mut XorShift, ins: &[(Dim, u32)], outs: &[(Dim, u32)]) -> LinearLayout {
    let in_dims = ins
        .iter()
        .map(|(d, bits)| {
            let bases = (0..*bits)
                .map(|_| {
                    outs.iter()
                        .map(|(_, log2)| {
                            // Bias towards single-bit values, as real layouts use.
                            let size = 1u64 << log2;
                            if rng.chance(60) && *log2 > 0 {
                                1u32 << rng.below(*log2 as u64)
                            } else if rng.chance(30) {
                                0
                            } else {
                                rng.below(size) as u32
                            }
                        })
                        .collect()
                })
                .collect();
            (d.clone(), bases)
        })
        .collect();
    let out_dims = outs.iter().map(|(d, log2)| (d.clone(), 1u32 << log2)).collect();
    LinearLayout::new(in_dims, out_dims, false).unwrap()
}

fn random_layout(rng: &mut XorShift) -> LinearLayout {
    let ins = random_dims(rng, &IN_POOL, 3, 3);
    let outs = random_dims(rng, &OUT_POOL, 3, 3);
    random_layout_on(rng, &ins, &outs)
}

/// Keeps drawing until `accept` holds (bounded, deterministic).
fn random_layout_where(rng: &mut XorShift, accept: impl Fn(&LinearLayout) -> bool) -> LinearLayout {
    for _ in 0..10_000 {
        let l = random_layout(rng);
        if accept(&l) {
            return l;
        }
    }
    panic!("could not draw a suitable random layout");
}

/// Every input of the layout, as (dim, value) lists.
fn all_inputs(layout: &LinearLayout) -> Vec<Vec<(Dim, u32)>> {
    let mut inputs = vec![Vec::new()];
    for (dim, bases) in layout.in_dims() {
        let size = 1u32 << bases.len();
        inputs = inputs
            .into_iter()
            .flat_map(|prefix| {
                (0..size).map(move |v| {
                    let mut p = prefix.clone();
                    p.push((dim.clone(), v));
                    p
                })
            })
            .collect();
    }
    inputs
}

fn value_of(values: &[(Dim, u32)], dim: &Dim) -> u32 {
    values.iter().find(|(d, _)| d == dim).map_or(0, |(_, v)| *v)
}

/// The matrix-vector product over GF(2), bit by bit.
fn matrix_apply(layout: &LinearLayout, input: u64) -> u64 {
    let m = layout.to_matrix();
    m.rows()
        .iter()
        .enumerate()
        .fold(0u64, |acc, (r, row)| acc | ((((row & input as u128).count_ones() & 1) as u64) << r))
}

fn pack(layout_dims: &[(Dim, u32)], values: &[(Dim, u32)]) -> u64 {
    let mut shift = 0;
    let mut out = 0u64;
    for (d, log2) in layout_dims {
        out |= (value_of(values, d) as u64) << shift;
        shift += log2;
    }
    out
}

fn in_log2s(l: &LinearLayout) -> Vec<(Dim, u32)> {
    l.in_dims().iter().map(|(d, b)| (d.clone(), b.len() as u32)).collect()
}

fn out_log2s(l: &LinearLayout) -> Vec<(Dim, u32)> {
    l.out_dims().iter().map(|(d, s)| (d.clone(), s.trailing_zeros())).collect()
}

#[test]
fn apply_agrees_with_the_matrix() {
    let mut rng = XorShift::new(1);
    for _ in 0..ITERATIONS {
        let l = random_layout(&mut rng);
        let mut image = HashSet::new();
        for input in all_inputs(&l) {
            let out = l.apply(&input).unwrap();
            let flat_in = pack(&in_log2s(&l), &input);
            let flat_out = pack(&out_log2s(&l), &out);
            assert_eq!(l.apply_flat(flat_in), flat_out, "{l:?} at {input:?}");
            assert_eq!(matrix_apply(&l, flat_in), flat_out, "{l:?} at {input:?}");
            image.insert(flat_out);
        }
        // The rank is the dimension of the image.
        assert_eq!(image.len() as u64, 1u64 << l.rank(), "{l:?}");
        assert_eq!(l.is_surjective(), image.len() as u64 == l.total_out_size());
    }
}

#[test]
fn product_is_the_direct_sum() {
    let mut rng = XorShift::new(2);
    let mut checked = 0;
    while checked < ITERATIONS {
        let a = random_layout(&mut rng);
        let b = random_layout(&mut rng);
        let p = a.product(&b).unwrap();
        // Keep the enumeration small.
        if p.total_in_size_log2() > 10 {
            continue;
        }
        checked += 1;
        for input in all_inputs(&p) {
            let low: Vec<(Dim, u32)> = a
                .in_dims()
                .iter()
                .map(|(d, bases)| (d.clone(), value_of(&input, d) & ((1u32 << bases.len()) - 1)))
                .collect();
            let high: Vec<(Dim, u32)> =
                b.in_dims().iter().map(|(d, _)| (d.clone(), value_of(&input, d) >> a.in_dim_size_log2(d))).collect();
            let ra = a.apply(&low).unwrap();
            let rb = b.apply(&high).unwrap();
            for (o, v) in p.apply(&input).unwrap() {
                let want = value_of(&ra, &o) | (value_of(&rb, &o) << a.out_dim_size_log2(&o));
                assert_eq!(v, want, "{a:?} * {b:?} at {input:?}");
            }
        }
        if a.is_surjective() && b.is_surjective() {
            assert!(p.is_surjective());
        }
    }
}

#[test]
fn compose_is_function_composition() {
    let mut rng = XorShift::new(3);
    for _ in 0..ITERATIONS {
        let mids = random_dims(&mut rng, &OUT_POOL, 3, 3);
        let outer_outs = random_dims(&mut rng, &["x", "y"], 2, 3);
        let outer = random_layout_on(&mut rng, &mids, &outer_outs);
        let inner_outs: Vec<(Dim, u32)> = shuffled(&mut rng, &["dim0", "dim1", "dim2"])
            .into_iter()
            .filter_map(|n| mids.iter().find(|(d, _)| *d == Dim::named(n)).cloned())
            .map(|(d, log2)| (d, rng.below(log2 as u64 + 1) as u32))
            .collect();
        let inner_ins = random_dims(&mut rng, &IN_POOL, 3, 3);
        let inner = random_layout_on(&mut rng, &inner_ins, &inner_outs);
        let c = inner.compose(&outer).unwrap();
        for input in all_inputs(&inner) {
            let mid = inner.apply(&input).unwrap();
            assert_eq!(c.apply(&input).unwrap(), outer.apply(&mid).unwrap());
        }
    }
}

#[test]
fn invert_and_compose_solves_outer_of_c_equals_self() {
    let mut rng = XorShift::new(4);
    for _ in 0..ITERATIONS {
        let outer = random_layout_where(&mut rng, |l| l.is_surjective());
        // Same output dims, shuffled, each at most as large.
        let outs: Vec<(Dim, u32)> = shuffled(&mut rng, &OUT_POOL)
            .into_iter()
            .filter_map(|n| outer.out_dims().iter().find(|(d, _)| *d == Dim::named(n)).cloned())
            .map(|(d, size)| (d, rng.below(size.trailing_zeros() as u64 + 1) as u32))
            .collect();
        let ins = if rng.chance(30) {
            // Share some input dims so the identity heuristic kicks in.
            in_log2s(&outer)
        } else {
            random_dims(&mut rng, &IN_POOL, 3, 3)
        };
        let this = random_layout_on(&mut rng, &ins, &outs);
        let c = this.invert_and_compose(&outer).unwrap();
        assert_eq!(c.in_dim_names(), this.in_dim_names());
        assert_eq!(c.out_dim_names(), outer.in_dim_names());
        for input in all_inputs(&this) {
            let via = outer.apply(&c.apply(&input).unwrap()).unwrap();
            let direct = this.apply(&input).unwrap();
            for (d, v) in direct {
                assert_eq!(value_of(&via, &d), v, "this:{this:?}\nouter:{outer:?}\nc:{c:?}\nat {input:?}");
            }
        }
    }
}

#[test]
fn invert_round_trips() {
    let mut rng = XorShift::new(5);
    for _ in 0..ITERATIONS {
        let l = random_layout_where(&mut rng, |l| l.is_invertible());
        let inv = l.invert().unwrap();
        assert!(inv.is_invertible());
        for input in all_inputs(&l) {
            let out = l.apply(&input).unwrap();
            let back = inv.apply(&out).unwrap();
            assert_eq!(back, input, "{l:?}");
        }
        assert_eq!(inv.invert().unwrap(), l);
    }
}

#[test]
fn pseudo_invert_is_a_right_inverse() {
    let mut rng = XorShift::new(6);
    for _ in 0..ITERATIONS {
        let l = random_layout_where(&mut rng, |l| l.is_surjective());
        let p = l.pseudo_invert().unwrap();
        for y in all_inputs(&p) {
            let x = p.apply(&y).unwrap();
            let mut back = l.apply(&x).unwrap();
            back.sort();
            let mut y_sorted = y.clone();
            y_sorted.sort();
            assert_eq!(back, y_sorted, "{l:?}");
        }
    }
}

/// Whether `v` is an XOR of some of `earlier`.
fn in_span(v: u64, earlier: &[u64]) -> bool {
    (0u64..1 << earlier.len())
        .any(|mask| earlier.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).fold(0, |acc, (_, e)| acc ^ e) == v)
}

#[test]
fn free_variables_are_the_dependent_columns() {
    let mut rng = XorShift::new(7);
    for _ in 0..ITERATIONS {
        let l = random_layout(&mut rng);
        let columns: Vec<u64> = (0..l.total_in_size_log2()).map(|c| l.apply_flat(1u64 << c)).collect();
        let masks = l.free_variable_masks();
        let mut col = 0;
        for (dim, mask) in masks {
            for i in 0..l.in_dim_size_log2(&dim) {
                let free = in_span(columns[col], &columns[..col]);
                assert_eq!(mask >> i & 1 == 1, free, "{l:?} column {col}");
                col += 1;
            }
        }
        assert_eq!(l.free_variable_masks().iter().all(|(_, m)| *m == 0), l.is_injective());
    }
}

#[test]
fn num_consecutive_in_out_is_maximal() {
    let mut rng = XorShift::new(8);
    for _ in 0..ITERATIONS {
        let mut l = random_layout(&mut rng);
        if rng.chance(50) {
            // Make a consecutive prefix likely.
            let first_in = l.in_dims()[0].0.clone();
            let first_out = l.out_dims()[0].0.clone();
            let prefix = LinearLayout::identity_1d(1 << rng.below(3), first_in, first_out).unwrap();
            l = prefix.product(&l).unwrap();
        }
        let holds = |k: u32| -> bool {
            let v = 1u32 << k;
            if k > l.in_dims()[0].1.len() as u32 {
                return false;
            }
            all_inputs(&l).into_iter().all(|input| {
                let first = input[0].1;
                let (base, off) = (first & !(v - 1), first & (v - 1));
                let mut at_base = input.clone();
                at_base[0].1 = base;
                let out = l.apply(&input).unwrap();
                let out_base = l.apply(&at_base).unwrap();
                out.iter().zip(&out_base).enumerate().all(|(i, ((_, a), (_, b)))| {
                    if i == 0 {
                        *a as u64 == *b as u64 + off as u64
                    } else {
                        a == b
                    }
                })
            })
        };
        let k = (0..=l.in_dims()[0].1.len() as u32).filter(|&k| holds(k)).max().unwrap();
        assert_eq!(l.num_consecutive_in_out(), 1 << k, "{l:?}");
    }
}

#[test]
fn reshapes_preserve_the_flattened_map() {
    let mut rng = XorShift::new(9);
    for _ in 0..ITERATIONS {
        let l = random_layout(&mut rng);
        // Split the total output bits into random new dims.
        let total_out = l.total_out_size_log2();
        let a = rng.below(total_out as u64 + 1) as u32;
        let new_outs = [(Dim::named("p"), 1u32 << a), (Dim::named("q"), 1u32 << (total_out - a))];
        let r = l.reshape_outs(&new_outs).unwrap();
        let total_in = l.total_in_size_log2();
        let b = rng.below(total_in as u64 + 1) as u32;
        let new_ins = [(Dim::named("s"), 1u64 << b), (Dim::named("t"), 1u64 << (total_in - b))];
        let r2 = r.reshape_ins(&new_ins).unwrap();
        for x in 0..l.total_in_size() {
            assert_eq!(l.apply_flat(x), r.apply_flat(x));
            assert_eq!(l.apply_flat(x), r2.apply_flat(x));
        }
        assert_eq!(r2.rank(), l.rank());
    }
}

#[test]
fn transposes_and_sublayouts_agree_with_apply() {
    let mut rng = XorShift::new(10);
    for _ in 0..ITERATIONS {
        let l = random_layout(&mut rng);
        let outs: Vec<Dim> = {
            let mut o = l.out_dim_names();
            o.reverse();
            o
        };
        let ins: Vec<Dim> = {
            let mut i = l.in_dim_names();
            i.rotate_left(1);
            i
        };
        let t = l.transpose_outs(&outs).unwrap().transpose_ins(&ins).unwrap();
        let keep_in: Vec<Dim> = l.in_dim_names().into_iter().filter(|_| rng.chance(60)).collect();
        let keep_out: Vec<Dim> = l.out_dim_names().into_iter().filter(|_| rng.chance(60)).collect();
        let sub = l.sublayout(&keep_in, &keep_out).unwrap();
        for input in all_inputs(&l) {
            let mut a = l.apply(&input).unwrap();
            let mut b = t.apply(&input).unwrap();
            a.sort();
            b.sort();
            assert_eq!(a, b);
            let restricted: Vec<(Dim, u32)> =
                input.iter().map(|(d, v)| (d.clone(), if keep_in.contains(d) { *v } else { 0 })).collect();
            let full = l.apply(&restricted).unwrap();
            let sub_in: Vec<(Dim, u32)> = input.iter().filter(|(d, _)| keep_in.contains(d)).cloned().collect();
            for (d, v) in sub.apply(&sub_in).unwrap() {
                assert_eq!(v, value_of(&full, &d));
            }
        }
    }
}

#[test]
fn triviality_and_quotients_match_their_definition() {
    let mut rng = XorShift::new(11);
    for _ in 0..ITERATIONS {
        // A layout over (register, lane) -> (register, lane) possibly with a trivial warp part.
        let ins = vec![(Dim::Register, rng.below(3) as u32), (Dim::Lane, rng.below(3) as u32)];
        let outs = vec![(Dim::Register, rng.below(3) as u32), (Dim::Lane, rng.below(3) as u32)];
        let mut l = random_layout_on(&mut rng, &ins, &outs);
        let warp_bits = rng.below(3) as u32;
        if rng.chance(70) {
            l = l.product(&LinearLayout::identity_1d(1 << warp_bits, Dim::Warp, Dim::Warp).unwrap()).unwrap();
        } else {
            let w = random_layout_on(&mut rng, &[(Dim::Warp, warp_bits)], &[(Dim::Warp, warp_bits), (Dim::Lane, 1)]);
            l = l.product(&w).unwrap();
        }
        let warp = [Dim::Warp];
        // Definition: warp inputs map to the same warp outputs, nothing else touches warp.
        let brute = l.in_dim_size(&Dim::Warp) == l.out_dim_size(&Dim::Warp) as u64
            && all_inputs(&l).into_iter().all(|input| {
                let out = l.apply(&input).unwrap();
                let w_in = value_of(&input, &Dim::Warp);
                let mut no_warp = input.clone();
                for (d, v) in &mut no_warp {
                    if *d == Dim::Warp {
                        *v = 0;
                    }
                }
                let out_no_warp = l.apply(&no_warp).unwrap();
                value_of(&out, &Dim::Warp) == w_in
                    && out.iter().filter(|(d, _)| *d != Dim::Warp).all(|(d, v)| *v == value_of(&out_no_warp, d))
            });
        assert_eq!(l.is_trivial_over(&warp), brute, "{l:?}");
        assert_eq!(l.quotient(&warp).is_some(), brute);
        if let Some(q) = l.quotient(&warp) {
            assert!(!q.has_in_dim(&Dim::Warp) && !q.has_out_dim(&Dim::Warp));
        }
    }
}

#[test]
fn divide_left_inverts_the_product() {
    let mut rng = XorShift::new(12);
    for _ in 0..ITERATIONS {
        let b = random_layout(&mut rng);
        // C with all of B's dims (divide_left keeps A's dims).
        let c_ins: Vec<(Dim, u32)> = in_log2s(&b).into_iter().map(|(d, _)| (d, rng.below(3) as u32)).collect();
        let c_outs: Vec<(Dim, u32)> = out_log2s(&b).into_iter().map(|(d, _)| (d, rng.below(3) as u32)).collect();
        let c = random_layout_on(&mut rng, &c_ins, &c_outs);
        let a = b.product(&c).unwrap();
        let q = divide_left(&a, &b).unwrap().expect("A = B * C must be divisible by B");
        assert_eq!(b.product(&q).unwrap(), a);
    }
}

/// Random (often invalid) parameters: every call must return, never panic.
#[test]
fn arbitrary_parameters_never_panic() {
    use tritium_layout::{Blocked, CtaLayout, DotOperand, Layout, NvidiaMma, NvmmaShared, Slice, SwizzledShared};
    let mut rng = XorShift::new(13);
    let pick = |rng: &mut XorShift, options: &[u32]| options[rng.below(options.len() as u64) as usize];
    let vec_of =
        |rng: &mut XorShift, rank: usize, options: &[u32]| (0..rank).map(|_| pick(rng, options)).collect::<Vec<u32>>();
    let sizes = [0u32, 1, 2, 3, 4, 8, 16, 32];
    for _ in 0..3000 {
        let rank = rng.below(4) as usize;
        let order = if rng.chance(80) {
            let mut o: Vec<u32> = (0..rank as u32).collect();
            for i in (1..o.len()).rev() {
                o.swap(i, rng.below(i as u64 + 1) as usize);
            }
            o
        } else {
            vec_of(&mut rng, rank, &[0, 1, 2, 3])
        };
        let cta = if rng.chance(70) {
            CtaLayout::single_cta(rank)
        } else {
            let bases = (0..rng.below(3)).map(|_| vec_of(&mut rng, rank, &[0, 1, 2])).collect();
            CtaLayout::from_bases(bases, rank).unwrap_or_else(|_| CtaLayout::single_cta(rank))
        };
        let blocked = Blocked::new(
            &vec_of(&mut rng, rank, &sizes),
            &vec_of(&mut rng, rank, &sizes),
            &vec_of(&mut rng, rank, &sizes),
            &order,
        )
        .with_cta(cta.clone());
        let instr_rank = 1 + rng.below(3) as usize;
        let mma = NvidiaMma::new(
            pick(&mut rng, &[1, 2, 3]),
            0,
            &vec_of(&mut rng, rank, &sizes),
            &vec_of(&mut rng, instr_rank, &[1, 8, 16, 64]),
        )
        .with_cta(cta.clone());
        let layouts: Vec<Layout> = vec![
            blocked.clone().into(),
            mma.clone().into(),
            DotOperand::new(rng.below(3) as u32, mma.into(), pick(&mut rng, &sizes)).into(),
            DotOperand::new(rng.below(2) as u32, blocked.clone().into(), pick(&mut rng, &[0, 2])).into(),
            Slice::new(rng.below(4) as u32, blocked.into()).into(),
            SwizzledShared::new(pick(&mut rng, &sizes), pick(&mut rng, &sizes), pick(&mut rng, &sizes), &order)
                .with_cta(cta.clone())
                .into(),
            NvmmaShared::new(
                pick(&mut rng, &[0, 16, 32, 64, 128]),
                rng.chance(50),
                pick(&mut rng, &[0, 4, 8, 16, 32, 64]),
                rng.chance(20),
                rank,
            )
            .with_cta(cta)
            .into(),
        ];
        let shape: Vec<i64> = (0..rank + rng.below(2) as usize)
            .map(|_| [0i64, -2, 1, 2, 3, 8, 16, 64, 256][rng.below(9) as usize])
            .collect();
        for layout in &layouts {
            let _ = layout.to_linear(&shape);
            let _ = layout.order(&shape);
            let _ = layout.elems_per_thread(&shape);
            let _ = layout.size_per_thread(&shape);
            let _ = layout.cta_layout();
            let _ = layout.rep_order();
            let _ = layout.shape_per_cta(&shape);
            let _ = tritium_layout::classify_conversion(layout, &layouts[0], &shape);
        }
    }
}
