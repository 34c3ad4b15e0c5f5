//! Rulesets solved together (one first pass for all) give exactly what
//! each gives alone, from scratch and resumed from partial checkpoints.

use std::collections::HashMap;

use games_topitop_rules::{Budget, Rules, Ruleset, Tier, Variant};
use games_topitop_solved::{solve, solve_together, SolveOptions};
use games_topitop_table::{Checkpoint, Record};

/// Every ruleset of the game on `budget`: the 8 v1 variants, then v0.
fn every_ruleset(budget: Budget) -> Vec<Rules> {
    Variant::all()
        .map(Ruleset::V1)
        .chain([Ruleset::V0])
        .map(|r| Rules::with_budget(r, budget))
        .collect()
}

/// Finished tiers held in memory; counts what it served and was given.
#[derive(Default)]
struct Memory {
    tiers: HashMap<Tier, Vec<Record>>,
    loaded: usize,
    saved: usize,
}

impl Checkpoint for Memory {
    fn load(&mut self, tier: Tier, records: &mut [Record]) -> bool {
        let Some(kept) = self.tiers.get(&tier) else {
            return false;
        };
        records.copy_from_slice(kept);
        self.loaded += 1;
        true
    }

    fn save(&mut self, finished: &[(Tier, &[Record])]) -> std::io::Result<()> {
        for (tier, records) in finished {
            self.tiers.insert(*tier, records.to_vec());
            self.saved += 1;
        }
        Ok(())
    }
}

fn together(
    rules: &[Rules],
    options: SolveOptions,
    memories: &mut [Memory],
) -> Vec<games_topitop_table::Solution> {
    let mut checkpoints: Vec<&mut dyn Checkpoint> =
        memories.iter_mut().map(|m| m as &mut dyn Checkpoint).collect();
    let mut progress = vec![0usize; rules.len()];
    let solutions = solve_together(rules, options, &mut checkpoints, |k, p| {
        progress[k] += 1;
        assert_eq!(
            p.tiers_done, progress[k],
            "tiers are reported in order per ruleset"
        );
    })
    .unwrap();
    let tiers = Tier::all(rules[0].budget()).len();
    assert!(
        progress.iter().all(|&n| n == tiers),
        "every ruleset reports every tier: {progress:?}"
    );
    solutions
}

#[test]
fn rulesets_solved_together_equal_their_separate_solves() {
    for symmetric in [true, false] {
        let options = SolveOptions { symmetric };
        let rules = every_ruleset(Budget::new(1, 1, 2, 2).unwrap());
        let mut memories: Vec<Memory> = rules.iter().map(|_| Memory::default()).collect();
        let solutions = together(&rules, options, &mut memories);
        for ((&r, s), m) in rules.iter().zip(&solutions).zip(&memories) {
            let alone = solve(r, options, |_| {});
            assert_eq!(s.rules(), r);
            assert!(
                s.records() == alone.records(),
                "{} (symmetric {symmetric})",
                r.ruleset()
            );
            assert_eq!(m.saved, Tier::all(r.budget()).len(), "each tier saved once");
        }
    }
}

#[test]
fn a_resumed_joint_solve_takes_finished_tiers_and_solves_the_rest() {
    let options = SolveOptions::default();
    let rules = every_ruleset(Budget::new(2, 1, 2, 1).unwrap());
    // Checkpoints of different depths: ruleset k keeps the first k · n / 9
    // tiers its own full solve wrote (in solving order).
    let order = games_topitop_solved::solve_order(rules[0].budget());
    let mut memories: Vec<Memory> = rules
        .iter()
        .enumerate()
        .map(|(k, &r)| {
            let mut full = Memory::default();
            games_topitop_solved::solve_resumable(r, options, &mut full, |_| {}).unwrap();
            let keep = order.len() * k / rules.len();
            Memory {
                tiers: order[..keep]
                    .iter()
                    .map(|t| (*t, full.tiers[t].clone()))
                    .collect(),
                ..Memory::default()
            }
        })
        .collect();
    let solutions = together(&rules, options, &mut memories);
    for (k, ((&r, s), m)) in rules.iter().zip(&solutions).zip(&memories).enumerate() {
        let keep = order.len() * k / rules.len();
        assert_eq!(m.loaded, keep, "{}", r.ruleset());
        assert_eq!(m.saved, order.len() - keep, "{}", r.ruleset());
        assert!(
            s.records() == solve(r, options, |_| {}).records(),
            "{}",
            r.ruleset()
        );
    }
}

/// Finished tiers held in memory by a store that is due only at every
/// third level: each save carries every tier finished since the last.
#[derive(Default)]
struct Sometimes {
    kept: Memory,
    asked: std::cell::Cell<usize>,
    saves: usize,
}

impl Checkpoint for Sometimes {
    fn load(&mut self, tier: Tier, records: &mut [Record]) -> bool {
        self.kept.load(tier, records)
    }

    fn due(&self) -> bool {
        self.asked.set(self.asked.get() + 1);
        self.asked.get().is_multiple_of(3)
    }

    fn save(&mut self, finished: &[(Tier, &[Record])]) -> std::io::Result<()> {
        self.saves += 1;
        for (tier, _) in finished {
            assert!(!self.kept.tiers.contains_key(tier), "{tier:?} saved twice");
        }
        self.kept.save(finished)
    }
}

#[test]
fn a_store_that_puts_saving_off_gets_every_tier_finished_before_its_last_save() {
    let options = SolveOptions::default();
    let rules = Rules::with_budget(
        Ruleset::V1(Variant::new(0).unwrap()),
        Budget::new(2, 1, 2, 1).unwrap(),
    );
    let levels = games_topitop_solved::solve_levels(rules.budget());
    let mut store = Sometimes::default();
    let solved = games_topitop_solved::solve_resumable(rules, options, &mut store, |_| {}).unwrap();
    assert_eq!(store.asked.get(), levels.len(), "asked once per level");
    assert_eq!(store.saves, levels.len() / 3);
    let before_last_save: Vec<Tier> = levels[..levels.len() / 3 * 3].concat();
    let mut kept: Vec<Tier> = store.kept.tiers.keys().copied().collect();
    let mut expected = before_last_save.clone();
    kept.sort();
    expected.sort();
    assert_eq!(
        kept, expected,
        "exactly the tiers of the levels up to the last save"
    );
    // Resumed from what was kept, the solve gives the same records.
    let mut again = Sometimes {
        kept: Memory {
            tiers: store.kept.tiers.clone(),
            ..Memory::default()
        },
        ..Sometimes::default()
    };
    let resumed = games_topitop_solved::solve_resumable(rules, options, &mut again, |_| {}).unwrap();
    assert_eq!(again.kept.loaded, before_last_save.len());
    assert!(resumed.records() == solved.records());
}
