//! What every solve takes before it writes: the lock on its database,
//! and its output folder.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

/// The lock that keeps two solves from writing one database (and its
/// checkpoints) at once: an exclusive lock on `<database>.lock`. The file
/// goes when the lock is let go, on success, on an error or on a signal.
pub struct SolveLock {
    path: PathBuf,
    _file: File,
    /// Registered for removal should a signal end the process.
    _registered: topitop_files::temps::Temp,
}

impl SolveLock {
    /// Takes the lock of the database at `target`.
    pub fn take(target: &Path) -> anyhow::Result<SolveLock> {
        let mut name = target.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        let path = target.with_file_name(name);
        let registered = topitop_files::temps::Temp::file(&path);
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| anyhow::anyhow!("cannot create the lock file {}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(SolveLock {
                path,
                _file: file,
                _registered: registered,
            }),
            Err(TryLockError::WouldBlock) => {
                // Another solve's lock file: never ours to remove.
                drop(registered);
                anyhow::bail!(
                    "another solve is writing {} (it holds {}); wait for it to finish",
                    target.display(),
                    path.display()
                )
            }
            Err(TryLockError::Error(e)) => {
                anyhow::bail!("cannot lock {}: {e}", path.display())
            }
        }
    }

    /// Lets go of the lock; dropping it removes the lock file first.
    pub fn release(self) {
        drop(self);
    }
}

impl Drop for SolveLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Makes the output folder: its parents too (as before), but with an error
/// that says what is in the way (a file, a symbolic-link loop).
pub fn create_out_dir(out: &Path) -> anyhow::Result<()> {
    match std::fs::metadata(out) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(m) => anyhow::bail!(
            "--out {} is {}: solve writes its database into a folder",
            out.display(),
            topitop_files::describe(&m)
        ),
        // A symbolic link to nothing: creating the folder would fail with
        // "File exists", which names neither the link nor its target.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && out.is_symlink() => anyhow::bail!(
            "--out {} is a symbolic link to {}, which does not exist: create that folder, or give another --out",
            out.display(),
            std::fs::read_link(out).map_or_else(|_| "?".to_string(), |t| t.display().to_string())
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(out).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", out.display()))
        }
        Err(e) => anyhow::bail!("cannot use --out {}: {e}", out.display()),
    }
}
