//! Writing GamesmanClassic's tier files: gzip members as its `gzwrite`
//! makes them, the `.idx` lookup files, and a whole option's folder
//! replaced atomically.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::{Compression, GzBuilder};
use games_topitop_table::Solution;
use rayon::prelude::*;

use topitop_db::DbError;

use super::slots::fill_tier_stream;
use super::{
    file_name, folder_name, idx_path, option_of, solved_tiers, GZIP_LEVEL, GZIP_OS_UNIX, MEMBER_BYTES,
};

/// What can go wrong when exporting to GamesmanClassic's format.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The rules are v0.
    #[error(
        "the v0 rules have no GamesmanClassic file layout: GamesmanClassic's tier database \
         belongs to its current Topitop module, whose options 0-7 are the v1 variants \
         (export a v1 database)"
    )]
    NoLayout,
    /// A tier number that is not a tier of the solution's budget.
    #[error("tier {0} is not a tier of this piece budget")]
    NoSuchTier(u64),
    /// A record that GamesmanClassic's 16 bits cannot hold.
    #[error("position {position} has the record {record}, which a GamesmanClassic record cannot hold")]
    Unstorable {
        /// The position.
        position: String,
        /// Its record.
        record: String,
    },
    /// A position of our index without a record.
    #[error("position {position} has no record")]
    NoRecord {
        /// The position.
        position: String,
    },
    /// Writing a file or folder failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Reading our database failed.
    #[error(transparent)]
    Db(#[from] DbError),
}

/// A tier file compressed as GamesmanClassic compresses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedTier {
    /// The file: the gzip members, then the empty member.
    pub bytes: Vec<u8>,
    /// Compressed size of each member but the empty one.
    pub members: Vec<u64>,
}

impl EncodedTier {
    /// The text of the tier's `.idx` file: each member's size on a line.
    pub fn idx(&self) -> String {
        self.members.iter().map(|m| format!("{m}\n")).collect()
    }
}

/// Compresses a tier's uncompressed stream as GamesmanClassic's solver
/// does: a gzip member (mtime 0, OS byte 3) per 2²⁰ bytes, then an empty
/// member, at zlib level `level` ([`GZIP_LEVEL`], 6, is GamesmanClassic's
/// own and gives its very bytes; any level gives the same stream).
///
/// # Panics
/// Never in practice: compressing into memory cannot fail.
pub fn encode_tier(stream: &[u8], level: u32) -> EncodedTier {
    let mut bytes = Vec::with_capacity(stream.len() / 8 + 64);
    let mut members = Vec::with_capacity(stream.len().div_ceil(MEMBER_BYTES));
    for chunk in stream.chunks(MEMBER_BYTES) {
        let before = bytes.len();
        bytes = gzip_member(bytes, chunk, level);
        members.push((bytes.len() - before) as u64);
    }
    // The last gzclose, after the reopening that followed the last record.
    bytes = gzip_member(bytes, &[], level);
    EncodedTier { bytes, members }
}

/// Appends to `out` one gzip member holding `data`, as zlib's `gzwrite`
/// writes it after `gzopen(…, "wb")`.
fn gzip_member(out: Vec<u8>, data: &[u8], level: u32) -> Vec<u8> {
    let mut z = GzBuilder::new()
        .operating_system(GZIP_OS_UNIX)
        .mtime(0)
        .write(out, Compression::new(level));
    z.write_all(data).expect("compressing into memory cannot fail");
    z.finish().expect("compressing into memory cannot fail")
}

/// The zlib level of [`ExportOptions::FAST`]: the fastest here (faster
/// than level 1 on these files, and smaller).
pub const FAST_LEVEL: u32 = 2;

/// How [`export`] compresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// The zlib level, 1–9.
    pub level: u32,
}

impl ExportOptions {
    /// GamesmanClassic's own level: files byte-identical to its solve's.
    pub const EXACT: ExportOptions = ExportOptions { level: GZIP_LEVEL };
    /// Level [`FAST_LEVEL`]: the same streams in a third of the time, in
    /// files about 1.7 times as large.
    pub const FAST: ExportOptions = ExportOptions { level: FAST_LEVEL };
}

/// What [`export`] wrote.
#[derive(Clone, Debug)]
pub struct ExportSummary {
    /// GamesmanClassic's option number.
    pub option: u8,
    /// The folder written (`<data dir>/mtopitop_<option>_tierdb`).
    pub folder: PathBuf,
    /// Tier files written.
    pub tiers: usize,
    /// Slots in them.
    pub slots: u64,
    /// Slots holding a value.
    pub solved: u64,
    /// Bytes of the tier files.
    pub compressed_bytes: u64,
}

/// Writes every tier file GamesmanClassic's solver writes for the
/// solution's rules, with their lookup files, as the folder
/// `mtopitop_<option>_tierdb` of GamesmanClassic's data directory
/// `data_dir`. The folder is built beside its target under a temporary name
/// and renamed into place at the end (replacing an older one); on failure
/// nothing is left behind. Tiers are computed and compressed in parallel,
/// largest first, one tier's stream in memory per thread, while one thread
/// writes and syncs the files; `progress(slots done, slots)` is called
/// after each tier.
///
/// # Errors
/// v0 rules, a record GamesmanClassic cannot store, or an I/O error.
///
/// # Panics
/// As [`tier_stream`](super::tier_stream).
pub fn export(
    solution: &Solution,
    data_dir: &Path,
    options: ExportOptions,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<ExportSummary, ExportError> {
    let option = option_of(solution.rules())?;
    let mut tiers = solved_tiers(solution.rules().budget());
    tiers.sort_by_key(|t| std::cmp::Reverse(t.size()));
    let slots: u64 = tiers.iter().map(|t| t.size()).sum();
    // The data directory itself may be made, but not missing parents: a
    // mistyped path is refused rather than grown into a tree.
    topitop_files::ensure_dir(data_dir).map_err(io(data_dir))?;
    let folder = data_dir.join(folder_name(option));
    let temp = TempFolder::create(data_dir, &folder_name(option))?;
    let done = AtomicU64::new(0);
    // Compressed files are small; a few wait for the writer.
    let (to_writer, files) = std::sync::mpsc::sync_channel::<(PathBuf, Vec<u8>)>(8);
    let (computed, written) = std::thread::scope(|scope| {
        // Owned here, so that a panic below drops it and the writer ends.
        let to_writer = to_writer;
        let writer = scope.spawn(move || {
            files
                .into_iter()
                .try_for_each(|(path, bytes)| write_synced(&path, &bytes))
        });
        let computed = tiers
            .par_iter()
            .map_init(Vec::new, |stream, &tier| {
                let solved = fill_tier_stream(solution, tier, stream)?;
                let encoded = encode_tier(stream, options.level);
                let idx = encoded.idx().into_bytes();
                let compressed = encoded.bytes.len() as u64;
                // A failed send means that the writer stopped on an error,
                // which the join below reports.
                let send = |name: PathBuf, bytes| {
                    to_writer
                        .send((temp.path.join(name), bytes))
                        .map_err(|_| io(&temp.path)(std::io::Error::other("the writer stopped")))
                };
                send(file_name(option, tier.number()).into(), encoded.bytes)?;
                send(idx_path(option, tier.number()), idx)?;
                progress(
                    done.fetch_add(tier.size(), Ordering::Relaxed) + tier.size(),
                    slots,
                );
                Ok((solved, compressed))
            })
            .collect::<Result<Vec<_>, ExportError>>();
        drop(to_writer);
        (computed, writer.join())
    });
    match written {
        Ok(result) => result?,
        Err(panic) => std::panic::resume_unwind(panic),
    }
    let computed = computed?;
    temp.replace(&folder)?;
    Ok(ExportSummary {
        option,
        folder,
        tiers: tiers.len(),
        slots,
        solved: computed.iter().map(|w| w.0).sum(),
        compressed_bytes: computed.iter().map(|w| w.1).sum(),
    })
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |source| ExportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `bytes` to a new file at `path` and syncs it.
fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    let mut f = std::fs::File::create(path).map_err(io(path))?;
    f.write_all(bytes).map_err(io(path))?;
    f.sync_all().map_err(io(path))
}

/// A folder being written under a temporary name, removed with everything
/// in it unless it is renamed into place.
struct TempFolder {
    path: PathBuf,
    kept: bool,
    /// Registered for removal should a signal end the process.
    registered: topitop_files::temps::Temp,
}

impl TempFolder {
    /// `.<name>.tmp.<pid>` in `parent`, with its `lookup` subfolder, new and
    /// empty (a leftover of a killed run with the same process id is
    /// removed first).
    fn create(parent: &Path, name: &str) -> Result<TempFolder, ExportError> {
        let path = parent.join(format!(".{name}.tmp.{}", std::process::id()));
        let registered = topitop_files::temps::Temp::folder(&path);
        if path.exists() {
            std::fs::remove_dir_all(&path).map_err(io(&path))?;
        }
        let lookup = path.join("lookup");
        std::fs::create_dir_all(&lookup).map_err(io(&lookup))?;
        Ok(TempFolder {
            path,
            kept: false,
            registered,
        })
    }

    /// Syncs the folder and renames it to `target`, first moving an
    /// existing `target` aside and removing it afterwards.
    fn replace(mut self, target: &Path) -> Result<(), ExportError> {
        for dir in [self.path.join("lookup"), self.path.clone()] {
            sync_dir(&dir)?;
        }
        let parent = target.parent().unwrap_or(Path::new("."));
        let old = self.path.with_extension(format!("old.{}", std::process::id()));
        let aside = topitop_files::temps::Temp::folder(&old);
        let had_old = target.exists();
        // Signals wait while the folders swap: one arriving before removes
        // the new folder and leaves the old in place, one after finds both
        // in place.
        self.registered
            .commit(|new| {
                if had_old {
                    std::fs::rename(target, &old)?;
                }
                if let Err(e) = std::fs::rename(new, target) {
                    if had_old {
                        // Put the previous folder back; the new one is removed on drop.
                        let _ = std::fs::rename(&old, target);
                    }
                    return Err(e);
                }
                Ok(())
            })
            .map_err(io(target))?;
        self.kept = true;
        sync_dir(parent)?;
        if had_old {
            std::fs::remove_dir_all(&old).map_err(io(&old))?;
        }
        drop(aside);
        Ok(())
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

fn sync_dir(dir: &Path) -> Result<(), ExportError> {
    std::fs::File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(io(dir))
}
