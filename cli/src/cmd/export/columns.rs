//! `export --format parquet`: the positions table as typed columns,
//! written a few row groups at a time. Whenever the rows for one row
//! group per worker are in, those row groups are built and compressed in
//! parallel, each column on its own, and appended in order; memory stays
//! at a few row groups whatever the size of the table. The encoder needs
//! a `Send` writer, which the command's output is not, so it writes into
//! a spool emptied into the output after every batch.

use std::io::Write;
use std::sync::Arc;

use anyhow::Context;
use arrow_array::builder::StringBuilder;
use arrow_array::types::Int8Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Int8Array, StringArray, UInt16Array, UInt64Array, UInt8Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::KeyValue;
use parquet::file::writer::SerializedFileWriter;
use rayon::prelude::*;
use topitop_game_api::{Game, Value};

use super::walk::{Row, Walk};
use super::Extras;
use crate::parquet::{properties, value_field, value_names, ROW_GROUP_ROWS};

/// The most row groups gathered before they are encoded together: the
/// rows of each, and several times that while being encoded, are held.
const MAX_GROUPS_IN_FLIGHT: usize = 8;

/// A row as its columns hold it.
pub struct Cells {
    position: String,
    /// The tier's place in the file.
    tier: usize,
    /// The key of its value in [`crate::parquet::VALUE_NAMES`].
    value: i8,
    remoteness: Option<u16>,
    /// The game's own columns.
    extras: Vec<u8>,
    /// The class's stored position (`--all-symmetries`).
    canonical: Option<String>,
    reachable: bool,
}

/// The cells of `rows`, the `canonical` column's when `canonical`.
pub fn cells<G: Game>(
    walk: &Walk<'_, G>,
    extras: &dyn Extras<G>,
    rows: &[Row<G::Position>],
    canonical: bool,
) -> Vec<Cells> {
    let game = walk.game();
    rows.iter()
        .map(|r| {
            let mut cells = Vec::new();
            extras.cells(&r.pos, &mut cells);
            Cells {
                position: game.format_position(&r.pos),
                tier: r.tier,
                value: r.record.value().map_or(4, |v| v.index() as i8),
                remoteness: (r.record.value() != Some(Value::Draw)).then_some(r.record.remoteness()),
                extras: cells,
                canonical: canonical.then(|| game.format_position(&r.stored)),
                reachable: r.reachable,
            }
        })
        .collect()
}

/// The `tier` column: the names, or the numbers they are.
enum Tiers {
    Names(Vec<String>),
    Numbers(Vec<u64>),
}

/// The positions table being written.
pub struct Table<'w, W: Write> {
    out: &'w mut W,
    file: File,
    /// Row groups not yet encoded, column by column (strings packed end
    /// to end), the last one filling.
    pending: Vec<Group>,
    /// Row groups encoded together.
    batch: usize,
}

/// The rows of one row group, as its columns hold them.
#[derive(Default)]
struct Group {
    positions: StringBuilder,
    /// Places of tiers in the file.
    tiers: Vec<u32>,
    values: Vec<i8>,
    remoteness: Vec<Option<u16>>,
    /// The game's columns, row after row.
    extras: Vec<u8>,
    canonical: StringBuilder,
    reachable: Vec<bool>,
}

impl Group {
    fn push(&mut self, c: Cells, canonical: bool) -> anyhow::Result<()> {
        if canonical {
            self.canonical
                .append_value(c.canonical.as_deref().unwrap_or(&c.position));
        }
        self.positions.append_value(c.position);
        self.tiers.push(u32::try_from(c.tier)?);
        self.values.push(c.value);
        self.remoteness.push(c.remoteness);
        self.extras.extend(c.extras);
        self.reachable.push(c.reachable);
        Ok(())
    }
}

/// The file, written into a spool.
struct File {
    writer: SerializedFileWriter<Vec<u8>>,
    factory: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    tiers: Tiers,
    /// How many columns the game adds.
    extras: usize,
    canonical: bool,
    reachable: bool,
}

impl<'w, W: Write> Table<'w, W> {
    /// A table of rows of `tiers` (the names by their place in the file;
    /// numbers when `numeric`), with the game's columns `extras` after
    /// `remoteness`, the optional columns `canonical` and `reachable`
    /// when asked, and `metadata`, written into `out`.
    ///
    /// # Errors
    /// A tier name that is not a number when `numeric`, or an encoder
    /// that refuses the schema.
    pub fn new(
        out: &'w mut W,
        (tiers, numeric): (Vec<String>, bool),
        extras: &[&str],
        (canonical, reachable): (bool, bool),
        metadata: Vec<KeyValue>,
    ) -> anyhow::Result<Self> {
        let (tiers, tier_type) = if numeric {
            let numbers = tiers
                .iter()
                .map(|t| t.parse().with_context(|| format!("tier {t:?} is not a number")))
                .collect::<anyhow::Result<_>>()?;
            (Tiers::Numbers(numbers), DataType::UInt64)
        } else {
            (Tiers::Names(tiers), DataType::Utf8)
        };
        let mut fields = vec![
            Field::new("position", DataType::Utf8, false),
            Field::new("tier", tier_type, false),
            value_field(),
            Field::new("remoteness", DataType::UInt16, true),
        ];
        fields.extend(
            extras
                .iter()
                .map(|name| Field::new(*name, DataType::UInt8, false)),
        );
        if canonical {
            fields.push(Field::new("canonical", DataType::Utf8, false));
        }
        if reachable {
            fields.push(Field::new("reachable", DataType::Boolean, false));
        }
        let schema = Arc::new(Schema::new(fields));
        // Through `ArrowWriter` so that the Arrow schema (unsigned types,
        // the value dictionary) is stored for readers; then the low-level
        // writer, to encode row groups on several threads.
        let (writer, factory) =
            ArrowWriter::try_new(Vec::new(), Arc::clone(&schema), Some(properties(metadata, true)))?
                .into_serialized_writer()?;
        Ok(Table {
            out,
            file: File {
                writer,
                factory,
                schema,
                tiers,
                extras: extras.len(),
                canonical,
                reachable,
            },
            pending: Vec::new(),
            // One row group per two workers: each group's columns are
            // encoded in parallel too, and the memory stays at a few groups.
            batch: (rayon::current_num_threads() / 2).clamp(1, MAX_GROUPS_IN_FLIGHT),
        })
    }

    /// Adds `cells`, encoding whole row groups once there are a batch of
    /// them.
    ///
    /// # Errors
    /// Encoding or writing the output failed.
    pub fn push(&mut self, cells: Vec<Cells>) -> anyhow::Result<()> {
        for c in cells {
            match self.pending.last_mut() {
                Some(g) if g.values.len() < ROW_GROUP_ROWS => g.push(c, self.file.canonical)?,
                _ => {
                    if self.pending.len() == self.batch {
                        self.flush()?;
                    }
                    let mut g = Group::default();
                    g.push(c, self.file.canonical)?;
                    self.pending.push(g);
                }
            }
        }
        Ok(())
    }

    /// Encodes the pending row groups and writes them out.
    fn flush(&mut self) -> anyhow::Result<()> {
        let groups = std::mem::take(&mut self.pending);
        self.file.write_groups(groups)?;
        self.drain()
    }

    /// Moves what the file has written so far into the output: the
    /// encoder only appends to its spool and counts offsets itself.
    fn drain(&mut self) -> anyhow::Result<()> {
        let spool = self.file.writer.inner_mut();
        self.out.write_all(spool).context("cannot write the output")?;
        spool.clear();
        Ok(())
    }

    /// Encodes the last rows and writes the footer.
    ///
    /// # Errors
    /// Encoding or writing the output failed.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.flush()?;
        let tail = self.file.writer.into_inner()?;
        self.out.write_all(&tail).context("cannot write the output")?;
        Ok(())
    }
}

impl File {
    /// Encodes `groups`, all at once on the worker pool, and appends them
    /// in order.
    fn write_groups(&mut self, groups: Vec<Group>) -> anyhow::Result<()> {
        let first = self.writer.flushed_row_groups().len();
        let groups: Vec<Vec<ArrowColumnChunk>> = groups
            .into_par_iter()
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
    /// compressed in parallel.
    fn encode(&self, index: usize, rows: Group) -> anyhow::Result<Vec<ArrowColumnChunk>> {
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
    fn columns(&self, mut rows: Group) -> anyhow::Result<Vec<ArrayRef>> {
        let tiers: ArrayRef = match &self.tiers {
            Tiers::Numbers(n) => Arc::new(UInt64Array::from_iter_values(
                rows.tiers.iter().map(|&t| n[t as usize]),
            )),
            Tiers::Names(n) => Arc::new(StringArray::from_iter_values(
                rows.tiers.iter().map(|&t| n[t as usize].as_str()),
            )),
        };
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(rows.positions.finish()),
            tiers,
            Arc::new(DictionaryArray::<Int8Type>::try_new(
                Int8Array::from(rows.values),
                value_names(),
            )?),
            Arc::new(UInt16Array::from_iter(rows.remoteness)),
        ];
        for k in 0..self.extras {
            let column = rows.extras.iter().skip(k).step_by(self.extras).copied();
            columns.push(Arc::new(UInt8Array::from_iter_values(column)));
        }
        if self.canonical {
            columns.push(Arc::new(rows.canonical.finish()));
        }
        if self.reachable {
            columns.push(Arc::new(BooleanArray::from_iter(
                rows.reachable.into_iter().map(Some),
            )));
        }
        Ok(columns)
    }
}
