//! What a solve by [`crate::loop_free`] will take, worked out from the
//! game's tier sizes and a sample of its moves before anything large is
//! made, so that a solve the machine cannot hold is refused up front.

use topitop_game_api::{TierType, Tiered};

use crate::loopy::working_bytes;
use crate::schedule::Schedule;

/// Positions of the largest loopy tier whose moves are generated to
/// estimate how many stay inside it.
const SAMPLE: u64 = 4096;

/// Indices of every other tier looked at to estimate how many of its
/// indices are positions the solve keeps.
const TIER_SAMPLE: u64 = 256;

/// Bytes an index of a packed tier is taken to need: a bound well above
/// what zstd makes of solved records (Topple 3×3 with 12 pieces packs to
/// under a tenth of a byte an index), short of the two bytes of a record
/// that does not compress at all.
const PACKED_BYTES_PER_INDEX: f64 = 0.5;

/// Bytes an index costs in a tier held for lookups, besides two a
/// position: its bit in the bitmap of indices kept and its share of the
/// running counts ([`topitop_db::sparse`]).
const HELD_BYTES_PER_INDEX: f64 = 0.15;

/// Bytes an index of the tier being written to the database takes: the
/// tier's bytes read back from the store, then its records.
const WRITE_BYTES_PER_INDEX: f64 = 4.0;

/// Bytes the program takes before the first tier: its code, its threads
/// and their buffers (a solve of Topple 2×2 peaks at about 10 MB).
const BASE_BYTES: f64 = 16e6;

/// A solve's needs, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// Indices of every tier.
    pub indices: u64,
    /// How many tiers the game has (each is solved, and stored, apart).
    pub tiers: usize,
    /// Indices of the largest tier.
    pub largest: u64,
    /// Memory at the peak: the tiers held for lookups then (the one being
    /// solved, with its working arrays, and every solved tier an unsolved
    /// one still reads) and the packed others.
    pub memory: u64,
}

/// Estimates the solve of `game` (with `symmetric`, of one position a
/// symmetry class) by following its order of tiers: a tier is held for
/// lookups (two bytes a position it keeps, a fraction of a byte an index)
/// from when it is solved until its last parent is, then left to the
/// solve's store on disk, or with `packs` (a store that keeps nothing)
/// packed in memory (`PACKED_BYTES_PER_INDEX`); a loopy tier also needs
/// its positions' moves and its reverse graph while it is solved. The
/// share of each tier's indices that are positions is sampled, and so are
/// the moves that stay inside the largest loopy tier.
pub fn estimate<G: Tiered>(game: &G, symmetric: bool, packs: bool) -> Needs {
    let tiers = game.tiers();
    let size = |t: G::Tier| game.tier_size(t);
    let indices: u64 = tiers.iter().map(|&t| size(t)).sum();
    let largest = tiers.iter().map(|&t| size(t)).max().unwrap_or(0);
    let inside_per_position = inside_per_position(game, &tiers, symmetric);
    // A game with no loopy tier needs none of that.
    let working_of = |kept: f64| inside_per_position.map_or(0.0, |i| working_bytes(kept, kept * i));
    // Sampled once a tier: each share costs a few hundred unrankings.
    let shares: std::collections::HashMap<G::Tier, f64> = tiers
        .iter()
        .map(|&t| (t, kept_share(game, t, symmetric)))
        .collect();
    let positions = |t: G::Tier| size(t) as f64 * shares.get(&t).copied().unwrap_or(1.0);
    let held = |t: G::Tier| held_bytes(positions(t), size(t));
    // A cycle fails the solve itself; estimate as if every tier stayed.
    let Ok(mut schedule) = Schedule::new(game) else {
        let working = working_of(tiers.iter().map(|&t| positions(t)).fold(0.0, f64::max));
        let whole: f64 = tiers.iter().map(|&t| held(t)).sum();
        return Needs {
            indices,
            tiers: tiers.len(),
            largest,
            memory: (BASE_BYTES + whole + working) as u64,
        };
    };
    let (mut whole, mut packed, mut peak) = (0f64, 0f64, BASE_BYTES);
    let mut held_now = std::collections::HashMap::new();
    for t in schedule.order().to_vec() {
        let kept = positions(t);
        let working = if game.tier_type(t) == TierType::Loopy {
            working_of(kept) + HELD_BYTES_PER_INDEX * size(t) as f64
        } else {
            // Solved whole, two bytes an index, then made sparse.
            2.0 * size(t) as f64
        };
        let h = held(t);
        held_now.insert(t, h);
        whole += h;
        peak = peak.max(BASE_BYTES + whole + packed + working);
        for c in schedule.solved(t) {
            whole -= held_now.remove(&c).unwrap_or(0.0);
            if packs {
                packed += PACKED_BYTES_PER_INDEX * size(c) as f64;
            }
        }
    }
    // The database is written tier by tier, each read back whole from the
    // store (its bytes, then its records): four bytes an index.
    let write = BASE_BYTES + WRITE_BYTES_PER_INDEX * largest as f64;
    Needs {
        indices,
        tiers: tiers.len(),
        largest,
        memory: peak.max(write) as u64,
    }
}

/// Moves inside its tier a position has, sampled in the largest loopy
/// tier among `tiers`; `None` when none is loopy.
fn inside_per_position<G: Tiered>(game: &G, tiers: &[G::Tier], symmetric: bool) -> Option<f64> {
    tiers
        .iter()
        .filter(|&&t| game.tier_type(t) == TierType::Loopy)
        .max_by_key(|&&t| game.tier_size(t))
        .map(|&t| inside_moves(game, t, symmetric))
}

/// Bytes a tier of `size` indices, `positions` of them kept, takes held
/// for lookups: two a position, and [`HELD_BYTES_PER_INDEX`] an index.
fn held_bytes(positions: f64, size: u64) -> f64 {
    2.0 * positions + HELD_BYTES_PER_INDEX * size as f64
}

/// Indices spread evenly through `tier`, at most `n` of them.
fn spread_indices(size: u64, n: u64) -> impl Iterator<Item = u64> {
    let n = size.min(n);
    (0..n).map(move |k| (u128::from(k) * u128::from(size) / u128::from(n)) as u64)
}

/// The position at `i` of `tier`, if the solve keeps it.
fn kept<G: Tiered>(game: &G, tier: G::Tier, i: u64, symmetric: bool) -> Option<G::Position> {
    game.position(tier, i)
        .filter(|p| !symmetric || game.canonical(p) == *p)
}

/// The share of `tier`'s indices that name a position the solve keeps, on
/// a sample.
fn kept_share<G: Tiered>(game: &G, tier: G::Tier, symmetric: bool) -> f64 {
    let size = game.tier_size(tier);
    if size == 0 {
        return 0.0;
    }
    let n = size.min(TIER_SAMPLE);
    let k = spread_indices(size, n)
        .filter(|&i| kept(game, tier, i, symmetric).is_some())
        .count();
    // At least one position in a sample's worth of indices: a tier whose
    // sample found none may still hold a few.
    (k.max(1) as f64 / n as f64).min(1.0)
}

/// Moves a position of `tier` kept by the solve has that stay in it, on
/// average over a sample spread evenly through its indices.
fn inside_moves<G: Tiered>(game: &G, tier: G::Tier, symmetric: bool) -> f64 {
    let (mut inside, mut positions) = (0u64, 0u64);
    for i in spread_indices(game.tier_size(tier), SAMPLE) {
        if let Some(pos) = kept(game, tier, i, symmetric) {
            positions += 1;
            if game.primitive(&pos).is_none() {
                inside += game
                    .moves(&pos)
                    .into_iter()
                    .filter(|&mv| game.tier_of(&game.play(&pos, mv)) == tier)
                    .count() as u64;
            }
        }
    }
    inside as f64 / positions.max(1) as f64
}

/// Memory one process of a distributed solve needs at its peak, the
/// largest part it may be given: at most `unit` indices of a loop-free
/// tier (two bytes each) or a whole loopy tier with its working arrays,
/// and every child tier that part reads, held for lookups; or the rank
/// writing the database, a tier at a time. Sampled as [`estimate`] is.
pub fn per_process<G: Tiered>(game: &G, symmetric: bool, unit: u64) -> u64 {
    let tiers = game.tiers();
    let size = |t: G::Tier| game.tier_size(t);
    let inside_per_position = inside_per_position(game, &tiers, symmetric);
    let mut shares = std::collections::HashMap::new();
    let mut positions = |t: G::Tier| {
        let share = *shares.entry(t).or_insert_with(|| kept_share(game, t, symmetric));
        size(t) as f64 * share
    };
    let largest = tiers.iter().map(|&t| size(t)).max().unwrap_or(0);
    let mut peak = BASE_BYTES + WRITE_BYTES_PER_INDEX * largest as f64;
    let order = crate::loop_free::children_first(game).unwrap_or(tiers);
    for t in order {
        let working = if game.tier_type(t) == TierType::Loopy {
            let kept = positions(t);
            inside_per_position.map_or(0.0, |i| working_bytes(kept, kept * i))
                + HELD_BYTES_PER_INDEX * size(t) as f64
        } else {
            2.0 * size(t).min(unit.max(1)) as f64
        };
        let held: f64 = game
            .child_tiers(t)
            .into_iter()
            .map(|c| held_bytes(positions(c), size(c)))
            .sum();
        peak = peak.max(BASE_BYTES + held + working);
    }
    peak as u64
}
