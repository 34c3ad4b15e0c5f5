//! Topitop's position databases: one file per (ruleset, variant, budget)
//! holding the value and remoteness of every position, in zstd-compressed
//! blocks with checksums. The format is specified in `db/FORMAT.md`.
//!
//! A [`Database`] reads from any bytes (`D: AsRef<[u8]>`): a file read into
//! memory ([`Database::open`], safe whatever happens to the file), a memory
//! map ([`Database::map`], `unsafe`: the caller promises the file is not
//! changed in place), or a buffer. The map is this crate's only `unsafe`
//! code, in the `mmap` module.

mod block;
mod cache;
pub mod database;
pub mod gamesman_classic;
pub mod header;
mod mmap;
mod reader;
pub mod write;

use std::path::{Path, PathBuf};

use games_topitop_rules::Rules;
use topitop_db::DbError;
use topitop_game_api::Game;

pub use cache::CacheStats;
pub use database::{Database, DEFAULT_CACHE_BYTES};
pub use header::Header;
pub use memmap2::Mmap;
pub use write::{write, WriteOptions, WriteSummary};

/// `topitop_<ruleset>_<variant>[_<B-R-S-L>].db`: the file name of the
/// database of `rules` (the budget is named only when it is not the
/// standard one).
pub fn file_name(rules: Rules) -> String {
    // The game interface's variant string, as every game's files are named.
    format!("topitop_{}.db", Game::variant(&rules))
}

/// `dir/`[`file_name`]: where the database of `rules` is kept in `dir`.
pub fn path_in(dir: &Path, rules: Rules) -> PathBuf {
    dir.join(file_name(rules))
}

/// Opens `bytes` as a database and reads everything in it, returning the
/// first error. The fuzz target and the fuzz smoke test call this: it must
/// never panic, whatever the bytes.
///
/// # Errors
/// The first problem found.
pub fn read_all(bytes: &[u8]) -> Result<u64, DbError> {
    let db = Database::new("<bytes>", bytes)?;
    let mut n = 0;
    for b in 0..db.blocks() {
        for (pos, rec) in db.block_positions(b)? {
            let again = db.get(pos)?;
            if again != rec {
                return Err(DbError::corrupt("lookup", format!("{pos}: {again} then {rec}")));
            }
            n += 1;
        }
    }
    db.verify_blocks(|_, _| {})?;
    Ok(n)
}
