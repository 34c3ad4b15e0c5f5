//! The strength of the search players for boards too large to solve.
//!
//! * `cargo bench -p games-topolo-solved --bench strength -- versus
//!   random|greedy [--games N] [--ms MS] [--method mcts|alpha-beta]
//!   [--board RxC]`: a series on the board (default 8x8), colours
//!   alternated, the search given MS milliseconds a move (default 2000) on
//!   every core; prints the score.
//! * `cargo bench ... -- optimal DB [--positions N] [--ms MS] [--method
//!   M]`: positions sampled from random games on the solved board of DB
//!   (not over, and with at least two moves), the search's choice checked
//!   against the database: the share of optimal choices.

use std::time::{Duration, Instant};

use games_topolo::search::{greedy_move, random_move, rank, Method};
use games_topolo::{Color, Topolo};
use topitop_db::SolvedDb;
use topitop_game_api::rng::Rng;
use topitop_game_api::{Game, Registered, Value};

struct Options {
    what: String,
    arg: Option<String>,
    games: usize,
    ms: u64,
    method: Method,
    board: String,
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let mut o = Options {
        what: args.first().cloned().unwrap_or_default(),
        arg: args.get(1).filter(|a| !a.starts_with("--")).cloned(),
        games: 100,
        ms: 2000,
        method: Method::Mcts,
        board: "8x8".into(),
    };
    let mut i = 1;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" | "--positions" => o.games = v.parse().expect("a number"),
            "--ms" => o.ms = v.parse().expect("milliseconds"),
            "--method" => {
                o.method = match v.as_str() {
                    "mcts" => Method::Mcts,
                    "alpha-beta" => Method::AlphaBeta,
                    other => panic!("unknown method {other}"),
                }
            }
            "--board" => o.board = v,
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn versus(o: &Options) {
    let game = Topolo::from_options(Some(&o.board), None).expect("a board");
    let opponent = o.arg.as_deref().unwrap_or("random");
    let budget = Duration::from_millis(o.ms);
    let (mut won, mut tied, mut lost) = (0, 0, 0);
    let start = Instant::now();
    for g in 0..o.games {
        // The search plays Red in even games, Black in odd ones.
        let search_colour = if g % 2 == 0 { Color::Red } else { Color::Black };
        let mut rng = Rng::new(1000 + g as u64);
        let mut pos = game.start();
        while !game.is_over(&pos) {
            let mv = if game.to_move(&pos) == search_colour {
                rank(&game, &pos, o.method, budget, u64::MAX, threads(), g as u64).moves[0].mv
            } else if opponent == "greedy" {
                greedy_move(&game, &pos, &mut rng).expect("a move")
            } else {
                random_move(&game, &pos, &mut rng).expect("a move")
            };
            pos = game.play(&pos, mv);
        }
        let end = game.outcome(&pos).expect("over");
        let mover_wins = matches!(end, games_topolo::Outcome::Win);
        match end {
            games_topolo::Outcome::Tie => tied += 1,
            _ if mover_wins == (game.to_move(&pos) == search_colour) => won += 1,
            _ => lost += 1,
        }
        eprintln!(
            "game {}: {won} won, {tied} tied, {lost} lost ({:.0} s)",
            g + 1,
            start.elapsed().as_secs_f64()
        );
    }
    println!(
        "strength {} {} vs {opponent}, {} ms a move, {} threads: {won} won, {tied} tied, {lost} lost of {} ({:.0} s)",
        o.board,
        o.method.name(),
        o.ms,
        threads(),
        o.games,
        start.elapsed().as_secs_f64()
    );
}

fn optimal(o: &Options) {
    let path = o.arg.as_deref().expect("a database");
    let db = SolvedDb::open(path).expect("a database");
    let game = Topolo::from_variant(db.names().1).expect("a Topolo database");
    let budget = Duration::from_millis(o.ms);
    let mut rng = Rng::new(42);
    let cells = game.shape().cells() as usize;
    let (mut hits, mut tried) = (0, 0);
    let start = Instant::now();
    while tried < o.games {
        let depth = rng.index(cells - 1);
        let mut pos = game.start();
        for _ in 0..depth {
            let moves = Game::moves(&game, &pos);
            pos = Game::play(&game, &pos, moves[rng.index(moves.len())]);
        }
        let moves = Game::moves(&game, &pos);
        if moves.len() < 2 {
            continue;
        }
        // A move's rank for its maker, 0 best: the child's value is the
        // other side's, so a child that loses is a win.
        let value_of = |m| {
            let c = db.lookup(&game, &Game::play(&game, &pos, m)).expect("stored");
            match c.value() {
                Some(Value::Lose) => 0,
                Some(Value::Tie) => 1,
                _ => 2,
            }
        };
        let best = moves.iter().map(|&m| value_of(m)).min().unwrap_or(2);
        let chosen = rank(&game, &pos, o.method, budget, u64::MAX, threads(), tried as u64).moves[0].mv;
        tried += 1;
        if value_of(chosen) == best {
            hits += 1;
        }
        if tried % 50 == 0 {
            eprintln!("{tried}: {hits} optimal ({:.0} s)", start.elapsed().as_secs_f64());
        }
    }
    println!(
        "optimal {} {}, {} ms a move, {} threads: {hits} of {tried} choices optimal ({:.1}%) ({:.0} s)",
        db.path().display(),
        o.method.name(),
        o.ms,
        threads(),
        100.0 * f64::from(hits) / tried as f64,
        start.elapsed().as_secs_f64()
    );
}

fn main() {
    let o = options();
    match o.what.as_str() {
        "versus" => versus(&o),
        "optimal" => optimal(&o),
        _ => {
            eprintln!("usage: strength versus random|greedy [--games N] [--ms MS] [--method mcts|alpha-beta] [--board RxC]\n       strength optimal DB [--positions N] [--ms MS] [--method M]");
            std::process::exit(2);
        }
    }
}
