//! What can be wrong with a board size, a variant, a position or a move.

/// A board size or variant that Topolo does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A board outside 2×2 ..= 8×8, or not written `RxC`.
    #[error("board {0:?}: give it as RxC (digits, a lowercase x) with 2 to 8 rows and 2 to 8 columns, e.g. 8x8 or 3x4")]
    Board(String),
    /// An unknown variant name.
    #[error("unknown Topolo variant {0:?} (use full or size-only)")]
    Variant(String),
}

/// A position or move string that is not one of this board's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The string's shape is wrong: rows, row lengths or characters.
    #[error("position {text:?}: {why}")]
    Syntax {
        /// The string (shortened if long).
        text: String,
        /// What is wrong.
        why: String,
    },
    /// Well formed, but no play from the empty board reaches it.
    #[error("position {text:?} cannot be reached: {why}")]
    Unreachable {
        /// The string.
        text: String,
        /// Why not.
        why: String,
    },
    /// A move string that is not a size letter and a cell of this board.
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
