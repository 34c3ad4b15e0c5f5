//! Topolo through the same commands and files as Topitop (`--game topolo`):
//! solve, verify, query, show, perft and stats on real database files.

mod support;

use support::run::{stderr, stdout, temp_dir, topitop};

fn ok(args: &[&str]) -> String {
    let o = topitop(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn a_small_board_solves_verifies_and_answers_queries() {
    let dir = temp_dir("topolo-3x3");
    let d = dir.to_str().unwrap();
    let g = ["--game", "topolo", "--board", "3x3"];
    let solved = ok(&[&["solve", "--out", d][..], &g].concat());
    assert!(solved.contains("start position .../.../...: win 9"), "{solved}");
    assert!(dir.join("topolo_3x3.db").exists());
    let verified = ok(&[&["verify", "--dir", d][..], &g].concat());
    assert!(verified.contains(": 0 violations"), "{verified}");
    // GamesmanUni's position object, moves best first.
    let json = ok(&[&["query", ".../.../...", "--json", "--dir", d][..], &g].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["positionValue"], "win");
    assert_eq!(v["remoteness"], 9);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 27, "3 sizes on 9 cells");
    assert_eq!(moves[0]["moveValue"], "win");
    assert_eq!(moves[0]["positionValue"], "lose");
    for m in moves {
        let mv = m["move"].as_str().unwrap();
        assert!(mv.starts_with(['S', 'M', 'L']), "{mv}");
        // A move's value is the child's, seen from the mover.
        let child = m["positionValue"].as_str().unwrap();
        let expected = match child {
            "win" => "lose",
            "lose" => "win",
            other => other,
        };
        assert_eq!(m["moveValue"], expected, "{mv}");
        assert_eq!(m["remoteness"], 8);
    }
    // A bad position is refused with the rule it breaks.
    let o = topitop(&[&["query", "s../.../...", "--dir", d][..], &g].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("Red moves first"), "{}", stderr(&o));
    let stats = ok(&[&["stats", "--dir", d][..], &g].concat());
    assert!(
        stats.contains("reachable positions  217417 (54510 symmetry classes)"),
        "{stats}"
    );
    let shown = ok(&[&["show", "S../.../..."][..], &g].concat());
    assert!(shown.contains("Black to move, on odd rows"), "{shown}");
    assert!(shown.contains("15 moves:"), "{shown}");
    let perft = ok(&[&["perft", "9"][..], &g].concat());
    let total: u64 = perft
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth"))
        .map(|l| l.split('\t').nth(2).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 217_417, "{perft}");
}

#[test]
fn the_size_only_variant_and_the_symmetric_solve_agree_with_the_plain_one() {
    let dir = temp_dir("topolo-2x4");
    let d = dir.to_str().unwrap();
    let g = ["--game", "topolo", "--board", "2x4"];
    ok(&[&["solve", "--out", d, "--variant", "size-only"][..], &g].concat());
    assert!(dir.join("topolo_2x4_size-only.db").exists());
    let plain = temp_dir("topolo-2x4-plain");
    ok(&[
        &["solve", "--no-symmetry", "--out", plain.to_str().unwrap()][..],
        &g,
    ]
    .concat());
    ok(&[&["solve", "--out", d][..], &g].concat());
    for p in ["S.../....", "SsLl/....", "SsSs/LmMl"] {
        let a = ok(&[&["query", p, "--json", "--dir", d][..], &g].concat());
        let b = ok(&[&["query", p, "--json", "--dir", plain.to_str().unwrap()][..], &g].concat());
        assert_eq!(a, b, "{p}");
    }
    // The database of another variant is refused, not read.
    let o = topitop(
        &[
            &[
                "query",
                "S.../....",
                "--db",
                dir.join("topolo_2x4_size-only.db").to_str().unwrap(),
            ][..],
            &g,
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds topolo 2x4_size-only"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn game_options_are_checked() {
    for (args, says) in [
        (vec!["perft", "2", "--game", "chess"], "unknown game \"chess\""),
        (
            vec!["perft", "2", "--game", "topolo", "--board", "9x9"],
            "2 to 8 rows",
        ),
        (
            vec!["perft", "2", "--game", "topolo", "--variant", "7"],
            "unknown Topolo variant",
        ),
        (
            vec!["perft", "2", "--variant", "size-only"],
            "Topitop's variants are the numbers",
        ),
        (vec!["perft", "2", "--board", "3x3"], "--board is Topolo's"),
        (
            vec!["perft", "2", "--game", "topolo", "--budget", "1/1/1/1"],
            "--budget are Topitop's",
        ),
        (
            vec!["solve", "--game", "topolo", "--out", "/nonexistent/x"],
            "too large to solve",
        ),
    ] {
        let o = topitop(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn exports_and_play_work_on_topolo() {
    let dir = temp_dir("topolo-export");
    let d = dir.to_str().unwrap();
    let g = ["--game", "topolo", "--board", "2x3"];
    ok(&[&["solve", "--out", d][..], &g].concat());
    let tsv = ok(&[&["export", "--dir", d][..], &g].concat());
    let csv = ok(&[&["export", "--dir", d, "--format", "csv"][..], &g].concat());
    let jsonl = ok(&[&["export", "--dir", d, "--format", "jsonl"][..], &g].concat());
    let rows = tsv.lines().count() - 1;
    // One row per symmetry class of the positions play reaches.
    let stats = ok(&[&["stats", "--dir", d][..], &g].concat());
    assert!(
        stats.contains(&format!("({rows} symmetry classes)")),
        "{rows} rows: {stats}"
    );
    assert_eq!(csv.lines().count() - 1, rows);
    assert_eq!(jsonl.lines().count(), rows);
    assert!(
        tsv.starts_with("position\ttier\tvalue\tremoteness\n.../...\tr0.0.0-b0.0.0\t"),
        "{tsv}"
    );
    // Parquet, read back with the parquet crate: the same rows.
    let file = dir.join("t.parquet");
    ok(&[
        &[
            "export",
            "--dir",
            d,
            "--format",
            "parquet",
            "-o",
            file.to_str().unwrap(),
        ][..],
        &g,
    ]
    .concat());
    let reader =
        parquet::file::serialized_reader::SerializedFileReader::new(std::fs::File::open(&file).unwrap())
            .unwrap();
    use parquet::file::reader::FileReader;
    let meta = reader.metadata();
    assert_eq!(meta.file_metadata().num_rows() as usize, rows);
    let kv = meta.file_metadata().key_value_metadata().unwrap();
    assert!(kv
        .iter()
        .any(|k| k.key == "topitop.game" && k.value.as_deref() == Some("topolo")));
    let summary = ok(&[&["export", "--dir", d, "--summary"][..], &g].concat());
    let total: u64 = summary
        .lines()
        .filter(|l| l.starts_with("all\t"))
        .map(|l| l.rsplit('\t').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total as usize, rows);
    // A game against the perfect player: Black is the computer; the
    // human's moves are read from standard input.
    let o =
        support::run::topitop_with_input(&[&["play", "--dir", d][..], &g].concat(), b"X9\nS1\nhint\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("move \"X9\""), "{text}");
    assert!(text.contains("Computer plays"), "{text}");
    assert!(text.contains("best: "), "{text}");
}
