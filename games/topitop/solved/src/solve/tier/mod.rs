//! Solving one tier, given every child tier solved.
//!
//! The positions of one board and side to move (a *half* of its group)
//! have the same moves except that each forbidden slide removes one, and
//! that slide keeps the composition, so its child is in this tier. The
//! [first pass](first_pass) therefore generates moves and looks children
//! up once per half; what lower tiers say holds for the whole half, and
//! in-tier edges are kept per half with the one position they skip. The
//! edges, grouped by child, become [parent rows](parents), from which the
//! values [settle](settle) retrograde.

mod first_pass;
mod half;
mod parents;
mod settle;

use games_topitop_rules::Rules;
use games_topitop_table::{GroupIndex, Record};
use rayon::prelude::*;

use first_pass::first_pass;
use half::Half;
use parents::ParentRows;
use settle::Settle;

/// Solves the tier at `tier_ordinal` in the index's tier list under each
/// of `rules` (which share their moves and budget), given in `records`,
/// per ruleset, every lower tier solved; returns the tier's records per
/// ruleset. The first pass and the parent rows are built once for all.
pub(crate) fn solve_tier(
    rules: &[Rules],
    groups: &GroupIndex,
    records: &[&[Record]],
    tier_ordinal: usize,
) -> Vec<Vec<Record>> {
    let tier = &groups.tiers()[tier_ordinal];
    let len = (tier.records.end - tier.records.start) as usize;
    let mut first = first_pass(rules, groups, tier);
    // Two sets of rows at most: with the passes, for the rulesets where a
    // stuck side passes, and without.
    let rows = |with: bool| {
        rules
            .iter()
            .any(|r| r.stuck_value().is_none() == with)
            .then(|| ParentRows::new(len, first.edges(with)))
    };
    let (with_passes, without_passes) = (rows(true), rows(false));
    first.drop_edges();
    rules
        .par_iter()
        .zip(records)
        .map(|(&rules, &records)| {
            let halves: Vec<Half> = first
                .halves()
                .map(|(h, children)| Half::new(h, rules, children.iter().map(|&j| records[j as usize])))
                .collect();
            let parents = match rules.stuck_value() {
                None => with_passes.as_ref(),
                Some(_) => without_passes.as_ref(),
            }
            .expect("rows were built for every ruleset");
            Settle::new(halves, parents, len, rules.stuck_value()).run()
        })
        .collect()
}
