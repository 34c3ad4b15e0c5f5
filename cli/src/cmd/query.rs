//! `topitop query`: a position's value and remoteness and every move's,
//! as GamesmanUni's position object, and whether any game comes to it; or,
//! for positions read from standard input, a row each.

use std::io::Write;

use serde::Serialize;
use topitop_db::Reader;
use topitop_game_api::{Presentation, Reachability, Record, Search};
use topitop_serve::response::value_name;
use topitop_serve::PositionResponse;

use super::Source;
use crate::common::{error_text, DbArgs};
use crate::lines::{next_line, tsv_field, Line};

/// Runs `query` on `game`, answered from `source`.
///
/// # Errors
/// A position the game refuses, or a damaged database.
pub fn run<G: Presentation + Search, R: Reader<G>>(
    game: G,
    source: Source<R>,
    args: Args,
) -> anyhow::Result<()> {
    // The database's test of reachability (a forward pass), for a game
    // that does not answer it itself; else the game's answer.
    let reached = match &source {
        Source::Db(db) if game.reachability() == Reachability::Search => db.reachable(&game),
        _ => None,
    };
    let respond = |text: &str| -> anyhow::Result<Answer> {
        let pos = game.parse_position(text).map_err(crate::common::bad_position)?;
        Ok(Answer {
            record: source.record(&game, &pos)?,
            object: source.respond(&game, &pos)?,
            reachable: reached
                .as_ref()
                .map_or_else(|| game.reachable(&pos), |test| test(&pos)),
        })
    };
    answer(&args, respond)
}

/// Answers `args`' position, or those of standard input, with `respond`:
/// the one way every game's `query` prints, whatever answers it.
///
/// # Errors
/// A position the game refuses, a failing `respond`, or standard input or
/// output failing.
pub fn answer(args: &Args, respond: impl Fn(&str) -> anyhow::Result<Answer>) -> anyhow::Result<()> {
    match (&args.position, args.line) {
        (Some(p), true) => answer_line(args.json, p, &respond),
        (Some(p), false) => answer_one(args.json, &respond(p)?),
        (None, true) => anyhow::bail!("--line follows one position: give it (e.g. `query --line POSITION`)"),
        (None, false) => answer_lines(args.json, respond),
    }
}

/// The most moves `--line` follows: a drawn line goes on for ever.
const MAX_LINE: usize = 1000;

/// Prints the line of perfect play from `start`, a best move at each
/// ply (the first of the object's moves, which come best first), to the
/// end of the game; a drawn line until a position comes again. As text, a
/// row a ply; with `json`, a JSON line a ply.
fn answer_line(
    json: bool,
    start: &str,
    respond: impl Fn(&str) -> anyhow::Result<Answer>,
) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut seen = std::collections::HashSet::new();
    let mut text = start.to_string();
    let mut played: Option<String> = None;
    let rem = |x: i64| if x < 0 { "-".to_string() } else { x.to_string() };
    for ply in 0..=MAX_LINE {
        let a = respond(&text)?;
        let r = &a.object;
        if r.estimated.is_some() {
            anyhow::bail!(
                "{}: no database holds it, and a search's estimates are no line of perfect play; solve the board first",
                r.position
            );
        }
        if json {
            let mut v = serde_json::to_value(&a)?;
            v["ply"] = ply.into();
            v["played"] = played.clone().into();
            writeln!(out, "{v}")?;
        } else {
            if ply == 0 {
                writeln!(
                    out,
                    "{:>4}  {:<6} {:<24} {:<6} {:>5}",
                    "ply", "move", "position", "value", "rem"
                )?;
            }
            writeln!(
                out,
                "{ply:>4}  {:<6} {:<24} {:<6} {:>5}",
                played.as_deref().unwrap_or(""),
                r.position,
                r.position_value,
                rem(r.remoteness)
            )?;
        }
        let Some(best) = r.moves.first() else {
            if !json {
                writeln!(
                    out,
                    "the game is over: {} for the player to move",
                    r.position_value
                )?;
            }
            return Ok(out.flush()?);
        };
        if !seen.insert(r.position.clone()) {
            if !json {
                writeln!(out, "this position came before: a draw, play goes round for ever")?;
            }
            return Ok(out.flush()?);
        }
        played = Some(best.mv.clone());
        text = best.position.clone();
    }
    // JSON Lines hold positions alone: the note goes to standard error.
    if json {
        eprintln!("topitop: stopped after {MAX_LINE} moves");
    } else {
        writeln!(out, "stopped after {MAX_LINE} moves")?;
    }
    Ok(out.flush()?)
}

/// One position's answer.
#[derive(Serialize)]
pub struct Answer {
    /// Its value and remoteness, as stored.
    #[serde(skip)]
    pub record: Record,
    /// GamesmanUni's position object.
    #[serde(flatten)]
    pub object: PositionResponse,
    /// Whether some game played from the start comes to the position (a
    /// position of play need not be reachable).
    pub reachable: bool,
}

/// Prints one position's answer: GamesmanUni's object with `reachable`
/// added as JSON, or a table of its moves.
fn answer_one(json: bool, a: &Answer) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if json {
        writeln!(out, "{}", serde_json::to_string(a)?)?;
    } else {
        // The child column as wide as its widest entry.
        let width = a
            .object
            .moves
            .iter()
            .map(|m| m.position.len())
            .max()
            .unwrap_or(0)
            .max(5);
        print_text(&mut out, a, width)?;
    }
    out.flush()?;
    Ok(())
}

fn print_text(out: &mut impl Write, a: &Answer, width: usize) -> std::io::Result<()> {
    let r = &a.object;
    let rem = |x: i64| if x < 0 { "-".to_string() } else { x.to_string() };
    if let Some(e) = &r.estimated {
        return print_estimates(out, r, e, width);
    }
    writeln!(out, "{}  {} {}", r.position, r.position_value, rem(r.remoteness))?;
    if !a.reachable {
        writeln!(out, "(a position of play that no game from the start comes to)")?;
    }
    if r.moves.is_empty() {
        return writeln!(out, "(no moves: the game is over)");
    }
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

/// A position's estimated moves: not solved values, and said so.
fn print_estimates(
    out: &mut impl Write,
    r: &PositionResponse,
    e: &topitop_serve::response::EstimatedBy,
    width: usize,
) -> std::io::Result<()> {
    if e.method == "exact" {
        // The search saw every line to its end: the value is known, though
        // not the number of moves.
        writeln!(
            out,
            "{}  {} for the player to move, proven by the search ({} random games, {} ms; no database, so the number of moves is not known)",
            r.position, r.position_value, e.work, e.budget_ms
        )?;
    } else if r.moves.iter().all(|m| m.estimate.is_none()) && !r.moves.is_empty() {
        writeln!(
            out,
            "{}  no estimate: the {} search played no game in {} ms (give it longer with --search-ms)",
            r.position, e.method, e.budget_ms
        )?;
    } else {
        let a = if e.method.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        writeln!(
            out,
            "{}  estimated: {} for the player to move (no database: {a} {} search, {} ms, {} random games; not solved values)",
            r.position, r.position_value, e.method, e.budget_ms, e.work
        )?;
    }
    if r.moves.is_empty() {
        return writeln!(out, "(no moves: the game is over)");
    }
    writeln!(
        out,
        "{:<6} {:<width$} {:>8}  {:<6}",
        "move", "child", "estimate", "mover"
    )?;
    for m in &r.moves {
        // A move the search never tried has no share, not an even one.
        let share = m
            .estimate
            .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        writeln!(
            out,
            "{:<6} {:<width$} {:>8}  {:<6}",
            m.mv, m.position, share, m.move_value
        )?;
    }
    Ok(())
}

/// Answers the positions of standard input, one per line: a TSV row each
/// (or, with `json`, a JSON line), blank lines and `#` comments each a
/// `skipped` row, a bad position an `error` row. `answer` gives a
/// position's answer.
///
/// # Errors
/// Standard input or output failing, or (after every line is answered)
/// any line that was not a valid position.
fn answer_lines(json: bool, answer: impl Fn(&str) -> anyhow::Result<Answer>) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if !json {
        writeln!(
            out,
            "position\tvalue\tremoteness\tmoves\tbest_move\tbest_child\treachable"
        )?;
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
            if json {
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({ "position": shown, "skipped": why })
                )?;
            } else {
                writeln!(out, "{}\tskipped\t{why}\t\t\t\t", tsv_field(shown))?;
            }
            continue;
        }
        let answer = line
            .text()
            .map_err(anyhow::Error::msg)
            .and_then(|text| answer(text.trim()));
        match answer {
            Ok(a) if json => writeln!(out, "{}", serde_json::to_string(&a)?)?,
            Ok(a) => {
                let r = &a.object;
                let best = r.moves.first();
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    tsv_field(&r.position),
                    value_name(a.record),
                    // Empty for a draw, as `export` writes it: the two join.
                    if a.record.value() == Some(topitop_game_api::Value::Draw) {
                        String::new()
                    } else {
                        a.record.remoteness().to_string()
                    },
                    r.moves.len(),
                    tsv_field(best.map_or("-", |m| m.mv.as_str())),
                    tsv_field(best.map_or("-", |m| m.position.as_str())),
                    a.reachable
                )?;
            }
            Err(e) => {
                errors += 1;
                let e = error_text(&e);
                if json {
                    let row = serde_json::json!({ "position": shown, "error": e });
                    writeln!(out, "{row}")?;
                } else {
                    writeln!(out, "{}\terror\t{}\t\t\t\t", tsv_field(shown), tsv_field(&e))?;
                }
            }
        }
    }
    out.flush()?;
    anyhow::ensure!(errors == 0, "{errors} input lines were not valid positions");
    Ok(())
}

/// Arguments of `query`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position, in the game's notation (Topitop's `1_---------`,
    /// Topolo's `.../.../...`); without it, positions are read from
    /// standard input, one per line, and answered as TSV rows (or, with
    /// --json, JSON Lines: one object per line, `{"position", "error"}` for
    /// a bad one).
    // A position may start with `-` (tic-tac-toe's empty board); the
    // command's own options are still read as options.
    #[arg(value_name = "POSITION", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Where the database is.
    #[command(flatten)]
    pub db: DbArgs,
    /// Print GamesmanUni's position-response JSON.
    #[arg(long)]
    pub json: bool,
    /// Follow perfect play from the position to the end of the game (a
    /// drawn line until a position repeats): a row a ply, the best move
    /// each time, as tablebase probes give a line.
    #[arg(long)]
    pub line: bool,
    /// For a board no database holds, answered by the game's search (8×8
    /// Topolo): milliseconds the search takes.
    /// 10 to 60000.
    #[arg(long, default_value_t = super::SEARCH_MS, value_name = "MS", value_parser = super::search_ms)]
    pub search_ms: u64,
}
