//! The rules: pieces, moves, the row-class order and the end.

use std::cmp::Ordering;

use crate::error::{ParseError, RulesError};
use crate::groups::{compare, group_list, largest};
use crate::piece::{Color, Size};
use crate::position::Position;
use crate::shape::{Class, RowClasses, Shape};

/// Which comparison ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The rules text: groups compared by (size, height), group by group.
    Full,
    /// Only the largest group's size counts, and every piece is small.
    /// Cheaper to solve; a decided result here is decided in the full
    /// game too.
    SizeOnly,
}

impl Variant {
    /// `full` or `size-only`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Full => "full",
            Variant::SizeOnly => "size-only",
        }
    }
}

impl std::str::FromStr for Variant {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Variant, RulesError> {
        match s {
            "full" => Ok(Variant::Full),
            "size-only" => Ok(Variant::SizeOnly),
            other => Err(RulesError::Variant(other.to_string())),
        }
    }
}

/// A move: one of the mover's pieces onto an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The piece's size.
    pub size: Size,
    /// The cell's bit (cell number − 1).
    pub bit: u32,
}

impl std::fmt::Display for Move {
    /// `S7`, `M12`, `L3`: the size letter and the cell number.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.size.letter(), self.bit + 1)
    }
}

/// The end of a game, from the view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player to move has the larger groups.
    Win,
    /// The other player has.
    Lose,
    /// All equal.
    Tie,
}

/// Topolo on one board size, with one variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Topolo {
    shape: Shape,
    variant: Variant,
}

impl Topolo {
    /// The game on `shape` with `variant`.
    pub fn new(shape: Shape, variant: Variant) -> Topolo {
        Topolo { shape, variant }
    }

    /// The board.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Whether every piece is small ([`Variant::SizeOnly`]) or not.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The pieces `color` places: Red ⌈N/2⌉, Black ⌊N/2⌋.
    pub fn pieces(&self, color: Color) -> u32 {
        let n = u32::from(self.shape.cells());
        match color {
            Color::Red => n.div_ceil(2),
            Color::Black => n / 2,
        }
    }

    /// How many pieces of `size` `color` has in all: ⌊n/4⌋ mid, as many
    /// large, the rest small (every piece small in [`Variant::SizeOnly`]).
    pub fn inventory(&self, color: Color, size: Size) -> u32 {
        let n = self.pieces(color);
        let q = match self.variant {
            Variant::Full => n / 4,
            Variant::SizeOnly => 0,
        };
        match size {
            Size::Small => n - 2 * q,
            Size::Mid | Size::Large => q,
        }
    }

    /// How many pieces of `size` `color` still holds in `pos`.
    pub fn left(&self, pos: &Position, color: Color, size: Size) -> u32 {
        self.inventory(color, size).saturating_sub(pos.count(color, size))
    }

    /// Who moves: Red when an even number of pieces is on the board.
    pub fn to_move(&self, pos: &Position) -> Color {
        if pos.placed().is_multiple_of(2) {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The row class filled first: the class of the first piece, which is
    /// the only class with pieces until it is full. `None` on the empty
    /// board (and, on a full board with both classes of equal standing,
    /// the odd class).
    pub fn first_class(&self, pos: &Position) -> Option<Class> {
        let occ = pos.occupied();
        let odd = self.shape.class(Class::Odd);
        let even = self.shape.class(Class::Even);
        match (occ & odd != 0, occ & even != 0) {
            (false, false) => None,
            (true, false) => Some(Class::Odd),
            (false, true) => Some(Class::Even),
            (true, true) if occ & odd == odd => Some(Class::Odd),
            (true, true) => Some(Class::Even),
        }
    }

    /// The cells the next piece may go on: any on the empty board; then the
    /// empty cells of the first class until it is full; then the rest.
    pub fn allowed(&self, pos: &Position) -> u64 {
        let empty = self.shape.all() & !pos.occupied();
        match self.first_class(pos) {
            None => empty,
            Some(first) => {
                let open = empty & self.shape.class(first);
                if open != 0 {
                    open
                } else {
                    empty
                }
            }
        }
    }

    /// True when the board is full: the game is over.
    pub fn is_over(&self, pos: &Position) -> bool {
        pos.occupied() == self.shape.all()
    }

    /// Every legal move, sizes small to large, each over the cells in
    /// order. None when the game is over.
    pub fn moves(&self, pos: &Position) -> Vec<Move> {
        let mover = self.to_move(pos);
        let cells = self.allowed(pos);
        let mut out = Vec::with_capacity(3 * cells.count_ones() as usize);
        for size in Size::ALL {
            if self.left(pos, mover, size) == 0 {
                continue;
            }
            let mut m = cells;
            while m != 0 {
                out.push(Move {
                    size,
                    bit: m.trailing_zeros(),
                });
                m &= m - 1;
            }
        }
        out
    }

    /// The position after `mv`, which must be legal.
    #[must_use]
    pub fn play(&self, pos: &Position, mv: Move) -> Position {
        pos.with(mv.bit, self.to_move(pos), mv.size)
    }

    /// The position after `mv`, or why the rules refuse it.
    ///
    /// # Errors
    /// The cell is off the board, taken or not yet open, or the mover has no
    /// piece of that size left.
    pub fn play_checked(&self, pos: &Position, mv: Move) -> Result<Position, ParseError> {
        let illegal = |why: String| ParseError::Illegal {
            text: mv.to_string(),
            why,
        };
        if mv.bit >= u32::from(self.shape.cells()) {
            return Err(illegal(format!("the board has {} cells", self.shape.cells())));
        }
        let b = 1u64 << mv.bit;
        if pos.occupied() & b != 0 {
            return Err(illegal(format!("cell {} is taken", mv.bit + 1)));
        }
        if self.allowed(pos) & b == 0 {
            let first = self.first_class(pos).map_or("", Class::name);
            return Err(illegal(format!(
                "the {first} rows are filled first, and cell {} is in an {} row",
                mv.bit + 1,
                self.shape.class_of(mv.bit).name()
            )));
        }
        let mover = self.to_move(pos);
        if self.left(pos, mover, mv.size) == 0 {
            return Err(illegal(format!(
                "{} has no {} piece left",
                mover.name(),
                match mv.size {
                    Size::Small => "small",
                    Size::Mid => "mid",
                    Size::Large => "large",
                }
            )));
        }
        Ok(self.play(pos, mv))
    }

    /// The result of a finished game for the player to move, or `None`
    /// while the board has empty cells.
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        if !self.is_over(pos) {
            return None;
        }
        let mover = self.to_move(pos);
        let order = match self.variant {
            Variant::Full => compare(
                &group_list(self.shape, pos, mover),
                &group_list(self.shape, pos, mover.other()),
            ),
            Variant::SizeOnly => {
                largest(self.shape, pos, mover).cmp(&largest(self.shape, pos, mover.other()))
            }
        };
        Some(match order {
            Ordering::Greater => Outcome::Win,
            Ordering::Less => Outcome::Lose,
            Ordering::Equal => Outcome::Tie,
        })
    }

    /// Why no play from the empty board reaches `pos`, if none does.
    ///
    /// # Errors
    /// The first rule the board breaks, in words.
    pub fn check(&self, pos: &Position) -> Result<(), String> {
        let all = self.shape.all();
        if pos.red & pos.black != 0 || pos.mid & pos.large != 0 {
            return Err("a cell holds two pieces".into());
        }
        if (pos.mid | pos.large) & !pos.occupied() != 0 || pos.occupied() & !all != 0 {
            return Err("a piece lies outside the board".into());
        }
        let (r, b) = (pos.red.count_ones(), pos.black.count_ones());
        if r != b && r != b + 1 {
            return Err(format!(
                "Red has {r} pieces and Black {b}: Red moves first and they alternate, so Red has as many as Black or one more"
            ));
        }
        for color in [Color::Red, Color::Black] {
            for size in Size::ALL {
                let (has, may) = (pos.count(color, size), self.inventory(color, size));
                if has > may {
                    return Err(format!(
                        "{} has {has} {} pieces on the board but only {may} in all",
                        color.name(),
                        size.letter()
                    ));
                }
            }
        }
        let occ = pos.occupied();
        let fits = |first: Class| {
            let f = self.shape.class(first);
            let rest = all & !f;
            if occ & rest == 0 {
                return true;
            }
            // The first class was full before the other was touched, and
            // Red, moving first, placed the odd-numbered pieces of it.
            occ & f == f && (pos.red & f).count_ones() == f.count_ones().div_ceil(2)
        };
        let any_first = occ == 0
            || [Class::Odd, Class::Even]
                .iter()
                .any(|&c| occ & self.shape.class(c) != 0 && fits(c));
        if !any_first {
            return Err(
                "both row classes have pieces, but neither was filled first with Red placing every other piece of it"
                    .into(),
            );
        }
        Ok(())
    }

    /// The canonical form of `pos` under the board's symmetries (left–right
    /// and top–bottom reflections; transposing would change which rows
    /// form a class): on a board the index covers, the form it stores
    /// ([`crate::layout`]); on a larger one, the least of the four images.
    pub fn canonical(&self, pos: &Position) -> Position {
        match crate::layout::Layout::of(*self) {
            Some(l) => l.canonical(pos),
            None => self.images(pos).into_iter().min().unwrap_or(*pos),
        }
    }

    /// `pos` under each of the four symmetries (identity first).
    pub fn images(&self, pos: &Position) -> [Position; 4] {
        let s = self.shape;
        let lr = pos.map(|m| s.mirror_cols(m));
        [
            *pos,
            lr,
            pos.map(|m| s.mirror_rows(m)),
            lr.map(|m| s.mirror_rows(m)),
        ]
    }
}

impl Topolo {
    /// The game the command-line options name: `--board RxC` (default
    /// 8x8) and `--variant full|size-only` (default full).
    ///
    /// # Errors
    /// A board or variant Topolo does not have.
    pub fn from_options(board: Option<&str>, variant: Option<&str>) -> Result<Topolo, RulesError> {
        let shape = board.map_or(Ok(Shape::STANDARD), str::parse)?;
        let variant = variant.map_or(Ok(Variant::Full), str::parse)?;
        Ok(Topolo::new(shape, variant))
    }
}
