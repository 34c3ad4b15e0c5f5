//! Helpers shared by the database tests.
#![allow(dead_code)]

use std::path::Path;

use topitop_rules::{Budget, Rules, Ruleset, Variant};
use topitop_solved::{solve, SolveOptions};
use topitop_solved::{write, Database, WriteOptions};
use topitop_table::Solution;

/// A solved reduced game.
pub fn solved(variant: u8, budget: &str, symmetric: bool) -> Solution {
    let budget: Budget = budget.parse().unwrap();
    let rules = Rules::with_budget(Ruleset::V1(Variant::new(i64::from(variant)).unwrap()), budget);
    solve(rules, SolveOptions { symmetric }, |_| {})
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
