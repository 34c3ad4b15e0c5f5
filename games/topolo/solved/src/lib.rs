//! Topolo's own solver and checker, behind the command line every game
//! shares: once a board's first row class is full, its pieces never
//! change, so the positions that share them form a small game of their
//! own, solved in cache ([`solve`]); the values go to a database of values
//! ([`topitop_db::packed`]), five to a byte, since the remoteness is the
//! empty cells. [`verify`] checks such a database position by position the
//! same way. The index is the game's own ([`games_topolo::layout`]), so
//! every shared command reads the result through the game interface.
#![forbid(unsafe_code)]

pub mod closed;
mod commands;
pub mod images;
pub mod open;
pub mod plan;
pub mod score;
pub mod solve;
pub mod subgame;
pub mod units;
pub mod values;
pub mod verify;

pub use commands::commands;
