//! Solving a whole game and holding the result.

use topitop_game::{symmetry, Position, Rules, StateIndex, Tier};

use crate::order::solve_order;
use crate::record::Record;
use crate::tier::solve_tier;

/// How to solve.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Solve only canonical positions (8-fold symmetry). Off: every position,
    /// for checking the symmetric solve.
    pub symmetric: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { symmetric: true }
    }
}

/// Reported after each tier.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Tiers finished.
    pub tiers_done: usize,
    /// Tiers in all.
    pub tiers_total: usize,
    /// The tier just finished.
    pub tier: Tier,
    /// Positions solved in it.
    pub solved: u64,
    /// True when the tier came from a checkpoint.
    pub resumed: bool,
}

/// Every position's record, over the dense state index.
///
/// With symmetry, only canonical positions hold records; [`Solution::get`]
/// looks others up through their canonical form.
pub struct Solution {
    rules: Rules,
    index: StateIndex,
    records: Vec<Record>,
    symmetric: bool,
}

impl Solution {
    /// Assembles a solution from parts (e.g. read back from a file).
    ///
    /// # Panics
    /// `records` does not match the index size.
    pub fn from_parts(rules: Rules, records: Vec<Record>, symmetric: bool) -> Solution {
        let index = StateIndex::new(rules.budget());
        assert_eq!(records.len() as u64, index.len(), "one record per indexed state");
        Solution {
            rules,
            index,
            records,
            symmetric,
        }
    }

    /// The rules solved.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The state index the records follow.
    pub fn index(&self) -> &StateIndex {
        &self.index
    }

    /// The records by index (non-canonical slots unsolved when symmetric).
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// True when only canonical positions were solved.
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// The record of `pos`, or `None` if it is not indexable.
    pub fn get(&self, pos: Position) -> Option<Record> {
        let key = if self.symmetric {
            symmetry::canonical(pos)
        } else {
            pos
        };
        self.index.index(key).ok().map(|i| self.records[i as usize])
    }
}

/// Where finished tiers are kept so that an interrupted solve can resume.
/// The solver knows nothing of files; the caller decides how to store them.
pub trait Checkpoint {
    /// Fills `records` (the tier's whole range) from a finished earlier run
    /// of the same rules and options; false if there is none.
    fn load(&mut self, tier: Tier, records: &mut [Record]) -> bool;

    /// Keeps the records of a finished tier.
    ///
    /// # Errors
    /// The checkpoint could not be written.
    fn save(&mut self, tier: Tier, records: &[Record]) -> std::io::Result<()>;
}

/// No checkpoints.
pub struct NoCheckpoint;

impl Checkpoint for NoCheckpoint {
    fn load(&mut self, _: Tier, _: &mut [Record]) -> bool {
        false
    }
    fn save(&mut self, _: Tier, _: &[Record]) -> std::io::Result<()> {
        Ok(())
    }
}

/// Solves every position of `rules`, calling `progress` after each tier.
pub fn solve(rules: Rules, options: SolveOptions, progress: impl FnMut(Progress)) -> Solution {
    match solve_resumable(rules, options, &mut NoCheckpoint, progress) {
        Ok(s) => s,
        Err(e) => unreachable!("no checkpoint, no I/O: {e}"),
    }
}

/// Solves every position of `rules`, taking finished tiers from
/// `checkpoint` and saving each newly finished one there. Tiers are solved
/// deterministically, so a resumed run gives the same records as an
/// uninterrupted one.
///
/// # Errors
/// Saving a checkpoint failed.
pub fn solve_resumable(
    rules: Rules,
    options: SolveOptions,
    checkpoint: &mut dyn Checkpoint,
    mut progress: impl FnMut(Progress),
) -> std::io::Result<Solution> {
    let index = StateIndex::new(rules.budget());
    let mut records = vec![Record::UNSOLVED; index.len() as usize];
    let order = solve_order(rules.budget());
    for (done, &tier) in order.iter().enumerate() {
        let range = index
            .tier_range(tier)
            .expect("every composition is indexed")
            .clone();
        let span = range.offset as usize..(range.offset + range.len()) as usize;
        let (solved, resumed) = if checkpoint.load(tier, &mut records[span.clone()]) {
            (
                records[span].iter().filter(|r| r.is_solved()).count() as u64,
                true,
            )
        } else {
            let n = solve_tier(rules, &index, &mut records, &range, options.symmetric);
            checkpoint.save(tier, &records[span])?;
            (n, false)
        };
        progress(Progress {
            tiers_done: done + 1,
            tiers_total: order.len(),
            tier,
            solved,
            resumed,
        });
    }
    Ok(Solution {
        rules,
        index,
        records,
        symmetric: options.symmetric,
    })
}
