//! Whether play from the start comes to a position: a backward search over
//! its ancestors, for one position at a time (the forward pass over the
//! whole game, for all positions at once, is in `games-topitop-solved`).
//!
//! Pieces never leave the board, so every ancestor of a position has at
//! most its pieces, and the search takes the ancestors with the fewest
//! pieces first: for a reachable position it walks down to the empty
//! board in a few steps. Every ancestor of an unreachable position is
//! unreachable too, so for one of those the search ends after visiting
//! unreachable classes only, of which the standard game has 4,208.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use crate::position::Position;
use crate::rules::Rules;
use crate::symmetry;

impl Rules {
    /// True when some game played from [`Rules::start`] comes to `pos`'s
    /// symmetry class. Only a position of play ([`Position::is_valid`])
    /// can be, and not every one is: `2_---------`, Red to move on an
    /// empty board, is not.
    pub fn is_reachable(self, pos: Position) -> bool {
        if !pos.is_valid(self.budget()) {
            return false;
        }
        let start = symmetry::canonical(self.start());
        let target = symmetry::canonical(pos);
        if target == start {
            return true;
        }
        let pieces = |p: Position| p.board().pieces_used().iter().map(|&n| u32::from(n)).sum::<u32>();
        let mut seen = HashSet::from([target]);
        let mut queue = BinaryHeap::from([Reverse((pieces(target), target))]);
        let mut parents = Vec::new();
        while let Some(Reverse((_, p))) = queue.pop() {
            self.parents(p, &mut parents);
            for &q in &parents {
                let q = symmetry::canonical(q);
                if q == start {
                    return true;
                }
                if seen.insert(q) {
                    queue.push(Reverse((pieces(q), q)));
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse_position, Budget, Rules, Ruleset, Variant};

    #[test]
    fn positions_no_game_comes_to_are_told_from_those_one_does() {
        let rules = Rules::new(Ruleset::V1(Variant::DEFAULT));
        let at = |s: &str| rules.is_reachable(parse_position(s, Budget::STANDARD).unwrap());
        assert!(at("1_---------"));
        assert!(at("2_--B------"));
        assert!(at("1_--B-----R"));
        assert!(!at("2_---------"));
        assert!(!at("1_--------R"));
    }
}
