//! Retrograde settling inside a tier: wins and losses in increasing
//! remoteness, then ties the same way; what is left is a draw.
//!
//! Each position keeps a count of its in-tier moves not yet known to lead
//! to a win; a position is proposed to a frontier at the remoteness its
//! value would have, and the first proposal taken, the smallest, settles it.

use games_topitop_rules::Value;
use games_topitop_table::Record;

use super::half::Half;
use super::parents::{Mode, PackedParentSet, ParentRows, ParentSet};

/// Positions proposed for a value, by remoteness: `levels[r]` holds local
/// indices, each with what it is proposed for.
struct Frontier<T> {
    levels: Vec<Vec<(u32, T)>>,
}

impl<T: Copy> Frontier<T> {
    fn new() -> Self {
        Frontier { levels: Vec::new() }
    }

    fn push(&mut self, r: u16, i: usize, what: T) {
        let r = usize::from(r);
        if self.levels.len() <= r {
            self.levels.resize_with(r + 1, Vec::new);
        }
        self.levels[r].push((i as u32, what));
    }

    /// Calls `f(frontier, i, what, r)` for each proposal, level by level;
    /// `f` may propose more at later levels.
    fn drain(mut self, mut f: impl FnMut(&mut Self, usize, T, u16)) {
        let mut r = 0;
        while let Some(level) = self.levels.get_mut(r).map(std::mem::take) {
            for (i, what) in level {
                f(&mut self, i as usize, what, r as u16);
            }
            r += 1;
        }
    }
}

/// The settling of one tier.
pub(super) struct Settle<'a> {
    halves: Vec<Half>,
    parents: &'a ParentRows,
    /// What a side to move without a move gets (see [`games_topitop_rules::Rules::stuck_value`]).
    stuck_value: Option<Value>,
    /// Per position: in-tier moves not yet known to lead to a win.
    pending: Vec<u8>,
    /// The tier's records, by local index.
    records: Vec<Record>,
}

impl<'a> Settle<'a> {
    /// Ready to settle the `len` positions of `halves`.
    pub(super) fn new(
        halves: Vec<Half>,
        parents: &'a ParentRows,
        len: usize,
        stuck_value: Option<Value>,
    ) -> Self {
        let mut pending = vec![0; len];
        for_each_position(&halves, |i, h, slot| pending[i] = h.in_tier_moves_of(slot));
        Settle {
            halves,
            parents,
            stuck_value,
            pending,
            records: vec![Record::UNSOLVED; len],
        }
    }

    /// Settles every position and returns the tier's records.
    pub(super) fn run(mut self) -> Vec<Record> {
        self.wins_and_losses();
        self.ties();
        for r in &mut self.records {
            if !r.is_solved() {
                *r = Record::new(Value::Draw, 0);
            }
        }
        self.records
    }

    /// Records `value` at remoteness `r` for position `i` unless it is
    /// already settled (at a smaller remoteness, or by an earlier phase).
    fn settle(&mut self, i: usize, value: Value, r: u16) -> bool {
        let free = !self.records[i].is_solved();
        if free {
            self.records[i] = Record::new(value, r);
        }
        free
    }

    fn wins_and_losses(&mut self) {
        self.seed_wins_and_losses()
            .drain(|frontier, i, (value, seed), r| {
                // A proposal made while settling was settled when made; a seed
                // may have been overtaken by a smaller remoteness.
                if !seed || self.settle(i, value, r) {
                    self.propagate_win_or_loss(i, value, r + 1, frontier);
                }
            });
    }

    /// Primitive wins and losses, and what lower tiers decide alone.
    fn seed_wins_and_losses(&self) -> Frontier<(Value, bool)> {
        let mut frontier = Frontier::new();
        for_each_position(&self.halves, |i, h, slot| {
            match h.primitive(slot, self.stuck_value) {
                Some(v @ (Value::Win | Value::Lose)) => frontier.push(0, i, (v, true)),
                Some(_) => {}
                None => {
                    let low = h.lower_of(slot);
                    if let Some(r) = low.lose_min.parent_remoteness() {
                        frontier.push(r, i, (Value::Win, true));
                    } else if self.pending[i] == 0 {
                        if let Some(r) = low.loss_remoteness() {
                            frontier.push(r, i, (Value::Lose, true));
                        }
                    }
                }
            }
        });
        frontier
    }

    /// Position `i` now has `value`: its parents win through a loss, and
    /// lose once their last in-tier move proves a win.
    ///
    /// Both are settled at once: levels are drained in increasing
    /// remoteness and every seed below `next` is drained already, so no
    /// later proposal can beat a win at `next`; and a parent whose last
    /// in-tier move is a win, with no losing child below, has no winning
    /// move at all. Each position thus enters the frontier once.
    fn propagate_win_or_loss(
        &mut self,
        i: usize,
        value: Value,
        next: u16,
        frontier: &mut Frontier<(Value, bool)>,
    ) {
        let Settle {
            halves,
            parents,
            stuck_value,
            pending,
            records,
        } = self;
        for &set in parents.of(i) {
            let Some((set, h, stuck)) = open_set(halves, set, *stuck_value) else {
                continue;
            };
            if value == Value::Lose {
                let win = Record::new(Value::Win, next);
                claim_open_slots(set, h, stuck, records, win, |q| {
                    frontier.push(next, q, (Value::Win, false));
                });
                continue;
            }
            // The child wins: each parent has one in-tier move fewer that
            // could save it. `open`: a slot the set names is left unsettled.
            let mut open = false;
            set.for_each_slot(h.len(), |slot| {
                let q = h.local(slot);
                if records[q].is_solved() {
                    return;
                }
                if stuck != Some(slot) {
                    pending[q] -= 1;
                    if pending[q] == 0 {
                        if let Some(r) = h.lower_of(slot).loss_remoteness() {
                            let r = next.max(r);
                            records[q] = Record::new(Value::Lose, r);
                            frontier.push(r, q, (Value::Lose, false));
                            return;
                        }
                    }
                }
                open = true;
            });
            note_settled(h, set, open, records);
        }
    }

    fn ties(&mut self) {
        self.seed_ties().drain(|frontier, i, seed, r| {
            if !seed || self.settle(i, Value::Tie, r) {
                self.propagate_tie(i, r + 1, frontier);
            }
        });
    }

    /// Primitive ties, and ties through a tying child in a lower tier.
    fn seed_ties(&self) -> Frontier<bool> {
        let mut frontier = Frontier::new();
        for_each_position(&self.halves, |i, h, slot| {
            match h.primitive(slot, self.stuck_value) {
                Some(Value::Tie) => frontier.push(0, i, true),
                Some(_) => {}
                None => {
                    if let Some(r) = h.lower_of(slot).tie_min.parent_remoteness() {
                        frontier.push(r, i, true);
                    }
                }
            }
        });
        frontier
    }

    /// Position `i` now ties: so do its parents not yet settled, settled
    /// at once as in [`Settle::propagate_win_or_loss`].
    fn propagate_tie(&mut self, i: usize, next: u16, frontier: &mut Frontier<bool>) {
        let Settle {
            halves,
            parents,
            stuck_value,
            records,
            ..
        } = self;
        for &set in parents.of(i) {
            let Some((set, h, stuck)) = open_set(halves, set, *stuck_value) else {
                continue;
            };
            let tie = Record::new(Value::Tie, next);
            claim_open_slots(set, h, stuck, records, tie, |q| frontier.push(next, q, false));
        }
    }
}

/// Calls `f(i, half, slot)` for every position of `halves`, by local index.
fn for_each_position(halves: &[Half], mut f: impl FnMut(usize, &Half, usize)) {
    for h in halves {
        for slot in h.slots() {
            f(h.local(slot), h, slot);
        }
    }
}

/// The parent set `set`, its half and the slot of its primitive stuck
/// position (when a stuck side does not pass); `None` when nothing it names
/// can change: the half's board is decided, so that every position it names
/// is primitive, or every position of the half is settled already.
#[inline]
fn open_set(
    halves: &mut [Half],
    set: PackedParentSet,
    stuck_value: Option<Value>,
) -> Option<(ParentSet, &mut Half, Option<usize>)> {
    let set = ParentSet::from(set);
    let h = &mut halves[set.half as usize];
    if h.board_primitive.is_some() || h.settled {
        return None;
    }
    let stuck = stuck_value.and(h.stuck).map(usize::from);
    Some((set, h, stuck))
}

/// Gives `record` to every unsettled position `set` names but the stuck
/// slot `stuck` (primitive), calling `settled(q)` for each, then marks the
/// half settled if nothing it names is left open.
#[inline]
fn claim_open_slots(
    set: ParentSet,
    h: &mut Half,
    stuck: Option<usize>,
    records: &mut [Record],
    record: Record,
    mut settled: impl FnMut(usize),
) {
    let mut open = false;
    set.for_each_slot(h.len(), |slot| {
        let q = h.local(slot);
        if records[q].is_solved() {
            return;
        }
        if stuck == Some(slot) {
            open = true;
        } else {
            records[q] = record;
            settled(q);
        }
    });
    note_settled(h, set, open, records);
}

/// Marks half `h` settled after a visit of `set` that left no slot it
/// walked unsettled (`open` false), when the set walked every slot but at
/// most one and that one is settled too. About half of all visits reach a
/// half already settled: this lets them skip its slots.
#[inline]
fn note_settled(h: &mut Half, set: ParentSet, open: bool, records: &[Record]) {
    if open {
        return;
    }
    h.settled = match set.mode {
        Mode::AllOfHalf => true,
        Mode::AllBut(s) => records[h.local(usize::from(s))].is_solved(),
        // A pass names its position alone.
        Mode::OnlySlot(_) => false,
    };
}
