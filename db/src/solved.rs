//! A solved game's database of either kind behind the game interface: the
//! records of [`crate::tiered`] (value and remoteness, zstd blocks) or the
//! values of [`crate::packed`] (remoteness from the game). The commands
//! and the server read both through this.

use std::path::Path;

use topitop_interface::{Record, Tiered};

use crate::error::DbError;
use crate::packed::PackedDb;
use crate::tiered::TieredDb;

/// An open database of a game behind the game interface.
pub enum SolvedDb {
    /// Records: value and remoteness at every index.
    Records(TieredDb),
    /// Values alone, the game giving the remoteness.
    Values(PackedDb),
}

/// One tier as the header gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierSummary {
    /// The game's name for it.
    pub name: String,
    /// Its indices.
    pub size: u64,
}

impl SolvedDb {
    /// Opens the database at `path`, of either kind (told by its magic
    /// number).
    ///
    /// # Errors
    /// The file cannot be read or is not a valid database.
    pub fn open(path: impl AsRef<Path>) -> Result<SolvedDb, DbError> {
        let path = path.as_ref();
        if crate::peek::magic(path)? == crate::packed::MAGIC {
            Ok(SolvedDb::Values(PackedDb::open(path)?))
        } else {
            Ok(SolvedDb::Records(TieredDb::open(path)?))
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        match self {
            SolvedDb::Records(d) => d.path(),
            SolvedDb::Values(d) => d.path(),
        }
    }

    /// Bytes of the file.
    pub fn file_len(&self) -> u64 {
        match self {
            SolvedDb::Records(d) => d.file_len(),
            SolvedDb::Values(d) => d.file_len(),
        }
    }

    /// The game and variant it holds, and the program that wrote it.
    pub fn names(&self) -> (&str, &str, &str) {
        match self {
            SolvedDb::Records(d) => {
                let h = d.header();
                (&h.game, &h.variant, &h.program)
            }
            SolvedDb::Values(d) => {
                let h = d.header();
                (&h.game, &h.variant, &h.program)
            }
        }
    }

    /// True when one position per symmetry class was solved.
    pub fn symmetric(&self) -> bool {
        match self {
            SolvedDb::Records(d) => d.header().symmetric,
            SolvedDb::Values(d) => d.header().symmetric,
        }
    }

    /// Positions stored by value: win, lose, tie, draw.
    pub fn counts(&self) -> [u64; 4] {
        match self {
            SolvedDb::Records(d) => d.header().counts,
            SolvedDb::Values(d) => d.header().counts(),
        }
    }

    /// The largest remoteness.
    pub fn max_remoteness(&self) -> u16 {
        match self {
            SolvedDb::Records(d) => d.header().max_remoteness,
            SolvedDb::Values(d) => d.header().max_remoteness,
        }
    }

    /// The tiers, in the order they are stored.
    pub fn tiers(&self) -> Vec<TierSummary> {
        match self {
            SolvedDb::Records(d) => d
                .header()
                .tiers
                .iter()
                .map(|t| TierSummary {
                    name: t.name.clone(),
                    size: t.size,
                })
                .collect(),
            SolvedDb::Values(d) => d
                .header()
                .tiers
                .iter()
                .map(|t| TierSummary {
                    name: t.name.clone(),
                    size: t.size,
                })
                .collect(),
        }
    }

    /// The positions of play and the symmetry classes stored, when the
    /// file records them (a value database does: counting them from the
    /// index of a large game would take as long as solving it).
    pub fn recorded_positions(&self) -> Option<(u64, u64)> {
        match self {
            SolvedDb::Records(_) => None,
            SolvedDb::Values(d) => Some(d.header().tiers.iter().fold((0, 0), |(p, c), t| {
                (p.saturating_add(t.positions), c + t.counts.iter().sum::<u64>())
            })),
        }
    }

    /// Checks that the database holds `game`'s variant, and everything
    /// its header says that the game can vouch for: its tier list (names,
    /// order and sizes) and, for values, the largest remoteness
    /// ([`TieredDb::holds`], [`PackedDb::holds`]). Every command and the
    /// server call this before the first lookup.
    ///
    /// # Errors
    /// [`DbError::OtherGame`], naming both; or a header the game refutes,
    /// naming the file.
    pub fn holds<G: Tiered>(&self, game: &G) -> Result<(), DbError> {
        match self {
            SolvedDb::Records(d) => d.holds(game),
            SolvedDb::Values(d) => d.holds(game),
        }
    }

    /// The record of `pos` of `game` (through its canonical form when the
    /// database holds one position per symmetry class).
    ///
    /// # Errors
    /// A position outside every tier, a game that does not give the
    /// remoteness a value database needs, or a damaged block.
    pub fn lookup<G: Tiered>(&self, game: &G, pos: &G::Position) -> Result<Record, DbError> {
        match self {
            SolvedDb::Records(d) => d.lookup(game, pos).map_err(|e| not_held(e, game, pos)),
            SolvedDb::Values(d) => {
                let pos = if d.header().symmetric {
                    game.canonical(pos)
                } else {
                    *pos
                };
                let tier = game.tier_of(&pos);
                let v = d
                    .get(&game.tier_name(tier), game.index(&pos))
                    .map_err(|e| not_held(e, game, &pos))?;
                Ok(Record::new(v, remoteness(game, tier)?))
            }
        }
    }

    /// The records of tier number `t` (its place in the file), `tier`
    /// being that tier of `game`.
    ///
    /// # Errors
    /// A damaged block, or a value database of a game that does not give
    /// the remoteness.
    pub fn tier_records<G: Tiered>(&self, game: &G, tier: G::Tier, t: usize) -> Result<Vec<Record>, DbError> {
        match self {
            SolvedDb::Records(d) => d.tier_records(t),
            SolvedDb::Values(d) => {
                let r = remoteness(game, tier)?;
                Ok(d.tier_values(t)?.into_iter().map(|v| Record::new(v, r)).collect())
            }
        }
    }

    /// Checks every block's checksum, calling `progress(done, total)` in
    /// blocks; for records, also the header's counts by value and largest
    /// remoteness against a recount ([`TieredDb::verify_blocks`]). A value
    /// database's counts are checked by its game's own verification, and
    /// its largest remoteness by [`SolvedDb::holds`].
    ///
    /// # Errors
    /// The first damaged block, or counts the records refute.
    pub fn verify_blocks(&self, progress: impl Fn(usize, usize) + Sync) -> Result<(), DbError> {
        match self {
            SolvedDb::Records(d) => d.verify_blocks(progress),
            SolvedDb::Values(d) => d.verify_blocks(progress),
        }
    }
}

/// `e`, naming the position `pos` when the database does not hold it.
fn not_held<G: Tiered>(e: DbError, game: &G, pos: &G::Position) -> DbError {
    match e {
        DbError::NotIndexable(what) => DbError::NotIndexable(format!(
            "position {} ({what} of {} {})",
            game.format_position(pos),
            game.name(),
            game.variant()
        )),
        e => e,
    }
}

/// The remoteness `game` fixes for `tier`.
fn remoteness<G: Tiered>(game: &G, tier: G::Tier) -> Result<u16, DbError> {
    game.fixed_remoteness(tier).ok_or_else(|| {
        DbError::corrupt(
            "database",
            format!(
                "a value database of {}, which does not give the remoteness of tier {}",
                game.name(),
                game.tier_name(tier)
            ),
        )
    })
}
