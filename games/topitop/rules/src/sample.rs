//! Reproducible pseudo-random choices for benchmarks, tests and sampling.

use crate::movegen::play_unchecked;
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;

/// SplitMix64: a tiny seeded generator. Not for cryptography; its point is
/// that a seed always gives the same sequence on every machine.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator started at `seed`.
    pub const fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0); the tiny bias is irrelevant here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// `count` positions met along random play-outs from the start, restarting
/// at primitives and, with probability 1/`restart`, at random.
pub fn playout_positions(rules: Rules, count: usize, restart: u64, rng: &mut SplitMix) -> Vec<Position> {
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
        pos = play_unchecked(pos, list[rng.below(list.len() as u64) as usize]);
    }
    out
}
