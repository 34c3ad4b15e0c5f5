//! The `topitop` binary, run as a user would.

use crate::support;

use std::process::Command;

use support::run::{stderr, stdout, topitop, topitop_with_env, topitop_with_input};

#[test]
fn perft_prints_paths_and_positions_per_depth() {
    let o = topitop(&["perft", "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&v["game"], &v["variant"]), (&"topitop".into(), &"v1_0".into()));
    let got: Vec<(u64, u64, u64)> = v["depth"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let n = |k: &str| r[k].as_u64().unwrap();
            (n("depth"), n("sequences"), n("positions"))
        })
        .collect();
    assert_eq!(got, [(0, 1, 1), (1, 27, 27), (2, 728, 584), (3, 20_168, 7_150)]);
    let text = stdout(&topitop(&["perft", "2", "--rules", "v0"]));
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["2", "728", "584"]),
        "{text}"
    );
}

#[test]
fn show_json_lists_every_move_with_its_child() {
    let o = topitop(&["show", "1_LS-L-SLLS45", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["turn"], "Blue");
    assert_eq!(v["forbidden_slide"], "4-5");
    assert_eq!(v["primitive"], serde_json::Value::Null);
    assert_eq!(v["tier"], 0x4300_0000u64);
    assert_eq!(v["tier_position"], 35_766);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 16);
    // As GamesmanClassic lists them: the first generated last.
    assert_eq!(moves[15]["move"], "2-1");
    assert_eq!(moves[15]["code"], 16);
    assert_eq!(moves[15]["position"], "2_C--L-SLLS");
    assert_eq!(moves[0]["move"], "9-8");
    assert!(moves.iter().all(|m| m["move"] != "4-5"));
}

#[test]
fn show_text_reports_primitive_values() {
    let o = topitop(&["show", "2_PPQRC----", "--variant", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Primitive  tie"), "{text}");
    assert!(text.contains("Moves (0)"), "{text}");
    let text = stdout(&topitop(&["show", "1_LOBLRXLCS"]));
    assert!(text.contains("None") && text.contains("code 1023"), "{text}");
}

#[test]
fn bad_input_is_a_clear_error_with_exit_code_2() {
    for (args, needle) in [
        (&["show", "1_---Z-----"][..], "cell 4 is 'Z'"),
        (&["show", "1_BBB------"][..], "3 blue buckets"),
        (
            &["show", "1_---------", "--variant", "8"][..],
            "unknown variant 8",
        ),
        (&["perft", "2", "--rules", "v9"][..], "unknown ruleset"),
        (&["perft", "2", "--budget", "1/2"][..], "B/R/S/L"),
    ] {
        let o = topitop(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("topitop-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn solve_resumes_after_sigkill_with_identical_result() {
    let dir = temp_dir("resume");
    let (clean, killed) = (dir.join("clean"), dir.join("killed"));
    let budget = ["--budget", "2/2/2/2"];
    let o = topitop(&[&["solve", "--out", clean.to_str().unwrap()][..], &budget[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let mut child = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args([
            "solve",
            "--out",
            killed.to_str().unwrap(),
            "--budget",
            "2/2/2/2",
            "--checkpoint-after",
            "0",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let ckpt = killed.join("topitop_v1_0_2-2-2-2.ckpt");
    let tier_files = || {
        std::fs::read_dir(&ckpt).map_or(0, |d| {
            d.filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "level"))
            })
            .count()
        })
    };
    while tier_files() < 8 {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap(); // SIGKILL on Unix
    let status = child.wait().unwrap();
    assert!(!status.success(), "the solve was interrupted");
    assert!(
        !killed.join("topitop_v1_0_2-2-2-2.db").exists(),
        "no result from a killed run"
    );
    // A torn checkpoint is ignored and its tiers solved again.
    let first = std::fs::read_dir(&ckpt)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "level"))
        .unwrap();
    let bytes = std::fs::read(&first).unwrap();
    std::fs::write(&first, &bytes[..bytes.len() / 2]).unwrap();
    let o = topitop(&[&["solve", "--out", killed.to_str().unwrap()][..], &budget[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("resumed"), "{}", stdout(&o));
    // Not silently: the damaged file is named.
    let warned = format!("{} is ignored (", first.display());
    assert!(stderr(&o).contains(&warned), "{}", stderr(&o));
    let a = std::fs::read(clean.join("topitop_v1_0_2-2-2-2.db")).unwrap();
    let b = std::fs::read(killed.join("topitop_v1_0_2-2-2-2.db")).unwrap();
    assert!(a == b, "resumed result differs from an uninterrupted one");
    assert!(
        !ckpt.exists(),
        "checkpoints are removed after the result is written"
    );
    let v = topitop(&[&["verify", "--dir", killed.to_str().unwrap()][..], &budget[..]].concat());
    assert!(
        v.status.success() && stdout(&v).contains(" 0 violations"),
        "{}",
        stdout(&v)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn solve_all_writes_the_nine_databases_single_solves_write_and_resumes() {
    // Over 100 lines on purpose: one solve of the nine databases, then each
    // claim about them checked; the solve is the cost.
    let dir = temp_dir("solve-all");
    let (all, single, killed) = (dir.join("all"), dir.join("single"), dir.join("killed"));
    let budget = ["--budget", "2/2/2/2"];
    let o = topitop(
        &[
            &["solve", "--all", "--out", all.to_str().unwrap()][..],
            &budget[..],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("solved 9 databases together"),
        "{}",
        stdout(&o)
    );
    let rulesets: Vec<(&str, String)> = (0..8)
        .map(|v| ("v1", v.to_string()))
        .chain([("v0", "0".to_string())])
        .collect();
    let mut names = Vec::new();
    for (rules, variant) in &rulesets {
        let o = topitop(
            &[
                &[
                    "solve",
                    "--rules",
                    rules,
                    "--variant",
                    variant,
                    "--out",
                    single.to_str().unwrap(),
                ][..],
                &budget[..],
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let name = format!("topitop_{rules}_{variant}_2-2-2-2.db");
        let a = std::fs::read(all.join(&name)).unwrap();
        let b = std::fs::read(single.join(&name)).unwrap();
        assert!(a == b, "{name}: solved together differs from solved alone");
        names.push(name);
    }
    names.sort();
    assert_eq!(
        support::run::listing(&all),
        names,
        "nine databases and nothing else"
    );

    // Killed once some ruleset has checkpoints, then run again: each
    // ruleset resumes and the files are the same.
    let mut child = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args([
            "solve",
            "--all",
            "--out",
            killed.to_str().unwrap(),
            "--budget",
            "2/2/2/2",
            "--checkpoint-after",
            "0",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let ckpt = killed.join("topitop_v0_0_2-2-2-2.ckpt");
    let levels = || std::fs::read_dir(&ckpt).map_or(0, |d| d.count());
    while levels() < 8 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the solve ended before it could be killed"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap();
    assert!(!child.wait().unwrap().success(), "the solve was interrupted");
    let o = topitop(
        &[
            &["solve", "--all", "--out", killed.to_str().unwrap()][..],
            &budget[..],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("resumed"), "{}", stdout(&o));
    for name in &names {
        let a = std::fs::read(all.join(name)).unwrap();
        let b = std::fs::read(killed.join(name)).unwrap();
        assert!(a == b, "{name}: the resumed file differs");
    }
    assert_eq!(
        support::run::listing(&killed),
        names,
        "checkpoints and locks are gone"
    );

    // A directory in the place of one database is refused before anything
    // is written for any of the nine.
    let blocked = dir.join("blocked");
    std::fs::create_dir_all(blocked.join("topitop_v1_5_2-2-2-2.db")).unwrap();
    let o = topitop(
        &[
            &["solve", "--all", "--out", blocked.to_str().unwrap()][..],
            &budget[..],
        ]
        .concat(),
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
    assert_eq!(
        support::run::listing(&blocked),
        ["topitop_v1_5_2-2-2-2.db"],
        "nothing left behind"
    );

    let o = topitop(&["solve", "--all", "--variant", "3", "--out", all.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verify_reports_a_corrupt_file() {
    let dir = temp_dir("corrupt");
    let budget = ["--budget", "2/0/2/2"];
    let o = topitop(&[&["solve", "--out", dir.to_str().unwrap()][..], &budget[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let file = dir.join("topitop_v1_0_2-0-2-2.db");
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    let v = topitop(&[&["verify", "--dir", dir.to_str().unwrap()][..], &budget[..]].concat());
    assert_eq!(v.status.code(), Some(2));
    assert!(stderr(&v).contains("checksum mismatch"), "{}", stderr(&v));
    std::fs::write(&file, &bytes[..100]).unwrap();
    let v = topitop(&[&["verify", "--dir", dir.to_str().unwrap()][..], &budget[..]].concat());
    assert_eq!(v.status.code(), Some(2), "{}", stderr(&v));
    assert!(stderr(&v).contains("truncated"), "{}", stderr(&v));
    std::fs::remove_dir_all(&dir).ok();
}

/// A record that is wrong but well stored (checksums intact) is found by
/// the Bellman check, in the same words whether the records are loaded
/// whole or, with too little memory for that, looked up block by block.
#[test]
fn verify_finds_a_wrong_record_loaded_or_block_by_block() {
    use games_topitop_rules::{Position, Value};
    use topitop_game_api::Record;

    let dir = temp_dir("wrong-record");
    let o = topitop(&["solve", "--budget", "2/0/2/2", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let good = dir.join("topitop_v1_0_2-0-2-2.db");
    let sol = games_topitop_solved::Database::open(&good)
        .unwrap()
        .to_solution(|_, _| {})
        .unwrap();
    let mut records = sol.records().to_vec();
    let at = sol.index().index(Position::START).unwrap() as usize;
    let right = records[at];
    let wrong = if right.value() == Some(Value::Tie) {
        Record::new(Value::Draw, 0)
    } else {
        Record::new(Value::Tie, 7)
    };
    records[at] = wrong;
    let bad = dir.join("wrong.db");
    let sol = games_topitop_table::Solution::from_index(sol.rules(), sol.index().clone(), records);
    games_topitop_solved::write(
        &bad,
        &sol,
        &games_topitop_solved::WriteOptions::default(),
        |_, _| {},
    )
    .unwrap();

    let args = ["verify", "--db", bad.to_str().unwrap()];
    let loaded = topitop(&args);
    assert_eq!(loaded.status.code(), Some(2), "{}", stderr(&loaded));
    let text = stdout(&loaded);
    assert!(
        text.contains(&format!("{}  stored {wrong}  expected {right}", Position::START)),
        "{text}"
    );
    assert!(!text.contains(": 0 violations"), "{text}");
    assert!(!stderr(&loaded).contains("block by block"), "{}", stderr(&loaded));
    let by_block = topitop_with_env(&args, &[("TOPITOP_MEMORY_LIMIT", "1K")]);
    assert_eq!(by_block.status.code(), Some(2), "{}", stderr(&by_block));
    assert_eq!(stdout(&by_block), text);
    assert!(
        stderr(&by_block).contains("block by block"),
        "{}",
        stderr(&by_block)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A solved 2/2/2/2 game in a fresh directory: (dir, db path).
fn small_db(name: &str, variant: &str) -> (std::path::PathBuf, String) {
    solved(name, variant, "2/2/2/2")
}

/// `query --json` of `pos` in the database `db`.
fn query_json(db: &str, pos: &str) -> serde_json::Value {
    serde_json::from_str(&stdout(&topitop(&["query", pos, "--db", db, "--json"]))).unwrap()
}

/// A solved game of `budget` in a fresh directory: (dir, db path).
fn solved(name: &str, variant: &str, budget: &str) -> (std::path::PathBuf, String) {
    let dir = temp_dir(name);
    let o = topitop(&[
        "solve",
        "--out",
        dir.to_str().unwrap(),
        "--budget",
        budget,
        "--variant",
        variant,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let db = dir.join(format!("topitop_v1_{variant}_{}.db", budget.replace('/', "-")));
    assert!(
        stdout(&o).contains(&format!("wrote {}", db.display())),
        "{}",
        stdout(&o)
    );
    (dir, db.to_str().unwrap().to_string())
}

#[test]
fn query_answers_like_gamesman_uni() {
    let (dir, db) = small_db("query", "0");
    let o = topitop(&["query", "1_---------", "--db", &db, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 27);
    let order = ["win", "tie", "draw", "lose"];
    let rank = |m: &serde_json::Value| order.iter().position(|&x| x == m["moveValue"]).unwrap();
    for w in moves.windows(2) {
        assert!(
            (rank(&w[0]), w[0]["deltaRemoteness"].as_i64())
                <= (rank(&w[1]), w[1]["deltaRemoteness"].as_i64()),
            "sorted best to worst: {w:?}"
        );
    }
    // The position's value and remoteness follow from its moves.
    let best = &moves[0];
    assert_eq!(v["positionValue"], best["moveValue"]);
    assert_remoteness_follows(&v);
    // A drawn position (found by export) is shown with GamesmanUni's draw
    // remoteness, and so are its drawing moves.
    let o = topitop(&["export", "--db", &db, "--value", "draw"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = stdout(&o);
    let drawn = rows.lines().nth(1).expect("the 2/2/2/2 game has draws");
    let drawn = drawn.split('\t').next().unwrap();
    let o = topitop(&["query", drawn, "--db", &db, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let d: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(d["positionValue"], "draw", "{d}");
    assert_remoteness_follows(&d);
    // Bulk: one TSV row per input line, errors reported in place.
    let o = topitop_with_input(&["query", "--db", &db], b"1_---------\n2_P--P-----\n1_ZZZ\n");
    let text = stdout(&o);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows[2].starts_with("2_P--P-----\tlose\t0\t0"), "{text}");
    assert!(rows[3].starts_with("1_ZZZ\terror"), "{text}");
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

/// A position object's remoteness agrees with its moves: one more than
/// the best child's for a win or tie, than the longest losing child's for a
/// loss; -200 for a draw, with a drawing move and no winning one.
fn assert_remoteness_follows(v: &serde_json::Value) {
    let moves = v["moves"].as_array().unwrap();
    let rem = |m: &serde_json::Value| m["remoteness"].as_i64().unwrap();
    let of_value = |mv: &'static str| moves.iter().filter(move |m| m["moveValue"] == mv);
    let want = match v["positionValue"].as_str().unwrap() {
        "win" => of_value("win").map(rem).min().unwrap() + 1,
        "tie" => of_value("tie").map(rem).min().unwrap() + 1,
        "lose" => moves.iter().map(rem).max().unwrap() + 1,
        "draw" => {
            assert_eq!(of_value("win").count(), 0, "{v}");
            assert!(of_value("draw").all(|m| rem(m) == -200), "{v}");
            assert!(of_value("draw").count() > 0, "{v}");
            -200
        }
        other => panic!("unexpected value {other}: {v}"),
    };
    assert_eq!(v["remoteness"].as_i64().unwrap(), want, "{v}");
}

#[test]
fn export_summary_and_stats_agree_with_the_solve() {
    let (dir, db) = solved("export", "2", "1/2/2/2");
    let o = topitop(&["stats", "--db", &db, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let stats: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    // The headline comes first, and says what `query` says of the start.
    let q = query_json(&db, "1_---------");
    let start = &stats["start"];
    assert_eq!(start["position"], "1_---------");
    assert_eq!(start["value"], q["positionValue"]);
    let text = stdout(&topitop(&["stats", "--db", &db]));
    let first = text.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "start position 1_---------: {}",
            start["result"].as_str().unwrap()
        )
    );
    let expected = match q["positionValue"].as_str().unwrap() {
        "win" => format!("Blue wins in {}", q["remoteness"]),
        "lose" => format!("Red wins in {}", q["remoteness"]),
        "tie" => format!("a tie in {}", q["remoteness"]),
        _ => "a draw (neither side can force a win)".to_string(),
    };
    assert_eq!(start["result"], expected.as_str());
    // Positions games reach: fewer than the positions of play (Red to move
    // on an empty board is one no game comes to), split the same way.
    let reach = &stats["reachable"];
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    assert!(n(&reach["positions"]) < n(&stats["play_classes"]), "{reach}");
    // The common figures: the classes play reaches, and their positions.
    assert_eq!(n(&reach["positions"]), n(&stats["classes"]));
    assert!(n(&stats["positions"]) > n(&stats["classes"]));
    assert_eq!(
        n(&reach["positions"]),
        ["win", "lose", "tie", "draw", "unsolved"]
            .iter()
            .map(|k| n(&reach[*k]))
            .sum::<u64>()
    );
    for k in ["win", "lose", "tie", "draw"] {
        assert!(n(&reach[k]) <= n(&stats[k]), "{k}");
    }
    // `export --reachable` keeps exactly those rows.
    let rows = stdout(&topitop(&["export", "--db", &db, "--reachable"]));
    assert_eq!(rows.lines().count() as u64 - 1, n(&reach["positions"]));
    assert!(!rows.lines().any(|l| l.starts_with("2_---------\t")));
    let out = dir.join("summary.tsv");
    let o = topitop(&["export", "--db", &db, "--summary", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut by_value = std::collections::HashMap::new();
    for line in text.lines().skip(1).filter(|l| l.starts_with("all\t")) {
        let f: Vec<&str> = line.split('\t').collect();
        *by_value.entry(f[1].to_string()).or_insert(0u64) += f[3].parse::<u64>().unwrap();
    }
    for v in ["win", "lose", "tie", "draw"] {
        assert_eq!(
            by_value.get(v).copied().unwrap_or(0),
            stats[v].as_u64().unwrap(),
            "{v}"
        );
    }
    // A tier and value filter: every row is in the tier and has the value.
    let o = topitop(&["export", "--db", &db, "--value", "lose"]);
    let tier = stdout(&o)
        .lines()
        .nth(1)
        .unwrap()
        .split('\t')
        .nth(1)
        .unwrap()
        .to_string();
    let o = topitop(&[
        "export", "--db", &db, "--tier", &tier, "--value", "lose", "--format", "csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = stdout(&o);
    assert!(rows.lines().count() > 1, "{rows}");
    assert!(
        rows.lines()
            .skip(1)
            .all(|l| l.contains(&format!(",{tier},lose,"))),
        "{rows}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn crosscheck_counts_differences_between_variants() {
    let (d0, db0) = small_db("cross0", "0");
    let (d4, db4) = small_db("cross4", "4");
    let same = topitop(&["crosscheck", &db0, &db0]);
    assert!(same.status.success(), "{}", stderr(&same));
    assert!(
        stdout(&same).contains(": 0 differ, 0 in value and 0 in remoteness only"),
        "{}",
        stdout(&same)
    );
    let diff = topitop(&["crosscheck", &db0, &db4, "--json"]);
    assert_eq!(diff.status.code(), Some(1), "they differ");
    let v: serde_json::Value = serde_json::from_str(&stdout(&diff)).unwrap();
    assert!(
        v["differ"]["value"].as_u64().unwrap() > 0,
        "misère changes values"
    );
    assert!(!v["examples"].as_array().unwrap().is_empty());
    std::fs::remove_dir_all(&d0).ok();
    std::fs::remove_dir_all(&d4).ok();
}

#[test]
fn play_against_the_perfect_player_with_undo() {
    let (dir, db) = small_db("play", "0");
    let o = topitop_with_input(&["play", "--db", &db, "--hints"], b"B5\nundo\nX9\nR1\nS1\nquit\n");
    let text = stdout(&o);
    assert!(o.status.success());
    assert_eq!(text.matches("Computer plays").count(), 2, "{text}");
    // Shown at the start, after the undo, and again after each rejected move.
    assert_eq!(
        text.matches("\n1_--------- (").count(),
        4,
        "undo returns to the start: {text}"
    );
    assert!(text.contains("\"X9\""), "a bad move is named: {text}");
    // A legal-looking move that is refused says which rule it breaks.
    assert!(
        text.contains("R1 is not a legal move here: Blue places only its own bucket"),
        "{text}"
    );
    // The letters are explained, and what is left to place shown.
    assert!(text.contains("X/O Blue's/Red's bucket on a small pile"), "{text}");
    assert!(text.contains("left to place: Blue 2 bucket(s)"), "{text}");
    // Whose result the computer's move leads to is said by name.
    assert!(
        text.contains("Computer plays ") && text.contains(" for Red: then "),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gamesman_classic_export_reads_back_through_crosscheck() {
    let dir = temp_dir("gcexport");
    let o = topitop(&[
        "solve",
        "--out",
        dir.to_str().unwrap(),
        "--budget",
        "1/1/2/2",
        "--variant",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let db = dir.join("topitop_v1_3_1-1-2-2.db");
    let db = db.to_str().unwrap();
    let data = dir.join("data");
    let o = topitop(&[
        "export",
        "--format",
        "gamesman-classic",
        "-o",
        data.to_str().unwrap(),
        "--db",
        db,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let folder = data.join("mtopitop_3_tierdb");
    let wrote = stderr(&o);
    assert!(wrote.contains(&format!("wrote {}", folder.display())), "{wrote}");
    let number_before = |text: &str, what: &str| -> u64 {
        let end = text.find(what).unwrap_or_else(|| panic!("no {what:?} in {text}"));
        let start = text[..end]
            .trim_end()
            .rfind([' ', '(', '\n'])
            .map_or(0, |i| i + 1);
        text[start..end].trim().parse().unwrap()
    };
    let solved = number_before(&wrote, " solved,");
    let files = std::fs::read_dir(&folder).unwrap().count();
    let lookups = std::fs::read_dir(folder.join("lookup")).unwrap().count();
    assert!(files > 100, "{files} entries");
    assert_eq!(files, lookups + 1, "one .idx per tier file, and lookup/");
    // The only entry beside the folder: no temporary folder is left.
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 1);
    let o = topitop(&[
        "crosscheck",
        "--gamesman-classic",
        data.to_str().unwrap(),
        "--db",
        db,
    ]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let report = stdout(&o);
    assert!(
        report.contains(": 0 differ in value, 0 in remoteness only"),
        "{report}"
    );
    // Every solved slot is read back and compared, those outside our index
    // (a forbidden slide no move leaves) one ply from their children: none
    // is skipped.
    let compared = number_before(&report, " positions in ");
    assert!(!report.contains("could not be compared"), "{report}");
    assert_eq!(compared, solved, "{report}");
    // Exporting again replaces the folder, at GamesmanClassic's own level.
    let o = topitop(&[
        "export",
        "--format",
        "gamesman-classic",
        "--exact",
        "-o",
        data.to_str().unwrap(),
        "--db",
        db,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gamesman_classic_export_refuses_v0_and_wants_a_directory() {
    let dir = temp_dir("gcrefuse");
    let out = dir.join("data");
    let o = topitop(&[
        "export",
        "--format",
        "gamesman-classic",
        "--rules",
        "v0",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("v0 rules have no GamesmanClassic file layout"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    let o = topitop(&["export", "--format", "gamesman-classic"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs -o DIR"), "{}", stderr(&o));
    let o = topitop(&["export", "--exact", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--exact applies only"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn any_position_finds_its_exported_row_through_canonical() {
    let (dir, db) = small_db("canonical", "0");
    let opening = "2_--B------";
    let o = topitop(&["canonical", opening, "--budget", "2/2/2/2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let key = stdout(&o).trim().to_string();
    let export = stdout(&topitop(&["export", "--db", &db]));
    let row: Vec<&str> = export
        .lines()
        .find(|l| l.split('\t').next() == Some(key.as_str()))
        .unwrap_or_else(|| panic!("no row {key}"))
        .split('\t')
        .collect();
    let q: serde_json::Value =
        serde_json::from_str(&stdout(&topitop(&["query", opening, "--db", &db, "--json"]))).unwrap();
    assert_eq!(row[2], q["positionValue"], "the row holds the position's value");
    if key != opening {
        assert!(
            !export.lines().any(|l| l.starts_with(&format!("{opening}\t"))),
            "rows hold canonical forms only"
        );
    }
    // Many at once, for a join: a row each, a bad line marked.
    let o = topitop_with_input(
        &["canonical", "--budget", "2/2/2/2"],
        &[format!("{opening}\nnonsense\n").as_bytes(), b"\xff\xfe\n"].concat(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("2 input lines were not valid"),
        "{}",
        stderr(&o)
    );
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines[0], "position\tcanonical");
    assert_eq!(lines[1], format!("{opening}\t{key}"));
    assert!(lines[2].starts_with("nonsense\terror: "), "{lines:?}");
    // A line that is not text is not skipped: it is an error row too.
    assert_eq!(lines[3], "\terror: the line is not valid UTF-8", "{lines:?}");
    // Blank and comment lines still get their row, and no field can hold a
    // TAB or a terminal escape from the input: rows pair up with lines.
    let o = topitop_with_input(
        &["canonical", "--budget", "2/2/2/2"],
        format!("\n# note\n{opening}\nx\ty\u{1b}[31m\n").as_bytes(),
    );
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[1], "\tskipped: blank line");
    assert_eq!(lines[2], "# note\tskipped: comment");
    assert_eq!(lines[3], format!("{opening}\t{key}"));
    assert!(lines[4].starts_with("x\\ty\\x1b[31m\terror: "), "{lines:?}");
    for l in &lines {
        assert_eq!(l.split('\t').count(), 2, "{l:?}");
        assert!(!l.contains('\u{1b}'), "{l:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_export_format_has_the_same_columns_and_the_tier_decoded() {
    // A budget of each kind's own count, so that each column's sum below
    // is checked against its own kind.
    let (dir, db) = solved("columns", "0", "2/1/1/2");
    let tsv = stdout(&topitop(&["export", "--db", &db]));
    let csv = stdout(&topitop(&["export", "--db", &db, "--format", "csv"]));
    let jsonl = stdout(&topitop(&["export", "--db", &db, "--format", "jsonl"]));
    let header: Vec<&str> = tsv.lines().next().unwrap().split('\t').collect();
    assert_eq!(header.len(), 13, "{header:?}");
    assert_eq!(csv.lines().next().unwrap().split(',').collect::<Vec<_>>(), header);
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    let keys: Vec<&str> = first.as_object().unwrap().keys().map(String::as_str).collect();
    let mut sorted = header.clone();
    sorted.sort_unstable();
    let mut keys = keys;
    keys.sort_unstable();
    assert_eq!(keys, sorted, "JSON Lines has the same columns");
    // What is on the board and what is left add up to the budget, kind
    // by kind (blue and red buckets, small and large piles), and the turn
    // is the position string's digit.
    let budget = [2, 1, 1, 2];
    assert!(tsv.lines().count() > 1000);
    for line in tsv.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let n = |i: usize| f[i].parse::<u8>().unwrap();
        assert_eq!(n(4), f[0].as_bytes()[0] - b'0', "{line}");
        for (k, &kind) in budget.iter().enumerate() {
            assert_eq!(n(5 + k) + n(9 + k), kind, "{line}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn all_symmetries_gives_every_position_a_row_and_reachability_is_marked() {
    // The smallest budget: every one of its 85,000 positions goes through
    // `canonical` and `query`.
    let (dir, db) = solved("images", "0", "1/1/1/1");
    let plain = stdout(&topitop(&["export", "--db", &db]));
    let o = topitop(&["export", "--db", &db, "--all-symmetries", "--mark-reachable"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = stdout(&o);
    let header: Vec<&str> = all.lines().next().unwrap().split('\t').collect();
    assert_eq!(header[13..], ["canonical", "reachable"], "{header:?}");
    let rows: Vec<Vec<&str>> = all.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    // The rows whose position is their class's key are the plain export,
    // column for column; every other row repeats its key's 13 columns but
    // the position.
    let keyed: std::collections::HashMap<&str, &Vec<&str>> =
        rows.iter().filter(|r| r[0] == r[13]).map(|r| (r[0], r)).collect();
    let plain_rows: Vec<&str> = plain.lines().skip(1).collect();
    assert_eq!(keyed.len(), plain_rows.len());
    for line in &plain_rows {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(keyed[f[0]][..13], f[..], "{line}");
    }
    let mut seen = std::collections::HashSet::new();
    for r in &rows {
        assert!(seen.insert(r[0]), "{} twice", r[0]);
        assert_eq!(keyed[r[13]][1..], r[1..], "{r:?}");
    }
    assert!(rows.len() > 4 * plain_rows.len(), "{} rows", rows.len());
    // The opening B3 is no class's key, and still has its row.
    let opening = rows
        .iter()
        .find(|r| r[0] == "2_--B------")
        .expect("a row for 2_--B------");
    assert_ne!(opening[13], opening[0]);
    // `canonical` names the same key for every row, and `query` says the
    // same of reachability.
    let positions: String = rows.iter().map(|r| format!("{}\n", r[0])).collect();
    let o = topitop_with_input(&["canonical", "--budget", "1/1/1/1"], positions.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    for (line, r) in stdout(&o).lines().skip(1).zip(&rows) {
        assert_eq!(line, format!("{}\t{}", r[0], r[13]));
    }
    let o = topitop_with_input(&["query", "--db", &db], positions.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let answers = stdout(&o);
    assert_eq!(
        answers.lines().next().unwrap().split('\t').next_back(),
        Some("reachable")
    );
    let mut unreachable = 0;
    for (line, r) in answers.lines().skip(1).zip(&rows) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!((f[0], f[6]), (r[0], r[14]), "{line}");
        unreachable += usize::from(r[14] == "false");
    }
    assert!(unreachable > 0, "Red to move on an empty board is one");
    assert!(rows.iter().any(|r| r[0] == "2_---------" && r[14] == "false"));
    // The classes marked reachable are those `stats` counts and
    // `--reachable` keeps.
    let stats: serde_json::Value =
        serde_json::from_str(&stdout(&topitop(&["stats", "--db", &db, "--json"]))).unwrap();
    let marked = stdout(&topitop(&["export", "--db", &db, "--mark-reachable"]));
    let kept = stdout(&topitop(&["export", "--db", &db, "--reachable"]));
    let trues: Vec<&str> = marked
        .lines()
        .skip(1)
        .filter(|l| l.ends_with("\ttrue"))
        .map(|l| l.rsplit_once('\t').unwrap().0)
        .collect();
    assert_eq!(
        trues.len() as u64,
        stats["reachable"]["positions"].as_u64().unwrap()
    );
    assert_eq!(trues, kept.lines().skip(1).collect::<Vec<_>>());
    // Columns only the positions table has.
    let o = topitop(&["export", "--db", &db, "--summary", "--mark-reachable"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--mark-reachable adds a column"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn query_says_whether_a_game_comes_to_the_position() {
    let (dir, db) = small_db("reach", "0");
    for (pos, reachable) in [
        ("1_---------", true),
        ("2_--B------", true),
        ("2_---------", false),
        ("1_--------R", false),
    ] {
        let o = topitop(&["query", pos, "--db", &db, "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["reachable"], reachable, "{pos}");
        let text = stdout(&topitop(&["query", pos, "--db", &db]));
        assert_eq!(
            text.contains("no game from the start comes to"),
            !reachable,
            "{text}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn solving_again_says_it_replaces_the_database_there() {
    // A second solve into the same folder once overwrote without a word.
    let dir = temp_dir("solve-again");
    let out = dir.to_str().unwrap();
    let args = ["solve", "--game", "topolo", "--board", "2x2", "--out", out];
    let first = topitop(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(!stderr(&first).contains("there already"), "{}", stderr(&first));
    assert!(!stdout(&first).contains("in place of"), "{}", stdout(&first));
    let again = topitop(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("topolo_2x2.db is there already: solving again replaces it when done"),
        "{}",
        stderr(&again)
    );
    assert!(
        stdout(&again).contains("topolo_2x2.db (")
            && stdout(&again).contains(", in place of the database that was there"),
        "{}",
        stdout(&again)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_games_position_without_game_gets_a_hint() {
    // A Topolo position without --game was refused for its side to move,
    // with no word of --game.
    let o = topitop(&["show", ".../.../..."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "hint: without --game, positions are read as topitop's; another game's need --game NAME (topolo"
        ),
        "{}",
        stderr(&o)
    );
    // query reads positions with Topitop's own parser: the same hint.
    let (dir, _) = small_db("hint-query", "0");
    let d = dir.to_str().unwrap();
    let o = topitop(&["query", "--dir", d, "--budget", "2/2/2/2", ".../.../..."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("hint: without --game"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
    // A Topitop position that is well written but impossible is Topitop's
    // own mistake to name, with no word of other games.
    let o = topitop(&["show", "1_BBBBBBBBB"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("hint: without"), "{}", stderr(&o));
    // Said to the right game, the board it reads as.
    let o = topitop(&["show", "--game", "topolo", ".../.../..."]);
    assert!(
        stderr(&o).contains("--board 3x3") && !stderr(&o).contains("hint: without"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn query_line_follows_perfect_play_to_the_end() {
    let (dir, db) = small_db("query-line", "0");
    // The start is a draw here: the line goes round, and says so.
    let o = topitop(&["query", "--line", "1_---------", "--db", &db]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.lines()
            .skip(1)
            .all(|l| l.contains("draw") || l.starts_with("this position came before")),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with("a draw, play goes round for ever"),
        "{text}"
    );
    // From a won position: a row a ply, a move nearer the end each time.
    // (The first child along the drawn line that a losing move leads to.)
    let drawn = stdout(&topitop(&[
        "query",
        "--line",
        "1_---------",
        "--db",
        &db,
        "--json",
    ]));
    let won = drawn
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find_map(|ply| {
            let moves = ply["moves"].as_array()?.clone();
            let m = moves.into_iter().find(|m| m["positionValue"] == "win")?;
            Some(m["position"].as_str()?.to_string())
        })
        .expect("a losing move along the drawn line");
    let text = stdout(&topitop(&["query", "--line", &won, "--db", &db]));
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("the game"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let rem = |r: &Vec<&str>| -> i64 { r.last().unwrap().parse().unwrap() };
    assert_eq!(rows.len() as i64, rem(&rows[0]) + 1, "{text}");
    assert!(rows.windows(2).all(|w| rem(&w[1]) == rem(&w[0]) - 1), "{text}");
    assert!(text.trim_end().ends_with("for the player to move"), "{text}");
    // The same line as JSON, a ply a line; each child the move's.
    let json = stdout(&topitop(&["query", "--line", &won, "--db", &db, "--json"]));
    let plies: Vec<serde_json::Value> = json.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(plies.len(), rows.len());
    for w in plies.windows(2) {
        assert_eq!(w[0]["moves"][0]["position"], w[1]["position"]);
        assert_eq!(w[0]["moves"][0]["move"], w[1]["played"]);
    }
    // A line starts somewhere.
    let o = topitop(&["query", "--line", "--db", &db]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--line follows one position"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_computer_plays_weaker_at_lower_levels() {
    let (dir, db) = small_db("play-level", "0");
    let best = query_json(&db, "1_---------");
    let best = best["moves"][0]["move"].as_str().unwrap().to_string();
    let first_move = |level: &str, seed: &str| -> String {
        let o = topitop_with_input(
            &[
                "play",
                "--db",
                &db,
                "--computer",
                "blue",
                "--level",
                level,
                "--seed",
                seed,
            ],
            b"quit\n",
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        out.lines()
            .find(|l| l.starts_with("Computer plays"))
            .unwrap()
            .to_string()
    };
    // Level 10 (the default): the best move, whatever the seed.
    for seed in ["1", "2", "3"] {
        let line = first_move("10", seed);
        assert!(
            line.starts_with(&format!("Computer plays {best} ")) && !line.contains("random"),
            "{line}"
        );
    }
    // Level 0: a move at random, said so; not always the best.
    let lines: Vec<String> = (1..=8).map(|s| first_move("0", &s.to_string())).collect();
    assert!(
        lines.iter().all(|l| l.contains("(a move at random: level 0)")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| !l.starts_with(&format!("Computer plays {best} "))),
        "{lines:?}"
    );
    // The same seed, the same game.
    assert_eq!(first_move("3", "42"), first_move("3", "42"));
    let o = topitop(&["play", "--db", &db, "--level", "11"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
