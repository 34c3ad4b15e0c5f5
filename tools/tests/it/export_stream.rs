//! `export --game` streams (issue 34): the first row is out after the
//! first chunk of the database, and memory stays at a few chunks' rows in
//! every format, `--summary` and `--all-symmetries` included, where every
//! row used to be gathered before any was written (docs/benchmarks.md has
//! the before and after). The child's peak resident memory is read from
//! /proc while it runs.

use crate::support;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use support::run::{stderr, temp_dir, topitop};

/// The peak resident memory of process `pid` so far, in KB; `None` once it
/// has exited.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

fn solve(dir: &Path, game: &[&str]) {
    let o = topitop(&[&["solve", "--out", dir.to_str().unwrap()][..], game].concat());
    assert!(o.status.success(), "{game:?}: {}", stderr(&o));
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run topitop")
}

/// Ends `child` (it is blocked writing into a pipe no one reads).
fn end(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Peak memory allowed, in KB: a few slices' rows and the binary itself
/// for the text formats and `--summary`, and a row group of 2^20 rows
/// being encoded for Parquet: far below what gathering every row first
/// took (docs/benchmarks.md).
fn limit_kb(format: &str) -> u64 {
    if format == "parquet" {
        300_000
    } else {
        100_000
    }
}

#[test]
fn the_first_row_is_out_before_the_database_is_read_through() {
    let dir = temp_dir("export-stream-first-row");
    let g = ["--game", "topolo", "--board", "3x4"];
    solve(&dir, &g);
    let d = dir.to_str().unwrap();
    for format in ["tsv", "csv", "jsonl", "parquet"] {
        let mut child = spawn(&[&["export", "--dir", d, "--format", format][..], &g].concat());
        let pid = child.id();
        let mut out = BufReader::new(child.stdout.take().expect("piped"));
        if format == "parquet" {
            let mut magic = [0u8; 4];
            out.read_exact(&mut magic).expect("a first row group");
            assert_eq!(&magic, b"PAR1");
        } else {
            let mut line = String::new();
            out.read_line(&mut line).expect("a first line");
            if format != "jsonl" {
                line.clear();
                out.read_line(&mut line).expect("a first row");
            }
            assert!(
                line.contains("win") || line.contains("lose") || line.contains("tie"),
                "{format}: {line}"
            );
        }
        let peak = peak_kb(pid).expect("still running: its output is not read");
        end(child);
        assert!(
            peak < limit_kb(format),
            "{format}: {peak} KB in use when the first row came out"
        );
    }
}

/// Runs `args`, reading its output through and sampling its peak memory
/// until it exits; returns the largest sample, in KB, and the output's
/// length.
fn peak_of_whole_run(args: &[&str]) -> (u64, u64) {
    let mut child = spawn(args);
    let pid = child.id();
    let out = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut n = 0u64;
        let mut out = out;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match out.read(&mut buf) {
                Ok(0) | Err(_) => return n,
                Ok(k) => n += k as u64,
            }
        }
    });
    let mut peak = 0;
    while let Some(kb) = peak_kb(pid) {
        peak = peak.max(kb);
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = child.wait().expect("wait");
    assert!(status.success(), "{args:?}: {status}");
    (peak, reader.join().expect("the reader does not panic"))
}

#[test]
#[ignore = "long tier: a minute or more; .ci/long runs it (cargo test -- --ignored)"]
fn a_whole_export_stays_within_a_few_chunks_in_every_format() {
    let dir = temp_dir("export-stream-whole");
    let d = dir.to_str().unwrap();
    let topolo = ["--game", "topolo", "--board", "3x4"];
    let topple = ["--game", "topple", "--board", "3x3", "--variant", "s6"];
    solve(&dir, &topolo);
    solve(&dir, &topple);
    let runs: [(&[&str], &[&str]); 4] = [
        (&topolo, &["--summary"]),
        (&topolo, &["--format", "parquet", "--mark-reachable"]),
        (&topple, &["--all-symmetries", "--mark-reachable"]),
        (&topple, &["--all-symmetries", "--format", "parquet"]),
    ];
    for (game, extra) in runs {
        let args = [&["export", "--dir", d][..], game, extra].concat();
        let (peak, bytes) = peak_of_whole_run(&args);
        assert!(bytes > 0, "{args:?}: no output");
        let format = if extra.contains(&"parquet") {
            "parquet"
        } else {
            "tsv"
        };
        assert!(peak < limit_kb(format), "{args:?}: {peak} KB at the peak");
    }
}
