//! The canonical form under the 8 symmetries of the square.

use std::collections::BTreeSet;

use games_topitop_rules::sample::{playout_positions, Rng};
use games_topitop_rules::symmetry::{canonical, orbit_size, transform, Symmetry, INVERSE, MAPS};
use games_topitop_rules::{parse_position, play_unchecked, Budget, Position, Rules, Ruleset, Variant};

fn sample(n: usize, seed: u64) -> Vec<Position> {
    playout_positions(Rules::default(), n, 30, &mut Rng::new(seed))
}

fn children(rules: Rules, p: Position) -> BTreeSet<Position> {
    rules
        .gamesman_moves(p)
        .iter()
        .map(|&m| play_unchecked(p, m))
        .collect()
}

#[test]
fn maps_form_the_dihedral_group() {
    for (k, map) in MAPS.iter().enumerate() {
        let mut seen = [false; 9];
        for &c in map {
            seen[c as usize] = true;
        }
        assert!(seen.iter().all(|&s| s), "map {k} is a permutation");
    }
    for s in Symmetry::ALL {
        assert_eq!(INVERSE[s.index()], s.inverse().sources(), "{s:?}");
        assert_eq!(Symmetry::from_index(s.index()), Some(s));
    }
    assert_eq!(INVERSE[1], MAPS[3]);
    assert_eq!(INVERSE[3], MAPS[1]);
    for k in [0, 2, 4, 5, 6, 7] {
        assert_eq!(INVERSE[k], MAPS[k], "map {k} is its own inverse");
    }
}

#[test]
fn canonical_is_idempotent_and_shared_by_all_images() {
    for p in sample(20_000, 3) {
        let c = canonical(p);
        assert_eq!(canonical(c), c, "{p}");
        assert!(c.bits() <= p.bits());
        for k in Symmetry::ALL {
            assert_eq!(canonical(transform(p, k)), c, "{p} map {k:?}");
        }
    }
}

#[test]
fn symmetry_preserves_moves_children_and_primitives() {
    let variants = [
        Ruleset::V0,
        Ruleset::V1(Variant::new(0).unwrap()),
        Ruleset::V1(Variant::new(7).unwrap()),
    ];
    for p in sample(4_000, 9) {
        for rs in variants {
            let rules = Rules::new(rs);
            let kids = children(rules, p);
            for k in Symmetry::ALL {
                let q = transform(p, k);
                assert!(q.validate(Budget::STANDARD).is_ok(), "{p} map {k:?} -> {q}");
                assert_eq!(
                    rules.gamesman_moves(q).len(),
                    rules.gamesman_moves(p).len(),
                    "{p} map {k:?}"
                );
                assert_eq!(rules.primitive(q), rules.primitive(p));
                let mapped: BTreeSet<Position> = kids.iter().map(|&c| transform(c, k)).collect();
                assert_eq!(
                    children(rules, q),
                    mapped,
                    "{p} map {k:?}: children commute with the map"
                );
            }
        }
    }
}

#[test]
fn forbidden_slide_follows_the_inverse_map() {
    // L slid 5->4 (forbidden 4->5); a quarter turn clockwise moves cell 4 to
    // cell 2 and leaves cell 5 in place, so the forbidden slide becomes 2->5.
    let p = parse_position("1_LS-L-SLLS45", Budget::STANDARD).unwrap();
    let q = transform(p, Symmetry::Rotate90);
    assert_eq!(q.to_string(), "1_LLLL-SSS-25");
    assert!(q.forbidden_is_plausible());
}

/// Upstream picks the anti-diagonal mirror for nearly every board, so a
/// position and its rotation get different results. Ours agree.
#[test]
fn rotations_share_one_representative_unlike_upstream() {
    let p = parse_position("1_B-S---L--", Budget::STANDARD).unwrap();
    let r = transform(p, Symmetry::Rotate90);
    assert_ne!(p, r);
    assert_eq!(canonical(p), canonical(r));
    assert_eq!(orbit_size(p), 8);
    assert_eq!(orbit_size(Position::START), 1);
    assert_eq!(
        orbit_size(parse_position("1_----S----", Budget::STANDARD).unwrap()),
        1
    );
    assert_eq!(
        orbit_size(parse_position("1_S---S---S", Budget::STANDARD).unwrap()),
        2
    );
}

#[test]
fn orbit_counting_matches_burnside_at_depth_two() {
    // Distinct positions two plies deep (584) fall into classes whose sizes
    // must add back up to 584.
    let rules = Rules::default();
    let mut depth2 = BTreeSet::new();
    for c in children(rules, rules.start()) {
        depth2.extend(children(rules, c));
    }
    assert_eq!(depth2.len(), 584);
    let classes: BTreeSet<Position> = depth2.iter().map(|&p| canonical(p)).collect();
    let total: usize = classes.iter().map(|&c| orbit_size(c)).sum();
    assert_eq!(total, 584);
}

#[test]
fn table_transform_equals_cell_by_cell_transform() {
    use games_topitop_rules::symmetry::transform_slow;
    for p in sample(5_000, 21) {
        for k in Symmetry::ALL {
            assert_eq!(transform(p, k), transform_slow(p, k), "{p} map {k:?}");
        }
        let slow_canonical = Symmetry::ALL
            .into_iter()
            .map(|k| transform_slow(p, k))
            .min_by_key(|q| q.bits())
            .unwrap();
        assert_eq!(canonical(p), slow_canonical, "{p}");
    }
}

/// The survey of canonical boards jumps over the runs that
/// `non_canonical_prefix` rules out, with `Board::rest_of_prefix`: each run
/// must hold no canonical board, and its length and last board must be
/// those a board-by-board walk finds.
#[test]
fn runs_ruled_out_by_a_prefix_hold_no_canonical_board() {
    use games_topitop_rules::symmetry::{board_standing, non_canonical_prefix};
    let index = games_topitop_rules::StateIndex::new(Budget::new(2, 1, 2, 2).unwrap());
    let boards: Vec<_> = index.board_walk(0, index.boards()).collect();
    let (mut ruled_out, mut runs) = (0, 0);
    for (n, &board) in boards.iter().enumerate() {
        let Some(keep) = non_canonical_prefix(board) else {
            continue;
        };
        ruled_out += 1;
        assert!(!board_standing(board).canonical, "{board}");
        let (len, last) = board.rest_of_prefix(keep);
        let prefix = |b: games_topitop_rules::Board| b.bits() >> (4 * (9 - keep));
        let walked: Vec<_> = boards[n..]
            .iter()
            .take_while(|&&b| prefix(b) == prefix(board) && b.packed_counts() == board.packed_counts())
            .collect();
        assert_eq!(len as usize, walked.len(), "{board} keeping {keep}");
        assert_eq!(Some(&&last), walked.last(), "{board} keeping {keep}");
        if keep < 9 {
            runs += 1;
            assert!(walked.iter().all(|&&b| !board_standing(b).canonical), "{board}");
        }
    }
    assert!(ruled_out > boards.len() / 2, "{ruled_out} of {}", boards.len());
    assert!(runs > 1000, "{runs}");
}
