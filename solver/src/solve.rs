//! Solving a whole game, tier by tier.

use rayon::prelude::*;
use topitop_game::{Rules, Tier};
use topitop_table::{Checkpoint, GroupIndex, NoCheckpoint, Record, Solution};

use crate::order::solve_levels;
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
    let span = |tier_ordinal: usize| {
        let r = &index.tiers()[tier_ordinal].records;
        r.start as usize..r.end as usize
    };
    for level in levels {
        let mut todo = Vec::new();
        let mut finished = Vec::new();
        for tier in level {
            let ordinal = index
                .states()
                .tier_ordinal(tier)
                .expect("every composition is indexed");
            if checkpoint.load(tier, &mut records[span(ordinal)]) {
                finished.push((tier, ordinal, true));
            } else {
                todo.push((tier, ordinal));
            }
        }
        let solved: Vec<(Tier, usize, Vec<Record>)> = todo
            .into_par_iter()
            .map(|(tier, ordinal)| (tier, ordinal, solve_tier(rules, &index, &records, ordinal)))
            .collect();
        for (tier, ordinal, local) in &solved {
            records[span(*ordinal)].copy_from_slice(local);
            finished.push((*tier, *ordinal, false));
        }
        let saved: Vec<(Tier, &[Record])> = solved.iter().map(|(tier, _, l)| (*tier, l.as_slice())).collect();
        checkpoint.save(&saved)?;
        for (tier, ordinal, resumed) in finished {
            let solved = span(ordinal).len() as u64;
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
    Ok(Solution::from_index(rules, index, records))
}
