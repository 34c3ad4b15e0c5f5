//! What the browser tests of the page share: `query` to check the page
//! against, and the checks of what the board and the move list show.

use serde_json::Value;

use super::run::{stderr, stdout, topitop};
use super::webdriver::{chromedriver, Browser};

/// The standard output of `topitop args`, which must succeed.
pub fn ok(args: &[&str]) -> String {
    let o = topitop(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// `query --json` of `position` with the game options `game`.
pub fn query(dir: &str, game: &[&str], position: &str) -> Value {
    let out = ok(&[&["query", position, "--json", "--dir", dir][..], game].concat());
    serde_json::from_str(&out).unwrap()
}

/// Each move and its value for the mover, in `query`'s order.
pub fn move_values(q: &Value) -> Value {
    q["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| serde_json::json!([m["move"], m["moveValue"]]))
        .collect()
}

/// The moves GamesmanUni's computer chooses among at `q`: those keeping
/// the position's value, the quickest to a win or tie, the slowest to a
/// loss.
pub fn best_moves(q: &Value) -> Vec<Value> {
    let value = &q["positionValue"];
    let keep: Vec<Value> = q["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| &m["moveValue"] == value)
        .cloned()
        .collect();
    let r = |m: &Value| m["remoteness"].as_i64().unwrap();
    let pick = match value.as_str() {
        Some("win" | "tie") => keep.iter().map(r).min(),
        Some("lose") => keep.iter().map(r).max(),
        _ => None,
    };
    match pick {
        Some(p) => keep.into_iter().filter(|m| r(m) == p).collect(),
        None => keep,
    }
}

/// A script's start: the position the board shows (the SVG board, or the
/// text board of a game without AutoGUI data).
pub const BOARD: &str =
    "const b = document.querySelector('[data-position]:not([hidden])'); return b && b.dataset.position";
pub const LISTED: &str =
    "return [...document.querySelectorAll('#moves button')].map(b => [b.dataset.move, b.dataset.value])";
pub const ON_BOARD: &str =
    "return [...document.querySelectorAll('#board .move')].map(g => [g.dataset.move, g.dataset.value])";

/// What the page shows of each listed move's value: `[move, text]`.
const COUNTED: &str = "return [...document.querySelectorAll('#moves button')].map(b => [b.dataset.move, b.querySelector('.value-text').textContent.trim()])";

/// Waits until the board shows `position`, then checks that the listed
/// moves and the board's move controls are `query`'s, with its values;
/// that every count shown (the status's moves left, each move's) is
/// `query`'s remoteness; and, playing blind, that the list is in the
/// order of the moves' names.
pub fn shows(browser: &Browser, position: &str, q: &Value) {
    let script = format!("{BOARD} === {}", Value::from(position));
    browser.wait_for(&format!("the board to show {position}"), &script);
    let blind = browser.eval("return !state.hints") == Value::Bool(true);
    let mut expected = move_values(q).as_array().unwrap().clone();
    if blind {
        expected.sort_by_key(|v| v[0].as_str().unwrap().to_string());
    }
    let expected = Value::from(expected);
    assert_eq!(browser.eval(LISTED), expected, "the move list of {position}");
    let mut drawn = browser.eval(ON_BOARD).as_array().unwrap().clone();
    let mut wanted = expected.as_array().unwrap().clone();
    let key = |v: &Value| v.to_string();
    drawn.sort_by_key(key);
    wanted.sort_by_key(key);
    assert_eq!(drawn, wanted, "every move of {position} is on the board");
    if blind || q.get("estimated").is_some() {
        return;
    }
    // One way to count: a move's is the remoteness of its position.
    let counted: Vec<Value> = q["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let value = m["moveValue"].as_str().unwrap();
            let text = match m["remoteness"].as_i64() {
                Some(r) if value != "draw" && r >= 0 => format!("{value}, {r} left"),
                _ => value.to_string(),
            };
            serde_json::json!([m["move"], text])
        })
        .collect();
    assert_eq!(
        browser.eval(COUNTED),
        Value::from(counted),
        "the counts of {position}'s moves"
    );
    let r = q["remoteness"].as_i64().unwrap_or(-1);
    let ended = q["moves"].as_array().unwrap().is_empty();
    if !ended && r >= 0 && q["positionValue"] != "draw" {
        let status = browser.eval("return document.getElementById('status').textContent");
        let said = format!(", {r} move{} left.", if r == 1 { "" } else { "s" });
        assert!(
            status.as_str().unwrap().contains(&said),
            "{position}: {status} lacks {said}"
        );
    }
}

/// chromedriver, or `None` (the test is skipped, and says so) when there
/// is none.
pub fn driver() -> Option<std::path::PathBuf> {
    let found = chromedriver();
    if found.is_none() {
        // CI installs it and sets this, so the check cannot be skipped
        // there by accident.
        assert!(
            std::env::var_os("TOPITOP_REQUIRE_CHROMIUM").is_none(),
            "TOPITOP_REQUIRE_CHROMIUM is set but no chromedriver is on PATH"
        );
        super::skip("no chromedriver (apt-get install -y chromium-driver) to drive the page with");
    }
    found
}
