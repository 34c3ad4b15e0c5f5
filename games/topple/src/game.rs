//! Topple behind the game interface: [`Game`] for play on any board,
//! [`Tiered`] for solving boards and supplies small enough to index
//! ([`crate::tier`]), [`Registered`] for the command.

use crate::error::ParseError;
use topitop_game_api::{
    BoardArt, Game, GameError, GameOption, Options, Presentation, Registered, Search, TierType, Tiered, Value,
};

use crate::position::{Color, Phase, Position};
use crate::rules::{Move, Outcome, Topple};
use crate::tier::Tier;

impl Game for Topple {
    type Position = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        "topple"
    }

    /// `RxC-sN`: the board and the supply, e.g. `8x8-s64`.
    fn variant(&self) -> String {
        format!("{}-s{}", self.shape(), self.supply())
    }

    fn start(&self) -> Position {
        Topple::start(self)
    }

    #[inline]
    fn moves(&self, pos: &Position) -> Vec<Move> {
        Topple::moves(self, pos)
    }

    #[inline]
    fn play(&self, pos: &Position, mv: Move) -> Position {
        Topple::play(self, pos, mv)
    }

    #[inline]
    fn primitive(&self, pos: &Position) -> Option<Value> {
        self.outcome(pos).map(|o| match o {
            Outcome::Win => Value::Win,
            Outcome::Lose => Value::Lose,
            Outcome::Tie => Value::Tie,
        })
    }

    fn check(&self, pos: &Position) -> Result<(), GameError> {
        Topple::check(self, pos).map_err(GameError::rules)
    }

    fn parse_position(&self, text: &str) -> Result<Position, GameError> {
        self.parse(text).map_err(game_error)
    }

    fn format_position(&self, pos: &Position) -> String {
        self.format(pos)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, GameError> {
        Topple::parse_move(self, pos, text).map_err(game_error)
    }

    fn format_move(&self, mv: Move) -> String {
        Topple::format_move(self, mv)
    }

    fn player_to_move(&self, pos: &Position) -> Option<usize> {
        Some(pos.turn().index())
    }

    /// The board's symmetries ([`crate::symmetry`]) and the reserve
    /// symmetry of [`crate::tier`]: reserves at least the supply left play
    /// alike.
    fn has_symmetries(&self) -> bool {
        true
    }

    fn images(&self, pos: &Position) -> Vec<Position> {
        Topple::images(self, pos)
    }

    #[inline]
    fn canonical(&self, pos: &Position) -> Position {
        Topple::canonical(self, pos)
    }
}

/// Topple shown: the board as text, what a player reads beside it, the
/// rules, and the boards of GamesmanUni and the page.
impl Presentation for Topple {
    fn facts(&self, pos: &Position) -> Vec<(String, String)> {
        crate::words::facts(pos)
    }

    fn ending(&self, pos: &Position) -> Option<String> {
        crate::words::ending(self, pos)
    }

    fn player_names(&self) -> [&'static str; 2] {
        [Color::Red.name(), Color::Blue.name()]
    }

    /// The board with row R on top, file letters below, each cell its
    /// height and pawn as in the position string, then the counts.
    fn show(&self, pos: &Position) -> String {
        let s = self.shape();
        let mut out = String::new();
        for r in (0..i32::from(s.rows())).rev() {
            out.push_str(&format!("{:>2} ", r + 1));
            for c in 0..i32::from(s.cols()) {
                let cell = s.cell_at(r, c).expect("on the board");
                let h = match pos.height(cell) {
                    0 => ".".to_string(),
                    h => h.to_string(),
                };
                let pawn = pos.pawn(cell).map_or(' ', |p| p.letter());
                out.push_str(&format!(" {h:>2}{pawn}"));
            }
            out.push('\n');
        }
        out.push_str("   ");
        for c in 0..s.cols() {
            out.push_str(&format!("   {}", char::from(b'a' + c)));
        }
        out.push('\n');
        let counts = |c: Color| {
            format!(
                "{} {} on board, {} in reserve",
                c.name(),
                pos.pawn_count(c),
                pos.reserve(c)
            )
        };
        out.push_str(&format!(
            "supply {}; pawns: {}; {}\n",
            pos.supply(),
            counts(Color::Red),
            counts(Color::Blue)
        ));
        let mover = pos.turn().name();
        match (self.outcome(pos), pos.phase()) {
            (Some(o), _) => out.push_str(&format!("game over: {mover} to move, {o:?}\n")),
            (None, Phase::First(_)) => out.push_str(&format!("{mover} to move: first move\n")),
            (None, Phase::Play) => out.push_str(&format!("{mover} to move\n")),
        }
        out
    }

    fn title(&self) -> String {
        "Topple".into()
    }

    fn variant_title(&self) -> String {
        let s = self.shape();
        format!("{}×{}, {} pieces", s.rows(), s.cols(), self.supply())
    }

    fn instructions(&self) -> String {
        instructions(self)
    }

    fn autogui_position(&self, pos: &Position) -> Option<String> {
        Some(self.autogui_entities(pos))
    }

    fn autogui_move(&self, _pos: &Position, mv: Move) -> Option<String> {
        Some(self.autogui_button(mv))
    }

    fn image_autogui_data(&self) -> Option<String> {
        Some(self.autogui_theme().to_string())
    }

    fn board_art(&self) -> BoardArt {
        Topple::board_art(self)
    }
}

/// No search: positions are answered from a database only.
impl Search for Topple {}

impl Tiered for Topple {
    type Tier = Tier;

    /// Every tier, or none when the board and supply are too large to
    /// index ([`Topple::indexable`]).
    fn tiers(&self) -> Vec<Tier> {
        self.all_tiers()
    }

    #[inline]
    fn tier_of(&self, pos: &Position) -> Tier {
        self.tier_key(pos)
    }

    #[inline]
    fn tier_size(&self, tier: Tier) -> u64 {
        self.tier_size_of(tier)
    }

    #[inline]
    fn index(&self, pos: &Position) -> u64 {
        self.index_of(pos)
    }

    #[inline]
    fn position(&self, tier: Tier, index: u64) -> Option<Position> {
        self.position_at(tier, index)
    }

    /// Steps from board to board (the `walk` module) rather than unranking
    /// each index.
    fn walk_positions(
        &self,
        tier: Tier,
        range: std::ops::Range<u64>,
        canonical_only: bool,
        f: &mut dyn FnMut(u64, &Position),
    ) {
        self.walk_tier(tier, range, canonical_only, f);
    }

    fn child_tiers(&self, tier: Tier) -> Vec<Tier> {
        self.child_tiers_of(tier)
    }

    fn tier_name(&self, tier: Tier) -> String {
        tier.name()
    }

    /// Pawn steps that take nothing stay in their tier, and can repeat.
    fn tier_type(&self, _tier: Tier) -> TierType {
        TierType::Loopy
    }
}

impl Registered for Topple {
    const NAME: &'static str = "topple";

    const OPTIONS: &'static [GameOption] = &[
        GameOption::value("board", "RxC", "the board, 2 to 8 rows and columns", Some("8x8")),
        GameOption::value(
            "variant",
            "sN",
            "the supply of pieces both players share, N from 2 to 255",
            Some("one a cell"),
        ),
    ];

    fn from_options(options: &Options) -> Result<Topple, String> {
        Topple::from_options(options.get("board"), options.get("variant")).map_err(|e| e.to_string())
    }

    /// `RxC-sN`, as [`Game::variant`] writes it.
    fn from_variant(variant: &str) -> Result<Topple, String> {
        let bad = || crate::RulesError::Variant(variant.to_string()).to_string();
        let (board, supply) = variant.split_once('-').ok_or_else(bad)?;
        let game = Topple::from_options(Some(board), Some(supply)).map_err(|e| e.to_string())?;
        // One spelling a variant.
        if Game::variant(&game) == variant {
            Ok(game)
        } else {
            Err(bad())
        }
    }
}

/// The rules for GamesmanUni's side panel, with this board's counts.
fn instructions(game: &Topple) -> String {
    let s = game.shape();
    format!(
        "## Topple, {}×{} with {} pieces\n\n\
         Red and Blue each have 8 pawns; pieces come from one shared supply. **First move:** each \
         player in turn (Red first) places a piece with their first pawn on it on any empty cell.\n\n\
         **Then, each turn, one of:**\n\
         * *place* a piece from the supply on an empty cell or a stack without a pawn, within two \
         king steps of one of your pawns;\n\
         * *step* a pawn one king step onto a stack (never an empty cell or a pawn) at most one \
         higher or lower than its own.\n\n\
         **New pawn:** the third piece of a stack brings a pawn from your reserve onto it.\n\n\
         **Topple:** a piece placed on a stack of 3 or more topples it: choose a direction; the \
         cell keeps one piece and the others fall one a cell in that direction, crushing any pawn \
         they land on (yours too); pieces past the edge leave the game.\n\n\
         **Reset:** a straight or diagonal line of three or more stacks exactly 3 high leaves the \
         game, with the pawns on it.\n\n\
         **Takes,** after every move: a pawn next to an enemy pawn whose stack is exactly one \
         lower takes it (moving onto its stack), unless either pawn could take or be taken in \
         another way (a *lock*). Takes repeat while any can be made.\n\n\
         **End:** once both first moves are made, a player with no pawn on the board loses (both \
         at once: a tie); a player who cannot move loses.\n",
        s.rows(),
        s.cols(),
        game.supply()
    )
}

/// A parse error as the game interface's: the string's shape or a move's
/// spelling is notation; a position play does not reach or a move not
/// legal here is the rules'.
fn game_error(e: ParseError) -> GameError {
    match e {
        ParseError::Syntax { .. } | ParseError::Move { .. } => GameError::notation(e),
        ParseError::Impossible { .. } | ParseError::Illegal { .. } => GameError::rules(e),
    }
}
