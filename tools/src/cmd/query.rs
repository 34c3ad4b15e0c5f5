//! `topitop query`: a position's value and remoteness and every move's,
//! as GamesmanUni shows them.

use std::io::Write;

use topitop_game::parse_position;
use topitop_game_solved::{respond, value_name};
use topitop_serve::PositionResponse;

use crate::common::DbArgs;
use crate::lines::{next_line, Line};

/// Arguments of `query`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position, e.g. 1_---------; without it, positions are read from
    /// standard input, one per line, and answered as TSV rows (or, with
    /// --json, JSON Lines: one object per line, `{"position", "error"}` for
    /// a bad one).
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
    if args.db.rules.game() != "topitop" {
        let Some(position) = args.position.clone() else {
            anyhow::bail!(
                "query --game {} takes one POSITION (standard input is Topitop's for now)",
                args.db.rules.game()
            );
        };
        let cmd = crate::generic::query::Query {
            position,
            json: args.json,
            db: args.db.clone(),
        };
        return crate::games::with_game(&args.db.rules, cmd);
    }
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
    if !args.json {
        writeln!(out, "position\tvalue\tremoteness\tmoves\tbest_move\tbest_child")?;
    }
    let mut errors = 0;
    let mut input = std::io::stdin().lock();
    while let Some(line) = next_line(&mut input)? {
        let shown = match &line {
            Line::Text(t) => t.trim(),
            _ => "",
        };
        if matches!(&line, Line::Text(_)) && (shown.is_empty() || shown.starts_with('#')) {
            // Still a row: one row per input line, so rows and lines pair up.
            let why = if shown.is_empty() { "blank line" } else { "comment" };
            if args.json {
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({ "position": shown, "skipped": why })
                )?;
            } else {
                writeln!(out, "{}\tskipped\t{why}\t\t\t", tsv_field(shown))?;
            }
            continue;
        }
        let answer = line
            .text()
            .map_err(anyhow::Error::msg)
            .and_then(|text| Ok(parse_position(text.trim(), rules.budget())?))
            .and_then(|pos| {
                let r = respond(&db, rules, pos)?;
                Ok((db.get(pos)?, r))
            });
        match answer {
            Ok((_, r)) if args.json => writeln!(out, "{}", serde_json::to_string(&r)?)?,
            Ok((rec, r)) => {
                let best = r.moves.first();
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}",
                    tsv_field(&r.position),
                    value_name(rec),
                    rec.remoteness(),
                    r.moves.len(),
                    tsv_field(best.map_or("-", |m| m.mv.as_str())),
                    tsv_field(best.map_or("-", |m| m.position.as_str()))
                )?;
            }
            Err(e) => {
                errors += 1;
                let e = crate::common::error_text(&e);
                if args.json {
                    let row = serde_json::json!({ "position": shown, "error": e });
                    writeln!(out, "{row}")?;
                } else {
                    writeln!(out, "{}\terror\t{}\t\t\t", tsv_field(shown), tsv_field(&e))?;
                }
            }
        }
    }
    out.flush()?;
    anyhow::ensure!(errors == 0, "{errors} input lines were not valid positions");
    Ok(())
}

/// `text` as one TSV field: a backslash, tab, line feed and carriage
/// return become `\\`, `\t`, `\n` and `\r`, and every other control
/// character `\xHH`, so that no input can add a field or a row, or put
/// a terminal escape on the reader's screen.
fn tsv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c == '\\' || c.is_control()) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                use std::fmt::Write as _;
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::tsv_field;

    #[test]
    fn a_field_never_holds_a_tab_a_newline_or_a_control_character() {
        assert_eq!(tsv_field("1_---------"), "1_---------");
        assert_eq!(tsv_field("a\tb\tc"), "a\\tb\\tc");
        assert_eq!(tsv_field("x\r\n\0\u{1b}[31m\\"), "x\\r\\n\\x00\\x1b[31m\\\\");
        assert_eq!(tsv_field("\u{7f}\u{85}"), "\\x7f\\x85");
        for c in 0..0x100u32 {
            let s = char::from_u32(c).unwrap().to_string();
            let f = tsv_field(&s);
            assert!(!f.chars().any(char::is_control), "{c:#x} -> {f:?}");
        }
    }
}
