//! Rewriting a database of an older version of the shared formats in
//! today's (`topitop convert`): the same values and records, the same
//! header figures, stored as the current version stores them. The new
//! file is compared with the old one, tier by tier, before it takes the
//! old one's place, so a conversion never loses an answer.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use topitop_game_api::Record;

use crate::error::DbError;
use crate::packed::{self, PackedDb};
use crate::tiered::{self, TieredDb};

/// What a conversion did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Converted {
    /// The version the file was in.
    pub from_version: u16,
    /// The version written.
    pub to_version: u16,
    /// Bytes of the old file.
    pub old_bytes: u64,
    /// Bytes of the new file.
    pub new_bytes: u64,
    /// Where it went.
    pub path: PathBuf,
}

/// Rewrites the database at `from` in the current version, at `to` (which
/// may be `from`: then replaced only once the new file is written and
/// found to hold the same tiers, byte for byte once decompressed); a file
/// already current is left as it is (the versions equal in the answer),
/// compressing at zstd `level` (none: the format's default).
/// `progress(done, total)` is called as tiers are written and compared.
///
/// # Errors
/// A file of no shared format, a damaged block, or an I/O error; each
/// names the file.
pub fn convert(
    from: &Path,
    to: &Path,
    level: Option<i32>,
    progress: &dyn Fn(usize, usize),
) -> Result<Converted, DbError> {
    let magic = crate::peek::magic(from)?;
    let (from_version, to_version) = if magic == packed::MAGIC {
        (PackedDb::open(from)?.header().version, packed::VERSION)
    } else if magic == tiered::MAGIC {
        let (_, _, head) = crate::blocks::open_with_header(from, tiered::MAGIC, tiered::MAX_HEADER)?;
        let header = tiered::TieredHeader::decode(&head).map_err(|e| e.in_file(from))?;
        (header.version, tiered::VERSION)
    } else {
        return Err(DbError::corrupt(
            "file",
            "it is in none of the shared formats (a game with a format of its own converts its files itself)",
        )
        .in_file(from));
    };
    if from_version == to_version {
        let bytes = std::fs::metadata(from)
            .map_err(|source| DbError::Io {
                path: from.to_path_buf(),
                source,
            })?
            .len();
        return Ok(Converted {
            from_version,
            to_version,
            old_bytes: bytes,
            new_bytes: bytes,
            path: from.to_path_buf(),
        });
    }
    let (old_bytes, new_bytes) = rewrite(from, to, |staging| {
        if magic == packed::MAGIC {
            values(from, staging, level, progress)
        } else {
            records(from, staging, level, progress)
        }
    })?;
    Ok(Converted {
        from_version,
        to_version,
        old_bytes,
        new_bytes,
        path: to.to_path_buf(),
    })
}

/// Runs `make`, which writes the converted file at the path it is given
/// and checks it against the old one at `from`, returning the bytes of
/// both: at `to` itself when `to` is another file than `from`, else
/// beside it (`<name>.converting`), and renamed over the old file only
/// once `make` succeeded, so that a conversion that fails or is
/// interrupted leaves the old file as it was.
///
/// `to` must be a regular file or not exist yet: a directory, FIFO or
/// device there is refused, never replaced (a database is a file; the
/// atomic rename would put one in the device's place). A symbolic link
/// is followed, and the file it names replaced.
///
/// # Errors
/// A `to` that is no regular file; what `make` gives (the file it wrote
/// beside the old one removed), or the rename's.
pub fn rewrite(
    from: &Path,
    to: &Path,
    make: impl FnOnce(&Path) -> Result<(u64, u64), DbError>,
) -> Result<(u64, u64), DbError> {
    let to = &target(to)?;
    let same = same_file(from, to);
    let staging = if same { staging_path(to) } else { to.to_path_buf() };
    let made = make(&staging);
    if same {
        match made {
            Ok(_) => std::fs::rename(&staging, to).map_err(|source| DbError::Io {
                path: to.to_path_buf(),
                source,
            })?,
            Err(_) => {
                let _ = std::fs::remove_file(&staging);
            }
        }
    }
    made
}

/// A value database rewritten at `to` and compared; the bytes of both.
fn values(
    from: &Path,
    to: &Path,
    level: Option<i32>,
    progress: &dyn Fn(usize, usize),
) -> Result<(u64, u64), DbError> {
    let old = PackedDb::open(from)?;
    let tiers = old.header().tiers.len();
    let mut header = old.header().clone();
    header.version = packed::VERSION;
    header.blocks.clear();
    let level = level.unwrap_or(packed::DEFAULT_LEVEL);
    let dictionary = packed::train(&old.samples()?);
    packed::write_packed_trained(to, header, level, dictionary, |sink| {
        for t in 0..tiers {
            sink(&old.tier_bytes(t).map_err(std::io::Error::other)?)?;
            progress(t + 1, 2 * tiers);
        }
        Ok(())
    })?;
    let new = PackedDb::open(to)?;
    for t in 0..tiers {
        if new.tier_bytes(t)? != old.tier_bytes(t)? {
            return Err(differ(&old.header().tiers[t].name, to));
        }
        progress(tiers + t + 1, 2 * tiers);
    }
    Ok((old.file_len(), new.file_len()))
}

/// A tiered database rewritten at `to` and compared; the bytes of both.
fn records(
    from: &Path,
    to: &Path,
    level: Option<i32>,
    progress: &dyn Fn(usize, usize),
) -> Result<(u64, u64), DbError> {
    let old = TieredDb::open(from)?;
    let h = old.header();
    let tiers = h.tiers.len();
    let names: Vec<String> = h.tiers.iter().map(|t| t.name.clone()).collect();
    let tier_records = |db: &TieredDb, t: usize| -> Result<Vec<Record>, DbError> {
        let mut all = Vec::with_capacity(db.header().tiers[t].size as usize);
        for k in 0..db.header().tiers[t].blocks.len() {
            all.extend(db.block_records(t, k)?);
        }
        Ok(all)
    };
    let meta = tiered::TieredMeta {
        game: &h.game,
        variant: &h.variant,
        // The records are the solve's: its program still names them.
        program: &h.program,
        symmetric: h.symmetric,
        level: level.unwrap_or(tiered::DEFAULT_LEVEL),
    };
    tiered::write_tiered_from(to, &meta, &names, |t| {
        progress(t + 1, 2 * tiers);
        tier_records(&old, t).map(Cow::Owned)
    })?;
    let new = TieredDb::open(to)?;
    if (new.header().counts, new.header().max_remoteness) != (h.counts, h.max_remoteness) {
        return Err(
            DbError::corrupt("header", "the new file's counts differ from the old file's").in_file(to),
        );
    }
    for (t, name) in names.iter().enumerate() {
        if tier_records(&new, t)? != tier_records(&old, t)? {
            return Err(differ(name, to));
        }
        progress(tiers + t + 1, 2 * tiers);
    }
    Ok((old.file_len(), new.file_len()))
}

/// The error of a new file that does not hold what the old one held.
fn differ(tier: &str, path: &Path) -> DbError {
    DbError::corrupt(
        format!("tier {tier}"),
        "the new file's records differ from the old file's",
    )
    .in_file(path)
}

/// The file a conversion writes for the path `to`: `to`, or the file a
/// symbolic link there names.
fn target(to: &Path) -> Result<PathBuf, DbError> {
    let io = |source| DbError::Io {
        path: to.to_path_buf(),
        source,
    };
    match std::fs::metadata(to) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(to.to_path_buf()),
        Err(e) => Err(io(e)),
        Ok(m) if m.is_file() => std::fs::canonicalize(to).map_err(io),
        Ok(_) => Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a directory, FIFO or device); convert writes a database file: give the path of a file",
        ))),
    }
}

/// True when `a` and `b` name one file (or `b` does not exist and the
/// paths are equal).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Where a conversion in place writes before it replaces the old file:
/// beside it, so the rename is atomic.
fn staging_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".converting");
    path.with_file_name(name)
}
