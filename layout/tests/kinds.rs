//! Hand-derived expectations for the layout kinds: the worked examples of
//! TritonGPUAttrDefs.td and the PTX fragment layouts, the queries the Python
//! oracle cannot reach (shared-layout order, NVMMA swizzle parameters), and
//! parameter validation.

use tritium_layout::convert::{is_convert_layout_trivial, warp_conversion_decomposition};
use tritium_layout::{
    classify_conversion, default_blocked, Blocked, ConversionKind, CtaLayout, Dim, DotOperand, Layout, LayoutError,
    LinearLayout, NvidiaMma, NvmmaShared, Slice, SwizzledShared,
};

fn apply(ll: &LinearLayout, ins: &[(Dim, u32)]) -> Vec<u32> {
    ll.apply(ins).unwrap().into_iter().map(|(_, v)| v).collect()
}

/// For a layout (register, lane, warp, block) -> (dim0, dim1): the global
/// thread id (lane + 32 * warp) holding each element, with the register.
fn owners(ll: &LinearLayout, rows: usize, cols: usize) -> Vec<Vec<Vec<(u32, u32)>>> {
    let mut table = vec![vec![Vec::new(); cols]; rows];
    let regs = ll.in_dim_size(&Dim::Register) as u32;
    let lanes = ll.in_dim_size(&Dim::Lane) as u32;
    let warps = ll.in_dim_size(&Dim::Warp) as u32;
    for w in 0..warps {
        for l in 0..lanes {
            for r in 0..regs {
                let out = apply(ll, &[(Dim::Register, r), (Dim::Lane, l), (Dim::Warp, w), (Dim::Block, 0)]);
                table[out[0] as usize][out[1] as usize].push((l + lanes * w, r));
            }
        }
    }
    table
}

/// Memory offset of every element of a 2D shared layout.
fn offsets(ll: &LinearLayout, rows: usize, cols: usize) -> Vec<Vec<u32>> {
    let inv = ll.invert().unwrap();
    (0..rows)
        .map(|r| (0..cols).map(|c| apply(&inv, &[(Dim::Axis(0), r as u32), (Dim::Axis(1), c as u32)])[0]).collect())
        .collect()
}

#[test]
fn swizzled_shared_matches_the_attribute_documentation() {
    let table = |vec, per_phase, max_phase, shape: [i64; 2]| {
        let ll = Layout::from(SwizzledShared::new(vec, per_phase, max_phase, &[1, 0])).to_linear(&shape).unwrap();
        offsets(&ll.sublayout(&[Dim::Offset], &ll.out_dim_names()).unwrap(), shape[0] as usize, shape[1] as usize)
    };
    // 1. Basic swizzling.
    assert_eq!(
        table(1, 1, 4, [4, 4]),
        vec![vec![0, 1, 2, 3], vec![5, 4, 7, 6], vec![10, 11, 8, 9], vec![15, 14, 13, 12]]
    );
    // 2. Multiple rows per phase.
    assert_eq!(
        table(1, 2, 4, [4, 4]),
        vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7], vec![9, 8, 11, 10], vec![13, 12, 15, 14]]
    );
    // 3. Max-phase applied.
    assert_eq!(
        table(1, 1, 2, [8, 4]),
        vec![
            vec![0, 1, 2, 3],
            vec![5, 4, 7, 6],
            vec![8, 9, 10, 11],
            vec![13, 12, 15, 14],
            vec![16, 17, 18, 19],
            vec![21, 20, 23, 22],
            vec![24, 25, 26, 27],
            vec![29, 28, 31, 30]
        ]
    );
    // 4. Max-phase and per-phase.
    assert_eq!(table(1, 2, 2, [8, 4])[2..4], [vec![9, 8, 11, 10], vec![13, 12, 15, 14]]);
    assert_eq!(table(1, 2, 2, [8, 4])[6], vec![25, 24, 27, 26]);
    // 5. Adding vec.
    assert_eq!(
        table(2, 1, 4, [4, 8]),
        vec![
            vec![0, 1, 2, 3, 4, 5, 6, 7],
            vec![10, 11, 8, 9, 14, 15, 12, 13],
            vec![20, 21, 22, 23, 16, 17, 18, 19],
            vec![30, 31, 28, 29, 26, 27, 24, 25]
        ]
    );
}

#[test]
fn blocked_matches_the_attribute_documentation() {
    // Example 1: 16x16, sizePerThread 2x2, threadsPerWarp 8x4, 2 warps along dim1.
    let ll = Layout::from(Blocked::new(&[2, 2], &[8, 4], &[1, 2], &[1, 0])).to_linear(&[16, 16]).unwrap();
    let t = owners(&ll, 16, 16);
    let thread = |r: usize, c: usize| t[r][c][0].0;
    let row0: Vec<u32> = (0..16).map(|c| thread(0, c)).collect();
    assert_eq!(row0, vec![0, 0, 1, 1, 2, 2, 3, 3, 32, 32, 33, 33, 34, 34, 35, 35]);
    let row2: Vec<u32> = (0..16).map(|c| thread(2, c)).collect();
    assert_eq!(row2, vec![4, 4, 5, 5, 6, 6, 7, 7, 36, 36, 37, 37, 38, 38, 39, 39]);
    assert_eq!(thread(15, 15), 63);
    // Every element has exactly one owner: no broadcast at this shape.
    assert!(t.iter().flatten().all(|owners| owners.len() == 1));

    // Example 2: 32x32 wraps around, each thread holding a second copy of the pattern.
    let ll = Layout::from(Blocked::new(&[2, 2], &[8, 4], &[1, 2], &[1, 0])).to_linear(&[32, 32]).unwrap();
    let t = owners(&ll, 32, 32);
    assert_eq!(t[0][16][0].0, 0);
    assert_eq!(t[16][0][0].0, 0);
    assert_eq!(t[31][31][0].0, 63);

    // Smaller than the tile: elements are replicated across threads.
    let ll = Layout::from(Blocked::new(&[2, 2], &[8, 4], &[1, 2], &[1, 0])).to_linear(&[4, 4]).unwrap();
    let t = owners(&ll, 4, 4);
    assert_eq!(t[0][0].iter().map(|o| o.0).collect::<Vec<_>>().len(), 16);
}

#[test]
fn mma_v2_accumulator_matches_ptx_fragment() {
    // mma.sync m16n8: lane t holds (t/4, 2*(t%4) + {0,1}) and the same 8 rows below.
    let ll = Layout::from(NvidiaMma::new(2, 0, &[1, 1], &[16, 8])).to_linear(&[16, 8]).unwrap();
    for lane in 0..32u32 {
        let (g, q) = (lane / 4, lane % 4);
        let expect = [(g, 2 * q), (g, 2 * q + 1), (g + 8, 2 * q), (g + 8, 2 * q + 1)];
        for (reg, (r, c)) in expect.into_iter().enumerate() {
            let out = apply(&ll, &[(Dim::Register, reg as u32), (Dim::Lane, lane), (Dim::Warp, 0), (Dim::Block, 0)]);
            assert_eq!(out, vec![r, c], "lane {lane} reg {reg}");
        }
    }
}

#[test]
fn mma_v3_warps_stack_along_m() {
    let ll = Layout::from(NvidiaMma::new(3, 0, &[4, 1], &[16, 64, 16])).to_linear(&[64, 64]).unwrap();
    for warp in 0..4u32 {
        let out = apply(&ll, &[(Dim::Register, 0), (Dim::Lane, 0), (Dim::Warp, warp), (Dim::Block, 0)]);
        assert_eq!(out, vec![16 * warp, 0]);
    }
    // 64 columns = 8 repetitions of the 8-column core tile, 2 registers each, times 2 row halves.
    assert_eq!(ll.in_dim_size(&Dim::Register), 32);
}

#[test]
fn dot_operands_match_ptx_fragments() {
    let mma = NvidiaMma::new(2, 0, &[1, 1], &[16, 8]);
    // A of m16n8k16 (f16, kWidth 2): a0..a7.
    let a = Layout::from(DotOperand::new(0, mma.clone().into(), 2)).to_linear(&[16, 16]).unwrap();
    for lane in 0..32u32 {
        let (g, q) = (lane / 4, lane % 4);
        let expect = [
            (g, 2 * q),
            (g, 2 * q + 1),
            (g + 8, 2 * q),
            (g + 8, 2 * q + 1),
            (g, 2 * q + 8),
            (g, 2 * q + 9),
            (g + 8, 2 * q + 8),
            (g + 8, 2 * q + 9),
        ];
        for (reg, (r, c)) in expect.into_iter().enumerate() {
            let out = apply(&a, &[(Dim::Register, reg as u32), (Dim::Lane, lane), (Dim::Warp, 0), (Dim::Block, 0)]);
            assert_eq!(out, vec![r, c], "A lane {lane} reg {reg}");
        }
    }
    // B of m16n8k16: b0..b3 at (k = 2*(t%4) + {0,1} (+8), n = t/4).
    let b = Layout::from(DotOperand::new(1, mma.into(), 2)).to_linear(&[16, 8]).unwrap();
    for lane in 0..32u32 {
        let (g, q) = (lane / 4, lane % 4);
        let expect = [(2 * q, g), (2 * q + 1, g), (2 * q + 8, g), (2 * q + 9, g)];
        for (reg, (k, n)) in expect.into_iter().enumerate() {
            let out = apply(&b, &[(Dim::Register, reg as u32), (Dim::Lane, lane), (Dim::Warp, 0), (Dim::Block, 0)]);
            assert_eq!(out, vec![k, n], "B lane {lane} reg {reg}");
        }
    }
    // Warps of an operand broadcast along K: with warps [2, 2] for A, the warp
    // moving along N holds the same data.
    let a4 = Layout::from(DotOperand::new(0, NvidiaMma::new(2, 0, &[2, 2], &[16, 8]).into(), 2))
        .to_linear(&[32, 16])
        .unwrap();
    assert_eq!(a4.bases(&Dim::Warp).unwrap(), &vec![vec![0, 0], vec![16, 0]]);
}

#[test]
fn slice_drops_the_sliced_dim() {
    let parent = Blocked::new(&[1, 4], &[4, 8], &[2, 2], &[1, 0]);
    let ll = Layout::from(Slice::new(1, parent.into())).to_linear(&[64]).unwrap();
    let expected = LinearLayout::new(
        vec![
            (Dim::Register, vec![vec![8], vec![16], vec![32]]),
            (Dim::Lane, vec![vec![0], vec![0], vec![0], vec![1], vec![2]]),
            (Dim::Warp, vec![vec![0], vec![4]]),
            (Dim::Block, vec![]),
        ],
        vec![(Dim::Axis(0), 64)],
        true,
    )
    .unwrap();
    assert_eq!(ll, expected);
}

#[test]
fn queries_upstream_python_cannot_reach() {
    // getOrder(SharedEncodingTrait): swizzled keeps its order; NVMMA is row-major
    // unless transposed; rank 1 is [0].
    let sw = Layout::from(SwizzledShared::new(4, 2, 4, &[0, 1]));
    assert_eq!(sw.order(&[32, 32]).unwrap(), vec![0, 1]);
    assert_eq!(Layout::from(NvmmaShared::new(128, false, 16, false, 2)).order(&[64, 64]).unwrap(), vec![1, 0]);
    assert_eq!(Layout::from(NvmmaShared::new(128, true, 16, false, 2)).order(&[64, 64]).unwrap(), vec![0, 1]);
    assert_eq!(Layout::from(NvmmaShared::new(128, false, 16, false, 3)).order(&[2, 64, 64]).unwrap(), vec![2, 1, 0]);
    assert_eq!(Layout::from(NvmmaShared::new(0, false, 16, false, 1)).order(&[64]).unwrap(), vec![0]);

    // NVMMA swizzle parameters and alignment.
    let params = |swz, bits| {
        let l = NvmmaShared::new(swz, false, bits, false, 2);
        (l.vec(), l.per_phase(), l.max_phase(), l.alignment())
    };
    assert_eq!(params(128, 16), (8, 1, 8, 1024));
    assert_eq!(params(64, 16), (8, 2, 4, 512));
    assert_eq!(params(32, 8), (16, 4, 2, 256));
    assert_eq!(params(0, 32), (1, 1, 1, 128));

    // Rep orders.
    let mma = NvidiaMma::new(2, 0, &[2, 2], &[16, 8]);
    assert_eq!(Layout::from(mma.clone()).rep_order().unwrap(), vec![1, 0]);
    assert_eq!(Layout::from(DotOperand::new(1, mma.clone().into(), 2)).rep_order().unwrap(), vec![0, 1]);
    assert_eq!(Layout::from(Slice::new(0, mma.into())).rep_order().unwrap(), vec![0]);
    let b3 = Blocked::new(&[1, 1, 4], &[1, 4, 8], &[2, 2, 1], &[2, 0, 1]);
    assert_eq!(Layout::from(Slice::new(0, b3.into())).rep_order().unwrap(), vec![1, 0]);
}

#[test]
fn shared_linear_layouts_do_not_broadcast() {
    let ll = LinearLayout::new(
        vec![(Dim::Offset, vec![vec![0, 1], vec![1, 0], vec![0, 2]]), (Dim::Block, vec![])],
        vec![(Dim::Axis(0), 2), (Dim::Axis(1), 4)],
        true,
    )
    .unwrap();
    let layout = Layout::Linear(ll.clone());
    assert!(layout.is_shared());
    assert_eq!(layout.to_linear(&[2, 4]).unwrap(), ll);
    assert!(layout.to_linear(&[4, 4]).is_err());
    assert_eq!(layout.order(&[2, 4]).unwrap(), vec![1, 0]);
}

#[test]
fn distributed_linear_layouts_fit_any_shape() {
    let ll = Layout::from(Blocked::new(&[1, 2], &[8, 4], &[2, 1], &[1, 0])).to_linear(&[16, 8]).unwrap();
    let linear = Layout::Linear(ll.clone());
    assert!(linear.is_distributed());
    assert_eq!(linear.to_linear(&[16, 8]).unwrap(), ll);
    // Larger: registers repeat.  Smaller: the largest bases go first -- lanes
    // broadcast, registers that would hold duplicates are dropped.
    assert_eq!(linear.to_linear(&[32, 8]).unwrap().in_dim_size(&Dim::Register), 4);
    let narrow = linear.to_linear(&[16, 4]).unwrap();
    assert_eq!(narrow.in_dim_size(&Dim::Register), 2);
    assert_eq!(narrow.bases(&Dim::Lane).unwrap()[1], vec![0, 0]);
    assert_eq!(linear.to_linear(&[16, 1]).unwrap().in_dim_size(&Dim::Register), 1);
    // Invalid: a basis moving along two dims.
    let bad = LinearLayout::new(
        vec![
            (Dim::Register, vec![vec![1, 1]]),
            (Dim::Lane, vec![vec![1, 0]]),
            (Dim::Warp, vec![]),
            (Dim::Block, vec![]),
        ],
        vec![(Dim::Axis(0), 2), (Dim::Axis(1), 2)],
        true,
    )
    .unwrap();
    assert!(Layout::Linear(bad).to_linear(&[2, 2]).is_err());
}

#[test]
fn multi_cta_layouts_split_across_blocks() {
    let cta = CtaLayout::from_split_params(&[2, 2], &[2, 1], &[1, 0]).unwrap();
    assert_eq!(cta.num_ctas(), 4);
    let ll = Layout::from(Blocked::new(&[1, 1], &[4, 8], &[1, 1], &[1, 0]).with_cta(cta)).to_linear(&[8, 16]).unwrap();
    // dim1 is broadcast over the first block bit, dim0 split by the second.
    assert_eq!(ll.bases(&Dim::Block).unwrap(), &vec![vec![0, 0], vec![4, 0]]);
    assert_eq!(CtaLayout::one_d(4).unwrap().cta_split_num(), vec![4]);
    assert_eq!(CtaLayout::single_cta(3).ctas_per_cga(), vec![1, 1, 1]);
    assert!(CtaLayout::from_split_params(&[2, 2], &[4, 1], &[1, 0]).is_err());
    assert!(CtaLayout::from_split_params(&[2, 2], &[2, 1], &[0, 0]).is_err());
    assert!(CtaLayout::from_split_params(&[3, 2], &[1, 1], &[1, 0]).is_err());
}

#[test]
fn default_blocked_examples() {
    let b = default_blocked(&[64, 64], 4, 32, 1).unwrap();
    assert_eq!(
        (b.size_per_thread, b.threads_per_warp, b.warps_per_cta, b.order),
        (vec![1, 1], vec![1, 32], vec![2, 2], vec![1, 0])
    );
    let b = default_blocked(&[16, 4], 4, 32, 1).unwrap();
    assert_eq!((b.threads_per_warp, b.warps_per_cta), (vec![8, 4], vec![4, 1]));
    assert!(default_blocked(&[0, 4], 4, 32, 1).is_err());
    assert!(default_blocked(&[16, 4], 3, 32, 1).is_err());
}

#[test]
fn invalid_parameters_are_errors_not_panics() {
    let shape = [32i64, 32];
    let blocked =
        |spt: &[u32], tpw: &[u32], wpc: &[u32], order: &[u32]| Layout::from(Blocked::new(spt, tpw, wpc, order));
    assert!(matches!(
        blocked(&[3, 1], &[4, 8], &[1, 1], &[1, 0]).to_linear(&shape),
        Err(LayoutError::NotPowerOfTwo { .. })
    ));
    assert!(matches!(
        blocked(&[1, 1], &[4, 8], &[1, 1], &[1, 1]).to_linear(&shape),
        Err(LayoutError::NotAPermutation { .. })
    ));
    assert!(matches!(
        blocked(&[1], &[4, 8], &[1, 1], &[1, 0]).to_linear(&shape),
        Err(LayoutError::RankMismatch { .. })
    ));
    let ok = blocked(&[1, 1], &[4, 8], &[1, 1], &[1, 0]);
    assert!(ok.to_linear(&[32]).is_err());
    assert!(ok.to_linear(&[32, 24]).is_err());
    assert!(ok.to_linear(&[32, 0]).is_err());
    assert!(ok.to_linear(&[32, -4]).is_err());

    // Slices.
    let one_d = blocked(&[1], &[32], &[1], &[0]);
    assert!(Layout::from(Slice::new(0, one_d)).to_linear(&[]).is_err());
    assert!(Layout::from(Slice::new(2, ok.clone())).to_linear(&[32]).is_err());
    assert!(Layout::from(Slice::new(0, SwizzledShared::new(1, 1, 1, &[1, 0]).into())).to_linear(&[32]).is_err());

    // MMA and dot operands.
    let hopper = NvidiaMma::new(3, 0, &[4, 1], &[16, 64, 16]);
    assert!(Layout::from(NvidiaMma::new(1, 0, &[2, 2], &[16, 8])).to_linear(&[32, 32]).is_err());
    assert!(Layout::from(NvidiaMma::new(3, 0, &[4, 1], &[16, 64])).to_linear(&[64, 64]).is_err());
    assert!(Layout::from(NvidiaMma::new(2, 0, &[2, 2], &[12, 8])).to_linear(&[32, 32]).is_err());
    assert!(Layout::from(DotOperand::new(1, hopper.clone().into(), 2)).to_linear(&[64, 64]).is_err());
    assert!(Layout::from(DotOperand::new(0, hopper.clone().into(), 0)).to_linear(&[64, 64]).is_err());
    assert!(Layout::from(DotOperand::new(2, hopper.into(), 2)).to_linear(&[64, 64]).is_err());
    assert!(Layout::from(DotOperand::new(0, ok.clone(), 2)).to_linear(&shape).is_err());
    assert!(Layout::from(DotOperand::new(0, SwizzledShared::new(1, 1, 1, &[1, 0]).into(), 0))
        .to_linear(&shape)
        .is_err());

    // Shared layouts.
    assert!(Layout::from(SwizzledShared::new(1, 0, 1, &[1, 0])).to_linear(&shape).is_err());
    assert!(Layout::from(SwizzledShared::new(1, 1, 1, &[0, 0])).to_linear(&shape).is_err());
    assert!(Layout::from(NvmmaShared::new(48, false, 16, false, 2)).to_linear(&[64, 64]).is_err());
    assert!(Layout::from(NvmmaShared::new(128, false, 12, false, 2)).to_linear(&[64, 64]).is_err());
    assert!(Layout::from(NvmmaShared::new(128, false, 16, false, 2)).to_linear(&[8, 32]).is_err());
}

fn linear(reg: &[[u32; 2]], lane: &[[u32; 2]], warp: &[[u32; 2]]) -> Layout {
    let bases = |b: &[[u32; 2]]| b.iter().map(|v| v.to_vec()).collect();
    Layout::Linear(
        LinearLayout::new(
            vec![(Dim::Register, bases(reg)), (Dim::Lane, bases(lane)), (Dim::Warp, bases(warp)), (Dim::Block, vec![])],
            vec![(Dim::Axis(0), 16), (Dim::Axis(1), 16)],
            true,
        )
        .unwrap(),
    )
}

#[test]
fn conversion_classification_examples() {
    let shape = [16i64, 16];
    let lanes = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]];
    let base = linear(&[[0, 1], [0, 2], [8, 0]], &lanes, &[]);
    assert_eq!(classify_conversion(&base, &base, &shape).unwrap(), ConversionKind::NoOp);
    let permuted = linear(&[[0, 2], [8, 0], [0, 1]], &lanes, &[]);
    assert_eq!(classify_conversion(&base, &permuted, &shape).unwrap(), ConversionKind::RegisterPermutation);
    assert!(is_convert_layout_trivial(&base.to_linear(&shape).unwrap(), &permuted.to_linear(&shape).unwrap()).unwrap());
    // One register bit exchanged with one lane bit: a single shuffle round.
    let swapped = linear(&[[0, 4], [0, 2], [8, 0]], &[[0, 1], [0, 8], [1, 0], [2, 0], [4, 0]], &[]);
    assert_eq!(classify_conversion(&base, &swapped, &shape).unwrap(), ConversionKind::WarpShuffle);
    let d =
        warp_conversion_decomposition(&base.to_linear(&shape).unwrap(), &swapped.to_linear(&shape).unwrap()).unwrap();
    assert_eq!(d.mixed_transpositions.len(), 1);
    assert_eq!(d.p_reg.in_dim_size(&Dim::Register), 8);
    assert_eq!(d.p_lane.in_dim_size(&Dim::Lane), 32);
    // Data moving to another warp needs shared memory.
    let two_warps_a = linear(&[[0, 1], [0, 2]], &lanes, &[[8, 0]]);
    let two_warps_b = linear(&[[0, 1], [0, 2]], &[[0, 4], [0, 8], [1, 0], [2, 0], [8, 0]], &[[4, 0]]);
    assert_eq!(classify_conversion(&two_warps_a, &two_warps_b, &shape).unwrap(), ConversionKind::SharedMemory);
    // Shared layouts are not convert_layout operands.
    assert!(classify_conversion(&base, &SwizzledShared::new(1, 1, 1, &[1, 0]).into(), &shape).is_err());
}

#[test]
fn nvmma_allocation_may_carry_a_leading_buffer_dim() {
    let two_d = Layout::from(NvmmaShared::new(128, false, 16, false, 2));
    let three_d = Layout::from(NvmmaShared::new(128, false, 16, false, 3));
    assert_eq!(two_d.to_linear(&[2, 64, 64]).unwrap(), three_d.to_linear(&[2, 64, 64]).unwrap());
    assert!(two_d.to_linear(&[2, 2, 64, 64]).is_err());
}

#[test]
fn degenerate_parents_are_errors() {
    let one_d = Layout::from(Blocked::new(&[1], &[32], &[1], &[0]));
    let dot = Layout::from(DotOperand::new(1, one_d.clone(), 0));
    assert!(dot.cta_layout().is_err());
    assert!(dot.to_linear(&[32]).is_err());
    assert!(Layout::from(Slice::new(0, one_d)).cta_layout().is_err());
    assert!(Layout::from(Slice::new(0, Blocked::new(&[], &[], &[], &[]).into())).to_linear(&[]).is_err());
}
