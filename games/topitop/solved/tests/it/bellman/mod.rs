//! The independent check of a solution that the naive solver's tests use:
//! every record against forward move generation alone (the Bellman
//! conditions), apart from the solver's bookkeeping. `topitop verify`
//! checks databases through the shared check.

use games_topitop_rules::group::group;
use games_topitop_rules::{play_unchecked, Move, MoveList, Position, Value};
use games_topitop_table::{Record, Solution};
use rayon::prelude::*;

/// One position whose record breaks its conditions.
#[derive(Clone, Debug)]
#[expect(
    dead_code,
    reason = "the record and reason are read through Debug, in a failing test's message"
)]
pub struct Violation {
    /// The position whose record is wrong.
    pub position: Position,
    /// The record the solution holds for it.
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

/// What the Bellman conditions need to know of a run of children: the
/// smallest remoteness of a losing and of a tying child, the largest of a
/// winning one, whether all win, and the first child with no record or no
/// value. Two runs combine in order, so the children of a position that
/// forbids one of its half's moves are the run before that move combined
/// with the run after it. Absent figures are held by sentinels rather than
/// options, so that summing up a child has no branch on its value.
#[derive(Clone, Copy, Debug)]
struct Summary {
    /// [`NO_REMOTENESS`] when no child loses.
    lose_min: u16,
    /// [`NO_REMOTENESS`] when no child ties.
    tie_min: u16,
    win_max: u16,
    all_win: bool,
    children: u8,
    /// The place, among the half's children, of the first one that cannot
    /// be judged; [`NO_PLACE`] when all can.
    first_bad: u8,
}

/// Above any remoteness a record holds.
const NO_REMOTENESS: u16 = u16::MAX;
/// Above any place of a child.
const NO_PLACE: u8 = u8::MAX;

impl Summary {
    /// No children.
    const NONE: Summary = Summary {
        lose_min: NO_REMOTENESS,
        tie_min: NO_REMOTENESS,
        win_max: 0,
        all_win: true,
        children: 0,
        first_bad: NO_PLACE,
    };

    /// The child at place `i` with record `child` (`Err`: not indexable).
    fn of(i: usize, child: Result<Record, Position>) -> Summary {
        // Value index: win 0, lose 1, tie 2, draw 3, unsolved 4; 5 for a
        // child with no record.
        let (k, r) = child.map_or((5, 0), |c| (c.value_index(), c.remoteness()));
        let pick = |want: usize, yes: u16, no: u16| if k == want { yes } else { no };
        Summary {
            lose_min: pick(1, r, NO_REMOTENESS),
            tie_min: pick(2, r, NO_REMOTENESS),
            win_max: pick(0, r, 0),
            all_win: k == 0,
            children: 1,
            first_bad: if k >= 4 { i as u8 } else { NO_PLACE },
        }
    }

    /// `self`'s children followed by `next`'s.
    fn then(self, next: Summary) -> Summary {
        Summary {
            lose_min: self.lose_min.min(next.lose_min),
            tie_min: self.tie_min.min(next.tie_min),
            win_max: self.win_max.max(next.win_max),
            all_win: self.all_win & next.all_win,
            children: self.children + next.children,
            // Places grow from one run to the next, so the first is the
            // smaller.
            first_bad: self.first_bad.min(next.first_bad),
        }
    }
}

/// The moves of a half's position with nothing forbidden, each with its
/// child's record (`Err`: the child has no record), and the summaries of
/// every prefix and suffix of them.
struct HalfChildren {
    moves: MoveList,
    children: Vec<(Move, Result<Record, Position>)>,
    /// `before[i]`: the children before place i; `after[i]`: those from
    /// place i on. Both have one entry more than there are children.
    before: Vec<Summary>,
    after: Vec<Summary>,
    /// The place of the move playing slide id d, if any (0: none).
    place_of_slide: [u8; 41],
}

impl Default for HalfChildren {
    fn default() -> HalfChildren {
        HalfChildren {
            moves: MoveList::new(),
            children: Vec::new(),
            before: Vec::new(),
            after: Vec::new(),
            place_of_slide: [u8::MAX; 41],
        }
    }
}

impl HalfChildren {
    /// The moves and children of `pos`, whose forbidden slide is none.
    fn fill(&mut self, solution: &Solution, pos: Position) {
        for &(m, _) in &self.children {
            self.place_of_slide[usize::from(m.slide_id())] = u8::MAX;
        }
        solution.rules().generate_piece_moves(pos, &mut self.moves);
        self.children.clear();
        for &m in self.moves.iter() {
            let child = play_unchecked(pos, m);
            self.children.push((m, solution.get(child).ok_or(child)));
        }
        let n = self.children.len();
        self.before.clear();
        self.before.push(Summary::NONE);
        self.after.clear();
        self.after.resize(n + 1, Summary::NONE);
        for (i, &(m, c)) in self.children.iter().enumerate() {
            let s = Summary::of(i, c);
            self.before.push(self.before[i].then(s));
            if m.slide_id() != 0 {
                self.place_of_slide[usize::from(m.slide_id())] = i as u8;
            }
        }
        for i in (0..n).rev() {
            self.after[i] = Summary::of(i, self.children[i].1).then(self.after[i + 1]);
        }
    }

    /// The summary of the children of `pos`, a position of this half: all
    /// of them but the move of its forbidden slide.
    fn summary(&self, pos: Position) -> Summary {
        let n = self.children.len();
        match self.place_of_slide.get(usize::from(pos.forbidden_id())) {
            Some(&i) if pos.forbidden_id() != 0 && usize::from(i) < n => {
                let i = usize::from(i);
                self.before[i].then(self.after[i + 1])
            }
            _ => self.before[n],
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
    let own = half.summary(pos);
    let stuck = own.children == 0;
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
    let all = if stuck {
        let child = play_unchecked(pos, Move::PASS);
        let got = solution.get(child).ok_or(child);
        if got.is_err() {
            return Err(format!("child {child} not indexable"));
        }
        Summary::of(0, got)
    } else {
        own
    };
    if all.first_bad != NO_PLACE {
        // Only a pass is judged outside the half's children, and it is
        // reported above when it has no record.
        return Err(match half.children.get(usize::from(all.first_bad)).map(|c| c.1) {
            Some(Err(child)) if !stuck => format!("child {child} not indexable"),
            _ => "a child is unsolved".to_string(),
        });
    }
    let expected = if all.lose_min != NO_REMOTENESS {
        Record::new(Value::Win, all.lose_min + 1)
    } else if all.all_win {
        Record::new(Value::Lose, all.win_max + 1)
    } else if all.tie_min != NO_REMOTENESS {
        Record::new(Value::Tie, all.tie_min + 1)
    } else {
        Record::new(Value::Draw, 0)
    };
    if expected == rec {
        Ok(())
    } else {
        Err(format!("children say {expected}"))
    }
}
