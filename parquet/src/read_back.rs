//! Files written here, read back with the `parquet` crate: every kind of
//! column, nulls, pages, a dictionary given up, DELTA_BYTE_ARRAY, row
//! groups, statistics and metadata as another implementation sees them.

use bytes::Bytes;
use parquet::basic::{Encoding, LogicalType, Type as PhysicalType};
use parquet::column::page::Page;
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::reader::{FileReader, RowGroupReader};
use parquet::file::serialized_reader::{ReadOptionsBuilder, SerializedFileReader};
use parquet::file::statistics::Statistics;
use parquet::record::Field as Cell;

use crate::{field, schema, ByteArray, FileWriter, KeyValue, Kind, Properties, Values};

/// The columns of the test table, a row `i` of which is [`expected`].
fn table() -> crate::Schema {
    schema(vec![
        field("id", Kind::U64, false),
        field("name", Kind::Text, false),
        field("small", Kind::U8, true),
        field("word", Kind::Text, true),
        field("flag", Kind::Bool, false),
        field("ratio", Kind::F64, false),
        field("big", Kind::U32, false),
        field("nothing", Kind::U16, true),
    ])
    .unwrap()
}

/// Row `i`: an increasing id; distinct names long enough that their
/// dictionary passes 1 MiB; a small number missing every third row; a
/// word from five, missing every seventh; a flag; a ratio; a u32 above
/// `i32::MAX`; and a column of nulls only.
fn expected(i: u64) -> Vec<String> {
    let null = "null".to_string();
    vec![
        (i * 3).to_string(),
        format!("position-{i:08}-of-a-rather-long-name"),
        if i.is_multiple_of(3) {
            null.clone()
        } else {
            (i % 200).to_string()
        },
        if i.is_multiple_of(7) {
            null.clone()
        } else {
            ["a", "bb", "ccc", "dd", "e"][(i % 5) as usize].to_string()
        },
        (i % 4 == 1).to_string(),
        (i as f64 / 8.0).to_string(),
        (u64::from(u32::MAX) - i).to_string(),
        null,
    ]
}

/// Writes rows `rows` as one row group, handed over in slices of `slice`.
fn write_group(file: &mut FileWriter, rows: std::ops::Range<u64>, slice: usize) {
    let mut writers = file.chunk_writers().unwrap();
    let all: Vec<u64> = rows.collect();
    for part in all.chunks(slice) {
        let levels = |every: u64| -> Vec<i16> { part.iter().map(|i| i16::from(i % every != 0)).collect() };
        let columns: Vec<(Values, Option<Vec<i16>>)> = vec![
            (Values::Int64(part.iter().map(|i| (i * 3) as i64).collect()), None),
            (
                Values::Text(
                    part.iter()
                        .map(|&i| ByteArray::from(expected(i)[1].clone()))
                        .collect(),
                ),
                None,
            ),
            (
                Values::Int32(
                    part.iter()
                        .filter(|i| *i % 3 != 0)
                        .map(|i| (i % 200) as i32)
                        .collect(),
                ),
                Some(levels(3)),
            ),
            (
                Values::Text(
                    part.iter()
                        .filter(|i| *i % 7 != 0)
                        .map(|&i| ByteArray::from(expected(i)[3].as_str()))
                        .collect(),
                ),
                Some(levels(7)),
            ),
            (Values::Bool(part.iter().map(|i| i % 4 == 1).collect()), None),
            (
                Values::Double(part.iter().map(|&i| i as f64 / 8.0).collect()),
                None,
            ),
            (
                Values::Int32(part.iter().map(|&i| (u32::MAX - i as u32) as i32).collect()),
                None,
            ),
            (Values::Int32(Vec::new()), Some(vec![0; part.len()])),
        ];
        for (w, (values, levels)) in writers.iter_mut().zip(&columns) {
            w.write(values, levels.as_deref()).unwrap();
        }
    }
    let chunks = writers.into_iter().map(|w| w.finish().unwrap()).collect();
    file.append(chunks).unwrap();
}

fn cell(c: &Cell) -> String {
    match c {
        Cell::Null => "null".to_string(),
        Cell::ULong(x) => x.to_string(),
        Cell::UInt(x) => x.to_string(),
        Cell::UShort(x) => x.to_string(),
        Cell::UByte(x) => x.to_string(),
        Cell::Str(s) => s.clone(),
        Cell::Bool(b) => b.to_string(),
        Cell::Double(d) => d.to_string(),
        other => panic!("{other:?}: a type this table does not have"),
    }
}

/// The data pages' encodings of column `c` of a row group, in order.
fn page_encodings(group: &dyn RowGroupReader, c: usize) -> (bool, Vec<Encoding>) {
    let mut dictionary = false;
    let mut data = Vec::new();
    for page in group.get_column_page_reader(c).unwrap() {
        match page.unwrap() {
            Page::DictionaryPage { .. } => dictionary = true,
            Page::DataPage { encoding, .. } => data.push(encoding),
            other => panic!("a {:?} page", other.page_type()),
        }
    }
    (dictionary, data)
}

#[test]
fn every_row_and_what_the_footer_says() {
    // Over 100 lines on purpose: one file written, then every part of it read
    // back with another reader.
    let groups = [0..50_000, 50_000..50_003, 50_003..90_000];
    let metadata = vec![KeyValue::new("app.key".into(), "välue".into())];
    let mut file = FileWriter::new(table(), Properties::new(metadata).delta_strings("word")).unwrap();
    let mut out = Vec::new();
    for (k, g) in groups.iter().enumerate() {
        write_group(&mut file, g.clone(), [4096, 1, 65_536][k]);
        file.drain(&mut out).unwrap();
    }
    file.finish(&mut out).unwrap();

    let options = ReadOptionsBuilder::new().with_page_index().build();
    let reader = SerializedFileReader::new_with_options(Bytes::from(out), options).unwrap();
    let meta = reader.metadata();
    assert_eq!(meta.file_metadata().num_rows(), 90_000);
    let kv = meta.file_metadata().key_value_metadata().unwrap();
    assert_eq!(
        (kv[0].key.as_str(), kv[0].value.as_deref()),
        ("app.key", Some("välue"))
    );
    let columns = meta.file_metadata().schema_descr();
    let types: Vec<_> = columns
        .columns()
        .iter()
        .map(|c| (c.physical_type(), c.logical_type_ref().cloned()))
        .collect();
    let unsigned = |bits| Some(LogicalType::integer(bits, false));
    assert_eq!(types[0], (PhysicalType::INT64, unsigned(64)));
    assert_eq!(types[1], (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)));
    assert_eq!(types[2], (PhysicalType::INT32, unsigned(8)));
    assert_eq!(types[4], (PhysicalType::BOOLEAN, None));
    assert_eq!(types[5], (PhysicalType::DOUBLE, None));
    assert_eq!(types[6], (PhysicalType::INT32, unsigned(32)));
    assert!(columns.column(2).self_type().is_optional());
    assert!(!columns.column(1).self_type().is_optional());

    let mut i = 0;
    for row in reader.get_row_iter(None).unwrap() {
        let got: Vec<String> = row.unwrap().get_column_iter().map(|(_, c)| cell(c)).collect();
        assert_eq!(got, expected(i), "row {i}");
        i += 1;
    }
    assert_eq!(i, 90_000);

    let first = reader.get_row_group(0).unwrap();
    assert_eq!(meta.row_group(0).num_rows(), 50_000);
    // 50,000 rows: pages of 20,000 rows at most.
    let (_, id_pages) = page_encodings(first.as_ref(), 0);
    assert_eq!(id_pages, [Encoding::RLE_DICTIONARY; 3]);
    // The names' dictionary passes 1 MiB (about 40 bytes a name): the
    // pages before keep their keys, the rest is PLAIN.
    let (dictionary, names) = page_encodings(first.as_ref(), 1);
    assert!(dictionary);
    assert_eq!(names.first(), Some(&Encoding::RLE_DICTIONARY), "{names:?}");
    assert_eq!(names.last(), Some(&Encoding::PLAIN), "{names:?}");
    let (dictionary, words) = page_encodings(first.as_ref(), 3);
    assert!(!dictionary);
    assert!(
        words.iter().all(|&e| e == Encoding::DELTA_BYTE_ARRAY),
        "{words:?}"
    );
    let (dictionary, flags) = page_encodings(first.as_ref(), 4);
    assert!(!dictionary && flags.iter().all(|&e| e == Encoding::PLAIN));

    let stats = |g: usize, c: usize| meta.row_group(g).column(c).statistics().unwrap().clone();
    match stats(0, 0) {
        Statistics::Int64(s) => assert_eq!((s.min_opt(), s.max_opt()), (Some(&0), Some(&149_997))),
        other => panic!("{other:?}"),
    }
    // Unsigned order: u32::MAX - i is stored as a negative i32, and is
    // still the greatest.
    match stats(0, 6) {
        Statistics::Int32(s) => assert_eq!(
            (s.min_opt().map(|&v| v as u32), s.max_opt().map(|&v| v as u32)),
            (Some(u32::MAX - 49_999), Some(u32::MAX))
        ),
        other => panic!("{other:?}"),
    }
    match stats(0, 3) {
        Statistics::ByteArray(s) => {
            assert_eq!(s.min_opt().unwrap().as_ref(), b"a");
            assert_eq!(s.max_opt().unwrap().as_ref(), b"e");
            assert_eq!(s.null_count_opt(), Some(7143));
        }
        other => panic!("{other:?}"),
    }
    match stats(1, 2) {
        Statistics::Int32(s) => assert_eq!(
            (s.min_opt(), s.max_opt(), s.null_count_opt()),
            (Some(&0), Some(&2), Some(1))
        ),
        other => panic!("{other:?}"),
    }
    let nothing = stats(2, 7);
    assert_eq!(nothing.null_count_opt(), Some(39_997));
    assert!(nothing.min_bytes_opt().is_none());

    // The page index: where each page is and what it holds.
    let index = meta.page_index_for_row_group(0);
    let ids = index.offset_index(0).unwrap().page_locations();
    let firsts: Vec<i64> = ids.iter().map(|p| p.first_row_index).collect();
    assert_eq!(firsts, [0, 20_000, 40_000]);
    let chunk = meta.row_group(0).column(0);
    assert_eq!(ids[0].offset, chunk.data_page_offset());
    let sizes: i64 = ids.iter().map(|p| i64::from(p.compressed_page_size)).sum();
    assert_eq!(
        ids[0].offset + sizes,
        chunk.byte_range().0 as i64 + chunk.compressed_size()
    );
    match index.column_index(0).unwrap() {
        ColumnIndexMetaData::INT64(c) => {
            let least: Vec<i64> = (0..3).map(|p| *c.min_value(p).unwrap()).collect();
            let greatest: Vec<i64> = (0..3).map(|p| *c.max_value(p).unwrap()).collect();
            assert_eq!(least, [0, 60_000, 120_000]);
            assert_eq!(greatest, [59_997, 119_997, 149_997]);
        }
        other => panic!("{other:?}"),
    }
    assert!(index.column_index(0).unwrap().is_sorted());
    match index.column_index(2).unwrap() {
        ColumnIndexMetaData::INT32(c) => {
            assert_eq!(c.null_count(0), Some(6_667));
            assert_eq!((c.min_value(1), c.max_value(1)), (Some(&0), Some(&199)));
        }
        other => panic!("{other:?}"),
    }
    let nothing = index.column_index(7).unwrap();
    assert!((0..3).all(|p| nothing.is_null_page(p)));
}

#[test]
fn a_file_of_no_rows_and_an_empty_row_group() {
    let table = schema(vec![field("x", Kind::Text, true), field("y", Kind::U16, false)]).unwrap();
    let mut out = Vec::new();
    FileWriter::new(table.clone(), Properties::new(Vec::new()))
        .unwrap()
        .finish(&mut out)
        .unwrap();
    let reader = SerializedFileReader::new(Bytes::from(out)).unwrap();
    assert_eq!(reader.metadata().file_metadata().num_rows(), 0);
    assert_eq!(reader.num_row_groups(), 0);

    let mut file = FileWriter::new(table, Properties::new(Vec::new())).unwrap();
    let chunks = file
        .chunk_writers()
        .unwrap()
        .into_iter()
        .map(|w| w.finish().unwrap())
        .collect();
    file.append(chunks).unwrap();
    let mut out = Vec::new();
    file.finish(&mut out).unwrap();
    let reader = SerializedFileReader::new(Bytes::from(out)).unwrap();
    assert_eq!(reader.num_row_groups(), 1);
    assert_eq!(reader.get_row_iter(None).unwrap().count(), 0);
}

#[test]
fn mistakes_are_refused_with_the_column_named() {
    let table = schema(vec![field("x", Kind::Text, true), field("y", Kind::U16, false)]).unwrap();
    let file = FileWriter::new(table.clone(), Properties::new(Vec::new())).unwrap();
    let mut w = file.chunk_writers().unwrap();
    let text = Values::Text(vec![ByteArray::from("a")]);
    let e = w[0].write(&text, None).unwrap_err().to_string();
    assert!(e.contains("\"x\"") && e.contains("definition levels"), "{e}");
    let e = w[0].write(&text, Some(&[1, 1])).unwrap_err().to_string();
    assert!(e.contains("1 values for 2 rows"), "{e}");
    let e = w[1].write(&text, None).unwrap_err().to_string();
    assert!(e.contains("\"y\""), "{e}");
    let e = w[1]
        .write(&Values::Int32(vec![1]), Some(&[1]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("required"), "{e}");

    let e = schema(vec![field("x", Kind::Text, true), field("x", Kind::U8, false)]).unwrap_err();
    assert!(
        e.to_string().contains("two Parquet columns are named \"x\""),
        "{e}"
    );
    let e = FileWriter::new(table.clone(), Properties::new(Vec::new()).delta_strings("y"))
        .err()
        .unwrap();
    assert!(e.to_string().contains("\"y\""), "{e}");

    // Chunks of different lengths, or out of order, are not a row group.
    let mut file = FileWriter::new(table, Properties::new(Vec::new())).unwrap();
    let mut w = file.chunk_writers().unwrap();
    w[1].write(&Values::Int32(vec![1, 2]), None).unwrap();
    let chunks: Vec<_> = w.into_iter().map(|w| w.finish().unwrap()).collect();
    let e = file.append(chunks).unwrap_err().to_string();
    assert!(e.contains("\"y\" has 2 rows in a row group of 0"), "{e}");
    let mut chunks: Vec<_> = file
        .chunk_writers()
        .unwrap()
        .into_iter()
        .map(|w| w.finish().unwrap())
        .collect();
    chunks.reverse();
    assert!(file.append(chunks).is_err());
}
