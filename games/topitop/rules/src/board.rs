//! The packed 3×3 board.

use std::fmt;

use crate::cell::{Cell, Player};
use crate::geometry::CELLS;

/// Nine cells packed as 4-bit codes, cell 0 in the most significant nibble.
///
/// That order makes integer comparison of two boards with the same pieces
/// agree with GamesmanClassic's lexicographic rank, which the canonical form
/// relies on. Invariant: every nibble is a valid [`Cell`] code and bits
/// above 36 are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Board(u64);

/// Bits used by a board.
pub const BOARD_BITS: u32 = 36;

#[inline]
const fn shift(i: usize) -> u32 {
    4 * (8 - i as u32)
}

/// Piece usage of each cell code packed one count per byte:
/// blue buckets, red buckets, smalls, larges (low byte first).
const PIECE_BYTES: [u32; 10] = {
    let mut t = [0u32; 10];
    let mut c = 0;
    while c < 10 {
        let p = match Cell::from_code(c as u8) {
            Some(cell) => cell.pieces(),
            None => [0; 4],
        };
        t[c] = p[0] as u32 | (p[1] as u32) << 8 | (p[2] as u32) << 16 | (p[3] as u32) << 24;
        c += 1;
    }
    t
};

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board(0);

    /// A board from its cells, cell 0 first.
    pub fn from_cells(cells: [Cell; CELLS]) -> Board {
        let mut b = Board::EMPTY;
        for (i, c) in cells.into_iter().enumerate() {
            b = b.with(i, c);
        }
        b
    }

    /// The board with packed bits `bits`, if every nibble is a cell code.
    pub fn from_bits(bits: u64) -> Option<Board> {
        if bits >> BOARD_BITS != 0 {
            return None;
        }
        let b = Board(bits);
        (0..CELLS).all(|i| (b.0 >> shift(i)) & 15 < 10).then_some(b)
    }

    /// The board with packed bits `bits`, which the caller knows to hold
    /// valid cell codes only.
    #[inline(always)]
    pub(crate) const fn from_bits_trusted(bits: u64) -> Board {
        Board(bits)
    }

    /// The packed bits.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// What cell `i` (0-based) holds.
    #[inline]
    pub fn get(self, i: usize) -> Cell {
        let code = ((self.0 >> shift(i)) & 15) as u8;
        // The invariant keeps every nibble below 10.
        match Cell::from_code(code) {
            Some(c) => c,
            None => unreachable!("board nibble {code} out of range"),
        }
    }

    /// The board with cell `i` replaced by `c`.
    #[inline]
    #[must_use]
    pub fn with(self, i: usize, c: Cell) -> Board {
        let s = shift(i);
        Board((self.0 & !(15 << s)) | (c as u64) << s)
    }

    /// The nine cells, cell 0 first.
    pub fn cells(self) -> [Cell; CELLS] {
        std::array::from_fn(|i| self.get(i))
    }

    /// Pieces on the board as (blue buckets, red buckets, smalls, larges).
    #[inline]
    pub fn pieces_used(self) -> [u8; 4] {
        let mut sum = 0u32;
        let mut bits = self.0;
        for _ in 0..CELLS {
            sum += PIECE_BYTES[(bits & 15) as usize];
            bits >>= 4;
        }
        sum.to_le_bytes()
    }

    /// How many cells hold each cell code, packed in 4-bit fields (code c
    /// at bits 4c..4c+4), as [`crate::rank::rank_packed`] takes them.
    #[inline]
    pub fn packed_counts(self) -> u64 {
        let mut packed = 0u64;
        let mut bits = self.0;
        for _ in 0..CELLS {
            packed += 1 << (4 * (bits & 15));
            bits >>= 4;
        }
        packed
    }

    /// [`Board::packed_counts`] of `other`, given this board's `packed`
    /// counts: only the cells where the two boards differ are recounted,
    /// which after a move (one or two cells changed) is cheaper than
    /// counting all nine.
    #[inline]
    pub fn packed_counts_of(self, packed: u64, other: Board) -> u64 {
        let mut diff = self.0 ^ other.0;
        let mut packed = packed;
        while diff != 0 {
            let shift = diff.trailing_zeros() & !3;
            let old = (self.0 >> shift) & 15;
            let new = (other.0 >> shift) & 15;
            packed = packed.wrapping_add(1 << (4 * new)).wrapping_sub(1 << (4 * old));
            diff &= !(15 << shift);
        }
        packed
    }

    /// How many cells hold each cell code, indexed by code.
    #[inline]
    pub fn counts(self) -> [u8; 10] {
        let mut n = [0u8; 10];
        let mut bits = self.0;
        for _ in 0..CELLS {
            n[(bits & 15) as usize] += 1;
            bits >>= 4;
        }
        n
    }

    /// Number of cells holding `c`.
    #[inline]
    pub fn count(self, c: Cell) -> usize {
        // The nibbles equal to c become 0; the low bit of each nibble then
        // tells whether any of its bits is set.
        const LOW: u64 = 0x1_1111_1111;
        let x = self.0 ^ (c as u64 * LOW);
        let nonzero = (x | x >> 1 | x >> 2 | x >> 3) & LOW;
        CELLS - nonzero.count_ones() as usize
    }

    /// Castles crowned by `player`'s bucket.
    #[inline]
    pub fn castles_of(self, player: Player) -> usize {
        self.count(player.castle())
    }

    /// The boards from this one on (in the order of
    /// [`Board::next_arrangement`]) that keep its first `keep` cells: how
    /// many there are, this one included, and the last of them (its other
    /// cells in decreasing order). A walk that knows none of them matters
    /// jumps over them this way.
    pub fn rest_of_prefix(self, keep: usize) -> (u64, Board) {
        if keep >= CELLS {
            return (1, self);
        }
        let mut tail = [0u8; CELLS];
        let tail = &mut tail[..CELLS - keep];
        let mut counts = [0u8; 10];
        for (t, i) in tail.iter_mut().zip(keep..) {
            *t = ((self.0 >> shift(i)) & 15) as u8;
            counts[usize::from(*t)] += 1;
        }
        let from_here = topitop_game_api::rank::multinomial(&counts)
            - topitop_game_api::rank::rank(tail.iter().copied(), &counts);
        tail.sort_unstable_by(|a, b| b.cmp(a));
        let mut last = self;
        for (&c, i) in tail.iter().zip(keep..) {
            last.0 = (last.0 & !(15 << shift(i))) | u64::from(c) << shift(i);
        }
        (from_here, last)
    }

    /// The next board with the same cells rearranged, in increasing order
    /// of bits (so of lexicographic rank within a tier); `None` after the
    /// last. Walking a tier's boards this way costs a few shifts per step
    /// instead of an unrank.
    #[inline]
    pub fn next_arrangement(self) -> Option<Board> {
        let x = self.0;
        let nib = |i: usize| (x >> shift(i)) & 15;
        // The last cell smaller than its right neighbour: everything after
        // it is in decreasing order, the last arrangement of those cells.
        let mut i = CELLS - 2;
        while nib(i) >= nib(i + 1) {
            if i == 0 {
                return None;
            }
            i -= 1;
        }
        // The last cell after it that is larger takes its place.
        let mut j = CELLS - 1;
        while nib(j) <= nib(i) {
            j -= 1;
        }
        let (a, b) = (nib(i), nib(j));
        let swapped = x ^ ((a ^ b) << shift(i)) ^ ((a ^ b) << shift(j));
        // Then the tail, now decreasing, is reversed to increasing.
        let tail_bits = 4 * (CELLS - 1 - i) as u32;
        let tail = swapped & ((1u64 << tail_bits) - 1);
        let nibbles_reversed = {
            let r = tail.swap_bytes();
            ((r & 0x0F0F_0F0F_0F0F_0F0F) << 4) | ((r >> 4) & 0x0F0F_0F0F_0F0F_0F0F)
        };
        let reversed = nibbles_reversed >> (64 - tail_bits);
        Some(Board((swapped & !((1u64 << tail_bits) - 1)) | reversed))
    }
}

/// The nine GamesmanClassic letters, cell 0 first.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.cells() {
            write!(f, "{}", c.to_char())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod count_tests {
    use crate::{Budget, StateIndex};

    #[test]
    fn count_agrees_with_the_cells() {
        let states = StateIndex::new(Budget::new(2, 2, 2, 2).unwrap());
        for pos in states.walk(0, states.boards()) {
            let board = pos.board();
            for c in crate::cell::ALL_CELLS {
                let slow = board.cells().iter().filter(|&&x| x == c).count();
                assert_eq!(board.count(c), slow, "{board} {c:?}");
            }
        }
    }
}
