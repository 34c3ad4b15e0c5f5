//! The board's two row classes, on the shared board geometry.

pub use topitop_game_api::board::Shape;

use crate::error::RulesError;

impl From<topitop_game_api::board::BadSize> for RulesError {
    fn from(e: topitop_game_api::board::BadSize) -> RulesError {
        RulesError::Board(e.0)
    }
}

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

/// The row classes of a board: the part of its geometry that only Topolo
/// plays by. Cell k of Topolo's rules text is bit k − 1 of
/// [`Shape`]'s numbering, row 1 being the first row from Red's side.
pub trait RowClasses {
    /// The bitboard of a row class.
    fn class(self, class: Class) -> u64;
    /// The class of the row holding bit `bit`.
    fn class_of(self, bit: u32) -> Class;
}

impl RowClasses for Shape {
    fn class(self, class: Class) -> u64 {
        let first = match class {
            Class::Odd => 0,
            Class::Even => 1,
        };
        (first..self.rows()).step_by(2).fold(0, |m, r| m | self.row(r))
    }

    fn class_of(self, bit: u32) -> Class {
        if (bit / u32::from(self.cols())).is_multiple_of(2) {
            Class::Odd
        } else {
            Class::Even
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_split_the_board_by_rows() {
        for r in 2..=8 {
            for c in 2..=8 {
                let s = Shape::new(r, c).unwrap();
                assert_eq!(s.class(Class::Odd) & s.class(Class::Even), 0);
                assert_eq!(s.class(Class::Odd) | s.class(Class::Even), s.all());
                for bit in 0..u32::from(s.cells()) {
                    let class = if s.class(Class::Odd) >> bit & 1 == 1 {
                        Class::Odd
                    } else {
                        Class::Even
                    };
                    assert_eq!(s.class_of(bit), class, "{s} bit {bit}");
                }
            }
        }
        assert_eq!(
            "3x3".parse::<Shape>().map_err(RulesError::from),
            Ok(Shape::new(3, 3).unwrap())
        );
        assert!(
            matches!("9x9".parse::<Shape>().map_err(RulesError::from), Err(RulesError::Board(b)) if b == "9x9")
        );
    }
}
