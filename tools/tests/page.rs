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

#[test]
fn a_person_plays_and_studies_both_games_in_the_browser() {
    let Some(driver) = chromedriver() else {
        // CI installs it and sets this, so the check cannot be skipped
        // there by accident.
        assert!(
            std::env::var_os("TOPITOP_REQUIRE_CHROMIUM").is_none(),
            "TOPITOP_REQUIRE_CHROMIUM is set but no chromedriver is on PATH"
        );
        eprintln!("skipped: no chromedriver (apt-get install -y chromium-driver) to drive the page with");
        return;
    };
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
    let answer = after["moves"][0]["position"].as_str().unwrap();
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
