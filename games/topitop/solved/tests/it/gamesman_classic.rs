//! Reading GamesmanClassic's tier database files.

use std::io::Write;

use flate2::write::GzEncoder;
use games_topitop_rules::Value;
use games_topitop_solved::store::gamesman_classic::{find_tier_files, read_tier_file, GcRecord};

/// A tier file as GamesmanClassic writes it: the stream cut into gzip
/// members of 2^20 uncompressed bytes.
fn gc_file(version: u16, size: u64, records: &[u16]) -> Vec<u8> {
    let mut stream = version.to_be_bytes().to_vec();
    stream.extend_from_slice(&(size as u32).to_be_bytes());
    stream.extend_from_slice(&((size >> 32) as u32).to_be_bytes());
    for r in records {
        stream.extend_from_slice(&r.to_be_bytes());
    }
    let mut out = Vec::new();
    for member in stream.chunks(1 << 20) {
        let mut z = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(member).unwrap();
        out.extend(z.finish().unwrap());
    }
    out
}

#[test]
fn tier_files_are_found_and_read() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("data/mtopitop_0_tierdb");
    std::fs::create_dir_all(&sub).unwrap();
    // More than one gzip member: 600,000 records are 1.2 MB.
    let records: Vec<u16> = (0..600_000u32)
        .map(|i| (((i % 7) << 8) | (i % 4)) as u16)
        .collect();
    let path = sub.join("mtopitop_0_268501248_tierdb.dat.gz");
    std::fs::write(&path, gc_file(1, 600_000, &records)).unwrap();
    std::fs::write(sub.join("notes.txt"), "not a tier").unwrap();
    let found = find_tier_files(dir.path()).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].option, found[0].tier), (0, 268_501_248));
    assert_eq!(read_tier_file(&path, 600_000).unwrap(), records);
    let err = read_tier_file(&path, 600_001).unwrap_err().to_string();
    assert!(err.contains("tier size 600000, expected 600001"), "{err}");
    std::fs::write(&path, gc_file(2, 3, &[0, 0, 0])).unwrap();
    let err = read_tier_file(&path, 3).unwrap_err().to_string();
    assert!(err.contains("version 2"), "{err}");
    let mut cut = gc_file(1, 3, &[0, 0, 0]);
    cut.truncate(cut.len() - 9);
    std::fs::write(&path, cut).unwrap();
    assert!(read_tier_file(&path, 3).is_err());
    assert!(find_tier_files(&dir.path().join("nothing")).is_err());
}

#[test]
fn records_decode_like_gamesman_classic() {
    assert_eq!(GcRecord::from_bits(0), GcRecord::Undecided);
    assert_eq!(GcRecord::from_bits(5 << 8 | 1), GcRecord::Solved(Value::Win, 5));
    assert_eq!(
        GcRecord::from_bits(4 << 8 | 2 | 4),
        GcRecord::Solved(Value::Lose, 4)
    );
    assert_eq!(GcRecord::from_bits(3 << 8 | 3), GcRecord::Solved(Value::Tie, 3));
    assert_eq!(
        GcRecord::from_bits(255 << 8 | 3),
        GcRecord::Solved(Value::Draw, 255)
    );
}

/// A tier file that decompresses to far more than its tier holds is refused
/// after reading what the tier implies, not read to the end.
#[test]
fn an_oversized_tier_file_is_refused_without_reading_it_all() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mtopitop_0_0_tierdb.dat.gz");
    let size: u64 = 27;
    let mut z =
        flate2::write::GzEncoder::new(std::fs::File::create(&path).unwrap(), flate2::Compression::fast());
    z.write_all(&1u16.to_be_bytes()).unwrap();
    z.write_all(&(size as u32).to_be_bytes()).unwrap();
    z.write_all(&0u32.to_be_bytes()).unwrap();
    // 64 MiB of zeros where 54 bytes belong.
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..64 {
        z.write_all(&zeros).unwrap();
    }
    z.finish().unwrap();
    let err = read_tier_file(&path, size).unwrap_err().to_string();
    assert!(err.contains("55 record bytes for 27 records"), "{err}");
}
