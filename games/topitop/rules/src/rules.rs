//! Rulesets (v1 with its 8 variants, and v0), game values and primitives.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::budget::Budget;
use crate::cell::{Cell, Player};
use crate::error::{IllegalMove, RulesError};
use crate::geometry::NEIGHBOURS;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// One of GamesmanClassic's 8 Topitop options, numbered as its `getOption()`.
///
/// Bit 0: a player with no move loses instead of passing. Bit 1: the
/// two-tower tying rule. Bit 2: misère.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Variant(u8);

impl Variant {
    /// Variant 0, GamesmanClassic's default and the only one on the web.
    pub const DEFAULT: Variant = Variant(0);

    /// Variant `n`.
    ///
    /// # Errors
    /// `n` outside 0..=7.
    pub fn new(n: i64) -> Result<Variant, RulesError> {
        if (0..8).contains(&n) {
            Ok(Variant(n as u8))
        } else {
            Err(RulesError::UnknownVariant(n))
        }
    }

    /// Every variant, 0 to 7.
    pub fn all() -> impl Iterator<Item = Variant> {
        (0..8).map(Variant)
    }

    /// The option number (GamesmanClassic's `getOption()`).
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Bit 0: no legal move is a loss instead of a pass.
    pub const fn no_move_loses(self) -> bool {
        self.0 & 1 != 0
    }

    /// Bit 1: the two-tower tying rule.
    pub const fn tying_rule(self) -> bool {
        self.0 & 2 != 0
    }

    /// Bit 2: misère (a primitive loss becomes a win).
    pub const fn misere(self) -> bool {
        self.0 & 4 != 0
    }

    /// A short description, e.g. `pass, no tying rule, normal`.
    pub fn describe(self) -> String {
        format!(
            "{}, {}, {}",
            if self.no_move_loses() {
                "no move loses"
            } else {
                "pass when stuck"
            },
            if self.tying_rule() {
                "two-tower tying rule"
            } else {
                "no tying rule"
            },
            if self.misere() {
                "misère"
            } else {
                "standard objective"
            },
        )
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Which rules are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ruleset {
    /// The older rules of the first GamesmanClassic module, as a well-defined
    /// game: no pass (a stuck side to move is a draw), its own win test.
    V0,
    /// GamesmanClassic's current module with one of its 8 variants.
    V1(Variant),
}

impl Ruleset {
    /// The ruleset named `name` (`v0` or `v1`) with variant `variant`.
    ///
    /// # Errors
    /// An unknown name or variant, or a variant other than 0 with v0.
    pub fn parse(name: &str, variant: i64) -> Result<Ruleset, RulesError> {
        match name.to_ascii_lowercase().as_str() {
            "v1" => Ok(Ruleset::V1(Variant::new(variant)?)),
            "v0" if variant == 0 => Ok(Ruleset::V0),
            "v0" => Err(RulesError::V0HasNoVariants(Variant::new(variant)?.number())),
            _ => Err(RulesError::UnknownRuleset(name.to_string())),
        }
    }

    /// `v0` or `v1`.
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::V0 => "v0",
            Ruleset::V1(_) => "v1",
        }
    }

    /// The variant (0 for v0).
    pub const fn variant(self) -> Variant {
        match self {
            Ruleset::V0 => Variant::DEFAULT,
            Ruleset::V1(v) => v,
        }
    }
}

/// `v0`, or `v1` with its variant: `v1/0`.
impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ruleset::V0 => f.write_str("v0"),
            Ruleset::V1(v) => write!(f, "v1/{v}"),
        }
    }
}

impl FromStr for Ruleset {
    type Err = RulesError;

    /// Parses `v0`, `v1` (variant 0) or `v1/N`.
    fn from_str(s: &str) -> Result<Ruleset, RulesError> {
        match s.split_once('/') {
            None => Ruleset::parse(s, 0),
            Some((name, v)) => {
                let n = v
                    .parse::<i64>()
                    .map_err(|_| RulesError::UnknownRuleset(s.to_string()))?;
                Ruleset::parse(name, n)
            }
        }
    }
}

/// A game-theoretic value, for the side to move: the game interface's,
/// which every game shares.
pub use topitop_game_api::Value;

/// A ruleset played with a piece budget: everything needed to generate moves
/// and judge positions. A plain value; nothing global.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    ruleset: Ruleset,
    budget: Budget,
}

impl Rules {
    /// `ruleset` with the standard budget.
    pub const fn new(ruleset: Ruleset) -> Rules {
        Rules {
            ruleset,
            budget: Budget::STANDARD,
        }
    }

    /// `ruleset` with `budget`.
    pub const fn with_budget(ruleset: Ruleset, budget: Budget) -> Rules {
        Rules { ruleset, budget }
    }

    /// The ruleset.
    pub const fn ruleset(self) -> Ruleset {
        self.ruleset
    }

    /// The piece budget.
    pub const fn budget(self) -> Budget {
        self.budget
    }

    /// The start position (empty board, Blue to move).
    pub const fn start(self) -> Position {
        Position::START
    }

    /// Writes what GamesmanClassic's `GenerateMoves` lists for `pos` into
    /// `out`, in its generation order: placements and slides, and under v1
    /// the pass when there is no other move (v0 has no pass). Like
    /// upstream, it does not ask whether the game is over: callers that
    /// judge primitives themselves (the module's ABI, perft, the solver)
    /// use it; to play, use [`Rules::legal_moves`].
    #[inline]
    pub fn generate_gamesman_moves(self, pos: Position, out: &mut MoveList) {
        movegen::generate(pos, self.budget, out);
        if out.is_empty() && matches!(self.ruleset, Ruleset::V1(_)) {
            out.push(Move::PASS);
        }
    }

    /// GamesmanClassic's move list of `pos`, as
    /// [`Rules::generate_gamesman_moves`] writes it: not empty at a
    /// primitive position.
    pub fn gamesman_moves(self, pos: Position) -> MoveList {
        let mut list = MoveList::new();
        self.generate_gamesman_moves(pos, &mut list);
        list
    }

    /// The moves a player may make in `pos`: none once the game is over
    /// (a primitive position), else GamesmanClassic's list. What play,
    /// queries and servers use.
    pub fn legal_moves(self, pos: Position) -> MoveList {
        if self.primitive(pos).is_some() {
            MoveList::new()
        } else {
            self.gamesman_moves(pos)
        }
    }

    /// Plays `m`, checking that it is legal in `pos` (and `pos` not primitive).
    ///
    /// # Errors
    /// The move is not among the position's moves.
    pub fn play(self, pos: Position, m: Move) -> Result<Position, IllegalMove> {
        if self.legal_moves(pos).contains(m) {
            Ok(movegen::play_unchecked(pos, m))
        } else {
            Err(IllegalMove {
                mv: m.to_string(),
                position: pos.to_string(),
            })
        }
    }

    /// The value of `pos` if the game is over there, else `None`.
    pub fn primitive(self, pos: Position) -> Option<Value> {
        if let Some(v) = self.board_primitive(pos.board(), pos.turn()) {
            return Some(v);
        }
        let stuck = self.stuck_value()?;
        let mut list = MoveList::new();
        movegen::generate(pos, self.budget, &mut list);
        list.is_empty().then_some(stuck)
    }

    /// The value of a position that its board and side to move alone
    /// decide (two crowned castles), whatever slide is forbidden.
    pub fn board_primitive(self, board: Board, turn: Player) -> Option<Value> {
        let blue = board.castles_of(Player::Blue);
        let red = board.castles_of(Player::Red);
        match self.ruleset {
            Ruleset::V1(v) => {
                if blue != 2 && red != 2 {
                    return None;
                }
                if v.tying_rule() && blue == 2 && red == 1 && tower_tie(board) {
                    return Some(Value::Tie);
                }
                Some(if v.misere() { Value::Win } else { Value::Lose })
            }
            Ruleset::V0 => {
                let (mine, theirs) = if turn == Player::Blue {
                    (blue, red)
                } else {
                    (red, blue)
                };
                if mine >= 2 {
                    Some(Value::Win)
                } else if theirs >= 2 {
                    Some(Value::Lose)
                } else {
                    None
                }
            }
        }
    }

    /// What a side to move without any move (pass aside) gets: `None` when
    /// it passes (v1's default), else the primitive value of its position
    /// (a loss under v1's bit 0, a win under that and misère; a draw in v0).
    pub const fn stuck_value(self) -> Option<Value> {
        match self.ruleset {
            Ruleset::V1(v) if v.no_move_loses() => Some(if v.misere() { Value::Win } else { Value::Lose }),
            Ruleset::V1(_) => None,
            Ruleset::V0 => Some(Value::Draw),
        }
    }

    /// The placements and slides of `pos`, in generation order: what
    /// [`Rules::generate_gamesman_moves`] gives without the pass, so a
    /// stuck side gets none. Like it, blind to primitives; the solver
    /// handles passes and primitives itself.
    #[inline]
    pub fn generate_piece_moves(self, pos: Position, out: &mut MoveList) {
        movegen::generate(pos, self.budget, out);
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::new(Ruleset::V1(Variant::DEFAULT))
    }
}

/// The tying rule's test: a red bucket next to a castle, or a red bucket on
/// a small pile next to a large pile (Red could still build a second tower).
fn tower_tie(board: Board) -> bool {
    (0..9).any(|i| {
        let wanted = match board.get(i) {
            Cell::RedBucket => Cell::Castle,
            Cell::RedSmall => Cell::Large,
            _ => return false,
        };
        NEIGHBOURS[i].iter().any(|&j| board.get(j as usize) == wanted)
    })
}
