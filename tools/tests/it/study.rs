//! Studying a solved game on the page as lichess's analysis board studies
//! chess: the game in the address (reload, Back and Forward), variations
//! kept, promoted, deleted, exported and imported, the value history of
//! every alternative, the keys, the marks, playing blind, the computers'
//! game that stops, and a phone's targets. Driven in a real headless
//! Chromium; every position shown is checked against `query`.

use crate::support;

use serde_json::{json, Value};
use support::page::{best_moves, driver, ok, query, shows};
use support::run::temp_dir;
use support::server::Server;
use support::webdriver::Browser;

/// The position of the main line's end: the start's first child, its
/// first child, and so on.
const MAIN_LINE: &str = "const out = []; let n = state.root; \
     while (n.children.length) { n = n.children[0]; out.push(n.move); } return out";

/// Every control of the page smaller than 24 px either way (a check box
/// counts by its label), as `[name, width, height]`.
const SMALL_TARGETS: &str = "const small = []; \
     for (const e of document.querySelectorAll('button, select, input, a, summary, #history rect.row, #board .move')) { \
       const t = e.type === 'checkbox' ? e.closest('label') : e; const r = t.getBoundingClientRect(); \
       if (t.offsetParent === null && !(t instanceof SVGElement)) continue; \
       if (r.width === 0 && r.height === 0) continue; \
       if (r.width < 24 || r.height < 24) small.push([e.id || e.dataset.move || e.dataset.ply || e.textContent.slice(0, 20), r.width, r.height]); } \
     return small";

/// The moves listed, in the list's order.
const LISTED_MOVES: &str = "return [...document.querySelectorAll('#moves button')].map(b => b.dataset.move)";

/// Clicks the listed move `mv` and waits for the board to show `position`,
/// checked against `query`.
fn play(browser: &Browser, d: &str, game: &[&str], mv: &str, position: &str) {
    browser.click(&format!("#moves button[data-move=\"{mv}\"]"));
    shows(browser, position, &query(d, game, position));
}

/// Waits until the page shows ply `ply` of a line of `len` positions.
fn at(browser: &Browser, ply: usize, len: usize) {
    browser.wait_for(
        &format!("ply {ply} of {len}"),
        &format!(
            "return state.at === {ply} && state.line.length === {len} && \
             document.querySelector('#board').dataset.position === state.line[{ply}].position || null"
        ),
    );
}

#[test]
fn a_study_keeps_its_game_in_the_address_and_its_variations_in_a_tree() {
    // Over 100 lines on purpose: one browser session, each step starting where
    // the last left the page.
    let Some(driver) = driver() else { return };
    let dir = temp_dir("study-tree");
    let d = dir.to_str().unwrap();
    let topolo = ["--game", "topolo", "--board", "3x3"];
    ok(&[&["solve", "--out", d][..], &topolo].concat());
    let server = Server::start(&dir, "study-tree", &[]);
    let browser = Browser::start(&driver, &dir);
    let page = format!("http://{}/ui/?game=topolo&variant=3x3", server.addr);
    // A start the server refuses: the variant's start, the reason, and
    // none of the moves, which were played from the other start.
    browser.open(&format!("{page}&start=zzz&moves=S5"));
    let error = browser.wait_for(
        "the refused start",
        "const e = document.getElementById('error'); return e.hidden ? null : e.textContent",
    );
    assert!(error.as_str().unwrap().contains("zzz"), "{error}");
    assert_eq!(browser.eval("return state.history"), json!([".../.../..."]));
    browser.open(&page);
    let start = ".../.../...";
    let q0 = query(d, &topolo, start);
    shows(&browser, start, &q0);

    // Three moves, Undo, Undo, Redo: the address holds the three and the
    // ply shown, and a reload brings back all of it.
    let mut line = vec![start.to_string()];
    let mut names = Vec::new();
    for _ in 0..3 {
        let q = query(d, &topolo, line.last().unwrap());
        let m = &q["moves"][0];
        let (mv, p) = (m["move"].as_str().unwrap(), m["position"].as_str().unwrap());
        play(&browser, d, &topolo, mv, p);
        names.push(mv.to_string());
        line.push(p.to_string());
    }
    browser.click("#undo");
    at(&browser, 2, 4);
    browser.click("#undo");
    at(&browser, 1, 4);
    browser.click("#redo");
    at(&browser, 2, 4);
    let address = browser.eval("return [new URL(location.href).searchParams.get('moves'), new URL(location.href).searchParams.get('ply')]");
    assert_eq!(address, json!([names.join(" "), "2"]));
    browser.eval("location.reload()");
    at(&browser, 2, 4);
    assert_eq!(browser.eval("return state.history"), json!(line));
    assert_eq!(
        browser.eval("return document.querySelectorAll('#record button').length"),
        4,
        "the moves played are listed after a reload"
    );
    assert_eq!(
        browser.eval(
            "return [document.getElementById('undo').disabled, document.getElementById('redo').disabled]"
        ),
        json!([false, false])
    );
    // Back steps back to what was shown before (ply 1, after the second
    // Undo), Forward returns.
    browser.back();
    at(&browser, 1, 4);
    browser.forward();
    at(&browser, 2, 4);
    browser.back();
    at(&browser, 1, 4);
    browser.back();
    at(&browser, 2, 4);
    browser.back();
    at(&browser, 3, 4);
    browser.assert_no_script_errors();

    // Perfect play from the start, then three plies along it, Undo, and
    // another move: a variation beside the line, which stays whole.
    browser.click("#restart");
    shows(&browser, start, &q0);
    browser.click("#perfect");
    browser.wait_for(
        "the perfect line",
        "return document.getElementById('study-note').textContent.startsWith('Perfect play') || null",
    );
    let perfect: Vec<String> = serde_json::from_value(browser.eval(MAIN_LINE)).unwrap();
    assert!(perfect.len() >= 5, "{perfect:?}");
    for _ in 0..3 {
        browser.click("#redo");
    }
    at(&browser, 3, perfect.len() + 1);
    browser.click("#undo");
    at(&browser, 2, perfect.len() + 1);
    let here = browser
        .eval("return state.node.position")
        .as_str()
        .unwrap()
        .to_string();
    let q = query(d, &topolo, &here);
    let other = q["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] != perfect[2].as_str())
        .unwrap()
        .clone();
    let other_move = other["move"].as_str().unwrap().to_string();
    play(
        &browser,
        d,
        &topolo,
        &other_move,
        other["position"].as_str().unwrap(),
    );
    at(&browser, 3, 4);
    assert_eq!(
        browser.eval(MAIN_LINE),
        json!(perfect),
        "the line played before is kept"
    );
    let variation = browser
        .eval("return [...document.querySelectorAll('#record li.variation button')].map(b => b.textContent)");
    assert_eq!(variation.as_array().unwrap().len(), 1, "{variation}");
    assert!(
        variation[0].as_str().unwrap().contains(&other_move),
        "{variation}"
    );
    // A reload of the tab keeps the variations, not only the line the
    // address holds.
    browser.eval("location.reload()");
    at(&browser, 3, 4);
    assert_eq!(
        browser.eval(MAIN_LINE),
        json!(perfect),
        "the line played before survives a reload"
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('#record li.variation').length"),
        1
    );
    // Redo after Undo comes back into the variation; the main line's move
    // is a click away in the list.
    browser.click("#undo");
    browser.click("#redo");
    at(&browser, 3, 4);
    browser.click("#record button[data-ply=\"3\"]:not(.on-line)");
    at(&browser, 3, perfect.len() + 1);
    assert_eq!(
        browser.eval("return state.node.move"),
        Value::from(perfect[2].as_str())
    );

    // The record carries the variation, indented under the move it
    // replaces, and brings it back.
    browser.click("#export");
    let text = browser.eval("return document.getElementById('record-text').value");
    let text = text.as_str().unwrap().to_string();
    assert!(
        text.contains(&format!("\n3. {}\n  3. {other_move}\n4. ", perfect[2])),
        "{text}"
    );
    browser.click("#restart");
    shows(&browser, start, &q0);
    assert_eq!(browser.eval(MAIN_LINE), json!([]));
    browser.type_into("#record-text", &text);
    browser.click("#import");
    at(&browser, perfect.len(), perfect.len() + 1);
    assert_eq!(browser.eval(MAIN_LINE), json!(perfect));
    assert_eq!(
        browser.eval("return document.querySelectorAll('#record li.variation').length"),
        1
    );
    browser.click("#export");
    assert_eq!(
        browser.eval("return document.getElementById('record-text').value"),
        Value::from(text.as_str()),
        "export, import, export: the same text"
    );
    // A variation indented under no move is refused, naming its line.
    browser.type_into("#record-text", &text.replace("\n1. ", "\n    1. "));
    browser.click("#import");
    let error = browser.wait_for(
        "the refusal",
        "const e = document.getElementById('error'); return e.hidden ? null : e.textContent",
    );
    assert!(
        error.as_str().unwrap().contains("line 6: indented deeper"),
        "{error}"
    );

    // Promoted, the variation is the main line; deleted, it is gone.
    browser.click("#record li.variation button");
    at(&browser, 3, 4);
    browser.click("#promote");
    browser.wait_for(
        "the promotion",
        &format!(
            "return state.root.children[0].children[0].children[0].move === {} || null",
            Value::from(other_move.as_str())
        ),
    );
    assert_eq!(
        browser.eval("return document.querySelector('#record li.variation button').dataset.ply"),
        "3",
        "the old line is now the variation"
    );
    browser.click("#delete");
    at(&browser, 2, perfect.len() + 1);
    assert_eq!(browser.eval(MAIN_LINE), json!(perfect));
    assert_eq!(
        browser.eval("return document.querySelectorAll('#record li.variation').length"),
        0
    );

    // The keys: → and ← step, Home and End go to the ends.
    browser.click("#undo");
    at(&browser, 1, perfect.len() + 1);
    for (key, ply) in [
        ("\u{E014}", 2),
        ("\u{E012}", 1),
        ("\u{E010}", perfect.len()),
        ("\u{E011}", 0),
    ] {
        browser.press(key);
        at(&browser, ply, perfect.len() + 1);
    }
    // The last move marked on the board; none at the start.
    assert_eq!(
        browser.eval("return document.querySelectorAll('#board [data-last-move]').length"),
        0
    );
    browser.press("\u{E014}");
    at(&browser, 1, perfect.len() + 1);
    assert_eq!(
        browser.eval("return document.querySelector('#board [data-last-move]').dataset.lastMove"),
        Value::from(perfect[0].as_str())
    );

    // The value history: on each row the moves of the ply before, where
    // their positions sit, the one played ringed; a row click goes to it.
    browser.press("\u{E010}");
    at(&browser, perfect.len(), perfect.len() + 1);
    browser.wait_for(
        "the whole chart",
        &format!(
            "return document.querySelectorAll('#history circle.ply').length === {} || null",
            perfect.len() + 1
        ),
    );
    let counts = browser.eval(
        "return state.line.map((n, i) => [n.answer.moves.length, document.querySelectorAll(`#history circle.alt[data-ply=\"${i}\"]`).length])",
    );
    for (i, pair) in counts.as_array().unwrap().iter().enumerate() {
        assert_eq!(pair[0], pair[1], "ply {i}: every move charted");
    }
    let played = browser
        .eval("return [...document.querySelectorAll('#history circle.alt.played')].map(c => c.dataset.move)");
    assert_eq!(played, json!(perfect));
    browser.click("#history rect.row[data-ply=\"2\"]");
    at(&browser, 2, perfect.len() + 1);

    browser.press("\u{E011}");
    at(&browser, 0, perfect.len() + 1);
    // Every winning move here wins as fast (a Topolo game lasts until
    // the board is full): none is marked best above the others.
    assert_eq!(
        browser.eval("return document.querySelectorAll('#moves button.best, #board .move.best').length"),
        0
    );

    // Playing blind: the list and the board's Tab order by name, no mark.
    browser.click("#hints");
    shows(&browser, start, &q0);
    let mut by_name: Vec<String> = q0["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    by_name.sort();
    assert_eq!(browser.eval(LISTED_MOVES), json!(by_name));
    assert_eq!(
        browser.eval("return [...document.querySelectorAll('#board .move')].map(g => g.dataset.move)"),
        json!(by_name),
        "the board's Tab order"
    );
    assert_eq!(
        browser.eval(
            "return [...document.querySelectorAll('.best-mark')].filter(e => e.offsetParent !== null).length"
        ),
        0
    );
    browser.click("#hints");

    // On a phone every button of the board is a fingertip's target: the
    // smallest piece's button grows its tap area (it was 23.9 px).
    browser.emulate(390, 844, true);
    browser.open(&page);
    shows(&browser, start, &q0);
    browser.eval("document.getElementById('board').scrollIntoView()");
    assert_eq!(
        browser.eval(SMALL_TARGETS),
        json!([]),
        "targets smaller than 24 px on a phone"
    );
    let hits = browser.eval(
        "const svg = document.getElementById('board'); const m = svg.getScreenCTM(); \
         return [...svg.querySelectorAll('.move')].filter(g => { const c = g.querySelector('circle.ring'); \
           const p = svg.createSVGPoint(); p.x = +c.getAttribute('cx'); p.y = +c.getAttribute('cy'); const q = p.matrixTransform(m); \
           const e = document.elementFromPoint(q.x, q.y); const mv = e && e.closest('.move'); return !mv || mv.dataset.move !== g.dataset.move; }) \
           .map(g => g.dataset.move)",
    );
    assert_eq!(hits, json!([]), "a tap on a button's centre plays another move");
    browser.assert_no_script_errors();
}

#[test]
fn computers_stop_a_game_that_goes_round_and_a_phone_has_room_for_a_finger() {
    let Some(driver) = driver() else { return };
    let dir = temp_dir("study-computers");
    let d = dir.to_str().unwrap();
    let topple = ["--game", "topple", "--board", "3x3", "--variant", "s6"];
    ok(&[&["solve", "--out", d][..], &topple].concat());
    let server = Server::start(&dir, "study-computers", &[]);
    let browser = Browser::start(&driver, &dir);
    browser.open(&format!("http://{}/ui/?game=topple&variant=3x3-s6", server.addr));
    let start = ".../.../... r s6 r8 b8";
    let q = query(d, &topple, start);
    assert_eq!(q["positionValue"], "draw");
    shows(&browser, start, &q);

    // A drawn game between two computers stops where a position comes
    // again (it once went on for ever).
    browser.eval("state.computerDelayMs = 0");
    browser.click("#computer-0");
    browser.click("#computer-1");
    let status = browser.wait_for(
        "the computers to stop",
        "const s = document.getElementById('status').textContent; return s.includes('The computers stopped') ? s : null",
    );
    assert!(
        status
            .as_str()
            .unwrap()
            .contains("this position came before, at ply"),
        "{status}"
    );
    let line: Vec<String> = serde_json::from_value(browser.eval("return state.history")).unwrap();
    let last = line.last().unwrap();
    assert!(line[..line.len() - 1].contains(last), "{line:?}");
    // And at the move limit.
    browser.click("#computer-0");
    browser.click("#computer-1");
    browser.click("#restart");
    shows(&browser, start, &q);
    browser.eval("state.computerLimit = 3");
    browser.click("#computer-0");
    browser.click("#computer-1");
    let status = browser.wait_for(
        "the computers to stop at the limit",
        "const s = document.getElementById('status').textContent; return s.includes('The computers stopped after 3 moves') ? s : null",
    );
    assert_eq!(browser.eval("return state.at"), 3, "{status}");
    browser.click("#computer-0");
    browser.click("#computer-1");

    // The best move among those of one colour is marked (the quickest
    // win, the slowest loss): here one win ends the game at once and three
    // take two moves more.
    let p = "3../1r1b./... r s1 r7 b7";
    browser.open(&format!(
        "http://{}/ui/?game=topple&variant=3x3-s6&start={}",
        server.addr,
        p.replace(' ', "+")
    ));
    let won = query(d, &topple, p);
    shows(&browser, p, &won);
    let best: Vec<Value> = best_moves(&won).iter().map(|m| m["move"].clone()).collect();
    let wins = won["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["moveValue"] == "win")
        .count();
    assert!(!best.is_empty() && best.len() < wins, "{won}");
    let marked =
        browser.eval("return [...document.querySelectorAll('#moves button.best')].map(b => b.dataset.move)");
    assert_eq!(marked, Value::from(best.clone()));
    let mut on_board: Vec<Value> = serde_json::from_value(
        browser.eval("return [...document.querySelectorAll('#board .move.best')].map(b => b.dataset.move)"),
    )
    .unwrap();
    on_board.sort_by_key(|v| v.to_string());
    let mut best = best;
    best.sort_by_key(|v| v.to_string());
    assert_eq!(on_board, best);

    // A phone: every control is a target of at least 24 px.
    browser.emulate(390, 844, true);
    browser.open(&format!("http://{}/ui/?game=topple&variant=3x3-s6", server.addr));
    shows(&browser, start, &q);
    browser.click("#moves button");
    browser.wait_for(
        "a move",
        "return state.line.length === 2 && state.answers[1] || null",
    );
    assert_eq!(
        browser.eval(SMALL_TARGETS),
        json!([]),
        "targets smaller than 24 px on a phone"
    );
    browser.assert_no_script_errors();
}

#[test]
fn every_value_and_count_shown_agrees_with_query_across_games() {
    let Some(driver) = driver() else { return };
    let dir = temp_dir("study-sample");
    let d = dir.to_str().unwrap();
    let topitop = ["--budget", "2/1/2/2"];
    let topolo = ["--game", "topolo", "--board", "3x3"];
    let topple = ["--game", "topple", "--board", "3x3", "--variant", "s6"];
    for g in [&topitop[..], &topolo, &topple] {
        ok(&[&["solve", "--out", d][..], g].concat());
    }
    let server = Server::start(&dir, "study-sample", &topitop);
    let browser = Browser::start(&driver, &dir);
    let mut checked = 0;
    for (game, variant, options, start) in [
        ("topitop", "regular", &topitop[..], "1_---------"),
        ("topolo", "3x3", &topolo, ".../.../..."),
        ("topple", "3x3-s6", &topple, ".../.../... r s6 r8 b8"),
    ] {
        browser.open(&format!(
            "http://{}/ui/?game={game}&variant={variant}",
            server.addr
        ));
        let mut p = start.to_string();
        // A line of moves picked by a fixed rule; a game over starts again.
        for k in 0..35usize {
            let q = query(d, options, &p);
            shows(&browser, &p, &q);
            checked += 1;
            let moves = q["moves"].as_array().unwrap();
            if moves.is_empty() {
                browser.click("#restart");
                p = start.to_string();
                continue;
            }
            let m = &moves[(k * 7 + 3) % moves.len()];
            browser.click(&format!(
                "#moves button[data-move=\"{}\"]",
                m["move"].as_str().unwrap()
            ));
            p = m["position"].as_str().unwrap().to_string();
        }
    }
    assert!(checked >= 100, "{checked} positions");
    browser.assert_no_script_errors();
}
