//! The framework's loop-free tier solver on Topolo, checked position by
//! position against an independent algorithm: plain recursion over the
//! rules (minimax with a memo, no tiers, no indices, no symmetry), on every
//! board of at most 9 cells, in both variants.

use std::collections::HashMap;

use games_topolo::{Outcome, Position, Shape, Topolo, Variant};
use topitop_game_api::{Record, Tiered, Value};
use topitop_solver::loop_free::solve_loop_free;

/// The value and remoteness of `pos` by recursion over the rules alone.
fn brute(g: &Topolo, pos: Position, memo: &mut HashMap<Position, (Value, u16)>) -> (Value, u16) {
    if let Some(&r) = memo.get(&pos) {
        return r;
    }
    let result = match g.outcome(&pos) {
        Some(Outcome::Win) => (Value::Win, 0),
        Some(Outcome::Lose) => (Value::Lose, 0),
        Some(Outcome::Tie) => (Value::Tie, 0),
        None => {
            let children: Vec<(Value, u16)> = Topolo::moves(g, &pos)
                .into_iter()
                .map(|m| brute(g, Topolo::play(g, &pos, m), memo))
                .collect();
            let best = |v: Value| children.iter().filter(move |c| c.0 == v).map(|c| c.1);
            if let Some(r) = best(Value::Lose).min() {
                (Value::Win, r + 1)
            } else if let Some(r) = best(Value::Tie).min() {
                (Value::Tie, r + 1)
            } else {
                (Value::Lose, best(Value::Win).max().expect("a move") + 1)
            }
        }
    };
    memo.insert(pos, result);
    result
}

#[test]
fn the_tier_solver_agrees_with_plain_recursion_on_every_small_board() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        for variant in [Variant::Full, Variant::SizeOnly] {
            let g = Topolo::new(Shape::new(r, c).unwrap(), variant);
            let mut memo = HashMap::new();
            brute(&g, Position::EMPTY, &mut memo);
            for symmetric in [true, false] {
                let solved = solve_loop_free(&g, symmetric, |_, _| {}).unwrap();
                for (&pos, &(v, rem)) in &memo {
                    assert_eq!(
                        solved.get(&g, &pos),
                        Record::new(v, rem),
                        "{r}x{c} {variant:?} symmetric {symmetric}: {}",
                        g.format(&pos)
                    );
                    // Remoteness is the number of empty cells, for free.
                    assert_eq!(u32::from(rem), u32::from(g.shape().cells()) - pos.placed());
                }
                // Every index that names a position of play was solved.
                let stored: usize = solved
                    .tiers()
                    .iter()
                    .map(|&t| {
                        solved
                            .tier(t)
                            .unwrap()
                            .unwrap()
                            .iter()
                            .filter(|x| x.value().is_some())
                            .count()
                    })
                    .sum();
                // The index holds one position per symmetry class, so a
                // solve without symmetry stores the same ones.
                let classes = memo.keys().filter(|p| g.canonical(p) == **p).count();
                assert_eq!(stored, classes, "{r}x{c} {variant:?} symmetric {symmetric}");
            }
            let start = brute(&g, Position::EMPTY, &mut memo);
            eprintln!(
                "{r}x{c} {}: start {} in {}",
                variant.name(),
                start.0.name(),
                start.1
            );
            assert_eq!(g.tier_of(&Position::EMPTY), games_topolo::layout::Tier::Start);
        }
    }
}
