//! GamesmanClassic tiers: piece-count classes of boards.

use std::fmt;

use crate::board::Board;
use crate::budget::Budget;
use crate::cell::Cell;
use crate::error::HashError;
use topitop_game_api::rank::multinomial;

/// Nibble of each cell code in the tier number (`None` for the empty cell):
/// bb | rb≪4 | bs≪8 | rs≪12 | bc≪16 | rc≪20 | s≪24 | l≪28 | c≪32 with
/// bb = #B, rb = #R, bs = #X, rs = #O, bc = #P, rc = #Q, s = #S, l = #L, c = #C.
const NIBBLE_OF_CODE: [Option<u32>; 10] = [
    None,
    Some(0), // B
    Some(1), // R
    Some(6), // S
    Some(7), // L
    Some(2), // X
    Some(3), // O
    Some(8), // C
    Some(4), // P
    Some(5), // Q
];

/// A GamesmanClassic tier: how many cells hold each kind of structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tier(u64);

impl Tier {
    /// Tier 0, the empty board.
    pub const START: Tier = Tier(0);

    /// The tier of `board`.
    pub fn of(board: Board) -> Tier {
        Tier::from_counts(&board.counts())
    }

    /// The tier with cell counts `counts` (indexed by cell code; entry 0,
    /// the empty cells, is ignored).
    pub fn from_counts(counts: &[u8; 10]) -> Tier {
        let mut t = 0u64;
        for (code, nib) in NIBBLE_OF_CODE.iter().enumerate() {
            if let Some(k) = nib {
                t |= (counts[code] as u64) << (4 * k);
            }
        }
        Tier(t)
    }

    /// The tier numbered `n`, if it is a tier of a game with `budget`.
    ///
    /// # Errors
    /// Bits beyond the nine counts, more than 9 structures, or more pieces of
    /// a kind than the budget holds.
    pub fn from_number(n: u64, budget: Budget) -> Result<Tier, HashError> {
        let t = Tier(n);
        let bad = Err(HashError::BadTier { tier: n });
        if n >> 36 != 0 {
            return bad;
        }
        let counts = t.counts_raw();
        let total: u32 = counts[1..].iter().map(|&c| c as u32).sum();
        if total > 9 {
            return bad;
        }
        let mut used = [0u32; 4];
        for (code, &k) in counts.iter().enumerate().skip(1) {
            for (u, p) in used
                .iter_mut()
                .zip(Cell::from_code(code as u8).map_or([0; 4], Cell::pieces))
            {
                *u += p as u32 * k as u32;
            }
        }
        if used.iter().zip(budget.counts()).any(|(&u, b)| u > b as u32) {
            return bad;
        }
        Ok(t)
    }

    /// The tier number.
    pub const fn number(self) -> u64 {
        self.0
    }

    fn counts_raw(self) -> [u8; 10] {
        let mut c = [0u8; 10];
        for (code, nib) in NIBBLE_OF_CODE.iter().enumerate() {
            if let Some(k) = nib {
                c[code] = ((self.0 >> (4 * k)) & 15) as u8;
            }
        }
        c
    }

    /// Cells holding each cell code, indexed by code (entry 0: empty cells).
    pub fn counts(self) -> [u8; 10] {
        let mut c = self.counts_raw();
        let filled: u8 = c[1..].iter().sum();
        c[0] = 9u8.saturating_sub(filled);
        c
    }

    /// Number of distinct boards in the tier.
    pub fn arrangements(self) -> u64 {
        multinomial(&self.counts())
    }

    /// GamesmanClassic's tier size: 82 slots per board (2 turns × 41 slide ids).
    pub fn size(self) -> u64 {
        82 * self.arrangements()
    }

    /// Structures on the board (9 minus the empty cells).
    pub fn filled(self) -> u8 {
        9 - self.counts()[0]
    }

    /// The tier in words: what stands on the board, then what is left to
    /// place from `budget`, e.g. `board: 1 blue castle, 2 red buckets on
    /// small piles, 1 large pile; to place: 1 blue bucket, 1 large pile`.
    /// A castle is a small pile on a large one; a blue or red castle has
    /// that player's bucket on top.
    pub fn describe(self, budget: Budget) -> String {
        const NAMES: [(&str, &str); 10] = [
            ("", ""),
            ("blue bucket", "blue buckets"),
            ("red bucket", "red buckets"),
            ("small pile", "small piles"),
            ("large pile", "large piles"),
            ("blue bucket on a small pile", "blue buckets on small piles"),
            ("red bucket on a small pile", "red buckets on small piles"),
            ("castle", "castles"),
            ("blue castle", "blue castles"),
            ("red castle", "red castles"),
        ];
        // Display order: the castles that decide the game first.
        const ORDER: [Cell; 9] = [
            Cell::BlueCastle,
            Cell::RedCastle,
            Cell::Castle,
            Cell::BlueSmall,
            Cell::RedSmall,
            Cell::BlueBucket,
            Cell::RedBucket,
            Cell::Small,
            Cell::Large,
        ];
        let c = self.counts();
        let n = |cell: Cell| u32::from(c[cell as usize]);
        let list = |items: &mut dyn Iterator<Item = (u32, Cell)>| {
            let parts: Vec<String> = items
                .filter(|&(k, _)| k > 0)
                .map(|(k, cell)| {
                    let (one, many) = NAMES[cell as usize];
                    format!("{k} {}", if k == 1 { one } else { many })
                })
                .collect();
            if parts.is_empty() {
                "nothing".to_string()
            } else {
                parts.join(", ")
            }
        };
        let on_board = list(&mut ORDER.iter().map(|&cell| (n(cell), cell)));
        let used = [
            n(Cell::BlueBucket) + n(Cell::BlueSmall) + n(Cell::BlueCastle),
            n(Cell::RedBucket) + n(Cell::RedSmall) + n(Cell::RedCastle),
            n(Cell::Small)
                + n(Cell::BlueSmall)
                + n(Cell::RedSmall)
                + n(Cell::Castle)
                + n(Cell::BlueCastle)
                + n(Cell::RedCastle),
            n(Cell::Large) + n(Cell::Castle) + n(Cell::BlueCastle) + n(Cell::RedCastle),
        ];
        let total = budget.counts();
        let kinds = [Cell::BlueBucket, Cell::RedBucket, Cell::Small, Cell::Large];
        let left = list(&mut (0..4).map(|i| (u32::from(total[i]).saturating_sub(used[i]), kinds[i])));
        format!("board: {on_board}; to place: {left}")
    }

    /// True when a player has two crowned castles: every position is primitive.
    pub fn is_terminal(self) -> bool {
        let c = self.counts();
        c[Cell::BlueCastle as usize] == 2 || c[Cell::RedCastle as usize] == 2
    }

    /// The tiers that moves from this tier lead to, in the order upstream's
    /// `gTierChildren` creates them (it prepends each, so its list is the
    /// reverse): the tier itself unless it is tier 0, the four placements,
    /// then the seven merges.
    pub fn children(self, budget: Budget) -> Vec<Tier> {
        if self.is_terminal() {
            return Vec::new();
        }
        let c = self.counts();
        let mut out = Vec::with_capacity(12);
        if self != Tier::START {
            out.push(self);
        }
        let used = Self::used(&c);
        let left = budget.counts();
        let bump = |changes: &[(Cell, i8)]| {
            let mut n = c;
            for &(cell, d) in changes {
                n[cell as usize] = (n[cell as usize] as i8 + d) as u8;
            }
            Tier::from_counts(&n)
        };
        use Cell::*;
        if c[0] > 0 {
            for (i, cell) in [BlueBucket, RedBucket, Small, Large].into_iter().enumerate() {
                if used[i] < left[i] {
                    out.push(bump(&[(cell, 1)]));
                }
            }
        }
        let merges = [
            (BlueBucket, Small, BlueSmall),
            (RedBucket, Small, RedSmall),
            (BlueSmall, Large, BlueCastle),
            (RedSmall, Large, RedCastle),
            (Small, Large, Castle),
            (BlueBucket, Castle, BlueCastle),
            (RedBucket, Castle, RedCastle),
        ];
        for (a, b, r) in merges {
            if c[a as usize] > 0 && c[b as usize] > 0 {
                out.push(bump(&[(a, -1), (b, -1), (r, 1)]));
            }
        }
        out
    }

    fn used(c: &[u8; 10]) -> [u8; 4] {
        let mut used = [0u8; 4];
        for (code, &k) in c.iter().enumerate() {
            let p = Cell::from_code(code as u8).map_or([0; 4], Cell::pieces);
            for i in 0..4 {
                used[i] += p[i] * k;
            }
        }
        used
    }

    /// Every tier reachable from tier 0 through [`Tier::children`], sorted
    /// by tier number.
    pub fn reachable(budget: Budget) -> Vec<Tier> {
        let mut seen = std::collections::BTreeSet::from([Tier::START]);
        let mut stack = vec![Tier::START];
        while let Some(t) = stack.pop() {
            for c in t.children(budget) {
                if seen.insert(c) {
                    stack.push(c);
                }
            }
        }
        seen.into_iter().collect()
    }

    /// Every piece composition within `budget`, sorted by tier number. This
    /// includes compositions play cannot reach (both players crowned twice).
    pub fn all(budget: Budget) -> Vec<Tier> {
        let mut out = Vec::new();
        let mut c = [0u8; 10];
        Self::enumerate(1, 9, budget, &mut c, &mut out);
        out.sort();
        out
    }

    fn enumerate(code: usize, room: u8, budget: Budget, c: &mut [u8; 10], out: &mut Vec<Tier>) {
        if code == 10 {
            let used = Self::used(c);
            if used.iter().zip(budget.counts()).all(|(&u, b)| u <= b) {
                out.push(Tier::from_counts(c));
            }
            return;
        }
        for k in 0..=room {
            c[code] = k;
            Self::enumerate(code + 1, room - k, budget, c, out);
        }
        c[code] = 0;
    }
}

/// GamesmanClassic's `TierToString`: `BB: n, RB: n, BS: n, RS: n, BC: n, RC: n, S: n, L: n, C: n`.
impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = |k: u32| (self.0 >> (4 * k)) & 15;
        write!(
            f,
            "BB: {}, RB: {}, BS: {}, RS: {}, BC: {}, RC: {}, S: {}, L: {}, C: {}",
            n(0),
            n(1),
            n(2),
            n(3),
            n(4),
            n(5),
            n(6),
            n(7),
            n(8)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn tiers_are_described_in_words() {
        assert_eq!(
            Tier::START.describe(Budget::STANDARD),
            "board: nothing; to place: 2 blue buckets, 2 red buckets, 4 small piles, 4 large piles"
        );
        let pos = parse_position("1_PO-L-XL--", Budget::STANDARD).unwrap();
        assert_eq!(
            Tier::of(pos.board()).describe(Budget::STANDARD),
            "board: 1 blue castle, 1 blue bucket on a small pile, 1 red bucket on a small pile, \
             2 large piles; to place: 1 red bucket, 1 small pile, 1 large pile"
        );
    }
}
