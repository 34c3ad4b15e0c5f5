//! Re-checks a solution against forward move generation only (the Bellman
//! conditions of each value), independently of the solver's bookkeeping.

use rayon::prelude::*;
use topitop_game::group::{group, move_of_half_allowed};
use topitop_game::{play_unchecked, Move, MoveList, Position, Value};
use topitop_table::{Record, Solution};

/// One position whose record breaks its conditions.
#[derive(Clone, Debug)]
pub struct Violation {
    /// The position.
    pub position: Position,
    /// Its record.
    pub record: Record,
    /// What is wrong.
    pub reason: String,
}

/// The outcome of a verification.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Positions checked.
    pub checked: u64,
    /// How many broke their conditions.
    pub violations: u64,
    /// The first few, in index order.
    pub examples: Vec<Violation>,
}

/// Groups per unit of parallel work.
const CHUNK_GROUPS: u32 = 1024;

/// Checks every record of `solution`; keeps up to `keep` examples.
///
/// The positions of one board and side to move (a half of its group)
/// differ only in the forbidden slide, which removes at most one move and
/// never changes a move's child: the children of the position with nothing
/// forbidden are looked up once, and each position is checked against
/// them less its forbidden slide.
pub fn verify(solution: &Solution, keep: usize) -> Report {
    let index = solution.index();
    let groups = index.groups() as u32;
    let parts: Vec<Report> = (0..groups.div_ceil(CHUNK_GROUPS))
        .into_par_iter()
        .map(|c| {
            let mut rep = Report::default();
            let mut half = HalfChildren::default();
            for g in c * CHUNK_GROUPS..((c + 1) * CHUNK_GROUPS).min(groups) {
                let first = index.group_records(g).start as usize;
                for (k, pos) in group(index.board_of_group(g)).enumerate() {
                    let rec = solution.records()[first + k];
                    rep.checked += 1;
                    if pos.forbidden().is_none() {
                        half.fill(solution, pos);
                    }
                    if let Err(reason) = check(solution, pos, rec, &half) {
                        note(&mut rep, keep, pos, rec, reason);
                    }
                }
            }
            rep
        })
        .collect();
    let mut total = Report::default();
    for p in parts {
        total.checked += p.checked;
        total.violations += p.violations;
        for e in p.examples {
            if total.examples.len() < keep {
                total.examples.push(e);
            }
        }
    }
    total
}

/// The moves of a half's position with nothing forbidden, each with its
/// child's record (`None`: the child has no record).
#[derive(Default)]
struct HalfChildren {
    moves: MoveList,
    children: Vec<(Move, Result<Record, Position>)>,
}

impl HalfChildren {
    /// The moves and children of `pos`, whose forbidden slide is none.
    fn fill(&mut self, solution: &Solution, pos: Position) {
        solution.rules().generate_piece_moves(pos, &mut self.moves);
        self.children.clear();
        for &m in self.moves.iter() {
            let child = play_unchecked(pos, m);
            self.children.push((m, solution.get(child).ok_or(child)));
        }
    }
}

fn note(rep: &mut Report, keep: usize, position: Position, record: Record, reason: String) {
    rep.violations += 1;
    if rep.examples.len() < keep {
        rep.examples.push(Violation {
            position,
            record,
            reason,
        });
    }
}

/// The Bellman conditions of one record, given the children of its half
/// (those of the position with nothing forbidden).
fn check(solution: &Solution, pos: Position, rec: Record, half: &HalfChildren) -> Result<(), String> {
    let rules = solution.rules();
    let r = rec.remoteness();
    let value = rec.value().ok_or("unsolved")?;
    let own = || {
        half.children
            .iter()
            .filter(move |(m, _)| move_of_half_allowed(*m, pos))
    };
    let stuck = own().next().is_none();
    let primitive =
        rules
            .board_primitive(pos.board(), pos.turn())
            .or(if stuck { rules.stuck_value() } else { None });
    if let Some(p) = primitive {
        return if p == value && r == 0 {
            Ok(())
        } else {
            Err(format!("primitive {p} stored as {rec}"))
        };
    }
    // A stuck side that is not primitive passes.
    let pass = stuck.then(|| {
        let child = play_unchecked(pos, Move::PASS);
        (Move::PASS, solution.get(child).ok_or(child))
    });
    let mut lose_min = None::<u16>;
    let mut tie_min = None::<u16>;
    let mut win_max = 0;
    let mut all_win = true;
    for &(_, c) in own().chain(pass.iter()) {
        let c = c.map_err(|child| format!("child {child} not indexable"))?;
        let cr = c.remoteness();
        match c.value() {
            Some(Value::Lose) => lose_min = Some(lose_min.map_or(cr, |x| x.min(cr))),
            Some(Value::Win) => win_max = win_max.max(cr),
            Some(Value::Tie) => tie_min = Some(tie_min.map_or(cr, |x| x.min(cr))),
            Some(Value::Draw) => {}
            None => return Err("a child is unsolved".to_string()),
        }
        all_win &= c.value() == Some(Value::Win);
    }
    let expected = match (lose_min, all_win, tie_min) {
        (Some(l), _, _) => Record::new(Value::Win, l + 1),
        (None, true, _) => Record::new(Value::Lose, win_max + 1),
        (None, false, Some(t)) => Record::new(Value::Tie, t + 1),
        (None, false, None) => Record::new(Value::Draw, 0),
    };
    if expected == rec {
        Ok(())
    } else {
        Err(format!("children say {expected}"))
    }
}
