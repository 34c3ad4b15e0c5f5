//! Reproducible pseudo-random choices for benchmarks, tests and sampling.

use crate::movegen::play_unchecked;
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;

/// The generator [`playout_positions`] draws from, re-exported for its
/// callers.
pub use topitop_game_api::rng::Rng;

/// `count` positions met along random play-outs from the start, restarting
/// at primitives and, with probability 1/`restart`, at random.
pub fn playout_positions(rules: Rules, count: usize, restart: u64, rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::with_capacity(count);
    let mut pos = rules.start();
    let mut list = MoveList::new();
    while out.len() < count {
        if rules.primitive(pos).is_some() {
            out.push(pos);
            pos = rules.start();
            continue;
        }
        if rng.below(restart.max(1)) == 0 {
            pos = rules.start();
        }
        out.push(pos);
        rules.generate_gamesman_moves(pos, &mut list);
        pos = play_unchecked(pos, list[rng.index(list.len())]);
    }
    out
}
