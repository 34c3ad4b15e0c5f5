//! `topitop query`: a position's value and remoteness and every move's,
//! as GamesmanUni shows them.

use std::io::{BufRead, Write};

use topitop_game::parse_position;

use crate::common::DbArgs;
use topitop_serve::response::{respond, value_name, PositionResponse};

/// Arguments of `query`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position, e.g. 1_---------; without it, positions are read from
    /// standard input, one per line, and answered as TSV.
    #[arg(value_name = "POSITION")]
    pub position: Option<String>,
    #[command(flatten)]
    pub db: DbArgs,
    /// Print GamesmanUni's position-response JSON.
    #[arg(long)]
    pub json: bool,
}

fn print_text(out: &mut impl Write, r: &PositionResponse) -> std::io::Result<()> {
    let rem = |x: i64| if x < 0 { "-".to_string() } else { x.to_string() };
    writeln!(out, "{}  {} {}", r.position, r.position_value, rem(r.remoteness))?;
    if r.moves.is_empty() {
        return writeln!(out, "(no moves: the game is over)");
    }
    writeln!(
        out,
        "{:<6} {:<16} {:<6} {:>5}  {:<6} {:>5}",
        "move", "child", "value", "rem", "mover", "delta"
    )?;
    for m in &r.moves {
        writeln!(
            out,
            "{:<6} {:<16} {:<6} {:>5}  {:<6} {:>5}",
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

/// Runs `query`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let db = args.db.open()?;
    let rules = db.rules();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if let Some(p) = &args.position {
        let pos = parse_position(p, rules.budget())?;
        let r = respond(&db, rules, pos)?;
        if args.json {
            writeln!(out, "{}", serde_json::to_string(&r)?)?;
        } else {
            print_text(&mut out, &r)?;
        }
        out.flush()?;
        return Ok(());
    }
    writeln!(out, "position\tvalue\tremoteness\tmoves\tbest_move\tbest_child")?;
    let mut errors = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        match parse_position(text, rules.budget())
            .map_err(anyhow::Error::from)
            .and_then(|pos| {
                let r = respond(&db, rules, pos)?;
                Ok((db.get(pos)?, r))
            }) {
            Ok((rec, r)) => {
                let best = r.moves.first();
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}",
                    r.position,
                    value_name(rec),
                    rec.remoteness(),
                    r.moves.len(),
                    best.map_or("-", |m| m.mv.as_str()),
                    best.map_or("-", |m| m.position.as_str())
                )?;
            }
            Err(e) => {
                errors += 1;
                writeln!(out, "{text}\terror\t{e}\t\t\t")?;
            }
        }
    }
    out.flush()?;
    anyhow::ensure!(errors == 0, "{errors} input lines were not valid positions");
    Ok(())
}
