//! What every game's Parquet export shares: the value dictionary, the
//! writer's settings, the summary table, the check that a binary file
//! does not go to a terminal, and the writer's types, re-exported.
//!
//! The files are written by `topitop-parquet`: each column chunk is
//! encoded into memory by a [`ChunkWriter`], on whichever thread has the
//! rows, and the chunks of a row group are then appended to the file in
//! order by a [`FileWriter`].

use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::path::Path;

use anyhow::Context;
use bytes::Bytes;
pub use topitop_parquet::{
    field, schema, ByteArray, Chunk, ChunkWriter, Column, FileWriter, KeyValue, Kind, Properties, Values,
};

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
        field("tier", Kind::Text, false),
        field("value", Kind::Text, false),
        field("remoteness", Kind::U16, true),
        field("count", Kind::U64, false),
    ])?;
    let mut file = FileWriter::new(schema, properties(metadata, false))?;
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
            .chunk_writers()?
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

/// zstd pages and `metadata`. With `positions`, the `position` column
/// has no dictionary (its strings are all different, so one would only
/// cost time before falling back) and is written as DELTA_BYTE_ARRAY,
/// each string as the length of the prefix it shares with the one before
/// and the rest: the positions of a board come together and share "1_"
/// and the board, which about halves the file (docs/benchmarks.md has the
/// standard game's size). The encoding is part of the Parquet format;
/// pyarrow and the `parquet` crate read it (tools/tests/it/parquet.rs).
/// Every other column is dictionary encoded while its dictionary stays
/// small, which keeps `value` a handful of names.
pub fn properties(metadata: Vec<KeyValue>, positions: bool) -> Properties {
    let props = Properties::new(metadata);
    if positions {
        props.delta_strings("position")
    } else {
        props
    }
}

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
