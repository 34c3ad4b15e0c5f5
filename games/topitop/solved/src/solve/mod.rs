//! Topitop's strong retrograde solver: the value (win, lose, tie, draw)
//! and remoteness of every position, with GamesmanClassic's conventions.
//!
//! Tiers (piece compositions) are solved children first. Inside a tier,
//! where positions repeat, the solver counts each position's undecided
//! children, seeds frontiers from primitives and from already solved child
//! tiers, and settles wins and losses level by level in increasing
//! remoteness, then ties the same way; what is left is a draw. The game
//! interface leaves a game its own solver: this is Topitop's, for loopy
//! tiers, kept as fast as it was.

use std::sync::Arc;

use games_topitop_rules::{Rules, Tier};
use games_topitop_table::{Checkpoint, GroupIndex, NoCheckpoint, Record, Solution};
use rayon::prelude::*;

use order::solve_levels;
use tier::solve_tier;

pub mod memory;
pub mod order;
mod tier;

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

/// A tier solved for some rulesets: the tier, its ordinal, the rulesets'
/// places and their records.
type SolvedTier = (Tier, usize, Vec<usize>, Vec<Vec<Record>>);

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
    let mut solutions = solve_together(&[rules], options, &mut [checkpoint], |_, p| progress(p))?;
    Ok(solutions.pop().expect("one solution per ruleset"))
}

/// A tier to solve: its ordinal, and the rulesets that lack it.
type Todo = (Tier, usize, Vec<usize>);
/// A tier done for a ruleset: the ruleset, the tier, its ordinal, and
/// whether it was loaded from a checkpoint.
type Finished = (usize, Tier, usize, bool);

/// The records' range of the tier with ordinal `tier_ordinal`.
fn span(index: &GroupIndex, tier_ordinal: usize) -> std::ops::Range<usize> {
    let r = &index.tiers()[tier_ordinal].records;
    r.start as usize..r.end as usize
}

/// A level's tiers, each loaded from the checkpoint of every ruleset that
/// kept it. Returns the tiers still to solve, each with the rulesets that
/// lack it, and those loaded as `(ruleset, tier, ordinal, true)`.
fn resume(
    level: &[Tier],
    index: &GroupIndex,
    checkpoints: &mut [&mut dyn Checkpoint],
    records: &mut [Vec<Record>],
) -> (Vec<Todo>, Vec<Finished>) {
    let mut todo = Vec::new();
    let mut finished = Vec::new();
    for &tier in level {
        let ordinal = index
            .states()
            .tier_ordinal(tier)
            .expect("every composition is indexed");
        let mut missing = Vec::new();
        for (k, checkpoint) in checkpoints.iter_mut().enumerate() {
            if checkpoint.load(tier, &mut records[k][span(index, ordinal)]) {
                finished.push((k, tier, ordinal, true));
            } else {
                missing.push(k);
            }
        }
        if !missing.is_empty() {
            todo.push((tier, ordinal, missing));
        }
    }
    (todo, finished)
}

/// Hands one ruleset's `unsaved` tiers to its checkpoint.
fn save(
    index: &GroupIndex,
    checkpoint: &mut dyn Checkpoint,
    unsaved: &mut Vec<(Tier, usize)>,
    records: &[Record],
) -> std::io::Result<()> {
    let saved: Vec<(Tier, &[Record])> = unsaved
        .iter()
        .map(|&(tier, ordinal)| (tier, &records[span(index, ordinal)]))
        .collect();
    checkpoint.save(&saved)?;
    unsaved.clear();
    Ok(())
}

/// Solves every position of each of `rules` (one budget, so one numbering
/// of positions), each with its own checkpoint, calling `progress` with
/// the ruleset's place in `rules` after each of its tiers.
///
/// The rulesets of the game differ only in primitives, what a stuck side
/// gets and misère, never in moves: each tier's moves are generated and
/// its children looked up once for all of them, and only the settling is
/// done per ruleset. A tier some checkpoints hold is solved only for the
/// others.
///
/// # Errors
/// Saving a checkpoint failed.
///
/// # Panics
/// The rulesets have different budgets, or `checkpoints` does not have one
/// per ruleset.
pub fn solve_together(
    rules: &[Rules],
    options: SolveOptions,
    checkpoints: &mut [&mut dyn Checkpoint],
    mut progress: impl FnMut(usize, Progress),
) -> std::io::Result<Vec<Solution>> {
    assert_eq!(rules.len(), checkpoints.len(), "one checkpoint per ruleset");
    let Some(first) = rules.first() else {
        return Ok(Vec::new());
    };
    let budget = first.budget();
    assert!(
        rules.iter().all(|r| r.budget() == budget),
        "rulesets solved together share a budget"
    );
    let index = Arc::new(GroupIndex::new(budget, options.symmetric));
    let mut records = vec![vec![Record::UNSOLVED; index.len() as usize]; rules.len()];
    let levels = solve_levels(budget);
    let tiers_total = levels.iter().map(Vec::len).sum();
    let mut tiers_done = vec![0; rules.len()];
    let mut positions_done = vec![0; rules.len()];
    // Per ruleset: tiers solved but not yet handed to its checkpoint.
    let mut unsaved: Vec<Vec<(Tier, usize)>> = vec![Vec::new(); rules.len()];
    let span = |tier_ordinal: usize| span(&index, tier_ordinal);
    for level in levels {
        let (todo, mut finished) = resume(&level, &index, checkpoints, &mut records);
        let solved: Vec<SolvedTier> = {
            let records: Vec<&[Record]> = records.iter().map(Vec::as_slice).collect();
            todo.into_par_iter()
                .map(|(tier, ordinal, missing)| {
                    let which: Vec<Rules> = missing.iter().map(|&k| rules[k]).collect();
                    let lower: Vec<&[Record]> = missing.iter().map(|&k| records[k]).collect();
                    let local = solve_tier(&which, &index, &lower, ordinal);
                    (tier, ordinal, missing, local)
                })
                .collect()
        };
        for (tier, ordinal, missing, locals) in &solved {
            for (&k, local) in missing.iter().zip(locals) {
                records[k][span(*ordinal)].copy_from_slice(local);
                finished.push((k, *tier, *ordinal, false));
            }
        }
        for (k, checkpoint) in checkpoints.iter_mut().enumerate() {
            unsaved[k].extend(
                solved
                    .iter()
                    .filter(|(_, _, missing, _)| missing.contains(&k))
                    .map(|&(tier, ordinal, _, _)| (tier, ordinal)),
            );
            if checkpoint.due() && !unsaved[k].is_empty() {
                save(&index, &mut **checkpoint, &mut unsaved[k], &records[k])?;
            }
        }
        for (k, tier, ordinal, resumed) in finished {
            let solved = span(ordinal).len() as u64;
            tiers_done[k] += 1;
            positions_done[k] += solved;
            progress(
                k,
                Progress {
                    tiers_done: tiers_done[k],
                    tiers_total,
                    tier,
                    solved,
                    positions_done: positions_done[k],
                    positions_total: index.len(),
                    resumed,
                },
            );
        }
    }
    for checkpoint in checkpoints.iter_mut() {
        checkpoint.flush()?;
    }
    Ok(rules
        .iter()
        .zip(records)
        .map(|(&r, records)| Solution::from_index(r, Arc::clone(&index), records))
        .collect())
}
