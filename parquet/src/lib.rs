//! A Parquet writer for flat tables: required and optional columns of
//! text, unsigned integers, booleans and doubles, in row groups whose
//! column chunks are encoded on any thread and appended in order.
//!
//! What it writes, to the format's specification (Apache Parquet 2.x
//! metadata, data pages of version 1, which every reader takes):
//! - zstd-compressed pages of at most 20,000 rows (or about 1 MiB);
//! - columns dictionary encoded (a PLAIN dictionary page, RLE_DICTIONARY
//!   keys) while the dictionary stays under 1 MiB, then PLAIN; or, for
//!   the text columns asked for, DELTA_BYTE_ARRAY;
//! - definition levels of optional columns in the RLE/bit-packing hybrid;
//! - each column chunk's statistics (nulls, least and greatest value in
//!   the order of its logical type) and the type-defined column order;
//! - the page index: each chunk's column index (every data page's least
//!   and greatest values and nulls) and offset index (where each page is
//!   and its first row), after the row groups;
//! - the physical and logical types (with the older converted types) of
//!   [`Kind`], and key-value metadata.
//!
//! There is no reader: the tests of the programs that use it read its
//! files back with the `parquet` crate, an independent implementation.

mod chunk;
mod encode;
mod file;
#[cfg(test)]
mod read_back;
mod thrift;

pub use chunk::{Chunk, ChunkWriter};
pub use file::FileWriter;

use bytes::Bytes;

/// A column's type as readers see it.
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

/// A column of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    name: String,
    kind: Kind,
    nullable: bool,
}

/// The column `name` of `kind`: OPTIONAL (nulls allowed) when `nullable`,
/// else REQUIRED.
pub fn field(name: &str, kind: Kind, nullable: bool) -> Field {
    Field {
        name: name.to_string(),
        kind,
        nullable,
    }
}

/// A table's columns, in order.
#[derive(Clone, Debug)]
pub struct Schema {
    fields: Vec<Field>,
}

/// The schema of a table of `fields`, in order.
///
/// # Errors
/// No fields, a field without a name, or two fields of one name.
pub fn schema(fields: Vec<Field>) -> anyhow::Result<Schema> {
    anyhow::ensure!(!fields.is_empty(), "a Parquet table needs at least one column");
    for (i, f) in fields.iter().enumerate() {
        anyhow::ensure!(!f.name.is_empty(), "Parquet column {i} has no name");
        anyhow::ensure!(
            !fields[..i].iter().any(|g| g.name == f.name),
            "two Parquet columns are named {:?}",
            f.name
        );
    }
    Ok(Schema { fields })
}

/// An entry of the file's key-value metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyValue {
    /// The key (by convention `application.name`).
    pub key: String,
    /// Its value.
    pub value: String,
}

impl KeyValue {
    /// The entry `key` = `value`.
    pub fn new(key: String, value: String) -> KeyValue {
        KeyValue { key, value }
    }
}

/// How a file is written: its metadata and the text columns written as DELTA_BYTE_ARRAY rather than with a
/// dictionary.
#[derive(Clone, Debug)]
pub struct Properties {
    metadata: Vec<KeyValue>,
    delta: Vec<String>,
}

impl Properties {
    /// Dictionaries for every column (but booleans), and `metadata`.
    pub fn new(metadata: Vec<KeyValue>) -> Properties {
        Properties {
            metadata,
            delta: Vec::new(),
        }
    }

    /// The text column `name` written as DELTA_BYTE_ARRAY: each string as
    /// the length of the prefix it shares with the one before and the
    /// rest, which suits sorted strings that are all different (where a
    /// dictionary would only cost time before falling back).
    pub fn delta_strings(mut self, name: &str) -> Properties {
        self.delta.push(name.to_string());
        self
    }
}

/// Bytes of a text value, shared rather than copied where they come from
/// a larger buffer ([`Bytes`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ByteArray(Bytes);

impl ByteArray {
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl From<Bytes> for ByteArray {
    fn from(b: Bytes) -> ByteArray {
        ByteArray(b)
    }
}

impl From<Vec<u8>> for ByteArray {
    fn from(b: Vec<u8>) -> ByteArray {
        ByteArray(Bytes::from(b))
    }
}

impl From<String> for ByteArray {
    fn from(s: String) -> ByteArray {
        ByteArray(Bytes::from(s))
    }
}

impl From<&str> for ByteArray {
    fn from(s: &str) -> ByteArray {
        ByteArray(Bytes::copy_from_slice(s.as_bytes()))
    }
}

/// Values of a column in the type of its physical type: unsigned numbers
/// as the signed type of the same width (u8, u16 and u32 as `i32`, u64 as
/// the same bits in an `i64`); nulls are left out, and marked by the
/// definition levels written with them.
#[derive(Clone, Debug)]
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
