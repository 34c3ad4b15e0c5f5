//! The board: its size, its cells and their names, the eight directions
//! and the king's distance that every range in the rules is measured in.

use std::fmt;
use std::str::FromStr;

use crate::error::RulesError;

/// The bits of a bitboard, lowest first, as cell numbers.
pub(crate) fn cells_of(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let cell = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        Some(cell)
    })
}

/// An R×C board, 2 ≤ R, C ≤ 8. Cell `b` is row `b / C` (row 0 is row 1,
/// at the bottom) and column `b % C` (column 0 is file `a`, at the left);
/// it is bit `b` of a bitboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

impl Shape {
    /// The default board.
    pub const STANDARD: Shape = Shape { rows: 8, cols: 8 };

    /// An R×C board.
    ///
    /// # Errors
    /// R or C outside 2..=8.
    pub fn new(rows: u8, cols: u8) -> Result<Shape, RulesError> {
        if !(2..=8).contains(&rows) || !(2..=8).contains(&cols) {
            return Err(RulesError::Board(format!("{rows}x{cols}")));
        }
        Ok(Shape { rows, cols })
    }

    /// Rows.
    pub fn rows(self) -> u8 {
        self.rows
    }

    /// Columns.
    pub fn cols(self) -> u8 {
        self.cols
    }

    /// R·C.
    pub fn cells(self) -> u8 {
        self.rows * self.cols
    }

    /// Every cell of the board as a bitboard.
    pub fn mask(self) -> u64 {
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    /// The cell's (row, column), both from 0.
    pub fn coords(self, cell: u8) -> (i32, i32) {
        (i32::from(cell / self.cols), i32::from(cell % self.cols))
    }

    /// The cell at (row, column), if it is on the board.
    pub fn cell_at(self, row: i32, col: i32) -> Option<u8> {
        let inside = (0..i32::from(self.rows)).contains(&row) && (0..i32::from(self.cols)).contains(&col);
        inside.then(|| (row * i32::from(self.cols) + col) as u8)
    }

    /// The cell `k` steps from `cell` towards `dir`, if on the board.
    pub fn step(self, cell: u8, dir: Direction, k: i32) -> Option<u8> {
        let (r, c) = self.coords(cell);
        let (dr, dc) = dir.delta();
        self.cell_at(r + k * dr, c + k * dc)
    }

    /// The king's distance (Chebyshev: a diagonal step counts one).
    pub fn distance(self, a: u8, b: u8) -> u32 {
        let (ra, ca) = self.coords(a);
        let (rb, cb) = self.coords(b);
        ra.abs_diff(rb).max(ca.abs_diff(cb))
    }

    /// The cells within king's distance `radius` of `cell`, itself
    /// included.
    pub fn within(self, cell: u8, radius: i32) -> u64 {
        let (r, c) = self.coords(cell);
        let mut mask = 0;
        for dr in -radius..=radius {
            for dc in -radius..=radius {
                if let Some(b) = self.cell_at(r + dr, c + dc) {
                    mask |= 1u64 << b;
                }
            }
        }
        mask
    }

    /// The (up to eight) cells a king's step from `cell`.
    pub fn neighbours(self, cell: u8) -> u64 {
        self.within(cell, 1) & !(1u64 << cell)
    }

    /// The cell's name: its file letter and row number, `a1` at the
    /// bottom left.
    pub fn name(self, cell: u8) -> String {
        let (r, c) = self.coords(cell);
        format!("{}{}", char::from(b'a' + c as u8), r + 1)
    }

    /// The cell a name such as `b2` gives, if on this board.
    pub fn parse_cell(self, text: &str) -> Option<u8> {
        let mut chars = text.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rest = chars.as_str();
        // One spelling a cell: `b02` and `b+2` are not names.
        if rest.is_empty() || rest.starts_with('0') || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: i32 = rest.parse().ok()?;
        self.cell_at(row - 1, i32::from(file as u8 - b'a'))
    }
}

impl fmt::Display for Shape {
    /// `RxC`, e.g. `8x8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = RulesError;

    /// `RxC`, e.g. `3x4` ([`topitop_game_api::board::parse_size`]).
    fn from_str(s: &str) -> Result<Shape, RulesError> {
        let bad = || RulesError::Board(s.to_string());
        let (r, c) = topitop_game_api::board::parse_size(s).ok_or_else(bad)?;
        Shape::new(r, c).map_err(|_| bad())
    }
}

/// One of the eight directions a topple can fall in. North is towards
/// higher rows (up, as [`Game::show`](topitop_game_api::Game::show)
/// draws the board), east towards later files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Direction {
    /// Up.
    N,
    /// Up and right.
    NE,
    /// Right.
    E,
    /// Down and right.
    SE,
    /// Down.
    S,
    /// Down and left.
    SW,
    /// Left.
    W,
    /// Up and left.
    NW,
}

impl Direction {
    /// All eight, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// (rows, columns) of one step.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::N => (1, 0),
            Direction::NE => (1, 1),
            Direction::E => (0, 1),
            Direction::SE => (-1, 1),
            Direction::S => (-1, 0),
            Direction::SW => (-1, -1),
            Direction::W => (0, -1),
            Direction::NW => (1, -1),
        }
    }

    /// `n`, `ne`, `e`, `se`, `s`, `sw`, `w`, `nw`.
    pub fn name(self) -> &'static str {
        ["n", "ne", "e", "se", "s", "sw", "w", "nw"][self as usize]
    }

    /// The direction a name gives.
    pub fn from_name(name: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_have_one_spelling() {
        let s = Shape::new(3, 4).unwrap();
        for b in 0..s.cells() {
            assert_eq!(s.parse_cell(&s.name(b)), Some(b));
        }
        assert_eq!(s.name(0), "a1");
        assert_eq!(s.name(11), "d3");
        for bad in ["e1", "a4", "a0", "a01", "A1", "", "a", "a+1"] {
            assert_eq!(s.parse_cell(bad), None, "{bad}");
        }
        assert_eq!("3x4".parse::<Shape>(), Ok(s));
        assert!("3X4".parse::<Shape>().is_err());
        assert!("9x4".parse::<Shape>().is_err());
    }

    #[test]
    fn ranges_are_king_distances() {
        let s = Shape::STANDARD;
        let d4 = s.parse_cell("d4").unwrap();
        assert_eq!(s.within(d4, 2).count_ones(), 25);
        assert_eq!(s.neighbours(d4).count_ones(), 8);
        assert_eq!(s.neighbours(0).count_ones(), 3);
        assert_eq!(s.distance(0, 63), 7);
        assert_eq!(s.step(0, Direction::NE, 2), s.parse_cell("c3"));
        assert_eq!(s.step(0, Direction::S, 1), None);
    }
}
