//! Solving a whole game and holding the result.

use rayon::prelude::*;
use topitop_game::{Position, Rules, Tier, Value};

use crate::groups::GroupIndex;
use crate::order::solve_levels;
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
    /// Positions in the finished tiers.
    pub positions_done: u64,
    /// Positions in all tiers.
    pub positions_total: u64,
    /// True when the tier came from a checkpoint.
    pub resumed: bool,
}

/// Every position's record, numbered by a [`GroupIndex`].
///
/// With symmetry, records are kept for the groups of canonical boards only;
/// [`Solution::get`] looks other positions up through their canonical form.
pub struct Solution {
    rules: Rules,
    index: GroupIndex,
    records: Vec<Record>,
}

impl Solution {
    /// Assembles a solution from parts (e.g. read back from a file).
    ///
    /// # Panics
    /// `records` does not match the index size.
    pub fn from_parts(rules: Rules, records: Vec<Record>, symmetric: bool) -> Solution {
        Solution::from_index(rules, GroupIndex::new(rules.budget(), symmetric), records)
    }

    /// Assembles a solution from records numbered by `index`.
    ///
    /// # Panics
    /// `records` does not match the index size.
    pub fn from_index(rules: Rules, index: GroupIndex, records: Vec<Record>) -> Solution {
        assert_eq!(
            records.len() as u64,
            index.len(),
            "one record per indexed position"
        );
        Solution {
            rules,
            index,
            records,
        }
    }

    /// The rules solved.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The numbering the records follow.
    pub fn index(&self) -> &GroupIndex {
        &self.index
    }

    /// The records by number.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// True when only canonical boards were solved.
    pub fn is_symmetric(&self) -> bool {
        self.index.is_symmetric()
    }

    /// The record of `pos`, or `None` if it is not indexable.
    pub fn get(&self, pos: Position) -> Option<Record> {
        self.index.index(pos).ok().map(|i| self.records[i as usize])
    }

    /// Solved positions by value (win, lose, tie, draw), one per symmetry
    /// class when the solve used symmetry.
    pub fn counts(&self) -> [u64; 4] {
        let mut counts = count_values(&self.records);
        for i in self.index.duplicates() {
            if let Some(slot) = value_slot(self.records[i as usize]) {
                counts[slot] -= 1;
            }
        }
        counts
    }

    /// The largest remoteness of a win, loss or tie.
    pub fn largest_remoteness(&self) -> u16 {
        self.records
            .iter()
            .filter(|r| matches!(r.value(), Some(Value::Win | Value::Lose | Value::Tie)))
            .map(|r| r.remoteness())
            .max()
            .unwrap_or(0)
    }
}

/// The place of a record's value in a `[win, lose, tie, draw]` count.
fn value_slot(rec: Record) -> Option<usize> {
    rec.value().map(Value::index)
}

fn count_values(records: &[Record]) -> [u64; 4] {
    records
        .par_chunks(1 << 20)
        .map(|chunk| {
            let mut c = [0u64; 4];
            for &r in chunk {
                if let Some(slot) = value_slot(r) {
                    c[slot] += 1;
                }
            }
            c
        })
        .reduce(|| [0; 4], |a, b| std::array::from_fn(|k| a[k] + b[k]))
}

/// Where finished tiers are kept so that an interrupted solve can resume.
/// The solver knows nothing of files; the caller decides how to store them.
pub trait Checkpoint {
    /// Fills `records` (the tier's whole range) from a finished earlier run
    /// of the same rules and options; false if there is none.
    fn load(&mut self, tier: Tier, records: &mut [Record]) -> bool;

    /// Keeps the records of newly finished tiers (one level at a time).
    ///
    /// # Errors
    /// The checkpoint could not be written.
    fn save(&mut self, finished: &[(Tier, &[Record])]) -> std::io::Result<()>;
}

/// No checkpoints.
pub struct NoCheckpoint;

impl Checkpoint for NoCheckpoint {
    fn load(&mut self, _: Tier, _: &mut [Record]) -> bool {
        false
    }
    fn save(&mut self, _: &[(Tier, &[Record])]) -> std::io::Result<()> {
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
/// `checkpoint` and saving newly finished ones there. Tiers are solved
/// deterministically, so a resumed run gives the same records as an
/// uninterrupted one. The tiers of one level are solved side by side.
///
/// # Errors
/// Saving a checkpoint failed.
pub fn solve_resumable(
    rules: Rules,
    options: SolveOptions,
    checkpoint: &mut dyn Checkpoint,
    mut progress: impl FnMut(Progress),
) -> std::io::Result<Solution> {
    let index = GroupIndex::new(rules.budget(), options.symmetric);
    let mut records = vec![Record::UNSOLVED; index.len() as usize];
    let levels = solve_levels(rules.budget());
    let tiers_total = levels.iter().map(Vec::len).sum();
    let mut tiers_done = 0;
    let mut positions_done = 0;
    let span = |t: usize| {
        let r = &index.tiers()[t].records;
        r.start as usize..r.end as usize
    };
    for level in levels {
        let mut todo = Vec::new();
        let mut finished = Vec::new();
        for tier in level {
            let t = index
                .states()
                .tier_position(tier)
                .expect("every composition is indexed");
            if checkpoint.load(tier, &mut records[span(t)]) {
                finished.push((tier, t, true));
            } else {
                todo.push((tier, t));
            }
        }
        let solved: Vec<(Tier, usize, Vec<Record>)> = todo
            .into_par_iter()
            .map(|(tier, t)| (tier, t, solve_tier(rules, &index, &records, t)))
            .collect();
        for (tier, t, local) in &solved {
            records[span(*t)].copy_from_slice(local);
            finished.push((*tier, *t, false));
        }
        let saved: Vec<(Tier, &[Record])> = solved.iter().map(|(tier, _, l)| (*tier, l.as_slice())).collect();
        checkpoint.save(&saved)?;
        for (tier, t, resumed) in finished {
            let solved = span(t).len() as u64;
            tiers_done += 1;
            positions_done += solved;
            progress(Progress {
                tiers_done,
                tiers_total,
                tier,
                solved,
                positions_done,
                positions_total: index.len(),
                resumed,
            });
        }
    }
    Ok(Solution {
        rules,
        index,
        records,
    })
}
