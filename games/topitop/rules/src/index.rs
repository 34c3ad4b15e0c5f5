//! Our dense index of positions, for solving and storage.
//!
//! GamesmanClassic's hash gives every board 41 slots per turn for the
//! forbidden slide, almost all of them impossible. This index numbers only
//! the *indexable* states: a board within the budget, a turn, and either no
//! forbidden slide or one that a move could have left (a neutral S, L or C on
//! its source cell, its destination empty).
//!
//! Layout. Compositions (GamesmanClassic tiers) come in tier-number order,
//! each a contiguous range: first Blue to move, then Red. Within one turn:
//! the m boards with nothing forbidden, by lexicographic rank; then for each
//! slide id 1..=40 and each neutral kind p ∈ {S, L, C} present, the
//! arrangements of the other 7 cells (the source holds p, the destination is
//! empty), by rank of those 7 cells in ascending cell order. Every block size
//! depends only on the composition, so ranking needs no per-board table.
//!
//! For the standard budget this is 358,668,092 states over all 2,232
//! compositions (the two-P-two-Q composition included, though play never
//! reaches it), against GamesmanClassic's 2,972,507,380 slots.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::board::Board;
use crate::budget::Budget;
use crate::cell::{Cell, Player};
use crate::error::IndexError;
use crate::geometry::{Slide, CELLS};
use crate::position::Position;
use crate::rank::{rank_board, rank_packed};
use crate::tier::Tier;
use topitop_game_api::rank::{multinomial, unrank};

const NEUTRALS: [Cell; 3] = [Cell::Small, Cell::Large, Cell::Castle];

/// The index ranges of one composition.
#[derive(Clone, Debug)]
pub struct TierRange {
    /// The composition.
    pub tier: Tier,
    /// Index of the tier's first state.
    pub offset: u64,
    /// States per turn.
    pub half: u64,
    /// Number of the tier's first board in the board numbering
    /// ([`StateIndex::board_number`]).
    pub board_offset: u64,
    boards: u64,
    /// Block sizes for S, L, C at the source of the forbidden slide.
    blocks: [u64; 3],
    per_slide: u64,
    /// Cell counts (empty cells included) in 4-bit fields, code c at 4c.
    packed: u64,
}

impl TierRange {
    /// States in the tier (both turns).
    pub fn len(&self) -> u64 {
        2 * self.half
    }

    /// True for a tier with no states (never, kept for clippy's sake).
    pub fn is_empty(&self) -> bool {
        self.half == 0
    }

    /// Boards in the tier.
    pub fn boards(&self) -> u64 {
        self.boards
    }
}

/// A multiplicative hash for tier numbers (small integers of 36 bits); the
/// default SipHash would dominate an index lookup.
#[derive(Default)]
struct TierHasher(u64);

impl Hasher for TierHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// Finds a board's tier from its packed cell counts: open addressing in a
/// power-of-two table of `u64`s, each holding a tier's packed counts (40
/// bits) and one more than its place above them. A few kilobytes for any
/// budget, so a lookup stays in the first-level cache.
#[derive(Clone, Debug)]
struct TierTable {
    slots: Vec<u64>,
    shift: u32,
}

impl TierTable {
    const KEY_BITS: u32 = 40;
    const KEY_MASK: u64 = (1 << Self::KEY_BITS) - 1;

    fn new(tiers: &[TierRange]) -> TierTable {
        // At most half full: a miss or a hit takes one or two probes.
        let bits = (2 * tiers.len()).next_power_of_two().trailing_zeros().max(4);
        let mut table = TierTable {
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
        };
        for (place, range) in tiers.iter().enumerate() {
            let mut at = table.home(range.packed);
            while table.slots[at] != 0 {
                at = (at + 1) & (table.slots.len() - 1);
            }
            table.slots[at] = range.packed | (place as u64 + 1) << Self::KEY_BITS;
        }
        table
    }

    #[inline]
    fn home(&self, packed: u64) -> usize {
        (packed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The place of the tier with packed counts `packed`, if the budget has
    /// one. Packed counts of a board are never 0, the empty slot.
    #[inline]
    fn get(&self, packed: u64) -> Option<usize> {
        let mut at = self.home(packed);
        loop {
            let slot = self.slots[at];
            if slot & Self::KEY_MASK == packed {
                return Some((slot >> Self::KEY_BITS) as usize - 1);
            }
            if slot == 0 {
                return None;
            }
            at = (at + 1) & (self.slots.len() - 1);
        }
    }
}

/// A bijection between indexable positions of a budget and `0..len()`.
#[derive(Clone, Debug)]
pub struct StateIndex {
    budget: Budget,
    tiers: Vec<TierRange>,
    by_tier: HashMap<Tier, usize, BuildHasherDefault<TierHasher>>,
    lookup: TierTable,
    len: u64,
    boards: u64,
}

impl StateIndex {
    /// The index for `budget`.
    pub fn new(budget: Budget) -> StateIndex {
        let mut tiers = Vec::new();
        let mut offset = 0;
        let mut board_offset = 0;
        for tier in Tier::all(budget) {
            let counts = tier.counts();
            let boards = multinomial(&counts);
            let blocks = NEUTRALS.map(|p| {
                if counts[p as usize] > 0 && counts[0] > 0 {
                    let mut rest = counts;
                    rest[p as usize] -= 1;
                    rest[0] -= 1;
                    multinomial(&rest)
                } else {
                    0
                }
            });
            let per_slide: u64 = blocks.iter().sum();
            let half = boards + 40 * per_slide;
            let packed = counts
                .iter()
                .enumerate()
                .map(|(c, &n)| u64::from(n) << (4 * c))
                .sum();
            tiers.push(TierRange {
                tier,
                offset,
                half,
                board_offset,
                boards,
                blocks,
                per_slide,
                packed,
            });
            offset += 2 * half;
            board_offset += boards;
        }
        let by_tier = tiers.iter().enumerate().map(|(i, t)| (t.tier, i)).collect();
        let lookup = TierTable::new(&tiers);
        StateIndex {
            budget,
            tiers,
            by_tier,
            lookup,
            len: offset,
            boards: board_offset,
        }
    }

    /// The piece budget whose positions this indexes.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Number of indexable states.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when there are no states (never).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of boards within the budget (all tiers).
    pub fn boards(&self) -> u64 {
        self.boards
    }

    /// The number of `board` among all boards of the budget: tiers in index
    /// order, boards of a tier by lexicographic rank. The boards of a tier
    /// are numbered in the order of its first block (Blue to move, nothing
    /// forbidden).
    ///
    /// # Errors
    /// The board is over the budget.
    #[inline]
    pub fn board_number(&self, board: Board) -> Result<u64, IndexError> {
        self.board_number_counted(board, board.packed_counts())
    }

    /// [`StateIndex::board_number`], given the board's
    /// [`Board::packed_counts`], which a caller may know more cheaply (see
    /// [`Board::packed_counts_of`]).
    ///
    /// # Errors
    /// The board is over the budget.
    #[inline]
    pub fn board_number_counted(&self, board: Board, packed: u64) -> Result<u64, IndexError> {
        debug_assert_eq!(packed, board.packed_counts(), "{board}");
        let range = self
            .tier_of_counts(packed)
            .ok_or_else(|| IndexError::NotIndexable(board.to_string()))?;
        Ok(range.board_offset + rank_board(board.bits(), packed, range.boards))
    }

    /// The tier of the boards with cell counts `packed`, if the budget has
    /// it.
    #[inline]
    fn tier_of_counts(&self, packed: u64) -> Option<&TierRange> {
        self.lookup.get(packed).map(|place| &self.tiers[place])
    }

    /// The tier of `board` and its cell counts packed in 4-bit fields, or
    /// `None` if the board is over the budget.
    #[inline]
    fn locate(&self, board: Board) -> Option<(&TierRange, u64)> {
        let packed = board.packed_counts();
        Some((self.tier_of_counts(packed)?, packed))
    }

    /// The boards numbered `first..end` ([`StateIndex::board_number`]), in
    /// order; numbers past the last board are left out. Each tier's first
    /// board is unranked and the rest follow by
    /// [`Board::next_arrangement`].
    pub fn board_walk(&self, first: u64, end: u64) -> impl Iterator<Item = Board> + '_ {
        let end = end.min(self.boards);
        let mut n = first;
        let mut current: Option<Board> = None;
        std::iter::from_fn(move || {
            if n >= end {
                return None;
            }
            let next = current.and_then(Board::next_arrangement).or_else(|| {
                let range = self.board_tier(n).ok()?;
                let mut cells = [0u8; CELLS];
                unrank(n - range.board_offset, &range.tier.counts(), &mut cells);
                Some(board_of(cells))
            })?;
            // A tier's last board has no next arrangement, so the walk
            // unranks the first board of the following tier.
            current = Some(next);
            n += 1;
            Some(next)
        })
    }

    /// The tier range holding board number `n`.
    ///
    /// # Errors
    /// `n` is not below [`StateIndex::boards`].
    pub fn board_tier(&self, n: u64) -> Result<&TierRange, IndexError> {
        if n >= self.boards {
            return Err(IndexError::OutOfRange {
                index: n,
                size: self.boards,
            });
        }
        Ok(&self.tiers[self.tiers.partition_point(|r| r.board_offset <= n) - 1])
    }

    /// The tiers in index order.
    pub fn tiers(&self) -> &[TierRange] {
        &self.tiers
    }

    /// The range of `tier`, if it is a composition of the budget.
    pub fn tier_range(&self, tier: Tier) -> Option<&TierRange> {
        self.by_tier.get(&tier).map(|&i| &self.tiers[i])
    }

    /// The place of `tier` in [`StateIndex::tiers`], if it is a composition
    /// of the budget.
    pub fn tier_ordinal(&self, tier: Tier) -> Option<usize> {
        self.by_tier.get(&tier).copied()
    }

    /// The index of `pos`.
    ///
    /// # Errors
    /// The position is over the budget or its forbidden slide could not have
    /// been set by a move.
    pub fn index(&self, pos: Position) -> Result<u64, IndexError> {
        let board = pos.board();
        let not_indexable = || IndexError::NotIndexable(pos.to_string());
        let (range, packed) = self.locate(board).ok_or_else(not_indexable)?;
        let turn = if pos.turn() == Player::Red { range.half } else { 0 };
        let bits = board.bits();
        let cell = |i: usize| ((bits >> (4 * (8 - i))) & 15) as u8;
        let within = match pos.forbidden() {
            None => rank_board(bits, packed, range.boards),
            Some(s) => {
                let p = board.get(s.from());
                let k = NEUTRALS.iter().position(|&n| n == p).ok_or_else(not_indexable)?;
                if board.get(s.to()) != Cell::Empty {
                    return Err(not_indexable());
                }
                let rest = packed - (1 << (4 * p as u32)) - 1;
                let others = (0..CELLS).filter(|&i| i != s.from() && i != s.to()).map(cell);
                range.boards
                    + (s.id() as u64 - 1) * range.per_slide
                    + range.blocks[..k].iter().sum::<u64>()
                    + rank_packed(others, rest, CELLS as u64 - 2, range.blocks[k])
            }
        };
        Ok(range.offset + turn + within)
    }

    /// The position with index `i`.
    ///
    /// # Errors
    /// `i` is not below [`StateIndex::len`].
    pub fn position(&self, i: u64) -> Result<Position, IndexError> {
        if i >= self.len {
            return Err(IndexError::OutOfRange {
                index: i,
                size: self.len,
            });
        }
        let t = self.tiers.partition_point(|r| r.offset <= i) - 1;
        let range = &self.tiers[t];
        let mut within = i - range.offset;
        let turn = if within >= range.half {
            within -= range.half;
            Player::Red
        } else {
            Player::Blue
        };
        let counts = range.tier.counts();
        if within < range.boards {
            let mut cells = [0u8; CELLS];
            unrank(within, &counts, &mut cells);
            return Ok(Position::new(board_of(cells), turn, None));
        }
        within -= range.boards;
        let slide = Slide::from_id((within / range.per_slide) as u8 + 1).ok_or(IndexError::OutOfRange {
            index: i,
            size: self.len,
        })?;
        within %= range.per_slide;
        let mut k = 0;
        while within >= range.blocks[k] {
            within -= range.blocks[k];
            k += 1;
        }
        let p = NEUTRALS[k];
        let mut rest = counts;
        rest[p as usize] -= 1;
        rest[0] -= 1;
        let mut others = [0u8; CELLS - 2];
        unrank(within, &rest, &mut others);
        let mut cells = [0u8; CELLS];
        let mut it = others.into_iter();
        for (c, slot) in cells.iter_mut().enumerate() {
            *slot = if c == slide.from() {
                p as u8
            } else if c == slide.to() {
                Cell::Empty as u8
            } else {
                it.next().unwrap_or(0)
            };
        }
        Ok(Position::new(board_of(cells), turn, Some(slide)))
    }
}

/// Positions with consecutive indices, in index order; see [`StateIndex::walk`].
pub struct Walk<'a> {
    index: &'a StateIndex,
    next: u64,
    end: u64,
    /// The current block's varying cells (9 with nothing forbidden, else 7)
    /// and the position they belong to; `None` before the first step or
    /// after a block ends.
    current: Option<(Position, [u8; CELLS], usize)>,
}

/// Rearranges `seq` into the next arrangement in lexicographic order;
/// false when it already was the last.
fn next_permutation(seq: &mut [u8]) -> bool {
    let Some(i) = (0..seq.len().saturating_sub(1))
        .rev()
        .find(|&i| seq[i] < seq[i + 1])
    else {
        return false;
    };
    let j = (i + 1..seq.len())
        .rev()
        .find(|&j| seq[j] > seq[i])
        .unwrap_or(i + 1);
    seq.swap(i, j);
    seq[i + 1..].reverse();
    true
}

impl Iterator for Walk<'_> {
    type Item = Position;

    fn next(&mut self) -> Option<Position> {
        if self.next >= self.end {
            return None;
        }
        let stepped = self.current.as_mut().and_then(|(pos, seq, len)| {
            if !next_permutation(&mut seq[..*len]) {
                return None;
            }
            let board = match pos.forbidden() {
                None => board_of(*seq),
                Some(s) => {
                    let mut it = seq[..*len].iter().copied();
                    let p = pos.board().get(s.from()) as u8;
                    let mut cells = [0u8; CELLS];
                    for (c, slot) in cells.iter_mut().enumerate() {
                        *slot = if c == s.from() {
                            p
                        } else if c == s.to() {
                            0
                        } else {
                            it.next().unwrap_or(0)
                        };
                    }
                    board_of(cells)
                }
            };
            *pos = Position::new(board, pos.turn(), pos.forbidden());
            Some(*pos)
        });
        let pos = match stepped {
            Some(p) => p,
            None => {
                // A block starts here (or the walk does): unrank once.
                let p = self.index.position(self.next).ok()?;
                let cells = p.board().cells().map(|c| c as u8);
                let (seq, len) = match p.forbidden() {
                    None => (cells, CELLS),
                    Some(s) => {
                        let mut seq = [0u8; CELLS];
                        let others = (0..CELLS).filter(|&i| i != s.from() && i != s.to());
                        for (k, i) in others.enumerate() {
                            seq[k] = cells[i];
                        }
                        (seq, CELLS - 2)
                    }
                };
                self.current = Some((p, seq, len));
                p
            }
        };
        self.next += 1;
        Some(pos)
    }
}

impl StateIndex {
    /// The positions with indices `start..end` in order, much faster than
    /// calling [`StateIndex::position`] for each: consecutive indices
    /// within a block are consecutive arrangements.
    pub fn walk(&self, start: u64, end: u64) -> Walk<'_> {
        Walk {
            index: self,
            next: start,
            end: end.min(self.len),
            current: None,
        }
    }
}

fn board_of(cells: [u8; CELLS]) -> Board {
    Board::from_cells(cells.map(|c| Cell::from_code(c).unwrap_or(Cell::Empty)))
}
