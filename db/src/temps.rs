//! The temporary names every writer of a database uses: the output is
//! written beside its target and renamed into place, and what a killed
//! writer left is removed by the next one.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::DbError;

/// Removes the temporary files that writers of `path` killed before their
/// rename left behind (`<path>.tmp.<pid>`). Only for a caller that knows no
/// other writer of `path` is running (it holds a lock).
///
/// # Errors
/// The directory cannot be listed.
pub fn remove_stale_temps(path: &Path) -> Result<usize, DbError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut prefix = path.file_name().unwrap_or_default().to_os_string();
    prefix.push(".tmp.");
    let prefix = prefix.to_string_lossy().into_owned();
    let entries = fs::read_dir(dir).map_err(|source| DbError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let is_temp = name
            .strip_prefix(&prefix)
            .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
        if is_temp && fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    Ok(removed)
}

/// `<path>.tmp.<pid>` beside the target, so the rename stays in one file system.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp.{}", std::process::id()));
    path.with_file_name(name)
}

/// Writes `path` through [`temp_path`]: `fill` writes the content, which is
/// synced and renamed into place, so `path` is either whole or as it was.
/// The temporary is registered for removal on a signal, and removed on an
/// error.
///
/// # Errors
/// Writing (naming the temporary) or the rename (naming `path`).
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), DbError> {
    let tmp = temp_path(path);
    let registered = topitop_files::temps::Temp::file(&tmp);
    let written = (|| {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        fill(&mut out)?;
        out.flush()?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    })();
    if let Err(source) = written {
        let _ = fs::remove_file(&tmp);
        return Err(DbError::Io { path: tmp, source });
    }
    if let Err(source) = registered.commit(|t| fs::rename(t, path)) {
        let _ = fs::remove_file(&tmp);
        return Err(DbError::Io {
            path: path.to_path_buf(),
            source,
        });
    }
    Ok(())
}
