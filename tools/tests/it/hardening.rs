//! Regression tests for the defects found by using the command as a
//! hostile user would (issue 14): each test is named after what it pins.

use crate::support;

use support::run::{listing, stderr, stdout, temp_dir, topitop, topitop_with_input};

const SMALL: &str = "2/1/2/2";

#[test]
fn solve_refuses_a_target_that_is_a_directory_before_any_work() {
    let dir = temp_dir("target-dir");
    std::fs::create_dir(dir.join("topitop_v1_0_2-1-2-2.db")).unwrap();
    let o = topitop(&["solve", "--budget", SMALL, "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    assert_eq!(listing(&dir), ["topitop_v1_0_2-1-2-2.db"], "nothing left behind");
}

#[test]
fn a_resumed_solve_removes_what_a_killed_one_left() {
    let dir = temp_dir("stale");
    // What a solve killed while writing leaves: a database temp file, and a
    // checkpoint temp file.
    std::fs::write(dir.join("topitop_v1_0_2-1-2-2.db.tmp.99999"), b"partial").unwrap();
    std::fs::create_dir(dir.join("topitop_v1_0_2-1-2-2.ckpt")).unwrap();
    std::fs::write(
        dir.join("topitop_v1_0_2-1-2-2.ckpt/000000000.level.tmp.99999.0"),
        b"torn",
    )
    .unwrap();
    // Not ours: must stay.
    std::fs::write(dir.join("notes.tmp.1"), b"keep").unwrap();
    let o = topitop(&["solve", "--budget", SMALL, "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(listing(&dir), ["notes.tmp.1", "topitop_v1_0_2-1-2-2.db"]);
}

#[test]
fn a_second_solve_into_one_directory_says_another_holds_the_lock() {
    let dir = temp_dir("lock");
    // Hold the lock the way a running solve does.
    let lock = std::fs::File::create(dir.join("topitop_v1_0_2-1-2-2.db.lock")).unwrap();
    lock.lock().unwrap();
    let o = topitop(&["solve", "--budget", SMALL, "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("another solve is writing"), "{}", stderr(&o));
    assert!(!dir.join("topitop_v1_0_2-1-2-2.ckpt").exists(), "no work started");
    drop(lock);
    let o = topitop(&["solve", "--budget", SMALL, "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        listing(&dir),
        ["topitop_v1_0_2-1-2-2.db"],
        "the lock file goes too"
    );
}

#[test]
fn two_solves_at_once_give_one_database_and_one_clear_refusal() {
    let dir = temp_dir("race");
    let out = dir.to_str().unwrap().to_string();
    let run =
        |out: String| std::thread::spawn(move || topitop(&["solve", "--budget", "2/2/2/2", "--out", &out]));
    let (a, b) = (run(out.clone()), run(out));
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    let ok = [&a, &b].iter().filter(|o| o.status.success()).count();
    assert!(ok >= 1, "{}\n{}", stderr(&a), stderr(&b));
    for o in [&a, &b].iter().filter(|o| !o.status.success()) {
        assert!(stderr(o).contains("another solve is writing"), "{}", stderr(o));
    }
    assert_eq!(listing(&dir), ["topitop_v1_0_2-2-2-2.db"]);
}

#[test]
fn solve_refuses_a_budget_the_machine_cannot_hold() {
    let o = topitop(&[
        "solve",
        "--budget",
        "9/9/9/9",
        "--no-symmetry",
        "--out",
        "/nonexistent/x",
    ]);
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let available_gb = info
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map(|kb| kb / 1e6);
    match available_gb {
        Some(gb) if gb < 40.0 => {
            assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
            let e = stderr(&o);
            assert!(
                e.contains("needs about") && e.contains("GB") && e.contains("--ignore-memory-estimate"),
                "{e}"
            );
        }
        _ => crate::support::skip("this machine has room for the largest budget"),
    }
}

#[test]
fn threads_are_bounded() {
    for n in ["0", "1000000"] {
        for cmd in [
            &["solve", "--budget", "1/1/1/1", "--out", "/nonexistent"][..],
            &["serve", "--db", "/nonexistent"],
        ] {
            let o = topitop(&[cmd, &["--threads", n]].concat());
            assert_eq!(o.status.code(), Some(2), "{cmd:?} {n}");
            assert!(stderr(&o).contains("--threads"), "{}", stderr(&o));
            assert!(!stderr(&o).contains("serving"), "nothing served: {}", stderr(&o));
        }
    }
}

#[test]
fn errors_say_each_thing_once() {
    let dir = temp_dir("messages");
    let bad = dir.join("bad.db");
    std::fs::write(&bad, b"TOPITOPD").unwrap();
    let o = topitop(&["query", "1_---------", "--db", bad.to_str().unwrap()]);
    let e = stderr(&o);
    assert_eq!(e.matches("truncated").count(), 1, "{e}");
    let o = topitop(&["query", "1_---------", "--db", dir.to_str().unwrap()]);
    let e = stderr(&o);
    assert!(e.contains("is a directory") && !e.contains("os error"), "{e}");
}

#[test]
fn query_from_standard_input_survives_bad_lines() {
    let dir = temp_dir("stdin");
    let o = topitop(&["solve", "--budget", SMALL, "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let db = dir.join("topitop_v1_0_2-1-2-2.db");
    let db = db.to_str().unwrap();
    // Invalid UTF-8, then a huge line, then a good one.
    let mut input = b"1_\xff\xfe-------\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 5 << 20));
    input.extend(b"\n1_---------\n");
    let o = topitop_with_input(&["query", "--db", db], &input);
    let text = stdout(&o);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(
        rows.len(),
        4,
        "header and three rows: {}",
        &text[..text.len().min(2000)]
    );
    assert!(rows[1].contains("\terror\t"), "{}", rows[1]);
    assert!(
        rows[2].contains("\terror\t") && rows[2].len() < 1000,
        "no megabytes echoed: {}",
        rows[2].len()
    );
    assert!(
        rows[3].starts_with("1_---------\t"),
        "the run goes on: {}",
        rows[3]
    );
    assert_eq!(o.status.code(), Some(2));
    // --json writes JSON Lines, one object per input line.
    let o = topitop_with_input(&["query", "--db", db, "--json"], b"1_---------\n1_ZZZ\n");
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["position"], "1_---------");
    assert!(
        lines[1]["error"].as_str().unwrap().contains("ZZZ"),
        "{}",
        lines[1]
    );
}

#[test]
fn every_exported_row_is_a_position_query_answers_with_its_value() {
    let dir = temp_dir("one-definition");
    let o = topitop(&["solve", "--budget", "2/0/2/2", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let db = dir.join("topitop_v1_0_2-0-2-2.db");
    let db = db.to_str().unwrap();
    // The database stores states play cannot reach (GamesmanClassic's hash
    // has them), such as Blue to move owning two castles already.
    let stats: serde_json::Value =
        serde_json::from_str(&stdout(&topitop(&["stats", "--db", db, "--json"]))).unwrap();
    assert!(stats["unplayable_stored"].as_u64().unwrap() > 0, "{stats}");
    let positions = stats["play_classes"].as_u64().unwrap();
    let solved = format!("solved {positions} positions ");
    assert!(
        stdout(&o).contains(&solved),
        "solve counts them too: {}",
        stdout(&o)
    );
    let o = topitop_with_input(&["query", "--db", db], b"1_------P-P\n");
    assert!(stdout(&o).contains("already has two castles"), "{}", stdout(&o));

    let o = topitop(&["export", "--db", db]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len() as u64, positions, "export writes what stats counts");
    assert!(!rows.iter().any(|r| r[0] == "1_------P-P"));

    let input: String = rows.iter().map(|r| format!("{}\n", r[0])).collect();
    let o = topitop_with_input(&["query", "--db", db], input.as_bytes());
    assert!(
        o.status.success(),
        "every exported row is accepted: {}",
        stderr(&o)
    );
    let answers = stdout(&o);
    let answers: Vec<Vec<&str>> = answers.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!(answers.len(), rows.len());
    for (row, answer) in rows.iter().zip(&answers) {
        assert_eq!(row[0], answer[0]);
        assert_eq!(row[2], answer[1], "value of {}", row[0]);
        if row[2] != "draw" {
            assert_eq!(row[3], answer[2], "remoteness of {}", row[0]);
        }
    }

    // The summary counts the same positions.
    let o = topitop(&["export", "--db", db, "--summary"]);
    let total: u64 = stdout(&o)
        .lines()
        .filter(|l| l.starts_with("all\t"))
        .map(|l| l.rsplit('\t').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, positions);
}

/// A solved 2/0/2/2 game in a fresh directory `name`: (dir, db path).
fn small_db(name: &str) -> (std::path::PathBuf, String) {
    let dir = temp_dir(name);
    let o = topitop(&["solve", "--budget", "2/0/2/2", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let db = dir.join("topitop_v1_0_2-0-2-2.db").to_str().unwrap().to_string();
    (dir, db)
}

#[test]
fn export_writes_into_fifos_devices_and_links_in_place() {
    let (dir, db) = small_db("export-targets");
    let whole = stdout(&topitop(&["export", "--db", &db]));
    assert!(whole.lines().count() > 1000);
    // `-o -` is standard output.
    assert_eq!(stdout(&topitop(&["export", "--db", &db, "-o", "-"])), whole);

    // A FIFO stays a FIFO and its reader gets the table.
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = topitop(&["export", "--db", &db, "-o", fifo.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(reader.join().unwrap(), whole);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());

    // A device is written, not replaced, and nothing is created beside it.
    let o = topitop(&["export", "--db", &db, "-o", "/dev/null"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    let o = topitop(&["export", "--db", &db, "-o", "/dev/full"]);
    assert_eq!(o.status.code(), Some(2), "a full device is an error");
    assert!(stderr(&o).contains("No space left"), "{}", stderr(&o));
    let beside: Vec<_> = std::fs::read_dir("/dev")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp."))
        .collect();
    assert!(beside.is_empty(), "{beside:?}");

    // A symbolic link stays a link; the file it names is replaced.
    std::fs::write(dir.join("real.tsv"), "old").unwrap();
    std::os::unix::fs::symlink("real.tsv", dir.join("link.tsv")).unwrap();
    let o = topitop(&[
        "export",
        "--db",
        &db,
        "-o",
        dir.join("link.tsv").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let link = std::fs::symlink_metadata(dir.join("link.tsv")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(dir.join("real.tsv")).unwrap(), whole);
    assert_eq!(
        listing(&dir),
        ["link.tsv", "pipe", "real.tsv", "topitop_v1_0_2-0-2-2.db"]
    );
}

#[test]
fn export_refuses_a_directory_and_leaves_no_temporary_file_on_failure() {
    let (dir, db) = small_db("export-failures");
    let target = dir.join("out");
    std::fs::create_dir(&target).unwrap();
    let o = topitop(&["export", "--db", &db, "-o", target.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("exporting"), "refused before any work");
    assert_eq!(listing(&target), Vec::<String>::new());

    // A damaged block stops the export; the old table stays, alone.
    let mut bytes = std::fs::read(&db).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    let damaged = dir.join("damaged.db");
    std::fs::write(&damaged, bytes).unwrap();
    let table = target.join("x.tsv");
    std::fs::write(&table, "old").unwrap();
    let o = topitop(&[
        "export",
        "--db",
        damaged.to_str().unwrap(),
        "-o",
        table.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("checksum"), "{}", stderr(&o));
    assert_eq!(listing(&target), ["x.tsv"]);
    assert_eq!(std::fs::read_to_string(&table).unwrap(), "old");
}
