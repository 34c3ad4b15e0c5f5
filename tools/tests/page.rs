//! The browser page of `topitop serve`, driven in a real headless
//! Chromium as a person drives it: load the page, click a move on the
//! board, undo, switch to another game, let the computer answer. Every
//! position and move value the page shows is checked against `query`.

mod support;

use serde_json::Value;
use support::http::get;
use support::run::{stderr, stdout, temp_dir, topitop};
use support::server::Server;
use support::webdriver::{chromedriver, Browser};

fn ok(args: &[&str]) -> String {
    let o = topitop(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// `query --json` of `position` with the game options `game`.
fn query(dir: &str, game: &[&str], position: &str) -> Value {
    let out = ok(&[&["query", position, "--json", "--dir", dir][..], game].concat());
    serde_json::from_str(&out).unwrap()
}

/// Each move and its value for the mover, in `query`'s order.
fn move_values(q: &Value) -> Value {
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
fn best_moves(q: &Value) -> Vec<Value> {
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
const BOARD: &str =
    "const b = document.querySelector('[data-position]:not([hidden])'); return b && b.dataset.position";
const LISTED: &str =
    "return [...document.querySelectorAll('#moves button')].map(b => [b.dataset.move, b.dataset.value])";
const ON_BOARD: &str =
    "return [...document.querySelectorAll('#board .move')].map(g => [g.dataset.move, g.dataset.value])";

/// Waits until the board shows `position`, then checks that the listed
/// moves and the board's move controls are `query`'s, with its values.
fn shows(browser: &Browser, position: &str, q: &Value) {
    let script = format!("{BOARD} === {}", Value::from(position));
    browser.wait_for(&format!("the board to show {position}"), &script);
    let expected = move_values(q);
    assert_eq!(browser.eval(LISTED), expected, "the move list of {position}");
    let mut drawn = browser.eval(ON_BOARD).as_array().unwrap().clone();
    let mut wanted = expected.as_array().unwrap().clone();
    let key = |v: &Value| v.to_string();
    drawn.sort_by_key(key);
    wanted.sort_by_key(key);
    assert_eq!(drawn, wanted, "every move of {position} is on the board");
}

/// chromedriver, or `None` (the test is skipped, and says so) when there
/// is none.
fn driver() -> Option<std::path::PathBuf> {
    let found = chromedriver();
    if found.is_none() {
        // CI installs it and sets this, so the check cannot be skipped
        // there by accident.
        assert!(
            std::env::var_os("TOPITOP_REQUIRE_CHROMIUM").is_none(),
            "TOPITOP_REQUIRE_CHROMIUM is set but no chromedriver is on PATH"
        );
        eprintln!("skipped: no chromedriver (apt-get install -y chromium-driver) to drive the page with");
    }
    found
}

#[test]
fn a_person_plays_and_studies_both_games_in_the_browser() {
    let Some(driver) = driver() else { return };
    let dir = temp_dir("page");
    let d = dir.to_str().unwrap();
    let topitop_rules = ["--budget", "2/1/2/2"];
    let topolo = ["--game", "topolo", "--board", "3x3"];
    ok(&[&["solve", "--out", d][..], &topitop_rules].concat());
    ok(&[&["solve", "--out", d][..], &topolo].concat());
    let server = Server::start(&dir, "page", &["--budget", "2/1/2/2"]);
    let first = get(server.addr, "/topitop/regular/").json();
    let start = first["startPosition"].as_str().unwrap().to_string();

    let browser = Browser::start(&driver, &dir);
    browser.open(&format!("http://{}/ui/", server.addr));
    // It opens on the first variant served: standard Topitop.
    let q = query(d, &topitop_rules, &start);
    shows(&browser, &start, &q);
    let status = browser.eval("return document.getElementById('status').textContent");
    assert!(status.as_str().unwrap().starts_with("Blue to move."), "{status}");

    // A move clicked on the board plays it.
    let mv = &q["moves"][q["moves"].as_array().unwrap().len() - 1];
    browser.click(&format!(
        "#board [data-move=\"{}\"]",
        mv["move"].as_str().unwrap()
    ));
    let child = mv["position"].as_str().unwrap();
    shows(&browser, child, &query(d, &topitop_rules, child));

    // The address follows the game, so a reload comes back to it.
    let address = browser.eval("return new URL(location.href).searchParams.get('p')");
    assert_eq!(
        address,
        Value::from(child),
        "the address names the position shown"
    );

    // Undo, and redo from the keyboard's control.
    browser.click("#undo");
    shows(&browser, &start, &q);
    browser.click("#redo");
    shows(&browser, child, &query(d, &topitop_rules, child));

    // A position the server refuses leaves the game as it was: the board,
    // undo, the text typed, and the reason on screen.
    browser.type_into("#position", "hello");
    browser.click("#position-form button[type=submit]");
    let error = browser.wait_for(
        "the refusal of hello",
        "const e = document.getElementById('error'); return e.hidden ? null : e.textContent",
    );
    assert!(error.as_str().unwrap().contains("\"hello\""), "{error}");
    assert_eq!(browser.eval(BOARD), Value::from(child), "the game is kept");
    assert_eq!(
        browser.eval("return document.getElementById('undo').disabled"),
        Value::from(false)
    );
    assert_eq!(
        browser.eval("return document.getElementById('position').value"),
        Value::from("hello")
    );
    browser.open(&format!(
        "http://{}/ui/?game=topitop&variant=regular&p={child}",
        server.addr
    ));
    shows(&browser, child, &query(d, &topitop_rules, child));

    // A position typed into the box.
    let typed = q["moves"][0]["position"].as_str().unwrap();
    browser.type_into("#position", typed);
    browser.click("#position-form button[type=submit]");
    shows(&browser, typed, &query(d, &topitop_rules, typed));
    // One that no game comes to is shown, and said to be so.
    browser.type_into("#position", "2_---------");
    browser.click("#position-form button[type=submit]");
    shows(&browser, "2_---------", &query(d, &topitop_rules, "2_---------"));
    let status = browser.eval("return document.getElementById('status').textContent");
    assert!(
        status
            .as_str()
            .unwrap()
            .ends_with("No game from the start comes to this position."),
        "{status}"
    );

    // Another game, picked from the variant list.
    browser.click("#variant option[data-game=\"topolo\"][data-variant=\"3x3\"]");
    let q = query(d, &topolo, ".../.../...");
    shows(&browser, ".../.../...", &q);

    // The computer takes Black and answers with a best move.
    browser.click("#computer-1");
    let mv = &q["moves"][3];
    browser.click(&format!(
        "#board [data-move=\"{}\"]",
        mv["move"].as_str().unwrap()
    ));
    let after = query(d, &topolo, mv["position"].as_str().unwrap());
    // It picks at random among its best moves, as GamesmanUni's does.
    let best = best_moves(&after);
    let answer = browser
        .wait_for(
            "the computer's answer",
            "const s = state.history; const b = document.querySelector('[data-position]:not([hidden])'); \
             return s.length === 3 && b && b.dataset.position === s[2] ? s[2] : null",
        )
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        best.iter().any(|m| m["position"] == answer.as_str()),
        "{answer} is not one of the best answers {best:?}"
    );
    let answer = answer.as_str();
    shows(&browser, answer, &query(d, &topolo, answer));
    let plies = browser.eval("return document.querySelectorAll('#history circle').length");
    assert_eq!(plies, 3, "the value history has the start and both moves");
    // Looking back pauses the computer, and the status says why.
    browser.click("#undo");
    browser.wait_for(
        "the computer to say it waits",
        "return document.getElementById('status').textContent.includes('The computer waits') || null",
    );
    browser.click("#redo");
    shows(&browser, answer, &query(d, &topolo, answer));

    let png = browser.screenshot();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::write(dir.join("page.png"), &png).unwrap();

    // The real board, which no database holds: the search's estimates,
    // said to be estimates, on every move.
    browser.click("#variant option[data-game=\"topolo\"][data-variant=\"8x8\"]");
    let status = browser.wait_for(
        "the estimates of 8x8",
        "const s = document.getElementById('status').textContent; return s.includes('Estimate') ? s : null",
    );
    assert!(
        status.as_str().unwrap().contains("not a solved value"),
        "{status}"
    );
    let listed = browser.eval(LISTED);
    assert_eq!(
        listed.as_array().unwrap().len(),
        64 * 3,
        "every cell, three sizes: {listed}"
    );
    let label = browser.eval("return document.querySelector('#moves button').textContent");
    assert!(label.as_str().unwrap().contains("estimated"), "{label}");
    let png = browser.screenshot();
    std::fs::write(dir.join("page-8x8.png"), &png).unwrap();
    eprintln!(
        "screenshots: {}, page-8x8.png beside it",
        dir.join("page.png").display()
    );
}

/// The page's positions, start first, as its script holds them.
const HISTORY: &str = "return state.history";

/// `text` with Markdown's marks taken out and its white space collapsed:
/// what a reader sees of it.
fn plain(text: &str) -> String {
    text.replace("**", "")
        .lines()
        .map(|l| l.trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_researcher_studies_a_game_in_the_browser() {
    let Some(driver) = driver() else { return };
    let dir = temp_dir("study");
    let d = dir.to_str().unwrap();
    let topolo = ["--game", "topolo", "--board", "3x3"];
    ok(&[&["solve", "--out", d][..], &topolo].concat());
    let server = Server::start(&dir, "study", &[]);
    let browser = Browser::start(&driver, &dir);

    // A browser opening the server's root is sent to the page.
    browser.open(&format!("http://{}/", server.addr));
    let start = ".../.../...";
    let q = query(d, &topolo, start);
    shows(&browser, start, &q);
    assert_eq!(browser.eval("return location.pathname"), Value::from("/ui/"));

    // The rules, from the instructions route, are in the panel.
    let rules = get(server.addr, "/topolo/3x3/instructions/").json();
    let rules = plain(rules["instructions"].as_str().unwrap());
    browser.click("#rules summary");
    let shown = browser.wait_for(
        "the rules",
        "const t = document.getElementById('rules-text').innerText; return t.length > 20 ? t : null",
    );
    assert_eq!(plain(shown.as_str().unwrap()), rules);
    assert!(rules.starts_with("Topolo, 3×3"), "{rules}");

    // A move that throws a value away is marked so in the moves played:
    // the first found on lines of moves picked by a fixed rule.
    let (mut path, thrown) = (1..50)
        .find_map(|seed: usize| {
            let mut path = Vec::new();
            let mut here = q.clone();
            loop {
                let moves = here["moves"].as_array().unwrap().clone();
                if moves.is_empty() {
                    return None;
                }
                if let Some(bad) = moves.iter().find(|x| x["moveValue"] != here["positionValue"]) {
                    return Some((path, bad.clone()));
                }
                let m = moves[(seed * 7 + path.len() * 13) % moves.len()].clone();
                here = query(d, &topolo, m["position"].as_str().unwrap());
                path.push(m);
            }
        })
        .expect("a line with a move that throws a value away");
    path.push(thrown.clone());
    for m in &path {
        browser.click(&format!("#board [data-move=\"{}\"]", m["move"].as_str().unwrap()));
        let p = m["position"].as_str().unwrap();
        shows(&browser, p, &query(d, &topolo, p));
    }
    let thrown_ply = path.len();
    let child = thrown["position"].as_str().unwrap();
    let mark = browser.eval(&format!(
        "const b = document.querySelector('#record [data-ply=\"{thrown_ply}\"]'); return [b.dataset.cost, b.textContent]"
    ));
    assert_eq!(mark[0], "blunder", "{mark}");
    assert!(mark[1].as_str().unwrap().contains("threw a "), "{mark}");
    let facts = browser.eval("return document.getElementById('facts').textContent");
    assert!(
        facts.as_str().unwrap().contains("Rank among its siblings"),
        "{facts}"
    );
    let link = browser.eval("return document.getElementById('position-link').href");
    let link = link.as_str().unwrap();
    let path = link.split_once(&server.addr.to_string()).unwrap().1;
    assert_eq!(get(server.addr, path).json()["position"], child, "{link}");

    // Perfect play from here: every move a best one, to the end.
    browser.click("#perfect");
    browser.wait_for(
        "the perfect line",
        "return document.getElementById('study-note').textContent.startsWith('Perfect play') || null",
    );
    let line: Vec<String> = serde_json::from_value(browser.eval(HISTORY)).unwrap();
    assert!(line.len() > thrown_ply + 2, "{line:?}");
    for (k, pair) in line.windows(2).enumerate().skip(thrown_ply) {
        let here = query(d, &topolo, &pair[0]);
        let best = best_moves(&here);
        assert!(
            best.iter().any(|m| m["position"] == pair[1].as_str()),
            "ply {k}: {} is not a best move's child of {}",
            pair[1],
            pair[0]
        );
        let cost = browser.eval(&format!(
            "return document.querySelector('#record [data-ply=\"{}\"]').dataset.cost",
            k + 1
        ));
        assert_eq!(cost, "best", "ply {}", k + 1);
    }
    let last = query(d, &topolo, line.last().unwrap());
    assert_eq!(last["moves"], serde_json::json!([]), "the line ends the game");
    // Redo steps through it on the board.
    shows(&browser, child, &query(d, &topolo, child));
    browser.click("#redo");
    let next = &line[thrown_ply + 1];
    shows(&browser, next, &query(d, &topolo, next));
    // A ply of the list is a click away.
    browser.click(&format!("#record [data-ply=\"{}\"]", line.len() - 1));
    shows(&browser, &line[line.len() - 1], &last);

    // The record as text, and back.
    browser.click("#export");
    let text = browser.eval("return document.getElementById('record-text').value");
    let text = text.as_str().unwrap().to_string();
    assert!(text.contains("game: topolo\nvariant: 3x3\n"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains(". ")).count(),
        line.len() - 1,
        "{text}"
    );
    browser.click("#restart");
    shows(&browser, start, &q);
    browser.type_into("#record-text", &text);
    browser.click("#import");
    shows(&browser, &line[line.len() - 1], &last);
    assert_eq!(browser.eval(HISTORY), serde_json::json!(line));
    // A record with a move the position does not have is refused, naming
    // the line, and the game shown stays.
    let bad = text.replacen("1. ", "1. Z", 1);
    browser.type_into("#record-text", &bad);
    browser.click("#import");
    let error = browser.wait_for(
        "the refusal of the record",
        "const e = document.getElementById('error'); return e.hidden ? null : e.textContent",
    );
    assert!(error.as_str().unwrap().contains("line 6"), "{error}");
    assert_eq!(browser.eval(HISTORY), serde_json::json!(line));

    // Playing blind: no values anywhere, kept over a reload.
    browser.click("#restart");
    shows(&browser, start, &q);
    browser.click("#hints");
    let status = browser.eval("return document.getElementById('status').textContent");
    assert_eq!(status, "Red to move. Values hidden.");
    let shown = browser.eval(
        "return [...document.querySelectorAll('#moves .value-text, #history-section')].filter(e => e.offsetParent !== null).length",
    );
    assert_eq!(shown, 0, "values are hidden");
    browser.open(&format!("http://{}/ui/", server.addr));
    shows(&browser, start, &q);
    assert_eq!(
        browser.eval("return document.body.classList.contains('blind')"),
        Value::from(true)
    );
    browser.click("#hints");

    // A move played from the keyboard keeps the focus on the board.
    let first = q["moves"][0]["move"].as_str().unwrap().to_string();
    browser.eval(&format!(
        "document.querySelector('#board [data-move=\"{first}\"]').focus()"
    ));
    browser.press("\u{E007}");
    let child = q["moves"][0]["position"].as_str().unwrap();
    shows(&browser, child, &query(d, &topolo, child));
    assert_eq!(
        browser.eval("return Boolean(document.activeElement.closest('#board'))"),
        Value::from(true),
        "the focus is on the board"
    );
    // Copy says it did.
    browser.click("#copy");
    browser.wait_for(
        "the copy's feedback",
        "return document.getElementById('copied').textContent",
    );
}
