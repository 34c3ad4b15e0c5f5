//! Move generation + application throughput on one core.
//!
//! Builds a fixed set of positions by seeded random play-outs, then times
//! generating every move of every position and applying each one. Prints
//! moves per second; the target is at least 50 M/s on one core.

use std::hint::black_box;
use std::time::Instant;

use games_topitop_rules::sample::{playout_positions, Rng};
use games_topitop_rules::{play_unchecked, MoveList, Position, Rules};

fn run(rules: Rules, set: &[Position]) -> (u64, u64) {
    let mut list = MoveList::new();
    let mut moves = 0u64;
    let mut check = 0u64;
    for &pos in set {
        rules.generate_gamesman_moves(black_box(pos), &mut list);
        moves += list.len() as u64;
        for &m in list.iter() {
            check = check.wrapping_add(play_unchecked(pos, m).bits());
        }
    }
    (moves, black_box(check))
}

fn main() {
    let rules = Rules::default();
    let set: Vec<Position> = playout_positions(rules, 200_000, 64, &mut Rng::new(20_061_007))
        .into_iter()
        .filter(|&p| rules.primitive(p).is_none())
        .collect();
    let expected_moves: u64 = set.iter().map(|&p| rules.gamesman_moves(p).len() as u64).sum();
    let (_, first_check) = run(rules, &set);
    let mut best = f64::MAX;
    let rounds = 20;
    for _ in 0..rounds {
        let t = Instant::now();
        let (moves, check) = run(rules, &set);
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(moves, expected_moves, "move count changed between runs");
        assert_eq!(check, first_check, "children changed between runs");
        best = best.min(secs);
    }
    let rate = expected_moves as f64 / best;
    println!(
        "movegen: {} positions, {} moves per round ({:.1} per position); best of {rounds}: {:.3} ms, {:.1} M moves generated+applied per second (one core)",
        set.len(),
        expected_moves,
        expected_moves as f64 / set.len() as f64,
        best * 1e3,
        rate / 1e6
    );
}
