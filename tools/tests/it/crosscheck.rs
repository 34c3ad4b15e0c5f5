//! `crosscheck A B` explains: its JSON follows the documented schema, its
//! figures add up, and every example's cause, values and lines agree with
//! what `query` says of each database independently.

use crate::support;

use serde_json::Value as Json;
use support::browser::{chromium, run_for};
use support::run::{stderr, stdout, temp_dir, topitop};

/// Solves `args` (rules options) at budget 1/2/2/2 into `dir`.
fn solve(dir: &std::path::Path, args: &[&str], name: &str) -> String {
    let o = topitop(
        &[
            &["solve", "--budget", "1/2/2/2", "--out", dir.to_str().unwrap()][..],
            args,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    dir.join(name).to_str().unwrap().to_string()
}

/// Checks `v` against the JSON Schema subset tools/crosscheck.schema.json
/// uses: type, enum, const, minimum, required, properties,
/// additionalProperties, items and local `$ref`s.
fn check(schema: &Json, root: &Json, v: &Json, at: &str) {
    if let Some(r) = schema.get("$ref").and_then(Json::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local reference");
        return check(&root["$defs"][name], root, v, at);
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Json::String(s) => vec![s.as_str()],
            Json::Array(a) => a.iter().filter_map(Json::as_str).collect(),
            _ => panic!("bad type in schema at {at}"),
        };
        let ok = types.iter().any(|t| match *t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "integer" => v.is_i64() || v.is_u64(),
            "null" => v.is_null(),
            other => panic!("type {other} at {at}"),
        });
        assert!(ok, "{at}: {v} is not {types:?}");
    }
    if let Some(e) = schema.get("enum").and_then(Json::as_array) {
        assert!(e.contains(v), "{at}: {v} not in {e:?}");
    }
    if let Some(c) = schema.get("const") {
        assert_eq!(c, v, "{at}");
    }
    if let (Some(m), Some(n)) = (schema.get("minimum").and_then(Json::as_i64), v.as_i64()) {
        assert!(n >= m, "{at}: {n} < {m}");
    }
    if let Some(obj) = v.as_object() {
        for r in schema
            .get("required")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            assert!(obj.contains_key(r.as_str().unwrap()), "{at}: {r} missing");
        }
        let props = schema.get("properties").and_then(Json::as_object);
        for (k, x) in obj {
            match (props.and_then(|p| p.get(k)), schema.get("additionalProperties")) {
                (Some(s), _) => check(s, root, x, &format!("{at}.{k}")),
                (None, Some(Json::Bool(false))) => panic!("{at}: unexpected key {k}"),
                (None, Some(s)) if s.is_object() => check(s, root, x, &format!("{at}.{k}")),
                (None, _) => {}
            }
        }
    }
    if let (Some(items), Some(a)) = (schema.get("items"), v.as_array()) {
        for (i, x) in a.iter().enumerate() {
            check(items, root, x, &format!("{at}[{i}]"));
        }
    }
}

fn n(v: &Json) -> u64 {
    v.as_u64().unwrap()
}

fn query(db: &str, pos: &str) -> Json {
    let o = topitop(&["query", pos, "--db", db, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn misere_against_normal_play_is_explained() {
    // Over 100 lines on purpose: two solves compared once, then every part of
    // the comparison checked against them; the solves are the cost.
    let dir = temp_dir("crosscheck-explains");
    let a = solve(&dir, &["--variant", "0"], "topitop_v1_0_1-2-2-2.db");
    let b = solve(&dir, &["--variant", "4"], "topitop_v1_4_1-2-2-2.db");
    let html = dir.join("report.html");
    let o = topitop(&["crosscheck", &a, &b, "--json", "--report", html.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "they differ: {}", stderr(&o));
    let c: Json = serde_json::from_str(&stdout(&o)).unwrap();
    let schema: Json = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/crosscheck.schema.json")).unwrap(),
    )
    .unwrap();
    check(&schema, &schema, &c, "$");

    // The figures add up.
    let values = ["win", "lose", "tie", "draw", "unsolved"];
    let cell = |x: &str, y: &str| n(&c["transitions"][x][y]);
    let all: u64 = values
        .iter()
        .flat_map(|x| values.iter().map(move |y| (x, y)))
        .map(|(x, y)| cell(x, y))
        .sum();
    assert_eq!(all, n(&c["compared"]));
    let off: u64 = values
        .iter()
        .flat_map(|x| values.iter().map(move |y| (x, y)))
        .filter(|(x, y)| x != y)
        .map(|(x, y)| cell(x, y))
        .sum();
    assert_eq!(off, n(&c["differ"]["value"]));
    assert!(off > 0, "misère changes values");
    let differ = n(&c["differ"]["value"]) + n(&c["differ"]["remoteness_only"]);
    assert_eq!(n(&c["causes"]["rules"]) + n(&c["causes"]["propagated"]), differ);
    assert!(n(&c["causes"]["rules"]) > 0 && n(&c["causes"]["propagated"]) > 0);
    let by_cause: u64 = c["transitions_by_cause"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| n(&t["positions"]))
        .sum();
    assert_eq!(by_cause, differ);
    let tiers = c["tiers"].as_array().unwrap();
    let tier_sum: u64 = tiers
        .iter()
        .map(|t| n(&t["value"]) + n(&t["remoteness_only"]))
        .sum();
    assert_eq!(tier_sum, differ);
    for w in tiers.windows(2) {
        let d = |t: &Json| n(&t["value"]) + n(&t["remoteness_only"]);
        assert!(d(&w[0]) >= d(&w[1]), "most differences first");
    }
    assert!(tiers
        .iter()
        .all(|t| t["name"].as_str().unwrap().starts_with("board: ")));
    // The same values counted per side agree with stats.
    for (side, db) in [("a", &a), ("b", &b)] {
        let stats: Json = serde_json::from_str(&stdout(&topitop(&["stats", "--db", db, "--json"]))).unwrap();
        let col = |v: &str| -> u64 {
            values
                .iter()
                .map(|o| if side == "a" { cell(v, o) } else { cell(o, v) })
                .sum()
        };
        for v in ["win", "lose", "tie", "draw"] {
            assert_eq!(col(v), n(&stats[v]), "{side} {v}");
        }
    }
    let start = query(&a, "1_---------");
    assert_eq!(c["start"]["a"]["value"], start["positionValue"]);

    // Each example: values as each database stores them, its cause as the
    // two move lists and game ends show it, its lines best play.
    let examples = c["examples"].as_array().unwrap();
    assert!(examples.iter().any(|e| e["cause"] == "rules"));
    assert!(examples.iter().any(|e| e["cause"] == "propagated"));
    for e in examples {
        let pos = e["position"].as_str().unwrap();
        let (qa, qb) = (query(&a, pos), query(&b, pos));
        assert_eq!(e["a"]["value"], qa["positionValue"], "{e}");
        assert_eq!(e["b"]["value"], qb["positionValue"], "{e}");
        let moves = |q: &Json| -> Vec<String> {
            q["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].as_str().unwrap().to_string())
                .collect()
        };
        let (mut ma, mut mb) = (moves(&qa), moves(&qb));
        ma.sort();
        mb.sort();
        // Misère flips every game end: a primitive position differs by rules.
        let ends_differ = ma.is_empty() && mb.is_empty();
        let rules_cause = ma != mb || ends_differ;
        assert_eq!(e["cause"] == "rules", rules_cause, "{e}");
        assert_eq!(e["reason"].is_string(), rules_cause, "{e}");
        for (line, db) in [("line_a", &a), ("line_b", &b)] {
            let l = e[line].as_array().unwrap();
            assert_eq!(l[0]["position"], pos);
            for w in l.windows(2) {
                let q = query(db, w[0]["position"].as_str().unwrap());
                let best = &q["moves"][0];
                assert_eq!(best["move"], w[0]["best_move"], "{line} of {e}");
                assert_eq!(best["position"], w[1]["position"], "{line} of {e}");
            }
        }
        if let Some(d) = e["diverge_at"].as_u64() {
            let d = d as usize;
            let (la, lb) = (&e["line_a"][d], &e["line_b"][d]);
            assert!(
                la["best_move"] != lb["best_move"] || la.is_null() || lb.is_null(),
                "{e}"
            );
        }
        let near = &e["nearest_rules_cause"];
        assert!(
            near.is_object(),
            "every difference here traces to a rules cause: {e}"
        );
        if e["cause"] == "rules" {
            assert_eq!(near["ply"], 0);
        }
    }

    // The report: one self-contained, well-formed page naming its figures.
    let page = std::fs::read_to_string(&html).unwrap();
    for caption in [
        "Transition matrix",
        "Remoteness difference B minus A",
        "Positions by value and remoteness under A",
        "Differences by tier size",
        "Differing positions by cause and transition",
    ] {
        assert!(page.contains(caption), "{caption}");
    }
    assert!(page.matches("<svg").count() >= 5);
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http"));
    let parsed = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])",
            html.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        parsed.status.success(),
        "{}",
        String::from_utf8_lossy(&parsed.stderr)
    );

    // Rendered in a headless browser, every chart is in the page's DOM.
    let Some(chromium) = chromium() else {
        assert!(
            std::env::var_os("TOPITOP_REQUIRE_CHROMIUM").is_none(),
            "TOPITOP_REQUIRE_CHROMIUM is set but no chromium is on PATH"
        );
        crate::support::skip(
            "no chromium (apt-get install -y chromium) to render the crosscheck report with",
        );
        return;
    };
    let mut cmd = std::process::Command::new(chromium);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--dump-dom",
    ])
    .arg(format!("--user-data-dir={}", dir.join("profile").display()))
    .arg(format!("file://{}", html.canonicalize().unwrap().display()));
    let dom = run_for(&mut cmd, std::time::Duration::from_secs(120)).expect("chromium --dump-dom");
    let dom = String::from_utf8_lossy(&dom);
    assert!(
        dom.matches("<svg").count() >= 5,
        "{}",
        &dom[..dom.len().min(2000)]
    );
    assert!(dom.contains("Transition matrix"));
}

#[test]
fn identical_databases_have_nothing_to_explain() {
    let dir = temp_dir("crosscheck-same");
    let a = solve(&dir, &["--variant", "0"], "topitop_v1_0_1-2-2-2.db");
    let o = topitop(&["crosscheck", &a, &a]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("start 1_---------: A (v1/0) "), "{text}");
    assert!(
        text.contains(": 0 differ, 0 in value and 0 in remoteness only"),
        "{text}"
    );
    assert!(!text.contains("examples"), "{text}");
}
