//! The file: its magic, row groups appended in order, and the footer
//! (Parquet's FileMetaData in Thrift's compact protocol).

use std::io::Write;

use anyhow::Context;

use crate::chunk::{Chunk, ChunkMeta, ChunkWriter};
use crate::thrift::{Writer, LIST_BINARY, LIST_I32, STRUCT};
use crate::{Kind, Properties, Schema};

/// The four bytes a Parquet file starts and ends with.
const MAGIC: &[u8; 4] = b"PAR1";

/// ZSTD in the format's list of codecs.
const ZSTD: i32 = 6;

/// A row group as the footer describes it, its chunks' offsets counted
/// from the file's start.
struct RowGroup {
    chunks: Vec<(u64, ChunkMeta)>,
    rows: u64,
    start: u64,
}

/// A Parquet file written into a spool, which [`FileWriter::drain`]
/// empties into the output (the row groups are encoded on other threads,
/// and the commands' outputs cannot be shared with them). It counts
/// offsets itself, so emptying the spool does not disturb them.
pub struct FileWriter {
    schema: Schema,
    props: Properties,
    spool: Vec<u8>,
    /// Bytes of the file so far, drained or not.
    offset: u64,
    groups: Vec<RowGroup>,
}

impl FileWriter {
    /// A file of `schema` written with `props`.
    ///
    /// # Errors
    /// `props` names a column for DELTA_BYTE_ARRAY that is not a text
    /// column of `schema`.
    pub fn new(schema: Schema, props: Properties) -> anyhow::Result<FileWriter> {
        for name in &props.delta {
            let field = schema.fields.iter().find(|f| &f.name == name);
            anyhow::ensure!(
                field.is_some_and(|f| f.kind == Kind::Text),
                "DELTA_BYTE_ARRAY asked for {name:?}, which is not a text column of the table"
            );
        }
        Ok(FileWriter {
            schema,
            props,
            spool: MAGIC.to_vec(),
            offset: MAGIC.len() as u64,
            groups: Vec::new(),
        })
    }

    /// A writer for each column of a row group, in the schema's order.
    ///
    /// # Errors
    /// zstd could not start (out of memory).
    pub fn chunk_writers(&self) -> anyhow::Result<Vec<ChunkWriter>> {
        self.schema
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| ChunkWriter::new(i, f, self.props.delta.contains(&f.name)))
            .collect()
    }

    /// Appends a row group of `chunks`, one a column in the schema's order.
    ///
    /// # Errors
    /// Chunks that are not the schema's columns in order, or of different
    /// numbers of rows.
    pub fn append(&mut self, chunks: Vec<Chunk>) -> anyhow::Result<()> {
        anyhow::ensure!(
            chunks.len() == self.schema.fields.len(),
            "a Parquet row group of {} columns for a table of {}",
            chunks.len(),
            self.schema.fields.len()
        );
        let rows = chunks.first().map_or(0, |c| c.meta.rows);
        let start = self.offset;
        let mut metas = Vec::with_capacity(chunks.len());
        for (i, chunk) in chunks.into_iter().enumerate() {
            anyhow::ensure!(
                chunk.column == i,
                "Parquet column chunks out of the schema's order"
            );
            anyhow::ensure!(
                chunk.meta.rows == rows,
                "Parquet column {:?} has {} rows in a row group of {rows}",
                chunk.meta.name,
                chunk.meta.rows
            );
            metas.push((self.offset, chunk.meta));
            self.offset += chunk.bytes.len() as u64;
            self.spool.extend_from_slice(&chunk.bytes);
        }
        self.groups.push(RowGroup {
            chunks: metas,
            rows,
            start,
        });
        Ok(())
    }

    /// Moves what has been written so far into `out`.
    ///
    /// # Errors
    /// Writing `out` failed.
    pub fn drain(&mut self, out: &mut impl Write) -> anyhow::Result<()> {
        out.write_all(&self.spool).context("cannot write the output")?;
        self.spool.clear();
        Ok(())
    }

    /// Writes the footer, and the rest of the file, into `out`.
    ///
    /// # Errors
    /// Writing `out` failed.
    pub fn finish(mut self, out: &mut impl Write) -> anyhow::Result<()> {
        let indexes = self.write_indexes()?;
        let footer = self.footer(&indexes)?;
        self.spool.extend_from_slice(&footer);
        self.spool.extend_from_slice(&(footer.len() as u32).to_le_bytes());
        self.spool.extend_from_slice(MAGIC);
        self.drain(out)
    }

    /// Writes the page indexes after the row groups, every chunk's column
    /// index then every chunk's offset index, as other writers place them,
    /// and gives where each is, a row group's chunks in order.
    fn write_indexes(&mut self) -> anyhow::Result<Vec<Vec<Indexes>>> {
        let mut found: Vec<Vec<Indexes>> = Vec::with_capacity(self.groups.len());
        for g in &self.groups {
            let mut chunks = Vec::with_capacity(g.chunks.len());
            for (_, c) in &g.chunks {
                let column = c.statistics.column_index.as_ref().map(|bytes| {
                    let at = self.offset;
                    self.spool.extend_from_slice(bytes);
                    self.offset += bytes.len() as u64;
                    (at, bytes.len())
                });
                chunks.push(Indexes {
                    column,
                    offset: (0, 0),
                });
            }
            found.push(chunks);
        }
        for (g, chunks) in self.groups.iter().zip(&mut found) {
            for ((start, c), found) in g.chunks.iter().zip(chunks) {
                let mut w = Writer::default();
                w.open();
                w.list(1, STRUCT, c.locations.len());
                for &(at, size, first) in &c.locations {
                    w.open();
                    w.i64(1, i64::try_from(start + at)?);
                    w.i32(2, size);
                    w.i64(3, first);
                    w.end();
                }
                w.end();
                let bytes = w.into_bytes();
                found.offset = (self.offset, bytes.len());
                self.offset += bytes.len() as u64;
                self.spool.extend_from_slice(&bytes);
            }
        }
        Ok(found)
    }

    fn footer(&self, indexes: &[Vec<Indexes>]) -> anyhow::Result<Vec<u8>> {
        let fields = &self.schema.fields;
        let mut w = Writer::default();
        w.open();
        w.i32(1, 1);
        w.list(2, STRUCT, fields.len() + 1);
        w.open();
        w.binary(4, b"schema");
        w.i32(5, i32::try_from(fields.len())?);
        w.end();
        for f in fields {
            w.open();
            let (physical, converted, logical) = types(f.kind);
            w.i32(1, physical);
            w.i32(3, i32::from(f.nullable));
            w.binary(4, f.name.as_bytes());
            if let Some(c) = converted {
                w.i32(6, c);
            }
            match logical {
                Logical::None => {}
                Logical::String => {
                    w.begin(10);
                    w.begin(1);
                    w.end();
                    w.end();
                }
                Logical::Unsigned(bits) => {
                    w.begin(10);
                    w.begin(10);
                    w.i8(1, bits);
                    w.bool(2, false);
                    w.end();
                    w.end();
                }
            }
            w.end();
        }
        let rows: u64 = self.groups.iter().map(|g| g.rows).sum();
        w.i64(3, i64::try_from(rows)?);
        w.list(4, STRUCT, self.groups.len());
        for (g, indexes) in self.groups.iter().zip(indexes) {
            row_group(&mut w, g, indexes)?;
        }
        if !self.props.metadata.is_empty() {
            w.list(5, STRUCT, self.props.metadata.len());
            for kv in &self.props.metadata {
                w.open();
                w.binary(1, kv.key.as_bytes());
                w.binary(2, kv.value.as_bytes());
                w.end();
            }
        }
        let by = format!("topitop-parquet version {}", env!("CARGO_PKG_VERSION"));
        w.binary(6, by.as_bytes());
        // Every column in its type's own order, so that readers trust the
        // statistics' least and greatest values.
        w.list(7, STRUCT, fields.len());
        for _ in fields {
            w.open();
            w.begin(1);
            w.end();
            w.end();
        }
        w.end();
        Ok(w.into_bytes())
    }
}

/// A logical type annotation.
enum Logical {
    None,
    String,
    Unsigned(i8),
}

/// The physical type, converted type (the older annotation, for older
/// readers) and logical type of a column of `kind`.
fn types(kind: Kind) -> (i32, Option<i32>, Logical) {
    use crate::chunk::code;
    match kind {
        Kind::Text => (code::BYTE_ARRAY, Some(0), Logical::String),
        Kind::U8 => (code::INT32, Some(11), Logical::Unsigned(8)),
        Kind::U16 => (code::INT32, Some(12), Logical::Unsigned(16)),
        Kind::U32 => (code::INT32, Some(13), Logical::Unsigned(32)),
        Kind::U64 => (code::INT64, Some(14), Logical::Unsigned(64)),
        Kind::Bool => (code::BOOLEAN, None, Logical::None),
        Kind::F64 => (code::DOUBLE, None, Logical::None),
    }
}

/// Where a chunk's page indexes are in the file: offset and length.
struct Indexes {
    column: Option<(u64, usize)>,
    offset: (u64, usize),
}

fn row_group(w: &mut Writer, g: &RowGroup, indexes: &[Indexes]) -> anyhow::Result<()> {
    w.open();
    w.list(1, STRUCT, g.chunks.len());
    for ((start, c), index) in g.chunks.iter().zip(indexes) {
        w.open();
        // The deprecated offset of the chunk's metadata in the file: the
        // metadata is in the footer only, so 0, as other writers do.
        w.i64(2, 0);
        w.begin(3);
        w.i32(1, c.physical);
        w.list(2, LIST_I32, c.encodings.len());
        for &e in &c.encodings {
            w.element_i32(e);
        }
        w.list(3, LIST_BINARY, 1);
        w.element_binary(c.name.as_bytes());
        w.i32(4, ZSTD);
        w.i64(5, i64::try_from(c.rows)?);
        w.i64(6, i64::try_from(c.uncompressed)?);
        w.i64(7, i64::try_from(c.compressed)?);
        w.i64(9, i64::try_from(start + c.data_offset)?);
        if let Some(d) = c.dictionary_offset {
            w.i64(11, i64::try_from(start + d)?);
        }
        w.begin(12);
        w.i64(3, i64::try_from(c.statistics.nulls)?);
        if let (Some(least), Some(greatest)) = (&c.statistics.least, &c.statistics.greatest) {
            w.binary(5, greatest);
            w.binary(6, least);
        }
        w.end();
        w.end();
        w.i64(4, i64::try_from(index.offset.0)?);
        w.i32(5, i32::try_from(index.offset.1)?);
        if let Some((at, len)) = index.column {
            w.i64(6, i64::try_from(at)?);
            w.i32(7, i32::try_from(len)?);
        }
        w.end();
    }
    let uncompressed: u64 = g.chunks.iter().map(|(_, c)| c.uncompressed).sum();
    let compressed: u64 = g.chunks.iter().map(|(_, c)| c.compressed).sum();
    w.i64(2, i64::try_from(uncompressed)?);
    w.i64(3, i64::try_from(g.rows)?);
    w.i64(5, i64::try_from(g.start)?);
    w.i64(6, i64::try_from(compressed)?);
    w.end();
    Ok(())
}
