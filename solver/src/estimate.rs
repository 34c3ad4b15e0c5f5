//! What a solve by [`crate::loop_free`] will take, worked out from the
//! game's tier sizes and a sample of its moves before anything large is
//! made, so that a solve the machine cannot hold is refused up front.

use topitop_game_api::{TierType, Tiered};

use crate::loopy::WORKING_BYTES_PER_INDEX;

/// Positions of the largest loopy tier whose moves are generated to
/// estimate how many stay inside it.
const SAMPLE: u64 = 4096;

/// A solve's needs, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// Indices of every tier.
    pub indices: u64,
    /// How many tiers the game has (each is solved, and stored, apart).
    pub tiers: usize,
    /// Indices of the largest tier.
    pub largest: u64,
    /// Memory at the peak: every solved tier's records (kept until the
    /// database is written) and the working arrays of the largest tier.
    pub memory: u64,
}

/// Estimates the solve of `game`: each tier's records take two bytes an
/// index and stay in memory to the end; a loopy tier also needs its
/// positions' moves and its reverse graph while it is solved, sized from
/// the moves of a sample of its positions.
pub fn estimate<G: Tiered>(game: &G) -> Needs {
    let tiers = game.tiers();
    let indices: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
    let largest = tiers.iter().map(|&t| game.tier_size(t)).max().unwrap_or(0);
    let working = tiers
        .iter()
        .filter(|&&t| game.tier_type(t) == TierType::Loopy)
        .max_by_key(|&&t| game.tier_size(t))
        .map_or(0, |&t| {
            let size = game.tier_size(t);
            let per_index = WORKING_BYTES_PER_INDEX as f64 + 8.0 * inside_moves(game, t);
            (size as f64 * per_index) as u64
        });
    Needs {
        indices,
        tiers: tiers.len(),
        largest,
        memory: indices.saturating_mul(2).saturating_add(working),
    }
}

/// Moves a position of `tier` has that stay in it, on average over a
/// sample spread evenly through its indices (an index that names no
/// position counts none).
fn inside_moves<G: Tiered>(game: &G, tier: G::Tier) -> f64 {
    let size = game.tier_size(tier);
    let n = size.min(SAMPLE);
    if n == 0 {
        return 0.0;
    }
    let mut inside = 0u64;
    for k in 0..n {
        let i = (u128::from(k) * u128::from(size) / u128::from(n)) as u64;
        if let Some(pos) = game.position(tier, i) {
            if game.primitive(&pos).is_none() {
                inside += game
                    .moves(&pos)
                    .into_iter()
                    .filter(|&mv| game.tier_of(&game.play(&pos, mv)) == tier)
                    .count() as u64;
            }
        }
    }
    inside as f64 / n as f64
}
