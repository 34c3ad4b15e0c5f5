//! Damaged files give typed errors, never panics or wrong answers.

use crate::common;

use games_topitop_solved::{read_all, Database};
use topitop_db::DbError;

fn sample_bytes() -> (Vec<u8>, u64) {
    let sol = common::solved(0, "2/0/2/2", true);
    let dir = tempfile::tempdir().unwrap();
    let (path, db) = common::written(dir.path(), sol);
    let table = db.header().table_offset;
    (std::fs::read(path).unwrap(), table)
}

#[test]
fn the_intact_file_reads_completely() {
    let (bytes, _) = sample_bytes();
    assert!(read_all(&bytes).unwrap() > 10_000);
}

#[test]
fn every_truncation_is_refused_on_open() {
    let (bytes, _) = sample_bytes();
    let cuts: Vec<usize> = (0..200)
        .chain((200..bytes.len()).step_by(997))
        .chain([bytes.len() - 1])
        .collect();
    for cut in cuts {
        let err = Database::new("cut.db", bytes[..cut].to_vec()).err();
        let err = err.unwrap_or_else(|| panic!("a file cut to {cut} bytes opened"));
        assert!(err.to_string().starts_with("cut.db: "), "{err}");
        let DbError::File { source, .. } = &err else {
            panic!("{err:?}");
        };
        // Cut inside the magic: not a database; later: the header or the
        // table is missing bytes, or the header's checksum fails.
        let found = kind(source);
        let allowed: &[&str] = if cut < 8 {
            &["bad magic", "truncated"]
        } else {
            &["truncated", "checksum"]
        };
        assert!(allowed.contains(&found), "cut to {cut}: {found}: {err}");
    }
}

#[test]
fn a_flipped_bit_anywhere_is_caught() {
    let (bytes, table) = sample_bytes();
    let header_len = 128 + 8; // at least the fixed part and its checksum
    let places = [
        3,
        9,
        20,
        40,
        64,
        97,
        header_len + 5,
        header_len + 500,
        table as usize + 3,
        bytes.len() - 2,
    ];
    for at in places {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        let err = read_all(&bad).expect_err(&format!("a flipped bit at {at} went unnoticed"));
        // Every error names its file; the kind inside says what was found.
        let DbError::File { source, .. } = &err else {
            panic!("a flipped bit at {at}: the error names no file: {err:?}");
        };
        // The magic and the version are read before the header's checksum
        // (an unknown version may lay its header out differently).
        let expected = match at {
            3 => "bad magic",
            9 => "version",
            _ => "checksum",
        };
        assert_eq!(kind(source), expected, "a flipped bit at {at}: {err}");
    }
}

/// The kind of a database error, for comparing with what a test expects.
fn kind(e: &DbError) -> &'static str {
    match e {
        DbError::Io { .. } => "io",
        DbError::File { .. } => "file",
        DbError::BadMagic => "bad magic",
        DbError::UnsupportedVersion { .. } => "version",
        DbError::Truncated { .. } => "truncated",
        DbError::Checksum { .. } => "checksum",
        DbError::Corrupt { .. } => "corrupt",
        DbError::NotIndexable(_) => "not indexable",
        DbError::ForeignCheckpoint { .. } => "foreign checkpoint",
        DbError::OtherGame { .. } => "other game",
    }
}

#[test]
fn block_damage_names_the_block() {
    let (bytes, _) = sample_bytes();
    let mut bad = bytes.clone();
    bad[200] ^= 1;
    let db = Database::new("x.db", bad).unwrap();
    let err = db.verify_blocks(|_, _| {}).unwrap_err().to_string();
    assert!(
        err.contains("x.db") && err.contains("block 0") && err.contains("checksum"),
        "{err}"
    );
}

#[test]
fn a_file_whose_header_was_never_written_is_not_a_database() {
    // The writer puts the header in last: a crash before that leaves zeros.
    let (mut bytes, _) = sample_bytes();
    bytes[..136].fill(0);
    assert!(matches!(
        Database::new("crash.db", bytes),
        Err(DbError::File { source, .. }) if matches!(*source, DbError::BadMagic)
    ));
}

/// The same entry point as the cargo-fuzz target (db/fuzz), fed seeded
/// random damage: bytes overwritten, runs zeroed, the file cut or grown.
#[test]
fn fuzz_smoke() {
    let (bytes, _) = sample_bytes();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut refused = 0;
    for round in 0..1500 {
        let mut b = bytes.clone();
        match round % 4 {
            0 => {
                for _ in 0..1 + next() % 4 {
                    let at = (next() % b.len() as u64) as usize;
                    b[at] = next() as u8;
                }
            }
            1 => {
                let at = (next() % b.len() as u64) as usize;
                let len = (next() % 64) as usize;
                let end = (at + len).min(b.len());
                b[at..end].fill(0);
            }
            2 => b.truncate((next() % b.len() as u64) as usize),
            _ => {
                let at = (next() % 160) as usize;
                b[at] = next() as u8;
            }
        }
        if b == bytes {
            continue;
        }
        if read_all(&b).is_err() {
            refused += 1;
        }
    }
    // Nearly every change lands in a checksummed area and is refused; the
    // point is that none panicked and that damage is noticed.
    assert!(refused > 1400, "only {refused} damaged files refused");
}

/// The file with its header replaced by `change` applied to it (the
/// header's checksum recomputed, as a careful forger would).
fn with_header(bytes: &[u8], change: impl Fn(&mut games_topitop_solved::Header)) -> Vec<u8> {
    let mut header = games_topitop_solved::Header::decode(bytes).unwrap();
    change(&mut header);
    let encoded = header.encode();
    let mut out = bytes.to_vec();
    out[..encoded.len()].copy_from_slice(&encoded);
    out
}

/// A change to a header, made by a forger.
type Forgery = Box<dyn Fn(&mut games_topitop_solved::Header)>;

#[test]
fn header_figures_that_disagree_with_the_records_are_caught() {
    let (bytes, _) = sample_bytes();
    let cases: [(&[&str], Forgery); 3] = [
        (&["counts by value"], Box::new(|h| h.counts[0] += 1)),
        (
            &["counts by value", "the counts give"],
            Box::new(|h| h.counts.swap(1, 3)),
        ),
        (&["largest remoteness"], Box::new(|h| h.max_remoteness += 1)),
    ];
    for (what, change) in cases {
        let forged = with_header(&bytes, change);
        // Caught on opening where the header contradicts itself, else by
        // reading the records.
        let err = match Database::new("forged.db", forged) {
            Err(e) => e.to_string(),
            Ok(db) => {
                // `verify` checks the figures block by block (it once
                // passed a header with a thousand extra wins), and so
                // does loading the whole table.
                let Err(whole) = db.to_solution(|_, _| {}) else {
                    panic!("forged figures went unnoticed")
                };
                assert!(what.iter().any(|w| whole.to_string().contains(w)), "{whole}");
                let Err(e) = db.verify_blocks(|_, _| {}) else {
                    panic!("verify let forged figures pass")
                };
                e.to_string()
            }
        };
        assert!(what.iter().any(|w| err.contains(w)), "{err}");
    }
    // The intact file passes the same checks.
    let db = Database::new("intact.db", bytes).unwrap();
    assert!(db.to_solution(|_, _| {}).is_ok());
    assert!(db.verify_blocks(|_, _| {}).is_ok());
}

#[test]
fn a_codebook_with_win_and_lose_swapped_is_refused_on_opening() {
    // A forger's file: every record's value flipped between win and lose in
    // the codebook, checksums recomputed. Served, it would answer every
    // position the wrong way round.
    let (bytes, _) = sample_bytes();
    let forged = with_header(&bytes, |h| {
        for c in &mut h.codebook {
            *c = match *c >> 12 {
                1 => (2 << 12) | (*c & 0x0FFF),
                2 => (1 << 12) | (*c & 0x0FFF),
                _ => *c,
            };
        }
    });
    let err = Database::new("swapped.db", forged)
        .err()
        .expect("a swapped codebook was opened")
        .to_string();
    assert!(err.contains("swapped.db") && err.contains("codebook"), "{err}");
    // Counts that disagree with the codebook's values are refused too.
    let forged = with_header(&bytes, |h| h.counts.swap(0, 2));
    let err = Database::new("counts.db", forged)
        .err()
        .expect("opened")
        .to_string();
    assert!(err.contains("the counts give"), "{err}");
}

#[test]
fn bytes_after_the_block_table_are_refused() {
    let (mut bytes, _) = sample_bytes();
    bytes.extend_from_slice(b"appended");
    let err = Database::new("long.db", bytes)
        .err()
        .expect("trailing bytes went unnoticed");
    assert!(err.to_string().contains("8 bytes after the block table"), "{err}");
}
