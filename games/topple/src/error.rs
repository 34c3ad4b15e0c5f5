//! What can be wrong with a board size, a supply, a position or a move.

/// A board size or supply that Topple does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A board outside 2×2 ..= 8×8, or not written `RxC`.
    #[error("board {0:?}: give it as RxC (digits, a lowercase x) with 2 to 8 rows and 2 to 8 columns, e.g. 8x8 or 3x3")]
    Board(String),
    /// A supply outside 2..=255, or not written `sN`.
    #[error("supply {0:?}: give it as sN with N from 2 to 255 pieces, e.g. s64 or s8")]
    Supply(String),
    /// A variant string that is not `RxC-sN`.
    #[error("{0:?} is not a Topple variant string (RxC-sN, e.g. 8x8-s64 or 3x3-s8)")]
    Variant(String),
}

/// A position or move string that is not one of this game's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The string's shape is wrong: fields, rows, row lengths or characters.
    #[error("position {text:?}: {why}")]
    Syntax {
        /// The string (shortened if long).
        text: String,
        /// What is wrong.
        why: String,
    },
    /// Well formed, but not a position of play.
    #[error("position {text:?} is impossible: {why}")]
    Impossible {
        /// The string (shortened if long).
        text: String,
        /// The rule it breaks.
        why: String,
    },
    /// A move string that is not a move of this board.
    #[error("move {text:?}: {why}")]
    Move {
        /// The string.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// A move the rules do not allow in this position.
    #[error("move {text} is not legal here: {why}")]
    Illegal {
        /// The move.
        text: String,
        /// Why not.
        why: String,
    },
}
