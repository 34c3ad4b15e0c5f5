//! `export --format parquet` of the generic export: the positions table
//! written a row group at a time, each handed to the output as soon as it
//! is encoded. The encoder needs a `Send`
//! writer, which the command's output is not, so it writes into a spool
//! that is emptied into the output after every batch.

use std::io::Write;
use std::sync::Arc;

use anyhow::Context;
use arrow_array::builder::StringBuilder;
use arrow_array::types::Int8Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Int8Array, RecordBatch, StringArray, UInt16Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use topitop_game_api::{Game, Value};

use super::walk::{Row, Walk};
use crate::parquet::ROW_GROUP_ROWS;

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

/// Rows handed to the encoder at a time: one row group. The encoder cuts
/// pages by counts of rows from the start of each write, so writing whole
/// row groups keeps the file the same as one written from all the rows
/// at once, page for page.
const BATCH_ROWS: usize = ROW_GROUP_ROWS;

/// A row as its columns hold it.
pub struct Cells {
    position: String,
    tier: usize,
    value: i8,
    remoteness: Option<u16>,
    /// The class's stored position, where it is not `position`.
    canonical: Option<String>,
    reachable: bool,
}

/// The cells of `rows`.
pub fn cells<G: Game>(walk: &Walk<'_, G>, rows: &[Row<G::Position>]) -> Vec<Cells> {
    let game = walk.game();
    rows.iter()
        .map(|r| Cells {
            position: game.format_position(&r.pos),
            tier: r.tier,
            value: r.record.value().map_or(0, value_key),
            remoteness: (r.record.value() != Some(Value::Draw)).then_some(r.record.remoteness()),
            canonical: (r.pos != r.stored).then(|| game.format_position(&r.stored)),
            reachable: r.reachable,
        })
        .collect()
}

/// The rows of the next row group, column by column (strings packed end
/// to end: a row group of them takes tens of megabytes).
#[derive(Default)]
struct Pending {
    positions: StringBuilder,
    /// Places of tiers in the file (a tier's name is made for the batch).
    tiers: Vec<u32>,
    values: Vec<i8>,
    remoteness: Vec<Option<u16>>,
    canonical: StringBuilder,
    reachable: Vec<bool>,
}

impl Pending {
    fn len(&self) -> usize {
        self.values.len()
    }

    fn push(&mut self, c: Cells, canonical: bool) -> anyhow::Result<()> {
        if canonical {
            self.canonical
                .append_value(c.canonical.as_deref().unwrap_or(&c.position));
        }
        self.positions.append_value(c.position);
        self.tiers.push(u32::try_from(c.tier)?);
        self.values.push(c.value);
        self.remoteness.push(c.remoteness);
        self.reachable.push(c.reachable);
        Ok(())
    }
}

/// The positions table being written.
pub struct Table<'w, W: Write> {
    out: &'w mut W,
    writer: ArrowWriter<Vec<u8>>,
    schema: SchemaRef,
    /// The names of the tiers, by their place in the file.
    tiers: Vec<String>,
    /// Rows not yet handed to the encoder: fewer than [`BATCH_ROWS`]
    /// between batches.
    pending: Pending,
    canonical: bool,
    reachable: bool,
}

impl<'w, W: Write> Table<'w, W> {
    /// A table of rows of `tiers` (the names by their place in the file),
    /// with the optional columns `canonical` and `reachable` when asked
    /// and `metadata`, written into `out`.
    ///
    /// # Errors
    /// The encoder refuses the schema.
    pub fn new(
        out: &'w mut W,
        tiers: Vec<String>,
        canonical: bool,
        reachable: bool,
        metadata: Vec<KeyValue>,
    ) -> anyhow::Result<Self> {
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
        if canonical {
            fields.push(Field::new("canonical", DataType::Utf8, false));
        }
        if reachable {
            fields.push(Field::new("reachable", DataType::Boolean, false));
        }
        let schema = Arc::new(Schema::new(fields));
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_key_value_metadata(Some(metadata))
            .build();
        let writer = ArrowWriter::try_new(Vec::new(), Arc::clone(&schema), Some(props))?;
        Ok(Table {
            out,
            writer,
            schema,
            tiers,
            pending: Pending::default(),
            canonical,
            reachable,
        })
    }

    /// Adds `cells`, encoding each row group as soon as it is whole.
    ///
    /// # Errors
    /// Encoding or writing the output failed.
    pub fn push(&mut self, cells: Vec<Cells>) -> anyhow::Result<()> {
        for c in cells {
            self.pending.push(c, self.canonical)?;
            if self.pending.len() == BATCH_ROWS {
                self.encode()?;
            }
        }
        Ok(())
    }

    /// Encodes the pending rows and moves what the encoder has finished
    /// into the output.
    fn encode(&mut self) -> anyhow::Result<()> {
        let rows = std::mem::take(&mut self.pending);
        let names: ArrayRef = Arc::new(StringArray::from(VALUE_NAMES.to_vec()));
        let mut positions = rows.positions;
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(positions.finish()),
            Arc::new(StringArray::from_iter_values(
                rows.tiers.iter().map(|&t| self.tiers[t as usize].as_str()),
            )),
            Arc::new(DictionaryArray::<Int8Type>::try_new(
                Int8Array::from(rows.values),
                names,
            )?),
            Arc::new(UInt16Array::from_iter(rows.remoteness)),
        ];
        if self.canonical {
            let mut canonical = rows.canonical;
            columns.push(Arc::new(canonical.finish()));
        }
        if self.reachable {
            columns.push(Arc::new(BooleanArray::from_iter(
                rows.reachable.into_iter().map(Some),
            )));
        }
        self.writer
            .write(&RecordBatch::try_new(Arc::clone(&self.schema), columns)?)?;
        // The encoder only appends to its spool and counts offsets itself,
        // so what it has written can be taken out between batches.
        let spool = self.writer.inner_mut();
        self.out.write_all(spool).context("cannot write the output")?;
        spool.clear();
        Ok(())
    }

    /// Encodes the last rows and writes the footer.
    ///
    /// # Errors
    /// Encoding or writing the output failed.
    pub fn finish(mut self) -> anyhow::Result<()> {
        if self.pending.len() > 0 {
            self.encode()?;
        }
        let tail = self.writer.into_inner()?;
        self.out.write_all(&tail).context("cannot write the output")?;
        Ok(())
    }
}
