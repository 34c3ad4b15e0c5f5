//! `topitop export`: remoteness tables from a database (as text, or as
//! Parquet in [`parquet`]), or GamesmanClassic's tier files (`--format
//! gamesman-classic`, in `gamesman_classic`).

mod gamesman_classic;
pub mod parquet;

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::Context;
use rayon::prelude::*;
use topitop_rules::{symmetry, Budget, Player, Position, Tier, Value};
use topitop_solved::value_name;
use topitop_table::Record;

use topitop_cli::cmd::export::{Args, Format};
use topitop_cli::parquet::check_target;

use crate::options::DbOptions;
use topitop_cli::output::Output;
use topitop_cli::progress::CountBar;

/// The columns of every positions table, in every format: the position,
/// its tier, its value for the player to move and remoteness, the player
/// to move (1 Blue, 2 Red), then the tier decoded: the pieces on the board
/// and those left to place, by kind.
pub const COLUMNS: [&str; 13] = [
    "position",
    "tier",
    "value",
    "remoteness",
    "turn",
    "board_blue_buckets",
    "board_red_buckets",
    "board_smalls",
    "board_larges",
    "left_blue_buckets",
    "left_red_buckets",
    "left_smalls",
    "left_larges",
];

/// The columns after `remoteness`: the turn, then the pieces on the board
/// and left to place (blue buckets, red buckets, smalls, larges).
pub fn piece_counts(pos: Position, budget: Budget) -> [u8; 9] {
    let on = pos.board().pieces_used();
    let left = pos.pieces_left(budget);
    let turn = match pos.turn() {
        Player::Blue => 1,
        Player::Red => 2,
    };
    [
        turn, on[0], on[1], on[2], on[3], left[0], left[1], left[2], left[3],
    ]
}

/// A row of the positions table.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The row's position.
    pub pos: Position,
    /// The position the database stores for its symmetry class (the
    /// `canonical` column of `--all-symmetries`).
    pub key: Position,
    /// Its value and remoteness.
    pub rec: Record,
    /// Whether games reach it (the `reachable` column of
    /// `--mark-reachable`).
    pub reachable: bool,
}

/// What rows a stored position gives: none if the filters drop it, one,
/// or with `--all-symmetries` one for each position of its class.
pub type Rows<'a> = dyn Fn(Position, Record, &mut Vec<Row>) + Sync + 'a;

/// Runs `export`. One row per symmetry class (the canonical position), or
/// with `--all-symmetries` one per position.
pub fn run(args: Args) -> anyhow::Result<()> {
    args.check_extras()?;
    if args.format == Format::GamesmanClassic {
        return gamesman_classic::run(&args);
    }
    anyhow::ensure!(
        !crate::options::exact(&args.db.rules),
        "--exact applies only to --format gamesman-classic"
    );
    let tier = crate::options::tier(&args.db.rules)?;
    if args.format == Format::Parquet {
        check_target(args.out.as_deref())?;
    }
    // Before any work: a directory or the database itself is refused, a
    // FIFO opened.
    let mut output = Output::open(args.out.as_deref(), &[&args.db.path()?])?;
    let db = args.db.open()?;
    let values = args.values()?;
    // The blocks to read: all, or those holding the tier's boards.
    let per = u64::from(db.header().block_boards);
    let blocks = match tier {
        None => 0..db.blocks(),
        Some(t) => {
            let tier = Tier::from_number(t, db.rules().budget())?;
            let r = db
                .index()
                .tier_range(tier)
                .with_context(|| format!("tier {t} is not in this database"))?;
            (r.board_offset / per) as usize..(r.board_offset + r.boards()).div_ceil(per) as usize
        }
    };
    // Only positions of play: every row is one `query` answers.
    let budget = db.rules().budget();
    let reached =
        (args.reachable || args.mark_reachable).then(|| topitop_solved::reach(db.rules(), db.index()));
    let symmetric = db.header().symmetric;
    let rows_of = |pos: Position, rec: Record, out: &mut Vec<Row>| {
        let reachable = reached
            .as_ref()
            .is_none_or(|r| r.contains_class(db.index(), symmetry::canonical(pos)));
        let keep = pos.is_valid(budget)
            && (reachable || !args.reachable)
            && tier.is_none_or(|t| Tier::of(pos.board()).number() == t)
            && (values.is_empty() || rec.value().is_some_and(|v| values.contains(&v)));
        if !keep {
            return;
        }
        let row = |image: Position| Row {
            pos: image,
            key: pos,
            rec,
            reachable,
        };
        if args.all_symmetries && symmetric {
            out.extend(symmetry::images_of(pos).into_iter().map(row));
        } else {
            out.push(row(pos));
        }
    };
    if args.format == Format::Parquet && !args.summary {
        let about = parquet::metadata(&db, "positions", tier, &values);
        parquet::write_positions(output.writer(), &db, blocks, &rows_of, &args, about)?;
        if let Some(p) = output.finish()? {
            eprintln!("wrote {}", p.display());
        }
        return Ok(());
    }
    let out = output.writer();
    let bar = CountBar::new("exporting", "blocks");
    let total = blocks.len() as u64;
    let mut summary: BTreeMap<(u64, &'static str, i64), u64> = BTreeMap::new();
    let extras = args.extra_columns();
    if !args.summary {
        let sep = match args.format {
            Format::Tsv => Some("\t"),
            Format::Csv => Some(","),
            Format::Jsonl | Format::Parquet | Format::GamesmanClassic => None,
        };
        if let Some(sep) = sep {
            writeln!(
                out,
                "{}",
                COLUMNS
                    .iter()
                    .chain(&extras)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(sep)
            )?;
        }
    }
    let chunk = 64;
    let list: Vec<usize> = blocks.collect();
    for (k, part) in list.chunks(chunk).enumerate() {
        let rows: Vec<Vec<Row>> = part
            .par_iter()
            .map(|&b| {
                let mut rows = Vec::new();
                for (pos, rec) in db.block_positions(b)? {
                    rows_of(pos, rec, &mut rows);
                }
                Ok(rows)
            })
            .collect::<anyhow::Result<_>>()?;
        for Row {
            pos,
            key,
            rec,
            reachable,
        } in rows.into_iter().flatten()
        {
            let tier = Tier::of(pos.board()).number();
            let value = value_name(rec);
            let rem = if rec.value() == Some(Value::Draw) {
                -1
            } else {
                i64::from(rec.remoteness())
            };
            if args.summary {
                *summary.entry((tier, value, rem)).or_default() += 1;
                continue;
            }
            let rem_text = if rem < 0 { String::new() } else { rem.to_string() };
            let counts = piece_counts(pos, budget);
            match args.format {
                Format::Tsv | Format::Csv => {
                    let sep = if args.format == Format::Tsv { "\t" } else { "," };
                    let mut line = [pos.to_string(), tier.to_string(), value.to_string(), rem_text].join(sep);
                    for n in counts {
                        line.push_str(sep);
                        line.push_str(&n.to_string());
                    }
                    if args.all_symmetries {
                        line.push_str(sep);
                        line.push_str(&key.to_string());
                    }
                    if args.mark_reachable {
                        line.push_str(sep);
                        line.push_str(if reachable { "true" } else { "false" });
                    }
                    writeln!(out, "{line}")?
                }
                Format::Jsonl => {
                    let r = if rem < 0 {
                        "null".to_string()
                    } else {
                        rem.to_string()
                    };
                    write!(
                        out,
                        "{{\"position\":\"{pos}\",\"tier\":{tier},\"value\":\"{value}\",\"remoteness\":{r}"
                    )?;
                    for (name, n) in COLUMNS[4..].iter().zip(counts) {
                        write!(out, ",\"{name}\":{n}")?;
                    }
                    if args.all_symmetries {
                        write!(out, ",\"canonical\":\"{key}\"")?;
                    }
                    if args.mark_reachable {
                        write!(out, ",\"reachable\":{reachable}")?;
                    }
                    writeln!(out, "}}")?
                }
                Format::Parquet => unreachable!("written by parquet::write_positions"),
                Format::GamesmanClassic => unreachable!("written by gamesman_classic::run"),
            }
        }
        bar.set(((k + 1) * chunk).min(list.len()) as u64, total);
    }
    bar.finish();
    if args.summary && args.format == Format::Parquet {
        let about = parquet::metadata(&db, "summary", tier, &values);
        topitop_cli::parquet::write_summary(out, summary_rows(&summary), about)?;
    } else if args.summary {
        write_summary(out, args.format, &summary)?;
    }
    if let Some(p) = output.finish()? {
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}

/// The summary rows (tier, value, remoteness, count) of counts by (tier,
/// value, remoteness): an `all` row set first, then each tier.
fn summary_rows<'a>(
    counts: &'a BTreeMap<(u64, &'static str, i64), u64>,
) -> impl Iterator<Item = (String, &'static str, i64, u64)> + 'a {
    let mut all: BTreeMap<(&'static str, i64), u64> = BTreeMap::new();
    for (&(_, v, r), &n) in counts {
        *all.entry((v, r)).or_default() += n;
    }
    all.into_iter()
        .map(|((v, r), n)| ("all".to_string(), v, r, n))
        .chain(counts.iter().map(|(&(t, v, r), &n)| (t.to_string(), v, r, n)))
}

/// Counts by (tier, value, remoteness) as text: an `all` row set first,
/// then each tier.
fn write_summary(
    out: &mut impl Write,
    format: Format,
    counts: &BTreeMap<(u64, &'static str, i64), u64>,
) -> anyhow::Result<()> {
    let rows = summary_rows(counts);
    let sep = if format == Format::Csv { "," } else { "\t" };
    if format != Format::Jsonl {
        writeln!(out, "tier{sep}value{sep}remoteness{sep}count")?;
    }
    for (tier, v, r, n) in rows {
        let rem = if r < 0 { String::new() } else { r.to_string() };
        if format == Format::Jsonl {
            let rj = if r < 0 { "null".to_string() } else { r.to_string() };
            writeln!(
                out,
                "{{\"tier\":\"{tier}\",\"value\":\"{v}\",\"remoteness\":{rj},\"count\":{n}}}"
            )?;
        } else {
            writeln!(out, "{tier}{sep}{v}{sep}{rem}{sep}{n}")?;
        }
    }
    Ok(())
}
