//! Topolo through the same commands and files as Topitop (`--game topolo`):
//! solve, verify, query, show, perft and stats on real database files.

use crate::support;

use support::run::{stderr, stdout, temp_dir, topitop, topitop_with_env, topitop_with_input};

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
    // Positions from standard input: a row each, in input order, the bad
    // one an error row, the exit status 2 after every line is answered.
    let o = topitop_with_input(
        &[&["query", "--dir", d][..], &g].concat(),
        b".../.../...\ns../.../...\n# a comment\nS../.../...\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let rows: Vec<Vec<String>> = stdout(&o)
        .lines()
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 5, "{rows:?}");
    assert_eq!(rows[0][..2], ["position", "value"]);
    assert_eq!(rows[1][..4], [".../.../...", "win", "9", "27"]);
    assert_eq!(rows[2][1], "error");
    assert!(rows[2][2].contains("Red moves first"), "{rows:?}");
    assert_eq!(rows[3][..3], ["# a comment", "skipped", "comment"]);
    assert_eq!(rows[4][..3], ["S../.../...", "lose", "8"]);
    assert!(
        stderr(&o).contains("1 input lines were not valid"),
        "{}",
        stderr(&o)
    );
    let stats = ok(&[&["stats", "--dir", d][..], &g].concat());
    assert!(
        stats.starts_with("start position .../.../...: Red wins in 9\n"),
        "{stats}"
    );
    assert!(
        stats.contains("reachable positions  217417 (54510 symmetry classes)"),
        "{stats}"
    );
    let shown = ok(&[&["show", "S../.../..."][..], &g].concat());
    assert!(shown.contains("Black to move, on odd rows"), "{shown}");
    assert!(shown.contains("Moves (15):"), "{shown}");
    let perft = ok(&[&["perft", "9"][..], &g].concat());
    let total: u64 = perft
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth"))
        .map(|l| l.split('\t').nth(2).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 217_417, "{perft}");
}

#[test]
fn the_size_only_variant_is_its_own_database() {
    let dir = temp_dir("topolo-2x4");
    let d = dir.to_str().unwrap();
    let g = ["--game", "topolo", "--board", "2x4"];
    ok(&[&["solve", "--out", d, "--variant", "size-only"][..], &g].concat());
    assert!(dir.join("topolo_2x4_size-only.db").exists());
    // The index holds one position per symmetry class: there is no solve
    // of every position to ask for, and no such option.
    let o = topitop(&[&["solve", "--no-symmetry", "--out", d][..], &g].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--no-symmetry is not an option of topolo"),
        "{}",
        stderr(&o)
    );
    ok(&[&["solve", "--out", d][..], &g].concat());
    // Every image of a position answers as the position does.
    for (p, images) in [
        ("S.../....", ["...S/....", "..../S...", "..../...S"]),
        ("SsLl/....", ["lLsS/....", "..../SsLl", "..../lLsS"]),
    ] {
        let a: serde_json::Value =
            serde_json::from_str(&ok(&[&["query", p, "--json", "--dir", d][..], &g].concat())).unwrap();
        for q in images {
            let b: serde_json::Value =
                serde_json::from_str(&ok(&[&["query", q, "--json", "--dir", d][..], &g].concat())).unwrap();
            assert_eq!(
                (&a["positionValue"], &a["remoteness"]),
                (&b["positionValue"], &b["remoteness"]),
                "{p} {q}"
            );
        }
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
        (
            vec!["perft", "2", "--game", "chess"],
            "invalid value 'chess' for '--game <NAME>'",
        ),
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
        (
            vec!["perft", "2", "--board", "3x3"],
            "--board is not an option of topitop",
        ),
        (
            vec!["perft", "2", "--game", "topolo", "--budget", "1/1/1/1"],
            "--budget is not an option of topolo (--game topolo)",
        ),
        (
            vec!["solve", "--game", "topolo", "--out", "/nonexistent/x"],
            "too large to solve",
        ),
        // A search of no time plays no game: its "answers" would be
        // noise. Every command bounds it as the server does.
        (
            vec![
                "query",
                "--game",
                "topolo",
                "--search-ms",
                "0",
                "..../..../..../....",
            ],
            "give 10 to 60000 milliseconds",
        ),
        (
            vec!["play", "--game", "topolo", "--search-ms", "18446744073709551615"],
            "give 10 to 60000 milliseconds",
        ),
        (vec!["serve", "--search-ms", "9"], "give 10 to 60000 milliseconds"),
        // A database given where the synopsis shows `[DB]`: named with --db.
        (
            vec!["stats", "data/topolo_3x3.db"],
            "hint: a command names its database with --db: --db data/topolo_3x3.db",
        ),
        (vec!["verify", "--game", "topolo", "x.db"], "--db x.db"),
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
        tsv.starts_with("position\ttier\tvalue\tremoteness\n.../...\tstart\t"),
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

#[test]
fn topolo_is_served_with_its_board_and_answers_as_query_does() {
    // Over 100 lines on purpose: one server over one solve, every answer
    // checked against query.
    use support::http::get;
    use support::server::Server;
    let dir = temp_dir("topolo-serve");
    let d = dir.to_str().unwrap();
    ok(&["solve", "--out", d, "--game", "topolo", "--board", "3x3"]);
    ok(&[
        "solve",
        "--out",
        d,
        "--game",
        "topolo",
        "--board",
        "2x3",
        "--variant",
        "size-only",
    ]);
    let server = Server::start(&dir, "serve", &[]);
    let a = server.addr;
    // No Topitop database here: only Topolo is listed.
    let games = get(a, "/").json();
    assert_eq!(
        games,
        serde_json::json!([{"id": "topolo", "name": "Topolo", "type": "twoPlayer", "gui": "v3"}])
    );
    let game = get(a, "/topolo/").json();
    let ids: Vec<&str> = game["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    // The databases' boards, then the real one, answered by search.
    assert_eq!(ids, ["2x3_size-only", "3x3", "8x8"]);
    let start = "......../......../......../......../......../......../......../........";
    let est = get(a, &format!("/topolo/8x8/positions/?p={start}")).json();
    assert_eq!(est["estimated"]["method"], "mcts", "{est}");
    assert_eq!(est["remoteness"], -100, "unknown: {est}");
    assert_eq!(est["moves"].as_array().unwrap().len(), 64 * 3);
    assert!(est["moves"].as_array().unwrap().iter().all(|m| {
        let e = m["estimate"].as_f64().unwrap();
        (0.0..=1.0).contains(&e)
    }));
    // A solved board's object has no estimate in it (GamesmanUni's own).
    let solved = get(a, "/topolo/3x3/positions/?p=.../.../...").json();
    assert!(solved.get("estimated").is_none() && solved["moves"][0].get("estimate").is_none());
    let variant = get(a, "/topolo/3x3/").json();
    assert_eq!(variant["startPosition"], ".../.../...");
    assert_eq!(variant["autoguiStartPosition"], "1_---------");
    let theme = &variant["imageAutoGUIData"]["themes"]["pieces"];
    assert_eq!(
        theme["centers"].as_array().unwrap().len(),
        9 * 4,
        "cells, then 3 buttons a cell"
    );
    assert!(!get(a, "/topolo/3x3/instructions/").json()["instructions"]
        .as_str()
        .unwrap()
        .is_empty());
    // Down one line of best play: each answer is `query --json`'s, every
    // button is unique and drawn, each child's value agrees with the move's.
    let mut p = ".../.../...".to_string();
    loop {
        let body = get(a, &format!("/topolo/3x3/positions/?p={p}")).json();
        let q = ok(&[
            "query", &p, "--json", "--dir", d, "--game", "topolo", "--board", "3x3",
        ]);
        let mut q = serde_json::from_str::<serde_json::Value>(&q).unwrap();
        assert_eq!(q["reachable"], true, "{p}");
        q.as_object_mut().unwrap().remove("reachable");
        assert_eq!(body, q, "{p}");
        let moves = body["moves"].as_array().unwrap();
        if moves.is_empty() {
            assert_eq!(body["remoteness"], 0, "{p}");
            break;
        }
        let mut buttons: Vec<&str> = moves.iter().map(|m| m["autoguiMove"].as_str().unwrap()).collect();
        for b in &buttons {
            // GamesmanUni draws a button only from an image holding an
            // element `MoveButtonSVG`, as its Chung Toi one does.
            let image = b.split('_').nth(1).unwrap();
            assert_eq!(theme["charImages"][image]["image"], "chungtoi/p.svg", "{b}");
        }
        buttons.sort_unstable();
        buttons.dedup();
        assert_eq!(buttons.len(), moves.len(), "{p}");
        let best = &moves[0];
        assert_eq!(
            best["remoteness"].as_i64().unwrap() + 1,
            body["remoteness"].as_i64().unwrap()
        );
        p = best["position"].as_str().unwrap().to_string();
    }
    for (path, status, says) in [
        ("/topolo/3x3/positions/?p=SSS/.../...", 400, "Invalid Position"),
        ("/topolo/3x3/positions/?p=..../....", 400, "Invalid Position"),
        ("/topolo/4x4/", 404, "it serves 2x3_size-only, 3x3"),
        ("/topitop/", 404, "this server has \"topolo\""),
    ] {
        let r = get(a, path);
        assert_eq!(r.status, status, "{path}");
        assert!(
            r.json()["error"].as_str().unwrap().contains(says),
            "{path}: {}",
            r.json()
        );
    }
}

#[test]
fn stats_writes_an_html_report_and_never_over_its_database() {
    let dir = temp_dir("topolo-report");
    let d = dir.to_str().unwrap();
    let g = ["--game", "topolo", "--board", "2x3"];
    ok(&[&["solve", "--out", d][..], &g].concat());
    let page = dir.join("r.html");
    let text = ok(&[&["stats", "--dir", d, "--report", page.to_str().unwrap()][..], &g].concat());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("Topolo 2×3: database statistics"), "{html}");
    assert!(html.contains("id=\"fig-positions-by-value-and-remoteness\""));
    assert!(html.contains("id=\"table-positions-by-tier-and-value\""));
    assert!(html.contains("id=\"table-positions-by-remoteness\""));
    // The report's totals are the plain report's.
    let solved = text.lines().find(|l| l.starts_with("solved")).unwrap();
    let win: &str = solved.split_whitespace().nth(1).unwrap();
    assert!(
        html.contains(&format!("<td>win</td><td class=\"num\">{win}</td>")),
        "{solved}"
    );
    // `--report -` prints the page alone.
    let only = ok(&[&["stats", "--dir", d, "--report", "-"][..], &g].concat());
    assert!(only.starts_with("<!DOCTYPE html>") && only.trim_end().ends_with("</html>"));
    let db = dir.join("topolo_2x3.db");
    let before = std::fs::read(&db).unwrap();
    let o = topitop(&[&["stats", "--dir", d, "--report", db.to_str().unwrap()][..], &g].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&db).unwrap(), before, "the database is untouched");
}

#[test]
#[ignore = "long tier: a minute or more; .ci/long runs it (cargo test -- --ignored)"]
fn a_killed_solve_resumes_from_its_checkpoints_with_the_same_result() {
    let dir = temp_dir("topolo-resume");
    let d = dir.to_str().unwrap();
    let g = ["--game", "topolo", "--board", "5x3"];
    let ckpt = dir.join("topolo_5x3.ckpt");
    let kept = |p: &std::path::Path| {
        std::fs::read_dir(p).map_or(0, |r| {
            r.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().ends_with(".level"))
                .count()
        })
    };
    // One worker, so that the solve lasts long enough to be killed.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(
            [
                &["solve", "--out", d, "--checkpoint-after", "0", "--threads", "1"][..],
                &g,
            ]
            .concat(),
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while kept(&ckpt) < 2 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the solve ended before it could be killed"
        );
        assert!(start.elapsed().as_secs() < 120, "no checkpoints after 2 minutes");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!dir.join("topolo_5x3.db").exists());
    let before = kept(&ckpt);
    let solved = ok(&[&["solve", "--out", d][..], &g].concat());
    let resumed: usize = solved
        .lines()
        .find_map(|l| l.strip_prefix("resumed ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{solved}"));
    assert!(
        resumed >= before && resumed > 0,
        "{before} kept, {resumed} resumed"
    );
    assert!(!ckpt.exists(), "checkpoints go once the database is written");
    assert!(!dir.join("topolo_5x3.db.lock").exists());
    // The same file as a solve that was never cut short.
    let whole = temp_dir("topolo-resume-whole");
    ok(&[&["solve", "--out", whole.to_str().unwrap()][..], &g].concat());
    assert!(
        std::fs::read(dir.join("topolo_5x3.db")).unwrap()
            == std::fs::read(whole.join("topolo_5x3.db")).unwrap(),
        "a resumed solve writes the same database"
    );
    let verified = ok(&[&["verify", "--dir", d][..], &g].concat());
    assert!(verified.contains(": 0 violations"), "{verified}");
    // Checkpoints of another solve are never resumed.
    let other = dir.join("topolo_2x3.ckpt");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("MAKER"), "game topolo; variant 2x3_size-only\n").unwrap();
    let o = topitop(&["solve", "--out", d, "--game", "topolo", "--board", "2x3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is never resumed"), "{}", stderr(&o));
    assert!(!dir.join("topolo_2x3.db").exists());
}

#[test]
fn the_real_board_is_played_and_queried_by_search() {
    let dir = temp_dir("topolo-8x8");
    let d = dir.to_str().unwrap();
    let g = ["--game", "topolo", "--dir", d, "--search-ms", "200"];
    // Early on: estimates, marked, every move.
    let start = "......../......../......../......../......../......../......../........";
    let o = topitop(&[&["query", start, "--json"][..], &g].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("estimates"), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["estimated"]["method"], "mcts");
    assert!(v["estimated"]["work"].as_u64().unwrap() > 100, "{v}");
    assert_eq!(v["moves"].as_array().unwrap().len(), 192);
    // Near the end the search reaches the end: exact results.
    let pos = game_near_end();
    let text = ok(&[&["query", &pos][..], &g].concat());
    // An exact result is said to be one, not an estimate.
    assert!(text.contains("proven by the search"), "{text}");
    assert!(!text.contains("estimated:"), "{text}");
    let v: serde_json::Value =
        serde_json::from_str(&ok(&[&["query", &pos, "--json"][..], &g].concat())).unwrap();
    assert_eq!(v["estimated"]["method"], "exact", "{v}");
    assert!(v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| [0.0, 0.5, 1.0].contains(&m["estimate"].as_f64().unwrap())));
    // Played: the computer answers, its move said to be an estimate.
    let o = topitop_with_input(
        &[&["play", "--computer", "black"][..], &g].concat(),
        b"S1\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Computer plays") && out.contains("estimated"),
        "{out}"
    );
    // Hints on a board answered by search: shares, best first (they once
    // came in the search's order under a promise of "how many moves").
    let o = topitop_with_input(&[&["play", "--hints"][..], &g].concat(), b"quit\n");
    let out = stdout(&o);
    assert!(out.contains("hints (estimated share for"), "{out}");
    let shares: Vec<u32> = out
        .lines()
        .skip_while(|l| !l.contains("hints ("))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .flat_map(|l| {
            l.split_whitespace()
                .filter_map(|w| w.strip_suffix('%')?.parse().ok())
        })
        .collect();
    assert!(shares.len() > 10, "{out}");
    assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{shares:?}");
}

/// An 8×8 position with four empty cells, Red to move: the odd rows full
/// of small pieces, the even rows of mid and large ones but the last four
/// cells (each side has 16 small, 8 mid and 8 large pieces).
fn game_near_end() -> String {
    let odd = "SsSsSsSs";
    let even = "MmLlMmLl";
    let last = "MmLl....";
    [odd, even, odd, even, odd, even, odd, last].join("/")
}

/// A board whose estimate alone is far beyond the memory (5x5 under a
/// 16 GB limit) is refused at once from the estimate, where it used to
/// count its indices for minutes in silence first. Past the refusal
/// (`--ignore-memory-estimate`, on a board the limit is set for), the
/// solve counts them and writes the database a plain solve writes.
#[test]
fn a_board_far_beyond_memory_is_refused_at_once_from_its_estimate() {
    let dir = temp_dir("topolo-beyond");
    let d = dir.to_str().unwrap();
    let start = std::time::Instant::now();
    let o = topitop_with_env(
        &["solve", "--game", "topolo", "--board", "5x5", "--out", d],
        &[("TOPITOP_MEMORY_LIMIT", "16G")],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(
        said.contains("by an estimate from counts") && said.contains("--ignore-memory-estimate"),
        "{said}"
    );
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    // 3x3 under 1 MB: refused the same way, then solved past the refusal.
    let g = ["--game", "topolo", "--board", "3x3"];
    let limit = [("TOPITOP_MEMORY_LIMIT", "1M")];
    let past = dir.join("past");
    let o = topitop_with_env(&[&["solve", "--out", d][..], &g].concat(), &limit);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("by an estimate from counts"),
        "{}",
        stderr(&o)
    );
    let args = [
        &[
            "solve",
            "--ignore-memory-estimate",
            "--out",
            past.to_str().unwrap(),
        ][..],
        &g,
    ]
    .concat();
    let o = topitop_with_env(&args, &limit);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("counting the indices of topolo 3x3 exactly"),
        "{}",
        stderr(&o)
    );
    let plain = dir.join("plain");
    ok(&[&["solve", "--out", plain.to_str().unwrap()][..], &g].concat());
    assert_eq!(
        std::fs::read(past.join("topolo_3x3.db")).unwrap(),
        std::fs::read(plain.join("topolo_3x3.db")).unwrap()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `crosscheck A B` compares two Topolo databases as it does any game's
/// (docs/reference.md), both ways, and refuses two boards' files.
#[test]
fn crosscheck_compares_two_topolo_databases() {
    let dir = temp_dir("topolo-crosscheck");
    let (one, two) = (dir.join("one"), dir.join("two"));
    for out in [&one, &two] {
        ok(&[
            "solve",
            "--game",
            "topolo",
            "--board",
            "2x3",
            "--out",
            out.to_str().unwrap(),
        ]);
    }
    let a = one.join("topolo_2x3.db");
    let b = two.join("topolo_2x3.db");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    for args in [
        vec!["crosscheck", a, b],
        vec!["crosscheck", "--game", "topolo", a, b],
    ] {
        let same = ok(&args);
        for pass in ["A in B", "B in A"] {
            let line = same.lines().find(|l| l.starts_with(pass)).expect(pass);
            let n: Vec<u64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
            assert!(n[0] > 0 && n[1] == 0, "{args:?}: {same}");
        }
    }
    ok(&[
        "solve",
        "--game",
        "topolo",
        "--board",
        "3x2",
        "--out",
        one.to_str().unwrap(),
    ]);
    let other = one.join("topolo_3x2.db");
    let o = topitop(&["crosscheck", a, other.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "trouble, not differences");
    assert!(
        stderr(&o).contains("2x3") && stderr(&o).contains("3x2"),
        "{}",
        stderr(&o)
    );
}

/// A file that claims to be a database of a board too large to index (a
/// forged `topolo_8x8.db` with no tiers, which checks nothing and answers
/// nothing) is refused by every command that reads it.
#[test]
fn a_database_of_a_board_that_cannot_be_indexed_is_refused() {
    use topitop_db::packed::{write_packed, PackedHeader};
    let dir = temp_dir("topolo-forged-8x8");
    let path = dir.join("topolo_8x8.db");
    let header = PackedHeader {
        version: topitop_db::packed::VERSION,
        game: "topolo".into(),
        variant: "8x8".into(),
        program: "a forger".into(),
        symmetric: true,
        max_remoteness: 0,
        dictionary: Vec::new(),
        tiers: Vec::new(),
        blocks: Vec::new(),
    };
    write_packed(&path, header, &[]).unwrap();
    let (d, db) = (dir.to_str().unwrap(), path.to_str().unwrap());
    for args in [
        vec!["verify", "--game", "topolo", "--dir", d],
        vec!["verify", "--db", db],
        vec!["stats", "--db", db],
        vec![
            "query",
            "--db",
            db,
            "......../......../......../......../......../......../......../........",
        ],
        vec!["export", "--db", db],
    ] {
        let o = topitop(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(
            stderr(&o).contains("no database of topolo 8x8 can exist"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}
