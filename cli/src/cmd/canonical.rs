//! `topitop canonical`: the representative of a position's symmetry class,
//! the key under which a database with symmetry stores it (and `export`
//! writes its row), so that any position can be joined to its row.

use std::io::Write;

use topitop_game_api::Game;

use crate::common::error_text;
use crate::lines::{next_line, tsv_field, Line};
use crate::options::GameArgs;

/// Arguments of `canonical`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Positions; without any, they are read from standard input, one per
    /// line, and written as TSV rows `position`, `canonical` (with a header
    /// line), one row per input line: a blank line or a `#` comment gives
    /// `skipped: ...`, a bad one `error: ...` in the second field.
    /// (A position that starts with `-` follows `--`, which ends the
    /// options: several positions would otherwise swallow them.)
    #[arg(value_name = "POSITION")]
    pub positions: Vec<String>,
    /// The game and its options.
    #[command(flatten)]
    pub rules: GameArgs,
}

/// Runs `canonical` with `canonical_of` giving a position string's
/// canonical string: each argument's on a line, or a TSV row for each line
/// of standard input.
///
/// # Errors
/// A bad position (after every line of standard input is answered), or
/// standard input or output failing.
pub fn answer(args: &Args, canonical_of: impl Fn(&str) -> anyhow::Result<String>) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if !args.positions.is_empty() {
        for p in &args.positions {
            writeln!(out, "{}", canonical_of(p)?)?;
        }
        out.flush()?;
        return Ok(());
    }
    writeln!(out, "position\tcanonical")?;
    let mut errors = 0;
    let mut input = std::io::stdin().lock();
    while let Some(line) = next_line(&mut input)? {
        let text = match &line {
            Line::Text(t) => t.trim(),
            _ => "",
        };
        // Every input line has its row, so that rows and lines pair up:
        // blank lines and comments are `skipped` rows, a line that is not
        // text (not UTF-8, or too long) an error row like a bad position.
        if matches!(line, Line::Text(_)) && (text.is_empty() || text.starts_with('#')) {
            let why = if text.is_empty() { "blank line" } else { "comment" };
            writeln!(out, "{}	skipped: {why}", tsv_field(text))?;
            continue;
        }
        match line
            .text()
            .map_err(anyhow::Error::msg)
            .and_then(|t| canonical_of(t.trim()))
        {
            Ok(c) => writeln!(out, "{}	{}", tsv_field(text), tsv_field(&c))?,
            Err(e) => {
                errors += 1;
                writeln!(out, "{}	error: {}", tsv_field(text), tsv_field(&error_text(&e)))?;
            }
        }
    }
    out.flush()?;
    anyhow::ensure!(errors == 0, "{errors} input lines were not valid positions");
    Ok(())
}

/// Runs `canonical` on `game`.
///
/// # Errors
/// Those of [`answer`].
pub fn run<G: Game>(game: G, args: Args) -> anyhow::Result<()> {
    answer(&args, |p| {
        let pos = game.parse_position(p).map_err(crate::common::bad_position)?;
        Ok(game.format_position(&game.canonical(&pos)))
    })
}
