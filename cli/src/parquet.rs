//! What every game's Parquet export shares: the value dictionary, the
//! writer's settings, the summary table, and the check that a binary file
//! does not go to a terminal.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use arrow_array::types::Int8Type;
use arrow_array::{ArrayRef, DictionaryArray, Int8Array, RecordBatch, StringArray, UInt16Array, UInt64Array};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

/// Rows per row group: parquet-rs's default, large enough for good
/// compression and cheap metadata, small enough that a few row groups in
/// flight (one per worker) take tens of megabytes.
pub const ROW_GROUP_ROWS: usize = 1 << 20;

/// The `value` dictionary: keys are [`topitop_game_api::Value::index`], and 4 for a record
/// the database does not solve (which the text formats also write, as
/// `unsolved`). Only the names that occur are stored in the file.
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

/// `value`: names through i8 keys, as pandas (category), polars and
/// DuckDB show them.
pub fn value_field() -> Field {
    Field::new(
        "value",
        DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
        false,
    )
}

/// The names of the `value` dictionary, [`VALUE_NAMES`] in order.
pub fn value_names() -> ArrayRef {
    Arc::new(StringArray::from(VALUE_NAMES.to_vec()))
}

/// zstd pages (level 1: several times smaller than uncompressed at little
/// cost), row groups of [`ROW_GROUP_ROWS`], and `metadata`. With
/// `positions`, the `position` column has no dictionary (its strings are
/// all different, so one would only cost time before falling back) and is
/// written as DELTA_BYTE_ARRAY, each string as the length of the prefix it
/// shares with the one before and the rest: the positions of a board come
/// together and share "1_" and the board, which about halves the file
/// (docs/benchmarks.md has the standard game's size). The encoding is part of the
/// Parquet format; pyarrow and DuckDB were checked to read it.
pub fn properties(metadata: Vec<KeyValue>, positions: bool) -> WriterProperties {
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
