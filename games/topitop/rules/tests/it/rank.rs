//! Topitop's fast ranking paths give the shared ranker's numbers.

use games_topitop_rules::rank::{rank_board, rank_packed};
use topitop_game_api::rank::{multinomial, rank, unrank};

#[test]
fn the_fast_paths_give_the_shared_rankers_numbers() {
    let compositions: [[u8; 10]; 5] = [
        [9, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [3, 1, 1, 1, 1, 1, 1, 0, 0, 0],
        [2, 2, 2, 1, 1, 0, 0, 0, 0, 1],
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 0],
        [4, 0, 2, 0, 1, 0, 0, 2, 0, 0],
    ];
    for counts in compositions {
        let m = multinomial(&counts);
        let packed = (0..10).fold(0u64, |p, s| p | u64::from(counts[s]) << (4 * s));
        for r in 0..m {
            let mut cells = [0u8; 9];
            unrank(r, &counts, &mut cells);
            let board = cells.iter().fold(0u64, |b, &c| b << 4 | u64::from(c));
            assert_eq!(rank(cells, &counts), r);
            assert_eq!(rank_board(board, packed, m), r, "{cells:?}");
            assert_eq!(rank_packed(cells, packed, 9, m), r, "{cells:?}");
        }
    }
}
