//! The pass every format of the generic export makes over a database: its
//! tiers in file order, each a chunk of records at a time
//! ([`Reader::chunks`]); a chunk is cut into slices of a few
//! thousand indices, turned into rows a step of slices at a time on the
//! worker pool and handed on in order. What it holds at once is a chunk of
//! records and what the format makes of a step's rows, whatever the size
//! of the database.

use topitop_db::reader::Reachable;
use topitop_db::{Facts, Reader};
use topitop_game_api::{Game, Record, Value};

use super::{Args, Extras};
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
pub struct Walk<'a, G: Game> {
    game: &'a G,
    db: &'a dyn Reader<G>,
    /// What the header says.
    facts: Facts,
    /// `--value`: the values kept (none: all).
    values: Vec<Value>,
    /// `--reachable`.
    reachable_only: bool,
    /// Whether a row's reachability is worked out (`--reachable` or
    /// `--mark-reachable`), and how: the database's test, or the game's.
    reached: Option<Option<Reachable<'a, G::Position>>>,
    /// The tiers kept, by place in the file.
    kept: Vec<bool>,
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

impl<'a, G: Game> Walk<'a, G> {
    /// The pass over `db`, a database of `game`, keeping the rows the
    /// filters of `args` and the tiers `extras` keep.
    ///
    /// # Errors
    /// A value `--value` does not know.
    pub fn new(
        game: &'a G,
        db: &'a dyn Reader<G>,
        extras: &dyn Extras<G>,
        args: &Args,
    ) -> anyhow::Result<Walk<'a, G>> {
        let facts = db.facts();
        let kept = facts.tiers.iter().map(|t| extras.keeps_tier(&t.name)).collect();
        Ok(Walk {
            game,
            db,
            values: args.values()?,
            reachable_only: args.reachable,
            reached: (args.reachable || args.mark_reachable).then(|| db.reachable(game)),
            kept,
            // A database of every position stores each image itself.
            all_symmetries: args.all_symmetries && facts.symmetric,
            facts,
        })
    }

    /// The game.
    pub fn game(&self) -> &'a G {
        self.game
    }

    /// The name of the tier at place `t` of the file.
    pub fn tier_name(&self, t: usize) -> &str {
        &self.facts.tiers[t].name
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
        let total = self.facts.tiers.len() as u64;
        let bar = CountBar::new("exporting", "tiers");
        for t in 0..self.facts.tiers.len() {
            if !self.kept[t] {
                continue;
            }
            let mut start = 0;
            for chunk in self.db.chunks(self.game, t)? {
                let chunk = chunk?;
                for step in chunk.chunks(SLICE * step_slices()) {
                    let made = topitop_par::try_map_ranges(step.len(), SLICE, |range| {
                        make(&self.rows(t, start + range.start as u64, &step[range])?)
                    })?;
                    for m in made {
                        sink(m)?;
                    }
                    start += step.len() as u64;
                }
            }
            bar.set(t as u64 + 1, total);
        }
        bar.finish();
        Ok(())
    }

    /// The rows the filters keep of `records`, those of tier number `t`
    /// from index `start` on.
    fn rows(
        &self,
        t: usize,
        start: u64,
        records: &[(Option<G::Position>, Record)],
    ) -> anyhow::Result<Vec<Row<G::Position>>> {
        let game = self.game;
        // A database of values holds one at every index, those that name
        // no position included (they hold another image's).
        let (values_only, symmetric) = (self.facts.values_only, self.facts.symmetric);
        let mut rows = Vec::new();
        for (i, &(pos, record)) in (start..).zip(records) {
            let Some(v) = record.value() else { continue };
            if !self.values.is_empty() && !self.values.contains(&v) {
                continue;
            }
            let pos = match pos {
                Some(p) if !values_only || !symmetric || game.canonical(&p) == p => p,
                _ if values_only => continue,
                _ => anyhow::bail!(
                    "tier {} index {i} holds a record but no position",
                    self.tier_name(t)
                ),
            };
            let test = |q: &G::Position| match &self.reached {
                None => true,
                Some(Some(test)) => test(q),
                Some(None) => game.reachable(q),
            };
            let row = |image, reachable| Row {
                pos: image,
                stored: pos,
                tier: t,
                record,
                reachable,
            };
            // Each image asked on its own: a class may hold positions no
            // game comes to (Topple's reserves) beside some it does; the
            // class's row is a reachable one when any of them is.
            if self.all_symmetries {
                for image in game.images(&pos) {
                    let reachable = test(&image);
                    if reachable || !self.reachable_only {
                        rows.push(row(image, reachable));
                    }
                }
            } else {
                let reachable = self.reached.is_none() || test(&pos) || game.images(&pos).iter().any(test);
                if reachable || !self.reachable_only {
                    rows.push(row(pos, reachable));
                }
            }
        }
        Ok(rows)
    }
}
