//! A position: board, side to move and the forbidden (no-undo) slide.

use std::fmt;

use crate::board::Board;
use crate::budget::Budget;
use crate::cell::{Cell, Player};
use crate::error::PositionError;
use crate::geometry::Slide;

/// A position packed into 64 bits.
///
/// Layout: bits 0..6 the forbidden slide id (0 = none), bits 8..44 the
/// [`Board`], bit 48 set when Red is to move. Two positions with the same
/// turn therefore compare like GamesmanClassic tier positions of one tier
/// (board rank first, then slide id), which the canonical form relies on.
///
/// A `Position` may be *raw*: any slide id with any board, as the
/// GamesmanClassic hash enumerates them. [`Position::validate`] tells whether
/// it could arise in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position(u64);

const BOARD_SHIFT: u32 = 8;
const TURN_BIT: u64 = 1 << 48;

impl Position {
    /// The start: empty board, Blue to move, nothing forbidden.
    pub const START: Position = Position(0);

    /// A position from its parts, without any check that it could occur.
    #[inline]
    pub fn new(board: Board, turn: Player, forbidden: Option<Slide>) -> Position {
        let d = forbidden.map_or(0, Slide::id) as u64;
        Position(d | board.bits() << BOARD_SHIFT | if turn == Player::Red { TURN_BIT } else { 0 })
    }

    /// The packed bits (see the type's layout).
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The position with packed bits `bits`, if they follow the layout.
    pub fn from_bits(bits: u64) -> Option<Position> {
        let board = Board::from_bits((bits >> BOARD_SHIFT) & ((1 << 36) - 1))?;
        let d = (bits & 0xFF) as u8;
        let forbidden = if d == 0 { None } else { Some(Slide::from_id(d)?) };
        let turn = if bits & TURN_BIT != 0 {
            Player::Red
        } else {
            Player::Blue
        };
        let p = Position::new(board, turn, forbidden);
        (p.0 == bits).then_some(p)
    }

    /// The board alone, without the side to move or a forbidden slide.
    #[inline]
    pub fn board(self) -> Board {
        // Every constructor keeps valid board bits here.
        Board::from_bits_trusted((self.0 >> BOARD_SHIFT) & ((1 << 36) - 1))
    }

    /// The side to move.
    #[inline]
    pub const fn turn(self) -> Player {
        if self.0 & TURN_BIT != 0 {
            Player::Red
        } else {
            Player::Blue
        }
    }

    /// The slide the side to move may not play, if any.
    #[inline]
    pub const fn forbidden(self) -> Option<Slide> {
        Slide::from_id((self.0 & 0xFF) as u8)
    }

    /// GamesmanClassic's forbidden-slide id, 0..=40.
    #[inline]
    pub const fn forbidden_id(self) -> u8 {
        (self.0 & 0xFF) as u8
    }

    /// The same board and turn with another forbidden slide.
    #[must_use]
    pub fn with_forbidden(self, forbidden: Option<Slide>) -> Position {
        Position::new(self.board(), self.turn(), forbidden)
    }

    /// Pieces not yet placed, as (blue buckets, red buckets, smalls, larges).
    /// Saturates at 0 for a board over the budget.
    pub fn pieces_left(self, budget: Budget) -> [u8; 4] {
        let used = self.board().pieces_used();
        let total = budget.counts();
        std::array::from_fn(|i| total[i].saturating_sub(used[i]))
    }

    /// True when the forbidden slide is one a move can set: a neutral S, L
    /// or C stands on its source cell and its destination is empty.
    pub fn forbidden_is_plausible(self) -> bool {
        match self.forbidden() {
            None => true,
            Some(s) => {
                let b = self.board();
                b.get(s.from()).is_neutral() && b.get(s.to()) == Cell::Empty
            }
        }
    }

    /// True when the position could occur in a game with `budget`: the one
    /// definition of a position of play. `query`, `export`, `stats`,
    /// `solve`'s counts and the server all use it; the states it refuses
    /// (the side to move already owning two castles, both players owning
    /// two, a forbidden slide left after the game ended) are solved and
    /// stored only because GamesmanClassic's hash has slots for them.
    pub fn is_valid(self, budget: Budget) -> bool {
        self.validate(budget).is_ok()
    }

    /// Checks that the position could occur in a game with `budget`.
    ///
    /// # Errors
    /// The first problem found: more pieces than the budget holds, both
    /// players crowned twice, a forbidden slide no move could have left, the
    /// side to move already having won, or a forbidden slide after the game
    /// was over.
    pub fn validate(self, budget: Budget) -> Result<(), PositionError> {
        let board = self.board();
        let used = board.pieces_used();
        let names = ["blue buckets", "red buckets", "small piles", "large piles"];
        for i in 0..4 {
            if used[i] > budget.counts()[i] {
                return Err(PositionError::TooManyPieces {
                    kind: names[i],
                    found: used[i],
                    max: budget.counts()[i],
                });
            }
        }
        let blue = board.castles_of(Player::Blue);
        let red = board.castles_of(Player::Red);
        if blue >= 2 && red >= 2 {
            return Err(PositionError::BothWon);
        }
        let mover = self.turn();
        if board.castles_of(mover) >= 2 {
            return Err(PositionError::MoverAlreadyWon { mover });
        }
        if let Some(s) = self.forbidden() {
            let src = board.get(s.from());
            if !src.is_neutral() {
                return Err(PositionError::ImpossibleForbidden {
                    slide: s,
                    reason: format!(
                        "cell {} holds {} instead of a neutral S, L or C",
                        s.from() + 1,
                        src
                    ),
                });
            }
            if board.get(s.to()) != Cell::Empty {
                return Err(PositionError::ImpossibleForbidden {
                    slide: s,
                    reason: format!("cell {} is not empty", s.to() + 1),
                });
            }
            if board.castles_of(mover.opponent()) >= 2 {
                return Err(PositionError::ImpossibleForbidden {
                    slide: s,
                    reason: "the game was already over before that slide".to_string(),
                });
            }
        }
        Ok(())
    }
}

/// A position from bits that the move code produced from a valid position.
#[inline(always)]
pub(crate) const fn from_bits_trusted(bits: u64) -> Position {
    Position(bits)
}

impl Default for Position {
    fn default() -> Self {
        Position::START
    }
}

/// The one-line GamesmanClassic string, e.g. `1_LS-L-SLLS45`.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.turn().digit(), self.board())?;
        if let Some(s) = self.forbidden() {
            write!(f, "{}{}", s.from() + 1, s.to() + 1)?;
        }
        Ok(())
    }
}
