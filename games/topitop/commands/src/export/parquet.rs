//! `topitop export --format parquet`: the rows of the text formats as typed
//! columns of an Apache Parquet file, which pandas, polars, DuckDB or Spark
//! read without parsing text.
//!
//! Columns: `position` (string, as in the TSV), `tier` (u64), `value`
//! (a dictionary of `win`, `lose`, `tie`, `draw` with i8 keys: a category
//! in pandas, an enum-like string elsewhere), `remoteness` (u16, null for
//! draws), `turn` (u8, 1 for Blue and 2 for Red: the position string's
//! first digit), and the tier decoded into u8 counts of the pieces on the
//! board and left to place by kind ([`super::COLUMNS`], as in the text
//! formats); then, when asked, `canonical` (string) and `reachable`
//! (boolean), as in the text formats. Pages are zstd-compressed, positions are stored as
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

use std::io::Write;
use std::ops::Range;
use std::sync::Arc;

use anyhow::Context;
use arrow_array::builder::StringBuilder;
use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, BooleanArray, DictionaryArray, Int8Array, UInt16Array, UInt64Array, UInt8Array};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use rayon::prelude::*;
use topitop_cli::cmd::export::Args;
use topitop_rules::{Board, Budget, Position, Tier, Value};
use topitop_solved::Database;

use super::{Row, Rows};
use topitop_cli::parquet::{properties, value_field, value_names, ROW_GROUP_ROWS};
use topitop_cli::progress::CountBar;

/// The most row groups gathered before they are encoded together: about
/// 16 MB of rows each, and several times that while being encoded.
const MAX_GROUPS_IN_FLIGHT: usize = 8;

/// Blocks decoded together (in parallel) before their rows are gathered,
/// as the text formats do.
const BLOCKS_PER_STEP: usize = 64;

/// The file's key-value metadata, so that a reader knows what it holds
/// without the command line that wrote it: `topitop.version`,
/// `topitop.rules` (`v0`, or `v1/` and the GamesmanClassic option),
/// `topitop.budget`, `topitop.solver` (the program that solved the
/// database), `topitop.table` (`positions` or `summary`), `topitop.tier`
/// (`all` or the tier kept), `topitop.values` (`all` or the values
/// kept, comma-separated in the order win, lose, tie, draw) and
/// `topitop.value_view` ([`VALUE_VIEW`]).
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
        ("topitop.value_view", VALUE_VIEW.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| KeyValue::new(k.to_string(), v))
    .collect()
}

/// What `value` means, in every positions file's metadata.
pub const VALUE_VIEW: &str = "the value of the position for the player to move in it (turn)";

/// Writes the rows that `rows_of` makes of the positions of `blocks`, in
/// storage order (the text formats' order), as a Parquet file into `out`,
/// with the optional columns `args` asks for.
///
/// # Errors
/// A damaged block, an encoding failure, or writing `out` failed.
pub fn write_positions(
    out: &mut impl Write,
    db: &Database,
    blocks: Range<usize>,
    rows_of: &Rows<'_>,
    args: &Args,
    metadata: Vec<KeyValue>,
) -> anyhow::Result<()> {
    let mut file = SpooledFile::new(
        positions_schema(args),
        properties(metadata, true),
        db.rules().budget(),
    )?;
    file.canonical = args.all_symmetries;
    file.reachable = args.mark_reachable;
    // One row group per worker at a time keeps every core busy while
    // encoding; at most MAX_GROUPS_IN_FLIGHT, so that a machine with many
    // cores does not hold the whole table before encoding any of it.
    let batch = rayon::current_num_threads().clamp(1, MAX_GROUPS_IN_FLIGHT) * ROW_GROUP_ROWS;
    let list: Vec<usize> = blocks.collect();
    let bar = CountBar::new("exporting", "blocks");
    let mut pending: Vec<Row> = Vec::new();
    for (k, part) in list.chunks(BLOCKS_PER_STEP).enumerate() {
        let kept: Vec<Vec<Row>> = part
            .par_iter()
            .map(|&b| {
                let mut rows = Vec::new();
                for (pos, rec) in db.block_positions(b)? {
                    rows_of(pos, rec, &mut rows);
                }
                Ok(rows)
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

/// The columns of the positions table, with the optional ones `args` asks
/// for.
fn positions_schema(args: &Args) -> SchemaRef {
    let optional = [
        args.all_symmetries
            .then(|| Field::new("canonical", DataType::Utf8, false)),
        args.mark_reachable
            .then(|| Field::new("reachable", DataType::Boolean, false)),
    ];
    Arc::new(Schema::new(
        [
            Field::new("position", DataType::Utf8, false),
            Field::new("tier", DataType::UInt64, false),
            value_field(),
            Field::new("remoteness", DataType::UInt16, true),
            Field::new("turn", DataType::UInt8, false),
        ]
        .into_iter()
        .chain(
            super::COLUMNS[5..]
                .iter()
                .map(|name| Field::new(*name, DataType::UInt8, false)),
        )
        .chain(optional.into_iter().flatten())
        .collect::<Vec<_>>(),
    ))
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
    /// The budget, for the pieces left to place.
    budget: Budget,
    /// Whether the optional `canonical` column is written.
    canonical: bool,
    /// Whether the optional `reachable` column is written.
    reachable: bool,
}

impl SpooledFile {
    fn new(schema: SchemaRef, props: WriterProperties, budget: Budget) -> anyhow::Result<SpooledFile> {
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
            budget,
            canonical: false,
            reachable: false,
        })
    }

    /// Encodes `rows` as row groups of [`ROW_GROUP_ROWS`] rows (the last
    /// fewer), all at once on the worker pool, and appends them in order.
    fn write_groups(&mut self, rows: &[Row]) -> anyhow::Result<()> {
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
    fn encode(&self, index: usize, rows: &[Row]) -> anyhow::Result<Vec<ArrowColumnChunk>> {
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
    fn columns(&self, rows: &[Row]) -> anyhow::Result<Vec<ArrayRef>> {
        // Positions are at most 13 bytes ("1_", 9 cells, a slide).
        let mut positions = StringBuilder::with_capacity(rows.len(), rows.len() * 13);
        let mut tiers = Vec::with_capacity(rows.len());
        // The positions of one board come together (storage order), so its
        // text and tier are worked out once for all of them, not once a
        // row.
        let mut board: Option<(Board, String, u64)> = None;
        for Row { pos, .. } in rows {
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
            .map(|r| r.rec.value().map_or(4, |v| v.index() as i8))
            .collect();
        let rems: UInt16Array = rows
            .iter()
            .map(|r| (r.rec.value() != Some(Value::Draw)).then(|| r.rec.remoteness()))
            .collect();
        // The turn and the pieces on the board and left, by kind.
        let counts: Vec<[u8; 9]> = rows
            .iter()
            .map(|r| super::piece_counts(r.pos, self.budget))
            .collect();
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(positions.finish()),
            Arc::new(tiers),
            Arc::new(DictionaryArray::<Int8Type>::try_new(
                keys,
                Arc::clone(&self.values),
            )?),
            Arc::new(rems),
        ];
        for k in 0..9 {
            columns.push(Arc::new(counts.iter().map(|c| c[k]).collect::<UInt8Array>()));
        }
        if self.canonical {
            let mut keys = StringBuilder::with_capacity(rows.len(), rows.len() * 13);
            for r in rows {
                write_position(&mut keys, r.key, &r.key.board().to_string())?;
                keys.append_value("");
            }
            columns.push(Arc::new(keys.finish()));
        }
        if self.reachable {
            columns.push(Arc::new(
                rows.iter().map(|r| Some(r.reachable)).collect::<BooleanArray>(),
            ));
        }
        Ok(columns)
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
