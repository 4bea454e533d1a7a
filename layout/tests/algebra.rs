//! Unit tests of the linear-layout algebra, one or more per operation.

use tritium_layout::linear::{divide_left, divide_right, supremum};
use tritium_layout::{Dim, LayoutError, LinearLayout};

fn d(name: &str) -> Dim {
    Dim::named(name)
}

fn ll(ins: &[(&str, &[&[u32]])], outs: &[(&str, u32)]) -> LinearLayout {
    let in_dims = ins.iter().map(|(n, bases)| (d(n), bases.iter().map(|b| b.to_vec()).collect())).collect();
    let out_dims = outs.iter().map(|(n, s)| (d(n), *s)).collect();
    LinearLayout::new(in_dims, out_dims, false).unwrap()
}

fn apply1(layout: &LinearLayout, ins: &[(&str, u32)]) -> Vec<u32> {
    let ins: Vec<(Dim, u32)> = ins.iter().map(|(n, v)| (d(n), *v)).collect();
    layout.apply(&ins).unwrap().into_iter().map(|(_, v)| v).collect()
}

#[test]
fn dim_names_are_canonical() {
    assert_eq!(d("register"), Dim::Register);
    assert_eq!(d("dim3"), Dim::Axis(3));
    assert_eq!(d("dim03").to_string(), "dim03");
    assert!(matches!(d("dim03"), Dim::Other(_)));
    assert_eq!(d("iteration").to_string(), "iteration");
    assert_eq!(Dim::Axis(12).to_string(), "dim12");
}

#[test]
fn one_dimensional_constructors() {
    let id = LinearLayout::identity_1d(32, "in", "out").unwrap();
    assert_eq!(id, ll(&[("in", &[&[1], &[2], &[4], &[8], &[16]])], &[("out", 32)]));
    assert!(id.is_surjective() && id.is_injective() && id.is_invertible());

    let one = LinearLayout::identity_1d(1, "in", "out").unwrap();
    assert_eq!(one.in_dim_size(&d("in")), 1);
    assert_eq!(one.out_dim_size(&d("out")), 1);

    assert_eq!(LinearLayout::identity_1d(0, "in", "out").unwrap(), LinearLayout::empty());

    let zeros = LinearLayout::zeros_1d(8, "in", "out", 1).unwrap();
    assert_eq!(zeros, ll(&[("in", &[&[0], &[0], &[0]])], &[("out", 1)]));
    assert!(zeros.is_surjective() && !zeros.is_injective());
    let zeros4 = LinearLayout::zeros_1d(8, "in", "out", 4).unwrap();
    assert!(!zeros4.is_surjective());

    let strided = LinearLayout::strided_1d(4, 2, "in", "out").unwrap();
    assert_eq!(strided, ll(&[("in", &[&[2], &[4]])], &[("out", 8)]));
    assert!(!strided.is_surjective());
}

#[test]
fn constructors_reject_bad_input() {
    assert!(matches!(LinearLayout::identity_1d(6, "in", "out"), Err(LayoutError::NotPowerOfTwo { .. })));
    let bad_size = LinearLayout::new(vec![(d("in"), vec![vec![1]])], vec![(d("out"), 3)], false);
    assert!(matches!(bad_size, Err(LayoutError::NotPowerOfTwo { .. })));
    let too_big_basis = LinearLayout::new(vec![(d("in"), vec![vec![4]])], vec![(d("out"), 4)], false);
    assert!(too_big_basis.is_err());
    let wrong_len = LinearLayout::new(vec![(d("in"), vec![vec![1, 0]])], vec![(d("out"), 4)], false);
    assert!(wrong_len.is_err());
    let dup = LinearLayout::new(vec![(d("in"), vec![]), (d("in"), vec![])], vec![], false);
    assert!(dup.is_err());
    let not_surjective = LinearLayout::new(vec![(d("in"), vec![vec![2]])], vec![(d("out"), 4)], true);
    assert!(matches!(not_surjective, Err(LayoutError::Algebra(_))));
    let huge = LinearLayout::new(vec![(d("in"), vec![vec![0]; 65])], vec![(d("out"), 1)], false);
    assert!(matches!(huge, Err(LayoutError::TooLarge(_))));
}

#[test]
fn inferred_sizes_use_next_power_of_two() {
    // Upstream's example: bases 1, 5 (-> 8) and 2 -> out sizes 8 and 4.
    let layout = LinearLayout::with_inferred_sizes(
        vec![(d("in1"), vec![vec![1, 0], vec![5, 1], vec![2, 2]]), (d("in2"), vec![vec![4, 0], vec![0, 2]])],
        vec![d("out1"), d("out2")],
    )
    .unwrap();
    assert_eq!(layout.out_dims(), &[(d("out1"), 8), (d("out2"), 4)]);
    // Inferring sizes requires surjectivity: one basis cannot cover [0, 8).
    assert!(LinearLayout::with_inferred_sizes(vec![(d("in"), vec![vec![4]])], vec![d("out")]).is_err());
}

#[test]
fn product_examples_from_upstream_docs() {
    let i4 = LinearLayout::identity_1d(4, "i", "o").unwrap();
    let i2 = LinearLayout::identity_1d(2, "i", "o").unwrap();
    assert_eq!((&i4 * &i2).unwrap(), LinearLayout::identity_1d(8, "i", "o").unwrap());

    let z2 = LinearLayout::zeros_1d(2, "i", "o", 1).unwrap();
    // L(x) = x % 4 for x in [0, 8).
    assert_eq!((&i4 * &z2).unwrap(), ll(&[("i", &[&[1], &[2], &[0]])], &[("o", 4)]));
    // L(x) = x / 2.
    assert_eq!((&z2 * &i4).unwrap(), ll(&[("i", &[&[0], &[1], &[2]])], &[("o", 4)]));

    // Disjoint dims give a 2D identity.
    let a = LinearLayout::identity_1d(4, "i1", "o1").unwrap();
    let b = LinearLayout::identity_1d(8, "i2", "o2").unwrap();
    let p = (a * b).unwrap();
    assert_eq!(p.in_dim_names(), vec![d("i1"), d("i2")]);
    assert_eq!(p.out_dim_names(), vec![d("o1"), d("o2")]);
    assert_eq!(apply1(&p, &[("i1", 3), ("i2", 5)]), vec![3, 5]);

    // Same input, different outputs: L(x) = (x % 4, x / 4).
    let q =
        (LinearLayout::identity_1d(4, "i", "o1").unwrap() * LinearLayout::identity_1d(8, "i", "o2").unwrap()).unwrap();
    assert_eq!(apply1(&q, &[("i", 13)]), vec![1, 3]);

    // The empty layout is the unit, and chained products work.
    let e = LinearLayout::empty();
    assert_eq!((&e * &i4).unwrap(), i4);
    assert_eq!((&i4 * &e).unwrap(), i4);
    let chained = (i4.clone() * i2.clone() * i2.clone()).unwrap();
    assert_eq!(chained, LinearLayout::identity_1d(16, "i", "o").unwrap());
}

#[test]
fn supremum_of_dimension_orders() {
    let (a, b, c) = (d("a"), d("b"), d("c"));
    assert_eq!(
        supremum(&[a.clone(), b.clone()], &[a.clone(), c.clone()]).unwrap(),
        vec![a.clone(), b.clone(), c.clone()]
    );
    assert_eq!(
        supremum(&[a.clone(), b.clone()], &[b.clone(), c.clone()]).unwrap(),
        vec![a.clone(), b.clone(), c.clone()]
    );
    // Upstream's comment calls this an error, but its algorithm (mirrored here)
    // resolves the conflict in favour of the first list.
    assert_eq!(supremum(&[a.clone(), b.clone()], &[b.clone(), a.clone()]).unwrap(), vec![a.clone(), b.clone()]);
    let p =
        (LinearLayout::identity_1d(2, "a", "x").unwrap() * LinearLayout::identity_1d(2, "b", "x").unwrap()).unwrap();
    let q =
        (LinearLayout::identity_1d(2, "b", "x").unwrap() * LinearLayout::identity_1d(2, "a", "x").unwrap()).unwrap();
    assert_eq!(p.product(&q).unwrap().in_dim_names(), vec![a, b]);
}

#[test]
fn apply_xors_the_selected_bases() {
    let layout =
        ll(&[("in1", &[&[4, 2], &[2, 1], &[1, 0]]), ("in2", &[&[0, 2], &[0, 1]])], &[("out1", 8), ("out2", 4)]);
    assert_eq!(apply1(&layout, &[("in1", 0), ("in2", 0)]), vec![0, 0]);
    assert_eq!(apply1(&layout, &[("in1", 1), ("in2", 0)]), vec![4, 2]);
    assert_eq!(apply1(&layout, &[("in2", 3), ("in1", 7)]), vec![7, 0]);
    assert!(layout.apply(&[(d("in1"), 8), (d("in2"), 0)]).is_err());
    assert!(layout.apply(&[(d("in1"), 0)]).is_err());
    // apply_flat packs dims minor-first.
    assert_eq!(layout.apply_flat(0b11_111), 0b00_111);
}

#[test]
fn transposes_and_reshapes() {
    let layout = (LinearLayout::identity_1d(32, "in1", "out1").unwrap()
        * LinearLayout::identity_1d(16, "in2", "out2").unwrap())
    .unwrap();
    let t = layout.transpose_outs(&[d("out2"), d("out1")]).unwrap();
    assert_eq!(t.out_dims(), &[(d("out2"), 16), (d("out1"), 32)]);
    assert_eq!(t.basis(&d("in1"), 0), Some(&[0, 1][..]));
    let ti = layout.transpose_ins(&[d("in2"), d("in1")]).unwrap();
    assert_eq!(ti.in_dim_names(), vec![d("in2"), d("in1")]);
    assert!(layout.transpose_outs(&[d("out1")]).is_err());

    let r = ll(&[("in1", &[&[1], &[4], &[8]]), ("in2", &[&[2]])], &[("out", 16)]);
    let reshaped = r.reshape_ins(&[(d("in3"), 2), (d("in4"), 8)]).unwrap();
    assert_eq!(reshaped, ll(&[("in3", &[&[1]]), ("in4", &[&[4], &[8], &[2]])], &[("out", 16)]));
    assert!(r.reshape_ins(&[(d("x"), 8)]).is_err());

    let outs = LinearLayout::identity_1d(32, "in", "out").unwrap().reshape_outs(&[(d("a"), 4), (d("b"), 8)]).unwrap();
    assert_eq!(apply1(&outs, &[("in", 13)]), vec![1, 3]);
    assert_eq!(outs.flatten_outs().unwrap(), LinearLayout::identity_1d(32, "in", "a").unwrap());
    let two_ins =
        (LinearLayout::identity_1d(4, "x", "o").unwrap() * LinearLayout::identity_1d(4, "y", "o").unwrap()).unwrap();
    assert_eq!(two_ins.flatten_ins().unwrap().in_dims(), &[(d("x"), vec![vec![1], vec![2], vec![4], vec![8]])]);
}

#[test]
fn compose_applies_inner_then_outer() {
    let l1 = ll(&[("in1", &[&[1, 1], &[0, 1]]), ("in2", &[&[1, 0], &[1, 2]])], &[("out1", 2), ("out2", 4)]);
    let l2 = ll(&[("out1", &[&[2, 2]]), ("out2", &[&[1, 0], &[1, 1]])], &[("out3", 4), ("out4", 4)]);
    let c = l1.compose(&l2).unwrap();
    for x in 0..4 {
        for y in 0..4 {
            let mid = apply1(&l1, &[("in1", x), ("in2", y)]);
            let want = apply1(&l2, &[("out1", mid[0]), ("out2", mid[1])]);
            assert_eq!(apply1(&c, &[("in1", x), ("in2", y)]), want);
        }
    }
    assert!(l2.compose(&l1).is_err());
}

#[test]
fn invert_and_compose_maps_registers_to_shared_offsets() {
    // Registers hold a 4x4 tile row-major; shared memory stores it swizzled.
    let regs = (LinearLayout::identity_1d(4, "register", "dim1").unwrap()
        * LinearLayout::identity_1d(4, "lane", "dim0").unwrap())
    .unwrap();
    let shared = ll(&[("offset", &[&[0, 1], &[0, 2], &[1, 1], &[2, 2]])], &[("dim0", 4), ("dim1", 4)])
        .transpose_outs(&[d("dim1"), d("dim0")])
        .unwrap();
    let cvt = regs.invert_and_compose(&shared).unwrap();
    assert_eq!(cvt.out_dim_names(), vec![d("offset")]);
    for r in 0..4 {
        for l in 0..4 {
            let offset = apply1(&cvt, &[("register", r), ("lane", l)])[0];
            let here = apply1(&regs, &[("register", r), ("lane", l)]);
            let there = apply1(&shared, &[("offset", offset)]);
            assert_eq!(here, there);
        }
    }
    // The outer layout must cover the image.
    let small = LinearLayout::identity_1d(2, "offset", "dim1").unwrap()
        * LinearLayout::identity_1d(4, "offset", "dim0").unwrap();
    assert!(regs.invert_and_compose(&small.unwrap()).is_err());
}

#[test]
fn invert_and_compose_keeps_matching_dims_as_identity() {
    // Both layouts broadcast over warps: the warps map to themselves.
    let a = (LinearLayout::identity_1d(8, "lane", "dim0").unwrap()
        * LinearLayout::zeros_1d(4, "warp", "dim0", 1).unwrap())
    .unwrap();
    let c = a.invert_and_compose(&a).unwrap();
    assert_eq!(c.bases(&d("warp")).unwrap(), &vec![vec![0, 1], vec![0, 2]]);
    assert_eq!(c.bases(&d("lane")).unwrap(), &vec![vec![1, 0], vec![2, 0], vec![4, 0]]);
}

#[test]
fn invert_and_pseudo_invert() {
    let layout = ll(&[("in", &[&[4], &[1], &[2]])], &[("out", 8)]);
    let inv = layout.invert().unwrap();
    for x in 0..8 {
        let y = apply1(&layout, &[("in", x)])[0];
        assert_eq!(apply1(&inv, &[("out", y)]), vec![x]);
    }
    let broadcast = ll(&[("in", &[&[1], &[0], &[2]])], &[("out", 4)]);
    assert!(broadcast.invert().is_err());
    let p = broadcast.pseudo_invert().unwrap();
    for y in 0..4 {
        let x = apply1(&p, &[("out", y)])[0];
        assert_eq!(apply1(&broadcast, &[("in", x)]), vec![y]);
    }
    // Minimum-norm choice: the broadcast bit is never set.
    assert_eq!(p.bases(&d("out")).unwrap(), &vec![vec![1], vec![4]]);
}

#[test]
fn free_variable_masks_mark_dependent_bits() {
    let layout = ll(&[("reg", &[&[1], &[0], &[2], &[3]]), ("lane", &[&[1], &[4]])], &[("out", 8)]);
    let masks = layout.free_variable_masks();
    assert_eq!(masks, vec![(d("reg"), 0b1010), (d("lane"), 0b01)]);
    assert_eq!(layout.free_variable_mask(&d("lane")), 1);
    assert_eq!(LinearLayout::identity_1d(16, "i", "o").unwrap().free_variable_mask(&d("i")), 0);
}

#[test]
fn num_consecutive_in_out_is_the_vector_width() {
    let layout = (LinearLayout::identity_1d(4, "register", "dim1").unwrap()
        * LinearLayout::identity_1d(8, "lane", "dim1").unwrap()
        * LinearLayout::identity_1d(2, "register", "dim0").unwrap())
    .unwrap();
    assert_eq!(layout.num_consecutive_in_out(), 4);
    let swapped = ll(&[("register", &[&[2], &[1]]), ("lane", &[&[4]])], &[("dim0", 8)]);
    assert_eq!(swapped.num_consecutive_in_out(), 1);
    let blocked_by_lane = ll(&[("register", &[&[1], &[2]]), ("lane", &[&[2]])], &[("dim0", 4)]);
    assert_eq!(blocked_by_lane.num_consecutive_in_out(), 2);
    assert_eq!(LinearLayout::empty().num_consecutive_in_out(), 1);
}

#[test]
fn sublayouts_and_triviality() {
    let layout = ll(
        &[("register", &[&[1, 0, 0]]), ("lane", &[&[2, 0, 0], &[0, 1, 0]]), ("warp", &[&[0, 0, 1]])],
        &[("register", 4), ("lane", 2), ("warp", 2)],
    );
    let sub = layout.sublayout(&[d("lane")], &[d("register")]).unwrap();
    assert_eq!(sub, ll(&[("lane", &[&[2], &[0]])], &[("register", 4)]));
    assert!(layout.sublayout_is_zero(&[d("warp")], &[d("register"), d("lane")]).unwrap());
    assert!(layout.sublayout(&[d("nope")], &[]).is_err());

    assert!(layout.is_trivial_over(&[d("warp")]));
    assert!(!layout.is_trivial_over(&[d("lane")]));
    assert!(!layout.is_trivial_over(&[d("block")]));
    let q = layout.quotient(&[d("warp")]).unwrap();
    assert_eq!(q.in_dim_names(), vec![d("register"), d("lane")]);
    assert_eq!(q.out_dim_names(), vec![d("register"), d("lane")]);
    assert!(layout.quotient(&[d("lane")]).is_none());
}

#[test]
fn concat_unsqueeze_and_zero_removal() {
    let a = LinearLayout::identity_1d(4, "x", "o").unwrap();
    let b = ll(&[("y", &[&[3]])], &[("o", 4)]);
    let c = a.concat_ins(&b).unwrap();
    assert_eq!(c.in_dim_names(), vec![d("x"), d("y")]);
    assert!(a.concat_ins(&LinearLayout::identity_1d(8, "y", "o").unwrap()).is_err());

    let p = LinearLayout::identity_1d(4, "x", "p").unwrap();
    let co = a.concat_outs(&p).unwrap();
    assert_eq!(apply1(&co, &[("x", 3)]), vec![3, 3]);

    let with_unit =
        (LinearLayout::identity_1d(4, "x", "o").unwrap() * LinearLayout::identity_1d(1, "y", "u").unwrap()).unwrap();
    assert_eq!(with_unit.unsqueeze_in(&d("y")).unwrap().in_dim_names(), vec![d("x")]);
    assert_eq!(with_unit.unsqueeze_out(&d("u")).unwrap().out_dim_names(), vec![d("o")]);
    assert!(with_unit.unsqueeze_in(&d("x")).is_err());

    let z = ll(&[("register", &[&[0], &[1], &[0], &[2]])], &[("o", 4)]);
    assert_eq!(z.remove_zero_bases_along_dim(&d("register")).unwrap(), ll(&[("register", &[&[1], &[2]])], &[("o", 4)]));
}

#[test]
fn resize_dims() {
    let layout = LinearLayout::identity_1d(8, "i", "o").unwrap();
    assert_eq!(layout.resize_in_dim(&d("i"), 2).unwrap(), ll(&[("i", &[&[1]])], &[("o", 8)]));
    assert_eq!(layout.resize_out_dim(&d("o"), 2).unwrap(), ll(&[("i", &[&[1], &[0], &[0]])], &[("o", 2)]));
    assert!(layout.resize_in_dim(&d("i"), 16).is_err());
}

#[test]
fn division_undoes_products() {
    let b = (LinearLayout::identity_1d(4, "register", "dim1").unwrap()
        * LinearLayout::identity_1d(2, "lane", "dim0").unwrap())
    .unwrap();
    let c = (LinearLayout::identity_1d(2, "register", "dim0").unwrap()
        * LinearLayout::identity_1d(8, "lane", "dim1").unwrap())
    .unwrap();
    let a = b.product(&c).unwrap();
    let left = divide_left(&a, &b).unwrap().unwrap();
    assert_eq!(b.product(&left).unwrap(), a);
    let right = divide_right(&a, &c).unwrap().unwrap();
    assert_eq!(right.product(&c).unwrap(), a);
    // Not a product: the first register basis is not B's.
    let other = (LinearLayout::identity_1d(4, "register", "dim0").unwrap()
        * LinearLayout::identity_1d(2, "lane", "dim1").unwrap())
    .unwrap();
    assert_eq!(divide_left(&a, &other).unwrap(), None);
}

#[test]
fn display_matches_upstream_text() {
    assert_eq!(LinearLayout::empty().to_string(), "\n(empty layout)");
    let no_ins = LinearLayout::new(vec![], vec![(d("dim0"), 1)], false).unwrap();
    assert_eq!(no_ins.to_string(), "\n(empty layout with out-dims [dim0 (size 1)])");
    let layout = (LinearLayout::identity_1d(2, "register", "dim1").unwrap()
        * LinearLayout::identity_1d(1, "lane", "dim0").unwrap()
        * LinearLayout::identity_1d(2, "warp", "dim0").unwrap())
    .unwrap();
    assert_eq!(
        layout.to_string(),
        "\n - register=1 -> (1, 0)\n - lane is a size 1 dimension\n - warp=1 -> (0, 1)\nwhere out dims are: [dim1 (size 2), dim0 (size 2)]"
    );
}
