//! `topitop export --format parquet`, read back with the parquet crate and
//! compared row by row with the TSV export of the same database.

use crate::support;

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use parquet::basic::{Compression, Encoding, LogicalType, Type as PhysicalType};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::DataType;
use parquet::file::metadata::ParquetMetaData;
use parquet::file::reader::{FileReader, SerializedFileReader};

use support::run::{stderr, stdout, temp_dir, topitop};

/// A position row: position, tier, value, remoteness (none for draws).
/// Position, tier, value, remoteness, then the turn and the eight piece
/// counts.
type Row = (String, u64, String, Option<u16>, Vec<u8>);

/// The header of every positions table.
const HEADER: &str = "position\ttier\tvalue\tremoteness\tturn\tboard_blue_buckets\tboard_red_buckets\tboard_smalls\tboard_larges\tleft_blue_buckets\tleft_red_buckets\tleft_smalls\tleft_larges";

/// A summary row: tier (`all` or a number), value, remoteness, count.
type SummaryRow = (String, String, Option<u16>, u64);

/// Budget 2/0/3/2: wins, losses and draws in 410,952 positions, which
/// span five row groups of [`GROUP_ROWS`] (and one of the default size).
const BUDGET: &str = "2/0/3/2";

/// The row groups' size the tests ask for, so that a small game spans
/// several (the default, 2^20 rows, would take a game five times larger).
const GROUP_ROWS: usize = 100_000;

/// The directory and database of the game every test exports, solved once.
fn game() -> &'static (PathBuf, String) {
    static GAME: OnceLock<(PathBuf, String)> = OnceLock::new();
    GAME.get_or_init(|| {
        let dir = temp_dir("parquet-game");
        let o = topitop(&["solve", "--budget", BUDGET, "--out", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let db = dir.join("topitop_v1_0_2-0-3-2.db");
        assert!(db.is_file(), "{}", stdout(&o));
        (dir, db.to_str().unwrap().to_string())
    })
}

/// The rows of the TSV export of the whole game, made once.
fn all_rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let tsv = game().0.join("all.tsv");
        export(&[], &tsv);
        tsv_rows(&tsv)
    })
}

/// Runs `export` on the game with `args`, writing to `out`: Parquet's
/// positions table in row groups of [`GROUP_ROWS`].
fn export(args: &[&str], out: &Path) {
    let mut all = vec!["export", "--db", &game().1, "-o", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let group_rows = GROUP_ROWS.to_string();
    if args.contains(&"parquet") && !args.contains(&"--summary") {
        all.extend(["--row-group-rows", &group_rows]);
    }
    let o = topitop(&all);
    assert!(o.status.success(), "export {args:?}: {}", stderr(&o));
}

/// The rows of a TSV export (after its header line).
fn tsv_rows(path: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(HEADER));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 13, "{l}");
            let rem = (!f[3].is_empty()).then(|| f[3].parse().unwrap());
            let counts = f[4..].iter().map(|n| n.parse().unwrap()).collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].to_string(),
                rem,
                counts,
            )
        })
        .collect()
}

/// A column's type as a reader sees it: physical type and logical type.
type ColumnType = (PhysicalType, Option<LogicalType>);

/// A cell of a column read back: text, or a whole number in the type
/// the column stores it as.
#[derive(Clone, Debug)]
enum Cell {
    Text(String),
    Int(i64),
}

/// A Parquet file: its schema (name, type and nullability of each
/// column), footer metadata, key-value metadata and the cells of each
/// column, row groups end to end, `None` for a null.
struct ParquetFile {
    schema: Vec<(String, ColumnType, bool)>,
    meta: ParquetMetaData,
    kv: HashMap<String, String>,
    cells: HashMap<String, Vec<Option<Cell>>>,
}

/// Every value of a column chunk, `None` for a null (a definition level
/// of 0) when `nullable`.
fn read_chunk<T: DataType>(reader: &mut ColumnReaderImpl<T>, nullable: bool) -> Vec<Option<T::T>> {
    let (mut values, mut levels) = (Vec::new(), Vec::new());
    loop {
        let (records, _, _) = reader
            .read_records(1 << 16, nullable.then_some(&mut levels), None, &mut values)
            .unwrap();
        if records == 0 {
            break;
        }
    }
    if !nullable {
        return values.into_iter().map(Some).collect();
    }
    let mut values = values.into_iter();
    let cells = levels
        .iter()
        .map(|&l| (l == 1).then(|| values.next().unwrap()))
        .collect();
    assert!(values.next().is_none(), "more values than defined cells");
    cells
}

fn read_parquet(path: &Path) -> ParquetFile {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let meta = reader.metadata().clone();
    let descr = meta.file_metadata().schema_descr();
    let schema = descr
        .columns()
        .iter()
        .map(|c| {
            let ty = (c.physical_type(), c.logical_type_ref().cloned());
            (c.name().to_string(), ty, c.max_def_level() > 0)
        })
        .collect::<Vec<_>>();
    let kv = meta
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
        .map(|kv| (kv.key.clone(), kv.value.clone().unwrap_or_default()))
        .collect();
    let mut cells: HashMap<String, Vec<Option<Cell>>> = HashMap::new();
    for g in 0..reader.num_row_groups() {
        let group = reader.get_row_group(g).unwrap();
        for (i, (name, _, nullable)) in schema.iter().enumerate() {
            let column: Vec<Option<Cell>> = match group.get_column_reader(i).unwrap() {
                ColumnReader::ByteArrayColumnReader(mut r) => read_chunk(&mut r, *nullable)
                    .into_iter()
                    .map(|v| v.map(|v| Cell::Text(v.as_utf8().unwrap().to_string())))
                    .collect(),
                ColumnReader::Int32ColumnReader(mut r) => read_chunk(&mut r, *nullable)
                    .into_iter()
                    .map(|v| v.map(|v| Cell::Int(i64::from(v))))
                    .collect(),
                ColumnReader::Int64ColumnReader(mut r) => read_chunk(&mut r, *nullable)
                    .into_iter()
                    .map(|v| v.map(Cell::Int))
                    .collect(),
                _ => panic!("{name}: a column of an unexpected type"),
            };
            cells.entry(name.clone()).or_default().extend(column);
        }
    }
    ParquetFile {
        schema,
        meta,
        kv,
        cells,
    }
}

impl ParquetFile {
    /// The text cells of the column `name`.
    fn text(&self, name: &str) -> Vec<Option<String>> {
        self.cells[name]
            .iter()
            .map(|c| {
                c.as_ref().map(|c| match c {
                    Cell::Text(t) => t.clone(),
                    Cell::Int(_) => panic!("{name}: numbers, not text"),
                })
            })
            .collect()
    }

    /// The number cells of the column `name`, in the type `T` its
    /// logical type names (checked: each fits).
    fn numbers<T: TryFrom<i64>>(&self, name: &str) -> Vec<Option<T>> {
        self.cells[name]
            .iter()
            .map(|c| {
                c.as_ref().map(|c| match c {
                    Cell::Int(n) => T::try_from(*n).unwrap_or_else(|_| panic!("{name}: {n} out of range")),
                    Cell::Text(_) => panic!("{name}: text, not numbers"),
                })
            })
            .collect()
    }

    /// The number of rows.
    fn num_rows(&self) -> usize {
        self.cells.values().next().map_or(0, Vec::len)
    }
}

/// The cells of a column that has no nulls.
fn required<T>(cells: Vec<Option<T>>, name: &str) -> Vec<T> {
    cells
        .into_iter()
        .map(|c| c.unwrap_or_else(|| panic!("a null in {name}")))
        .collect()
}

/// The value names of the `value` column.
fn value_names(file: &ParquetFile) -> Vec<String> {
    required(file.text("value"), "value")
}

fn remoteness(file: &ParquetFile) -> Vec<Option<u16>> {
    file.numbers("remoteness")
}

/// The rows of a positions file, and its `turn` column.
fn parquet_rows(file: &ParquetFile) -> (Vec<Row>, Vec<u8>) {
    let pos = required(file.text("position"), "position");
    // A u64 column holds its numbers' bits in an i64.
    let tier: Vec<u64> = required(file.numbers::<i64>("tier"), "tier")
        .into_iter()
        .map(|t| t as u64)
        .collect();
    let turns: Vec<u8> = required(file.numbers("turn"), "turn");
    let values = value_names(file);
    let rems = remoteness(file);
    let counts: Vec<Vec<u8>> = HEADER
        .split('\t')
        .skip(4)
        .map(|name| required(file.numbers(name), name))
        .collect();
    let rows = (0..file.num_rows())
        .map(|i| {
            (
                pos[i].clone(),
                tier[i],
                values[i].clone(),
                rems[i],
                counts.iter().map(|c| c[i]).collect(),
            )
        })
        .collect();
    (rows, turns)
}

/// Text: a BYTE_ARRAY of logical type STRING.
fn utf8() -> ColumnType {
    (PhysicalType::BYTE_ARRAY, Some(LogicalType::String))
}

/// An unsigned integer of `bits` bits: INT32, or INT64 for 64.
fn uint(bits: i8) -> ColumnType {
    let physical = if bits == 64 {
        PhysicalType::INT64
    } else {
        PhysicalType::INT32
    };
    (physical, Some(LogicalType::integer(bits, false)))
}

/// `value`: text, dictionary encoded ([`assert_value_dictionary`]).
fn value_type() -> ColumnType {
    utf8()
}

/// Every row group stores `value` as keys into a dictionary of names.
fn assert_value_dictionary(file: &ParquetFile) {
    let index = file.schema.iter().position(|c| c.0 == "value").unwrap();
    for g in file.meta.row_groups() {
        let encodings: Vec<Encoding> = g.column(index).encodings().collect();
        assert!(
            encodings.contains(&Encoding::RLE_DICTIONARY),
            "value: {encodings:?}"
        );
    }
}

/// Name, type and nullability of each column.
fn columns(schema: &[(String, ColumnType, bool)]) -> Vec<(String, ColumnType, bool)> {
    schema.to_vec()
}

#[test]
fn every_row_matches_the_tsv_export() {
    let dir = temp_dir("parquet-whole");
    let pq = dir.join("all.parquet");
    export(&["--format", "parquet"], &pq);
    let want = all_rows();
    let file = read_parquet(&pq);

    assert_eq!(
        columns(&file.schema),
        [
            ("position".to_string(), utf8(), false),
            ("tier".to_string(), uint(64), false),
            ("value".to_string(), value_type(), false),
            ("remoteness".to_string(), uint(16), true),
            ("turn".to_string(), uint(8), false),
            ("board_blue_buckets".to_string(), uint(8), false),
            ("board_red_buckets".to_string(), uint(8), false),
            ("board_smalls".to_string(), uint(8), false),
            ("board_larges".to_string(), uint(8), false),
            ("left_blue_buckets".to_string(), uint(8), false),
            ("left_red_buckets".to_string(), uint(8), false),
            ("left_smalls".to_string(), uint(8), false),
            ("left_larges".to_string(), uint(8), false),
        ]
    );
    assert_value_dictionary(&file);
    let (rows, turns) = parquet_rows(&file);
    assert_eq!(rows.len(), want.len());
    // Same positions in the same order, with the same tier, value and
    // remoteness (compared whole, then the first difference for the message).
    if rows != want {
        let i = rows.iter().zip(want.iter()).position(|(a, b)| a != b).unwrap();
        panic!("row {i}: parquet {:?}, tsv {:?}", rows[i], want[i]);
    }
    // The game has every kind of row this test means to check.
    let count = |v: &str| rows.iter().filter(|r| r.2 == v).count();
    assert!(count("win") > 0 && count("lose") > 0 && count("draw") > 0);
    // Remoteness is null exactly for draws.
    assert!(rows.iter().all(|r| (r.2 == "draw") == r.3.is_none()));
    // `turn` is the position string's first digit.
    for (r, t) in rows.iter().zip(&turns) {
        assert_eq!(r.0.as_bytes()[0], b'0' + t, "{r:?} turn {t}");
    }
    assert!(turns.contains(&1) && turns.contains(&2));

    // Row groups of the size asked for (then the rest), zstd pages,
    // positions as prefix lengths and suffixes.
    let groups = file.meta.row_groups();
    assert_eq!(groups.len(), rows.len().div_ceil(GROUP_ROWS));
    assert!(groups.len() >= 2, "the game spans several row groups");
    assert_eq!(groups[0].num_rows(), GROUP_ROWS as i64);
    let last = groups.last().unwrap().num_rows() as usize;
    assert_eq!(last, rows.len() - (groups.len() - 1) * GROUP_ROWS);
    for g in groups {
        assert!(g.column(0).encodings().any(|e| e == Encoding::DELTA_BYTE_ARRAY));
        for c in g.columns() {
            assert!(
                matches!(c.compression(), Compression::ZSTD(_)),
                "{:?}",
                c.compression()
            );
        }
    }

    // What the file holds, for a reader without the command line.
    for (k, v) in [
        ("topitop.version", env!("CARGO_PKG_VERSION")),
        ("topitop.rules", "v1/0"),
        ("topitop.budget", BUDGET),
        ("topitop.table", "positions"),
        ("topitop.tier", "all"),
        ("topitop.values", "all"),
        (
            "topitop.value_view",
            "the value of the position for the player to move in it (turn)",
        ),
    ] {
        assert_eq!(file.kv.get(k).map(String::as_str), Some(v), "{k}: {:?}", file.kv);
    }
    assert!(file.kv["topitop.solver"].starts_with("topitop "), "{:?}", file.kv);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn filters_keep_the_rows_the_tsv_export_keeps() {
    let dir = temp_dir("parquet-filter");
    let rows = all_rows();
    // The tier with the most wins.
    let mut wins: HashMap<u64, usize> = HashMap::new();
    for r in rows.iter().filter(|r| r.2 == "win") {
        *wins.entry(r.1).or_default() += 1;
    }
    let (&tier, _) = wins.iter().max_by_key(|&(t, n)| (n, t)).unwrap();
    let tier_text = tier.to_string();

    for (filter, tier_kept, values_kept) in [
        (vec!["--value", "win"], "all", "win"),
        (vec!["--tier", &tier_text], tier_text.as_str(), "all"),
        (
            vec!["--tier", &tier_text, "--value", "win"],
            tier_text.as_str(),
            "win",
        ),
        (vec!["--value", "draw,lose"], "all", "lose,draw"),
    ] {
        let (tsv, pq) = (dir.join("f.tsv"), dir.join("f.parquet"));
        export(&filter, &tsv);
        let mut args = filter.clone();
        args.extend(["--format", "parquet"]);
        export(&args, &pq);
        let want = tsv_rows(&tsv);
        let file = read_parquet(&pq);
        let (got, _) = parquet_rows(&file);
        assert!(!got.is_empty(), "{filter:?}");
        assert_eq!(got, want, "{filter:?}");
        // And they are the whole table's rows that pass the filter.
        let keep = |r: &&Row| {
            (tier_kept == "all" || r.1 == tier)
                && (values_kept == "all" || values_kept.split(',').any(|v| v == r.2))
        };
        let expected: Vec<Row> = rows.iter().filter(keep).cloned().collect();
        assert_eq!(got, expected, "{filter:?}");
        assert_eq!(file.kv["topitop.tier"], tier_kept, "{filter:?}");
        assert_eq!(file.kv["topitop.values"], values_kept, "{filter:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_summary_is_the_tsv_summary_with_types() {
    let dir = temp_dir("parquet-summary");
    let (tsv, pq) = (dir.join("s.tsv"), dir.join("s.parquet"));
    export(&["--summary"], &tsv);
    export(&["--summary", "--format", "parquet"], &pq);
    let text = std::fs::read_to_string(&tsv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("tier\tvalue\tremoteness\tcount"));
    let want: Vec<SummaryRow> = lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let rem = (!f[2].is_empty()).then(|| f[2].parse().unwrap());
            (f[0].to_string(), f[1].to_string(), rem, f[3].parse().unwrap())
        })
        .collect();

    let file = read_parquet(&pq);
    assert_eq!(
        columns(&file.schema),
        [
            ("tier".to_string(), utf8(), false),
            ("value".to_string(), value_type(), false),
            ("remoteness".to_string(), uint(16), true),
            ("count".to_string(), uint(64), false),
        ]
    );
    assert_value_dictionary(&file);
    let tier = required(file.text("tier"), "tier");
    // A u64 column holds its numbers' bits in an i64.
    let count: Vec<u64> = required(file.numbers::<i64>("count"), "count")
        .into_iter()
        .map(|n| n as u64)
        .collect();
    let values = value_names(&file);
    let rems = remoteness(&file);
    let got: Vec<SummaryRow> = (0..file.num_rows())
        .map(|i| (tier[i].clone(), values[i].clone(), rems[i], count[i]))
        .collect();
    assert!(got.iter().any(|r| r.0 == "all") && got.iter().any(|r| r.0 != "all"));
    assert!(got.iter().any(|r| r.1 == "draw" && r.2.is_none()));
    assert_eq!(got, want);
    // The `all` rows add up to every position.
    let positions: u64 = got.iter().filter(|r| r.0 == "all").map(|r| r.3).sum();
    assert_eq!(positions, all_rows().len() as u64);
    assert_eq!(file.kv["topitop.table"], "summary");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_file_is_the_same_through_a_pipe_and_on_any_number_of_threads() {
    let dir = temp_dir("parquet-pipe");
    let pq = dir.join("a.parquet");
    export(&["--format", "parquet"], &pq);
    let file = std::fs::read(&pq).unwrap();
    assert!(file.starts_with(b"PAR1") && file.ends_with(b"PAR1"));
    // Standard output (a pipe here, not a terminal) gets the same bytes,
    // with `-o -` and without -o.
    let group_rows = GROUP_ROWS.to_string();
    for out in [&["-o", "-"][..], &[]] {
        let mut args = vec!["export", "--db", &game().1, "--format", "parquet"];
        args.extend(["--row-group-rows", &group_rows]);
        args.extend_from_slice(out);
        let o = topitop(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            o.stdout == file,
            "{out:?}: {} bytes, not the file's {}",
            o.stdout.len(),
            file.len()
        );
    }
    // One worker writes each row group as soon as it is full, instead of
    // two at a time: the same file.
    let one = dir.join("one.parquet");
    let o = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(["export", "--db", &game().1, "--format", "parquet", "-o"])
        .arg(&one)
        .args(["--row-group-rows", &group_rows])
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::read(&one).unwrap() == file,
        "one thread wrote another file"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Without `--row-group-rows`, row groups of 2^20 rows (the game fits in
/// one); the option takes 1 to 2^24 rows and only where it applies.
#[test]
fn row_groups_are_a_million_rows_unless_asked() {
    let dir = temp_dir("parquet-groups");
    let pq = dir.join("default.parquet");
    let o = topitop(&[
        "export",
        "--db",
        &game().1,
        "--format",
        "parquet",
        "-o",
        pq.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let file = read_parquet(&pq);
    let groups = file.meta.row_groups();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].num_rows() as usize, all_rows().len());
    assert!(all_rows().len() < 1 << 20);

    let db = game().1.as_str();
    let out = dir.join("bad.parquet");
    let out = out.to_str().unwrap();
    for (args, said) in [
        (
            vec!["--format", "parquet", "--row-group-rows", "0"],
            "from 1 to 16777216 rows",
        ),
        (
            vec!["--format", "parquet", "--row-group-rows", "16777217"],
            "from 1 to 16777216 rows",
        ),
        (
            vec!["--format", "parquet", "--row-group-rows", "many"],
            "\"many\" is not a number of rows",
        ),
        (vec!["--row-group-rows", "10"], "use it with --format parquet"),
        (
            vec!["--format", "gamesman-classic", "--row-group-rows", "10"],
            "use it with --format parquet",
        ),
        (
            vec!["--format", "parquet", "--summary", "--row-group-rows", "10"],
            "without --summary",
        ),
    ] {
        let mut all = vec!["export", "--db", db, "-o", out];
        all.extend_from_slice(&args);
        let o = topitop(&all);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(said), "{args:?}: {}", stderr(&o));
        assert!(!Path::new(out).exists(), "{args:?} left a file");
    }
    std::fs::remove_dir_all(&dir).ok();
}
