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

/// The bindings this build compiled, as text: what bindgen generated from
/// the header when [`FROM_BINDGEN`], else the committed copy. The harness's
/// test checks the committed copy against it.
#[doc(hidden)]
pub const GENERATED_TEXT: &str = include_str!(concat!(env!("OUT_DIR"), "/bindings.rs"));

/// Whether bindgen generated this build's bindings (libclang was found).
#[doc(hidden)]
pub const FROM_BINDGEN: bool = cfg!(bindings_from_bindgen);

/// GamesmanClassic's `FALSE`.
pub const FALSE: BOOLEAN = 0;
/// GamesmanClassic's `TRUE`.
pub const TRUE: BOOLEAN = 1;
/// `NULL_POSITION` and the module's `kBadPosition`: every bit set.
pub const NULL_POSITION: POSITION = !0;
