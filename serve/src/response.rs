//! GamesmanUni's position response: the value and remoteness of a position
//! and of every move, with the mover's move value and delta remoteness,
//! sorted best to worst exactly as GamesmanUni's backend sorts them.
//!
//! One choice is the caller's ([`GameOver`]): how to name a position where
//! the game is over without a winner, which v0 stores as a draw (its side
//! to move has no move). GamesmanUni knows a draw only as endless play and
//! announces a loss at a draw without moves; GamesmanClassic's word for a
//! finite end without a winner is a tie.

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

/// How a response names a position where the game ends without a winner
/// and that the database stores as a draw (v0's side to move without a
/// move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GameOver {
    /// As stored: `draw`, remoteness −200 (`topitop query`, `play`).
    #[default]
    AsStored,
    /// `tie`, remoteness 0: the game is over, with no winner (the server,
    /// for GamesmanUni).
    DrawIsTie,
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

/// The value name and remoteness shown for `pos`, whose record is `rec`.
fn shown(rules: Rules, pos: Position, rec: Record, over: GameOver) -> (&'static str, i64) {
    let ended = over == GameOver::DrawIsTie
        && rec.value() == Some(Value::Draw)
        && rules.primitive(pos) == Some(Value::Draw);
    if ended {
        (Value::Tie.name(), 0)
    } else {
        (value_name(rec), uni_remoteness(rec))
    }
}

const ORDER: [&str; 6] = ["win", "tie", "draw", "lose", "unsolved", "undecided"];

/// The response for `pos` under `rules`, with records from `db`, every
/// value as stored.
///
/// # Errors
/// A position or child missing from the database, or a corrupt block.
pub fn respond<D: AsRef<[u8]> + Sync>(
    db: &Database<D>,
    rules: Rules,
    pos: Position,
) -> Result<PositionResponse, topitop_db::DbError> {
    respond_as(db, rules, pos, GameOver::AsStored)
}

/// [`respond`], with a game over without a winner named as `over` says.
///
/// # Errors
/// As [`respond`].
pub fn respond_as<D: AsRef<[u8]> + Sync>(
    db: &Database<D>,
    rules: Rules,
    pos: Position,
    over: GameOver,
) -> Result<PositionResponse, topitop_db::DbError> {
    let rec = db.get(pos)?;
    let mut moves = Vec::new();
    // GamesmanClassic lists moves in reverse generation order; the sort
    // below is stable, so that order breaks ties.
    for &m in rules.legal_moves(pos).iter().rev() {
        let child = play_unchecked(pos, m);
        let (value, remoteness) = shown(rules, child, db.get(child)?, over);
        // Every move passes the turn, so the mover's value is the child's,
        // seen from the other side.
        let move_value = match value {
            "win" => "lose",
            "lose" => "win",
            v => v,
        };
        moves.push(MoveResponse {
            mv: m.to_string(),
            autogui_move: autogui_move(m),
            position: child.to_string(),
            autogui_position: autogui_position(child),
            position_value: value,
            remoteness,
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
    let (position_value, remoteness) = shown(rules, pos, rec, over);
    Ok(PositionResponse {
        position: pos.to_string(),
        autogui_position: autogui_position(pos),
        position_value,
        remoteness,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use topitop_db::{write, WriteOptions};
    use topitop_game::{Budget, Ruleset, StateIndex};
    use topitop_solver::{solve, SolveOptions};

    use super::*;

    #[test]
    fn a_v0_game_over_without_a_winner_is_a_tie_for_gamesman_uni_only() {
        // Only Blue has buckets: Red is often stuck, which v0 calls a draw.
        let budget: Budget = "2/0/1/2".parse().unwrap();
        let rules = Rules::with_budget(Ruleset::V0, budget);
        let dir = tempfile::tempdir().unwrap();
        let path = topitop_db::path_in(dir.path(), rules);
        let solution = solve(rules, SolveOptions::default(), |_| {});
        write(&path, &solution, &WriteOptions::default(), |_, _| {}).unwrap();
        let db = Database::open(&path).unwrap();
        let states = StateIndex::new(budget);
        let stuck = states
            .walk(0, states.len())
            .find(|&p| rules.primitive(p) == Some(Value::Draw) && db.get(p).is_ok())
            .expect("a stuck position");
        let stored = respond(&db, rules, stuck).unwrap();
        assert_eq!(
            (stored.position_value, stored.remoteness),
            ("draw", DRAW_REMOTENESS)
        );
        let uni = respond_as(&db, rules, stuck, GameOver::DrawIsTie).unwrap();
        assert_eq!((uni.position_value, uni.remoteness), ("tie", 0));
        assert!(uni.moves.is_empty() && stored.moves.is_empty());
        let mut parents = Vec::new();
        rules.parents(stuck, &mut parents);
        let parent = parents
            .into_iter()
            .find(|&p| db.get(p).is_ok() && rules.primitive(p).is_none())
            .expect("a parent in play");
        let stored = respond(&db, rules, parent).unwrap();
        let uni = respond_as(&db, rules, parent, GameOver::DrawIsTie).unwrap();
        // The parent keeps its own value; only the move that ends the game
        // changes its name.
        assert_eq!(
            (uni.position_value, uni.remoteness),
            (stored.position_value, stored.remoteness)
        );
        let into = |r: &PositionResponse| {
            let m = r.moves.iter().find(|m| m.position == stuck.to_string()).unwrap();
            (m.position_value, m.remoteness, m.move_value, m.delta_remoteness)
        };
        assert_eq!(into(&stored), ("draw", DRAW_REMOTENESS, "draw", 0));
        assert_eq!(into(&uni), ("tie", 0, "tie", 0));
        // Ties rank before draws and losses.
        let rank = |v: &str| ORDER.iter().position(|&o| o == v);
        assert!(uni
            .moves
            .windows(2)
            .all(|w| rank(w[0].move_value) <= rank(w[1].move_value)));
    }
}
