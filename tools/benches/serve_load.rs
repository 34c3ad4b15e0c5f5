//! Load benchmark of `topitop serve` on loopback: keep-alive clients ask for
//! random positions met in play; prints requests per second, latency
//! percentiles, errors and the server's memory before and after.
//!
//! `cargo bench --bench serve_load [-- DIR]`: DIR holds `topitop_v1_0.db`
//! (as `topitop solve --out DIR` writes it; default `data/`). Without one, a
//! small 2/2/2/2 game is solved first. `SERVE_LOAD_CLIENTS` (default 4)
//! sets the number of client connections, `SERVE_LOAD_REQUESTS` (default
//! 100000) the requests per measured round.
//!
//! `SERVE_LOAD_SEARCHES=N` (default 0) adds a last round: N requests for
//! the 8×8 Topolo start, which only a search answers, sent at once on N
//! connections, half of them closed at once, while one client looks up a
//! Topitop position every 0.2 s. It prints the lookups' slowest time, the
//! server's most threads, and how the searches were answered (searched,
//! refused with 503, given up because the client went).

#[path = "../tests/it/support/http.rs"]
mod http;

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use games_topitop_rules::sample::{playout_positions, Rng};
use games_topitop_solved::Database;

const BIN: &str = env!("CARGO_BIN_EXE_topitop");
/// Measured rounds; memory is read after each to show it stays flat.
const ROUNDS: usize = 2;
/// No round may take longer than this, whatever the machine.
const ROUND_LIMIT: Duration = Duration::from_secs(120);

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The directory and budget to serve: DIR from the command line, `data/`,
/// or a freshly solved small game.
fn database() -> (PathBuf, String, Option<PathBuf>) {
    let given = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from);
    let dir = given.unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../data")));
    if dir.join("topitop_v1_0.db").exists() {
        return (dir, "2/2/4/4".into(), None);
    }
    let tmp = std::env::temp_dir().join(format!("topitop-serve-load-{}", std::process::id()));
    println!(
        "no {}: solving a 2/2/2/2 game in {}",
        dir.join("topitop_v1_0.db").display(),
        tmp.display()
    );
    let ok = Command::new(BIN)
        .args([
            "solve",
            "--budget",
            "2/2/2/2",
            "--out",
            tmp.to_str().unwrap_or("."),
        ])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "solving the small game failed");
    (tmp.clone(), "2/2/2/2".into(), Some(tmp))
}

fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Latencies (µs) and errors of one round.
struct Round {
    micros: Vec<u32>,
    errors: usize,
    elapsed: Duration,
}

/// `requests` GETs spread over `clients` keep-alive connections.
fn round(addr: SocketAddr, targets: &[String], clients: usize, requests: usize, seed: u64) -> Round {
    let start = Instant::now();
    let per = requests.div_ceil(clients);
    let results: Vec<(Vec<u32>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                s.spawn(move || {
                    let mut rng = Rng::new(seed ^ ((c as u64 + 1) * 0x9e37));
                    let mut micros = Vec::with_capacity(per);
                    let mut errors = 0;
                    let mut conn = http::Client::connect(addr).ok();
                    for _ in 0..per {
                        if start.elapsed() > ROUND_LIMIT {
                            break;
                        }
                        let target = &targets[rng.below(targets.len() as u64) as usize];
                        let t = Instant::now();
                        let ok = match conn.as_mut().map(|k| k.get(target)) {
                            Some(Ok(r)) => r.status == 200 && r.body.starts_with(b"{\"position\""),
                            _ => false,
                        };
                        micros.push(t.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
                        if !ok {
                            errors += 1;
                            conn = http::Client::connect(addr).ok();
                        }
                    }
                    (micros, errors)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let elapsed = start.elapsed();
    let errors = results.iter().map(|r| r.1).sum();
    let mut micros: Vec<u32> = results.into_iter().flat_map(|r| r.0).collect();
    micros.sort_unstable();
    Round {
        micros,
        errors,
        elapsed,
    }
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    sorted
        .get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0)
}

fn threads(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|n| n.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// The search round: `n` 8×8 requests at once, every other one closed at
/// once, while a client looks up a position every 0.2 s. Returns the
/// lookup errors.
fn search_flood(addr: SocketAddr, pid: u32, n: usize, lookup: &str, log: &Path) -> usize {
    let empty = ["........"; 8].join("/");
    let raw = format!("GET /topolo/8x8/positions/?p={empty} HTTP/1.1\r\nHost: x\r\n\r\n");
    let done = std::sync::atomic::AtomicBool::new(false);
    let start = Instant::now();
    let (slowest, lookups, errors, most) = std::thread::scope(|s| {
        let looking = s.spawn(|| {
            let (mut slowest, mut lookups, mut errors, mut most) = (Duration::ZERO, 0, 0, 0);
            let mut c = http::Client::connect(addr).ok();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let t = Instant::now();
                match c.as_mut().map(|k| k.get(lookup)) {
                    Some(Ok(r)) if r.status == 200 => {}
                    _ => {
                        errors += 1;
                        c = http::Client::connect(addr).ok();
                    }
                }
                slowest = slowest.max(t.elapsed());
                lookups += 1;
                most = most.max(threads(pid));
                std::thread::sleep(Duration::from_millis(200));
            }
            (slowest, lookups, errors, most)
        });
        let mut kept = Vec::new();
        for i in 0..n {
            if let Ok(mut c) = std::net::TcpStream::connect(addr) {
                if c.write_all(raw.as_bytes()).is_ok() && i % 2 == 0 {
                    kept.push(c);
                }
            }
        }
        for c in kept {
            let _ = c.set_read_timeout(Some(ROUND_LIMIT));
            let _ = http::read_response(&mut std::io::BufReader::new(c), false);
        }
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        looking.join().unwrap_or_default()
    });
    // The access log is written within 20 ms of each line.
    std::thread::sleep(Duration::from_millis(200));
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let count = |status: &str| {
        text.lines()
            .filter(|l| l.contains("uri=/topolo/8x8/") && l.contains(status))
            .count()
    };
    println!(
        "searches: {n} 8x8 requests at once, half closed at once, answered in {:.1} s: {} searched, \
         {} refused (503), {} given up (client gone); lookups every 0.2 s: {lookups}, slowest {:.1} ms, \
         {errors} errors; at most {most} server threads",
        start.elapsed().as_secs_f64(),
        count("status=200"),
        count("status=503"),
        count("status=499"),
        slowest.as_secs_f64() * 1000.0,
    );
    errors
}

fn start_server(dir: &Path, budget: &str, log: &Path) -> (std::process::Child, SocketAddr) {
    let mut child = Command::new(BIN)
        .args(["serve", "--dir", dir.to_str().unwrap_or("."), "--budget", budget])
        .args(["--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).expect("create the log file"))
        .spawn()
        .expect("start topitop serve");
    let mut line = String::new();
    if let Some(out) = child.stdout.take() {
        let _ = std::io::BufReader::new(out).read_line(&mut line);
    }
    let addr = line
        .trim()
        .strip_prefix("open http://")
        .and_then(|a| a.split_once("/ui/"))
        .and_then(|(a, _)| a.parse().ok())
        .unwrap_or_else(|| {
            panic!(
                "server did not start: {}",
                std::fs::read_to_string(log).unwrap_or_default()
            )
        });
    (child, addr)
}

fn main() {
    let (dir, budget, cleanup) = database();
    let db = Database::open(dir.join(if cleanup.is_some() {
        "topitop_v1_0_2-2-2-2.db"
    } else {
        "topitop_v1_0.db"
    }))
    .expect("open the database");
    let clients = env_or("SERVE_LOAD_CLIENTS", 4).max(1);
    let requests = env_or("SERVE_LOAD_REQUESTS", 100_000).max(clients);
    let targets: Vec<String> = playout_positions(db.rules(), 100_000, 40, &mut Rng::new(2024))
        .into_iter()
        .map(|p| format!("/topitop/regular/positions/?p={p}"))
        .collect();
    drop(db);
    let log = std::env::temp_dir().join(format!("topitop-serve-load-{}.log", std::process::id()));
    let (mut server, addr) = start_server(&dir, &budget, &log);
    let pid = server.id();
    println!(
        "serving {} (budget {budget}) at http://{addr}/; {clients} keep-alive clients, {} distinct positions",
        dir.display(),
        targets.len()
    );
    let rss_start = rss_kb(pid);
    let warm = round(addr, &targets, clients, requests / 2, 1);
    let rss_warm = rss_kb(pid);
    println!(
        "warm-up: {} requests, {} errors; RSS {rss_start} kB at start, {rss_warm} kB after warm-up",
        warm.micros.len(),
        warm.errors
    );
    let mut total_errors = warm.errors;
    for r in 1..=ROUNDS {
        let res = round(addr, &targets, clients, requests, 100 + r as u64);
        total_errors += res.errors;
        println!(
            "round {r}: {} requests in {:.2} s = {:.0} requests/s; latency p50 {} µs, p99 {} µs, max {} µs; {} errors; RSS {} kB",
            res.micros.len(),
            res.elapsed.as_secs_f64(),
            res.micros.len() as f64 / res.elapsed.as_secs_f64(),
            percentile(&res.micros, 0.50),
            percentile(&res.micros, 0.99),
            res.micros.last().copied().unwrap_or(0),
            res.errors,
            rss_kb(pid)
        );
    }
    let searches = env_or("SERVE_LOAD_SEARCHES", 0);
    if searches > 0 {
        total_errors += search_flood(addr, pid, searches, &targets[0], &log);
    }
    let _ = Command::new("kill").args(["-TERM", &pid.to_string()]).status();
    let status = server.wait().expect("wait for the server");
    let logged = std::fs::read_to_string(&log)
        .map(|l| l.lines().filter(|l| l.contains(" access: ")).count())
        .unwrap_or(0);
    println!("server exit: {status}; {logged} access-log lines");
    let _ = std::fs::remove_file(&log);
    if let Some(tmp) = cleanup {
        let _ = std::fs::remove_dir_all(tmp);
    }
    assert_eq!(total_errors, 0, "requests failed");
    assert!(status.success(), "the server did not shut down cleanly");
}
