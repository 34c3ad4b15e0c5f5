//! Re-checks a solution against forward move generation only (the Bellman
//! conditions of each value), independently of the solver's bookkeeping.

use rayon::prelude::*;
use topitop_game::{play_unchecked, symmetry, MoveList, Position, Value};

use crate::record::Record;
use crate::solution::Solution;

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

/// Checks every solved position of `solution`; keeps up to `keep` examples.
pub fn verify(solution: &Solution, keep: usize) -> Report {
    let records = solution.records();
    let chunk = 1 << 16;
    let parts: Vec<Report> = (0..records.len().div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut rep = Report::default();
            let mut list = MoveList::new();
            let start = c * chunk;
            let end = (start + chunk).min(records.len());
            for (i, &rec) in records[start..end]
                .iter()
                .enumerate()
                .map(|(k, r)| (start + k, r))
            {
                if !rec.is_solved() {
                    if !solution.is_symmetric() {
                        note(
                            &mut rep,
                            keep,
                            solution.index().position(i as u64).ok(),
                            rec,
                            "unsolved".into(),
                        );
                    }
                    continue;
                }
                let pos = solution.index().position(i as u64).expect("index in range");
                if solution.is_symmetric() && symmetry::canonical(pos) != pos {
                    note(
                        &mut rep,
                        keep,
                        Some(pos),
                        rec,
                        "record on a non-canonical position".into(),
                    );
                    continue;
                }
                rep.checked += 1;
                if let Err(reason) = check(solution, pos, rec, &mut list) {
                    note(&mut rep, keep, Some(pos), rec, reason);
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

fn note(rep: &mut Report, keep: usize, pos: Option<Position>, record: Record, reason: String) {
    rep.violations += 1;
    if rep.examples.len() < keep {
        rep.examples.push(Violation {
            position: pos.unwrap_or_default(),
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
    rules.generate(pos, list);
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
