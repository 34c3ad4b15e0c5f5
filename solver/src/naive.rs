//! A plain fixed-point solver over every position of a tiered game, with
//! no tiers, queues or reverse graph: the independent check of the tier
//! solvers on small games. Slow (a sweep over every position per round);
//! for tests.

use std::collections::HashMap;

use topitop_game_api::{Record, Tiered, Value};

/// Every position of `game`'s tiers with its record (children taken to
/// their canonical form, as the tiers hold them), found by sweeping all
/// positions round after round until nothing changes. In round `k`, a
/// position wins if a child was found losing in round `k - 1`, and loses
/// if every child is found winning and the last of them in round `k - 1`;
/// then ties spread the same way among the positions left; the rest are
/// draws. Primitive positions are round 0.
///
/// # Panics
/// A move leading to a position outside every tier, or a non-primitive
/// position with no move.
pub fn solve_naive<G: Tiered>(game: &G) -> HashMap<G::Position, Record> {
    let mut children: HashMap<G::Position, Vec<G::Position>> = HashMap::new();
    let mut records: HashMap<G::Position, Record> = HashMap::new();
    for tier in game.tiers() {
        for i in 0..game.tier_size(tier) {
            let Some(pos) = game.position(tier, i) else {
                continue;
            };
            if let Some(v) = game.primitive(&pos) {
                records.insert(pos, Record::new(v, 0));
                continue;
            }
            let moves = game.moves(&pos);
            assert!(!moves.is_empty(), "{} has no move", game.format_position(&pos));
            children.insert(
                pos,
                moves
                    .into_iter()
                    .map(|m| game.canonical(&game.play(&pos, m)))
                    .collect(),
            );
        }
    }
    for kids in children.values() {
        for c in kids {
            assert!(
                records.contains_key(c) || children.contains_key(c),
                "a move leads to {}, in no tier",
                game.format_position(c)
            );
        }
    }
    // Wins and losses, then ties.
    for phase in [Value::Win, Value::Tie] {
        let mut round: u16 = 0;
        loop {
            round += 1;
            let mut found = Vec::new();
            for (pos, kids) in &children {
                if records.contains_key(pos) {
                    continue;
                }
                let of = |c: &G::Position| records.get(c).copied();
                let just = |c: &G::Position, v: Value| {
                    of(c).is_some_and(|r| r.value() == Some(v) && r.remoteness() == round - 1)
                };
                let value = if phase == Value::Win {
                    if kids.iter().any(|c| just(c, Value::Lose)) {
                        Some(Value::Win)
                    } else if kids
                        .iter()
                        .all(|c| of(c).is_some_and(|r| r.value() == Some(Value::Win)))
                        && kids.iter().any(|c| just(c, Value::Win))
                    {
                        Some(Value::Lose)
                    } else {
                        None
                    }
                } else {
                    kids.iter().any(|c| just(c, Value::Tie)).then_some(Value::Tie)
                };
                if let Some(v) = value {
                    found.push((*pos, Record::new(v, round)));
                }
            }
            // A round's finds all have its remoteness: a round with none
            // leaves the next nothing to build on.
            if found.is_empty() {
                break;
            }
            records.extend(found);
        }
    }
    for pos in children.keys() {
        records.entry(*pos).or_insert(Record::new(Value::Draw, 0));
    }
    records
}
