//! Shared helpers for the integration tests.
#![allow(dead_code)]

pub mod json;

use json::Json;
use tritium_layout::{
    Blocked, CtaLayout, Dim, DotOperand, Layout, LinearLayout, NvidiaMma, NvmmaShared, Slice, SwizzledShared,
};

/// The oracle fixture written by `tests/gen_reference.py` (parsed once).
pub fn oracle() -> &'static Json {
    static ORACLE: std::sync::OnceLock<Json> = std::sync::OnceLock::new();
    ORACLE.get_or_init(|| Json::parse(include_str!("../fixtures/oracle.json")).expect("oracle.json parses"))
}

fn cta(spec: &Json, rank: usize) -> CtaLayout {
    CtaLayout::from_bases(spec.get("cga").u32_matrix(), rank).expect("valid CTA layout in fixture")
}

/// Builds a layout from the fixture's JSON description (see gen_reference.py).
pub fn layout_from_spec(spec: &Json) -> Layout {
    match spec.get("kind").as_str() {
        "blocked" => {
            let order = spec.get("order").u32s();
            let rank = order.len();
            Blocked::new(&spec.get("spt").u32s(), &spec.get("tpw").u32s(), &spec.get("wpc").u32s(), &order)
                .with_cta(cta(spec, rank))
                .into()
        }
        "slice" => Slice::new(spec.get("dim").as_u32(), layout_from_spec(spec.get("parent"))).into(),
        "mma" => {
            let version = spec.get("version").u32s();
            let wpc = spec.get("wpc").u32s();
            NvidiaMma::new(version[0], version[1], &wpc, &spec.get("instr").u32s())
                .with_cta(cta(spec, wpc.len()))
                .into()
        }
        "dot" => {
            DotOperand::new(spec.get("op").as_u32(), layout_from_spec(spec.get("parent")), spec.get("k_width").as_u32())
                .into()
        }
        "swizzled" => {
            let order = spec.get("order").u32s();
            let rank = order.len();
            SwizzledShared::new(
                spec.get("vec").as_u32(),
                spec.get("per_phase").as_u32(),
                spec.get("max_phase").as_u32(),
                &order,
            )
            .with_cta(cta(spec, rank))
            .into()
        }
        "nvmma" => {
            let rank = spec.get("rank").as_i64() as usize;
            NvmmaShared::new(
                spec.get("swizzle").as_u32(),
                spec.get("transposed").as_bool(),
                spec.get("bitwidth").as_u32(),
                spec.get("fp4").as_bool(),
                rank,
            )
            .with_cta(cta(spec, rank))
            .into()
        }
        "linear" => {
            let shape = spec.get("shape").u32s();
            let in_dims = vec![
                (Dim::Register, spec.get("reg").u32_matrix()),
                (Dim::Lane, spec.get("lane").u32_matrix()),
                (Dim::Warp, spec.get("warp").u32_matrix()),
                (Dim::Block, spec.get("block").u32_matrix()),
            ];
            let out_dims = shape.iter().enumerate().map(|(i, &s)| (Dim::Axis(i), s)).collect();
            Layout::Linear(LinearLayout::new(in_dims, out_dims, true).expect("valid linear layout in fixture"))
        }
        other => panic!("unknown layout kind {other}"),
    }
}

/// A tiny deterministic xorshift generator for property tests.
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> XorShift {
        XorShift(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}
