//! (a) Parse + verify + print round trip of tt/ttg/ttng text: whatever parses
//! and verifies must print, and the printed text must parse, verify and print
//! the same again.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tritium_dialects::io::{print, PrintOptions};
use tritium_fuzz::{parse, text, with_context};

tritium_fuzz::libfuzzer_main!();

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    with_context(|context| {
        let Some(module) = parse(context, text) else { return };
        let printed = print(&module.as_operation(), PrintOptions::default());
        let Some(again) = parse(context, &printed) else {
            panic!("the printed module does not parse back:\n{printed}");
        };
        let reprinted = print(&again.as_operation(), PrintOptions::default());
        assert_eq!(printed, reprinted, "printing the parsed print changed it");
        // The generic form must parse back too (upstream tools exchange it).
        let generic = print(&module.as_operation(), PrintOptions { generic: true, ..PrintOptions::default() });
        if parse(context, &generic).is_none() {
            panic!("the generic form does not parse back:\n{generic}");
        }
    });
});
