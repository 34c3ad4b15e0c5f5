//! The framework's tier solver on Topple's loopy tiers against the naive
//! fixed-point solver, position by position, on the smallest boards.

use games_topple::Topple;
use topitop_game_api::{Game, Tiered, Value};
use topitop_solver::loop_free::solve_loop_free;
use topitop_solver::naive::solve_naive;

#[test]
fn the_tier_solver_agrees_with_the_naive_fixed_point_on_small_boards() {
    let mut seen = [0usize; 4];
    for (board, supplies) in [("2x2", 2..=7), ("2x3", 2..=6), ("3x3", 2..=5)] {
        for s in supplies {
            let g = Topple::from_options(Some(board), Some(&format!("s{s}"))).unwrap();
            let naive = solve_naive(&g);
            for symmetric in [false, true] {
                let solved = solve_loop_free(&g, symmetric, |_, _| {}).unwrap();
                for (pos, want) in &naive {
                    assert_eq!(
                        solved.get(&g, pos),
                        *want,
                        "{} on {}, symmetry {symmetric}",
                        g.format_position(pos),
                        g.variant()
                    );
                }
            }
            for r in naive.values() {
                seen[r.value().unwrap().index()] += 1;
            }
        }
    }
    // Wins, losses, ties (both pawns gone at once) and draws all came up.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn three_by_three_with_six_pieces_is_a_draw_from_the_start() {
    let g = Topple::from_options(Some("3x3"), Some("s6")).unwrap();
    let solved = solve_loop_free(&g, true, |_, _| {}).unwrap();
    let start = g.start();
    assert_eq!(g.moves(&start).len(), 9);
    assert_eq!(solved.get(&g, &start).value(), Some(Value::Draw));
}

#[test]
fn loopy_tiers_solve_the_same_on_one_thread_and_on_several() {
    let g = Topple::from_options(Some("3x3"), Some("s7")).unwrap();
    for symmetric in [true, false] {
        let on = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| solve_loop_free(&g, symmetric, |_, _| {}).unwrap())
        };
        let (one, many) = (on(1), on(3));
        assert!(one.loopy_stats().positions > 400_000, "{:?}", one.loopy_stats());
        assert_eq!(one.tiers(), many.tiers());
        for t in one.tiers() {
            assert!(
                one.tier(t).unwrap() == many.tier(t).unwrap(),
                "tier {} symmetry {symmetric}",
                g.tier_name(t)
            );
        }
    }
}
