//! Every game the page serves, played to its end in a real headless
//! Chromium through clicks on the board and keys, every position checked
//! against `query`, and the page photographed at a desktop's size
//! (1280×900) and a phone's (390×844) into the screenshot folder
//! ([`screenshot_dir`]), to be looked at.

use crate::support;

use serde_json::Value;
use support::http::get;
use support::page::{driver, ok, query, shows, BOARD};
use support::run::temp_dir;
use support::server::Server;
use support::webdriver::{screenshot_dir, Browser};

/// The move a player picks to bring the game to its end soon: the
/// quickest win, else a move that loses (the other side then wins), else
/// one to a position not `seen` yet (a drawn game goes round in circles),
/// else the first listed.
fn ending_move(q: &Value, seen: &std::collections::HashSet<String>) -> Value {
    let moves = q["moves"].as_array().unwrap();
    let r = |m: &&Value| m["remoteness"].as_i64().unwrap();
    let of = |v: &'static str| moves.iter().filter(move |m| m["moveValue"] == v);
    of("win")
        .min_by_key(r)
        .or_else(|| of("lose").min_by_key(r))
        .or_else(|| {
            moves
                .iter()
                .find(|m| !seen.contains(m["position"].as_str().unwrap()))
        })
        .unwrap_or(&moves[0])
        .clone()
}

/// Plays the game shown from `start` to its end: each move clicked on the
/// board, or every third one pressed from the keyboard on its board
/// control, each position's moves checked against `query`. Returns the
/// last position.
pub(crate) fn play_to_the_end(browser: &Browser, d: &str, game: &[&str], start: &str) -> String {
    let mut p = start.to_string();
    let mut seen = std::collections::HashSet::new();
    for ply in 0..200 {
        seen.insert(p.clone());
        let q = query(d, game, &p);
        shows(browser, &p, &q);
        if q["moves"].as_array().unwrap().is_empty() {
            return p;
        }
        let m = ending_move(&q, &seen);
        // The part of the control that takes clicks: an arrow's head half,
        // a button's disc.
        let mv = m["move"].as_str().unwrap();
        let css = format!("#board [data-move=\"{mv}\"] :is(.hit, circle.ring)");
        if ply % 3 == 2 {
            browser.eval(&format!(
                "document.querySelector('#board [data-move=\"{mv}\"]').focus()"
            ));
            browser.press("\u{E007}");
        } else {
            browser.click(&css);
        }
        p = m["position"].as_str().unwrap().to_string();
    }
    panic!("{game:?}: no end after 200 plies from {start}");
}

/// Checks the page says why the game ended, as the server's notes do.
pub(crate) fn says_why_it_ended(browser: &Browser, server: &Server, path: &str, p: &str) {
    let notes = get(
        server.addr,
        &format!("/ui/position/{path}?p={}", p.replace(' ', "%20")),
    )
    .json();
    let why = notes["ending"].as_str().expect("the game's ending in words");
    let status = browser.eval("return document.getElementById('status').textContent");
    assert!(
        status.as_str().unwrap().starts_with("Game over"),
        "{path} {p}: {status}"
    );
    let shown =
        browser.eval("const w = document.getElementById('why'); return w.hidden ? null : w.textContent");
    assert_eq!(shown, Value::from(why), "{path} {p}");
}

/// The page at a desktop's size and a phone's, written to the screenshot
/// folder; at the phone's, nothing is wider than the screen.
pub(crate) fn photograph(browser: &Browser, name: &str) {
    browser.eval("window.scrollTo(0, 0)");
    browser.screenshot_at(1280, 900, &format!("{name}-1280x900.png"));
    browser.screenshot_at(390, 844, &format!("{name}-390x844.png"));
    let wide = browser.eval("return document.documentElement.scrollWidth");
    assert!(
        wide.as_u64().unwrap() <= 390,
        "{name}: the page is {wide} px wide on a 390 px phone"
    );
    browser.emulate(1280, 900, false);
}

#[test]
#[ignore = "long tier: a minute or more; .ci/long runs it (cargo test -- --ignored)"]
fn every_game_is_played_to_its_end_in_the_browser() {
    let Some(driver) = driver() else { return };
    let dir = temp_dir("page-games");
    let d = dir.to_str().unwrap();
    let topitop = ["--budget", "2/1/2/2"];
    let topolo = ["--game", "topolo", "--board", "3x3"];
    let topple = ["--game", "topple", "--board", "3x3", "--variant", "s6"];
    for game in [&topitop[..], &topolo, &topple] {
        ok(&[&["solve", "--out", d][..], game].concat());
    }
    // A short search, so that a whole 8×8 game takes a minute.
    let server = Server::start(&dir, "page-games", &["--budget", "2/1/2/2", "--search-ms", "30"]);
    let browser = Browser::start(&driver, &dir);
    let solved = [
        ("topitop", "regular", &topitop[..]),
        ("topolo", "3x3", &topolo),
        ("topple", "3x3-s6", &topple),
    ];
    for (game, variant, options) in solved {
        let mut start = get(server.addr, &format!("/{game}/{variant}/")).json()["startPosition"]
            .as_str()
            .unwrap()
            .to_string();
        browser.open(&format!(
            "http://{}/ui/?game={game}&variant={variant}",
            server.addr
        ));
        if game == "topitop" {
            // Topitop's start is a draw that can go round for ever: the
            // game starts from its longest win instead, typed in.
            let db = format!("{d}/topitop_v1_0_2-1-2-2.db");
            let stats: Value = serde_json::from_str(&ok(&["stats", "--db", &db, "--json"])).unwrap();
            shows(&browser, &start, &query(d, options, &start));
            start = stats["longest_win"]["example"].as_str().unwrap().to_string();
            browser.type_into("#position", &start);
            browser.click("#position-form button[type=submit]");
        }
        let end = play_to_the_end(&browser, d, options, &start);
        says_why_it_ended(&browser, &server, &format!("{game}/{variant}"), &end);
        photograph(&browser, game);
    }

    // 8×8 Topolo, answered by search: the computer plays both sides,
    // ticked on, to the full board.
    browser.open(&format!("http://{}/ui/?game=topolo&variant=8x8", server.addr));
    browser.wait_for(
        "the estimates of 8x8",
        "return document.querySelectorAll('#moves button').length === 192 || null",
    );
    browser.click("#computer-0");
    browser.click("#computer-1");
    let last = browser.wait_until(
        "a full 8x8 board",
        std::time::Duration::from_secs(300),
        &format!("const p = (() => {{ {BOARD} }})(); return p && !p.includes('.') ? p : null"),
    );
    let last = last.as_str().unwrap();
    browser.wait_for(
        "the game over",
        "return document.getElementById('status').textContent.startsWith('Game over') || null",
    );
    says_why_it_ended(&browser, &server, "topolo/8x8", last);
    let plies = browser.eval("return state.history.length");
    assert_eq!(plies, 65, "64 moves and the start");
    photograph(&browser, "topolo-8x8");
    eprintln!("screenshots in {}", screenshot_dir().display());
    browser.assert_no_script_errors();
}
