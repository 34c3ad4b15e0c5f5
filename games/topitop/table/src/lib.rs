//! The solved table of Topitop: the vocabulary that solving and storage
//! share, so that neither defines the other's types.
//!
//! * [`Record`]: one position's value and remoteness in 16 bits (the game
//!   interface's, which every game shares).
//! * [`GroupIndex`]: the numbering of the positions a solve keeps, whole
//!   groups of canonical boards (see [`games_topitop_rules::group`]), which is
//!   also the order the database stores them in.
//! * [`Solution`]: records under that numbering, for every position of a
//!   ruleset.
//! * [`Checkpoint`]: where a solve keeps finished tiers so that it can
//!   resume; the database crate stores them in files.
#![forbid(unsafe_code)]

mod checkpoint;
mod group_index;
mod solution;

pub use checkpoint::{Checkpoint, NoCheckpoint};
pub use group_index::{GroupIndex, TierGroups};
pub use solution::Solution;
pub use topitop_game_api::{Record, MAX_REMOTENESS};
