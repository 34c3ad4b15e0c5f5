//! The end of a game, scored fast: groups found by flood fill on
//! bitboards, compared as the rules compare them
//! ([`games_topolo::groups`]), without allocating.

use games_topolo::{Shape, Variant};

/// Scores full boards of one shape and variant.
#[derive(Clone, Copy, Debug)]
pub struct Scorer {
    cols: u32,
    all: u64,
    not_first_col: u64,
    not_last_col: u64,
    full: bool,
}

/// A finished game's result for the player to move: 1 win, 0 tie, -1
/// loss.
pub type Result3 = i8;

impl Scorer {
    /// The scorer of `shape` under `variant`.
    pub fn new(shape: Shape, variant: Variant) -> Scorer {
        Scorer {
            cols: u32::from(shape.cols()),
            all: shape.all(),
            not_first_col: shape.not_first_col(),
            not_last_col: shape.not_last_col(),
            full: variant == Variant::Full,
        }
    }

    fn neighbours(&self, m: u64) -> u64 {
        ((m << self.cols)
            | (m >> self.cols)
            | ((m & self.not_last_col) << 1)
            | ((m & self.not_first_col) >> 1))
            & self.all
    }

    /// The groups of `cells`, each as size × 256 + height, into `out`;
    /// returns how many.
    fn groups(&self, cells: u64, mid: u64, large: u64, out: &mut [u32; 64]) -> usize {
        let mut left = cells;
        let mut n = 0;
        while left != 0 {
            let mut g = left & left.wrapping_neg();
            loop {
                let grown = (g | self.neighbours(g)) & cells;
                if grown == g {
                    break;
                }
                g = grown;
            }
            left &= !g;
            let size = g.count_ones();
            let height = size + (g & mid).count_ones() + 2 * (g & large).count_ones();
            out[n] = size << 8 | height;
            n += 1;
        }
        n
    }

    /// The result of the full board (`mine` the mover's cells, `theirs`
    /// the other's) for the mover.
    pub fn score(&self, mine: u64, theirs: u64, mid: u64, large: u64) -> Result3 {
        let (mut a, mut b) = ([0u32; 64], [0u32; 64]);
        let na = self.groups(mine, mid, large, &mut a);
        let nb = self.groups(theirs, mid, large, &mut b);
        if !self.full {
            let top = |g: &[u32]| g.iter().map(|&x| x >> 8).max().unwrap_or(0);
            return cmp3(top(&a[..na]), top(&b[..nb]));
        }
        a[..na].sort_unstable_by(|x, y| y.cmp(x));
        b[..nb].sort_unstable_by(|x, y| y.cmp(x));
        for k in 0..na.max(nb) {
            let (x, y) = (a[k], b[k]);
            if x != y {
                return cmp3(x, y);
            }
        }
        0
    }
}

fn cmp3(x: u32, y: u32) -> Result3 {
    match x.cmp(&y) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
    }
}
