//! `topitop export --game NAME`: one row per solved position (one per
//! symmetry class when the database has symmetry) as TSV, CSV, JSON Lines
//! or Parquet, or counts by value and remoteness with `--summary`.
//!
//! Columns: `position` (the game's string), `tier` (the game's tier name),
//! `value`, `remoteness` (empty or null for a draw); then, when asked,
//! `canonical` (`--all-symmetries`: the stored position of the row's
//! symmetry class) and `reachable` (`--mark-reachable`). Parquet:
//! `position`, `tier` and `canonical` strings, `value` a dictionary of the
//! value names, `remoteness` u16 (null for draws), `reachable` boolean,
//! zstd pages, the game in the file's key-value metadata (`topitop.game`,
//! `.variant`, `.program`, `.table`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::types::Int8Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Int8Array, RecordBatch, StringArray, UInt16Array,
};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use topitop_interface::{Record, Tiered, Value};

use super::{open, value_name};
use crate::common::DbArgs;
use crate::output::Output;
use crate::parquet::{check_target, write_summary};

/// The names of the value dictionary, in [`value_key`] order.
const VALUE_NAMES: [&str; 4] = ["win", "lose", "tie", "draw"];

fn value_key(v: Value) -> i8 {
    match v {
        Value::Win => 0,
        Value::Lose => 1,
        Value::Tie => 2,
        Value::Draw => 3,
    }
}

/// A row of the positions table.
struct Row {
    position: String,
    tier: String,
    record: Record,
    /// The class's stored position, with `--all-symmetries`.
    canonical: Option<String>,
    /// With `--mark-reachable`.
    reachable: Option<bool>,
}

/// Runs `export` on `game`.
///
/// # Errors
/// Options the game refuses, a missing or damaged database, or an output
/// that cannot be written.
pub fn run<G: Tiered>(game: G, args: Args) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.tier.is_none() && !args.exact,
        "--tier and --exact are not options of export --game {}, which writes every tier",
        game.name()
    );
    args.check_extras()?;
    if args.format == Format::Parquet {
        check_target(args.out.as_deref())?;
    }
    let values = args.values()?;
    anyhow::ensure!(
        args.format != Format::GamesmanClassic,
        "--format gamesman-classic is not a format of export --game {}",
        game.name()
    );
    let path = args
        .db
        .db
        .clone()
        .unwrap_or_else(|| super::db_path(&game, &args.db.dir));
    let mut output = Output::open(args.out.as_deref(), &[&path])?;
    let db = open(&game, &args.db)?;
    let by_name: BTreeMap<String, G::Tier> =
        game.tiers().into_iter().map(|t| (game.tier_name(t), t)).collect();
    // A database of values holds one at every index, those that name no
    // position included (they hold another image's).
    let values_only = matches!(db, topitop_db::SolvedDb::Values(_));
    let mut rows: Vec<Row> = Vec::new();
    for (k, t) in db.tiers().into_iter().enumerate() {
        let name = t.name;
        let tier = *by_name
            .get(&name)
            .ok_or_else(|| anyhow::anyhow!("tier {name} is not one of {} {}", game.name(), game.variant()))?;
        let records = db.tier_records(&game, tier, k)?;
        for (i, rec) in records.iter().enumerate() {
            let Some(v) = rec.value() else { continue };
            if !values.is_empty() && !values.contains(&v) {
                continue;
            }
            let pos = match game.position(tier, i as u64) {
                Some(p) if !values_only || !db.symmetric() || game.canonical(&p) == p => p,
                _ if values_only => continue,
                _ => anyhow::bail!("tier {name} index {i} holds a record but no position"),
            };
            let reachable = game.reachable(&pos);
            if args.reachable && !reachable {
                continue;
            }
            let row = |image: &G::Position, canonical: Option<String>| Row {
                position: game.format_position(image),
                tier: name.clone(),
                record: *rec,
                canonical,
                reachable: args.mark_reachable.then_some(reachable),
            };
            if args.all_symmetries {
                let key = game.format_position(&pos);
                for image in game.images(&pos) {
                    rows.push(row(&image, Some(key.clone())));
                }
            } else {
                rows.push(row(&pos, None));
            }
        }
    }
    let meta = |table: &str| {
        [
            ("topitop.game", game.name().to_string()),
            ("topitop.variant", game.variant()),
            ("topitop.program", db.names().2.to_string()),
            ("topitop.table", table.to_string()),
            (
                "topitop.value_view",
                "the value of the position for the player to move in it".to_string(),
            ),
        ]
        .into_iter()
        .map(|(k, v)| KeyValue::new(k.to_string(), v))
        .collect::<Vec<_>>()
    };
    let out = output.writer();
    if args.summary {
        let mut counts: BTreeMap<(String, &'static str, i64), u64> = BTreeMap::new();
        for Row { tier, record, .. } in &rows {
            let rem = if record.value() == Some(Value::Draw) {
                -1
            } else {
                i64::from(record.remoteness())
            };
            *counts
                .entry(("all".into(), value_name(*record), rem))
                .or_default() += 1;
            *counts
                .entry((tier.clone(), value_name(*record), rem))
                .or_default() += 1;
        }
        let summary = counts.into_iter().map(|((t, v, r), n)| (t, v, r, n));
        if args.format == Format::Parquet {
            write_summary(out, summary, meta("summary"))?;
        } else {
            write_summary_text(out, args.format, summary)?;
        }
    } else if args.format == Format::Parquet {
        write_parquet(out, &rows, &args, meta("positions"))?;
    } else {
        write_text(out, args.format, &rows, &args)?;
    }
    if let Some(p) = output.finish()? {
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}

fn remoteness_text(r: Record) -> String {
    if r.value() == Some(Value::Draw) {
        String::new()
    } else {
        r.remoteness().to_string()
    }
}

fn write_text(out: &mut impl Write, format: Format, rows: &[Row], args: &Args) -> anyhow::Result<()> {
    let sep = if format == Format::Csv { "," } else { "\t" };
    if format != Format::Jsonl {
        let mut header = ["position", "tier", "value", "remoteness"].join(sep);
        for name in args.extra_columns() {
            header.push_str(sep);
            header.push_str(name);
        }
        writeln!(out, "{header}")?;
    }
    for r in rows {
        if format == Format::Jsonl {
            let rem = if r.record.value() == Some(Value::Draw) {
                serde_json::Value::Null
            } else {
                r.record.remoteness().into()
            };
            let mut row = serde_json::json!({"position": r.position, "tier": r.tier, "value": value_name(r.record), "remoteness": rem});
            if let Some(c) = &r.canonical {
                row["canonical"] = c.as_str().into();
            }
            if let Some(reached) = r.reachable {
                row["reachable"] = reached.into();
            }
            writeln!(out, "{row}")?;
        } else {
            write!(
                out,
                "{}{sep}{}{sep}{}{sep}{}",
                r.position,
                r.tier,
                value_name(r.record),
                remoteness_text(r.record)
            )?;
            if let Some(c) = &r.canonical {
                write!(out, "{sep}{c}")?;
            }
            if let Some(reached) = r.reachable {
                write!(out, "{sep}{reached}")?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}

fn write_summary_text(
    out: &mut impl Write,
    format: Format,
    rows: impl Iterator<Item = (String, &'static str, i64, u64)>,
) -> anyhow::Result<()> {
    let sep = if format == Format::Csv { "," } else { "\t" };
    if format != Format::Jsonl {
        writeln!(out, "tier{sep}value{sep}remoteness{sep}count")?;
    }
    for (tier, v, r, n) in rows {
        if format == Format::Jsonl {
            let rem = if r < 0 { serde_json::Value::Null } else { r.into() };
            writeln!(
                out,
                "{}",
                serde_json::json!({"tier": tier, "value": v, "remoteness": rem, "count": n})
            )?;
        } else {
            let rem = if r < 0 { String::new() } else { r.to_string() };
            writeln!(out, "{tier}{sep}{v}{sep}{rem}{sep}{n}")?;
        }
    }
    Ok(())
}

/// The rows as one Parquet file, built in memory (the encoder needs a
/// `Send` writer, which the command's output is not) and then written.
fn write_parquet(
    out: &mut impl Write,
    rows: &[Row],
    args: &Args,
    metadata: Vec<KeyValue>,
) -> anyhow::Result<()> {
    let mut fields = vec![
        Field::new("position", DataType::Utf8, false),
        Field::new("tier", DataType::Utf8, false),
        Field::new(
            "value",
            DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
            false,
        ),
        Field::new("remoteness", DataType::UInt16, true),
    ];
    if args.all_symmetries {
        fields.push(Field::new("canonical", DataType::Utf8, false));
    }
    if args.mark_reachable {
        fields.push(Field::new("reachable", DataType::Boolean, false));
    }
    let schema = Arc::new(Schema::new(fields));
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_key_value_metadata(Some(metadata))
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema.clone(), Some(props))?;
    let names: ArrayRef = Arc::new(StringArray::from(VALUE_NAMES.to_vec()));
    for chunk in rows.chunks(1 << 20) {
        let keys = Int8Array::from_iter_values(chunk.iter().map(|r| r.record.value().map_or(0, value_key)));
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(StringArray::from_iter_values(
                chunk.iter().map(|r| r.position.as_str()),
            )),
            Arc::new(StringArray::from_iter_values(
                chunk.iter().map(|r| r.tier.as_str()),
            )),
            Arc::new(DictionaryArray::<Int8Type>::try_new(keys, names.clone())?),
            Arc::new(UInt16Array::from_iter(chunk.iter().map(|r| {
                (r.record.value() != Some(Value::Draw)).then_some(r.record.remoteness())
            }))),
        ];
        if args.all_symmetries {
            columns.push(Arc::new(StringArray::from_iter_values(
                chunk
                    .iter()
                    .map(|r| r.canonical.as_deref().unwrap_or(&r.position)),
            )));
        }
        if args.mark_reachable {
            columns.push(Arc::new(BooleanArray::from_iter(
                chunk.iter().map(|r| Some(r.reachable.unwrap_or(true))),
            )));
        }
        writer.write(&RecordBatch::try_new(schema.clone(), columns)?)?;
    }
    let bytes = writer.into_inner()?;
    out.write_all(&bytes)?;
    Ok(())
}

/// Output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Tab-separated, with a header line.
    Tsv,
    /// Comma-separated, with a header line.
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// Apache Parquet: typed columns (plus `turn`), zstd pages, the rules
    /// in the file's metadata. Binary: to -o FILE, or a redirected standard
    /// output.
    Parquet,
    /// GamesmanClassic's tier database files, into the data directory -o DIR.
    GamesmanClassic,
}

/// Arguments of `export`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Where the database is.
    #[command(flatten)]
    pub db: DbArgs,
    /// Output file (default, or `-`: standard output). A regular file is
    /// written atomically (beside it, then renamed); a FIFO or device is
    /// written in place; a symbolic link is followed. With --format
    /// gamesman-classic: GamesmanClassic's data directory.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The table's format.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: Format,
    /// Only this tier (GamesmanClassic tier number).
    #[arg(long, value_name = "N")]
    pub tier: Option<u64>,
    /// Only these values (comma-separated: win,lose,tie,draw).
    #[arg(long, value_delimiter = ',', value_name = "V,...")]
    pub value: Vec<String>,
    /// Write counts by value and remoteness, overall and per tier, instead
    /// of positions.
    #[arg(long)]
    pub summary: bool,
    /// Keep only the positions games reach from the start (a forward pass
    /// first); without it, every position of play.
    #[arg(long)]
    pub reachable: bool,
    /// Add a column `reachable`: true for a position games reach from the
    /// start, false for a position of play that none comes to.
    #[arg(long)]
    pub mark_reachable: bool,
    /// Write every position of each symmetry class, not only the one the
    /// database stores, with a column `canonical` naming the stored one:
    /// any position a game comes to then has its own row.
    #[arg(long)]
    pub all_symmetries: bool,
    /// With --format gamesman-classic: compress at GamesmanClassic's own
    /// zlib level, for files byte-identical to its solve's (about 3 times
    /// slower; the default level gives the same uncompressed files).
    #[arg(long)]
    pub exact: bool,
}

impl Args {
    /// The optional columns asked for, in the order they follow the
    /// others.
    pub fn extra_columns(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        if self.all_symmetries {
            names.push("canonical");
        }
        if self.mark_reachable {
            names.push("reachable");
        }
        names
    }

    /// Refuses optional columns that `--summary` or `--format
    /// gamesman-classic` do not write.
    ///
    /// # Errors
    /// Such a combination.
    pub fn check_extras(&self) -> anyhow::Result<()> {
        let extras = self.extra_columns();
        if extras.is_empty() {
            return Ok(());
        }
        let given = extras
            .iter()
            .map(|c| match *c {
                "canonical" => "--all-symmetries",
                _ => "--mark-reachable",
            })
            .collect::<Vec<_>>()
            .join(" and ");
        let add = if extras.len() == 1 {
            "adds a column"
        } else {
            "add columns"
        };
        anyhow::ensure!(
            !self.summary,
            "{given} {add} to the positions table, which --summary does not write"
        );
        anyhow::ensure!(
            self.format != Format::GamesmanClassic,
            "{given} {add} to the positions table, which --format gamesman-classic does not write"
        );
        Ok(())
    }

    /// The values `--value` keeps (none: all).
    ///
    /// # Errors
    /// A name that is not a value's.
    pub fn values(&self) -> anyhow::Result<Vec<Value>> {
        self.value
            .iter()
            .map(|v| match v.as_str() {
                "win" => Ok(Value::Win),
                "lose" => Ok(Value::Lose),
                "tie" => Ok(Value::Tie),
                "draw" => Ok(Value::Draw),
                other => anyhow::bail!("unknown value {other:?} (use win, lose, tie, draw)"),
            })
            .collect()
    }
}
