//! Players for boards too large to solve: Monte Carlo tree search (UCT
//! over random games played to the end), an alpha-beta search over a
//! group-size evaluation, and the two simple players the benchmark plays
//! them against (uniformly random, and one-ply greedy). No I/O; time is a
//! budget given by the caller.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::piece::{Color, Size};
use crate::position::Position;
use crate::rules::{Move, Topolo};
use crate::shape::{Class, RowClasses};
use topitop_game_api::rng::Rng;

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
        let mut cells: Vec<u32> = (0..u32::from(shape.cells()))
            .filter(|&b| shape.class(class) >> b & 1 == 1 && p.occupied() >> b & 1 == 0)
            .collect();
        while !cells.is_empty() {
            let bit = cells.swap_remove(rng.index(cells.len()));
            let mover = game.to_move(&p);
            let l = &mut left[usize::from(mover == Color::Black)];
            let total: u32 = l.iter().sum();
            let mut k = rng.below(u64::from(total.max(1))) as u32;
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
    /// Indices of the children in the tree's nodes.
    children: Vec<u32>,
    untried: Vec<Move>,
    visits: u64,
    /// Sum of results for the player who made `mv`.
    total: f64,
}

/// A search tree that never takes more than its memory cap: once a new
/// node would not fit, it stops growing and the search goes on sampling
/// from its leaves.
struct Tree {
    nodes: Vec<Node>,
    /// Bytes the nodes' move and child lists hold.
    lists: usize,
    /// The most bytes the tree may hold.
    cap: usize,
    /// A node did not fit: the tree grows no more.
    full: bool,
}

impl Tree {
    /// A tree of the root alone, whose moves are `moves`.
    fn new(moves: Vec<Move>, cap: usize) -> Tree {
        let mut tree = Tree {
            nodes: Vec::new(),
            lists: 0,
            cap,
            full: false,
        };
        tree.full = !tree.fits(None, &moves);
        tree.push(None, moves);
        tree
    }

    /// Bytes held: the node array and every node's lists.
    fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.lists
    }

    /// Whether a node with `moves`, child of `parent`, fits under the cap
    /// (with the node array grown and the parent's child list made, if
    /// either is needed). A tree too small for its root still has one.
    fn fits(&self, parent: Option<usize>, moves: &[Move]) -> bool {
        if self.nodes.len() >= u32::MAX as usize {
            return false;
        }
        let mut more = std::mem::size_of_val(moves);
        if self.nodes.len() == self.nodes.capacity() {
            more += self.nodes.capacity().max(4) * std::mem::size_of::<Node>();
        }
        if let Some(p) = parent.map(|p| &self.nodes[p]) {
            if p.children.capacity() == 0 {
                // Every move of the parent gets a child in the end.
                more += (p.untried.len() + p.children.len()) * std::mem::size_of::<u32>();
            }
        }
        self.bytes() + more <= self.cap
    }

    /// Adds a node reached by `mv` with `moves` (its lists made to measure,
    /// so that their capacity is what they hold); its index.
    fn push(&mut self, mv: Option<Move>, mut moves: Vec<Move>) -> usize {
        moves.shrink_to_fit();
        if self.nodes.len() == self.nodes.capacity() {
            self.nodes.reserve_exact(self.nodes.capacity().max(4));
        }
        self.lists += moves.capacity() * std::mem::size_of::<Move>();
        self.nodes.push(Node {
            mv,
            children: Vec::new(),
            untried: moves,
            visits: 0,
            total: 0.0,
        });
        self.nodes.len() - 1
    }

    /// The root's moves searched, each with its visits and total.
    fn root_moves(&self) -> impl Iterator<Item = (Move, u64, f64)> + '_ {
        self.nodes[0].children.iter().filter_map(|&c| {
            let c = &self.nodes[c as usize];
            Some((c.mv?, c.visits, c.total))
        })
    }

    /// Makes `mv`, one of `parent`'s untried moves, a child with `moves`,
    /// if it fits; the child's index.
    fn expand(&mut self, parent: usize, k: usize, moves: Vec<Move>) -> Option<usize> {
        if self.full || !self.fits(Some(parent), &moves) {
            self.full = true;
            return None;
        }
        let p = &mut self.nodes[parent];
        if p.children.capacity() == 0 {
            p.children.reserve_exact(p.untried.len() + p.children.len());
            self.lists += p.children.capacity() * std::mem::size_of::<u32>();
        }
        let mv = p.untried.swap_remove(k);
        let child = self.push(Some(mv), moves);
        self.nodes[parent].children.push(child as u32);
        Some(child)
    }
}

/// `tree`, whose root is `root`, searched until `until` is over or
/// `playouts` games are played, seeded by `seed`; the games played.
fn uct(game: &Topolo, root: &Position, tree: &mut Tree, until: Until<'_>, playouts: u64, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut played = 0u64;
    let mut path = Vec::with_capacity(80);
    let first_mover = game.to_move(root);
    while played < playouts && (!played.is_multiple_of(64) || !until.over()) {
        path.clear();
        let mut n = 0usize;
        let mut pos = *root;
        path.push(n);
        let nodes = &tree.nodes;
        // Selection.
        while nodes[n].untried.is_empty() && !nodes[n].children.is_empty() {
            let ln = (nodes[n].visits.max(1) as f64).ln();
            let u = |c: usize| {
                let c = &nodes[c];
                c.total / c.visits as f64 + 0.7 * (ln / c.visits as f64).sqrt()
            };
            n = nodes[n]
                .children
                .iter()
                .map(|&c| c as usize)
                .max_by(|&a, &b| u(a).total_cmp(&u(b)))
                .unwrap_or(n);
            pos = game.play(
                &pos,
                nodes[n].mv.unwrap_or(Move {
                    size: Size::Small,
                    bit: 0,
                }),
            );
            path.push(n);
        }
        // Expansion, while the tree has room; then the play-out starts
        // from the leaf reached.
        if !tree.full && !tree.nodes[n].untried.is_empty() {
            let k = rng.index(tree.nodes[n].untried.len());
            let next = game.play(&pos, tree.nodes[n].untried[k]);
            if let Some(child) = tree.expand(n, k, game.moves(&next)) {
                pos = next;
                n = child;
                path.push(n);
            }
        }
        // Simulation, then back-propagation: each node scores the result
        // for the player who made its move.
        let end = playout(game, &pos, &mut rng);
        let r = result(game, &end, first_mover);
        for (depth, &k) in path.iter().enumerate() {
            let node = &mut tree.nodes[k];
            node.visits += 1;
            // The move into a node at depth d was made by the root's mover
            // when d is odd.
            node.total += if depth % 2 == 1 { r } else { 1.0 - r };
        }
        played += 1;
    }
    played
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
    until: Until<'_>,
) -> Option<f64> {
    *nodes += 1;
    if game.is_over(pos) || depth == 0 {
        return Some(evaluate(game, pos));
    }
    if nodes.is_multiple_of(1024) && until.over() {
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
        let v = -alpha_beta(game, &c, depth - 1, -beta, -alpha, nodes, until)?;
        best = f64::max(best, v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}

/// Positions whose exact result is known, in a table that never takes
/// more than its memory cap: once full, it takes no more (the search goes
/// on, re-solving what it could not keep).
struct Solved {
    table: std::collections::HashMap<Position, i8>,
    /// The most entries kept.
    room: usize,
}

impl Solved {
    /// The worst bytes an entry costs: a hash table's slot and control
    /// byte, at the lowest load it has just after doubling (7/16).
    const ENTRY: usize = (std::mem::size_of::<(Position, i8)>() + 1) * 16 / 7 + 1;

    /// An empty table that will hold at most `memory` bytes.
    fn new(memory: usize) -> Solved {
        Solved {
            table: std::collections::HashMap::new(),
            room: memory / Solved::ENTRY,
        }
    }

    fn keep(&mut self, pos: Position, v: i8) {
        if self.table.len() < self.room {
            self.table.insert(pos, v);
        }
    }

    /// Bytes the table holds (its slots and control bytes).
    #[cfg(test)]
    fn bytes(&self) -> usize {
        let slots = (self.table.capacity() * 8 / 7).next_power_of_two();
        slots * (std::mem::size_of::<(Position, i8)>() + 1)
    }
}

/// The exact result of `pos` for the player to move (1 win, 0 tie, -1
/// loss) by negamax with alpha-beta and a table of positions solved,
/// unless the search is over first.
fn exact(
    game: &Topolo,
    pos: &Position,
    mut alpha: i8,
    beta: i8,
    solved: &mut Solved,
    until: Until<'_>,
    nodes: &mut u64,
) -> Option<i8> {
    if let Some(o) = game.outcome(pos) {
        return Some(match o {
            crate::Outcome::Win => 1,
            crate::Outcome::Lose => -1,
            crate::Outcome::Tie => 0,
        });
    }
    if let Some(&v) = solved.table.get(pos) {
        return Some(v);
    }
    *nodes += 1;
    if nodes.is_multiple_of(4096) && until.over() {
        return None;
    }
    let (alpha0, mut best) = (alpha, -1i8);
    for m in game.moves(pos) {
        let v = -exact(game, &game.play(pos, m), -beta, -alpha, solved, until, nodes)?;
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    // A value at the window's edge is only a bound, unless it is the
    // least or greatest there is.
    if (best > alpha0 || best == -1) && (best < beta || best == 1) {
        solved.keep(*pos, best);
    }
    Some(best)
}

/// Every move of `pos` with its exact result for its maker, if the search
/// ends before it is over.
fn exact_moves(
    game: &Topolo,
    pos: &Position,
    until: Until<'_>,
    solved: &mut Solved,
) -> Option<(Vec<(Move, f64)>, u64)> {
    let mut nodes = 0;
    let mut out = Vec::new();
    for m in game.moves(pos) {
        let v = -exact(game, &game.play(pos, m), -1, 1, solved, until, &mut nodes)?;
        out.push((m, (f64::from(v) + 1.0) / 2.0));
    }
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    Some((out, nodes))
}

/// The memory a search takes at most by default, over all its threads:
/// its trees (MCTS) or its table of positions solved (the search to the
/// end). Growing fast on the 8×8 board (docs/topolo.md), a search
/// reaches it after some seconds and goes on within it.
pub const MEMORY: usize = 512 << 20;

/// What a search may spend, and what ends it early.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// Wall time it may take, on all its threads together.
    pub time: Duration,
    /// Random games (MCTS) at most, over all threads.
    pub playouts: u64,
    /// Bytes of search trees, or of the table of positions solved, at
    /// most, over all threads ([`MEMORY`] by default).
    pub memory: usize,
    /// Set (by another thread) to end the search at once; it answers with
    /// what it has.
    pub stop: &'a AtomicBool,
}

/// When a search is over: at its deadline, or once `stop` is set.
#[derive(Clone, Copy, Debug)]
struct Until<'a> {
    deadline: Instant,
    stop: &'a AtomicBool,
}

impl<'a> Until<'a> {
    /// `time` from now (for ever, in effect, when that is past what a
    /// clock can say), or `stop`.
    fn after(time: Duration, stop: &'a AtomicBool) -> Until<'a> {
        let now = Instant::now();
        let deadline = now
            .checked_add(time)
            .or_else(|| now.checked_add(Duration::from_secs(1 << 32)))
            .unwrap_or(now);
        Until { deadline, stop }
    }

    fn over(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }
}

/// Every legal move of `pos` ranked by `method` within `budget`, best
/// first, on `threads` threads (MCTS: one tree each, merged at the root;
/// alpha-beta: one), in at most [`MEMORY`] bytes. `seed` makes a search
/// repeatable when the budget is given in play-outs (`playouts`) rather
/// than time.
pub fn rank(
    game: &Topolo,
    pos: &Position,
    method: Method,
    budget: Duration,
    playouts: u64,
    threads: usize,
    seed: u64,
) -> Ranking {
    let never = AtomicBool::new(false);
    let budget = Budget {
        time: budget,
        playouts,
        memory: MEMORY,
        stop: &never,
    };
    rank_within(game, pos, method, &budget, threads, seed)
}

/// [`rank`] within `budget`'s time, play-outs and memory, ended early
/// (with what it has) once its `stop` is set.
pub fn rank_within(
    game: &Topolo,
    pos: &Position,
    method: Method,
    budget: &Budget<'_>,
    threads: usize,
    seed: u64,
) -> Ranking {
    if game.moves(pos).is_empty() {
        return Ranking {
            moves: Vec::new(),
            work: 0,
            exact: true,
        };
    }
    let until = Until::after(budget.time, budget.stop);
    // Near the end the game is searched to the end: a third of the budget
    // for an exact answer, the rest for the estimate if it runs out.
    let mut solved = Solved::new(budget.memory);
    let first = Until::after(budget.time / 3, budget.stop);
    if let Some((exact, nodes)) = exact_moves(game, pos, first, &mut solved) {
        return Ranking {
            moves: exact
                .into_iter()
                .map(|(mv, score)| Estimate { mv, score, visits: 0 })
                .collect(),
            work: nodes,
            exact: true,
        };
    }
    drop(solved);
    match method {
        Method::Mcts => mcts(game, pos, until, budget, threads, seed),
        Method::AlphaBeta => deepening(game, pos, until),
    }
}

/// A tree's root moves, each with its visits and its total.
type RootMoves = Vec<(Move, u64, f64)>;

/// The moves of `pos` ranked by MCTS on `threads` trees, merged at the
/// root: the most visited first.
fn mcts(
    game: &Topolo,
    pos: &Position,
    until: Until<'_>,
    budget: &Budget<'_>,
    threads: usize,
    seed: u64,
) -> Ranking {
    let threads = threads.max(1);
    let per = budget.playouts.div_ceil(threads as u64);
    let memory = budget.memory / threads;
    let searched: Vec<(RootMoves, u64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let seed = seed.wrapping_add(t as u64 * 7919);
                s.spawn(move || {
                    let mut tree = Tree::new(game.moves(pos), memory);
                    let played = uct(game, pos, &mut tree, until, per, seed);
                    (tree.root_moves().collect(), played)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let trees: Vec<&RootMoves> = searched.iter().map(|(moves, _)| moves).collect();
    let mut ranked: Vec<Estimate> = game
        .moves(pos)
        .into_iter()
        .map(|mv| {
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
    let work = searched.iter().map(|(_, played)| played).sum();
    // The most visited move is the search's choice; ties by score.
    ranked.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.score.total_cmp(&a.score)));
    Ranking {
        moves: ranked,
        work,
        exact: false,
    }
}

/// The moves of `pos` ranked by alpha-beta, one ply deeper each round
/// while time lasts.
fn deepening(game: &Topolo, pos: &Position, until: Until<'_>) -> Ranking {
    let mut nodes = 0u64;
    let mut scored: Vec<(Move, f64)> = game
        .moves(pos)
        .into_iter()
        .map(|m| (m, -evaluate(game, &game.play(pos, m))))
        .collect();
    let mut depth = 1;
    loop {
        let mut next = Vec::with_capacity(scored.len());
        let mut alpha: f64 = -2.0;
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        for &(m, _) in &scored {
            let c = game.play(pos, m);
            let Some(v) = alpha_beta(game, &c, depth - 1, -2.0, -alpha + 1e-9, &mut nodes, until) else {
                break;
            };
            alpha = f64::max(alpha, -v);
            next.push((m, -v));
        }
        if next.len() < scored.len() {
            break;
        }
        scored = next;
        if depth as usize >= usize::from(game.shape().cells()) - pos.placed() as usize {
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

/// A uniformly random legal move, if any.
pub fn random_move(game: &Topolo, pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = game.moves(pos);
    (!moves.is_empty()).then(|| moves[rng.index(moves.len())])
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
    (!best.is_empty()).then(|| best[rng.index(best.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use crate::shape::Shape;
    use topitop_game_api::Game;

    fn board(rows: u8, cols: u8) -> Topolo {
        Topolo::new(Shape::new(rows, cols).unwrap(), Variant::Full)
    }

    /// The bytes a tree's allocations hold, counted from the allocations
    /// themselves rather than the tree's own tally.
    fn held(tree: &Tree) -> usize {
        tree.nodes.capacity() * std::mem::size_of::<Node>()
            + tree
                .nodes
                .iter()
                .map(|n| n.untried.capacity() * size_of::<Move>() + n.children.capacity() * size_of::<u32>())
                .sum::<usize>()
    }

    #[test]
    fn a_long_search_keeps_its_tree_under_the_memory_cap() {
        let game = board(8, 8);
        let never = AtomicBool::new(false);
        let until = Until::after(Duration::MAX, &never);
        let cap = 256 << 10;
        let start = game.start();
        let mut tree = Tree::new(game.moves(&start), cap);
        let played = uct(&game, &start, &mut tree, until, 3000, 7);
        assert_eq!(played, 3000, "the search goes on sampling once its tree is full");
        assert!(tree.full);
        assert_eq!(held(&tree), tree.bytes(), "the tally is what is held");
        assert!(tree.bytes() <= cap, "{} bytes, cap {cap}", tree.bytes());
        // About 1.6 kB a node on the empty 8x8 board: the cap, not the
        // play-outs, stopped the tree at some hundred nodes.
        let nodes = tree.nodes.len();
        assert!((50..1000).contains(&nodes), "{nodes} nodes");
        let visits: u64 = tree.root_moves().map(|m| m.1).sum();
        assert_eq!(visits, 3000, "every play-out went through a root move");
        // Without the cap, a node for every play-out.
        let mut free = Tree::new(game.moves(&start), MEMORY);
        uct(&game, &start, &mut free, until, 300, 7);
        assert_eq!(free.nodes.len(), 301);
        assert!(!free.full);
        assert_eq!(held(&free), free.bytes());
    }

    #[test]
    fn a_tree_too_small_for_its_root_still_searches() {
        let game = board(8, 8);
        let never = AtomicBool::new(false);
        let start = game.start();
        let mut tree = Tree::new(game.moves(&start), 100);
        let played = uct(
            &game,
            &start,
            &mut tree,
            Until::after(Duration::MAX, &never),
            50,
            1,
        );
        assert_eq!((tree.nodes.len(), played), (1, 50));
    }

    #[test]
    fn the_search_to_the_end_keeps_its_table_under_the_cap_and_its_answer() {
        let game = board(3, 3);
        let never = AtomicBool::new(false);
        let until = Until::after(Duration::MAX, &never);
        let mut free = Solved::new(MEMORY);
        let (all, _) = exact_moves(&game, &game.start(), until, &mut free).unwrap();
        assert!(free.table.len() > 100, "{}", free.table.len());
        let cap = 2 << 10;
        let mut small = Solved::new(cap);
        let (within, _) = exact_moves(&game, &game.start(), until, &mut small).unwrap();
        assert_eq!(within, all, "a full table costs time, never the answer");
        assert!(small.bytes() <= cap, "{} bytes, cap {cap}", small.bytes());
        assert_eq!(small.table.len(), small.room);
    }

    #[test]
    fn a_search_stops_when_told_even_with_no_end_of_time() {
        let game = board(8, 8);
        let stop = AtomicBool::new(false);
        for method in [Method::Mcts, Method::AlphaBeta] {
            let budget = Budget {
                time: Duration::MAX,
                playouts: u64::MAX,
                memory: 1 << 20,
                stop: &stop,
            };
            let start = Instant::now();
            let ranking = std::thread::scope(|s| {
                let search = s.spawn(|| rank_within(&game, &game.start(), method, &budget, 2, 1));
                std::thread::sleep(Duration::from_millis(200));
                stop.store(true, Ordering::Relaxed);
                search.join().unwrap()
            });
            stop.store(false, Ordering::Relaxed);
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{method:?}: {:?}",
                start.elapsed()
            );
            assert_eq!(ranking.moves.len(), game.moves(&game.start()).len());
            assert!(!ranking.exact);
        }
    }
}
