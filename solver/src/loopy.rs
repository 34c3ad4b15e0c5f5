//! The framework's solver of one loopy tier: retrograde analysis with
//! draws, for any game behind [`Tiered`] whose moves may stay inside a
//! tier ([`TierType::Loopy`](topitop_game_api::TierType)) and cycle.
//!
//! The tier's child tiers are solved already. Every position's moves are
//! generated once; moves that stay in the tier are kept as a reverse graph
//! (each position's parents in the tier). Then, in rounds of increasing
//! remoteness:
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
//! Every phase runs on all cores. A round's positions are all known before
//! it starts (what it finds has a higher remoteness), so its positions are
//! shared out and the round ends when all are done. Inside a round the
//! order does not matter: every position that claims a parent as a win or
//! tie gives it the same record, and a parent becomes a loss only when its
//! last open child is counted off, which a parent with a child that does
//! not win never reaches. Each position is claimed once (a
//! compare-and-swap on its record, or the count reaching zero), so it is
//! passed on to its own parents once: the records equal those of a solve
//! on one thread, remoteness included.
//!
//! The values are those [`negamax`](crate::loop_free::negamax) gives each
//! position from its children's, so the framework's `verify` checks loopy
//! solves as it checks loop-free ones.

use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering::Relaxed};
use std::time::{Duration, Instant};

use topitop_game_api::{Record, Tiered, Value, MAX_REMOTENESS};

use crate::loop_free::{LoopFreeError, LoopFreeSolution};
use crate::usage::cpu_time;
use crate::width::{bytes_for, needs_wide, Num};
use topitop_db::sparse::{Ranked, SparseTier};

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

/// Bytes a loopy tier's solve holds for `positions` positions with
/// `inside` moves inside the tier, besides the bitmap of its indices: for
/// each position its `Moves`, its index in its run, its end in the
/// child array, its count of open children, its record while it is
/// claimed and once it is final (16 bytes), and its bounds in the parent
/// array (an offset); for each inside move, the child and the parent it
/// is kept as (a position's number each). Numbers and offsets take 4
/// bytes, or 8 from 2³² on (the `width` module).
pub fn working_bytes(positions: f64, inside: f64) -> f64 {
    let (number, offset) = (bytes_for(positions), bytes_for(inside));
    positions * (std::mem::size_of::<Moves>() as f64 + 16.0 + offset) + inside * 2.0 * number
}

/// Indices whose positions' moves one thread generates at a time (a
/// multiple of 64: each run fills whole words of the tier's bitmap).
const CHUNK: usize = 1 << 14;

/// Positions of a round, or indices of a pass, handed to one thread at a
/// time; a round with no more than this runs on the calling thread.
const SHARE: usize = 1 << 10;

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

/// The positions of a run of indices: each one's index (less the run's
/// first), its [`Moves`], and its children inside the tier,
/// `inside[ends[k - 1]..ends[k]]` (by index while the run is made, then by
/// number among the tier's positions; by number from the start when the
/// tier is numbered first, see [`solve_loopy_tier`]).
struct Run<N> {
    ids: Vec<u32>,
    moves: Vec<Moves>,
    ends: Vec<u32>,
    inside: Vec<N>,
}

impl<N> Run<N> {
    /// The children inside the tier of the `k`th position of the run.
    fn children(&self, k: usize) -> &[N] {
        let from = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.inside[from as usize..self.ends[k] as usize]
    }
}

/// Positions found by one share of a round, with the remoteness of the
/// round that passes each on.
type Found<N> = Vec<(u16, N)>;

/// Solves the loopy `tier` of `game` from the solved child tiers in
/// `solved`: a record for each position the solve keeps (with `symmetric`
/// the canonical ones), none for indices that name no position. Adds the
/// work it took to `stats`.
///
/// The positions are numbered among themselves (with symmetry, Topple
/// keeps about one index in ten), so that the working arrays follow the
/// tier's positions, not its indices. Those numbers, and the offsets into
/// the array of moves inside the tier, are 32 bits each, or 64 in a tier
/// of 2³² positions or inside moves or more ([`crate::width`]).
///
/// A tier of 2³² indices or more is walked twice: first to number its
/// positions, so that each child inside it is kept by its number from the
/// start rather than by its index.
///
/// # Errors
/// A move that leaves the tier for one not solved yet, a position with no
/// move that is not primitive, a tier with more indices than memory can
/// address, or a remoteness beyond what a record holds.
pub(crate) fn solve_loopy_tier<G: Tiered>(
    game: &G,
    solved: &LoopFreeSolution<G::Tier>,
    tier: G::Tier,
    stats: &mut LoopyStats,
) -> Result<SparseTier, LoopFreeError> {
    solve_loopy_tier_as(game, solved, tier, stats, NUMBERED_FIRST_FROM, false)
}

/// Indices from which a loopy tier's positions are numbered before its
/// moves are generated: those of a child inside the tier no longer fit
/// 32 bits.
const NUMBERED_FIRST_FROM: u64 = 1 << 32;

/// The tier being solved, and what its solve reads.
struct Job<'a, G: Tiered> {
    game: &'a G,
    solved: &'a LoopFreeSolution<G::Tier>,
    tier: G::Tier,
    /// Its indices.
    size: u64,
    symmetric: bool,
}

/// [`solve_loopy_tier`], numbering the positions first when the tier has
/// `numbered_first_from` indices or more, and with `wide` in 64 bits
/// whatever the tier's size (tests set both).
fn solve_loopy_tier_as<G: Tiered>(
    game: &G,
    solved: &LoopFreeSolution<G::Tier>,
    tier: G::Tier,
    stats: &mut LoopyStats,
    numbered_first_from: u64,
    wide: bool,
) -> Result<SparseTier, LoopFreeError> {
    let size = game.tier_size(tier);
    let nu = usize::try_from(size).map_err(|_| LoopFreeError::TooLarge(game.tier_name(tier)))?;
    let mut clock = Clock::start();
    let symmetric = solved.is_symmetric();
    let numbered =
        (size >= numbered_first_from).then(|| Ranked::from_bits(size, kept_bits(game, tier, nu, symmetric)));
    // A child is kept by its index below the tier's size, or by its
    // number below the count of positions.
    let bound = numbered.as_ref().map_or(size, Ranked::ones);
    let job = Job {
        game,
        solved,
        tier,
        size,
        symmetric,
    };
    let (records, kept) = if wide || needs_wide(bound) {
        generate::<G, u64>(&job, numbered, wide, &mut clock, stats)?
    } else {
        generate::<G, u32>(&job, numbered, wide, &mut clock, stats)?
    };
    clock.lap(&mut stats.rounds);
    stats.tiers += 1;
    stats.indices += size;
    Ok(SparseTier::new(kept, records))
}

/// Generates the moves of every position of the tier, its children inside
/// it kept as `N`, then solves it ([`rounds`]) with offsets wide enough
/// for its inside moves (64 bits with `wide`).
fn generate<G: Tiered, N: Num>(
    job: &Job<'_, G>,
    numbered: Option<Ranked>,
    wide: bool,
    clock: &mut Clock,
    stats: &mut LoopyStats,
) -> Result<(Vec<Record>, Ranked), LoopFreeError> {
    let Job {
        game,
        tier,
        symmetric,
        ..
    } = *job;
    let nu = job.size as usize;
    let too_large = || LoopFreeError::TooLarge(game.tier_name(tier));
    // A child inside the tier as it is kept while the moves are made.
    let child = |i: u64| -> Result<N, LoopFreeError> {
        let kept = match &numbered {
            Some(kept) => number(job, kept, i)?,
            None => i,
        };
        N::from_u64(kept).ok_or_else(too_large)
    };
    let runs: Vec<Run<N>> = topitop_par::try_map_ranges(nu, CHUNK, |range| {
        let (lo, hi) = (range.start, range.end);
        let mut run = Run {
            ids: Vec::new(),
            moves: Vec::new(),
            ends: Vec::new(),
            inside: Vec::new(),
        };
        let mut failed = None;
        game.walk_positions(tier, lo as u64..hi as u64, symmetric, &mut |i, pos| {
            if failed.is_some() {
                return;
            }
            match moves_of(game, job.solved, tier, pos, &mut run.inside, &child) {
                Ok(m) => {
                    run.ids.push((i - lo as u64) as u32);
                    run.moves.push(m);
                    run.ends.push(run.inside.len() as u32);
                }
                Err(e) => failed = Some(e),
            }
        });
        // Held until the rounds end: without the slack of their growth.
        run.ids.shrink_to_fit();
        run.moves.shrink_to_fit();
        run.ends.shrink_to_fit();
        run.inside.shrink_to_fit();
        failed.map_or(Ok(run), Err)
    })?;
    let edges: u64 = runs.iter().map(|r| r.inside.len() as u64).sum();
    stats.inside_moves += edges;
    if wide || needs_wide(edges) {
        rounds::<G, N, u64>(job, runs, numbered, edges, clock, stats)
    } else {
        rounds::<G, N, u32>(job, runs, numbered, edges, clock, stats)
    }
}

/// The number among the tier's positions of index `i`.
fn number<G: Tiered>(job: &Job<'_, G>, kept: &Ranked, i: u64) -> Result<u64, LoopFreeError> {
    kept.rank(i)
        .ok_or_else(|| LoopFreeError::Unwalked(job.game.tier_name(job.tier), i))
}

/// Numbers the positions of `runs`, builds the reverse graph of the moves
/// inside the tier (offsets into it as `E`), and runs the rounds; returns
/// the records by number and the bitmap of the positions' indices.
fn rounds<G: Tiered, N: Num, E: Num>(
    job: &Job<'_, G>,
    mut runs: Vec<Run<N>>,
    numbered: Option<Ranked>,
    edges: u64,
    clock: &mut Clock,
    stats: &mut LoopyStats,
) -> Result<(Vec<Record>, Ranked), LoopFreeError> {
    let (first, m, kept) = number_runs(job, &mut runs, numbered)?;
    // Gathered run by run, each run's copy freed as it goes, so that the
    // moves are not held twice.
    let mut moves: Vec<Moves> = Vec::with_capacity(m as usize);
    for run in &mut runs {
        moves.append(&mut run.moves);
        run.moves = Vec::new();
    }
    clock.lap(&mut stats.generate);
    let g = Graph::<N, E>::new(runs, &first, moves, edges);
    clock.lap(&mut stats.graph);
    wins_and_losses(job, &g)?;
    ties(job, &g)?;
    // The rest: draws.
    let draw = Record::new(Value::Draw, 0);
    let records: Vec<Record> = topitop_par::map_ranges(g.records.len(), CHUNK, |range| {
        g.records[range]
            .iter()
            .map(|rec| match Record::from_bits(rec.load(Relaxed)) {
                Some(rec) if rec.is_solved() => rec,
                _ => draw,
            })
            .collect::<Vec<Record>>()
    })
    .concat();
    stats.positions += m;
    Ok((records, kept))
}

/// Numbers the positions of `runs`: run k's j-th is `first[k] + j`. A
/// child is found by its index's rank among the positions: unless the
/// positions were `numbered` already, their bitmap is made here and every
/// child inside the tier renumbered. Returns `first`, the number of
/// positions and the bitmap.
fn number_runs<G: Tiered, N: Num>(
    job: &Job<'_, G>,
    runs: &mut [Run<N>],
    numbered: Option<Ranked>,
) -> Result<(Vec<N>, u64, Ranked), LoopFreeError> {
    let too_large = || LoopFreeError::TooLarge(job.game.tier_name(job.tier));
    let mut first: Vec<N> = Vec::with_capacity(runs.len());
    let mut m = 0u64;
    for run in runs.iter() {
        first.push(N::from_u64(m).ok_or_else(too_large)?);
        m += run.ids.len() as u64;
    }
    N::from_u64(m).ok_or_else(too_large)?;
    if let Some(kept) = numbered {
        return Ok((first, m, kept));
    }
    let mut bits = vec![0u64; (job.size as usize).div_ceil(64)];
    topitop_par::chunks_mut(&mut bits, CHUNK / 64, |k, words| {
        let Some(run) = runs.get(k) else { return };
        for &j in &run.ids {
            words[j as usize / 64] |= 1 << (j % 64);
        }
    });
    let kept = Ranked::from_bits(job.size, bits);
    topitop_par::try_each_mut(runs, |run| {
        for c in &mut run.inside {
            *c = N::from_u64(number(job, &kept, c.wide())?).ok_or_else(too_large)?;
        }
        Ok(())
    })?;
    Ok((first, m, kept))
}

/// The moves inside a loopy tier turned round, and what the rounds keep
/// of each position: the positions are numbered 0 to `m`, positions and
/// offsets held as narrow as the tier allows (`N`, `E`).
struct Graph<N: Num, E: Num> {
    /// Each position's moves that leave the tier, summed up.
    moves: Vec<Moves>,
    /// `parents[bounds[c + 1]..bounds[c + 2]]` are position c's parents.
    bounds: Vec<E>,
    parents: Vec<N>,
    /// Children not known to win yet: a loss when it reaches 0.
    open: Vec<AtomicU32>,
    /// Each position's record so far.
    records: Vec<AtomicU16>,
}

impl<N: Num, E: Num> Graph<N, E> {
    /// The graph of the positions of `runs`, numbered from `first`, with
    /// their `moves` and `edges` moves inside the tier.
    fn new(runs: Vec<Run<N>>, first: &[N], moves: Vec<Moves>, edges: u64) -> Graph<N, E> {
        let mu = moves.len();
        // One array cut by bounds: `bounds[c + 1]` counts c's parents,
        // then (summed) ends their run, and is counted down to its start
        // as they are filled in.
        let zero_e = E::from_u64(0).expect("0 fits");
        let mut bounds: Vec<E::Atomic> = (0..mu + 2).map(|_| E::atomic(zero_e)).collect();
        topitop_par::each(runs.len(), &|k| {
            for &c in &runs[k].inside {
                E::bump(&bounds[c.at() + 1]);
            }
        });
        prefix_sums::<E>(&mut bounds[..=mu]);
        bounds[mu + 1] = E::atomic(E::from_u64(edges).expect("offsets are as wide as the moves"));
        let zero_n = N::from_u64(0).expect("0 fits");
        let parents: Vec<N::Atomic> = (0..edges).map(|_| N::atomic(zero_n)).collect();
        topitop_par::each(runs.len(), &|k| {
            let (run, first) = (&runs[k], first[k]);
            for j in 0..run.ids.len() {
                let me = first.plus(N::from_u64(j as u64).expect("a run's positions fit"));
                for &c in run.children(j) {
                    let slot = E::take_one(&bounds[c.at() + 1]).at() - 1;
                    N::put(&parents[slot], me);
                }
            }
        });
        let open: Vec<AtomicU32> = topitop_par::map(runs.len(), |k| {
            let (r, first) = (&runs[k], first[k]);
            (0..r.ids.len())
                .map(|j| r.children(j).len() as u32 + moves[first.at() + j].not_win)
                .collect::<Vec<u32>>()
        })
        .into_iter()
        .flatten()
        .map(AtomicU32::new)
        .collect();
        drop(runs);
        let records: Vec<AtomicU16> = topitop_par::map_ranges(mu, CHUNK, |range| {
            range
                .map(|i| moves[i].fixed.unwrap_or(Record::UNSOLVED).bits())
                .collect::<Vec<u16>>()
        })
        .into_iter()
        .flatten()
        .map(AtomicU16::new)
        .collect();
        Graph {
            moves,
            bounds: bounds.into_iter().map(E::into_inner).collect(),
            parents: parents.into_iter().map(N::into_inner).collect(),
            open,
            records,
        }
    }

    /// The number of position `i`: it fits, as the count of positions did.
    #[inline]
    fn id(i: usize) -> N {
        N::from_u64(i as u64).expect("numbers fit")
    }

    /// Position c's parents inside the tier.
    #[inline]
    fn parents_of(&self, c: N) -> &[N] {
        &self.parents[self.bounds[c.at() + 1].at()..self.bounds[c.at() + 2].at()]
    }

    /// Position i's record so far.
    #[inline]
    fn get(&self, i: N) -> Record {
        Record::from_bits(self.records[i.at()].load(Relaxed)).unwrap_or(Record::UNSOLVED)
    }

    /// True for the one caller that gives unsolved `i` its record.
    #[inline]
    fn claim(&self, i: N, rec: Record) -> bool {
        self.records[i.at()]
            .compare_exchange(Record::UNSOLVED.bits(), rec.bits(), Relaxed, Relaxed)
            .is_ok()
    }

    /// Gives each unsolved position of `found` the record `rec` makes (a
    /// remoteness too large for a record is an error only when a position
    /// takes it): those claimed, in order, for the round to pass on.
    fn claim_all(
        &self,
        found: &[N],
        rec: &(dyn Fn() -> Result<Record, LoopFreeError> + Sync),
    ) -> Result<Vec<N>, LoopFreeError> {
        let claimed = spread(found.len(), |range| {
            let mut claimed = Vec::new();
            for &p in &found[range] {
                if !self.get(p).is_solved() && self.claim(p, rec()?) {
                    claimed.push(p);
                }
            }
            Ok(claimed)
        })?;
        Ok(claimed.into_iter().flatten().collect())
    }
}

/// Wins and losses, in order of remoteness: seeded by the tier's
/// primitive positions, positions every move of which leaves the tier for
/// a win, and wins through a losing child outside the tier.
fn wins_and_losses<G: Tiered, N: Num, E: Num>(
    job: &Job<'_, G>,
    g: &Graph<N, E>,
) -> Result<(), LoopFreeError> {
    let record = |value: Value, r: usize| record(job.game, job.tier, value, r);
    let id = Graph::<N, E>::id;
    // Positions found at each remoteness, whose parents are still to hear
    // of them; and wins through a child outside the tier, by remoteness.
    let mut level: Vec<Vec<N>> = vec![Vec::new()];
    let mut wins_from_outside: Vec<Vec<N>> = Vec::new();
    let seeds = spread(g.moves.len(), |range| {
        let (mut solved, mut wins) = (Found::new(), Found::new());
        for i in range {
            let m = &g.moves[i];
            if let Some(r) = m.fixed {
                if r.is_solved() {
                    solved.push((0, id(i)));
                }
            } else if let Some(r) = m.lose {
                wins.push((r + 1, id(i)));
            } else if g.open[i].load(Relaxed) == 0 {
                // Every move leaves the tier, and every child wins.
                let r = usize::from(m.win.unwrap_or(0)) + 1;
                g.records[i].store(record(Value::Lose, r)?.bits(), Relaxed);
                solved.push((r as u16, id(i)));
            }
        }
        Ok((solved, wins))
    })?;
    for (solved, wins) in seeds {
        file(&mut level, solved);
        file(&mut wins_from_outside, wins);
    }
    let mut r = 0;
    while r < level.len().max(wins_from_outside.len()) {
        at(&mut level, r);
        if let Some(found) = wins_from_outside.get_mut(r).map(std::mem::take) {
            level[r].extend(g.claim_all(&found, &|| record(Value::Win, r))?);
        }
        let here = std::mem::take(&mut level[r]);
        let next = r as u16 + 1;
        let found = spread(here.len(), |range| {
            let mut found = Found::new();
            for &c in &here[range] {
                match g.get(c).value() {
                    Some(Value::Lose) => {
                        for &p in g.parents_of(c) {
                            if !g.get(p).is_solved() && g.claim(p, record(Value::Win, r + 1)?) {
                                found.push((next, p));
                            }
                        }
                    }
                    Some(Value::Win) => {
                        for &p in g.parents_of(c) {
                            // A parent already solved has a child that does not
                            // win: its count never reaches 0, so skip it.
                            if !g.get(p).is_solved() && g.open[p.at()].fetch_sub(1, Relaxed) == 1 {
                                let rr = r.max(usize::from(g.moves[p.at()].win.unwrap_or(0))) + 1;
                                if g.claim(p, record(Value::Lose, rr)?) {
                                    found.push((rr as u16, p));
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            Ok(found)
        })?;
        for f in found {
            file(&mut level, f);
        }
        r += 1;
    }
    Ok(())
}

/// Ties among the positions left, in order of remoteness: seeded by the
/// tier's primitive ties and by tying children outside it.
fn ties<G: Tiered, N: Num, E: Num>(job: &Job<'_, G>, g: &Graph<N, E>) -> Result<(), LoopFreeError> {
    let record = |value: Value, r: usize| record(job.game, job.tier, value, r);
    let id = Graph::<N, E>::id;
    let mut ties: Vec<Vec<N>> = vec![Vec::new()];
    let mut ties_from_outside: Vec<Vec<N>> = Vec::new();
    let seeds = spread(g.moves.len(), |range| {
        let (mut tied, mut outside) = (Found::new(), Found::new());
        for i in range {
            let rec = g.get(id(i));
            if rec.value() == Some(Value::Tie) {
                tied.push((rec.remoteness(), id(i)));
            } else if !rec.is_solved() && g.moves[i].fixed.is_none() {
                if let Some(r) = g.moves[i].tie {
                    outside.push((r + 1, id(i)));
                }
            }
        }
        Ok((tied, outside))
    })?;
    for (tied, outside) in seeds {
        file(&mut ties, tied);
        file(&mut ties_from_outside, outside);
    }
    let mut r = 0;
    while r < ties.len().max(ties_from_outside.len()) {
        at(&mut ties, r);
        if let Some(found) = ties_from_outside.get_mut(r).map(std::mem::take) {
            ties[r].extend(g.claim_all(&found, &|| record(Value::Tie, r))?);
        }
        let here = std::mem::take(&mut ties[r]);
        let found = spread(here.len(), |range| {
            let mut found = Found::new();
            for &c in &here[range] {
                for &p in g.parents_of(c) {
                    if !g.get(p).is_solved() && g.claim(p, record(Value::Tie, r + 1)?) {
                        found.push((r as u16 + 1, p));
                    }
                }
            }
            Ok(found)
        })?;
        for f in found {
            file(&mut ties, f);
        }
        r += 1;
    }
    Ok(())
}

/// Makes `v[r]` exist.
fn at<N>(v: &mut Vec<Vec<N>>, r: usize) {
    if v.len() <= r {
        v.resize_with(r + 1, Vec::new);
    }
}

/// Files each found position under its remoteness.
fn file<N>(v: &mut Vec<Vec<N>>, found: Found<N>) {
    for (r, i) in found {
        at(v, usize::from(r));
        v[usize::from(r)].push(i);
    }
}

/// `work` over `0..len` in shares of [`SHARE`] on all cores (on this
/// thread when there is only one), its results in order of shares.
fn spread<R: Send>(
    len: usize,
    work: impl Fn(Range<usize>) -> Result<R, LoopFreeError> + Sync,
) -> Result<Vec<R>, LoopFreeError> {
    if len <= SHARE {
        return Ok(vec![work(0..len)?]);
    }
    topitop_par::try_map_ranges(len, SHARE, work)
}

/// Turns counts into running totals in place: `a[i]` becomes the sum of
/// `a[..=i]`. Totals fit: they are at most the tier's moves inside it,
/// which `E` holds.
fn prefix_sums<E: Num>(a: &mut [E::Atomic]) {
    let block = CHUNK.max(a.len().div_ceil(rayon::current_num_threads().max(1)));
    let zero = E::from_u64(0).expect("0 fits");
    let sums: Vec<E> = topitop_par::chunks_mut(a, block, |_, b| {
        let mut s = zero;
        for x in b.iter_mut() {
            s = s.plus(*E::get_mut(x));
            *E::get_mut(x) = s;
        }
        s
    });
    let mut before = zero;
    let offsets: Vec<E> = sums
        .iter()
        .map(|&s| {
            let o = before;
            before = before.plus(s);
            o
        })
        .collect();
    topitop_par::chunks_mut(a, block, |k, b| {
        let o = offsets[k];
        for x in b {
            let v = E::get_mut(x);
            *v = v.plus(o);
        }
    });
}

/// A record of `value` at remoteness `r`, or the error of a remoteness too
/// large to store.
fn record<G: Tiered>(game: &G, tier: G::Tier, value: Value, r: usize) -> Result<Record, LoopFreeError> {
    match u16::try_from(r) {
        Ok(r) if r <= MAX_REMOTENESS => Ok(Record::new(value, r)),
        _ => Err(LoopFreeError::TooRemote(game.tier_name(tier))),
    }
}

/// The bitmap of the indices of `tier` (`size` of them) whose positions
/// the solve keeps, walked on every core.
fn kept_bits<G: Tiered>(game: &G, tier: G::Tier, size: usize, symmetric: bool) -> Vec<u64> {
    let mut bits = vec![0u64; size.div_ceil(64)];
    topitop_par::chunks_mut(&mut bits, CHUNK / 64, |k, words| {
        let lo = k * CHUNK;
        let hi = size.min(lo + CHUNK);
        game.walk_positions(tier, lo as u64..hi as u64, symmetric, &mut |i, _| {
            let j = (i - lo as u64) as usize;
            words[j / 64] |= 1 << (j % 64);
        });
    });
    bits
}

/// The moves of `pos`, a position of `tier` the solve keeps; each child
/// inside the tier pushed on `inside` as `child` keeps it.
fn moves_of<G: Tiered, N>(
    game: &G,
    solved: &LoopFreeSolution<G::Tier>,
    tier: G::Tier,
    pos: &G::Position,
    inside: &mut Vec<N>,
    child: &impl Fn(u64) -> Result<N, LoopFreeError>,
) -> Result<Moves, LoopFreeError> {
    let pos = *pos;
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
        let mut next = game.play(&pos, mv);
        if solved.is_symmetric() {
            next = game.canonical(&next);
        }
        if game.tier_of(&next) == tier {
            inside.push(child(game.index(&next))?);
            continue;
        }
        let rec = solved.get_canonical(game, &next);
        let r = rec.remoteness();
        match rec.value() {
            None => {
                return Err(LoopFreeError::Escaped {
                    from: game.format_position(&pos),
                    to: game.format_position(&next),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loop_free::solve_loop_free;
    use topitop_game_api::{Game, GameError, TierType};

    /// A token on a line of cells and a pile of coins: the mover steps the
    /// token one cell (in its tier: play cycles) or, from an even cell,
    /// takes a coin. Cells `c` and `LINE - 1 - c` mirror each other; every
    /// fourth index names no position. With no coin left the cell decides.
    struct Line;

    const LINE: u8 = 40;
    const COINS: u8 = 4;

    impl Game for Line {
        type Position = (u8, u8, u8);
        type Move = i8;

        fn name(&self) -> &'static str {
            "line"
        }
        fn variant(&self) -> String {
            String::new()
        }
        fn start(&self) -> (u8, u8, u8) {
            (COINS, 0, 0)
        }
        fn moves(&self, p: &(u8, u8, u8)) -> Vec<i8> {
            let mut m: Vec<i8> = [-1, 1]
                .into_iter()
                .filter(|&d| (0..LINE as i16).contains(&(i16::from(p.1) + i16::from(d))))
                .collect();
            if p.1.is_multiple_of(2) {
                m.push(0);
            }
            m
        }
        fn play(&self, p: &(u8, u8, u8), d: i8) -> (u8, u8, u8) {
            let (c, cell, t) = *p;
            match d {
                0 => (c - 1, cell, 1 - t),
                _ => (c, (i16::from(cell) + i16::from(d)) as u8, 1 - t),
            }
        }
        fn primitive(&self, p: &(u8, u8, u8)) -> Option<Value> {
            (p.0 == 0)
                .then(|| [Value::Win, Value::Lose, Value::Tie][usize::from(p.1.min(LINE - 1 - p.1) % 3)])
        }
        fn check(&self, _: &(u8, u8, u8)) -> Result<(), GameError> {
            Ok(())
        }
        fn parse_position(&self, _: &str) -> Result<(u8, u8, u8), GameError> {
            Err(GameError::notation(""))
        }
        fn format_position(&self, p: &(u8, u8, u8)) -> String {
            format!("{p:?}")
        }
        fn parse_move(&self, _: &(u8, u8, u8), _: &str) -> Result<i8, GameError> {
            Err(GameError::notation(""))
        }
        fn format_move(&self, d: i8) -> String {
            d.to_string()
        }
        fn player_to_move(&self, p: &(u8, u8, u8)) -> Option<usize> {
            Some(usize::from(p.2))
        }
        fn images(&self, p: &(u8, u8, u8)) -> Vec<(u8, u8, u8)> {
            let m = (p.0, LINE - 1 - p.1, p.2);
            if m == *p {
                vec![*p]
            } else {
                vec![*p, m]
            }
        }
        fn canonical(&self, p: &(u8, u8, u8)) -> (u8, u8, u8) {
            (p.0, p.1.min(LINE - 1 - p.1), p.2)
        }
    }

    impl Tiered for Line {
        type Tier = u8;
        fn tiers(&self) -> Vec<u8> {
            (0..=COINS).collect()
        }
        fn tier_of(&self, p: &(u8, u8, u8)) -> u8 {
            p.0
        }
        fn tier_size(&self, _: u8) -> u64 {
            u64::from(LINE) * 8 / 3 + 1
        }
        fn index(&self, p: &(u8, u8, u8)) -> u64 {
            // Every fourth index left out.
            let k = u64::from(p.1) * 2 + u64::from(p.2);
            k + k / 3
        }
        fn position(&self, tier: u8, i: u64) -> Option<(u8, u8, u8)> {
            if i % 4 == 3 {
                return None;
            }
            let k = i - i / 4;
            (k < u64::from(LINE) * 2).then_some((tier, (k / 2) as u8, (k % 2) as u8))
        }
        fn child_tiers(&self, tier: u8) -> Vec<u8> {
            tier.checked_sub(1).into_iter().collect()
        }
        fn tier_name(&self, tier: u8) -> String {
            format!("c{tier}")
        }
        fn tier_type(&self, _: u8) -> TierType {
            TierType::Loopy
        }
    }

    /// Numbered first, or in 64 bits, or both, as a tier of 2³² indices,
    /// positions or inside moves is: the same records.
    #[test]
    fn tiers_numbered_first_or_wide_solve_the_same() {
        for symmetric in [false, true] {
            let solved = solve_loop_free(&Line, symmetric, |_, _| {}).unwrap();
            let mut values = [0; 4];
            for t in Line.tiers() {
                let whole = solved.tier(t).unwrap().unwrap();
                for (first_from, wide) in [(0, false), (u64::MAX, true), (0, true)] {
                    let mut stats = LoopyStats::default();
                    let other = solve_loopy_tier_as(&Line, &solved, t, &mut stats, first_from, wide).unwrap();
                    assert_eq!(
                        other.to_dense(),
                        whole,
                        "tier c{t}, symmetric {symmetric}, numbered first from {first_from}, wide {wide}"
                    );
                }
                for r in whole.iter().filter(|r| r.is_solved()) {
                    values[r.value().unwrap().index()] += 1;
                }
            }
            // Wins, losses, ties and draws all met.
            assert!(values.iter().all(|&n| n > 0), "{values:?}");
        }
    }
}
