//! The board's size, its cells and its two row classes.

use crate::error::RulesError;

/// A row class: the odd rows (1, 3, …) or the even rows (2, 4, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Rows 1, 3, 5, 7.
    Odd,
    /// Rows 2, 4, 6, 8.
    Even,
}

impl Class {
    /// The other class.
    pub fn other(self) -> Class {
        match self {
            Class::Odd => Class::Even,
            Class::Even => Class::Odd,
        }
    }

    /// `odd` or `even`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Odd => "odd",
            Class::Even => "even",
        }
    }
}

/// An R×C board, 2 ≤ R, C ≤ 8. Cell k (1-based) is row ⌈k/C⌉ from Red's
/// side, column k − C·(row − 1) from the left; it is bit k − 1 of a
/// bitboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

impl Shape {
    /// The real game's board.
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

    /// Cells, R·C.
    pub fn cells(self) -> u32 {
        u32::from(self.rows) * u32::from(self.cols)
    }

    /// The bitboard of every cell.
    pub fn all(self) -> u64 {
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    /// The bitboard of row `r` (1-based).
    pub fn row(self, r: u8) -> u64 {
        let one_row = (1u64 << self.cols) - 1;
        one_row << (u32::from(r - 1) * u32::from(self.cols))
    }

    /// The bitboard of a row class.
    pub fn class(self, class: Class) -> u64 {
        let first = match class {
            Class::Odd => 1,
            Class::Even => 2,
        };
        (first..=self.rows).step_by(2).fold(0, |m, r| m | self.row(r))
    }

    /// The class of the row holding bit `bit`.
    pub fn class_of(self, bit: u32) -> Class {
        if (bit / u32::from(self.cols)).is_multiple_of(2) {
            Class::Odd
        } else {
            Class::Even
        }
    }

    /// The cells not in the first column (a left step from them stays on
    /// the board).
    pub fn not_first_col(self) -> u64 {
        (1..=self.rows).fold(0, |m, r| {
            m | (self.row(r) & !(1u64 << (u32::from(r - 1) * u32::from(self.cols))))
        })
    }

    /// The cells not in the last column.
    pub fn not_last_col(self) -> u64 {
        (1..=self.rows).fold(0, |m, r| {
            m | (self.row(r) & !(1u64 << (u32::from(r) * u32::from(self.cols) - 1)))
        })
    }

    /// The orthogonal neighbours of the cells of `m`, on the board.
    pub fn neighbours(self, m: u64) -> u64 {
        let c = u32::from(self.cols);
        let up = m << c;
        let down = m >> c;
        let right = (m & self.not_last_col()) << 1;
        let left = (m & self.not_first_col()) >> 1;
        (up | down | left | right) & self.all()
    }

    /// The bitboard mirrored left–right.
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

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl std::str::FromStr for Shape {
    type Err = RulesError;

    /// `RxC`, e.g. `8x8`, `3x4` ([`topitop_game_api::board::parse_size`]).
    fn from_str(s: &str) -> Result<Shape, RulesError> {
        let bad = || RulesError::Board(s.to_string());
        let (r, c) = topitop_game_api::board::parse_size(s).ok_or_else(bad)?;
        Shape::new(r, c).map_err(|_| bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_split_the_board_and_neighbours_stay_on_it() {
        for r in 2..=8 {
            for c in 2..=8 {
                let s = Shape::new(r, c).unwrap();
                assert_eq!(s.class(Class::Odd) & s.class(Class::Even), 0);
                assert_eq!(s.class(Class::Odd) | s.class(Class::Even), s.all());
                for bit in 0..s.cells() {
                    let n = s.neighbours(1 << bit);
                    let (row, col) = (bit / u32::from(c), bit % u32::from(c));
                    let expected = [(0, 1), (2, 1), (1, 0), (1, 2)]
                        .iter()
                        .filter(|&&(dr, dc)| {
                            (1..=u32::from(r)).contains(&(row + dr))
                                && (1..=u32::from(c)).contains(&(col + dc))
                        })
                        .count();
                    assert_eq!(n.count_ones() as usize, expected, "{s} bit {bit}");
                    assert_eq!(s.mirror_cols(s.mirror_cols(1 << bit)), 1 << bit);
                    assert_eq!(s.mirror_rows(s.mirror_rows(1 << bit)), 1 << bit);
                }
            }
        }
    }

    #[test]
    fn sizes_parse_and_refuse() {
        assert_eq!("3x4".parse::<Shape>().unwrap(), Shape::new(3, 4).unwrap());
        assert_eq!("8x8".parse::<Shape>().unwrap(), Shape::STANDARD);
        for bad in ["1x4", "9x2", "3", "axb", "3x4x5", "8×8", "3X4", "03x4"] {
            assert!(bad.parse::<Shape>().is_err(), "{bad}");
        }
    }
}
