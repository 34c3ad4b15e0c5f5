//! Topple (playtopple.com), a two-player game of stacks and pawns, with its
//! rules made exact (docs/topple-rules.md gives every decision and a worked
//! example of each):
//!
//! * an R×C board, 2 ≤ R, C ≤ 8 (8×8 by default), and one shared supply of
//!   S pieces (one per cell by default);
//! * each player's first move places a piece with their first pawn on any
//!   empty cell; then a player places a piece within two king steps of one
//!   of their pawns, or steps a pawn onto a stack at most one higher or
//!   lower;
//! * the third piece of a stack brings a new pawn; a piece on a stack of 3
//!   or more topples it in a chosen direction, crushing pawns; a line of
//!   three 3-stacks is reset; locked-or-not takes follow every move;
//! * a player with no pawn on the board, or with no move, loses.
//!
//! A [`Position`] is the board (a height and a pawn a cell), the supply,
//! both reserves and the player to move. [`tier`] groups positions for
//! the loopy tier solver and indexes them. This crate knows nothing of
//! solving or storage.
#![forbid(unsafe_code)]

mod autogui;
pub mod board;
pub mod check;
pub mod error;
pub mod game;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod symmetry;
pub mod tier;
mod walk;
mod words;

pub use board::{CellNames, Direction, Shape};
pub use check::transition;
pub use error::{ParseError, RulesError};
pub use perft::perft;
pub use position::{Color, Phase, Position, PAWNS};
pub use rules::{Effects, Move, Outcome, Topple, MIN_SUPPLY};
pub use symmetry::Symmetry;
pub use tier::Tier;
