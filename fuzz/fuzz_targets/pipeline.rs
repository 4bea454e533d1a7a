//! (b) The TTIR -> TTGIR pipeline (`passes/src/pipeline.rs`, as `tritium
//! compile` runs it) on TTIR that parses and verifies: it may fail with a
//! diagnostic, but what it produces must verify.
#![no_main]
use libfuzzer_sys::fuzz_target;
use melior::{ir::operation::OperationLike, pass::PassManager, utility::parse_pass_pipeline};
use tritium_fuzz::{options, parse, text, with_context};

tritium_fuzz::libfuzzer_main!();

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let options = options(text);
    with_context(|context| {
        let Some(mut module) = parse(context, text) else { return };
        if module.as_operation().attribute("ttg.num-warps").is_ok() {
            return; // TTGIR: the pipeline is for TTIR (target (c) lowers TTGIR)
        }
        let pipeline = tritium_passes::pipeline::ttgir_pipeline(
            options.target.capability,
            options.num_warps,
            options.num_ctas,
            options.num_stages,
        )
        .expect("Tritium's TTGIR pipeline");
        let manager = PassManager::new(context);
        manager.enable_verifier(false);
        parse_pass_pipeline(manager.as_operation_pass_manager(), &pipeline).expect("the pipeline parses");
        if manager.run(&mut module).is_ok() {
            assert!(module.as_operation().verify(), "the TTGIR pipeline produced IR that does not verify");
        }
    });
});
