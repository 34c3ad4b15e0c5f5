//! `topitop serve` over real HTTP on loopback: every route and every error,
//! answers checked against the engine and the database, concurrency,
//! timeouts and shutdown.

mod support;

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::http::{get, request, Client};
use topitop_db::Database;
use topitop_game::sample::{playout_positions, SplitMix};
use topitop_game::{
    autogui_move, autogui_position, play_unchecked, Position, StateIndex, Value as GameValue,
};

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

/// A running server; killed on drop.
struct Server {
    child: Child,
    addr: SocketAddr,
    log: PathBuf,
}

impl Server {
    /// Starts a server on the databases in `dir`, logging to `dir/<name>.log`.
    fn start(dir: &Path, name: &str, extra: &[&str]) -> Server {
        Server::start_with_budget(dir, name, BUDGET, extra)
    }

    /// [`Server::start`] for the databases of another piece budget.
    fn start_with_budget(dir: &Path, name: &str, budget: &str, extra: &[&str]) -> Server {
        let log = dir.join(format!("{name}.log"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_topitop"))
            .args(["serve", "--db", dir.to_str().unwrap(), "--budget", budget])
            .args(["--bind", "127.0.0.1:0", "--threads", "2"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| {
                panic!(
                    "no address in {line:?}: {}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                )
            })
            .parse()
            .unwrap();
        Server { child, addr, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap()
    }

    fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits up to `limit` for the server to exit.
    fn wait(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(s) = self.child.try_wait().unwrap() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
    let dir = shared();
    let server = Server::start(dir, "fixed", &[]);
    let a = server.addr;

    let r = get(a, "/");
    assert_eq!(r.status, 200);
    assert_cors(&r);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(
        r.json(),
        json!([{"id": "topitop", "name": "Topitop", "type": "twoPlayer", "gui": "v3"}])
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
    // The value follows from the best move.
    if let Some(best) = moves.first() {
        assert_eq!(body["positionValue"], best["moveValue"], "{pos}");
    }
}

#[test]
fn positions_agree_with_the_engine_and_the_query_command() {
    let dir = shared();
    let server = Server::start(dir, "positions", &[]);
    let a = server.addr;
    let mut seen_values = HashSet::new();
    for (variant, stem) in [
        ("regular", "topitop_v1_0"),
        ("misere", "topitop_v1_4"),
        ("v0", "topitop_v0_0"),
    ] {
        let file = db_file(dir, stem);
        let db = Database::open(&file).unwrap();
        let mut rng = SplitMix::new(11);
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
        // Byte for byte what `topitop query --json` prints.
        let o = Command::new(env!("CARGO_BIN_EXE_topitop"))
            .args(["query", "1_---------", "--json", "--db", file.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success());
        let served = client
            .get(&format!("/topitop/{variant}/positions?p=1_---------"))
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&served.body).trim(),
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
fn a_v0_game_ended_without_a_move_is_served_as_a_draw() {
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
    let server = Server::start_with_budget(&dir, "stuck", STUCK_BUDGET, &[]);
    let a = server.addr;
    // v0 ends the game in a draw when the side to move has no move. It is
    // served as what it is (draw, remoteness −200, no moves), as
    // GamesmanClassic's own interface would; GamesmanUni, which knows only
    // endless draws, ends the match there (see the README).
    let file = dir.join(format!("topitop_v0_0_{}.db", STUCK_BUDGET.replace('/', "-")));
    let db = Database::open(file).unwrap();
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
        (&json!("draw"), &json!(-200)),
        "{stuck}"
    );
    assert_eq!(over["moves"], json!([]));
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
        (&into["positionValue"], &into["moveValue"]),
        (&json!("draw"), &json!("draw"))
    );
}

#[test]
fn every_bad_request_gets_an_error_object() {
    let server = Server::start(shared(), "errors", &[]);
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
        ("GET", "/favicon.ico", 404, "Invalid Game"),
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
    assert!(server.log().contains("status=404"));
}

#[test]
fn startup_without_databases_says_how_to_make_them() {
    let dir = temp_dir("empty");
    let o = Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args(["serve", "--db", dir.to_str().unwrap(), "--bind", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no database to serve") && err.contains("topitop solve"),
        "{err}"
    );
    assert!(err.contains("topitop_v1_0.db"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn many_clients_at_once_each_request_logged() {
    let dir = shared();
    let server = Server::start(dir, "concurrent", &[]);
    let a = server.addr;
    let db = Database::open(db_file(dir, "topitop_v1_0")).unwrap();
    let positions = playout_positions(db.rules(), 400, 25, &mut SplitMix::new(5));
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
    let server = Server::start(shared(), "slow", &["--idle-timeout", "1"]);
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
        let mut server = Server::start(shared(), signal, &[]);
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
    let server = Server::start(&dir, "serve", &[]);
    let db = Database::open(shared().join(&name)).unwrap();
    let positions = playout_positions(db.rules(), 200, 30, &mut SplitMix::new(3));
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
