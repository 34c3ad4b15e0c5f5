//! The framework's solver of one loopy tier: retrograde analysis with
//! draws, for any game behind [`Tiered`] whose moves may stay inside a
//! tier ([`TierType::Loopy`](topitop_game_api::TierType)) and cycle.
//!
//! The tier's child tiers are solved already. Every position's moves are
//! generated once, on all cores; moves that stay in the tier are kept as a
//! reverse graph (each position's parents in the tier). Then, in rounds of
//! increasing remoteness:
//!
//! 1. **Wins and losses.** A position with a losing child is a win, one
//!    more than its quickest losing child; a position all of whose
//!    children win is a loss, one more than its slowest. Rounds go in
//!    order of remoteness, so the first time either is found it is the
//!    right remoteness.
//! 2. **Ties.** Among the positions left, one with a tying child ties, one
//!    more than its quickest tying child.
//! 3. **Draws.** The rest can neither be won nor lost nor tied: play goes
//!    on for ever.
//!
//! The values are those [`negamax`](crate::loop_free::negamax) gives each
//! position from its children's, so the framework's `verify` checks loopy
//! solves as it checks loop-free ones.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use topitop_game_api::{Record, Tiered, Value, MAX_REMOTENESS};

use crate::loop_free::{LoopFreeError, LoopFreeSolution};
use crate::usage::cpu_time;

/// What a position's moves say before the rounds, beside its children
/// inside the tier (kept apart, one array for many positions).
#[derive(Clone, Copy)]
struct Moves {
    /// The record, if the position is primitive or not a position.
    fixed: Option<Record>,
    /// The quickest losing child outside the tier.
    lose: Option<u16>,
    /// The quickest tying child outside the tier.
    tie: Option<u16>,
    /// The slowest winning child outside the tier.
    win: Option<u16>,
    /// Children outside the tier that do not win (losing, tying, drawn).
    not_win: u32,
}

impl Moves {
    const NONE: Moves = Moves {
        fixed: None,
        lose: None,
        tie: None,
        win: None,
        not_win: 0,
    };
}

/// Bytes a loopy tier's solve holds for each of its indices besides its
/// records and its moves inside the tier (8 bytes each, child and parent):
/// each position's [`Moves`], twice while they are gathered, and its
/// offsets into the child and parent arrays and its count of open
/// children.
pub const WORKING_BYTES_PER_INDEX: usize = 2 * std::mem::size_of::<Moves>() + 16;

/// Positions handed to one thread at a time.
const CHUNK: u32 = 1 << 14;

/// Time spent in one phase of the loopy solves.
#[derive(Clone, Copy, Debug, Default)]
pub struct Phase {
    /// Wall-clock time.
    pub wall: Duration,
    /// CPU time of the whole process meanwhile (every phase ends with all
    /// threads done, so it is the phase's own; zero where the system does
    /// not say, see [`cpu_time`]).
    pub cpu: Duration,
}

/// How much work the loopy tiers took, summed over the tiers solved: what
/// a benchmark divides to give positions per CPU-second.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoopyStats {
    /// Loopy tiers solved.
    pub tiers: u64,
    /// Indices of those tiers (positions or not).
    pub indices: u64,
    /// Positions solved (with symmetry, canonical ones only).
    pub positions: u64,
    /// Moves that stay in their tier: the edges the rounds walk back.
    pub inside_moves: u64,
    /// Generating every position's moves and looking up those that leave.
    pub generate: Phase,
    /// Building the reverse graph and the counts of open children.
    pub graph: Phase,
    /// The rounds: seeds, wins and losses, ties, draws.
    pub rounds: Phase,
}

impl LoopyStats {
    /// Adds `other`'s work to this.
    pub fn add(&mut self, other: &LoopyStats) {
        self.tiers += other.tiers;
        self.indices += other.indices;
        self.positions += other.positions;
        self.inside_moves += other.inside_moves;
        for (a, b) in [
            (&mut self.generate, other.generate),
            (&mut self.graph, other.graph),
            (&mut self.rounds, other.rounds),
        ] {
            a.wall += b.wall;
            a.cpu += b.cpu;
        }
    }
}

/// Wall and CPU time since the last lap.
struct Clock {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: cpu_time(),
        }
    }

    /// Adds the time since the last lap to `phase`.
    fn lap(&mut self, phase: &mut Phase) {
        let now = Clock::start();
        phase.wall += now.wall - self.wall;
        phase.cpu += now
            .cpu
            .zip(self.cpu)
            .map_or(Duration::ZERO, |(b, a)| b.saturating_sub(a));
        *self = now;
    }
}

/// The moves of a run of positions: each one's [`Moves`], and its
/// children inside the tier, `inside[ends[k - 1]..ends[k]]`.
struct Run {
    moves: Vec<Moves>,
    ends: Vec<u32>,
    inside: Vec<u32>,
}

/// Solves the loopy `tier` of `game` from the solved child tiers in
/// `solved`: one record per index ([`Record::UNSOLVED`] for indices that
/// name no position, and with `symmetric` for positions that are not
/// canonical). Adds the work it took to `stats`.
///
/// # Errors
/// A move that leaves the tier for one not solved yet, a position with no
/// move that is not primitive, a tier too large to index in 32 bits, or a
/// remoteness beyond what a record holds.
pub fn solve_loopy_tier<G: Tiered>(
    game: &G,
    solved: &LoopFreeSolution<G::Tier>,
    tier: G::Tier,
    stats: &mut LoopyStats,
) -> Result<Vec<Record>, LoopFreeError> {
    let size = game.tier_size(tier);
    let n = u32::try_from(size).map_err(|_| LoopFreeError::TooLarge(game.tier_name(tier)))?;
    let mut clock = Clock::start();
    let runs: Vec<Run> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|k| {
            let mut run = Run {
                moves: Vec::new(),
                ends: Vec::new(),
                inside: Vec::new(),
            };
            for i in k * CHUNK..n.min((k + 1) * CHUNK) {
                let m = moves_of(game, solved, tier, i, &mut run.inside)?;
                run.moves.push(m);
                run.ends.push(run.inside.len() as u32);
            }
            Ok(run)
        })
        .collect::<Result<_, LoopFreeError>>()?;
    let edges: u64 = runs.iter().map(|r| r.inside.len() as u64).sum();
    // Offsets into the parent array are 32 bits: refuse before they wrap.
    let edges = u32::try_from(edges).map_err(|_| LoopFreeError::TooManyMoves(game.tier_name(tier)))?;
    clock.lap(&mut stats.generate);
    // Each position's children inside the tier, in index order.
    let children = || {
        runs.iter().flat_map(|run| {
            run.ends.iter().enumerate().map(move |(j, &end)| {
                let from = if j == 0 { 0 } else { run.ends[j - 1] };
                &run.inside[from as usize..end as usize]
            })
        })
    };

    // Each position's parents inside the tier, as one array cut by offsets.
    let mut start = vec![0u32; n as usize + 1];
    for kids in children() {
        for &c in kids {
            start[c as usize + 1] += 1;
        }
    }
    for i in 0..n as usize {
        start[i + 1] += start[i];
    }
    let mut parents = vec![0u32; start[n as usize] as usize];
    let mut fill = start.clone();
    let mut open: Vec<u32> = Vec::with_capacity(n as usize);
    for (p, kids) in children().enumerate() {
        open.push(kids.len() as u32);
        for &c in kids {
            parents[fill[c as usize] as usize] = p as u32;
            fill[c as usize] += 1;
        }
    }
    drop(fill);
    let moves: Vec<Moves> = runs.into_iter().flat_map(|r| r.moves).collect();
    let parents_of = |c: u32| &parents[start[c as usize] as usize..start[c as usize + 1] as usize];

    let mut records: Vec<Record> = moves
        .iter()
        .map(|m| m.fixed.unwrap_or(Record::UNSOLVED))
        .collect();
    // Children not known to win yet: a loss when it reaches 0.
    for (o, m) in open.iter_mut().zip(&moves) {
        *o += m.not_win;
    }
    clock.lap(&mut stats.graph);
    // Positions found at each remoteness, whose parents are still to hear
    // of them; and wins through a child outside the tier, by remoteness.
    let mut level: Vec<Vec<u32>> = vec![Vec::new()];
    let mut wins_from_outside: Vec<Vec<u32>> = Vec::new();
    let at = |v: &mut Vec<Vec<u32>>, r: usize| {
        if v.len() <= r {
            v.resize_with(r + 1, Vec::new);
        }
    };
    for (i, m) in moves.iter().enumerate() {
        let i = i as u32;
        if let Some(r) = m.fixed {
            if r.is_solved() {
                level[0].push(i);
            }
            continue;
        }
        if let Some(r) = m.lose {
            let r = usize::from(r) + 1;
            at(&mut wins_from_outside, r);
            wins_from_outside[r].push(i);
        } else if open[i as usize] == 0 {
            // Every move leaves the tier, and every child wins.
            let r = usize::from(m.win.unwrap_or(0)) + 1;
            records[i as usize] = record(game, tier, Value::Lose, r)?;
            at(&mut level, r);
            level[r].push(i);
        }
    }

    // Wins and losses, in order of remoteness.
    let mut r = 0;
    while r < level.len().max(wins_from_outside.len()) {
        at(&mut level, r);
        if let Some(found) = wins_from_outside.get_mut(r).map(std::mem::take) {
            for p in found {
                if !records[p as usize].is_solved() {
                    records[p as usize] = record(game, tier, Value::Win, r)?;
                    level[r].push(p);
                }
            }
        }
        let here = std::mem::take(&mut level[r]);
        for &c in &here {
            let value = records[c as usize].value();
            for &p in parents_of(c) {
                let pu = p as usize;
                if records[pu].is_solved() {
                    continue;
                }
                match value {
                    Some(Value::Lose) => {
                        records[pu] = record(game, tier, Value::Win, r + 1)?;
                        at(&mut level, r + 1);
                        level[r + 1].push(p);
                    }
                    Some(Value::Win) => {
                        open[pu] -= 1;
                        if open[pu] == 0 {
                            let rr = r.max(usize::from(moves[pu].win.unwrap_or(0))) + 1;
                            records[pu] = record(game, tier, Value::Lose, rr)?;
                            at(&mut level, rr);
                            level[rr].push(p);
                        }
                    }
                    _ => {}
                }
            }
        }
        level[r] = here;
        r += 1;
    }

    // Ties among the positions left, in order of remoteness: seeded by the
    // tier's primitive ties and by tying children outside it.
    let mut ties: Vec<Vec<u32>> = vec![Vec::new()];
    for (i, rec) in records.iter().enumerate() {
        if rec.value() == Some(Value::Tie) {
            let r = usize::from(rec.remoteness());
            at(&mut ties, r);
            ties[r].push(i as u32);
        }
    }
    let mut ties_from_outside: Vec<Vec<u32>> = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        if !records[i].is_solved() && m.fixed.is_none() {
            if let Some(r) = m.tie {
                let r = usize::from(r) + 1;
                at(&mut ties_from_outside, r);
                ties_from_outside[r].push(i as u32);
            }
        }
    }
    let mut r = 0;
    while r < ties.len().max(ties_from_outside.len()) {
        at(&mut ties, r);
        if let Some(found) = ties_from_outside.get_mut(r).map(std::mem::take) {
            for p in found {
                if !records[p as usize].is_solved() {
                    records[p as usize] = record(game, tier, Value::Tie, r)?;
                    ties[r].push(p);
                }
            }
        }
        let here = std::mem::take(&mut ties[r]);
        for &c in &here {
            for &p in parents_of(c) {
                if !records[p as usize].is_solved() {
                    records[p as usize] = record(game, tier, Value::Tie, r + 1)?;
                    at(&mut ties, r + 1);
                    ties[r + 1].push(p);
                }
            }
        }
        r += 1;
    }

    // The rest: draws.
    for (rec, m) in records.iter_mut().zip(&moves) {
        if !rec.is_solved() && m.fixed.is_none() {
            *rec = Record::new(Value::Draw, 0);
        }
    }
    clock.lap(&mut stats.rounds);
    stats.tiers += 1;
    stats.indices += size;
    stats.positions += records.iter().filter(|r| r.is_solved()).count() as u64;
    stats.inside_moves += u64::from(edges);
    Ok(records)
}

/// A record of `value` at remoteness `r`, or the error of a remoteness too
/// large to store.
fn record<G: Tiered>(game: &G, tier: G::Tier, value: Value, r: usize) -> Result<Record, LoopFreeError> {
    match u16::try_from(r) {
        Ok(r) if r <= MAX_REMOTENESS => Ok(Record::new(value, r)),
        _ => Err(LoopFreeError::TooRemote(game.tier_name(tier))),
    }
}

/// The moves of index `i` of `tier`.
fn moves_of<G: Tiered>(
    game: &G,
    solved: &LoopFreeSolution<G::Tier>,
    tier: G::Tier,
    i: u32,
    inside: &mut Vec<u32>,
) -> Result<Moves, LoopFreeError> {
    let unsolved = Moves {
        fixed: Some(Record::UNSOLVED),
        ..Moves::NONE
    };
    let Some(pos) = game.position(tier, u64::from(i)) else {
        return Ok(unsolved);
    };
    if solved.is_symmetric() && game.canonical(&pos) != pos {
        return Ok(unsolved);
    }
    if let Some(v) = game.primitive(&pos) {
        return Ok(Moves {
            fixed: Some(Record::new(v, 0)),
            ..Moves::NONE
        });
    }
    let mut m = Moves::NONE;
    let mut any = false;
    for mv in game.moves(&pos) {
        any = true;
        let mut child = game.play(&pos, mv);
        if solved.is_symmetric() {
            child = game.canonical(&child);
        }
        if game.tier_of(&child) == tier {
            // Fits: the tier's size was checked against u32.
            inside.push(game.index(&child) as u32);
            continue;
        }
        let rec = solved.get(game, &child);
        let r = rec.remoteness();
        match rec.value() {
            None => {
                return Err(LoopFreeError::Escaped {
                    from: game.format_position(&pos),
                    to: game.format_position(&child),
                })
            }
            Some(Value::Win) => m.win = Some(m.win.map_or(r, |w| w.max(r))),
            Some(Value::Lose) => {
                m.lose = Some(m.lose.map_or(r, |l| l.min(r)));
                m.not_win += 1;
            }
            Some(Value::Tie) => {
                m.tie = Some(m.tie.map_or(r, |t| t.min(r)));
                m.not_win += 1;
            }
            Some(Value::Draw) => m.not_win += 1,
        }
    }
    if !any {
        return Err(LoopFreeError::Stuck(game.format_position(&pos)));
    }
    // A position may reach the same child by two moves: each counts.
    Ok(m)
}
