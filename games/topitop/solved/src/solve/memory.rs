//! What a solve will cost in memory, known before it starts.

use games_topitop_rules::{Budget, StateIndex};

/// The peak memory, in bytes, a solve of `budget` on `threads` worker
/// threads, of `rulesets` rulesets together, is expected to need: the
/// records (2 bytes per kept position and ruleset; checkpoints are written
/// straight from them), the group index (board, first record and rank bits
/// per kept board, and the survey that builds it) and the working set of
/// the largest tiers solved side by side, with a margin. Computed from counts alone, before
/// anything large is allocated, so that a budget the machine cannot hold
/// is refused at once.
pub fn estimate_memory(budget: Budget, symmetric: bool, threads: usize, rulesets: usize) -> u64 {
    let states = StateIndex::new(budget);
    let share = if symmetric { 8 } else { 1 };
    let records = states.len() / share;
    let boards = states.boards() / share;
    let largest_tier = states.tiers().iter().map(|t| t.len()).max().unwrap_or(0) / share;
    // Per record of a tier being solved: its edges (8 bytes per move, about
    // a dozen moves), parents (4 bytes each), counters and local records.
    let working = largest_tier * 160 * threads.max(1) as u64;
    let rulesets = rulesets.max(1) as u64;
    // Each ruleset solved together settles with its own working set.
    records * 2 * rulesets + boards * 32 + working * rulesets.min(2) + (64 << 20)
}

/// Estimated bytes of disk a solve of `rulesets` rulesets of `budget`
/// needs in its output folder at its peak: the checkpoints (two bytes a
/// record, kept until the databases are written) and the databases (a
/// tenth of that at most: docs/benchmarks.md has the standard game's,
/// far smaller).
pub fn estimate_disk(budget: Budget, symmetric: bool, rulesets: usize) -> u64 {
    let share = if symmetric { 8 } else { 1 };
    let records = StateIndex::new(budget).len() / share;
    (records * 2 + records / 5) * rulesets.max(1) as u64 + (1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn larger_budgets_and_no_symmetry_cost_more() {
        let small = estimate_memory("2/2/2/2".parse().unwrap(), true, 2, 1);
        let standard = estimate_memory(Budget::STANDARD, true, 2, 1);
        let plain = estimate_memory(Budget::STANDARD, false, 2, 1);
        let huge = estimate_memory("9/9/9/9".parse().unwrap(), true, 2, 1);
        let nine = estimate_memory(Budget::STANDARD, true, 2, 9);
        assert!(small < standard && standard < plain && standard < huge);
        assert!(standard + 8 * 80_000_000 < nine, "{standard} {nine}");
        // The standard solve's peak (docs/benchmarks.md) lies in this range:
        // the estimate covers it without refusing machines that can hold it.
        assert!((250 << 20..600 << 20).contains(&standard), "{standard}");
    }
}
