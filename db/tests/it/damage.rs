//! The formats of today and of the version before: a damaged file of
//! either (a bit flipped anywhere, cut short anywhere) is refused on
//! opening or when its blocks are read, never read as other answers; an
//! old file converts to today's with every answer the same.

use std::path::Path;

use topitop_db::packed::{self, pack_tier, write_packed, PackedDb, PackedHeader, PackedTier};
use topitop_db::tiered::{self, write_tiered_in, TieredDb, TieredMeta};
use topitop_game_api::{Record, Value};

/// Values with runs and noise, so that blocks compress and differ.
fn trits(size: u64, salt: u64) -> Vec<u8> {
    (0..size)
        .map(|i| {
            if (i / 37 + salt).is_multiple_of(5) {
                ((i * i + salt) % 3) as u8
            } else {
                0
            }
        })
        .collect()
}

/// A value database of game `g`, variant `v`, of the tiers `tiers` made
/// of `data`, in format `version`, written at `path`.
pub(crate) fn write_header(path: &Path, version: u16, tiers: Vec<PackedTier>, data: &[u8]) -> PackedHeader {
    let header = PackedHeader {
        version,
        game: "g".into(),
        variant: "v".into(),
        program: "test".into(),
        symmetric: false,
        max_remoteness: 3,
        dictionary: Vec::new(),
        tiers,
        blocks: Vec::new(),
    };
    write_packed(path, header, data).unwrap()
}

fn write_values(path: &Path, version: u16) -> PackedHeader {
    let mut data = Vec::new();
    let mut tiers = Vec::new();
    // Enough values for the writer to train a dictionary on (64 blocks).
    for (k, size) in [3u64, 60_000, 700_001].into_iter().enumerate() {
        tiers.push(pack_tier(
            format!("t{k}"),
            &trits(size, k as u64),
            size,
            &mut data,
        ));
    }
    write_header(path, version, tiers, &data)
}

fn records(size: u64, salt: u64) -> Vec<Record> {
    (0..size)
        .map(|i| match (i / 11 + salt) % 7 {
            0..=2 => Record::UNSOLVED,
            3 => Record::new(Value::Win, 1 + (i % 9) as u16),
            4 => Record::new(Value::Lose, (i % 4) as u16 * 2),
            5 => Record::new(Value::Draw, 0),
            _ => Record::new(Value::Tie, 3),
        })
        .collect()
}

fn write_records(path: &Path, version: u16) {
    let tiers: Vec<(String, Vec<Record>)> = [5u64, 70_000, 300]
        .into_iter()
        .enumerate()
        .map(|(k, n)| (format!("t{k}"), records(n, k as u64)))
        .collect();
    let refs: Vec<(String, &[Record])> = tiers.iter().map(|(n, r)| (n.clone(), r.as_slice())).collect();
    let meta = TieredMeta {
        game: "g",
        variant: "v",
        program: "test",
        symmetric: false,
        level: 3,
    };
    write_tiered_in(path, &meta, &refs, version).unwrap();
}

/// Every value of the file at `path`, or the first error met opening it
/// or reading any of its blocks.
fn every_value(path: &Path) -> Result<Vec<Vec<Value>>, String> {
    let db = PackedDb::open(path).map_err(|e| e.to_string())?;
    db.verify_blocks(|_, _| {}).map_err(|e| e.to_string())?;
    (0..db.header().tiers.len())
        .map(|t| db.tier_values(t).map_err(|e| e.to_string()))
        .collect()
}

/// Every record of the file at `path`, or the first error.
fn every_record(path: &Path) -> Result<Vec<(String, Vec<Record>)>, String> {
    let db = TieredDb::open(path).map_err(|e| e.to_string())?;
    db.verify_blocks(|_, _| {}).map_err(|e| e.to_string())?;
    db.tiers().map_err(|e| e.to_string())
}

/// Flips one bit at many places and cuts the file at many lengths: each
/// damaged copy is refused (with the file named) or, where the flipped
/// bit is one no check covers, reads exactly as the intact file.
fn damage_is_caught<T: PartialEq + std::fmt::Debug>(path: &Path, read: impl Fn(&Path) -> Result<T, String>) {
    let intact = read(path).unwrap();
    let bytes = std::fs::read(path).unwrap();
    let damaged = path.with_extension("damaged.db");
    let name = damaged.display().to_string();
    let places: Vec<usize> = (0..bytes.len()).step_by(bytes.len() / 300 + 1).collect();
    let mut refused = 0;
    for &at in &places {
        let mut copy = bytes.clone();
        copy[at] ^= 1 << (at % 8);
        std::fs::write(&damaged, &copy).unwrap();
        match read(&damaged) {
            Err(e) => {
                assert!(e.contains(&name), "byte {at}: {e}");
                refused += 1;
            }
            Ok(other) => assert_eq!(other, intact, "byte {at} changed an answer"),
        }
    }
    // Every byte of these formats is under a checksum.
    assert_eq!(refused, places.len());
    for cut in (0..bytes.len()).step_by(bytes.len() / 100 + 1) {
        std::fs::write(&damaged, &bytes[..cut]).unwrap();
        let e = read(&damaged)
            .err()
            .unwrap_or_else(|| panic!("cut to {cut} bytes read"));
        assert!(e.contains(&name), "cut to {cut}: {e}");
    }
}

#[test]
fn a_damaged_value_database_of_either_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for version in packed::KNOWN {
        let path = dir.path().join(format!("values{version}.db"));
        let written = write_values(&path, version);
        assert_eq!(written.dictionary.is_empty(), version == 1);
        damage_is_caught(&path, every_value);
    }
}

#[test]
fn a_damaged_records_database_of_either_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for version in tiered::KNOWN {
        let path = dir.path().join(format!("records{version}.db"));
        write_records(&path, version);
        damage_is_caught(&path, every_record);
    }
}

#[test]
fn old_files_convert_with_every_answer_the_same_and_smaller() {
    let dir = tempfile::tempdir().unwrap();
    let (values, recs) = (dir.path().join("values.db"), dir.path().join("records.db"));
    write_values(&values, 1);
    write_records(&recs, 1);
    let (old_values, old_records) = (every_value(&values).unwrap(), every_record(&recs).unwrap());
    let old_len = |p: &Path| std::fs::metadata(p).unwrap().len();
    let (values_len, records_len) = (old_len(&values), old_len(&recs));
    // In place: the old file replaced, nothing left beside it.
    for (path, version) in [(&values, packed::VERSION), (&recs, tiered::VERSION)] {
        let done = topitop_db::convert::convert(path, path, None, &|_, _| {}).unwrap();
        assert_eq!((done.from_version, done.to_version), (1, version));
        assert!(done.new_bytes < done.old_bytes, "{done:?}");
        let again = topitop_db::convert::convert(path, path, None, &|_, _| {}).unwrap();
        assert_eq!(again.from_version, again.to_version);
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    assert_eq!(every_value(&values).unwrap(), old_values);
    assert_eq!(every_record(&recs).unwrap(), old_records);
    assert!(
        old_len(&values) < values_len / 2,
        "{} of {values_len}",
        old_len(&values)
    );
    assert!(
        old_len(&recs) < records_len,
        "{} of {records_len}",
        old_len(&recs)
    );
    assert_eq!(PackedDb::open(&values).unwrap().header().version, packed::VERSION);
    assert_eq!(TieredDb::open(&recs).unwrap().header().version, tiered::VERSION);
    // A file of no shared format is refused, named.
    let other = dir.path().join("other.db");
    std::fs::write(&other, b"TOPITOPD and more").unwrap();
    let e = topitop_db::convert::convert(&other, &other, None, &|_, _| {}).unwrap_err();
    assert!(e.to_string().contains("other.db"), "{e}");
}

#[test]
fn a_conversion_never_replaces_what_is_not_a_file_and_follows_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("values.db");
    write_values(&old, 1);
    // A directory and a FIFO where the new file should go: refused, and
    // left as they were (an atomic rename would put a file in their place).
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let mut places = vec![sub];
    if made.is_ok_and(|s| s.success()) {
        places.push(fifo);
    }
    for place in places {
        let before = std::fs::symlink_metadata(&place).unwrap().file_type();
        let e = topitop_db::convert::convert(&old, &place, None, &|_, _| {}).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert_eq!(std::fs::symlink_metadata(&place).unwrap().file_type(), before);
    }
    // A link to a file: the file it names is replaced, the link kept.
    let real = dir.path().join("real.db");
    std::fs::write(&real, b"").unwrap();
    let link = dir.path().join("link.db");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    topitop_db::convert::convert(&old, &link, None, &|_, _| {}).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(every_value(&real).unwrap(), every_value(&old).unwrap());
}
