//! The pass every format of the generic export makes over a database: its
//! tiers in file order, each a chunk of records at a time
//! ([`SolvedDb::tier_chunks`]); a chunk is cut into slices of a few
//! thousand indices, turned into rows a step of slices at a time on the
//! worker pool and handed on in order. What it holds at once is a chunk of
//! records and what the format makes of a step's rows, whatever the size
//! of the database.

use topitop_db::solved::CHUNK_RECORDS;
use topitop_db::SolvedDb;
use topitop_game_api::{Record, Tiered, Value};

use rayon::prelude::*;

use crate::progress::CountBar;

/// A row of the positions table, before a format writes it.
pub struct Row<P> {
    /// The row's position: the stored one, or with `--all-symmetries` one
    /// of its class.
    pub pos: P,
    /// The position the database stores for the row's class.
    pub stored: P,
    /// The tier's place in the file ([`Walk::tier_name`]).
    pub tier: usize,
    /// Its value and remoteness.
    pub record: Record,
    /// Whether games from the start come to it.
    pub reachable: bool,
}

/// What rows a database gives, and the pass that makes them.
pub struct Walk<'a, G: Tiered> {
    game: &'a G,
    db: &'a SolvedDb,
    /// The file's tiers in order: name and the game's tier.
    tiers: Vec<(String, G::Tier)>,
    /// `--value`: the values kept (none: all).
    values: Vec<Value>,
    /// `--reachable`.
    reachable_only: bool,
    /// `--all-symmetries`.
    all_symmetries: bool,
}

/// Indices turned into rows by one worker at a time: with
/// `--all-symmetries` up to eight rows each, a few megabytes of rows.
const SLICE: usize = 1024;

/// Slices made at once, one step: enough for every worker. A step's rows
/// are all that is held besides the chunk of records being read.
fn step_slices() -> usize {
    rayon::current_num_threads().clamp(2, 8)
}

impl<'a, G: Tiered> Walk<'a, G> {
    /// The pass over `db`, a database of `game`, keeping the rows the
    /// filters keep.
    ///
    /// # Errors
    /// A tier of the file that the game does not have (checked before any
    /// row is written).
    pub fn new(
        game: &'a G,
        db: &'a SolvedDb,
        values: Vec<Value>,
        reachable_only: bool,
        all_symmetries: bool,
    ) -> anyhow::Result<Walk<'a, G>> {
        let by_name: std::collections::HashMap<String, G::Tier> =
            game.tiers().into_iter().map(|t| (game.tier_name(t), t)).collect();
        let tiers = db
            .tiers()
            .into_iter()
            .map(|t| {
                let tier = *by_name.get(&t.name).ok_or_else(|| {
                    anyhow::anyhow!("tier {} is not one of {} {}", t.name, game.name(), game.variant())
                })?;
                Ok((t.name, tier))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Walk {
            game,
            db,
            tiers,
            values,
            reachable_only,
            all_symmetries,
        })
    }

    /// The game.
    pub fn game(&self) -> &'a G {
        self.game
    }

    /// The name of the tier at place `t` of the file.
    pub fn tier_name(&self, t: usize) -> &str {
        &self.tiers[t].0
    }

    /// Makes the rows of the whole database in file order, a slice's rows
    /// at a time: `make` turns each slice's rows (all of one tier) into
    /// what the format writes, on the worker pool; `sink` takes those in
    /// order.
    ///
    /// # Errors
    /// A damaged block, an index holding a record but naming no position,
    /// or what `make` or `sink` return.
    pub fn run<T: Send>(
        &self,
        make: impl Fn(&[Row<G::Position>]) -> anyhow::Result<T> + Sync,
        mut sink: impl FnMut(T) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let total: u64 = self
            .db
            .tiers()
            .iter()
            .map(|t| t.size.div_ceil(CHUNK_RECORDS))
            .sum();
        let bar = CountBar::new("exporting", "chunks");
        let mut done = 0;
        for (t, &(_, tier)) in self.tiers.iter().enumerate() {
            let mut start = 0;
            for records in self.db.tier_chunks(self.game, tier, t)? {
                let records = records?;
                for step in records.chunks(SLICE * step_slices()) {
                    let made = step
                        .par_chunks(SLICE)
                        .enumerate()
                        .map(|(k, slice)| make(&self.rows(t, start + (k * SLICE) as u64, slice)?))
                        .collect::<anyhow::Result<Vec<T>>>()?;
                    for m in made {
                        sink(m)?;
                    }
                    start += step.len() as u64;
                }
                done += 1;
                bar.set(done, total);
            }
        }
        bar.finish();
        Ok(())
    }

    /// The rows the filters keep of `records`, those of tier number `t`
    /// from index `start` on.
    fn rows(&self, t: usize, start: u64, records: &[Record]) -> anyhow::Result<Vec<Row<G::Position>>> {
        let (game, tier) = (self.game, self.tiers[t].1);
        // A database of values holds one at every index, those that name
        // no position included (they hold another image's).
        let values_only = matches!(self.db, SolvedDb::Values(_));
        let symmetric = self.db.symmetric();
        let mut rows = Vec::new();
        for (i, &record) in (start..).zip(records) {
            let Some(v) = record.value() else { continue };
            if !self.values.is_empty() && !self.values.contains(&v) {
                continue;
            }
            let pos = match game.position(tier, i) {
                Some(p) if !values_only || !symmetric || game.canonical(&p) == p => p,
                _ if values_only => continue,
                _ => anyhow::bail!(
                    "tier {} index {i} holds a record but no position",
                    self.tier_name(t)
                ),
            };
            let reachable = game.reachable(&pos);
            if self.reachable_only && !reachable {
                continue;
            }
            let row = |image| Row {
                pos: image,
                stored: pos,
                tier: t,
                record,
                reachable,
            };
            if self.all_symmetries {
                rows.extend(game.images(&pos).into_iter().map(row));
            } else {
                rows.push(row(pos));
            }
        }
        Ok(rows)
    }
}
