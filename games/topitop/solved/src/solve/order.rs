//! The order in which tiers are solved: every child tier before its parents.

use games_topitop_rules::{Budget, Tier};

/// Pieces on the board and structures (filled cells) of a tier.
fn progress(t: Tier) -> (u32, u32) {
    let c = t.counts();
    let pieces: u32 = (1..10)
        .map(|code| {
            let p = games_topitop_rules::Cell::from_code(code as u8).map_or([0; 4], |c| c.pieces());
            p.iter().map(|&x| x as u32).sum::<u32>() * c[code] as u32
        })
        .sum();
    (pieces, t.filled() as u32)
}

/// The compositions of `budget` in solving order. A move either places a
/// piece (more pieces on the board) or stacks two structures (same pieces,
/// one cell fewer), so sorting by pieces descending, then filled cells
/// ascending, puts every child tier first.
pub fn solve_order(budget: Budget) -> Vec<Tier> {
    solve_levels(budget).into_iter().flatten().collect()
}

/// The compositions of `budget` in levels: tiers of one level (same pieces,
/// same filled cells) never lead to each other, so they can be solved side
/// by side, and every child tier of a level lies in an earlier level.
pub fn solve_levels(budget: Budget) -> Vec<Vec<Tier>> {
    let mut tiers = Tier::all(budget);
    let key = |t: Tier| {
        let (pieces, filled) = progress(t);
        (std::cmp::Reverse(pieces), filled)
    };
    tiers.sort_by_key(|&t| (key(t), t.number()));
    tiers
        .chunk_by(|&a, &b| key(a) == key(b))
        .map(<[Tier]>::to_vec)
        .collect()
}
