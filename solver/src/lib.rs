//! Strong retrograde solver for Topitop: the value (win, lose, tie, draw)
//! and remoteness of every position, with GamesmanClassic's conventions.
//!
//! Tiers (piece compositions) are solved children first. Inside a tier,
//! where positions repeat, the solver counts each position's undecided
//! children, seeds frontiers from primitives and from already solved child
//! tiers, and settles wins and losses level by level in increasing
//! remoteness, then ties the same way; what is left is a draw.
#![forbid(unsafe_code)]

//!
//! The records, their numbering and the [`Solution`](topitop_table::Solution)
//! it returns are the shared vocabulary of `topitop-table`; storing them is
//! `topitop-db`'s business.

pub mod loop_free;
mod memory;
mod order;
mod solve;
mod tier;
pub mod usage;
pub mod verify;

pub use memory::{estimate_disk, estimate_memory};
pub use order::{solve_levels, solve_order};
pub use solve::{solve, solve_resumable, solve_together, Progress, SolveOptions};
