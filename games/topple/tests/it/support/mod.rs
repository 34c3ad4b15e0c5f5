//! Helpers shared by the integration tests: the seeded generator and a naive
//! move generator written from the rules text, apart from the engine's.

#![allow(dead_code)]

use games_topple::{Color, Direction, Move, Phase, Position, Topple};

pub use topitop_game_api::rng::Rng;

/// Every legal move of `pos` as the rules text reads, by coordinates,
/// sorted; the game-over test is the caller's.
pub fn naive_moves(g: &Topple, pos: &Position) -> Vec<Move> {
    let s = g.shape();
    let n = s.cells();
    let me = pos.turn();
    let xy = |b: u8| s.coords(b);
    let dist = |a: u8, b: u8| {
        let ((ra, ca), (rb, cb)) = (xy(a), xy(b));
        (ra - rb).abs().max((ca - cb).abs())
    };
    let mine: Vec<u8> = (0..n).filter(|&b| pos.pawn(b) == Some(me)).collect();
    let mut out = Vec::new();
    if let Phase::First(_) = pos.phase() {
        out.extend(
            (0..n)
                .filter(|&b| pos.height(b) == 0)
                .map(|cell| Move::Place { cell }),
        );
        return out;
    }
    for cell in 0..n {
        let near = mine.iter().any(|&p| dist(p, cell) <= 2);
        if pos.supply() == 0 || !near || pos.pawn(cell).is_some() {
            continue;
        }
        if pos.height(cell) >= 3 {
            out.extend(Direction::ALL.iter().map(|&dir| Move::Topple { cell, dir }));
        } else {
            out.push(Move::Place { cell });
        }
    }
    for &from in &mine {
        for to in 0..n {
            let (h, t) = (i32::from(pos.height(from)), i32::from(pos.height(to)));
            if dist(from, to) == 1 && t >= 1 && pos.pawn(to).is_none() && (h - t).abs() <= 1 {
                out.push(Move::Step { from, to });
            }
        }
    }
    out.sort();
    out
}

/// The colour to move's name, for messages.
pub fn mover(pos: &Position) -> &'static str {
    match pos.turn() {
        Color::Red => "Red",
        Color::Blue => "Blue",
    }
}
