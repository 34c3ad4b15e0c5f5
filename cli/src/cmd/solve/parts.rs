//! The tier solver split into units for a distributed solve: every tier
//! in the solver's order, a loop-free tier cut into parts of at most
//! `--part-size` indices (each index is solved from the child tiers
//! alone, so any cut gives the same records), a loopy tier whole. A part
//! reads every part of its tier's child tiers from the checkpoints and is
//! kept there under its tier's name, or `TIER@START-END` when the tier is
//! cut.

use std::collections::HashMap;

use topitop_game_api::{TierType, Tiered};
use topitop_solver::loop_free::{children_first, solve_part, LoopFreeSolution, TierStore};
use topitop_solver::loopy::LoopyStats;

use super::{Kept, TierSolver};
use crate::distributed::{Memory, Unit, Units};

/// The most bytes of child tiers a process holds between parts: a
/// quarter of its memory, or this, whichever is less.
const HOLD_BUDGET: u64 = 2 << 30;

/// The parts of a tier solve, and what a process holds while solving them.
pub(super) struct Split<T> {
    parts: Vec<Part<T>>,
    /// Each tier's parts, in order.
    of_tier: HashMap<T, Vec<usize>>,
    /// Child tiers read, held while they fit [`Split::budget`], so that
    /// a tier read by several parts is not read again each time.
    held: LoopFreeSolution<T>,
    /// The tiers held, least recently read first, with their sizes.
    recent: Vec<(T, u64)>,
    /// Bytes the tiers held may take (two an index, a bound).
    budget: u64,
    stats: LoopyStats,
}

/// One unit: indices `start..end` of `tier`, kept under `name`.
struct Part<T> {
    tier: T,
    start: u64,
    end: u64,
    name: String,
}

impl<G: Tiered> TierSolver<G> {
    fn split(&self) -> anyhow::Result<&Split<G::Tier>> {
        self.split
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("the solve was not split into units"))
    }

    /// The records of `tier`, read part after part from `kept`.
    fn read_tier(
        split: &Split<G::Tier>,
        tier: G::Tier,
        kept: &mut Kept,
    ) -> std::io::Result<Vec<topitop_game_api::Record>> {
        let mut records = Vec::new();
        for &p in split.of_tier.get(&tier).map_or(&[][..], Vec::as_slice) {
            let part = &split.parts[p];
            records.extend(kept.reread(&part.name, part.end - part.start)?);
        }
        Ok(records)
    }
}

impl<G: Tiered> Units for TierSolver<G> {
    fn units(&mut self, part_size: u64) -> anyhow::Result<Vec<Unit>> {
        let game = &self.game;
        let mut parts = Vec::new();
        let mut of_tier: HashMap<G::Tier, Vec<usize>> = HashMap::new();
        let mut list = Vec::new();
        for tier in children_first(game)? {
            let size = game.tier_size(tier);
            let name = game.tier_name(tier);
            let cut = game.tier_type(tier) == TierType::LoopFree && size > part_size;
            let reads: Vec<usize> = game
                .child_tiers(tier)
                .iter()
                .flat_map(|c| of_tier.get(c).cloned().unwrap_or_default())
                .collect();
            let step = if cut { part_size } else { size.max(1) };
            let mut start = 0;
            loop {
                let end = (start + step).min(size);
                of_tier.entry(tier).or_default().push(parts.len());
                parts.push(Part {
                    tier,
                    start,
                    end,
                    name: if cut {
                        format!("{name}@{start}-{end}")
                    } else {
                        name.clone()
                    },
                });
                list.push(Unit {
                    reads: reads.clone(),
                    size: end - start,
                });
                start = end;
                if start >= size {
                    break;
                }
            }
        }
        self.split = Some(Split {
            parts,
            of_tier,
            held: LoopFreeSolution::holding(self.symmetric),
            recent: Vec::new(),
            budget: crate::common::available_memory().map_or(HOLD_BUDGET, |a| (a / 4).min(HOLD_BUDGET)),
            stats: LoopyStats::default(),
        });
        Ok(list)
    }

    fn memory(&mut self, part_size: u64) -> Memory {
        let largest = self
            .game
            .tiers()
            .into_iter()
            .map(|t| self.game.tier_size(t))
            .max()
            .unwrap_or(0);
        Memory {
            // The database is written a tier at a time, each read back
            // whole: its bytes, then its records.
            lead: (16 << 20) + 4 * largest,
            worker: topitop_solver::estimate::per_process(&self.game, self.symmetric, part_size),
        }
    }

    fn kept_whole(&mut self, u: usize, kept: &mut [Kept]) -> bool {
        let (Ok(split), [kept]) = (self.split(), kept) else {
            return false;
        };
        let part = &split.parts[u];
        kept.has_whole(&part.name, 2 * (part.end - part.start))
    }

    fn solve_unit(&mut self, u: usize, kept: &mut [Kept]) -> anyhow::Result<()> {
        let [kept] = kept else {
            anyhow::bail!("one database, so one checkpoint store");
        };
        let game = &self.game;
        let split = self
            .split
            .as_mut()
            .ok_or_else(|| anyhow::anyhow!("the solve was not split into units"))?;
        let (tier, start, end) = {
            let p = &split.parts[u];
            (p.tier, p.start, p.end)
        };
        let children = game.child_tiers(tier);
        for &c in &children {
            if let Some(k) = split.recent.iter().position(|&(t, _)| t == c) {
                let used = split.recent.remove(k);
                split.recent.push(used);
            } else {
                let records = Self::read_tier(split, c, kept)?;
                split.held.hold(c, &records);
                split.recent.push((c, records.len() as u64));
            }
        }
        // Beyond the budget, the tiers read longest ago go, but never one
        // this part reads.
        let mut bytes: u64 = split.recent.iter().map(|&(_, n)| 2 * n).sum();
        let mut k = 0;
        while bytes > split.budget && k < split.recent.len() {
            let (t, n) = split.recent[k];
            if children.contains(&t) {
                k += 1;
            } else {
                split.recent.remove(k);
                split.held.release(t);
                bytes -= 2 * n;
            }
        }
        let records = solve_part(game, &split.held, tier, start..end, &mut split.stats)?;
        let name = &split.parts[u].name;
        kept.keep_now(name, &records)
            .map_err(|e| anyhow::anyhow!("cannot keep {name}: {e}"))
    }

    fn gather(&mut self, kept: &mut [Kept]) -> anyhow::Result<()> {
        let [kept] = kept else {
            anyhow::bail!("one database, so one checkpoint store");
        };
        let game = &self.game;
        let split = self.split()?;
        for (&tier, parts) in &split.of_tier {
            if parts.len() > 1 {
                kept.split(
                    game.tier_name(tier),
                    parts
                        .iter()
                        .map(|&p| {
                            (
                                split.parts[p].name.clone(),
                                split.parts[p].end - split.parts[p].start,
                            )
                        })
                        .collect(),
                );
            }
        }
        let tiers: Vec<(G::Tier, u64)> = split.of_tier.keys().map(|&t| (t, game.tier_size(t))).collect();
        self.solution = Some(LoopFreeSolution::in_store(self.symmetric, tiers));
        Ok(())
    }
}
