//! The subcommands, one module each.

pub mod crosscheck;
pub mod export;
pub mod perft;
pub mod play;
pub mod query;
pub mod serve;
pub mod show;
pub mod solve;
pub mod stats;
pub mod verify;
