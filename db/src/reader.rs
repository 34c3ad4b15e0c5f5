//! One way to read a solved database, whatever its format: the commands
//! that read a database whole (`verify`, `export`, `stats`) are written
//! once against [`Reader`], which [`SolvedDb`] implements for every game
//! behind the tiered interface and a game with a format of its own
//! implements in its own crate.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use topitop_game_api::{Game, Record, Tiered};

use crate::error::DbError;
use crate::quick_hash::QuickMap;
use crate::solved::TierSummary;
use crate::sparse::SparseTier;
use crate::SolvedDb;

/// The format a file is in and its version, beside the version this
/// program writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatVersion {
    /// The format's name, e.g. `value database`.
    pub name: &'static str,
    /// The version the file is in.
    pub version: u16,
    /// The version this program writes.
    pub current: u16,
}

impl FormatVersion {
    /// The format in words, and for a file of an older version, the
    /// command that rewrites it in today's ([`describe_format`]).
    pub fn describe(&self, path: &std::path::Path) -> String {
        describe_format(self.name, self.version, self.current, path)
    }
}

/// Format `name` in `version` in words, and when `version` is older than
/// `current`, the command that rewrites the file at `path` in it:
/// `value database, version 1 (read as it is; ...)`.
pub fn describe_format(name: &str, version: u16, current: u16, path: &std::path::Path) -> String {
    if version < current {
        format!(
            "{name}, version {version} (read as it is; `topitop convert --db {}` rewrites it in version {current})",
            path.display()
        )
    } else {
        format!("{name}, version {version}")
    }
}

/// What a database's header says about what it holds.
#[derive(Clone, Debug)]
pub struct Facts {
    /// The file.
    pub path: PathBuf,
    /// Its format and version.
    pub format: FormatVersion,
    /// Bytes of the file.
    pub file_len: u64,
    /// The game's name.
    pub game: String,
    /// The variant's name.
    pub variant: String,
    /// The program that wrote it.
    pub program: String,
    /// True when one position per symmetry class was solved.
    pub symmetric: bool,
    /// Positions stored by value: win, lose, tie, draw.
    pub counts: [u64; 4],
    /// The largest remoteness.
    pub max_remoteness: u16,
    /// The tiers, in the order [`Reader::chunks`] numbers them.
    pub tiers: Vec<TierSummary>,
    /// True when the file holds values alone (the game fixes each tier's
    /// remoteness): an index then holds a value even where it names no
    /// stored position, so such an index is skipped rather than refused.
    pub values_only: bool,
    /// True when [`Reader::verify_blocks`] also checks the header's counts
    /// by value and largest remoteness against a recount.
    pub checks_counts: bool,
    /// The positions of play and the symmetry classes stored, when the
    /// file records them.
    pub recorded_positions: Option<(u64, u64)>,
}

/// One chunk of a tier: each index in order, with the position it names
/// (none where it names no position of play) and its record.
pub type Chunk<P> = Vec<(Option<P>, Record)>;

/// The chunks of one tier, in index order. Sent between threads, so that
/// a pass may read the next chunk while it works on this one.
pub type Chunks<'a, P> = Box<dyn Iterator<Item = Result<Chunk<P>, DbError>> + Send + 'a>;

/// A solved database of the game `G`, read through the commands that read
/// a database whole.
pub trait Reader<G: Game>: Sync {
    /// What the header says.
    fn facts(&self) -> Facts;

    /// The record of `pos` (any position of play, through its canonical
    /// form when the database holds one per symmetry class).
    ///
    /// # Errors
    /// A position the database does not hold, or a damaged block.
    fn lookup(&self, game: &G, pos: &G::Position) -> Result<Record, DbError>;

    /// Tier number `t` of [`Facts::tiers`], a chunk at a time in the
    /// game's index order, so that a pass over the whole database holds
    /// one chunk at a time.
    ///
    /// # Errors
    /// A damaged block (or one found as each chunk is read).
    fn chunks<'a>(&'a self, game: &'a G, t: usize) -> Result<Chunks<'a, G::Position>, DbError>;

    /// [`Reader::chunks`], but when the database keeps one record per
    /// symmetry class, naming only the canonical positions (the others come as
    /// `None`, like an index that names no position: both must hold
    /// nothing in a database of records). What `verify` walks; faster for
    /// a game that drops non-canonical boards before checking them. By
    /// default the same as [`Reader::chunks`].
    ///
    /// # Errors
    /// As [`Reader::chunks`].
    fn canonical_chunks<'a>(&'a self, game: &'a G, t: usize) -> Result<Chunks<'a, G::Position>, DbError> {
        self.chunks(game, t)
    }

    /// Checks every block's checksum, calling `progress(done, total)` in
    /// blocks (and the counts, when [`Facts::checks_counts`]).
    ///
    /// # Errors
    /// The first damaged block, or counts the records refute.
    fn verify_blocks(&self, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<(), DbError>;

    /// Bytes of memory [`Reader::loaded`] takes, when this format can read
    /// its records whole into memory; none: it cannot, and every lookup
    /// goes through [`Reader::lookup`].
    fn loaded_bytes(&self) -> Option<u64> {
        None
    }

    /// Every record read into memory, with a lookup that answers from them
    /// as [`Reader::lookup`] answers, for a pass that looks up every
    /// position's children (`verify`): each block is then decoded once
    /// rather than again whenever the block cache has let it go. Calls
    /// `progress(done, total)` in blocks. None: the format cannot (as
    /// [`Reader::loaded_bytes`] says).
    ///
    /// # Errors
    /// A damaged block.
    fn loaded<'a>(
        &'a self,
        _game: &'a G,
        _progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Option<Lookup<'a, G::Position>>, DbError> {
        Ok(None)
    }

    /// Whether games from the start come to a position, when the database
    /// tells it faster than [`Game::reachable`] asked position by position
    /// (e.g. by one forward pass over its index, made here); none: ask the
    /// game.
    fn reachable<'a>(&'a self, _game: &'a G) -> Option<Reachable<'a, G::Position>> {
        None
    }

    /// Where the file keeps `pos` (through its canonical form when the
    /// file holds one position a class), for a person who wants to find
    /// it there; none for a position the file does not hold.
    fn place(&self, game: &G, pos: &G::Position) -> Option<Place>;
}

/// Where a database keeps one position ([`Reader::place`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The tier's name.
    pub tier: String,
    /// The position's rank among the tier's.
    pub rank: u64,
    /// The tier's size in ranks.
    pub size: u64,
}

/// A lookup answered from memory ([`Reader::loaded`]).
pub type Lookup<'a, P> = Box<dyn Fn(&P) -> Result<Record, DbError> + Sync + 'a>;

/// A test of reachability ([`Reader::reachable`]).
pub type Reachable<'a, P> = Box<dyn Fn(&P) -> bool + Sync + 'a>;

/// Indices a thread walks at a time when [`Reader::chunks`] unranks.
const WALK: usize = 1 << 12;

impl<G: Tiered> Reader<G> for SolvedDb {
    fn facts(&self) -> Facts {
        let (game, variant, program) = self.names();
        Facts {
            path: self.path().to_path_buf(),
            format: self.format(),
            file_len: self.file_len(),
            game: game.to_string(),
            variant: variant.to_string(),
            program: program.to_string(),
            symmetric: self.symmetric(),
            counts: self.counts(),
            max_remoteness: self.max_remoteness(),
            tiers: self.tiers(),
            values_only: matches!(self, SolvedDb::Values(_)),
            checks_counts: matches!(self, SolvedDb::Records(_)),
            recorded_positions: self.recorded_positions(),
        }
    }

    fn lookup(&self, game: &G, pos: &G::Position) -> Result<Record, DbError> {
        SolvedDb::lookup(self, game, pos)
    }

    fn place(&self, game: &G, pos: &G::Position) -> Option<Place> {
        game.check(pos).ok()?;
        let kept = if self.symmetric() {
            game.canonical(pos)
        } else {
            *pos
        };
        let tier = game.tier_of(&kept);
        Some(Place {
            tier: game.tier_name(tier),
            rank: game.index(&kept),
            size: game.tier_size(tier),
        })
    }

    fn chunks<'a>(&'a self, game: &'a G, t: usize) -> Result<Chunks<'a, G::Position>, DbError> {
        self.walk_chunks(game, t, false)
    }

    fn canonical_chunks<'a>(&'a self, game: &'a G, t: usize) -> Result<Chunks<'a, G::Position>, DbError> {
        // A database of values holds a value at every position, canonical
        // or not, which `verify` counts: its positions all come.
        let records = matches!(self, SolvedDb::Records(_));
        self.walk_chunks(game, t, records && self.symmetric())
    }

    fn verify_blocks(&self, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<(), DbError> {
        SolvedDb::verify_blocks(self, progress)
    }

    /// A database of records loads as sparse tiers: two bytes a record
    /// held, a bit and a little more an index.
    fn loaded_bytes(&self) -> Option<u64> {
        let SolvedDb::Records(db) = self else {
            return None;
        };
        let held: u64 = db.header().counts.iter().sum();
        let indices: u64 = db.header().tiers.iter().map(|t| t.size).sum();
        Some(2 * held + indices.div_ceil(7) + 64 * db.header().tiers.len() as u64)
    }

    /// For a game that does not answer it itself
    /// ([`topitop_game_api::Reachability::Search`]), a search forward
    /// from the start ([`crate::reach::forward`]); past
    /// [`crate::reach::max_kept`] positions, none, said on standard
    /// error (what the game answers is then an upper bound).
    fn reachable<'a>(&'a self, game: &'a G) -> Option<Reachable<'a, G::Position>> {
        if game.reachability() != topitop_game_api::Reachability::Search {
            return None;
        }
        match crate::reach::search(game) {
            Ok(reached) => Some(Box::new(move |p| reached.contains(p))),
            Err(why) => {
                eprintln!("topitop: {why}");
                None
            }
        }
    }

    fn loaded<'a>(
        &'a self,
        game: &'a G,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Option<Lookup<'a, G::Position>>, DbError> {
        let SolvedDb::Records(db) = self else {
            return Ok(None);
        };
        let by_name: HashMap<String, G::Tier> =
            game.tiers().into_iter().map(|t| (game.tier_name(t), t)).collect();
        let header = db.header();
        let total: usize = header.tiers.iter().map(|t| t.blocks.len()).sum();
        let done = AtomicUsize::new(0);
        // Tier after tier, each one's blocks on every core: one tier is
        // whole at a time while it is made sparse.
        let mut tiers: QuickMap<G::Tier, SparseTier> = QuickMap::default();
        for (t, entry) in header.tiers.iter().enumerate() {
            let Some(&tier) = by_name.get(&entry.name) else {
                continue; // `lookup` names such a tier in its error
            };
            let blocks = topitop_par::try_map(entry.blocks.len(), |k| {
                let b = db.block_records(t, k);
                progress(done.fetch_add(1, Relaxed) + 1, total);
                b
            })?;
            tiers.insert(tier, SparseTier::from_dense(&blocks.concat()));
        }
        let symmetric = self.symmetric();
        Ok(Some(Box::new(move |p: &G::Position| {
            let c = if symmetric { game.canonical(p) } else { *p };
            let i = game.index(&c);
            match tiers.get(&game.tier_of(&c)) {
                Some(s) if i < s.len() => Ok(s.get(i)),
                // The error the file itself gives.
                _ => SolvedDb::lookup(self, game, p),
            }
        })))
    }
}

impl SolvedDb {
    /// The chunks of tier number `t`, positions found by walking the
    /// game's index (only canonical ones with `canonical_only`).
    fn walk_chunks<'a, G: Tiered>(
        &'a self,
        game: &'a G,
        t: usize,
        canonical_only: bool,
    ) -> Result<Chunks<'a, G::Position>, DbError> {
        let name = &self.tiers()[t].name;
        // `holds` checked the file's tiers against the game's on opening.
        let tier = game
            .tiers()
            .into_iter()
            .find(|&x| game.tier_name(x) == *name)
            .ok_or_else(|| {
                DbError::corrupt(
                    format!("tier {name}"),
                    format!("not a tier of {} {}", game.name(), game.variant()),
                )
                .in_file(self.path())
            })?;
        let mut start = 0u64;
        Ok(Box::new(self.tier_chunks(game, tier, t)?.map(move |records| {
            let records = records?;
            let first = start;
            start += records.len() as u64;
            // Unranking takes most of a pass: on every core, each thread
            // walking a run of indices (a game may step from one index to
            // the next more cheaply than it unranks each). The chunk is
            // filled in place, on every core too: a copy of it on one
            // thread took an eighth of
            // `verify`'s instructions.
            let mut chunk: Chunk<G::Position> = records.into_iter().map(|r| (None, r)).collect();
            topitop_par::chunks_mut(&mut chunk, WALK, |k, run| {
                let from = first + (k * WALK) as u64;
                let to = from + run.len() as u64;
                game.walk_positions(tier, from..to, canonical_only, &mut |i, p| {
                    run[(i - from) as usize].0 = Some(*p);
                });
            });
            Ok(chunk)
        })))
    }
}
