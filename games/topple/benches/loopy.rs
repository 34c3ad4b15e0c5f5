//! Benchmark of the generic tier solver's loopy rounds on Topple: solves
//! boards in memory (no database) and prints, for the loopy tiers, wall and
//! CPU seconds of each phase and positions per CPU-second, so that a change
//! to `topitop-solver`'s loopy solver can be compared.
//!
//! `cargo bench -p games-topple --bench loopy [-- BOARD:VARIANT ...]`,
//! default `3x3:s8 3x3:s9`. `LOOPY_THREADS=N` runs on N threads (default:
//! every core).

use std::time::Instant;

use games_topple::Topple;
use topitop_solver::loop_free::solve_loop_free;
use topitop_solver::loopy::Phase;
use topitop_solver::usage::cpu_time;

fn main() {
    let mut boards: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if boards.is_empty() {
        boards = vec!["3x3:s8".into(), "3x3:s9".into()];
    }
    let threads = std::env::var("LOOPY_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    println!("threads {}", pool.current_num_threads());
    for board in boards {
        let (size, variant) = board.split_once(':').unwrap_or((&board, "s8"));
        let g = match Topple::from_options(Some(size), Some(variant)) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{board}: {e}");
                std::process::exit(2);
            }
        };
        let wall = Instant::now();
        let cpu = cpu_time();
        let solved = pool.install(|| solve_loop_free(&g, true, |_, _| {})).unwrap();
        let wall = wall.elapsed().as_secs_f64();
        let cpu = cpu.zip(cpu_time()).map_or(0.0, |(a, b)| (b - a).as_secs_f64());
        let s = solved.loopy_stats();
        let per = |p: Phase| {
            let c = p.cpu.as_secs_f64();
            format!(
                "{:.2} s wall, {c:.2} CPU-s, {:.0} positions/CPU-s",
                p.wall.as_secs_f64(),
                s.positions as f64 / c.max(1e-9)
            )
        };
        println!(
            "topple {size} {variant}: solve {wall:.2} s wall, {cpu:.2} CPU-s; loopy tiers {}, indices {}, positions {}, moves inside {}",
            s.tiers, s.indices, s.positions, s.inside_moves
        );
        println!("  generate: {}", per(s.generate));
        println!("  graph:    {}", per(s.graph));
        println!("  rounds:   {}", per(s.rounds));
        let all = Phase {
            wall: s.generate.wall + s.graph.wall + s.rounds.wall,
            cpu: s.generate.cpu + s.graph.cpu + s.rounds.cpu,
        };
        println!("  loopy:    {}", per(all));
    }
}
