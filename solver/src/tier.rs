//! Solving one tier, given every child tier solved.

use rayon::prelude::*;
use topitop_game::index::TierRange;
use topitop_game::{play_unchecked, symmetry, MoveList, Rules, StateIndex, Value};

use crate::record::Record;

/// What a first pass over a position's moves finds.
#[derive(Clone, Copy, Default)]
struct Seed {
    /// Solved here (primitive) or not a position this solve keeps.
    fixed: Option<Fixed>,
    /// Moves into this tier whose value is not yet known to be a win.
    pending: u16,
    /// 1 + the largest remoteness among winning children in lower tiers.
    lower_win_max: u16,
    /// 1 + the smallest remoteness among losing children in lower tiers.
    lower_lose_min: Option<u16>,
    /// 1 + the smallest remoteness among tying children in lower tiers.
    lower_tie_min: Option<u16>,
    /// Some lower-tier child is a tie or a draw: never a loss.
    lower_not_win: bool,
}

#[derive(Clone, Copy)]
enum Fixed {
    Skip,
    Primitive(Value),
}

/// Local index of a child in this tier, and of its parent.
type Edge = (u32, u32);

const CHUNK: usize = 1 << 14;

/// Solves the positions of `range` into `records`; returns how many.
pub(crate) fn solve_tier(
    rules: Rules,
    index: &StateIndex,
    records: &mut [Record],
    range: &TierRange,
    symmetric: bool,
) -> u64 {
    let offset = range.offset as usize;
    let len = range.len() as usize;
    let (seeds, edges) = first_pass(rules, index, records, range, symmetric);
    let parents = Parents::new(len, &edges);
    drop(edges);
    let mut local = vec![Record::UNSOLVED; len];
    settle_wins_and_losses(&seeds, &parents, &mut local);
    settle_ties(&seeds, &parents, &mut local);
    let mut solved = 0;
    for (i, s) in seeds.iter().enumerate() {
        if matches!(s.fixed, Some(Fixed::Skip)) {
            continue;
        }
        if !local[i].is_solved() {
            local[i] = Record::new(Value::Draw, 0);
        }
        records[offset + i] = local[i];
        solved += 1;
    }
    solved
}

/// Primitive values, pending-child counts, what lower tiers say, and the
/// moves inside the tier (as child → parent edges).
fn first_pass(
    rules: Rules,
    index: &StateIndex,
    records: &[Record],
    range: &TierRange,
    symmetric: bool,
) -> (Vec<Seed>, Vec<Edge>) {
    let len = range.len() as usize;
    let offset = range.offset;
    let parts: Vec<(Vec<Seed>, Vec<Edge>)> = (0..len.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(len);
            let mut seeds = Vec::with_capacity(end - start);
            let mut edges = Vec::new();
            let mut list = MoveList::new();
            let walk = index.walk(offset + start as u64, offset + end as u64);
            for (i, pos) in (start..end).zip(walk) {
                if symmetric && symmetry::canonical(pos) != pos {
                    seeds.push(Seed {
                        fixed: Some(Fixed::Skip),
                        ..Seed::default()
                    });
                    continue;
                }
                if let Some(v) = rules.primitive(pos) {
                    seeds.push(Seed {
                        fixed: Some(Fixed::Primitive(v)),
                        ..Seed::default()
                    });
                    continue;
                }
                let mut seed = Seed::default();
                rules.generate(pos, &mut list);
                for &m in list.iter() {
                    let child = play_unchecked(pos, m);
                    let key = if symmetric {
                        symmetry::canonical(child)
                    } else {
                        child
                    };
                    let j = index.index(key).expect("children are indexable");
                    if j >= offset && j < offset + len as u64 {
                        edges.push(((j - offset) as u32, i as u32));
                        seed.pending += 1;
                        continue;
                    }
                    let rec = records[j as usize];
                    let r = rec.remoteness() + 1;
                    match rec.value() {
                        Some(Value::Lose) => {
                            seed.lower_lose_min = Some(seed.lower_lose_min.map_or(r, |x| x.min(r)))
                        }
                        Some(Value::Win) => seed.lower_win_max = seed.lower_win_max.max(r),
                        Some(Value::Tie) => {
                            seed.lower_tie_min = Some(seed.lower_tie_min.map_or(r, |x| x.min(r)));
                            seed.lower_not_win = true;
                        }
                        Some(Value::Draw) => seed.lower_not_win = true,
                        None => {
                            panic!("child {key} of {pos} in a lower tier is unsolved: tier order is wrong")
                        }
                    }
                }
                seeds.push(seed);
            }
            (seeds, edges)
        })
        .collect();
    let mut seeds = Vec::with_capacity(len);
    let mut edges = Vec::new();
    for (s, e) in parts {
        seeds.extend(s);
        edges.extend(e);
    }
    (seeds, edges)
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

    fn of(&self, i: u32) -> &[u32] {
        &self.parents[self.start[i as usize] as usize..self.start[i as usize + 1] as usize]
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

    fn push(&mut self, r: u16, i: u32, what: T) {
        let r = r as usize;
        if self.levels.len() <= r {
            self.levels.resize_with(r + 1, Vec::new);
        }
        self.levels[r].push((i, what));
    }

    /// Takes level `r`, or `None` past the last level.
    fn take(&mut self, r: usize) -> Option<Vec<(u32, T)>> {
        self.levels.get_mut(r).map(std::mem::take)
    }
}

fn settle_wins_and_losses(seeds: &[Seed], parents: &Parents, local: &mut [Record]) {
    let mut frontier = Frontier::new();
    let mut pending: Vec<u16> = seeds.iter().map(|s| s.pending).collect();
    for (i, s) in seeds.iter().enumerate() {
        let i = i as u32;
        match s.fixed {
            Some(Fixed::Primitive(v @ (Value::Win | Value::Lose))) => frontier.push(0, i, v),
            Some(_) => {}
            None => {
                if let Some(r) = s.lower_lose_min {
                    frontier.push(r, i, Value::Win);
                }
                if s.pending == 0 && !s.lower_not_win && s.lower_lose_min.is_none() {
                    frontier.push(s.lower_win_max, i, Value::Lose);
                }
            }
        }
    }
    let mut r = 0;
    while let Some(level) = frontier.take(r) {
        for (i, value) in level {
            if local[i as usize].is_solved() {
                continue;
            }
            local[i as usize] = Record::new(value, r as u16);
            let next = r as u16 + 1;
            for &q in parents.of(i) {
                let qs = &seeds[q as usize];
                if local[q as usize].is_solved() || qs.fixed.is_some() {
                    continue;
                }
                match value {
                    Value::Lose => frontier.push(next, q, Value::Win),
                    _ => {
                        pending[q as usize] -= 1;
                        if pending[q as usize] == 0 && !qs.lower_not_win && qs.lower_lose_min.is_none() {
                            frontier.push(next.max(qs.lower_win_max), q, Value::Lose);
                        }
                    }
                }
            }
        }
        r += 1;
    }
}

fn settle_ties(seeds: &[Seed], parents: &Parents, local: &mut [Record]) {
    let mut frontier = Frontier::new();
    for (i, s) in seeds.iter().enumerate() {
        let i = i as u32;
        match s.fixed {
            Some(Fixed::Primitive(Value::Tie)) => frontier.push(0, i, ()),
            Some(Fixed::Primitive(Value::Draw)) => local[i as usize] = Record::new(Value::Draw, 0),
            Some(_) => {}
            None => {
                if let Some(r) = s.lower_tie_min {
                    frontier.push(r, i, ());
                }
            }
        }
    }
    let mut r = 0;
    while let Some(level) = frontier.take(r) {
        for (i, ()) in level {
            if local[i as usize].is_solved() {
                continue;
            }
            local[i as usize] = Record::new(Value::Tie, r as u16);
            for &q in parents.of(i) {
                if !local[q as usize].is_solved() && seeds[q as usize].fixed.is_none() {
                    frontier.push(r as u16 + 1, q, ());
                }
            }
        }
        r += 1;
    }
}
