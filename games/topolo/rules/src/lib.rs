//! Topolo, a two-player placement game by Rey Alicea, with its rules made
//! exact (docs/topolo.md gives every decision):
//!
//! * an R×C board, 2 ≤ R, C ≤ 8 (8×8 is the real game); row 1 is Red's;
//! * Red places ⌈N/2⌉ pieces and Black ⌊N/2⌋ (N = R·C); a player with n
//!   pieces has ⌊n/4⌋ mid, ⌊n/4⌋ large and the rest small;
//! * the first piece's row class (odd or even rows) is filled completely
//!   before any cell of the other class;
//! * on a full board, each player's groups sorted by (size, height) are
//!   compared lexicographically; all equal is a tie.
//!
//! A [`Position`] is the board itself (four bitboards): the side to move,
//! the pieces left and the row class being filled all follow from it. This
//! crate knows nothing of solving or storage.
#![forbid(unsafe_code)]

mod autogui;
pub mod error;
pub mod game;
pub mod groups;
pub mod layout;
pub mod notation;
pub mod piece;
pub mod position;
pub mod rules;
pub mod search;
pub mod shape;
mod words;

pub use error::{ParseError, RulesError};
pub use groups::{compare, group_list, Group};
pub use piece::{Color, Size};
pub use position::Position;
pub use rules::{Move, Outcome, Topolo, Variant};
pub use shape::{Class, RowClasses, Shape};
