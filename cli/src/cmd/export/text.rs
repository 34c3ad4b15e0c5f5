//! The text formats of the generic export: TSV and CSV with a header
//! line, JSON Lines; the positions table a chunk's rows at a time, and the
//! summary table.

use std::io::Write;

use topitop_game_api::{Game, Record, Value};

use super::walk::{Row, Walk};
use super::{Args, Extras, Format};
use crate::cmd::value_name;

/// The field separator of a delimited format.
fn separator(format: Format) -> &'static str {
    if format == Format::Csv {
        ","
    } else {
        "\t"
    }
}

/// The header line of the positions table (none for JSON Lines).
///
/// # Errors
/// Writing `out` failed.
pub fn write_header(out: &mut impl Write, args: &Args, game_columns: &[&str]) -> anyhow::Result<()> {
    if args.format == Format::Jsonl {
        return Ok(());
    }
    let sep = separator(args.format);
    let mut header = ["position", "tier", "value", "remoteness"].join(sep);
    for name in game_columns.iter().chain(&args.extra_columns()) {
        header.push_str(sep);
        header.push_str(name);
    }
    writeln!(out, "{header}")?;
    Ok(())
}

fn remoteness_text(r: Record) -> String {
    if r.value() == Some(Value::Draw) {
        String::new()
    } else {
        r.remoteness().to_string()
    }
}

/// The lines of `rows`, one each. JSON objects keep the columns' order;
/// a tier is a number there when `extras` says the names are numbers.
///
/// # Errors
/// None in practice (writing into memory).
pub fn lines<G: Game>(
    walk: &Walk<'_, G>,
    extras: &dyn Extras<G>,
    rows: &[Row<G::Position>],
    args: &Args,
) -> anyhow::Result<Vec<u8>> {
    let game = walk.game();
    let sep = separator(args.format);
    let names = extras.columns();
    let json = args.format == Format::Jsonl;
    let mut out = Vec::new();
    let mut cells = Vec::with_capacity(names.len());
    // The rows of a class come together: its stored position is written
    // out once for all of them.
    let mut stored: Option<(G::Position, String)> = None;
    for r in rows {
        let canonical = args.all_symmetries.then(|| {
            match &stored {
                Some((p, text)) if *p == r.stored => text,
                _ => &stored.insert((r.stored, game.format_position(&r.stored))).1,
            }
            .clone()
        });
        let position = game.format_position(&r.pos);
        let tier = walk.tier_name(r.tier);
        let value = value_name(r.record);
        cells.clear();
        extras.cells(&r.pos, &mut cells);
        if json {
            let tier = if extras.numeric_tiers() {
                tier.to_string()
            } else {
                serde_json::to_string(tier)?
            };
            let rem = if r.record.value() == Some(Value::Draw) {
                "null".to_string()
            } else {
                r.record.remoteness().to_string()
            };
            write!(
                out,
                "{{\"position\":{},\"tier\":{tier},\"value\":\"{value}\",\"remoteness\":{rem}",
                serde_json::to_string(&position)?
            )?;
            for (name, n) in names.iter().zip(&cells) {
                write!(out, ",\"{name}\":{n}")?;
            }
            if let Some(c) = canonical {
                write!(out, ",\"canonical\":{}", serde_json::to_string(&c)?)?;
            }
            if args.mark_reachable {
                write!(out, ",\"reachable\":{}", r.reachable)?;
            }
            writeln!(out, "}}")?;
        } else {
            write!(
                out,
                "{position}{sep}{tier}{sep}{value}{sep}{}",
                remoteness_text(r.record)
            )?;
            for n in &cells {
                write!(out, "{sep}{n}")?;
            }
            if let Some(c) = canonical {
                write!(out, "{sep}{c}")?;
            }
            if args.mark_reachable {
                write!(out, "{sep}{}", r.reachable)?;
            }
            writeln!(out)?;
        }
    }
    Ok(out)
}

/// The summary rows (tier, value, remoteness, negative for a draw, count)
/// as text.
///
/// # Errors
/// Writing `out` failed.
pub fn write_summary(
    out: &mut impl Write,
    format: Format,
    rows: impl Iterator<Item = (String, &'static str, i64, u64)>,
) -> anyhow::Result<()> {
    let sep = separator(format);
    if format != Format::Jsonl {
        writeln!(out, "tier{sep}value{sep}remoteness{sep}count")?;
    }
    for (tier, v, r, n) in rows {
        if format == Format::Jsonl {
            let rem = if r < 0 { "null".to_string() } else { r.to_string() };
            writeln!(
                out,
                "{{\"tier\":{},\"value\":\"{v}\",\"remoteness\":{rem},\"count\":{n}}}",
                serde_json::to_string(&tier)?
            )?;
        } else {
            let rem = if r < 0 { String::new() } else { r.to_string() };
            writeln!(out, "{tier}{sep}{v}{sep}{rem}{sep}{n}")?;
        }
    }
    Ok(())
}
