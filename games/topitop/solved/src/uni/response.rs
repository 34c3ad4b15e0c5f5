//! Topitop's position objects for GamesmanUni, from its own database
//! format (the fast path behind [`topitop_serve::ServedVariant`]).
//!
//! One choice is the caller's ([`GameOver`]): how to name a position where
//! the game is over without a winner, which v0 stores as a draw (its side
//! to move has no move). GamesmanUni knows a draw only as endless play and
//! announces a loss at a draw without moves; GamesmanClassic's word for a
//! finite end without a winner is a tie.

use games_topitop_rules::{autogui_move, autogui_position, play_unchecked, Position, Rules, Value};
use games_topitop_table::Record;
use topitop_serve::response::{finish_moves, MoveResponse, PositionResponse};

use crate::Database;

pub use topitop_serve::response::{uni_remoteness, value_name};

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
            estimate: None,
        });
    }
    finish_moves(&mut moves);
    let (position_value, remoteness) = shown(rules, pos, rec, over);
    Ok(PositionResponse {
        position: pos.to_string(),
        autogui_position: autogui_position(pos),
        position_value,
        remoteness,
        moves,
        estimated: None,
    })
}

#[cfg(test)]
mod tests {
    use crate::{solve, SolveOptions};
    use crate::{write, WriteOptions};
    use games_topitop_rules::{Budget, Ruleset, StateIndex};

    use super::*;
    use topitop_serve::response::DRAW_REMOTENESS;

    #[test]
    fn a_v0_game_over_without_a_winner_is_a_tie_for_gamesman_uni_only() {
        // Only Blue has buckets: Red is often stuck, which v0 calls a draw.
        let budget: Budget = "2/0/1/2".parse().unwrap();
        let rules = Rules::with_budget(Ruleset::V0, budget);
        let dir = tempfile::tempdir().unwrap();
        let path = crate::path_in(dir.path(), rules);
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
        let order = ["win", "tie", "draw", "lose", "unsolved"];
        let rank = |v: &str| order.iter().position(|&o| o == v);
        assert!(uni
            .moves
            .windows(2)
            .all(|w| rank(w[0].move_value) <= rank(w[1].move_value)));
    }
}
