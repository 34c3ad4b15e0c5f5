//! Strong retrograde solver for Topitop: the value (win, lose, tie, draw)
//! and remoteness of every position, with GamesmanClassic's conventions.
//!
//! Tiers (piece compositions) are solved children first. Inside a tier,
//! where positions repeat, the solver counts each position's undecided
//! children, seeds frontiers from primitives and from already solved child
//! tiers, and settles wins and losses level by level in increasing
//! remoteness, then ties the same way; what is left is a draw.
#![forbid(unsafe_code)]

mod groups;
mod order;
mod record;
mod solution;
mod tier;
pub mod verify;

pub use groups::{GroupIndex, TierGroups};
pub use order::{solve_levels, solve_order};
pub use record::{Record, MAX_REMOTENESS};
pub use solution::{solve, solve_resumable, Checkpoint, NoCheckpoint, Progress, Solution, SolveOptions};
