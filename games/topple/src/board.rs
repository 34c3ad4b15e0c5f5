//! The board: the shared geometry ([`Shape`], whose king's distance every
//! range in the rules is measured in), Topple's names of its cells, and
//! the eight directions.

use topitop_game_api::board::BadSize;
pub use topitop_game_api::board::Shape;

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

/// Cell names as Topple's notation writes them: the file letter and the
/// row number, `a1` at the bottom left (row 0, column 0 of [`Shape`]).
pub trait CellNames {
    /// The cell's name.
    fn name(self, cell: u8) -> String;
    /// The cell a name such as `b2` gives, if on this board.
    fn parse_cell(self, text: &str) -> Option<u8>;
}

impl CellNames for Shape {
    fn name(self, cell: u8) -> String {
        let (r, c) = self.coords(cell);
        format!("{}{}", char::from(b'a' + c as u8), r + 1)
    }

    fn parse_cell(self, text: &str) -> Option<u8> {
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

impl From<BadSize> for RulesError {
    fn from(e: BadSize) -> RulesError {
        RulesError::Board(e.0)
    }
}

/// One of the eight directions a topple can fall in. North is towards
/// higher rows (up, as [`Presentation::show`](topitop_game_api::Presentation::show)
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
        assert_eq!(
            RulesError::from("9x4".parse::<Shape>().unwrap_err()),
            RulesError::Board("9x4".into())
        );
    }

    #[test]
    fn ranges_are_king_distances() {
        let s = Shape::STANDARD;
        let d4 = s.parse_cell("d4").unwrap();
        assert_eq!(s.within(d4, 2).count_ones(), 25);
        assert_eq!(s.king_neighbours(d4).count_ones(), 8);
        assert_eq!(s.king_neighbours(0).count_ones(), 3);
        assert_eq!(s.distance(0, 63), 7);
        assert_eq!(s.step(0, Direction::NE.delta(), 2), s.parse_cell("c3"));
        assert_eq!(s.step(0, Direction::S.delta(), 1), None);
    }
}
