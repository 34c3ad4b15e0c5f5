//! Random-position probes against a database file: median latency with a
//! warm cache, and probes per second per thread.
//!
//! `cargo bench -p games-topitop-solved --bench probe [-- FILE]`; FILE defaults to
//! `data/topitop_v1_0.db` (written by `topitop solve`).

use std::path::PathBuf;
use std::time::Instant;

use games_topitop_rules::sample::{playout_positions, Rng};
use games_topitop_rules::StateIndex;
use games_topitop_solved::Database;

fn main() {
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../../data/topitop_v1_0.db"
            ))
        });
    let started = Instant::now();
    // SAFETY: nothing writes the database while the benchmark runs; the
    // benchmark measures the memory-mapped reader, as a server using it would.
    let db = match unsafe { Database::map(&path) } {
        Ok(db) => db,
        Err(e) => {
            eprintln!("probe bench skipped: {e} (run `topitop solve` first)");
            return;
        }
    };
    println!(
        "opened {} ({:.1} MB) in {:?}",
        path.display(),
        db.file_len() as f64 / 1e6,
        started.elapsed()
    );
    let rules = db.rules();
    let mut rng = Rng::new(7);
    // Positions met in play (random playouts), and uniformly random indexed states.
    let mut positions = playout_positions(rules, 500_000, 40, &mut rng);
    let index = StateIndex::new(rules.budget());
    positions.extend((0..500_000).map(|_| index.position(rng.below(index.len())).unwrap_or_default()));
    let mut order: Vec<usize> = (0..positions.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    // Warm the block cache.
    let t = Instant::now();
    let mut sink = 0u64;
    for &i in &order {
        sink += u64::from(db.get(positions[i]).map(|r| r.bits()).unwrap_or(0));
    }
    let cold = t.elapsed();
    println!(
        "first pass (cache filling): {:.0} ns/probe, {:?}",
        cold.as_nanos() as f64 / order.len() as f64,
        db.cache_stats()
    );
    // Latency: time batches of 64 probes, report the median batch per probe
    // (a single probe is below the timer's resolution).
    let mut batches: Vec<f64> = order
        .chunks(64)
        .map(|c| {
            let t = Instant::now();
            for &i in c {
                sink += u64::from(db.get(positions[i]).map(|r| r.bits()).unwrap_or(0));
            }
            t.elapsed().as_nanos() as f64 / c.len() as f64
        })
        .collect();
    batches.sort_by(f64::total_cmp);
    let median = batches[batches.len() / 2];
    let p99 = batches[batches.len() * 99 / 100];
    let t = Instant::now();
    let rounds = 3;
    for _ in 0..rounds {
        for &i in &order {
            sink += u64::from(db.get(positions[i]).map(|r| r.bits()).unwrap_or(0));
        }
    }
    let rate = (rounds * order.len()) as f64 / t.elapsed().as_secs_f64();
    println!("warm probe: median {median:.0} ns, p99 {p99:.0} ns (per probe, batches of 64)");
    println!("throughput: {:.2} M probes/s on one thread", rate / 1e6);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let t = Instant::now();
    std::thread::scope(|s| {
        for k in 0..threads {
            let (db, positions, order) = (&db, &positions, &order);
            s.spawn(move || {
                let mut x = 0u64;
                for &i in order.iter().skip(k) {
                    x += u64::from(db.get(positions[i]).map(|r| r.bits()).unwrap_or(0));
                }
                std::hint::black_box(x);
            });
        }
    });
    let all = (threads * order.len()) as f64 / t.elapsed().as_secs_f64();
    println!(
        "throughput: {:.2} M probes/s on {threads} threads ({:.2} M per thread)",
        all / 1e6,
        all / threads as f64 / 1e6
    );
    std::hint::black_box(sink);
}
