//! A third game, tic-tac-toe, that lives only in the tests
//! (`games/tictactoe`) and is registered by the `toy` feature: solved,
//! stored, verified, queried, exported and counted through the same
//! commands and files as the real games, with no change to a shared crate.
//! Run with `cargo test -p topitop --features toy --test it -- toy::`.

use crate::support;

use support::http::get;
use support::run::{stderr, stdout, temp_dir, topitop};
use support::server::Server;

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
    assert!(stats.contains("reachable positions  5478 "), "{stats}");
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
    assert_eq!(variant["imageAutoGUIData"], serde_json::Value::Null);
    let body = get(server.addr, "/tictactoe/3x3/positions/?p=xx-/oo-/---").json();
    assert_eq!(body, q);
    assert_eq!(body["moves"][0]["autoguiMove"], "3");
    let r = get(server.addr, "/tictactoe/3x3/positions/?p=xxx/ooo/---");
    assert_eq!(r.status, 400);
}
