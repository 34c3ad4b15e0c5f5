//! Memory-mapping a database file: the crate's only `unsafe` code.
#![allow(unsafe_code)]

use std::path::Path;

use memmap2::Mmap;
use topitop_db::DbError;

use crate::store::database::{Database, DEFAULT_CACHE_BYTES};

impl Database<Mmap> {
    /// Memory-maps the database at `path` and checks it as
    /// [`Database::open`] does, without reading the blocks: opening costs
    /// the same whatever the file's size, and pages are read as probes
    /// touch them.
    ///
    /// # Safety
    /// memmap2's contract ([`Mmap::map`]): while the database lives, no
    /// process may modify or truncate the file in place. Bytes changing
    /// under the map would be undefined behaviour, and a truncated file
    /// makes the next read of a lost page kill the process with SIGBUS.
    /// Replacing the file by renaming another over it is safe: the map
    /// keeps the old file. `topitop solve` always writes that way; copying
    /// over the file (`cp new.db old.db`) does not. A program that cannot
    /// rule that out uses [`Database::open`], which reads the file.
    ///
    /// # Errors
    /// As [`Database::open`].
    pub unsafe fn map(path: impl AsRef<Path>) -> Result<Database<Mmap>, DbError> {
        // SAFETY: forwarded to our caller.
        unsafe { Database::map_with_cache(path, DEFAULT_CACHE_BYTES) }
    }

    /// [`Database::map`] with a cache of `cache_bytes` decompressed bytes.
    ///
    /// # Safety
    /// As [`Database::map`].
    ///
    /// # Errors
    /// As [`Database::open`].
    pub unsafe fn map_with_cache(
        path: impl AsRef<Path>,
        cache_bytes: usize,
    ) -> Result<Database<Mmap>, DbError> {
        let path = path.as_ref();
        let io = |source| DbError::Io {
            path: path.to_path_buf(),
            source,
        };
        // Only a regular file: a FIFO would block the open, a device map
        // whatever it holds.
        let file = topitop_files::open_regular(path).map_err(io)?;
        // SAFETY: the map is read-only, and our caller promises that the
        // file is neither modified nor truncated while it is mapped.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        Database::with_cache(path, map, cache_bytes)
    }
}
