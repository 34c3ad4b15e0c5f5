//! Toppo through the binary: `toppo odds` and `toppo simulate` run as a
//! user runs them, and a whole game against a bot played in the browser
//! page of `topitop serve`, in a real headless Chromium.

use crate::support;

use games_toppo::check::{matches, top_order};
use games_toppo::odds::unconditional;
use games_toppo::{parse_cards, Card, DeckSpec};
use serde_json::Value;
use support::page::{driver, ok};
use support::run::{stderr, temp_dir, topitop};
use support::server::Server;
use support::webdriver::Browser;

#[test]
fn odds_are_the_library_s_and_bad_cards_are_refused() {
    let v: Value = serde_json::from_str(&ok(&["toppo", "odds", "--line", "4", "--json"])).unwrap();
    let exact = unconditional(&DeckSpec::one_set(), 4).unwrap();
    // serde_json reads floats back to within an ulp, not always exactly.
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-15;
    assert!(close(v["top"].as_f64().unwrap(), exact.top), "{v}");
    assert!(close(v["match"].as_f64().unwrap(), exact.matched), "{v}");
    let all: Value = serde_json::from_str(&ok(&["toppo", "odds", "--json"])).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 3);
    let text = ok(&["toppo", "odds", "--display", "red-circle,blue-plus,green-square"]);
    assert!(
        text.contains("against red-circle,blue-plus,green-square"),
        "{text}"
    );
    for (args, says) in [
        (
            vec!["toppo", "odds", "--display", "red-circle,pink-plus,green-square"],
            "not a colour",
        ),
        (vec!["toppo", "odds", "--display", "red-circle"], "3, 4 or 5"),
        (vec!["toppo", "odds", "--line", "6"], "6"),
        (vec!["toppo", "simulate", "--players", "9"], "2 to 8"),
        (vec!["toppo", "simulate", "--bot", "speed=3"], "keys are"),
    ] {
        let o = topitop(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_simulation_is_the_same_from_its_seed_and_writes_its_rows_and_report() {
    let dir = temp_dir("toppo-sim");
    let csv = dir.join("g.csv");
    let page = dir.join("r.html");
    let args = |out: &std::path::Path| {
        vec![
            "toppo".to_string(),
            "simulate".into(),
            "--games".into(),
            "200".into(),
            "--seed".into(),
            "7".into(),
            "--json".into(),
            "-o".into(),
            out.to_str().unwrap().into(),
            "--report".into(),
            page.to_str().unwrap().into(),
        ]
    };
    let a: Vec<String> = args(&csv);
    let summary: Value =
        serde_json::from_str(&ok(&a.iter().map(String::as_str).collect::<Vec<_>>())).unwrap();
    assert_eq!(summary["games"], 200);
    assert_eq!(summary["finished"], 200);
    // Faster bots do better: player 1 reacts quickest.
    let pts: Vec<f64> = summary["per_player"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["points"].as_f64().unwrap())
        .collect();
    assert!(pts[0] < pts[3], "{pts:?}");
    assert!(summary["points_per_100ms"].as_f64().unwrap() > 0.0);
    let first = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(first.lines().count(), 1 + 200 * 4, "a row a game and player");
    let again = dir.join("h.csv");
    ok(&args(&again).iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        first,
        std::fs::read_to_string(&again).unwrap(),
        "the same seed, the same games"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.contains("<svg"),
        "a report with charts"
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn cards(v: &Value) -> Vec<Card> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect()
}

/// Opens the Toppo page with `seed` and starts a game from its form with
/// `bots` bots at `speed`, as a person sets it up.
fn new_game(browser: &Browser, server: &Server, seed: u64, bots: usize, speed: &str) {
    browser.open(&format!("http://{}/ui/toppo/?seed={seed}", server.addr));
    browser.wait_for(
        "the first game",
        "return window.toppo && toppo.data && toppo.data.id",
    );
    browser.eval(&format!(
        "const b = document.getElementById('bots'); b.value = '{bots}'; b.dispatchEvent(new Event('change')); \
         document.getElementById('speed').value = '{speed}'; return true"
    ));
    browser.click("[data-action=new]");
    browser.wait_for(
        "the new game",
        &format!(
            "return toppo.data && toppo.data.players.length === {} && toppo.data.t < 5000 || null",
            bots + 1
        ),
    );
}

#[test]
#[ignore = "long tier: a minute or more; .ci/long runs it (cargo test -- --ignored)"]
fn a_person_plays_a_whole_game_against_a_bot_in_the_browser() {
    // Over 100 lines on purpose: one whole game in the browser, a move after
    // another.
    let Some(driver) = driver() else { return };
    let dir = temp_dir("toppo-page");
    let server = Server::start(&dir, "toppo", &[]);
    let browser = Browser::start(&driver, &dir);
    // One slow bot.
    new_game(&browser, &server, 3, 1, "0.1");
    // The keys play the game, not the button just pressed.
    let focus = browser.eval("return document.activeElement.dataset.action || null");
    assert_eq!(focus, Value::Null, "the focus left New game");
    // The form does not offer a set-up the server refuses.
    let offered = browser.wait_for(
        "the set-ups",
        "const o = [...document.getElementById('line-len').options].find(o => o.value === '5'); return o.title ? [o.disabled, o.title] : null",
    );
    assert_eq!(offered[0], Value::Bool(true), "{offered}");
    // One forced on it anyway leaves this game playing.
    let id = browser.eval("return toppo.data.id");
    browser.eval("document.getElementById('line-len').value = '5'; return true");
    browser.click("[data-action=new]");
    browser.wait_for(
        "the refusal",
        "return document.getElementById('said').className === 'penalty' || null",
    );
    let t = browser.eval("return toppo.data.t").as_f64().unwrap();
    browser.wait_for(
        "the old game to go on",
        &format!("return toppo.data.t > {t} + 300 || null"),
    );
    assert_eq!(browser.eval("return toppo.data.id"), id, "the same game");
    browser.eval("document.getElementById('line-len').value = '3'; return true");
    let mut penalties_seen = 0;
    let start = std::time::Instant::now();
    let mut partial_top_tried = false;
    loop {
        assert!(start.elapsed().as_secs() < 240, "no end after 4 minutes");
        let d = browser.eval("return toppo.data");
        if d["over"].as_bool().unwrap() {
            break;
        }
        let me = &d["players"][0];
        let line = cards(&me["line"]);
        let display = cards(&d["display"]);
        let l = d["line"].as_u64().unwrap() as usize;
        if me["cards"].as_u64().unwrap() < d["toppoBelow"].as_u64().unwrap() {
            let _ = browser.try_click("[data-action=toppo]");
        } else if me["matched"].as_bool().unwrap() {
            let _ = browser.try_click("[data-action=renew]");
        } else if line.len() < l {
            if d["started"].as_bool().unwrap() || d["starter"] == 0 {
                let _ = browser.try_click("[data-action=reveal]");
            }
        } else if let Some(order) = top_order(&line, &display) {
            if !partial_top_tried && order.len() > 1 {
                // Top with only some cards picked is refused, not guessed.
                partial_top_tried = true;
                browser.click("[data-action=clear]");
                browser.click(&format!("#line [data-line=\"{}\"]", order[0]));
                browser.click("[data-action=top]");
                let said = browser.eval("return document.getElementById('said').textContent");
                assert!(said.as_str().unwrap().contains("pick all"), "{said}");
            }
            let _ = browser.try_click("[data-action=clear]");
            for j in order {
                let _ = browser.try_click(&format!("#line [data-line=\"{j}\"]"));
            }
            let _ = browser.try_click("[data-action=top]");
        } else if let Some(&(j, i)) = matches(&line, &display).first() {
            let _ = browser.try_click("[data-action=clear]");
            let _ = browser.try_click(&format!("#line [data-line=\"{j}\"]"));
            let _ = browser.try_click(&format!("#display [data-place=\"{i}\"]"));
        } else {
            let _ = browser.try_click("[data-action=renew]");
        }
        let said = browser.eval("return document.getElementById('said').textContent");
        if said.as_str().unwrap_or("").starts_with("Penalty for You") {
            penalties_seen += 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let d = browser.eval("return toppo.data");
    let points = d["points"].as_array().unwrap();
    let said = browser.eval("return document.getElementById('said').textContent");
    assert!(said.as_str().unwrap().starts_with("Game over"), "{said}");
    // The log says what happened, in words.
    let log = browser.eval("return [...document.querySelectorAll('#log li')].map(l => l.textContent)");
    let log: Vec<&str> = log.as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(log.iter().any(|l| l.contains("shouted top")), "{log:?}");
    assert!(
        log.iter().any(|l| l.ends_with("called toppo: the game is over")),
        "{log:?}"
    );
    assert_eq!(points.len(), 2);
    assert!(partial_top_tried, "the game came to a top");
    // A finished game takes no more actions.
    let live = browser
        .eval("return [...document.querySelectorAll('#actions button')].filter(b => !b.disabled).length");
    assert_eq!(live, 0, "the action buttons are disabled");
    eprintln!(
        "game over: points {points:?}, {penalties_seen} penalties seen, {} s",
        start.elapsed().as_secs()
    );
    browser.eval("window.scrollTo(0, 0)");
    browser.screenshot_at(1280, 900, "toppo-1280x900.png");
    let shot = browser.screenshot_at(390, 844, "toppo-390x844.png");
    let wide = browser.eval("return document.documentElement.scrollWidth");
    assert!(
        wide.as_u64().unwrap() <= 390,
        "the page is {wide} px wide on a 390 px phone"
    );
    // What happened is in sight on a phone, above the cards.
    let said = browser.eval("const r = document.getElementById('said').getBoundingClientRect(); return r.bottom <= 844 && r.top >= 0");
    assert_eq!(said, Value::Bool(true), "the latest event is on screen");
    eprintln!("screenshots: {} and beside it", shot.display());
    // Cards are drawn with their names on them.
    let drawn = browser.eval("return document.querySelectorAll('#display [data-card]').length");
    assert_eq!(drawn, 3);
    let _ = parse_cards("red-circle").unwrap();
}

#[test]
fn a_newcomer_reads_the_rules_sees_the_bots_on_a_phone_and_is_told_who_won() {
    let Some(driver) = driver() else { return };
    let dir = temp_dir("toppo-newcomer");
    let server = Server::start(&dir, "toppo-newcomer", &[]);
    let browser = Browser::start(&driver, &dir);
    // A phone with a touch screen.
    browser.emulate(390, 844, true);
    browser.touch(true);
    new_game(&browser, &server, 7, 3, "1");
    // The rules and the goal, open on a first visit.
    let how = browser.eval("const h = document.getElementById('how'); return [h.open, h.textContent]");
    assert_eq!(how[0], Value::Bool(true));
    for words in [
        "The goal:",
        "fewer than ten cards",
        "penalty point",
        "Top:",
        "Match:",
        "Renew:",
    ] {
        assert!(how[1].as_str().unwrap().contains(words), "no {words:?} in {how}");
    }
    // No keys offered on a touch screen.
    let keys = browser
        .eval("return [...document.querySelectorAll('#actions .key')].map(k => getComputedStyle(k).display)");
    assert_eq!(keys, serde_json::json!(["none", "none", "none", "none"]));
    // Every bot, the display and your line in sight without scrolling.
    browser.eval("window.scrollTo(0, 0)");
    let hidden = browser.eval(
        "return [...document.querySelectorAll('.bot, #display, #line, #actions')].filter(e => {          const r = e.getBoundingClientRect(); return r.top < 0 || r.bottom > innerHeight; }).map(e => e.id || e.textContent.slice(0, 12))",
    );
    assert_eq!(hidden, serde_json::json!([]), "below the fold on a 390x844 phone");
    assert_eq!(browser.eval("return document.querySelectorAll('.bot').length"), 3);
    // Every control a finger's size: at least 24 px each way.
    let small = browser.eval(
        "return [...document.querySelectorAll('button, select, input, a, summary, #display .card, #line .card')] \
         .filter(e => e.offsetParent !== null || e instanceof SVGElement) \
         .map(e => [e.dataset.action || e.id || e.dataset.card || e.textContent.slice(0, 16), e.getBoundingClientRect()]) \
         .filter(([, r]) => r.width > 0 && (r.width < 24 || r.height < 24)).map(([n, r]) => [n, Math.round(r.width), Math.round(r.height)])",
    );
    assert_eq!(small, serde_json::json!([]), "targets under 24 px on a phone");
    // At the end the winner is named and the points explained, and the
    // running totals add up across games; the highest total starts the
    // next game, as the rules say. (The end of a real game is played in
    // the long tier's whole game above; here its state is given.)
    let end = |points: &str, id: &str| {
        browser.eval(&format!(
            "show(Object.assign({{}}, toppo.data, {{id: '{id}', over: true, points: {points}}}));              return document.getElementById('said').textContent"
        ))
    };
    let said = end("[0, 12, 7, 9]", "g1");
    let said = said.as_str().unwrap();
    assert!(said.starts_with("Game over: You win."), "{said}");
    assert!(
        said.contains("one for each card still held") && said.contains("Bot 1 12"),
        "{said}"
    );
    let said = end("[4, 9, 3, 6]", "g2");
    assert!(
        said.as_str().unwrap().starts_with("Game over: Bot 2 wins."),
        "{said}"
    );
    // The same game again is not counted twice.
    end("[4, 9, 3, 6]", "g2");
    let totals = browser.eval("return [...document.querySelectorAll('#totals tr')].map(r => r.textContent)");
    assert_eq!(
        totals,
        serde_json::json!([
            "PlayerPoints after 2 games",
            "You4",
            "Bot 121",
            "Bot 210",
            "Bot 315"
        ])
    );
    browser.click("[data-action=new]");
    let opening = browser.wait_for(
        "the next game",
        "return toppo.data && !toppo.data.over && toppo.data.events[0].text || null",
    );
    assert!(opening.as_str().unwrap().contains("Bot 1 starts"), "{opening}");
    assert_eq!(browser.eval("return toppo.data.starter"), 1);
    browser.assert_no_script_errors();
}

#[test]
fn clicks_on_your_cards_are_never_lost_while_bots_play() {
    let Some(driver) = driver() else { return };
    let dir = temp_dir("toppo-clicks");
    let server = Server::start(&dir, "toppo-clicks", &[]);
    let browser = Browser::start(&driver, &dir);
    // Three bots at the usual speed, all revealing and playing.
    new_game(&browser, &server, 11, 3, "1");
    let start = std::time::Instant::now();
    while browser
        .eval("return toppo.data.players[0].line.length")
        .as_u64()
        .unwrap()
        < 3
    {
        assert!(
            start.elapsed().as_secs() < 60,
            "no three cards revealed in a minute"
        );
        let _ = browser.try_click("[data-action=reveal]");
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    // Ordinary presses (0.1 s down) on your cards: each one picks or
    // unpicks its card, unless your line itself changed meanwhile.
    let (mut counted, mut lost) = (0, Vec::new());
    for k in 0..36 {
        let state = "return [toppo.data.players[0].line.join(','), toppo.picks.slice(), toppo.data.over]";
        let before = browser.eval(state);
        if before[2] == Value::Bool(true) {
            break;
        }
        let n = before[0]
            .as_str()
            .unwrap()
            .split(',')
            .filter(|s| !s.is_empty())
            .count();
        if n == 0 {
            let _ = browser.try_click("[data-action=reveal]");
            continue;
        }
        let j = k % n;
        let pressed = browser.slow_click(&format!("#line [data-line=\"{j}\"]"), 100);
        let after = browser.eval(state);
        if after[0] != before[0] {
            continue;
        }
        counted += 1;
        if pressed.is_err() {
            // The card was drawn anew under the pointer: the click is lost.
            lost.push(k);
            continue;
        }
        let was = before[1].as_array().unwrap().contains(&Value::from(j));
        let is = after[1].as_array().unwrap().contains(&Value::from(j));
        if was == is {
            lost.push(k);
        }
    }
    assert!(counted >= 20, "only {counted} clicks on an unchanged line");
    assert!(lost.is_empty(), "clicks {lost:?} of {counted} did nothing");
    let bots_moved = browser.eval("return toppo.data.events.filter(e => !e.text.startsWith('You')).length");
    assert!(bots_moved.as_u64().unwrap() > 0, "the bots played meanwhile");
}
