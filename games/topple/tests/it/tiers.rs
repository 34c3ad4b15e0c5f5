//! The tiers and their index: a bijection between the indices in use and
//! the positions of play (reserves folded), every move going where the tier graph
//! says, and the graph acyclic.

use crate::support;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use games_topple::{Move, Tier, Topple};
use support::Rng;
use topitop_game_api::{Game, TierType, Tiered};

fn game(variant: &str) -> Topple {
    <Topple as topitop_game_api::Registered>::from_variant(variant).unwrap()
}

/// Every child tier is a tier, never its parent, and lower in the order
/// (less supply, or as much and fewer pawns on the board).
fn check_graph(g: &Topple) {
    let tiers: BTreeSet<Tier> = g.tiers().into_iter().collect();
    for &t in &tiers {
        assert_eq!(g.tier_type(t), TierType::Loopy);
        for c in g.child_tiers(t) {
            assert!(tiers.contains(&c), "{} -> {}", t.name(), c.name());
            let lower = c.supply < t.supply
                || (c.supply == t.supply && c.pawns[0] + c.pawns[1] < t.pawns[0] + t.pawns[1]);
            assert!(lower, "{} -> {}", t.name(), c.name());
        }
    }
}

/// Walks every index of every tier: each position of play round-trips and
/// has its reserves folded, and its reserve images share its index. With `moves`, also plays
/// every move and returns, per tier, the child tiers reached.
fn walk(g: &Topple, moves: bool) -> (u64, u64, BTreeMap<Tier, BTreeSet<Tier>>) {
    let (mut indices, mut positions) = (0, 0);
    let mut reached: BTreeMap<Tier, BTreeSet<Tier>> = BTreeMap::new();
    for t in g.tiers() {
        let size = g.tier_size(t);
        indices += size;
        let declared: HashSet<Tier> = g.child_tiers(t).into_iter().collect();
        for i in 0..size {
            let Some(p) = g.position(t, i) else { continue };
            positions += 1;
            assert!(g.check(&p).is_ok());
            assert_eq!((g.tier_of(&p), g.index(&p)), (t, i), "{}", g.format_position(&p));
            assert_eq!(g.fold_reserves(&p), p);
            for img in g.reserve_images(&p) {
                assert_eq!((g.tier_of(&img), g.index(&img)), (t, i));
            }
            if !moves {
                continue;
            }
            for m in Game::moves(g, &p) {
                let (c, fx) = g.play_traced(&p, m);
                let ct = g.tier_of(&c);
                let quiet = matches!(m, Move::Step { .. }) && fx.take_rounds == 0;
                if quiet {
                    assert_eq!(ct, t);
                } else {
                    assert!(declared.contains(&ct), "{} -> {}", t.name(), ct.name());
                    reached.entry(t).or_default().insert(ct);
                }
            }
        }
    }
    (indices, positions, reached)
}

fn every_index_round_trips(variants: &[&str]) {
    for v in variants {
        let g = game(v);
        check_graph(&g);
        let (indices, positions, _) = walk(&g, false);
        assert!(positions > 0 && positions <= indices, "{v}");
    }
}

#[test]
fn every_index_of_small_boards_round_trips() {
    every_index_round_trips(&[
        "2x2-s2", "2x2-s5", "2x3-s6", "3x3-s2", "3x3-s4", "3x3-s5", "3x3-s6",
    ]);
}

/// 4.3 million indices, 35 s: CI's long tier.
#[test]
#[ignore = "long tier (.ci/long)"]
fn every_index_of_3x3_with_7_pieces_round_trips() {
    every_index_round_trips(&["3x3-s7"]);
}

/// The child tiers hold every tier a move reaches (checked by `walk`), and
/// not many more: the counts of pieces rule out the others (docs/topple-rules.md,
/// "Solving"). Every tier holds a position of play, so none is opened in
/// vain.
#[test]
fn every_move_of_small_boards_goes_to_a_declared_child_tier() {
    for (v, most) in [("2x2-s6", 2.5), ("2x3-s6", 1.5), ("3x3-s6", 1.5), ("2x2-s9", 3.0)] {
        let g = game(v);
        let (_, _, reached) = walk(&g, true);
        let declared: usize = g.tiers().iter().map(|&t| g.child_tiers(t).len()).sum();
        let used: usize = reached.values().map(BTreeSet::len).sum();
        println!("{v}: {used} of {declared} declared tier edges used by positions of play");
        assert!(
            declared as f64 <= most * used as f64,
            "{v}: {declared} declared, {used} used"
        );
        for t in g.tiers() {
            assert!(
                (0..g.tier_size(t)).any(|i| g.position(t, i).is_some()),
                "{v}: tier {} holds no position of play",
                t.name()
            );
        }
    }
}

#[test]
fn random_indices_of_larger_boards_round_trip() {
    let mut rng = Rng::new(29);
    for v in ["3x3-s12", "3x4-s8", "4x4-s6", "3x3-s40"] {
        let g = game(v);
        assert!(g.indexable(), "{v}");
        check_graph(&g);
        let tiers = g.tiers();
        let mut found = 0;
        for _ in 0..200_000 {
            let t = tiers[rng.below(tiers.len() as u64) as usize];
            let i = rng.below(g.tier_size(t));
            if let Some(p) = g.position(t, i) {
                found += 1;
                assert_eq!((g.tier_of(&p), g.index(&p)), (t, i), "{}", g.format_position(&p));
                assert_eq!(g.parse_position(&g.format_position(&p)), Ok(p));
            }
        }
        assert!(found > 1000, "{v}: {found}");
    }
    assert!(!game("8x8-s64").indexable());
    assert!(game("8x8-s64").tiers().is_empty());
}
