//! (c) The whole compile to PTX (`tritium_lowering::compile`, TTIR through
//! the TTGIR pipeline or TTGIR as it is), then ptxas on the PTX when
//! `TRITIUM_FUZZ_PTXAS` names it: Tritium may refuse the input with a
//! diagnostic, but PTX it hands out must assemble.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tritium_fuzz::{assemble, options, parse, ptxas, text, with_context};

tritium_fuzz::libfuzzer_main!();

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let options = options(text);
    with_context(|context| {
        let Some(mut module) = parse(context, text) else { return };
        if let Ok(bundle) = tritium_lowering::compile(context, &mut module, &options) {
            // Inline assembly is the user's PTX, passed through as upstream does: ptxas
            // refusing a mutated `shl` is the right answer, not a Tritium bug.
            let user_assembly = text.contains("tt.elementwise_inline_asm");
            if let Some(ptxas) = ptxas().filter(|_| !user_assembly) {
                assemble(&ptxas, &bundle.ptx, &bundle.target.cpu());
            }
        }
    });
});
