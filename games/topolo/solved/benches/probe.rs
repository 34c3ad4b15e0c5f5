//! Random probes of a Topolo database: positions from random games, each
//! looked up as `query` looks it up (canonical form, tier, index, the
//! value read from the file), timed one by one.
//!
//! `cargo bench -p games-topolo-solved --bench probe -- DB [N]` (the
//! database's name gives the board; N probes, default 100000).

use std::time::Instant;

use games_topolo::Topolo;
use topitop_db::SolvedDb;
use topitop_game_api::{Game, Registered};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let Some(path) = args.first() else {
        eprintln!("usage: cargo bench -p games-topolo-solved --bench probe -- DB [N]");
        std::process::exit(2);
    };
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let db = SolvedDb::open(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let (_, variant, _) = db.names();
    let game = Topolo::from_variant(variant).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    // Positions from random games, stopped at a random depth.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m as u64) as usize
    };
    let cells = game.shape().cells() as usize;
    let positions: Vec<_> = (0..n)
        .map(|_| {
            let depth = next(cells + 1);
            let mut p = game.start();
            for _ in 0..depth {
                let moves = Game::moves(&game, &p);
                if moves.is_empty() {
                    break;
                }
                p = Game::play(&game, &p, moves[next(moves.len())]);
            }
            p
        })
        .collect();
    for round in ["first touch", "again"] {
        let mut times: Vec<u64> = Vec::with_capacity(n);
        let all = Instant::now();
        for p in &positions {
            let t = Instant::now();
            let r = db.lookup(&game, p).expect("every position of play is stored");
            times.push(t.elapsed().as_nanos() as u64);
            std::hint::black_box(r);
        }
        let total = all.elapsed();
        times.sort_unstable();
        let q = |f: f64| times[((times.len() - 1) as f64 * f) as usize] as f64 / 1000.0;
        println!(
            "probe {} ({round}): {n} probes in {:.2} s; mean {:.2} µs, median {:.2} µs, p99 {:.2} µs, max {:.2} µs",
            db.path().display(),
            total.as_secs_f64(),
            total.as_secs_f64() * 1e6 / n as f64,
            q(0.5),
            q(0.99),
            q(1.0)
        );
    }
}
