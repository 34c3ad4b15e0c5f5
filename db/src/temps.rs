//! A database's writers on [`topitop_files::temps`]: the output is written
//! beside its target and renamed into place, and what a killed writer left
//! is removed by the next one.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use crate::error::DbError;

/// Removes the temporary files that writers of `path` killed before their
/// rename left behind ([`topitop_files::temps::temps_beside`]), whatever
/// process made them. Only for a caller that knows no other writer of
/// `path` is running (it holds a lock).
///
/// # Errors
/// The directory cannot be listed.
pub fn remove_stale_temps(path: &Path) -> Result<usize, DbError> {
    let temps = topitop_files::temps::temps_beside(path).map_err(|source| DbError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(temps
        .iter()
        .filter(|(t, _)| std::fs::remove_file(t).is_ok())
        .count())
}

/// Writes `path` whole or not at all
/// ([`topitop_files::temps::write_whole`]): `fill` writes the content.
///
/// # Errors
/// Writing, syncing or the rename, naming `path`.
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), DbError> {
    let io = |source| DbError::Io {
        path: path.to_path_buf(),
        source,
    };
    topitop_files::temps::write_whole(path, |out| fill(out).map_err(io), io)
}
