//! `topitop show --game NAME POSITION`: the position and every move.

use std::io::Write;

use topitop_game_api::Tiered;

use crate::options::GameArgs;

/// Runs `show` on `game`.
///
/// # Errors
/// A position the game refuses, or a closed standard output.
pub fn run<G: Tiered>(game: G, args: Args) -> anyhow::Result<()> {
    anyhow::ensure!(
        !args.json,
        "--json is not an option of show --game {}",
        game.name()
    );
    let pos = game.parse_position(&args.position).map_err(anyhow::Error::msg)?;
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

/// Arguments of `show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// One-line position string, e.g. `1_---------` or `1_LS-L-SLLS45`.
    #[arg(value_name = "POSITION")]
    pub position: String,
    /// The game and its options.
    #[command(flatten)]
    pub rules: GameArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}
