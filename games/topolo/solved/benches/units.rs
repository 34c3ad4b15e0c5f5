//! A random sample of a board's units of a distributed solve, solved here
//! through the code a worker runs ([`games_topolo_solved::units`]):
//! each sampled template built, then a run of its full first classes (its
//! small games) solved and packed as a worker keeps them. Prints each
//! sample and a projection of the whole solve for clusters of 32-core
//! nodes, from the rates per state measured and the plan's exact sizes.
//!
//! `cargo bench -p games-topolo-solved --bench units -- [BOARD] [TEMPLATES] [GAMES] [SEED]`
//! (default 4x5, 24 templates, 16 small games from each, seed 1).

use std::time::Instant;

use games_topolo::layout::Layout;
use games_topolo::{Shape, Topolo, Variant};
use games_topolo_solved::plan::Plan;
use games_topolo_solved::subgame::Template;
use games_topolo_solved::units::{gathered_values, kept_len, solve, values_of, Unit};

/// Peak resident memory of this process so far, in bytes.
fn peak_rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// The `q` quantile of `xs` (sorted here).
fn quantile(xs: &[f64], q: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    // Over 100 lines on purpose: a benchmark's script, in the order it runs:
    // the set-up, each timed run, and the table it prints.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let board = args.first().map_or("4x5", String::as_str);
    let templates: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(24);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(16);
    let mut seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1) | 1;
    let shape = board
        .split_once('x')
        .and_then(|(r, c)| Shape::new(r.parse().ok()?, c.parse().ok()?).ok())
        .unwrap_or_else(|| {
            eprintln!("usage: units -- [RxC] [TEMPLATES] [GAMES] [SEED]");
            std::process::exit(2)
        });
    let Some(layout) = Layout::of(Topolo::new(shape, Variant::Full)) else {
        eprintln!("{board} is too large to index");
        std::process::exit(2)
    };
    let t0 = Instant::now();
    let plan = Plan::new(layout);
    let all = plan.templates();
    println!(
        "{board}: plan in {:.1} s: {} indices, {} templates, {} small games",
        t0.elapsed().as_secs_f64(),
        plan.indices(),
        all.len(),
        plan.subgames()
    );
    let mut next = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m.max(1)
    };
    // Templates drawn without replacement, uniformly.
    let mut picked: Vec<usize> = Vec::new();
    while picked.len() < templates.min(all.len()) {
        let k = next(all.len() as u64) as usize;
        if !picked.contains(&k) {
            picked.push(k);
        }
    }
    println!("template  classes  states/class  build s  games  solve s  s/game  ns/state  kept bytes/game  peak GB");
    let (mut build_rates, mut solve_rates) = (Vec::new(), Vec::new());
    let mut sampled = 0u64;
    for &k in &picked {
        let (first, full, n) = all[k];
        let start = next(n.saturating_sub(games) + 1);
        let unit = Unit {
            template: k,
            codes: start..(start + games).min(n),
        };
        let g = unit.codes.end - unit.codes.start;
        let states = values_of(&plan, &unit) / g;
        let t = Instant::now();
        let mut made = Some((k, Template::new(plan.layout(), first, full), None));
        let build = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let bytes = solve(&plan, &unit, &mut made);
        let secs = t.elapsed().as_secs_f64();
        assert_eq!(bytes.len() as u64, kept_len(&plan, &unit));
        sampled += g;
        build_rates.push(build / states as f64);
        solve_rates.push(secs / (g * states) as f64);
        println!(
            "{k:>8}  {n:>7}  {states:>12}  {build:>7.3}  {g:>5}  {secs:>7.3}  {:>6.4}  {:>8.1}  {:>15}  {:>7.2}",
            secs / g as f64,
            secs / (g * states) as f64 * 1e9,
            bytes.len() as u64 / g,
            peak_rss() as f64 / 1e9
        );
    }
    // The whole solve from the plan's exact sizes: each template's small
    // games at the rate per state of the sampled template nearest it in
    // size (its own if sampled), and built once a node. The spread is
    // that predictor's error on the sample, each sampled template
    // predicted from the others (10th and 90th percentiles).
    let sizes: Vec<(u64, u64)> = all
        .iter()
        .enumerate()
        .map(|(k, &(_, _, n))| {
            (
                n,
                values_of(
                    &plan,
                    &Unit {
                        template: k,
                        codes: 0..n.min(1),
                    },
                ),
            )
        })
        .collect();
    let nearest = |states: u64, skip: Option<usize>| -> usize {
        (0..picked.len())
            .filter(|&i| Some(i) != skip)
            .min_by(|&i, &j| {
                let d = |i: usize| ((sizes[picked[i]].1 as f64).ln() - (states as f64).ln()).abs();
                d(i).total_cmp(&d(j))
            })
            .unwrap_or(0)
    };
    let rate_of = |k: usize, rates: &[f64]| -> f64 {
        match picked.iter().position(|&p| p == k) {
            Some(i) => rates[i],
            None => rates[nearest(sizes[k].1, None)],
        }
    };
    let spread = |rates: &[f64]| -> (f64, f64) {
        if picked.len() < 2 {
            return (1.0, 1.0);
        }
        let errors: Vec<f64> = (0..picked.len())
            .map(|i| rates[i] / rates[nearest(sizes[picked[i]].1, Some(i))])
            .collect();
        (quantile(&errors, 0.1), quantile(&errors, 0.9))
    };
    let threads = rayon::current_num_threads() as f64;
    // Rates were measured on this machine's cores together: CPU time is
    // rate × cores.
    let solve_cpu: f64 = (0..all.len())
        .map(|k| (sizes[k].0 * sizes[k].1) as f64 * rate_of(k, &solve_rates) * threads)
        .sum();
    let builds: f64 = (0..all.len())
        .map(|k| sizes[k].1 as f64 * rate_of(k, &build_rates))
        .sum();
    let (lo, hi) = spread(&solve_rates);
    let (blo, bhi) = spread(&build_rates);
    let states_all: f64 = sizes.iter().map(|&(n, s)| (n * s) as f64).sum();
    let largest = sizes.iter().map(|&(_, s)| s).max().unwrap_or(0);
    println!(
        "sampled {sampled} small games of {} templates; all: {states_all:.3e} states in {} small games, the largest {largest} states",
        picked.len(),
        plan.subgames()
    );
    for (what, f, bf) in [("low", lo, blo), ("central", 1.0, 1.0), ("high", hi, bhi)] {
        // Units are handed out in template order, so every node meets
        // (and builds, on all its cores) about every template: the builds
        // add their sum to each node's wall time.
        let b = builds * bf * threads / 32.0;
        print!(
            "{what}: {:.1} CPU-hours of small games, template builds {:.1} min a node;",
            solve_cpu * f / 3600.0,
            b / 60.0
        );
        for nodes in [16.0f64, 64.0, 256.0] {
            let wall = solve_cpu * f / (nodes * 32.0) + b;
            print!(" {nodes} nodes {:.2} h;", wall / 3600.0);
        }
        println!();
    }
    println!(
        "disk: units kept {:.1} GB (two bits a value), database {:.1} GB (1.6 bits a value)",
        plan.indices() as f64 / 4e9,
        plan.indices() as f64 / 5e9
    );
    println!("peak memory of this process: {:.2} GB", peak_rss() as f64 / 1e9);
    // Process 0 of a distributed solve holds the open tiers and the closed
    // ones they read, a byte a value, then one template's units at a time,
    // two bits a value (as `solve` estimates it).
    let (small, template) = gathered_values(&plan);
    println!(
        "process 0: {:.2} GB of open and step-2 values, and the largest template's units {:.2} GB",
        small as f64 / 1e9,
        template as f64 / 4e9
    );
}
