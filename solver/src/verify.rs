//! Re-checks a solution against forward move generation only (the Bellman
//! conditions of each value), independently of the solver's bookkeeping.

use rayon::prelude::*;
use topitop_game::group::group;
use topitop_game::{play_unchecked, MoveList, Position, Value};
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
pub fn verify(solution: &Solution, keep: usize) -> Report {
    let index = solution.index();
    let groups = index.groups() as u32;
    let parts: Vec<Report> = (0..groups.div_ceil(CHUNK_GROUPS))
        .into_par_iter()
        .map(|c| {
            let mut rep = Report::default();
            let mut list = MoveList::new();
            for g in c * CHUNK_GROUPS..((c + 1) * CHUNK_GROUPS).min(groups) {
                let first = index.group_records(g).start as usize;
                for (k, pos) in group(index.board_of_group(g)).enumerate() {
                    let rec = solution.records()[first + k];
                    rep.checked += 1;
                    if let Err(reason) = check(solution, pos, rec, &mut list) {
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

/// The Bellman conditions of one record.
fn check(solution: &Solution, pos: Position, rec: Record, list: &mut MoveList) -> Result<(), String> {
    let rules = solution.rules();
    let r = rec.remoteness();
    let value = rec.value().ok_or("unsolved")?;
    if let Some(p) = rules.primitive(pos) {
        return if p == value && r == 0 {
            Ok(())
        } else {
            Err(format!("primitive {p} stored as {rec}"))
        };
    }
    rules.generate_gamesman_moves(pos, list);
    if list.is_empty() {
        return Err("no moves and not primitive".into());
    }
    let mut lose_min = None::<u16>;
    let mut tie_min = None::<u16>;
    let mut win_max = 0;
    let mut all_win = true;
    for &m in list.iter() {
        let child = play_unchecked(pos, m);
        let c = solution
            .get(child)
            .ok_or_else(|| format!("child {child} not indexable"))?;
        let cr = c.remoteness();
        match c.value() {
            Some(Value::Lose) => lose_min = Some(lose_min.map_or(cr, |x| x.min(cr))),
            Some(Value::Win) => win_max = win_max.max(cr),
            Some(Value::Tie) => tie_min = Some(tie_min.map_or(cr, |x| x.min(cr))),
            Some(Value::Draw) => {}
            None => return Err(format!("child {child} unsolved")),
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
