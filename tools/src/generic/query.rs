//! `topitop query --game NAME`: a position's value and remoteness and every
//! move's, as GamesmanUni's position object.

use std::io::Write;

use topitop_interface::Tiered;
use topitop_serve::respond_game;

use super::open;
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

impl OnGame for Query {
    fn run<G: Tiered + 'static>(self, game: G) -> anyhow::Result<()> {
        let pos = game.parse_position(&self.position).map_err(anyhow::Error::msg)?;
        let db = open(&game, &self.db)?;
        let r = respond_game(&game, &db, &pos)?;
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
