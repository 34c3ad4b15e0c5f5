//! Players for boards too large to solve: Monte Carlo tree search (UCT
//! over random games played to the end), an alpha-beta search over a
//! group-size evaluation, and the two simple players the benchmark plays
//! them against (uniformly random, and one-ply greedy). No I/O; time is a
//! budget given by the caller.

use std::time::{Duration, Instant};

use crate::piece::{Color, Size};
use crate::position::Position;
use crate::rules::{Move, Topolo};
use crate::shape::Class;

/// A small, fast, seedable random number generator (xorshift64*), so that
/// every game of the benchmark can be replayed from its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// A move's estimate: the expected result for the player making it, 1 a
/// win, ½ a tie, 0 a loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The move.
    pub mv: Move,
    /// Its expected result for its maker, from 0 to 1.
    pub score: f64,
    /// How many games of the search went through it.
    pub visits: u64,
}

/// A search's answer: every legal move, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking {
    /// The moves with their estimates, best first.
    pub moves: Vec<Estimate>,
    /// Random games played (MCTS) or positions evaluated (alpha-beta, or
    /// the search to the end).
    pub work: u64,
    /// True when the search reached the end of every line: the scores
    /// are the game's values (1, ½, 0), not estimates.
    pub exact: bool,
}

/// Which search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Monte Carlo tree search (UCT) with random play-outs.
    Mcts,
    /// Alpha-beta over a group-size evaluation, deepening while time
    /// lasts.
    AlphaBeta,
}

impl Method {
    /// `mcts` or `alpha-beta`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Mcts => "mcts",
            Method::AlphaBeta => "alpha-beta",
        }
    }
}

/// The end of a game from `mover`'s view: 1 a win, ½ a tie, 0 a loss.
fn result(game: &Topolo, end: &Position, mover: Color) -> f64 {
    match game.outcome(end) {
        None => 0.5,
        Some(o) => {
            // `outcome` is for the player to move at the end.
            let at_end = game.to_move(end);
            let win = matches!(o, crate::Outcome::Win);
            let tie = matches!(o, crate::Outcome::Tie);
            if tie {
                0.5
            } else if win == (at_end == mover) {
                1.0
            } else {
                0.0
            }
        }
    }
}

/// A random game from `pos` to the end: the first class's empty cells in
/// random order, then the other's, each taking a random piece of the
/// player to move.
fn playout(game: &Topolo, pos: &Position, rng: &mut Rng) -> Position {
    let shape = game.shape();
    let mut p = *pos;
    let first = game.first_class(&p).unwrap_or_else(|| {
        if rng.below(2) == 0 {
            Class::Odd
        } else {
            Class::Even
        }
    });
    let mut left: [[u32; 3]; 2] = [Color::Red, Color::Black].map(|c| Size::ALL.map(|s| game.left(&p, c, s)));
    for class in [first, first.other()] {
        let mut cells: Vec<u32> = (0..shape.cells())
            .filter(|&b| shape.class(class) >> b & 1 == 1 && p.occupied() >> b & 1 == 0)
            .collect();
        while !cells.is_empty() {
            let bit = cells.swap_remove(rng.below(cells.len()));
            let mover = game.to_move(&p);
            let l = &mut left[usize::from(mover == Color::Black)];
            let total: u32 = l.iter().sum();
            let mut k = rng.below(total.max(1) as usize) as u32;
            let mut size = Size::Small;
            for (j, &n) in l.iter().enumerate() {
                if k < n {
                    size = Size::ALL[j];
                    break;
                }
                k -= n;
            }
            l[size as usize] = l[size as usize].saturating_sub(1);
            p = p.with(bit, mover, size);
        }
    }
    p
}

/// A node of the search tree.
struct Node {
    mv: Option<Move>,
    children: Vec<usize>,
    untried: Vec<Move>,
    visits: u64,
    /// Sum of results for the player who made `mv`.
    total: f64,
}

/// One tree searched for `budget` (or `playouts` games, whichever ends
/// first), seeded by `seed`.
fn uct(game: &Topolo, root: &Position, deadline: Instant, playouts: u64, seed: u64) -> Vec<(Move, u64, f64)> {
    let mut rng = Rng::new(seed);
    let mut nodes = vec![Node {
        mv: None,
        children: Vec::new(),
        untried: game.moves(root),
        visits: 0,
        total: 0.0,
    }];
    let mut played = 0u64;
    let mut path = Vec::with_capacity(80);
    while played < playouts && (!played.is_multiple_of(64) || Instant::now() < deadline) {
        path.clear();
        let mut n = 0usize;
        let mut pos = *root;
        path.push(n);
        // Selection.
        while nodes[n].untried.is_empty() && !nodes[n].children.is_empty() {
            let ln = (nodes[n].visits.max(1) as f64).ln();
            let best = nodes[n]
                .children
                .iter()
                .copied()
                .max_by(|&a, &b| {
                    let u = |c: usize| {
                        let c = &nodes[c];
                        c.total / c.visits as f64 + 0.7 * (ln / c.visits as f64).sqrt()
                    };
                    u(a).total_cmp(&u(b))
                })
                .unwrap_or(n);
            n = best;
            pos = game.play(
                &pos,
                nodes[n].mv.unwrap_or(Move {
                    size: Size::Small,
                    bit: 0,
                }),
            );
            path.push(n);
        }
        // Expansion.
        if !nodes[n].untried.is_empty() {
            let k = rng.below(nodes[n].untried.len());
            let mv = nodes[n].untried.swap_remove(k);
            pos = game.play(&pos, mv);
            let child = nodes.len();
            nodes.push(Node {
                mv: Some(mv),
                children: Vec::new(),
                untried: game.moves(&pos),
                visits: 0,
                total: 0.0,
            });
            nodes[n].children.push(child);
            n = child;
            path.push(n);
        }
        // Simulation, then back-propagation: each node scores the result
        // for the player who made its move.
        let end = playout(game, &pos, &mut rng);
        let first_mover = game.to_move(root);
        let r = result(game, &end, first_mover);
        for (depth, &k) in path.iter().enumerate() {
            nodes[k].visits += 1;
            // The move into a node at depth d was made by the root's mover
            // when d is odd.
            nodes[k].total += if depth % 2 == 1 { r } else { 1.0 - r };
        }
        played += 1;
    }
    nodes[0]
        .children
        .iter()
        .map(|&c| {
            (
                nodes[c].mv.unwrap_or(Move {
                    size: Size::Small,
                    bit: 0,
                }),
                nodes[c].visits,
                nodes[c].total,
            )
        })
        .collect()
}

/// The evaluation of a position for the player to move, from -1 to 1: the
/// groups compared as the end compares them, the largest first, each
/// weighted ten times the next (sizes only, then heights a little).
fn evaluate(game: &Topolo, pos: &Position) -> f64 {
    let mover = game.to_move(pos);
    if let Some(o) = game.outcome(pos) {
        return match o {
            crate::Outcome::Win => 1.0,
            crate::Outcome::Lose => -1.0,
            crate::Outcome::Tie => 0.0,
        };
    }
    let shape = game.shape();
    let score = |c: Color| {
        let list = crate::groups::group_list(shape, pos, c);
        list.iter()
            .take(3)
            .enumerate()
            .map(|(k, g)| (f64::from(g.size) + 0.01 * f64::from(g.height)) * 0.1f64.powi(k as i32))
            .sum::<f64>()
    };
    let d = score(mover) - score(mover.other());
    (d / 4.0).tanh() * 0.99
}

/// Negamax with alpha-beta to `depth` plies, children ordered by their
/// evaluation.
fn alpha_beta(
    game: &Topolo,
    pos: &Position,
    depth: u32,
    mut alpha: f64,
    beta: f64,
    nodes: &mut u64,
    deadline: Instant,
) -> Option<f64> {
    *nodes += 1;
    if game.is_over(pos) || depth == 0 {
        return Some(evaluate(game, pos));
    }
    if nodes.is_multiple_of(1024) && Instant::now() >= deadline {
        return None;
    }
    let mut children: Vec<(f64, Position)> = game
        .moves(pos)
        .into_iter()
        .map(|m| {
            let c = game.play(pos, m);
            (-evaluate(game, &c), c)
        })
        .collect();
    children.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best = -2.0;
    for (_, c) in children {
        let v = -alpha_beta(game, &c, depth - 1, -beta, -alpha, nodes, deadline)?;
        best = f64::max(best, v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}

/// The exact result of `pos` for the player to move (1 win, 0 tie, -1
/// loss) by negamax with alpha-beta and a table of positions solved,
/// unless `deadline` passes first.
fn exact(
    game: &Topolo,
    pos: &Position,
    mut alpha: i8,
    beta: i8,
    table: &mut std::collections::HashMap<Position, i8>,
    deadline: Instant,
    nodes: &mut u64,
) -> Option<i8> {
    if let Some(o) = game.outcome(pos) {
        return Some(match o {
            crate::Outcome::Win => 1,
            crate::Outcome::Lose => -1,
            crate::Outcome::Tie => 0,
        });
    }
    if let Some(&v) = table.get(pos) {
        return Some(v);
    }
    *nodes += 1;
    if nodes.is_multiple_of(4096) && Instant::now() >= deadline {
        return None;
    }
    let (alpha0, mut best) = (alpha, -1i8);
    for m in game.moves(pos) {
        let v = -exact(game, &game.play(pos, m), -beta, -alpha, table, deadline, nodes)?;
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    // A value at the window's edge is only a bound, unless it is the
    // least or greatest there is.
    if (best > alpha0 || best == -1) && (best < beta || best == 1) {
        table.insert(*pos, best);
    }
    Some(best)
}

/// Every move of `pos` with its exact result for its maker, if the search
/// ends before `deadline`.
fn exact_moves(game: &Topolo, pos: &Position, deadline: Instant) -> Option<(Vec<(Move, f64)>, u64)> {
    let mut table = std::collections::HashMap::new();
    let mut nodes = 0;
    let mut out = Vec::new();
    for m in game.moves(pos) {
        let v = -exact(game, &game.play(pos, m), -1, 1, &mut table, deadline, &mut nodes)?;
        out.push((m, (f64::from(v) + 1.0) / 2.0));
    }
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    Some((out, nodes))
}

/// Every legal move of `pos` ranked by `method` within `budget`, best
/// first, on `threads` threads (MCTS: one tree each, merged at the root;
/// alpha-beta: one). `seed` makes a search repeatable when the budget is
/// given in play-outs (`playouts`) rather than time.
pub fn rank(
    game: &Topolo,
    pos: &Position,
    method: Method,
    budget: Duration,
    playouts: u64,
    threads: usize,
    seed: u64,
) -> Ranking {
    let moves = game.moves(pos);
    if moves.is_empty() {
        return Ranking {
            moves: Vec::new(),
            work: 0,
            exact: true,
        };
    }
    let deadline = Instant::now() + budget;
    // Near the end the game is searched to the end: a third of the budget
    // for an exact answer, the rest for the estimate if it runs out.
    if let Some((exact, nodes)) = exact_moves(game, pos, Instant::now() + budget / 3) {
        return Ranking {
            moves: exact
                .into_iter()
                .map(|(mv, score)| Estimate { mv, score, visits: 0 })
                .collect(),
            work: nodes,
            exact: true,
        };
    }
    match method {
        Method::Mcts => {
            let threads = threads.max(1);
            let per = playouts.div_ceil(threads as u64);
            let trees: Vec<Vec<(Move, u64, f64)>> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        s.spawn(move || uct(game, pos, deadline, per, seed.wrapping_add(t as u64 * 7919)))
                    })
                    .collect();
                handles.into_iter().filter_map(|h| h.join().ok()).collect()
            });
            let mut ranked: Vec<Estimate> = moves
                .iter()
                .map(|&mv| {
                    let (v, t) = trees
                        .iter()
                        .flat_map(|t| t.iter().filter(|e| e.0 == mv))
                        .fold((0u64, 0.0), |(v, t), e| (v + e.1, t + e.2));
                    Estimate {
                        mv,
                        score: if v == 0 { 0.5 } else { t / v as f64 },
                        visits: v,
                    }
                })
                .collect();
            let work = ranked.iter().map(|e| e.visits).sum();
            // The most visited move is the search's choice; ties by score.
            ranked.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.score.total_cmp(&a.score)));
            Ranking {
                moves: ranked,
                work,
                exact: false,
            }
        }
        Method::AlphaBeta => {
            let mut nodes = 0u64;
            let mut scored: Vec<(Move, f64)> = moves
                .iter()
                .map(|&m| (m, -evaluate(game, &game.play(pos, m))))
                .collect();
            let mut depth = 1;
            loop {
                let mut next = Vec::with_capacity(scored.len());
                let mut alpha: f64 = -2.0;
                let mut done = true;
                scored.sort_by(|a, b| b.1.total_cmp(&a.1));
                for &(m, _) in &scored {
                    let c = game.play(pos, m);
                    match alpha_beta(game, &c, depth - 1, -2.0, -alpha + 1e-9, &mut nodes, deadline) {
                        Some(v) => {
                            let v = -v;
                            alpha = f64::max(alpha, v);
                            next.push((m, v));
                        }
                        None => {
                            done = false;
                            break;
                        }
                    }
                }
                if !done {
                    break;
                }
                scored = next;
                if depth as usize >= game.shape().cells() as usize - pos.placed() as usize {
                    break;
                }
                depth += 1;
            }
            scored.sort_by(|a, b| b.1.total_cmp(&a.1));
            Ranking {
                moves: scored
                    .into_iter()
                    .map(|(mv, v)| Estimate {
                        mv,
                        score: (v + 1.0) / 2.0,
                        visits: 0,
                    })
                    .collect(),
                work: nodes,
                exact: false,
            }
        }
    }
}

/// A uniformly random legal move, if any.
pub fn random_move(game: &Topolo, pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = game.moves(pos);
    (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
}

/// The one-ply greedy player's move: the one that most increases its own
/// largest group, then that group's height; ties at random.
pub fn greedy_move(game: &Topolo, pos: &Position, rng: &mut Rng) -> Option<Move> {
    let mover = game.to_move(pos);
    let shape = game.shape();
    let mut best: Vec<Move> = Vec::new();
    let mut key = (0u32, 0u32);
    for m in game.moves(pos) {
        let c = game.play(pos, m);
        let top = crate::groups::group_list(shape, &c, mover)
            .first()
            .map_or((0, 0), |g| (g.size, g.height));
        if best.is_empty() || top > key {
            key = top;
            best = vec![m];
        } else if top == key {
            best.push(m);
        }
    }
    (!best.is_empty()).then(|| best[rng.below(best.len())])
}
