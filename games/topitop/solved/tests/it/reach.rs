//! The forward pass against a plain search: every position a game can come
//! to, found by recursion over the rules without symmetry, must be the
//! classes [`reach`] marks, no more and no fewer; and the backward search
//! for one position ([`Rules::is_reachable`]) must agree with both.

use std::collections::HashSet;

use games_topitop_rules::{play_unchecked, symmetry, Budget, Rules, Ruleset, StateIndex, Variant};
use games_topitop_solved::reach;

fn check(budget: &str, ruleset: Ruleset) {
    let budget: Budget = budget.parse().unwrap();
    let rules = Rules::with_budget(ruleset, budget);
    let index = StateIndex::new(budget);
    // Plain depth-first search over positions as they are, no symmetry.
    let mut seen = HashSet::from([rules.start()]);
    let mut stack = vec![rules.start()];
    while let Some(p) = stack.pop() {
        for &m in rules.legal_moves(p).iter() {
            let c = play_unchecked(p, m);
            if seen.insert(c) {
                stack.push(c);
            }
        }
    }
    let classes: HashSet<_> = seen.iter().map(|&p| symmetry::canonical(p)).collect();
    let reached = reach(rules, &index);
    assert_eq!(reached.count(), classes.len() as u64, "{budget} {ruleset}");
    assert!(seen.iter().all(|&p| reached.contains(&index, p)));
    // And nothing else: every indexed state outside the plain search's
    // classes is unmarked, the empty board with Red to move among them.
    let mut marked = 0u64;
    for i in 0..index.len() {
        let p = index.position(i).unwrap();
        if p != symmetry::canonical(p) {
            continue;
        }
        let found = reached.contains(&index, p);
        assert_eq!(rules.is_reachable(p), found, "{p}: backward and forward disagree");
        if found {
            marked += 1;
            assert!(classes.contains(&p), "{p} marked but not reachable");
        }
    }
    assert_eq!(marked, reached.count());
    for never in ["2_---------", "1_--------R"] {
        let p = games_topitop_rules::parse_position(never, budget).unwrap();
        assert!(!reached.contains(&index, p), "{never}");
    }
}

#[test]
fn the_forward_pass_finds_exactly_what_play_reaches() {
    check("1/1/1/1", Ruleset::V1(Variant::DEFAULT));
    check("2/1/1/2", Ruleset::V1(Variant::DEFAULT));
    check("1/1/2/1", Ruleset::V0);
}
