//! Topolo behind the game interface: [`Game`] for play on any board,
//! [`Tiered`] for solving boards of up to [`MAX_SOLVED_CELLS`] cells.
//!
//! A tier is the number of pieces of each colour and size on the board;
//! every move goes to a tier with one more piece, so tiers are loop-free.
//! Inside a tier a board is indexed by its rank among the arrangements of
//! its multiset of cell states (empty, S, M, L, s, m, l) over the cells in
//! order; arrangements that break the row-class rule name no position.

use topitop_interface::{Game, Registered, Tiered, Value};

use crate::piece::{Color, Size};
use crate::position::Position;
use crate::rules::{Move, Outcome, Topolo};

/// The largest board [`Tiered`] indexes: ranks of 20 cells fit a `u64`.
pub const MAX_SOLVED_CELLS: u32 = 20;

/// A tier: pieces on the board of each kind, in the order Red's small,
/// mid, large, then Black's.
pub type Tier = [u8; 6];

/// The kind of a cell: 0 empty, 1..=3 Red's small to large, 4..=6 Black's.
fn kind_of(pos: &Position, bit: u32) -> usize {
    match pos.at(bit) {
        None => 0,
        Some((color, size)) => {
            let base = if color == Color::Red { 1 } else { 4 };
            base + Size::ALL.iter().position(|&s| s == size).unwrap_or(0)
        }
    }
}

/// The kinds' counts of a tier on a board of `cells` cells.
fn counts(tier: Tier, cells: u32) -> [u64; 7] {
    let placed: u32 = tier.iter().map(|&c| u32::from(c)).sum();
    let mut c = [0u64; 7];
    c[0] = u64::from(cells - placed);
    for k in 0..6 {
        c[k + 1] = u64::from(tier[k]);
    }
    c
}

/// The number of arrangements of the multiset `c` (n! / ∏ cᵢ!).
fn arrangements(c: &[u64; 7]) -> u128 {
    let mut n = 0u64;
    let mut total: u128 = 1;
    for &k in c {
        for i in 1..=k {
            n += 1;
            total = total * u128::from(n) / u128::from(i);
        }
    }
    total
}

impl Topolo {
    fn color_of_kind(k: usize) -> Color {
        if k <= 3 {
            Color::Red
        } else {
            Color::Black
        }
    }
}

impl Game for Topolo {
    type Position = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        "topolo"
    }

    fn variant(&self) -> String {
        match self.variant() {
            crate::Variant::Full => self.shape().to_string(),
            v => format!("{}_{}", self.shape(), v.name()),
        }
    }

    fn start(&self) -> Position {
        Position::EMPTY
    }

    fn moves(&self, pos: &Position) -> Vec<Move> {
        Topolo::moves(self, pos)
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        Topolo::play(self, pos, mv)
    }

    fn primitive(&self, pos: &Position) -> Option<Value> {
        self.outcome(pos).map(|o| match o {
            Outcome::Win => Value::Win,
            Outcome::Lose => Value::Lose,
            Outcome::Tie => Value::Tie,
        })
    }

    fn check(&self, pos: &Position) -> Result<(), String> {
        Topolo::check(self, pos)
    }

    fn parse_position(&self, text: &str) -> Result<Position, String> {
        self.parse(text).map_err(|e| e.to_string())
    }

    fn format_position(&self, pos: &Position) -> String {
        self.format(pos)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        let mv = Topolo::parse_move(self, text).map_err(|e| e.to_string())?;
        self.play_checked(pos, mv).map_err(|e| e.to_string())?;
        Ok(mv)
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn canonical(&self, pos: &Position) -> Position {
        Topolo::canonical(self, pos)
    }

    fn images(&self, pos: &Position) -> Vec<Position> {
        let mut all = Topolo::images(self, pos).to_vec();
        all.sort_unstable();
        all.dedup();
        all
    }

    fn title(&self) -> String {
        "Topolo".into()
    }

    fn variant_title(&self) -> String {
        let s = self.shape();
        let board = format!("{}×{}", s.rows(), s.cols());
        match self.variant() {
            crate::Variant::Full => board,
            crate::Variant::SizeOnly => format!("{board}, group size only"),
        }
    }

    fn instructions(&self) -> String {
        instructions(self)
    }

    fn autogui_position(&self, pos: &Position) -> Option<String> {
        Some(self.autogui_entities(pos))
    }

    fn autogui_move(&self, pos: &Position, mv: Move) -> Option<String> {
        Some(self.autogui_button(pos, mv))
    }

    fn image_autogui_data(&self) -> Option<String> {
        Some(self.autogui_theme().to_string())
    }

    fn player_names(&self) -> [&'static str; 2] {
        ["Red", "Black"]
    }

    fn board_art(&self) -> topitop_interface::BoardArt {
        Topolo::board_art(self)
    }

    fn player_to_move(&self, pos: &Position) -> usize {
        match self.to_move(pos) {
            Color::Red => 0,
            Color::Black => 1,
        }
    }

    /// The board with row R on top and row 1 (Red's side) at the bottom,
    /// cell numbers beside each row, then who moves and what is left.
    fn show(&self, pos: &Position) -> String {
        let s = self.shape();
        let cols = u32::from(s.cols());
        let mut out = String::new();
        for r in (0..u32::from(s.rows())).rev() {
            let row: String = (0..cols)
                .map(|c| match pos.at(r * cols + c) {
                    None => '.',
                    Some((Color::Red, size)) => size.letter(),
                    Some((Color::Black, size)) => size.letter().to_ascii_lowercase(),
                })
                .flat_map(|ch| [ch, ' '])
                .collect();
            out.push_str(&format!(
                "row {}  {}  cells {}-{}\n",
                r + 1,
                row.trim_end(),
                r * cols + 1,
                r * cols + cols
            ));
        }
        match self.outcome(pos) {
            Some(o) => out.push_str(&format!(
                "game over: {} to move, {o:?}\n",
                self.to_move(pos).name()
            )),
            None => {
                let mover = self.to_move(pos);
                let left = |c: Color| {
                    Size::ALL
                        .iter()
                        .map(|&z| format!("{}{}", self.left(pos, c, z), z.letter()))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let class = self.first_class(pos).map_or("any row".to_string(), |c| {
                    if self.allowed(pos) & self.shape().class(c) != 0 {
                        format!("{} rows", c.name())
                    } else {
                        format!("{} rows", c.other().name())
                    }
                });
                out.push_str(&format!(
                    "{} to move, on {class}; left: Red {}, Black {}\n",
                    mover.name(),
                    left(Color::Red),
                    left(Color::Black)
                ));
            }
        }
        out
    }
}

impl Tiered for Topolo {
    type Tier = Tier;

    /// Every tier, or none on a board of more than [`MAX_SOLVED_CELLS`]
    /// cells.
    fn tiers(&self) -> Vec<Tier> {
        if self.shape().cells() > MAX_SOLVED_CELLS {
            return Vec::new();
        }
        let inv = |c: Color| Size::ALL.map(|s| self.inventory(c, s) as u8);
        let (ri, bi) = (inv(Color::Red), inv(Color::Black));
        let mut out = Vec::new();
        for rs in 0..=ri[0] {
            for rm in 0..=ri[1] {
                for rl in 0..=ri[2] {
                    for bs in 0..=bi[0] {
                        for bm in 0..=bi[1] {
                            for bl in 0..=bi[2] {
                                let (r, b) = (rs + rm + rl, bs + bm + bl);
                                if r == b || r == b + 1 {
                                    out.push([rs, rm, rl, bs, bm, bl]);
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn tier_of(&self, pos: &Position) -> Tier {
        let mut t = [0u8; 6];
        for (k, color) in [Color::Red, Color::Black].into_iter().enumerate() {
            for (j, size) in Size::ALL.into_iter().enumerate() {
                t[3 * k + j] = pos.count(color, size) as u8;
            }
        }
        t
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        u64::try_from(arrangements(&counts(tier, self.shape().cells()))).unwrap_or(u64::MAX)
    }

    fn index(&self, pos: &Position) -> u64 {
        let cells = self.shape().cells();
        let mut c = counts(self.tier_of(pos), cells);
        let mut total = arrangements(&c);
        let mut left = u128::from(cells);
        let mut rank: u128 = 0;
        for bit in 0..cells {
            let k = kind_of(pos, bit);
            for &ct in &c[..k] {
                rank += total * u128::from(ct) / left;
            }
            total = total * u128::from(c[k]) / left;
            c[k] -= 1;
            left -= 1;
        }
        rank as u64
    }

    fn position(&self, tier: Tier, index: u64) -> Option<Position> {
        let cells = self.shape().cells();
        let mut c = counts(tier, cells);
        let mut total = arrangements(&c);
        if u128::from(index) >= total {
            return None;
        }
        let mut left = u128::from(cells);
        let mut index = u128::from(index);
        let mut pos = Position::EMPTY;
        for bit in 0..cells {
            let mut chosen = 0;
            for (k, &ck) in c.iter().enumerate() {
                let with_k = total * u128::from(ck) / left;
                if index < with_k {
                    chosen = k;
                    total = with_k;
                    break;
                }
                index -= with_k;
            }
            if chosen > 0 {
                let size = Size::ALL[(chosen - 1) % 3];
                pos = pos.with(bit, Topolo::color_of_kind(chosen), size);
            }
            c[chosen] -= 1;
            left -= 1;
        }
        Topolo::check(self, &pos).is_ok().then_some(pos)
    }

    fn child_tiers(&self, tier: Tier) -> Vec<Tier> {
        let placed: u32 = tier.iter().map(|&c| u32::from(c)).sum();
        if placed >= self.shape().cells() {
            return Vec::new();
        }
        let (color, base) = if placed.is_multiple_of(2) {
            (Color::Red, 0)
        } else {
            (Color::Black, 3)
        };
        Size::ALL
            .into_iter()
            .enumerate()
            .filter(|&(j, s)| u32::from(tier[base + j]) < self.inventory(color, s))
            .map(|(j, _)| {
                let mut t = tier;
                t[base + j] += 1;
                t
            })
            .collect()
    }

    fn tier_name(&self, tier: Tier) -> String {
        format!(
            "r{}.{}.{}-b{}.{}.{}",
            tier[0], tier[1], tier[2], tier[3], tier[4], tier[5]
        )
    }
}

impl Registered for Topolo {
    const NAME: &'static str = "topolo";

    fn from_options(board: Option<&str>, variant: Option<&str>) -> Result<Topolo, String> {
        Topolo::from_options(board, variant).map_err(|e| e.to_string())
    }

    /// `RxC` or `RxC_<variant>`, as [`Game::variant`] writes it.
    fn from_variant(variant: &str) -> Result<Topolo, String> {
        let (board, name) = match variant.split_once('_') {
            Some((b, v)) => (b, Some(v)),
            None => (variant, None),
        };
        let game = Topolo::from_options(Some(board), name).map_err(|e| e.to_string())?;
        // One spelling a variant: `3x4_full` or `3X4` are not database names.
        if Game::variant(&game) == variant {
            Ok(game)
        } else {
            Err(format!(
                "{variant:?} is not a Topolo variant string (e.g. 3x4, 3x4_size-only)"
            ))
        }
    }
}

/// The rules for GamesmanUni's side panel, with this board's counts.
fn instructions(game: &Topolo) -> String {
    let s = game.shape();
    let count = |c: Color| {
        let n = game.pieces(c);
        match game.variant() {
            crate::Variant::SizeOnly => format!("{n} small"),
            crate::Variant::Full => format!(
                "{} small, {} mid and {} large",
                game.inventory(c, Size::Small),
                game.inventory(c, Size::Mid),
                game.inventory(c, Size::Large)
            ),
        }
    };
    let scoring = match game.variant() {
        crate::Variant::Full => {
            "A group is a set of one colour's pieces joined side to side; its height is the sum of its \
             pieces' heights (small 1, mid 2, large 3). Each player's groups are listed largest first, by \
             size and then height, and the two lists are compared group by group: the first difference \
             decides. Equal lists are a tie."
        }
        crate::Variant::SizeOnly => {
            "A group is a set of one colour's pieces joined side to side. The player with the larger \
             largest group wins; equal sizes are a tie."
        }
    };
    format!(
        "## Topolo, {}×{}\n\nRed has {}; Black has {}. Red moves first; a move puts one of your pieces on \
         an empty cell.\n\nThe first piece's row (odd or even rows, counting from Red's side at the bottom) \
         decides which rows are filled first: every cell of those rows is filled before any other.\n\n\
         The game ends when the board is full. {scoring}\n",
        s.rows(),
        s.cols(),
        count(Color::Red),
        count(Color::Black)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Shape, Variant};

    #[test]
    fn every_index_of_small_tiers_round_trips() {
        for (r, c) in [(2, 2), (2, 3), (3, 3)] {
            let g = Topolo::new(Shape::new(r, c).unwrap(), Variant::Full);
            let mut positions = 0;
            for tier in g.tiers() {
                for i in 0..g.tier_size(tier) {
                    if let Some(p) = g.position(tier, i) {
                        assert_eq!(g.tier_of(&p), tier);
                        assert_eq!(g.index(&p), i, "{}", g.format(&p));
                        positions += 1;
                    }
                }
            }
            if (r, c) == (3, 3) {
                assert_eq!(positions, 217_417, "every position of play has one index");
            }
        }
    }
}
