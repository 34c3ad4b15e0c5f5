//! The committed golden databases (standard rules, variant 0, budget
//! 2/1/2/2), one written by each format version, must stay readable, with
//! the answers recorded beside them when they were made; today's writer
//! must still write the current version's file byte for byte.
//!
//! To remake the current version's file after a deliberate format change
//! (and a version bump; keep the older files), run the ignored test that
//! writes it: `cargo test -p games-topitop-solved --test it -- --ignored golden::regenerate`.
//! The reading tests never write to the committed files.

use crate::common;

use std::fmt::Write as _;
use std::path::PathBuf;

use games_topitop_rules::{parse_position_syntax, symmetry};
use games_topitop_solved::store::header::VERSION;
use games_topitop_solved::{write, Database, WriteOptions};

const BUDGET: &str = "2/1/2/2";

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The golden database of format version `version`.
fn db_path(version: u16) -> PathBuf {
    dir().join(format!("format{version}_topitop_v1_0_2-1-2-2.db"))
}

fn answers_path() -> PathBuf {
    dir().join("topitop_v1_0_2-1-2-2.expected.tsv")
}

/// How the golden files were written.
fn golden_options() -> WriteOptions {
    WriteOptions {
        block_boards: 1024,
        level: 19,
        solver: "topitop 0.1.0".into(),
        solved_with_symmetry: None,
    }
}

#[test]
fn format_1_still_reads() {
    golden_database_reads(1);
}

#[test]
fn format_2_still_reads() {
    golden_database_reads(2);
}

#[test]
fn format_3_reads() {
    golden_database_reads(3);
}

#[test]
fn todays_writer_writes_the_current_golden_file() {
    let sol = common::solved(0, BUDGET, true);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("golden.db");
    write(&path, sol, &golden_options(), |_, _| {}).unwrap();
    let written = std::fs::read(&path).unwrap();
    let golden = std::fs::read(db_path(VERSION)).unwrap();
    assert!(
        written == golden,
        "the writer no longer writes {} ({} bytes against {}): a format change needs a version bump",
        db_path(VERSION).display(),
        written.len(),
        golden.len()
    );
}

fn golden_database_reads(version: u16) {
    let sol = common::solved(0, BUDGET, true);
    let db = Database::open(db_path(version)).unwrap();
    assert_eq!(db.header().version, version);
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

/// Writes the current version's golden database and the answers from
/// today's solver. Run only on purpose, after a format change with a
/// version bump.
#[test]
#[ignore = "writes the committed golden files; run on purpose after a format change"]
fn regenerate() {
    let sol = common::solved(0, BUDGET, true);
    write(&db_path(VERSION), sol, &golden_options(), |_, _| {}).unwrap();
    let mut tsv = String::from("position\tvalue\tremoteness\n");
    let index = sol.index().states();
    for pos in index.walk(0, index.len()).step_by(2311) {
        let r = sol.get(pos).unwrap();
        let value = r.value().map_or("undecided", |v| v.name());
        writeln!(tsv, "{pos}\t{value}\t{}", r.remoteness()).unwrap();
    }
    std::fs::write(answers_path(), tsv).unwrap();
}
