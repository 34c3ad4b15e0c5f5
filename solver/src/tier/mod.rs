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

use topitop_game::Rules;
use topitop_table::{GroupIndex, Record};

use first_pass::{first_pass, FirstPass};
use parents::ParentRows;
use settle::Settle;

/// Solves the tier at `tier_ordinal` in the index's tier list and returns
/// its records, given `records` with every lower tier solved.
pub(crate) fn solve_tier(
    rules: Rules,
    groups: &GroupIndex,
    records: &[Record],
    tier_ordinal: usize,
) -> Vec<Record> {
    let tier = &groups.tiers()[tier_ordinal];
    let len = (tier.records.end - tier.records.start) as usize;
    let FirstPass { halves, edges } = first_pass(rules, groups, records, tier);
    let parents = ParentRows::new(len, &edges);
    drop(edges);
    Settle::new(&halves, parents, len, rules.stuck_value()).run()
}
