//! Warp specialization on sm_90 (test/fixtures/warp_specialize/: upstream
//! Triton 3.6's TTIR and TTGIR of the kernels in kernels.py).
//!
//! From upstream's TTGIR (a producer default region and two wgmma consumer
//! partitions), Tritium's lowering gives PTX that ptxas accepts for sm_90a,
//! launched with upstream's 12 warps, whose SASS moves registers between the
//! groups (USETMAXREG). From the TTIR, nvgpu-warp-specialization (upstream's
//! algorithm) splits the loop into a TMA producer and two wgmma consumer
//! groups of 64 rows each (12 warps, USETMAXREG) for a 128-row tile, a
//! persistent tile loop included, and attention loops (K and V through TMA,
//! QK^T, the online softmax and PV in two consumer groups of 64 rows; the
//! corpus kernels ws_* of hopper_cases.py); with 8 warps asked for, upstream
//! and Tritium leave it unspecialized, and Tritium says so in a located
//! warning.
use crate::common::{corpus, repo_root};
use crate::tma::sass_of;
use tritium_lowering::{compile_source, CompileOptions, Target};

fn fixture(stage: &str) -> String {
    std::fs::read_to_string(repo_root().join(format!("test/fixtures/warp_specialize/ws_matmul_host_sm90.{stage}")))
        .unwrap()
}

fn options() -> CompileOptions {
    CompileOptions {
        target: Target::parse("cuda:90").unwrap(),
        num_warps: 4,
        num_stages: 3,
        verify_each_pass: true,
        // The attention kernels' logsumexp (`tl.math.log2`) calls libdevice, as upstream's does.
        libdevice: Some(crate::lowering::libdevice()),
        ..CompileOptions::default()
    }
}

#[test]
fn upstream_ttgir_of_a_warp_specialized_matmul_lowers_to_setmaxnreg() {
    let compiled = compile_source(&fixture("ttgir"), "ws_matmul_host.ttgir", &options(), false).unwrap();
    let bundle = &compiled.bundle;
    assert_eq!(bundle.info.num_warps, 12, "the producer's 4 warps and two consumer warp groups");
    assert!(bundle.ptx.contains(".maxnreg 168"), "the register budget ptxas needs for setmaxnreg");
    for text in [
        "setmaxnreg.dec.sync.aligned.u32 40",
        "setmaxnreg.inc.sync.aligned.u32 232",
        "setmaxnreg.dec.sync.aligned.u32 120",
    ] {
        assert!(bundle.ptx.split_whitespace().collect::<Vec<_>>().join(" ").contains(text), "no `{text}` in the PTX");
    }
    let sass = sass_of(bundle, "ws-ttgir").unwrap();
    for instruction in [
        "USETMAXREG.DEALLOC",
        "USETMAXREG.TRY_ALLOC",
        "HGMMA.64x128x16.F32",
        "UTMALDG.2D",
        "UTMASTG.2D",
        "SYNCS.PHASECHK",
    ] {
        assert!(sass.contains(instruction), "no {instruction} in the SASS");
    }
}

#[test]
fn ttir_of_a_tma_matmul_loop_is_specialized_by_tritiums_pipeline() {
    let compiled = compile_source(&fixture("ttir"), "ws_matmul_host.ttir", &options(), false).unwrap();
    // As upstream's TTGIR of the same TTIR: the producer's 4 warps and two
    // consumer groups (upstream's data partition splits the 128-row tile).
    assert_eq!(compiled.bundle.info.num_warps, 12, "the kernel's 4 producer warps and two consumer warp groups");
    let warnings: Vec<&String> = compiled.warnings.iter().filter(|w| w.contains(": warning: ")).collect();
    assert!(warnings.is_empty(), "{warnings:?}");
    let sass = sass_of(&compiled.bundle, "ws-ttir").unwrap();
    for instruction in ["HGMMA.64x128x16.F32", "UTMALDG.2D", "UTMASTG.2D", "SYNCS.PHASECHK", "SYNCS.ARRIVE"] {
        assert!(sass.contains(instruction), "no {instruction} in the SASS");
    }
}

#[test]
fn ttir_with_eight_warps_compiles_unspecialized_with_a_warning() {
    let options = CompileOptions { num_warps: 8, ..options() };
    let compiled = compile_source(&fixture("ttir"), "ws_matmul_host.ttir", &options, false).unwrap();
    assert_eq!(compiled.bundle.info.num_warps, 8);
    let warnings: Vec<&String> = compiled.warnings.iter().filter(|w| w.contains(": warning: ")).collect();
    assert_eq!(warnings.len(), 1, "{:?}", compiled.warnings);
    assert!(warnings[0].contains("kernels.py:") && warnings[0].contains("num_warps=8"), "{}", warnings[0]);
    let sass = sass_of(&compiled.bundle, "ws-ttir-8").unwrap();
    assert!(!sass.contains("USETMAXREG"));
}

/// Upstream's TTIR of a corpus kernel (test/fixtures/corpus, cuda90).
fn corpus_ttir(kernel: &str) -> String {
    corpus()
        .into_iter()
        .find(|e| e.target == "cuda90" && e.kernel == kernel && e.stage == "ttir")
        .unwrap_or_else(|| panic!("no TTIR of {kernel} in the corpus"))
        .text()
}

fn warnings(compiled: &tritium_lowering::Compiled) -> Vec<&String> {
    compiled.warnings.iter().filter(|w| w.contains(": warning: ")).collect()
}

/// `kernel`'s TTIR compiles without warnings into a producer warp group and
/// two consumer groups: 12 warps, registers handed over with setmaxnreg
/// (40 / 232), and SASS with the register reallocation, `hgmma` (the
/// consumers' wgmma shape) and TMA loads and stores.
fn assert_two_consumer_groups(kernel: &str, hgmma: &str) {
    let compiled = compile_source(&corpus_ttir(kernel), kernel, &options(), false).unwrap();
    assert!(warnings(&compiled).is_empty(), "{kernel}: {:?}", compiled.warnings);
    assert_eq!(compiled.bundle.info.num_warps, 12, "{kernel}: the producer's 4 warps and two consumer groups");
    let ptx = compiled.bundle.ptx.split_whitespace().collect::<Vec<_>>().join(" ");
    for text in ["setmaxnreg.dec.sync.aligned.u32 40", "setmaxnreg.inc.sync.aligned.u32 232"] {
        assert!(ptx.contains(text), "{kernel}: no `{text}` in the PTX");
    }
    let sass = sass_of(&compiled.bundle, kernel).unwrap();
    for instruction in ["USETMAXREG.DEALLOC", "USETMAXREG.TRY_ALLOC", hgmma, "UTMALDG.2D", "UTMASTG.2D"] {
        assert!(sass.contains(instruction), "{kernel}: no {instruction} in the SASS");
    }
}

#[test]
fn ttir_of_a_128_row_tile_is_split_between_two_consumer_groups() {
    for kernel in ["ws_device_desc_matmul", "ws_persistent_desc_matmul"] {
        assert_two_consumer_groups(kernel, "HGMMA.64x128x16.F32");
    }
}

/// The attention forwards of the corpus (hopper_cases.py: ws_attn_fwd_d64,
/// and tutorial 06's forward with D = 64 and 128, causal in one masked loop
/// or not): the producer loads K and V through TMA, two consumer groups of
/// 64 rows each run QK^T, the online softmax and PV on their rows of Q.
#[test]
fn ttir_of_an_attention_loop_is_split_between_two_consumer_groups() {
    for kernel in [
        "ws_attn_fwd_d64",
        "ws_attn_tut06_d64",
        "ws_attn_tut06_d128",
        "ws_attn_tut06_d64_causal",
        "ws_attn_tut06_d128_causal",
    ] {
        assert_two_consumer_groups(kernel, "HGMMA.64x64x16.F32");
    }
}

#[test]
fn a_flattened_persistent_loop_is_left_unspecialized_as_upstream_does() {
    let kernel = "ws_persistent_desc_matmul_flat";
    let compiled = compile_source(&corpus_ttir(kernel), kernel, &options(), false).unwrap();
    let warnings = warnings(&compiled);
    assert_eq!(warnings.len(), 1, "{:?}", compiled.warnings);
    assert!(warnings[0].contains("upstream Triton does not specialize it either"), "{}", warnings[0]);
    assert_eq!(compiled.bundle.info.num_warps, 4);
}
