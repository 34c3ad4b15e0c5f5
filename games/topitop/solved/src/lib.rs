//! Topitop solved: its own retrograde solver for loopy tiers ([`solve`](mod@solve)),
//! its database format ([`store`], read through the shared reader) and
//! which file is which of GamesmanUni's variants ([`catalog`]). The
//! shared crates (the generic solver, the server, the tools) know none of
//! this: Topitop keeps its fast paths here, behind the game interface's
//! crates, as the interface lets a game choose its own solver.
#![deny(unsafe_code)]

pub mod catalog;
pub mod reach;
pub mod solve;
pub mod store;

pub use reach::{reach, Reached};
pub use solve::memory::{estimate_disk, estimate_memory};
pub use solve::order::{solve_levels, solve_order};
pub use solve::{solve, solve_resumable, solve_together, Progress, SolveOptions};
pub use store::{
    file_name, path_in, read_all, write, CacheStats, Database, Header, Mmap, WriteOptions, WriteSummary,
    DEFAULT_CACHE_BYTES,
};
