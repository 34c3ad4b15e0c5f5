//! A solved game's database of either kind behind the game interface: the
//! records of [`crate::tiered`] (value and remoteness, zstd blocks) or the
//! values of [`crate::packed`] (remoteness from the game). The commands
//! and the server read both through this.

use std::path::Path;

use topitop_game_api::{Record, Tiered};

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

/// The fields both headers share, borrowed from either.
struct Head<'a> {
    game: &'a str,
    variant: &'a str,
    program: &'a str,
    symmetric: bool,
    max_remoteness: u16,
    /// Each tier's name and size, in file order.
    tiers: Vec<(&'a str, u64)>,
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

    /// The file's format and version.
    pub fn format(&self) -> crate::reader::FormatVersion {
        match self {
            SolvedDb::Records(d) => d.format(),
            SolvedDb::Values(d) => d.format(),
        }
    }

    /// Bytes of the file.
    pub fn file_len(&self) -> u64 {
        match self {
            SolvedDb::Records(d) => d.file_len(),
            SolvedDb::Values(d) => d.file_len(),
        }
    }

    /// What both formats' headers record, in one shape: the accessors
    /// below read a field of it instead of telling the formats apart each.
    fn head(&self) -> Head<'_> {
        // The two header types name these fields alike; their formats
        // differ, so the types stay two.
        macro_rules! head {
            ($h:expr) => {{
                let h = $h;
                Head {
                    game: &h.game,
                    variant: &h.variant,
                    program: &h.program,
                    symmetric: h.symmetric,
                    max_remoteness: h.max_remoteness,
                    tiers: h.tiers.iter().map(|t| (&*t.name, t.size)).collect(),
                }
            }};
        }
        match self {
            SolvedDb::Records(d) => head!(d.header()),
            SolvedDb::Values(d) => head!(d.header()),
        }
    }

    /// The game and variant it holds, and the program that wrote it.
    pub fn names(&self) -> (&str, &str, &str) {
        let h = self.head();
        (h.game, h.variant, h.program)
    }

    /// True when one position per symmetry class was solved.
    pub fn symmetric(&self) -> bool {
        self.head().symmetric
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
        self.head().max_remoteness
    }

    /// The tiers, in the order they are stored.
    pub fn tiers(&self) -> Vec<TierSummary> {
        let to_summary = |(name, size): (&str, u64)| TierSummary {
            name: name.into(),
            size,
        };
        self.head().tiers.into_iter().map(to_summary).collect()
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

/// Indices in a chunk of [`SolvedDb::tier_chunks`]: a block of a records
/// database, and as many of a value database's.
pub const CHUNK_RECORDS: u64 = crate::tiered::BLOCK_RECORDS;

/// One tier's records in chunks of [`CHUNK_RECORDS`] (the last fewer), in
/// index order, for a pass over a whole database that holds one chunk at
/// a time: a records database's blocks are decompressed without being
/// kept, a value database's tier is read as its packed bytes (a fifth of
/// a byte an index) and expanded a chunk at a time.
pub struct TierChunks<'a> {
    source: ChunkSource<'a>,
    /// The next chunk's number.
    next: u64,
    /// Chunks in the tier.
    count: u64,
}

enum ChunkSource<'a> {
    Records {
        db: &'a TieredDb,
        t: usize,
    },
    Values {
        db: &'a PackedDb,
        t: usize,
        packed: Vec<u8>,
        remoteness: u16,
    },
}

impl SolvedDb {
    /// The records of tier number `t` (its place in the file), `tier`
    /// being that tier of `game`, a chunk at a time ([`TierChunks`]).
    ///
    /// # Errors
    /// A value database of a game that does not give the remoteness, or a
    /// damaged block of the tier's packed bytes (a records database's
    /// blocks are checked as each chunk is read).
    pub fn tier_chunks<G: Tiered>(
        &self,
        game: &G,
        tier: G::Tier,
        t: usize,
    ) -> Result<TierChunks<'_>, DbError> {
        let size = self.head().tiers[t].1;
        let source = match self {
            SolvedDb::Records(db) => ChunkSource::Records { db, t },
            SolvedDb::Values(db) => ChunkSource::Values {
                db,
                t,
                packed: db.tier_bytes(t)?,
                remoteness: remoteness(game, tier)?,
            },
        };
        Ok(TierChunks {
            source,
            next: 0,
            count: size.div_ceil(CHUNK_RECORDS),
        })
    }
}

impl Iterator for TierChunks<'_> {
    type Item = Result<Vec<Record>, DbError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next == self.count {
            return None;
        }
        let k = self.next;
        self.next += 1;
        Some(match &self.source {
            ChunkSource::Records { db, t } => db.block_records(*t, k as usize),
            ChunkSource::Values {
                db,
                t,
                packed,
                remoteness,
            } => values_chunk(db, *t, packed, k, *remoteness),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.count - self.next).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

/// Chunk `k` of tier `t` of a value database, from the tier's `packed`
/// bytes, each value at the tier's `remoteness`.
fn values_chunk(
    db: &PackedDb,
    t: usize,
    packed: &[u8],
    k: u64,
    remoteness: u16,
) -> Result<Vec<Record>, DbError> {
    use crate::packed::{digit, trit, PER_BYTE};
    use topitop_game_api::Value;
    // The value of each digit, from the packing's own mapping.
    let mut of_digit = [Value::Win; 3];
    for v in [Value::Win, Value::Lose, Value::Tie] {
        of_digit[usize::from(trit(v))] = v;
    }
    let tier = &db.header().tiers[t];
    let start = k * CHUNK_RECORDS;
    let end = tier.size.min(start + CHUNK_RECORDS);
    (start..end)
        .map(|i| {
            let at = (i / PER_BYTE) as usize;
            let byte = packed[at];
            let d = digit(byte, i % PER_BYTE).ok_or_else(|| {
                DbError::corrupt(format!("tier {}", tier.name), format!("byte {at}: {byte:#04x}"))
                    .in_file(db.path())
            })?;
            Ok(Record::new(of_digit[usize::from(d)], remoteness))
        })
        .collect()
}

#[cfg(test)]
mod chunk_tests {
    use super::*;
    use crate::packed::{pack_tier, write_packed, PackedHeader};

    #[test]
    fn a_value_tier_in_chunks_is_the_tier() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g_v.db");
        // Sizes across a chunk's edge, and a chunk's edge in mid-byte
        // (CHUNK_RECORDS is not a multiple of five).
        let sizes = [3u64, CHUNK_RECORDS, 2 * CHUNK_RECORDS + 7];
        let (mut data, mut tiers) = (Vec::new(), Vec::new());
        for (k, &size) in sizes.iter().enumerate() {
            let trits: Vec<u8> = (0..size).map(|i| ((i * 5 + k as u64) % 3) as u8).collect();
            tiers.push(pack_tier(format!("t{k}"), &trits, size, &mut data));
        }
        let header = PackedHeader {
            version: crate::packed::VERSION,
            game: "g".into(),
            variant: "v".into(),
            program: "test".into(),
            symmetric: false,
            max_remoteness: 7,
            dictionary: Vec::new(),
            tiers,
            blocks: Vec::new(),
        };
        write_packed(&path, header, &data).unwrap();
        let db = PackedDb::open(&path).unwrap();
        for (t, &size) in sizes.iter().enumerate() {
            let packed = db.tier_bytes(t).unwrap();
            let chunks: Vec<Vec<Record>> = (0..size.div_ceil(CHUNK_RECORDS))
                .map(|k| values_chunk(&db, t, &packed, k, 7).unwrap())
                .collect();
            assert!(chunks.iter().all(|c| c.len() as u64 <= CHUNK_RECORDS));
            let expected: Vec<Record> = db
                .tier_values(t)
                .unwrap()
                .into_iter()
                .map(|v| Record::new(v, 7))
                .collect();
            assert_eq!(chunks.concat(), expected, "tier {t}");
        }
        // A byte no packing makes is refused, naming the tier and the file.
        let mut bad = db.tier_bytes(2).unwrap();
        bad[CHUNK_RECORDS as usize / 5 + 1] = 250;
        let e = values_chunk(&db, 2, &bad, 1, 7).unwrap_err().to_string();
        assert!(e.contains("tier t2") && e.contains("g_v.db"), "{e}");
    }
}
