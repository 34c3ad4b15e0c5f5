//! The contents of one board cell and the player colours.

use std::fmt;

/// A player. Blue (`1`) moves first; Red is `2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    /// The first player, turn character `1`.
    Blue = 0,
    /// The second player, turn character `2`.
    Red = 1,
}

impl Player {
    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::Blue => Player::Red,
            Player::Red => Player::Blue,
        }
    }

    /// The turn digit of the one-line position string (`1` or `2`).
    pub const fn digit(self) -> char {
        match self {
            Player::Blue => '1',
            Player::Red => '2',
        }
    }

    /// The player named by a turn digit.
    pub const fn from_digit(c: char) -> Option<Player> {
        match c {
            '1' => Some(Player::Blue),
            '2' => Some(Player::Red),
            _ => None,
        }
    }

    /// `"Blue"` or `"Red"`.
    pub const fn name(self) -> &'static str {
        match self {
            Player::Blue => "Blue",
            Player::Red => "Red",
        }
    }

    /// The player's single bucket cell.
    pub const fn bucket(self) -> Cell {
        match self {
            Player::Blue => Cell::BlueBucket,
            Player::Red => Cell::RedBucket,
        }
    }

    /// The player's castle cell (a bucket on a castle), two of which win.
    pub const fn castle(self) -> Cell {
        match self {
            Player::Blue => Cell::BlueCastle,
            Player::Red => Cell::RedCastle,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one cell holds.
///
/// The discriminants are GamesmanClassic's symbol order for ranking boards
/// (`- < B < R < S < L < X < O < C < P < Q`), so comparing cells compares
/// them the way the tier hash does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Cell {
    /// `-`: nothing.
    Empty = 0,
    /// `B`: a blue bucket on the ground.
    BlueBucket = 1,
    /// `R`: a red bucket on the ground.
    RedBucket = 2,
    /// `S`: a small sand pile.
    Small = 3,
    /// `L`: a large sand pile.
    Large = 4,
    /// `X`: a blue bucket on a small pile.
    BlueSmall = 5,
    /// `O`: a red bucket on a small pile.
    RedSmall = 6,
    /// `C`: a castle (small pile on a large one).
    Castle = 7,
    /// `P`: a blue bucket on a castle.
    BlueCastle = 8,
    /// `Q`: a red bucket on a castle.
    RedCastle = 9,
}

/// Every cell kind in symbol order.
pub const ALL_CELLS: [Cell; 10] = [
    Cell::Empty,
    Cell::BlueBucket,
    Cell::RedBucket,
    Cell::Small,
    Cell::Large,
    Cell::BlueSmall,
    Cell::RedSmall,
    Cell::Castle,
    Cell::BlueCastle,
    Cell::RedCastle,
];

const CHARS: [char; 10] = ['-', 'B', 'R', 'S', 'L', 'X', 'O', 'C', 'P', 'Q'];

impl Cell {
    /// The cell with this discriminant, if it is one (0..=9).
    #[inline]
    pub const fn from_code(code: u8) -> Option<Cell> {
        if code < 10 {
            Some(ALL_CELLS[code as usize])
        } else {
            None
        }
    }

    /// The GamesmanClassic v1 letter.
    pub const fn to_char(self) -> char {
        CHARS[self as usize]
    }

    /// The cell a GamesmanClassic v1 letter stands for.
    pub fn from_char(c: char) -> Option<Cell> {
        CHARS.iter().position(|&x| x == c).map(|i| ALL_CELLS[i])
    }

    /// Whose colour the cell shows, if any (a bucket on top).
    pub const fn owner(self) -> Option<Player> {
        match self {
            Cell::BlueBucket | Cell::BlueSmall | Cell::BlueCastle => Some(Player::Blue),
            Cell::RedBucket | Cell::RedSmall | Cell::RedCastle => Some(Player::Red),
            _ => None,
        }
    }

    /// True for S, L and C: the neutral structures whose slide onto an empty
    /// cell sets the no-undo restriction.
    pub const fn is_neutral(self) -> bool {
        matches!(self, Cell::Small | Cell::Large | Cell::Castle)
    }

    /// The pieces this cell is made of, as (blue buckets, red buckets, smalls, larges).
    pub const fn pieces(self) -> [u8; 4] {
        match self {
            Cell::Empty => [0, 0, 0, 0],
            Cell::BlueBucket => [1, 0, 0, 0],
            Cell::RedBucket => [0, 1, 0, 0],
            Cell::Small => [0, 0, 1, 0],
            Cell::Large => [0, 0, 0, 1],
            Cell::BlueSmall => [1, 0, 1, 0],
            Cell::RedSmall => [0, 1, 1, 0],
            Cell::Castle => [0, 0, 1, 1],
            Cell::BlueCastle => [1, 0, 1, 1],
            Cell::RedCastle => [0, 1, 1, 1],
        }
    }

    /// What results when `self` slides onto `target`, ignoring whose turn it
    /// is; `None` when nothing may move there. Sliding onto an empty cell
    /// keeps the structure as it is.
    pub const fn stack_onto(self, target: Cell) -> Option<Cell> {
        use Cell::*;
        match (self, target) {
            (Empty, _) => None,
            (s, Empty) => Some(s),
            (BlueBucket, Small) => Some(BlueSmall),
            (RedBucket, Small) => Some(RedSmall),
            (BlueBucket, Castle) => Some(BlueCastle),
            (RedBucket, Castle) => Some(RedCastle),
            (Small, Large) => Some(Castle),
            (BlueSmall, Large) => Some(BlueCastle),
            (RedSmall, Large) => Some(RedCastle),
            _ => None,
        }
    }

    /// True when `player` may slide this cell's structure (it is not empty
    /// and does not carry the opponent's colour).
    pub const fn movable_by(self, player: Player) -> bool {
        match self {
            Cell::Empty => false,
            _ => match self.owner() {
                Some(p) => p as u8 == player as u8,
                None => true,
            },
        }
    }

    /// What `player` may produce by sliding this cell onto `target`.
    pub const fn slide_result(self, target: Cell, player: Player) -> Option<Cell> {
        if self.movable_by(player) {
            self.stack_onto(target)
        } else {
            None
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}
