//! Property: every Topple game the input drives keeps the rules'
//! invariants.
//!
//! The first two bytes choose the board (2×2 to 8×8) and the supply (2 to
//! 2·R·C, capped at 255); each later byte chooses a move among the legal
//! ones, by its value modulo their number. After every move:
//! `games_topple::transition` holds (the move is legal, plays to a
//! position of play, and pieces, pawns, supply, turn and tier changed
//! exactly as the rules say), the position string parses back to the
//! position, the move string parses back to the move, and the list of
//! moves is empty exactly when the position is primitive (a player
//! without pawns, or a player to move who is stuck, which loses). On
//! boards small enough to index, the position's tier and index give back
//! its canonical form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use topitop_game_api::{Game, Tiered};
use games_topple::{transition, Shape, Topple};

fuzz_target!(|data: &[u8]| {
    let [shape_byte, supply_byte, plays @ ..] = data else {
        return;
    };
    let rows = 2 + shape_byte % 7;
    let cols = 2 + (shape_byte / 7) % 7;
    let shape = Shape::new(rows, cols).expect("2..=8 each way");
    let most = (2 * u32::from(shape.cells())).min(255);
    let supply = 2 + (u32::from(*supply_byte) % (most - 1)) as u8;
    let game = Topple::new(shape, supply).expect("a supply of 2 or more");
    let indexed = game.indexable();
    let mut pos = Game::start(&game);
    for &byte in plays {
        let moves = Game::moves(&game, &pos);
        assert_eq!(
            moves.is_empty(),
            Game::primitive(&game, &pos).is_some(),
            "{}",
            game.format_position(&pos)
        );
        if moves.is_empty() {
            return;
        }
        let mv = moves[usize::from(byte) % moves.len()];
        let text = game.format_move(mv);
        assert_eq!(Game::parse_move(&game, &pos, &text), Ok(mv), "{text}");
        let child = Game::play(&game, &pos, mv);
        if let Err(why) = transition(&game, &pos, mv, &child) {
            panic!("{} {text}: {why}", game.format_position(&pos));
        }
        let printed = game.format_position(&child);
        assert_eq!(game.parse_position(&printed), Ok(child), "{printed}");
        if indexed {
            let back = game.position(game.tier_of(&child), game.index(&child));
            // The index folds reserves only; board images have their own.
            assert_eq!(back, Some(game.fold_reserves(&child)), "{printed}");
        }
        pos = child;
    }
});
