//! A Topolo position: the board, as four bitboards.

use crate::piece::{Color, Size};

/// The pieces on the board: who owns each occupied cell and its size.
/// Everything else (the side to move, the pieces left, the row class being
/// filled) follows from it under the rules of a [`Topolo`](crate::Topolo).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Red's cells.
    pub red: u64,
    /// Black's cells.
    pub black: u64,
    /// Cells holding a mid piece (either colour).
    pub mid: u64,
    /// Cells holding a large piece (either colour).
    pub large: u64,
}

impl Position {
    /// The empty board.
    pub const EMPTY: Position = Position {
        red: 0,
        black: 0,
        mid: 0,
        large: 0,
    };

    /// The occupied cells.
    pub fn occupied(&self) -> u64 {
        self.red | self.black
    }

    /// Pieces on the board.
    pub fn placed(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The cells of `color`.
    pub fn of(&self, color: Color) -> u64 {
        match color {
            Color::Red => self.red,
            Color::Black => self.black,
        }
    }

    /// The cells holding pieces of `size` (either colour).
    pub fn sized(&self, size: Size) -> u64 {
        match size {
            Size::Small => self.occupied() & !(self.mid | self.large),
            Size::Mid => self.mid,
            Size::Large => self.large,
        }
    }

    /// The piece on bit `bit`, if any.
    pub fn at(&self, bit: u32) -> Option<(Color, Size)> {
        let b = 1u64 << bit;
        let color = if self.red & b != 0 {
            Color::Red
        } else if self.black & b != 0 {
            Color::Black
        } else {
            return None;
        };
        let size = if self.mid & b != 0 {
            Size::Mid
        } else if self.large & b != 0 {
            Size::Large
        } else {
            Size::Small
        };
        Some((color, size))
    }

    /// How many pieces of `size` `color` has placed.
    pub fn count(&self, color: Color, size: Size) -> u32 {
        (self.of(color) & self.sized(size)).count_ones()
    }

    /// The position with a piece put on bit `bit` (which must be empty).
    #[must_use]
    pub fn with(&self, bit: u32, color: Color, size: Size) -> Position {
        let b = 1u64 << bit;
        debug_assert_eq!(self.occupied() & b, 0, "bit {bit} is taken");
        let mut p = *self;
        match color {
            Color::Red => p.red |= b,
            Color::Black => p.black |= b,
        }
        match size {
            Size::Small => {}
            Size::Mid => p.mid |= b,
            Size::Large => p.large |= b,
        }
        p
    }

    /// The position with every bitboard mapped by `f` (a symmetry).
    #[must_use]
    pub fn map(&self, f: impl Fn(u64) -> u64) -> Position {
        Position {
            red: f(self.red),
            black: f(self.black),
            mid: f(self.mid),
            large: f(self.large),
        }
    }
}
