//! Topitop as a GamesmanClassic module: the C ABI of `src/mtopitop.c`,
//! implemented over the `games-topitop-rules` rules engine.
//!
//! Link `libtopitop_gamesman.a` (or `.so`) into GamesmanClassic in place of
//! its `mtopitop.o`. The contract is `ffi/include/gamesman_topitop.h`; the
//! Rust view of its types and of the core services comes from bindgen.
//!
//! Every exported function catches panics and answers with GamesmanClassic's
//! "invalid" value instead (kBadPosition, `undecided`, NULL, FALSE, an empty
//! string), so nothing unwinds into C.
//!
//! This crate is the project's FFI edge, and its `unsafe` code lies in
//! three places:
//! * `core`: every call into GamesmanClassic's core and every read or write
//!   of its globals and of raw buffers;
//! * the exports that take pointers (strings, buffers, out-parameters) are
//!   `unsafe extern "C" fn`s whose `# Safety` sections state what the C
//!   caller promises; they only forward those promises to `core`;
//! * `globals`: the statics C reads (`Sync` for pointer-holding globals).
#![deny(unsafe_op_in_unsafe_fn)]
#![allow(non_snake_case, non_upper_case_globals)]

pub mod raw;

mod core;
mod game;
mod globals;
mod guard;
mod options;
mod strings;
mod textui;

pub use game::{
    gNumberOfTierPositions, gTierChildren, isLegal, DoMove, GenerateMoves, GetCanonicalPosition,
    InitializeGame, Primitive, TierToString,
};
pub use options::{getOption, setOption, NumberOfOptions};
pub use strings::{
    ConvertTextInputToMove, MoveToAutoGUIString, MoveToString, PositionToAutoGUIString, PositionToString,
    StringToPosition, ValidTextInput,
};
pub use textui::{DebugMenu, GameSpecificMenu, GetAndPrintPlayersMove, PrintComputersMove, PrintPosition};
