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
//!
//! Every format streams: the rows are made a chunk of the database at a
//! time (`walk`) and written as they are made, Parquet a batch of rows
//! at a time (`columns`), and `--summary` counts in the same single pass
//! (`summary`). Memory stays at a few chunks' rows whatever the size of
//! the database, and the first row is out as soon as the first chunk is
//! read.

mod columns;
mod summary;
mod text;
mod walk;

use std::io::Write;
use std::path::PathBuf;

use topitop_db::{Facts, Reader};
use topitop_game_api::{Game, Value};

use crate::common::DbArgs;
use crate::output::Output;
use crate::parquet::{check_target, write_summary, KeyValue, MAX_ROW_GROUP_ROWS, ROW_GROUP_ROWS};
use walk::Walk;

/// What a game adds to the export: its own columns, how its tiers are
/// written, a tier its options keep, and what its Parquet files say they
/// hold. Every method has the plain table's answer ([`Plain`]).
pub trait Extras<G: Game>: Sync {
    /// The game's columns, after `remoteness`: each a small number a
    /// position gives.
    fn columns(&self) -> &[&'static str] {
        &[]
    }
    /// Appends the cells of [`Extras::columns`] for `pos` to `out`.
    fn cells(&self, _pos: &G::Position, _out: &mut Vec<u8>) {}
    /// True when the game's tier names are numbers, which JSON Lines and
    /// Parquet then write as numbers.
    fn numeric_tiers(&self) -> bool {
        false
    }
    /// Whether the rows of the tier named `name` are written.
    fn keeps_tier(&self, _name: &str) -> bool {
        true
    }
    /// The key-value metadata of a Parquet file of `table` (`positions`
    /// or `summary`) of the database `facts` describe, `values` kept.
    fn metadata(&self, facts: &Facts, table: &str, _values: &[Value]) -> Vec<(String, String)> {
        [
            ("topitop.game", facts.game.clone()),
            ("topitop.variant", facts.variant.clone()),
            ("topitop.program", facts.program.clone()),
            ("topitop.table", table.to_string()),
            (
                "topitop.value_view",
                "the value of the position for the player to move in it".to_string(),
            ),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}

/// The export of a game that adds nothing to it.
pub struct Plain;

impl<G: Game> Extras<G> for Plain {}

/// Runs `export` on `db`, a database of `game`, with what `extras` adds.
///
/// # Errors
/// Options the game refuses, a damaged database, or an output that cannot
/// be written.
pub fn run<G: Game>(game: &G, db: &dyn Reader<G>, extras: &dyn Extras<G>, args: Args) -> anyhow::Result<()> {
    args.check_extras()?;
    anyhow::ensure!(
        args.format != Format::GamesmanClassic,
        "--format gamesman-classic is not a format of export --game {}",
        game.name()
    );
    if args.format == Format::Parquet {
        check_target(args.out.as_deref())?;
    }

    let facts = db.facts();
    let mut output = Output::open(args.out.as_deref(), &[&facts.path])?;
    let walk = Walk::new(game, db, extras, &args)?;
    let meta = |table: &str| -> anyhow::Result<Vec<KeyValue>> {
        let about = extras.metadata(&facts, table, &args.values()?);
        Ok(about.into_iter().map(|(k, v)| KeyValue::new(k, v)).collect())
    };
    let out = output.writer();
    if args.summary {
        let rows = summary::summarize(&walk)?.into_iter();
        if args.format == Format::Parquet {
            write_summary(out, rows, meta("summary")?)?;
        } else {
            text::write_summary(out, args.format, rows)?;
        }
    } else if args.format == Format::Parquet {
        let tiers = facts.tiers.iter().map(|t| t.name.clone()).collect();
        let canonical = args.all_symmetries;
        let mut table = columns::Table::new(
            out,
            (tiers, extras.numeric_tiers()),
            extras.columns(),
            (canonical, args.mark_reachable),
            meta("positions")?,
            args.row_group_rows.unwrap_or(ROW_GROUP_ROWS),
        )?;
        walk.run(
            |rows| Ok(columns::cells(&walk, extras, rows, canonical)),
            |cells| table.push(cells),
        )?;
        table.finish()?;
    } else {
        text::write_header(out, &args, extras.columns())?;
        walk.run(
            |rows| text::lines(&walk, extras, rows, &args),
            |lines| Ok(out.write_all(&lines)?),
        )?;
    }
    if let Some(p) = output.finish()? {
        eprintln!("wrote {}", p.display());
    }
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
    /// With --format parquet: rows in each row group (the unit a reader
    /// skips or reads in parallel). Smaller groups suit readers that
    /// filter on columns' statistics; larger ones compress a little
    /// better. Default 1048576.
    #[arg(long, value_name = "N", value_parser = row_group_rows)]
    pub row_group_rows: Option<usize>,
}

/// `--row-group-rows`: from 1 to [`MAX_ROW_GROUP_ROWS`].
fn row_group_rows(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of rows"))?;
    if (1..=MAX_ROW_GROUP_ROWS).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "{n} rows: a row group holds from 1 to {MAX_ROW_GROUP_ROWS} rows (default {ROW_GROUP_ROWS})"
        ))
    }
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
    /// gamesman-classic` do not write, and `--row-group-rows` where there
    /// are no row groups to size.
    ///
    /// # Errors
    /// Such a combination.
    pub fn check_extras(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.row_group_rows.is_none() || (self.format == Format::Parquet && !self.summary),
            "--row-group-rows sets the row groups of the positions table in Parquet: \
             use it with --format parquet, without --summary"
        );
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
