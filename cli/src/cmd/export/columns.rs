//! `export --format parquet`: the positions table as typed columns,
//! written a few row groups at a time. Whenever the rows for one row
//! group per worker are in, those row groups are built and compressed in
//! parallel, each column on its own, and appended in order; memory stays
//! at a few row groups whatever the size of the table. The encoder needs
//! a `Send` writer, which the command's output is not, so it writes into
//! a spool emptied into the output after every batch.

use std::io::Write;
use std::ops::Range;
use std::sync::Arc;

use anyhow::Context;
use rayon::prelude::*;
use topitop_game_api::{Game, Value};

use super::walk::{Row, Walk};
use super::Extras;
use crate::parquet::{
    field, properties, schema, value_names, ByteArray, Chunk, Column, FileWriter, KeyValue, Kind, Nullable,
    Strings, Values,
};

/// The most row groups gathered before they are encoded together: the
/// rows of each, and several times that while being encoded, are held.
const MAX_GROUPS_IN_FLIGHT: usize = 8;

/// Rows handed to a column's encoder at once: its values (32 bytes each
/// for text, beside the strings) are made a slice at a time, not for the
/// whole row group. A multiple of the encoder's own batches (1024 rows),
/// so that the pages come out as they would from one call.
const SLICE_ROWS: usize = 1 << 16;

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

/// The `tier` column: the names (as column values, shared by the rows),
/// or the numbers they are.
enum Tiers {
    Names(Vec<ByteArray>),
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
    /// Rows of a row group.
    group_rows: usize,
}

/// The rows of one row group, as its columns hold them.
#[derive(Default)]
struct Group {
    positions: Strings,
    /// Places of tiers in the file.
    tiers: Vec<u32>,
    values: Vec<i8>,
    remoteness: Vec<Option<u16>>,
    /// The game's columns, row after row.
    extras: Vec<u8>,
    canonical: Strings,
    reachable: Vec<bool>,
}

impl Group {
    fn push(&mut self, c: Cells, canonical: bool) -> anyhow::Result<()> {
        if canonical {
            self.canonical.push(c.canonical.as_deref().unwrap_or(&c.position));
        }
        self.positions.push(&c.position);
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
    writer: FileWriter,
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
    /// when asked, and `metadata`, written into `out` in row groups of
    /// `group_rows` rows.
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
        group_rows: usize,
    ) -> anyhow::Result<Self> {
        let (tiers, tier_kind) = if numeric {
            let numbers = tiers
                .iter()
                .map(|t| t.parse().with_context(|| format!("tier {t:?} is not a number")))
                .collect::<anyhow::Result<_>>()?;
            (Tiers::Numbers(numbers), Kind::U64)
        } else {
            let names = tiers
                .into_iter()
                .map(|t| ByteArray::from(t.into_bytes()))
                .collect();
            (Tiers::Names(names), Kind::Text)
        };
        let mut fields = vec![
            field("position", Kind::Text, false),
            field("tier", tier_kind, false),
            field("value", Kind::Text, false),
            field("remoteness", Kind::U16, true),
        ];
        for name in extras {
            fields.push(field(name, Kind::U8, false));
        }
        if canonical {
            fields.push(field("canonical", Kind::Text, false));
        }
        if reachable {
            fields.push(field("reachable", Kind::Bool, false));
        }
        let writer = FileWriter::new(schema(fields)?, properties(metadata, true))?;
        Ok(Table {
            out,
            file: File {
                writer,
                tiers,
                extras: extras.len(),
                canonical,
                reachable,
            },
            pending: Vec::new(),
            // One row group per two workers: each group's columns are
            // encoded in parallel too, and the memory stays at a few groups.
            batch: (rayon::current_num_threads() / 2).clamp(1, MAX_GROUPS_IN_FLIGHT),
            group_rows,
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
                Some(g) if g.values.len() < self.group_rows => g.push(c, self.file.canonical)?,
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
        self.file.writer.drain(self.out)
    }

    /// Encodes the last rows and writes the footer.
    ///
    /// # Errors
    /// Encoding or writing the output failed.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.flush()?;
        self.file.writer.finish(self.out)
    }
}

impl File {
    /// Encodes `groups`, all at once on the worker pool, and appends them
    /// in order.
    fn write_groups(&mut self, groups: Vec<Group>) -> anyhow::Result<()> {
        let groups: Vec<Vec<Chunk>> = groups
            .into_par_iter()
            .map(|group| self.encode(group))
            .collect::<anyhow::Result<_>>()?;
        for chunks in groups {
            self.writer.append(chunks)?;
        }
        Ok(())
    }

    /// A row group: its columns each encoded and compressed in parallel,
    /// made a slice of rows at a time.
    fn encode(&self, rows: Group) -> anyhow::Result<Vec<Chunk>> {
        let n = rows.values.len();
        let columns = self.columns(rows);
        let writers = self.writer.chunk_writers()?;
        anyhow::ensure!(
            writers.len() == columns.len(),
            "{} Parquet column writers for {} columns",
            writers.len(),
            columns.len()
        );
        writers
            .into_par_iter()
            .zip(columns)
            .map(|(mut writer, column)| {
                for start in (0..n).step_by(SLICE_ROWS) {
                    let (values, defined) = column(start..n.min(start + SLICE_ROWS));
                    writer.write(&values, defined.as_deref())?;
                }
                writer.finish()
            })
            .collect()
    }

    /// The columns of `rows`, in the schema's order: each gives the
    /// values of a range of rows.
    fn columns(&self, rows: Group) -> Vec<Slicer<'_>> {
        let names = value_names();
        let Group {
            positions,
            tiers,
            values,
            remoteness,
            extras,
            canonical,
            reachable,
        } = rows;
        let positions = positions.freeze();
        let mut columns: Vec<Slicer<'_>> = vec![
            Box::new(move |r| (positions.values(r), None)),
            match &self.tiers {
                // The bits of the u64, as the column stores them.
                Tiers::Numbers(n) => Box::new(move |r: Range<usize>| {
                    (
                        Values::Int64(tiers[r].iter().map(|&t| n[t as usize] as i64).collect()),
                        None,
                    )
                }),
                Tiers::Names(n) => Box::new(move |r: Range<usize>| {
                    (
                        Values::Text(tiers[r].iter().map(|&t| n[t as usize].clone()).collect()),
                        None,
                    )
                }),
            },
            Box::new(move |r| {
                (
                    Values::Text(values[r].iter().map(|&k| names[k as usize].clone()).collect()),
                    None,
                )
            }),
            Box::new(move |r| {
                let mut column = Nullable::default();
                for &rem in &remoteness[r] {
                    column.push(rem.map(i32::from));
                }
                column.into_column()
            }),
        ];
        let extras = Arc::new(extras);
        let width = self.extras;
        for k in 0..width {
            let extras = Arc::clone(&extras);
            columns.push(Box::new(move |r: Range<usize>| {
                let row_major = &extras[r.start * width..r.end * width];
                let column = row_major.iter().skip(k).step_by(width).map(|&c| i32::from(c));
                (Values::Int32(column.collect()), None)
            }));
        }
        if self.canonical {
            let canonical = canonical.freeze();
            columns.push(Box::new(move |r| (canonical.values(r), None)));
        }
        if self.reachable {
            columns.push(Box::new(move |r| (Values::Bool(reachable[r].to_vec()), None)));
        }
        columns
    }
}

/// A column of a row group being encoded: the values of a range of its
/// rows.
type Slicer<'a> = Box<dyn Fn(Range<usize>) -> Column + Send + Sync + 'a>;
