//! Perft: counting move sequences and distinct positions by depth.

use std::collections::HashMap;

use crate::movegen::play_unchecked;
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;

/// The counts at one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftLevel {
    /// Plies from the start.
    pub depth: u32,
    /// Move sequences of exactly this length.
    pub paths: u64,
    /// Distinct positions (board, turn, forbidden slide) they end in.
    pub positions: u64,
}

/// Counts, for each depth 1..=`depth` from `root`, the move sequences and
/// the distinct positions they reach. A pass is a move; a primitive
/// position has no moves. Memory grows with the distinct positions of one
/// depth.
pub fn perft(rules: Rules, root: Position, depth: u32) -> Vec<PerftLevel> {
    let mut level: HashMap<Position, u64> = HashMap::from([(root, 1)]);
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for d in 1..=depth {
        let mut next: HashMap<Position, u64> = HashMap::with_capacity(level.len() * 8);
        for (&pos, &paths) in &level {
            if rules.primitive(pos).is_some() {
                continue;
            }
            rules.generate_gamesman_moves(pos, &mut list);
            for &m in list.iter() {
                *next.entry(play_unchecked(pos, m)).or_insert(0) += paths;
            }
        }
        out.push(PerftLevel {
            depth: d,
            paths: next.values().sum(),
            positions: next.len() as u64,
        });
        level = next;
    }
    out
}
