//! Temporary files and folders that a signal must not leave behind.
//!
//! Every command writes its outputs beside their targets under temporary
//! names and renames them into place when complete. A [`Temp`] registers
//! such a name while it exists; [`remove_on_signals`] starts a thread that,
//! when SIGINT, SIGTERM or SIGHUP arrives, removes every registered name and
//! ends the process with status 128 + the signal's number, as a shell
//! reports a process the signal killed. The registry is process-wide
//! because signals are: it is the one piece of global state, and it only
//! ever holds paths.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The registered names, by registration number.
static LIVE: Mutex<BTreeMap<u64, (PathBuf, bool)>> = Mutex::new(BTreeMap::new());
static NEXT: AtomicU64 = AtomicU64::new(0);

fn live() -> MutexGuard<'static, BTreeMap<u64, (PathBuf, bool)>> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A temporary name registered for removal on a signal. Dropping it only
/// takes it off the register: removing the file on an error is its
/// owner's work, as before.
#[derive(Debug)]
pub struct Temp {
    id: u64,
    path: PathBuf,
}

impl Temp {
    /// Registers the temporary file `path` (call it before creating it).
    pub fn file(path: impl Into<PathBuf>) -> Temp {
        Temp::register(path.into(), false)
    }

    /// Registers the temporary folder `path`, removed with its contents.
    pub fn folder(path: impl Into<PathBuf>) -> Temp {
        Temp::register(path.into(), true)
    }

    /// Registers a new temporary file beside `target`:
    /// `<target>.tmp.<pid>.<n>`, with `n` this registration's number, so
    /// that two outputs of one process never share a temporary, even when
    /// they name one target (through links, or twice).
    pub fn beside(target: &Path) -> Temp {
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut name = target.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".tmp.{}.{id}", std::process::id()));
        Temp::insert(id, target.with_file_name(name), false)
    }

    fn register(path: PathBuf, folder: bool) -> Temp {
        Temp::insert(NEXT.fetch_add(1, Ordering::Relaxed), path, folder)
    }

    fn insert(id: u64, path: PathBuf, folder: bool) -> Temp {
        live().insert(id, (path.clone(), folder));
        Temp { id, path }
    }

    /// The registered name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `keep` (the rename that puts the temporary in place) with
    /// signals held off, and takes the name off the register if it
    /// succeeds: a signal arrives either before (the temporary is removed)
    /// or after (the output is complete), never between.
    ///
    /// # Errors
    /// Those of `keep`; the name stays registered.
    pub fn commit<T>(&self, keep: impl FnOnce(&Path) -> std::io::Result<T>) -> std::io::Result<T> {
        let mut live = live();
        let kept = keep(&self.path)?;
        live.remove(&self.id);
        Ok(kept)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        live().remove(&self.id);
    }
}

/// Writes `target` whole or not at all: `fill` writes into a temporary
/// beside it ([`Temp::beside`], so the rename stays in one file system),
/// which is flushed, synced and renamed over `target`, and the folder
/// synced so that the rename survives a crash. On any error the temporary
/// is removed and `target` is as it was. `io` makes the caller's error of
/// an I/O error; it is the caller's to name `target` in it (the temporary
/// is this function's detail, and gone when the error is seen).
///
/// # Errors
/// Those of `fill`, and writing, syncing or renaming the temporary.
pub fn write_whole<T, E>(
    target: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> Result<T, E>,
    io: impl Fn(std::io::Error) -> E,
) -> Result<T, E> {
    let tmp = Temp::beside(target);
    let written = (|| {
        let file = File::create(tmp.path()).map_err(&io)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let value = fill(&mut out)?;
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(&io)?;
        Ok(value)
    })();
    let kept = written.and_then(|value| {
        tmp.commit(|t| std::fs::rename(t, target)).map_err(&io)?;
        Ok(value)
    });
    match kept {
        Ok(value) => {
            // Not every platform can sync a folder; the data is safe either way.
            if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = File::open(dir).and_then(|d| d.sync_all());
            }
            Ok(value)
        }
        Err(e) => {
            let _ = std::fs::remove_file(tmp.path());
            Err(e)
        }
    }
}

/// The temporaries of `target` that are on disk (`<target>.tmp.<pid>.<n>`
/// from [`Temp::beside`], or `<target>.tmp.<pid>` from older builds), each
/// with the id of the process that made it: what a writer killed before
/// its rename left behind, if that process is gone. Names of that shape
/// only, so that nothing else beside the target is ever taken for one.
///
/// # Errors
/// The folder cannot be listed.
pub fn temps_beside(target: &Path) -> std::io::Result<Vec<(PathBuf, u32)>> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return Ok(Vec::new());
    };
    let prefix = format!("{name}.tmp.");
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)
        .map_err(|e| crate::named(dir, e))?
        .flatten()
    {
        let file = e.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let (pid, n) = rest.split_once('.').unwrap_or((rest, "0"));
        if let (true, Ok(pid)) = (digits(n), pid.parse::<u32>()) {
            out.push((e.path(), pid));
        }
    }
    Ok(out)
}

/// The names registered now (for tests).
pub fn registered() -> Vec<PathBuf> {
    live().values().map(|(p, _)| p.clone()).collect()
}

/// Removes every registered name; returns how many were there.
fn remove_all(live: &BTreeMap<u64, (PathBuf, bool)>) -> usize {
    let mut removed = 0;
    for (path, folder) in live.values() {
        let gone = if *folder {
            remove_folder(path)
        } else {
            std::fs::remove_file(path)
        };
        removed += usize::from(gone.is_ok());
    }
    removed
}

/// Removes a folder that other threads may still be writing into: renamed
/// first, so that no new file can be made in it by its name, then removed.
fn remove_folder(path: &Path) -> std::io::Result<()> {
    let mut doomed = path.as_os_str().to_os_string();
    doomed.push(".removing");
    let doomed = PathBuf::from(doomed);
    std::fs::rename(path, &doomed)?;
    let mut result = std::fs::remove_dir_all(&doomed);
    for _ in 0..10 {
        if result.is_ok() {
            break;
        }
        // A file being made as the folder was renamed: once more.
        std::thread::sleep(std::time::Duration::from_millis(10));
        result = std::fs::remove_dir_all(&doomed);
    }
    result
}

/// Starts the thread that, on SIGINT, SIGTERM or SIGHUP, removes every
/// registered temporary and ends the process with status 128 + signal.
/// A command that handles signals itself (a server shutting down
/// gracefully) does not call this.
///
/// # Errors
/// The handlers cannot be installed or the thread cannot start.
pub fn remove_on_signals() -> std::io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the process ends: no rename starts after this.
                let live = live();
                let removed = remove_all(&live);
                let name = match signal {
                    SIGINT => "SIGINT",
                    SIGTERM => "SIGTERM",
                    _ => "SIGHUP",
                };
                let note = if removed > 0 {
                    format!("; removed {removed} unfinished output(s)")
                } else {
                    String::new()
                };
                let _ = writeln!(std::io::stderr(), "interrupted by {name}{note}");
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_registered_until_committed_or_dropped() {
        let d = tempfile::tempdir().unwrap();
        let a = Temp::file(d.path().join("a.tmp"));
        let b = Temp::folder(d.path().join("b.tmp"));
        assert!(registered().contains(&d.path().join("a.tmp")));
        std::fs::write(a.path(), "x").unwrap();
        a.commit(|p| std::fs::rename(p, d.path().join("a"))).unwrap();
        assert!(!registered().contains(&d.path().join("a.tmp")));
        assert!(registered().contains(&d.path().join("b.tmp")));
        drop(b);
        assert!(!registered().contains(&d.path().join("b.tmp")));
    }

    #[test]
    fn temporaries_beside_one_target_have_different_names() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("t.csv");
        let (a, b) = (Temp::beside(&target), Temp::beside(&target));
        assert_ne!(a.path(), b.path());
        for t in [&a, &b] {
            assert_eq!(t.path().parent(), Some(d.path()));
            let name = t.path().file_name().unwrap().to_str().unwrap();
            let rest = name.strip_prefix(&format!("t.csv.tmp.{}.", std::process::id()));
            assert!(rest.is_some_and(|n| n.parse::<u64>().is_ok()), "{name}");
            assert!(registered().contains(&t.path().to_path_buf()));
        }
    }

    #[test]
    fn a_failed_commit_stays_registered() {
        let d = tempfile::tempdir().unwrap();
        let a = Temp::file(d.path().join("never.tmp"));
        assert!(a.commit(|p| std::fs::rename(p, d.path().join("x"))).is_err());
        assert!(registered().contains(&d.path().join("never.tmp")));
    }

    #[test]
    fn removing_takes_files_and_folders() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("f"), "x").unwrap();
        std::fs::create_dir_all(d.path().join("g/h")).unwrap();
        let mut map = BTreeMap::new();
        map.insert(0, (d.path().join("f"), false));
        map.insert(1, (d.path().join("g"), true));
        map.insert(2, (d.path().join("absent"), false));
        assert_eq!(remove_all(&map), 2);
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
    }
}
