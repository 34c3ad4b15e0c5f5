//! A position: every cell's stack and pawn, the supply, both reserves and
//! the player to move.

/// A player. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The first player.
    Red = 0,
    /// The second player.
    Blue = 1,
}

impl Color {
    /// Both, Red first.
    pub const BOTH: [Color; 2] = [Color::Red, Color::Blue];

    /// 0 for Red, 1 for Blue.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }

    /// `Red` or `Blue`.
    #[inline]
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Blue => "Blue",
        }
    }

    /// `r` or `b`: the letter of a pawn and of the player in notation.
    #[inline]
    pub fn letter(self) -> char {
        match self {
            Color::Red => 'r',
            Color::Blue => 'b',
        }
    }
}

/// The pawns each player has: one enters with the first move, seven more
/// wait in reserve.
pub const PAWNS: u8 = 8;

/// Where a game is: each player's first move (placing their first pawn
/// anywhere), then play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The player has not made their first move (all eight pawns in
    /// reserve).
    First(Color),
    /// Both first moves are made.
    Play,
}

/// A position of an R×C board (up to 8×8), 88 bytes.
///
/// The first-move phase is not stored: a player with all eight pawns in
/// reserve has not moved yet. The pieces that left the game are not
/// stored either: they are the supply's pieces less those on the board
/// and those left, and nothing in the rules depends on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Stack heights, by cell; cells past the board are 0.
    pub(crate) heights: [u8; 64],
    /// Each player's pawns as a bitboard, Red's first.
    pub(crate) pawns: [u64; 2],
    /// Pieces left to place.
    pub(crate) supply: u8,
    /// Pawns not yet on the board, Red's first.
    pub(crate) reserve: [u8; 2],
    /// The player to move.
    pub(crate) turn: Color,
}

impl Position {
    /// The empty board with `supply` pieces, every pawn in reserve and Red
    /// to move: the start.
    #[inline]
    pub fn start(supply: u8) -> Position {
        Position {
            heights: [0; 64],
            pawns: [0; 2],
            supply,
            reserve: [PAWNS; 2],
            turn: Color::Red,
        }
    }

    /// The height of the stack on `cell` (0: empty).
    #[inline]
    pub fn height(&self, cell: u8) -> u8 {
        self.heights[usize::from(cell)]
    }

    /// The pawn on `cell`, if any.
    #[inline]
    pub fn pawn(&self, cell: u8) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|c| self.pawns[c.index()] >> cell & 1 == 1)
    }

    /// `color`'s pawns as a bitboard.
    #[inline]
    pub fn pawns(&self, color: Color) -> u64 {
        self.pawns[color.index()]
    }

    /// Both players' pawns as a bitboard.
    #[inline]
    pub fn all_pawns(&self) -> u64 {
        self.pawns[0] | self.pawns[1]
    }

    /// How many pawns `color` has on the board.
    #[inline]
    pub fn pawn_count(&self, color: Color) -> u8 {
        self.pawns(color).count_ones() as u8
    }

    /// The non-empty cells as a bitboard.
    #[inline]
    pub fn stacks(&self) -> u64 {
        self.heights
            .iter()
            .enumerate()
            .filter(|(_, &h)| h > 0)
            .fold(0, |m, (b, _)| m | 1u64 << b)
    }

    /// Every piece on the board.
    #[inline]
    pub fn pieces_on_board(&self) -> u32 {
        self.heights.iter().map(|&h| u32::from(h)).sum()
    }

    /// Pieces left to place.
    #[inline]
    pub fn supply(&self) -> u8 {
        self.supply
    }

    /// `color`'s pawns in reserve.
    #[inline]
    pub fn reserve(&self, color: Color) -> u8 {
        self.reserve[color.index()]
    }

    /// The player to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Whose first move it is, or play.
    #[inline]
    pub fn phase(&self) -> Phase {
        if self.reserve[Color::Red.index()] == PAWNS {
            Phase::First(Color::Red)
        } else if self.reserve[Color::Blue.index()] == PAWNS {
            Phase::First(Color::Blue)
        } else {
            Phase::Play
        }
    }

    /// `self` with `color`'s reserve set to `n` (for the reserve
    /// symmetry; see [`crate::tier`]).
    pub(crate) fn with_reserve(mut self, color: Color, n: u8) -> Position {
        self.reserve[color.index()] = n;
        self
    }

    /// Puts `color`'s pawn on `cell`.
    pub(crate) fn put_pawn(&mut self, cell: u8, color: Color) {
        self.pawns[color.index()] |= 1u64 << cell;
    }

    /// Removes any pawn from `cell`, returning its colour.
    pub(crate) fn lift_pawn(&mut self, cell: u8) -> Option<Color> {
        let pawn = self.pawn(cell)?;
        self.pawns[pawn.index()] &= !(1u64 << cell);
        Some(pawn)
    }
}
