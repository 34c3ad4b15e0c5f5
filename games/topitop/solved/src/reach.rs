//! Which positions play reaches from the start: a forward pass, breadth
//! first, over symmetry classes. A position of play (any valid state the
//! index numbers) need not be reachable: `2_---------`, Red to move on an
//! empty board, is valid but no game comes to it.

use std::sync::atomic::{AtomicU64, Ordering};

use games_topitop_rules::{play_unchecked, symmetry, Position, Rules, StateIndex};
use rayon::prelude::*;

/// The canonical positions play reaches from the start, one bit per index
/// of the state index.
pub struct Reached {
    bits: Vec<u64>,
    count: u64,
}

impl Reached {
    /// True when play reaches `pos`'s symmetry class.
    pub fn contains(&self, index: &StateIndex, pos: Position) -> bool {
        self.contains_class(index, symmetry::canonical(pos))
    }

    /// True when play reaches `pos`, the canonical form of its class (as a
    /// database with symmetry stores it): [`Reached::contains`] without
    /// the canonical form worked out again.
    pub fn contains_class(&self, index: &StateIndex, pos: Position) -> bool {
        index
            .index(pos)
            .is_ok_and(|i| self.bits[(i / 64) as usize] >> (i % 64) & 1 == 1)
    }

    /// The number of symmetry classes reached.
    pub fn count(&self) -> u64 {
        self.count
    }
}

/// Walks every game from the start of `rules`, level by level on all
/// cores, marking each symmetry class it reaches.
pub fn reach(rules: Rules, index: &StateIndex) -> Reached {
    let bits: Vec<AtomicU64> = (0..index.len().div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    // True the first time `pos` (canonical) is marked.
    let mark = |pos: Position| -> bool {
        let Ok(i) = index.index(pos) else {
            return false;
        };
        let bit = 1u64 << (i % 64);
        bits[(i / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0
    };
    let start = symmetry::canonical(rules.start());
    mark(start);
    let mut count = 1u64;
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        frontier = frontier
            .par_iter()
            .fold(Vec::new, |mut next, &pos| {
                for &m in rules.legal_moves(pos).iter() {
                    let child = symmetry::canonical(play_unchecked(pos, m));
                    if mark(child) {
                        next.push(child);
                    }
                }
                next
            })
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
        count += frontier.len() as u64;
    }
    Reached {
        bits: bits.into_iter().map(AtomicU64::into_inner).collect(),
        count,
    }
}
