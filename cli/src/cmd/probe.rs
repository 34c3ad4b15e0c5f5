//! `stats --probes N`: how fast a database answers, on positions met in
//! random play from the start (the positions a player or a search asks
//! about), each asked twice: first with the database's block cache empty
//! (each block decoded on its first touch; the file's pages may still be
//! in the operating system's cache), then again with every block decoded.

use std::time::Instant;

use serde::Serialize;
use topitop_db::Reader;
use topitop_game_api::rng::Rng;
use topitop_game_api::Game;

/// Latencies of one pass, in microseconds.
#[derive(Clone, Debug, Serialize)]
pub struct Latency {
    /// The mean.
    pub mean_us: f64,
    /// The median.
    pub p50_us: f64,
    /// The 99th percentile.
    pub p99_us: f64,
}

/// What `--probes` measured.
#[derive(Clone, Debug, Serialize)]
pub struct Probes {
    /// Positions probed (distinct, met in random play).
    pub positions: usize,
    /// The first pass: each block decoded on its first touch.
    pub cold: Latency,
    /// The second pass over the same positions, in another order.
    pub warm: Latency,
}

impl Probes {
    /// The figures in one line.
    pub fn line(&self) -> String {
        let l = |x: &Latency| {
            format!(
                "mean {:.2} µs, p50 {:.2}, p99 {:.2}",
                x.mean_us, x.p50_us, x.p99_us
            )
        };
        format!(
            "probes               {} positions met in random play: first touch {}; again {}",
            self.positions,
            l(&self.cold),
            l(&self.warm)
        )
    }
}

/// The positions of random games from the start, each once, until `n`
/// (fewer when play reaches fewer), in a random order.
fn sample<G: Game>(game: &G, n: usize, rng: &mut Rng) -> Vec<G::Position> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    // A game reaching too few new positions stops the search.
    let mut idle = 0;
    while out.len() < n && idle < 1000 {
        let before = out.len();
        let mut pos = game.start();
        for _ in 0..1000 {
            if seen.insert(pos) {
                out.push(pos);
                if out.len() == n {
                    break;
                }
            }
            let moves = game.moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = game.play(&pos, moves[rng.index(moves.len())]);
        }
        idle = if out.len() == before { idle + 1 } else { 0 };
    }
    shuffle(&mut out, rng);
    out
}

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.index(i + 1));
    }
}

/// One pass of lookups over `positions`, each timed.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)] // times in µs
fn pass<G: Game>(game: &G, db: &dyn Reader<G>, positions: &[G::Position]) -> anyhow::Result<Latency> {
    let mut times = Vec::with_capacity(positions.len());
    for p in positions {
        let t = Instant::now();
        let rec = db.lookup(game, p)?;
        times.push(t.elapsed().as_nanos());
        std::hint::black_box(rec);
    }
    times.sort_unstable();
    let at = |q: f64| {
        let i = ((times.len() as f64 - 1.0) * q).round() as usize;
        times[i] as f64 / 1000.0
    };
    let mean = times.iter().sum::<u128>() as f64 / times.len() as f64 / 1000.0;
    Ok(Latency {
        mean_us: mean,
        p50_us: at(0.5),
        p99_us: at(0.99),
    })
}

/// Probes `n` positions of `game` in `db`, freshly opened by the caller
/// (its block cache empty), twice.
///
/// # Errors
/// A damaged block.
pub fn run<G: Game>(game: &G, db: &dyn Reader<G>, n: u32, seed: u64) -> anyhow::Result<Option<Probes>> {
    let mut rng = Rng::new(seed);
    let mut positions = sample(game, n as usize, &mut rng);
    if positions.is_empty() {
        return Ok(None);
    }
    let cold = pass(game, db, &positions)?;
    shuffle(&mut positions, &mut rng);
    let warm = pass(game, db, &positions)?;
    Ok(Some(Probes {
        positions: positions.len(),
        cold,
        warm,
    }))
}
