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

/// Positions a worker takes at a time.
const SHARE: usize = 1 << 10;

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

/// [`forward`] within [`MAX_POSITIONS`].
///
/// # Errors
/// Games come to more positions: what to say, that every position of
/// play is then taken as reachable (an upper bound).
pub fn search<G: Game>(game: &G) -> Result<Reached<G::Position>, String> {
    forward(game, MAX_POSITIONS).ok_or_else(|| {
        format!(
            "games of {} {} come to more than {MAX_POSITIONS} positions, too many to search for \
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
        let children: Vec<G::Position> = topitop_par::map_ranges(frontier.len(), SHARE, |r| {
            let mut children = Vec::new();
            for p in &frontier[r] {
                // A game ends at a primitive position: nothing is played on.
                if game.primitive(p).is_none() {
                    children.extend(game.moves(p).into_iter().map(|m| game.play(p, m)));
                }
            }
            children
        })
        .concat();
        frontier = children.into_iter().filter(|c| seen.insert(*c)).collect();
        if seen.len() > limit {
            return None;
        }
    }
    Some(Reached { seen })
}
