//! The template games that live only in the tests (`games/tictactoe`,
//! and `games/nim`, an impartial game whose positions carry no turn),
//! registered by the `toy` feature: solved, stored, verified, queried,
//! exported, counted, served and played through the same commands and
//! files as the real games, with no change to a shared crate. Run with
//! `cargo test -p topitop --features toy --test it -- toy::`.

use crate::support;

use support::http::get;
use support::page::{best_moves, driver, query, shows};
use support::run::{stderr, stdout, temp_dir, topitop};
use support::server::Server;
use support::webdriver::Browser;

fn ok(args: &[&str]) -> String {
    let o = topitop(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn tic_tac_toe_goes_through_every_command() {
    let dir = temp_dir("toy");
    let d = dir.to_str().unwrap();
    let g = ["--game", "tictactoe"];
    let solved = ok(&[&["solve", "--out", d][..], &g].concat());
    // The known facts: a tie in 9 from the start; 5,478 positions.
    assert!(solved.contains("start position ---/---/---: tie 9"), "{solved}");
    assert!(dir.join("tictactoe_3x3.db").exists());
    let v = ok(&[&["verify", "--dir", d][..], &g].concat());
    assert!(v.contains(": 0 violations"), "{v}");
    let stats = ok(&[&["stats", "--dir", d][..], &g].concat());
    assert!(stats.lines().any(|l| l == "reachable positions  5478"), "{stats}");
    // A game that declares no symmetries hears nothing of classes, and is
    // not offered a flag to leave them out.
    assert!(
        !stats.contains("symmetry") && !solved.contains("symmetry class"),
        "{stats}{solved}"
    );
    let o = topitop(&[&["solve", "--no-symmetry", "--out", d][..], &g].concat());
    assert!(
        stderr(&o).contains("--no-symmetry is not an option of tictactoe"),
        "{}",
        stderr(&o)
    );
    // X to win at once: the winning cell comes first.
    let q = ok(&[&["query", "xx-/oo-/---", "--json", "--dir", d][..], &g].concat());
    let mut q: serde_json::Value = serde_json::from_str(&q).unwrap();
    assert_eq!(q["positionValue"], "win");
    assert_eq!(q["reachable"], true);
    // GamesmanUni's object, as `serve` answers it below, and `reachable`.
    q.as_object_mut().unwrap().remove("reachable");
    assert_eq!(q["remoteness"], 1);
    assert_eq!(q["moves"][0]["move"], "3");
    assert_eq!(q["moves"][0]["moveValue"], "win");
    let rows = ok(&[&["export", "--dir", d][..], &g].concat());
    assert_eq!(rows.lines().count(), 1 + 5478, "a header and a row a position");
    // `show` names why a game is over, in the game's words.
    let shown = ok(&[&["show", "xxx/oo-/---"][..], &g].concat());
    assert!(shown.contains("Ending     X has three in a row"), "{shown}");
    let perft = ok(&[&["perft", "9"][..], &g].concat());
    assert!(perft.contains("9\t127872\t"), "{perft}");
    let o = topitop(&[&["query", "xxx/ooo/---", "--dir", d][..], &g].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be reached"), "{}", stderr(&o));
    // Served over HTTP by `serve`, which finds its database by name: the
    // position object is the query's, the board a text one.
    let server = Server::start(&dir, "serve", &[]);
    let games = get(server.addr, "/").json();
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    // Its database, and 8x8 Topolo answered by search beside it.
    assert_eq!(ids, ["topolo", "tictactoe"], "{games}");
    let variant = get(server.addr, "/tictactoe/3x3/").json();
    assert_eq!(variant["startPosition"], "---/---/---");
    // Its board for GamesmanUni, drawn with GamesmanUni's own images.
    let theme = &variant["imageAutoGUIData"]["themes"]["regular"];
    assert_eq!(theme["background"], "ttt/3x3grid.svg", "{variant}");
    assert_eq!(theme["centers"].as_array().unwrap().len(), 9);
    let body = get(server.addr, "/tictactoe/3x3/positions/?p=xx-/oo-/---").json();
    assert_eq!(body, q);
    assert_eq!(body["autoguiPosition"], "1_xx-oo----");
    assert_eq!(body["moves"][0]["autoguiMove"], "A_a_2_x");
    let r = get(server.addr, "/tictactoe/3x3/positions/?p=xxx/ooo/---");
    assert_eq!(r.status, 400);
}

#[test]
fn check_puts_every_game_through_the_contract() {
    // Each game on a small board, a few games each: every check passes,
    // and the table names every check made.
    for game in [
        &["--game", "tictactoe"][..],
        &["--game", "topitop", "--budget", "1/1/2/2"],
        &["--game", "topolo", "--board", "3x3"],
        &["--game", "topple", "--board", "2x3"],
    ] {
        let out = ok(&[&["check", "--games", "20", "--seed", "7"][..], game].concat());
        assert!(out.contains("conformance check, seed 7"), "{out}");
        assert!(out.trim_end().ends_with("every check passed"), "{out}");
        for check in [
            "legal",
            "position-text",
            "move-text",
            "game-over",
            "symmetry",
            "drawing",
        ] {
            assert!(
                out.lines().any(|l| l.starts_with(check)),
                "{game:?} lacks {check}:\n{out}"
            );
        }
        // A game with tiers has its ranks checked; Topitop's are its own.
        let tiered = game[1] != "topitop";
        assert_eq!(out.lines().any(|l| l.starts_with("rank ")), tiered, "{out}");
    }
    // A board small enough is gone through whole: tic-tac-toe's every
    // position is reached, as stats counts them.
    let whole = ok(&["check", "--game", "tictactoe", "--games", "5", "--seed", "1"]);
    assert!(whole.contains("play reaches 5478; check accepts 5478"), "{whole}");
    // One seed, the same games; and nonsense refused before anything runs.
    let a = ok(&[
        "check", "--game", "topple", "--board", "2x2", "--seed", "3", "--games", "5",
    ]);
    let b = ok(&[
        "check", "--game", "topple", "--board", "2x2", "--seed", "3", "--games", "5",
    ]);
    assert_eq!(a, b);
    let o = topitop(&["check", "--game", "tictactoe", "--games", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--games"), "{}", stderr(&o));
    let o = topitop(&["check", "--game", "tictactoe", "--board", "3x3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("tictactoe takes no options of its own"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn tic_tac_toe_is_drawn_and_played_on_the_page() {
    // The template game's board on the page: its own drawing, every move
    // a control on the board, played to the end by clicks.
    let Some(driver) = driver() else { return };
    let dir = temp_dir("toy-page");
    let d = dir.to_str().unwrap();
    let g = ["--game", "tictactoe"];
    ok(&[&["solve", "--out", d][..], &g].concat());
    let server = Server::start(&dir, "toy-page", &[]);
    let browser = Browser::start(&driver, &dir);
    browser.open(&format!("http://{}/ui/?game=tictactoe&variant=3x3", server.addr));
    let start = "---/---/---";
    shows(&browser, start, &query(d, &g, start));
    // The game's grid and the cell numbers are drawn, not a text board.
    let drawn = browser.eval("return document.getElementById('board').innerHTML");
    let drawn = drawn.as_str().unwrap();
    assert!(drawn.contains("<line") && drawn.contains(">9</text>"), "{drawn}");
    let end = crate::page_games::play_to_the_end(&browser, d, &g, start);
    crate::page_games::says_why_it_ended(&browser, &server, "tictactoe/3x3", &end);
    crate::page_games::photograph(&browser, "tictactoe");
    browser.assert_no_script_errors();
}

#[test]
fn an_impartial_game_is_solved_served_and_played_without_a_turn() {
    // Nim 3-4-5: a position is lost for its mover exactly when the xor
    // of the heaps is 0; the position says nothing of who moves.
    let dir = temp_dir("toy-nim");
    let d = dir.to_str().unwrap();
    let g = ["--game", "nim"];
    let solved = ok(&[&["solve", "--out", d][..], &g].concat());
    assert!(solved.contains("start position 3-4-5: win 11"), "{solved}");
    let table = ok(&[&["export", "--dir", d][..], &g].concat());
    let mut rows = 0;
    for row in table.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        let heaps: Vec<u8> = f[0].split('-').map(|h| h.parse().unwrap()).collect();
        let lost = heaps[0] ^ heaps[1] ^ heaps[2] == 0;
        assert_eq!(f[2], if lost { "lose" } else { "win" }, "{row}");
        rows += 1;
    }
    assert_eq!(rows, 4 * 5 * 6, "one record a position, not one a side");
    let stats = ok(&[&["stats", "--dir", d][..], &g].concat());
    assert!(stats.lines().any(|l| l == "reachable positions  120"), "{stats}");
    let shown: serde_json::Value =
        serde_json::from_str(&ok(&[&["show", "3-4-5", "--json"][..], &g].concat())).unwrap();
    assert_eq!(shown["turn"], serde_json::Value::Null);
    // At the terminal, the players are told apart by the plies played.
    let o = support::run::topitop_with_input(
        &[&["play", "--dir", d, "--computer", "none"][..], &g].concat(),
        b"1-2\n2-4\nquit\n",
    );
    let said = stdout(&o);
    for line in [
        "3-4-5 (first to move)",
        "1-4-5 (second to move)",
        "1-0-5 (first to move)",
    ] {
        assert!(said.contains(line), "{line}: {said}");
    }

    // Served: no turn, GamesmanUni's prefix 1, and the page's computer
    // answers the person's move, the sides told apart by the plies.
    let server = Server::start(&dir, "toy-nim", &[]);
    let p = get(server.addr, "/ui/position/nim/3-4-5?p=3-4-5").json();
    assert_eq!(p["turn"], serde_json::Value::Null);
    assert!(p["autoguiPosition"].as_str().unwrap().starts_with("1_"), "{p}");
    let Some(driver) = driver() else { return };
    let browser = Browser::start(&driver, &dir);
    browser.open(&format!("http://{}/ui/?game=nim&variant=3-4-5", server.addr));
    let start = query(d, &g, "3-4-5");
    shows(&browser, "3-4-5", &start);
    browser.click("#computer-1");
    let mv = &start["moves"][0];
    browser.click(&format!(
        "#board [data-move=\"{}\"] :is(.hit, circle.ring)",
        mv["move"].as_str().unwrap()
    ));
    let after = query(d, &g, mv["position"].as_str().unwrap());
    let answer = browser.wait_for(
        "the computer's answer",
        "const s = state.history; return s.length === 3 ? s[2] : null",
    );
    assert!(
        best_moves(&after).iter().any(|m| m["position"] == answer),
        "{answer} is not one of the best answers"
    );
    let status = browser.eval("return document.getElementById('status').textContent");
    // The game's own names: the first player moves again after two plies.
    assert!(status.as_str().unwrap().contains("first to move"), "{status}");
    // Perfect play from there names each mover by the plies too.
    browser.click("#computer-1");
    browser.click("#perfect");
    browser.wait_for(
        "the perfect line",
        "const t = document.getElementById('study-note').textContent; return t.startsWith('Perfect play') ? t : null",
    );
    let turns = browser.eval("return state.answers.map((a) => a && a.turn)");
    let turns: Vec<&str> = turns
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(turns.len() > 3, "{turns:?}");
    for (ply, turn) in turns.iter().enumerate() {
        assert_eq!(*turn, ["first", "second"][ply % 2], "ply {ply}: {turns:?}");
    }
    browser.assert_no_script_errors();
}
