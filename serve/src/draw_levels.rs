//! Draw levels: GamesmanClassic's pure-draw analysis, which GamesmanUni's
//! Draw Level view and status line show (`drawLevel`, `drawRemoteness`).
//!
//! Among drawn positions, a player who can be made to face a move that
//! loses has something to fear. Level 0's *fringe* is every draw with a
//! move to a position won by the opponent: a draw-lose in 0 for the player
//! to move. From the fringe a retrograde pass runs over draws alone, as a
//! solve does over wins and losses: a draw with a move to a draw-lose is a
//! draw-win (one more than the fastest such move); a draw all of whose
//! drawing moves lead to draw-wins is a draw-lose (one more than the
//! slowest). The draw-wins found make the next level's fringe: their
//! undecided parents are level 1's draw-losses in 0, and so on while a
//! level finds any. A draw-lose with a parent that is a draw-lose too is
//! *impure*, as is every draw above an impure one along drawing moves:
//! impure and never-reached draws have no level. The draw remoteness is
//! even for a draw-lose of the player to move, odd for a draw-win.
//!
//! Computed from a solved database on a variant's first answer and kept
//! in memory (docs/serve.md#draw-levels); a variant with more draws than
//! [`MAX_DRAWS`] is served without them, and says so in the log.

use std::collections::{HashMap, VecDeque};

use topitop_db::Reader;
use topitop_game_api::{Game, Value};

/// The most draws analysed for one variant: about 100 bytes each (the
/// position twice, its place in the graph and its edges), so a gigabyte.
pub const MAX_DRAWS: u64 = 10_000_000;

/// A draw's level and draw remoteness, by canonical position.
pub struct DrawLevels<P> {
    levels: HashMap<P, (u32, u32)>,
}

impl<P: std::hash::Hash + Eq> DrawLevels<P> {
    /// `(drawLevel, drawRemoteness)` of a position given in canonical
    /// form; none for a non-draw, an impure draw or one never reached.
    pub fn get(&self, canonical: &P) -> Option<(u32, u32)> {
        self.levels.get(canonical).copied()
    }

    /// How many draws have a level.
    pub fn len(&self) -> usize {
        self.levels.len()
    }

    /// True when no draw has a level.
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mark {
    Undecided,
    Win(u32, u32),
    Lose(u32, u32),
    Impure,
}

/// The draw levels of every draw `db` holds that play may reach (by
/// [`Game::reachable`]).
///
/// # Errors
/// More draws than [`MAX_DRAWS`], or a damaged block, in words.
pub fn analyse<G: Game, R: Reader<G> + ?Sized>(game: &G, db: &R) -> Result<DrawLevels<G::Position>, String> {
    let facts = db.facts();
    let draws = facts.counts[Value::Draw as usize];
    if draws > MAX_DRAWS {
        return Err(format!(
            "{} draws, more than the {MAX_DRAWS} this server analyses",
            draws
        ));
    }
    // The draws, numbered.
    let mut ids: HashMap<G::Position, u32> = HashMap::new();
    let mut nodes: Vec<G::Position> = Vec::new();
    for t in 0..facts.tiers.len() {
        for chunk in db.canonical_chunks(game, t).map_err(|e| e.to_string())? {
            for (pos, rec) in chunk.map_err(|e| e.to_string())? {
                let Some(pos) = pos else { continue };
                if rec.value() == Some(Value::Draw) && game.reachable(&pos) {
                    let c = game.canonical(&pos);
                    if let std::collections::hash_map::Entry::Vacant(e) = ids.entry(c) {
                        e.insert(nodes.len() as u32);
                        nodes.push(c);
                    }
                }
            }
        }
    }
    // Each draw's parents among draws, its drawing moves still undecided,
    // and whether it has a move that loses (to a position the opponent
    // wins): level 0's fringe.
    let n = nodes.len();
    let mut parents: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut open = vec![0u32; n];
    let mut fringe = Vec::new();
    for (i, pos) in nodes.iter().enumerate() {
        let mut loses = false;
        for mv in game.moves(pos) {
            let child = game.canonical(&game.play(pos, mv));
            if let Some(&c) = ids.get(&child) {
                parents[c as usize].push(i as u32);
                open[i] += 1;
            } else if db.lookup(game, &child).map_err(|e| e.to_string())?.value() == Some(Value::Win) {
                loses = true;
            }
        }
        if loses {
            fringe.push(i as u32);
        }
    }
    let mark = classify(&parents, open, fringe);
    let levels = nodes
        .into_iter()
        .zip(mark)
        .filter_map(|(pos, m)| match m {
            Mark::Win(l, r) | Mark::Lose(l, r) => Some((pos, (l, r))),
            Mark::Undecided | Mark::Impure => None,
        })
        .collect();
    Ok(DrawLevels { levels })
}

/// The levels of the draw graph: `parents[c]` the draws with a move to
/// draw `c` (once a move), `open[p]` the drawing moves of `p`, `fringe`
/// the draws with a move that loses.
fn classify(parents: &[Vec<u32>], mut open: Vec<u32>, mut fringe: Vec<u32>) -> Vec<Mark> {
    let mut mark = vec![Mark::Undecided; parents.len()];
    let mut impure = Vec::new();
    let mut level = 0u32;
    while !fringe.is_empty() {
        let mut lose_queue = VecDeque::new();
        for &i in &fringe {
            if mark[i as usize] == Mark::Undecided {
                mark[i as usize] = Mark::Lose(level, 0);
                lose_queue.push_back(i);
            }
        }
        let mut win_queue = VecDeque::new();
        let mut wins = Vec::new();
        // Losses first, as a solve takes them, so each remoteness is the
        // best play's.
        while let Some(c) = lose_queue.pop_front().or_else(|| win_queue.pop_front()) {
            match mark[c as usize] {
                Mark::Lose(_, r) => {
                    for &p in &parents[c as usize] {
                        match mark[p as usize] {
                            Mark::Undecided => {
                                mark[p as usize] = Mark::Win(level, r + 1);
                                win_queue.push_back(p);
                                wins.push(p);
                            }
                            Mark::Lose(..) | Mark::Impure => {
                                // A draw-lose one move from another: the
                                // levels do not separate them.
                                mark[c as usize] = Mark::Impure;
                                impure.push(c);
                                break;
                            }
                            Mark::Win(..) => {}
                        }
                    }
                }
                Mark::Win(_, r) => {
                    for &p in &parents[c as usize] {
                        if mark[p as usize] == Mark::Undecided {
                            open[p as usize] -= 1;
                            if open[p as usize] == 0 {
                                mark[p as usize] = Mark::Lose(level, r + 1);
                                lose_queue.push_back(p);
                            }
                        }
                    }
                }
                Mark::Undecided | Mark::Impure => {}
            }
        }
        // The next level's fringe: undecided draws with a move to one of
        // this level's draw-wins.
        fringe = wins
            .iter()
            .flat_map(|&w| parents[w as usize].iter().copied())
            .filter(|&p| mark[p as usize] == Mark::Undecided)
            .collect();
        level += 1;
    }
    tracing::debug!(
        levels = level,
        draw_wins = mark.iter().filter(|m| matches!(m, Mark::Win(..))).count(),
        draw_losses = mark.iter().filter(|m| matches!(m, Mark::Lose(..))).count(),
        impure = impure.len(),
        draws = mark.len(),
        "draw levels before impurity climbs"
    );
    // Impurity climbs every drawing move back.
    while let Some(c) = impure.pop() {
        for &p in &parents[c as usize] {
            if mark[p as usize] != Mark::Impure {
                mark[p as usize] = Mark::Impure;
                impure.push(p);
            }
        }
    }
    mark
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The graph of `edges` (parent, child) among `n` draws.
    fn graph(n: usize, edges: &[(u32, u32)]) -> (Vec<Vec<u32>>, Vec<u32>) {
        let mut parents = vec![Vec::new(); n];
        let mut open = vec![0; n];
        for &(p, c) in edges {
            parents[c as usize].push(p);
            open[p as usize] += 1;
        }
        (parents, open)
    }

    #[test]
    fn a_chain_from_the_fringe_alternates_draw_lose_and_draw_win() {
        // 0 has a losing move; 1 draws only into 0; 2 only into 1.
        let (parents, open) = graph(3, &[(1, 0), (2, 1)]);
        let marks = classify(&parents, open, vec![0]);
        assert_eq!(marks, [Mark::Lose(0, 0), Mark::Win(0, 1), Mark::Lose(0, 2)]);
    }

    #[test]
    fn a_draw_lose_next_to_a_draw_lose_is_impure_and_so_is_all_above_it() {
        // 0 and 1 both have losing moves, and 0 a move to 1; 2 draws into 0.
        let (parents, open) = graph(3, &[(0, 1), (2, 0)]);
        let marks = classify(&parents, open, vec![0, 1]);
        assert_eq!(marks, [Mark::Impure, Mark::Impure, Mark::Impure]);
    }

    #[test]
    fn a_draw_that_can_hand_over_a_draw_win_is_the_next_level_s_fringe() {
        // 0 on the fringe, 1 a draw-win into it; 2 draws into 1 or into the
        // cycle 3-4, which no fringe reaches.
        let (parents, open) = graph(5, &[(1, 0), (2, 1), (2, 3), (3, 4), (4, 3)]);
        let marks = classify(&parents, open, vec![0]);
        assert_eq!(
            marks,
            [
                Mark::Lose(0, 0),
                Mark::Win(0, 1),
                Mark::Lose(1, 0),
                Mark::Undecided,
                Mark::Undecided
            ]
        );
    }

    #[test]
    fn a_draw_win_takes_its_fastest_move_and_a_draw_lose_its_slowest() {
        // 0 and 3 on the fringe; 1 -> 0 (win in 1); 2 -> {1, 4}, 4 -> 3 is a
        // win in 1 too, 5 -> 2 (2 is a lose in 2), so 5 is a win in 3; 6 ->
        // {0, 2}: the quicker, 0, makes it a win in 1.
        let (parents, open) = graph(7, &[(1, 0), (2, 1), (2, 4), (4, 3), (5, 2), (6, 0), (6, 2)]);
        let marks = classify(&parents, open, vec![0, 3]);
        assert_eq!(marks[2], Mark::Lose(0, 2));
        assert_eq!(marks[5], Mark::Win(0, 3));
        assert_eq!(marks[6], Mark::Win(0, 1));
    }
}
