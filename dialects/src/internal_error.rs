//! Panics (bugs) inside passes, rewrite patterns and the lowering: caught
//! where they happen, reported as "internal error" diagnostics, and counted so
//! that the drivers can exit with code 2 (a compiler bug) rather than 1 (bad
//! input) and refuse to hand out the IR or PTX of a half-rewritten module.
use std::{
    any::Any,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex, Once,
    },
};

static COUNT: AtomicUsize = AtomicUsize::new(0);
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Internal errors reported so far in this process. A driver reads it before
/// and after a compilation: a difference means the result is not to be used.
pub fn count() -> usize {
    COUNT.load(Ordering::SeqCst)
}

/// Counts one internal error (its diagnostic is the caller's to emit).
pub fn record() {
    COUNT.fetch_add(1, Ordering::SeqCst);
}

/// Replaces the default panic message on stderr (a backtrace hint in the
/// middle of the diagnostics) by a note kept for the catching site: the
/// panic's message and source position go into the internal-error diagnostic.
/// `RUST_BACKTRACE` set keeps the default output as well, for debugging.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let position = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
            let message = payload_text(info.payload());
            if let Ok(mut last) = LAST_PANIC.lock() {
                *last = Some(format!("{message}{position}"));
            }
            if std::env::var_os("RUST_BACKTRACE").is_some() {
                default(info);
            }
        }));
    });
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

/// What a caught panic said: the hook's note (message and position) when
/// the hook is installed, else the payload's message.
pub fn describe(payload: &(dyn Any + Send)) -> String {
    LAST_PANIC.lock().ok().and_then(|mut last| last.take()).unwrap_or_else(|| payload_text(payload))
}
