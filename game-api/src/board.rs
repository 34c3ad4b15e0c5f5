//! The one way a board's size is written on the command line, in file
//! names and in variant ids: `RxC`, rows then columns, each a whole
//! number without sign, leading zero or space, joined by a lowercase `x`.
//! Every game with rectangular boards reads sizes through this, so one
//! string gets one answer whatever the game.
//!
//! [`Shape`] is such a board's geometry, one copy for every game: cell
//! `b` is row `b / C` and column `b % C`, both from 0, and bit `b` of a
//! `u64` bitboard. A game's index and its database files are laid out in
//! this numbering, so it must never change; how a game *names* cells
//! (numbers, or a file letter and a rank) is the game's own.

use std::fmt;
use std::str::FromStr;

/// The rows and columns `text` writes as `RxC`, or `None` when it is not
/// written that way (a game then checks the sizes are its own).
///
/// # Examples
///
/// ```
/// use topitop_game_api::board::{parse_size, Shape};
///
/// assert_eq!(parse_size("3x4"), Some((3, 4)));
/// // One spelling only: no capital X, leading zero or space.
/// assert_eq!(parse_size("3X4"), None);
/// assert_eq!(parse_size("03x4"), None);
/// let shape = Shape::new(3, 4).unwrap();
/// assert_eq!((shape.cells(), shape.all()), (12, 0xFFF));
/// assert!(Shape::new(9, 9).is_err());
/// ```
pub fn parse_size(text: &str) -> Option<(u8, u8)> {
    let (r, c) = text.split_once('x')?;
    let number = |t: &str| -> Option<u8> {
        let canonical = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) && !t.starts_with('0');
        canonical.then(|| t.parse().ok()).flatten()
    };
    Some((number(r)?, number(c)?))
}

/// A board size no [`Shape`] has: `RxC` misspelt, or a side outside
/// 2..=8. Holds the text as given; each game words its own message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSize(pub String);

/// An R×C board, 2 ≤ R, C ≤ 8 (see the module's text for its cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

impl Shape {
    /// The largest board, 8×8: the real board of the games played on one.
    pub const STANDARD: Shape = Shape { rows: 8, cols: 8 };

    /// An R×C board.
    ///
    /// # Errors
    /// R or C outside 2..=8.
    pub fn new(rows: u8, cols: u8) -> Result<Shape, BadSize> {
        if !(2..=8).contains(&rows) || !(2..=8).contains(&cols) {
            return Err(BadSize(format!("{rows}x{cols}")));
        }
        Ok(Shape { rows, cols })
    }

    /// R, the number of rows.
    #[inline]
    pub fn rows(self) -> u8 {
        self.rows
    }

    /// C, the number of columns.
    #[inline]
    pub fn cols(self) -> u8 {
        self.cols
    }

    /// R·C, at most 64.
    #[inline]
    pub fn cells(self) -> u8 {
        self.rows * self.cols
    }

    /// The bitboard of every cell.
    #[inline]
    pub fn all(self) -> u64 {
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    /// The bitboard of row `r` (from 0).
    #[inline]
    pub fn row(self, r: u8) -> u64 {
        let one_row = (1u64 << self.cols) - 1;
        one_row << (u32::from(r) * u32::from(self.cols))
    }

    /// The cell's (row, column), both from 0.
    #[inline]
    pub fn coords(self, cell: u8) -> (i32, i32) {
        (i32::from(cell / self.cols), i32::from(cell % self.cols))
    }

    /// The cell at (row, column), if it is on the board.
    #[inline]
    pub fn cell_at(self, row: i32, col: i32) -> Option<u8> {
        let inside = (0..i32::from(self.rows)).contains(&row) && (0..i32::from(self.cols)).contains(&col);
        inside.then(|| (row * i32::from(self.cols) + col) as u8)
    }

    /// The cell `k` steps of (rows, columns) `delta` from `cell`, if on the
    /// board.
    #[inline]
    pub fn step(self, cell: u8, (dr, dc): (i32, i32), k: i32) -> Option<u8> {
        let (r, c) = self.coords(cell);
        self.cell_at(r + k * dr, c + k * dc)
    }

    /// The king's distance (Chebyshev: a diagonal step counts one).
    #[inline]
    pub fn distance(self, a: u8, b: u8) -> u32 {
        let (ra, ca) = self.coords(a);
        let (rb, cb) = self.coords(b);
        ra.abs_diff(rb).max(ca.abs_diff(cb))
    }

    /// The cells within king's distance `radius` of `cell`, itself
    /// included.
    #[inline]
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
    #[inline]
    pub fn king_neighbours(self, cell: u8) -> u64 {
        self.within(cell, 1) & !(1u64 << cell)
    }

    /// The cells not in the first column (a step left from them stays on
    /// the board).
    #[inline]
    pub fn not_first_col(self) -> u64 {
        (0..self.rows).fold(0, |m, r| m | (self.row(r) & (self.row(r) << 1)))
    }

    /// The cells not in the last column.
    #[inline]
    pub fn not_last_col(self) -> u64 {
        (0..self.rows).fold(0, |m, r| m | (self.row(r) & (self.row(r) >> 1)))
    }

    /// The cells orthogonally next to a cell of `m` (in a row or column),
    /// on the board.
    #[inline]
    pub fn orthogonal_neighbours(self, m: u64) -> u64 {
        let c = u32::from(self.cols);
        let up = m << c;
        let down = m >> c;
        let right = (m & self.not_last_col()) << 1;
        let left = (m & self.not_first_col()) >> 1;
        (up | down | left | right) & self.all()
    }

    /// The bitboard mirrored left–right.
    #[inline]
    pub fn mirror_cols(self, m: u64) -> u64 {
        let c = u32::from(self.cols);
        let mut out = 0;
        for r in 0..u32::from(self.rows) {
            let row = (m >> (r * c)) & ((1u64 << c) - 1);
            let flipped = row.reverse_bits() >> (64 - c);
            out |= flipped << (r * c);
        }
        out
    }

    /// The bitboard mirrored top–bottom.
    #[inline]
    pub fn mirror_rows(self, m: u64) -> u64 {
        let c = u32::from(self.cols);
        let rows = u32::from(self.rows);
        let mut out = 0;
        for r in 0..rows {
            let row = (m >> (r * c)) & ((1u64 << c) - 1);
            out |= row << ((rows - 1 - r) * c);
        }
        out
    }
}

impl fmt::Display for Shape {
    /// `RxC`, e.g. `8x8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = BadSize;

    /// `RxC` ([`parse_size`]) with sides from 2 to 8.
    fn from_str(s: &str) -> Result<Shape, BadSize> {
        let bad = || BadSize(s.to_string());
        let (r, c) = parse_size(s).ok_or_else(bad)?;
        Shape::new(r, c).map_err(|_| bad())
    }
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn one_spelling_of_a_size() {
        assert_eq!(parse_size("3x4"), Some((3, 4)));
        assert_eq!(parse_size("8x8"), Some((8, 8)));
        assert_eq!(parse_size("12x10"), Some((12, 10)));
        for bad in [
            "3X3", " 3x3", "3x3 ", "+3x3", "03x3", "3x03", "3×3", "3x", "x3", "3x3x3", "0x3", "-3x3", "",
            "300x3",
        ] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
    }
}
