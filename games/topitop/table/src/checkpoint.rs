//! Where finished tiers are kept so that an interrupted solve can resume.

use games_topitop_rules::Tier;

use crate::Record;

/// A store of finished tiers. The solver knows nothing of files: it asks
/// the store for tiers before solving them and hands it each finished
/// level; the database crate keeps them on disk.
pub trait Checkpoint {
    /// Fills `records` (the tier's whole range) from a finished earlier run
    /// of the same rules and options; false if there is none.
    fn load(&mut self, tier: Tier, records: &mut [Record]) -> bool;

    /// Whether the solver is to save the tiers it has finished now. A store
    /// may put saving off, say for the first seconds of a solve, which a
    /// kill would hardly waste; the solver then keeps track of what it has
    /// not handed over and hands all of it to the next save.
    fn due(&self) -> bool {
        true
    }

    /// Keeps the records of finished tiers: a level at a time when every
    /// level is [due](Checkpoint::due), else all finished since the last
    /// save.
    ///
    /// # Errors
    /// The checkpoint could not be written.
    fn save(&mut self, finished: &[(Tier, &[Record])]) -> std::io::Result<()>;

    /// Finishes what [`Checkpoint::save`] left under way (a store may
    /// write in the background); the solver calls it once, at the end.
    ///
    /// # Errors
    /// A level could not be written.
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// No checkpoints: nothing to resume, nothing kept.
pub struct NoCheckpoint;

impl Checkpoint for NoCheckpoint {
    fn load(&mut self, _: Tier, _: &mut [Record]) -> bool {
        false
    }
    fn save(&mut self, _: &[(Tier, &[Record])]) -> std::io::Result<()> {
        Ok(())
    }
}
