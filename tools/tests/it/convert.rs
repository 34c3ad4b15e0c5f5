//! `convert` end to end: a file of an older format version is read as it
//! is, says so with the command that rewrites it, and once converted
//! answers every query the same from a smaller file; Topitop's own
//! format (its committed golden file of version 2) and the shared formats
//! (an old value database made from a solve's values) alike.

use crate::support;

use support::run::{stderr, stdout, temp_dir, topitop, topitop_with_input};

fn ok(args: &[&str]) -> String {
    let o = topitop(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// `query` of every line of `positions` in `db`, as TSV.
fn answers(db: &str, positions: &str) -> String {
    let o = topitop_with_input(&["query", "--db", db], positions.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// Converts the old file at `old` in place after `stats` named it old,
/// and checks that the queries of `positions` answer the same.
fn converts_with_the_same_answers(old: &std::path::Path, positions: &str) {
    let db = old.to_str().unwrap();
    let stats = ok(&["stats", "--db", db]);
    assert!(
        stats.contains(&format!(
            "(read as it is; `topitop convert --db {db}` rewrites it in version"
        )),
        "{stats}"
    );
    let before = answers(db, positions);
    let len = std::fs::metadata(old).unwrap().len();
    let said = ok(&["convert", "--db", db]);
    assert!(said.contains("every record compared"), "{said}");
    assert!(std::fs::metadata(old).unwrap().len() < len);
    assert_eq!(answers(db, positions), before);
    let stats = ok(&["stats", "--db", db]);
    assert!(!stats.contains("read as it is"), "{stats}");
    assert!(ok(&["verify", "--db", db]).contains("0 violations"));
    let again = ok(&["convert", "--db", db]);
    assert!(again.contains("already in version"), "{again}");
    // Nothing left beside it.
    let dir = old.parent().unwrap();
    assert_eq!(
        std::fs::read_dir(dir).unwrap().count(),
        1,
        "{:?}",
        support::run::listing(dir)
    );
}

#[test]
fn an_old_topitop_file_converts_and_answers_the_same() {
    let dir = temp_dir("convert-topitop");
    let golden = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../games/topitop/solved/tests/golden/format2_topitop_v1_0_2-1-2-2.db"
    );
    let old = dir.join("topitop_v1_0_2-1-2-2.db");
    std::fs::copy(golden, &old).unwrap();
    let positions = "1_---------\n1_-XXR-----\n2_P-----B--\n1_-------PO\n";
    converts_with_the_same_answers(&old, positions);
}

#[test]
fn an_old_value_database_converts_and_answers_the_same() {
    use topitop_db::packed::{write_packed, PackedDb};
    let dir = temp_dir("convert-topolo");
    let d = dir.to_str().unwrap();
    // 3x3: a file of 2x3 is so small that the blocks' entries outweigh
    // what compression saves.
    ok(&["solve", "--out", d, "--game", "topolo", "--board", "3x3"]);
    let path = dir.join("topolo_3x3.db");
    // The same values in version 1, as a solve before issue 54 wrote them.
    let new = PackedDb::open(&path).unwrap();
    let data: Vec<u8> = (0..new.header().tiers.len())
        .flat_map(|t| new.tier_bytes(t).unwrap())
        .collect();
    let mut header = new.header().clone();
    header.version = 1;
    drop(new);
    write_packed(&path, header, &data).unwrap();
    let positions = ".../.../...\nS../.../...\nSs./.../...\n.S./.../...\n";
    converts_with_the_same_answers(&path, positions);
}
