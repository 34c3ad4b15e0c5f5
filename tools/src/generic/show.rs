//! `topitop show --game NAME POSITION`: the position and every move.

use std::io::Write;

use topitop_interface::Tiered;

use crate::games::OnGame;

/// `show` on a game behind the interface.
pub struct Show {
    /// The position string (default: the start).
    pub position: Option<String>,
}

impl OnGame for Show {
    fn run<G: Tiered + 'static>(self, game: G) -> anyhow::Result<()> {
        let pos = match &self.position {
            Some(p) => game.parse_position(p).map_err(anyhow::Error::msg)?,
            None => game.start(),
        };
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "{} {}: {}",
            game.name(),
            game.variant(),
            game.format_position(&pos)
        )?;
        write!(out, "{}", game.show(&pos))?;
        if let Some(v) = game.primitive(&pos) {
            writeln!(out, "primitive: {} for the player to move", v.name())?;
        }
        writeln!(out, "canonical: {}", game.format_position(&game.canonical(&pos)))?;
        let moves = game.moves(&pos);
        writeln!(out, "{} moves:", moves.len())?;
        for mv in moves {
            writeln!(
                out,
                "  {:<5} {}",
                game.format_move(mv),
                game.format_position(&game.play(&pos, mv))
            )?;
        }
        Ok(())
    }
}
