//! GamesmanUni's position response: the value and remoteness of a position
//! and of every move, with the mover's move value and delta remoteness,
//! sorted best to worst exactly as GamesmanUni's backend sorts them.

use serde::Serialize;
use topitop_db::Database;
use topitop_game::{autogui_move, autogui_position, play_unchecked, Position, Rules, Value};
use topitop_table::Record;

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
}

/// The value name GamesmanUni uses for `rec`.
pub fn value_name(rec: Record) -> &'static str {
    rec.value().map_or("unsolved", Value::name)
}

/// The remoteness GamesmanUni shows for `rec`.
pub fn uni_remoteness(rec: Record) -> i64 {
    match rec.value() {
        Some(Value::Draw) => DRAW_REMOTENESS,
        Some(_) => i64::from(rec.remoteness()),
        None => UNKNOWN_REMOTENESS,
    }
}

const ORDER: [&str; 6] = ["win", "tie", "draw", "lose", "unsolved", "undecided"];

/// The response for `pos` under `rules`, with records from `db`.
///
/// # Errors
/// A position or child missing from the database, or a corrupt block.
pub fn respond<D: AsRef<[u8]> + Sync>(
    db: &Database<D>,
    rules: Rules,
    pos: Position,
) -> Result<PositionResponse, topitop_db::DbError> {
    let rec = db.get(pos)?;
    let mut moves = Vec::new();
    // GamesmanClassic lists moves in reverse generation order; the sort
    // below is stable, so that order breaks ties.
    for &m in rules.legal_moves(pos).iter().rev() {
        let child = play_unchecked(pos, m);
        let c = db.get(child)?;
        // Every move passes the turn, so the mover's value is the child's,
        // seen from the other side.
        let move_value = match c.value() {
            Some(Value::Win) => "lose",
            Some(Value::Lose) => "win",
            Some(v) => v.name(),
            None => "unsolved",
        };
        moves.push(MoveResponse {
            mv: m.to_string(),
            autogui_move: autogui_move(m),
            position: child.to_string(),
            autogui_position: autogui_position(child),
            position_value: value_name(c),
            remoteness: uni_remoteness(c),
            move_value,
            delta_remoteness: 0,
        });
    }
    let known = |mv: &'static str| {
        moves
            .iter()
            .filter(move |m| m.move_value == mv && m.remoteness >= 0)
            .map(|m| m.remoteness)
    };
    let min_win = known("win").min().unwrap_or(0);
    let max_lose = known("lose").max().unwrap_or(0);
    let min_tie = known("tie").min().unwrap_or(0);
    for m in &mut moves {
        m.delta_remoteness = match m.move_value {
            "win" => m.remoteness - min_win,
            "lose" => max_lose - m.remoteness,
            "tie" => m.remoteness - min_tie,
            _ => 0,
        }
        .max(0);
    }
    moves.sort_by_key(|m| (ORDER.iter().position(|&v| v == m.move_value), m.delta_remoteness));
    Ok(PositionResponse {
        position: pos.to_string(),
        autogui_position: autogui_position(pos),
        position_value: value_name(rec),
        remoteness: uni_remoteness(rec),
        moves,
    })
}
