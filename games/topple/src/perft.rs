//! Perft: the number of move sequences of a given length, the standard
//! check of a move generator.

use topitop_game_api::Game;

/// The lines of exactly `depth` moves from `pos` (as in chess, a game that
/// ends sooner counts for none).
pub fn perft<G: Game>(game: &G, pos: &G::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| perft(game, &game.play(pos, m), depth - 1))
        .sum()
}
