//! Keeps panics from unwinding into C.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`, or returns `fallback` if it panics. The module keeps no state
/// that a panic could leave half-updated (the option is one atomic), so
/// asserting unwind safety is sound.
pub(crate) fn guard<T>(fallback: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(fallback)
}
