//! `topitop query --game NAME`: a position's value and remoteness and every
//! move's, as GamesmanUni's position object.

use std::io::Write;

use serde::Serialize;
use topitop_interface::{Record, Tiered, Value};

use super::{lookup, open, value_name};
use crate::common::DbArgs;
use crate::games::OnGame;

/// `query` on a game behind the interface.
pub struct Query {
    /// The position string.
    pub position: String,
    /// Print JSON.
    pub json: bool,
    /// Where the database is.
    pub db: DbArgs,
}

/// One move of a [`PositionObject`].
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveObject {
    /// The move string.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position it leads to.
    pub position: String,
    /// That position's value for its player to move.
    pub position_value: &'static str,
    /// That position's remoteness.
    pub remoteness: i64,
    /// The move's value for the player making it.
    pub move_value: &'static str,
    /// How much worse than the best move of the same value (0 = best).
    pub delta_remoteness: i64,
}

/// GamesmanUni's position object, with the same keys as Topitop's.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionObject {
    /// The position string.
    pub position: String,
    /// Its value for the player to move.
    pub position_value: &'static str,
    /// Moves to the end under perfect play.
    pub remoteness: i64,
    /// Every legal move, best first.
    pub moves: Vec<MoveObject>,
}

/// A record's remoteness as GamesmanUni shows it (−200 for a draw, −1 for
/// no record).
fn shown_remoteness(r: Record) -> i64 {
    match r.value() {
        None => -1,
        Some(Value::Draw) => -200,
        Some(_) => i64::from(r.remoteness()),
    }
}

/// The value of a move for its maker, from the child's record.
fn move_value(child: Record) -> Option<Value> {
    child.value().map(|v| match v {
        Value::Win => Value::Lose,
        Value::Lose => Value::Win,
        other => other,
    })
}

/// The position object of `pos`, moves sorted as UWAPI sorts them for
/// GamesmanUni: by move value (win, tie, draw, lose, unsolved), then by
/// delta remoteness (wins and ties quickest first, losses slowest first),
/// in the game's order where both are equal.
///
/// # Errors
/// A damaged database.
pub fn respond<G: Tiered>(
    game: &G,
    db: &topitop_db::tiered::TieredDb,
    pos: &G::Position,
) -> anyhow::Result<PositionObject> {
    let rec = lookup(game, db, pos)?;
    let mut moves: Vec<(Record, MoveObject)> = Vec::new();
    for mv in game.moves(pos) {
        let child = game.play(pos, mv);
        let c = lookup(game, db, &child)?;
        moves.push((
            c,
            MoveObject {
                mv: game.format_move(mv),
                position: game.format_position(&child),
                position_value: value_name(c),
                remoteness: shown_remoteness(c),
                move_value: move_value(c).map_or("unsolved", Value::name),
                delta_remoteness: 0,
            },
        ));
    }
    let rank = |c: Record| -> (u8, i64) {
        let r = i64::from(c.remoteness());
        match move_value(c) {
            Some(Value::Win) => (0, r),
            Some(Value::Tie) => (1, r),
            Some(Value::Draw) => (2, 0),
            Some(Value::Lose) => (3, -r),
            None => (4, 0),
        }
    };
    // A stable sort, as UWAPI's: moves of equal value and remoteness keep
    // the game's order.
    moves.sort_by_key(|(c, _)| rank(*c));
    let best_of = |group: u8| {
        moves
            .iter()
            .find(|(c, _)| rank(*c).0 == group)
            .map(|(c, _)| rank(*c).1)
    };
    let bests: Vec<Option<i64>> = (0..5).map(best_of).collect();
    for (c, m) in &mut moves {
        let (group, key) = rank(*c);
        m.delta_remoteness = bests[usize::from(group)].map_or(0, |b| (key - b).abs());
    }
    Ok(PositionObject {
        position: game.format_position(pos),
        position_value: value_name(rec),
        remoteness: shown_remoteness(rec),
        moves: moves.into_iter().map(|(_, m)| m).collect(),
    })
}

impl OnGame for Query {
    fn run<G: Tiered + 'static>(self, game: G) -> anyhow::Result<()> {
        let pos = game.parse_position(&self.position).map_err(anyhow::Error::msg)?;
        let db = open(&game, &self.db)?;
        let r = respond(&game, &db, &pos)?;
        let mut out = std::io::stdout().lock();
        if self.json {
            writeln!(out, "{}", serde_json::to_string(&r)?)?;
            return Ok(());
        }
        let rem = |x: i64| if x < 0 { "-".to_string() } else { x.to_string() };
        writeln!(out, "{}  {} {}", r.position, r.position_value, rem(r.remoteness))?;
        if r.moves.is_empty() {
            writeln!(out, "(no moves: the game is over)")?;
            return Ok(());
        }
        let width = r.position.len().max(5);
        writeln!(
            out,
            "{:<6} {:<width$} {:<6} {:>5}  {:<6} {:>5}",
            "move", "child", "value", "rem", "mover", "delta"
        )?;
        for m in &r.moves {
            writeln!(
                out,
                "{:<6} {:<width$} {:<6} {:>5}  {:<6} {:>5}",
                m.mv,
                m.position,
                m.position_value,
                rem(m.remoteness),
                m.move_value,
                m.delta_remoteness
            )?;
        }
        Ok(())
    }
}
