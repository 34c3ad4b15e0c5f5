//! `topitop export --game NAME`: one row per solved position (one per
//! symmetry class when the database has symmetry) as TSV, CSV, JSON Lines
//! or Parquet, or counts by value and remoteness with `--summary`.
//!
//! Columns: `position` (the game's string), `tier` (the game's tier name),
//! `value`, `remoteness` (empty or null for a draw). Parquet: `position`
//! and `tier` strings, `value` a dictionary of the value names,
//! `remoteness` u16 (null for draws), zstd pages, the game in the file's
//! key-value metadata (`topitop.game`, `.variant`, `.program`, `.table`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, DictionaryArray, Int8Array, RecordBatch, StringArray, UInt16Array};
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

/// A row: position, tier, record.
type Row = (String, String, Record);

/// Runs `export` on `game`.
///
/// # Errors
/// Options the game refuses, a missing or damaged database, or an output
/// that cannot be written.
pub fn run<G: Tiered>(game: G, args: Args) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.tier.is_none() && !args.exact && !args.reachable,
        "--tier, --exact and --reachable are not options of export --game {}, which writes every tier",
        game.name()
    );
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
    let mut rows: Vec<Row> = Vec::new();
    for (name, records) in db.tiers()? {
        let tier = *by_name
            .get(&name)
            .ok_or_else(|| anyhow::anyhow!("tier {name} is not one of {} {}", game.name(), game.variant()))?;
        for (i, rec) in records.iter().enumerate() {
            let Some(v) = rec.value() else { continue };
            if !values.is_empty() && !values.contains(&v) {
                continue;
            }
            let pos = game
                .position(tier, i as u64)
                .ok_or_else(|| anyhow::anyhow!("tier {name} index {i} holds a record but no position"))?;
            rows.push((game.format_position(&pos), name.clone(), *rec));
        }
    }
    let meta = |table: &str| {
        [
            ("topitop.game", game.name().to_string()),
            ("topitop.variant", game.variant()),
            ("topitop.program", db.header().program.clone()),
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
        for (_, tier, rec) in &rows {
            let rem = if rec.value() == Some(Value::Draw) {
                -1
            } else {
                i64::from(rec.remoteness())
            };
            *counts.entry(("all".into(), value_name(*rec), rem)).or_default() += 1;
            *counts.entry((tier.clone(), value_name(*rec), rem)).or_default() += 1;
        }
        let summary = counts.into_iter().map(|((t, v, r), n)| (t, v, r, n));
        if args.format == Format::Parquet {
            write_summary(out, summary, meta("summary"))?;
        } else {
            write_summary_text(out, args.format, summary)?;
        }
    } else if args.format == Format::Parquet {
        write_parquet(out, &rows, meta("positions"))?;
    } else {
        write_text(out, args.format, &rows)?;
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

fn write_text(out: &mut impl Write, format: Format, rows: &[Row]) -> anyhow::Result<()> {
    let sep = if format == Format::Csv { "," } else { "\t" };
    if format != Format::Jsonl {
        writeln!(out, "position{sep}tier{sep}value{sep}remoteness")?;
    }
    for (pos, tier, rec) in rows {
        if format == Format::Jsonl {
            let rem = if rec.value() == Some(Value::Draw) {
                serde_json::Value::Null
            } else {
                rec.remoteness().into()
            };
            let row = serde_json::json!({"position": pos, "tier": tier, "value": value_name(*rec), "remoteness": rem});
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "{pos}{sep}{tier}{sep}{}{sep}{}",
                value_name(*rec),
                remoteness_text(*rec)
            )?;
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
fn write_parquet(out: &mut impl Write, rows: &[Row], metadata: Vec<KeyValue>) -> anyhow::Result<()> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("position", DataType::Utf8, false),
        Field::new("tier", DataType::Utf8, false),
        Field::new(
            "value",
            DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
            false,
        ),
        Field::new("remoteness", DataType::UInt16, true),
    ]));
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_key_value_metadata(Some(metadata))
        .build();
    let mut writer = ArrowWriter::try_new(Vec::new(), schema.clone(), Some(props))?;
    let names: ArrayRef = Arc::new(StringArray::from(VALUE_NAMES.to_vec()));
    for chunk in rows.chunks(1 << 20) {
        let keys = Int8Array::from_iter_values(chunk.iter().map(|r| r.2.value().map_or(0, value_key)));
        let columns: Vec<ArrayRef> = vec![
            Arc::new(StringArray::from_iter_values(chunk.iter().map(|r| r.0.as_str()))),
            Arc::new(StringArray::from_iter_values(chunk.iter().map(|r| r.1.as_str()))),
            Arc::new(DictionaryArray::<Int8Type>::try_new(keys, names.clone())?),
            Arc::new(UInt16Array::from_iter(chunk.iter().map(|r| {
                (r.2.value() != Some(Value::Draw)).then_some(r.2.remoteness())
            }))),
        ];
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
    /// With --format gamesman-classic: compress at GamesmanClassic's own
    /// zlib level, for files byte-identical to its solve's (about 3 times
    /// slower; the default level gives the same uncompressed files).
    #[arg(long)]
    pub exact: bool,
}

impl Args {
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
