//! Perft from the start, checked against counts made apart from the
//! engine: by hand on 3×3, by king distances on 8×8.

use games_topple::{perft, Shape, Topple};
use topitop_game_api::Game;

#[test]
fn three_by_three_matches_the_hand_count() {
    let g = Topple::from_options(Some("3x3"), Some("s9")).unwrap();
    let start = Game::start(&g);
    // Red anywhere (9), Blue anywhere else (8); every cell is within two
    // king steps of every other, so Red may place on any of the 7 empty
    // cells and cannot step (the only stack is under Blue's pawn). Blue
    // then places on the 7 cells without a pawn, or steps onto Red's new
    // stack if it is next to Blue's: 40 ordered pairs of neighbours, each
    // with 7 cells for Red's first pawn.
    let expected = [9, 9 * 8, 9 * 8 * 7, 9 * 8 * 7 * 7 + 40 * 7];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&g, &start, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn eight_by_eight_matches_a_count_by_distances() {
    let g = Topple::from_options(None, None).unwrap();
    let s: Shape = g.shape();
    let n = s.cells();
    let near = |a: u8, b: u8| s.distance(a, b) <= 2;
    let next = |a: u8, b: u8| s.distance(a, b) == 1;
    let zone = |a: u8| (0..n).filter(|&b| near(a, b)).count() as u64;
    let (mut d3, mut d4) = (0u64, 0u64);
    for a in 0..n {
        for b in (0..n).filter(|&b| b != a) {
            // Red's placements: its zone without its own and Blue's pawn.
            let red = zone(a) - 1 - u64::from(near(a, b));
            d3 += red;
            for c in (0..n).filter(|&c| c != a && c != b && near(a, c)) {
                // Blue's: its zone without both pawns, plus a step onto c.
                d4 += zone(b) - 1 - u64::from(near(b, a)) + u64::from(next(b, c));
            }
        }
    }
    let start = Game::start(&g);
    assert_eq!(perft(&g, &start, 1), 64);
    assert_eq!(perft(&g, &start, 2), 64 * 63);
    assert_eq!(perft(&g, &start, 3), d3);
    assert_eq!(perft(&g, &start, 4), d4);
    println!("8x8-s64 perft 1-4: 64 {} {d3} {d4}", 64 * 63);
}
