//! Random games on many boards and supplies: every move keeps the
//! invariants, strings round-trip, moves agree with a naive generator, and
//! the game ends exactly when no move is left.

use crate::support;

use games_topple::{transition, Shape, Topple};
use support::{naive_moves, Rng};
use topitop_game_api::{Game, Tiered};

fn play_random_games(g: &Topple, games: u32, seed: u64) -> (u64, [u64; 4]) {
    let mut rng = Rng::new(seed);
    let mut plies = 0;
    let mut ends = [0u64; 4];
    let indexed = g.indexable();
    for _ in 0..games {
        let mut p = Game::start(g);
        for _ in 0..400 {
            let text = g.format_position(&p);
            assert_eq!(g.parse_position(&text), Ok(p), "{text}");
            let moves = Game::moves(g, &p);
            let primitive = Game::primitive(g, &p);
            assert_eq!(moves.is_empty(), primitive.is_some(), "{text}");
            if g.pawn_outcome(&p).is_none() {
                let mut sorted = moves.clone();
                sorted.sort();
                assert_eq!(sorted, naive_moves(g, &p), "{text}");
            }
            if indexed {
                let c = g.fold_reserves(&p);
                assert_eq!(g.position(g.tier_of(&p), g.index(&p)), Some(c), "{text}");
                assert!(Game::images(g, &p).contains(&p));
            }
            if let Some(v) = primitive {
                ends[v.index()] += 1;
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let mtext = g.format_move(mv);
            assert_eq!(Game::parse_move(g, &p, &mtext), Ok(mv), "{text} {mtext}");
            let child = Game::play(g, &p, mv);
            transition(g, &p, mv, &child).unwrap_or_else(|e| panic!("{text} {mtext}: {e}"));
            p = child;
            plies += 1;
        }
    }
    (plies, ends)
}

#[test]
fn random_games_keep_every_invariant() {
    let mut seed = 1;
    for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5), (4, 7), (8, 8)] {
        let shape = Shape::new(r, c).unwrap();
        let n = shape.cells();
        for supply in [2, 5, n, 2 * n, 255] {
            let g = Topple::new(shape, supply).unwrap();
            seed += 1;
            let (plies, ends) = play_random_games(&g, 40, seed);
            assert!(plies > 0);
            assert!(
                ends.iter().sum::<u64>() > 0 || supply >= n,
                "{} {ends:?}",
                Game::variant(&g)
            );
        }
    }
}
