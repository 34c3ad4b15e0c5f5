//! The framework's solvers, for any game behind the game interface:
//! [`loop_free`], the generic tier solver (Topolo's and Topple's), which
//! solves loopy tiers through [`loopy`], and [`usage`], the CPU time a
//! solve reports. A game may bring its own solver instead (Topitop's is in
//! `games-topitop-solved`).
#![forbid(unsafe_code)]

pub mod estimate;
pub mod loop_free;
pub mod loopy;
pub mod naive;
mod packed;
mod schedule;
pub mod usage;
mod width;
