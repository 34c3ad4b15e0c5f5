//! A solve shared by several processes, on one machine or many, as
//! GamesmanOne runs its tier solver on a cluster: started by an MPI
//! launcher (`mpirun -np N topitop solve ...`, or `srun` under SLURM) in a
//! program that links MPI and sets [`MPI_LINK`] (the `topitop` program's
//! `mpi` feature). Process 0 hands out units of work whose
//! inputs are done and writes the databases; the others solve the units
//! they are handed. Units read and write the solve's checkpoint directory,
//! which every process must see (a shared file system): only unit numbers
//! and errors travel between processes. The database is the one a single
//! process writes, byte for byte, and a run cut short resumes from the
//! units kept.
//!
//! Units are finer than GamesmanOne's tiers: a loop-free tier is split
//! into parts of at most `--part-size` indices, so that a run is not held
//! to the width of the tier graph.

mod roles;

pub use roles::{run, Link, DEFAULT_PART_SIZE};

use crate::cmd::solve::{Args, Kept, Solver};

/// One unit of work of a distributed solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The units it reads, all earlier in the list.
    pub reads: Vec<usize>,
    /// Its size in the solve's own measure (indices), for progress.
    pub size: u64,
}

/// What the processes of a distributed solve need in memory, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    /// Process 0, which gathers the units and writes the databases.
    pub lead: u64,
    /// Each other process: the largest unit and what it reads.
    pub worker: u64,
}

/// A solve split into units that processes solve apart, each unit
/// reading only what the units before it kept in the checkpoints.
pub trait Units {
    /// The units, every one after those it reads, with loop-free tiers
    /// split into parts of at most `part_size` indices. Every process
    /// asks, with the same arguments, and must get the same list.
    ///
    /// # Errors
    /// The solve cannot be split: a cycle among its tiers.
    fn units(&mut self, part_size: u64) -> anyhow::Result<Vec<Unit>>;

    /// Bytes of memory a process needs at its peak, with parts of
    /// `part_size` indices.
    fn memory(&mut self, part_size: u64) -> Memory;

    /// Whether unit `u` was kept whole by an earlier run (asked of
    /// process 0 as it starts; a damaged file is said and solved again).
    fn kept_whole(&mut self, u: usize, kept: &mut [Kept]) -> bool;

    /// Solves unit `u`, reading what it needs from `kept`, and keeps it
    /// there, synced and in place, before returning.
    ///
    /// # Errors
    /// What it reads cannot be read, the solver's own, or the part cannot
    /// be kept.
    fn solve_unit(&mut self, u: usize, kept: &mut [Kept]) -> anyhow::Result<()>;

    /// Readies the solver to write its databases from what the units
    /// kept (process 0, once every unit is done).
    ///
    /// # Errors
    /// The solver's own.
    fn gather(&mut self, kept: &mut [Kept]) -> anyhow::Result<()>;
}

/// Environment variables an MPI launcher sets in every process it
/// starts: Open MPI's `mpirun`, MPICH's and Intel's (through PMI), and
/// SLURM's `srun` (through PMI or PMIx).
const LAUNCHER_VARS: [&str; 4] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"];

/// Whether this process was started by an MPI launcher.
fn under_launcher() -> bool {
    LAUNCHER_VARS.iter().any(|v| std::env::var_os(v).is_some())
}

/// How the program starts its MPI link, set once as it starts (by the
/// `topitop` program when it is built with its `mpi` feature). The link
/// lives in the program, not here, so that building with MPI or without
/// rebuilds the program alone and every library is shared between the
/// two builds.
pub static MPI_LINK: std::sync::OnceLock<StartLink> = std::sync::OnceLock::new();

/// Starts this process's link to the others of a distributed solve.
pub type StartLink = fn() -> anyhow::Result<Box<dyn Link>>;

/// Runs `solve` as one process of a distributed solve when an MPI
/// launcher started it, giving its outcome; `None` to solve alone.
///
/// Without MPI in the program, a process an MPI launcher started solves
/// alone: said once, by the first process, with the way to build it in.
pub fn launched(solver: &mut dyn Solver, args: &Args) -> Option<anyhow::Result<()>> {
    if !under_launcher() {
        return None;
    }
    if let Some(start) = MPI_LINK.get() {
        return Some(start().and_then(|link| run(solver, args, link.as_ref())));
    }
    let first = ["OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .all(|r| r == "0");
    if first {
        eprintln!(
            "topitop: warning: started by an MPI launcher, but this topitop was built without MPI: every process solves alone, and all but one find the database locked; build it with `cargo build --release --features mpi` to share the solve"
        );
    }
    None
}
