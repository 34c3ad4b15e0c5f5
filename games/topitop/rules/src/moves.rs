//! Moves with GamesmanClassic's move codes and strings, and the move list.

use std::fmt;
use std::str::FromStr;

use crate::cell::{Cell, Player};
use crate::error::ParseMoveError;
use crate::geometry::{adjacent, CELLS, SLIDE_IDS};

/// A piece taken from the box and placed on an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Piece {
    /// A blue bucket (code 0, letter `B`).
    BlueBucket = 0,
    /// A red bucket (code 1, letter `R`).
    RedBucket = 1,
    /// A small sand pile (code 2, letter `S`).
    Small = 2,
    /// A large sand pile (code 3, letter `L`).
    Large = 3,
}

impl Piece {
    /// The cell the piece makes when placed.
    pub const fn cell(self) -> Cell {
        match self {
            Piece::BlueBucket => Cell::BlueBucket,
            Piece::RedBucket => Cell::RedBucket,
            Piece::Small => Cell::Small,
            Piece::Large => Cell::Large,
        }
    }

    /// The letter used in move strings.
    pub const fn letter(self) -> char {
        self.cell().to_char()
    }

    /// `player`'s bucket.
    pub const fn bucket_of(player: Player) -> Piece {
        match player {
            Player::Blue => Piece::BlueBucket,
            Player::Red => Piece::RedBucket,
        }
    }

    const fn from_code(code: u16) -> Piece {
        match code & 3 {
            0 => Piece::BlueBucket,
            1 => Piece::RedBucket,
            2 => Piece::Small,
            _ => Piece::Large,
        }
    }
}

/// A move, stored as its GamesmanClassic move code.
///
/// The code is `to | from << 4 | piece << 8 | p2Turn << 12` with 0-based
/// cells; a placement has `to == from`; slides use piece code 0; the p2Turn
/// bit is set exactly on red-bucket placements; the pass is 1023.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

/// The decoded form of a [`Move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// Put `piece` on the empty cell `cell` (0-based).
    Place {
        /// What is put there: a bucket or a castle piece.
        piece: Piece,
        /// The cell, 0-based.
        cell: usize,
    },
    /// Slide the structure on `from` one step to `to` (0-based).
    Slide {
        /// Source cell, 0-based.
        from: usize,
        /// Destination cell, 0-based.
        to: usize,
    },
    /// No other move exists: the turn passes.
    Pass,
}

const PASS_CODE: u16 = 0b11_1111_1111;

impl Move {
    /// The pass (`None`, code 1023).
    pub const PASS: Move = Move(PASS_CODE);

    /// Place `piece` on `cell` (0-based, below 9).
    #[inline]
    pub const fn place(piece: Piece, cell: usize) -> Move {
        let red = matches!(piece, Piece::RedBucket) as u16;
        Move(cell as u16 | (cell as u16) << 4 | (piece as u16) << 8 | red << 12)
    }

    /// Slide from `from` to `to` (0-based neighbours).
    #[inline]
    pub const fn slide(from: usize, to: usize) -> Move {
        Move(to as u16 | (from as u16) << 4)
    }

    /// The move with GamesmanClassic code `code`, if it is one the module
    /// generates: the pass, a placement with the right p2Turn bit, or a
    /// slide between neighbours.
    pub fn from_code(code: i64) -> Option<Move> {
        let code = u16::try_from(code).ok()?;
        if code == PASS_CODE {
            return Some(Move::PASS);
        }
        let to = (code & 15) as usize;
        let from = ((code >> 4) & 15) as usize;
        let piece = (code >> 8) & 15;
        let p2 = code >> 12;
        let ok = if to == from {
            to < CELLS && piece < 4 && p2 == u16::from(piece == 1)
        } else {
            adjacent(from, to) && piece == 0 && p2 == 0
        };
        ok.then_some(Move(code))
    }

    /// The GamesmanClassic move code.
    #[inline]
    pub const fn code(self) -> u16 {
        self.0
    }

    /// True for the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == PASS_CODE
    }

    /// The id of the slide this move plays (1..=40), or 0 for a placement
    /// or the pass: the forbidden slide that would exclude it.
    #[inline]
    pub const fn slide_id(self) -> u8 {
        let to = (self.0 & 15) as usize;
        let from = ((self.0 >> 4) & 15) as usize;
        if self.is_pass() || to == from {
            0
        } else {
            SLIDE_IDS[from][to]
        }
    }

    /// The move decoded.
    pub const fn kind(self) -> MoveKind {
        if self.is_pass() {
            return MoveKind::Pass;
        }
        let to = (self.0 & 15) as usize;
        let from = ((self.0 >> 4) & 15) as usize;
        if to == from {
            MoveKind::Place {
                piece: Piece::from_code(self.0 >> 8),
                cell: to,
            }
        } else {
            MoveKind::Slide { from, to }
        }
    }
}

/// GamesmanClassic's move string: `B5`, `S1`, `4-5` or `None`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Pass => f.write_str("None"),
            MoveKind::Place { piece, cell } => write!(f, "{}{}", piece.letter(), cell + 1),
            MoveKind::Slide { from, to } => write!(f, "{}-{}", from + 1, to + 1),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses a move string. Placement letters may be lower case and the pass
    /// is `None` in any case. Unlike upstream's text input, `R5` gives the
    /// code the move generator uses (with the p2Turn bit).
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let syntax = || ParseMoveError::Syntax(s.to_string());
        if s.eq_ignore_ascii_case("none") {
            return Ok(Move::PASS);
        }
        let digit = |c: u8| (b'1'..=b'9').contains(&c).then(|| usize::from(c - b'1'));
        match s.as_bytes() {
            [p, c] => {
                let piece = match p.to_ascii_uppercase() {
                    b'B' => Piece::BlueBucket,
                    b'R' => Piece::RedBucket,
                    b'S' => Piece::Small,
                    b'L' => Piece::Large,
                    _ => return Err(syntax()),
                };
                Ok(Move::place(piece, digit(*c).ok_or_else(syntax)?))
            }
            [a, b'-', b] => {
                let (from, to) = (digit(*a).ok_or_else(syntax)?, digit(*b).ok_or_else(syntax)?);
                if adjacent(from, to) {
                    Ok(Move::slide(from, to))
                } else {
                    Err(ParseMoveError::NotAdjacent(s.to_string()))
                }
            }
            _ => Err(syntax()),
        }
    }
}

/// Enough room for any position's moves: at most 3 placements on each of 9
/// empty cells (27, reached only on the empty board, which has no slides)
/// and at most one slide per ordered neighbour pair (40).
pub const MAX_MOVES: usize = 27 + 40;

/// A fixed-capacity list of moves, in generation order.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::PASS; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// When the list is full, which [`MAX_MOVES`] rules out for generated moves.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Writes `m` after the last move and keeps it only if `keep`: move
    /// generation without a branch per candidate. The slot written must
    /// exist, which [`MAX_MOVES`] (one per candidate move) guarantees when
    /// the list starts empty.
    #[inline(always)]
    pub(crate) fn push_if(&mut self, m: Move, keep: bool) {
        // Clamped rather than checked: a branch-free store (the clamp
        // never bites on an empty start).
        self.moves[self.len.min(MAX_MOVES - 1)] = m;
        self.len += usize::from(keep);
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
