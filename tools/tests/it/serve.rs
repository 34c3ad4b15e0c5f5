//! `topitop serve` over real HTTP on loopback: every route and every error,
//! answers checked against the engine and the database, concurrency,
//! timeouts and shutdown.

use crate::support;

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use games_topitop_rules::sample::{playout_positions, Rng};
use games_topitop_rules::{
    autogui_move, autogui_position, play_unchecked, Position, StateIndex, Value as GameValue,
};
use games_topitop_solved::Database;
use serde_json::{json, Value};
use support::http::{get, request, Client};
use support::server::Server;

/// Small enough to solve in seconds; Blue can still build two crowned
/// castles, Red one.
const BUDGET: &str = "2/1/2/2";

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("topitop-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Solves each of `rulesets` (e.g. `["--variant", "4"]`) into `dir`.
fn solve(dir: &Path, rulesets: &[&[&str]]) {
    for extra in rulesets {
        let o = Command::new(env!("CARGO_BIN_EXE_topitop"))
            .args(["solve", "--budget", BUDGET, "--out", dir.to_str().unwrap()])
            .args(*extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

/// A server on the databases of budget [`BUDGET`] in `dir`.
fn start(dir: &Path, name: &str, extra: &[&str]) -> Server {
    start_with_budget(dir, name, BUDGET, extra)
}

/// [`start`] for the databases of another piece budget.
fn start_with_budget(dir: &Path, name: &str, budget: &str, extra: &[&str]) -> Server {
    Server::start(dir, name, &[&["--budget", budget][..], extra].concat())
}

/// Variants 0 (regular) and 4 (misere) and v0, solved once for all tests.
fn shared() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-dbs");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        solve(&dir, &[&[], &["--variant", "4"], &["--rules", "v0"]]);
        dir
    })
}

/// The database file of a variant in `dir`.
fn db_file(dir: &Path, stem: &str) -> PathBuf {
    dir.join(format!("{stem}_{}.db", BUDGET.replace('/', "-")))
}

fn assert_cors(r: &support::http::Response) {
    assert_eq!(r.header("access-control-allow-origin"), Some("*"), "{r:?}");
}

#[test]
fn fixed_routes_answer_gamesman_unis_objects() {
    // Over 100 lines on purpose: every fixed route asked of one server, a case
    // after another.
    let dir = shared();
    let server = start(dir, "fixed", &[]);
    let a = server.addr;

    let r = get(a, "/");
    assert_eq!(r.status, 200);
    assert_cors(&r);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(
        r.json(),
        json!([
            {"id": "topitop", "name": "Topitop", "type": "twoPlayer", "gui": "v3"},
            {"id": "topolo", "name": "Topolo", "type": "twoPlayer", "gui": "v3"},
        ]),
        "Topitop's databases, and 8x8 Topolo answered by search beside them"
    );
    let topolo = get(a, "/topolo/").json();
    assert_eq!(
        topolo["variants"],
        json!([{"id": "8x8", "name": "8×8 (estimates)", "gui": "v3"}]),
        "{topolo}"
    );

    for path in ["/topitop/", "/topitop"] {
        let r = get(a, path);
        assert_eq!(r.status, 200, "{path}");
        let g = r.json();
        assert_eq!(g["id"], "topitop");
        assert_eq!(g["name"], "Topitop");
        assert_eq!(g["allowCustomVariantCreation"], false);
        assert_eq!(g["supportsWinBy"], false);
        assert_eq!(
            g["variants"],
            json!([
                {"id": "regular", "name": "Standard Topitop", "gui": "v3"},
                {"id": "misere", "name": "Misère", "gui": "v3"},
                {"id": "v0", "name": "Original Rules (2006)", "gui": "v3"},
            ]),
            "only the variants whose databases exist, in order"
        );
    }

    for variant in ["regular", "misere", "v0"] {
        for path in [format!("/topitop/{variant}/"), format!("/topitop/{variant}")] {
            let r = get(a, &path);
            assert_eq!(r.status, 200, "{path}");
            assert_cors(&r);
            let v = r.json();
            assert_eq!(v["id"], variant);
            assert_eq!(v["gui"], "v3");
            assert_eq!(v["startPosition"], "1_---------");
            assert_eq!(v["autoguiStartPosition"], format!("1_{}", "-".repeat(56)));
            let data = &v["imageAutoGUIData"];
            assert_eq!(data["defaultTheme"], "beach");
            let beach = &data["themes"]["beach"];
            assert_eq!(beach["space"], json!([3, 4]));
            assert_eq!(beach["background"], "topitop/grid.svg");
            assert_eq!(beach["arrowWidth"], 0.03);
            assert_eq!(beach["animationType"], "simpleSlides");
            assert_eq!(beach["defaultAnimationWindow"], json!([0, 54]));
            let centers = beach["centers"].as_array().unwrap();
            assert_eq!(centers.len(), 124);
            assert_eq!(centers[56], json!([0.77, 0.5]));
            assert_eq!(centers[57], json!([1.23, 0.5]));
            assert_eq!(centers[123], json!([1.5, 3.3]));
            assert_eq!(
                beach["charImages"]["B"],
                json!({"image": "topitop/B.svg", "scale": 1.0})
            );
            assert_eq!(
                beach["charImages"]["t"],
                json!({"image": "topitop/t.svg", "scale": 0.3})
            );
            assert_eq!(
                beach["charImages"]["P"],
                json!({"image": "othello/P.svg", "scale": 0.5})
            );
            assert_eq!(beach["sounds"]["z"], "general/slide.mp3");
            assert_eq!(beach["sounds"]["v"], "general/remove.mp3");
        }
    }

    let r = get(a, "/topitop/regular/instructions/?locale=en-US");
    assert_eq!(r.status, 200);
    assert_cors(&r);
    let standard = r.json()["instructions"].as_str().unwrap().to_string();
    assert!(standard.starts_with("# Topitop"), "{standard}");
    assert!(standard.contains("two crowned castles"));
    // Other locales, no locale and no trailing slash fall back to en-US.
    for path in [
        "/topitop/regular/instructions/?locale=de-DE",
        "/topitop/regular/instructions/",
        "/topitop/regular/instructions",
    ] {
        assert_eq!(get(a, path).json()["instructions"], standard.as_str(), "{path}");
    }
    let misere = get(a, "/topitop/misere/instructions/?locale=en-US").json();
    assert!(misere["instructions"].as_str().unwrap().contains("Misère"));
    let v0 = get(a, "/topitop/v0/instructions/?locale=en-US").json();
    assert!(v0["instructions"].as_str().unwrap().contains("No pass"));

    // HEAD: the headers of GET, no body.
    let mut c = Client::connect(a).unwrap();
    let head = c.send("HEAD", "/topitop/", "").unwrap();
    assert_eq!(head.status, 200);
    assert_eq!(
        head.header("content-length").unwrap(),
        get(a, "/topitop/").body.len().to_string()
    );
    // The same connection carries on (keep-alive).
    assert_eq!(c.get("/").unwrap().status, 200);

    // A CORS preflight is answered for any origin.
    let r = Client::connect(a)
        .unwrap()
        .send(
            "OPTIONS",
            "/topitop/regular/positions/?p=1_---------",
            "Origin: http://example.test\r\nAccess-Control-Request-Method: GET\r\n\
             Access-Control-Request-Headers: x-custom\r\n",
        )
        .unwrap();
    assert_eq!(r.status, 204);
    assert_cors(&r);
    assert!(r.header("access-control-allow-methods").unwrap().contains("GET"));
    assert_eq!(r.header("access-control-allow-headers"), Some("x-custom"));
}

/// GamesmanUni's rank of a move value, best first.
fn rank(v: &str) -> usize {
    ["win", "tie", "draw", "lose", "unsolved"]
        .iter()
        .position(|&x| x == v)
        .unwrap()
}

/// Checks a position response against the database and move generation.
fn check_position(db: &Database, pos: Position, body: &Value) {
    let rules = db.rules();
    let uni = |p: Position| {
        let rec = db.get(p).unwrap();
        match rec.value().unwrap() {
            // A game over without a winner (v0's side to move stuck) is
            // GamesmanUni's tie; a draw otherwise is endless play.
            GameValue::Draw if rules.primitive(p).is_some() => ("tie", 0),
            GameValue::Draw => ("draw", -200),
            v => (v.name(), i64::from(rec.remoteness())),
        }
    };
    let (value, rem) = uni(pos);
    assert_eq!(body["position"], pos.to_string());
    assert_eq!(body["autoguiPosition"], autogui_position(pos));
    assert_eq!(body["positionValue"], value, "{pos}");
    assert_eq!(body["remoteness"], rem, "{pos}");
    let moves = body["moves"].as_array().unwrap();
    let generated = rules.legal_moves(pos);
    assert_eq!(moves.len(), generated.len(), "{pos}");
    if moves.is_empty() {
        assert_eq!(rem, 0, "a terminal position has remoteness 0: {pos}");
    }
    let names: HashSet<String> = generated.iter().map(|m| m.to_string()).collect();
    let mut autogui = HashSet::new();
    for m in moves {
        let code = generated
            .iter()
            .find(|g| g.to_string() == m["move"].as_str().unwrap())
            .unwrap_or_else(|| panic!("{pos}: {m} is not a legal move"));
        let child = play_unchecked(pos, *code);
        assert!(names.contains(m["move"].as_str().unwrap()));
        assert!(autogui.insert(m["autoguiMove"].as_str().unwrap().to_string()));
        assert_eq!(m["autoguiMove"], autogui_move(*code));
        assert_eq!(m["position"], child.to_string());
        assert_eq!(m["autoguiPosition"], autogui_position(child));
        let (cv, cr) = uni(child);
        assert_eq!(m["positionValue"], cv, "{pos} {m}");
        assert_eq!(m["remoteness"], cr, "{pos} {m}");
        let mover = match cv {
            "win" => "lose",
            "lose" => "win",
            v => v,
        };
        assert_eq!(m["moveValue"], mover, "{pos} {m}");
    }
    // Delta remoteness from the best move of each class, as UWAPI defines it.
    let of = |mv: &'static str| moves.iter().filter(move |m| m["moveValue"] == mv);
    let rem = |m: &Value| m["remoteness"].as_i64().unwrap();
    for m in moves {
        let want = match m["moveValue"].as_str().unwrap() {
            "win" => rem(m) - of("win").map(rem).min().unwrap(),
            "lose" => of("lose").map(rem).max().unwrap() - rem(m),
            "tie" => rem(m) - of("tie").map(rem).min().unwrap(),
            _ => 0,
        };
        assert_eq!(m["deltaRemoteness"], want, "{pos} {m}");
    }
    let key = |m: &Value| {
        (
            rank(m["moveValue"].as_str().unwrap()),
            m["deltaRemoteness"].as_i64(),
        )
    };
    assert!(
        moves.windows(2).all(|w| key(&w[0]) <= key(&w[1])),
        "{pos}: not sorted best to worst: {moves:?}"
    );
    // The value follows from the best move, except that a draw (neither
    // side can force a win) may list first a move that ends the game at
    // once without a winner, which GamesmanUni ranks as a tie.
    if let Some(best) = moves.first() {
        if body["positionValue"] != "draw" || best["moveValue"] != "tie" {
            assert_eq!(body["positionValue"], best["moveValue"], "{pos}");
        }
    }
}

#[test]
fn positions_agree_with_the_engine_and_the_query_command() {
    let dir = shared();
    let server = start(dir, "positions", &[]);
    let a = server.addr;
    let mut seen_values = HashSet::new();
    for (variant, stem) in [
        ("regular", "topitop_v1_0"),
        ("misere", "topitop_v1_4"),
        ("v0", "topitop_v0_0"),
    ] {
        let file = db_file(dir, stem);
        let db = Database::open(&file).unwrap();
        let mut rng = Rng::new(11);
        let mut positions = playout_positions(db.rules(), 300, 30, &mut rng);
        positions.push(db.rules().start());
        let mut client = Client::connect(a).unwrap();
        for pos in positions {
            let r = client
                .get(&format!("/topitop/{variant}/positions/?p={pos}"))
                .unwrap();
            assert_eq!(
                r.status,
                200,
                "{variant} {pos}: {:?}",
                String::from_utf8_lossy(&r.body)
            );
            assert_cors(&r);
            let body = r.json();
            check_position(&db, pos, &body);
            seen_values.insert(body["positionValue"].as_str().unwrap().to_string());
        }
        // Byte for byte what `topitop query --json` prints, but for the
        // key `query` adds at the end.
        let o = Command::new(env!("CARGO_BIN_EXE_topitop"))
            .args(["query", "1_---------", "--json", "--db", file.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success());
        let served = client
            .get(&format!("/topitop/{variant}/positions?p=1_---------"))
            .unwrap();
        let served = String::from_utf8_lossy(&served.body);
        assert_eq!(
            format!(
                "{},\"reachable\":true}}",
                served.trim().strip_suffix('}').unwrap()
            ),
            String::from_utf8_lossy(&o.stdout).trim()
        );
    }
    assert!(
        seen_values.contains("win") && seen_values.contains("lose"),
        "{seen_values:?}"
    );
    // Percent-encoded positions are decoded.
    let plain = get(a, "/topitop/regular/positions/?p=1_---------").body;
    let encoded = get(
        a,
        "/topitop/regular/positions/?p=1%5F%2D%2D%2D%2D%2D%2D%2D%2D%2D&x=1",
    )
    .body;
    assert_eq!(plain, encoded);
    // A terminal position: the game is over.
    let over = get(a, "/topitop/regular/positions/?p=2_P--P-----").json();
    assert_eq!(over["positionValue"], "lose");
    assert_eq!(over["remoteness"], 0);
    assert_eq!(over["moves"], json!([]));
    let over = get(a, "/topitop/misere/positions/?p=2_P--P-----").json();
    assert_eq!(over["positionValue"], "win", "misère");
}

/// Blue alone has buckets, so Red often has no move: v0's terminal draws.
const STUCK_BUDGET: &str = "2/0/1/2";

#[test]
fn a_v0_game_ended_without_a_move_is_served_as_a_tie() {
    let dir = temp_dir("stuck");
    let o = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args([
            "solve",
            "--rules",
            "v0",
            "--budget",
            STUCK_BUDGET,
            "--out",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let server = start_with_budget(&dir, "stuck", STUCK_BUDGET, &[]);
    let a = server.addr;
    // v0 ends the game when the side to move has no move, with no winner.
    // The database stores that as a draw; GamesmanUni knows a draw only as
    // endless play and would announce a loss at a position without moves,
    // so the server names it GamesmanClassic's finite no-winner result: a
    // tie, remoteness 0 (see docs/serve.md, "A game over without a winner"). `query` keeps the stored draw.
    let file = dir.join(format!("topitop_v0_0_{}.db", STUCK_BUDGET.replace('/', "-")));
    let db = Database::open(&file).unwrap();
    let rules = db.rules();
    let states = StateIndex::new(rules.budget());
    let stuck = states
        .walk(0, states.len())
        .find(|&p| rules.primitive(p) == Some(GameValue::Draw) && db.get(p).is_ok())
        .expect("a v0 position without a move");
    assert_eq!(db.get(stuck).unwrap().value(), Some(GameValue::Draw));
    let over = get(a, &format!("/topitop/v0/positions/?p={stuck}")).json();
    assert_eq!(
        (&over["positionValue"], &over["remoteness"]),
        (&json!("tie"), &json!(0)),
        "{stuck}"
    );
    assert_eq!(over["moves"], json!([]));
    let o = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args([
            "query",
            &stuck.to_string(),
            "--json",
            "--db",
            file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let queried: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (&queried["positionValue"], &queried["remoteness"]),
        (&json!("draw"), &json!(-200)),
        "query prints the stored value"
    );
    let mut parents = Vec::new();
    rules.parents(stuck, &mut parents);
    let parent = *parents.first().expect("a stuck position has a parent");
    let body = get(a, &format!("/topitop/v0/positions/?p={parent}")).json();
    check_position(&db, parent, &body);
    let into = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["position"] == stuck.to_string());
    let into = into.unwrap_or_else(|| panic!("{parent} has no move to {stuck}: {body}"));
    assert_eq!(
        (&into["positionValue"], &into["remoteness"], &into["moveValue"]),
        (&json!("tie"), &json!(0), &json!("tie"))
    );
}

#[test]
fn every_bad_request_gets_an_error_object() {
    // Over 100 lines on purpose: a table of bad requests, each with the answer
    // it must get from one server.
    let server = start(shared(), "errors", &[]);
    let a = server.addr;
    let long = format!("/topitop/regular/positions/?p={}", "-".repeat(3000));
    let cases: &[(&str, &str, u16, &str)] = &[
        ("GET", "/chess/", 404, "Invalid Game"),
        ("GET", "/chess", 404, "Invalid Game"),
        (
            "GET",
            "/chess/regular/positions/?p=1_---------",
            404,
            "Invalid Game",
        ),
        ("GET", "/topitop/tying-rule/", 404, "Invalid Variant"),
        (
            "GET",
            "/topitop/nonsense/positions/?p=1_---------",
            404,
            "Invalid Variant",
        ),
        (
            "GET",
            "/topitop/nonsense/instructions/",
            404,
            "serves regular, misere, v0",
        ),
        (
            "GET",
            "/topitop/regular/positions/",
            400,
            "missing query parameter p",
        ),
        ("GET", "/topitop/regular/positions/?q=1_---------", 400, "missing"),
        ("GET", "/topitop/regular/positions/?p=", 400, "has 0 characters"),
        (
            "GET",
            "/topitop/regular/positions/?p=1_---Z-----",
            400,
            "cell 4 is 'Z'",
        ),
        (
            "GET",
            "/topitop/regular/positions/?p=3_---------",
            400,
            "side to move",
        ),
        (
            "GET",
            "/topitop/regular/positions/?p=1_BBB------",
            400,
            "3 blue buckets",
        ),
        (
            "GET",
            "/topitop/regular/positions/?p=1_LLL------",
            400,
            "3 large piles",
        ),
        (
            "GET",
            "/topitop/regular/positions/?p=1_RR-------",
            400,
            "2 red buckets on the board, but only 1",
        ),
        (
            "GET",
            "/topitop/regular/positions/?p=1_LS-------12",
            400,
            "could not have happened",
        ),
        (
            "GET",
            "/topitop/regular/positions/?p=1_---------19",
            400,
            "neighbouring cells",
        ),
        (
            "GET",
            "/topitop/regular/positions/?p=1_PP-------",
            400,
            "already has two castles",
        ),
        (
            "GET",
            "/topitop/regular/positions/?p=%FF%FE%00",
            400,
            "Invalid Position",
        ),
        (
            "GET",
            "/topitop/regular/positions/?p=1_%E2%80%94--------",
            400,
            "Invalid Position",
        ),
        ("GET", "/topitop/regular/bogus/", 404, "no route"),
        ("GET", "/topitop/regular/positions/extra", 404, "no route"),
        ("GET", "/robots.txt", 404, "Invalid Game"),
        ("GET", "//", 404, "no route"),
        ("GET", "/topitop//", 404, "no route"),
        ("POST", "/", 405, "not allowed"),
        ("DELETE", "/topitop/regular/", 405, "not allowed"),
        ("GET", &long, 414, "longer than"),
    ];
    for &(method, target, status, needle) in cases {
        let r = request(a, method, target);
        assert_eq!(r.status, status, "{method} {target}: {r:?}");
        assert_cors(&r);
        let body = r.json();
        let error = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {target}: {body}"));
        assert!(error.contains(needle), "{method} {target}: {error}");
        if method == "POST" {
            assert_eq!(r.header("allow"), Some("GET, HEAD, OPTIONS"));
        }
    }
    // Garbage and oversized requests get HTTP errors and the server lives on.
    for raw in [
        b"NOT HTTP AT ALL\r\n\r\n".to_vec(),
        format!("GET / HTTP/1.1\r\nX-Big: {}\r\n\r\n", "a".repeat(64 * 1024)).into_bytes(),
        b"GET / HTTP/1.1\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello".to_vec(),
        vec![0xff; 1000],
    ] {
        let mut s = TcpStream::connect(a).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let _ = s.write_all(&raw);
        let mut reply = Vec::new();
        let _ = s.read_to_end(&mut reply);
        let text = String::from_utf8_lossy(&reply);
        assert!(text.starts_with("HTTP/1.1 "), "{text}");
    }
    assert_eq!(get(a, "/").status, 200);
    // The log is written a few milliseconds behind.
    wait_for_log(&server, "status=404", 1);
}

#[test]
fn startup_without_databases_says_how_to_make_them_and_serves_toppo() {
    let dir = temp_dir("empty");
    let server = support::server::Server::start(&dir, "empty", &[]);
    let err = server.log();
    assert!(
        err.contains("no database to serve") && err.contains("topitop solve"),
        "{err}"
    );
    assert!(err.contains("topitop_v1_0.db"), "{err}");
    assert!(err.contains("(topolo") && err.contains("--game NAME"), "{err}");
    // What needs no database is served, and said: the boards answered by
    // search (the log once said 8x8 Topolo was served, and /topolo/ said
    // "this server has " and nothing) and Toppo's page.
    assert!(
        err.contains("serving topolo/8x8 (answered by search) and the tools' pages alone"),
        "{err}"
    );
    let list = get(server.addr, "/").json();
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["id"], "topolo", "{list}");
    let topolo = get(server.addr, "/topolo/");
    assert_eq!(topolo.status, 200);
    assert!(String::from_utf8_lossy(&topolo.body).contains("8x8"));
    assert!(get(server.addr, "/nosuch/").json()["error"]
        .as_str()
        .is_some_and(|e| e.ends_with("this server has \"topolo\"")));
    let page = get(server.addr, "/ui/toppo/");
    assert_eq!(page.status, 200);
    assert!(String::from_utf8_lossy(&page.body).contains("Toppo"));
    let tools = get(server.addr, "/ui/tools").json();
    assert_eq!(tools[0]["url"], "/ui/toppo/", "{tools}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn many_clients_at_once_each_request_logged() {
    let dir = shared();
    let server = start(dir, "concurrent", &[]);
    let a = server.addr;
    let db = Database::open(db_file(dir, "topitop_v1_0")).unwrap();
    let positions = playout_positions(db.rules(), 400, 25, &mut Rng::new(5));
    let expected: Vec<Vec<u8>> = positions
        .iter()
        .map(|p| get(a, &format!("/topitop/regular/positions/?p={p}")).body)
        .collect();
    let (threads, rounds) = (8, 3);
    std::thread::scope(|s| {
        for t in 0..threads {
            let (positions, expected) = (&positions, &expected);
            s.spawn(move || {
                let mut c = Client::connect(a).unwrap();
                for i in 0..rounds * positions.len() {
                    let k = (i * 7 + t * 13) % positions.len();
                    let r = c
                        .get(&format!("/topitop/regular/positions/?p={}", positions[k]))
                        .unwrap();
                    assert_eq!(r.status, 200);
                    assert!(
                        r.body == expected[k],
                        "thread {t}: answer for {} changed",
                        positions[k]
                    );
                }
            });
        }
    });
    let total = positions.len() * (1 + threads * rounds);
    wait_for_log(&server, " access: ", total);
    let log = server.log();
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("access")).collect();
    assert_eq!(lines.len(), total, "one access line per request");
    let line = lines[0];
    for field in [
        "method=GET",
        "uri=/topitop/regular/positions/?p=",
        "status=200",
        "bytes=",
        "micros=",
        "peer=127.0.0.1:",
    ] {
        assert!(line.contains(field) && line.contains("INFO"), "{field}: {line}");
    }
}

#[test]
fn slow_and_idle_clients_are_cut_off() {
    let server = start(shared(), "slow", &["--idle-timeout", "1"]);
    let a = server.addr;
    // A request head that never finishes, and a connection that never asks.
    let mut slow = TcpStream::connect(a).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    let idle = TcpStream::connect(a).unwrap();
    let mut kept = Client::connect(a).unwrap();
    assert_eq!(kept.get("/").unwrap().status, 200);
    // Meanwhile the server answers others.
    for _ in 0..20 {
        assert_eq!(get(a, "/topitop/").status, 200);
    }
    let start = Instant::now();
    for mut s in [slow, idle] {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut buf = Vec::new();
        // The server closes the connection (possibly after a 408).
        let _ = s.read_to_end(&mut buf);
        assert!(
            buf.is_empty() || String::from_utf8_lossy(&buf).starts_with("HTTP/1.1 408"),
            "{buf:?}"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    std::thread::sleep(Duration::from_millis(1500));
    assert!(kept.get("/").is_err(), "an idle keep-alive connection is closed");
}

#[test]
fn sigterm_and_sigint_stop_the_server_cleanly() {
    for signal in ["TERM", "INT"] {
        let mut server = start(shared(), signal, &[]);
        let mut open = Client::connect(server.addr).unwrap();
        assert_eq!(
            open.get("/topitop/regular/positions/?p=1_---------")
                .unwrap()
                .status,
            200
        );
        server.signal(signal);
        let status = server.wait(Duration::from_secs(10)).expect("the server exits");
        assert!(status.success(), "SIG{signal}: {status:?}");
        let log = server.log();
        assert!(log.contains(&format!("SIG{signal} received")), "{log}");
        assert!(log.contains("shutting down") && log.contains("stopped"), "{log}");
        assert!(open.get("/").is_err(), "connections are closed");
        assert!(TcpStream::connect(server.addr).is_err(), "the port is released");
    }
}

#[test]
fn a_corrupt_database_block_is_a_server_error_not_a_crash() {
    let dir = temp_dir("corrupt");
    let name = db_file(Path::new(""), "topitop_v1_0");
    let mut bytes = std::fs::read(shared().join(&name)).unwrap();
    // Damage the data area (blocks are checked when first read), not the
    // header or the block table (checked at startup).
    let len = bytes.len();
    for i in (len / 4..len / 2).step_by(61) {
        bytes[i] ^= 0x5a;
    }
    std::fs::write(dir.join(&name), &bytes).unwrap();
    let server = start(&dir, "serve", &[]);
    let db = Database::open(shared().join(&name)).unwrap();
    let positions = playout_positions(db.rules(), 200, 30, &mut Rng::new(3));
    let mut client = Client::connect(server.addr).unwrap();
    let mut failed = 0;
    for p in &positions {
        let r = client.get(&format!("/topitop/regular/positions/?p={p}")).unwrap();
        assert!(r.status == 200 || r.status == 500, "{p}: {r:?}");
        if r.status == 500 {
            failed += 1;
            assert_cors(&r);
            let error = r.json()["error"].as_str().unwrap().to_string();
            assert!(error.starts_with("database error"), "{error}");
            assert!(!error.contains(dir.to_str().unwrap()), "no server paths: {error}");
        } else {
            check_position(&db, *p, &r.json());
        }
    }
    assert!(failed > 0, "some position lies in a damaged block");
    assert_eq!(
        client.get("/topitop/").unwrap().status,
        200,
        "the server carries on"
    );
    wait_for_log(&server, "database read failed", 1);
    let log = server.log();
    assert!(
        log.contains("ERROR") && log.contains("database read failed"),
        "{log}"
    );
    assert!(
        log.contains("checksum mismatch") || log.contains("corrupt"),
        "{log}"
    );
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

/// Sends `raw` on a fresh connection (from another thread, so that a
/// request the server stops reading cannot block the test) and reads one
/// response.
fn raw_exchange(a: SocketAddr, raw: Vec<u8>) -> support::http::Response {
    let stream = TcpStream::connect(a).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        // The server may close once it has answered: a failed write is fine.
        let _ = writer.write_all(&raw);
    });
    let mut reader = BufReader::new(stream);
    let r = support::http::read_response(&mut reader, false).unwrap_or_else(|e| panic!("no response: {e}"));
    sender.join().unwrap();
    r
}

#[test]
fn http_layer_errors_are_json_objects_with_cors() {
    let server = start(shared(), "http-errors", &[]);
    let a = server.addr;
    let long = |n: usize| {
        format!(
            "GET /topitop/regular/positions/?p={} HTTP/1.1\r\nHost: x\r\n\r\n",
            "-".repeat(n)
        )
    };
    let many_headers: String = (0..120).map(|i| format!("X-H{i}: {i}\r\n")).collect();
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        (b"NOT HTTP AT ALL\r\n\r\n".to_vec(), 400, "malformed"),
        (vec![0xff; 1000], 400, "malformed"),
        (
            b"GET / HTTP/1.1\r\nBad Header Line\r\n\r\n".to_vec(),
            400,
            "malformed",
        ),
        (
            b"GET / HTTP/1.1\r\nContent-Length: abc\r\n\r\n".to_vec(),
            400,
            "Content-Length",
        ),
        (
            b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n".to_vec(),
            400,
            "Content-Length",
        ),
        (
            b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
            400,
            "Transfer-Encoding",
        ),
        (
            format!("GET / HTTP/1.1\r\nX-Big: {}\r\n\r\n", "a".repeat(64 * 1024)).into_bytes(),
            431,
            "header",
        ),
        (
            format!("GET / HTTP/1.1\r\n{many_headers}\r\n").into_bytes(),
            431,
            "header",
        ),
        // A request target over 2 KB is refused at any length.
        (long(2100).into_bytes(), 414, "longer than"),
        (long(3000).into_bytes(), 414, "longer than"),
        (long(17 * 1024).into_bytes(), 414, "longer than"),
        (long(70 * 1024).into_bytes(), 414, "longer than"),
        (long(1 << 20).into_bytes(), 414, "longer than"),
    ];
    for (raw, status, needle) in cases {
        let shown = String::from_utf8_lossy(&raw[..raw.len().min(60)]).into_owned();
        let r = raw_exchange(a, raw);
        assert_eq!(r.status, status, "{shown:?}: {r:?}");
        assert_cors(&r);
        assert_eq!(r.header("content-type"), Some("application/json"), "{shown:?}");
        let body = r.json();
        let error = body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{shown:?}: {body}"));
        assert!(error.contains(needle), "{shown:?}: {error}");
    }
    // A bad request after a good one on the same connection: the good one
    // is answered, then the bad one gets its error object.
    let stream = TcpStream::connect(a).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    (&stream)
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nNo Colon\r\n\r\n")
        .unwrap();
    let mut reader = BufReader::new(stream);
    let first = support::http::read_response(&mut reader, false).unwrap();
    assert_eq!(first.status, 200);
    let second = support::http::read_response(&mut reader, false).unwrap();
    assert_eq!(second.status, 400, "{second:?}");
    assert_cors(&second);
    assert!(second.json()["error"].is_string());
    assert_eq!(get(a, "/").status, 200, "the server lives on");
    // HTTP-layer errors are logged too.
    wait_for_log(&server, "status=431", 1);
}

#[test]
fn an_unread_standard_error_never_blocks_answers() {
    // Standard error is a pipe that nobody reads: once its buffer is full,
    // a logger writing to it directly would stop the server.
    let dir = shared();
    let mut child = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_topitop"))
            .args(["serve", "--dir", dir.to_str().unwrap(), "--budget", BUDGET])
            .args(["--bind", "127.0.0.1:0", "--threads", "2"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let child = &mut child.0;
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let a: SocketAddr = line
        .trim()
        .strip_prefix("open http://")
        .and_then(|a| a.split_once("/ui/"))
        .map(|(a, _)| a)
        .unwrap()
        .parse()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let start = Instant::now();
    std::thread::scope(|s| {
        // More lines than the pipe and the log queue hold together.
        for t in 0..3 {
            s.spawn(move || {
                let mut c = Client::connect(a).unwrap();
                for i in 0..4000 {
                    let r = c
                        .get(&format!("/topitop/regular/positions/?p=1_---------&n={t}-{i}"))
                        .unwrap_or_else(|e| panic!("request {i} of client {t}: {e}"));
                    assert_eq!(r.status, 200);
                }
            });
        }
    });
    for i in 0..200 {
        assert_eq!(get(a, &format!("/?fresh={i}")).status, 200);
    }
    assert!(start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
    // Stop the server, then read what it could log: the dropped lines are
    // counted there.
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let mut log = String::new();
    BufReader::new(stderr).read_to_string(&mut log).unwrap();
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    assert!(log.contains("log lines dropped"), "{}", tail(&log));
}

/// A child process killed when dropped (a failing test leaves none).
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `regular` healthy, `misere` cut short, `v0` holding the wrong rules.
fn damaged_dir(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let regular = db_file(Path::new(""), "topitop_v1_0");
    std::fs::copy(shared().join(&regular), dir.join(&regular)).unwrap();
    let misere = std::fs::read(db_file(shared(), "topitop_v1_4")).unwrap();
    std::fs::write(db_file(&dir, "topitop_v1_4"), &misere[..misere.len() / 2]).unwrap();
    std::fs::copy(shared().join(&regular), db_file(&dir, "topitop_v0_0")).unwrap();
    dir
}

#[test]
fn a_damaged_database_is_left_out_and_the_others_served() {
    let dir = damaged_dir("damaged");
    let server = start(&dir, "serve", &[]);
    let a = server.addr;
    assert_eq!(
        get(a, "/topitop/").json()["variants"],
        json!([{"id": "regular", "name": "Standard Topitop", "gui": "v3"}])
    );
    assert_eq!(get(a, "/topitop/regular/positions/?p=1_---------").status, 200);
    for variant in ["misere", "v0"] {
        let r = get(a, &format!("/topitop/{variant}/"));
        assert_eq!(r.status, 404, "{variant}");
    }
    wait_for_log(&server, "variant left out", 2);
    let log = server.log();
    let damaged: Vec<&str> = log.lines().filter(|l| l.contains("ERROR")).collect();
    assert!(
        damaged
            .iter()
            .any(|l| l.contains("misere") && l.contains("topitop_v1_4")),
        "{log}"
    );
    assert!(
        damaged
            .iter()
            .any(|l| l.contains("v0") && l.contains("holds the rules v1/0")),
        "{log}"
    );
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn with_only_damaged_databases_serve_refuses_to_start() {
    let dir = damaged_dir("all-damaged");
    std::fs::remove_file(db_file(&dir, "topitop_v1_0")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(["serve", "--dir", dir.to_str().unwrap(), "--budget", BUDGET])
        .args(["--bind", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no healthy database"), "{err}");
    assert!(
        err.contains("topitop_v1_4") && err.contains("topitop_v0_0"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Whether the server has closed `s` cleanly (a peek sees the end of the
/// stream); an error if it was reset.
fn closed_by_server(s: &TcpStream) -> std::io::Result<bool> {
    s.set_nonblocking(true)?;
    let peeked = s.peek(&mut [0u8; 1]);
    s.set_nonblocking(false)?;
    match peeked {
        Ok(n) => Ok(n == 0),
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(false),
        Err(e) => Err(e),
    }
}

/// What one keep-alive client saw during a shutdown.
#[derive(Debug, Default)]
struct Outcome {
    answered: usize,
    /// The last response said `Connection: close`.
    told_to_close: bool,
    /// The server closed the connection before the client sent more.
    closed_before_sending: bool,
    failure: Option<String>,
}

/// Sends requests back to back until the server ends the connection
/// cleanly; a request sent and not answered is a failure.
fn keep_asking(a: SocketAddr, targets: &[String]) -> Outcome {
    let mut out = Outcome::default();
    let stream = TcpStream::connect(a).unwrap();
    stream.set_nodelay(true).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    for target in targets.iter().cycle() {
        match closed_by_server(&stream) {
            Ok(false) => {}
            Ok(true) => {
                out.closed_before_sending = true;
                return out;
            }
            Err(e) => {
                out.failure = Some(format!("reset after {} answers: {e}", out.answered));
                return out;
            }
        }
        let req = format!("GET {target} HTTP/1.1\r\nHost: x\r\n\r\n");
        if let Err(e) = (&stream).write_all(req.as_bytes()) {
            out.failure = Some(format!("request {} not sent: {e}", out.answered));
            return out;
        }
        match support::http::read_response(&mut reader, false) {
            Ok(r) if r.status == 200 && r.body.starts_with(b"{\"position\"") => {
                out.answered += 1;
                if r.header("connection") == Some("close") {
                    out.told_to_close = true;
                    let mut rest = Vec::new();
                    if reader.read_to_end(&mut rest).is_err() || !rest.is_empty() {
                        out.failure = Some(format!("bytes or an error after close: {rest:?}"));
                    }
                    return out;
                }
            }
            other => {
                out.failure = Some(format!("request {} sent, answer {other:?}", out.answered));
                return out;
            }
        }
    }
    unreachable!()
}

#[test]
fn sigterm_under_keep_alive_load_answers_every_request_sent() {
    let dir = shared();
    let db = Database::open(db_file(dir, "topitop_v1_0")).unwrap();
    let targets: Vec<String> = playout_positions(db.rules(), 200, 25, &mut Rng::new(9))
        .iter()
        .map(|p| format!("/topitop/regular/positions/?p={p}"))
        .collect();
    for round in 0..3 {
        let mut server = start(dir, &format!("term-load-{round}"), &[]);
        let a = server.addr;
        // An idle keep-alive connection, quiet for longer than the last call.
        let mut idle = Client::connect(a).unwrap();
        assert_eq!(idle.get("/").unwrap().status, 200);
        // A request head half sent when the signal comes.
        let mut half = TcpStream::connect(a).unwrap();
        half.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        half.write_all(b"GET /topitop/ HTTP/1.1\r\nHost: x\r\n").unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        let outcomes = std::thread::scope(|s| {
            let clients: Vec<_> = (0..6).map(|_| s.spawn(|| keep_asking(a, &targets))).collect();
            std::thread::sleep(Duration::from_millis(300));
            server.signal("TERM");
            std::thread::sleep(Duration::from_millis(100));
            half.write_all(b"\r\n").unwrap();
            clients.into_iter().map(|c| c.join().unwrap()).collect::<Vec<_>>()
        });
        for (i, o) in outcomes.iter().enumerate() {
            assert!(o.failure.is_none(), "round {round}, client {i}: {o:?}");
            assert!(o.answered > 0, "round {round}, client {i}: {o:?}");
            assert!(o.told_to_close || o.closed_before_sending, "{o:?}");
        }
        let r = support::http::read_response(&mut BufReader::new(&half), false)
            .expect("the request completed after the signal is answered");
        assert_eq!(r.status, 200);
        assert_eq!(r.header("connection"), Some("close"));
        let mut rest = Vec::new();
        assert!(idle.get("/").is_err(), "the idle connection is closed");
        let _ = half.read_to_end(&mut rest);
        assert!(rest.is_empty());
        let status = server.wait(Duration::from_secs(15)).expect("the server exits");
        assert!(status.success(), "{status:?}");
    }
}

/// The last lines of `log`, for a failure message.
fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().rev().take(20).collect();
    lines.into_iter().rev().collect::<Vec<_>>().join("\n")
}

/// Reads the server's log until `needle` has appeared `count` times.
fn wait_for_log(server: &Server, needle: &str, count: usize) {
    let start = Instant::now();
    while server.log().matches(needle).count() < count {
        let log = server.log();
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no {needle:?} ({count}) in the log, which ends: {}",
            tail(&log)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sets its flag when dropped, so that a failing test stops its helpers.
struct StopOnDrop<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Asks for positions of `regular` from another thread until `stop`,
/// checking every answer against `db`.
fn hammer<'s>(
    s: &'s std::thread::Scope<'s, '_>,
    a: SocketAddr,
    db: &'s Database,
    stop: &'s std::sync::atomic::AtomicBool,
) -> std::thread::ScopedJoinHandle<'s, usize> {
    s.spawn(move || {
        let positions = playout_positions(db.rules(), 100, 25, &mut Rng::new(17));
        let mut done = 0;
        let mut c = Client::connect(a).unwrap();
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            let p = positions[done % positions.len()];
            let r = c.get(&format!("/topitop/regular/positions/?p={p}")).unwrap();
            assert_eq!(r.status, 200, "{p}");
            check_position(db, p, &r.json());
            done += 1;
        }
        done
    })
}

#[test]
fn a_database_renamed_over_is_reloaded() {
    let dir = damaged_dir("rename");
    let regular = db_file(&dir, "topitop_v1_0");
    let db = Database::open(&regular).unwrap();
    let mut server = start(&dir, "serve", &[]);
    let a = server.addr;
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        let load = hammer(s, a, &db, &stop);
        let _stop = StopOnDrop(&stop);
        // A new copy renamed over the served file: reloaded.
        let tmp = dir.join("new.tmp");
        std::fs::copy(&regular, &tmp).unwrap();
        std::fs::rename(&tmp, &regular).unwrap();
        wait_for_log(&server, "reloaded", 1);
        // A file of other rules renamed over it: refused, the old one kept.
        std::fs::copy(db_file(shared(), "topitop_v1_4"), &tmp).unwrap();
        std::fs::rename(&tmp, &regular).unwrap();
        wait_for_log(&server, "still serving the previous", 1);
        // The damaged misère database, repaired by a rename: served from now.
        std::fs::copy(db_file(shared(), "topitop_v1_4"), &tmp).unwrap();
        std::fs::rename(&tmp, db_file(&dir, "topitop_v1_4")).unwrap();
        wait_for_log(&server, "now serving", 1);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(load.join().unwrap() > 0);
    });
    let ids: Vec<String> = get(a, "/topitop/").json()["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["regular", "misere"]);
    let misere = get(a, "/topitop/misere/positions/?p=2_P--P-----");
    assert_eq!(misere.json()["positionValue"], "win");
    assert!(server.child.try_wait().unwrap().is_none(), "still running");
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_database_overwritten_in_place_even_truncated_never_stops_the_server() {
    let dir = temp_dir("overwrite");
    let name = db_file(Path::new(""), "topitop_v1_0");
    let good = std::fs::read(shared().join(&name)).unwrap();
    let file = dir.join(&name);
    std::fs::write(&file, &good).unwrap();
    let db = Database::open(&file).unwrap();
    let mut server = start(&dir, "serve", &[]);
    let a = server.addr;
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        let load = hammer(s, a, &db, &stop);
        let _stop = StopOnDrop(&stop);
        // Truncated to nothing in place (`cp` starts so): refused.
        std::fs::File::create(&file).unwrap();
        wait_for_log(&server, "still serving the previous", 1);
        // Half written: refused again.
        std::fs::write(&file, &good[..good.len() / 2]).unwrap();
        wait_for_log(&server, "still serving the previous", 2);
        // Complete, the same inode throughout: reloaded.
        let mut f = std::fs::OpenOptions::new().append(true).open(&file).unwrap();
        f.write_all(&good[good.len() / 2..]).unwrap();
        drop(f);
        wait_for_log(&server, "reloaded", 1);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(load.join().unwrap() > 0);
    });
    assert!(server.child.try_wait().unwrap().is_none(), "still running");
    assert_eq!(get(a, "/topitop/regular/positions/?p=1_---------").status, 200);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_fifo_or_a_device_in_place_of_a_database_never_stops_reloading() {
    let dir = temp_dir("fifo-reload");
    let regular = db_file(&dir, "topitop_v1_0");
    std::fs::copy(db_file(shared(), "topitop_v1_0"), &regular).unwrap();
    let server = start(&dir, "serve", &[]);
    let a = server.addr;
    // A FIFO where the served file was: refused at once, the copy in
    // memory still served (before, one worker blocked on it for good).
    std::fs::remove_file(&regular).unwrap();
    assert!(Command::new("mkfifo").arg(&regular).status().unwrap().success());
    wait_for_log(&server, "not a regular file", 1);
    // A symbolic link to /dev/zero for another variant: refused, unread.
    std::os::unix::fs::symlink("/dev/zero", db_file(&dir, "topitop_v0_0")).unwrap();
    wait_for_log(&server, "not a regular file", 2);
    // Reloading goes on: a new variant's file is picked up, and so is a
    // valid file in place of the FIFO.
    std::fs::copy(db_file(shared(), "topitop_v1_4"), db_file(&dir, "topitop_v1_4")).unwrap();
    wait_for_log(&server, "now serving", 1);
    std::fs::remove_file(&regular).unwrap();
    std::fs::copy(db_file(shared(), "topitop_v1_0"), &regular).unwrap();
    wait_for_log(&server, "reloaded", 1);
    assert_eq!(get(a, "/topitop/regular/positions/?p=1_---------").status, 200);
    assert_eq!(get(a, "/topitop/misere/positions/?p=1_---------").status, 200);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
}

/// Solves the game `args` select (e.g. `["--game", "topolo", "--board",
/// "2x3"]`) into `dir`.
fn solve_game(dir: &Path, args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(["solve", "--out", dir.to_str().unwrap()])
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The ids of the variants `/<game>/` lists.
fn variant_ids(a: SocketAddr, game: &str) -> Vec<String> {
    get(a, &format!("/{game}/")).json()["variants"]
        .as_array()
        .map(|vs| vs.iter().map(|v| v["id"].as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn every_games_files_are_picked_up_and_reloaded_as_topitops_are() {
    let staging = temp_dir("other-games-solved");
    solve_game(&staging, &["--game", "topolo", "--board", "2x3"]);
    solve_game(
        &staging,
        &["--game", "topolo", "--board", "2x3", "--variant", "size-only"],
    );
    solve_game(
        &staging,
        &["--game", "topple", "--board", "3x3", "--variant", "s5"],
    );
    let dir = temp_dir("other-games");
    std::fs::copy(db_file(shared(), "topitop_v1_0"), db_file(&dir, "topitop_v1_0")).unwrap();
    let server = start(&dir, "serve", &[]);
    let a = server.addr;
    // Topolo's 8×8 is answered by search; no database of it yet.
    assert_eq!(variant_ids(a, "topolo"), ["8x8"]);
    assert_eq!(get(a, "/topple/").status, 404);
    // A Topolo database written after start, as `solve` writes one (a new
    // file renamed into place): picked up, in file-name order before the
    // boards answered by search.
    let topolo = dir.join("topolo_2x3.db");
    let tmp = dir.join("new.tmp");
    std::fs::copy(staging.join("topolo_2x3.db"), &tmp).unwrap();
    std::fs::rename(&tmp, &topolo).unwrap();
    wait_for_log(&server, "now serving", 1);
    assert_eq!(variant_ids(a, "topolo"), ["2x3", "8x8"]);
    let start_position = get(a, "/topolo/2x3/").json()["startPosition"].clone();
    let p = start_position.as_str().unwrap();
    let first = get(a, &format!("/topolo/2x3/positions/?p={p}"));
    assert_eq!(first.status, 200);
    assert!(!first.json()["moves"].as_array().unwrap().is_empty());
    // Another variant's file renamed over it: refused, the one in memory
    // kept and still answering.
    std::fs::copy(staging.join("topolo_2x3_size-only.db"), &tmp).unwrap();
    std::fs::rename(&tmp, &topolo).unwrap();
    wait_for_log(&server, "still serving the previous", 1);
    assert_eq!(
        get(a, &format!("/topolo/2x3/positions/?p={p}")).json(),
        first.json()
    );
    // A valid database renamed over it: reloaded.
    std::fs::copy(staging.join("topolo_2x3.db"), &tmp).unwrap();
    std::fs::rename(&tmp, &topolo).unwrap();
    wait_for_log(&server, "reloaded", 1);
    assert_eq!(
        get(a, &format!("/topolo/2x3/positions/?p={p}")).json(),
        first.json()
    );
    // A Topple database copied in place: the game appears in the list.
    std::fs::copy(staging.join("topple_3x3-s5.db"), dir.join("topple_3x3-s5.db")).unwrap();
    wait_for_log(&server, "now serving", 2);
    assert_eq!(variant_ids(a, "topple"), ["3x3-s5"]);
    let games: Vec<Value> = get(a, "/").json().as_array().unwrap().clone();
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["topitop", "topolo", "topple"]);
    // Deleted: still answered from memory.
    std::fs::remove_file(&topolo).unwrap();
    wait_for_log(&server, "database file gone", 1);
    assert_eq!(get(a, &format!("/topolo/2x3/positions/?p={p}")).status, 200);
    drop(server);
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&staging).ok();
}

#[test]
fn a_search_does_not_hold_up_lookups() {
    // One worker thread: were the 8x8 search run on it, the lookup behind
    // it would wait the search's second and a half.
    let server = start(shared(), "slow", &["--threads", "1"]);
    let a = server.addr;
    let start = "......../......../......../......../......../......../......../........";
    let searching = std::thread::spawn(move || {
        let r = get(a, &format!("/topolo/8x8/positions/?p={start}"));
        (r, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(200));
    let r = get(a, "/topitop/regular/positions/?p=1_---------");
    let looked_up = Instant::now();
    assert_eq!(r.status, 200);
    let (est, searched) = searching.join().unwrap();
    assert_eq!(est.json()["estimated"]["method"], "mcts");
    assert!(looked_up < searched, "the lookup waited for the search to end");
}

/// The threads of process `pid` now.
fn threads_of(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no thread count in {status}"))
}

/// The 8x8 Topolo start, which only a search answers.
const EMPTY_8X8: &str = "......../......../......../......../......../......../......../........";

#[test]
fn a_flood_of_searches_never_holds_up_lookups() {
    // Before, each of these requests got a search of its own on threads of
    // its own (1,000 requests: 1,087 threads, lookups 8 s), and one whose
    // client had gone searched all the same.
    let server = start(shared(), "flood", &[]);
    let (a, pid) = (server.addr, server.child.id());
    let idle_threads = threads_of(pid);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (sent, kept_every) = (300, 3);
    let raw = format!("GET /topolo/8x8/positions/?p={EMPTY_8X8} HTTP/1.1\r\nHost: x\r\n\r\n");
    let (lookups, answers) = std::thread::scope(|s| {
        let _stop = StopOnDrop(&stop);
        // A lookup every 20 ms, timed, and the server's threads counted.
        let looking = s.spawn(|| {
            let mut c = Client::connect(a).unwrap();
            let (mut slowest, mut done, mut most_threads) = (Duration::ZERO, 0, 0);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let asked = Instant::now();
                let r = c.get("/topitop/regular/positions/?p=1_---------").unwrap();
                slowest = slowest.max(asked.elapsed());
                assert_eq!(r.status, 200);
                done += 1;
                most_threads = most_threads.max(threads_of(pid));
                std::thread::sleep(Duration::from_millis(20));
            }
            (slowest, done, most_threads)
        });
        std::thread::sleep(Duration::from_millis(200));
        // The flood: every request sent at once; two in three clients go
        // without waiting for their answer.
        let mut kept = Vec::new();
        for i in 0..sent {
            let mut c = TcpStream::connect(a).unwrap();
            c.write_all(raw.as_bytes()).unwrap();
            if i % kept_every == 0 {
                kept.push(c);
            }
        }
        let answers: Vec<support::http::Response> = kept
            .into_iter()
            .map(|c| {
                c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
                support::http::read_response(&mut BufReader::new(c), false).unwrap()
            })
            .collect();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (looking.join().unwrap(), answers)
    });
    let (slowest, done, most_threads) = lookups;
    println!("{done} lookups, the slowest {slowest:?}; at most {most_threads} threads ({idle_threads} idle)");
    assert!(done >= 10, "{done} lookups");
    assert!(slowest < Duration::from_millis(200), "a lookup took {slowest:?}");
    // One search at a time on every core, the I/O threads, the log: a
    // handful, not one a request.
    assert!(
        most_threads <= idle_threads + 12,
        "{most_threads} threads (idle: {idle_threads})"
    );
    let searched = answers.iter().filter(|r| r.status == 200).count();
    assert!(searched >= 1, "some searches are answered");
    for r in &answers {
        match r.status {
            200 => assert_eq!(r.json()["estimated"]["method"], "mcts"),
            503 => {
                assert_eq!(r.header("retry-after"), Some("2"), "{r:?}");
                assert_cors(r);
                let e = r.json()["error"].as_str().unwrap().to_string();
                assert!(e.contains("busy") && e.contains("ask again"), "{e}");
            }
            s => panic!("status {s}: {r:?}"),
        }
    }
    assert!(answers.iter().any(|r| r.status == 503), "the queue is short");
    // Every request is logged: searched (200), refused (503), or given up
    // because its client went (499), before or while searching.
    wait_for_log(&server, "uri=/topolo/8x8/", sent);
    let log = server.log();
    let lines: Vec<&str> = log.lines().filter(|l| l.contains("uri=/topolo/8x8/")).collect();
    let count = |status: &str| lines.iter().filter(|l| l.contains(status)).count();
    assert_eq!(count("status=200"), searched, "{}", tail(&log));
    assert!(count("status=499") >= 1, "{}", tail(&log));
    assert_eq!(
        count("status=200") + count("status=503") + count("status=499"),
        sent
    );
}

#[test]
fn an_idle_timeout_past_what_the_clock_can_add_is_refused() {
    // Before, the server started and every connection panicked a worker
    // ("overflow when adding duration to instant"), the client unanswered.
    let dir = shared();
    for (option, value) in [
        ("--idle-timeout", "9223372036854775807"),
        ("--idle-timeout", "86401"),
        ("--idle-timeout", "0"),
        ("--reload-interval", "18446744073709551615"),
        ("--searches", "0"),
        ("--search-queue", "1001"),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_topitop"))
            .args(["serve", "--dir", dir.to_str().unwrap(), "--bind", "127.0.0.1:0"])
            .args([option, value])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{option} {value}: the server started");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{option} {value}: {err}");
        assert!(
            err.contains(&format!("{option} {value}")) && !err.contains("panicked"),
            "{option} {value}: {err}"
        );
    }
    // A day is taken, and answered.
    let server = start(dir, "day", &["--idle-timeout", "86400"]);
    assert_eq!(get(server.addr, "/topitop/").status, 200);
}

/// The server's resident memory, in kB.
fn resident_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap()
}

#[test]
fn memory_taken_by_a_burst_of_slow_connections_is_given_back() {
    // After a slowloris of 21,000 connections the server held 480 MB for
    // good, though every descriptor came back: glibc kept the freed
    // buffers. It now returns free memory every 10 s.
    let dir = temp_dir("burst");
    let server = support::server::Server::start(&dir, "burst", &[]);
    let pid = server.child.id();
    let before = resident_kb(pid);
    let partial = format!("GET /ui/ HTTP/1.1\r\nHost: x\r\nX-Pad: {}", "a".repeat(2000));
    let held: Vec<std::net::TcpStream> = (0..900)
        .filter_map(|_| {
            let mut s = std::net::TcpStream::connect(server.addr).ok()?;
            s.write_all(partial.as_bytes()).ok()?;
            Some(s)
        })
        .collect();
    assert!(held.len() > 800, "{} connections", held.len());
    std::thread::sleep(std::time::Duration::from_secs(1));
    let during = resident_kb(pid);
    drop(held);
    // Within a trim's period and a little.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(14);
    let mut after = resident_kb(pid);
    while after > before + (during - before) / 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(500));
        after = resident_kb(pid);
    }
    assert!(
        during > before + 5_000,
        "the burst took little: {before} kB, then {during} kB"
    );
    assert!(
        after <= before + (during - before) / 2,
        "{before} kB before, {during} kB during, still {after} kB after"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The position object of `p` on `server`'s Topitop, budget [`BUDGET`].
fn answer(server: &Server, p: &str) -> Value {
    get(server.addr, &format!("/topitop/regular/positions/?p={p}")).json()
}

#[test]
fn pure_draws_are_served_with_levels_that_keep_their_definition() {
    // Over 100 lines on purpose: one walk over the draws, each position's
    // level checked against its moves' as the definition says.
    let dir = temp_dir("draw-levels");
    solve(&dir, &[&[]]);
    let server = Server::start(&dir, "draw-levels", &["--budget", BUDGET]);
    let start = "1_---------";
    let walk = || {
        let mut seen = std::collections::HashSet::from([start.to_string()]);
        let mut queue = std::collections::VecDeque::from([start.to_string()]);
        let mut out = Vec::new();
        while let Some(p) = queue.pop_front() {
            if out.len() == 1500 {
                break;
            }
            let v = answer(&server, &p);
            for m in v["moves"].as_array().unwrap() {
                let c = m["position"].as_str().unwrap();
                if m["positionValue"] == "draw" && seen.insert(c.to_string()) {
                    queue.push_back(c.to_string());
                }
            }
            out.push(v);
        }
        out
    };
    // Worked out in the background once served: the start, a pure draw,
    // has its level once they are done.
    let begun = std::time::Instant::now();
    while answer(&server, start).get("drawLevel").is_none() {
        assert!(
            begun.elapsed().as_secs() < 120,
            "no draw levels after two minutes"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let answers = walk();
    let (mut pure, mut impure, mut levels) = (0, 0, std::collections::BTreeSet::new());
    let level = |m: &Value| (m["drawLevel"].as_u64(), m["drawRemoteness"].as_u64());
    for v in &answers {
        let p = v["position"].as_str().unwrap();
        let moves = v["moves"].as_array().unwrap();
        let draws: Vec<&Value> = moves.iter().filter(|m| m["positionValue"] == "draw").collect();
        for m in moves.iter().filter(|m| m["positionValue"] != "draw") {
            assert!(
                m.get("drawLevel").is_none(),
                "{p}: a non-draw child with a level: {m}"
            );
        }
        let (Some(l), Some(r)) = level(v) else {
            impure += 1;
            continue;
        };
        pure += 1;
        levels.insert((l, r % 2));
        let has = |ll: u64, rr: u64| draws.iter().any(|m| level(m) == (Some(ll), Some(rr)));
        if r % 2 == 1 {
            // A draw-win: a move to a draw-lose of its level, one less.
            assert!(has(l, r - 1), "{p}: L{l}R{r} has no move to L{l}R{}", r - 1);
        } else if r > 0 {
            // A draw-lose: every drawing move to a pure draw-win, one of
            // them of its level and one less.
            for m in &draws {
                let (ml, mr) = level(m);
                assert!(
                    mr.is_some_and(|x| x % 2 == 1) && ml.is_some_and(|x| x <= l),
                    "{p}: L{l}R{r} has a drawing move to {m}"
                );
            }
            assert!(has(l, r - 1), "{p}: L{l}R{r} has no move to L{l}R{}", r - 1);
        } else if l == 0 {
            // Level 0's fringe: a move that throws the draw away.
            assert!(
                moves.iter().any(|m| m["moveValue"] == "lose"),
                "{p}: L0R0 without a losing move"
            );
        } else {
            // A higher fringe: a move that hands over a draw-win one level down.
            assert!(
                draws.iter().any(|m| m["drawLevel"].as_u64() == Some(l - 1)
                    && m["drawRemoteness"].as_u64().is_some_and(|x| x % 2 == 1)),
                "{p}: L{l}R0 without a move to a level-{} draw-win",
                l - 1
            );
        }
    }
    assert!(pure >= 500, "{pure} pure and {impure} impure draws met");
    assert!(
        levels.len() >= 2,
        "draw-wins and draw-losses both met: {levels:?}"
    );
    // The page names it among the position's facts.
    let pure_one = answers.iter().find(|v| v.get("drawLevel").is_some()).unwrap();
    let p = pure_one["position"].as_str().unwrap();
    let notes = get(server.addr, &format!("/ui/position/topitop/regular?p={p}")).json();
    let facts = notes["facts"].as_array().unwrap();
    assert!(
        facts
            .iter()
            .any(|f| f[0] == "Draw level" && f[1].as_str().unwrap().contains("GamesmanUni's L")),
        "{facts:?}"
    );
    eprintln!("{pure} pure draws checked, {impure} impure, kinds {levels:?}");
}
