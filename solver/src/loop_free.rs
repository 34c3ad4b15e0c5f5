//! The framework's generic tier solver: any game behind [`Tiered`]. Tiers
//! are solved children first. Inside a loop-free tier (every move leads to
//! another tier) every position is solved at once from its children's
//! records, on all cores; a loopy tier (moves may stay inside it, and
//! cycle) is solved by retrograde analysis with draws
//! ([`crate::loopy`]). The tier graph itself must have no cycle: a loopy
//! tier does not name itself among its child tiers.

use topitop_game_api::{Record, TierType, Tiered, Value};

use crate::loopy::LoopyStats;
use crate::packed::PackedTier;
use crate::schedule::Schedule;
use topitop_db::quick_hash::QuickMap;
use topitop_db::sparse::SparseTier;

/// Why a loop-free solve failed.
#[derive(Debug, thiserror::Error)]
pub enum LoopFreeError {
    /// The tier graph has a cycle: the game is not loop-free.
    #[error("tier {0} leads back to itself: the game is not loop-free, and this solver solves only loop-free games")]
    Cycle(String),
    /// A position with no move that is not primitive.
    #[error("position {0} has no move but is not primitive: the game's rules are incomplete")]
    Stuck(String),
    /// A move leads to a position whose tier is not a child tier.
    #[error("a move from {from} leads to {to}, whose tier is not among {from}'s child tiers")]
    Escaped {
        /// The position moved from.
        from: String,
        /// The position reached.
        to: String,
    },
    /// A move inside a loopy tier to an index the tier's walk does not
    /// give.
    #[error("a move inside tier {0} leads to index {1}, which the game's walk of the tier does not give as a position: its walk_positions and its moves disagree")]
    Unwalked(String, u64),
    /// A loopy tier with more indices than this machine can address.
    #[error("loopy tier {0} has more indices than this machine can address")]
    TooLarge(String),
    /// A part of a loopy tier asked for: a loopy tier is solved whole.
    #[error("tier {0} is loopy: it is solved whole, not in parts")]
    LoopyPart(String),
    /// A remoteness beyond what a record holds.
    #[error("a position of tier {0} has a remoteness beyond what a record holds")]
    TooRemote(String),
    /// A finished tier could not be kept.
    #[error("cannot keep finished tier {tier}: {source}")]
    Keep {
        /// The tier's name.
        tier: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Where a loop-free solve keeps its finished tiers, so that a run cut
/// short resumes where it stopped. Tiers are named by
/// [`Tiered::tier_name`].
pub trait TierStore {
    /// The records of the tier `name` (of `size` indices) from an earlier
    /// run of the same solve, if it kept them whole.
    fn load(&mut self, name: &str, size: u64) -> Option<Vec<Record>>;

    /// Keeps the records of the finished tier `name`; true when they are
    /// kept where [`TierStore::reread`] finds them, so that the solve may
    /// drop them from memory.
    ///
    /// # Errors
    /// They could not be kept.
    fn save(&mut self, name: &str, records: &[Record]) -> std::io::Result<bool>;

    /// The records of tier `name` (of `size` indices) that this solve
    /// kept (`save` said true) or took with `load`.
    ///
    /// # Errors
    /// They are no longer there, or not whole.
    fn reread(&mut self, name: &str, size: u64) -> std::io::Result<Vec<Record>>;
}

/// Nothing kept, nothing to resume.
pub struct KeepNothing;

impl TierStore for KeepNothing {
    fn load(&mut self, _: &str, _: u64) -> Option<Vec<Record>> {
        None
    }

    fn save(&mut self, _: &str, _: &[Record]) -> std::io::Result<bool> {
        Ok(false)
    }

    fn reread(&mut self, name: &str, _: u64) -> std::io::Result<Vec<Record>> {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("tier {name} was not kept"),
        ))
    }
}

/// Every tier's records: the result of [`solve_loop_free`]. Tiers some
/// unsolved tier still reads are held for lookups, a record for each index
/// that holds one ([`topitop_db::sparse`]); the others are left where the
/// solve's [`TierStore`] kept them, on disk, or packed in memory
/// (the `packed` module) when it did not keep them.
pub struct LoopFreeSolution<T> {
    records: QuickMap<T, SparseTier>,
    packed: QuickMap<T, PackedTier>,
    /// Tiers only the store holds, with their sizes.
    stored: QuickMap<T, u64>,
    symmetric: bool,
    loopy: LoopyStats,
}

impl<T: Copy + Eq + std::hash::Hash + Ord> LoopFreeSolution<T> {
    /// The record of `pos` (through its canonical form when the solve used
    /// symmetry), or [`Record::UNSOLVED`] for a position outside every tier
    /// or in a tier only the store holds ([`LoopFreeSolution::get_kept`]
    /// reads those).
    pub fn get<G: Tiered<Tier = T>>(&self, game: &G, pos: &G::Position) -> Record {
        if self.symmetric {
            self.get_canonical(game, &game.canonical(pos))
        } else {
            self.get_canonical(game, pos)
        }
    }

    /// [`LoopFreeSolution::get`] for a position already in the form the
    /// solve keeps (canonical when it used symmetry): its record without
    /// canonicalising it again.
    pub fn get_canonical<G: Tiered<Tier = T>>(&self, game: &G, pos: &G::Position) -> Record {
        let tier = game.tier_of(pos);
        let i = game.index(pos);
        match self.records.get(&tier) {
            Some(r) => r.get(i),
            None => usize::try_from(i)
                .ok()
                .and_then(|i| self.packed.get(&tier)?.get(i))
                .unwrap_or(Record::UNSOLVED),
        }
    }

    /// [`LoopFreeSolution::get`], reading a tier only `store` holds
    /// whole: for a position or two after the solve.
    ///
    /// # Errors
    /// The store no longer holds the tier whole.
    pub fn get_kept<G: Tiered<Tier = T>>(
        &self,
        game: &G,
        pos: &G::Position,
        store: &mut impl TierStore,
    ) -> std::io::Result<Record> {
        let pos = if self.symmetric { game.canonical(pos) } else { *pos };
        let tier = game.tier_of(&pos);
        if self.records.contains_key(&tier) || !self.stored.contains_key(&tier) {
            return Ok(self.get_canonical(game, &pos));
        }
        let records = self.tier_kept(game, tier, store)?.unwrap_or_default();
        let i = usize::try_from(game.index(&pos)).ok();
        Ok(i.and_then(|i| records.get(i).copied())
            .unwrap_or(Record::UNSOLVED))
    }

    /// The records of `tier`, by index (unpacked if it was packed), if it
    /// is held in memory.
    ///
    /// # Errors
    /// A packed block that does not unpack (memory gone bad).
    pub fn tier(&self, tier: T) -> std::io::Result<Option<Vec<Record>>> {
        if let Some(r) = self.records.get(&tier) {
            return Ok(Some(r.to_dense()));
        }
        self.packed.get(&tier).map(PackedTier::unpack).transpose()
    }

    /// [`LoopFreeSolution::tier`], reading a tier only `store` holds.
    ///
    /// # Errors
    /// As `tier`, or the store no longer holds the tier whole.
    pub fn tier_kept<G: Tiered<Tier = T>>(
        &self,
        game: &G,
        tier: T,
        store: &mut impl TierStore,
    ) -> std::io::Result<Option<Vec<Record>>> {
        match self.stored.get(&tier) {
            Some(&size) if !self.records.contains_key(&tier) => {
                store.reread(&game.tier_name(tier), size).map(Some)
            }
            _ => self.tier(tier),
        }
    }

    /// A solution holding nothing yet, for a solve of a part of a game at
    /// a time (one rank of a distributed solve): it is given the child
    /// tiers a part reads with [`LoopFreeSolution::hold`].
    pub fn holding(symmetric: bool) -> LoopFreeSolution<T> {
        LoopFreeSolution {
            records: QuickMap::default(),
            packed: QuickMap::default(),
            stored: QuickMap::default(),
            symmetric,
            loopy: LoopyStats::default(),
        }
    }

    /// A solution whose tiers, `tiers` with their sizes, are all held by
    /// a [`TierStore`] and read through [`LoopFreeSolution::tier_kept`]:
    /// what a distributed solve leaves to the rank that writes the
    /// database.
    pub fn in_store(symmetric: bool, tiers: impl IntoIterator<Item = (T, u64)>) -> LoopFreeSolution<T> {
        let mut s = LoopFreeSolution::holding(symmetric);
        s.stored.extend(tiers);
        s
    }

    /// Holds the records of `tier` (by index) for lookups.
    pub fn hold(&mut self, tier: T, records: &[Record]) {
        self.records.insert(tier, SparseTier::from_dense(records));
    }

    /// Whether `tier` is held for lookups.
    pub fn holds(&self, tier: T) -> bool {
        self.records.contains_key(&tier)
    }

    /// Lets go of `tier` if it is held for lookups.
    pub fn release(&mut self, tier: T) {
        self.records.remove(&tier);
    }

    /// The tiers solved, in order.
    pub fn tiers(&self) -> Vec<T> {
        let mut t: Vec<T> = self
            .records
            .keys()
            .chain(self.packed.keys())
            .chain(self.stored.keys())
            .copied()
            .collect();
        t.sort();
        t.dedup();
        t
    }

    /// The work the loopy tiers solved in this run took (none for tiers
    /// taken from a store).
    pub fn loopy_stats(&self) -> &LoopyStats {
        &self.loopy
    }

    /// True when only canonical positions were solved.
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }
}

/// The tiers of `game` in the order the solver takes them: children
/// first, and of the tiers whose children are all solved, always the
/// least in the tier's order.
///
/// # Errors
/// A cycle among the tiers.
pub fn children_first<G: Tiered>(game: &G) -> Result<Vec<G::Tier>, LoopFreeError> {
    Schedule::new(game).map(Schedule::into_order)
}

/// The record of a position from its children's records (each from the
/// view of the child's player to move): a win through the quickest losing
/// child, else a tie through the quickest tying child, else a draw, else a
/// loss through the slowest winning child.
///
/// # Examples
///
/// ```
/// use topitop_game_api::{Record, Value};
/// use topitop_solver::loop_free::negamax;
///
/// let (win, lose) = (|r| Record::new(Value::Win, r), |r| Record::new(Value::Lose, r));
/// // A losing child makes a win, one move longer than the quickest.
/// assert_eq!(negamax([win(4), lose(2), lose(6)]), Some(win(3)));
/// // Every child wins: a loss, as slow as the slowest allows.
/// assert_eq!(negamax([win(1), win(5)]), Some(lose(6)));
/// // No children: no record (a primitive position has its own).
/// assert_eq!(negamax([]), None);
/// ```
pub fn negamax(children: impl IntoIterator<Item = Record>) -> Option<Record> {
    let (mut lose, mut tie, mut draw, mut win, mut any) =
        (None::<u16>, None::<u16>, false, None::<u16>, false);
    for c in children {
        any = true;
        match c.value() {
            Some(Value::Lose) => lose = Some(lose.map_or(c.remoteness(), |r| r.min(c.remoteness()))),
            Some(Value::Tie) => tie = Some(tie.map_or(c.remoteness(), |r| r.min(c.remoteness()))),
            Some(Value::Draw) => draw = true,
            Some(Value::Win) => win = Some(win.map_or(c.remoteness(), |r| r.max(c.remoteness()))),
            None => {}
        }
    }
    if !any {
        return None;
    }
    Some(if let Some(r) = lose {
        Record::new(Value::Win, r + 1)
    } else if let Some(r) = tie {
        Record::new(Value::Tie, r + 1)
    } else if draw {
        Record::new(Value::Draw, 0)
    } else {
        Record::new(Value::Lose, win.unwrap_or(0) + 1)
    })
}

/// Solves every position of the loop-free tiered `game`: with `symmetric`,
/// one position per symmetry class (the canonical one; the others' indices
/// hold [`Record::UNSOLVED`]). Calls `progress(indices done, indices)`
/// after each tier: the indices of the tiers solved so far, of all.
///
/// # Examples
///
/// A heap of 7 stones, each player taking one or two; who cannot move
/// loses (the game of `topitop_game_api::Game`'s example): impartial, so a
/// heap is one position whoever takes from it.
///
/// ```
/// # use topitop_game_api::{Game, GameError, Record, Tiered, Value};
/// # #[derive(Clone, Copy)]
/// # struct Heap;
/// # impl Game for Heap {
/// #     type Position = u8;
/// #     type Move = u8;
/// #     fn name(&self) -> &'static str { "heap" }
/// #     fn variant(&self) -> String { "7".into() }
/// #     fn start(&self) -> u8 { 7 }
/// #     fn moves(&self, pos: &u8) -> Vec<u8> { (1..=2).filter(|&k| k <= *pos).collect() }
/// #     fn play(&self, pos: &u8, mv: u8) -> u8 { pos - mv }
/// #     fn primitive(&self, pos: &u8) -> Option<Value> { (*pos == 0).then_some(Value::Lose) }
/// #     fn check(&self, _: &u8) -> Result<(), GameError> { Ok(()) }
/// #     fn parse_position(&self, text: &str) -> Result<u8, GameError> { text.parse().map_err(GameError::notation) }
/// #     fn format_position(&self, pos: &u8) -> String { pos.to_string() }
/// #     fn parse_move(&self, _: &u8, text: &str) -> Result<u8, GameError> { text.parse().map_err(GameError::notation) }
/// #     fn format_move(&self, mv: u8) -> String { mv.to_string() }
/// # }
/// # impl Tiered for Heap {
/// #     type Tier = u8;
/// #     fn tiers(&self) -> Vec<u8> { (0..=7).collect() }
/// #     fn tier_of(&self, pos: &u8) -> u8 { *pos }
/// #     fn tier_size(&self, _: u8) -> u64 { 1 }
/// #     fn index(&self, _: &u8) -> u64 { 0 }
/// #     fn position(&self, tier: u8, index: u64) -> Option<u8> { (index == 0).then_some(tier) }
/// #     fn child_tiers(&self, tier: u8) -> Vec<u8> { (tier.saturating_sub(2)..tier).collect() }
/// #     fn tier_name(&self, tier: u8) -> String { format!("stones{tier}") }
/// # }
/// use topitop_solver::loop_free::solve_loop_free;
///
/// let solution = solve_loop_free(&Heap, false, |_, _| {})?;
/// // A multiple of 3 is lost for the player to move; any other heap is won
/// // by taking down to one.
/// assert_eq!(solution.get(&Heap, &6), Record::new(Value::Lose, 4));
/// assert_eq!(solution.get(&Heap, &7), Record::new(Value::Win, 5));
/// # Ok::<(), topitop_solver::loop_free::LoopFreeError>(())
/// ```
///
/// # Errors
/// The tiers have a cycle, a move leaves the child tiers, or a position
/// has no move but is not primitive.
pub fn solve_loop_free<G: Tiered>(
    game: &G,
    symmetric: bool,
    progress: impl FnMut(u64, u64),
) -> Result<LoopFreeSolution<G::Tier>, LoopFreeError> {
    solve_loop_free_kept(game, symmetric, &mut KeepNothing, progress).map(|(s, _)| s)
}

/// [`solve_loop_free`], taking each tier `store` kept from an earlier run
/// and giving it each tier solved; also returns how many tiers were
/// taken.
///
/// # Errors
/// As [`solve_loop_free`], or a tier that could not be kept.
pub fn solve_loop_free_kept<G: Tiered>(
    game: &G,
    symmetric: bool,
    store: &mut impl TierStore,
    mut progress: impl FnMut(u64, u64),
) -> Result<(LoopFreeSolution<G::Tier>, usize), LoopFreeError> {
    let mut schedule = Schedule::new(game)?;
    let order = schedule.order().to_vec();
    let mut solution = LoopFreeSolution {
        records: QuickMap::default(),
        packed: QuickMap::default(),
        stored: QuickMap::default(),
        symmetric,
        loopy: LoopyStats::default(),
    };
    let mut loopy = LoopyStats::default();
    let mut resumed = 0;
    let total: u64 = order.iter().map(|&t| game.tier_size(t)).sum();
    let mut done = 0;
    for &tier in &order {
        let size = game.tier_size(tier);
        let name = game.tier_name(tier);
        let (records, on_disk) = match store.load(&name, size) {
            Some(kept) => {
                resumed += 1;
                (SparseTier::from_dense(&kept), true)
            }
            None => {
                // The store keeps records by index.
                let (dense, records) = match game.tier_type(tier) {
                    TierType::LoopFree => {
                        let dense = solve_range(game, &solution, tier, 0..size)?;
                        let records = SparseTier::from_dense(&dense);
                        (dense, records)
                    }
                    TierType::Loopy => {
                        let records = crate::loopy::solve_loopy_tier(game, &solution, tier, &mut loopy)?;
                        (records.to_dense(), records)
                    }
                };
                let on_disk = store
                    .save(&name, &dense)
                    .map_err(|source| LoopFreeError::Keep { tier: name, source })?;
                (records, on_disk)
            }
        };
        if on_disk {
            solution.stored.insert(tier, size);
        }
        solution.records.insert(tier, records);
        // A tier nothing left to solve reads leaves memory: the store has
        // it, or else it is packed.
        for c in schedule.solved(tier) {
            if let Some(r) = solution.records.remove(&c) {
                if !solution.stored.contains_key(&c) {
                    solution.packed.insert(c, PackedTier::pack(&r.to_dense()));
                }
            }
        }
        done += size;
        progress(done, total);
    }
    solution.loopy = loopy;
    Ok((solution, resumed))
}

/// The records of indices `range` of `tier`, from the child tiers held
/// by `solved` (every one of them must be): a part of a tier, for a solve
/// split among several processes. A loop-free tier may be split anywhere,
/// each index solved on its own; a loopy tier is solved whole, so `range`
/// must then be all of it. Adds a loopy tier's work to `stats`.
///
/// # Errors
/// As [`solve_loop_free`]; a loopy tier asked for in part.
pub fn solve_part<G: Tiered>(
    game: &G,
    solved: &LoopFreeSolution<G::Tier>,
    tier: G::Tier,
    range: std::ops::Range<u64>,
    stats: &mut LoopyStats,
) -> Result<Vec<Record>, LoopFreeError> {
    match game.tier_type(tier) {
        TierType::LoopFree => solve_range(game, solved, tier, range),
        TierType::Loopy => {
            if range != (0..game.tier_size(tier)) {
                return Err(LoopFreeError::LoopyPart(game.tier_name(tier)));
            }
            crate::loopy::solve_loopy_tier(game, solved, tier, stats).map(|r| r.to_dense())
        }
    }
}

/// Indices in a share of [`solve_range`]'s work: enough that handing a
/// share to a worker costs nothing beside solving its positions.
const SOLVE_SHARE: u64 = 1 << 12;

/// Every index of `range` of a loop-free `tier`, solved on all cores.
fn solve_range<G: Tiered>(
    game: &G,
    solved: &LoopFreeSolution<G::Tier>,
    tier: G::Tier,
    range: std::ops::Range<u64>,
) -> Result<Vec<Record>, LoopFreeError> {
    let len = usize::try_from(range.end - range.start)
        .map_err(|_| LoopFreeError::TooLarge(game.tier_name(tier)))?;
    let shares = topitop_par::try_map_ranges(len, SOLVE_SHARE as usize, |r| {
        (r.start as u64..r.end as u64)
            .map(|i| solve_one(game, solved, tier, range.start + i))
            .collect::<Result<Vec<Record>, LoopFreeError>>()
    })?;
    Ok(shares.concat())
}

/// The record of index `i` of `tier`, from the solved child tiers.
fn solve_one<G: Tiered>(
    game: &G,
    solved: &LoopFreeSolution<G::Tier>,
    tier: G::Tier,
    i: u64,
) -> Result<Record, LoopFreeError> {
    let Some(pos) = game.position(tier, i) else {
        return Ok(Record::UNSOLVED);
    };
    if solved.symmetric && game.canonical(&pos) != pos {
        return Ok(Record::UNSOLVED);
    }
    if let Some(v) = game.primitive(&pos) {
        return Ok(Record::new(v, 0));
    }
    let mut children = Vec::new();
    for mv in game.moves(&pos) {
        let child = game.play(&pos, mv);
        let rec = solved.get(game, &child);
        if rec.value().is_none() {
            return Err(LoopFreeError::Escaped {
                from: game.format_position(&pos),
                to: game.format_position(&child),
            });
        }
        children.push(rec);
    }
    negamax(children).ok_or_else(|| LoopFreeError::Stuck(game.format_position(&pos)))
}
