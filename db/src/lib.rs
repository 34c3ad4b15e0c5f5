//! Topitop position databases: one file per (ruleset, variant, budget)
//! holding the value and remoteness of every position, in zstd-compressed
//! blocks with checksums, read through a memory map. The format is
//! specified in `db/FORMAT.md`.

mod block;
mod cache;
pub mod database;
pub mod error;
pub mod gamesman_classic;
pub mod header;
pub mod layout;
pub mod write;

pub use cache::CacheStats;
pub use database::{Database, DEFAULT_CACHE_BYTES};
pub use error::DbError;
pub use header::Header;
pub use write::{write, WriteOptions, WriteSummary};

/// Opens `bytes` as a database and reads everything in it, returning the
/// first error. The fuzz target and the fuzz smoke test call this: it must
/// never panic, whatever the bytes.
pub fn read_all(bytes: &[u8]) -> Result<u64, DbError> {
    let db = Database::from_bytes("<bytes>", bytes.to_vec())?;
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
