//! The numbering of the positions a solve keeps and a database stores:
//! whole groups of canonical boards.
//!
//! Boards are numbered as [`StateIndex::board_number`] numbers them
//! (compositions in tier-number order, boards by lexicographic rank). With
//! symmetry, only canonical boards (the smallest of their 8 images) have a
//! group; without, every board has one. Groups follow each other in board
//! order, each holding its positions in [`games_topitop_rules::group`] order, so
//! each tier's records form one contiguous range and the array is exactly
//! what the database stores.
//!
//! The canonical form of a position has a canonical board, so every
//! position has a record. A board that some symmetry maps to itself also
//! keeps the positions that are images of other members of its group; they
//! are solved like any other and agree with their images, but they are not
//! classes of their own, and [`GroupIndex::duplicates`] lists them.

use std::ops::Range;

use games_topitop_rules::group::{group, group_len, slot};
use games_topitop_rules::index::TierRange;
use games_topitop_rules::{symmetry, Board, Budget, IndexError, Player, Position, StateIndex};
use rayon::prelude::*;

/// A word of the bitmap of boards that have a group, with the number of
/// groups before it.
#[derive(Clone, Copy, Debug, Default)]
struct RankWord {
    bits: u64,
    before: u32,
}

/// The groups and records of one tier.
#[derive(Clone, Debug)]
pub struct TierGroups {
    /// Ordinal of the tier's first group.
    pub first_group: u32,
    /// Groups in the tier.
    pub groups: u32,
    /// The tier's records.
    pub records: Range<u64>,
}

/// A bijection between the positions kept by a solve and `0..len()`.
#[derive(Clone, Debug)]
pub struct GroupIndex {
    states: StateIndex,
    symmetric: bool,
    tiers: Vec<TierGroups>,
    words: Vec<RankWord>,
    /// First record of each group, and the total at the end.
    starts: Vec<u32>,
    /// The board of each group.
    boards: Vec<Board>,
    /// Ordinals of groups whose board some symmetry fixes.
    self_symmetric: Vec<u32>,
}

impl GroupIndex {
    /// The numbering for `budget`, with or without symmetry.
    ///
    /// # Panics
    /// More than 2³² − 1 records (no budget of this game has that many).
    pub fn new(budget: Budget, symmetric: bool) -> GroupIndex {
        let states = StateIndex::new(budget);
        // Large tiers are cut in pieces, so that the survey's threads stay
        // busy to the end rather than wait on the largest tier.
        let pieces: Vec<(usize, u64)> = states
            .tiers()
            .iter()
            .enumerate()
            .flat_map(|(t, range)| {
                (0..range.boards())
                    .step_by(SURVEY_PIECE as usize)
                    .map(move |p| (t, p))
            })
            .collect();
        let surveys: Vec<Survey> = pieces
            .par_iter()
            .map(|&(t, first)| survey_boards(&states, &states.tiers()[t], first, symmetric))
            .collect();
        let groups: usize = surveys.iter().map(|s| s.boards.len()).sum();
        let mut words = vec![RankWord::default(); (states.boards() as usize).div_ceil(64)];
        let mut starts = Vec::with_capacity(groups + 1);
        let mut boards = Vec::with_capacity(groups);
        let mut self_symmetric = Vec::new();
        let mut tiers = Vec::with_capacity(states.tiers().len());
        let mut records = 0u64;
        let mut surveys = pieces.iter().zip(surveys).peekable();
        for (t, range) in states.tiers().iter().enumerate() {
            let first_group = starts.len() as u32;
            let first_record = records;
            while let Some((_, survey)) = surveys.next_if(|((piece_tier, _), _)| *piece_tier == t) {
                let before = starts.len() as u32;
                self_symmetric.extend(survey.self_symmetric.iter().map(|&k| before + k));
                for ((&rank, &size), board) in survey.ranks.iter().zip(&survey.sizes).zip(survey.boards) {
                    let n = range.board_offset + u64::from(rank);
                    words[(n / 64) as usize].bits |= 1 << (n % 64);
                    starts.push(u32::try_from(records).expect("records fit 32 bits"));
                    boards.push(board);
                    records += u64::from(size);
                }
            }
            tiers.push(TierGroups {
                first_group,
                groups: starts.len() as u32 - first_group,
                records: first_record..records,
            });
        }
        starts.push(u32::try_from(records).expect("records fit 32 bits"));
        let mut before = 0;
        for w in &mut words {
            w.before = before;
            before += w.bits.count_ones();
        }
        GroupIndex {
            states,
            symmetric,
            tiers,
            words,
            starts,
            boards,
            self_symmetric,
        }
    }

    /// The board numbering and tier layout underneath.
    pub fn states(&self) -> &StateIndex {
        &self.states
    }

    /// The piece budget.
    pub fn budget(&self) -> Budget {
        self.states.budget()
    }

    /// True when only canonical boards have groups.
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// Number of records.
    pub fn len(&self) -> u64 {
        u64::from(self.starts[self.starts.len() - 1])
    }

    /// True when there are no records (never).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of groups.
    pub fn groups(&self) -> usize {
        self.starts.len() - 1
    }

    /// Per tier, in the order of [`StateIndex::tiers`].
    pub fn tiers(&self) -> &[TierGroups] {
        &self.tiers
    }

    /// The ordinal of board number `n`'s group, if it has one.
    #[inline]
    pub fn group_of_board(&self, n: u64) -> Option<u32> {
        let w = self.words.get((n / 64) as usize)?;
        let bit = 1u64 << (n % 64);
        (w.bits & bit != 0).then(|| w.before + (w.bits & (bit - 1)).count_ones())
    }

    /// Calls `f(n, g)` for each board numbered in `boards` that has a
    /// group, in order, with the ordinal `g` of its group: a walk over the
    /// bitmap, with no rank per board.
    pub fn for_each_group_of_boards(&self, boards: Range<u64>, mut f: impl FnMut(u64, u32)) {
        let end = boards.end.min(self.states.boards());
        let mut n = boards.start;
        while n < end {
            let w = self.words[(n / 64) as usize];
            let base = n / 64 * 64;
            // The bits from n to the word's end or to `end`.
            let mut bits = w.bits >> (n % 64) << (n % 64);
            if end - base < 64 {
                bits &= (1u64 << (end - base)) - 1;
            }
            let mut g = w.before + (w.bits & ((1u64 << (n % 64)) - 1)).count_ones();
            while bits != 0 {
                f(base + u64::from(bits.trailing_zeros()), g);
                g += 1;
                bits &= bits - 1;
            }
            n = base + 64;
        }
    }

    /// The records of group `g`.
    #[inline]
    pub fn group_records(&self, g: u32) -> Range<u64> {
        u64::from(self.starts[g as usize])..u64::from(self.starts[g as usize + 1])
    }

    /// The record number of `pos`.
    ///
    /// # Errors
    /// The position is over the budget or its forbidden slide is not one a
    /// move could have left.
    #[inline]
    pub fn index(&self, pos: Position) -> Result<u64, IndexError> {
        self.index_and_half_len(pos).map(|(j, _)| j)
    }

    /// The record number of `pos`, and the number of positions in each
    /// half of its group: the position with the same board and forbidden
    /// slide but the other side to move is that many records away.
    ///
    /// # Errors
    /// As [`GroupIndex::index`].
    #[inline]
    pub fn index_and_half_len(&self, pos: Position) -> Result<(u64, u32), IndexError> {
        self.index_and_half_len_counted(pos, pos.board().packed_counts())
    }

    /// [`GroupIndex::index_and_half_len`], given the
    /// [`Board::packed_counts`](games_topitop_rules::Board::packed_counts) of
    /// `pos`'s board, which a caller may know more cheaply (a symmetry
    /// leaves them as they are).
    ///
    /// # Errors
    /// As [`GroupIndex::index`].
    #[inline]
    pub fn index_and_half_len_counted(&self, pos: Position, packed: u64) -> Result<(u64, u32), IndexError> {
        let key = if self.symmetric {
            symmetry::canonical(pos)
        } else {
            pos
        };
        let n = self.states.board_number_counted(key.board(), packed)?;
        let not_indexable = || IndexError::NotIndexable(pos.to_string());
        let g = self.group_of_board(n).ok_or_else(not_indexable)? as usize;
        let first = self.starts[g];
        // Red's half starts halfway through the group, whose size is known
        // here.
        let half = (self.starts[g + 1] - first) / 2;
        let at = if key.forbidden_id() == 0 {
            // Most children: slot 0 of their half.
            match key.turn() {
                Player::Blue => 0,
                Player::Red => half,
            }
        } else {
            slot(key).ok_or_else(not_indexable)? as u32
        };
        Ok((u64::from(first + at), half))
    }

    /// The position with record number `i`.
    ///
    /// # Errors
    /// `i` is not below [`GroupIndex::len`].
    pub fn position(&self, i: u64) -> Result<Position, IndexError> {
        let out_of_range = IndexError::OutOfRange {
            index: i,
            size: self.len(),
        };
        if i >= self.len() {
            return Err(out_of_range);
        }
        let g = self.starts.partition_point(|&s| u64::from(s) <= i) - 1;
        let within = i - u64::from(self.starts[g]);
        group(self.boards[g]).nth(within as usize).ok_or(out_of_range)
    }

    /// The board of group `g`.
    ///
    /// # Panics
    /// `g` is not below [`GroupIndex::groups`].
    #[inline]
    pub fn board_of_group(&self, g: u32) -> Board {
        self.boards[g as usize]
    }

    /// The record numbers of positions kept beside their own images: members
    /// of a self-symmetric board's group that are not canonical. Empty
    /// without symmetry.
    pub fn duplicates(&self) -> impl Iterator<Item = u64> + '_ {
        self.self_symmetric.iter().flat_map(move |&g| {
            let first = u64::from(self.starts[g as usize]);
            group(self.board_of_group(g))
                .enumerate()
                .filter(|&(_, p)| symmetry::canonical(p) != p)
                .map(move |(k, _)| first + k as u64)
        })
    }
}

/// Boards surveyed by one task.
const SURVEY_PIECE: u64 = 1 << 16;

/// The boards of one piece of a tier that have a group, in rank order.
struct Survey {
    /// Their ranks within the tier.
    ranks: Vec<u32>,
    boards: Vec<Board>,
    /// Their group sizes.
    sizes: Vec<u8>,
    /// Places in `boards` of those that a symmetry other than the identity
    /// fixes.
    self_symmetric: Vec<u32>,
}

/// Surveys the boards of `range` with ranks `first..first + SURVEY_PIECE`
/// (or to the tier's end). With symmetry, runs of boards that a smaller
/// corner rules out are jumped over ([`symmetry::non_canonical_prefix`]).
fn survey_boards(states: &StateIndex, range: &TierRange, first: u64, symmetric: bool) -> Survey {
    let mut survey = Survey {
        ranks: Vec::new(),
        boards: Vec::new(),
        sizes: Vec::new(),
        self_symmetric: Vec::new(),
    };
    let end = (first + SURVEY_PIECE).min(range.boards());
    let start = range.board_offset + first;
    let Some(mut board) = states.board_walk(start, start + 1).next() else {
        return survey;
    };
    let mut rank = first;
    while rank < end {
        let mut step = 1;
        let kept = if !symmetric {
            true
        } else if let Some(keep) = symmetry::non_canonical_prefix(board) {
            (step, board) = board.rest_of_prefix(keep);
            false
        } else {
            let standing = symmetry::board_standing(board);
            if standing.canonical && standing.self_symmetric {
                survey.self_symmetric.push(survey.boards.len() as u32);
            }
            standing.canonical
        };
        if kept {
            survey.ranks.push(rank as u32);
            survey.boards.push(board);
            survey.sizes.push(group_len(board) as u8);
        }
        rank += step;
        match board.next_arrangement() {
            Some(next) => board = next,
            None => break,
        }
    }
    survey
}

#[cfg(test)]
mod tests {
    use super::*;
    use games_topitop_rules::group::{half_len, plausible_slides};

    #[test]
    fn every_kept_position_round_trips() {
        for symmetric in [true, false] {
            let gi = GroupIndex::new(Budget::new(1, 1, 2, 1).unwrap(), symmetric);
            let duplicates: std::collections::HashSet<u64> = gi.duplicates().collect();
            for i in (0..gi.len()).filter(|i| !duplicates.contains(i)) {
                let p = gi.position(i).unwrap();
                assert_eq!(gi.index(p).unwrap(), i, "{p}");
            }
        }
    }

    #[test]
    fn every_position_finds_its_class() {
        let budget = Budget::new(1, 1, 2, 2).unwrap();
        let gi = GroupIndex::new(budget, true);
        let states = StateIndex::new(budget);
        let duplicates: std::collections::HashSet<u64> = gi.duplicates().collect();
        let mut classes = std::collections::HashSet::new();
        for p in states.walk(0, states.len()) {
            let i = gi.index(p).unwrap();
            let c = gi.position(i).unwrap();
            assert_eq!(symmetry::canonical(p), c, "{p}");
            assert!(!duplicates.contains(&i), "{p} maps to a duplicate");
            classes.insert(i);
        }
        assert_eq!(classes.len() as u64 + duplicates.len() as u64, gi.len());
        assert!(!duplicates.is_empty());
    }

    #[test]
    fn the_half_length_leads_to_the_other_side_to_move() {
        let budget = Budget::new(1, 1, 2, 2).unwrap();
        for symmetric in [true, false] {
            let gi = GroupIndex::new(budget, symmetric);
            let states = StateIndex::new(budget);
            for p in states.walk(0, states.len()) {
                let (i, half) = gi.index_and_half_len(p).unwrap();
                assert_eq!(i, gi.index(p).unwrap(), "{p}");
                assert_eq!(half as usize, half_len(plausible_slides(p.board())), "{p}");
                let flipped = Position::new(p.board(), p.turn().opponent(), p.forbidden());
                let j = gi.index(flipped).unwrap();
                match p.turn() {
                    Player::Blue => assert_eq!(j, i + u64::from(half), "{p}"),
                    Player::Red => assert_eq!(j + u64::from(half), i, "{p}"),
                }
            }
        }
    }

    #[test]
    fn the_group_walk_finds_every_group_in_order() {
        for symmetric in [true, false] {
            let gi = GroupIndex::new(Budget::new(1, 1, 2, 2).unwrap(), symmetric);
            let boards = gi.states().boards();
            for range in [0..boards, 0..1, 3..70, 63..64, 64..200, 100..boards + 5, 7..7] {
                let mut seen = Vec::new();
                gi.for_each_group_of_boards(range.clone(), |n, g| seen.push((n, g)));
                let expected: Vec<(u64, u32)> = range
                    .clone()
                    .filter_map(|n| gi.group_of_board(n).map(|g| (n, g)))
                    .collect();
                assert_eq!(seen, expected, "{range:?}");
            }
        }
    }

    #[test]
    fn tiers_are_contiguous() {
        let gi = GroupIndex::new(Budget::new(2, 1, 2, 2).unwrap(), true);
        let mut next = 0;
        for t in gi.tiers() {
            assert_eq!(t.records.start, next);
            next = t.records.end;
        }
        assert_eq!(next, gi.len());
    }
}
