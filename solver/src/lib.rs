//! The framework's solvers, for any game behind the game interface:
//! [`loop_free`], the generic tier solver of loop-free games (Topolo's),
//! and [`usage`], the CPU time a solve reports. A game may bring its own
//! solver instead (Topitop's, for loopy tiers, is in
//! `topitop-game-solved`).
#![forbid(unsafe_code)]

pub mod loop_free;
pub mod usage;
