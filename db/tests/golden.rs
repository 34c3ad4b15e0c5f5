//! The committed golden database (standard rules, variant 0, budget
//! 2/1/2/2, written by format version 1) must stay readable, with the
//! answers recorded beside it when it was made.
//!
//! To remake it after a deliberate format change (and a version bump), run
//! the ignored test that writes it:
//! `cargo test -p topitop-db --test golden -- --ignored regenerate`.
//! The reading test never writes, so it always compares the committed file
//! with today's solver.

mod common;

use std::fmt::Write as _;
use std::path::PathBuf;

use topitop_db::{write, Database, WriteOptions};
use topitop_game::{parse_position_syntax, symmetry};

const BUDGET: &str = "2/1/2/2";

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn db_path() -> PathBuf {
    dir().join("topitop_v1_0_2-1-2-2.db")
}

fn answers_path() -> PathBuf {
    dir().join("topitop_v1_0_2-1-2-2.expected.tsv")
}

#[test]
fn golden_database_still_reads() {
    let sol = common::solved(0, BUDGET, true);
    let db = Database::open(db_path()).unwrap();
    assert_eq!(db.header().rules, sol.rules());
    db.verify_blocks(|_, _| {}).unwrap();
    // The recorded answers.
    let text = std::fs::read_to_string(answers_path()).unwrap();
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = parse_position_syntax(f[0]).unwrap();
        let r = db.get(pos).unwrap();
        assert_eq!(r.value().map_or("undecided", |v| v.name()), f[1], "{line}");
        assert_eq!(r.remoteness().to_string(), f[2], "{line}");
        checked += 1;
    }
    assert!(checked > 2000, "{checked}");
    // And every position agrees with today's solver.
    let index = sol.index().states();
    for pos in index.walk(0, index.len()) {
        if symmetry::canonical(pos) == pos {
            assert_eq!(db.get(pos).unwrap(), sol.get(pos).unwrap(), "{pos}");
        }
    }
}

/// Writes the golden database and its answers from today's solver. Run only
/// on purpose, after a format change with a version bump.
#[test]
#[ignore = "writes the committed golden files; run on purpose after a format change"]
fn regenerate() {
    let sol = common::solved(0, BUDGET, true);
    let options = WriteOptions {
        block_boards: 1024,
        level: 19,
        solver: "topitop 0.1.0".into(),
    };
    write(&db_path(), &sol, &options, |_, _| {}).unwrap();
    let mut tsv = String::from("position\tvalue\tremoteness\n");
    let index = sol.index().states();
    for pos in index.walk(0, index.len()).step_by(2311) {
        let r = sol.get(pos).unwrap();
        let value = r.value().map_or("undecided", |v| v.name());
        writeln!(tsv, "{pos}\t{value}\t{}", r.remoteness()).unwrap();
    }
    std::fs::write(answers_path(), tsv).unwrap();
}
