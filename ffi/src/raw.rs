//! The bindgen view of `ffi/include/gamesman_topitop.h`: shared types and
//! the core services a module uses. Generated at build time (or the
//! committed copy in `bindings.rs` when libclang is missing).
#![allow(
    missing_docs,
    non_camel_case_types,
    non_upper_case_globals,
    dead_code,
    clippy::all
)]

include!(concat!(env!("OUT_DIR"), "/bindings.rs"));

/// GamesmanClassic's `FALSE`.
pub const FALSE: BOOLEAN = 0;
/// GamesmanClassic's `TRUE`.
pub const TRUE: BOOLEAN = 1;
/// `NULL_POSITION` and the module's `kBadPosition`: every bit set.
pub const NULL_POSITION: POSITION = !0;
