//! Colours and sizes of pieces.

/// A player, by the colour of their pieces. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player; row 1 is nearest Red.
    Red,
    /// The second player.
    Black,
}

impl Color {
    /// The other player.
    pub fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// `Red` or `Black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }
}

/// A piece's size, which is also its height in the tie-breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
    /// Height 1.
    Small,
    /// Height 2.
    Mid,
    /// Height 3.
    Large,
}

impl Size {
    /// All sizes, smallest first.
    pub const ALL: [Size; 3] = [Size::Small, Size::Mid, Size::Large];

    /// The height the tie-breaks count: 1, 2 or 3.
    pub fn height(self) -> u32 {
        match self {
            Size::Small => 1,
            Size::Mid => 2,
            Size::Large => 3,
        }
    }

    /// The letter of a move and of a Red piece: `S`, `M`, `L`.
    pub fn letter(self) -> char {
        match self {
            Size::Small => 'S',
            Size::Mid => 'M',
            Size::Large => 'L',
        }
    }

    /// The size a letter names, either case.
    pub fn from_letter(c: char) -> Option<Size> {
        match c.to_ascii_uppercase() {
            'S' => Some(Size::Small),
            'M' => Some(Size::Mid),
            'L' => Some(Size::Large),
            _ => None,
        }
    }
}
