//! A database's answers come from bytes its checksums vouch for and from a
//! header its game vouches for: a file changed in place under an open
//! reader, a header whose tiers were relabelled, or counts forged under
//! recomputed checksums never give an answer the solve did not make.

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use games_tictactoe::TicTacToe;
use topitop_db::blocks::checksum;
use topitop_db::packed::{pack_tier, PackedDb, BLOCK_BYTES};
use topitop_db::tiered::{write_tiered, TieredHeader, TieredMeta};
use topitop_db::{DbError, SolvedDb};
use topitop_game_api::{Record, Tiered, Value};

/// A value database of three tiers, `salt` choosing the values: files of
/// two salts have the same header length and layout, different values.
fn write_values(path: &Path, salt: u64) {
    let mut data = Vec::new();
    let mut tiers = Vec::new();
    for (k, size) in [10u64, 200_000, 77_777].into_iter().enumerate() {
        let trits: Vec<u8> = (0..size).map(|i| ((i * 7 + k as u64 + salt) % 3) as u8).collect();
        tiers.push(pack_tier(format!("t{k}"), &trits, size, &mut data));
    }
    crate::damage::write_header(path, topitop_db::packed::VERSION, tiers, &data);
}

/// Rewrites the file at `path` in place (same inode, no rename) with
/// `bytes`, as `cp other.db served.db` does.
fn overwrite_in_place(path: &Path, bytes: &[u8]) {
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(0)).unwrap();
    f.write_all(bytes).unwrap();
    f.set_len(bytes.len() as u64).unwrap();
    f.sync_all().unwrap();
}

/// Every probe of `db` after its file changed is the answer it gave
/// before, or an error naming the file; returns how many were errors.
fn same_or_named(db: &PackedDb, before: &[(usize, u64, Value)], path: &Path) -> usize {
    let mut errors = 0;
    for &(t, i, v) in before {
        match db.value(t, i) {
            Ok(now) => assert_eq!(now, v, "tier {t} index {i} changed silently"),
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains(&path.display().to_string()), "{e}");
                errors += 1;
            }
        }
    }
    errors
}

#[test]
fn a_value_database_changed_in_place_answers_as_before_or_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (served, other) = (dir.path().join("served.db"), dir.path().join("other.db"));
    write_values(&served, 0);
    write_values(&other, 1);
    // A cache of one block, which every probe of another block evicts, and
    // the default, which holds this whole file.
    for cache in [BLOCK_BYTES, topitop_db::packed::DEFAULT_CACHE_BYTES] {
        write_values(&served, 0);
        let db = PackedDb::open_with_cache(&served, cache).unwrap();
        let probes: Vec<(usize, u64)> = (0..3)
            .flat_map(|t| (0..db.header().tiers[t].size).step_by(9_973).map(move |i| (t, i)))
            .collect();
        let before: Vec<(usize, u64, Value)> = probes
            .iter()
            .map(|&(t, i)| (t, i, db.value(t, i).unwrap()))
            .collect();
        overwrite_in_place(&served, &std::fs::read(&other).unwrap());
        let errors = same_or_named(&db, &before, &served);
        if cache == BLOCK_BYTES {
            assert!(errors > 0, "evicted blocks were read again unchecked");
        }
        for t in 0..3 {
            match db.tier_values(t) {
                Ok(all) => assert!(before
                    .iter()
                    .filter(|p| p.0 == t)
                    .all(|p| all[p.1 as usize] == p.2)),
                Err(e) => assert!(e.to_string().contains(&served.display().to_string()), "{e}"),
            }
        }
        // Cut short in place: the same, and never a panic.
        let bytes = std::fs::read(&served).unwrap();
        overwrite_in_place(&served, &bytes[..bytes.len() / 2]);
        same_or_named(&db, &before, &served);
        assert!(db.verify_blocks(|_, _| {}).is_err());
    }
}

/// A tiered database of tic-tac-toe's tiers, each of its size, holding
/// made-up records (only the header matters here), with `edit` applied to
/// its header (which must keep its length) under a recomputed checksum.
fn write_toy(path: &Path, edit: impl FnOnce(&mut TieredHeader)) {
    let game = TicTacToe;
    let records: Vec<(String, Vec<Record>)> = game
        .tiers()
        .into_iter()
        .map(|t| {
            let rs = (0..game.tier_size(t))
                .map(|i| match (i + u64::from(t)) % 5 {
                    0 => Record::UNSOLVED,
                    1 | 2 => Record::new(Value::Win, 1 + u16::from(t)),
                    3 => Record::new(Value::Lose, 2),
                    _ => Record::new(Value::Tie, 9 - u16::from(t)),
                })
                .collect();
            (game.tier_name(t), rs)
        })
        .collect();
    let refs: Vec<(String, &[Record])> = records.iter().map(|(n, r)| (n.clone(), r.as_slice())).collect();
    let meta = TieredMeta {
        game: "tictactoe",
        variant: "3x3",
        program: "test",
        symmetric: false,
        level: 1,
    };
    let (mut header, _) = write_tiered(path, &meta, &refs).unwrap();
    let mut bytes = std::fs::read(path).unwrap();
    let old = header.encoded_len();
    edit(&mut header);
    let new = header.encode();
    assert_eq!(new.len(), old, "an edit that keeps the header's length");
    bytes[..old].copy_from_slice(&new);
    std::fs::write(path, bytes).unwrap();
}

fn refusal(path: &Path) -> String {
    let db = SolvedDb::open(path).unwrap();
    let e = db.holds(&TicTacToe).expect_err("refused").to_string();
    assert!(e.contains(&path.display().to_string()), "{e}");
    e
}

#[test]
fn a_header_whose_tiers_are_not_the_game_s_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tictactoe_3x3.db");
    write_toy(&path, |_| {});
    SolvedDb::open(&path).unwrap().holds(&TicTacToe).unwrap();
    // Two tiers of one size, their names swapped: every record of each
    // would be answered for the other's positions.
    write_toy(&path, |h| {
        let (a, b) = (h.tiers[3].name.clone(), h.tiers[4].name.clone());
        h.tiers[3].name = b;
        h.tiers[4].name = a;
    });
    let e = refusal(&path);
    assert!(e.contains("tier 3 is marks4"), "{e}");
    // Another variant's name over these tiers.
    write_toy(&path, |h| h.variant = "4x4".into());
    let e = refusal(&path);
    assert!(e.contains("holds tictactoe 4x4, not tictactoe 3x3"), "{e}");
}

#[test]
fn verify_refuses_counts_and_a_remoteness_the_records_refute() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tictactoe_3x3.db");
    let verify = |path: &Path| {
        let db = SolvedDb::open(path).unwrap();
        db.holds(&TicTacToe).unwrap();
        db.verify_blocks(|_, _| {})
    };
    write_toy(&path, |_| {});
    verify(&path).unwrap();
    write_toy(&path, |h| h.counts.swap(0, 1));
    let e = verify(&path).unwrap_err().to_string();
    assert!(
        e.contains(&path.display().to_string()) && e.contains("counts"),
        "{e}"
    );
    write_toy(&path, |h| h.max_remoteness += 1);
    let e = verify(&path).unwrap_err().to_string();
    assert!(
        e.contains("largest remoteness is 11, but that of its records is 10"),
        "{e}"
    );
}

/// `bytes` with its version field (bytes 8..10) set to `v` and its header
/// checksum (of the `header_len` bytes before it) recomputed.
fn with_version(mut bytes: Vec<u8>, v: u16, header_len: usize) -> Vec<u8> {
    bytes[8..10].copy_from_slice(&v.to_le_bytes());
    let sum = checksum(&bytes[..header_len]);
    bytes[header_len..header_len + 8].copy_from_slice(&sum.to_le_bytes());
    bytes
}

#[test]
fn an_unknown_version_names_the_versions_this_reader_knows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.db");
    write_values(&path, 0);
    let len = PackedDb::open(&path).unwrap().header().encoded_len() as usize - 8;
    std::fs::write(&path, with_version(std::fs::read(&path).unwrap(), 3, len)).unwrap();
    let e = SolvedDb::open(&path).err().unwrap();
    assert!(
        e.to_string().ends_with(
            "value database format version 3 is not supported (this reader knows versions 1 and 2)"
        ),
        "{e}"
    );
    write_toy(&path, |_| {});
    let len = match SolvedDb::open(&path).unwrap() {
        SolvedDb::Records(d) => d.header().encoded_len() - 8,
        SolvedDb::Values(_) => unreachable!(),
    };
    std::fs::write(&path, with_version(std::fs::read(&path).unwrap(), 7, len)).unwrap();
    let e = SolvedDb::open(&path).err().unwrap();
    assert!(
        matches!(&e, DbError::File { source, .. } if matches!(**source, DbError::UnsupportedVersion { found: 7, .. }))
    );
    assert!(
        e.to_string().ends_with(
            "tiered game database format version 7 is not supported (this reader knows versions 1 and 2)"
        ),
        "{e}"
    );
}
