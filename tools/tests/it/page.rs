//! The browser page of `topitop serve`, driven in a real headless
//! Chromium as a person drives it: load the page, click a move on the
//! board, undo, switch to another game, let the computer answer. Every
//! position and move value the page shows is checked against `query`.

use crate::support;

use serde_json::Value;
use support::http::get;
use support::page::{best_moves, driver, ok, query, shows, BOARD, LISTED};
use support::run::temp_dir;
use support::server::Server;
use support::webdriver::Browser;

#[test]
fn a_person_plays_and_studies_both_games_in_the_browser() {
    // Over 100 lines on purpose: one browser session, each step starting where
    // the last left the page; split, each part would replay the steps before
    // it.
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
    let address = browser.eval("return new URL(location.href).searchParams.get('moves')");
    assert_eq!(address, mv["move"], "the address names the moves played");

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
    // Perfect play in a drawn game goes round: the line stops where it
    // comes back, and that position is said to have come before.
    browser.click("#perfect");
    let note = browser.wait_for(
        "the perfect line",
        "const t = document.getElementById('study-note').textContent; return t.startsWith('Perfect play') ? t : null",
    );
    assert!(note.as_str().unwrap().contains("until it comes back"), "{note}");
    let plies = browser.eval("return state.history.length").as_u64().unwrap();
    browser.click(&format!("#record [data-ply=\"{}\"]", plies - 1));
    browser.wait_for(
        "the repetition notice",
        "return document.getElementById('status').textContent.includes('This position came before') || null",
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
    let plies = browser.eval("return document.querySelectorAll('#history circle.ply').length");
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
    // Worded as estimates, with no value beside them (it once read "L47
    // tie, estimated 55%" beside "S35 win, estimated 55%").
    let labels =
        browser.eval("return [...document.querySelectorAll('#moves button')].map(b => b.textContent)");
    for label in labels.as_array().unwrap() {
        let label = label.as_str().unwrap();
        assert!(
            label.contains("estimated") && label.contains("(not solved)"),
            "{label}"
        );
        for word in [" win", " tie", " lose", " draw"] {
            assert!(!label.contains(word), "{label} reads as a result");
        }
    }
    // The search is named with its article, and the list is in the order
    // of the shares it shows.
    assert!(
        status.as_str().unwrap().contains("(a Monte Carlo tree search, "),
        "{status}"
    );
    let shares = browser.eval(
        "return [...document.querySelectorAll('#moves button')].map(b => +/estimated (\\d+)%/.exec(b.textContent)[1])",
    );
    let shares: Vec<u64> = serde_json::from_value(shares).unwrap();
    assert!(shares.windows(2).all(|w| w[0] >= w[1]), "{shares:?}");
    // Undo stays live while a search works out the next position.
    browser.click("#moves button");
    let during = browser.eval(
        "return [document.getElementById('status').textContent, document.getElementById('undo').disabled]",
    );
    if during[0] == "Working out the values…" {
        assert_eq!(during[1], Value::Bool(false), "undo during the search");
    }
    browser.wait_for(
        "the second estimate",
        "return state.answers[1] && document.querySelectorAll('#history circle.ply').length === 2 || null",
    );
    // The value history charts estimates by share: not every dot on the
    // middle line.
    let xs = browser
        .eval("return [...document.querySelectorAll('#history circle.ply')].map(c => +c.getAttribute('cx'))");
    let xs: Vec<f64> = serde_json::from_value(xs).unwrap();
    let mid = browser
        .eval("const l = [...document.querySelectorAll('#history line')].find(l => l.getAttribute('stroke') === '#c9ced6'); return +l.getAttribute('x1')")
        .as_f64()
        .unwrap();
    assert!(xs.iter().any(|x| (x - mid).abs() > 1.0), "{xs:?} all on {mid}");
    // On a phone the buttons are smaller than a fingertip: a tap lists the
    // moves near it, and one picked from the list is played.
    browser.emulate(390, 844, true);
    browser.wait_for(
        "the board to take taps",
        "return document.getElementById('board').classList.contains('pick') || null",
    );
    let listed = browser.eval(
        "const svg = document.getElementById('board'); svg.scrollIntoView(); const m = svg.getScreenCTM(); \
         const t = state.object.imageAutoGUIData.themes[state.object.imageAutoGUIData.defaultTheme]; \
         const c = t.centers[+state.answers[state.at].moves[0].autoguiMove.split('_')[2]]; \
         const p = svg.createSVGPoint(); p.x = c[0]; p.y = c[1]; const q = p.matrixTransform(m); \
         svg.dispatchEvent(new MouseEvent('click', {clientX: q.x, clientY: q.y, bubbles: true})); \
         const k = document.getElementById('picker'); return k ? [...k.querySelectorAll('button')].map(b => b.dataset.move) : null",
    );
    let listed: Vec<String> = serde_json::from_value(listed).unwrap();
    assert!(
        listed.len() >= 2,
        "a tap between buttons lists several: {listed:?}"
    );
    browser.click("#picker button");
    browser.wait_for("the picked move", "return state.history.length === 3 || null");
    assert_eq!(
        browser.eval("return state.moves[2]"),
        Value::from(listed[0].as_str())
    );
    browser.emulate(1100, 900, false);
    let png = browser.screenshot();
    std::fs::write(dir.join("page-8x8.png"), &png).unwrap();
    eprintln!(
        "screenshots: {}, page-8x8.png beside it",
        dir.join("page.png").display()
    );
    // An address naming a game or variant not served says so (it once
    // opened Topitop without a word); a game named alone opens its first.
    for (address, said, shown) in [
        (
            "?game=nosuch",
            "This server has no game \"nosuch\"; showing topitop regular instead. It serves: topitop, topolo.",
            "topitop",
        ),
        (
            "?game=topolo&variant=9x9",
            "no variant \"9x9\" of topolo; showing topolo",
            "topolo",
        ),
    ] {
        browser.open(&format!("http://{}/ui/{address}", server.addr));
        let error = browser.wait_for(
            "the note on the address",
            "const e = document.getElementById('error'); return e.hidden ? null : e.textContent",
        );
        assert!(error.as_str().unwrap().contains(said), "{address}: {error}");
        assert_eq!(
            browser.eval("return state.current.game"),
            Value::from(shown),
            "{address}"
        );
    }
    browser.open(&format!("http://{}/ui/?game=topolo", server.addr));
    browser.wait_for(
        "Topolo",
        "return state.current && state.current.game === 'topolo' || null",
    );
    assert_eq!(
        browser.eval("return document.getElementById('error').hidden"),
        Value::from(true)
    );
    browser.assert_no_script_errors();
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
    // Over 100 lines on purpose: one browser session, each step starting where
    // the last left the page.
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
    browser.assert_no_script_errors();
}

/// Each piece's box on screen, with its AutoGUI slot:
/// `[[slot, left, top, right, bottom], ...]`, and the board's cell size in
/// pixels.
const PIECE_BOXES: &str = "const svg = document.getElementById('board'); const m = svg.getScreenCTM(); \
     const unit = Math.hypot(m.a, m.b); \
     const boxes = [...svg.querySelectorAll('.pieces > g')].map(g => { const r = g.getBoundingClientRect(); \
     return [+g.dataset.slot, r.left, r.top, r.right, r.bottom]; }); \
     const o = svg.createSVGPoint(); o.x = 0; o.y = 0; const origin = o.matrixTransform(m); \
     return [boxes, unit, origin.x, origin.y]";

#[test]
fn the_board_draws_every_piece_in_its_cell_and_clicks_what_it_shows() {
    // Over 100 lines on purpose: one browser session over one solve, a position
    // after another.
    let Some(driver) = driver() else { return };
    let dir = temp_dir("board");
    let d = dir.to_str().unwrap();
    let budget = ["--budget", "2/1/2/2"];
    let topple = ["--game", "topple", "--board", "3x3", "--variant", "s6"];
    let topple8 = ["--game", "topple", "--board", "3x3", "--variant", "s8"];
    ok(&[&["solve", "--out", d][..], &budget].concat());
    ok(&[&["solve", "--out", d][..], &topple].concat());
    ok(&[&["solve", "--out", d][..], &topple8].concat());
    let server = Server::start(&dir, "board", &budget);
    let browser = Browser::start(&driver, &dir);
    let open = |game: &str, variant: &str, p: &str| {
        let url = format!(
            "http://{}/ui/?game={game}&variant={variant}&p={}",
            server.addr,
            p.replace(' ', "%20")
        );
        browser.open(&url);
        browser.wait_for(
            &format!("the board of {p}"),
            &format!("{BOARD} === {}", Value::from(p)),
        );
    };

    // Crowned castles (P blue, Q red) stand inside their own cells: no
    // bucket cut off at the top, none drawn into the cell above.
    for p in ["2_PQ-------", "1_---Q----P", "2_S--LR-P--"] {
        open("topitop", "regular", p);
        let got = browser.eval(PIECE_BOXES);
        let unit = got[1].as_f64().unwrap();
        let (x0, y0) = (got[2].as_f64().unwrap(), got[3].as_f64().unwrap());
        let boxes = got[0].as_array().unwrap();
        assert!(!boxes.is_empty(), "{p}: no pieces drawn");
        for b in boxes {
            let b: Vec<f64> = b
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let cell = b[0] as usize / 6;
            let (cx, cy) = ((cell % 3) as f64, (cell / 3) as f64);
            let inside = b[1] >= x0 + cx * unit - 1.0
                && b[3] <= x0 + (cx + 1.0) * unit + 1.0
                && b[2] >= y0 + cy * unit - 1.0
                && b[4] <= y0 + (cy + 1.0) * unit + 1.0;
            assert!(
                inside,
                "{p}: slot {} drawn outside cell {}: {b:?}",
                b[0],
                cell + 1
            );
        }
    }

    // Where two arrows cross, a click plays neither; on an arrow's head
    // half, it plays that arrow's move.
    let p = "1_SS-LL----";
    open("topitop", "regular", p);
    let hit = |mv: &str, f: f64| {
        browser.eval(&format!(
            "const g = document.querySelector('#board [data-move=\"{mv}\"]'); const l = g.querySelector('line.ring'); \
             const svg = document.getElementById('board'); const m = svg.getScreenCTM(); \
             const x1 = +l.getAttribute('x1'), y1 = +l.getAttribute('y1'), x2 = +l.getAttribute('x2'), y2 = +l.getAttribute('y2'); \
             const pt = svg.createSVGPoint(); pt.x = x1 + (x2 - x1) * {f}; pt.y = y1 + (y2 - y1) * {f}; const q = pt.matrixTransform(m); \
             const e = document.elementFromPoint(q.x, q.y); const mv = e && e.closest('.move'); return mv ? mv.dataset.move : null"
        ))
    };
    assert_eq!(
        hit("1-5", 0.5),
        Value::Null,
        "the crossing of 1-5 and 2-4 plays no move"
    );
    assert_eq!(hit("2-4", 0.5), Value::Null);
    let mut checked = 0;
    for mv in ["1-5", "2-4", "4-2", "5-1"] {
        if browser.eval(&format!(
            "return Boolean(document.querySelector('#board [data-move=\"{mv}\"]'))"
        )) == Value::Bool(true)
        {
            assert_eq!(hit(mv, 0.8), Value::from(mv), "the head half of {mv}");
            checked += 1;
        }
    }
    assert!(
        checked >= 2,
        "only {checked} of the crossing slides are moves of {p}"
    );

    // Every move drawn on the board is played by a click on the middle of
    // the part that takes its clicks, never another move: on Topple, a
    // step whose head lies under a placement's disc keeps a part of its
    // own (the first position is where a click along a2-b2 played b2).
    for (variant, p) in [
        ("3x3-s8", ".1./1r11b/2.. r s2 r7 b7"),
        ("3x3-s6", "3../1r1b./... r s1 r7 b7"),
    ] {
        open("topple", variant, p);
        let got = browser.eval(
            "const svg = document.getElementById('board'); const m = svg.getScreenCTM(); \
             return [...svg.querySelectorAll('.move')].map(g => { \
               const hit = g.querySelector('.hit') || g.querySelector('circle.ring'); let x, y; \
               if (hit.tagName === 'circle') { x = +hit.getAttribute('cx'); y = +hit.getAttribute('cy'); } \
               else { const pts = hit.getAttribute('points').split(' ').map(q => q.split(',').map(Number)); \
                 x = pts.reduce((s, q) => s + q[0], 0) / pts.length; y = pts.reduce((s, q) => s + q[1], 0) / pts.length; } \
               const pt = svg.createSVGPoint(); pt.x = x; pt.y = y; const q = pt.matrixTransform(m); \
               const e = document.elementFromPoint(q.x, q.y); const mv = e && e.closest('.move'); \
               return [g.dataset.move, mv ? mv.dataset.move : null]; })",
        );
        let pairs = got.as_array().unwrap();
        assert!(pairs.len() > 5, "{p}: {got}");
        for pair in pairs {
            assert_eq!(pair[0], pair[1], "{p}: a click on {} plays {}", pair[0], pair[1]);
        }
    }

    // Topple: arrows and lines go under the pieces, so none hides a stack,
    // its height or a pawn's letter; placement buttons go over them.
    for p in ["3../1r1b./... r s1 r7 b7", ".11/.1b./111r b s0 r7 b7"] {
        open("topple", "3x3-s6", p);
        let order = browser.eval(
            "const kids = [...document.getElementById('board').children]; \
             const pieces = kids.findIndex(e => e.classList.contains('pieces')); \
             return kids.map((e, i) => [i < pieces, e.dataset.move ? e.querySelector('line') !== null : null]).filter(([, line]) => line !== null)",
        );
        for pair in order.as_array().unwrap() {
            assert_eq!(
                pair[0], pair[1],
                "{p}: a line drawn over the pieces, or a button under them: {order}"
            );
        }
    }
    browser.assert_no_script_errors();
}
