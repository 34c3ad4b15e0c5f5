//! Helpers shared by the database tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use games_topitop_rules::{Budget, Rules, Ruleset, Variant};
use games_topitop_solved::{solve, SolveOptions};
use games_topitop_solved::{write, Database, WriteOptions};
use games_topitop_table::Solution;

/// A solved reduced game, solved once for the whole test binary: a dozen
/// tests read the same few solutions, and solving each again cost more
/// than the tests themselves. A test asking for one that another test is
/// solving waits for it.
pub fn solved(variant: u8, budget: &str, symmetric: bool) -> &'static Solution {
    type Key = (u8, String, bool);
    static SOLVED: Mutex<BTreeMap<Key, &'static OnceLock<Solution>>> = Mutex::new(BTreeMap::new());
    let cell: &'static OnceLock<Solution> = SOLVED
        .lock()
        .unwrap()
        .entry((variant, budget.to_string(), symmetric))
        .or_insert_with(|| Box::leak(Box::new(OnceLock::new())));
    cell.get_or_init(|| {
        let budget: Budget = budget.parse().unwrap();
        let rules = Rules::with_budget(Ruleset::V1(Variant::new(i64::from(variant)).unwrap()), budget);
        solve(rules, SolveOptions { symmetric }, |_| {})
    })
}

/// Writes `solution` with small blocks (so there are many) and opens it.
pub fn written(dir: &Path, solution: &Solution) -> (std::path::PathBuf, Database) {
    let path = dir.join("test.db");
    let options = WriteOptions {
        block_boards: 512,
        level: 3,
        ..WriteOptions::default()
    };
    write(&path, solution, &options, |_, _| {}).unwrap();
    let db = Database::open(&path).unwrap();
    (path, db)
}
