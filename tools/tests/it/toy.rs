//! A third game, tic-tac-toe, that lives only in the tests
//! (`games/tictactoe`) and is registered by the `toy` feature: solved,
//! stored, verified, queried, exported and counted through the same
//! commands and files as the real games, with no change to a shared crate.
//! Run with `cargo test -p topitop --features toy --test it -- toy::`.

use crate::support;

use support::http::get;
use support::page::{driver, query, shows};
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
        for check in ["legal", "position-text", "move-text", "game-over", "symmetry", "drawing"] {
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
    assert!(stderr(&o).contains("tictactoe takes no options of its own"), "{}", stderr(&o));
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
}
