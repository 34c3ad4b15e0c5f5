//! One answer shape for every game: `perft`, `show`, `query` and `stats`
//! with `--json` print the same keys with the same types for Topitop,
//! Topolo and Topple (Topitop adding only the extras docs/reference.md
//! lists), and the same classes of error end with the same exit code.

use crate::support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::Value;
use support::run::{stderr, stdout, temp_dir, topitop, topitop_with_input};

/// A game as the tests name it: its options and a position of it.
struct Game {
    options: &'static [&'static str],
    start: &'static str,
}

const TOPITOP: Game = Game {
    options: &["--game", "topitop", "--budget", "2/2/2/2"],
    start: "1_---------",
};
const TOPOLO: Game = Game {
    options: &["--game", "topolo", "--board", "3x3"],
    start: ".../.../...",
};
const TOPPLE: Game = Game {
    options: &["--game", "topple", "--board", "3x3", "--variant", "s5"],
    start: ".../.../... r s5 r8 b8",
};

/// Topitop's own fields of each answer, beyond the common ones.
const TOPITOP_SHOW: &[&str] = &[
    "forbidden_slide",
    "pieces_left",
    "tier",
    "tier_position",
    "moves[].code",
];
const TOPITOP_STATS: &[&str] = &[
    "rules",
    "budget",
    "records_stored",
    "play_classes",
    "unsolved",
    "unplayable_stored",
    "primitive",
    "moves",
    "longest_win",
    "longest_lose",
    "longest_tie",
    "reachable",
    "branching_factor",
    "index_states",
    "gamesman_classic_slots",
    "gamesman_classic_hash_efficiency",
    "stored_fraction",
];

/// The directory holding each game's solved database, solved once.
fn solved() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("shapes");
        for g in [&TOPITOP, &TOPOLO, &TOPPLE] {
            let o = topitop(&[&["solve", "--out", dir.to_str().unwrap()][..], g.options].concat());
            assert!(o.status.success(), "{:?}: {}", g.options, stderr(&o));
        }
        dir
    })
}

/// `topitop ARGS` for `game`, as parsed JSON.
fn json(args: &[&str], game: &Game) -> Value {
    let o = topitop(&[args, game.options].concat());
    assert!(o.status.success(), "{args:?} {:?}: {}", game.options, stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)))
}

/// Every key of `v` as a path (`moves[].move` for a key of an array's
/// objects), with its JSON type; `null` for a key null in this answer.
fn shape(v: &Value) -> BTreeMap<String, &'static str> {
    fn walk(v: &Value, at: &str, out: &mut BTreeMap<String, &'static str>) {
        let kind = match v {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        if !at.is_empty() {
            // A key null in one element and set in another is the set one's.
            let slot = out.entry(at.to_string()).or_insert(kind);
            if *slot == "null" {
                *slot = kind;
            }
        }
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    let path = if at.is_empty() {
                        k.clone()
                    } else {
                        format!("{at}.{k}")
                    };
                    walk(x, &path, out);
                }
            }
            Value::Array(a) => {
                for x in a {
                    walk(x, &format!("{at}[]"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    walk(v, "", &mut out);
    out
}

/// Checks that `a` and `b` have the same keys, each of one type in both
/// (null standing for any, as a field may be empty in one answer), once
/// the keys `extra` names (and those under them) are left out of `a`.
fn same_shape(what: &str, a: &Value, b: &Value, extra: &[&str]) {
    let is_extra = |k: &str| {
        extra
            .iter()
            .any(|e| k == *e || k.starts_with(&format!("{e}.")) || k.starts_with(&format!("{e}[]")))
    };
    let a = shape(a);
    let b = shape(b);
    for e in extra {
        assert!(a.contains_key(*e), "{what}: the extra {e} is missing: {a:?}");
    }
    let a: BTreeMap<_, _> = a.into_iter().filter(|(k, _)| !is_extra(k)).collect();
    let keys = |m: &BTreeMap<String, &str>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&a), keys(&b), "{what}: the keys differ");
    for (k, ta) in &a {
        let tb = b[k];
        assert!(
            ta == &tb || *ta == "null" || tb == "null",
            "{what}: {k} is {ta} in one and {tb} in the other"
        );
    }
}

#[test]
fn perft_json_has_one_shape() {
    let args = ["perft", "3", "--json"];
    let topitop = json(&args, &TOPITOP);
    same_shape("perft", &topitop, &json(&args, &TOPOLO), &[]);
    same_shape("perft", &topitop, &json(&args, &TOPPLE), &[]);
    assert_eq!(topitop["game"], "topitop");
    assert_eq!(topitop["depth"][1]["sequences"], 27, "3 pieces on 9 cells");
}

#[test]
fn show_json_has_one_shape_with_topitops_extras() {
    let show = |g: &Game| json(&["show", g.start, "--json"], g);
    let topitop = show(&TOPITOP);
    let topolo = show(&TOPOLO);
    same_shape("show", &topitop, &topolo, TOPITOP_SHOW);
    same_shape("show", &topolo, &show(&TOPPLE), &[]);
    assert_eq!(topitop["turn"], "Blue");
    assert_eq!(topitop["moves"].as_array().unwrap().len(), 27);
    assert_eq!(topolo["position"], TOPOLO.start);
}

#[test]
fn query_json_has_one_shape() {
    let dir = solved().to_str().unwrap();
    let query = |g: &Game| json(&["query", g.start, "--json", "--dir", dir], g);
    let topitop = query(&TOPITOP);
    same_shape("query", &topitop, &query(&TOPOLO), &[]);
    same_shape("query", &topitop, &query(&TOPPLE), &[]);
    // Positions from standard input: one JSON line each, of the same shape.
    let lines = |g: &Game| {
        let o = topitop_with_input(
            &[&["query", "--json", "--dir", dir][..], g.options].concat(),
            format!("{}\n", g.start).as_bytes(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str::<Value>(&stdout(&o)).unwrap()
    };
    same_shape("query lines", &lines(&TOPITOP), &lines(&TOPOLO), &[]);
}

#[test]
fn stats_json_has_one_shape_with_topitops_extras() {
    let dir = solved().to_str().unwrap();
    let stats = |g: &Game| json(&["stats", "--json", "--dir", dir], g);
    let topitop = stats(&TOPITOP);
    let topolo = stats(&TOPOLO);
    same_shape("stats", &topitop, &topolo, TOPITOP_STATS);
    same_shape("stats", &topolo, &stats(&TOPPLE), &[]);
    // The common figures mean the same: the classes play reaches are
    // Topitop's reachable classes, and the positions at least as many.
    let n = |v: &Value| v.as_u64().unwrap();
    assert_eq!(n(&topitop["classes"]), n(&topitop["reachable"]["positions"]));
    assert!(n(&topitop["positions"]) > n(&topitop["classes"]));
    // The size in bits a position and a class, the file's bits over them.
    for v in [&topitop, &topolo] {
        let bits = 8.0 * v["file_bytes"].as_f64().unwrap();
        let per = |k: &str| v[k].as_f64().unwrap();
        assert!(
            (per("bits_per_position") - bits / per("positions")).abs() < 1e-9,
            "{v}"
        );
        assert!(
            (per("bits_per_class") - bits / per("classes")).abs() < 1e-9,
            "{v}"
        );
    }
    // Probe latencies, on request: positions met in random play, timed
    // twice.
    for g in [&TOPITOP, &TOPOLO, &TOPPLE] {
        let v = json(&["stats", "--json", "--probes", "300", "--dir", dir], g);
        let p = &v["probes"];
        assert_eq!(p["positions"], 300, "{:?}: {p}", g.options);
        for pass in ["cold", "warm"] {
            let t = |k: &str| p[pass][k].as_f64().unwrap();
            assert!(
                t("mean_us") > 0.0 && t("p50_us") <= t("p99_us"),
                "{:?} {pass}: {p}",
                g.options
            );
        }
    }
    assert!(stats(&TOPOLO).get("probes").is_none(), "no probes unless asked");
    assert_eq!(topitop["game"], "topitop");
    assert_eq!(topitop["variant"], "v1_0_2-2-2-2");
}

#[test]
fn every_game_exits_alike_on_each_class_of_error() {
    let dir = solved().to_str().unwrap();
    let missing = temp_dir("shapes-missing");
    let missing = missing.join("none.db");
    let missing = missing.to_str().unwrap();
    for g in [&TOPITOP, &TOPOLO, &TOPPLE] {
        let with = |args: &[&str]| topitop(&[args, g.options].concat());
        for (why, o, code) in [
            ("success", with(&["show", g.start]), 0),
            ("a bad position", with(&["show", "nonsense"]), 2),
            (
                "a bad position to query",
                with(&["query", "nonsense", "--dir", dir]),
                2,
            ),
            (
                "a missing database",
                with(&["query", g.start, "--db", missing]),
                2,
            ),
            ("a bad number", with(&["perft", "many"]), 2),
            ("an unknown option", with(&["stats", "--dir", dir, "--colour"]), 2),
        ] {
            assert_eq!(
                o.status.code(),
                Some(code),
                "{:?}, {why}: {}",
                g.options,
                stderr(&o)
            );
            if code == 2 {
                assert!(!stderr(&o).is_empty(), "{why}: says why");
            }
        }
        // Standard input with a bad line: every line answered, then 2.
        let o = topitop_with_input(
            &[&["query", "--dir", dir][..], g.options].concat(),
            format!("{}\nnonsense\n", g.start).as_bytes(),
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(stdout(&o).lines().count(), 3, "a header and a row a line");
    }
}

/// `query --json` of `position` in the databases under `dir`.
fn query_json(dir: &str, options: &[&str], position: &str) -> Value {
    let o = topitop(&[&["query", position, "--json", "--dir", dir][..], options].concat());
    assert!(o.status.success(), "{position}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn every_game_plays_through_one_loop() {
    let dir = solved().to_str().unwrap();
    for g in [&TOPITOP, &TOPOLO, &TOPPLE] {
        let play = |extra: &[&str], input: &[u8]| {
            topitop_with_input(&[&["play", "--dir", dir][..], extra, g.options].concat(), input)
        };
        // The computer takes the first player's side by that name, and the
        // person is asked for the second's move.
        let o = play(&["--computer", "first", "--hints"], b"hint\nquit\n");
        assert!(o.status.success(), "{:?}: {}", g.options, stderr(&o));
        let text = stdout(&o);
        for says in [
            "also: hint, hints, undo, quit",
            "Computer plays ",
            "  hints (value for ",
            "best: ",
        ] {
            assert!(text.contains(says), "{:?}: no {says:?} in {text}", g.options);
        }
        // One way to count: each hint's number is the moves left after
        // the move, `query`'s remoteness of its position.
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("  hints (value for "))
            .unwrap();
        let shown = lines[at - 1].split(" (").next().unwrap();
        let q = query_json(dir, g.options, shown);
        let mut checked = 0;
        let tokens: Vec<&str> = lines[at + 1..]
            .iter()
            .take_while(|l| l.starts_with("  "))
            .flat_map(|l| l.split_whitespace())
            .collect();
        let mut k = 0;
        while k + 1 < tokens.len() {
            let m = q["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["move"] == tokens[k]);
            let m =
                m.unwrap_or_else(|| panic!("{:?}: hint {} is not a move of {shown}", g.options, tokens[k]));
            assert_eq!(m["moveValue"], tokens[k + 1], "{:?}: {}", g.options, tokens[k]);
            k += 2;
            if let Some(n) = tokens.get(k).and_then(|t| t.parse::<i64>().ok()) {
                assert_eq!(
                    Some(n),
                    m["remoteness"].as_i64(),
                    "{:?}: {}",
                    g.options,
                    tokens[k - 2]
                );
                checked += 1;
                k += 1;
            }
        }
        assert!(
            checked > 0 || q["positionValue"] == "draw",
            "{:?}: no count among the hints of {shown}",
            g.options
        );
        let o = play(&["--computer", "nobody"], b"");
        assert_eq!(o.status.code(), Some(2), "{:?}", g.options);
        assert!(stderr(&o).contains("--computer nobody: use "), "{}", stderr(&o));
    }
}
