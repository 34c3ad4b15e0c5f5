//! Topple through the same commands, files and routes as the other games
//! (`--game topple`): a loopy game solved by the framework's tier solver,
//! then verified, queried, shown, exported, counted, played and served.

use crate::support;

use support::http::get;
use support::run::{stderr, stdout, temp_dir, topitop, topitop_with_input};
use support::server::Server;

fn ok(args: &[&str]) -> String {
    let o = topitop(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

const START: &str = ".../.../... r s5 r8 b8";

#[test]
fn a_small_board_solves_and_every_tool_reads_it() {
    // Over 100 lines on purpose: one database made, then every tool that reads
    // it checked on it.
    let dir = temp_dir("topple-3x3");
    let d = dir.to_str().unwrap();
    let g = ["--game", "topple", "--board", "3x3", "--variant", "s5"];
    let solved = ok(&[&["solve", "--out", d][..], &g].concat());
    assert!(
        solved.contains(&format!("start position {START}: draw")),
        "{solved}"
    );
    assert!(dir.join("topple_3x3-s5.db").exists());
    let verified = ok(&[&["verify", "--dir", d][..], &g].concat());
    assert!(verified.contains(": 0 violations"), "{verified}");

    // GamesmanUni's object: a draw, nine first moves, each child's value
    // seen from the mover.
    let json = ok(&[&["query", START, "--json", "--dir", d][..], &g].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["positionValue"], "draw");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    for m in moves {
        let flipped = match m["positionValue"].as_str().unwrap() {
            "win" => "lose",
            "lose" => "win",
            other => other,
        };
        assert_eq!(m["moveValue"], flipped, "{m}");
    }

    // A position with a win in it, found by walking down a winning line.
    let mut rows = Vec::new();
    let tsv = ok(&[&["export", "--dir", d][..], &g].concat());
    for line in tsv.lines().skip(1) {
        rows.push(line.split('\t').map(String::from).collect::<Vec<_>>());
    }
    let header = tsv.lines().next().unwrap();
    assert!(
        header.starts_with("position\ttier\tvalue\tremoteness"),
        "{header}"
    );
    let stats = ok(&[&["stats", "--dir", d][..], &g].concat());
    assert!(stats.contains("draw"), "{stats}");
    for value in ["win", "lose", "draw"] {
        assert!(rows.iter().any(|r| r[2] == value), "no {value} row");
    }
    // Every exported row's record is what query says of it.
    let input: String = rows.iter().step_by(97).map(|r| format!("{}\n", r[0])).collect();
    let o = topitop_with_input(&[&["query", "--dir", d][..], &g].concat(), input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let answered: Vec<Vec<String>> = stdout(&o)
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    for (row, a) in rows.iter().step_by(97).zip(&answered) {
        assert_eq!(
            a[..3],
            [row[0].clone(), row[2].clone(), row[3].clone()],
            "{row:?}"
        );
    }

    // Bad input gets the rule it breaks.
    for (bad, says) in [
        (".../.r./... b s5 r7 b8", "pawn"),
        (".../.../... r s9 r8 b8", "supply"),
        ("..../.../... r s5 r8 b8", ""),
    ] {
        let o = topitop(&[&["query", bad, "--dir", d][..], &g].concat());
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains(says), "{bad}: {}", stderr(&o));
    }

    // show draws the board; play takes a move and gives hints.
    let shown = ok(&[
        "show",
        ".../.1r./... b s4 r7 b8",
        "--game",
        "topple",
        "--board",
        "3x3",
        "--variant",
        "s5",
    ]);
    assert!(shown.contains("Blue to move"), "{shown}");
    let o = topitop_with_input(&[&["play", "--dir", d][..], &g].concat(), b"b2\nhint\nquit\n");
    let out = stdout(&o);
    assert!(out.contains("best:"), "{out}");

    // The 8x8 game, which nobody has solved, is played by two people; a
    // computer player needs a database, and says so.
    let eight = ["play", "--game", "topple", "--dir", d];
    let o = topitop_with_input(
        &[&eight[..], &["--computer", "none"]].concat(),
        b"d4\nmoves\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Blue to move: first move"), "{}", stdout(&o));
    assert!(stdout(&o).contains("a1 b1 c1"), "{}", stdout(&o));
    let o = topitop_with_input(&eight, b"d4\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("topple_8x8-s64.db"), "{}", stderr(&o));

    // The server answers as query does.
    let server = Server::start(&dir, "serve", &[]);
    let game = get(server.addr, "/topple/").json();
    assert_eq!(game["variants"][0]["id"], "3x3-s5", "{game}");
    let p = START.replace(' ', "%20");
    let served = get(server.addr, &format!("/topple/3x3-s5/positions/?p={p}")).json();
    // query adds whether play comes to the position.
    let mut v = v;
    assert_eq!(v.as_object_mut().unwrap().remove("reachable"), Some(true.into()));
    assert_eq!(served, v);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tiers_left_on_disk_and_resumed_give_the_same_database() {
    let dir = temp_dir("topple-on-disk");
    let g = ["--game", "topple", "--board", "3x3", "--variant", "s8"];
    let name = "topple_3x3-s8.db";
    // Within its grace a solve keeps finished tiers packed in memory; from
    // the start it leaves them in its checkpoints and reads them back.
    let (memory, disk, killed) = (dir.join("memory"), dir.join("disk"), dir.join("killed"));
    let packed = ok(&[&["solve", "--out", memory.to_str().unwrap()][..], &g].concat());
    let left = ok(&[
        &[
            "solve",
            "--out",
            disk.to_str().unwrap(),
            "--checkpoint-after",
            "0",
        ][..],
        &g,
    ]
    .concat());
    let start = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("start position"))
            .map(String::from)
    };
    assert!(start(&packed).is_some_and(|l| l.ends_with(": draw")), "{packed}");
    assert_eq!(start(&packed), start(&left));
    let a = std::fs::read(memory.join(name)).unwrap();
    assert!(a == std::fs::read(disk.join(name)).unwrap(), "the files differ");
    assert!(!disk.join("topple_3x3-s8.ckpt").exists(), "checkpoints removed");

    // Killed with tiers on disk, then run again: the kept tiers are read
    // back, not solved again, and the file is the same.
    let ckpt = killed.join("topple_3x3-s8.ckpt");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_topitop"))
        .args([
            "solve",
            "--out",
            killed.to_str().unwrap(),
            "--checkpoint-after",
            "0",
        ])
        .args(["--threads", "1"])
        .args(g)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let levels = || std::fs::read_dir(&ckpt).map_or(0, |d| d.count());
    while levels() < 40 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the solve ended before it could be killed"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!killed.join(name).exists(), "no database from a killed run");
    let resumed = ok(&[&["solve", "--out", killed.to_str().unwrap()][..], &g].concat());
    let n: usize = resumed
        .lines()
        .find_map(|l| l.strip_prefix("resumed ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{resumed}"));
    assert!(n >= 30, "{resumed}");
    assert_eq!(start(&packed), start(&resumed));
    assert!(
        a == std::fs::read(killed.join(name)).unwrap(),
        "the resumed file differs"
    );
}

/// `crosscheck A B`: a database solved with the board's symmetries agrees
/// with one solved without them, position by position both ways; one
/// record changed in a copy (its blocks and checksums written anew) is
/// found, named and makes the command fail.
#[test]
fn crosscheck_finds_the_one_record_that_differs() {
    let dir = temp_dir("topple-crosscheck");
    let g = ["--game", "topple", "--board", "2x3", "--variant", "s5"];
    let (sym, every) = (dir.join("sym"), dir.join("every"));
    ok(&[&["solve", "--out", sym.to_str().unwrap()][..], &g].concat());
    ok(&[
        &["solve", "--no-symmetry", "--out", every.to_str().unwrap()][..],
        &g,
    ]
    .concat());
    let a = sym.join("topple_2x3-s5.db");
    let b = every.join("topple_2x3-s5.db");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let same = ok(&["crosscheck", a, b]);
    assert!(same.contains("B: ") && same.contains("every position"), "{same}");
    let compared = |text: &str, pass: &str| -> (u64, u64) {
        let line = text.lines().find(|l| l.starts_with(pass)).expect(pass);
        let n: Vec<u64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
        (n[0], n[1])
    };
    let (ab, bb) = (compared(&same, "A in B"), compared(&same, "B in A"));
    assert_eq!((ab.1, bb.1), (0, 0), "{same}");
    assert!(bb.0 > 2 * ab.0 && ab.0 > 0, "B stores every image: {same}");

    // The copy: B with its first decided record turned into another value.
    let db = topitop_db::tiered::TieredDb::open(b).unwrap();
    let h = db.header().clone();
    let mut tiers = db.tiers().unwrap();
    use topitop_game_api::{Record, Value};
    let (t, i) = (0..tiers.len())
        .find_map(|t| Some((t, tiers[t].1.iter().position(|r| r.value() == Some(Value::Win))?)))
        .unwrap();
    tiers[t].1[i] = Record::new(Value::Lose, tiers[t].1[i].remoteness());
    let c = dir.join("changed.db");
    let meta = topitop_db::tiered::TieredMeta {
        game: &h.game,
        variant: &h.variant,
        program: &h.program,
        symmetric: h.symmetric,
        level: 3,
    };
    let named: Vec<(String, &[Record])> = tiers.iter().map(|(n, r)| (n.clone(), r.as_slice())).collect();
    topitop_db::tiered::write_tiered(&c, &meta, &named).unwrap();
    let o = topitop(&["crosscheck", a, c.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "differences, as cmp says them");
    let text = stdout(&o);
    assert_eq!(compared(&text, "B in A").1, 1, "{text}");
    assert!(text.contains(&format!("tier {}", tiers[t].0)), "{text}");

    // JSON, and a file of another variant refused naming both.
    let json = ok(&["crosscheck", "--json", a, b]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["b_in_a"]["compared"], bb.0, "{json}");
    let other = dir.join("other");
    let o2 = ["--game", "topple", "--board", "2x3", "--variant", "s4"];
    ok(&[&["solve", "--out", other.to_str().unwrap()][..], &o2].concat());
    let o = topitop(&["crosscheck", a, other.join("topple_2x3-s4.db").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "trouble, not differences");
    assert!(
        stderr(&o).contains("s4") && stderr(&o).contains("s5"),
        "{}",
        stderr(&o)
    );
}

/// A Topple file cut short, named with `--db` alone: every command names
/// the file and what is wrong, never that it is "not a topitop database";
/// cut within its header, no game can be told from it, and it says so.
#[test]
fn a_file_cut_short_is_named_as_it_is() {
    let dir = temp_dir("topple-cut");
    let d = dir.to_str().unwrap();
    ok(&[
        "solve",
        "--game",
        "topple",
        "--board",
        "2x2",
        "--variant",
        "s4",
        "--out",
        d,
    ]);
    let whole = std::fs::read(dir.join("topple_2x2-s4.db")).unwrap();
    let cut = dir.join("cut.db");
    let c = cut.to_str().unwrap();
    for len in [20, whole.len() - 1] {
        std::fs::write(&cut, &whole[..len]).unwrap();
        for args in [
            vec!["verify", "--db", c],
            vec!["stats", "--db", c],
            vec!["export", "--db", c],
            vec!["query", "--db", c, "../.. r s4 r8 b8"],
        ] {
            let o = topitop(&args);
            let said = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{len} {args:?}: {said}");
            assert!(said.contains("cut.db"), "{len} {args:?}: {said}");
            assert!(!said.contains("not a topitop database"), "{len} {args:?}: {said}");
            if len == 20 {
                assert!(said.contains("no game can be told"), "{args:?}: {said}");
            }
        }
    }
}

/// `stats`, `query` and `export` count and mark as reachable exactly the
/// positions a breadth-first search from the start comes to (Topple 2×2
/// with 4 pieces: its positions of play are many more).
#[test]
fn reachability_is_what_play_reaches() {
    use std::collections::{HashSet, VecDeque};
    use topitop_game_api::{Game, Registered};
    let g = <games_topple::Topple as Registered>::from_variant("2x2-s4").unwrap();
    let mut seen = HashSet::from([g.start()]);
    let mut queue = VecDeque::from([g.start()]);
    while let Some(p) = queue.pop_front() {
        if g.primitive(&p).is_some() {
            continue;
        }
        for m in g.moves(&p) {
            let c = g.play(&p, m);
            if seen.insert(c) {
                queue.push_back(c);
            }
        }
    }

    let dir = temp_dir("topple-reach");
    let d = dir.to_str().unwrap();
    let opts = ["--game", "topple", "--board", "2x2", "--variant", "s4"];
    ok(&[&["solve", "--out", d][..], &opts].concat());
    let stats: serde_json::Value =
        serde_json::from_str(&ok(&[&["stats", "--json", "--dir", d][..], &opts].concat())).unwrap();
    assert_eq!(stats["positions"].as_u64(), Some(seen.len() as u64), "{stats}");

    // Every position of play, marked: those the search found, and only them.
    let rows = ok(&[
        &["export", "--all-symmetries", "--mark-reachable", "--dir", d][..],
        &opts,
    ]
    .concat());
    let mut marked = 0;
    let mut unreached = None;
    let header: Vec<&str> = rows.lines().next().unwrap().split('\t').collect();
    let col = header.iter().position(|&c| c == "reachable").unwrap();
    for line in rows.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let p = g.parse_position(f[0]).unwrap();
        assert_eq!(f[col] == "true", seen.contains(&p), "{line}");
        marked += usize::from(f[col] == "true");
        if f[col] == "false" {
            unreached = Some(f[0].to_string());
        }
    }
    assert_eq!(marked, seen.len());
    let unreached = unreached.expect("some position of play no game comes to");
    let json = ok(&[&["query", &unreached, "--json", "--dir", d][..], &opts].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["reachable"], false, "{json}");
    let start = g.format_position(&g.start());
    let json = ok(&[&["query", &start, "--json", "--dir", d][..], &opts].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["reachable"], true, "{json}");
}
