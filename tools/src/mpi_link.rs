//! The [`Link`] of a distributed solve over MPI (the `mpi` feature): the
//! system's MPI library, as `mpirun` or `srun` started the processes.
//! `main` hands [`start`] to `topitop_cli::distributed::MPI_LINK`.

use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Threading;

use topitop_cli::distributed::Link;

/// This process's place among those MPI started. MPI is finalised when it
/// is dropped.
pub struct MpiLink {
    // Dropped last: the world must not outlive MPI.
    world: SimpleCommunicator,
    _universe: mpi::environment::Universe,
}

impl MpiLink {
    /// Starts MPI. Only the main thread calls MPI; the solver's threads
    /// never do.
    ///
    /// # Errors
    /// MPI was started already, or could not be.
    pub fn start() -> anyhow::Result<MpiLink> {
        let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| anyhow::anyhow!("MPI could not be started (or was started twice)"))?;
        Ok(MpiLink {
            world: universe.world(),
            _universe: universe,
        })
    }
}

/// Starts MPI and gives this process's link.
///
/// # Errors
/// As [`MpiLink::start`].
pub fn start() -> anyhow::Result<Box<dyn Link>> {
    Ok(Box::new(MpiLink::start()?))
}

impl Link for MpiLink {
    fn rank(&self) -> usize {
        usize::try_from(self.world.rank()).unwrap_or(0)
    }

    fn ranks(&self) -> usize {
        usize::try_from(self.world.size()).unwrap_or(1)
    }

    fn host(&self) -> String {
        mpi::environment::processor_name().unwrap_or_else(|_| "an unnamed machine".into())
    }

    fn send(&self, to: usize, words: &[u64]) {
        let to = i32::try_from(to).unwrap_or(0);
        self.world.process_at_rank(to).send(words);
    }

    fn try_receive(&self) -> Option<(usize, Vec<u64>)> {
        let probed = self.world.any_process().immediate_matched_probe()?;
        let (words, status) = probed.matched_receive_vec::<u64>();
        Some((usize::try_from(status.source_rank()).unwrap_or(0), words))
    }
}
