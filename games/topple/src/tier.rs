//! Tiers and the index of a position inside its tier, for solving.
//!
//! **Tiers.** A tier is (supply left, Red's and Blue's pawns on the board,
//! Red's and Blue's reserves). A placement or topple takes a piece from
//! the supply, and a take removes a pawn without touching the supply, so
//! every move leads to a tier with less supply, or as much supply and
//! fewer pawns on the board: the tier graph has no cycle. The only moves
//! that stay in a tier are pawn steps that cause no take (a step changes
//! no height, so it cannot cause a reset): tiers are loopy.
//!
//! **The reserve symmetry.** A player makes at most one new pawn per piece
//! placed, so a reserve at least as large as the supply left never runs
//! out: reserves r and r′ both ≥ the supply play alike. The tier names
//! such a reserve by its canonical value, the largest the pawns on the
//! board allow (min(7, 8 − pawns)); [`Topple::fold_reserves`] maps a
//! position to it and [`Topple::reserve_images`] lists its class, which
//! share one index. This cuts 3×3 with ten pieces from 2.7 billion indices
//! to 147 million. The board's symmetries ([`crate::symmetry`]) then leave
//! one index of a class in use when solving: [`Topple::canonical`].
//!
//! **The index.** Inside a tier the index is `2·rank + turn` (turn 0 for
//! Red), where `rank` numbers the boards: each cell is a state (height h,
//! pawn none, Red or Blue, a pawn only when h ≥ 1), the board a sequence
//! of N states in cell order with exactly the tier's pawns of each colour
//! and heights summing to at most P, the pieces placed so far (the supply
//! at the start less the tier's). Sequences are ranked in lexicographic
//! order of (h, pawn) cell by cell; the count of completions of a prefix
//! has a closed form, so ranking takes a few table look-ups a cell. For k
//! cells, budget b, r Red and u Blue pawns it is
//! `C(k, r)·C(k − r, u)·C(b − r − u + k, k)`: place the pawns, give each
//! pawn cell its first piece, spread at most the rest freely. Indices whose
//! board is no position of play (a reset or take pending, the wrong
//! player to move in a first move, too many pawns made for the pieces
//! placed) are unused.

use std::collections::BTreeSet;

use crate::position::{Color, Phase, Position, PAWNS};
use crate::rules::Topple;

/// A tier: supply left, pawns on the board and (canonical) reserves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tier {
    /// Pieces left to place.
    pub supply: u8,
    /// Pawns on the board, Red's first.
    pub pawns: [u8; 2],
    /// Pawns in reserve, Red's first, canonical (see the module's docs).
    pub reserve: [u8; 2],
}

impl Tier {
    /// `s7-r2.1-b1.0`: supply, then each player's pawns on the board and
    /// in reserve.
    pub fn name(self) -> String {
        format!(
            "s{}-r{}.{}-b{}.{}",
            self.supply, self.pawns[0], self.reserve[0], self.pawns[1], self.reserve[1]
        )
    }
}

/// The largest index a tier may have for the board to be indexed.
const MAX_TIER_SIZE: u64 = 1 << 62;

/// The largest n of the binomial table: a supply of 255 plus 64 cells and
/// the one more the sums take.
const BINOM_N: usize = 322;
/// The largest k of the binomial table.
const BINOM_K: usize = 66;

/// Binomial coefficients C(n, k), saturating at `u64::MAX`.
static BINOM: [[u64; BINOM_K]; BINOM_N] = binomials();

/// Pascal's triangle, built at compile time.
const fn binomials() -> [[u64; BINOM_K]; BINOM_N] {
    let mut t = [[0u64; BINOM_K]; BINOM_N];
    let mut n = 0;
    while n < BINOM_N {
        t[n][0] = 1;
        let mut k = 1;
        while k < BINOM_K && k <= n {
            t[n][k] = t[n - 1][k - 1].saturating_add(t[n - 1][k]);
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k); 0 when n < 0 or k > n.
#[inline]
fn binom(n: i64, k: i64) -> u64 {
    if n < 0 || k < 0 || k > n {
        return 0;
    }
    BINOM[n as usize][k as usize]
}

/// The k-tuples of heights ≥ 0 summing to at most m.
#[inline]
fn spread(k: i64, m: i64) -> u64 {
    if m < 0 {
        0
    } else {
        binom(m + k, k)
    }
}

/// The boards of k cells with heights summing to at most b, r Red and u
/// Blue pawns (each on a stack).
#[inline]
fn boards(k: i64, b: i64, r: i64, u: i64) -> u64 {
    if r < 0 || u < 0 {
        return 0;
    }
    binom(k, r)
        .saturating_mul(binom(k - r, u))
        .saturating_mul(spread(k, b - r - u))
}

/// The ways to place r Red and u Blue pawns on k cells.
#[inline]
fn pawn_places(k: i64, r: i64, u: i64) -> u64 {
    if r < 0 || u < 0 {
        return 0;
    }
    binom(k, r).saturating_mul(binom(k - r, u))
}

/// The boards of k cells summing with this cell's height to at most b, for
/// this cell's heights lo..hi (and r, u pawns left for the k cells):
/// Σ boards(k, b − j, r, u) by the hockey-stick identity.
#[cfg(test)]
fn boards_for_heights(k: i64, b: i64, r: i64, u: i64, lo: i64, hi: i64) -> u64 {
    if lo >= hi || r < 0 || u < 0 {
        return 0;
    }
    let m = b - r - u;
    let sum = spread(k + 1, m - lo) - spread(k + 1, m - hi);
    binom(k, r).saturating_mul(binom(k - r, u)).saturating_mul(sum)
}

/// min(7, 8 − pawns): the most a reserve can be with `pawns` on the board
/// once the first move is made.
fn fullest_reserve(pawns: u8) -> u8 {
    (PAWNS - 1).min(PAWNS - pawns)
}

/// The canonical reserve of a player in play with `pawns` on the board and
/// `supply` left.
pub(crate) fn canonical_reserve(reserve: u8, pawns: u8, supply: u8) -> u8 {
    if reserve < PAWNS && reserve >= supply {
        fullest_reserve(pawns)
    } else {
        reserve
    }
}

impl Topple {
    /// The first tier: the empty board.
    fn start_tier(&self) -> Tier {
        Tier {
            supply: self.supply(),
            pawns: [0, 0],
            reserve: [PAWNS, PAWNS],
        }
    }

    /// The tier after Red's first move.
    fn red_first_tier(&self) -> Tier {
        Tier {
            supply: self.supply() - 1,
            pawns: [1, 0],
            reserve: [PAWNS - 1, PAWNS],
        }
    }

    /// `t` with its reserves made canonical.
    #[inline]
    fn canonical_tier(&self, mut t: Tier) -> Tier {
        if t.reserve.iter().all(|&r| r < PAWNS) {
            for c in 0..2 {
                t.reserve[c] = canonical_reserve(t.reserve[c], t.pawns[c], t.supply);
            }
        }
        t
    }

    /// The tier of `pos`.
    #[inline]
    pub fn tier_key(&self, pos: &Position) -> Tier {
        self.canonical_tier(Tier {
            supply: pos.supply(),
            pawns: Color::BOTH.map(|c| pos.pawn_count(c)),
            reserve: Color::BOTH.map(|c| pos.reserve(c)),
        })
    }

    /// Whether some position of play lies in `t` (as far as counts tell).
    pub fn is_tier(&self, t: Tier) -> bool {
        let s = self.supply();
        let n = self.shape().cells();
        if t.supply > s {
            return false;
        }
        let placed = s - t.supply;
        if (0..2).any(|c| t.reserve[c] > PAWNS || t.pawns[c] + t.reserve[c] > PAWNS) {
            return false;
        }
        let on_board = t.pawns[0] + t.pawns[1];
        if on_board > n || on_board > placed {
            return false;
        }
        match t.reserve {
            [PAWNS, _] => t == self.start_tier(),
            [_, PAWNS] => t == self.red_first_tier(),
            [r, b] => {
                let made = (PAWNS - 1 - r) + (PAWNS - 1 - b);
                placed >= 2
                    && made <= placed - 2
                    && (0..2).all(|c| t.reserve[c] < t.supply || t.reserve[c] == fullest_reserve(t.pawns[c]))
            }
        }
    }

    /// Every tier, or none when the board is too large to index.
    pub fn all_tiers(&self) -> Vec<Tier> {
        if !self.indexable() {
            return Vec::new();
        }
        let mut tiers = vec![self.start_tier(), self.red_first_tier()];
        for supply in 0..=self.supply() - 2 {
            for r in 0..PAWNS {
                for b in 0..PAWNS {
                    for pr in 0..=PAWNS - r {
                        for pb in 0..=PAWNS - b {
                            let t = Tier {
                                supply,
                                pawns: [pr, pb],
                                reserve: [r, b],
                            };
                            if self.is_tier(t) {
                                tiers.push(t);
                            }
                        }
                    }
                }
            }
        }
        tiers
    }

    /// The tiers the moves of `t`'s positions may lead to, never `t`
    /// itself.
    pub fn child_tiers_of(&self, t: Tier) -> Vec<Tier> {
        let mut out = BTreeSet::new();
        if t == self.start_tier() {
            out.insert(self.red_first_tier());
        } else if t == self.red_first_tier() {
            out.insert(Tier {
                supply: t.supply - 1,
                pawns: [1, 1],
                reserve: [PAWNS - 1, PAWNS - 1],
            });
        } else if t.pawns[0] > 0 && t.pawns[1] > 0 {
            // Pieces on the board beyond one under each pawn, at most:
            // what the moves that change the pawns need (below).
            let slack = self.placed(t) - i64::from(t.pawns[0] + t.pawns[1]);
            // A step goes onto a stack without a pawn, and a take needs a
            // pawn one higher than another: a stack of 2 besides, unless
            // the pawn steps onto it, which must then be a 2.
            if slack >= 2 {
                // Steps that take: fewer pawns, at least the last taker left.
                for pr in 0..=t.pawns[0] {
                    for pb in 0..=t.pawns[1] {
                        if pr + pb >= 1 && [pr, pb] != t.pawns {
                            out.insert(Tier { pawns: [pr, pb], ..t });
                        }
                    }
                }
            }
            if t.supply > 0 {
                // A placement on an empty cell or a stack of 1 changes no
                // pawn's stack and makes no 3: it takes nothing.
                out.insert(Tier {
                    supply: t.supply - 1,
                    ..t
                });
                // A new pawn needs a bare stack of 2; with no more slack
                // every other stack is a pawn's 1, two below the new
                // pawn's 3, and there is no line of 3s to reset. Losses
                // need more: a topple (a bare stack of 3), or a stack of
                // 2 or 4 beside the new pawn, or a line of 3s.
                if slack >= 2 {
                    self.placement_children(t, slack >= 3, &mut out);
                }
            }
        }
        out.into_iter()
            .map(|c| self.canonical_tier(c))
            .filter(|&c| c != t && self.is_tier(c))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    /// The tiers a placement or topple by either player may lead to: one
    /// piece less, perhaps a new pawn for the mover, then any losses (none
    /// unless `losses`).
    fn placement_children(&self, t: Tier, losses: bool, out: &mut BTreeSet<Tier>) {
        for mover in 0..2 {
            for new in [false, true] {
                if new && t.reserve[mover] == 0 {
                    continue;
                }
                let mut reserve = t.reserve;
                let mut most = t.pawns;
                if new {
                    reserve[mover] -= 1;
                    most[mover] += 1;
                }
                let least = if losses { [0, 0] } else { most };
                for pr in least[0]..=most[0] {
                    for pb in least[1]..=most[1] {
                        out.insert(Tier {
                            supply: t.supply - 1,
                            pawns: [pr, pb],
                            reserve,
                        });
                    }
                }
            }
        }
    }

    /// Pieces placed by the time a tier's supply is left.
    fn placed(&self, t: Tier) -> i64 {
        i64::from(self.supply()) - i64::from(t.supply)
    }

    /// The number of indices of `t` (saturating).
    #[inline]
    pub fn tier_size_of(&self, t: Tier) -> u64 {
        let n = i64::from(self.shape().cells());
        let [r, u] = t.pawns.map(i64::from);
        boards(n, self.placed(t), r, u).saturating_mul(2)
    }

    /// Whether every tier's indices fit in a `u64` (small boards and
    /// supplies; 8×8 with 64 pieces does not).
    pub fn indexable(&self) -> bool {
        let n = i64::from(self.shape().cells());
        let s = i64::from(self.supply());
        (0..=i64::from(PAWNS))
            .flat_map(|r| (0..=i64::from(PAWNS)).map(move |u| (r, u)))
            .all(|(r, u)| boards(n, s, r, u).saturating_mul(2) < MAX_TIER_SIZE)
    }

    /// The index of `pos` in its tier (the same for every position of its
    /// reserve class).
    #[inline]
    pub fn index_of(&self, pos: &Position) -> u64 {
        let t = self.tier_key(pos);
        let n = i64::from(self.shape().cells());
        let mut b = self.placed(t);
        let [mut r, mut u] = t.pawns.map(i64::from);
        let mut rank = 0u64;
        for cell in 0..self.shape().cells() {
            let k = n - i64::from(cell) - 1;
            let h = i64::from(pos.height(cell));
            let pawn = pos.pawn(cell);
            // Every state of a lower height, then those of this height
            // with a smaller pawn (none < Red < Blue): the sums of
            // `boards_for_heights` over heights 0..h without a pawn on
            // this cell and 1..h with one, which share their factors.
            if h > 0 {
                let m = b - r - u;
                let all = spread(k + 1, m);
                rank += pawn_places(k, r, u).saturating_mul(all - spread(k + 1, m - h));
                if h > 1 {
                    let pawned = pawn_places(k, r - 1, u) + pawn_places(k, r, u - 1);
                    rank += pawned.saturating_mul(all - spread(k + 1, m + 1 - h));
                }
            }
            if pawn.is_some() {
                rank += boards(k, b - h, r, u);
            }
            if pawn == Some(Color::Blue) {
                rank += boards(k, b - h, r - 1, u);
            }
            b -= h;
            match pawn {
                Some(Color::Red) => r -= 1,
                Some(Color::Blue) => u -= 1,
                None => {}
            }
        }
        2 * rank + pos.turn().index() as u64
    }

    /// The position at `index` of `t`, if that index names a position of
    /// play.
    #[inline]
    pub fn position_at(&self, t: Tier, index: u64) -> Option<Position> {
        if !self.is_tier(t) || index >= self.tier_size_of(t) {
            return None;
        }
        let pos = Position {
            turn: Color::BOTH[(index % 2) as usize],
            ..self.board_at(t, index / 2)?
        };
        self.is_play(&pos).then_some(pos)
    }

    /// The board of rank `rank` in `t`, Red to move, checked for nothing
    /// but its counts.
    pub(crate) fn board_at(&self, t: Tier, rank: u64) -> Option<Position> {
        let mut pos = Position::start(t.supply);
        pos.reserve = t.reserve;
        let mut rest = rank;
        let n = i64::from(self.shape().cells());
        let mut b = self.placed(t);
        let [mut r, mut u] = t.pawns.map(i64::from);
        for cell in 0..self.shape().cells() {
            let k = n - i64::from(cell) - 1;
            let (h, pawn) = next_state(k, b, r, u, &mut rest)?;
            pos.heights[usize::from(cell)] = h as u8;
            if let Some(c) = pawn {
                pos.put_pawn(cell, c);
            }
            b -= h;
            match pawn {
                Some(Color::Red) => r -= 1,
                Some(Color::Blue) => u -= 1,
                None => {}
            }
        }
        Some(pos)
    }

    /// `pos` with its reserves made canonical: the position of its reserve
    /// class that [`Topple::position_at`] gives, the same index as `pos`.
    #[inline]
    pub fn fold_reserves(&self, pos: &Position) -> Position {
        if pos.phase() != Phase::Play {
            return *pos;
        }
        Color::BOTH.into_iter().fold(*pos, |p, c| {
            p.with_reserve(
                c,
                canonical_reserve(pos.reserve(c), pos.pawn_count(c), pos.supply()),
            )
        })
    }

    /// The representative of `pos`'s class: its reserves folded, then the
    /// board's image of least index ([`crate::symmetry`]).
    #[inline]
    pub fn canonical(&self, pos: &Position) -> Position {
        self.least_image(&self.fold_reserves(pos))
    }

    /// Every position of `pos`'s reserve class: the reserves that play
    /// alike, each giving a position of play; they share one index.
    pub fn reserve_images(&self, pos: &Position) -> Vec<Position> {
        if pos.phase() != Phase::Play {
            return vec![*pos];
        }
        let range = |c: Color| {
            let r = pos.reserve(c);
            if r >= pos.supply() {
                pos.supply()..=fullest_reserve(pos.pawn_count(c))
            } else {
                r..=r
            }
        };
        let mut all = Vec::new();
        for r in range(Color::Red) {
            for b in range(Color::Blue) {
                let p = pos.with_reserve(Color::Red, r).with_reserve(Color::Blue, b);
                if self.is_play(&p) {
                    all.push(p);
                }
            }
        }
        all
    }

    /// Every position of `pos`'s class: each board image with each of its
    /// reserve images, once.
    pub fn images(&self, pos: &Position) -> Vec<Position> {
        let mut all: Vec<Position> = self
            .symmetries()
            .iter()
            .flat_map(|s| self.reserve_images(&s.position(pos)))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

/// The state of the next cell for the remaining `rest` of a rank, with k
/// cells after it, budget b and r, u pawns left; `rest` becomes the rank
/// among the completions.
fn next_state(k: i64, b: i64, r: i64, u: i64, rest: &mut u64) -> Option<(i64, Option<Color>)> {
    for h in 0..=b {
        // A pawn needs a stack: at height 0 only the empty state.
        let states: &[(Option<Color>, i64, i64)] = if h == 0 {
            &[(None, r, u)]
        } else {
            &[
                (None, r, u),
                (Some(Color::Red), r - 1, u),
                (Some(Color::Blue), r, u - 1),
            ]
        };
        for &(pawn, r2, u2) in states {
            let count = boards(k, b - h, r2, u2);
            if *rest < count {
                return Some((h, pawn));
            }
            *rest -= count;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up() {
        // The states of one cell partition the boards of k + 1 cells.
        for k in 0..6 {
            for b in 0..8 {
                for r in 0..3 {
                    for u in 0..3 {
                        let mut sum = 0;
                        for h in 0..=b {
                            sum += boards(k, b - h, r, u);
                            if h >= 1 {
                                sum += boards(k, b - h, r - 1, u) + boards(k, b - h, r, u - 1);
                            }
                        }
                        assert_eq!(sum, boards(k + 1, b, r, u), "{k} {b} {r} {u}");
                        for hi in 0..=b + 1 {
                            let direct: u64 = (0..hi).map(|j| boards(k, b - j, r, u)).sum();
                            assert_eq!(boards_for_heights(k, b, r, u, 0, hi), direct);
                        }
                    }
                }
            }
        }
    }
}
