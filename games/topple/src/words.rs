//! What the browser page says of a Topple position beside its board: the
//! shared supply and each player's reserve of pawns, and at the end why
//! the game ended.

use crate::position::{Color, Phase, Position};
use crate::rules::{Outcome, Topple};

/// The supply and the reserves.
pub fn facts(pos: &Position) -> Vec<(String, String)> {
    let pieces = |n: u8| format!("{n} piece{}", if n == 1 { "" } else { "s" });
    let pawns = |n: u8| format!("{n} pawn{}", if n == 1 { "" } else { "s" });
    vec![
        ("Supply".into(), pieces(pos.supply())),
        ("Red's reserve".into(), pawns(pos.reserve(Color::Red))),
        ("Blue's reserve".into(), pawns(pos.reserve(Color::Blue))),
    ]
}

/// Why the game is over: a player without a pawn on the board, or the
/// player to move without a move. `None` while it goes on.
pub fn ending(game: &Topple, pos: &Position) -> Option<String> {
    let outcome = game.outcome(pos)?;
    let me = pos.turn();
    let them = me.other();
    let on_board = |c: Color| pos.pawn_count(c) > 0;
    let text = if pos.phase() == Phase::Play && !(on_board(me) && on_board(them)) {
        match (on_board(me), on_board(them)) {
            (false, false) => "Neither player has a pawn on the board: a tie.".to_string(),
            (true, _) => format!("{} has no pawn on the board: {} wins.", them.name(), me.name()),
            _ => format!("{} has no pawn on the board: {} wins.", me.name(), them.name()),
        }
    } else {
        debug_assert_eq!(outcome, Outcome::Lose);
        format!("{} has no move: {} wins.", me.name(), them.name())
    };
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use topitop_game_api::Game;

    #[test]
    fn every_ending_found_on_played_lines_names_the_rules_winner() {
        let game = Topple::from_options(Some("3x3"), Some("s6")).unwrap();
        let mut seen = 0;
        for seed in 0..40usize {
            let mut pos = game.start();
            for ply in 0..200 {
                if let Some(outcome) = game.outcome(&pos) {
                    let text = ending(&game, &pos).expect("an ending");
                    let winner = match outcome {
                        Outcome::Win => Some(pos.turn()),
                        Outcome::Lose => Some(pos.turn().other()),
                        Outcome::Tie => None,
                    };
                    match winner {
                        Some(c) => assert!(text.ends_with(&format!("{} wins.", c.name())), "{text}"),
                        None => assert!(text.ends_with("a tie."), "{text}"),
                    }
                    seen += 1;
                    break;
                }
                assert_eq!(ending(&game, &pos), None);
                let moves = Game::moves(&game, &pos);
                pos = Game::play(&game, &pos, moves[(seed * 7 + ply * 13) % moves.len()]);
            }
        }
        assert!(seen > 10, "only {seen} games ended");
    }

    #[test]
    fn the_supply_and_reserves_are_listed() {
        let game = Topple::from_options(Some("3x3"), Some("s6")).unwrap();
        let f = facts(&game.start());
        assert_eq!(f[0], ("Supply".into(), "6 pieces".into()));
        assert_eq!(f[1], ("Red's reserve".into(), "8 pawns".into()));
    }
}
