//! Un-move generation against forward generation: every child lists its
//! parent, and every listed parent has a move to the child.

use std::collections::HashSet;

use games_topitop_rules::{play_unchecked, Budget, Position, Rules, Ruleset, StateIndex, Variant};

/// Checks every position of the rules' budget; returns the number of
/// positions and of moves. Listed parents are checked to have a move to the
/// child, and the lists hold as many entries as there are moves (different
/// moves of one position lead to different children), so no parent is
/// missing; a sample also looks each move up in its child's list.
fn check(rules: Rules) -> (u64, u64) {
    let index = StateIndex::new(rules.budget());
    let mut parents = Vec::new();
    let (mut edges, mut listed, mut positions) = (0, 0, 0);
    for pos in index.walk(0, index.len()) {
        positions += 1;
        for &m in rules.legal_moves(pos).iter() {
            edges += 1;
            if positions % 61 == 0 {
                let child = play_unchecked(pos, m);
                rules.parents(child, &mut parents);
                assert!(
                    parents.contains(&pos),
                    "{rules:?}: {child} does not list its parent {pos} ({m})"
                );
            }
        }
        rules.parents(pos, &mut parents);
        listed += parents.len() as u64;
        let distinct: HashSet<Position> = parents.iter().copied().collect();
        assert_eq!(
            distinct.len(),
            parents.len(),
            "{rules:?}: {pos} lists a parent twice"
        );
        for &q in &parents {
            let reaches = rules.legal_moves(q).iter().any(|&m| play_unchecked(q, m) == pos);
            assert!(
                reaches,
                "{rules:?}: {q} is listed as a parent of {pos} but has no move to it"
            );
        }
    }
    assert_eq!(listed, edges, "{rules:?}: parents listed against moves");
    (positions, edges)
}

/// Checks each (ruleset, budget) pair on its own thread.
fn check_all(cases: &[(Ruleset, &str)]) {
    std::thread::scope(|scope| {
        for &(ruleset, budget) in cases {
            scope.spawn(move || {
                let budget: Budget = budget.parse().unwrap();
                let (positions, edges) = check(Rules::with_budget(ruleset, budget));
                assert!(edges > positions, "{ruleset} {budget}: a game with moves");
            });
        }
    });
}

#[test]
fn every_variant_and_v0_agree_with_forward_generation() {
    let cases: Vec<(Ruleset, &str)> = Variant::all()
        .map(Ruleset::V1)
        .chain([Ruleset::V0])
        .map(|r| (r, "1/1/2/1"))
        .collect();
    check_all(&cases);
}

#[test]
fn one_colour_budgets_with_stuck_sides_agree_with_forward_generation() {
    // Without buckets of its own a side is often stuck: passes, or the
    // losses and draws that replace them.
    let v1 = |n| Ruleset::V1(Variant::new(n).unwrap());
    check_all(&[
        (v1(0), "2/0/1/2"),
        (v1(1), "2/0/1/2"),
        (Ruleset::V0, "0/2/2/1"),
        (v1(5), "0/2/2/1"),
    ]);
}

#[test]
fn two_crowns_agree_with_forward_generation() {
    // Blue can crown two castles: primitive positions have no children.
    check_all(&[
        (Ruleset::V1(Variant::DEFAULT), "2/0/2/2"),
        (Ruleset::V0, "2/0/2/2"),
    ]);
}
