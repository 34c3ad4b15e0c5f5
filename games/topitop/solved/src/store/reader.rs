//! Topitop's database behind the shared reader ([`Reader`]), so that the
//! shared `verify` and `export` read it as they read any game's: its tiers
//! are the index's compositions in index order, each read as the blocks
//! holding its boards, a step of blocks decoded at once.

use games_topitop_rules::{symmetry, Position, Rules, Tier, Value};
use rayon::prelude::*;
use topitop_db::reader::{Chunk, Chunks, Facts, Lookup, Place, Reachable, Reader};
use topitop_db::solved::TierSummary;
use topitop_db::DbError;
use topitop_game_api::{Game, Record};

use super::database::not_indexable;
use super::Database;

/// Blocks decoded together (on the worker pool) into one chunk.
const BLOCKS_PER_CHUNK: usize = 64;

impl<D: AsRef<[u8]> + Sync> Reader<Rules> for Database<D> {
    fn facts(&self) -> Facts {
        let h = self.header();
        let rules = self.rules();
        Facts {
            path: self.path().to_path_buf(),
            format: topitop_db::FormatVersion {
                name: "topitop database",
                version: h.version,
                current: crate::store::header::VERSION,
            },
            file_len: self.file_len(),
            game: rules.name().to_string(),
            variant: Game::variant(&rules),
            program: h.solver.clone(),
            symmetric: h.symmetric,
            counts: [Value::Win, Value::Lose, Value::Tie, Value::Draw].map(|v| h.count(v)),
            max_remoteness: h.max_remoteness,
            tiers: self
                .index()
                .tiers()
                .iter()
                .map(|r| TierSummary {
                    name: r.tier.number().to_string(),
                    size: r.len(),
                })
                .collect(),
            values_only: false,
            checks_counts: true,
            recorded_positions: None,
        }
    }

    fn lookup(&self, _game: &Rules, pos: &Position) -> Result<Record, DbError> {
        self.get(*pos)
    }

    /// The stored positions of play of tier `t` (one per symmetry class),
    /// in storage order: a block's boards may belong to two tiers, so the
    /// blocks at a tier's edges are read for each.
    fn chunks<'a>(&'a self, _game: &'a Rules, t: usize) -> Result<Chunks<'a, Position>, DbError> {
        let range = &self.index().tiers()[t];
        let tier: Tier = range.tier;
        let per = u64::from(self.header().block_boards);
        let first = (range.board_offset / per) as usize;
        let end = (range.board_offset + range.boards()).div_ceil(per) as usize;
        let budget = self.rules().budget();
        let blocks: Vec<usize> = (first..end).collect();
        let steps: Vec<Vec<usize>> = blocks.chunks(BLOCKS_PER_CHUNK).map(<[usize]>::to_vec).collect();
        Ok(Box::new(steps.into_iter().map(move |step| {
            let parts = step
                .par_iter()
                .map(|&b| self.block_positions(b))
                .collect::<Result<Vec<_>, DbError>>()?;
            Ok(parts
                .into_iter()
                .flatten()
                .filter(|(pos, _)| Tier::of(pos.board()) == tier && pos.is_valid(budget))
                .map(|(pos, rec)| (Some(pos), rec))
                .collect::<Chunk<Position>>())
        })))
    }

    fn verify_blocks(&self, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<(), DbError> {
        Database::verify_blocks(self, progress)
    }

    /// Two bytes a record, and about two a board for the numbering of the
    /// groups (the rank bitmap, each group's start and board).
    fn loaded_bytes(&self) -> Option<u64> {
        Some(2 * self.header().records + 2 * self.index().boards())
    }

    fn loaded<'a>(
        &'a self,
        _game: &'a Rules,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Option<Lookup<'a, Position>>, DbError> {
        let solution = self.records_whole(progress)?;
        Ok(Some(Box::new(move |pos| {
            solution.get(*pos).ok_or_else(|| not_indexable(*pos))
        })))
    }

    /// One forward pass over the index, instead of a backward search from
    /// each position.
    fn reachable<'a>(&'a self, _game: &'a Rules) -> Option<Reachable<'a, Position>> {
        let reached = crate::reach(self.rules(), self.index());
        Some(Box::new(move |pos| {
            reached.contains_class(self.index(), symmetry::canonical(*pos))
        }))
    }

    /// The tier is the board's composition, the rank the position's
    /// among the tier's in the index (both sides to move).
    fn place(&self, rules: &Rules, pos: &Position) -> Option<Place> {
        let index = self.index();
        let tier = Tier::of(pos.board());
        let (i, range) = (index.index(*pos).ok()?, index.tier_range(tier)?);
        Some(Place {
            tier: tier.describe(rules.budget()),
            rank: i - range.offset,
            size: 2 * range.half,
        })
    }
}
