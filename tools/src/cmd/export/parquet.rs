//! `topitop export --format parquet`: the rows of the text formats as typed
//! columns of an Apache Parquet file, which pandas, polars, DuckDB or Spark
//! read without parsing text.
//!
//! Columns: `position` (string, as in the TSV), `tier` (u64), `value`
//! (a dictionary of `win`, `lose`, `tie`, `draw` with i8 keys: a category
//! in pandas, an enum-like string elsewhere), `remoteness` (u16, null for
//! draws) and `turn` (u8, 1 for Blue and 2 for Red: the position string's
//! first digit). Pages are zstd-compressed, positions are stored as
//! shared-prefix lengths and suffixes ([`properties`]); row groups hold
//! [`ROW_GROUP_ROWS`] rows (the last fewer). The file's key-value metadata
//! says what it holds ([`metadata`]).
//!
//! The positions are encoded on all cores: rows are gathered block by
//! block as for the text formats, and whenever there are enough for one
//! row group per worker, those row groups are built and compressed in
//! parallel, then appended to the file in order. Memory stays at a few row
//! groups, whatever the size of the table.
//!
//! `--summary` writes the summary table as Parquet too, with the same rows
//! as the text summary: `tier` (string: `all` or the tier number, as in
//! the TSV), `value`, `remoteness` (null for draws) and `count` (u64).

use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use arrow_array::builder::StringBuilder;
use arrow_array::types::Int8Type;
use arrow_array::{
    ArrayRef, DictionaryArray, Int8Array, RecordBatch, StringArray, UInt16Array, UInt64Array, UInt8Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use rayon::prelude::*;
use topitop_game::{Board, Player, Position, Tier, Value};
use topitop_game_solved::Database;
use topitop_table::Record;

use crate::progress::CountBar;

/// Rows per row group: parquet-rs's default, large enough for good
/// compression and cheap metadata, small enough that a few row groups in
/// flight (one per worker) take tens of megabytes.
pub const ROW_GROUP_ROWS: usize = 1 << 20;

/// The most row groups gathered before they are encoded together: about
/// 16 MB of rows each, and several times that while being encoded.
const MAX_GROUPS_IN_FLIGHT: usize = 8;

/// Blocks decoded together (in parallel) before their rows are gathered,
/// as the text formats do.
const BLOCKS_PER_STEP: usize = 64;

/// The `value` dictionary: keys are [`Value::index`], and 4 for a record
/// the database does not solve (which the text formats also write, as
/// `unsolved`). Only the names that occur are stored in the file.
const VALUE_NAMES: [&str; 5] = ["win", "lose", "tie", "draw", "unsolved"];

/// Refuses to write Parquet, a binary format, to standard output when it
/// is a terminal (bytes a terminal would mangle and a user cannot read);
/// a file (`-o FILE`), or standard output redirected to a file or a pipe,
/// is fine. Called before any work.
///
/// # Errors
/// The output is standard output and standard output is a terminal.
pub fn check_target(out: Option<&Path>) -> anyhow::Result<()> {
    let to_stdout = out.is_none_or(|p| p.as_os_str() == "-");
    anyhow::ensure!(
        !(to_stdout && std::io::stdout().is_terminal()),
        "--format parquet writes a binary file, not text for a terminal: name it with -o FILE \
         (or redirect standard output to a file or a pipe)"
    );
    Ok(())
}

/// The file's key-value metadata, so that a reader knows what it holds
/// without the command line that wrote it: `topitop.version`,
/// `topitop.rules` (`v0`, or `v1/` and the GamesmanClassic option),
/// `topitop.budget`, `topitop.solver` (the program that solved the
/// database), `topitop.table` (`positions` or `summary`), `topitop.tier`
/// (`all` or the tier kept) and `topitop.values` (`all` or the values
/// kept, comma-separated in the order win, lose, tie, draw).
pub fn metadata(db: &Database, table: &str, tier: Option<u64>, values: &[Value]) -> Vec<KeyValue> {
    let rules = db.rules();
    // In the order win, lose, tie, draw whatever the command line's.
    let mut kept = values.to_vec();
    kept.sort();
    kept.dedup();
    let values = if kept.is_empty() {
        "all".to_string()
    } else {
        kept.iter().map(|v| v.name()).collect::<Vec<_>>().join(",")
    };
    [
        ("topitop.version", env!("CARGO_PKG_VERSION").to_string()),
        ("topitop.rules", rules.ruleset().to_string()),
        ("topitop.budget", rules.budget().to_string()),
        ("topitop.solver", db.header().solver.clone()),
        ("topitop.table", table.to_string()),
        (
            "topitop.tier",
            tier.map_or_else(|| "all".to_string(), |t| t.to_string()),
        ),
        ("topitop.values", values),
    ]
    .into_iter()
    .map(|(k, v)| KeyValue::new(k.to_string(), v))
    .collect()
}

/// Writes the positions of `blocks` that `keep` accepts, in storage order
/// (the text formats' order), as a Parquet file into `out`.
///
/// # Errors
/// A damaged block, an encoding failure, or writing `out` failed.
pub fn write_positions(
    out: &mut impl Write,
    db: &Database,
    blocks: Range<usize>,
    keep: &(dyn Fn(Position, Record) -> bool + Sync),
    metadata: Vec<KeyValue>,
) -> anyhow::Result<()> {
    let mut file = SpooledFile::new(positions_schema(), properties(metadata, true))?;
    // One row group per worker at a time keeps every core busy while
    // encoding; at most MAX_GROUPS_IN_FLIGHT, so that a machine with many
    // cores does not hold the whole table before encoding any of it.
    let batch = rayon::current_num_threads().clamp(1, MAX_GROUPS_IN_FLIGHT) * ROW_GROUP_ROWS;
    let list: Vec<usize> = blocks.collect();
    let bar = CountBar::new("exporting", "blocks");
    let mut pending: Vec<(Position, Record)> = Vec::new();
    for (k, part) in list.chunks(BLOCKS_PER_STEP).enumerate() {
        let kept: Vec<Vec<(Position, Record)>> = part
            .par_iter()
            .map(|&b| {
                let mut found = db.block_positions(b)?;
                found.retain(|&(p, r)| keep(p, r));
                Ok(found)
            })
            .collect::<anyhow::Result<_>>()?;
        pending.extend(kept.into_iter().flatten());
        if pending.len() >= batch {
            // Whole row groups only; the rest waits for the next blocks.
            let whole = pending.len() / ROW_GROUP_ROWS * ROW_GROUP_ROWS;
            file.write_groups(&pending[..whole])?;
            file.drain_into(out)?;
            pending.drain(..whole);
        }
        bar.set(
            ((k + 1) * BLOCKS_PER_STEP).min(list.len()) as u64,
            list.len() as u64,
        );
    }
    file.write_groups(&pending)?;
    bar.finish();
    file.finish_into(out)
}

/// Writes the summary rows (tier: `all` or a number; value name;
/// remoteness, negative for a draw; count) as a Parquet file into `out`.
///
/// # Errors
/// A value name or remoteness out of range, an encoding failure, or
/// writing `out` failed.
pub fn write_summary(
    out: &mut impl Write,
    rows: impl Iterator<Item = (String, &'static str, i64, u64)>,
    metadata: Vec<KeyValue>,
) -> anyhow::Result<()> {
    let (mut tiers, mut keys, mut rems, mut counts) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (tier, value, rem, n) in rows {
        let key = VALUE_NAMES
            .iter()
            .position(|&name| name == value)
            .with_context(|| format!("no Parquet value name for {value:?}"))?;
        let rem = if rem < 0 {
            None
        } else {
            Some(u16::try_from(rem).with_context(|| format!("remoteness {rem} does not fit in 16 bits"))?)
        };
        tiers.push(tier);
        keys.push(i8::try_from(key)?);
        rems.push(rem);
        counts.push(n);
    }
    let schema = Arc::new(Schema::new(vec![
        Field::new("tier", DataType::Utf8, false),
        value_field(),
        Field::new("remoteness", DataType::UInt16, true),
        Field::new("count", DataType::UInt64, false),
    ]));
    let columns: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from(tiers)),
        Arc::new(DictionaryArray::<Int8Type>::try_new(
            Int8Array::from(keys),
            value_names(),
        )?),
        Arc::new(UInt16Array::from(rems)),
        Arc::new(UInt64Array::from(counts)),
    ];
    let batch = RecordBatch::try_new(Arc::clone(&schema), columns)?;
    // A few thousand rows at most: built whole in memory, then copied out
    // (the writer needs `Send`, which the output's writer is not).
    let mut bytes = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut bytes, schema, Some(properties(metadata, false)))?;
    writer.write(&batch)?;
    writer.close()?;
    out.write_all(&bytes).context("cannot write the output")?;
    Ok(())
}

/// The columns of the positions table.
fn positions_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("position", DataType::Utf8, false),
        Field::new("tier", DataType::UInt64, false),
        value_field(),
        Field::new("remoteness", DataType::UInt16, true),
        Field::new("turn", DataType::UInt8, false),
    ]))
}

/// `value`: names through i8 keys, as pandas (category), polars and
/// DuckDB show them.
fn value_field() -> Field {
    Field::new(
        "value",
        DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
        false,
    )
}

fn value_names() -> ArrayRef {
    Arc::new(StringArray::from(VALUE_NAMES.to_vec()))
}

/// zstd pages (level 1: several times smaller than uncompressed at little
/// cost), row groups of [`ROW_GROUP_ROWS`], and `metadata`. With
/// `positions`, the `position` column has no dictionary (its strings are
/// all different, so one would only cost time before falling back) and is
/// written as DELTA_BYTE_ARRAY, each string as the length of the prefix it
/// shares with the one before and the rest: the positions of a board come
/// together and share "1_" and the board, which halves the file (55 MB
/// instead of 102 MB for the standard game). The encoding is part of the
/// Parquet format; pyarrow and DuckDB were checked to read it.
fn properties(metadata: Vec<KeyValue>, positions: bool) -> WriterProperties {
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_key_value_metadata(Some(metadata));
    if positions {
        props = props
            .set_column_dictionary_enabled(ColumnPath::from("position"), false)
            .set_column_encoding(ColumnPath::from("position"), Encoding::DELTA_BYTE_ARRAY);
    }
    props.build()
}

/// A Parquet file written through an in-memory spool: the encoder needs a
/// `Send` writer, which the command's output is not, so finished row
/// groups go to a `Vec` that [`SpooledFile::drain_into`] empties into the
/// output after each step.
struct SpooledFile {
    writer: SerializedFileWriter<Vec<u8>>,
    factory: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    values: ArrayRef,
}

impl SpooledFile {
    fn new(schema: SchemaRef, props: WriterProperties) -> anyhow::Result<SpooledFile> {
        // Through `ArrowWriter` so that the Arrow schema (unsigned types,
        // the value dictionary) is stored for readers; then the low-level
        // writer, to encode row groups on several threads.
        let (writer, factory) =
            ArrowWriter::try_new(Vec::new(), Arc::clone(&schema), Some(props))?.into_serialized_writer()?;
        Ok(SpooledFile {
            writer,
            factory,
            schema,
            values: value_names(),
        })
    }

    /// Encodes `rows` as row groups of [`ROW_GROUP_ROWS`] rows (the last
    /// fewer), all at once on the worker pool, and appends them in order.
    fn write_groups(&mut self, rows: &[(Position, Record)]) -> anyhow::Result<()> {
        let first = self.writer.flushed_row_groups().len();
        let groups: Vec<Vec<ArrowColumnChunk>> = rows
            .par_chunks(ROW_GROUP_ROWS)
            .enumerate()
            .map(|(i, group)| self.encode(first + i, group))
            .collect::<anyhow::Result<_>>()?;
        for chunks in groups {
            let mut row_group = self.writer.next_row_group()?;
            for chunk in chunks {
                chunk.append_to_row_group(&mut row_group)?;
            }
            row_group.close()?;
        }
        Ok(())
    }

    /// Row group number `index`: its columns built, then each encoded and
    /// compressed (in parallel: the strings take most of the time, so a
    /// lone row group still uses a second core for the rest).
    fn encode(&self, index: usize, rows: &[(Position, Record)]) -> anyhow::Result<Vec<ArrowColumnChunk>> {
        let columns = self.columns(rows)?;
        let mut leaves = Vec::with_capacity(columns.len());
        for (field, column) in self.schema.fields().iter().zip(&columns) {
            leaves.extend(compute_leaves(field, column)?);
        }
        let writers = self.factory.create_column_writers(index)?;
        anyhow::ensure!(
            writers.len() == leaves.len(),
            "{} Parquet column writers for {} columns",
            writers.len(),
            leaves.len()
        );
        writers
            .into_par_iter()
            .zip(leaves)
            .map(|(mut writer, leaf)| {
                writer.write(&leaf)?;
                Ok(writer.close()?)
            })
            .collect()
    }

    /// The Arrow columns of `rows`, in the schema's order.
    fn columns(&self, rows: &[(Position, Record)]) -> anyhow::Result<Vec<ArrayRef>> {
        // Positions are at most 13 bytes ("1_", 9 cells, a slide).
        let mut positions = StringBuilder::with_capacity(rows.len(), rows.len() * 13);
        let mut tiers = Vec::with_capacity(rows.len());
        // The positions of one board come together (storage order), so its
        // text and tier are worked out once for all of them: formatting
        // the board took a third of the time.
        let mut board: Option<(Board, String, u64)> = None;
        for (pos, _) in rows {
            let (_, cells, tier) = match &mut board {
                Some(b) if b.0 == pos.board() => b,
                cached => cached.insert((
                    pos.board(),
                    pos.board().to_string(),
                    Tier::of(pos.board()).number(),
                )),
            };
            write_position(&mut positions, *pos, cells)?;
            positions.append_value("");
            tiers.push(*tier);
        }
        let tiers = UInt64Array::from(tiers);
        let keys: Int8Array = rows
            .iter()
            .map(|(_, r)| r.value().map_or(4, |v| v.index() as i8))
            .collect();
        let rems: UInt16Array = rows
            .iter()
            .map(|(_, r)| (r.value() != Some(Value::Draw)).then(|| r.remoteness()))
            .collect();
        let turns: UInt8Array = rows
            .iter()
            .map(|(p, _)| match p.turn() {
                Player::Blue => 1u8,
                Player::Red => 2,
            })
            .collect();
        Ok(vec![
            Arc::new(positions.finish()),
            Arc::new(tiers),
            Arc::new(DictionaryArray::<Int8Type>::try_new(
                keys,
                Arc::clone(&self.values),
            )?),
            Arc::new(rems),
            Arc::new(turns),
        ])
    }

    /// Moves what the file has written so far into `out`.
    fn drain_into(&mut self, out: &mut impl Write) -> anyhow::Result<()> {
        // Taking bytes out of the spool changes nothing the file writer
        // tracks: it counts offsets itself, and only ever appends.
        let spool = self.writer.inner_mut();
        out.write_all(spool).context("cannot write the output")?;
        spool.clear();
        Ok(())
    }

    /// Writes the footer and moves the rest of the file into `out`.
    fn finish_into(self, out: &mut impl Write) -> anyhow::Result<()> {
        let rest = self.writer.into_inner()?;
        out.write_all(&rest).context("cannot write the output")?;
        Ok(())
    }
}

/// Writes `pos` as its `Display` does ("1_", the board's cells, then the
/// forbidden slide's cells counted from 1), with the board's text `cells`
/// already made. The tests compare every row with the TSV, which uses
/// `Display`.
fn write_position(out: &mut impl std::fmt::Write, pos: Position, cells: &str) -> std::fmt::Result {
    out.write_char(pos.turn().digit())?;
    out.write_char('_')?;
    out.write_str(cells)?;
    if let Some(s) = pos.forbidden() {
        // Cells are 0 to 8: one digit each (the fallback is `Display`'s way).
        let digit = |cell: usize| u32::try_from(cell + 1).ok().and_then(|d| char::from_digit(d, 10));
        match (digit(s.from()), digit(s.to())) {
            (Some(from), Some(to)) => {
                out.write_char(from)?;
                out.write_char(to)?;
            }
            _ => write!(out, "{}{}", s.from() + 1, s.to() + 1)?,
        }
    }
    Ok(())
}
