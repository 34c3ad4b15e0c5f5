//! Topolo behind the game interface: [`Game`] for play on any board,
//! [`Tiered`] for solving boards of up to [`MAX_INDEXED_CELLS`] cells,
//! through the index of [`crate::layout`]: one position per symmetry
//! class, tiers by the class filled first and the pieces in each class.

use crate::error::ParseError;
use topitop_game_api::{
    Estimates, Game, GameError, GameOption, Options, Presentation, Registered, Search, Tiered, Value,
};

use crate::layout::Layout;

use crate::piece::{Color, Size};
use crate::position::Position;
use crate::rules::{Move, Outcome, Topolo};
use crate::shape::RowClasses;

pub use crate::layout::{Tier, MAX_INDEXED_CELLS};

impl Game for Topolo {
    /// `check` accepts exactly the positions play reaches (the rules
    /// tests compare it with a search on every small board).
    fn reachability(&self) -> topitop_game_api::Reachability {
        topitop_game_api::Reachability::Every
    }

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

    fn check(&self, pos: &Position) -> Result<(), GameError> {
        Topolo::check(self, pos).map_err(GameError::rules)
    }

    fn parse_position(&self, text: &str) -> Result<Position, GameError> {
        self.parse(text).map_err(game_error)
    }

    fn format_position(&self, pos: &Position) -> String {
        self.format(pos)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, GameError> {
        let mv = Topolo::parse_move(self, text).map_err(game_error)?;
        self.play_checked(pos, mv).map_err(game_error)?;
        Ok(mv)
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn canonical(&self, pos: &Position) -> Position {
        Topolo::canonical(self, pos)
    }

    fn has_symmetries(&self) -> bool {
        true
    }

    fn images(&self, pos: &Position) -> Vec<Position> {
        let mut all = Topolo::images(self, pos).to_vec();
        all.sort_unstable();
        all.dedup();
        all
    }

    fn player_to_move(&self, pos: &Position) -> Option<usize> {
        Some(match self.to_move(pos) {
            Color::Red => 0,
            Color::Black => 1,
        })
    }
}

/// Topolo shown: the board as text, what a player reads beside it, the
/// rules, and the boards of GamesmanUni and the page.
impl Presentation for Topolo {
    fn facts(&self, pos: &Position) -> Vec<(String, String)> {
        crate::words::facts(self, pos)
    }

    fn ending(&self, pos: &Position) -> Option<String> {
        crate::words::ending(self, pos)
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

    fn board_art(&self) -> topitop_game_api::BoardArt {
        Topolo::board_art(self)
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

/// The player for boards no database holds.
impl Search for Topolo {
    fn can_estimate(&self) -> bool {
        true
    }

    /// Monte Carlo tree search on every core ([`crate::search`]; the
    /// benchmark in docs/topolo.md chose it over alpha-beta), its trees
    /// within [`crate::search::MEMORY`].
    fn estimate(
        &self,
        pos: &Position,
        budget: std::time::Duration,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<Estimates<Move>> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let budget = crate::search::Budget {
            time: budget,
            playouts: u64::MAX,
            memory: crate::search::MEMORY,
            stop,
        };
        let r = crate::search::rank_within(self, pos, crate::search::Method::Mcts, &budget, threads, 1);
        Some(Estimates {
            method: if r.exact {
                "exact"
            } else {
                crate::search::Method::Mcts.name()
            },
            work: r.work,
            // A move no random game went through has the search's neutral
            // ½, which is no estimate: said as none.
            moves: r
                .moves
                .into_iter()
                .map(|e| (e.mv, (r.exact || e.visits > 0).then_some(e.score)))
                .collect(),
        })
    }
}

impl Tiered for Topolo {
    type Tier = Tier;

    /// Every tier, or none on a board of more than [`MAX_INDEXED_CELLS`]
    /// cells.
    fn tiers(&self) -> Vec<Tier> {
        Layout::of(*self).map_or_else(Vec::new, |l| l.tiers())
    }

    fn tier_of(&self, pos: &Position) -> Tier {
        Layout::of(*self).map_or(Tier::Start, |l| l.tier_of(pos))
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        Layout::of(*self).map_or(0, |l| l.size(tier))
    }

    fn index(&self, pos: &Position) -> u64 {
        Layout::of(*self).map_or(u64::MAX, |l| l.index(pos))
    }

    fn position(&self, tier: Tier, index: u64) -> Option<Position> {
        Layout::of(*self)?.position(tier, index)
    }

    fn child_tiers(&self, tier: Tier) -> Vec<Tier> {
        Layout::of(*self).map_or_else(Vec::new, |l| l.child_tiers(tier))
    }

    fn tier_name(&self, tier: Tier) -> String {
        Layout::tier_name(tier)
    }

    /// Every game lasts until the board is full: the empty cells.
    fn fixed_remoteness(&self, tier: Tier) -> Option<u16> {
        let placed = Layout::of(*self)?.placed(tier);
        u16::try_from(u32::from(self.shape().cells()) - placed).ok()
    }
}

impl Registered for Topolo {
    const NAME: &'static str = "topolo";

    const OPTIONS: &'static [GameOption] = &[
        GameOption::value("board", "RxC", "the board, 2 to 8 rows and columns", Some("8x8")),
        GameOption::value(
            "variant",
            "full|size-only",
            "full, or size-only (only the largest group's size counts; docs/topolo.md)",
            Some("full"),
        ),
    ];

    fn from_options(options: &Options) -> Result<Topolo, String> {
        Topolo::from_options(options.get("board"), options.get("variant")).map_err(|e| e.to_string())
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

/// A parse error as the game interface's: the string's shape or a move's
/// spelling is notation; a position play does not reach or a move not
/// legal here is the rules'.
fn game_error(e: ParseError) -> GameError {
    match e {
        ParseError::Syntax { .. } | ParseError::Move { .. } => GameError::notation(e),
        ParseError::Unreachable { .. } | ParseError::Illegal { .. } => GameError::rules(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Shape, Variant};

    #[test]
    fn a_search_that_played_no_game_gives_no_estimate_not_an_even_one() {
        // A server under load stops its searches at once: every move was
        // answered "tie" (the untried move's neutral ½) as if searched.
        let g = Topolo::new(Shape::new(8, 8).unwrap(), Variant::Full);
        let start = g.start();
        let stop = std::sync::atomic::AtomicBool::new(true);
        let est = Search::estimate(&g, &start, std::time::Duration::from_secs(5), &stop).unwrap();
        assert_eq!(est.work, 0, "{est:?}");
        assert!(!est.moves.is_empty());
        assert!(est.moves.iter().all(|(_, s)| s.is_none()), "{est:?}");
        // Given time, every move played is estimated.
        let go = std::sync::atomic::AtomicBool::new(false);
        let est = Search::estimate(&g, &start, std::time::Duration::from_millis(300), &go).unwrap();
        assert!(est.work > 0);
        assert!(est.moves.first().and_then(|m| m.1).is_some(), "{est:?}");
    }

    #[test]
    fn every_index_of_small_tiers_round_trips() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
            for variant in [Variant::Full, Variant::SizeOnly] {
                let g = Topolo::new(Shape::new(r, c).unwrap(), variant);
                let mut classes = 0;
                let mut positions = 0;
                for tier in g.tiers() {
                    for i in 0..g.tier_size(tier) {
                        if let Some(p) = g.position(tier, i) {
                            assert_eq!(Game::canonical(&g, &p), p);
                            assert_eq!(g.tier_of(&p), tier);
                            assert_eq!(g.index(&p), i, "{}", g.format(&p));
                            assert!(g.check(&p).is_ok(), "{}", g.format(&p));
                            // Every image finds the same index.
                            for img in Game::images(&g, &p) {
                                assert_eq!((g.tier_of(&img), g.index(&img)), (tier, i));
                            }
                            classes += 1;
                            positions += Game::images(&g, &p).len();
                        }
                    }
                }
                if (r, c, variant) == (3, 3, Variant::Full) {
                    assert_eq!(positions, 217_417, "every position of play has one index");
                    assert_eq!(classes, 54_510);
                }
            }
        }
    }
}
