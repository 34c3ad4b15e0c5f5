//! Typed errors of the rules crate. Each carries the evidence a person needs.

use thiserror::Error;

use crate::cell::Player;
use crate::geometry::Slide;

/// A piece budget that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BudgetError {
    /// More pieces of one kind than cells on the board.
    #[error("a budget of {count} {kind} is more than the 9 cells can hold")]
    TooMany {
        /// The piece kind.
        kind: &'static str,
        /// The count asked for.
        count: u8,
    },
    /// Not of the form `B/R/S/L`.
    #[error("piece budget {0:?} is not of the form B/R/S/L, e.g. 2/2/4/4")]
    Syntax(String),
}

/// A position that cannot arise in play.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// More pieces of one kind on the board than exist.
    #[error("{found} {kind} on the board, but only {max} exist")]
    TooManyPieces {
        /// The piece kind.
        kind: &'static str,
        /// How many the board holds.
        found: u8,
        /// How many the budget has.
        max: u8,
    },
    /// Both players have two crowned castles; the game ends at the first pair.
    #[error("both players have two castles; the game ends when the first player gets two")]
    BothWon,
    /// The side to move already has two castles: the game ended on their own move.
    #[error("{mover} is to move but already has two castles; the game ended on {mover}'s move")]
    MoverAlreadyWon {
        /// The side to move.
        mover: Player,
    },
    /// A forbidden slide that no move could have left.
    #[error("forbidden slide {slide} could not have happened: {reason}")]
    ImpossibleForbidden {
        /// The forbidden slide the position string gives.
        slide: Slide,
        /// Why not.
        reason: String,
    },
}

/// A one-line position string that does not describe a position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParsePositionError {
    /// Not 11 or 13 characters.
    #[error("position string {input:?} has {len} characters; expected 11 (`1_---------`) or 13 (with a forbidden slide, `1_LS-L-SLLS45`)")]
    Length {
        /// The position string as given.
        input: String,
        /// Its length in characters.
        len: usize,
    },
    /// The first character is not `1` or `2`.
    #[error(
        "position string {input:?} must start with the side to move, `1` (Blue) or `2` (Red), not {found:?}"
    )]
    Turn {
        /// The position string as given.
        input: String,
        /// The character found.
        found: char,
    },
    /// The second character is not `_`.
    #[error("position string {input:?} must have `_` after the turn digit, not {found:?}")]
    Separator {
        /// The position string as given.
        input: String,
        /// The character found.
        found: char,
    },
    /// A cell character outside `-BRSLXOCPQ`.
    #[error("position string {input:?}: cell {cell} is {found:?}, which is none of - B R S L X O C P Q")]
    UnknownCell {
        /// The position string as given.
        input: String,
        /// The 1-based cell.
        cell: usize,
        /// The character found.
        found: char,
    },
    /// The trailing forbidden slide is not two digits naming neighbouring cells.
    #[error("position string {input:?}: the forbidden slide {found:?} must be two digits 1-9 naming neighbouring cells")]
    Slide {
        /// The position string as given.
        input: String,
        /// The two trailing characters.
        found: String,
    },
    /// Well formed, but not a position of the game.
    #[error("position string {input:?} is not a possible position: {reason}")]
    Impossible {
        /// The position string as given.
        input: String,
        /// What is wrong.
        reason: PositionError,
    },
}

/// A move string that names no move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseMoveError {
    /// Not `B5`, `R5`, `S5`, `L5`, `4-5` or `None`.
    #[error("move {0:?} is not a placement (B5, R5, S5, L5), a slide (4-5) or the pass (None)")]
    Syntax(String),
    /// A slide between cells that are not neighbours.
    #[error("move {0:?} slides between cells that are not neighbours")]
    NotAdjacent(String),
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("move {mv} is not legal in position {position}")]
pub struct IllegalMove {
    /// The move string.
    pub mv: String,
    /// The position string.
    pub position: String,
}

/// An unknown ruleset or variant.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    /// Variant outside 0..=7.
    #[error("unknown variant {0}; Topitop has variants 0 to 7 (bit 0: no move loses, bit 1: tying rule, bit 2: misère)")]
    UnknownVariant(i64),
    /// Ruleset name other than v0 or v1.
    #[error("unknown ruleset {0:?}; expected v0 (the older rules) or v1 (GamesmanClassic's current module)")]
    UnknownRuleset(String),
    /// A variant other than 0 with v0.
    #[error("the v0 ruleset has no variants, but variant {0} was asked for")]
    V0HasNoVariants(u8),
}

/// A GamesmanClassic tier or tier position that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HashError {
    /// A tier whose counts exceed the board or the budget.
    #[error("tier {tier:#x} is not a tier of this game")]
    BadTier {
        /// The tier number.
        tier: u64,
    },
    /// A tier position at or past the tier's size.
    #[error("tier position {position} is outside tier {tier:#x}, which has {size} positions")]
    OutOfRange {
        /// The tier number.
        tier: u64,
        /// The tier position.
        position: u64,
        /// The tier's size.
        size: u64,
    },
}

/// A position that has no place in the dense index.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IndexError {
    /// Over the budget, or a forbidden slide no move could set.
    #[error("position {0} is not indexable: over the piece budget or an implausible forbidden slide")]
    NotIndexable(String),
    /// An index at or past the end.
    #[error("index {index} is outside the index of {size} states")]
    OutOfRange {
        /// The index asked for.
        index: u64,
        /// The number of states.
        size: u64,
    },
}
