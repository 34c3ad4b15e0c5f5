//! The dense state index: a bijection onto 0..len.

use games_topitop_rules::cell::ALL_CELLS;
use games_topitop_rules::geometry::{Slide, NEIGHBOURS};
use games_topitop_rules::sample::{playout_positions, Rng};
use games_topitop_rules::{Board, Budget, Cell, Player, Position, Rules, Ruleset, StateIndex, Variant};

#[test]
fn standard_index_size() {
    let idx = StateIndex::new(Budget::STANDARD);
    assert_eq!(idx.len(), 358_668_092);
    assert_eq!(idx.tiers().len(), 2_232);
    assert_eq!(idx.tiers().iter().map(|t| t.boards()).sum::<u64>(), 36_250_846);
}

/// Every board within the budget, by brute force over the cells.
fn all_boards(budget: Budget) -> Vec<Board> {
    fn go(i: usize, b: Board, budget: Budget, out: &mut Vec<Board>) {
        let used = b.pieces_used();
        if used.iter().zip(budget.counts()).any(|(&u, m)| u > m) {
            return;
        }
        if i == 9 {
            out.push(b);
            return;
        }
        for c in ALL_CELLS {
            go(i + 1, b.with(i, c), budget, out);
        }
    }
    let mut out = Vec::new();
    go(0, Board::EMPTY, budget, &mut out);
    out
}

#[test]
fn reduced_budget_index_is_a_bijection_onto_every_indexable_state() {
    let budget = Budget::new(1, 1, 2, 2).unwrap();
    let idx = StateIndex::new(budget);
    let mut seen = vec![false; idx.len() as usize];
    let mut states = 0u64;
    for board in all_boards(budget) {
        for turn in [Player::Blue, Player::Red] {
            let mut forbidden = vec![None];
            for (from, neighbours) in NEIGHBOURS.iter().enumerate() {
                if board.get(from).is_neutral() {
                    for &to in *neighbours {
                        if board.get(to as usize) == Cell::Empty {
                            forbidden.push(Slide::new(from, to as usize));
                        }
                    }
                }
            }
            for f in forbidden {
                let p = Position::new(board, turn, f);
                let i = idx.index(p).unwrap();
                assert!(!seen[i as usize], "{p} collides");
                seen[i as usize] = true;
                assert_eq!(idx.position(i).unwrap(), p);
                states += 1;
            }
        }
    }
    assert_eq!(states, idx.len(), "the index covers exactly the indexable states");
    assert!(idx.position(idx.len()).is_err());
}

#[test]
fn standard_index_round_trips_on_samples() {
    let idx = StateIndex::new(Budget::STANDARD);
    let mut rng = Rng::new(1);
    for _ in 0..100_000 {
        let i = rng.below(idx.len());
        let p = idx.position(i).unwrap();
        assert!(p.forbidden_is_plausible());
        assert_eq!(idx.index(p).unwrap(), i);
    }
    for rs in [Ruleset::V0, Ruleset::V1(Variant::DEFAULT)] {
        for p in playout_positions(Rules::new(rs), 20_000, 40, &mut rng) {
            let i = idx.index(p).unwrap();
            assert_eq!(idx.position(i).unwrap(), p);
        }
    }
}

#[test]
fn unindexable_positions_are_errors() {
    let idx = StateIndex::new(Budget::STANDARD);
    let raw = games_topitop_rules::parse_position_syntax("1_LS-L-SLLS54").unwrap();
    assert!(idx.index(raw).is_err(), "implausible forbidden slide");
    let over = games_topitop_rules::parse_position_syntax("1_BBB------").unwrap();
    assert!(idx.index(over).is_err(), "over budget");
}

#[test]
fn walk_matches_position_by_position() {
    let budget = Budget::new(1, 1, 2, 2).unwrap();
    let idx = StateIndex::new(budget);
    let walked: Vec<Position> = idx.walk(0, idx.len()).collect();
    assert_eq!(walked.len() as u64, idx.len());
    for (i, p) in walked.iter().enumerate() {
        assert_eq!(idx.position(i as u64).unwrap(), *p, "index {i}");
    }
    let std_idx = StateIndex::new(Budget::STANDARD);
    let mut rng = Rng::new(4);
    for _ in 0..200 {
        let start = rng.below(std_idx.len() - 5_000);
        for (k, p) in std_idx.walk(start, start + 5_000).enumerate() {
            assert_eq!(std_idx.position(start + k as u64).unwrap(), p);
        }
    }
    assert_eq!(std_idx.walk(std_idx.len() - 3, std_idx.len() + 10).count(), 3);
}

#[test]
fn board_walk_numbers_every_board_in_order() {
    let idx = StateIndex::new(Budget::new(2, 2, 2, 2).unwrap());
    let all: Vec<Board> = idx.board_walk(0, u64::MAX).collect();
    assert_eq!(all.len() as u64, idx.boards());
    for (n, &b) in all.iter().enumerate() {
        assert_eq!(idx.board_number(b).unwrap(), n as u64, "{b}");
    }
    assert_eq!(idx.board_walk(5, 9).collect::<Vec<_>>(), all[5..9].to_vec());
    // Windows that start inside a tier and cross into the next ones.
    let std_idx = StateIndex::new(Budget::STANDARD);
    let mut rng = Rng::new(11);
    for _ in 0..100 {
        let start = rng.below(std_idx.boards() - 20_000);
        for (k, b) in std_idx.board_walk(start, start + 20_000).enumerate() {
            assert_eq!(std_idx.board_number(b).unwrap(), start + k as u64, "{b}");
        }
    }
    assert_eq!(std_idx.board_walk(std_idx.boards() - 2, u64::MAX).count(), 2);
}

#[test]
fn counts_after_a_move_equal_a_full_count() {
    let rules = Rules::new(Ruleset::V1(Variant::DEFAULT));
    let idx = StateIndex::new(Budget::STANDARD);
    let mut rng = Rng::new(7);
    let mut moves = games_topitop_rules::MoveList::new();
    let mut checked = 0;
    for p in playout_positions(rules, 5_000, 40, &mut rng) {
        let packed = p.board().packed_counts();
        rules.generate_piece_moves(p, &mut moves);
        for &m in moves.iter() {
            let child = games_topitop_rules::play_unchecked(p, m).board();
            let derived = p.board().packed_counts_of(packed, child);
            assert_eq!(derived, child.packed_counts(), "{p} then {m:?}");
            assert_eq!(
                idx.board_number_counted(child, derived).unwrap(),
                idx.board_number(child).unwrap()
            );
            checked += 1;
        }
    }
    assert!(checked > 10_000, "only {checked} moves checked");
}
