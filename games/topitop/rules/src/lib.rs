//! Topitop's rules: GamesmanClassic's current module (v1) in all 8 option
//! variants and the older v0 ruleset, with GamesmanClassic-exact encodings
//! (tier hash, move codes, position and AutoGUI strings), a true canonical
//! form under the 8 symmetries, and a dense state index for solving.
//!
//! This crate knows nothing of storage or FFI.
#![forbid(unsafe_code)]

mod ancestry;
pub mod board;
pub mod budget;
pub mod cell;
pub mod error;
pub mod explain;
pub mod gchash;
pub mod geometry;
pub mod group;
pub mod index;
mod interface;
mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rank;
pub mod rules;
pub mod sample;
pub mod shown;
pub mod symmetry;
pub mod tier;
mod unmove;

pub use board::Board;
pub use budget::Budget;
pub use cell::{Cell, Player};
pub use error::{
    BudgetError, HashError, IllegalMove, IndexError, ParseMoveError, ParsePositionError, PositionError,
    RulesError,
};
pub use geometry::Slide;
pub use index::StateIndex;
pub use movegen::play_unchecked;
pub use moves::{Move, MoveKind, MoveList, Piece, MAX_MOVES};
pub use notation::{
    autogui_entities, autogui_move, autogui_position, parse_position, parse_position_syntax, AutoGuiMove,
};
pub use position::Position;
pub use rules::{Rules, Ruleset, Value, Variant};
pub use tier::Tier;
