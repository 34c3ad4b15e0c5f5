//! The positions games reach from the start, found by a search forward
//! from it: for a game whose positions of play are not all reached and
//! that does not answer [`Game::reachable`] itself (Topple, whose classes
//! also hold reserves no game comes to), so that `stats`, `query`,
//! `export` and the server tell the truth.
//!
//! [`Game::reachable`]: topitop_game_api::Game::reachable

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use topitop_game_api::Game;

use crate::quick_hash::QuickHasher;

/// The most positions a search keeps (about 1.5 GB for a position of 16
/// bytes): beyond it, reachability is not worked out.
pub const MAX_POSITIONS: usize = 1 << 26;

/// The most bytes of positions a search keeps: a game of large positions
/// (Topple's are 88 bytes) keeps fewer than [`MAX_POSITIONS`], since its
/// hash set takes about twice that at its peak, as it grows.
pub const MAX_KEPT_BYTES: usize = 2 << 30;

/// The most positions of `P` a search keeps: [`MAX_POSITIONS`], or fewer
/// for a position so large that they would pass [`MAX_KEPT_BYTES`].
pub fn max_kept<P>() -> usize {
    MAX_POSITIONS.min(MAX_KEPT_BYTES / std::mem::size_of::<P>().max(1))
}

/// Positions a worker takes at a time.
const SHARE: usize = 1 << 10;

/// Positions of a depth whose children are gathered before the limit is
/// checked: their children (a few million) bound the memory beside what
/// is kept.
const BATCH: usize = SHARE << 6;

/// Every position some game from the start comes to.
pub struct Reached<P> {
    seen: HashSet<P, BuildHasherDefault<QuickHasher>>,
}

impl<P: Eq + std::hash::Hash> Reached<P> {
    /// Whether some game from the start comes to `pos`.
    pub fn contains(&self, pos: &P) -> bool {
        self.seen.contains(pos)
    }

    /// The positions reached.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// True when not even the start is (never, for a search made).
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// The symmetry classes of `game` the positions reached fall in.
    pub fn classes<G: Game<Position = P>>(&self, game: &G) -> usize
    where
        P: Send + Sync + Copy,
    {
        // A batch at a time: a copy of the whole set would double it.
        let mut canonical: HashSet<P, BuildHasherDefault<QuickHasher>> = HashSet::default();
        let mut seen = self.seen.iter();
        let mut batch: Vec<P> = Vec::with_capacity(SHARE * 64);
        loop {
            batch.clear();
            batch.extend(seen.by_ref().take(SHARE * 64).copied());
            if batch.is_empty() {
                break;
            }
            let parts = topitop_par::map_ranges(batch.len(), SHARE, |r| {
                batch[r].iter().map(|p| game.canonical(p)).collect::<Vec<P>>()
            });
            canonical.extend(parts.into_iter().flatten());
        }
        canonical.len()
    }
}

/// [`forward`] within [`max_kept`] positions.
///
/// # Errors
/// Games come to more positions: what to say, that every position of
/// play is then taken as reachable (an upper bound).
pub fn search<G: Game>(game: &G) -> Result<Reached<G::Position>, String> {
    let limit = max_kept::<G::Position>();
    forward(game, limit).ok_or_else(|| {
        format!(
            "games of {} {} come to more than {limit} positions, too many to search for \
             which ones: every position of play is taken as reachable (an upper bound)",
            game.name(),
            game.variant(),
        )
    })
}

/// Plays every move from the start, depth by depth (each depth's moves on
/// every core), keeping each position reached; none once more than
/// `limit` positions are (the caller says so rather than guess).
pub fn forward<G: Game>(game: &G, limit: usize) -> Option<Reached<G::Position>> {
    let mut seen: HashSet<G::Position, BuildHasherDefault<QuickHasher>> = HashSet::default();
    seen.insert(game.start());
    let mut frontier = vec![game.start()];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        // A depth a batch at a time, the limit checked after each: a whole
        // depth's children at once took Topple 3x3 s12's `stats` past 24
        // GB before the check could stop it.
        for batch in frontier.chunks(BATCH) {
            let children: Vec<G::Position> = topitop_par::map_ranges(batch.len(), SHARE, |r| {
                let mut children = Vec::new();
                for p in &batch[r] {
                    // A game ends at a primitive position: nothing is played on.
                    if game.primitive(p).is_none() {
                        children.extend(game.moves(p).into_iter().map(|m| game.play(p, m)));
                    }
                }
                children
            })
            .concat();
            next.extend(children.into_iter().filter(|c| seen.insert(*c)));
            if seen.len() > limit {
                return None;
            }
        }
        frontier = next;
    }
    Some(Reached { seen })
}

#[cfg(test)]
mod limits {
    use super::*;

    #[test]
    fn a_large_position_keeps_fewer_positions() {
        assert_eq!(max_kept::<u64>(), MAX_POSITIONS);
        assert_eq!(max_kept::<[u8; 88]>(), MAX_KEPT_BYTES / 88);
        assert!(max_kept::<[u8; 88]>() < MAX_POSITIONS);
    }
}
