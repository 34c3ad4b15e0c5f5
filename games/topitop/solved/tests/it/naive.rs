//! Exhaustive solves of small piece budgets, checked against a naive
//! fixed-point solver written here from the definitions alone.

use crate::bellman;
use bellman::verify;
use games_topitop_rules::{play_unchecked, Budget, Position, Rules, Ruleset, StateIndex, Value, Variant};
use games_topitop_solved::{solve, SolveOptions};
use games_topitop_table::Record;

/// Values by the definitions, level by level: a win at r has a losing child
/// at r-1; a loss at r has only winning children, the slowest at r-1; then
/// ties at r have a tying child at r-1; the rest are draws.
fn naive(rules: Rules) -> Vec<(Position, Record)> {
    let idx = StateIndex::new(rules.budget());
    let n = idx.len() as usize;
    let positions: Vec<Position> = (0..n as u64).map(|i| idx.position(i).unwrap()).collect();
    let prim: Vec<Option<Value>> = positions.iter().map(|&p| rules.primitive(p)).collect();
    // The children of position i are children[first[i]..first[i + 1]]:
    // one flat list, so that each level's pass allocates nothing.
    let mut first = Vec::with_capacity(n + 1);
    let mut children: Vec<usize> = Vec::new();
    for (&p, pr) in positions.iter().zip(&prim) {
        first.push(children.len());
        if pr.is_none() {
            children.extend(
                rules
                    .gamesman_moves(p)
                    .iter()
                    .map(|&m| idx.index(play_unchecked(p, m)).unwrap() as usize),
            );
        }
    }
    first.push(children.len());
    let kids = |i: usize| &children[first[i]..first[i + 1]];
    let mut rec: Vec<Option<Record>> = prim
        .iter()
        .map(|p| match p {
            Some(v @ (Value::Win | Value::Lose | Value::Draw)) => Some(Record::new(*v, 0)),
            _ => None,
        })
        .collect();
    let is = |r: Option<Record>, v: Value| r.is_some_and(|r| r.value() == Some(v));
    let mut r = 1;
    loop {
        let mut new = Vec::new();
        for i in 0..n {
            if rec[i].is_some() || prim[i].is_some() {
                continue;
            }
            let cs = kids(i);
            let lose_at = cs
                .iter()
                .any(|&c| is(rec[c], Value::Lose) && rec[c].unwrap().remoteness() == r - 1);
            if lose_at {
                new.push((i, Record::new(Value::Win, r)));
                continue;
            }
            let all_win = cs.iter().all(|&c| is(rec[c], Value::Win));
            let max = cs
                .iter()
                .map(|&c| rec[c].map_or(0, |c| c.remoteness()))
                .max()
                .unwrap_or(0);
            if all_win && max == r - 1 {
                new.push((i, Record::new(Value::Lose, r)));
            }
        }
        if new.is_empty() {
            break;
        }
        for (i, x) in new {
            rec[i] = Some(x);
        }
        r += 1;
    }
    for (i, p) in prim.iter().enumerate() {
        if *p == Some(Value::Tie) {
            rec[i] = Some(Record::new(Value::Tie, 0));
        }
    }
    let mut r = 1;
    loop {
        let new: Vec<usize> = (0..n)
            .filter(|&i| rec[i].is_none())
            .filter(|&i| {
                kids(i)
                    .iter()
                    .any(|&c| is(rec[c], Value::Tie) && rec[c].unwrap().remoteness() == r - 1)
            })
            .collect();
        if new.is_empty() {
            break;
        }
        for i in new {
            rec[i] = Some(Record::new(Value::Tie, r));
        }
        r += 1;
    }
    positions
        .into_iter()
        .zip(rec.into_iter().map(|r| r.unwrap_or(Record::new(Value::Draw, 0))))
        .collect()
}

fn check(ruleset: Ruleset, budget: Budget) {
    let rules = Rules::with_budget(ruleset, budget);
    let want = naive(rules);
    for symmetric in [true, false] {
        let sol = solve(rules, SolveOptions { symmetric }, |_| {});
        let mut wrong = 0;
        for &(p, r) in &want {
            if sol.get(p) != Some(r) {
                if wrong < 5 {
                    eprintln!(
                        "{ruleset} {budget} symmetric={symmetric}: {p}: solver {:?}, naive {r}",
                        sol.get(p)
                    );
                }
                wrong += 1;
            }
        }
        assert_eq!(wrong, 0, "{ruleset} {budget} symmetric={symmetric}");
        let report = verify(&sol, 5);
        assert_eq!(report.violations, 0, "{:?}", report.examples);
        assert!(report.checked > 0);
    }
    let counts = |v: Value| want.iter().filter(|(_, r)| r.value() == Some(v)).count();
    assert!(
        counts(Value::Win) + counts(Value::Lose) > 0,
        "a budget where the game can end"
    );
    eprintln!(
        "{ruleset} {budget}: {} states: {} win, {} lose, {} tie, {} draw",
        want.len(),
        counts(Value::Win),
        counts(Value::Lose),
        counts(Value::Tie),
        counts(Value::Draw)
    );
}

/// Only Blue has buckets (2), so only Blue can win; positions where a
/// side is stuck are common, which exercises passes and option bit 0.
fn blue_only() -> Budget {
    Budget::new(2, 0, 2, 2).unwrap()
}

/// Only Red has buckets: Blue's budget with the colours swapped.
fn red_only() -> Budget {
    Budget::new(0, 2, 2, 2).unwrap()
}

#[test]
fn every_variant_on_small_budgets() {
    for v in Variant::all() {
        check(Ruleset::V1(v), blue_only());
    }
    check(Ruleset::V1(Variant::DEFAULT), red_only());
}

/// The mirror of `every_variant_on_small_budgets` for the other variants
/// (CI's long tier: each check is about two seconds).
#[test]
#[ignore = "long tier (.ci/long)"]
fn every_variant_with_red_buckets_only() {
    for v in Variant::all().filter(|&v| v != Variant::DEFAULT) {
        check(Ruleset::V1(v), red_only());
    }
}

#[test]
fn v0_on_small_budgets() {
    check(Ruleset::V0, blue_only());
    check(Ruleset::V0, red_only());
}

#[test]
fn variant_0_with_both_colours() {
    check(Ruleset::V1(Variant::DEFAULT), Budget::new(2, 1, 2, 2).unwrap());
}

/// Every kind of record the verifier checks (forbidden slides, stuck
/// positions, passes, primitives) is caught when it is wrong: each changed
/// record is reported, whatever its place in its group.
#[test]
fn verify_catches_each_wrong_record() {
    for ruleset in [
        Ruleset::V1(Variant::new(0).unwrap()),
        Ruleset::V1(Variant::new(1).unwrap()),
        Ruleset::V0,
    ] {
        let rules = Rules::with_budget(ruleset, blue_only());
        let sol = solve(rules, SolveOptions::default(), |_| {});
        let index = sol.index().clone();
        // About 150 records spread over the index: every slot of a group
        // occurs among them.
        for i in (0..index.len()).step_by((index.len() / 150) as usize | 1) {
            let mut records = sol.records().to_vec();
            let old = records[i as usize];
            records[i as usize] = match old.value() {
                Some(Value::Draw) => Record::new(Value::Tie, 3),
                _ => Record::new(old.value().unwrap(), old.remoteness() + 1),
            };
            let broken = games_topitop_table::Solution::from_index(rules, index.clone(), records);
            let report = verify(&broken, usize::MAX);
            let pos = index.position(i).unwrap();
            assert!(
                report.examples.iter().any(|v| v.position == pos),
                "{ruleset}: record {i} ({pos}) changed from {old} unnoticed"
            );
        }
    }
}
