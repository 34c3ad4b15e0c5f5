//! Best lines of play from a differing position under each side, where
//! they part, and the nearest position on them whose own rules differ.

use std::collections::{HashMap, VecDeque};

use games_topitop_rules::{parse_position_syntax, play_unchecked, Move, Position};
use games_topitop_solved::Database;
use serde::Serialize;
use topitop_serve::{respond_game, GameOver};

use super::explain::{rules_difference, Outcome};

/// Plies followed at most: longer than any win or loss of the standard
/// game; a drawn line stops earlier, at its first repeated position.
const MAX_PLIES: usize = 200;

/// Plies shown after the lines part.
const SHOWN_AFTER: usize = 4;

/// One ply of a best line.
#[derive(Clone, Debug, Serialize)]
pub struct Ply {
    /// The position reached.
    pub position: String,
    /// Its value and remoteness on this side.
    pub outcome: Outcome,
    /// The best move from it (GamesmanUni's order), `null` at the end.
    pub best_move: Option<String>,
}

/// The nearest position whose own moves or primitive value differ between
/// the rulesets: on either best line, or else the nearest among the
/// positions reached through children that differ.
#[derive(Clone, Debug, Serialize)]
pub struct NearestRules {
    /// Its ply (0: the example itself).
    pub ply: usize,
    /// `a` or `b` (on that side's best line), `both` (where the lines
    /// still agree), or `off` (off both best lines).
    pub line: &'static str,
    /// The moves from the example that reach it.
    pub moves: Vec<String>,
    /// The position string.
    pub position: String,
    /// What the rulesets make differently of it.
    pub reason: String,
}

impl NearestRules {
    /// Where it is, in one line: the text report's and the HTML report's.
    pub fn describe(&self) -> String {
        if self.ply == 0 {
            return format!("the rules differ at this position itself: {}", self.reason);
        }
        let place = match self.line {
            "off" => "off the best lines".to_string(),
            "both" => "on both lines".to_string(),
            side => format!("on {}'s line", side.to_uppercase()),
        };
        format!(
            "nearest position whose own rules differ: {} after {} ({place}): {}",
            self.position,
            self.moves.join(" "),
            self.reason
        )
    }
}

/// The lines of an example.
#[derive(Clone, Debug, Serialize)]
pub struct ExampleLines {
    /// Best line under A, up to a few plies after the lines part.
    pub line_a: Vec<Ply>,
    /// Best line under B, likewise.
    pub line_b: Vec<Ply>,
    /// The first ply where the two sides pick different moves (or one
    /// line ends); `null` if the lines agree throughout.
    pub diverge_at: Option<usize>,
    /// `null` if no such position lies on either line.
    pub nearest_rules_cause: Option<NearestRules>,
}

/// Best line from `pos` under `db`'s rules: each position with its best
/// move, until the game ends, a position repeats, or [`MAX_PLIES`].
fn best_line(db: &Database, pos: Position) -> anyhow::Result<Vec<(Position, Ply)>> {
    let rules = db.rules();
    let mut line: Vec<(Position, Ply)> = Vec::new();
    let mut at = pos;
    while line.len() < MAX_PLIES {
        let r = respond_game(&rules, db, &at, GameOver::AsStored)?;
        let best = r.moves.first();
        line.push((
            at,
            Ply {
                position: at.to_string(),
                outcome: Outcome::of(db.get(at)?),
                best_move: best.map(|m| m.mv.clone()),
            },
        ));
        let Some(best) = best else { break };
        let next = parse_position_syntax(&best.position)?;
        if line.iter().any(|(p, _)| *p == next) {
            break;
        }
        at = next;
    }
    Ok(line)
}

/// The lines of the example `pos` under `a` and `b`.
///
/// # Errors
/// A damaged database.
pub fn example_lines(a: &Database, b: &Database, pos: Position) -> anyhow::Result<ExampleLines> {
    let (la, lb) = (best_line(a, pos)?, best_line(b, pos)?);
    let step = |l: &[(Position, Ply)], i: usize| l.get(i).map(|(p, ply)| (*p, ply.best_move.clone()));
    let diverge_at = (0..la.len().max(lb.len())).find(|&i| step(&la, i) != step(&lb, i));
    let mut nearest = None;
    'search: for i in 0..la.len().max(lb.len()) {
        let (pa, pb) = (la.get(i).map(|x| x.0), lb.get(i).map(|x| x.0));
        for (line, l, p) in [("a", &la, pa), ("b", &lb, pb)] {
            let Some(p) = p else { continue };
            if let Some(reason) = rules_difference(a.rules(), b.rules(), p) {
                nearest = Some(NearestRules {
                    ply: i,
                    line: if pa == pb { "both" } else { line },
                    moves: l[..i]
                        .iter()
                        .filter_map(|(_, ply)| ply.best_move.clone())
                        .collect(),
                    position: p.to_string(),
                    reason,
                });
                break 'search;
            }
        }
    }
    if nearest.is_none() {
        nearest = off_the_lines(a, b, pos)?;
    }
    let shown = diverge_at.map_or(usize::MAX, |d| d + 1 + SHOWN_AFTER);
    let keep = |l: Vec<(Position, Ply)>| l.into_iter().take(shown).map(|(_, ply)| ply).collect();
    Ok(ExampleLines {
        line_a: keep(la),
        line_b: keep(lb),
        diverge_at,
        nearest_rules_cause: nearest,
    })
}

/// Positions examined at most by [`off_the_lines`].
const MAX_SEARCHED: usize = 100_000;

/// Breadth first from `pos` through children whose records differ between
/// the sides, the nearest position whose own rules differ. A difference
/// that propagates has such a child, so this chain leads to its origin
/// unless it only runs through drawn cycles.
fn off_the_lines(a: &Database, b: &Database, pos: Position) -> anyhow::Result<Option<NearestRules>> {
    let rules = a.rules();
    let mut parent: HashMap<Position, Option<(Position, Move)>> = HashMap::from([(pos, None)]);
    let mut queue = VecDeque::from([(pos, 0usize)]);
    while let Some((at, depth)) = queue.pop_front() {
        if let Some(reason) = rules_difference(a.rules(), b.rules(), at) {
            let mut moves = Vec::new();
            let mut p = at;
            while let Some(&Some((from, m))) = parent.get(&p) {
                moves.push(m.to_string());
                p = from;
            }
            moves.reverse();
            return Ok(Some(NearestRules {
                ply: depth,
                line: "off",
                moves,
                position: at.to_string(),
                reason,
            }));
        }
        for &m in rules.legal_moves(at).iter() {
            let child = play_unchecked(at, m);
            if parent.contains_key(&child) || a.get(child)? == b.get(child)? {
                continue;
            }
            parent.insert(child, Some((at, m)));
            if parent.len() > MAX_SEARCHED {
                return Ok(None);
            }
            queue.push_back((child, depth + 1));
        }
    }
    Ok(None)
}
