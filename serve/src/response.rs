//! GamesmanUni's position object: the value and remoteness of a position
//! and of every move, with the mover's move value and delta remoteness,
//! sorted best to worst exactly as GamesmanUni's backend sorts them; built
//! here for any game behind the game interface, from a database read
//! through the shared reader ([`respond_game`]) or from its search
//! ([`respond_estimated`]).

use serde::Serialize;
use topitop_db::{DbError, Reader};
use topitop_game_api::{Game, Presentation, Record, Search, Value};

/// GamesmanUni's remoteness for a draw.
pub const DRAW_REMOTENESS: i64 = -200;
/// GamesmanUni's remoteness for a value without a known remoteness.
pub const UNKNOWN_REMOTENESS: i64 = -100;

/// One move of a [`PositionResponse`].
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveResponse {
    /// The move string, e.g. `B5`, `4-5`, `None`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The AutoGUI move string.
    pub autogui_move: String,
    /// The child position.
    pub position: String,
    /// The child's AutoGUI position.
    pub autogui_position: String,
    /// The child's value for its player to move.
    pub position_value: &'static str,
    /// The child's remoteness (−200 for a draw).
    pub remoteness: i64,
    /// The value of the move for the player making it.
    pub move_value: &'static str,
    /// How much worse than the best move of the same value (0 = best).
    pub delta_remoteness: i64,
    /// For a position no database holds: the move's expected result for
    /// its maker from a search, 0 (a loss) to 1 (a win). Absent (and
    /// GamesmanUni's object unchanged) when the values are solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<f64>,
    /// The child's draw level and draw remoteness, when it is a pure draw
    /// ([`crate::draw_levels`]); absent otherwise, as GamesmanUni expects.
    #[serde(flatten)]
    pub draw: Option<DrawLevel>,
}

/// A pure draw's level and draw remoteness (even: a draw-lose for the
/// player to move; odd: a draw-win), as GamesmanUni reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DrawLevel {
    /// The level, from 0.
    pub draw_level: u32,
    /// Moves to the level's fringe with both sides playing for it.
    pub draw_remoteness: u32,
}

/// The search behind a position object's estimates.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EstimatedBy {
    /// The search, e.g. `mcts`.
    pub method: &'static str,
    /// Random games played, or positions evaluated.
    pub work: u64,
    /// The time it was given, in milliseconds.
    pub budget_ms: u64,
}

/// GamesmanUni's position object (route `positions/?p=`).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionResponse {
    /// The position string.
    pub position: String,
    /// Its AutoGUI string.
    pub autogui_position: String,
    /// `win`, `lose`, `tie`, `draw` or `unsolved`, for the player to move.
    pub position_value: &'static str,
    /// Moves to the end under perfect play (−200 for a draw).
    pub remoteness: i64,
    /// Every legal move, best first; empty at a primitive position.
    pub moves: Vec<MoveResponse>,
    /// Present when the values are a search's estimates, not solved ones
    /// (a board too large to solve): `positionValue` and each
    /// `moveValue` are then the estimate's nearest value (a win above
    /// 0.6, a loss below 0.4, else a tie), and the remoteness unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated: Option<EstimatedBy>,
    /// Its draw level and draw remoteness, when it is a pure draw.
    #[serde(flatten)]
    pub draw: Option<DrawLevel>,
}

const ORDER: [&str; 6] = ["win", "tie", "draw", "lose", "unsolved", "undecided"];

/// Gives each move its delta remoteness and sorts the moves best to
/// worst, as UWAPI does for GamesmanUni: a stable sort by move value (win,
/// tie, draw, lose, unsolved), then by delta remoteness (quick wins and
/// ties first, slow losses before quick ones), the caller's order breaking
/// ties.
pub fn finish_moves(moves: &mut [MoveResponse]) {
    let known = |mv: &'static str| {
        moves
            .iter()
            .filter(move |m| m.move_value == mv && m.remoteness >= 0)
            .map(|m| m.remoteness)
    };
    let min_win = known("win").min().unwrap_or(0);
    let max_lose = known("lose").max().unwrap_or(0);
    let min_tie = known("tie").min().unwrap_or(0);
    for m in moves.iter_mut() {
        m.delta_remoteness = match m.move_value {
            "win" => m.remoteness - min_win,
            "lose" => max_lose - m.remoteness,
            "tie" => m.remoteness - min_tie,
            _ => 0,
        }
        .max(0);
    }
    moves.sort_by_key(|m| (ORDER.iter().position(|&v| v == m.move_value), m.delta_remoteness));
}

/// The value name GamesmanUni uses for `rec`.
pub fn value_name(rec: Record) -> &'static str {
    rec.value().map_or(UNSOLVED, Value::name)
}

/// The remoteness GamesmanUni shows for `rec` (−200 for a draw, −100
/// for no value).
pub fn uni_remoteness(rec: Record) -> i64 {
    match rec.value() {
        Some(Value::Draw) => DRAW_REMOTENESS,
        Some(_) => i64::from(rec.remoteness()),
        None => UNKNOWN_REMOTENESS,
    }
}

/// `pos`'s AutoGUI string: the turn (`1` or `2`), then the game's entity
/// string, or the position string with every character GamesmanUni does
/// not take in one replaced by `~` for a game without a board.
pub fn autogui_position<G: Presentation>(game: &G, pos: &G::Position) -> String {
    let entities = game.autogui_position(pos).unwrap_or_else(|| {
        game.format_position(pos)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-.~".contains(c) {
                    c
                } else {
                    '~'
                }
            })
            .collect()
    });
    // An impartial game says no turn: GamesmanUni's string still needs one.
    format!("{}_{entities}", game.player_to_move(pos).map_or(1, |p| p + 1))
}

/// How a position object names a position where the game is over
/// without a winner and that the database stores as a draw (a side to
/// move without a move, where the rules call that a draw).
/// GamesmanUni knows a draw only as endless play and announces a loss at
/// a draw without moves; GamesmanClassic's word for a finite end without
/// a winner is a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GameOver {
    /// As stored: `draw`, remoteness −200 (`query`, `play`).
    #[default]
    AsStored,
    /// `tie`, remoteness 0: the game is over, with no winner (the server,
    /// for GamesmanUni).
    DrawIsTie,
}

/// The value name and remoteness shown for `pos`, whose record is `rec`.
fn shown<G: Game>(game: &G, pos: &G::Position, rec: Record, over: GameOver) -> (&'static str, i64) {
    let ended = over == GameOver::DrawIsTie
        && rec.value() == Some(Value::Draw)
        && game.primitive(pos) == Some(Value::Draw);
    if ended {
        (Value::Tie.name(), 0)
    } else {
        (value_name(rec), uni_remoteness(rec))
    }
}

/// The position object of `pos` of `game`, with records from `db`, a
/// game over without a winner named as `over` says. A move's value for
/// its maker is the child's, seen from the other side: every move passes
/// the turn. The moves come in the game's order where the sort leaves a
/// tie.
///
/// # Errors
/// A position outside the database, or a damaged block.
pub fn respond_game<G: Game + Presentation, R: Reader<G> + ?Sized>(
    game: &G,
    db: &R,
    pos: &G::Position,
    over: GameOver,
) -> Result<PositionResponse, DbError> {
    let rec = db.lookup(game, pos)?;
    let mut moves = Vec::new();
    for mv in game.moves(pos) {
        let child = game.play(pos, mv);
        let (value, remoteness) = shown(game, &child, db.lookup(game, &child)?, over);
        // Every move passes the turn (as the solvers count on).
        let move_value = match value {
            "win" => "lose",
            "lose" => "win",
            v => v,
        };
        let text = game.format_move(mv);
        moves.push(MoveResponse {
            autogui_move: game.autogui_move(pos, mv).unwrap_or_else(|| text.clone()),
            mv: text,
            position: game.format_position(&child),
            autogui_position: autogui_position(game, &child),
            position_value: value,
            remoteness,
            move_value,
            delta_remoteness: 0,
            estimate: None,
            draw: None,
        });
    }
    finish_moves(&mut moves);
    let (position_value, remoteness) = shown(game, pos, rec, over);
    Ok(PositionResponse {
        position: game.format_position(pos),
        autogui_position: autogui_position(game, pos),
        position_value,
        remoteness,
        moves,
        estimated: None,
        draw: None,
    })
}

/// The value of a position or move no search has a result for: a search
/// that played no game through it (GamesmanUni's word for a position
/// without a value).
pub const UNSOLVED: &str = "unsolved";

/// The value an estimated result leans to: a win above 0.55, a loss below
/// 0.45, else a tie. The band is narrow because a share is said beside the
/// colour: 56% leans to a win, and calling it a tie hid that.
pub fn estimated_value(score: f64) -> &'static str {
    if score > 0.55 {
        "win"
    } else if score < 0.45 {
        "lose"
    } else {
        "tie"
    }
}

/// The position object of `pos` from `game`'s search given `budget`, for
/// a position no database holds: moves best first by their estimates,
/// each child's value the other side's view of it, remoteness unknown.
/// The search ends early once `stop` is set (the answer is then for
/// nobody). `None` when the game has no search.
pub fn respond_estimated<G: Presentation + Search>(
    game: &G,
    pos: &G::Position,
    budget: std::time::Duration,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<PositionResponse> {
    let done = game.primitive(pos);
    let est = if done.is_some() {
        topitop_game_api::Estimates {
            method: "none",
            work: 0,
            moves: Vec::new(),
        }
    } else {
        game.estimate(pos, budget, stop)?
    };
    let moves: Vec<MoveResponse> = est
        .moves
        .iter()
        .map(|&(mv, score)| {
            let child = game.play(pos, mv);
            // Every move passes the turn: the child's player scores the rest.
            let child_score = score.map(|s| 1.0 - s);
            let text = game.format_move(mv);
            MoveResponse {
                autogui_move: game.autogui_move(pos, mv).unwrap_or_else(|| text.clone()),
                mv: text,
                position: game.format_position(&child),
                autogui_position: autogui_position(game, &child),
                position_value: child_score.map_or(UNSOLVED, estimated_value),
                remoteness: UNKNOWN_REMOTENESS,
                move_value: score.map_or(UNSOLVED, estimated_value),
                delta_remoteness: 0,
                estimate: score,
                draw: None,
            }
        })
        .collect();
    let (value, remoteness) = match done {
        Some(v) => (v.name(), 0),
        None => (
            moves.first().map_or(UNSOLVED, |m| m.move_value),
            UNKNOWN_REMOTENESS,
        ),
    };
    Some(PositionResponse {
        position: game.format_position(pos),
        autogui_position: autogui_position(game, pos),
        position_value: value,
        remoteness,
        moves,
        estimated: Some(EstimatedBy {
            method: est.method,
            work: est.work,
            budget_ms: u64::try_from(budget.as_millis()).unwrap_or(u64::MAX),
        }),
        draw: None,
    })
}

#[cfg(test)]
mod tests {
    use super::estimated_value;

    #[test]
    fn an_estimate_leans_to_the_value_its_share_is_nearest_beyond_a_narrow_band() {
        // 56% was called a tie while the page showed the share beside it.
        assert_eq!(estimated_value(0.56), "win");
        assert_eq!(estimated_value(0.55), "tie");
        assert_eq!(estimated_value(0.5), "tie");
        assert_eq!(estimated_value(0.45), "tie");
        assert_eq!(estimated_value(0.44), "lose");
        assert_eq!(estimated_value(1.0), "win");
        assert_eq!(estimated_value(0.0), "lose");
    }
}
