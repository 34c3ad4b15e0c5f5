//! Regression tests for the third hostile trial (issue 34) of the commands
//! every game shares: counts wider than 64 bits, memory refused or bounded
//! up front, durations that saturate, checkpoint folders a kill leaves,
//! databases that say which variant they hold, one spelling of a board.

use crate::support;

use support::run::{stderr, stdout, temp_dir, topitop, topitop_with_env};

fn ok(args: &[&str]) -> String {
    let o = topitop(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The table rows of `perft`'s text: depth, sequences, positions.
fn perft_rows(text: &str) -> Vec<(u32, u128, String)> {
    text.lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].parse().unwrap(), f[1].parse().unwrap(), f[2].to_string())
        })
        .collect()
}

#[test]
fn perft_counts_past_64_bits_in_text_and_json() {
    let g = ["--game", "topple", "--board", "3x3", "--variant", "s5"];
    let text = ok(&[&["perft", "47"][..], &g].concat());
    let rows = perft_rows(&text);
    assert_eq!(rows.len(), 48, "{text}");
    // The sequences grow at every depth here; a count that wrapped at 2^64
    // would fall.
    for w in rows.windows(2) {
        assert!(w[1].1 > w[0].1, "depth {}: {} after {}", w[1].0, w[1].1, w[0].1);
    }
    assert!(rows[46].1 > u128::from(u64::MAX), "{:?}", rows[46]);
    let json: serde_json::Value =
        serde_json::from_str(&ok(&[&["perft", "47", "--json"][..], &g].concat())).unwrap();
    let deep = &json["depth"][46];
    assert_eq!(deep["depth"], 46);
    // serde_json reads a number past 64 bits as a float; its text is exact.
    let exact = ok(&[&["perft", "47", "--json"][..], &g].concat());
    assert!(
        exact.contains(&format!("\"sequences\":{}", rows[46].1)),
        "{exact}"
    );
}

#[test]
fn perft_stops_counting_positions_rather_than_exhaust_memory() {
    let g = ["--game", "topple", "--board", "3x3", "--variant", "s5"];
    let full = perft_rows(&ok(&[&["perft", "7"][..], &g].concat()));
    let o = topitop_with_env(
        &[&["perft", "7"][..], &g].concat(),
        &[("TOPITOP_MEMORY_LIMIT", "100K")],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("distinct positions are not counted"), "{text}");
    let bounded = perft_rows(&text);
    assert_eq!(bounded.len(), full.len(), "{text}");
    for (b, f) in bounded.iter().zip(&full) {
        assert_eq!((b.0, b.1), (f.0, f.1), "the sequences are the same");
        assert!(b.2 == f.2 || b.2 == "-", "{b:?} {f:?}");
    }
    assert_eq!(bounded.last().unwrap().2, "-", "{text}");
}

#[test]
fn a_generic_solve_beyond_memory_is_refused_up_front() {
    let dir = temp_dir("topple-refused");
    let d = dir.to_str().unwrap();
    let args = [
        "solve",
        "--game",
        "topple",
        "--board",
        "3x3",
        "--variant",
        "s6",
        "--out",
        d,
    ];
    let o = topitop_with_env(&args, &[("TOPITOP_MEMORY_LIMIT", "1M")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("needs about") && e.contains("--ignore-memory-estimate") && e.contains("indices"),
        "{e}"
    );
    assert!(!dir.join("topple_3x3-s6.db").exists());
    // Told to try anyway, it says what it takes on and solves.
    let o = topitop_with_env(
        &[&args[..], &["--ignore-memory-estimate"]].concat(),
        &[("TOPITOP_MEMORY_LIMIT", "1M")],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("estimated peak: "), "{}", stderr(&o));
    assert!(dir.join("topple_3x3-s6.db").exists());
}

#[test]
fn a_grace_longer_than_the_clock_keeps_nothing_and_does_not_panic() {
    let dir = temp_dir("grace");
    let d = dir.to_str().unwrap();
    for (game, board, variant) in [("topolo", "3x3", "full"), ("topple", "3x3", "s4")] {
        for secs in ["18446744073709551615", "9223372036854775807"] {
            let out = ok(&[
                "solve",
                "--game",
                game,
                "--board",
                board,
                "--variant",
                variant,
                "--out",
                d,
                "--checkpoint-after",
                secs,
            ]);
            assert!(out.contains("wrote"), "{out}");
        }
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".ckpt"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Solves Topolo 3x3 and Topple 3x3 with 4 pieces into `dir`.
fn solve_topolo_and_topple(dir: &str) {
    ok(&["solve", "--game", "topolo", "--board", "3x3", "--out", dir]);
    let topple = ["--game", "topple", "--board", "3x3", "--variant", "s4"];
    ok(&[&["solve", "--out", dir][..], &topple].concat());
}

#[test]
fn an_empty_checkpoint_folder_or_one_without_its_maker_is_taken_up() {
    let dir = temp_dir("empty-ckpt");
    let d = dir.to_str().unwrap();
    std::fs::create_dir(dir.join("topolo_3x3.ckpt")).unwrap();
    std::fs::create_dir(dir.join("topple_3x3-s4.ckpt")).unwrap();
    solve_topolo_and_topple(d);
    assert!(!dir.join("topolo_3x3.ckpt").exists());
    assert!(!dir.join("topple_3x3-s4.ckpt").exists());
    // Kept files and no MAKER (a run killed while removing its folder):
    // each level file names its maker, so nothing waits for a person; a
    // file of no known kind is left out, and goes with the folder.
    std::fs::create_dir(dir.join("topple_3x3-s5.ckpt")).unwrap();
    std::fs::write(dir.join("topple_3x3-s5.ckpt/x.tier"), b"?").unwrap();
    ok(&[
        "solve",
        "--game",
        "topple",
        "--board",
        "3x3",
        "--variant",
        "s5",
        "--out",
        d,
    ]);
    assert!(dir.join("topple_3x3-s5.db").exists());
    assert!(!dir.join("topple_3x3-s5.ckpt").exists());
}

#[test]
fn a_database_file_names_its_own_variant() {
    let dir = temp_dir("db-variant");
    let d = dir.to_str().unwrap();
    solve_topolo_and_topple(d);
    let topolo = dir.join("topolo_3x3.db");
    let topple = dir.join("topple_3x3-s4.db");
    let (topolo, topple) = (topolo.to_str().unwrap(), topple.to_str().unwrap());
    // --game alone: the board and variant are the file's.
    let q = ok(&["query", "--game", "topolo", "--db", topolo, ".../.../..."]);
    assert!(q.starts_with(".../.../...  win 9"), "{q}");
    // No --game: the file says which game it holds, for every command.
    let q = ok(&["query", "--db", topple, ".../.../... r s4 r8 b8"]);
    assert!(q.starts_with(".../.../... r s4 r8 b8"), "{q}");
    assert!(ok(&["verify", "--db", topple]).contains("0 violations"));
    assert!(ok(&["stats", "--db", topolo]).contains("topolo 3x3"));
    assert!(ok(&["export", "--db", topple]).starts_with("position\t"));
    // An option that contradicts the file is refused, naming both.
    let o = topitop(&[
        "query",
        "--game",
        "topolo",
        "--board",
        "3x4",
        "--db",
        topolo,
        ".../.../...",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds topolo 3x3, not topolo 3x4"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_board_has_one_spelling_for_every_game() {
    for board in ["3X3", " 3x3", "+3x3", "03x3", "3×3", "3x3 "] {
        for game in ["topolo", "topple"] {
            let o = topitop(&["perft", "1", "--game", game, "--board", board]);
            assert_eq!(o.status.code(), Some(2), "{game} {board:?}: {}", stdout(&o));
            let e = stderr(&o);
            assert!(
                e.contains(&format!("board {board:?}")) && e.contains("RxC"),
                "{game} {board:?}: {e}"
            );
        }
    }
    for game in ["topolo", "topple"] {
        ok(&["perft", "1", "--game", game, "--board", "3x3"]);
    }
}

#[test]
fn a_board_too_large_to_solve_is_not_sent_to_solve() {
    let dir = temp_dir("no-8x8");
    let o = topitop(&[
        "query",
        "--game",
        "topple",
        "--dir",
        dir.to_str().unwrap(),
        ".../.../...",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("none can be made") && e.contains("too large"), "{e}");
}

/// A file named with `--db` that is not there: said of the file, without
/// the hint to "name one with --db" that it was.
#[test]
fn a_missing_db_file_is_named_as_given() {
    for args in [
        vec!["query", "--db", "/nonexistent/t.db", "1_---------"],
        vec!["stats", "--db", "/nonexistent/t.db"],
        vec![
            "query",
            "--game",
            "topolo",
            "--board",
            "3x3",
            "--db",
            "/nonexistent/t.db",
            ".../.../...",
        ],
        vec![
            "verify",
            "--game",
            "topple",
            "--board",
            "2x2",
            "--variant",
            "s4",
            "--db",
            "/nonexistent/t.db",
        ],
    ] {
        let o = topitop(&args);
        let said = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains("/nonexistent/t.db: no such file (given with --db)"),
            "{args:?}: {said}"
        );
        assert!(!said.contains("name one with --db"), "{args:?}: {said}");
    }
}

/// A small database's size is said in kB or bytes, not "0.0 MB".
#[test]
fn a_small_database_says_its_size() {
    let dir = temp_dir("small-size");
    let said = ok(&[
        "solve",
        "--game",
        "topolo",
        "--board",
        "2x2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let line = said
        .lines()
        .find(|l| l.starts_with("wrote "))
        .expect("a wrote line");
    assert!(line.ends_with(" bytes)") || line.ends_with(" kB)"), "{line}");
}
