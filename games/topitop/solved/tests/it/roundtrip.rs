//! A written database answers exactly as the solution it was written from.

use crate::common;

use games_topitop_rules::{symmetry, Value};
use games_topitop_solved::Database;

#[test]
fn every_position_reads_back() {
    for (variant, budget) in [(0, "2/0/2/2"), (2, "2/2/2/2"), (5, "2/1/2/2")] {
        let sol = common::solved(variant, budget, true);
        let dir = tempfile::tempdir().unwrap();
        let (_, db) = common::written(dir.path(), sol);
        let index = sol.index().states();
        let mut seen = [0u64; 4];
        for pos in index.walk(0, index.len()) {
            let want = sol.get(pos).unwrap();
            assert_eq!(
                db.get(pos).unwrap(),
                want,
                "{pos} in variant {variant} budget {budget}"
            );
            if symmetry::canonical(pos) == pos {
                let slot = [Value::Win, Value::Lose, Value::Tie, Value::Draw]
                    .iter()
                    .position(|&v| Some(v) == want.value())
                    .unwrap();
                seen[slot] += 1;
            }
        }
        assert_eq!(db.header().counts, seen, "variant {variant} budget {budget}");
        assert_eq!(db.header().rules, sol.rules());
        db.verify_blocks(|_, _| {}).unwrap();
        let back = db.to_solution(|_, _| {}).unwrap();
        assert_eq!(back.records(), sol.records(), "variant {variant} budget {budget}");
    }
}

#[test]
fn an_asymmetric_solve_reads_the_same() {
    let sym = common::solved(2, "2/2/2/2", true);
    let full = common::solved(2, "2/2/2/2", false);
    let dir = tempfile::tempdir().unwrap();
    let (_, a) = common::written(dir.path(), sym);
    let dir2 = tempfile::tempdir().unwrap();
    let (_, b) = common::written(dir2.path(), full);
    assert!(!b.header().symmetric);
    let index = sym.index().states();
    for pos in index.walk(0, index.len()).step_by(7) {
        assert_eq!(a.get(pos).unwrap(), b.get(pos).unwrap(), "{pos}");
    }
}

#[test]
fn readers_share_one_database_across_threads() {
    let sol = common::solved(0, "2/0/2/2", true);
    let dir = tempfile::tempdir().unwrap();
    let (_, db) = common::written(dir.path(), sol);
    let db = &db;
    let index = sol.index().states();
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let sol = &sol;
            s.spawn(move || {
                for pos in index.walk(0, index.len()).skip(t as usize).step_by(4) {
                    assert_eq!(db.get(pos).unwrap(), sol.get(pos).unwrap());
                }
            });
        }
    });
    let stats = db.cache_stats();
    assert!(stats.hits > stats.misses, "{stats:?}");
}

#[test]
fn a_small_cache_evicts_but_answers_the_same() {
    let sol = common::solved(0, "2/0/2/2", true);
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = common::written(dir.path(), sol);
    let db = Database::open_with_cache(&path, 8 << 10).unwrap();
    let index = sol.index().states();
    for pos in index.walk(0, index.len()).step_by(3) {
        assert_eq!(db.get(pos).unwrap(), sol.get(pos).unwrap());
    }
    assert!(
        db.cache_stats().resident <= (8 << 10) + (16 << 10),
        "{:?}",
        db.cache_stats()
    );
}

#[test]
fn positions_outside_the_budget_are_errors() {
    let sol = common::solved(0, "2/0/2/2", true);
    let dir = tempfile::tempdir().unwrap();
    let (_, db) = common::written(dir.path(), sol);
    let pos = games_topitop_rules::parse_position_syntax("1_RR-------").unwrap();
    let err = db.get(pos).unwrap_err().to_string();
    assert!(err.contains("not in this database"), "{err}");
}

#[test]
fn a_mapped_database_answers_as_one_read_into_memory() {
    let sol = common::solved(0, "2/0/2/2", true);
    let dir = tempfile::tempdir().unwrap();
    let (path, read) = common::written(dir.path(), sol);
    // SAFETY: the file lives in a private temporary directory that nothing
    // else writes while it is mapped.
    let mapped = unsafe { Database::map(&path) }.unwrap();
    assert_eq!(mapped.header().records, read.header().records);
    assert_eq!(mapped.file_len(), read.file_len());
    let index = sol.index().states();
    for pos in index.walk(0, index.len()).step_by(5) {
        assert_eq!(mapped.get(pos).unwrap(), read.get(pos).unwrap(), "{pos}");
    }
    mapped.verify_blocks(|_, _| {}).unwrap();
}

#[test]
fn a_read_database_does_not_see_the_file_change() {
    let sol = common::solved(0, "2/0/2/2", true);
    let dir = tempfile::tempdir().unwrap();
    let (path, db) = common::written(dir.path(), sol);
    // Cut the file down in place: a reader that held the file's pages
    // would lose them; one that read the file keeps answering.
    std::fs::write(&path, b"").unwrap();
    let index = sol.index().states();
    for pos in index.walk(0, index.len()).step_by(5) {
        assert_eq!(db.get(pos).unwrap(), sol.get(pos).unwrap(), "{pos}");
    }
    db.verify_blocks(|_, _| {}).unwrap();
}
