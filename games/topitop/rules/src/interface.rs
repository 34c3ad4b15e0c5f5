//! Topitop behind the game interface: [`Rules`] (a ruleset and a piece
//! budget) is the game, so the framework's shared code reaches Topitop as
//! it reaches any game. Topitop keeps its own solver, database and fast
//! paths (in `games-topitop-solved`); this is the common ground.

use topitop_game_api::{
    BoardArt, Game, GameError, GameOption, Options, Presentation, Reachability, Registered, Search, Value,
};

use crate::budget::Budget;
use crate::cell::Player;
use crate::error::ParsePositionError;
use crate::movegen::play_unchecked;
use crate::moves::Move;
use crate::notation::{autogui_entities, autogui_move, parse_position};
use crate::position::Position;
use crate::rules::{Rules, Ruleset};
use crate::{shown, symmetry};

impl Game for Rules {
    type Position = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        "topitop"
    }

    /// `v1_0`, `v0_0`, or with a budget other than the standard one
    /// `v1_4_1-1-2-2`: the middle of the database's file name.
    fn variant(&self) -> String {
        let budget = if self.budget().is_standard() {
            String::new()
        } else {
            format!("_{}", self.budget().to_string().replace('/', "-"))
        };
        format!(
            "{}_{}{budget}",
            self.ruleset().name(),
            self.ruleset().variant().number()
        )
    }

    fn start(&self) -> Position {
        Rules::start(*self)
    }

    /// The legal moves as GamesmanClassic lists them to a player: its
    /// list is built by putting each move generated in front, so the last
    /// generated comes first (the order GamesmanUni's sort keeps among
    /// equal moves).
    fn moves(&self, pos: &Position) -> Vec<Move> {
        let mut moves = self.legal_moves(*pos).as_slice().to_vec();
        moves.reverse();
        moves
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        play_unchecked(*pos, mv)
    }

    fn primitive(&self, pos: &Position) -> Option<Value> {
        Rules::primitive(*self, *pos)
    }

    fn check(&self, pos: &Position) -> Result<(), GameError> {
        pos.validate(self.budget()).map_err(GameError::rules)
    }

    fn has_symmetries(&self) -> bool {
        true
    }

    fn images(&self, pos: &Position) -> Vec<Position> {
        crate::symmetry::images_of(*pos)
    }

    fn reachable(&self, pos: &Position) -> bool {
        self.is_reachable(*pos)
    }

    /// A backward search from the position answers it exactly.
    fn reachability(&self) -> Reachability {
        Reachability::Answered
    }

    fn parse_position(&self, text: &str) -> Result<Position, GameError> {
        parse_position(text, self.budget()).map_err(|e| match e {
            ParsePositionError::Impossible { .. } => GameError::rules(e),
            _ => GameError::notation(e),
        })
    }

    fn format_position(&self, pos: &Position) -> String {
        pos.to_string()
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, GameError> {
        let mv: Move = text.trim().parse().map_err(GameError::notation)?;
        match self.why_illegal(*pos, mv) {
            None => Ok(mv),
            Some(why) => Err(GameError::rules(format!("{mv} is not a legal move here: {why}"))),
        }
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn player_to_move(&self, pos: &Position) -> Option<usize> {
        Some(match pos.turn() {
            Player::Blue => 0,
            Player::Red => 1,
        })
    }

    fn canonical(&self, pos: &Position) -> Position {
        symmetry::canonical(*pos)
    }
}

/// Topitop shown: the board beside its cell numbers, the AutoGUI strings
/// and theme GamesmanUni draws it from, the page's drawings, the rules
/// text and what the page says beside the board ([`crate::shown`]).
impl Presentation for Rules {
    /// The board beside its cell numbers (as moves name cells), and the
    /// pieces left to place.
    fn show(&self, pos: &Position) -> String {
        let b = pos.board().to_string();
        let mut out = String::new();
        for (row, cells) in b.as_bytes().chunks(3).enumerate() {
            let numbers: String = (1..=3).map(|c| format!("{} ", row * 3 + c)).collect();
            let spaced: String = cells.iter().map(|&c| format!("{} ", c as char)).collect();
            out.push_str(&format!("    {numbers}   {spaced}\n"));
        }
        let [blue, red, small, large] = pos.pieces_left(self.budget());
        out.push_str(&format!(
            "    left to place: Blue {blue} bucket(s), Red {red} bucket(s), {small} small and {large} large pile(s) for either\n"
        ));
        out
    }

    fn player_names(&self) -> [&'static str; 2] {
        ["Blue", "Red"]
    }

    fn title(&self) -> String {
        "Topitop".into()
    }

    fn variant_title(&self) -> String {
        format!("rules {}, budget {}", self.ruleset(), self.budget())
    }

    fn autogui_position(&self, pos: &Position) -> Option<String> {
        Some(autogui_entities(*pos))
    }

    fn autogui_move(&self, _pos: &Position, mv: Move) -> Option<String> {
        Some(autogui_move(mv))
    }

    fn image_autogui_data(&self) -> Option<String> {
        Some(shown::theme::image_autogui_data().to_string())
    }

    fn board_art(&self) -> BoardArt {
        shown::art::board_art()
    }

    /// Only the English text is written.
    fn instructions(&self) -> String {
        shown::instructions::instructions(self.ruleset())
    }

    fn facts(&self, pos: &Position) -> Vec<(String, String)> {
        shown::words::facts(*self, *pos)
    }

    fn ending(&self, pos: &Position) -> Option<String> {
        shown::words::ending(*self, *pos)
    }

    fn move_help(&self) -> Option<String> {
        Some(format!(
            "Moves like B5 (place a bucket on cell 5), S1, L1, 4-5 (slide from cell 4 to 5), None.\nBoard letters: {}",
            crate::explain::LEGEND
        ))
    }
}

/// No search: positions are answered from a database only.
impl Search for Rules {}

/// The pieces of the real game, `--budget`'s default.
const STANDARD_BUDGET: &str = "2/2/4/4";

/// Topitop on the command line: `--rules`, `--variant` and `--budget`
/// select the rules; a database's variant string (`v1_0`, `v0_0`,
/// `v1_4_1-1-2-2`) names them back.
impl Registered for Rules {
    const NAME: &'static str = "topitop";

    const OPTIONS: &'static [GameOption] = &[
        GameOption::value(
            "rules",
            "v0|v1",
            "the ruleset: v1, GamesmanClassic's current module, or v0, its older rules",
            Some("v1"),
        ),
        GameOption::value(
            "variant",
            "N",
            "GamesmanClassic's option number 0-7 (v1 only): bit 0 no move loses, \
             bit 1 the two-tower tying rule, bit 2 misère",
            Some("0"),
        ),
        GameOption::value(
            "budget",
            "B/R/S/L",
            "the pieces: blue buckets/red buckets/smalls/larges",
            Some(STANDARD_BUDGET),
        ),
    ];

    fn from_options(options: &Options) -> Result<Rules, String> {
        let variant = options.get("variant").map_or(Ok(0), |v| {
            v.parse().map_err(|_| {
                format!("--variant {v:?}: Topitop's variants are the numbers 0 to 7 (names are other games': use --game NAME)")
            })
        })?;
        let ruleset =
            Ruleset::parse(options.get("rules").unwrap_or("v1"), variant).map_err(|e| e.to_string())?;
        let budget: Budget = options
            .get("budget")
            .unwrap_or(STANDARD_BUDGET)
            .parse()
            .map_err(|e: crate::BudgetError| e.to_string())?;
        Ok(Rules::with_budget(ruleset, budget))
    }

    fn from_variant(variant: &str) -> Result<Rules, String> {
        let bad = || format!("{variant:?} is no Topitop variant (e.g. v1_0, v0_0, v1_4_1-1-2-2)");
        let mut parts = variant.splitn(3, '_');
        let (Some(name), Some(number)) = (parts.next(), parts.next()) else {
            return Err(bad());
        };
        let number: i64 = number.parse().map_err(|_| bad())?;
        let budget = match parts.next() {
            None => Budget::STANDARD,
            Some(b) => b.replace('-', "/").parse().map_err(|_| bad())?,
        };
        let rules = Rules::with_budget(Ruleset::parse(name, number).map_err(|_| bad())?, budget);
        // One spelling a variant: the standard budget is never written.
        if Game::variant(&rules) == variant {
            Ok(rules)
        } else {
            Err(bad())
        }
    }
}
