//! Solving one tier, given every child tier solved.
//!
//! The positions of one board and side to move (a *half* of its group)
//! have the same moves except that each forbidden slide removes one, and
//! that slide keeps the composition, so its child is in this tier. The
//! first pass therefore generates moves and looks children up once per
//! half; what lower tiers say holds for the whole half, and in-tier edges
//! are kept per half with the one position they skip.

use rayon::prelude::*;
use topitop_game::group::{half_len, plausible_slides, slot_in_half};
use topitop_game::{play_unchecked, Move, MoveList, Player, Position, Rules, Value};
use topitop_table::{GroupIndex, Record};

/// What already solved lower tiers say of a half's moves.
#[derive(Clone, Copy, Default)]
struct Lower {
    /// 1 + the smallest remoteness of a losing child; 0 if none.
    lose_min: u16,
    /// 1 + the largest remoteness of a winning child; 0 if none.
    win_max: u16,
    /// 1 + the smallest remoteness of a tying child; 0 if none.
    tie_min: u16,
    /// Some child is a tie or a draw: never a loss.
    not_win: bool,
}

impl Lower {
    fn add(&mut self, rec: Record) {
        let r = rec.remoteness() + 1;
        let min = |m: u16| if m == 0 { r } else { m.min(r) };
        match rec.value() {
            Some(Value::Lose) => self.lose_min = min(self.lose_min),
            Some(Value::Win) => self.win_max = self.win_max.max(r),
            Some(Value::Tie) => {
                self.tie_min = min(self.tie_min);
                self.not_win = true;
            }
            Some(Value::Draw) => self.not_win = true,
            None => panic!("a child in a lower tier is unsolved: tier order is wrong"),
        }
    }
}

/// No position of the half is left without a move.
const NO_SLOT: u8 = u8::MAX;

/// One side to move on one board.
#[derive(Clone, Copy)]
struct Half {
    /// Local index of its first position (nothing forbidden).
    start: u32,
    /// Its plausible forbidden slides (see [`topitop_game::group`]).
    mask: u64,
    /// The primitive value of every position of the half (board decided).
    fixed: Option<Value>,
    /// Slot of the position whose only move is forbidden, or [`NO_SLOT`].
    stuck: u8,
    /// Moves into this tier of the position with nothing forbidden.
    inner: u8,
    lower: Lower,
}

/// In-tier edge: the child's local index, and the parents as
/// `half << 7 | mode`. Mode 0: every position of the half; 1..=40: all
/// but the one with that forbidden slide; 64 + s: only slot s (its pass).
type Edge = (u32, u32);

const PASS_MODE: u32 = 64;
const CHUNK_GROUPS: u32 = 256;

/// Solves tier `t` (its place in the index's tier list) and returns its
/// records, given `records` with every lower tier solved.
pub(crate) fn solve_tier(rules: Rules, groups: &GroupIndex, records: &[Record], t: usize) -> Vec<Record> {
    let range = groups.tiers()[t].records.clone();
    let len = (range.end - range.start) as usize;
    let (halves, edges) = first_pass(rules, groups, records, t);
    let parents = Parents::new(len, &edges);
    drop(edges);
    let mut settle = Settle {
        halves: &halves,
        parents,
        pending: vec![0; len],
        local: vec![Record::UNSOLVED; len],
        stuck_value: rules.stuck_value(),
    };
    for h in &halves {
        for slot in 0..half_len(h.mask) {
            settle.pending[h.start as usize + slot] = if slot == usize::from(h.stuck) {
                1
            } else {
                h.inner - u8::from(slot != 0)
            };
        }
    }
    settle.wins_and_losses();
    settle.ties();
    for r in &mut settle.local {
        if !r.is_solved() {
            *r = Record::new(Value::Draw, 0);
        }
    }
    settle.local
}

/// Halves in group order (Blue then Red for each board) and the in-tier
/// edges.
fn first_pass(rules: Rules, groups: &GroupIndex, records: &[Record], t: usize) -> (Vec<Half>, Vec<Edge>) {
    let tier = &groups.tiers()[t];
    let parts: Vec<(Vec<Half>, Vec<Edge>)> = (0..tier.groups.div_ceil(CHUNK_GROUPS))
        .into_par_iter()
        .map(|c| {
            let mut halves = Vec::new();
            let mut edges = Vec::new();
            let mut list = MoveList::new();
            let (mut blue, mut red) = (Vec::new(), Vec::new());
            let search = Search {
                rules,
                groups,
                records,
                tier: tier.records.clone(),
            };
            let chunk = c * CHUNK_GROUPS..((c + 1) * CHUNK_GROUPS).min(tier.groups);
            for g in chunk.map(|k| tier.first_group + k) {
                let board = groups.board_of_group(g);
                let start = (groups.group_records(g).start - tier.records.start) as u32;
                let mask = plausible_slides(board);
                blue.clear();
                for turn in [Player::Blue, Player::Red] {
                    let h = 2 * (g - tier.first_group) + turn as u32;
                    let mut half = Half {
                        start: start + (turn as u32) * half_len(mask) as u32,
                        mask,
                        fixed: rules.board_primitive(board, turn),
                        stuck: NO_SLOT,
                        inner: 0,
                        lower: Lower::default(),
                    };
                    if half.fixed.is_none() {
                        let siblings = match turn {
                            Player::Blue => (&[][..], &mut blue),
                            Player::Red => (&blue[..], &mut red),
                        };
                        let pos = Position::new(board, turn, None);
                        search.explore(pos, h, &mut half, &mut list, siblings, &mut edges);
                    }
                    halves.push(half);
                }
            }
            (halves, edges)
        })
        .collect();
    let mut halves = Vec::with_capacity(2 * tier.groups as usize);
    let mut edges = Vec::new();
    for (h, e) in parts {
        halves.extend(h);
        edges.extend(e);
    }
    (halves, edges)
}

/// A move and its child's record number.
type Child = (Move, u64);

/// What the first pass needs to look children up.
struct Search<'a> {
    rules: Rules,
    groups: &'a GroupIndex,
    records: &'a [Record],
    tier: std::ops::Range<u64>,
}

impl Search<'_> {
    /// Generates the moves of half `h` (position `pos`, nothing forbidden)
    /// and sorts its children into in-tier edges and what lower tiers say.
    /// `found` receives each move with its child's record number; for Red,
    /// `blue` holds Blue's, whose children differ only in the side to move
    /// when both sides have the move (it moves a neutral structure).
    fn explore(
        &self,
        pos: Position,
        h: u32,
        half: &mut Half,
        list: &mut MoveList,
        (blue, found): (&[Child], &mut Vec<Child>),
        edges: &mut Vec<Edge>,
    ) {
        self.rules.generate_piece_moves(pos, list);
        found.clear();
        // Both sides generate shared moves in the same relative order.
        let mut next_shared = 0;
        for &m in list.iter() {
            let child = play_unchecked(pos, m);
            let shared = if pos.turn() == Player::Red {
                blue[next_shared..].iter().position(|&(b, _)| b == m)
            } else {
                None
            };
            let j = match shared {
                Some(k) => {
                    let (_, j) = blue[next_shared + k];
                    next_shared += k + 1;
                    // Blue's child has Red to move (second half of its
                    // group); this one has Blue to move (first half).
                    j - half_len(plausible_slides(child.board())) as u64
                }
                None => self.groups.index(child).expect("children are indexable"),
            };
            found.push((m, j));
            if self.tier.contains(&j) {
                edges.push(((j - self.tier.start) as u32, h << 7 | u32::from(m.slide_id())));
                half.inner += 1;
            } else {
                half.lower.add(self.records[j as usize]);
            }
        }
        // The position whose only move is the forbidden one (or that has none).
        let stuck = match list.as_slice() {
            [] => Some(0),
            [m] if m.slide_id() != 0 => slot_in_half(half.mask, m.slide_id()),
            _ => None,
        };
        if let Some(s) = stuck {
            half.stuck = s as u8;
            if self.rules.stuck_value().is_none() {
                let passed = Position::new(pos.board(), pos.turn().opponent(), None);
                let j = self.groups.index(passed).expect("children are indexable");
                assert!(self.tier.contains(&j), "a pass stays in its tier");
                edges.push(((j - self.tier.start) as u32, (h << 7) | (PASS_MODE + s as u32)));
            }
        }
    }
}

/// In-tier parents of each position, in compressed rows.
struct Parents {
    start: Vec<u32>,
    parents: Vec<u32>,
}

impl Parents {
    /// Groups `edges` by child (a counting sort: two passes, no comparisons).
    fn new(len: usize, edges: &[Edge]) -> Parents {
        let mut start = vec![0u32; len + 1];
        for &(child, _) in edges {
            start[child as usize + 1] += 1;
        }
        for i in 0..len {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut parents = vec![0u32; edges.len()];
        for &(child, parent) in edges {
            parents[fill[child as usize] as usize] = parent;
            fill[child as usize] += 1;
        }
        Parents { start, parents }
    }

    fn of(&self, i: usize) -> &[u32] {
        &self.parents[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// Calls `f(position, half, slot)` for each parent position an edge names.
#[inline]
fn for_each_parent(halves: &[Half], code: u32, mut f: impl FnMut(usize, &Half, usize)) {
    let h = &halves[(code >> 7) as usize];
    let mode = code & 127;
    if mode >= PASS_MODE {
        let slot = (mode - PASS_MODE) as usize;
        f(h.start as usize + slot, h, slot);
        return;
    }
    let skip = if mode == 0 {
        usize::MAX
    } else {
        slot_in_half(h.mask, mode as u8).unwrap_or(usize::MAX)
    };
    for slot in (0..half_len(h.mask)).filter(|&s| s != skip) {
        f(h.start as usize + slot, h, slot);
    }
}

/// Frontiers by remoteness: `levels[r]` holds positions proposed at r.
struct Frontier<T> {
    levels: Vec<Vec<(u32, T)>>,
}

impl<T: Copy> Frontier<T> {
    fn new() -> Self {
        Frontier { levels: Vec::new() }
    }

    fn push(&mut self, r: u16, i: usize, what: T) {
        let r = r as usize;
        if self.levels.len() <= r {
            self.levels.resize_with(r + 1, Vec::new);
        }
        self.levels[r].push((i as u32, what));
    }

    /// Takes level `r`, or `None` past the last level.
    fn take(&mut self, r: usize) -> Option<Vec<(u32, T)>> {
        self.levels.get_mut(r).map(std::mem::take)
    }
}

/// The in-tier propagation of values, level by level.
struct Settle<'a> {
    halves: &'a [Half],
    parents: Parents,
    /// Per position: in-tier moves not yet known to lead to a win.
    pending: Vec<u8>,
    local: Vec<Record>,
    stuck_value: Option<Value>,
}

impl Settle<'_> {
    /// The primitive value of slot `slot` of `h`, if it is primitive.
    fn fixed(stuck_value: Option<Value>, h: &Half, slot: usize) -> Option<Value> {
        h.fixed.or(if slot == usize::from(h.stuck) {
            stuck_value
        } else {
            None
        })
    }

    /// What lower tiers say of slot `slot` of `h` (nothing for a position
    /// whose only move is the pass).
    fn lower(h: &Half, slot: usize) -> Lower {
        if slot == usize::from(h.stuck) {
            Lower::default()
        } else {
            h.lower
        }
    }

    fn wins_and_losses(&mut self) {
        let mut frontier = Frontier::new();
        for h in self.halves {
            for slot in 0..half_len(h.mask) {
                let p = h.start as usize + slot;
                match Self::fixed(self.stuck_value, h, slot) {
                    Some(v @ (Value::Win | Value::Lose)) => frontier.push(0, p, v),
                    Some(_) => {}
                    None => {
                        let low = Self::lower(h, slot);
                        if low.lose_min > 0 {
                            frontier.push(low.lose_min, p, Value::Win);
                        } else if self.pending[p] == 0 && !low.not_win {
                            frontier.push(low.win_max, p, Value::Lose);
                        }
                    }
                }
            }
        }
        let mut r = 0;
        while let Some(level) = frontier.take(r) {
            let next = r as u16 + 1;
            for (i, value) in level {
                let i = i as usize;
                if self.local[i].is_solved() {
                    continue;
                }
                self.local[i] = Record::new(value, r as u16);
                for &code in self.parents.of(i) {
                    for_each_parent(self.halves, code, |q, h, slot| {
                        if self.local[q].is_solved() || Self::fixed(self.stuck_value, h, slot).is_some() {
                            return;
                        }
                        if value == Value::Lose {
                            frontier.push(next, q, Value::Win);
                            return;
                        }
                        self.pending[q] -= 1;
                        let low = Self::lower(h, slot);
                        if self.pending[q] == 0 && !low.not_win && low.lose_min == 0 {
                            frontier.push(next.max(low.win_max), q, Value::Lose);
                        }
                    });
                }
            }
            r += 1;
        }
    }

    fn ties(&mut self) {
        let mut frontier = Frontier::new();
        for h in self.halves {
            for slot in 0..half_len(h.mask) {
                let p = h.start as usize + slot;
                match Self::fixed(self.stuck_value, h, slot) {
                    Some(Value::Tie) => frontier.push(0, p, ()),
                    Some(_) => {}
                    None => {
                        let low = Self::lower(h, slot);
                        if low.tie_min > 0 {
                            frontier.push(low.tie_min, p, ());
                        }
                    }
                }
            }
        }
        let mut r = 0;
        while let Some(level) = frontier.take(r) {
            for (i, ()) in level {
                let i = i as usize;
                if self.local[i].is_solved() {
                    continue;
                }
                self.local[i] = Record::new(Value::Tie, r as u16);
                for &code in self.parents.of(i) {
                    for_each_parent(self.halves, code, |q, h, slot| {
                        if !self.local[q].is_solved() && Self::fixed(self.stuck_value, h, slot).is_none() {
                            frontier.push(r as u16 + 1, q, ());
                        }
                    });
                }
            }
            r += 1;
        }
    }
}
