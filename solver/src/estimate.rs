//! What a solve by [`crate::loop_free`] will take, worked out from the
//! game's tier sizes and a sample of its moves before anything large is
//! made, so that a solve the machine cannot hold is refused up front.

use topitop_game_api::{TierType, Tiered};

use crate::schedule::Schedule;

use crate::loopy::WORKING_BYTES_PER_INDEX;

/// Positions of the largest loopy tier whose moves are generated to
/// estimate how many stay inside it.
const SAMPLE: u64 = 4096;

/// Bytes an index of a packed tier is taken to need: a bound well above
/// what zstd makes of solved records (Topple 3×3 with 12 pieces packs to
/// under a tenth of a byte an index), short of the two bytes of a record
/// that does not compress at all.
const PACKED_BYTES_PER_INDEX: f64 = 0.5;

/// A solve's needs, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// Indices of every tier.
    pub indices: u64,
    /// How many tiers the game has (each is solved, and stored, apart).
    pub tiers: usize,
    /// Indices of the largest tier.
    pub largest: u64,
    /// Memory at the peak: the tiers held whole then (the one being
    /// solved, with its working arrays, and every solved tier an unsolved
    /// one still reads) and the packed others.
    pub memory: u64,
}

/// Estimates the solve of `game` by following its order of tiers: a tier
/// is held whole, two bytes an index, from when it is solved until its
/// last parent is, then packed ([`PACKED_BYTES_PER_INDEX`]); a loopy tier
/// also needs its positions' moves and its reverse graph while it is
/// solved, sized from the moves of a sample of the largest one's
/// positions.
pub fn estimate<G: Tiered>(game: &G) -> Needs {
    let tiers = game.tiers();
    let size = |t: G::Tier| game.tier_size(t);
    let indices: u64 = tiers.iter().map(|&t| size(t)).sum();
    let largest = tiers.iter().map(|&t| size(t)).max().unwrap_or(0);
    let per_index = tiers
        .iter()
        .filter(|&&t| game.tier_type(t) == TierType::Loopy)
        .max_by_key(|&&t| size(t))
        .map_or(0.0, |&t| {
            WORKING_BYTES_PER_INDEX as f64 + 8.0 * inside_moves(game, t)
        });
    // A cycle fails the solve itself; estimate as if every tier stayed.
    let Ok(mut schedule) = Schedule::new(game) else {
        let working = (largest as f64 * per_index) as u64;
        return Needs {
            indices,
            tiers: tiers.len(),
            largest,
            memory: indices.saturating_mul(2).saturating_add(working),
        };
    };
    let (mut whole, mut packed, mut peak) = (0f64, 0f64, 0f64);
    for t in schedule.order().to_vec() {
        let n = size(t) as f64;
        let working = if game.tier_type(t) == TierType::Loopy {
            n * per_index
        } else {
            0.0
        };
        whole += 2.0 * n;
        peak = peak.max(whole + packed + working);
        for c in schedule.solved(t) {
            let m = size(c) as f64;
            whole -= 2.0 * m;
            packed += PACKED_BYTES_PER_INDEX * m;
        }
    }
    Needs {
        indices,
        tiers: tiers.len(),
        largest,
        memory: peak as u64,
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
