//! What every game's Parquet export shares: the value dictionary, the
//! writer's settings, the summary table, the check that a binary file
//! does not go to a terminal, and the low-level writing all tables use.
//!
//! The files are written with the `parquet` crate's own column writers,
//! without Arrow (which would double the crate's build time): each column
//! chunk is encoded into memory by a [`ChunkWriter`], on whichever thread
//! has the rows, and the chunks of a row group are then appended to the
//! file in order by a [`FileWriter`].

use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context;
use bytes::Bytes;
use parquet::basic::{Compression, Encoding, LogicalType, Repetition, Type as PhysicalType, ZstdLevel};
use parquet::column::page::{CompressedPage, PageWriteSpec, PageWriter};
use parquet::column::writer::{get_column_writer, ColumnCloseResult, ColumnWriter};
use parquet::data_type::ByteArray;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, ColumnPath, Type, TypePtr};

/// Rows per row group unless asked otherwise: parquet-rs's default, large
/// enough for good compression and cheap metadata, small enough that a few
/// row groups in flight (one per worker) take tens of megabytes.
pub const ROW_GROUP_ROWS: usize = 1 << 20;

/// The largest row group `export --row-group-rows` takes: the export holds
/// a few row groups at once, at up to about 100 bytes a row.
pub const MAX_ROW_GROUP_ROWS: usize = 1 << 24;

/// The `value` column's names: key [`topitop_game_api::Value::index`]
/// names a value, and 4 a record the database does not solve (which the
/// text formats also write, as `unsolved`). The column is dictionary
/// encoded, so each name is stored once per row group.
pub const VALUE_NAMES: [&str; 5] = ["win", "lose", "tie", "draw", "unsolved"];

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
    let mut checked = Vec::new();
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
        checked.push((tier, key, rem, n));
    }
    let schema = schema(vec![
        field("tier", Kind::Text, false)?,
        field("value", Kind::Text, false)?,
        field("remoteness", Kind::U16, true)?,
        field("count", Kind::U64, false)?,
    ])?;
    let mut file = FileWriter::new(schema, properties(metadata, false, ROW_GROUP_ROWS))?;
    // A few thousand rows at most: one row group, built whole in memory
    // (in row groups of the usual size all the same, as any table).
    for group in checked.chunks(ROW_GROUP_ROWS) {
        let names = value_names();
        let mut remoteness = Nullable::default();
        for r in group {
            remoteness.push(r.2.map(i32::from));
        }
        let columns = vec![
            (
                Values::Text(group.iter().map(|r| ByteArray::from(r.0.as_str())).collect()),
                None,
            ),
            (
                Values::Text(group.iter().map(|r| names[r.1].clone()).collect()),
                None,
            ),
            remoteness.into_column(),
            // The counts' bits, as a u64 column stores them.
            (Values::Int64(group.iter().map(|r| r.3 as i64).collect()), None),
        ];
        let chunks = file
            .chunk_writers()
            .into_iter()
            .zip(columns)
            .map(|(w, (values, defined))| w.encode(&values, defined.as_deref()))
            .collect::<anyhow::Result<_>>()?;
        file.append(chunks)?;
    }
    file.finish(out)
}

/// The names of [`VALUE_NAMES`] as column values, in order: static
/// bytes, which every row shares at no cost.
pub fn value_names() -> Vec<ByteArray> {
    VALUE_NAMES
        .iter()
        .map(|name| ByteArray::from(Bytes::from_static(name.as_bytes())))
        .collect()
}

/// zstd pages (level 1: several times smaller than uncompressed at little
/// cost), row groups of `group_rows` rows, and `metadata`. With
/// `positions`, the `position` column has no dictionary (its strings are
/// all different, so one would only cost time before falling back) and is
/// written as DELTA_BYTE_ARRAY, each string as the length of the prefix it
/// shares with the one before and the rest: the positions of a board come
/// together and share "1_" and the board, which about halves the file
/// (docs/benchmarks.md has the standard game's size). The encoding is part of the
/// Parquet format; pyarrow and DuckDB were checked to read it. Every other
/// column is dictionary encoded while its dictionary stays small, which
/// keeps `value` a handful of names.
pub fn properties(metadata: Vec<KeyValue>, positions: bool, group_rows: usize) -> WriterProperties {
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_max_row_group_row_count(Some(group_rows))
        .set_key_value_metadata(Some(metadata));
    if positions {
        props = props
            .set_column_dictionary_enabled(ColumnPath::from("position"), false)
            .set_column_encoding(ColumnPath::from("position"), Encoding::DELTA_BYTE_ARRAY);
    }
    props.build()
}

/// A column's type as readers see it: the physical type and logical type
/// the Arrow writer, which this project used before, gave the same
/// columns, so that files read as they did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// UTF-8 text: BYTE_ARRAY, logical type STRING.
    Text,
    /// INT32, logical type unsigned 8-bit integer.
    U8,
    /// INT32, logical type unsigned 16-bit integer.
    U16,
    /// INT32, logical type unsigned 32-bit integer.
    U32,
    /// INT64, logical type unsigned 64-bit integer (the value's bits as an
    /// `i64`).
    U64,
    /// BOOLEAN.
    Bool,
    /// DOUBLE.
    F64,
}

/// The column `name` of `kind`: OPTIONAL (nulls allowed) when `nullable`,
/// else REQUIRED.
///
/// # Errors
/// A type the format refuses (none of [`Kind`]'s).
pub fn field(name: &str, kind: Kind, nullable: bool) -> anyhow::Result<TypePtr> {
    let unsigned = |bits| Some(LogicalType::integer(bits, false));
    let (physical, logical) = match kind {
        Kind::Text => (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)),
        Kind::U8 => (PhysicalType::INT32, unsigned(8)),
        Kind::U16 => (PhysicalType::INT32, unsigned(16)),
        Kind::U32 => (PhysicalType::INT32, unsigned(32)),
        Kind::U64 => (PhysicalType::INT64, unsigned(64)),
        Kind::Bool => (PhysicalType::BOOLEAN, None),
        Kind::F64 => (PhysicalType::DOUBLE, None),
    };
    let repetition = if nullable {
        Repetition::OPTIONAL
    } else {
        Repetition::REQUIRED
    };
    let column = Type::primitive_type_builder(name, physical)
        .with_logical_type(logical)
        .with_repetition(repetition)
        .build()?;
    Ok(Arc::new(column))
}

/// The schema of a table of `fields`, in order.
///
/// # Errors
/// Fields the format refuses together (none of [`field`]'s).
pub fn schema(fields: Vec<TypePtr>) -> anyhow::Result<TypePtr> {
    Ok(Arc::new(
        Type::group_type_builder("schema").with_fields(fields).build()?,
    ))
}

/// Values of a column in the type its writer takes: unsigned numbers in
/// the signed type of the column's physical type (u8, u16 and u32 as
/// `i32`, u64 as the same bits in an `i64`); nulls are left out, and
/// marked by the definition levels written with them.
pub enum Values {
    /// BYTE_ARRAY values.
    Text(Vec<ByteArray>),
    /// INT32 values.
    Int32(Vec<i32>),
    /// INT64 values.
    Int64(Vec<i64>),
    /// BOOLEAN values.
    Bool(Vec<bool>),
    /// DOUBLE values.
    Double(Vec<f64>),
}

/// A column's values and, when it may hold nulls, its definition levels
/// (one a row: 1 for a value, 0 for a null).
pub type Column = (Values, Option<Vec<i16>>);

/// A nullable INT32 column being gathered.
#[derive(Default)]
pub struct Nullable {
    values: Vec<i32>,
    defined: Vec<i16>,
}

impl Nullable {
    /// Adds a row: `value`, or a null.
    pub fn push(&mut self, value: Option<i32>) {
        self.defined.push(i16::from(value.is_some()));
        self.values.extend(value);
    }

    /// The column, values and definition levels.
    pub fn into_column(self) -> Column {
        (Values::Int32(self.values), Some(self.defined))
    }
}

/// Strings packed end to end, as a text column gathers them: one buffer
/// for a row group rather than an allocation a row.
#[derive(Default)]
pub struct Strings {
    data: Vec<u8>,
    ends: Vec<usize>,
}

impl Strings {
    /// Adds a row.
    pub fn push(&mut self, s: &str) {
        self.data.extend_from_slice(s.as_bytes());
        self.ends.push(self.data.len());
    }

    /// The strings made shareable, so that column values are slices of
    /// them rather than copies.
    pub fn freeze(self) -> FrozenStrings {
        FrozenStrings {
            data: Bytes::from(self.data),
            ends: self.ends,
        }
    }
}

/// [`Strings`] being encoded.
pub struct FrozenStrings {
    data: Bytes,
    ends: Vec<usize>,
}

impl FrozenStrings {
    /// The column values of `rows`: a range at a time, since a value
    /// takes 32 bytes beside its string.
    pub fn values(&self, rows: Range<usize>) -> Values {
        let values = rows
            .map(|i| {
                let start = if i == 0 { 0 } else { self.ends[i - 1] };
                ByteArray::from(self.data.slice(start..self.ends[i]))
            })
            .collect();
        Values::Text(values)
    }
}

/// Where a [`ChunkWriter`]'s column writer puts its pages: the crate's
/// own page serializer over a buffer this owns (the serializer only
/// borrows its sink, and the column writer must own its page writer), the
/// buffer handed over to the [`ChunkWriter`] when the column writer
/// closes, since closing consumes the column writer and this with it.
struct MemoryPages {
    sink: TrackedWrite<Vec<u8>>,
    done: Arc<Mutex<Vec<u8>>>,
}

impl PageWriter for MemoryPages {
    fn write_page(&mut self, page: CompressedPage) -> parquet::errors::Result<PageWriteSpec> {
        // Offsets in the chunk's metadata count from the buffer's start;
        // appending the chunk to a row group moves them to the file's.
        SerializedPageWriter::new(&mut self.sink).write_page(page)
    }

    fn close(&mut self) -> parquet::errors::Result<()> {
        self.sink.flush()?;
        let pages = std::mem::take(self.sink.inner_mut());
        *self.done.lock().unwrap_or_else(PoisonError::into_inner) = pages;
        Ok(())
    }
}

/// One column chunk encoded and compressed into memory, on any thread:
/// the row groups of a file can then be encoded in parallel and appended
/// to it in order ([`FileWriter::append`]).
pub struct ChunkWriter {
    writer: ColumnWriter<'static>,
    pages: Arc<Mutex<Vec<u8>>>,
}

/// A column chunk encoded by a [`ChunkWriter`], waiting to be appended.
pub struct Chunk {
    bytes: Bytes,
    close: ColumnCloseResult,
}

impl ChunkWriter {
    /// A chunk of `column`, written with `props`.
    pub fn new(column: ColumnDescPtr, props: WriterPropertiesPtr) -> ChunkWriter {
        let pages = Arc::new(Mutex::new(Vec::new()));
        let page_writer = MemoryPages {
            sink: TrackedWrite::new(Vec::new()),
            done: Arc::clone(&pages),
        };
        ChunkWriter {
            writer: get_column_writer(column, props, Box::new(page_writer)),
            pages,
        }
    }

    /// Adds rows: `values`, and `defined` when the column is nullable.
    ///
    /// # Errors
    /// Values of another type than the column's, levels that do not
    /// match them, or an encoding failure.
    pub fn write(&mut self, values: &Values, defined: Option<&[i16]>) -> anyhow::Result<()> {
        match (&mut self.writer, values) {
            (ColumnWriter::ByteArrayColumnWriter(w), Values::Text(v)) => w.write_batch(v, defined, None)?,
            (ColumnWriter::Int32ColumnWriter(w), Values::Int32(v)) => w.write_batch(v, defined, None)?,
            (ColumnWriter::Int64ColumnWriter(w), Values::Int64(v)) => w.write_batch(v, defined, None)?,
            (ColumnWriter::BoolColumnWriter(w), Values::Bool(v)) => w.write_batch(v, defined, None)?,
            (ColumnWriter::DoubleColumnWriter(w), Values::Double(v)) => w.write_batch(v, defined, None)?,
            _ => anyhow::bail!("Parquet values of another type than their column's"),
        };
        Ok(())
    }

    /// The chunk of `values` alone (see [`ChunkWriter::write`]).
    ///
    /// # Errors
    /// As [`ChunkWriter::write`] and [`ChunkWriter::finish`].
    pub fn encode(mut self, values: &Values, defined: Option<&[i16]>) -> anyhow::Result<Chunk> {
        self.write(values, defined)?;
        self.finish()
    }

    /// Encodes what is left and gives the chunk.
    ///
    /// # Errors
    /// An encoding failure.
    pub fn finish(self) -> anyhow::Result<Chunk> {
        let close = self.writer.close()?;
        let pages = std::mem::take(&mut *self.pages.lock().unwrap_or_else(PoisonError::into_inner));
        Ok(Chunk {
            bytes: Bytes::from(pages),
            close,
        })
    }
}

/// A Parquet file written into a spool, which [`FileWriter::drain`]
/// empties into the output: the file writer needs a `Send` sink, which
/// the commands' outputs are not. It counts offsets itself, so emptying
/// the spool does not disturb them.
pub struct FileWriter {
    writer: SerializedFileWriter<Vec<u8>>,
}

impl FileWriter {
    /// A file of `schema` written with `props`.
    ///
    /// # Errors
    /// A schema the writer refuses.
    pub fn new(schema: TypePtr, props: WriterProperties) -> anyhow::Result<FileWriter> {
        Ok(FileWriter {
            writer: SerializedFileWriter::new(Vec::new(), schema, Arc::new(props))?,
        })
    }

    /// A writer for each column of a row group, in the schema's order.
    pub fn chunk_writers(&self) -> Vec<ChunkWriter> {
        let props = self.writer.properties();
        self.writer
            .schema_descr()
            .columns()
            .iter()
            .map(|c| ChunkWriter::new(Arc::clone(c), Arc::clone(props)))
            .collect()
    }

    /// Appends a row group of `chunks`, one a column in the schema's order.
    ///
    /// # Errors
    /// Chunks that are not the schema's columns, or of different lengths.
    pub fn append(&mut self, chunks: Vec<Chunk>) -> anyhow::Result<()> {
        let mut row_group = self.writer.next_row_group()?;
        for chunk in chunks {
            row_group.append_column(&chunk.bytes, chunk.close)?;
        }
        row_group.close()?;
        Ok(())
    }

    /// Moves what has been written so far into `out`.
    ///
    /// # Errors
    /// Writing `out` failed.
    pub fn drain(&mut self, out: &mut impl Write) -> anyhow::Result<()> {
        let spool = self.writer.inner_mut();
        out.write_all(spool).context("cannot write the output")?;
        spool.clear();
        Ok(())
    }

    /// Writes the footer, and the rest of the file, into `out`.
    ///
    /// # Errors
    /// Encoding the footer or writing `out` failed.
    pub fn finish(self, out: &mut impl Write) -> anyhow::Result<()> {
        let tail = self.writer.into_inner()?;
        out.write_all(&tail).context("cannot write the output")?;
        Ok(())
    }
}
